"""Factories with computed contents, copies and fills."""
from mindtorch._ops.decls import creation as C
from mindtorch._shapes import broadcast_shapes


def arange(start, end=None, step=1, dtype=None, device=None):
    _, n, dtype = C.arange_plan(start, end, step, dtype)
    return (n,), dtype


def linspace(start, end, steps, dtype=None, device=None):
    return C.linspace_plan(steps, dtype)


def eye(n, m=None, dtype=None, device=None):
    return C.eye_plan(n, m, dtype)


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
