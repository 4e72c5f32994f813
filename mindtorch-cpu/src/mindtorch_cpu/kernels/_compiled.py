"""Loops compiled by numba for kernels that NumPy would run as many passes over memory:
GELU (erf and exp per element), softmax and log_softmax over rows (exp per element), and
their backwards, the layer norm's backward rows (its forward: _layer_norm_loops.py); and
float32 expm1 / log1p, which NumPy runs as scalar libm calls (~13 ns an element, against
~2 for its exp); batch norm's per-channel statistics and affine passes.  Imported through
_jit.loops() on first use only; compiled once per dtype, cached on disk.

fastmath allows contraction into FMAs (and, in the row loops, reassociation so that their
sums vectorize), never 'no NaNs / no infs': those flow through as in PyTorch."""
import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._cpu_capability import vector_bytes
from ._gelu_minimax import COEFFS as _GM
from ._gelu_minimax import FIRST as _GM_FIRST
from ._gelu_minimax import INDEX_BIAS as _GM_BIAS
from ._gelu_minimax import LAST as _GM_LAST
from ._gelu_minimax import ONE_PIECE as _GM_ONE
from ._gelu_minimax import RBOUND as _GM_RBOUND

_JIT = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": {"contract"}}
_ROWS = {**_JIT, "fastmath": {"contract", "reassoc"}}


def _bitcast(result, argument, llvm_type):
    """An intrinsic reading a value's bits as another type of their width (free: a
    bitcast, which vectorizes)."""
    def typer(typingctx, value):
        return result(argument), lambda ctx, b, sig, args: b.bitcast(args[0], llvm_type)
    return intrinsic(typer)


_as_float32 = _bitcast(types.float32, types.int32, ir.FloatType())  # float32 of int32 bits
_bits = _bitcast(types.int32, types.float32, ir.IntType(32))  # the int32 bits of a float32
_as_float64 = _bitcast(types.float64, types.int64, ir.DoubleType())
_bits64 = _bitcast(types.int64, types.float64, ir.IntType(64))


_f = np.float32
# exp(-y) = 2^n exp(r), n = round(-y / ln 2) found by adding 1.5 * 2^23 (the sum's low
# mantissa bits are n), r = -y - n ln 2 in two parts (Cody & Waite), exp(r) by Taylor to r^7
# (|r| <= ln(2) / 2: under float32's rounding), 2^n built from its exponent bits.
_LOG2E, _SHIFTER = _f(1.4426950408889634), _f(1.5 * 2 ** 23)
_LN2_HI, _LN2_LO = _f(0.693359375), _f(-2.12194440e-4)
_E2, _E3, _E4, _E5, _E6, _E7 = (_f(1 / math.factorial(k)) for k in range(2, 8))
# Past y = 17, erf = 1 - exp(-y) t r rounds to 1 (exp(-y) t r < 2^-25); the clamp also keeps
# the products normal (subnormal ones cost ~5x on the CPUs measured).
_MAX_Y = _f(17)
_EXP_MIN = _f(87)  # exp(-y) past it: subnormal or 0 in float32, taken as 0

# erf as PyTorch's cpu GELU takes it (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7):
# erf(u) = 1 - t (a1 + t (a2 + ... + t a5)) exp(-u^2), t = 1 / (1 + p u), for u >= 0.
_P, _SQRT_HALF, _ONE, _HALF = _f(0.3275911), _f(math.sqrt(0.5)), _f(1), _f(0.5)
_A5, _A4, _A3, _A2, _A1 = (_f(c) for c in
                           (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))


@numba.njit(inline="always")
def _exp_neg(y):
    """exp(-y) of a float32 y in [0, 87], within about an ulp."""
    k = -y * _LOG2E + _SHIFTER
    n = k - _SHIFTER
    r = -y - n * _LN2_HI
    r = r - n * _LN2_LO
    p = ((((((_E7 * r + _E6) * r + _E5) * r + _E4) * r + _E3) * r + _E2) * r + _ONE) * r + _ONE
    return p * _as_float32((_bits(k) + np.int32(127)) << np.int32(23))


@numba.njit(**_JIT)
def gelu_f32(x, out):
    """out = gelu(x) = x / 2 (1 + erf(x / sqrt(2))), both 1-D contiguous float32, in the
    order of PyTorch's vectorized kernel's steps (most results bit-identical to its)."""
    for i in range(x.size):
        v = x[i]
        u = v * _SQRT_HALF
        t = _ONE / (_P * abs(u) + _ONE)
        r = (((_A5 * t + _A4) * t + _A3) * t + _A2) * t + _A1
        erf = _ONE - (_exp_neg(min(u * u, _MAX_Y)) * t) * r
        out[i] = v * _HALF * (_ONE + math.copysign(erf, u))


