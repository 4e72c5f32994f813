"""numba loops for random kernels over many elements (through _jit.compiled): PyTorch's
AVX2 normal fill and the Fisher-Yates randperm, in one pass instead of _box_muller's
~100 NumPy passes (an Embedding(30522, 384) init: seconds -> tens of milliseconds).

The arithmetic is _box_muller's, element by element: float32 operations, and the
multiply-adds PyTorch's compiler fuses as true fused multiply-adds (llvm.fma), no other
contraction (no fastmath)."""
import math

import numpy as np
from numba import njit

from ._box_muller import _COS_P, _DP, _LOG_P, _SIN_P
from ._update_loops import _fma

_JIT = {"cache": True, "nogil": True}
f32 = np.float32
_MIN_NORMAL, _SQRT_HALF = f32(1.17549435e-38), f32(0.707106781186547524)
_Q1, _Q2, _HALF, _ONE = f32(-2.12194440e-4), f32(0.693359375), f32(-0.5), f32(1)
_FOUR_OVER_PI, _TWO_PI, _MINUS_TWO = f32(1.27323954473516), f32(2 * np.pi), f32(-2)
_L0, _L1, _L2, _L3, _L4, _L5, _L6, _L7, _L8 = _LOG_P
_S0, _S1, _S2 = _SIN_P
_C0, _C1, _C2 = _COS_P
_D1, _D2, _D3 = _DP


@njit(**_JIT)
def _log(x):
    m, e = math.frexp(max(x, _MIN_NORMAL))  # x = m * 2**e, m in [0.5, 1)
    m, e = f32(m), f32(e)
    x = m - _ONE
    if m < _SQRT_HALF:
        e -= _ONE
        x += m
    z = x * x
    y = _L0
    for c in (_L1, _L2, _L3, _L4, _L5, _L6, _L7, _L8):
        y = _fma(y, x, c)
    y = _fma(y * x, z, e * _Q1)
    y = _fma(z, _HALF, y)
    return _fma(e, _Q2, x + y)


@njit(**_JIT)
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
    s, c = (ys, yc) if (j & 2) == 0 else (yc, ys)
    if negative != ((j & 4) != 0):
        s = -s
    if ((j - 2) & 4) == 0:
        c = -c
    return s, c


@njit(**_JIT)
def _block(u, at, out, to, mean, std):
    for j in range(8):
        radius = np.sqrt(_MINUS_TWO * _log(_ONE - u[at + j]))
        s, c = _sincos(_TWO_PI * u[at + 8 + j])
        out[to + j] = _fma(radius * c, std, mean)
        out[to + 8 + j] = _fma(radius * s, std, mean)


@njit(**_JIT)
def normal_avx2(u, out, mean, std):
    """out (n >= 16 float32) from n uniforms (n + 16 when n % 16: the redrawn tail)."""
    n = out.size
    full = n // 16 * 16
    for b in range(0, full, 16):
        _block(u, b, out, b, mean, std)
    if n != full:
        _block(u, n, out, n - 16, mean, std)


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
