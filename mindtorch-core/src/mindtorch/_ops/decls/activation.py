"""Activation functions: torch.nn.functional's (and torch's own: relu_, selu, celu, rrelu,
threshold, prelu, hardshrink).

Each activation is an op written as a decomposition into pointwise ops, computed in float32
for float16/bfloat16 inputs as PyTorch's kernels do, with PyTorch's backward formula (one
node of PyTorch's name).  Where F's signature differs from the op's (an `inplace=`
argument, F.softmax's optional dim) the F function is a separate op, `functional_<name>`
(exposed as F.<name>), choosing the op or its in-place variant.
"""
import math

from ... import _dtype as D
from ..._memory_format import iter_laid_out
from ..._scalars import _overflow, checked_scalar
from ..._scalars import float32_value as _f32
from ...autograd._backward_ops import backward_op, renamed
from ...autograd.functional_helpers import zeros
from ..registry import OPS, define, derivative
from ._helpers import _type_name, define_inplace, write_into
from ._out_rules import _checked_out, _same_dtype
from .pointwise import POINTWISE, _in_opmath, join
from .pointwise_grads import _cj, _sigmoid_grad

F = ("nn.functional",)
_HIDDEN = {"function": False, "method": False}  # F only: torch has no torch.<name>
_HALVES = (D.float16, D.bfloat16)


def _M():
    import mindtorch
    return mindtorch


def _floating(name, self):
    """self, if floating; else PyTorch's "not implemented" error."""
    if self.dtype.kind != "f":
        raise NotImplementedError(f'"{name}" not implemented for \'{_type_name(self.dtype)}\'')
    return self


def _up(x):
    """x in the dtype PyTorch computes it in (float32 for 16-bit floats)."""
    return x.float() if x.dtype in _HALVES else x


def _down(r, like):
    return r if r.dtype is like.dtype else r.to(like.dtype)


def _float_args(self, *scalars):
    """PyTorch's checked conversion of Scalar arguments to the computation type."""
    for s in scalars:
        checked_scalar(s, D.float32 if self.dtype in _HALVES else self.dtype)


# -- forward decompositions --------------------------------------------------------------

def _elu(self, alpha=1, scale=1, input_scale=1):
    _float_args(_floating("elu_cpu", self), alpha, scale, input_scale)
    x = _up(self)
    neg = (x * input_scale).expm1() * _negcoef(x, alpha, scale)
    # x >= 0 as in ATen's vectorized kernel: 0 stays 0 even where alpha is inf (0 * inf)
    return _down(_M().where(x >= 0, x * scale if scale != 1 else x, neg), self)


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _check_celu(alpha):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")


def _celu(self, alpha=1.0):
    _check_celu(alpha)
    return OPS["elu"].call(self, alpha, 1, 1 / alpha)


def _leaky_relu(self, negative_slope=0.01):
    _float_args(_floating("leaky_relu_cpu", self), negative_slope)
    x = _up(self)
    return _down(_M().where(x > 0, x, x * negative_slope), self)


def _int_bound(dtype, v):
    """A Scalar argument of an op on `dtype`, as PyTorch converts it (integers: truncated,
    checked)."""
    if dtype.kind in "ui" and type(v) is not complex:
        if not math.isfinite(v):  # (c10's checked conversion refuses NaN and inf)
            raise _overflow(dtype)
        v, info = int(v), D.iinfo(dtype)
        if not info.min <= v <= info.max:  # (c10's checked conversion)
            raise _overflow(dtype)
    checked_scalar(v, dtype)
    return v


