"""Pointwise ops, declared from tables: name -> (promotion kind, extra schema args).

Every op here is tagged "pointwise" (broadcasting, result dtype from its promotion kind)
and gets an in-place variant `name_` and an `out=` argument.  Composite ops carry a
decomposition into other ops (invariant 5); backends may still register fused kernels.
"""
import cmath
import math

from ... import _dtype
from ..._memory_format import iter_laid_out
from ..._tensor import Tensor
from ...autograd.functional_helpers import scaled, sgn as _sgn, zeros
from ..registry import OPS, define, derivative, nondifferentiable, overload, route_overloads
from ._helpers import (
    NOT_IMPLEMENTED_NODE, _type_name, define_inplace, no_derivative, refuse_complex_autograd,
    scalar_clamp_inplace,
)
from ._prechecks import _checked_first
from ._out_rules import EXACT_OUT, _checked_out, _clamp_out
from .pointwise_fused import _addcdiv, _addcmul, _in_opmath  # noqa: F401 (_in_opmath: activation)

POINTWISE = ("pointwise",)

# unary: name -> promotion kind
UNARY = {
    "abs": "complex_to_float", "neg": "default", "exp": "int_to_float",
    "log": "int_to_float", "log1p": "int_to_float", "expm1": "int_to_float",
    "sqrt": "int_to_float", "rsqrt": "int_to_float", "sin": "int_to_float",
    "cos": "int_to_float", "tanh": "int_to_float", "sigmoid": "int_to_float",
    "erf": "int_to_float", "reciprocal": "int_to_float", "relu": "default",
    "floor": "default", "ceil": "default", "trunc": "default", "sign": "default",
    "logical_not": "always_bool", "bitwise_not": "default", "square": "default",
    "isnan": "always_bool", "isinf": "always_bool", "isfinite": "always_bool",
    "conj_physical": "default", "exp2": "int_to_float", "log2": "int_to_float",
    "log10": "int_to_float", "tan": "int_to_float", "sinh": "int_to_float",
    "cosh": "int_to_float", "asin": "int_to_float", "acos": "int_to_float",
    "atan": "int_to_float", "frac": "default", "signbit": "always_bool",
    "sgn": "default",
}
NO_INPLACE = {"isnan", "isinf", "isfinite", "signbit"}

# binary: name -> (promotion kind, extra args after `other`)
BINARY = {
    "add": ("default", ", *, Scalar alpha=1"),
    "sub": ("default", ", *, Scalar alpha=1"),
    "rsub": ("default", ", *, Scalar alpha=1"),
    "mul": ("default", ""),
    "div": ("int_to_float", ", *, str? rounding_mode=None"),
    "true_divide": ("int_to_float", ""),
    "floor_divide": ("default", ""),
    "pow": ("default", ""),
    "remainder": ("default", ""),
    "fmod": ("default", ""),
    "maximum": ("default", ""),
    "minimum": ("default", ""),
    "fmax": ("default", ""),
    "fmin": ("default", ""),
    "atan2": ("int_to_float", ""),
    "eq": ("always_bool", ""), "ne": ("always_bool", ""), "lt": ("always_bool", ""),
    "le": ("always_bool", ""), "gt": ("always_bool", ""), "ge": ("always_bool", ""),
    "logical_and": ("always_bool", ""), "logical_or": ("always_bool", ""),
    "logical_xor": ("always_bool", ""),
    "bitwise_and": ("default", ""), "bitwise_or": ("default", ""),
    "bitwise_xor": ("default", ""),
    "bitwise_left_shift": ("default", ""), "bitwise_right_shift": ("default", ""),
}
NO_INPLACE |= {"rsub"}
# Operand types where PyTorch's overloads are narrower than (Tensor|Scalar, Tensor|Scalar):
# only add/sub/mul/div/floor_divide take numbers for both (numbers as tensors); pow,
# remainder and the bitwise ops have a (Scalar, Tensor) overload; these have none.
OPERANDS = {
    **{name: ("Tensor", "Tensor|Scalar") for name in
       ("fmod", "eq", "ne", "lt", "le", "gt", "ge", "rsub")},
    **{name: ("Tensor", "Tensor") for name in
       ("maximum", "minimum", "fmax", "fmin", "atan2", "logical_and", "logical_or",
        "logical_xor")},
}
SECOND = {"pow": "exponent"}  # PyTorch's name for the second operand, when not `other`
NO_OUT = {"isnan", "isinf", "isfinite", "relu", "rsub"}  # torch gives them no out=
# torch.add(2, 3) is tensor(5): PyTorch's parser takes numbers as tensors for both operands
# of these (option read by the bindings; see registry.py)
NUMBERS_AS_TENSORS = {"add", "sub", "mul", "div", "true_divide", "floor_divide"}
# PyTorch wraps a Python number operand of these as a tensor (their Python signatures are
# Tensor-only): the number stays an input of the autograd node, with a None edge
WRAPPED_NUMBERS = {"add", "sub", "mul", "div", "true_divide", "where"}
# comparison aliases torch also exposes
ALIASES = {"greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le",
           "not_equal": "ne", "multiply": "mul", "subtract": "sub", "divide": "div",
           "negative": "neg", "absolute": "abs", "arctan2": "atan2", "clip": "clamp"}
