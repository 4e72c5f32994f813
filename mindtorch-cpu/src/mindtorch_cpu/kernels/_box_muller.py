"""Normal samples as PyTorch's CPU normal_ computes them (Box-Muller), bit for bit.

Three paths, chosen as PyTorch chooses them:
- `fill_avx2`: a contiguous float32 tensor of 16+ elements on an AVX2 build.  Uniforms in
  blocks of 16; the first 8 give radii, the last 8 angles; log and sincos are the cephes
  polynomials (avx_mathfun) evaluated in float32, with the multiply-adds fused as the
  compiler fuses them.  A tail of fewer than 16 redraws the last 16 elements.  (16-bit
  tensors go through the same float32 blocks, their tail drawn differently: see
  kernels/random.py's _normal_16_bit.)
- `fill_blocks`: the same blocks for float64 (and float32 without AVX2), with the C
  library's log/cos/sin in the tensor's dtype (kernels/_libm.py: not NumPy's ufuncs).
- `one_at_a_time`: everything else (fewer than 16 elements, non-contiguous): double
  Box-Muller pairs of 53-bit uniforms, the second of each pair cached in the generator.
"""
import numpy as np
from mindtorch._ops.decls.sampling import fma_parts

from . import _jit, _libm

f32, f64 = np.float32, np.float64
_TWO_PI = 2 * np.pi


def fma32(a, b, c):
    """float32 a * b + c with one rounding (the product is exact in float64)."""
    t = np.multiply(a, b, dtype=f64)
    return np.add(t, c, out=t, dtype=f64).astype(f32)


def fma64(a, b, c):
    """float64 a * b + c rounded once (error-free product and sum, then their errors)."""
    if np.isscalar(b) and b == 1 and np.isscalar(c) and c == 0:
        return np.asarray(a, f64)  # (a * 1 + 0: exact)
    return fma_parts(np.asarray(a, f64), np.asarray(b, f64), np.asarray(c, f64))[0]


def fma(a, b, c):
    """a * b + c rounded once in a's dtype (float32 or float64), as a compiled loop's FMA;
    where float64's split overflows (infinite or huge operands) the plain expression."""
    if np.asarray(a).dtype == f32:
        return fma32(a, b, c)
    r = fma64(a, b, c)
    return np.where(np.isnan(r), np.asarray(a, f64) * b + c, r)


def unit_uniform(engine, n, digits):
    """n uniforms in [0, 1) on a grid of 2**-digits, as uniform_real_distribution(0, 1)."""
    if digits == 53:
        r = engine.random64(n) & np.uint64((1 << 53) - 1)
        return r.astype(f64) * 2.0 ** -53
    r = engine.random(n) & np.uint64((1 << digits) - 1)
    return r.astype(f32) * f32(2.0 ** -digits)