@numba.njit(inline="always")
def _gelu_minimax(v):
    """gelu(v) of a float32 v as oneDNN's avx512_core kernel (kernels/_gelu_minimax.py)."""
    bits = _bits(v)
    a_bits = bits & np.int32(0x7FFFFFFF)
    a = _as_float32(a_bits)
    k = min(max((a_bits + _GM_BIAS) >> 21, _GM_FIRST), _GM_LAST)
    k = _GM_ONE if a > _GM_RBOUND else k
    p = _GM[5, k]
    for degree in range(4, -1, -1):
        p = _fma(p, a, _GM[degree, k])
    erf = _as_float32(_bits(p) ^ (bits & np.int32(-1 << 31)))
    return v * (erf + _ONE) * _HALF


_V16, _I16 = ir.VectorType(ir.FloatType(), 16), ir.VectorType(ir.IntType(32), 16)


def _splat(vector_type, value):
    return ir.Constant(vector_type, [value] * 16)


@intrinsic
def _gelu_minimax16(typingctx, x, out, i):
    """out[i:i + 16] = _gelu_minimax(x[i:i + 16]) as AVX-512 vector code: the coefficients
    looked up with vpermi2ps from two registers, as oneDNN (~12x faster than the gathers
    LLVM makes of the scalar loop's table reads).  AVX-512 F only."""
    def codegen(context, builder, sig, args):
        module, v16, i16 = builder.module, _V16, _I16
        permute = module.declare_intrinsic("llvm.x86.avx512.vpermi2var.ps.512",
                                           fnty=ir.FunctionType(v16, [v16, i16, v16]))
        fma = module.declare_intrinsic("llvm.fma.v16f32", fnty=ir.FunctionType(v16, [v16] * 3))
        x_ptr, out_ptr = (builder.bitcast(builder.gep(
            context.make_array(ty)(context, builder, arg).data, [args[2]]), v16.as_pointer())
            for ty, arg in zip(sig.args[:2], args[:2]))
        v = builder.load(x_ptr, align=4)
        bits = builder.bitcast(v, i16)
        a_bits = builder.and_(bits, _splat(i16, 0x7FFFFFFF))
        a = builder.bitcast(a_bits, v16)
        k = builder.ashr(builder.add(a_bits, _splat(i16, int(_GM_BIAS))), _splat(i16, 21))
        for cmp, bound in (("<", _GM_FIRST), (">", _GM_LAST)):
            k = builder.select(builder.icmp_signed(cmp, k, _splat(i16, bound)),
                               _splat(i16, bound), k)
        past = builder.fcmp_ordered(">", a, _splat(v16, float(_GM_RBOUND)))
        k = builder.select(past, _splat(i16, _GM_ONE), k)

        def coefficients(degree):  # (pieces 0..15 in one register, 16..31 in the other)
            row = [float(c) for c in _GM[degree]] + [0.0] * (32 - _GM.shape[1])
            return builder.call(permute, [ir.Constant(v16, row[:16]), k,
                                          ir.Constant(v16, row[16:])])
        p = coefficients(5)
        for degree in range(4, -1, -1):
            p = builder.call(fma, [p, a, coefficients(degree)])
        sign = builder.and_(bits, _splat(i16, -1 << 31))
        erf = builder.bitcast(builder.xor(builder.bitcast(p, i16), sign), v16)
        gelu = builder.fmul(builder.fmul(v, builder.fadd(erf, _splat(v16, 1.0))),
                            _splat(v16, 0.5))
        builder.store(gelu, out_ptr, align=4)
        return context.get_dummy_value()
    return types.void(x, out, i), codegen


@numba.njit(**_JIT)
def gelu_minimax_f32(x, out):
    """out = gelu(x), both 1-D contiguous float32, as oneDNN's avx512_core kernel (the
    piecewise minimax erf of kernels/_gelu_minimax.py; bit-identical to it): 16 elements
    at a time in AVX-512 code, the rest one by one.  For AVX-512 CPUs only."""
    n = x.size
    i = 0
    while i + 16 <= n:
        _gelu_minimax16(x, out, i)
        i += 16
    for j in range(i, n):
        out[j] = _gelu_minimax(x[j])


_ALPHA_PDF = _f(1 / math.sqrt(2 * math.pi))  # the standard normal density's factor


