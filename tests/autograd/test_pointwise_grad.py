"""Gradients of the pointwise ops (formulas in _ops/decls/pointwise_grads.py and the composite
ops' decompositions), against PyTorch, gradcheck and the meta device."""
import math

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, rand, randn
from reference import assert_same, same_error


def nn_fn(m, name):
    """silu/gelu: mindtorch functions, torch.nn.functional's in PyTorch."""
    return getattr(torch.nn.functional, name) if m is torch else getattr(m, name)


def unary(name, **kw):
    return lambda m, x: getattr(m, name)(x, **kw)


def binary(name, **kw):
    return lambda m, x, y: getattr(m, name)(x, y, **kw)


POS = rand(2, 3)           # log, sqrt, ... domains
UNIT = rand(2, 3, low=-0.9, high=0.9)   # acos, asin

# name -> (fn, input) for the unary ops; every one also runs non-contiguous, 0-dim, empty
UNARY = {
    **{name: (unary(name), randn(2, 3)) for name in (
        "abs", "atan", "cos", "cosh", "sin", "sinh", "tan", "tanh", "sigmoid", "erf",
        "expm1", "exp", "exp2", "neg", "relu", "ceil", "floor", "round", "trunc", "sign",
        "conj_physical", "square", "frac", "deg2rad", "rad2deg", "nan_to_num", "positive",
        "negative", "absolute")},
    **{name: (unary(name), POS) for name in (
        "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "reciprocal")},
    "acos": (unary("acos"), UNIT), "asin": (unary("asin"), UNIT),
    "round_decimals": (lambda m, x: m.round(x, decimals=1), randn(2, 3)),
    "silu": (lambda m, x: nn_fn(m, "silu")(x), randn(2, 3)),
    "gelu": (lambda m, x: nn_fn(m, "gelu")(x), randn(2, 3)),
    "gelu_tanh": (lambda m, x: nn_fn(m, "gelu")(x, approximate="tanh"), randn(2, 3)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    fn, x = UNARY[name]
    check_grads(fn, x)
    check_grads(fn, nc(x[0]))
    check_grads(fn, np.array(x[0, 0]))   # 0-dim
    check_grads(fn, x[:0])     # empty


@pytest.mark.parametrize("name", ["sin", "sigmoid", "log", "gelu_tanh", "abs", "rsqrt"])
def test_unary_float32(name):
    fn, x = UNARY[name]
    check_grads(fn, x, dtype="float32")


X, Y = randn(2, 3), randn(3)
BINARY = {
    # name -> (fn, *specs); broadcasting (2, 3) with (3,) unless stated
    "add": (binary("add"), X, Y),
    "add_alpha": (binary("add", alpha=2.5), X, Y),
    "add_scalar": (binary("add", alpha=2), X, 3.0),
    "sub": (binary("sub"), X, Y),
    "sub_alpha": (binary("sub", alpha=-2), X, nc(Y)),
    "subtract": (binary("subtract"), X, Y),
    "rsub": (binary("rsub"), X, Y),
    "rsub_alpha": (binary("rsub", alpha=3), X, 2.0),
    "rsub_operator": (lambda m, x: 2 - x, X),
    "mul": (binary("mul"), X, Y),
    "mul_scalar": (lambda m, x: 2.5 * x, X),
    "multiply": (binary("multiply"), X, nc(Y)),
    "div": (binary("div"), X, rand(3)),
    "div_scalar_self": (lambda m, y: 2 / y, rand(3)),
    "div_trunc": (binary("div", rounding_mode="trunc"), X, rand(3)),
    "div_floor": (binary("div", rounding_mode="floor"), X, rand(3)),
    "divide": (binary("divide"), X, rand(3)),
    "true_divide": (binary("true_divide"), X, rand(3)),
    "pow": (binary("pow"), rand(2, 3), randn(3)),
    "pow_scalar": (lambda m, x: x ** 2.5, rand(2, 3)),
    "pow_int": (lambda m, x: x ** 3, randn(2, 3)),
    "pow_neg": (lambda m, x: x ** -1, rand(2, 3)),
    "pow_zero": (lambda m, x: x ** 0, randn(2, 3)),
    "pow_rscalar": (lambda m, x: 2.0 ** x, randn(2, 3)),
    "pow_fn_scalar_self": (lambda m, x: m.pow(1.5, x), randn(3)),
    "remainder": (binary("remainder"), randn(2, 3) * 3, rand(3, low=0.7)),
    "remainder_scalar": (lambda m, x: x % 0.7, randn(2, 3) * 3),
    "fmod": (binary("fmod"), randn(2, 3) * 3, rand(3, low=0.7)),
    "fmod_scalar": (binary("fmod"), randn(2, 3) * 3, 0.7),
    "maximum": (binary("maximum"), X, Y),
    "minimum": (binary("minimum"), X, nc(Y)),
    "fmax": (binary("fmax"), X, Y),
    "fmin": (binary("fmin"), X, Y),
    "atan2": (binary("atan2"), X, Y),
    "arctan2": (binary("arctan2"), X, nc(Y)),
    "where": (lambda m, c, x, y: m.where(c, x, y), const(X > 0), randn(3), randn(2, 1)),
    "where_scalar": (lambda m, c, x: m.where(c, x, 0.5), const(X > 0), X),
    "where_method": (lambda m, c, x, y: x.where(c, y), const(Y > 0), X, Y),
    "clamp": (lambda m, x: m.clamp(x, -0.5, 0.5), X),
    "clamp_min": (lambda m, x: m.clamp(x, min=0.1), X),
    "clamp_max": (lambda m, x: x.clamp(max=0.1), X),
    "clamp_tensors": (lambda m, x, lo, hi: m.clamp(x, lo, hi), X, randn(3) - 1, randn(2, 1) + 1),
    "clamp_crossed": (lambda m, x, lo, hi: m.clamp(x, lo, hi), X, randn(3) + 1, randn(3) - 1),
    "clamp_tensor_min": (lambda m, x, lo: m.clamp(x, min=lo), X, Y),
    "clamp_tensor_max": (lambda m, x, hi: m.clamp(x, max=hi), X, nc(Y)),
    "clip": (lambda m, x: m.clip(x, -0.5, 0.5), X),
    "lerp": (lambda m, a, b: m.lerp(a, b, 0.3), X, Y),
    "lerp_high": (lambda m, a, b: m.lerp(a, b, 0.8), X, Y),
    "lerp_tensor": (lambda m, a, b, w: m.lerp(a, b, w), X, Y, rand(2, 3)),
    "lerp_0dim": (lambda m, a, b, w: m.lerp(a, b, w), X, Y, np.array(0.7)),
    "addcmul": (lambda m, a, b, c: m.addcmul(a, b, c, value=0.5), X, Y, randn(2, 1)),
    "addcdiv": (lambda m, a, b, c: m.addcdiv(a, b, c, value=2), X, Y, rand(2, 1)),
    "addcdiv_default": (lambda m, a, b, c: m.addcdiv(a, b, c), X, nc(Y), rand(3)),
    "diff": (lambda m, x: m.diff(x), X),
    "diff_n2_dim0": (lambda m, x: m.diff(x, n=2, dim=0), randn(3, 2)),
    "diff_prepend": (lambda m, x, p, a: m.diff(x, prepend=p, append=a), X, randn(2, 1),
                     randn(2, 2)),
}
NEEDS = {"diff_prepend": "cat"}  # cases waiting for another family's derivative


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name):
    fn, *specs = BINARY[name]
    if name in NEEDS and mindtorch._ops.OPS[NEEDS[name]].formulas is None:
        pytest.skip(f"no derivative for {NEEDS[name]} yet")
    check_grads(fn, *specs)


def _first(s):
    """A spec cut down to its first row / element (0-dim / empty cases)."""
    if isinstance(s, nc):
        return s.array[0]
    if isinstance(s, const):
        return const(np.array(s.array.reshape(-1)[0]))
    return np.array(s.reshape(-1)[0]) if isinstance(s, np.ndarray) else s


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "pow", "maximum", "fmin", "atan2",
                                  "where", "clamp_tensors", "lerp_tensor", "addcdiv", "fmod"])
def test_binary_0dim_and_empty(name):
    fn, *specs = BINARY[name]
    check_grads(fn, *[_first(s) for s in specs])
    check_grads(fn, *[s[:0] if isinstance(s, np.ndarray) and s.ndim == 2 else
                      const(s.array[:0]) if isinstance(s, const) else s for s in specs])


@pytest.mark.parametrize("name", ["mul", "div", "pow", "atan2", "lerp_tensor", "clamp"])
def test_binary_float32(name):
    fn, *specs = BINARY[name]
    check_grads(fn, *specs, dtype="float32")


# special points: PyTorch's subgradient conventions and 0 ** e; no gradcheck (not smooth)
Z = np.array([0.0, 0.0, 1.5, -2.0, 0.5])
SPECIAL = {
    "abs_at_0": (unary("abs"), Z),
    "relu_at_0": (unary("relu"), Z),
    "sign_at_0": (unary("sign"), Z),
    "sqrt_at_0": (unary("sqrt"), np.abs(Z)),
    "clamp_at_bounds": (lambda m, x: m.clamp(x, 0.0, 1.5), Z),
    "clamp_tensor_ties": (lambda m, x, lo, hi: m.clamp(x, lo, hi), Z, Z.copy(), Z + 1),
    "maximum_ties": (binary("maximum"), Z, Z.copy()),
    "minimum_ties": (binary("minimum"), Z, np.array([0.0, 1.0, 1.5, -3.0, 0.5])),
    "fmax_ties": (binary("fmax"), Z, Z.copy()),
    "fmin_ties": (binary("fmin"), Z, Z.copy()),
    "maximum_nan": (binary("maximum"), np.array([np.nan, 1.0, np.nan]),
                    np.array([1.0, np.nan, np.nan])),
    "fmax_nan": (binary("fmax"), np.array([np.nan, 1.0, np.nan]), np.array([1.0, np.nan, np.nan])),
    "fmin_nan": (binary("fmin"), np.array([np.nan, 1.0, np.nan]), np.array([1.0, np.nan, np.nan])),
    "nan_to_num": (unary("nan_to_num"), np.array([np.nan, np.inf, -np.inf, 1.0])),
    "pow_0_tensor": (binary("pow"), Z, np.array([0.0, -1.0, 2.0, 0.0, 0.5])),
    "pow_0_exponents": (binary("pow"), np.zeros(4), np.array([0.0, 1.0, 0.5, -1.0])),
    "pow_neg_base": (binary("pow"), np.array([-2.0, -0.5]), np.array([2.0, 3.0])),
    "pow_0_scalar_0": (lambda m, x: x ** 0, Z),
    "pow_0_scalar_half": (lambda m, x: x ** 0.5, np.abs(Z)),
    "pow_rscalar_0": (lambda m, e: m.pow(0.0, e), np.array([0.0, 1.0, -1.0, 2.5])),
    "pow_rscalar_neg": (lambda m, e: m.pow(-2.0, e), np.array([0.0, 1.0, 2.0])),
    "log_at_0": (unary("log"), np.abs(Z)),
    "atan2_origin": (binary("atan2"), np.zeros(2), np.array([0.0, 1.0])),
}


def test_atan2_origin_gradient_signed_zeros():
    # PyTorch: grad * -self * (masked reciprocal): -0.0 for `other` at the origin
    def run(L):
        a = L.tensor([0.0, -0.0, 1.0], dtype=L.float64, requires_grad=True)
        b = L.tensor([0.0, 0.0, 1.0], dtype=L.float64, requires_grad=True)
        L.atan2(a, b).sum().backward()
        return [(v, math.copysign(1, v)) for v in a.grad.tolist() + b.grad.tolist()]
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_special_points(name):
    fn, *specs = SPECIAL[name]
    check_grads(fn, *specs, gradcheck=False)


# in-place variants on a non-leaf: history is the op's (with what it saved taken before
# the write); x leaf, w other operand
def _inplace(method, *args, **kw):
    def fn(m, x, *ws):
        y = x * 1
        getattr(y, method)(*ws, *args, **kw)
        return y
    return fn


INPLACE = {
    "mul_": (_inplace("mul_"), X, Y),
    "div_": (_inplace("div_"), X, rand(3)),
    "sub_": (_inplace("sub_", alpha=2), X, Y),
    "pow_": (_inplace("pow_", 2.0), rand(2, 3)),
    "pow_tensor_": (_inplace("pow_"), rand(2, 3), Y),
    "relu_": (_inplace("relu_"), X),
    "sigmoid_": (_inplace("sigmoid_"), X),
    "sin_": (_inplace("sin_"), X),
    "tanh_": (_inplace("tanh_"), X),
    "abs_": (_inplace("abs_"), X),
    "clamp_": (_inplace("clamp_", -0.5, 0.5), X),
    "clip_": (_inplace("clip_", -0.5, 0.5), X),
    "lerp_": (_inplace("lerp_", 0.3), X, Y),
    "atan2_": (_inplace("atan2_"), X, Y),
    "remainder_": (_inplace("remainder_"), X, rand(3, low=0.7)),
    "fmod_": (_inplace("fmod_", 0.7), X),
    "square_": (_inplace("square_"), X),
    "frac_": (_inplace("frac_"), X),
    "round_": (_inplace("round_"), X),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace(name):
    fn, *specs = INPLACE[name]
    check_grads(fn, *specs)


def test_inplace_on_view():
    # a view modified in place: its base's history goes through the op
    def fn(m, x, w):
        y = x * 1
        y[0].mul_(w)
        y[:, 1].sigmoid_()
        return y
    check_grads(fn, X, Y)


def test_silu_inplace():
    def fn(m, x):
        y = x * 1
        if m is torch:
            torch.nn.functional.silu(y, inplace=True)
        else:
            y.silu_()
        return y
    check_grads(fn, X)


def test_inplace_saved_self_modified_later():
    """mul_ saved its operands; changing one afterwards makes backward an error (torch too)."""
    for m in (mindtorch, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        w = m.tensor([3.0, 4.0], requires_grad=True)
        y = x * 1
        z = y * w
        y.mul_(2)
        with pytest.raises(RuntimeError):
            m.autograd.grad(z, [x], m.ones(2))


NAMES = {
    "mul": lambda m, x, y: x * y, "mul_scalar": lambda m, x, y: x * 2,
    "add": lambda m, x, y: x + y, "sub": lambda m, x, y: x - y, "rsub": lambda m, x, y: 2 - x,
    "neg": lambda m, x, y: -x, "div": lambda m, x, y: x / y,
    "true_divide": lambda m, x, y: m.true_divide(x, y),
    "pow": lambda m, x, y: x ** 2, "square": lambda m, x, y: m.square(x),
    "exp2": lambda m, x, y: m.exp2(x), "rsqrt": lambda m, x, y: m.rsqrt(x),
    "frac": lambda m, x, y: m.frac(x), "log1p": lambda m, x, y: m.log1p(x),
    "expm1": lambda m, x, y: m.expm1(x), "log10": lambda m, x, y: m.log10(x),
    "clamp": lambda m, x, y: x.clamp(0, 1), "clip": lambda m, x, y: m.clip(x, 0, 1),
    "silu": lambda m, x, y: nn_fn(m, "silu")(x), "gelu": lambda m, x, y: nn_fn(m, "gelu")(x),
    "lerp": lambda m, x, y: m.lerp(x, y, 0.3), "relu": lambda m, x, y: m.relu(x),
    "sigmoid": lambda m, x, y: m.sigmoid(x), "abs": lambda m, x, y: m.absolute(x),
    "atan2": lambda m, x, y: m.arctan2(x, y), "maximum": lambda m, x, y: m.maximum(x, y),
    "fmax": lambda m, x, y: m.fmax(x, y), "where": lambda m, x, y: m.where(x > 0, x, y),
    "addcmul": lambda m, x, y: m.addcmul(x, x, y), "addcdiv": lambda m, x, y: m.addcdiv(x, x, y),
    "deg2rad": lambda m, x, y: m.deg2rad(x), "nan_to_num": lambda m, x, y: m.nan_to_num(x),
    "diff": lambda m, x, y: m.diff(x), "sign": lambda m, x, y: m.sign(x),
    "round": lambda m, x, y: m.round(x), "remainder": lambda m, x, y: x % 2,
    "fmod": lambda m, x, y: m.fmod(x, 2), "erf": lambda m, x, y: m.erf(x),
    "floor_divide": lambda m, x, y: x // y,
    "mul_": lambda m, x, y: (x * 1).mul_(y), "relu_": lambda m, x, y: (x * 1).relu_(),
    "sigmoid_": lambda m, x, y: (x * 1).sigmoid_(), "add_": lambda m, x, y: (x * 1).add_(y),
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_grad_fn_names(name):
    names = []
    for m in (mindtorch, torch):
        x = m.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = m.tensor([1.5, 2.0, -0.5], requires_grad=True)
        names.append(NAMES[name](m, x, y).grad_fn.name())
    assert names[0] == names[1]


def test_positive_is_input():
    x = mindtorch.tensor([1.0], requires_grad=True)
    assert mindtorch.positive(x) is x and +x is x


@pytest.mark.parametrize("fn", [
    lambda m, x, y: x // y,
    lambda m, x, y: m.floor_divide(x, 2.0),
    lambda m, x, y: m.remainder(2.0, y),
])
def test_not_implemented_backward(fn):
    # PyTorch records these but has no derivative: backward raises RuntimeError
    def run(m):
        x = m.tensor([2.5, -1.0], requires_grad=True)
        y = m.tensor([1.5, 0.75], requires_grad=True)
        r = fn(m, x, y)
        assert r.requires_grad
        m.autograd.grad(r, [x, y], m.ones(2), allow_unused=True)
    same_error(lambda: run(mindtorch), lambda: run(torch))


def test_bitwise_nondifferentiable():
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                 "bitwise_right_shift", "bitwise_not"):
        assert not mindtorch._ops.OPS[name].differentiable


def test_integer_operand_gets_no_grad():
    # grads flow only to the float operand; int tensor operands and results never require
    x = mindtorch.tensor([1.5, 2.0], requires_grad=True)
    k = mindtorch.tensor([2, 3])
    r = x ** k
    (g,) = mindtorch.autograd.grad(r, [x], mindtorch.ones(2))
    tx = torch.tensor([1.5, 2.0], requires_grad=True)
    (tg,) = torch.autograd.grad(tx ** torch.tensor([2, 3]), [tx], torch.ones(2))
    assert_same(g, tg)
    assert not (k * 2).requires_grad


def test_pow_int_base_tensor_exponent():
    # the exponent's gradient uses log of the base promoted to the result dtype
    check_grads(lambda m, b, e: m.pow(b, e), const([2, 3, 0]), np.array([0.5, 1.5, 2.0]))


GRADGRAD = {
    "mul": (binary("mul"), X, Y),
    "div": (binary("div"), X, rand(3)),
    "pow": (binary("pow"), rand(2, 3), randn(3)),
    "pow_scalar": (lambda m, x: x ** 3, randn(2, 3)),
    "pow_rscalar": (lambda m, x: 2.0 ** x, randn(3)),
    "sigmoid": (unary("sigmoid"), X),
    "tanh": (unary("tanh"), X),
    "tan": (unary("tan"), X * 0.5),
    "gelu": (lambda m, x: nn_fn(m, "gelu")(x), X),
    "gelu_tanh": (lambda m, x: nn_fn(m, "gelu")(x, approximate="tanh"), X),
    "silu": (lambda m, x: nn_fn(m, "silu")(x), X),
    "erf": (unary("erf"), X),
    "acos": (unary("acos"), UNIT),
    "log": (unary("log"), POS),
    "sqrt": (unary("sqrt"), POS),
    "rsqrt": (unary("rsqrt"), POS),
    "reciprocal": (unary("reciprocal"), POS),
    "abs": (unary("abs"), X),
    "atan2": (binary("atan2"), X, Y),
    "lerp": (lambda m, a, b, w: m.lerp(a, b, w), X, Y, rand(2, 3)),
    "where": (lambda m, c, x, y: m.where(c, x, y), const(X > 0), X, Y),
    "clamp": (lambda m, x, lo: m.clamp(x, min=lo), X, Y),
    "maximum": (binary("maximum"), X, Y),
    "addcdiv": (lambda m, a, b, c: m.addcdiv(a, b, c, value=2), X, Y, rand(2, 1)),
    "silu_inplace": (lambda m, x: (x * 1).sigmoid_() * x, X),
}


@pytest.mark.parametrize("name", sorted(GRADGRAD))
def test_gradgrad(name):
    fn, *specs = GRADGRAD[name]
    check_gradgrad(fn, *specs)


# complex inputs: PyTorch's formulas conjugate (grad * conj(other), ...)
CA = randn(4) + 1j * randn(4)
CB = randn(4) + 1j * randn(4)
COMPLEX = {
    "mul": lambda m, x, y: x * y, "div": lambda m, x, y: x / y, "abs": lambda m, x, y: x.abs(),
    "pow": lambda m, x, y: x ** y, "pow_scalar": lambda m, x, y: x ** 2,
    "add_alpha": lambda m, x, y: m.add(x, y, alpha=2j), "sigmoid": lambda m, x, y: x.sigmoid(),
    "log": lambda m, x, y: x.log(), "sqrt": lambda m, x, y: x.sqrt(),
    "acos": lambda m, x, y: x.acos(), "conj_physical": lambda m, x, y: m.conj_physical(x),
    "lerp": lambda m, x, y: m.lerp(x, y, 0.3), "addcmul": lambda m, x, y: m.addcmul(x, x, y),
}


@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex(name):
    grads = []
    for m in (mindtorch, torch):
        x, y = m.tensor(CA, requires_grad=True), m.tensor(CB, requires_grad=True)
        r = COMPLEX[name](m, x, y)
        go = m.tensor(np.full(4, 0.5 - 0.25j)) if r.dtype.is_complex else m.ones(4).double()
        grads.append(m.autograd.grad(r, [x, y], go, allow_unused=True))
    for mg, tg in zip(*grads):
        assert (mg is None) == (tg is None)
        if tg is not None:
            assert_same(mg, tg)


# -- special functions and the remaining pointwise math (_ops/decls/special.py) ------------

def special(name, *args, **kw):
    return lambda m, x: getattr(m.special, name)(x, *args, **kw)


OPEN_UNIT = rand(2, 3, low=0.1, high=0.9)
ABOVE_ONE = rand(2, 3, low=1.2, high=3.0)
SPECIAL_UNARY = {
    **{name: (unary(name), randn(2, 3)) for name in (
        "erfc", "i0", "sinc", "asinh", "sgn", "angle", "fix", "arcsinh", "arctan")},
    **{name: (unary(name), POS + 0.5) for name in ("lgamma", "digamma")},
    **{name: (unary(name), UNIT) for name in ("erfinv", "atanh", "arctanh", "arcsin",
                                              "arccos")},
    "acosh": (unary("acosh"), ABOVE_ONE), "arccosh": (unary("arccosh"), ABOVE_ONE),
    "logit": (unary("logit"), OPEN_UNIT),
    "logit_eps": (lambda m, x: m.logit(x, eps=0.2), OPEN_UNIT),
    "polygamma": (lambda m, x: m.polygamma(1, x), POS + 0.5),
    "polygamma_2": (lambda m, x: m.special.polygamma(2, x), POS + 0.5),
    "polygamma_method": (lambda m, x: x.polygamma(0), POS + 0.5),
    "mvlgamma": (lambda m, x: m.mvlgamma(x, 3), ABOVE_ONE + 1),
    "multigammaln": (lambda m, x: m.special.multigammaln(x, 2), ABOVE_ONE),
    "nan_to_num": (lambda m, x: m.nan_to_num(x, nan=1.0), randn(2, 3)),
    "clamp_min": (lambda m, x: m.clamp_min(x, 0.1), randn(2, 3)),
    "clamp_max": (lambda m, x: x.clamp_max(0.1), randn(2, 3)),
    **{name: (special(name.removeprefix("special_")), randn(2, 3)) for name in (
        "special_erfcx", "special_i0e", "special_i1", "special_i1e", "special_log_ndtr",
        "special_ndtr", "special_expit", "special_erf", "special_erfc", "special_sinc",
        "special_i0", "special_expm1", "special_exp2", "special_round")},
    **{name: (special(name.removeprefix("special_")), POS + 0.5) for name in (
        "special_entr", "special_psi", "special_digamma", "special_gammaln", "special_log1p")},
    "special_ndtri": (special("ndtri"), OPEN_UNIT),
    "special_logit": (special("logit"), OPEN_UNIT),
    "special_erfinv": (special("erfinv"), UNIT),
    "special_softmax": (special("softmax", -1), randn(2, 3)),
    "special_log_softmax": (special("log_softmax", 0), randn(2, 3)),
    "special_logsumexp": (special("logsumexp", -1), randn(2, 3)),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_UNARY))
def test_special_unary(name):
    fn, x = SPECIAL_UNARY[name]
    check_grads(fn, x)
    check_grads(fn, nc(x[0]))
    if "softmax" not in name and "logsumexp" not in name:
        check_grads(fn, np.array(x[0, 0]))
    check_grads(fn, x[:0])


@pytest.mark.parametrize("name", ["erfc", "lgamma", "logit", "special_i1", "special_erfcx"])
def test_special_float32(name):
    fn, x = SPECIAL_UNARY[name]
    check_grads(fn, x, dtype="float32")


def test_i1_at_zero():
    # PyTorch's i1/i1e gradient at 0 is 0.5 (its formula would give nan there)
    for name in ("i1", "i1e"):
        check_grads(special(name), np.array([0.0, 1e-20, 0.5]), gradcheck=False)


SPECIAL_BINARY = {
    "xlogy": (binary("xlogy"), X, POS[0]),
    "xlogy_scalar_self": (lambda m, y: m.xlogy(2.0, y), POS),
    "xlogy_scalar_other": (lambda m, x: m.xlogy(x, 3.0), X),
    "special_xlogy": (lambda m, x, y: m.special.xlogy(x, y), X, POS[0]),
    "special_xlog1py": (lambda m, x, y: m.special.xlog1py(x, y), X, POS[0]),
    "special_xlog1py_scalar": (lambda m, x: m.special.xlog1py(x, 0.5), X),
    "special_zeta": (lambda m, x, q: m.special.zeta(x, q), const(ABOVE_ONE + 1), POS[0]),
    "special_zeta_scalar": (lambda m, q: m.special.zeta(3.0, q), POS),
    "hypot": (binary("hypot"), X, Y),
    "copysign": (binary("copysign"), X, Y),
    "copysign_scalar": (lambda m, x: m.copysign(x, -1.0), X),
    "logaddexp": (binary("logaddexp"), X, Y),
    "logaddexp2": (binary("logaddexp2"), X, nc(Y)),
    "nextafter": (binary("nextafter"), X, Y),
    # (non-negative: PyTorch's gradient for an integer exponent < 0 is 0, from an integer
    # 2 ** e; mindtorch's is 2.0 ** e)
    "ldexp": (lambda m, x, e: m.ldexp(x, e), X, const([1, 0, 3])),
    "ldexp_float": (binary("ldexp"), X, Y),
    "float_power": (lambda m, x, y: m.float_power(x, y), POS, Y),
    "float_power_scalar": (lambda m, x: m.float_power(x, 2), X),
    "float_power_scalar_self": (lambda m, y: m.float_power(2, y), Y),
    "igamma": (lambda m, a, x: m.igamma(a, x), const(POS + 0.5), POS),
    "igammac": (lambda m, a, x: m.igammac(a, x), const(POS + 0.5), nc(POS[0])),
    "special_gammainc": (lambda m, a, x: m.special.gammainc(a, x), const(POS + 1), POS),
    "special_gammaincc": (lambda m, a, x: m.special.gammaincc(a, x), const(POS + 1), POS),
    "clamp_min_tensor": (lambda m, x, lo: m.clamp_min(x, lo), X, Y),
    "clamp_max_tensor": (lambda m, x, hi: m.clamp_max(x, hi), X, nc(Y)),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_BINARY))
def test_special_binary(name):
    fn, *specs = SPECIAL_BINARY[name]
    check_grads(fn, *specs)


@pytest.mark.parametrize("name", ["xlogy", "hypot", "logaddexp", "copysign", "ldexp"])
def test_special_binary_0dim_and_empty(name):
    fn, *specs = SPECIAL_BINARY[name]
    check_grads(fn, *[_first(s) for s in specs])
    check_grads(fn, *[s[:0] if isinstance(s, np.ndarray) and s.ndim == 2 else s
                      for s in specs])


def test_xlogy_at_zero():
    # PyTorch's choice at x == 0, y <= 0: gradient 0 (not nan)
    check_grads(binary("xlogy"), np.array([0.0, 0.0, 1.0]), np.array([0.0, -1.0, 2.0]),
                gradcheck=False)
    check_grads(lambda m, x: m.xlogy(x, 0.0), np.array([0.0, 1.0]), gradcheck=False)


SPECIAL_INPLACE = {
    **{name: (_inplace(name), x) for name, x in (
        ("erfc_", X), ("erfinv_", UNIT), ("lgamma_", POS + 0.5), ("digamma_", POS + 0.5),
        ("i0_", X), ("sinc_", X), ("logit_", OPEN_UNIT), ("sgn_", X), ("nan_to_num_", X))},
    "polygamma_": (_inplace("polygamma_", 2), POS + 0.5),
    "arcsin_": (_inplace("arcsin_"), UNIT), "arccos_": (_inplace("arccos_"), UNIT),
    "arctan_": (_inplace("arctan_"), X), "fix_": (_inplace("fix_"), X),
    "mvlgamma_": (_inplace("mvlgamma_", 2), ABOVE_ONE),
    "clamp_min_": (_inplace("clamp_min_", 0.1), X),
    "clamp_max_": (_inplace("clamp_max_"), X, Y),
    "addcmul_": (_inplace("addcmul_", value=0.5), X, Y, randn(2, 1)),
    "addcdiv_": (_inplace("addcdiv_"), X, Y, rand(3)),
    **{name: (_inplace(name), X, Y) for name in ("hypot_", "copysign_", "nextafter_",
                                                 "ldexp_")},
    "xlogy_": (_inplace("xlogy_"), X, POS[0]),
    "igamma_": (lambda m, x: (x.detach() * 0 + 1.5).igamma_(x), POS),
    "igammac_": (lambda m, x: (x.detach() * 0 + 1.5).igammac_(x), POS),
    "float_power_": (_inplace("float_power_", 2.5), POS),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_INPLACE))
