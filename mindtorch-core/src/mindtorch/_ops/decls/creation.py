"""Factories, copies and fills.  Allocation is core (the device's allocator); filling
and copying data are kernels."""
import math
import operator
import sys
import warnings

from ... import _creation, _dtype as D, _runtime
from ..._creation import _contiguous as _contiguous_strides
from ..._creation import _empty as _create_empty
from ..._memory_format import contiguous_format
from ..._memory_format import strides as format_strides
from ..._promotion import scalar_dtype
from ..._scalars import checked_scalar
from ..._shapes import broadcast_shapes
from ..._strides import check_no_internal_overlap, non_overlapping_and_dense, preserve_strides
from ..._tensor import Tensor
from ..._warn_once import warn_once
from ...autograd.functional_helpers import zeros
from ..dispatch import factory_device
from ..registry import OPS, define, derivative, nondifferentiable, overload, route_overloads
from ._helpers import _type_name
from ._prechecks import _checked_first

_FACTORY = "*, ScalarType? dtype=None, Device? device=None, bool requires_grad=False"
_LIKE = "*, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, " \
        "MemoryFormat? memory_format=None"


def _not_implemented(what, dtype):
    return NotImplementedError(f'"{what}" not implemented for \'{_type_name(dtype)}\'')


def _as_double(v, what="double"):
    """Scalar.to<double>(): a complex value with an imaginary part does not convert."""
    if isinstance(v, complex):
        if v.imag != 0:
            raise RuntimeError(f"value cannot be converted to type {what} without overflow")
        return v.real
    return float(v)


# -- rules shared by every backend (validity, result shape and dtype) --------------------