@numba.njit(**_JIT)
def gelu_backward_f32(g, x, out):
    """out = g * (cdf(x) + x pdf(x)), all 1-D contiguous float32: PyTorch's GELU backward,
    cdf through the forward's erf (gelu_f32), pdf = exp(-x^2 / 2) / sqrt(2 pi)."""
    for i in range(x.size):
        v = x[i]
        u = v * _SQRT_HALF
        t = _ONE / (_P * abs(u) + _ONE)
        r = (((_A5 * t + _A4) * t + _A3) * t + _A2) * t + _A1
        uu = u * u
        erf = _ONE - (_exp_neg(min(uu, _MAX_Y)) * t) * r
        cdf = _HALF * (_ONE + math.copysign(erf, u))
        pdf = _exp_shifted(uu) * _ALPHA_PDF
        out[i] = g[i] * (cdf + v * pdf)


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (float32), where an exact match needs the fused step."""
    return types.float32(a, b, c), lambda ctx, builder, sig, args: builder.fma(*args)


# exp as PyTorch's vectorized cpu kernels take it (Sleef's expf, u10: sigmoid's exp; so
# sigmoid's results are bit-identical to PyTorch's): q = rint(x / ln 2), s = x - q ln 2 in
# two parts, exp(s) = 1 + s + s^2 P(s) (P of degree 5), times 2^q as two powers of two
# (so that a subnormal or overflowing result rounds once); 0 below -104, inf above 100.
_R_LN2 = _f(1.4426950408889634)
_L2U, _L2L = _f(0.693145751953125), _f(1.428606765330187e-06)
_Q5, _Q4, _Q3, _Q2, _Q1 = (_f(c) for c in (0.000198527617612853646, 0.00139304355252534151,
                                           0.00833336077630519867, 0.0416664853692054749,
                                           0.166666671633720398))


@numba.njit(inline="always")
def _pow2i(q):
    return _as_float32((q + np.int32(127)) << np.int32(23))


@numba.njit(inline="always")
def _expf(x):
    """exp(x) of a float32 x (NaN: NaN), within an ulp."""
    c = x if x > _f(-104) else _f(-104)  # noqa: FURB136 (a NaN takes -104: no NaN to int)
    c = c if c < _f(100) else _f(100)  # noqa: FURB136
    q = np.int32(np.rint(c * _R_LN2))
    qf = np.float32(q)
    s = _fma(qf, -_L2L, _fma(qf, -_L2U, x))
    u = _fma(_fma(_fma(_fma(_fma(_Q5, s, _Q4), s, _Q3), s, _Q2), s, _Q1), s, _HALF)
    u = _ONE + _fma(s * s, u, s)
    h = q >> np.int32(1)
    u = u * _pow2i(h) * _pow2i(q - h)
    u = _f(0) if x < _f(-104) else u
    return _f(np.inf) if x > _f(100) else u


@numba.njit(**_JIT)
def sigmoid_f32(x, out):
    """out = 1 / (1 + exp(0 - x)), PyTorch's steps (bit-identical to its vectorized
    kernel)."""
    for i in range(x.size):
        out[i] = _ONE / (_ONE + _expf(_f(0) - x[i]))


@numba.njit(**_JIT)
def sigmoid_backward_f32(g, y, out):
    """out = g (1 - y) y, y = sigmoid's output (PyTorch's order)."""
    for i in range(y.size):
        out[i] = g[i] * (_ONE - y[i]) * y[i]


@numba.njit(**_JIT)
def tanh_backward_f32(g, y, out):
    """out = g (1 - y^2), y = tanh's output (1 - y^2 fused, as PyTorch's kernel)."""
    for i in range(y.size):
        out[i] = g[i] * _fma(-y[i], y[i], _ONE)


@numba.njit(**_JIT)
def silu_f32(x, out):
    """out = x / (1 + exp(0 - x)), 1-D contiguous float32: PyTorch's steps and exp (so
    bit-identical to its kernel; NaN stays NaN)."""
    for i in range(x.size):
        v = x[i]
        out[i] = v / (_ONE + _expf(_f(0) - v))


@numba.njit(**_JIT)
def silu_backward_f32(g, x, out):
    """out = (g s) (1 + x (1 - s)), s = 1 / (1 + exp(0 - x)): PyTorch's SiLU backward, its
    order and exp."""
    for i in range(x.size):
        v = x[i]
        s = _ONE / (_ONE + _expf(_f(0) - v))
        out[i] = (g[i] * s) * (_ONE + v * (_ONE - s))


@numba.njit(inline="always")
def _exp_shifted(y):
    """exp(-y) for y >= 0 (a shift by the row's max), 0 past _EXP_MIN; NaN stays NaN."""
    e = _exp_neg(_EXP_MIN if y > _EXP_MIN else y)  # noqa: FURB136 (min() would drop a NaN)
    return _f(0) if y > _EXP_MIN else e


@numba.njit(inline="always")
def _row_max(xr):
    m = xr[0]
    for j in range(1, xr.size):
        m = max(m, xr[j])
    return m


# The row sums of PyTorch's float32 softmax (vec::reduce_all): one accumulator per lane of
# the vector takes the whole vectors in order, the partial last vector adds into the first
# lanes, then halving shuffles (lane k plus lane k + lanes / 2, ...); a row under one vector
# adds in order.  The accumulators are a tuple (16 on AVX-512, 8 on AVX2) that LLVM keeps in
# registers; the partial vector reads 0 past the row (the terms, exps, are >= 0: adding 0
# leaves a lane as it is).
@numba.njit(inline="always")
def _at(v, j):
    return v[j] if j < v.size else _f(0)


@numba.njit(inline="always")
def _add8(a, v, d):
    b = v[d:d + 8]  # (constant indices into a slice: LLVM then adds the 8 lanes as a vector)
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3],
            a[4] + b[4], a[5] + b[5], a[6] + b[6], a[7] + b[7])


