"""nn.Identity, Linear, Bilinear, Flatten, Unflatten against PyTorch."""
import math

import pytest

import mindtorch
import mindtorch.nn as mnn
from layers_helpers import (assert_same, assert_same_repr, check_module, inputs, pair_modules,
                            torch)

tnn = torch.nn


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(5, 7), (7,), (2, 3, 7), (0, 7)])
def test_linear_matches_torch(dtype, bias, shape):
    th, mt = pair_modules(tnn.Linear, mnn.Linear, 7, 4, bias=bias, dtype=dtype)
    check_module(th, mt, *inputs(shape, dtype=dtype), dtype=dtype)


def test_linear_noncontiguous_input():
    th, mt = pair_modules(tnn.Linear, mnn.Linear, 3, 4)
    check_module(th, mt, *inputs((2, 5, 3), noncontiguous=True))


def test_linear_attributes_and_repr():
    for args in [(3, 4), (3, 4, False), (0, 2)]:
        th, mt = tnn.Linear(*args), mnn.Linear(*args)
        assert_same_repr(mt, th)
        assert (mt.in_features, mt.out_features) == (th.in_features, th.out_features)
        assert tuple(mt.weight.shape) == tuple(th.weight.shape)
        assert (mt.bias is None) == (th.bias is None)
        assert [n for n, _ in mt.named_parameters()] == [n for n, _ in th.named_parameters()]
    assert isinstance(mt.weight, mnn.Parameter) and mt.weight.requires_grad


def test_linear_wrong_input_size():
    mt = mnn.Linear(3, 4)
    with pytest.raises(RuntimeError):
        mt(mindtorch.randn(2, 5))


def test_linear_default_init_distribution():
    # weight and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)): bounds and std of a big layer
    mindtorch.manual_seed(0)
    fan_in = 400
    m = mnn.Linear(fan_in, 500)
    bound = 1 / math.sqrt(fan_in)
    w = m.weight.detach()
    assert w.abs().max().item() <= bound and w.abs().max().item() > 0.99 * bound
    assert abs(w.std().item() - bound / math.sqrt(3)) < 0.01 * bound
    assert abs(w.mean().item()) < 0.01 * bound
    b = m.bias.detach()
    assert b.abs().max().item() <= bound and b.abs().max().item() > 0.9 * bound
    assert abs(b.std().item() - bound / math.sqrt(3)) < 0.1 * bound


def test_linear_init_is_seeded():
    mindtorch.manual_seed(3)
    a = mnn.Linear(4, 5)
    mindtorch.manual_seed(3)
    b = mnn.Linear(4, 5)
    assert mindtorch.equal(a.weight, b.weight) and mindtorch.equal(a.bias, b.bias)


def test_linear_zero_fan_in_bias_is_zero():
    m = mnn.Linear(0, 3)
    assert m.bias.abs().sum().item() == 0


@pytest.mark.parametrize("cls,args", [(mnn.Linear, (3, 4)), (mnn.Bilinear, (2, 3, 4))])
def test_factory_kwargs_and_meta(cls, args):
    m = cls(*args, dtype=mindtorch.float64)
    assert all(p.dtype is mindtorch.float64 for p in m.parameters())
    m = cls(*args, device="meta")
    assert all(p.device.type == "meta" for p in m.parameters())
    with mindtorch.device("meta"):
        m = cls(*args)
    assert all(p.device.type == "meta" for p in m.parameters())
    assert m.weight.shape == getattr(tnn, cls.__name__)(*args).weight.shape
    x = [mindtorch.empty(5, a, device="meta") for a in args[:-1]]
    out = m(*x)
    assert out.device.type == "meta" and tuple(out.shape) == (5, args[-1])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("bias", [True, False])
def test_bilinear_matches_torch(dtype, bias):
    th, mt = pair_modules(tnn.Bilinear, mnn.Bilinear, 3, 5, 4, bias=bias, dtype=dtype)
    check_module(th, mt, *inputs((6, 3), (6, 5), dtype=dtype), dtype=dtype)
    th, mt = pair_modules(tnn.Bilinear, mnn.Bilinear, 3, 5, 4, bias=bias, dtype=dtype)
    check_module(th, mt, *inputs((2, 6, 3), (2, 6, 5), dtype=dtype), dtype=dtype)


