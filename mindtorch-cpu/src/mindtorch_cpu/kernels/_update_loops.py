"""The in-place kernels' compiled loops (kernels/inplace.py), one pass over memory each where
NumPy needs temporaries, rounded as the NumPy path and the core's decompositions (and
PyTorch's cpu kernels): `lerp` and float32 `addcmul` fuse their last multiply-add (an FMA,
exact here where NumPy emulates it in a wider type), `addcdiv` rounds step by step.
Imported on first use (inplace._loops).  Not used by `add_`/`sub_`: numba's import and
code loading cost ~120 MiB of RSS, which a plain SGD training loop does not pay."""
import numba
from numba.extending import intrinsic


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (llvm.fma: the FMA instruction, else libm's exact fma)."""
    return a(a, a, a), lambda ctx, builder, sig, args: builder.fma(*args)


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


# addcmul_ / addcdiv_ in one pass, rounded as the core's decompositions (PyTorch's cpu
# kernels): self + (value * t1) * t2 with the last multiply-add fused for float32 (`fused`),
# rounded step by step for float64; self + (value * t1) / t2 (value 1 leaves t1 exact)
@numba.njit(cache=True, nogil=True, error_model="numpy")
def addcmul(a, t1, t2, value, fused):
    if fused:
        for i in range(a.size):
            a[i] = _fma(value * t1[i], t2[i], a[i])
    else:
        for i in range(a.size):
            a[i] = a[i] + value * t1[i] * t2[i]


@numba.njit(cache=True, nogil=True, error_model="numpy")
def addcdiv(a, t1, t2, value):
    for i in range(a.size):
        a[i] = a[i] + value * t1[i] / t2[i]