@numba.njit(inline="always")
def _add8_partial(a, v, d):
    return (a[0] + _at(v, d), a[1] + _at(v, d + 1), a[2] + _at(v, d + 2),
            a[3] + _at(v, d + 3), a[4] + _at(v, d + 4), a[5] + _at(v, d + 5),
            a[6] + _at(v, d + 6), a[7] + _at(v, d + 7))


@numba.njit(inline="always")
def _halve8(a):
    return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]))


@numba.njit(inline="always")
def _in_order(v):
    s = v[0]
    for j in range(1, v.size):
        s += v[j]
    return s


@numba.njit(inline="always")
def _sum8(v):
    if v.size < 8:
        return _in_order(v)
    a = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
    whole = v.size - v.size % 8
    for d in range(8, whole, 8):
        a = _add8(a, v, d)
    if whole < v.size:
        a = _add8_partial(a, v, whole)
    return _halve8(a)


@numba.njit(inline="always")
def _sum16(v):
    if v.size < 16:
        return _in_order(v)
    a = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
    b = (v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15])
    whole = v.size - v.size % 16
    for d in range(16, whole, 16):
        a, b = _add8(a, v, d), _add8(b, v, d + 8)
    if whole < v.size:
        a, b = _add8_partial(a, v, whole), _add8_partial(b, v, whole + 8)
    return _halve8((a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3],
                    a[4] + b[4], a[5] + b[5], a[6] + b[6], a[7] + b[7]))


@numba.njit(**_ROWS)
def _max_of(xr):
    """The row's max (in any order: reassociation lets LLVM vectorize it)."""
    return _row_max(xr)


@numba.njit(**_JIT)
def _softmax_rows(x, out, wide):
    """softmax_rows_f32's loop; wide: the lanes of AVX-512 (16) rather than AVX2's (8)."""
    for i in range(x.shape[0]):
        xr, orow = x[i], out[i]
        m = _max_of(xr)
        for j in range(xr.size):
            orow[j] = _expf(xr[j] - m)
        r = _ONE / (_sum16(orow) if wide else _sum8(orow))
        for j in range(xr.size):
            orow[j] *= r


def softmax_rows_f32(x, out):
    """out = softmax over the rows of the 2-D C-contiguous float32 x (n > 0 columns), as
    PyTorch's vectorized kernel (bit-identical): exp(x - max) with Sleef's expf, its sum
    by vector lanes (_sum16 / _sum8), times 1 / sum.  A NaN (or an inf - inf) makes its
    exp NaN, hence the whole row NaN through the sum; exp(-inf) is 0."""
    _softmax_rows(x, out, vector_bytes(avx512_kernel=True) == 64)


# log as PyTorch's vectorized cpu kernels take it (Sleef's logf, u10): d = m 2^e with m in
# [0.75, 1.5), x = (m - 1) / (m + 1) as a float pair, log d = e ln 2 + 2x + x^3 P(x^2) in
# float pairs (ln 2 in two parts), the pair's sum rounded once.
_LN2_PAIR = (_f(0.69314718246459960938), _f(-1.904654323148236017e-09))
_LOG_P2, _LOG_P1, _LOG_P0 = _f(0.3027294874), _f(0.3996108174), _f(0.6666694880)
_R_075, _TWO = _f(1 / 0.75), _f(2)