UNARY_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "fix": "trunc"}
ALIAS_INPLACE = set(ALIASES) | set(UNARY_ALIASES)  # torch has all of them (greater_, ...)


def _decompositions():
    """Composite pointwise ops, written with mindtorch ops only."""
    import mindtorch as M

    return {
        "rsqrt": lambda self: M.reciprocal(M.sqrt(self)),
        # PyTorch squares with pow(self, 2): bool gives int64
        "square": lambda self: M.mul(self, self) if self.dtype is not M.bool else M.pow(self, 2),
        "sub": _sub,
        "rsub": lambda self, other, alpha=1: M.sub(other, self, alpha=alpha),
        "true_divide": lambda self, other: M.div(self, other),
        "frac": lambda self: M.sub(_floating_only("frac_cpu", self), M.trunc(self)),
        # (complex: exp(z log 2) with the parts scaled apart, as PyTorch; pow(2., inf+0j)
        # is inf+nanj where exp2 gives inf+0j)
        "exp2": lambda self: M.pow(2.0, self) if not self.dtype.is_complex else
        M.exp(M.view_as_complex(M.view_as_real(self) * LN2)),
    }


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


def _sub(self, other, alpha=1):
    import mindtorch as M
    check_sub(self, other, alpha)
    return M.add(self, other, alpha=-alpha)


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


def _lerp(self, end, weight):
    """PyTorch's formula: self + w * (end - self) for |w| < 0.5, else
    end - (end - self) * (1 - w) (exact at both ends)."""
    import mindtorch as M
    dt = lerp_plan(self, end, weight)
    self, end = _cast(self, dt), _cast(end, dt)
    diff = end - self
    if not hasattr(weight, "dtype"):
        return self + weight * diff if abs(weight) < 0.5 else end - diff * (1 - weight)
    weight = _cast(weight, dt)
    return M.where(weight.abs() < 0.5, self + weight * diff, end - diff * (1 - weight))


def join(op, module):
    """Expose op in one more public module (mindtorch.special, nn.functional) too."""
    op.options["modules"] = tuple(op.options.get("modules", ())) + (module,)


def _cast(t, dtype):
    return t if t.dtype is dtype else t.to(dtype)


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


def _conj_physical_(op):
    """conj_physical_ of a real tensor leaves it alone (no write: even an expanded tensor
    is fine)."""
    decomposition = op.decomposition

    def conj_physical_(self):
        return decomposition(self) if self.dtype.is_complex else self
    op.decomposition = conj_physical_


def _positive(self):
    if self.dtype is _dtype.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def _c_name(dtype):
    return _dtype.CPP_NAMES.get(dtype.name, dtype.name)


def _abs_(op):
    """abs_ refuses complex tensors (its result would be real)."""
    decomposition = op.decomposition

    def abs_(self):
        if self.dtype.is_complex:
            raise RuntimeError("In-place abs is not supported for complex tensors.")
        return decomposition(self)
    op.decomposition = abs_