# -- avx_mathfun's cephes log and sincos in float32 -------------------------------------
_LOG_P = [f32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                           -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                           2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_SIN_P = [f32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_COS_P = [f32(c) for c in (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]
_DP = [f32(c) for c in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)]


def _log(x):
    m, e = np.frexp(np.maximum(x, f32(1.17549435e-38)))  # x = m * 2**e, m in [0.5, 1)
    e = e.astype(f32)
    small = m < f32(0.707106781186547524)
    x = (m - f32(1)) + m * small  # (m * False: 0)
    e -= small
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for c in _LOG_P[1:]:
        y = fma32(y, x, c)
    y = fma32(y * x, z, e * f32(-2.12194440e-4))
    y = fma32(z, f32(-0.5), y)
    return fma32(e, f32(0.693359375), x + y)


def _sincos(x):
    negative = np.signbit(x)
    x = np.abs(x)
    j = (x * f32(1.27323954473516)).astype(np.int32)  # (4 / pi)
    j = (j + 1) & ~1
    y = j.astype(f32)
    for dp in _DP:  # x - y * pi / 4 in three parts
        x = fma32(y, dp, x)
    sin_negative = negative ^ ((j & 4) != 0)
    cos_negative = ((j - 2) & 4) == 0
    first = (j & 2) == 0
    z = x * x
    yc = np.full_like(x, _COS_P[0])
    for c in _COS_P[1:]:
        yc = fma32(yc, z, c)
    yc = fma32(yc * z, z, z * f32(-0.5)) + f32(1)
    ys = np.full_like(x, _SIN_P[0])
    for c in _SIN_P[1:]:
        ys = fma32(ys, z, c)
    ys = fma32(ys * z, x, x)
    s, c = np.where(first, ys, yc), np.where(first, yc, ys)
    return np.where(sin_negative, -s, s), np.where(cos_negative, -c, c)


def _blocks(u, pair):
    """Apply pair(u1 block, u2 block) -> (first 8, last 8) to each 16-block of u, then
    redraw a ragged tail as PyTorch does (u holds n + 16 uniforms when n % 16: the last
    16 are the tail's, whose results overwrite the last 16 elements)."""
    n = len(u) if len(u) % 16 == 0 else len(u) - 16
    full = n // 16 * 16
    b = np.concatenate([u[:full], u[n:]]).reshape(-1, 16) if n != full else u.reshape(-1, 16)
    first, second = pair(b[:, :8], b[:, 8:])
    done = np.concatenate([first, second], axis=1).reshape(-1)
    if n == full:
        return done
    out = np.empty(n, u.dtype)
    out[:full], out[n - 16:] = done[:full], done[full:]
    return out


def fill_avx2(engine, n, mean, std):
    u = unit_uniform(engine, n + (16 if n % 16 else 0), 24)
    # (one compiled pass, the same arithmetic, from _jit.EARLY_MIN_SIZE elements, or any size once
    # loaded: the NumPy path is ~100 array operations, ~60 us even for 16 elements)
    loops = _jit.early("_random_loops", n)
    if loops is not None:
        out = np.empty(n, f32)
        loops.normal_avx2(u, out, f32(mean), f32(std))
        return out
    mean, std = f32(mean), f32(std)

    def pair(first, second):
        radius = np.sqrt(f32(-2) * _log(f32(1) - first))
        s, c = _sincos(f32(_TWO_PI) * second)
        if std == 1:  # fma(x, 1, mean) is x + mean, rounded once (-0 + 0 is +0, as fma)
            return radius * c + mean, radius * s + mean
        return fma32(radius * c, std, mean), fma32(radius * s, std, mean)
    return _blocks(u, pair)


def fill_blocks(engine, n, mean, std, digits):
    """float64 (digits 53) in double; narrower dtypes through float32 math."""
    wide = digits == 53
    fma, ft = (fma64, f64) if wide else (fma32, f32)

    def pair(first, second):
        radius = np.sqrt(-2 * _libm.call("log", (1 - first).astype(ft))).astype(ft)
        theta = (_TWO_PI * second.astype(f64)).astype(ft)
        return (fma(radius * _libm.call("cos", theta), ft(std), ft(mean)),
                fma(radius * _libm.call("sin", theta), ft(std), ft(mean)))
    return _blocks(unit_uniform(engine, n + (16 if n % 16 else 0), digits), pair)


def one_at_a_time(engine, n, mean, std, fused=True):
    """n normals (float64) drawn one by one, using and leaving the generator's cache; each
    is x * std + mean, `fused` into one rounding as compilers contracting it do."""
    out = np.empty(n, f64)
    k = 0
    if n and engine.normal is not None:
        out[0], engine.normal, k = engine.normal, None, 1
    pairs = (n - k + 1) // 2
    if pairs:
        u = unit_uniform(engine, 2 * pairs, 53)
        radius = np.sqrt(-2.0 * _libm.call("log1p", -u[1::2]))
        theta = _TWO_PI * u[0::2]
        both = np.empty(2 * pairs, f64)
        both[0::2] = radius * _libm.call("cos", theta)
        both[1::2] = radius * _libm.call("sin", theta)
        out[k:] = both[:n - k]
        if (n - k) % 2:
            engine.normal = both[-1]
    return fma64(out, std, mean) if fused else out * std + mean