@numba.njit(inline="always")
def _two_sum(a, b):
    """a + b as a float pair (head, error)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


@numba.njit(cache=True, nogil=True, error_model="numpy")  # (no contraction: the pairs'
def _logf(d):                                              # errors need each step rounded)
    """log(d) of a float32 d >= 1 (a sum of exps that holds exp(0)), inf or NaN, as
    Sleef's logf u10."""
    if not d < np.inf:
        return d
    e = ((_bits(d * _R_075) >> np.int32(23)) & np.int32(255)) - np.int32(127)
    m = d * _pow2i(-e)
    ef = np.float32(e)
    hi, lo = _LN2_PAIR
    sh = hi * ef
    sl = _fma(lo, ef, _fma(hi, ef, -sh))
    nh, nl = _two_sum(_f(-1), m)
    dh, dl = _two_sum(_ONE, m)
    t = _ONE / dh
    xh = nh * t
    xl = _fma(xh, _fma(-dl, t, _fma(-dh, t, _ONE)), _fma(nl, t, _fma(t, nh, -xh)))
    x2 = xh * xh
    p = _fma(_fma(_LOG_P2, x2, _LOG_P1), x2, _LOG_P0)
    s1 = sh + _TWO * xh
    sl = ((sh - s1) + _TWO * xh) + (sl + _TWO * xl)
    w = (x2 * xh) * p
    s2 = s1 + w
    return s2 + (((s1 - s2) + w) + sl)


@numba.njit(**_JIT)
def _log_softmax_rows(x, out, wide):
    """log_softmax_rows_f32's loop (out holds the exps until the row's log sum is known)."""
    for i in range(x.shape[0]):
        xr, orow = x[i], out[i]
        m = _max_of(xr)
        for j in range(xr.size):
            orow[j] = _expf(xr[j] - m)
        lse = _logf(_sum16(orow) if wide else _sum8(orow))
        for j in range(xr.size):
            orow[j] = (xr[j] - m) - lse


def log_softmax_rows_f32(x, out):
    """out = (x - max) - log(sum(exp(x - max))) over the rows of the 2-D C-contiguous
    float32 x into a separate out, as PyTorch's vectorized kernel (bit-identical): the exps
    and their sum as softmax_rows_f32's, the log as Sleef's logf (_logf).  A NaN, or a row
    whose max is infinite, makes the row NaN."""
    _log_softmax_rows(x, out, vector_bytes(avx512_kernel=True) == 64)


@numba.njit(**_ROWS)
def log_softmax_backward_rows_f32(g, y, out):
    """out = g - exp(y) sum(g) over the rows of float32 g and y = log_softmax's output."""
    for i in range(y.shape[0]):
        gr, yr, orow = g[i], y[i], out[i]
        s = 0.0
        for j in range(yr.size):
            s += gr[j]
        c = np.float32(s)
        for j in range(yr.size):
            orow[j] = gr[j] - _exp_shifted(-yr[j]) * c


@numba.njit(inline="always")
def row_moments(r):
    """(mean, sum of squared deviations) of the 1-D r in float64, in two passes (no
    cancellation)."""
    n = r.shape[0]
    s = 0.0
    for j in range(n):
        s += r[j]
    m = s / n
    v = 0.0
    for j in range(n):
        d = r[j] - m
        v += d * d
    return m, v


@numba.njit(**_ROWS)
def layer_norm_backward_rows(g, x, mean, rstd, w, gx, gw, gb):
    """The layer norm's gradients over rows (n > 0 columns; all arrays C-contiguous, of x's
    dtype but gw, gb: float64 sums, added to): with xhat = (x - mean) rstd and wg = g w,
    gx = rstd (wg - mean(wg) - xhat mean(wg xhat)), gw += sum of g xhat, gb += sum of g."""
    rows, n = x.shape
    for i in range(rows):
        gr, xr, gxr = g[i], x[i], gx[i]
        m, r = mean[i], rstd[i]
        s1 = 0.0
        s2 = 0.0
        for j in range(n):
            xh = (xr[j] - m) * r
            wg = gr[j] * w[j]
            s1 += wg
            s2 += wg * xh
            gw[j] += gr[j] * xh
            gb[j] += gr[j]
        gxr[0] = s1 / n  # (rounded to the dtype, as the NumPy path's means)
        c1 = gxr[0]
        gxr[0] = s2 / n
        c2 = gxr[0]
        for j in range(n):
            gxr[j] = (gr[j] * w[j] - c1 - (xr[j] - m) * r * c2) * r


@numba.njit(**_ROWS)
def softmax_backward_rows(g, y, out):
    """out = (g - sum(g y)) y over the rows of 2-D C-contiguous arrays of one dtype."""
    rows, n = y.shape
    for i in range(rows):
        gr, yr, orow = g[i], y[i], out[i]
        s = 0.0
        for j in range(n):
            s += gr[j] * yr[j]
        orow[0] = s  # (rounded to the dtype)
        c = orow[0]
        for j in range(n):
            orow[j] = (gr[j] - c) * yr[j]


