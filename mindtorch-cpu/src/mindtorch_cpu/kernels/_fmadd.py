"""`a += alpha * b` rounded once per element, as PyTorch's add/sub with alpha compute it on
cpu (its vectorized fmadd), compiled by numba: one pass where NumPy needs a product
temporary and two (differently rounded) passes.  Imported on first use (inplace._loop)."""
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
