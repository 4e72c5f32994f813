"""Factories, copies and fills.  Allocation is core (the device's allocator); filling
and copying data are kernels."""
import math

from ... import _dtype as D
from ..._promotion import scalar_dtype
from ..registry import OPS, define

_FACTORY = "*, ScalarType? dtype=None, Device? device=None, bool requires_grad=False"
_LIKE = "*, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, " \
        "MemoryFormat? memory_format=None"


# -- rules shared by every backend (validity, result shape and dtype) --------------------

def arange_plan(start, end, step, dtype):
    """(start, length, dtype) of arange(start, end, step): PyTorch's checks and its dtype
    rule (any float bound or step gives the default dtype, else int64)."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        kinds = {scalar_dtype(v).kind for v in (start, end, step)}
        dtype = D.get_default_dtype() if kinds & {"f", "c"} else D.int64
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if any(isinstance(v, float) and not math.isfinite(v) for v in (start, end, step)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    return start, math.ceil((end - start) / step), dtype


def linspace_plan(steps, dtype):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return (steps,), dtype or D.get_default_dtype()


def eye_plan(n, m, dtype):
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {n if n < 0 else m}")
    return (n, n if m is None else m), dtype or D.get_default_dtype()


def _empty(size, dtype=None, device=None):
    from ..._creation import _empty
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(size)}")
    return _empty(size, dtype or D.get_default_dtype(), device)


def _empty_strided(size, stride, dtype=None, device=None):
    t = _empty((_span(size, stride),), dtype, device)
    return t.as_strided(size, stride, 0)


def _span(size, stride):
    if any(s == 0 for s in size):
        return 0
    return sum((n - 1) * s for n, s in zip(size, stride)) + 1


def _like(self, dtype, device):
    return dtype or self.dtype, device or self._device


def _dense_strides(t):
    """Strides of a fresh tensor laid out like t (PyTorch's preserve_format), or None."""
    if t.is_contiguous():
        return None
    order = sorted(range(t.ndim), key=lambda d: (t._stride[d], -d), reverse=True)
    expected, strides = 1, [0] * t.ndim
    for d in reversed(order):
        strides[d] = expected
        expected *= t._shape[d]
    ok = all(t._stride[d] == strides[d] or t._shape[d] == 1 for d in range(t.ndim))
    return tuple(strides) if ok else None


def _empty_like(self, dtype=None, device=None, memory_format=None):
    dtype, device = _like(self, dtype, device)
    strides = _dense_strides(self) if memory_format != "contiguous_format" else None
    if strides is not None:
        return _empty_strided(self._shape, strides, dtype, device)
    return _empty(self._shape, dtype, device)


def _fresh(t):
    """A factory's result: filling it must not count as a modification."""
    t._version_counter[0] = 0
    return t


def _full(size, fill_value, dtype=None, device=None):
    return _fresh(_empty(size, dtype or scalar_dtype(fill_value), device).fill_(fill_value))


def _clone(self, memory_format=None):
    return _fresh(_empty_like(self, memory_format=memory_format).copy_(self))


def _contiguous(self, memory_format=None):
    return self if self.is_contiguous() else _clone(self, "contiguous_format")


def _resize(self, size):
    from ..._tensor import contiguous_strides
    size = tuple(size)
    n = 1
    for s in size:
        n *= s
    needed = (self._offset + n) * self.dtype.itemsize
    if needed > self._storage.nbytes():
        fresh = _empty((n,), self.dtype, self._device)
        self._storage = fresh._storage
        self._offset = 0
    self._shape, self._stride, self._cache = size, contiguous_strides(size), None
    return self


_ZERO = {D.bool: False}


def _declare():
    define(f"empty(int[] size, {_FACTORY}) -> Tensor",
           core_impl=lambda size, dtype, device: _empty(size, dtype, device),
           varargs="size", method=False)
    define(f"empty_strided(int[] size, int[] stride, {_FACTORY}) -> Tensor",
           core_impl=_empty_strided, method=False)
    define(f"zeros(int[] size, {_FACTORY}) -> Tensor", varargs="size", method=False,
           decomposition=lambda size, dtype, device: _fresh(_empty(size, dtype, device).zero_()))
    define(f"ones(int[] size, {_FACTORY}) -> Tensor", varargs="size", method=False,
           decomposition=lambda size, dtype, device: _fresh(_empty(size, dtype, device).fill_(1)))
    define(f"full(int[] size, Scalar fill_value, {_FACTORY}) -> Tensor", method=False,
           decomposition=_full)
    define(f"empty_like(Tensor self, {_LIKE}) -> Tensor", method=False, core_impl=_empty_like)
    define(f"zeros_like(Tensor self, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                      mf).zero_()))
    define(f"ones_like(Tensor self, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                      mf).fill_(1)))
    define(f"full_like(Tensor self, Scalar fill_value, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, v, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                         mf).fill_(v)))
    define(f"arange(Scalar start, Scalar? end=None, Scalar step=1, {_FACTORY}) -> Tensor",
           method=False, tags=("factory",))
    define(f"linspace(Scalar start, Scalar end, int steps, {_FACTORY}) -> Tensor",
           method=False, tags=("factory",))
    define(f"eye(int n, int? m=None, {_FACTORY}) -> Tensor", method=False, tags=("factory",))
    define("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
           function=False, tags=("inplace",))
    define("fill_(Tensor(a!) self, Tensor|Scalar value) -> Tensor(a!)", tags=("inplace",))
    define("zero_(Tensor(a!) self) -> Tensor(a!)", tags=("inplace",),
           decomposition=lambda self: self.fill_(_ZERO.get(self.dtype, 0)))
    define("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
           decomposition=_clone)
    define("contiguous(Tensor(a) self, *, MemoryFormat? memory_format=None) -> Tensor(a)",
           function=False, decomposition=_contiguous)
    define("resize_(Tensor(a!) self, int[] size) -> Tensor(a!)", function=False,
           core_impl=_resize, varargs="size")


_declare()
__all__ = ["OPS"]
