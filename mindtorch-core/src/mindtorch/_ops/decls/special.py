"""Special functions (torch.special, and those torch also has at top level: erfc, lgamma,
digamma, polygamma, i0, sinc, logit, xlogy, ...) and the remaining pointwise math: hypot,
copysign, logaddexp(2), heaviside, nextafter, ldexp, gcd, lcm, float_power, angle,
isposinf/isneginf/isreal.

Kernel ops are pointwise ops (broadcasting, promotion kinds as in decls/pointwise); the
dtypes each accepts (ACCEPTS) are checked by every backend through `check_accepts`.
torch.special's other functions are these ops or pointwise/reduction ops joined to the
module (erf, expm1, softmax, ...), or small aliases where the name differs (expit, psi).
"""
import math

from ...autograd.functional_helpers import sgn, zeros
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import (
    NOT_IMPLEMENTED_NODE, _type_name, define_inplace, no_derivative, unimplemented_derivative,
    write_into,
)
from ._out_rules import SPECIAL_OUT, _checked_out
from .pointwise import POINTWISE, _alias, join
from .pointwise_grads import _cj, _keep, _tensor

SPECIAL = ("special",)

# torch.special's Bessel functions and orthogonal polynomials (no gradient in PyTorch)
BESSEL = ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
          "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
          "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0")
POLYNOMIALS = tuple(f"{kind}_polynomial_{p}" for kind, ps in (
    ("chebyshev", "tuvw"), ("shifted_chebyshev", "tuvw"), ("hermite", ("h", "he")),
    ("laguerre", "l"), ("legendre", "p")) for p in ps)
# unary kernel ops: name -> (promotion kind, in-place variant?, in torch.special?)
UNARY = {
    "erfc": ("int_to_float", True, True), "erfinv": ("int_to_float", True, True),
    "lgamma": ("int_to_float", True, True), "digamma": ("int_to_float", True, True),
    "i0": ("int_to_float", True, True), "sinc": ("int_to_float", True, True),
    "angle": ("complex_to_float", False, False),
    # (their in-place variants have no gradient in PyTorch)
    "asinh": ("int_to_float", True, False), "acosh": ("int_to_float", True, False),
    "atanh": ("int_to_float", True, False),
    **{f"special_{name}": ("int_to_float", False, True) for name in (
        "erfcx", "i0e", "i1", "i1e", "ndtri", "log_ndtr", "entr")},
    **{f"special_{name}": ("int_to_float", False, True) for name in BESSEL},
}
# binary kernel ops: name -> (promotion kind, operand types, in-place?, in torch.special?)
_TT, _TS, _SS = ("Tensor", "Tensor"), ("Tensor", "Tensor|Scalar"), ("Tensor|Scalar",) * 2
BINARY = {
    "xlogy": ("int_to_float", _SS, True, True),
    "special_xlog1py": ("int_to_float", _SS, False, True),
    "special_zeta": ("int_to_float", _SS, False, True),
    "hypot": ("default", _TT, True, False),
    "copysign": ("int_to_float", _TS, True, False),
    "logaddexp": ("default", _TT, False, False),
    "logaddexp2": ("default", _TT, False, False),
    "heaviside": ("default", _TT, True, False),
    "nextafter": ("default", _TT, True, False),
    "gcd": ("default", _TT, True, False),
    "lcm": ("default", _TT, True, False),
    "igamma": ("default", _TT, True, True), "igammac": ("default", _TT, True, True),
    **{f"special_{name}": ("int_to_float", _SS, False, True) for name in POLYNOMIALS},
}
SECOND = {"heaviside": "values", **{f"special_{name}": "n" for name in POLYNOMIALS}}
# their torch.special names
PUBLIC_NAMES = {"lgamma": "gammaln", "mvlgamma": "multigammaln", "igamma": "gammainc",
                "igammac": "gammaincc"}

