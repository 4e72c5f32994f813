"""cat and stack: shapes, dtype and errors from the shared rules cat_plan / stack_plan of
mindtorch._ops.decls.joining.  Results are fresh C-contiguous arrays, as PyTorch's
(np.concatenate alone would follow the inputs' layout), or channels-last when cat's
inputs all are (stack along an existing dim too: PyTorch's is cat, then a view)."""
import numpy as np
from mindtorch._memory_format import common_format
from mindtorch._memory_format import strides as format_strides
from mindtorch._ops.decls.joining import cat_plan, stack_plan

from .._np import arr, wrap


def cat(tensors, dim=0):
    shape, dtype, dim, parts = cat_plan(tensors, dim)
    fmt = common_format(parts) if len(shape) in (4, 5) and parts else "contiguous_format"
    if fmt != "contiguous_format":
        out = np.moveaxis(np.empty(shape[:1] + shape[2:] + shape[1:2], dtype.np), -1, 1)
    else:
        out = np.empty(shape, dtype.np)
    if parts:
        np.concatenate([arr(t) for t in parts], axis=dim, out=out, casting="unsafe")
    t = wrap(out, dtype)
    if fmt != "contiguous_format":  # (PyTorch's strides on size-1 dims too)
        t._stride = format_strides(shape, fmt)
    return t


def stack(tensors, dim=0):
    shape, dtype, dim = stack_plan(tensors, dim)
    n = len(tensors)
    if dim < len(shape) - 1 and len(shape) in (5, 6) and \
            common_format(tensors) != "contiguous_format":
        # (channels-last inputs: their cat along dim, dim split in two by a view)
        merged = arr(cat(tensors, dim))
        st = merged.strides
        st = st[:dim] + (st[dim] * shape[dim + 1],) + st[dim:]
        return wrap(np.lib.stride_tricks.as_strided(merged, shape, st), dtype)
    out = np.empty(shape, dtype.np)
    if dim < len(shape) - 1:  # a cat along dim, into out with dims dim and dim+1 merged
        merged = shape[:dim] + (n * shape[dim + 1],) + shape[dim + 2:]
        np.concatenate([arr(t) for t in tensors], axis=dim, out=out.reshape(merged),
                       casting="unsafe")
    else:  # the new last dim: each input gets a trailing 1
        np.concatenate([arr(t)[..., None] for t in tensors], axis=dim, out=out,
                       casting="unsafe")
    return wrap(out, dtype)


KERNELS = {"cat": cat, "stack": stack}