# float32 expm1 and log1p, computed in float64 (exact enough that rounding once gives the
# correctly rounded float32, checked against float64 libm on ~500k values) by branch-free
# arithmetic that vectorizes.
_LN2, _SHIFT64 = math.log(2.0), 1.5 * 2.0 ** 52  # adding _SHIFT64 rounds to an integer n,
_SHIFT_BITS = int(np.float64(_SHIFT64).view(np.int64))  # held in the low mantissa bits
# expm1(r) = r (1 + r/2! + r^2/3! + ... + r^11/12!) for |r| <= ln(2) / 2
_X2, _X3, _X4, _X5, _X6, _X7, _X8, _X9, _X10, _X11, _X12 = (
    1 / math.factorial(k) for k in range(2, 13))
# log(m) = 2 atanh(f) = 2 (f + f^3/3 + ... + f^19/19), f = (m - 1) / (m + 1), |f| <= 0.172
_L3, _L5, _L7, _L9, _L11, _L13, _L15, _L17, _L19 = (1 / k for k in range(3, 21, 2))
_SQRT2 = math.sqrt(2.0)
_TINY = 2.0 ** -29  # log1p(v) rounds to v below it in float32


@numba.njit(**_JIT)
def expm1_f32(x, out):
    """out = expm1(x), both 1-D contiguous float32."""
    for i in range(x.size):
        out[i] = _expm1(x[i])


@numba.njit(inline="always")
def _expm1(x):
    """expm1 of a float32 x, correctly rounded to float32: 2^n expm1(r) + (2^n - 1) for
    x = n ln 2 + r (expm1(r) itself when n = 0, so small x keep their relative accuracy)."""
    v = np.float64(x)
    c = min(max(v, -104.0), 89.0)  # past them the float32 result is -1 / inf anyway
    k = c * (1 / _LN2) + _SHIFT64
    n = k - _SHIFT64
    r = c - n * _LN2
    p = r * (1.0 + r * (_X2 + r * (_X3 + r * (_X4 + r * (_X5 + r * (_X6 + r * (_X7 + r * (
        _X8 + r * (_X9 + r * (_X10 + r * (_X11 + r * _X12)))))))))))
    s = _as_float64((_bits64(k) - _SHIFT_BITS + 1023) << 52)  # 2^n
    e = p if n == 0.0 else s * p + (s - 1.0)
    return np.float32(v if math.isnan(v) else e)  # (a NaN: itself)


@numba.njit(**_JIT)
def log1p_f32(x, out):
    """out = log1p(x), both 1-D contiguous float32."""
    for i in range(x.size):
        out[i] = np.float32(_log1p(np.float64(x[i])))


@numba.njit(inline="always")
def _log1p(v):
    """log1p of a float64 v exact in float32, within float32's rounding in float64: log(1 + v)
    with 1 + v exact (for |v| >= 2^-29; below, log1p(v) rounds to v in float32), split as
    m 2^e, m in [sqrt(1/2), sqrt(2))."""
    b = _bits64(1.0 + v)
    e = (b >> 52) - 1023
    m = _as_float64((b & 0xFFFFFFFFFFFFF) | 0x3FF0000000000000)  # in [1, 2)
    big = m > _SQRT2
    m = m * 0.5 if big else m
    e = e + 1 if big else e
    f = (m - 1.0) / (m + 1.0)
    f2 = f * f
    lg = e * _LN2 + 2.0 * f * (1.0 + f2 * (_L3 + f2 * (_L5 + f2 * (_L7 + f2 * (_L9 + f2 * (
        _L11 + f2 * (_L13 + f2 * (_L15 + f2 * (_L17 + f2 * _L19)))))))))
    r = v if abs(v) < _TINY else lg
    r = -np.inf if v == -1.0 else r
    r = np.nan if v < -1.0 else r
    return r if v < np.inf else v  # (inf and NaN: themselves)


# batch norm's per-channel affine steps (kernels/batch_norm.py), one pass each, over 3-D
# arrays with the channels on axis 1 (N, C, L) or last (N, L, C)
@numba.njit(**_JIT)
def channel_affine(x, a, b, out, last):
    """out = x * a[c] + b[c] (a fused multiply-add where the CPU has one)."""
    n, p, q = x.shape
    for i in range(n):
        for j in range(p):
            for k in range(q):
                c = k if last else j
                out[i, j, k] = x[i, j, k] * a[c] + b[c]