# dtype kinds each op computes in (u: unsigned, i: signed, b: bool, f: float, c: complex);
# the others raise PyTorch's NotImplementedError
_REAL = "uibf"
ACCEPTS = {"erfc": _REAL, "erfinv": _REAL, "lgamma": _REAL, "digamma": _REAL, "i0": _REAL,
           "polygamma": _REAL, "logit": _REAL, "xlogy": _REAL, "special_xlog1py": _REAL,
           "special_zeta": _REAL, "copysign": _REAL, "hypot": "f", "logaddexp": "fc",
           "logaddexp2": "f", "nextafter": "f", "heaviside": "uibf", "gcd": "ui", "lcm": "ui",
           "igamma": "f", "igammac": "f",
           **{f"special_{n}": _REAL for n in BESSEL + POLYNOMIALS},
           **{f"special_{n}": _REAL for n in ("erfcx", "i0e", "i1", "i1e", "ndtri",
                                              "log_ndtr", "entr")}}
# ... and float16/bfloat16 too
NO_HALF = {"special_zeta", "special_erfcx", "special_ndtri", "special_log_ndtr",
           *(f"special_{n}" for n in BESSEL + POLYNOMIALS)}
# PyTorch's kernel names in its messages where they are not "<op>_cpu"
_KERNEL_NAMES = {"special_zeta": "zeta_cpu", "special_xlog1py": "xlog1py_cpu",
                 "digamma": "digamma", "polygamma": "polygamma", "erfc": "erfc_vml_cpu",
                 "erfinv": "erfinv_vml_cpu", "lgamma": "lgamma_vml_cpu", "i0": "i0_vml_cpu",
                 **{f"special_{n}": f"{n}_cpu" for n in BESSEL + POLYNOMIALS + (
                     "erfcx", "i0e", "i1", "i1e", "ndtri", "log_ndtr", "entr")}}


def check_accepts(name, dtype):
    """PyTorch's refusal of a dtype an op has no kernel for (dtype: the computation's)."""
    kinds = ACCEPTS.get(name)
    if kinds is not None and dtype.kind not in kinds:
        raise NotImplementedError(f'"{_KERNEL_NAMES.get(name, name + "_cpu")}" not '
                                  f"implemented for '{_type_name(dtype)}'")
    if name in NO_HALF and dtype.kind == "f" and dtype.itemsize == 2:
        raise NotImplementedError(f'"{_KERNEL_NAMES.get(name, name + "_cpu")}" not '
                                  f"implemented for '{_type_name(dtype)}'")


def angle_dtype(dtype):
    """angle's result: complex numbers give their real dtype, integers the default float."""
    from ... import _dtype as D
    return dtype.to_real() if dtype.is_complex else dtype if dtype.kind == "f" else \
        D.get_default_dtype()


def check(name, *operands):
    """The checks of op `name` on its operands (shared by every backend's kernel and the
    meta rules); returns the dtype its operands promote to."""
    from ..._promotion import result_type
    from .pointwise_checks import check_int_scalars
    if name == "polygamma":
        if operands[0] < 0:
            raise RuntimeError("polygamma(n, x) does not support negative n.")
        operands = operands[1:]
    elif name == "logit":
        operands = operands[:1]
    check_int_scalars(*operands)
    if name == "heaviside":
        self, values = operands
        if self.dtype.is_complex or values.dtype.is_complex:  # (PyTorch checks this first)
            raise RuntimeError("heaviside is not yet implemented for complex tensors.")
        if self.dtype is not values.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different "
                               "dtypes.")
    dtype = result_type(*operands)
    check_accepts(name, dtype)
    return dtype


# -- composites ----------------------------------------------------------------------------

def _M():
    import mindtorch
    return mindtorch


def _float_dtype(*operands):
    """The int_to_float result dtype of these operands."""
    from ..promotion_kinds import result_dtype
    return result_dtype("int_to_float", operands)


