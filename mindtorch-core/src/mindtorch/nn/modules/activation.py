"""torch.nn.modules.activation: the activation modules (MultiheadAttention is in
attention.py).

Most activations are declared by their class statement alone:
``class ELU(_Activation, fn="elu", alpha=1.0, inplace=False)`` gives the constructor
``ELU(alpha=1.0, inplace=False)`` (a real signature), one attribute per argument, a forward
calling ``F.elu(input, alpha=self.alpha, inplace=self.inplace)`` and PyTorch's repr
``ELU(alpha=1.0)`` (``inplace=True`` shown only when set)."""
import inspect
import warnings

import mindtorch

from .. import functional as F, init
from ..parameter import Parameter
from .attention import MultiheadAttention  # noqa: F401 (torch.nn.modules.activation's too)
from .module import Module

__all__ = [
    "Threshold", "ReLU", "RReLU", "Hardtanh", "ReLU6", "Sigmoid", "Hardsigmoid", "Tanh",
    "SiLU", "Mish", "Hardswish", "ELU", "CELU", "SELU", "GLU", "GELU", "Hardshrink",
    "LeakyReLU", "LogSigmoid", "Softplus", "Softshrink", "PReLU", "Softsign", "Tanhshrink",
    "Softmin", "Softmax", "Softmax2d", "LogSoftmax",
]

_REQUIRED = inspect.Parameter.empty  # a constructor argument without default


def _make_init(cls, params):
    """An __init__ with the signature (self, *params) storing each argument as an
    attribute of the same name: real Python code, so wrong calls raise Python's own
    errors ("missing 2 required positional arguments: ...")."""
    defaults = {name: d for name, d in params.items() if d is not _REQUIRED}
    args = "".join(f", {name}" + (f"=_defaults[{name!r}]" if name in defaults else "")
                   for name in params)
    body = "".join(f"\n    self.{name} = {name}" for name in params)
    ns = {"_defaults": defaults, "_Module": Module}
    exec(f"def __init__(self{args}):\n    _Module.__init__(self){body}\n", ns)
    __init__ = ns["__init__"]
    __init__.__qualname__ = f"{cls.__name__}.__init__"
    return __init__


def _make_forward(cls, fn, params):
    """forward(self, input) -> F.<fn>(input, name=self.name, ...) as straight code (no
    kwargs dict per call; F's function still looked up per call, as a patched F sees)."""
    args = "".join(f", {name}=self.{name}" for name in params)
    ns = {"F": F}
    exec(f"def forward(self, input):\n    return F.{fn}(input{args})\n", ns)
    forward = ns["forward"]
    forward.__qualname__ = f"{cls.__name__}.forward"
    forward._made = True
    return forward


class _Activation(Module):
    """An activation whose constructor arguments are the F function's keyword arguments.
    Subclasses name the function and the arguments with their defaults as class keywords;
    a subclass without them (or with its own __init__) keeps what it inherits."""
    _fn = ""      # name of the function in nn.functional
    _params = {}  # constructor arguments (name: default), in PyTorch's order

    def __init_subclass__(cls, fn=None, **params):
        super().__init_subclass__()
        if fn is None:
            return
        cls._fn, cls._params = fn, params
        cls.__constants__ = list(params)
        if params and "__init__" not in cls.__dict__:  # else Module's (*args, **kwargs)
            cls.__init__ = _make_init(cls, params)
        inherited = cls.forward  # _Activation's, or one made here for a parent class
        if "forward" not in cls.__dict__ and (inherited is _Activation.forward or
                                              getattr(inherited, "_made", False)):
            cls.forward = _make_forward(cls, fn, params)

    def forward(self, input):
        return getattr(F, self._fn)(input, **{name: getattr(self, name) for name in self._params})

    def extra_repr(self):
        shown = [f"{name}={getattr(self, name)}" for name in self._params if name != "inplace"]
        if getattr(self, "inplace", False):
            shown.append("inplace=True")
        return ", ".join(shown)