@numba.njit(**_JIT)
def batch_norm_input_grad(g, x, gmean, k, mean, c, out, last):
    """out = (g - gmean[c]) k[c] - (x - mean[c]) c[c] (a constant g cancels exactly)."""
    n, p, q = x.shape
    for i in range(n):
        for j in range(p):
            for t in range(q):
                h = t if last else j
                out[i, j, t] = (g[i, j, t] - gmean[h]) * k[h] - (x[i, j, t] - mean[h]) * c[h]


@numba.njit(**_JIT)
def leaky_relu_f32(x, slope, out):
    """out = x where x > 0, else x * slope (NaN: NaN * slope, as PyTorch)."""
    for i in range(x.size):
        v = x[i]
        out[i] = v if v > 0 else v * slope


@numba.njit(**_JIT)
def leaky_relu_backward_f32(g, x, slope, out):
    """out = g where x > 0, else g * slope."""
    for i in range(x.size):
        out[i] = g[i] if x[i] > 0 else g[i] * slope


@numba.njit(**_JIT)
def hardswish_f32(x, out):
    """out = x min(max(x + 3, 0), 6) / 6, PyTorch's steps."""
    for i in range(x.size):
        v = x[i]
        out[i] = v * min(max(v + _f(3), _f(0)), _f(6)) / _f(6)


@numba.njit(**_JIT)
def hardswish_backward_f32(g, x, out):
    """out = 0 for x <= -3, g for x >= 3, else g (x / 3 + 1/2) (NaN x: NaN)."""
    for i in range(x.size):
        v = x[i]
        out[i] = _f(0) if v <= _f(-3) else g[i] if v >= _f(3) else g[i] * (v / _f(3) + _HALF)


@numba.njit(**_JIT)
def hardtanh_backward_f32(g, x, lo, hi, out):
    """out = g where lo < x < hi, else 0 (NaN x: 0)."""
    for i in range(x.size):
        v = x[i]
        out[i] = g[i] if v > lo and v < hi else _f(0)


# softplus', ELU's (SELU's, CELU's) and logsigmoid's backward ops: ATen's vectorized steps
# with its exp (_expf), so bit-identical to PyTorch's
@numba.njit(**_JIT)
def softplus_backward_f32(g, x, beta, threshold, out):
    """out = g where x beta > threshold, else g z / (z + 1), z = exp(x beta)."""
    for i in range(x.size):
        bx = x[i] * beta
        z = _expf(bx)
        out[i] = g[i] if bx > threshold else g[i] * z / (z + _ONE)


@numba.njit(**_JIT)
def elu_backward_f32(g, x, negcoef, poscoef, negiptcoef, out):
    """out = g poscoef where x > 0, else g negiptcoef negcoef exp(x negiptcoef) (NaN x:
    NaN)."""
    for i in range(x.size):
        v = x[i]
        out[i] = g[i] * poscoef if v > 0 else g[i] * negiptcoef * negcoef * _expf(v * negiptcoef)


@numba.njit(**_JIT)
def elu_result_backward_f32(g, y, negcoef, poscoef, negiptcoef, out):
    """The same from the in-place variant's result y: g negiptcoef (y + negcoef) for y <= 0."""
    for i in range(y.size):
        v = y[i]
        out[i] = g[i] * poscoef if v > 0 else g[i] * negiptcoef * (v + negcoef)


@numba.njit(**_JIT)
def log_sigmoid_backward_f32(g, x, out):
    """out = g (1 - t) where x < 0, else g t, t = z / (1 + z), z = exp(-|x|)."""
    for i in range(x.size):
        v = x[i]
        z = _expf(-abs(v))
        t = z / (_ONE + z)
        out[i] = ((_ONE - t) if v < 0 else t) * g[i]


# batch norm: the evaluation-mode backward in one pass, and the training statistics of a
# channels-last input without temporaries (channels-first ones: BLAS row sums, batch_norm.py)
@numba.njit(**_ROWS)
def batch_norm_eval_backward(g, x, mean, invstd, w, gx, sum_g, sum_gd, last):
    """gx = g invstd[c] w[c] (PyTorch's order), and per channel (float64, added to)
    sum_g += sum(g), sum_gd += sum(g (x - mean[c])).  (Over a channels-first row, g invstd,
    then times w in a second loop: the reassociation that vectorizes the sums would take
    g (invstd w) in one.)"""
    n, p, q = x.shape
    for i in range(n):
        if last:
            for j in range(p):
                for c in range(q):
                    v = g[i, j, c]
                    sum_g[c] += v
                    sum_gd[c] += v * (x[i, j, c] - mean[c])
                    gx[i, j, c] = v * invstd[c] * w[c]
            continue
        for c in range(p):
            m, k, wc = mean[c], invstd[c], w[c]
            s = 0.0
            sd = 0.0
            for t in range(q):
                v = g[i, c, t]
                s += v
                sd += v * (x[i, c, t] - m)
                gx[i, c, t] = v * k
            for t in range(q):
                gx[i, c, t] *= wc
            sum_g[c] += s
            sum_gd[c] += sd