def _hardtanh(self, min_val=-1, max_val=1):
    if self.dtype is D.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if self.dtype.kind in "ui":  # PyTorch reads integer bounds as int64 (checked) first
        lo, hi = _int_bound(D.int64, min_val), _int_bound(D.int64, max_val)
        if self.dtype.kind == "u" and (lo < 0 or hi < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if self.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    lo, hi = _int_bound(self.dtype, min_val), _int_bound(self.dtype, max_val)
    return self.clamp(lo, hi)


def _hardsigmoid(self):
    x = _up(_floating("hardsigmoid_cpu", self))
    return _down((x + 3).clamp(0, 6) / 6, self)


def _hardswish(self):
    x = _up(_floating("hardswish_cpu", self))
    return _down(x * (x + 3).clamp(0, 6) / 6, self)


def _softplus_up(x, beta, threshold):
    bx = x * beta if beta != 1 else x
    soft = bx.exp().log1p()
    return _M().where(bx > threshold, x, soft / beta if beta != 1 else soft)


def _softplus(self, beta=1, threshold=20):
    _float_args(_floating("softplus_cpu", self), beta, threshold)
    return _down(_softplus_up(_up(self), beta, threshold), self)


def _mish(self):
    x = _up(_floating("mish_cpu", self))
    return _down(x * x.exp().log1p().tanh(), self)


def _log_sigmoid(self):
    x = _up(_floating("log_sigmoid_cpu", self))
    # min(x, 0) - log1p(exp(-|x|)): no overflow either side
    return _down(x.clamp(max=0) - (-x.abs()).exp().log1p(), self)


def _hardshrink(self, lambd=0.5):
    _float_args(_floating("hardshrink_cpu", self), lambd)
    return _M().where((self >= -lambd) & (self <= lambd), 0, self)


def _softshrink(self, lambd=0.5):
    _floating("softshrink_check", self)
    top = D.finfo(self.dtype).max
    if not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                           f"{_type_name(self.dtype)}, but found {lambd:g}")
    x = _up(self)
    # |x| <= lambd: 0; else x shrunk towards 0 by lambd (NaN stays NaN)
    return _down(_M().where(x.abs() <= lambd, 0, x - x.sign() * lambd), self)


def _threshold(self, threshold, value):
    if self.dtype is D.bool or self.dtype.is_complex:
        raise NotImplementedError(f'"threshold_cpu" not implemented for '
                                  f"'{_type_name(self.dtype)}'")
    t, v = _int_bound(self.dtype, threshold), _int_bound(self.dtype, value)
    return _M().where(_up(self) <= t, v, self)  # (16-bit floats compared in float32)