def arange_plan(start, end, step, dtype):
    """(first, step, length, dtype) of arange: PyTorch's checks (in double precision), its
    dtype rule (a float bound or step gives the default dtype, else int64) and its
    arithmetic: integer dtypes count from the truncated start by the truncated step."""
    if end is None:
        start, end = 0, start
    if type(start) is int and type(end) is int and type(step) is int and step and \
            (dtype is None or dtype is D.int64) and \
            max(abs(start), abs(end), abs(step)) < 2 ** 53:  # (the common call: plain ints)
        if end < start if step > 0 else end > start:
            raise RuntimeError("upper bound and lower bound inconsistent with step sign")
        return start, step, -((start - end) // step), D.int64
    if dtype is None:
        kinds = {scalar_dtype(v).kind for v in (start, end, step)}
        dtype = D.get_default_dtype() if kinds & {"f", "c"} else D.int64
    ds, de, dst = _as_double(start), _as_double(end), _as_double(step)
    if not (dst > 0 or dst < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(ds) and math.isfinite(de)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((dst > 0 and de >= ds) or (dst < 0 and de <= ds)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype.kind in "uib":
        # the accumulation type of integer dtypes is int64 (C++ truncating casts)
        xs, xe, xst = (_as_int64(v) for v in (start, end, step))
        if dtype is D.int64:
            if xst == 0:
                raise ValueError("step must be nonzero")
            sgn = (xst > 0) - (xst < 0)
            num = (xe - xs + xst - sgn + 2 ** 63) % 2 ** 64 - 2 ** 63  # (int64: wraps)
            n = abs(num) // abs(xst) * (-1 if (num < 0) != (xst < 0) else 1)  # truncating
        else:
            n = math.ceil((de - ds) / dst)
        start, step = xs, xst
    else:
        n = math.ceil((de - ds) / dst) if math.isfinite(dst) else 0
        start, step = ds, dst
    if not 0 <= n <= 2 ** 63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    return start, step, n, dtype


def _as_int64(v):
    """Scalar.to<int64_t>(): truncation, with c10's overflow check."""
    if not isinstance(v, int):
        v = _as_double(v)
        if not math.isfinite(v) or not -2.0 ** 63 <= v < 2.0 ** 63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
    elif not -2 ** 63 <= v < 2 ** 63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    return int(v)


def linspace_plan(start, end, steps, dtype):
    """(start, end, dtype) of linspace, start and end converted to dtype with PyTorch's
    overflow checks."""
    is_complex = any(isinstance(v, complex) for v in (start, end))
    if is_complex and dtype is not None and not dtype.is_complex:
        raise RuntimeError(f"torch.linspace(): inferred dtype "
                           f"{_C_COMPLEX[D.default_complex_dtype().name]} can't be safely "
                           f"cast to passed dtype {_type_name(dtype)}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is None:
        dtype = D.default_complex_dtype() if is_complex else D.get_default_dtype()
    # torch converts (checked) what it uses: nothing for no step, start alone for one
    if steps:
        checked_scalar(start, dtype)
    if steps > 1:
        checked_scalar(end, dtype)
    return start, end, dtype


_C_COMPLEX = {"complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def check_range_dtype(fn, dtype, supported_kinds):
    """The dtypes a backend's range kernel computes (PyTorch's cpu kernels: no bool, and
    no complex for arange, nor uint16/32/64 or float8; the meta device accepts them all)."""
    if dtype.kind not in supported_kinds or dtype._limited:
        raise _not_implemented(fn, dtype)


def eye_plan(n, m, dtype):
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return (n, n if m is None else m), dtype or D.get_default_dtype()


def check_copy(self, src):
    """copy_'s checks: src broadcasts to self's shape, self has no element written twice
    and self and src do not partly overlap in memory (PyTorch's TensorIterator checks).
    Returns src's shape."""
    shape = getattr(src, "_shape", ())
    if shape != self._shape and broadcast_shapes(self._shape, shape) != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(broadcast_shapes(self._shape, shape))}")
    check_no_internal_overlap(self._shape, self._stride)
    if getattr(src, "dtype", None) is not None and src.dtype.is_complex and \
            not self.dtype.is_complex:
        warn_once("copy_complex_to_real",  # PyTorch's TORCH_WARN_ONCE
                  "Casting complex values to real discards the imaginary part")
    if self is not src and hasattr(src, "_storage"):
        check_no_overlap(self, src)
    return shape


def check_fill_value(self, value):
    """fill_'s checks of a tensor value: 0-dim; complex into real warns as copy_ does."""
    if value.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                           f"with {value.ndim} dimensions.")
    if value.dtype.is_complex and not self.dtype.is_complex:
        warn_once("copy_complex_to_real",
                  "Casting complex values to real discards the imaginary part")


def check_no_overlap(written, other, disjoint=False):
    """A written tensor (copy_, in place, out=) must not partly overlap an input in memory:
    the result would depend on the order the elements are written in (PyTorch refuses).
    disjoint: nor overlap it fully (ops that read an input after writing some output)."""
    if _partial_overlap(written, other) or disjoint and _full_overlap(written, other):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                           "written-to tensor refer to a single memory location. Please "
                           "clone() the tensor before performing the operation.")


# out= ops PyTorch refuses any overlap with an input for, the same tensor included (the
# others refuse a partial overlap only; reductions do not check out=)
OUT_DISJOINT = {"gather", "index_select", "masked_select", "take", "cross", "cat", "concat",
                "concatenate", "stack"}


def check_out_overlap(out, inputs, disjoint=False):
    if isinstance(out, Tensor):
        for t in inputs:
            if isinstance(t, Tensor) and t._storage is out._storage and (
                    disjoint or t is not out):
                check_no_overlap(out, t, disjoint)


def _full_overlap(a, b):
    """PyTorch's get_overlap_status(a, b) == Full: the same elements in the same layout."""
    return (a._storage is b._storage and a._offset == b._offset and a._shape == b._shape
            and a._stride == b._stride and a.dtype is b.dtype and 0 not in a._shape)


def _partial_overlap(a, b):
    """PyTorch's get_overlap_status(a, b) == Partial (only decided for dense tensors)."""
    if a._storage is not b._storage or 0 in a._shape or 0 in b._shape:
        return False
    if not (non_overlapping_and_dense(a._shape, a._stride)
            and non_overlapping_and_dense(b._shape, b._stride)):
        return False  # too hard to tell: PyTorch lets it through
    isz_a, isz_b = a.dtype.itemsize, b.dtype.itemsize
    a0, b0 = a._offset * isz_a, b._offset * isz_b
    a1, b1 = a0 + a.numel() * isz_a, b0 + b.numel() * isz_b
    if a0 == b0 and a1 == b1:
        return a._stride != b._stride
    return a0 < b1 and b0 < a1


# -- layouts ---------------------------------------------------------------------------

def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


# -- allocation (core) -------------------------------------------------------------------

def _check_size(size):
    """size as a tuple of ints, checked as PyTorch does."""
    if not all(type(s) is int for s in size):
        try:
            size = tuple(operator.index(s) for s in size)
        except TypeError:
            bad = next(s for s in size if not hasattr(s, "__index__"))
            raise TypeError(f"expected a tuple of ints as size, but found element of type "
                            f"{type(bad).__name__}") from None
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(size)}")
    return tuple(size)


def _deterministic_fill(t):
    """t with PyTorch's fill of uninitialized memory when deterministic algorithms are on
    (and torch.utils.deterministic.fill_uninitialized_memory, default True)."""
    if _runtime._state["deterministic"] and t.numel():
        settings = sys.modules.get("mindtorch.utils.deterministic")
        if settings is None or settings.fill_uninitialized_memory:
            dtype = t.dtype
            nan = dtype.is_floating_point or dtype.is_complex
            t.fill_(float("nan") if nan else True if dtype is D.bool else D.iinfo(dtype).max)
    return t


def _filled(make):
    """An empty-tensor factory whose result is filled as PyTorch's under determinism."""
    def factory(*args, **kwargs):
        return _deterministic_fill(make(*args, **kwargs))
    factory.__name__ = make.__name__
    return factory


def _empty(size, dtype=None, device=None):
    return _create_empty(_check_size(size), dtype or D.get_default_dtype(), device)


def _empty_strided(size, stride, dtype=None, device=None):
    from ..._creation import _empty
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    size = _check_size(size)
    dtype = dtype or D.get_default_dtype()
    # PyTorch's computeStorageNbytes (nothing to store with a zero size; a negative stride
    # over more than one element overflows its unsigned arithmetic) ...
    if 0 not in size and (any(s < 0 and n > 1 for n, s in zip(size, stride)) or (1 + sum(
            (n - 1) * s for n, s in zip(size, stride))) * dtype.itemsize >= 2 ** 63):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    # ... then TensorImpl::set_sizes_and_strides replaces a negative stride by the
    # contiguous stride over the dims to its right
    stride = list(stride)
    for i in range(len(size) - 1, -1, -1):
        if stride[i] < 0:
            stride[i] = 1 if i == len(size) - 1 else max(size[i + 1], 1) * stride[i + 1]
    stride = tuple(stride)
    return _empty(size, dtype, device, stride)


def _empty_permuted(size, physical_layout, dtype=None, device=None):
    """empty(size) laid out in memory in the dim order physical_layout (outermost first)."""
    size, order = _check_size(size), list(physical_layout)
    if len(order) != len(size):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(order)}")
    if sorted(order) != list(range(len(size))):
        raise RuntimeError("Duplicate dim not allowed" if len(set(order)) < len(order)
                           else f"Dimension out of range (expected to be in range of "
                                f"[{-len(size)}, {len(size) - 1}], but got "
                                f"{max(order, key=abs)})")
    stride, step = [0] * len(size), 1
    for d in reversed(order):
        stride[d], step = step, step * max(size[d], 1)
    return _empty_strided(size, stride, dtype, device)


