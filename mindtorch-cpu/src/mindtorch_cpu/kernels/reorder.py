"""Kernels of the reorderings that core declares as decompositions (decls/reorder.py):
flip as one NumPy copy of the reversed view into empty_like(self), PyTorch's result
layout (the decomposition's index_select per dim gathers element by element along an
inner dim: ~15x slower)."""
import numpy as np
from mindtorch._ops.decls.creation import _empty_like

from .._np import arr


def flip(self, dims):
    out = _empty_like(self)
    a = arr(self)
    # (a 0-dim tensor takes dim 0 or -1, and has nothing to reverse)
    np.copyto(arr(out), np.flip(a, tuple(dims)) if dims and a.ndim else a)
    return out


KERNELS = {"flip": flip}