def test_special_inplace(name):
    fn, *specs = SPECIAL_INPLACE[name]
    check_grads(fn, *specs)


@pytest.mark.parametrize("name", ["asinh_", "acosh_", "atanh_", "arcsinh_", "arccosh_",
                                  "arctanh_", "heaviside_", "heaviside", "special_zeta",
                                  "igamma", "igammac"])
def test_no_derivative_in_pytorch(name):
    # PyTorch records these but raises on backward (NotImplementedError or RuntimeError)
    def run(m):
        x = m.tensor([1.5, 2.5], requires_grad=True, dtype=m.float64)
        w = m.tensor([0.5, 1.0], dtype=m.float64)
        if name == "special_zeta":
            r = m.special.zeta(x, w)
        elif name.startswith("igamma"):
            r = getattr(m, name)(x, w)
        elif name.startswith("heaviside"):
            r = getattr(x * 1, name)(w)
        else:
            r = getattr(x * 1, name)()
        m.autograd.grad(r.sum(), [x])
    same_error(lambda: run(mindtorch), lambda: run(torch))


def test_float_power_inplace_needs_double():
    same_error(lambda: mindtorch.ones(2).float_power_(2),
               lambda: torch.ones(2).float_power_(2))


SPECIAL_NAMES = {
    "erfc": lambda m, x, y: m.erfc(x), "erfinv": lambda m, x, y: m.erfinv(x * 0.1),
    "lgamma": lambda m, x, y: m.special.gammaln(x), "digamma": lambda m, x, y: m.special.psi(x),
    "polygamma": lambda m, x, y: m.polygamma(2, x), "mvlgamma": lambda m, x, y: m.mvlgamma(x + 3, 2),
    "i0": lambda m, x, y: m.i0(x), "sinc": lambda m, x, y: m.sinc(x),
    "angle": lambda m, x, y: m.angle(x), "sgn": lambda m, x, y: m.sgn(x),
    "asinh": lambda m, x, y: m.arcsinh(x), "logit": lambda m, x, y: m.logit(x * 0.1 + 0.5),
    "expit": lambda m, x, y: m.special.expit(x), "i0e": lambda m, x, y: m.special.i0e(x),
    "i1": lambda m, x, y: m.special.i1(x), "i1e": lambda m, x, y: m.special.i1e(x),
    "erfcx": lambda m, x, y: m.special.erfcx(x), "entr": lambda m, x, y: m.special.entr(x),
    "ndtri": lambda m, x, y: m.special.ndtri(x * 0.1 + 0.5),
    "log_ndtr": lambda m, x, y: m.special.log_ndtr(x), "ndtr": lambda m, x, y: m.special.ndtr(x),
    "special_round": lambda m, x, y: m.special.round(x),
    "xlogy": lambda m, x, y: m.xlogy(x, y), "xlogy_1": lambda m, x, y: m.xlogy(2.0, y),
    "xlogy_2": lambda m, x, y: m.xlogy(x, 2.0),
    "xlog1py": lambda m, x, y: m.special.xlog1py(x, y),
    "xlog1py_2": lambda m, x, y: m.special.xlog1py(x, 2.0),
    "zeta": lambda m, x, y: m.special.zeta(x + 3, y), "zeta_1": lambda m, x, y: m.special.zeta(3, y),
    "hypot": lambda m, x, y: m.hypot(x, y), "copysign": lambda m, x, y: m.copysign(x, y),
    "copysign_1": lambda m, x, y: m.copysign(x, -2.0),
    "logaddexp": lambda m, x, y: m.logaddexp(x, y),
    "logaddexp2": lambda m, x, y: m.logaddexp2(x, y),
    "heaviside": lambda m, x, y: m.heaviside(x, y),
    "nextafter": lambda m, x, y: m.nextafter(x, y), "ldexp": lambda m, x, y: m.ldexp(x, y),
    "ldexp_": lambda m, x, y: (x * 1).ldexp_(y),
    "float_power": lambda m, x, y: m.float_power(x, y),
    "float_power_1": lambda m, x, y: m.float_power(x, 2),
    "float_power_2": lambda m, x, y: m.float_power(2, y),
    "clamp_min": lambda m, x, y: m.clamp_min(x, 0.0),
    "igamma": lambda m, x, y: m.special.gammainc(y, y), "igammac": lambda m, x, y: m.igammac(y, y),
    "clamp_min_tensor": lambda m, x, y: m.clamp_min(x, y),
    "clamp_max_tensor": lambda m, x, y: m.clamp_max(x, y),
    "addcmul_": lambda m, x, y: (x * 1).addcmul_(x, y), "fix": lambda m, x, y: m.fix(x),
    "asinh_": lambda m, x, y: (x * 1).asinh_(),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_NAMES))
