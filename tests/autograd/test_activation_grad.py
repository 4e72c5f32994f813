"""Gradients of the activation functions (formulas in _ops/decls/activation.py and the F
compositions), against PyTorch, gradcheck and the meta device."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, nc, rand, randn
from reference import assert_same, same_error


def F(m):
    return m.nn.functional


def fn(name, *args, **kw):
    return lambda m, x: getattr(F(m), name)(x, *args, **kw)


X = randn(2, 3) * 2
# values away from each op's kinks (gradcheck's finite differences must not cross them)
AWAY = np.array([[-2.5, -0.7, 0.4], [0.9, 1.6, -1.3]])

# op name (as the registry knows it) -> (fn, input)
UNARY = {
    "functional_relu": (fn("relu"), AWAY),
    "functional_relu6": (fn("relu6"), AWAY * 4),
    "elu": (fn("elu"), X),
    "elu_alpha": (fn("elu", alpha=0.5), X),
    "selu": (fn("selu"), X),
    "celu": (fn("celu", alpha=1.5), X),
    "leaky_relu": (fn("leaky_relu", 0.2), AWAY),
    "hardtanh": (fn("hardtanh", -0.5, 1.0), AWAY),
    "hardsigmoid": (fn("hardsigmoid"), AWAY * 2.5),
    "hardswish": (fn("hardswish"), AWAY * 2.5),
    "functional_silu": (fn("silu"), X),
    "mish": (fn("mish"), X),
    "gelu": (fn("gelu"), X),
    "gelu_tanh": (fn("gelu", approximate="tanh"), X),
    "log_sigmoid": (fn("logsigmoid"), X),
    "softplus": (fn("softplus"), X),
    "softplus_beta": (fn("softplus", beta=2, threshold=3), X),
    "functional_softsign": (fn("softsign"), X),
    "functional_tanhshrink": (fn("tanhshrink"), X),
    "hardshrink": (fn("hardshrink", 0.5), AWAY),
    "softshrink": (fn("softshrink", 0.5), AWAY),
    "threshold": (fn("threshold", 0.5, -2.0), AWAY),
    "rrelu": (fn("rrelu", 0.1, 0.3), AWAY),            # eval: fixed slope
    "sigmoid": (fn("sigmoid"), X),
    "tanh": (fn("tanh"), X),
    "functional_softmax": (fn("softmax", -1), X),
    "functional_log_softmax": (fn("log_softmax", 0), X),
    "functional_softmin": (fn("softmin", -1), X),
    "softmax_dtype": (None, X),
}



@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    f, x = UNARY[name]
    if name == "softmax_dtype":  # dtype= names each library's own dtype
        f = lambda m, x: F(m).softmax(x, -1, dtype=m.float64)  # noqa: E731
    check_grads(f, x)
    check_grads(f, nc(x[0]))
    if "softm" not in name:
        check_grads(f, np.array(x[0, 0]))
    check_grads(f, x[:0])


@pytest.mark.parametrize("name", ["elu", "gelu", "mish", "softplus", "log_sigmoid",
                                  "functional_softmax"])
def test_float32(name):
    f, x = UNARY[name]
    check_grads(f, x, dtype="float32")


def test_glu():
    check_grads(lambda m, x: F(m).glu(x), randn(3, 4))
    check_grads(lambda m, x: F(m).glu(x, 0), nc(randn(2, 3)))
    check_grads(lambda m, x: F(m).glu(x, -1), randn(2, 0, 4))


def test_prelu():
    check_grads(lambda m, x, w: F(m).prelu(x, w), randn(2, 3, 4), rand(3))
    check_grads(lambda m, x, w: m.prelu(x, w), nc(randn(3, 4)), rand(1))
    check_grads(lambda m, x, w: x.prelu(w), randn(4), rand(1))
    check_grads(lambda m, x, w: F(m).prelu(x, w), np.array(-0.5), np.array(0.3))


def test_rrelu_training():
    # lower == upper: the random slope is known, so the gradient can be compared
    check_grads(lambda m, x: F(m).rrelu(x, 0.2, 0.2, training=True), AWAY, gradcheck=False)
    check_grads(lambda m, x: m.rrelu(x, 0.25, 0.25, True), AWAY, gradcheck=False)
    # a random slope: the gradient is the slope each element drew (result / x)
    x = mindtorch.tensor(AWAY, requires_grad=True)
    y = F(mindtorch).rrelu(x, 0.1, 0.3, training=True)
    (g,) = mindtorch.autograd.grad(y.sum(), [x])
    assert np.allclose(g.numpy(), (y / x).detach().numpy())
    neg = g.numpy()[AWAY < 0]
    assert ((neg >= 0.1) & (neg <= 0.3)).all() and (g.numpy()[AWAY > 0] == 1).all()


# in-place variants on a non-leaf: F.<name>(..., inplace=True), F.<name>_ and torch.<name>_
def _inplace(call):
    def f(m, x):
        y = x * 1
        out = call(m, y)
        assert out is y
        return y
    return f


INPLACE = {
    "functional_relu": lambda m, y: F(m).relu(y, inplace=True),
    "relu_": lambda m, y: m.relu_(y),
    "functional_elu": lambda m, y: F(m).elu(y, 0.7, inplace=True),
    "elu_": lambda m, y: F(m).elu_(y),
    "selu_": lambda m, y: m.selu_(y),
    "functional_selu": lambda m, y: F(m).selu(y, inplace=True),
    "celu_": lambda m, y: m.celu_(y, 1.5),
    "functional_celu": lambda m, y: F(m).celu(y, inplace=True),
    "leaky_relu_": lambda m, y: F(m).leaky_relu_(y, 0.1),
    "functional_leaky_relu": lambda m, y: F(m).leaky_relu(y, inplace=True),
    "hardtanh_": lambda m, y: F(m).hardtanh_(y),
    "functional_hardtanh": lambda m, y: F(m).hardtanh(y, inplace=True),
    "functional_relu6": lambda m, y: F(m).relu6(y, inplace=True),
    "hardsigmoid_": lambda m, y: F(m).hardsigmoid(y, inplace=True),
    "functional_hardsigmoid": lambda m, y: F(m).hardsigmoid(y, True),
    "hardswish_": lambda m, y: F(m).hardswish(y, inplace=True),
    "functional_hardswish": lambda m, y: F(m).hardswish(y, True),
    "mish_": lambda m, y: F(m).mish(y, inplace=True),
    "functional_mish": lambda m, y: F(m).mish(y, True),
    "silu_": lambda m, y: F(m).silu(y, inplace=True),
    "gelu_": lambda m, y: y.gelu_() if m is mindtorch else
    y.copy_(torch.nn.functional.gelu(y.clone())),
    "threshold_": lambda m, y: m.threshold_(y, 0.5, -2.0),
    "functional_threshold": lambda m, y: F(m).threshold(y, 0.5, -2.0, inplace=True),
    "rrelu_": lambda m, y: m.rrelu_(y, 0.1, 0.3),
    "functional_rrelu": lambda m, y: F(m).rrelu(y, 0.1, 0.3, inplace=True),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace(name):
    check_grads(_inplace(INPLACE[name]), AWAY)


NAMES = {
    "relu": lambda m, x: F(m).relu(x), "relu6": lambda m, x: F(m).relu6(x),
    "elu": lambda m, x: F(m).elu(x), "selu": lambda m, x: F(m).selu(x),
    "celu": lambda m, x: F(m).celu(x), "leaky_relu": lambda m, x: F(m).leaky_relu(x),
    "prelu": lambda m, x: F(m).prelu(x, m.tensor([0.2])),
    "rrelu": lambda m, x: F(m).rrelu(x), "rrelu_training": lambda m, x: F(m).rrelu(x, training=True),
    "hardtanh": lambda m, x: F(m).hardtanh(x), "hardsigmoid": lambda m, x: F(m).hardsigmoid(x),
    "hardswish": lambda m, x: F(m).hardswish(x), "silu": lambda m, x: F(m).silu(x),
    "mish": lambda m, x: F(m).mish(x), "gelu": lambda m, x: F(m).gelu(x),
    "logsigmoid": lambda m, x: F(m).logsigmoid(x), "softplus": lambda m, x: F(m).softplus(x),
    "softsign": lambda m, x: F(m).softsign(x), "tanhshrink": lambda m, x: F(m).tanhshrink(x),
    "hardshrink": lambda m, x: F(m).hardshrink(x), "softshrink": lambda m, x: F(m).softshrink(x),
    "threshold": lambda m, x: F(m).threshold(x, 0.1, 2.0), "glu": lambda m, x: F(m).glu(x, 0),
    "softmax": lambda m, x: F(m).softmax(x, 0), "log_softmax": lambda m, x: F(m).log_softmax(x, 0),
    "softmin": lambda m, x: F(m).softmin(x, 0),
    # in place: PyTorch numbers the nodes of formulas written with the result
    "elu_": lambda m, x: F(m).elu(x * 1, inplace=True),
    "selu_": lambda m, x: F(m).selu(x * 1, inplace=True),
    "celu_": lambda m, x: F(m).celu(x * 1, inplace=True),
    "leaky_relu_": lambda m, x: F(m).leaky_relu(x * 1, inplace=True),
    "threshold_": lambda m, x: F(m).threshold(x * 1, 0.1, 2.0, inplace=True),
    "relu_": lambda m, x: F(m).relu(x * 1, inplace=True),
    "hardtanh_": lambda m, x: F(m).hardtanh(x * 1, inplace=True),
    "hardswish_": lambda m, x: F(m).hardswish(x * 1, inplace=True),
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_grad_fn_names(name):
    names = []
    for m in (mindtorch, torch):
        x = m.tensor([0.5, -1.0, 2.0, -0.2], requires_grad=True)
        names.append(NAMES[name](m, x).grad_fn.name())
    assert names[0] == names[1]


GRADGRAD = {
    "elu": (fn("elu"), X), "celu": (fn("celu", alpha=0.7), X), "selu": (fn("selu"), X),
    "softplus": (fn("softplus"), X), "mish": (fn("mish"), X), "gelu": (fn("gelu"), X),
    "log_sigmoid": (fn("logsigmoid"), X), "leaky_relu": (fn("leaky_relu", 0.2), AWAY),
    "hardswish": (fn("hardswish"), AWAY * 2.5), "softsign": (fn("softsign"), X),
    "glu": (lambda m, x: F(m).glu(x, 0), randn(4, 3)),
    "prelu": (lambda m, x, w: F(m).prelu(x, w), randn(2, 3), rand(3)),
    "softmin": (fn("softmin", 1), X),
}


@pytest.mark.parametrize("name", sorted(GRADGRAD))
def test_gradgrad(name):
    f, *specs = GRADGRAD[name]
    check_gradgrad(f, *specs)


def test_inplace_leaky_relu_negative_slope_backward_refused():
    def run(m):
        x = m.tensor([1.0, -2.0], requires_grad=True)
        y = x * 1
        F(m).leaky_relu_(y, -0.5)
        y.sum().backward()
    same_error(lambda: run(mindtorch), lambda: run(torch))


def test_rrelu_with_noise_op():
    # the op rrelu records draws the slopes into noise (1 where x > 0), as PyTorch's; the
    # gradient is the noise drawn
    x = mindtorch.tensor([-1.0, 2.0], dtype=mindtorch.float64, requires_grad=True)
    noise = mindtorch.tensor([0.25, 7.0], dtype=mindtorch.float64)
    y = mindtorch._ops.OPS["rrelu_with_noise"].call(x, noise, 0.1, 0.3, True, None)
    (g,) = mindtorch.autograd.grad(y.sum(), [x])
    slope = noise[0].item()
    assert 0.1 <= slope <= 0.3 and noise[1].item() == 1.0
    assert y.tolist() == [-slope, 2.0] and g.tolist() == [slope, 1.0]
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"


def test_rrelu_with_noise_functional_op():
    # the functional form returns the drawn noise (noise_out) and leaves `noise` alone; its
    # gradient is the slope used: (lower + upper) / 2 in evaluation, the drawn noise in
    # training (compared with PyTorch's aten op in evaluation, where nothing is random)
    def run(m, training):
        x = m.tensor([-1.0, 2.0, -0.5], dtype=m.float64, requires_grad=True)
        noise = m.ones(3, dtype=m.float64)
        op = (m._ops.OPS["_rrelu_with_noise_functional"].call if m is mindtorch else
              torch.ops.aten.rrelu_with_noise_functional)
        out, drawn = op(x, noise, 0.1, 0.3, training, None)
        (g,) = m.autograd.grad(out.sum(), [x])
        return out, drawn, g, noise
    out, drawn, g, _ = run(mindtorch, False)
    tout, tdrawn, tg, _ = run(torch, False)
    assert_same(out, tout)
    assert_same(g, tg)
    out, drawn, g, noise = run(mindtorch, True)
    assert noise.tolist() == [1.0, 1.0, 1.0]       # not written
    assert drawn[1].item() == 1.0 and all(0.1 <= drawn[i].item() <= 0.3 for i in (0, 2))
    assert g.tolist() == drawn.tolist()
    assert out.grad_fn.name() == "RreluWithNoiseBackward0"


@pytest.mark.parametrize("name", ["hardswish", "hardsigmoid", "hardtanh", "relu6", "relu",
                                  "leaky_relu", "elu", "hardshrink", "softshrink"])
def test_gradient_at_the_kinks_as_torch(name):
    """The one-sided choice ATen makes where the function has a kink (hardswish: 0 at -3,
    grad at 3)."""
    x = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0])
    grads = []
    for m in (mindtorch, torch):
        t = m.tensor(x, requires_grad=True)
        getattr(F(m), name)(t).sum().backward()
        grads.append(t.grad)
    assert_same(*grads)
