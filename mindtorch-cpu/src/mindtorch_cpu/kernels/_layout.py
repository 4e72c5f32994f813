"""Kernels whose results keep a channels-last input's layout, as PyTorch's cpu kernels do
(pooling, upsampling, padding): the kernel computes as usual, and a result whose input's
strides suggest channels_last(_3d) is laid out so (one copy, only for such inputs)."""
import numpy as np
from mindtorch._memory_format import suggest

from .._np import arr, wrap


def keep_channels_last(kernels, names):
    """Wrap kernels[name] for each name in place."""
    for name in names:
        kernels[name] = _keeping(kernels[name])


def _keeping(kernel):
    def keeping(self, *args):
        out = kernel(self, *args)
        if suggest(self) == "contiguous_format":
            return out
        return tuple(map(_channels_last, out)) if isinstance(out, tuple) else \
            _channels_last(out)
    keeping.__name__ = kernel.__name__
    return keeping


def _channels_last(t):
    if t.ndim not in (4, 5):
        return t
    a = np.ascontiguousarray(np.moveaxis(arr(t), 1, -1))
    return wrap(np.moveaxis(a, -1, 1), t.dtype)