def _empty_like(self, dtype=None, device=None, memory_format=None):
    dtype, device = dtype or self.dtype, device or self._device
    shape = self._shape
    if memory_format == "contiguous_format" or self._stride == _contiguous_strides(shape):
        if memory_format is None or memory_format in ("contiguous_format", "preserve_format"):
            return _create_empty(shape, dtype, device)  # contiguous stays contiguous
    if memory_format is None or memory_format == "preserve_format":
        return _create_empty(shape, dtype, device, preserve_strides(shape, self._stride))
    return _create_empty(shape, dtype, device, format_strides(shape, memory_format))


def _empty_in_format(size, dtype=None, device=None, memory_format=None):
    if memory_format is None or memory_format == "contiguous_format":
        return _empty(size, dtype, device)
    size = _check_size(size)
    return _create_empty(size, dtype or D.get_default_dtype(), device,
                         format_strides(size, memory_format))


def _new_empty_strided(self, size, stride, dtype=None, device=None):
    return _empty_strided(size, stride, dtype or self.dtype, device or self._device)


def _fresh(t):
    """A factory's result: filling it must not count as a modification."""
    t._version_counter[0] = 0
    return t


def _full(size, fill_value, dtype=None, device=None):
    from .pointwise_checks import check_int_scalars
    check_int_scalars(fill_value, promote=False)  # (a bool dtype converts anything else)
    return _fresh(_empty(size, dtype or scalar_dtype(fill_value), device).fill_(fill_value))


