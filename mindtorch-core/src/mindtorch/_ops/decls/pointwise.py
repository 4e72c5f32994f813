"""Pointwise ops, declared from tables: name -> (promotion kind, extra schema args).

Every op here is tagged "pointwise" (broadcasting, result dtype from its promotion kind)
and gets an in-place variant `name_` and an `out=` argument.  Composite ops carry a
decomposition into other ops (invariant 5); backends may still register fused kernels.
"""
import math

from ... import _dtype
from ..._memory_format import iter_laid_out
from ..._tensor import Tensor
from ..registry import OPS, define, derivative, nondifferentiable, overload, route_overloads
from ._helpers import _type_name, define_inplace, refuse_complex_autograd, scalar_clamp_inplace
from ._out_rules import EXACT_OUT, _checked_out, _clamp_out
from ._prechecks import _checked_first
from .pointwise_checks import _floating_only, check_sub, clamp_plan, lerp_plan
from .pointwise_fused import _addcdiv, _addcmul, _in_opmath  # noqa: F401 (_in_opmath: activation)
from .pointwise_grads import _GRADS, GRAD_NAMES, LN2

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
        # (bool and the limited dtypes take pow's kernel, as PyTorch: its refusals too)
        "square": lambda self: M.pow(self, 2) if self.dtype is M.bool or self.dtype._limited
        else M.mul(self, self),
        "sub": _sub,
        "rsub": lambda self, other, alpha=1: M.sub(other, self, alpha=alpha),
        "true_divide": lambda self, other: M.div(self, other),
        "frac": lambda self: M.sub(_floating_only("frac_cpu", self), M.trunc(self)),
        # (complex: exp(z log 2) with the parts scaled apart, as PyTorch; pow(2., inf+0j)
        # is inf+nanj where exp2 gives inf+0j)
        "exp2": lambda self: M.pow(2.0, self) if not self.dtype.is_complex else
        M.exp(M.view_as_complex(M.view_as_real(self) * LN2)),
    }


def _sub(self, other, alpha=1):
    import mindtorch as M
    check_sub(self, other, alpha)
    return M.add(self, other, alpha=-alpha)


def _lerp(self, end, weight):
    """PyTorch's formula: self + w * (end - self) for |w| < 0.5, else
    end - (end - self) * (1 - w) (exact at both ends), laid out as its TensorIterator over
    (self, end, weight) lays the result out (a number weight is no operand of it)."""
    operands = (self, end, weight) if isinstance(weight, Tensor) else (self, end)
    return iter_laid_out(_lerp_values(self, end, weight), *operands)


def _lerp_values(self, end, weight):
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
    """Backward formulas (see registry.derivative; the formulas: pointwise_grads.py)."""
    refuse_complex_autograd("nan_to_num")  # (PyTorch has no complex formula)
    for name, formulas in _GRADS.items():
        derivative(OPS[name], **formulas, name=GRAD_NAMES.get(name))
    nondifferentiable(*(OPS[name] for name in BITWISE))


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
    """The public function (a make for overload()) taking (self, Number, Tensor...) as
    (self, Tensor..., keyword=Number), with PyTorch's once-per-process deprecation warning.
    (The test is inline: p.add_(g, alpha=-lr) is on every optimizer step's path.)"""
    def make(binding):
        def public(*args, **kwargs):
            if len(args) == 2 + tensors and keyword not in kwargs and \
                    isinstance(args[1], (int, float, complex)) and \
                    not isinstance(args[1], bool) and \
                    all(isinstance(a, Tensor) for a in args[2:]):
                from ..._warn_once import warn_once
                warn_once("deprecated scale-first overload",
                          f"This overload of {name} is deprecated:\n\t{name}(Number {keyword}, "
                          f"Tensor {params})\nConsider using one of the following signatures "
                          f"instead:\n\t{name}(Tensor {params}, *, Number {keyword} = 1)")
                args, kwargs = (args[0], *args[2:]), {**kwargs, keyword: args[1]}
            return binding(*args, **kwargs)
        return public
    return make


for _base, (_keyword, _tensors, _params) in _SCALE_FIRST.items():
    for _name in (_base, _base + "_"):
        overload(OPS[_name], _scale_first(_name, _keyword, _tensors, _params))