def test_special_grad_fn_names(name):
    names = []
    for m in (mindtorch, torch):
        x = m.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = m.tensor([1.5, 2.0, 0.5], requires_grad=True)
        names.append(SPECIAL_NAMES[name](m, x, y).grad_fn.name())
    assert names[0] == names[1]


SPECIAL_GRADGRAD = {
    "erfc": (unary("erfc"), X), "erfinv": (unary("erfinv"), UNIT),
    "lgamma": (unary("lgamma"), POS + 0.5), "digamma": (unary("digamma"), POS + 0.5),
    "logit": (unary("logit"), OPEN_UNIT), "sinc": (unary("sinc"), X),
    "asinh": (unary("asinh"), X), "i0": (unary("i0"), X),
    "special_i1": (special("i1"), X), "special_i0e": (special("i0e"), X),
    "special_log_ndtr": (special("log_ndtr"), X), "special_ndtri": (special("ndtri"), OPEN_UNIT),
    "mvlgamma": (lambda m, x: m.mvlgamma(x, 2), ABOVE_ONE),
    "xlogy": (binary("xlogy"), X, POS[0]), "hypot": (binary("hypot"), X, Y),
    "logaddexp": (binary("logaddexp"), X, Y), "logaddexp2": (binary("logaddexp2"), X, Y),
    "copysign": (binary("copysign"), X, Y), "ldexp": (binary("ldexp"), X, Y),
    "special_xlog1py": (lambda m, x, y: m.special.xlog1py(x, y), X, POS[0]),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_GRADGRAD))
