"""Multiply-adds rounded once per element, as PyTorch's cpu kernels compute `add`/`sub` with
an alpha and `lerp` (their vectorized fmadd), compiled by numba: one pass where NumPy needs
a product temporary and either rounds twice or goes through a wider type.  Imported on
first use (inplace._loops)."""
import numba
from numba.extending import intrinsic


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (llvm.fma: the FMA instruction, else libm's exact fma)."""
    return a(a, a, a), lambda ctx, builder, sig, args: builder.fma(*args)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def axpy(a, b, alpha):
    """a[i] = fma(alpha, b[i], a[i]): a and b 1-D contiguous of one float dtype, alpha a
    scalar of that dtype."""
    for i in range(a.size):
        a[i] = _fma(alpha, b[i], a[i])


@numba.njit(cache=True, nogil=True, error_model="numpy")
def fma(x, y, z, out):
    """out[i] = fma(x[i], y[i], z[i]): 1-D contiguous arrays of one float dtype."""
    for i in range(out.size):
        out[i] = _fma(x[i], y[i], z[i])


@numba.njit(cache=True, nogil=True, error_model="numpy")
def lerp(a, end, coeff, small):
    """a[i] = lerp(a[i], end[i], w) as PyTorch's kernel: fma(coeff, end - a, base) with
    coeff = w, base = a where |w| < 0.5 (`small`), else coeff = w - 1, base = end; a and
    end 1-D contiguous, coeff a scalar, all of one float dtype."""
    if small:
        for i in range(a.size):
            a[i] = _fma(coeff, end[i] - a[i], a[i])
    else:
        for i in range(a.size):
            a[i] = _fma(coeff, end[i] - a[i], end[i])


# addcmul_ / addcdiv_ in one pass, rounded step by step as the NumPy kernels (and the
# core's decompositions) round them: self + (value * t1) * t2, self + (value * t1) / t2
# (value 1 leaves t1 exact); no contraction into FMAs (no fastmath)
@numba.njit(cache=True, nogil=True, error_model="numpy")
def addcmul(a, t1, t2, value):
    for i in range(a.size):
        a[i] = a[i] + value * t1[i] * t2[i]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def addcdiv(a, t1, t2, value):
    for i in range(a.size):
        a[i] = a[i] + value * t1[i] / t2[i]
