"""Factories with computed contents, copies and fills."""
import warnings

import numpy as np

from mindtorch._ops.decls import creation as C
from mindtorch._scalars import checked_scalar

from .._np import arr, wrap


def arange(start, end=None, step=1, dtype=None, device=None):
    start, n, dtype = C.arange_plan(start, end, step, dtype)
    compute = np.float64 if dtype.kind in "fc" else np.int64
    return wrap(start + np.arange(n, dtype=compute) * step, dtype)


def linspace(start, end, steps, dtype=None, device=None):
    _, dtype = C.linspace_plan(steps, dtype)
    if dtype.kind in "ui":
        return wrap(np.trunc(np.linspace(start, end, steps, dtype=np.float64)), dtype)
    return wrap(np.linspace(start, end, steps, dtype=np.complex128 if dtype.is_complex
                            else np.float64), dtype)


def eye(n, m=None, dtype=None, device=None):
    shape, dtype = C.eye_plan(n, m, dtype)
    return wrap(np.eye(*shape), dtype)


def copy_(self, src, non_blocking=False):
    dst = arr(self)
    s = arr(src)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # complex -> real drops the imaginary part
            np.copyto(dst, s, casting="unsafe")
    except ValueError:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(np.broadcast_shapes(dst.shape, s.shape))}"
                           if _broadcastable(s.shape, dst.shape) else
                           f"The size of tensor a ({_mismatch(dst.shape, s.shape)[0]}) must match "
                           f"the size of tensor b ({_mismatch(dst.shape, s.shape)[1]}) at "
                           f"non-singleton dimension {_mismatch(dst.shape, s.shape)[2]}") from None
    return self


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def _mismatch(a, b):
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return x, y, max(len(a), len(b)) - i
    return 0, 0, 0


def fill_(self, value):
    from mindtorch import Tensor
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        value = arr(value)[()]
    else:
        checked_scalar(value, self.dtype)
        if isinstance(value, int) and self.dtype.kind == "u":
            value = np.int64(value)  # negative ints wrap into unsigned types, as in c10
    dst = arr(self)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dst[...] = np.asarray(value).astype(dst.dtype)
    return self


KERNELS = {"arange": arange, "linspace": linspace, "eye": eye, "copy_": copy_,
           "fill_": fill_}