def _ldexp(self, other):
    """PyTorch's ldexp: a floating self with integer exponents is C's ldexp (exact, the
    exponent read as a C int); other operands compute self * 2.0 ** other, in the
    int_to_float promotion of both."""
    M = _M()
    if other.dtype is M.bool and self.dtype.is_floating_point:  # (C's ldexp path only)
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")
    dt = _float_dtype(self, other)
    if self.dtype.is_floating_point and other.dtype.kind in "ui":
        # self = m * 2**k (frexp), so the result is m * 2**(k + e): m * 2**E1 is exact
        # (|E1| <= 1000 in float64), the last factor rounds once; beyond the clamps the
        # result is 0 or inf (or self's 0, inf, nan) anyway
        e = other.to(M.int32).clamp(-1200, 1200)
        m, k = M.frexp(self.to(M.float64))
        big = (k + e).clamp(-1100, 1100)
        first = big.clamp(-1000, 1000)
        r = m * M.pow(2.0, first.to(M.float64)) * M.pow(2.0, (big - first).to(M.float64))
        return r.to(dt)
    # (2 ** other in other's own dtype, as PyTorch's pow(2.0, other): a float16 exponent's
    # scale is rounded to float16 before the product)
    return self * M.pow(2.0, other)


def _double(x):
    M = _M()
    if not hasattr(x, "dtype"):
        return x
    return x.to(M.complex128 if x.dtype.is_complex else M.float64)


def _float_power(self, exponent):
    """pow in double precision (complex128 if either operand is complex)."""
    complex_ = any(type(x) is complex or getattr(x, "dtype", None) is not None and
                   x.dtype.is_complex for x in (self, exponent))
    M = _M()
    dt = M.complex128 if complex_ else M.float64
    cast = [x.to(dt) if hasattr(x, "dtype") else x for x in (self, exponent)]
    return M.pow(*cast)


def _float_power_(self, exponent):
    complex_ = self.dtype.is_complex or type(exponent) is complex or \
        getattr(exponent, "dtype", None) is not None and exponent.dtype.is_complex
    want = _M().complex128 if complex_ else _M().float64
    if self.dtype is not want:
        raise RuntimeError(f"the base given to float_power_ has dtype {_type_name(self.dtype)} "
                           f"but the operation's result requires dtype {_type_name(want)}")
    return self.pow_(_double(exponent))


def _heaviside_out(out, result, args, kwargs):
    if out.dtype.is_complex:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if out.dtype is not result.dtype:  # (one-dtype kernel, out= included)
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


def _mvlgamma_terms(self, p):
    """self - j/2 for j < p, along a new last dim."""
    M = _M()
    if self.dtype is M.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = self if self.dtype.is_floating_point else self.to(_float_dtype(self))
    steps = M.arange(-p / 2 + 0.5, 0.5, 0.5, dtype=x.dtype, device=x.device)
    return x.unsqueeze(-1) + steps


def _mvlgamma(self, p):
    """log of the multivariate gamma function: sum of lgamma(self - j/2), j < p, plus
    p(p-1)/4 log(pi)."""
    return _mvlgamma_terms(self, p).lgamma().sum(-1) + p * (p - 1) / 4 * math.log(math.pi)


def _ndtr(self):
    # as PyTorch: (1 + erf(x / sqrt(2))) / 2
    return (1 + (self * math.sqrt(0.5)).erf()) * 0.5


def _is_inf(sign):
    def fn(self):
        if self.dtype.is_complex:
            which = "isposinf" if sign > 0 else "isneginf"
            raise RuntimeError(f"{which} does not support complex inputs.")
        return self == sign * math.inf
    return fn


def _isreal(self):
    if self.dtype.is_complex:
        return self.imag == 0
    return _M().ones_like(self, dtype=_M().bool)


class _SelfFirst:
    """polygamma(n, self) seen as an op taking self first, for write_into (polygamma_)."""

    def __init__(self, op):
        self.op = op
        self.formulas, self.differentiable = op.formulas, op.differentiable

    def call(self, src, n):
        return self.op.call(n, src)


def _polygamma_(self, n):
    return write_into(self, _SelfFirst(OPS["polygamma"]), (n,), _fits)


def _fits(self, result):
    """An in-place result must cast to self's dtype (define_inplace's check)."""
    from ... import _promotion
    if not _promotion.can_cast(result.dtype, self.dtype):
        raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                           f"desired output type {_type_name(self.dtype)}")


def _polygamma_public(binding):
    """torch.polygamma(n, input): input= is PyTorch's name for the tensor."""
    def polygamma(*args, **kwargs):
        if "input" in kwargs:
            kwargs["self"] = kwargs.pop("input")
        return binding(*args, **kwargs)
    return polygamma


