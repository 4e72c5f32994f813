"""Pointwise ops, declared from tables: name -> (promotion kind, extra schema args).

Every op here is tagged "pointwise" (broadcasting, result dtype from its promotion kind)
and gets an in-place variant `name_` and an `out=` argument.  Composite ops carry a
decomposition into other ops (invariant 5); backends may still register fused kernels.
"""
from ... import _dtype
from ..registry import OPS, define, overload
from ._helpers import _type_name, define_inplace

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
NO_OUT = {"isnan", "isinf", "isfinite", "relu", "rsub"}  # torch gives them no out=
# comparison aliases torch also exposes
ALIASES = {"greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le",
           "not_equal": "ne", "multiply": "mul", "subtract": "sub", "divide": "div",
           "negative": "neg", "absolute": "abs", "arctan2": "atan2"}
ALIAS_INPLACE = set(ALIASES)  # torch has all of them (greater_, absolute_, ...)


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
        "exp2": lambda self: M.pow(2.0, self),
    }


def _is_bool(x):
    return type(x) is bool or getattr(x, "dtype", None) is _dtype.bool


def check_sub(self, other, alpha=1):
    """PyTorch's refusals for subtraction (shared by every backend's sub kernel)."""
    if _is_bool(self) and _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(self) or _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    if type(alpha) is bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")


def _sub(self, other, alpha=1):
    import mindtorch as M
    check_sub(self, other, alpha)
    return M.add(self, other, alpha=-alpha)


def _floating_only(kernel, t, complex_ok=False):
    """t, if its dtype is floating (or complex when allowed); else PyTorch's error."""
    if t.dtype.kind != "f" and not (complex_ok and t.dtype.kind == "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t.dtype)}\'')
    return t


def _silu(self):
    return self * OPS["sigmoid"].binding(_floating_only("silu_cpu", self, complex_ok=True))


def _lerp(self, end, weight):
    scalar_weight = not hasattr(weight, "dtype")
    _floating_only("lerp_kernel_scalar" if scalar_weight else "lerp_kernel_tensor", self,
                   complex_ok=True)
    for name, t in (("end", end), ("weight", weight)):
        if hasattr(t, "dtype") and t.dtype is not self.dtype:
            raise RuntimeError(f"expected dtype {_c_name(self.dtype)} for `{name}` but got "
                               f"dtype {_c_name(t.dtype)}")
    return self + weight * (end - self)


def _conj_physical_(op):
    """conj_physical_ of a real tensor leaves it alone (no write: even an expanded tensor
    is fine)."""
    decomposition = op.decomposition

    def conj_physical_(self):
        return decomposition(self) if self.dtype.is_complex else self
    op.decomposition = conj_physical_


def _c_name(dtype):
    return {"float32": "float", "float64": "double", "float16": "c10::Half",
            "bfloat16": "c10::BFloat16", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>"}.get(dtype.name, dtype.name)


def _abs_(op):
    """abs_ refuses complex tensors (its result would be real)."""
    decomposition = op.decomposition

    def abs_(self):
        if self.dtype.is_complex:
            raise RuntimeError("In-place abs is not supported for complex tensors.")
        return decomposition(self)
    op.decomposition = abs_


# -- out= dtype rules stricter than "the result casts to out's dtype" ---------------------

def _same_dtype(out, result, args):
    if out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {_type_name(out.dtype)} but expected "
                           f"{_type_name(result.dtype)}")


def _abs_out(out, result, args):
    # complex input: any floating out, or the input's own complex dtype
    src = args[0].dtype if args and hasattr(args[0], "dtype") else result.dtype
    if src.is_complex and (out.dtype.kind == "f" or out.dtype is src):
        return
    _same_dtype(out, src if src.is_complex else result, args)


def _signbit_out(out, result, args):
    if out.dtype is not _dtype.bool:
        raise RuntimeError("signbit does not support non-boolean outputs.")


def _where_out(out, result, args):
    if out.dtype is not result.dtype:
        raise RuntimeError(f"Expected out type to be {_type_name(result.dtype)} but got "
                           f"{_type_name(out.dtype)}")


# PyTorch's unary kernels that keep the input dtype check all operands (out included) for
# one dtype
EXACT_OUT = {name: _same_dtype for name in
             ("neg", "bitwise_not", "ceil", "floor", "trunc", "round", "conj_physical",
              "frac", "sign", "gelu")}
EXACT_OUT.update(abs=_abs_out, signbit=_signbit_out, where=_where_out)


def _checked_out(op, rule):
    """op's public function checks out='s dtype with rule(out, result, args) first."""
    from ..._tensor import Tensor
    from ..dispatch import write_out

    def make(binding):
        def checked(*args, out=None, **kwargs):
            if out is None:
                return binding(*args, **kwargs)
            if not isinstance(out, Tensor):
                raise TypeError(f"{op.name}(): argument 'out' must be Tensor, not "
                                f"{type(out).__name__}")
            result = binding(*args, **kwargs)
            rule(out, result, args)
            return write_out(op, out, result)
        checked.__doc__ = op.schema.text
        return checked
    overload(op, make)


def _declare():
    for name, kind in UNARY.items():
        define(f"{name}(Tensor self) -> Tensor", tags=POINTWISE, promotion=kind,
               out=name not in NO_OUT)
    for name, (kind, extra) in BINARY.items():
        a, b = OPERANDS.get(name, ("Tensor|Scalar", "Tensor|Scalar"))
        define(f"{name}({a} self, {b} other{extra}) -> Tensor",
               tags=POINTWISE, promotion=kind, out=name not in NO_OUT)
    define("clamp(Tensor self, Tensor|Scalar? min=None, Tensor|Scalar? max=None) -> Tensor",
           tags=POINTWISE, promotion="default", out=True)
    # the method is Tensor.where(condition, other), defined with Tensor
    define("where(Tensor condition, Tensor|Scalar self, Tensor|Scalar other) -> Tensor",
           tags=POINTWISE, promotion="default", out=True, method=False)
    define("round(Tensor self, *, int decimals=0) -> Tensor", tags=POINTWISE,
           promotion="default", out=True)
    define("gelu(Tensor self, *, str approximate='none') -> Tensor", tags=POINTWISE,
           promotion="default")
    define("silu(Tensor self) -> Tensor", tags=POINTWISE, promotion="default",
           decomposition=_silu)
    define("lerp(Tensor self, Tensor end, Tensor|Scalar weight) -> Tensor", tags=POINTWISE,
           promotion="default", out=True, decomposition=_lerp)
    for name, fn in _decompositions().items():
        OPS[name].decomposition = fn
    for name in list(UNARY) + list(BINARY) + ["clamp", "round", "gelu", "silu", "lerp"]:
        if name not in NO_INPLACE:
            define_inplace(OPS[name])
    _abs_(OPS["abs_"])
    _conj_physical_(OPS["conj_physical_"])
    for alias, target in ALIASES.items():
        _alias(alias, target)
        if alias in ALIAS_INPLACE:
            define_inplace(OPS[alias])
    for name, rule in EXACT_OUT.items():
        _checked_out(OPS[name], rule)
        if name in ALIASES.values():
            _checked_out(OPS[next(a for a, t in ALIASES.items() if t == name)], rule)


def _alias(alias, target):
    op = OPS[target]
    text = op.schema.text.replace(f"{target}(", f"{alias}(", 1)
    define(text, tags=op.tags, promotion=op.promotion, out=op.options.get("out", False),
           decomposition=lambda *args: op.call(*args))  # lazy: no binding built at import


_declare()