def test_special_gradgrad(name):
    fn, *specs = SPECIAL_GRADGRAD[name]
    check_gradgrad(fn, *specs)


SPECIAL_COMPLEX = {
    "sgn": lambda m, x, y: x.sgn(), "angle": lambda m, x, y: x.angle(),
    "sinc": lambda m, x, y: x.sinc(), "asinh": lambda m, x, y: x.asinh(),
    "acosh": lambda m, x, y: x.acosh(), "atanh": lambda m, x, y: x.atanh(),
    "logaddexp": lambda m, x, y: m.logaddexp(x, y),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_COMPLEX))
def test_special_complex(name):
    COMPLEX[name] = SPECIAL_COMPLEX[name]
    test_complex(name)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("op", ["sigmoid", "tanh"])
def test_16bit_sigmoid_tanh_gradients_round_as_torch(op, dtype):
    """PyTorch's backward kernels: sigmoid's grad * (1 - y) * y left to right (bfloat16 in
    float32, float16 in float16), tanh's in float32; each rounded once, so bf16 autocast
    training follows PyTorch's."""
    g = torch.Generator().manual_seed(0)
    x, gy = torch.randn(4096, generator=g), torch.randn(4096, generator=g)
    grads = []
    for lib, xs, gs in ((torch, x, gy), (mindtorch, mindtorch.tensor(x.numpy()),
                                         mindtorch.tensor(gy.numpy()))):
        t = xs.to(getattr(lib, dtype)).requires_grad_()
        getattr(lib, op)(t).backward(gs.to(getattr(lib, dtype)))
        grads.append(t.grad.float().tolist())
    assert grads[0] == grads[1]