def _polygamma_method(self, n):
    """Tensor.polygamma(n): the tensor first (the function takes n first)."""
    return OPS["polygamma"].binding(n, self)


# torch.special names of other ops: alias -> (target, arguments)
ALIASES = {
    "special_expit": ("sigmoid", "Tensor self"),
    "special_psi": ("digamma", "Tensor self"),
    "special_round": ("round", "Tensor self, *, int decimals=0"),
}
# ops torch.special shares with torch under the same name
JOINED = ("erf", "expm1", "exp2", "log1p", "softmax", "log_softmax", "logsumexp")


def _declare():
    for name, (kind, inplace, special) in UNARY.items():
        define(f"{name}(Tensor self) -> Tensor", tags=POINTWISE, promotion=kind, out=True,
               modules=SPECIAL if special else (), **_exposure(name))
    for name, (kind, (a, b), inplace, special) in BINARY.items():
        define(f"{name}({a} self, {b} {SECOND.get(name, 'other')}) -> Tensor", tags=POINTWISE,
               promotion=kind, out=True, modules=SPECIAL if special else (), **_exposure(name))
    define("logit(Tensor self, float? eps=None) -> Tensor", tags=POINTWISE,
           promotion="int_to_float", out=True, modules=SPECIAL)
    define("polygamma(int n, Tensor self) -> Tensor", tags=POINTWISE, promotion="int_to_float",
           out=True, modules=SPECIAL)
    overload(OPS["polygamma"], _polygamma_public)
    from ..._tensor import Tensor
    Tensor.polygamma = _polygamma_method
    define("polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", tags=POINTWISE + ("inplace",),
           promotion="int_to_float", decomposition=_polygamma_, function=False)
    define("mvlgamma(Tensor self, int p) -> Tensor", decomposition=_mvlgamma, out=True,
           modules=SPECIAL)
    define("special_ndtr(Tensor self) -> Tensor", decomposition=_ndtr, out=True,
           modules=SPECIAL, **_HIDDEN)
    define("ldexp(Tensor self, Tensor other) -> Tensor", decomposition=_ldexp, out=True)
    define("float_power(Tensor|Scalar self, Tensor|Scalar exponent) -> Tensor",
           decomposition=_float_power, out=True)
    define("float_power_(Tensor(a!) self, Tensor|Scalar exponent) -> Tensor(a!)",
           decomposition=_float_power_, function=False)
    _checked_out(OPS["heaviside"], _heaviside_out)
    for sign, name in ((1, "isposinf"), (-1, "isneginf")):
        define(f"{name}(Tensor self) -> Tensor", decomposition=_is_inf(sign),
               promotion="always_bool", out=True)
    define("isreal(Tensor self) -> Tensor", decomposition=_isreal, promotion="always_bool")
    for name in [n for n, v in UNARY.items() if v[1]] + [n for n, v in BINARY.items() if v[2]] \
            + ["logit", "mvlgamma", "ldexp"]:
        define_inplace(OPS[name])
    for name, public in PUBLIC_NAMES.items():
        OPS[name].options["public_name"] = public
    for alias, (target, args) in ALIASES.items():
        names = [a.split("=")[0].split()[-1] for a in args.split(",") if a.strip() != "*"]
        define(f"{alias}({args}) -> Tensor", modules=SPECIAL, out=True, **_HIDDEN,
               decomposition=_forward(target, names))
    for name, rule in SPECIAL_OUT.items():
        _checked_out(OPS[name], rule)
    for name in JOINED:
        join(OPS[name], "special")
    for name in ("asinh", "acosh", "atanh"):
        _alias("arc" + name[1:], name)
        define_inplace(OPS["arc" + name[1:]]).decomposition = \
            lambda self, n=name: OPS[n + "_"].call(self)  # (no binding made at import)
    _derivatives()


def _forward(target, names):
    def fn(*args):
        return OPS[target].binding(**dict(zip(names, args)))
    return fn


_HIDDEN = {"function": False, "method": False}