def _fill(self, value):
    return _fresh(_empty_like(self).fill_(value))


def _clone(self, memory_format=None):
    return _fresh(_empty_like(self, memory_format=memory_format).copy_(self))


def _contiguous(self, memory_format=None):
    # through the clone op: its graph node is CloneBackward0, as in PyTorch
    fmt = contiguous_format if memory_format is None else memory_format
    if self.is_contiguous(memory_format=fmt):
        return self
    if fmt == "preserve_format":
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    if fmt != "contiguous_format":
        format_strides(self._shape, fmt)  # (the rank check)
    return OPS["clone"].call(self, fmt)


def _resize(self, size, memory_format=None):
    """PyTorch's resize_: a tensor already of that size keeps its strides, else it becomes
    contiguous (its storage grown if need be); memory_format= then restrides it."""
    from ..._tensor import contiguous_strides
    size = _check_size(size)
    if size != self._shape:
        needed = self._offset + _numel(size)
        if needed * self.dtype.itemsize > self._storage.nbytes():
            # a larger storage that starts with the old one's bytes (offset kept), as PyTorch's
            from ..._storage import FIXED_SIZE, _flat
            if self._storage in FIXED_SIZE:
                raise RuntimeError("Trying to resize storage that is not resizable")
            fresh = _deterministic_fill(_empty((needed,), self.dtype, self._device))._storage
            old = _flat(self._storage, D.uint8)
            _flat(fresh, D.uint8)[:old._shape[0]].copy_(old)
            self._storage = fresh
        self._shape, self._stride, self._cache = size, contiguous_strides(size), None
    if memory_format is not None:
        if memory_format == "preserve_format":
            raise RuntimeError("Unsupported memory formatPreserve")
        self._stride, self._cache = format_strides(size, memory_format), None
    return self


_ZERO = {D.bool: False}


# -- PyTorch's overloads ------------------------------------------------------------------


_ARANGE_OPTIONS = "torch.dtype dtype = None, torch.layout layout = None, torch.device " \
    "device = None, bool pin_memory = False, bool requires_grad = False)"
_ARANGE_OVERLOADS = (
    f" * (Number end, *, Tensor out = None, {_ARANGE_OPTIONS}\n"
    f" * (Number start, Number end, *, {_ARANGE_OPTIONS}\n"
    f" * (Number start, Number end, Number step = 1, *, Tensor out = None, {_ARANGE_OPTIONS}\n")


def _route_arange(args, kwargs):
    """arange(end) / arange(start, end[, step]) (end= alone means arange(end)), with the
    errors of PyTorch's parser: one argument can only be the first overload's end."""
    if args and (len(args) > 1 or kwargs or type(args[0]) in (int, float)) and \
            "start" not in kwargs and "end" not in kwargs and "step" not in kwargs:
        return args, kwargs  # (the common calls: nothing for the parser to refuse)
    from .._argcheck import _is_number
    from .._argcheck import _type_name as type_name
    if len(args) + len(kwargs) == 1:
        if not args:
            if "end" not in kwargs:
                raise TypeError('arange() missing 1 required positional arguments: "end"')
        elif not _is_number(args[0]) and not (isinstance(args[0], Tensor) and
                                              not args[0]._shape):
            raise TypeError(f"arange(): argument 'end' (position 1) must be Number, not "
                            f"{type_name(args[0])}")
    taken = ("start",) if len(args) == 1 else ("start", "end", "step")[:len(args)]
    bounds = len(args) + ("start" in kwargs) + ("end" in kwargs)
    if not args and not kwargs or any(k in kwargs for k in taken) or \
            bounds == 1 and ("start" in kwargs or "step" in kwargs):
        raise _invalid_combination("arange", args, kwargs, _ARANGE_OVERLOADS)
    if not args and "start" not in kwargs:
        kwargs = dict(kwargs, start=0)
    return args, kwargs


