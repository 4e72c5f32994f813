"""Factories with computed contents, copies and fills."""
import math
import warnings

import numpy as np

from mindtorch import _dtype as D
from mindtorch._promotion import scalar_dtype
from mindtorch._scalars import checked_scalar

from .._np import arr, wrap


def _factory_dtype(dtype, *values):
    if dtype is not None:
        return dtype
    kinds = {scalar_dtype(v).kind for v in values if v is not None}
    return D.get_default_dtype() if kinds & {"f", "c"} else D.int64


def arange(start, end=None, step=1, dtype=None, device=None):
    if end is None:
        start, end = 0, start
    dtype = _factory_dtype(dtype, start, end, step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if any(isinstance(v, float) and not math.isfinite(v) for v in (start, end, step)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = math.ceil((end - start) / step)
    compute = np.float64 if dtype.kind in "fc" else np.int64
    return wrap(start + np.arange(n, dtype=compute) * step, dtype)


def linspace(start, end, steps, dtype=None, device=None):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or D.get_default_dtype()
    if dtype.kind in "ui":
        vals = np.linspace(start, end, steps, dtype=np.float64)
        return wrap(np.trunc(vals), dtype)
    return wrap(np.linspace(start, end, steps, dtype=np.complex128 if dtype.is_complex
                            else np.float64), dtype)


def eye(n, m=None, dtype=None, device=None):
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {n if n < 0 else m}")
    return wrap(np.eye(n, n if m is None else m), dtype or D.get_default_dtype())


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