def _exposure(name):
    """special_<name> ops are torch.special.<name> only."""
    return _HIDDEN if name.startswith("special_") else {}


# -- backward formulas (PyTorch's derivatives.yaml) --------------------------------------

_SQRT_PI, _SQRT_2PI = math.sqrt(math.pi), math.sqrt(2 * math.pi)


def _sinc_grad(grad, self):
    """PyTorch's sinc_backward (its operations in its order: where its mask comes first,
    the gradient is laid out as self)."""
    px, sq = self * math.pi, self * self * math.pi
    return _M().where(sq == 0, 0, grad * _cj((px * px.cos() - px.sin()) / sq))


def _safe(self):
    """(self away from 0, mask of where it is away), for i1 / i1e at 0 (gradient 0.5)."""
    eps = _M().finfo(self.dtype).eps
    away = self.abs() > eps
    return _M().where(away, self, eps), away


def _i1_grad(grad, self, result):
    x, away = _safe(self)
    return grad * _M().where(away, x.i0() - result / x, 0.5)


def _i1e_grad(grad, self, result):
    x, away = _safe(self)
    return grad * _M().where(away, OPS["special_i0e"].call(x) - result * (x.sgn() + 1 / x),
                             0.5)


def _logit_grad(grad, self, eps):
    d = grad / (self * (1 - self))
    if eps is None or eps < 0:
        return _M().where((self < 0) | (self > 1), math.nan, d)
    return _keep((self >= eps) & (self <= 1 - eps), d)


def _xlogy_self(log):
    """xlogy/xlog1py's self gradient: log term, 0 where self == 0 and the log undefined."""
    bound = 0 if log == "xlogy" else -1

    def fn(grad, self, other):
        r = OPS[log].call(grad, other)
        if hasattr(other, "dtype"):
            return r.masked_fill((self == 0) & (other <= bound), 0)
        return r if other > bound else r.masked_fill(self == 0, 0)
    return fn


def _zeta_other(grad, self, other):
    return grad * -self * OPS["special_zeta"].call(self + 1.0, other)


def _copysign_self(grad, self, result):
    return grad * (result / self).masked_fill(self == 0, 0)


def _angle_grad(grad, self):
    if not self.dtype.is_complex:  # (laid out as self, as PyTorch's zeros_like)
        return _M().zeros_like(self)
    a2 = self.abs().pow(2)
    return _M().where(self == 0, 0, grad * self / a2 * 1j)


def _mvlgamma_grad(grad, self, p):
    return grad * _mvlgamma_terms(self, p).digamma().sum(-1)


def _ldexp_grads(grad, other, result):
    return grad * _cj(_M().pow(2.0, other)), grad * _cj(result) * math.log(2.0)


