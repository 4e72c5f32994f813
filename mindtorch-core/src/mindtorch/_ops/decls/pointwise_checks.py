"""PyTorch's argument checks and result dtypes of the pointwise ops (Python ints a Scalar
cannot hold, bool subtraction / negation, lerp's, clamp's and where's dtype rules), shared
by every backend's kernels and meta rules so that they raise the same errors."""
from ... import _dtype
from ._helpers import _type_name

INT_MIN, INT_END = -2 ** 63, 2 ** 64  # the Python ints a c10 Scalar holds (int64, uint64)


def check_int_scalars(*operands, promote=True):
    """PyTorch's OverflowError for Python ints no Scalar holds (raised when the arguments
    are parsed, so before anything else); with `promote`, also its refusal to promote a
    uint64 Scalar (>= 2**63) unless a non-bool tensor operand decides the dtype."""
    for x in operands:
        if type(x) is int and not INT_MIN <= x < 2 ** 63:
            if not INT_MIN <= x < INT_END:
                raise OverflowError("int too big to convert" if x > 0 else
                                    "can't convert negative int to unsigned")
            if promote and not any(getattr(t, "dtype", _dtype.bool) is not _dtype.bool
                                   and hasattr(t, "_shape") for t in operands):
                from ..._promotion import result_type
                other = next((t for t in operands if t is not x and t is not None), None)
                name = _type_name(result_type(other)) if other is not None else "Bool"
                raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not "
                                   f"supported, attempted to promote {name} and UInt64")


def _is_bool(x):
    return type(x) is bool or getattr(x, "dtype", None) is _dtype.bool


def check_sub(self, other, alpha=1):
    """PyTorch's refusals for subtraction (shared by every backend's sub kernel)."""
    check_int_scalars(self, other, alpha, promote=False)
    if _is_bool(self) and _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(self) or _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    if type(alpha) is bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")


def check_neg(self):
    """PyTorch's refusal to negate bools (shared by every backend's neg kernel)."""
    if self.dtype is _dtype.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def check_rounding_division(dtype, rounding_mode):
    """PyTorch's refusal of complex floor/trunc division (its cpu kernels lack complex),
    shared by every backend: floor_divide, and div with a rounding mode."""
    if rounding_mode is not None and dtype.is_complex:
        raise NotImplementedError(f'"div_{rounding_mode}_cpu" not implemented for '
                                  f'\'{_type_name(dtype)}\'')


def _floating_only(kernel, t, complex_ok=False):
    """t, if its dtype is floating (or complex when allowed); else PyTorch's error."""
    if t.dtype.kind != "f" and not (complex_ok and t.dtype.kind == "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t.dtype)}\'')
    return t


def lerp_plan(self, end, weight):
    """Result dtype of lerp, with PyTorch's checks: end has self's dtype; a tensor weight
    too unless it is 0-dim (then the three promote together); a Python weight keeps self's
    dtype and must convert (checked) to its computation type."""
    from ..._promotion import result_type
    from ..._scalars import checked_scalar
    check_int_scalars(weight, promote=False)
    if end.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {_c_name(self.dtype)} for `end` but got dtype "
                           f"{_c_name(end.dtype)}")
    tensor_weight = hasattr(weight, "dtype")
    if tensor_weight and weight.ndim and weight.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {_c_name(self.dtype)} for `weight` but got dtype "
                           f"{_c_name(weight.dtype)}")
    from ..._shapes import broadcast_shapes
    broadcast_shapes(*(t._shape for t in (self, end, weight) if hasattr(t, "_shape")))
    dt = result_type(self, end, weight) if tensor_weight else self.dtype
    if dt.kind not in "fc":
        raise NotImplementedError(f'"lerp_kernel_{"tensor" if tensor_weight else "scalar"}" not '
                                  f"implemented for '{_type_name(dt)}'")
    if not tensor_weight:
        checked_scalar(weight, opmath(dt))
    return dt


def opmath(dtype):
    """The dtype PyTorch computes `dtype` values in (float32 for 16-bit floats)."""
    return _dtype.float32 if dtype in (_dtype.float16, _dtype.bfloat16) else dtype


def clamp_plan(self, min, max):
    """(min, max, result dtype, scalar bounds?) of clamp, as PyTorch's two overloads decide:
    with a Python number among the bounds, 0-dim tensor bounds count as numbers (a bound
    with dims is a TypeError), the result keeps a floating self's dtype, else promotes with
    the numbers, and the numbers must convert (checked) to it; with tensor bounds all
    promote together."""
    from ..._promotion import result_type
    from ..._scalars import checked_scalar
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    bounds = [b for b in (min, max) if b is not None]
    scalar = not all(hasattr(b, "_shape") for b in bounds)
    if scalar:
        if any(hasattr(b, "_shape") and b._shape for b in bounds):
            raise TypeError("clamp() received an invalid combination of arguments - got a "
                            "tensor with dimensions and a number as bounds")
        min, max = (b.item() if hasattr(b, "_shape") else b for b in (min, max))
        bounds = [b for b in (min, max) if b is not None]
        check_int_scalars(*bounds, promote=False)
    if self.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if scalar and self.dtype.kind == "f":
        dt = self.dtype
    else:
        from ..._shapes import broadcast_shapes
        broadcast_shapes(self._shape, *(b._shape for b in bounds if hasattr(b, "_shape")))
        dt = result_type(self, *bounds)
    if dt.is_complex:
        if scalar:
            raise NotImplementedError("clamp is not supported for complex types")
        kernel = "clamp" if len(bounds) == 2 else "maximum" if min is not None else "minimum"
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{_type_name(dt)}\'')
    if dt is _dtype.bool and (scalar or len(bounds) == 2):
        which = "" if len(bounds) == 2 else "_min" if min is not None else "_max"
        raise NotImplementedError(f'"clamp{which}{"_scalar" if scalar else ""}_cpu" not '
                                  f"implemented for 'Bool'")
    if scalar:
        for b in bounds:  # (a complex number is read as a double first)
            checked_scalar(b, _dtype.float64 if isinstance(b, complex) else dt)
    return min, max, dt, scalar


def where_plan(condition, self, other):
    """Result dtype of where(condition, self, other): condition is bool (or uint8), Python
    numbers promote as wrapped numbers and must convert (checked) to the result."""
    from ..._promotion import result_type
    from ..._scalars import checked_scalar
    if condition.dtype is not _dtype.bool:
        if condition.dtype is not _dtype.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a "
                               f"tensor with dtype {_type_name(condition.dtype)}")
        from ..._warn_once import warn_once
        warn_once("where_uint8", "where received a uint8 condition tensor. This behavior is "
                  "deprecated and will be removed in a future version of PyTorch. Use a "
                  "boolean condition instead.")
    from ..._shapes import broadcast_shapes
    broadcast_shapes(condition._shape,
                     *(t._shape for t in (self, other) if hasattr(t, "_shape")))
    dt = result_type(self, other)
    if dt not in (_dtype.float16, _dtype.bfloat16):  # these take an overflow as inf
        for x in (self, other):
            if not hasattr(x, "_shape"):
                checked_scalar(x, dt)
    return dt


def _c_name(dtype):
    return _dtype.CPP_NAMES.get(dtype.name, dtype.name)