def _invalid_combination(name, args, kwargs, overloads):
    """PyTorch's parser error when no overload takes the arguments (keywords listed last to
    first; without positional arguments each is followed by a comma)."""
    from .._argcheck import _type_name as type_name
    got = [type_name(a) for a in args] + \
        [f"{k}={type_name(v)}" for k, v in reversed(kwargs.items())]
    got = ", ".join(got) if args else "".join(g + ", " for g in got)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{overloads}")


_EYE_OVERLOADS = "".join(f" * (int n, {m}*, Tensor out = None, {_ARANGE_OPTIONS}\n"
                         for m in ("", "int m, "))


def _route_eye(args, kwargs):
    if len(args) > 1 and args[1] is None or "m" in kwargs and kwargs["m"] is None:
        raise _invalid_combination("eye", args, kwargs, _EYE_OVERLOADS)  # (m is no Optional)
    return args, kwargs


def _route_spaced(name):
    """linspace / logspace: PyTorch's Tensor overloads take 0-dim bounds only."""
    def route(args, kwargs):
        bounds = dict(zip(("start", "end"), args), **kwargs)
        bad = [f"{k} with {v.dim()} dimension(s)" for k in ("start", "end")
               if isinstance(v := bounds.get(k), Tensor) and v._shape]
        if bad:
            raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, "
                               f"but got {' and '.join(bad)}.")
        return args, kwargs
    return route


def _route_sized(name):
    def route(args, kwargs):
        if not args and "size" not in kwargs:
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        return args, kwargs
    return route


def _route_zeros(args, kwargs):
    """torch.zeros's own message for a negative size (other factories: empty's)."""
    args, kwargs = _route_sized("zeros")(args, kwargs)
    size = kwargs.get("size", args[0] if len(args) == 1 and not isinstance(args[0], int)
                      else args)
    if isinstance(size, (tuple, list)) and any(type(n) is int and n < 0 for n in size):
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    return args, kwargs


def _route_full(args, kwargs):
    size = args[0] if args else kwargs.get("size")
    if isinstance(size, int) and not isinstance(size, bool):  # full takes no varargs size
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    return args, kwargs


def _factory(op, route=None):
    """op's public function with PyTorch's out=: the values are made in out's dtype (an
    explicit other dtype= is refused) on out's device, out is resized to them silently."""
    def make(binding):
        def public(*args, out=None, **kwargs):
            if route is not None:
                args, kwargs = route(args, kwargs)
            if out is None:
                return binding(*args, **kwargs)
            if not isinstance(out, Tensor):
                raise TypeError(f"{op.name}(): argument 'out' must be Tensor, not "
                                f"{type(out).__name__}")
            dtype = kwargs.get("dtype")
            if dtype is not None and dtype is not out.dtype:
                raise RuntimeError(f"dtype {_type_name(dtype)} does not match dtype of out "
                                   f"parameter ({_type_name(out.dtype)})")
            if out.requires_grad:
                raise RuntimeError(f"aten::{op.name}(): functions with out=... arguments don't "
                                   f"support automatic differentiation, but one of the "
                                   f"arguments requires grad.")
            result = binding(*args, **dict(kwargs, dtype=out.dtype, device=out.device))
            if op.name == "arange" and out.numel() not in (0, result.numel()):
                from ..._warn_once import _user_level
                warnings.warn(f"The number of elements in the out tensor of shape "
                              f"{list(out.shape)} is {out.numel()} which does not match the "
                              f"computed number of elements {result.numel()}. Note that this "
                              f"may occur as a result of rounding error. The out tensor will be "
                              f"resized to a tensor of shape ({result.numel()},).", UserWarning,
                              stacklevel=_user_level())
            return out.resize_(result.shape).copy_(result)
        return public
    return overload(op, make)


