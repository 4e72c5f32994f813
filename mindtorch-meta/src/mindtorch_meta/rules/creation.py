"""Factories with computed contents, copies and fills."""
import math

from mindtorch import _dtype as D
from mindtorch._promotion import scalar_dtype
from mindtorch._shapes import broadcast_shapes


def _factory_dtype(dtype, *values):
    if dtype is not None:
        return dtype
    kinds = {scalar_dtype(v).kind for v in values if v is not None}
    return D.get_default_dtype() if kinds & {"f", "c"} else D.int64


def arange(start, end=None, step=1, dtype=None, device=None):
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    return (math.ceil((end - start) / step),), _factory_dtype(dtype, start, end, step)


def linspace(start, end, steps, dtype=None, device=None):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return (steps,), dtype or D.get_default_dtype()


def eye(n, m=None, dtype=None, device=None):
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {n if n < 0 else m}")
    return (n, n if m is None else m), dtype or D.get_default_dtype()


def copy_(self, src, non_blocking=False):
    shape = broadcast_shapes(self._shape, src._shape)
    if shape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    return self._shape, self.dtype


def fill_(self, value):
    return self._shape, self.dtype


RULES = {"arange": arange, "linspace": linspace, "eye": eye, "copy_": copy_, "fill_": fill_}
INPLACE = {"copy_", "fill_"}
