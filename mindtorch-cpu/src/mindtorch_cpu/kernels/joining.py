"""cat: shapes, dtype and errors from the shared rule mindtorch._ops.decls.joining.cat_plan."""
import numpy as np

from mindtorch._ops.decls.joining import cat_plan

from .._np import arr, wrap


def cat(tensors, dim=0):
    shape, dtype, dim, parts = cat_plan(tensors, dim)
    if not parts:
        return wrap(np.empty(shape, dtype.np), dtype)
    # a fresh C-contiguous result, as PyTorch's (np.concatenate alone would follow the
    # inputs' layout)
    out = np.empty(shape, dtype.np)
    np.concatenate([arr(t).astype(dtype.np, copy=False) for t in parts], axis=dim, out=out)
    return wrap(out, dtype)


KERNELS = {"cat": cat}
