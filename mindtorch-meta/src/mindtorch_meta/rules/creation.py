"""Factories with computed contents, copies and fills."""
from mindtorch import Tensor
from mindtorch._ops.decls import creation as C


def arange(start, end=None, step=1, dtype=None, device=None):
    _, _, n, dtype = C.arange_plan(start, end, step, dtype)
    return (n,), dtype


def linspace(start, end, steps, dtype=None, device=None):
    _, _, dtype = C.linspace_plan(start, end, steps, dtype)
    return (steps,), dtype


def eye(n, m=None, dtype=None, device=None):
    return C.eye_plan(n, m, dtype)


def copy_(self, src, non_blocking=False):
    C.check_copy(self, src)
    return self._shape, self.dtype


def fill_(self, value):
    if isinstance(value, Tensor):
        C.check_fill_value(self, value)
    return self._shape, self.dtype


RULES = {"arange": arange, "linspace": linspace, "eye": eye, "copy_": copy_, "fill_": fill_}
INPLACE = {"copy_", "fill_"}
