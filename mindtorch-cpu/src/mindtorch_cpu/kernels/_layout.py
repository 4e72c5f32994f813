"""Result layouts as PyTorch's cpu kernels give them.  Kernels whose results keep a
channels-last input's layout (pooling, upsampling, padding): the kernel computes as usual,
and a result whose input's strides suggest channels_last(_3d) is laid out so (one copy,
only for such inputs).  And elementwise loops over flat arrays (dense_like), whose results
keep their input's layout as NumPy's ufuncs do."""
import numpy as np
from mindtorch._memory_format import strides as format_strides
from mindtorch._memory_format import suggest

from .._np import arr, wrap


def keep_channels_last(kernels, names, input_at=0):
    """Wrap kernels[name] for each name in place.  input_at: the position of the input
    whose layout counts (1: a backward kernel's self, after grad_output)."""
    for name in names:
        kernels[name] = _keeping(kernels[name], input_at, 5 if "3d" in name else 4)


def _keeping(kernel, input_at, rank):
    """kernel, its results channels-last for a batched input (of that rank: an unbatched
    3-d op's 4-d input is no channels-last one) whose strides suggest it."""
    def keeping(*args):
        out = kernel(*args)
        x = args[input_at]
        if x.ndim != rank or suggest(x) == "contiguous_format":
            return out
        return tuple(map(_channels_last, out)) if isinstance(out, tuple) else \
            _channels_last(out)
    keeping.__name__ = kernel.__name__
    return keeping


def _channels_last(t):
    if t.ndim not in (4, 5):
        return t
    a = np.ascontiguousarray(np.moveaxis(arr(t), 1, -1))
    out = wrap(np.moveaxis(a, -1, 1), t.dtype)
    # (PyTorch's strides on size-1 dims too: NumPy calls (N, C, 1, 1) C-contiguous)
    out._stride = format_strides(out._shape, "channels_last" if t.ndim == 4 else
                                 "channels_last_3d")
    return out


def dense_like(*arrays):
    """Arrays of one shape as 1-D views of dense arrays laid out as NumPy lays out an
    elementwise result of the last one (its own layout when dense, as PyTorch's), and that
    result (empty).  The others (a sum's expanded gradient...) are copied so, if need be."""
    x = arrays[-1]
    out = np.empty_like(x)
    if x.strides != out.strides:  # (strided or broadcast: a dense copy, laid out as a ufunc's)
        x = np.positive(x)
        out = np.empty_like(x)
    flat = []
    for a in arrays[:-1] + (x,):
        if a.strides != out.strides:
            a, b = np.empty_like(out), a
            np.copyto(a, b)
        flat.append(a.ravel(order="K"))
    return flat, out