def _isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """PyTorch's closeness: equal, or a finite |self - other| <= atol + rtol * |other|
    (integers compared in the default float dtype)."""
    import mindtorch as M
    if self.dtype is not other.dtype:
        raise RuntimeError(f"{_type_name(self.dtype)} did not match {_type_name(other.dtype)}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    close = self == other
    if equal_nan and (self.dtype.is_floating_point or self.dtype.is_complex):
        close = close | (self.isnan() & other.isnan())
    if rtol == 0 and atol == 0:
        return close
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        self, other = self.to(M.get_default_dtype()), other.to(M.get_default_dtype())
    err = (self - other).abs()
    return close | (err.isfinite() & (err <= atol + rtol * other.abs()))


def _equal(self, other):
    """torch.equal: same shape and the same values (NaN never equals)."""
    import mindtorch as M
    if self.shape != other.shape:
        return M.zeros((), dtype=M.bool, device=self.device)
    return (self == other).all()


def _nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +-inf -> posinf/neginf, by default the dtype's largest finite values."""
    import mindtorch as M
    if self.dtype.is_complex:  # the real and imaginary parts separately
        return M.complex(*(_nan_to_num(p, nan, posinf, neginf) for p in (self.real, self.imag)))
    if not self.dtype.is_floating_point:
        return self.clone()
    info = M.finfo(self.dtype)

    def fit(v):  # as C++ converts a double: beyond the dtype's range is infinite
        return v if not abs(v) > info.max else math.copysign(math.inf, v)
    # each element replaced once (posinf=-inf must not be replaced again as a -inf)
    r = M.where(self.isnan(), 0.0 if nan is None else fit(nan), self)
    r = M.where(self == math.inf, info.max if posinf is None else fit(posinf), r)
    return M.where(self == -math.inf, info.min if neginf is None else fit(neginf), r)


def _check_diff(self, n):
    if self.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")


def _diff_route(args, kwargs):
    """diff's checks before the binding wraps dim (PyTorch checks them first)."""
    self = args[0] if args else kwargs.get("input", kwargs.get("self"))
    n = args[1] if len(args) > 1 else kwargs.get("n", 1)
    if isinstance(self, Tensor) and type(n) is int:
        _check_diff(self, n)
    return args, kwargs


def _diff(self, n=1, dim=-1, prepend=None, append=None):
    """n-th forward difference along dim (xor for bool), after prepend/append."""
    import mindtorch as M
    _check_diff(self, n)
    parts = [t for t in (prepend, self, append) if t is not None]
    for t in (prepend, append):
        if t is not None:
            _diff_compatible(self, t, dim)
    if n == 0:  # PyTorch ignores prepend/append then
        return self.clone()
    x = M.cat(parts, dim) if len(parts) > 1 else self
    for _ in range(n):
        k = max(x.shape[dim] - 1, 0)
        hi, lo = x.narrow(dim, min(1, x.shape[dim]), k), x.narrow(dim, 0, k)
        x = hi ^ lo if x.dtype is M.bool else hi - lo
    return x if x is not self else self.clone()


def _diff_compatible(self, other, dim):
    """PyTorch's checks of a prepend / append tensor: its rank, then its sizes but along
    dim."""
    if other.ndim != self.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    d = dim + self.ndim if dim < 0 else dim
    for i, (a, b) in enumerate(zip(self._shape, other._shape)):
        if i != d and a != b:
            raise RuntimeError(f"diff expects the shape of tensor to prepend or append to "
                               f"match that of input except along the differencing "
                               f"dimension; input.size({i}) = {a}, but got tensor.size({i}) "
                               f"= {b}")


def _sigmoid_grad(grad, result):
    """PyTorch's sigmoid_backward kernel: grad * (1 - y) * y left to right, bfloat16 in
    float32 (float16 in float16)."""
    if result.dtype.is_complex:
        return grad * ((1 - result) * result).conj()
    if result.dtype is _dtype.bfloat16:
        return (grad.float() * (1 - result.float()) * result.float()).to(result.dtype)
    return grad * (1 - result) * result


def _angle(self, factor, name):
    if self.dtype.is_complex:
        raise RuntimeError(f"{name} is not supported for complex tensors.")
    return self * factor


def _declare_composites():
    # PyTorch's kernels evaluate self + value * t1 * t2 (and / t2) left to right
    define("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
           decomposition=_addcmul, out=True)
    define("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
           decomposition=_addcdiv, out=True)
    for name, factor in (("deg2rad", math.pi / 180), ("rad2deg", 180 / math.pi)):
        define_inplace(define(f"{name}(Tensor self) -> Tensor", out=True,
                              decomposition=lambda self, f=factor, n=name: _angle(self, f, n)))
    route_overloads(define("diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, "
                           "Tensor? append=None) -> Tensor", decomposition=_diff, out=True),
                    _diff_route)
    define("nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None)"
           " -> Tensor", decomposition=_nan_to_num, out=True)
    close = "Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False"
    define(f"isclose({close}) -> Tensor", decomposition=_isclose)
    # allclose/equal answer with a Python bool: the public functions unwrap the op's
    # 0-dim bool tensor
    define(f"allclose({close}) -> Tensor",
           decomposition=lambda *args: _isclose(*args).all())
    define("equal(Tensor self, Tensor other) -> Tensor", decomposition=_equal)
    for name in ("allclose", "equal"):
        overload(OPS[name], lambda binding: lambda *a, **k: bool(binding(*a, **k)))


def _declare():
    _declare_composites()
    for name, kind in UNARY.items():
        define(f"{name}(Tensor self) -> Tensor", tags=POINTWISE, promotion=kind,
               out=name not in NO_OUT)
    for name, (kind, extra) in BINARY.items():
        a, b = OPERANDS.get(name, ("Tensor|Scalar", "Tensor|Scalar"))
        define(f"{name}({a} self, {b} {SECOND.get(name, 'other')}{extra}) -> Tensor",
               tags=POINTWISE, promotion=kind, out=name not in NO_OUT,
               numbers_as_tensors=name in NUMBERS_AS_TENSORS,
               wrapped_numbers=name in WRAPPED_NUMBERS)
    define("clamp(Tensor self, Tensor|Scalar? min=None, Tensor|Scalar? max=None) -> Tensor",
           tags=POINTWISE, promotion="default", out=True)
    # the method is Tensor.where(condition, other), defined with Tensor
    define("where(Tensor condition, Tensor|Scalar self, Tensor|Scalar other) -> Tensor",
           tags=POINTWISE, promotion="default", out=True, method=False, wrapped_numbers=True)
    # decimals=None is round(t); an int (even 0) is torch's round(t, decimals=d) overload
    define("round(Tensor self, *, int? decimals=None) -> Tensor", tags=POINTWISE,
           promotion="default", out=True)
    # +t: t itself (bool refused)
    define("positive(Tensor(a) self) -> Tensor(a)", decomposition=_positive)
    # Tensor.conj() of a complex tensor: a conjugated copy (no lazy conjugate bit, see
    # _tensor.py) recorded as PyTorch's ConjBackward0; Tensor.conj returns a real tensor
    define("conj(Tensor self) -> Tensor", function=False, method=False,
           decomposition=lambda self: OPS["conj_physical"].call(self))
    define("lerp(Tensor self, Tensor end, Tensor|Scalar weight) -> Tensor", tags=POINTWISE,
           promotion="default", out=True, decomposition=_lerp)
    for name in ("min", "max"):  # clamp with one bound (numbered by overload, as clamp)
        define(f"clamp_{name}(Tensor self, Tensor|Scalar {name}) -> Tensor", tags=POINTWISE,
               promotion="default", out=True,
               decomposition=lambda self, b, k=name: OPS["clamp"].call(self, *(
                   (b, None) if k == "min" else (None, b))))
    for name, fn in _decompositions().items():
        OPS[name].decomposition = fn
    _derivatives()
    for name in list(UNARY) + list(BINARY) + ["clamp", "round", "lerp", "clamp_min",
                                               "clamp_max", "addcmul", "addcdiv", "nan_to_num"]:
        if name not in NO_INPLACE:
            define_inplace(OPS[name])
    _abs_(OPS["abs_"])
    _conj_physical_(OPS["conj_physical_"])
    aliases = {**ALIASES, **UNARY_ALIASES}
    for alias, target in aliases.items():
        _alias(alias, target)
        if alias in ALIAS_INPLACE:
            define_inplace(OPS[alias])
    _abs_(OPS["absolute_"])
    nondifferentiable(*(OPS[name + "_"] for name in BITWISE))
    for name, rule in EXACT_OUT.items():
        _checked_out(OPS[name], rule)
        if name in aliases.values():
            _checked_out(OPS[next(a for a, t in aliases.items() if t == name)], rule)
    for name in ("clamp_min", "clamp_max"):  # (one bound: clamp's out= rule)
        _checked_out(OPS[name], _clamp_out)
    for name, bounds in (("clamp", lambda a: a), ("clip", lambda a: a), ("clamp_min",
                         lambda a: (a[0], None)), ("clamp_max", lambda a: (None, a[0]))):
        scalar_clamp_inplace(OPS[name + "_"], bounds, clamp_plan)


BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift")


def _derivatives():
    """Backward formulas (see registry.derivative), PyTorch's (derivatives.yaml) written
    with mindtorch ops; gradients may be returned broadcast.  Formulas ask for `result`
    rather than `self` where they can, so in-place variants need not save a copy."""
    refuse_complex_autograd("nan_to_num")  # (PyTorch has no complex formula)
    for name, formulas in _GRADS.items():
        derivative(OPS[name], **formulas, name=GRAD_NAMES.get(name))
    nondifferentiable(*(OPS[name] for name in BITWISE))


def _M():
    import mindtorch
    return mindtorch


def _cj(x):
    """conj() where it matters: PyTorch's formulas conjugate for complex inputs."""
    if type(x) is complex:
        return x.conjugate()
    return x.conj() if getattr(x, "dtype", None) is not None and x.dtype.is_complex else x


def _keep(cond, grad):
    """grad where cond holds, else 0."""
    return _M().where(cond, grad, 0)


def _scalar_log(b):
    """log of a Python number as PyTorch's Scalar.log() gives it (nan below 0)."""
    if type(b) is complex:
        return cmath.log(b) if b else complex(-math.inf, 0.0)
    return math.log(b) if b > 0 else -math.inf if b == 0 else math.nan


def _pow_self(grad, self, exponent):
    if not hasattr(exponent, "dtype"):
        if exponent == 0:
            return zeros(grad)
        return grad * _cj(exponent * self.pow(exponent - 1))
    return _M().where(exponent == 0, 0, grad * _cj(exponent * self.pow(exponent - 1)))


def _pow_exponent(grad, self, exponent, result):
    # d/de b**e = b**e * log b, except 0**e for e >= 0: 0 (as PyTorch, not nan)
    M = _M()
    nonneg = exponent >= 0 if not exponent.dtype.is_complex else \
        (exponent.imag == 0) & (exponent.real >= 0)
    if not hasattr(self, "dtype"):
        # (a complex result takes the complex log: (-0.5) ** z is exp(z log(-0.5)))
        log_base = _scalar_log(complex(self) if result.dtype.is_complex else self)
        if self == 0:
            return grad * M.where(nonneg, 0, _cj(result * log_base))
        return grad * _cj(result * log_base)
    base = self if self.dtype is result.dtype else self.to(result.dtype)
    zero = (self == 0) & nonneg
    # (log of 1 where the answer is 0 anyway: no 0 * -inf computed, so no NumPy warning)
    return grad * M.where(zero, 0, _cj(result * base.masked_fill(zero, 1).log()))


def _max_grad(grad, self, other, self_wins):
    """maximum/minimum: ties split the gradient in half (NaN: both get it), as PyTorch."""
    M = _M()
    g = M.where(self == other, grad / 2, grad)
    return M.where(self_wins, 0, g)


def _fmax_keep(self, other, ge):
    return ((self >= other) if ge else (self <= other)) | other.isnan()


def _clamp_bounds(min, max):
    """Whether clamp took tensor bounds (its Tensor overload; bounds then get gradients)."""
    return all(b is None or hasattr(b, "_shape") for b in (min, max))


def _clamp_self(grad, self, min, max):
    if min is not None and max is not None:
        return _keep((self >= min) & (self <= max), grad)
    return _keep(self >= min if min is not None else self <= max, grad)


def _clamp_min(grad, self, min, max):
    if not _clamp_bounds(min, max):
        return None
    if max is not None:
        return _keep((self < min) & (min < max), grad)
    return _keep(self < min, grad)


def _clamp_max(grad, self, min, max):
    if not _clamp_bounds(min, max):
        return None
    if min is not None:
        return _keep((self > max) | (max < min), grad)
    return _keep(self > max, grad)


def _sgn_grad(grad, self, result):
    """0 for real inputs; PyTorch's sgn_backward for complex ones."""
    if not self.dtype.is_complex:
        return zeros(grad)
    a = self.abs()
    return ((grad - result * result * grad.conj()) / (2 * a)).masked_fill(a == 0, 0)


def _atan2_grad(grad, x, self, other):
    """grad * x * (1 / (self**2 + other**2)), the reciprocal 0 where infinite (the origin),
    computed in PyTorch's order (so signed zeros agree)."""
    recip = (self * self + other * other).reciprocal()
    return grad * x * recip.masked_fill(recip.isinf(), 0)


def _div_other(grad, self, other, rounding_mode):
    if rounding_mode is not None:
        return zeros(grad)
    return -grad * _cj(self / other / other)


def _remainder_other(grad, self, other):
    if not hasattr(self, "dtype"):  # remainder(Scalar, Tensor): none in PyTorch either
        raise RuntimeError("derivative for aten::remainder is not implemented")
    return -grad * self.div(other, rounding_mode="floor")


LN2, LN10, DEG = math.log(2.0), math.log(10.0), math.pi / 180
_ZERO = {"self": zeros}
_GRADS = {
    # unary
    "neg": {"self": lambda grad: -grad},
    "exp": {"self": lambda grad, result: grad * _cj(result)},
    "abs": {"self": lambda grad, self: grad * _sgn(self)},
    "acos": {"self": lambda grad, self: -grad * _cj((1 - self * self).rsqrt())},
    "asin": {"self": lambda grad, self: grad * _cj((1 - self * self).rsqrt())},
    "atan": {"self": lambda grad, self: grad / _cj(self * self + 1)},
    "sgn": {"self": _sgn_grad},
    "ceil": _ZERO, "floor": _ZERO, "round": _ZERO, "trunc": _ZERO, "sign": _ZERO,
    "conj_physical": {"self": lambda grad: grad.conj_physical()},
    "conj": {"self": lambda grad: grad.conj()},
    "cos": {"self": lambda grad, self: -grad * _cj(self.sin())},
    "cosh": {"self": lambda grad, self: grad * _cj(self.sinh())},
    "sin": {"self": lambda grad, self: grad * _cj(self.cos())},
    "sinh": {"self": lambda grad, self: grad * _cj(self.cosh())},
    "tan": {"self": lambda grad, result: grad * _cj(1 + result * result)},
    # (ATen's tanh_backward / sigmoid_backward ops: decls/activation.py)
    "tanh": {"self": lambda grad, result: OPS["tanh_backward"].call(grad, result)},
    "erf": {"self": lambda grad, self: grad * (2 / math.sqrt(math.pi)) * (-(self * self)).exp()},
    "expm1": {"self": lambda grad, result: grad * _cj(result + 1)},
    "exp2": {"self": lambda grad, result: grad * _cj(result) * LN2},
    "log": {"self": lambda grad, self: grad / _cj(self)},
    "log10": {"self": lambda grad, self: grad / (_cj(self) * LN10)},
    "log2": {"self": lambda grad, self: grad / (_cj(self) * LN2)},
    "log1p": {"self": lambda grad, self: grad / _cj(self + 1)},
    "reciprocal": {"self": lambda grad, result: -grad * _cj(result * result)},
    "sqrt": {"self": lambda grad, result: grad / (2 * _cj(result))},
    "rsqrt": {"self": lambda grad, result: -0.5 * grad * _cj(result * result * result)},
    "square": {"self": lambda grad, self: grad * (2 * _cj(self))},
    "relu": {"self": lambda grad, result: OPS["threshold_backward"].call(grad, result, 0)},
    "sigmoid": {"self": lambda grad, result: OPS["sigmoid_backward"].call(grad, result)},
    "frac": {"self": lambda grad: grad},
    "deg2rad": {"self": lambda grad: grad * DEG},
    "rad2deg": {"self": lambda grad: grad * (1 / DEG)},
    "nan_to_num": {"self": lambda grad, self: iter_laid_out(_keep(self.isfinite(), grad),
                                                           grad, self)},
    # binary
    "add": {"self": lambda grad: grad, "other": lambda grad, alpha: scaled(grad, alpha)},
    "sub": {"self": lambda grad: grad, "other": lambda grad, alpha: scaled(-grad, alpha)},
    "rsub": {"self": lambda grad, alpha: scaled(-grad, alpha), "other": lambda grad: grad},
    "mul": {"self": lambda grad, other: grad * _cj(other),
            "other": lambda grad, self: grad * _cj(self)},
    "div": {"self": lambda grad, other, rounding_mode:
            grad / _cj(other) if rounding_mode is None else zeros(grad),
            "other": _div_other},
    "floor_divide": {"self": no_derivative("floor_divide"),
                     "other": no_derivative("floor_divide")},
    "pow": {"self": _pow_self, "exponent": _pow_exponent},
    "remainder": {"self": lambda grad: grad, "other": _remainder_other},
    "fmod": {"self": lambda grad: grad,
             "other": lambda grad, self, other: -grad * self.div(other, rounding_mode="trunc")},
    "maximum": {"self": lambda grad, self, other: _max_grad(grad, self, other, self < other),
                "other": lambda grad, self, other: _max_grad(grad, self, other, self > other)},
    "minimum": {"self": lambda grad, self, other: _max_grad(grad, self, other, self > other),
                "other": lambda grad, self, other: _max_grad(grad, self, other, self < other)},
    "fmax": {"self": lambda grad, self, other: _keep(_fmax_keep(self, other, True), grad),
             "other": lambda grad, self, other: _keep(~_fmax_keep(self, other, True), grad)},
    "fmin": {"self": lambda grad, self, other: _keep(_fmax_keep(self, other, False), grad),
             "other": lambda grad, self, other: _keep(~_fmax_keep(self, other, False), grad)},
    "atan2": {"self": lambda grad, self, other: _atan2_grad(grad, other, self, other),
              "other": lambda grad, self, other: _atan2_grad(grad, -self, self, other)},
    "where": {"self": lambda grad, condition: _keep(condition, grad),
              "other": lambda grad, condition: _M().where(condition, 0, grad)},
    "clamp": {"self": _clamp_self, "min": _clamp_min, "max": _clamp_max},
    "clamp_min": {"self": lambda grad, self, min: _keep(self >= min, grad),
                  "min": lambda grad, self, min: _keep(self < min, grad)},
    "clamp_max": {"self": lambda grad, self, max: _keep(self <= max, grad),
                  "max": lambda grad, self, max: _keep(self > max, grad)},
    "lerp": {"self": lambda grad, weight: grad * _cj(1 - weight),
             "end": lambda grad, weight: grad * _cj(weight),
             "weight": lambda grad, self, end: grad * _cj(end - self)},
    "addcmul": {"self": lambda grad: grad,
                "tensor1": lambda grad, tensor2, value: grad * _cj(tensor2 * value),
                "tensor2": lambda grad, tensor1, value: grad * _cj(tensor1 * value)},
    "addcdiv": {"self": lambda grad: grad,
                "tensor1": lambda grad, tensor2, value: grad * _cj(value / tensor2),
                "tensor2": lambda grad, tensor1, tensor2, value:
                -grad * _cj(value * tensor1 / (tensor2 * tensor2))},
}
def _tensor(x):
    return isinstance(x, Tensor)


# PyTorch's node names where they differ from the op's (some numbered by overload: a
# function of the op's arguments)
GRAD_NAMES = {
    "log1p": "Log1PBackward0", "deg2rad": "Deg2RadBackward0", "rad2deg": "Rad2DegBackward0",
    "square": "PowBackward0", "floor_divide": NOT_IMPLEMENTED_NODE,
    "pow": lambda self, exponent: "PowBackward2" if not _tensor(self) else
    "PowBackward1" if _tensor(exponent) else "PowBackward0",
    "clamp": lambda self, min, max: "ClampBackward0" if _tensor(min) or _tensor(max) else
    "ClampBackward1",
    "clamp_min": lambda self, min: f"ClampMinBackward{int(_tensor(min))}",
    "clamp_max": lambda self, max: f"ClampMaxBackward{int(_tensor(max))}",
    "div": lambda self, other, rounding_mode: "DivBackward2" if rounding_mode else
    "DivBackward0",
    "remainder": lambda self, other: NOT_IMPLEMENTED_NODE if not _tensor(self)
    else f"RemainderBackward{int(_tensor(other))}",
    "fmod": lambda self, other: f"FmodBackward{int(_tensor(other))}",
    "lerp": lambda self, end, weight: f"LerpBackward{int(_tensor(weight))}",
    "round": lambda self, decimals: f"RoundBackward{int(decimals is not None)}",
    "rsub": lambda self, other, alpha: f"RsubBackward{int(not _tensor(other))}",
}


def _alias(alias, target):
    op = OPS[target]
    text = op.text.replace(f"{target}(", f"{alias}(", 1)
    define(text, tags=op.tags, promotion=op.promotion, out=op.options.get("out", False),
           numbers_as_tensors=op.options.get("numbers_as_tensors", False),
           decomposition=lambda *args: op.call(*args))  # lazy: no binding built at import


_declare()


def _refuse_complex_extremum(name):
    def check(args, kwargs):  # (after the binding's argument checks: two tensors)
        operands = (*args[:2], kwargs.get("other"))[:2]
        if all(isinstance(a, Tensor) for a in operands) and \
                any(a.dtype.is_complex for a in operands):
            raise RuntimeError(f"{name} not implemented for complex tensors.")
    return check


for _name in ("maximum", "minimum", "fmax", "fmin"):  # (PyTorch checks before any kernel)
    _checked_first(_name, _refuse_complex_extremum(_name))


# -- PyTorch's deprecated overloads with the scale first: old code's p.add_(-lr, grad),
# torch.add(x, 2, y), exp_avg_sq.addcmul_(1 - beta2, grad, grad) -----------------------------

_SCALE_FIRST = {"add": ("alpha", 1, "other"), "sub": ("alpha", 1, "other"),
                "addcmul": ("value", 2, "tensor1, Tensor tensor2"),
                "addcdiv": ("value", 2, "tensor1, Tensor tensor2")}


def _scale_first(name, keyword, tensors, params):
    """(self, Number, Tensor...) -> (self, Tensor..., keyword=Number), with PyTorch's
    once-per-process deprecation warning."""
    def route(args, kwargs):
        if len(args) == 2 + tensors and keyword not in kwargs and \
                isinstance(args[1], (int, float, complex)) and not isinstance(args[1], bool) and \
                all(isinstance(a, Tensor) for a in args[2:]):
            from ..._warn_once import warn_once
            warn_once("deprecated scale-first overload",
                      f"This overload of {name} is deprecated:\n\t{name}(Number {keyword}, "
                      f"Tensor {params})\nConsider using one of the following signatures "
                      f"instead:\n\t{name}(Tensor {params}, *, Number {keyword} = 1)")
            return (args[0], *args[2:]), {**kwargs, keyword: args[1]}
        return args, kwargs
    return route


for _base, (_keyword, _tensors, _params) in _SCALE_FIRST.items():
    for _name in (_base, _base + "_"):
        route_overloads(OPS[_name], _scale_first(_name, _keyword, _tensors, _params))
