"""CPU kernels of the Fourier transforms (mindtorch._ops.decls.fft): NumPy's pocketfft,
which computes float32 / complex64 in single precision, as PyTorch's CPU kernels do."""
import numpy as np

from mindtorch._ops.decls import fft as F

from .._np import arr, wrap

# NumPy's `norm` naming the scaling (0 none, 1 1/sqrt(n), 2 1/n) of each direction (as
# PyTorch's kernels, any other number scales by 1/n)
_FORWARD = {0: "backward", 1: "ortho"}
_INVERSE = {0: "forward", 1: "ortho"}


def _refuse_empty(a):
    # PyTorch's CPU kernels (oneMKL) refuse empty inputs, even where only the batch is empty
    if a.size == 0:
        raise RuntimeError("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent "
                           "configuration parameters")


def _result(a, dtype):
    return wrap(np.asarray(a, dtype=dtype.np), dtype)


def fft_c2c(self, dim, normalization, forward):
    _, dtype = F.c2c_meta(self, dim, normalization, forward)
    a = arr(self)
    _refuse_empty(a)
    if not dim:
        return _result(a.copy(), dtype)
    if forward:
        out = np.fft.fftn(a, axes=dim, norm=_FORWARD.get(normalization, "forward"))
    else:
        out = np.fft.ifftn(a, axes=dim, norm=_INVERSE.get(normalization, "backward"))
    return _result(out, dtype)


def fft_r2c(self, dim, normalization, onesided):
    _, dtype = F.r2c_meta(self, dim, normalization, onesided)
    a = arr(self)
    _refuse_empty(a)
    norm = _FORWARD.get(normalization, "forward")
    if onesided:
        out = np.fft.rfftn(a, axes=dim, norm=norm)
    else:
        out = np.fft.fftn(a.astype(dtype.np), axes=dim, norm=norm)
    return _result(out, dtype)


def fft_c2r(self, dim, normalization, last_dim_size):
    shape, dtype = F.c2r_meta(self, dim, normalization, last_dim_size)
    a = arr(self)
    _refuse_empty(a)
    sizes = [shape[d] for d in dim]
    # (pocketfft reads the first last_dim_size // 2 + 1 terms of the last dim, and only
    # the real parts of those that are their own mirror)
    out = np.fft.irfftn(a, s=sizes, axes=dim, norm=_INVERSE.get(normalization, "backward"))
    return _result(out, dtype)


KERNELS = {"_fft_c2c": fft_c2c, "_fft_r2c": fft_r2c, "_fft_c2r": fft_c2r}