_GRADS = {
    # (self's factor first, as PyTorch's formulas: the gradient is laid out as self)
    "erfc": {"self": lambda grad, self: (-2 / _SQRT_PI) * (-(self * self)).exp() * grad},
    "erfinv": {"self": lambda grad, result: (0.5 * _SQRT_PI) * (result * result).exp() * grad},
    "lgamma": {"self": lambda grad, self: grad * self.digamma()},
    "digamma": {"self": lambda grad, self: grad * OPS["polygamma"].call(1, self)},
    "polygamma": {"self": lambda grad, n, self: grad * OPS["polygamma"].call(n + 1, self)},
    "mvlgamma": {"self": _mvlgamma_grad},
    "i0": {"self": lambda grad, self: grad * OPS["special_i1"].call(self)},
    "sinc": {"self": _sinc_grad},
    "angle": {"self": _angle_grad},
    "logit": {"self": _logit_grad},
    "special_erfcx": {"self": lambda grad, self, result:
                      grad * (2 * self * result - 2 / _SQRT_PI)},
    "special_i0e": {"self": lambda grad, self, result:
                    grad * (OPS["special_i1e"].call(self) - sgn(self) * result)},
    "special_i1": {"self": _i1_grad},
    "special_i1e": {"self": _i1e_grad},
    "special_ndtri": {"self": lambda grad, result: grad * _SQRT_2PI * (result * result / 2).exp()},
    "special_log_ndtr": {"self": lambda grad, self, result:
                         grad / _SQRT_2PI * (-(result + self * self / 2)).exp()},
    "special_ndtr": {"self": lambda grad, self:
                     grad * (-(self * self) / 2).exp() * (1 / _SQRT_2PI)},
    "special_entr": {"self": lambda grad, self: grad * -(1 + self.log())},
    "xlogy": {"self": _xlogy_self("xlogy"), "other": lambda grad, self, other: grad * self / other},
    "special_xlog1py": {"self": _xlogy_self("special_xlog1py"),
                        "other": lambda grad, self, other: grad * self / (other + 1)},
    "special_zeta": {"self": unimplemented_derivative("zeta"), "other": _zeta_other},
    "hypot": {"self": lambda grad, self, result: grad * self / result,
              "other": lambda grad, other, result: grad * other / result},
    "copysign": {"self": _copysign_self, "other": lambda grad: zeros(grad)},
    "logaddexp": {"self": lambda grad, self, other: grad / _cj(1 + (other - self).exp()),
                  "other": lambda grad, self, other: grad / _cj(1 + (self - other).exp())},
    "logaddexp2": {"self": lambda grad, self, other: grad / (1 + _M().pow(2.0, other - self)),
                   "other": lambda grad, self, other: grad / (1 + _M().pow(2.0, self - other))},
    "heaviside": {"self": no_derivative("heaviside"), "values": no_derivative("heaviside")},
    # (PyTorch: no gradient where self == other, the result being other)
    "nextafter": {"self": lambda grad, self, other: _M().where(self == other, 0, grad),
                  "other": lambda grad: zeros(grad)},
    "asinh": {"self": lambda grad, self: grad * _cj((self * self + 1).rsqrt())},
    # (sqrt(x + 1) sqrt(x - 1), not sqrt(x * x - 1): the branch PyTorch takes for complex x)
    "acosh": {"self": lambda grad, self: grad / _cj((self + 1).sqrt() * (self - 1).sqrt())},
    "atanh": {"self": lambda grad, self: grad / _cj(1 - self * self)},
    **{f"{name}_": {"self": unimplemented_derivative(f"inplace version of {name}")}
       for name in ("asinh", "acosh", "atanh")},
    "ldexp": {"self, other": _ldexp_grads},
    "igamma": {"self": unimplemented_derivative("igamma: input"),
               "other": lambda grad, self, other:
               grad * ((self - 1) * other.log() - other - self.lgamma()).exp()},
    "igammac": {"self": unimplemented_derivative("igammac: input"),
                "other": lambda grad, self, other:
                -grad * ((self - 1) * other.log() - other - self.lgamma()).exp()},
}


def _numbered(base):
    """PyTorch numbers the nodes of (Tensor, Tensor), (Scalar, Tensor), (Tensor, Scalar)."""
    def name(self, other):
        n = 0 if _tensor(self) and _tensor(other) else 1 if _tensor(other) else 2
        return f"{base}Backward{n}"
    return name


GRAD_NAMES = {
    "special_i0e": "SpecialI0EBackward0",
    "special_i1e": "SpecialI1EBackward0",
    "special_ndtr": "MulBackward1",  # PyTorch's ndtr is (1 + erf(x / sqrt(2))) * 0.5
    "heaviside": NOT_IMPLEMENTED_NODE,
    "xlogy": _numbered("Xlogy"), "special_xlog1py": _numbered("SpecialXlog1Py"),
    "special_zeta": _numbered("SpecialZeta"),
    "copysign": lambda self, other: f"CopysignBackward{int(not _tensor(other))}",
    **{f"{name}_": f"{name.capitalize()}Backward1" for name in ("asinh", "acosh", "atanh")},
}


def _derivatives():
    for name, formulas in _GRADS.items():
        derivative(OPS[name], **formulas, name=GRAD_NAMES.get(name))
    nondifferentiable(*(OPS[n] for n in ("gcd", "lcm", "gcd_", "lcm_")),
                      *(OPS[f"special_{n}"] for n in BESSEL + POLYNOMIALS))


_declare()
