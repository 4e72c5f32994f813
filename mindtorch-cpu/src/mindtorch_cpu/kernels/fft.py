"""CPU kernels of the Fourier transforms (mindtorch._ops.decls.fft): NumPy's pocketfft,
which computes float32 / complex64 in single precision, as PyTorch's CPU kernels do.
Results are laid out as PyTorch's (decls.fft.result_order): the transform runs over the
trailing axes of a permuted view and its contiguous result is permuted back."""
import numpy as np
from mindtorch import plugins
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


def _laid_out(a, dims, dtype, transform):
    """transform(view, axes) over `dims` of array a, as a tensor with PyTorch's result
    layout (its strides exactly, size-1 dims' included)."""
    order = F.result_order(_strides(a), dims)
    axes = tuple(range(a.ndim - len(dims), a.ndim))
    t = wrap(np.ascontiguousarray(transform(a.transpose(order), axes), dtype=dtype.np), dtype)
    back = np.argsort(order)
    return plugins.make_tensor(t._storage, [t._shape[i] for i in back],
                               [t._stride[i] for i in back], 0, dtype)


def _strides(a):
    return [s // a.itemsize for s in a.strides]


def fft_c2c(self, dim, normalization, forward):
    _, dtype = F.c2c_meta(self, dim, normalization, forward)
    a = arr(self)
    if not dim:  # (a copy, before PyTorch's kernel would refuse an empty input)
        return wrap(a.copy(), dtype)
    _refuse_empty(a)
    fn, norm = (np.fft.fftn, _FORWARD.get(normalization, "forward")) if forward else \
        (np.fft.ifftn, _INVERSE.get(normalization, "backward"))
    dims = F.by_stride(_strides(a), dim)
    return _laid_out(a, dims, dtype, lambda v, axes: fn(v, axes=axes, norm=norm))


def fft_r2c(self, dim, normalization, onesided):
    _, dtype = F.r2c_meta(self, dim, normalization, onesided)
    a = arr(self)
    _refuse_empty(a)
    norm = _FORWARD.get(normalization, "forward")
    dims = F.by_stride(_strides(a), dim[:-1]) + [dim[-1]]
    def fn(v, axes):
        half = np.fft.rfftn(v, axes=axes, norm=norm)
        return half if onesided else _conjugate_fill(half, axes, v.shape[axes[-1]])
    return _laid_out(a, dims, dtype, fn)


def _conjugate_fill(half, axes, n):
    """The two-sided transform of real data from its one-sided half, as PyTorch fills it:
    X[..., k] = conj(X[-i..., n - k]) past the half (so zeros' signs are its)."""
    last = axes[-1]
    k = half.shape[last]
    mirror = np.take(half, np.arange(n - k, 0, -1), axis=last)
    for ax in axes[:-1]:  # index -i (mod size) along the other transformed dims
        mirror = np.roll(np.flip(mirror, ax), 1, ax)
    return np.concatenate([half, np.conj(mirror)], axis=last)


def fft_c2r(self, dim, normalization, last_dim_size):
    _, dtype = F.c2r_meta(self, dim, normalization, last_dim_size)
    a = arr(self)
    _refuse_empty(a)
    norm = _INVERSE.get(normalization, "backward")
    if len(dim) > 1:  # as PyTorch's: a c2c transform of the other dims first
        others = F.by_stride(_strides(a), dim[:-1])
        a = arr(_laid_out(a, others, self.dtype,
                          lambda v, axes: np.fft.ifftn(v, axes=axes, norm=norm)))
    # (pocketfft reads the first last_dim_size // 2 + 1 terms of the last dim, and only
    # the real parts of those that are their own mirror)
    return _laid_out(a, [dim[-1]], dtype, lambda v, axes: np.fft.irfft(
        v, n=last_dim_size, axis=axes[0], norm=norm))


KERNELS = {"_fft_c2c": fft_c2c, "_fft_r2c": fft_r2c, "_fft_c2r": fft_c2r}