def _glu_halves(self, dim):
    if self.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    n = self.shape[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {n}")
    return self.narrow(dim, 0, n // 2), self.narrow(dim, n // 2, n // 2)


def _glu(self, dim=-1):
    a, b = _glu_halves(self, dim)  # (the halving checked first)
    _floating("glu_cpu", self)
    return _down(_up(a) * _up(b).sigmoid(), self)


def _prelu_weight(self, weight):
    """weight shaped to broadcast along self's channel dim (dim 1), with PyTorch's checks in
    its order (dtypes, sizes, weight's rank; the kernel's floating check last)."""
    if weight.dtype is not self.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{_type_name(self.dtype)} and {_type_name(weight.dtype)}")
    n, channels = weight.numel(), self.shape[1] if self.ndim >= 2 else 1
    if n != 1 and self.ndim == 0:
        raise RuntimeError("Not allow zero-dim input tensor.")
    if n != 1 and n != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = {channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    _floating("prelu_cpu", self)
    if n == 1:
        return weight.reshape(())
    return weight.reshape((n,) + (1,) * (self.ndim - 2))


def _prelu(self, weight):
    w = _prelu_weight(self, weight)
    return _M().where(self > 0, self, w * self)


def _check_rrelu(self, lower, upper, training, finite=True):
    """rrelu's checks (PyTorch's rrelu_ does not require finite bounds); the dtype is
    rrelu_with_noise's to refuse in training, leaky_relu's in eval."""
    for name, bound in (("lower", lower), ("upper", upper)):
        if finite and not math.isfinite(bound):
            raise RuntimeError(f"rrelu: {name} bound must be finite, got {float(bound):g}")
    if not lower <= upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        _floating("leaky_relu_cpu", self)


def _rrelu(self, lower=0.125, upper=1 / 3, training=False, generator=None):
    _check_rrelu(self, lower, upper, training)
    # PyTorch's rrelu: rrelu_with_noise into a fresh noise tensor
    return OPS["rrelu_with_noise"].call(self, _M().empty_like(self), lower, upper, training,
                                        generator)


def _rrelu_(self, lower=0.125, upper=1 / 3, training=False, generator=None):
    _check_rrelu(self, lower, upper, training, finite=False)
    return write_into(self, OPS["rrelu_with_noise"], (_M().empty_like(self), lower, upper,
                                                      training, generator))


def _check_rrelu_with_noise(self, noise, training):
    if noise.shape != self.shape:
        raise RuntimeError(f"noise tensor shape must match self tensor shape. Got self.shape = "
                           f"{list(self.shape)} noise.shape = {list(noise.shape)}")
    if training:  # PyTorch's training kernel: floating types and BFloat16 (no Half)
        if self.dtype.kind != "f" or self.dtype is D.float16:
            raise NotImplementedError(f"\"rrelu_with_noise_out_cpu\" not implemented for "
                                      f"'{_type_name(self.dtype)}'")
        if noise.dtype is not self.dtype:  # (it writes the noise as self's type)
            raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                               f"{_type_name(noise.dtype)}")


def _rrelu_with_noise(self, noise, lower=0.125, upper=1 / 3, training=False, generator=None):
    """Training draws each slope: U(lower, upper) where self <= 0, else 1, and writes them
    into `noise` (the backward multiplies by them); eval is leaky_relu with the slope
    (lower + upper) / 2 and leaves `noise` alone."""
    _check_rrelu_with_noise(self, noise, training)
    out, drawn = OPS["_rrelu_with_noise_functional"].call(self, noise, lower, upper, training,
                                                         generator)
    if training:
        from ...autograd.grad_mode import no_grad
        with no_grad():
            noise.copy_(drawn)
    return out


def _rrelu_with_noise_functional(self, noise, lower=0.125, upper=1 / 3, training=False,
                                 generator=None):
    """rrelu_with_noise returning the noise it draws (noise_out) instead of writing it."""
    _check_rrelu_with_noise(self, noise, training)
    M = _M()
    if not training:  # (PyTorch's rrelu allocates a contiguous result)
        return _leaky_relu(self, (lower + upper) / 2).contiguous(), noise.clone()
    drawing = self <= 0
    # PyTorch's uniform_real_distribution checks, made only for an element that draws
    from .layers import _any
    if not lower <= upper and _any(drawing):
        raise RuntimeError("Expected from <= to to be true, but got false.")
    if not float(upper) - float(lower) <= 1.7976931348623157e308 and _any(drawing):
        raise RuntimeError("Expected to - from <= std::numeric_limits<T>::max() to be true, "
                           "but got false.")
    # PyTorch's loop: a double uniform on [lower, upper) (multiply, then add) for each
    # element that draws, in order, so a seed gives its slopes
    from .layers import _has_data
    count = int(drawing.sum()) if _has_data(drawing) else self.numel()
    u = M.empty(count, dtype=D.float64, device=self.device).uniform_(generator=generator)
    opmath = D.float64 if self.dtype is D.float64 else D.float32
    slopes = M.ones(self.shape, dtype=opmath, device=self.device)
    if opmath is D.float32:  # (the bounds are rounded to the math type first)
        lower, upper = _f32(lower), _f32(upper)
    u = (u * (float(upper) - float(lower)) + float(lower)).to(opmath)
    slopes.masked_scatter_(drawing, u)
    # the product in the math type, rounded once (a bfloat16 slope would round it twice)
    return (self.to(opmath) * slopes).to(self.dtype).contiguous(), slopes.to(self.dtype)


# -- F's softmax family: the implicit dim and dtype= --------------------------------------

def _softmax_dim(name, ndim, stacklevel):
    import warnings

    from ..._warn_once import _user_level
    # attributed to the user's line, as _stacklevel does in PyTorch (the depth of mindtorch's
    # own frames varies: autograd adds one)
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  f"to include dim=X as an argument.", stacklevel=_user_level())
    return 0 if ndim in (0, 1, 3) else 1


def _functional_softmax(name, negate=False):
    def fn(self, dim=None, _stacklevel=3, dtype=None):
        if dim is None:
            dim = _softmax_dim(name, self.ndim, _stacklevel)
        x = -self if negate else self
        return OPS["log_softmax" if name == "log_softmax" else "softmax"].call(x, dim, dtype)
    return fn


# -- declarations ------------------------------------------------------------------------

_RRELU = "Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False"
# name: (schema arguments after self, decomposition, F's arguments after input or None when
# F.<name> is the op itself, exposure of the op)
ACTIVATIONS = {
    "elu": ("Scalar alpha=1, Scalar scale=1, Scalar input_scale=1", _elu,
            "Scalar alpha=1.0", _HIDDEN),
    "selu": ("", lambda self: OPS["elu"].call(self, SELU_ALPHA, SELU_SCALE, 1), "",
             {"method": False}),
    "celu": ("Scalar alpha=1.0", _celu, "Scalar alpha=1.0", {"method": False}),
    "leaky_relu": ("Scalar negative_slope=0.01", _leaky_relu, "Scalar negative_slope=0.01",
                   _HIDDEN),
    "hardtanh": ("Scalar min_val=-1, Scalar max_val=1", _hardtanh,
                 "Scalar min_val=-1.0, Scalar max_val=1.0", _HIDDEN),
    "hardsigmoid": ("", _hardsigmoid, "", _HIDDEN),
    "hardswish": ("", _hardswish, "", _HIDDEN),
    "mish": ("", _mish, "", _HIDDEN),
    "threshold": ("Scalar threshold, Scalar value", _threshold, "Scalar threshold, Scalar value",
                  {"method": False}),
    "rrelu": (_RRELU + ", Generator? generator=None", _rrelu, _RRELU, {"method": False}),
    "softplus": ("Scalar beta=1, Scalar threshold=20", _softplus, None, _HIDDEN),
    "log_sigmoid": ("", _log_sigmoid, None, {**_HIDDEN, "public_name": "logsigmoid"}),
    "hardshrink": ("Scalar lambd=0.5", _hardshrink, None, {}),
    "softshrink": ("Scalar lambd=0.5", _softshrink, None, _HIDDEN),
    "glu": ("int dim=-1", _glu, None, _HIDDEN),
}
# in-place variants torch has, and where they are exposed (F.elu_, torch.selu_, ...)
INPLACE = {"elu": F, "selu": F, "celu": F, "leaky_relu": F, "hardtanh": F, "threshold": F,
           "rrelu": F, "hardsigmoid": (), "hardswish": (), "mish": ()}
TORCH_INPLACE = {"selu", "celu", "threshold", "rrelu"}  # torch.<name>_ exists
# F.<name> that are F's own compositions (no node of their own in PyTorch either)
COMPOSITIONS = {
    "relu6": ("bool inplace=False", lambda self, inplace=False: (
        OPS["hardtanh_"] if inplace else OPS["hardtanh"]).call(self, 0, 6)),
    "softsign": ("", lambda self: self / (self.abs() + 1)),
    "tanhshrink": ("", lambda self: self - self.tanh()),
    "softmax": ("int? dim=None, int _stacklevel=3, ScalarType? dtype=None",
                _functional_softmax("softmax")),
    "log_softmax": ("int? dim=None, int _stacklevel=3, ScalarType? dtype=None",
                    _functional_softmax("log_softmax")),
    "softmin": ("int? dim=None, int _stacklevel=3, ScalarType? dtype=None",
                _functional_softmax("softmin", negate=True)),
}


def _functional_hardtanh(self, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _inplace_choice("hardtanh")(self, min_val, max_val, inplace)


def _inplace_choice(name):
    """F.<name>(input, ..., inplace): the op or its in-place variant (F's arguments are the
    op's first ones; the rest take the op's defaults)."""
    chosen = {}  # inplace -> (op, its remaining defaults): looked up once

    def fn(self, *args):
        *args, inplace = args
        entry = chosen.get(inplace)
        if entry is None:
            op = OPS[name + "_" if inplace else name]
            entry = chosen[inplace] = (op, [a.default for a in op.schema.args[1 + len(args):]])
        op, rest = entry
        return op.call(self, *args, *rest)
    return fn


def _with(extra, *more):
    return ", ".join(a for a in (extra,) + more if a)


def _declare():
    _declare_pointwise()
    for name, (extra, decomposition, f_args, exposure) in ACTIVATIONS.items():
        modules = F if f_args is None else ()
        define(f"{name}({_with('Tensor self', extra)}) -> Tensor", decomposition=decomposition,
               modules=modules, **exposure)
        if f_args is not None:
            choice = _functional_hardtanh if name == "hardtanh" else _inplace_choice(name)
            define(f"functional_{name}({_with('Tensor self', f_args, 'bool inplace=False')})"
                   f" -> Tensor", decomposition=choice, modules=F, **_HIDDEN)
    rrelu_args = ("Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
                  "Generator? generator=None")
    define(f"rrelu_with_noise(Tensor self, Tensor(b!) noise, {rrelu_args}) -> Tensor",
           tags=("random",), decomposition=_rrelu_with_noise, **_HIDDEN)
    define(f"_rrelu_with_noise_functional(Tensor self, Tensor noise, {rrelu_args}) -> "
           f"(Tensor, Tensor noise_out)", tags=("random",),
           decomposition=_rrelu_with_noise_functional, **_HIDDEN)
    define("prelu(Tensor self, Tensor weight) -> Tensor", decomposition=_prelu, modules=F)
    # relu's and threshold's backward as one op, so a backend can fuse it (ATen's)
    define("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
           decomposition=lambda grad, self, threshold: _where(self <= threshold, 0, grad),
           **_HIDDEN)
    for name, modules in INPLACE.items():
        op = define_inplace(OPS[name])
        op.options.update(modules=modules, function=name in TORCH_INPLACE, method=False)
    OPS["rrelu_"].decomposition = _rrelu_
    # selu_ through elu_ (PyTorch's node: EluBackward1)
    OPS["selu_"].decomposition = lambda self: OPS["elu_"].call(self, SELU_ALPHA, SELU_SCALE, 1)
    join(OPS["relu_"], "nn.functional")
    OPS["relu_"].options["function"] = True
    define("functional_relu(Tensor self, bool inplace=False) -> Tensor",
           decomposition=_inplace_choice("relu"), modules=F, **_HIDDEN)
    define("functional_silu(Tensor self, bool inplace=False) -> Tensor",
           decomposition=_inplace_choice("silu"), modules=F, **_HIDDEN)
    for name, (extra, decomposition) in COMPOSITIONS.items():
        define(f"functional_{name}({_with('Tensor self', extra)}) -> Tensor",
               decomposition=decomposition, modules=F, **_HIDDEN)
    for name in ("sigmoid", "tanh"):
        join(OPS[name], "nn.functional")
    _derivatives()


def _declare_pointwise():
    """gelu and silu (PyTorch's fused kernels) and their in-place variants."""
    define("gelu(Tensor self, *, str approximate='none') -> Tensor", tags=POINTWISE,
           promotion="default", modules=F)
    define("silu(Tensor self) -> Tensor", tags=POINTWISE, promotion="default",
           decomposition=_silu)
    for name in ("gelu", "silu"):
        define_inplace(OPS[name])
    _checked_out(OPS["gelu"], _same_dtype)
    # their backwards as ops (ATen's), so that a backend can fuse them
    define("gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> "
           "Tensor", decomposition=_gelu_grad, **_HIDDEN)
    define("silu_backward(Tensor grad_output, Tensor self) -> Tensor",
           decomposition=_silu_grad, **_HIDDEN)
    define("leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, "
           "bool self_is_result) -> Tensor", decomposition=_leaky_relu_backward, **_HIDDEN)
    define("hardswish_backward(Tensor grad_output, Tensor self) -> Tensor",
           decomposition=_hardswish_grad, **_HIDDEN)
    define("hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, "
           "Scalar max_val) -> Tensor", decomposition=_hardtanh_grad, **_HIDDEN)
    # sigmoid's and tanh's (from their results; their formulas: decls/pointwise_grads.py)
    define("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor",
           decomposition=_sigmoid_grad, **_HIDDEN)
    define("tanh_backward(Tensor grad_output, Tensor output) -> Tensor",
           decomposition=_tanh_grad, **_HIDDEN)
    define("softplus_backward(Tensor grad_output, Tensor self, Scalar beta, "
           "Scalar threshold) -> Tensor", decomposition=_softplus_backward, **_HIDDEN)
    define("elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, "
           "bool is_result, Tensor self_or_result) -> Tensor", decomposition=_elu_backward,
           **_HIDDEN)
    # (buffer: ATen's cpu forward saves exp(-|x|) there; computed again from self, as its
    # cuda kernel does)
    define("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor",
           decomposition=_log_sigmoid_backward, **_HIDDEN)


def check_gelu(self, approximate):
    """gelu's checks (cpu kernel and meta rule)."""
    _floating("GeluKernelImpl", self)
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")


def _silu(self):
    if self.dtype.kind not in "fc":
        _floating("silu_cpu", self)
    if self.dtype.is_complex:
        return self * self.sigmoid()
    x = _up(self)  # PyTorch's x / (1 + exp(-x)), 16-bit floats in float32
    return _down(x / ((-x).exp() + 1), self)


# -- backward formulas (PyTorch's derivatives.yaml) --------------------------------------

def _where(cond, a, b):
    return _M().where(cond, a, b)


def _negcoef(x, alpha, scale):
    """ELU's alpha * scale as ATen's kernels take it (float32 for float32 and 16-bit x)."""
    return alpha * scale if x.dtype is D.float64 else _f32(_f32(alpha) * _f32(scale))


def _elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    """grad * scale where x > 0, else grad * input_scale * alpha * scale * exp(x *
    input_scale) (from the result y: grad * input_scale * (y + alpha * scale)): ATen's
    vectorized steps, alpha * scale rounded to float32 for float32 and 16-bit floats (in
    float32, rounded once)."""
    if is_result and alpha < 0:
        raise RuntimeError("In-place elu backward calculation is triggered with a negative "
                           "slope which is not supported. This is caused by calling in-place "
                           "forward function with a negative slope, please call out-of-place "
                           "version instead.")
    g, x = _up(grad_output), _up(self_or_result)
    negcoef = _negcoef(x, alpha, scale)
    if is_result:
        neg = g * input_scale * (x + negcoef)
    else:
        neg = g * input_scale * negcoef * (x * input_scale).exp()
    return _down(_where(x > 0, g * scale, neg), grad_output)


def _elu_grad(grad, self, alpha, scale, input_scale):
    return OPS["elu_backward"].call(grad, alpha, scale, input_scale, False, self)


def _elu_result_grad(grad, result, alpha, scale, input_scale):
    # the in-place variant only has its result: exp(x * s) = result / (alpha * scale) + 1
    return OPS["elu_backward"].call(grad, alpha, scale, input_scale, True, result)


def _leaky_relu_backward(grad_output, self, negative_slope, self_is_result):
    """grad where self > 0, else grad * negative_slope (self: the input, or the in-place
    variant's result); 16-bit floats in float32, rounded once."""
    if self_is_result and negative_slope < 0:
        raise RuntimeError("In-place leakyReLu backward calculation is triggered with a "
                           "negative slope which is not supported. This is caused by calling "
                           "in-place forward function with a negative slope, please call "
                           "out-of-place version instead. File an issue at "
                           "https://github.com/pytorch/pytorch if you do require supporting "
                           "in-place leakRelu backward calculation with negative slope")
    g, x = _up(grad_output), _up(self)
    return _down(_where(x > 0, g, g * negative_slope), grad_output)


def _leaky_result_grad(grad, result, negative_slope):
    return OPS["leaky_relu_backward"].call(grad, result, negative_slope, True)


def _gelu_grad(grad, self, approximate):
    """gelu_backward: 16-bit floats computed in float32 and rounded once, as PyTorch's."""
    g, x = _up(grad), _up(self)
    if approximate == "tanh":
        beta, kappa = math.sqrt(2 / math.pi), 0.044715
        x2 = x * x
        t = (beta * (x + kappa * x2 * x)).tanh()
        return _down(g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * beta * (1 + 3 * kappa * x2)),
                     grad)
    cdf = 0.5 * (1 + (x * math.sqrt(0.5)).erf())
    pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
    return _down(g * (cdf + x * pdf), grad)


def _silu_grad(grad, self):
    """silu_backward: (g s) (1 + x (1 - s)), s = 1 / (1 + exp(-x)) (PyTorch's order and
    sigmoid steps; 16-bit floats in float32, rounded once)."""
    g, x = _up(grad), _up(self)
    if x.dtype.is_complex:
        s, x = x.sigmoid().conj(), x.conj()
        return _down(g * s * (1 + x * (1 - s)), grad)
    s = 1 / ((-x).exp() + 1)  # (1 + x (1 - s): one rounding, the compiler's FMA)
    return _down(g * s * _M().ones_like(x).addcmul_(x, 1 - s), grad)


def _tanh_grad(grad, output):
    """tanh_backward: grad (1 - y^2), 16-bit floats in float32, rounded once (PyTorch's)."""
    return _in_opmath(lambda g, y: g * _cj(1 - y * y), grad, output)


def _mish_grad(grad, self):
    t = _softplus_up(self, 1, 20).tanh()
    return grad * (t + self * self.sigmoid() * (1 - t * t))


def _softplus_backward(grad_output, self, beta, threshold):
    """grad where x beta > threshold, else grad z / (z + 1), z = exp(x beta) (ATen's steps;
    16-bit floats in float32, rounded once)."""
    g, x = _up(grad_output), _up(self)
    bx = x * beta
    z = bx.exp()
    return _down(_where(bx > threshold, g, g * z / (z + 1)), grad_output)


def _log_sigmoid_backward(grad_output, self, buffer):
    """grad (1 - t) where x < 0, else grad t, t = z / (1 + z), z = exp(-|x|) (ATen's cpu
    steps; 16-bit floats in float32, rounded once)."""
    g, x = _up(grad_output), _up(self)
    z = _up(_down((-x.abs()).exp(), self))  # (ATen's buffer, in self's dtype)
    t = z / (z + 1)
    return _down(_where(x < 0, 1 - t, t) * g, grad_output)


def _shrink_grad(grad, self, lambd):
    return iter_laid_out(_where((self >= -lambd) & (self <= lambd), 0, grad), grad, self)


def _glu_grad(grad, self, dim):
    a, b = _glu_halves(self, dim)
    sb = b.sigmoid()
    return _M().cat([grad * sb, grad * a * sb * (1 - sb)], dim)


def _prelu_grads(grad, self, weight):
    w = _prelu_weight(self, weight)
    positive = self > 0
    g_self = _where(positive, grad, w * grad)
    g = _where(positive, 0, self * grad)
    if weight.numel() == 1:
        g_weight = g.sum().reshape(weight.shape)
    else:
        g_weight = g.sum([d for d in range(g.ndim) if d != 1]) if g.ndim > 1 else g
    return g_self, g_weight


def _rrelu_grad(grad, self, results, lower, upper, training):
    if training:  # the slopes drawn (noise_out)
        return grad * results[1]
    return _where(self > 0, grad, grad * ((lower + upper) / 2))


# The backwards below select as ATen's vectorized kernels (all but a tensor's last few
# elements there), which also fixes what a NaN input gives.

def _hardswish_grad(grad, self):
    """hardswish_backward: 0 for x <= -3, grad for x >= 3, grad (x / 3 + 1/2) between (and
    for NaN); 16-bit floats in float32, rounded once."""
    g, x = _up(grad), _up(self)
    return _down(_where(x <= -3, 0, _where(x >= 3, g, g * (x / 3 + 0.5))), grad)


def _hardtanh_grad(grad, self, min_val, max_val):
    """hardtanh_backward: grad strictly inside (min_val, max_val), else 0 (NaN: 0)."""
    return iter_laid_out(_where((self > min_val) & (self < max_val), grad, 0), grad, self)


def _elu_double_grad(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result):
    negative = self_or_result < 0
    g = grad * grad_output * input_scale
    if is_result:
        return _where(negative, g, 0)
    return _where(negative, OPS["elu_backward"].call(g, alpha, scale, input_scale, False,
                                                     self_or_result), 0)


def _softplus_double_grad(grad, grad_output, self, beta, threshold):
    x = self * beta
    s = x.sigmoid()
    return _where(x < threshold, grad * grad_output * s * (1 - s) * beta, 0)

_GRADS = {
    "gelu": {"self": lambda grad, self, approximate:
             OPS["gelu_backward"].call(grad, self, approximate)},
    "silu": {"self": lambda grad, self: OPS["silu_backward"].call(grad, self)},
    "elu": {"self": _elu_grad},
    "elu_": {"self": _elu_result_grad, "name": "EluBackward1"},
    "celu": {"self": lambda grad, self, alpha: _elu_grad(grad, self, alpha, 1, 1 / alpha)},
    "celu_": {"self": lambda grad, result, alpha: _elu_result_grad(grad, result, alpha, 1,
                                                                   1 / alpha),
              "name": "CeluBackward1"},
    "leaky_relu": {"self": lambda grad, self, negative_slope:
                   OPS["leaky_relu_backward"].call(grad, self, negative_slope, False)},
    "leaky_relu_": {"self": _leaky_result_grad, "name": "LeakyReluBackward1"},
    "hardtanh": {"self": lambda grad, self, min_val, max_val:
                 OPS["hardtanh_backward"].call(grad, self, min_val, max_val)},
    # ATen multiplies by 1/6 rounded to float32 (also for float64)
    "hardsigmoid": {"self": backward_op(
        lambda grad, self: iter_laid_out(
            _where((self > -3) & (self < 3), grad * 0.1666666716337204, 0), grad, self))},
    "hardswish": {"self": lambda grad, self: OPS["hardswish_backward"].call(grad, self)},
    "mish": {"self": _mish_grad},
    "threshold": {"self": lambda grad, self, threshold, value:
                  OPS["threshold_backward"].call(grad, self, threshold)},
    # self: its value before the write (saved as a copy by the recording runner)
    "threshold_": {"self": lambda grad, self, threshold, value:
                   OPS["threshold_backward"].call(grad, self, threshold),
                   "name": "ThresholdBackward1"},
    "softplus": {"self": lambda grad, self, beta, threshold:
                 OPS["softplus_backward"].call(grad, self, beta, threshold)},
    "log_sigmoid": {"self": lambda grad, self:
                    OPS["log_sigmoid_backward"].call(grad, self, self.new_empty(0))},
    "hardshrink": {"self": backward_op(_shrink_grad)},
    "softshrink": {"self": backward_op(_shrink_grad)},
    "glu": {"self": renamed(_glu_grad)},
    "prelu": {"self, weight": backward_op(_prelu_grads), "name": "PreluKernelBackward0"},
    "_rrelu_with_noise_functional": {"self": backward_op(_rrelu_grad),
                                     "name": "RreluWithNoiseBackward0",
                                     "nondifferentiable_outputs": (1,)},
    # double backward: PyTorch's formulas (not the decompositions' derivatives, which take
    # the other side of the kink at x == 0 / beta x == threshold)
    "elu_backward": {"grad_output": lambda grad, alpha, scale, input_scale, is_result,
                     self_or_result: OPS["elu_backward"].call(
                         grad, alpha, scale, input_scale, is_result, self_or_result),
                     "self_or_result": _elu_double_grad},
    "log_sigmoid_backward": {
        "grad_output": lambda grad, self, buffer:
            OPS["log_sigmoid_backward"].call(grad, self, buffer),
        "self": lambda grad, grad_output, self:
            grad * grad_output * (self.sigmoid() - 1) * self.sigmoid()},
    "softplus_backward": {
        "grad_output": lambda grad, self, beta, threshold:
            OPS["softplus_backward"].call(grad, self, beta, threshold),
        "self": _softplus_double_grad},
    # piecewise-linear backwards: linear in grad_output, flat in self (PyTorch's zeros, so a
    # second derivative through them is zero, not missing)
    "threshold_backward": {"grad_output": lambda grad, self, threshold:
                           OPS["threshold_backward"].call(grad, self, threshold),
                           "self": zeros},
    "leaky_relu_backward": {"grad_output": lambda grad, self, negative_slope, self_is_result:
                            OPS["leaky_relu_backward"].call(grad, self, negative_slope,
                                                            self_is_result),
                            "self": zeros},
    "hardtanh_backward": {"grad_output": lambda grad, self, min_val, max_val:
                          OPS["hardtanh_backward"].call(grad, self, min_val, max_val),
                          "self": zeros},
}



def _derivatives():
    for name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[name], name=formulas.pop("name", None),
                   nondifferentiable_outputs=formulas.pop("nondifferentiable_outputs", None),
                   **formulas)


_declare()