def _logspace(start, end, steps, base, dtype, device):
    # computed in double (as PyTorch's step arithmetic is) and rounded once to dtype
    import mindtorch as M
    is_complex = any(isinstance(v, complex) for v in (start, end))
    if is_complex and dtype is not None and not dtype.is_complex:
        raise RuntimeError(f"torch.logspace(): inferred dtype "
                           f"{_C_COMPLEX[D.default_complex_dtype().name]} can't be safely "
                           f"cast to passed dtype {_type_name(dtype)}")
    if dtype is None:  # a complex end: the default complex dtype (as linspace)
        dtype = D.default_complex_dtype() if is_complex else D.get_default_dtype()
    if steps > 1 and dtype._limited and factory_device(device).type == "cpu":
        raise _not_implemented("logspace_cpu", dtype)  # (PyTorch's cpu kernel lacks them)
    if steps > 1 and (dtype is D.bool or dtype.kind in "ui"):
        return _logspace_integral(start, end, steps, base, dtype, device)
    if steps > 1:
        return _logspace_float(start, end, steps, base, dtype, device)
    if steps == 1 and not dtype.is_complex:  # (PyTorch fill_s the double power)
        value = _c_pow_scalar(float(base), float(start))
        return M.empty((1,), dtype=dtype, device=device).fill_(value)
    wide = M.complex128 if dtype.is_complex else M.float64
    exponents = M.linspace(start, end, steps, dtype=wide, device=device)
    if dtype.is_complex and base > 0:  # (C++'s pow(real, complex): polar(x ** re, im log x))
        return M.polar(M.pow(float(base), exponents.real),
                       exponents.imag * math.log(base)).to(dtype)
    return _c_pow(float(base), exponents).to(dtype)


def _c_pow(base, exponents):
    """base ** each double exponent as PyTorch's logspace loop computes it: C's pow, a
    backend's own `_logspace_powers` kernel (NumPy's float64 power, say, is its own SIMD code
    on AVX-512 machines, a last bit off for some exponents); elsewhere pow."""
    return OPS["_logspace_powers"].call(base, exponents)


def _logspace_powers(base, exponents):
    import mindtorch as M
    return M.pow(base, exponents)


def _c_pow_scalar(x, y):
    """C's pow(x, y): math.pow, with C's results where Python raises instead."""
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        odd = math.isfinite(y) and y == int(y) and int(y) % 2 == 1
        if x == 0:  # (0 ** negative: a pole, signed by an odd exponent)
            return math.copysign(math.inf, x) if odd else math.inf
        if x < 0 and y != int(y):  # (negative ** fraction)
            return math.nan
        return -math.inf if x < 0 and odd else math.inf  # (overflow: C's HUGE_VAL)