def test_bilinear_repr_init_and_errors():
    for args in [(2, 3, 4), (2, 3, 4, False)]:
        assert_same_repr(mnn.Bilinear(*args), tnn.Bilinear(*args))
    mindtorch.manual_seed(0)
    m = mnn.Bilinear(100, 30, 200)
    bound = 1 / math.sqrt(100)
    for t in (m.weight, m.bias):
        assert t.abs().max().item() <= bound and t.abs().max().item() > 0.95 * bound
    assert abs(m.weight.std().item() - bound / math.sqrt(3)) < 0.01 * bound
    with pytest.raises(ValueError, match="in1_features must be > 0"):
        mnn.Bilinear(0, 3, 4)
    with pytest.raises(RuntimeError):
        mnn.Bilinear(2, 3, 4)(mindtorch.randn(5, 2), mindtorch.randn(5, 4))


def test_identity():
    m = mnn.Identity(54, unused="argument", another=1)
    x = mindtorch.randn(2, 3)
    assert m(x) is x
    assert_same_repr(m, tnn.Identity(54))
    assert list(m.parameters()) == []


@pytest.mark.parametrize("args,shape", [((), (2, 3, 4, 5)), ((0, -1), (2, 3, 4)),
                                        ((1, 2), (2, 3, 4, 5)), ((-3, -2), (2, 3, 4, 5)),
                                        ((0,), (2,)), ((0,), ())])
def test_flatten(args, shape):
    mt, th = mnn.Flatten(*args), tnn.Flatten(*args)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs(shape))


def test_flatten_noncontiguous_and_errors():
    check_module(tnn.Flatten(), mnn.Flatten(), *inputs((2, 3, 4), noncontiguous=True))
    with pytest.raises(IndexError):
        mnn.Flatten()(mindtorch.randn(2))
    with pytest.raises(RuntimeError):
        mnn.Flatten(2, 1)(mindtorch.randn(2, 3, 4))


@pytest.mark.parametrize("dim,size,shape", [(1, (2, 5), (3, 10)), (-1, [2, -1], (3, 4, 6)),
                                            (0, (1, 3), (3,))])
def test_unflatten(dim, size, shape):
    mt, th = mnn.Unflatten(dim, size), tnn.Unflatten(dim, size)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs(shape))


def test_unflatten_errors():
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of ints, but found "
                                        "type int"):
        mnn.Unflatten(1, 3)
    with pytest.raises(TypeError, match="but found element of type float at pos 1"):
        mnn.Unflatten(1, (2, 2.0))
    with pytest.raises(RuntimeError):
        mnn.Unflatten(1, (2, 4))(mindtorch.randn(3, 10))


def test_linear_forward_under_no_grad_and_eval():
    th, mt = pair_modules(tnn.Linear, mnn.Linear, 3, 2)
    (x, tx), = inputs((4, 3))
    with mindtorch.no_grad():
        out = mt(x)
    assert not out.requires_grad
    assert_same(out, th(tx).detach())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision(dtype):
    th, mt = pair_modules(tnn.Linear, mnn.Linear, 30, 20, dtype=dtype)
    check_module(th, mt, *inputs((8, 30), dtype=dtype), dtype=dtype)
    th, mt = pair_modules(tnn.Bilinear, mnn.Bilinear, 3, 4, 5, dtype=dtype)
    check_module(th, mt, *inputs((6, 3), (6, 4), dtype=dtype), dtype=dtype)


@pytest.mark.parametrize("name,args", [("Linear", (300, 200)), ("Bilinear", (20, 30, 40)),
                                       ("Conv2d", (12, 80, 5, 1, 0, 1, 4)),
                                       ("ConvTranspose1d", (30, 20, 5)),
                                       ("Embedding", (300, 100))])
def test_default_init_same_distribution_as_torch(name, args):
    # two-sample Kolmogorov-Smirnov test of the weights (and biases) against PyTorch's
    stats = pytest.importorskip("scipy.stats")
    mindtorch.manual_seed(1)
    torch.manual_seed(1)
    mt, th = getattr(mnn, name)(*args), getattr(tnn, name)(*args)
    for (n, p), (_, q) in zip(mt.named_parameters(), th.named_parameters()):
        a, b = p.detach().reshape(-1).numpy(), q.detach().reshape(-1).numpy()
        assert stats.ks_2samp(a, b).pvalue > 1e-4, n
        assert stats.ks_2samp(a, 0.9 * b).pvalue < 1e-4 or a.size < 5000, n  # the test can fail