@numba.njit(**_ROWS)
def channels_last_moments(x, mean, sq):
    """Per channel of the (N, L, C) float32 x, in one pass: mean and the sum of (x - mean)^2
    (float64, added to), from float64 sums of d = x - x[0, 0, c] and of d^2 (exact
    squares; the shift by a sample keeps the difference of the sums from cancelling)."""
    n, p, q = x.shape
    shift = x[0, 0].astype(np.float64)
    for i in range(n):
        for j in range(p):
            for c in range(q):
                d = np.float64(x[i, j, c]) - shift[c]
                mean[c] += d
                sq[c] += d * d
    count = n * p
    for c in range(q):
        sq[c] -= mean[c] * mean[c] / count
        mean[c] = mean[c] / count + shift[c]



@numba.njit(**_ROWS)
def contiguous_moments_f32(x, mean, sq):
    """Per channel of the (N, C, L) float32 x, as ATen's contiguous batch norm kernel: the
    values added in float64, mean = that sum / (N * L) rounded to float32, then the float32
    squares (x - mean)^2 added in float64, stored in float32 sq.  (ATen adds in order; the
    float64 sums of float32 values are near exact in any order, so they are reassociated
    here, vectorized: the float32 results come out the same.)"""
    n, channels, length = x.shape
    count = n * length
    for c in range(channels):
        total = 0.0
        for i in range(n):
            for j in range(length):
                total += x[i, c, j]
        m = np.float32(total / count)
        mean[c] = m
        squares = 0.0
        for i in range(n):
            for j in range(length):
                d = x[i, c, j] - m
                squares += d * d  # (a float32 product, added in float64)
        sq[c] = squares


@intrinsic
def _fma_f64(typingctx, a, b, c):
    """a * b + c rounded once (float64)."""
    return types.float64(a, b, c), lambda ctx, builder, sig, args: builder.fma(*args)


@numba.njit(**_JIT)
def fused_square_sums(d, acc):
    """acc[c] = fma(d[i, c], d[i, c], acc[c]) over the rows of the 2-D float64 d in order
    (float64 channels-last batch norm's sum of squares)."""
    for i in range(d.shape[0]):
        for c in range(d.shape[1]):
            acc[c] = _fma_f64(d[i, c], d[i, c], acc[c])


@numba.njit(cache=True, nogil=True, error_model="numpy")  # (no contraction)
def odd_plane_square_sums(planes, acc):
    """acc[c] += the squares of the (N, L, C) float64 planes in order, L odd: a plane's first
    L - 1 products rounded before they are added, its last fused (float64 contiguous batch
    norm: ATen's loop unrolled by two, its remainder contracted)."""
    n, length, c = planes.shape
    for i in range(n):
        for j in range(length - 1):
            for k in range(c):
                acc[k] += planes[i, j, k] * planes[i, j, k]
        for k in range(c):
            acc[k] = _fma_f64(planes[i, length - 1, k], planes[i, length - 1, k], acc[k])


# softplus', ELU's (SELU's, CELU's) and logsigmoid's forward: ATen's vectorized steps, its exp
# (_expf), and log1p / expm1 correctly rounded (PyTorch's: Sleef's, within an ulp)
@numba.njit(**_JIT)
def softplus_f32(x, beta, threshold, out):
    """out = x where x beta > threshold, else log1p(exp(x beta)) / beta."""
    for i in range(x.size):
        v = x[i]
        bx = v * beta
        soft = np.float32(_log1p(np.float64(_expf(bx)))) / beta
        out[i] = v if bx > threshold else soft


@numba.njit(**_JIT)
def elu_f32(x, negcoef, poscoef, negiptcoef, out):
    """out = x poscoef where x >= 0, else expm1(x negiptcoef) negcoef."""
    for i in range(x.size):
        v = x[i]
        out[i] = v * poscoef if v >= 0 else _expm1(v * negiptcoef) * negcoef


@numba.njit(**_JIT)
def log_sigmoid_f32(x, out):
    """out = min(x, 0) - log1p(exp(-|x|))."""
    for i in range(x.size):
        v = x[i]
        low = v if v < 0 else _f(0)  # (a NaN: NaN through the log1p anyway)
        out[i] = low - np.float32(_log1p(np.float64(_expf(-abs(v)))))
