"""numba loops for random kernels over many elements (through _jit.compiled): PyTorch's
AVX2 normal fill and the Fisher-Yates randperm, in one pass instead of _box_muller's
~100 NumPy passes (an Embedding(30522, 384) init: seconds -> tens of milliseconds).

The arithmetic is _box_muller's, element by element: float32 operations, and the
multiply-adds PyTorch's compiler fuses as true fused multiply-adds (llvm.fma), no other
contraction (no fastmath).  Written so that LLVM vectorizes the normal fill (branch-free,
frexp as bit operations, inlined, over contiguous lanes): randn(10**6) ~5 ms -> ~0.8 ms."""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ._box_muller import _COS_P, _DP, _LOG_P, _SIN_P
from ._update_loops import _fma

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}  # (numpy: sqrt as llvm.sqrt)
f32 = np.float32
_MIN_NORMAL, _SQRT_HALF = f32(1.17549435e-38), f32(0.707106781186547524)
_Q1, _Q2, _HALF, _ONE = f32(-2.12194440e-4), f32(0.693359375), f32(-0.5), f32(1)
_FOUR_OVER_PI, _TWO_PI, _MINUS_TWO = f32(1.27323954473516), f32(2 * np.pi), f32(-2)
_L0, _L1, _L2, _L3, _L4, _L5, _L6, _L7, _L8 = _LOG_P
_S0, _S1, _S2 = _SIN_P
_C0, _C1, _C2 = _COS_P
_D1, _D2, _D3 = _DP


@intrinsic
def _bits(typingctx, x):
    """The bits of a float32 as an int32 (a bit cast, which LLVM can vectorize; frexp, a
    libm call, it cannot)."""
    return types.int32(types.float32), lambda ctx, builder, sig, args: builder.bitcast(
        args[0], ir.IntType(32))


@intrinsic
def _from_bits(typingctx, i):
    return types.float32(types.int32), lambda ctx, builder, sig, args: builder.bitcast(
        args[0], ir.FloatType())


@njit(inline="always", **_JIT)
def _log(x):
    bits = _bits(max(x, _MIN_NORMAL))  # x = m * 2**e, m in [0.5, 1): frexp of a normal x > 0
    m = _from_bits(np.int32((bits & 0x007FFFFF) | 0x3F000000))
    e = f32((bits >> 23) - 126)
    small = m < _SQRT_HALF
    x = m - _ONE
    x = x + m if small else x
    e = e - _ONE if small else e
    z = x * x
    y = _L0
    for c in (_L1, _L2, _L3, _L4, _L5, _L6, _L7, _L8):
        y = _fma(y, x, c)
    y = _fma(y * x, z, e * _Q1)
    y = _fma(z, _HALF, y)
    return _fma(e, _Q2, x + y)


@njit(inline="always", **_JIT)
def _sincos(x):
    negative = x < 0
    x = abs(x)
    j = np.int32(x * _FOUR_OVER_PI)
    j = (j + 1) & ~1
    y = f32(j)
    x = _fma(y, _D1, x)
    x = _fma(y, _D2, x)
    x = _fma(y, _D3, x)
    z = x * x
    yc = _fma(_fma(_C0, z, _C1), z, _C2)
    yc = _fma(yc * z, z, z * _HALF) + _ONE
    ys = _fma(_fma(_S0, z, _S1), z, _S2)
    ys = _fma(ys * z, x, x)
    first = (j & 2) == 0
    s = ys if first else yc
    c = yc if first else ys
    s = -s if negative != ((j & 4) != 0) else s
    c = -c if ((j - 2) & 4) == 0 else c
    return s, c


@njit(**_JIT)
def _pairs(first, second, cos_out, sin_out, count, mean, std):
    """Box-Muller over the first `count` contiguous lanes (radius uniforms, angle
    uniforms): one flat loop, which LLVM vectorizes as PyTorch's kernel (8 or 16 lanes a
    step; whole arrays, not slices, whose layout numba does not know contiguous)."""
    for i in range(count):
        radius = np.sqrt(_MINUS_TWO * _log(_ONE - first[i]))
        s, c = _sincos(_TWO_PI * second[i])
        cos_out[i] = _fma(radius * c, std, mean)
        sin_out[i] = _fma(radius * s, std, mean)


_CHUNK = 1024  # blocks of 16 per pass over the lanes (4 x 32 KiB of temporaries)


@njit(**_JIT)
def normal_avx2(u, out, mean, std):
    """out (n >= 16 float32) from n uniforms (n + 16 when n % 16: the redrawn tail, whose
    block starts at u[n] and overwrites out[n - 16:]).  Each block's halves are gathered
    into contiguous lanes and its results scattered back."""
    n = out.size
    full = n // 16
    blocks = full + (1 if n % 16 else 0)
    first, second = np.empty(_CHUNK * 8, f32), np.empty(_CHUNK * 8, f32)
    cos_out, sin_out = np.empty(_CHUNK * 8, f32), np.empty(_CHUNK * 8, f32)
    for start in range(0, blocks, _CHUNK):
        count = min(_CHUNK, blocks - start)
        for k in range(count):
            at = 16 * (start + k) if start + k < full else n
            for j in range(8):  # (element loops: numba's slice assignments cost more)
                first[8 * k + j], second[8 * k + j] = u[at + j], u[at + 8 + j]
        _pairs(first, second, cos_out, sin_out, 8 * count, mean, std)
        for k in range(count):
            to = 16 * (start + k) if start + k < full else n - 16
            for j in range(8):
                out[to + j], out[to + 8 + j] = cos_out[8 * k + j], sin_out[8 * k + j]


@njit(**_JIT)
def randperm(offsets):
    """0..n-1 shuffled: position i swaps with i + offsets[i] (n - 1 offsets)."""
    perm = np.arange(offsets.size + 1)
    for i in range(offsets.size):
        k = i + offsets[i]
        perm[i], perm[k] = perm[k], perm[i]
    return perm


@njit(**_JIT)
def randperm_inside_out(perm, draws, start):
    """randperm's 64-bit shuffle over perm[start:start + draws.size] (kernels/random.py)."""
    for j in range(draws.size):
        i = start + j
        z = np.int64(draws[j] % np.uint64(i + 1))
        perm[i] = perm[z]
        perm[z] = i