def _logspace_float(start, end, steps, base, dtype, device):
    """PyTorch's floating logspace: the ends rounded to dtype, their difference taken in
    dtype, then a double step, double exponents (counted up from start for the first half,
    down from end for the rest) and double powers, rounded once to dtype.  Complex: all of
    it in dtype."""
    import mindtorch as M
    start, end, _ = linspace_plan(start, end, steps, dtype)
    ends = M.tensor([start, end], dtype=dtype, device=device)
    wide = dtype if dtype.is_complex else M.float64
    step = (ends[1] - ends[0]).to(wide) / (steps - 1)
    s, e = ends.to(wide).unbind()
    i = M.arange(steps, dtype=M.float64, device=device)
    up, down = i.to(wide), (steps - 1 - i).to(wide)
    exponents = M.where(i < steps // 2, s + step * up, e - step * down)
    if dtype.is_complex:
        return M.pow(complex(base), exponents).to(dtype)
    return _c_pow(float(base), exponents).to(dtype)


def _logspace_integral(start, end, steps, base, dtype, device):
    """PyTorch's integral logspace: start and end converted to dtype, a double step between
    them, float(base) ** exponent in double, converted as its C++ cast does on x86 (values
    out of the int32 range, int64 for int64, and NaN become the lowest value; narrower
    types keep the low bits)."""
    import mindtorch as M
    if dtype is D.bool:
        raise _not_implemented("logspace_cpu", dtype)
    start, end, _ = linspace_plan(start, end, steps, dtype)
    s, e = (int(v.real if isinstance(v, complex) else v) for v in (start, end))
    if dtype.itemsize < 8:  # the ends as the dtype holds them, subtracted as C++ ints
        bits = dtype.itemsize * 8
        s, e = ((v % 2 ** bits) - (2 ** bits if dtype.kind == "i" and v % 2 ** bits >=
                                   2 ** (bits - 1) else 0) for v in (s, e))
    step = (e - s) / (steps - 1)
    i = M.arange(steps, dtype=M.float64, device=device)
    half = steps // 2
    exponents = M.where(i < half, s + step * i, e - step * (steps - 1 - i))
    values = _c_pow(float(base), exponents)
    wide = 2 ** 63 if dtype is D.int64 else 2 ** 31
    values = values.trunc()
    inside = (values >= -float(wide)) & (values < float(wide))
    ints = M.where(inside, values, 0.0).to(M.int64)
    return ints.masked_fill(~inside, -wide).to(dtype)


_LISTED_TRIANGLE = 1024  # pairs (listed on the host below it; computed by ops above)


def _triangle_indices(lower):
    """tril_indices / triu_indices: the (row, col) pairs of the triangle, row by row."""
    name = "tril_indices" if lower else "triu_indices"

    def indices(row, col, offset, dtype, device):
        import mindtorch as M
        for what, n in (("row", row), ("col", col)):
            if n < 0:  # (PyTorch's message, without its space)
                raise RuntimeError(f"{what} must be non-negative, got{n}")
        dtype = dtype or M.int64
        if dtype not in (M.int32, M.int64):
            raise _not_implemented(name, dtype)
        # the triangle's shape is known from the arguments alone, so every device (meta too)
        # builds it without a data-dependent op, from host lists: (first column, end) per row
        spans = [(0, max(0, min(col, r + offset + 1))) if lower else (max(0, r + offset), col)
                 for r in range(row)]
        spans = [(r, first, end) for r, (first, end) in enumerate(spans) if end > first]
        total = sum(end - first for _, first, end in spans)
        if total <= _LISTED_TRIANGLE:  # (a few ops: each pair listed)
            rows = [r for r, first, end in spans for _ in range(first, end)]
            cols = [c for _, first, end in spans for c in range(first, end)]
            return M.tensor([rows, cols], dtype=dtype, device=device).reshape(2, total)
        # at each row's first position, its row number and its columns' shift from the
        # position step up (then summed along): column = position + shift
        firsts, steps, at, last = [], [[], []], 0, (0, 0)
        for r, first, end in spans:
            firsts.append(at)
            steps[0].append(r - last[0])
            steps[1].append(first - at - last[1])
            last = (r, first - at)
            at += end - first
        out = M.zeros((2, total), dtype=M.int64, device=device)
        out.scatter_(1, M.tensor(firsts, device=device).expand(2, len(firsts)),
                     M.tensor(steps, device=device))
        out = out.cumsum(1)
        out[1] += M.arange(total, device=device)
        return out.to(dtype)
    return indices


def _declare():
    empty = define(f"empty(int[] size, {_FACTORY}, MemoryFormat? memory_format=None) -> Tensor",
                   core_impl=_filled(_empty_in_format),
                   varargs="size", method=False)
    route_overloads(empty, _route_sized("empty"))
    define(f"empty_strided(int[] size, int[] stride, {_FACTORY}) -> Tensor",
           core_impl=_filled(_empty_strided), method=False)
    define(f"empty_permuted(int[] size, int[] physical_layout, {_FACTORY}) -> Tensor",
           core_impl=_filled(_empty_permuted), method=False)
    define("new_empty_strided(Tensor self, int[] size, int[] stride, *, ScalarType? dtype=None, "
           "Device? device=None, bool requires_grad=False) -> Tensor", function=False,
           core_impl=_filled(_new_empty_strided))
    zeros = define(f"zeros(int[] size, {_FACTORY}) -> Tensor", varargs="size", method=False,
                   decomposition=lambda size, dtype, device:
                   _fresh(_empty(size, dtype, device).zero_()))
    _factory(zeros, _route_zeros)
    ones = define(f"ones(int[] size, {_FACTORY}) -> Tensor", varargs="size", method=False,
                  decomposition=lambda size, dtype, device:
                  _fresh(_empty(size, dtype, device).fill_(1)))
    _factory(ones, _route_sized("ones"))
    full = define(f"full(int[] size, Scalar fill_value, {_FACTORY}) -> Tensor", method=False,
                  decomposition=_full)
    _factory(full, _route_full)
    define(f"empty_like(Tensor self, {_LIKE}) -> Tensor", method=False,
           core_impl=_filled(_empty_like))
    define(f"zeros_like(Tensor self, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                      mf).zero_()))
    define(f"ones_like(Tensor self, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                      mf).fill_(1)))
    define(f"full_like(Tensor self, Scalar fill_value, {_LIKE}) -> Tensor", method=False,
           decomposition=lambda self, v, dtype, device, mf: _fresh(_empty_like(self, dtype, device,
                                                                         mf).fill_(v)))
    arange = define(f"arange(Scalar start, Scalar? end=None, Scalar step=1, {_FACTORY}) -> "
                    "Tensor", method=False, tags=("factory",))
    _factory(arange, _route_arange)
    _factory(define(f"linspace(Scalar start, Scalar end, int steps, {_FACTORY}) -> Tensor",
                    method=False, tags=("factory",)), _route_spaced("linspace"))
    _factory(define(f"eye(int n, int? m=None, {_FACTORY}) -> Tensor", method=False,
                    tags=("factory",)), _route_eye)
    _factory(define(f"logspace(Scalar start, Scalar end, int steps, float base=10.0, "
                    f"{_FACTORY}) -> Tensor", method=False, tags=("factory",),
                    decomposition=_logspace), _route_spaced("logspace"))
    define("_logspace_powers(float base, Tensor exponents) -> Tensor", function=False,
           method=False, decomposition=_logspace_powers)
    for lower, name in ((True, "tril_indices"), (False, "triu_indices")):
        define(f"{name}(int row, int col, int offset=0, {_FACTORY}) -> Tensor", method=False,
               tags=("factory",), decomposition=_triangle_indices(lower))
    # a Python number as src is copied like a 0-dim tensor (PyTorch wraps it)
    define("copy_(Tensor(a!) self, Tensor|Scalar src, bool non_blocking=False) -> Tensor(a!)",
           function=False, tags=("inplace",))
    define("fill_(Tensor(a!) self, Tensor|Scalar value) -> Tensor(a!)", tags=("inplace",))
    define("fill(Tensor self, Tensor|Scalar value) -> Tensor", method=False, decomposition=_fill)
    define("zero_(Tensor(a!) self) -> Tensor(a!)", tags=("inplace",),
           decomposition=lambda self: self.fill_(_ZERO.get(self.dtype, 0)))
    define("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
           decomposition=_clone)
    define("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> "
           "Tensor(a)",
           function=False, decomposition=_contiguous)
    # Tensor.to() when the result records history (_creation.convert)
    define("_to_copy(Tensor self, *, ScalarType? dtype=None, Device? device=None, "
           "MemoryFormat? memory_format=None) -> Tensor", function=False, method=False,
           decomposition=lambda self, dtype, device, memory_format: _creation.copied(
               self, device, dtype, memory_format))
    define("resize_(Tensor(a!) self, int[] size, *, MemoryFormat? memory_format=None) -> "
           "Tensor(a!)", function=False, core_impl=_resize, varargs="size")


_declare()


def _check_resize(args, kwargs):
    self = args[0] if args else kwargs.get("self")
    if getattr(self, "requires_grad", False):  # (in any grad mode, as PyTorch)
        raise RuntimeError("cannot resize variables that require grad")


_checked_first("resize_", _check_resize)


def _derivatives():
    # (the engine sums src's gradient over broadcast dims and casts it to src's dtype/device)
    derivative(OPS["copy_"], self=zeros, src=lambda grad: grad,
               name="torch::autograd::CopyBackwards")
    # a tensor fill value gets the sum of the gradient of what it filled
    fill = {"self": zeros, "value": lambda grad: grad.sum()}
    derivative(OPS["fill_"], **fill, name=lambda self, value:
               f"FillBackward{2 + isinstance(value, type(self))}")
    derivative(OPS["fill"], **fill)
    derivative(OPS["zero_"], self=zeros)
    derivative(OPS["clone"], self=lambda grad: grad)
    # (the engine casts the gradient back to the input's dtype and device)
    derivative(OPS["_to_copy"], self=lambda grad: grad)
    nondifferentiable(OPS["empty_like"], OPS["new_empty_strided"])
    # filled factories: no input's value reaches their result, so when grad mode is on
    # they run their kernel too, not their decomposition (empty + fill_, two recorded ops:
    # ones_like starts every backward)
    nondifferentiable(*(OPS[name] for name in ("zeros", "ones", "full", "zeros_like",
                                                "ones_like", "full_like")))
    nondifferentiable(OPS["logspace"], OPS["_logspace_powers"], OPS["tril_indices"],
                      OPS["triu_indices"])


_derivatives()
__all__ = ["OPS"]
