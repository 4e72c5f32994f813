"""Backward formulas of the pointwise ops (PyTorch's derivatives.yaml written with mindtorch
ops; gradients may be returned broadcast) and PyTorch's node names where they differ from
the op's; pointwise.py declares them.  Formulas ask for `result` rather than `self` where
they can, so in-place variants need not save a copy."""
import cmath
import math

from ... import _dtype
from ..._memory_format import iter_laid_out
from ..._tensor import Tensor
from ...autograd.functional_helpers import scaled, zeros
from ...autograd.functional_helpers import sgn as _sgn
from ..registry import OPS
from ._helpers import NOT_IMPLEMENTED_NODE, no_derivative


def _sigmoid_grad(grad, result):
    """PyTorch's sigmoid_backward kernel: grad * (1 - y) * y left to right, bfloat16 in
    float32 (float16 in float16)."""
    if result.dtype.is_complex:
        return grad * ((1 - result) * result).conj()
    if result.dtype is _dtype.bfloat16:
        return (grad.float() * (1 - result.float()) * result.float()).to(result.dtype)
    return grad * (1 - result) * result


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
    # (self's factor first, as PyTorch's formulas: the gradient is laid out as self)
    "erf": {"self": lambda grad, self: (2 / math.sqrt(math.pi)) * (-(self * self)).exp() * grad},
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
    # (grad.masked_fill, as PyTorch's formulas: laid out as grad, not as the mask)
    "fmax": {"self": lambda grad, self, other: grad.masked_fill(~_fmax_keep(self, other, True), 0),
             "other": lambda grad, self, other: grad.masked_fill(_fmax_keep(self, other, True), 0)},
    "fmin": {"self": lambda grad, self, other: grad.masked_fill(~_fmax_keep(self, other, False), 0),
             "other": lambda grad, self, other: grad.masked_fill(_fmax_keep(self, other, False),
                                                                 0)},
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