class Threshold(_Activation, fn="threshold", threshold=_REQUIRED, value=_REQUIRED,
                inplace=False):
    """y = x if x > threshold else value."""


class ReLU(_Activation, fn="relu", inplace=False):
    """max(0, x)."""


class RReLU(_Activation, fn="rrelu", lower=1.0 / 8, upper=1.0 / 3, inplace=False):
    """Leaky ReLU with a random negative slope in [lower, upper] while training (their
    mean in eval)."""

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)


class Hardtanh(_Activation, fn="hardtanh", min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None,
                 max_value=None):
        super().__init__()
        if min_value is not None:
            _renamed("min_value", "min_val")
            min_val = min_value
        if max_value is not None:
            _renamed("max_value", "max_val")
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val "
                                 f"({self.min_val})")


def _renamed(old, new):
    warnings.warn(f"keyword argument `{old}` is deprecated and renamed to `{new}`",
                  FutureWarning, stacklevel=3)


class ReLU6(Hardtanh):
    """min(max(0, x), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(_Activation, fn="sigmoid"):
    """1 / (1 + exp(-x))."""


class Hardsigmoid(_Activation, fn="hardsigmoid", inplace=False):
    """Piecewise-linear sigmoid: clamp(x / 6 + 1 / 2, 0, 1)."""
    extra_repr = Module.extra_repr  # PyTorch shows no arguments, even inplace=True


class Tanh(_Activation, fn="tanh"):
    """tanh(x)."""


class SiLU(_Activation, fn="silu", inplace=False):
    """x * sigmoid(x)."""


class Mish(_Activation, fn="mish", inplace=False):
    """x * tanh(softplus(x))."""


class Hardswish(_Activation, fn="hardswish", inplace=False):
    """x * hardsigmoid(x)."""
    extra_repr = Module.extra_repr  # PyTorch shows no arguments, even inplace=True


class ELU(_Activation, fn="elu", alpha=1.0, inplace=False):
    """x if x > 0 else alpha * (exp(x) - 1)."""


class CELU(_Activation, fn="celu", alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""


class SELU(_Activation, fn="selu", inplace=False):
    """scale * elu(x, alpha) with the self-normalising constants."""


class GLU(_Activation, fn="glu", dim=-1):
    """First half of `dim` times the sigmoid of the second half."""


class GELU(_Activation, fn="gelu", approximate="none"):
    """x * Phi(x) (approximate='tanh': its tanh approximation)."""

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Hardshrink(_Activation, fn="hardshrink", lambd=0.5):
    """x where |x| > lambd, else 0."""

    def extra_repr(self):
        return f"{self.lambd}"


class LeakyReLU(_Activation, fn="leaky_relu", negative_slope=1e-2, inplace=False):
    """x if x >= 0 else negative_slope * x."""


class LogSigmoid(_Activation, fn="logsigmoid"):
    """log(sigmoid(x))."""


class Softplus(_Activation, fn="softplus", beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta (linear where beta * x > threshold)."""


class Softshrink(_Activation, fn="softshrink", lambd=0.5):
    """x - lambd * sign(x) where |x| > lambd, else 0."""

    def extra_repr(self):
        return f"{self.lambd}"


class PReLU(Module):
    """Leaky ReLU whose negative slope is learnt: one parameter, or one per channel."""
    __constants__ = ["num_parameters"]

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(mindtorch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softsign(_Activation, fn="softsign"):
    """x / (1 + |x|)."""


class Tanhshrink(_Activation, fn="tanhshrink"):
    """x - tanh(x)."""


class Softmin(_Activation, fn="softmin", dim=None):
    """softmax(-x) along dim."""


class Softmax(_Activation, fn="softmax", dim=None):
    """exp(x) / sum(exp(x)) along dim."""


class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             "instead")
        return F.softmax(input, -3)


class LogSoftmax(_Activation, fn="log_softmax", dim=None):
    """log(softmax(x)) along dim."""
