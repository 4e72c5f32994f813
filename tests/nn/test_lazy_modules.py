"""The Lazy modules (LazyLinear, LazyConv*/LazyConvTranspose*, LazyBatchNorm*,
LazyInstanceNorm*) against PyTorch's: signatures, repr and state_dict before and after the
first forward, the class they become, inferred shapes (batched and unbatched input), the
initial values' distribution, loading a checkpoint into an uninitialized module, dtype and
meta-device construction, and errors."""
import inspect
import math
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from mindtorch.nn.parameter import UninitializedBuffer, UninitializedParameter
from reference import to_torch, torch


# name: (constructor arguments, input shape)
CASES = {
    "LazyLinear": ((5,), (2, 3, 7)),
    "LazyConv1d": ((4, 3), (2, 6, 9)),
    "LazyConv2d": ((4, (3, 2)), (2, 6, 7, 6)),
    "LazyConv3d": ((4, 2), (1, 3, 4, 4, 4)),
    "LazyConvTranspose1d": ((4, 3, 2), (2, 6, 5)),
    "LazyConvTranspose2d": ((4, 3), (6, 5, 5)),
    "LazyConvTranspose3d": ((2, 2), (1, 3, 3, 3, 3)),
    "LazyBatchNorm1d": ((), (4, 6)),
    "LazyBatchNorm2d": ((), (2, 3, 4, 4)),
    "LazyBatchNorm3d": ((), (2, 3, 2, 2, 2)),
    "LazyInstanceNorm1d": ((), (2, 3, 5)),
    "LazyInstanceNorm2d": ((1e-3, 0.2, True, True), (2, 3, 4, 4)),
    "LazyInstanceNorm3d": ((), (2, 3, 2, 2, 2)),
}
NAMES = list(CASES)


def _both(name, *args, **kwargs):
    return getattr(nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)


def test_every_lazy_module_exists():
    expected = sorted(n for n in dir(torch.nn) if n.startswith("Lazy"))
    assert sorted(n for n in dir(nn) if n.startswith("Lazy")) == expected == sorted(NAMES)
    for name in NAMES:
        cls = getattr(nn, name)
        assert cls.__module__ == "mind" + getattr(torch.nn, name).__module__
        assert issubclass(cls, nn.modules.lazy.LazyModuleMixin)


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    def params(cls):
        return [(p.name, p.kind, p.default)
                for p in inspect.signature(cls).parameters.values()]
    assert params(getattr(nn, name)) == params(getattr(torch.nn, name))


@pytest.mark.parametrize("name", NAMES)
def test_before_and_after_first_forward(name):
    args, shape = CASES[name]
    m, t = _both(name, *args)
    assert repr(m) == repr(t)
    assert m.has_uninitialized_params() and t.has_uninitialized_params()
    assert list(m.state_dict()) == list(t.state_dict())
    for (key, v), tv in zip(m.state_dict().items(), t.state_dict().values()):
        assert type(v).__name__ == type(tv).__name__, key
    x = mindtorch.randn(*shape)
    with torch.no_grad():
        t.train()(to_torch(x))
    y = m(x)
    assert type(m) is getattr(nn, type(t).__name__)  # the class it became
    assert not hasattr(m, "_initialize_hook") and not hasattr(m, "has_uninitialized_params")
    assert repr(m) == repr(t)
    assert {k: tuple(v.shape) for k, v in m.state_dict().items()} == \
        {k: tuple(v.shape) for k, v in t.state_dict().items()}
    assert tuple(y.shape) == tuple(t(to_torch(x)).shape)
    for key, v in m.state_dict().items():
        assert not isinstance(v, (UninitializedParameter, UninitializedBuffer)), key
    assert all(type(p) is nn.Parameter for p in m.parameters())


@pytest.mark.parametrize("name", NAMES)
def test_values_after_loading_torch_weights(name):
    """A checkpoint of an initialized module materializes an uninitialized one (no forward
    needed); it then computes what PyTorch's lazy module given the same checkpoint does
    (output and input gradient), or fails as it does (instance norms keep num_features 0
    then: nothing is left to infer at the first forward)."""
    args, shape = CASES[name]
    m, t = _both(name, *args)
    x = np.random.default_rng(0).standard_normal(shape)
    trained = getattr(torch.nn, name)(*args)
    with torch.no_grad():
        trained(torch.from_numpy(x).float())
    t.load_state_dict(trained.state_dict())
    m.load_state_dict({k: mindtorch.tensor(v.detach().numpy())
                       for k, v in trained.state_dict().items()})
    assert not m.has_uninitialized_params()
    xm = mindtorch.tensor(x).float().requires_grad_()
    xt = torch.from_numpy(x).float().requires_grad_()
    try:
        yt = t(xt)
    except Exception as e:
        with pytest.raises(type(e), match=str(e).replace("(", r"\(").replace(")", r"\)")):
            m(xm)
        return
    ym = m(xm)
    np.testing.assert_allclose(ym.detach().numpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
    # (a random gradient: sum()'s is mathematically zero through a training batch norm,
    # leaving rounding noise to compare)
    g = np.random.default_rng(1).standard_normal(tuple(yt.shape)).astype(np.float32)
    ym.backward(mindtorch.tensor(g))
    yt.backward(torch.from_numpy(g))
    np.testing.assert_allclose(xm.grad.numpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-5)
    assert type(m).__name__ == type(t).__name__
    assert repr(m) == repr(t)  # (LazyLinear takes in_features from the loaded weight)


@pytest.mark.parametrize("name", ["LazyLinear", "LazyConv2d", "LazyConvTranspose1d"])
def test_initial_distribution(name):
    """kaiming_uniform(a=sqrt(5)): U(-1/sqrt(fan_in), 1/sqrt(fan_in)), the bias's too, with
    fan_in from the weight's dim 1 (in/groups, or out/groups when transposed) and kernel."""
    m, shape, fan_in = {
        "LazyLinear": (nn.LazyLinear(300), (2, 64), 64),
        "LazyConv2d": (nn.LazyConv2d(200, 3, groups=2), (1, 16, 5, 5), 8 * 9),
        "LazyConvTranspose1d": (nn.LazyConvTranspose1d(40, 3, groups=2), (2, 60, 4), 20 * 3),
    }[name]
    m(mindtorch.randn(*shape))
    bound = 1 / math.sqrt(fan_in)
    for p in (m.weight, m.bias):
        v = p.detach().numpy()
        assert np.abs(v).max() <= bound and np.abs(v).max() > 0.8 * bound
        assert abs(v.mean()) < 0.2 * bound


def test_norm_initial_values_and_running_stats():
    m = nn.LazyBatchNorm2d(momentum=None)
    x = mindtorch.randn(4, 3, 2, 2)
    m(x)
    assert m.weight.tolist() == [1.0] * 3 and m.bias.tolist() == [0.0] * 3
    assert m.num_batches_tracked.item() == 1
    t = torch.nn.LazyBatchNorm2d(momentum=None)
    t(to_torch(x))
    np.testing.assert_allclose(m.running_var.numpy(), t.running_var.numpy(), rtol=1e-5)
    n = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
    tn = torch.nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
    assert repr(n) == repr(tn) and not n.has_uninitialized_params()
    x = mindtorch.randn(3, 5)
    np.testing.assert_allclose(n(x).numpy(), tn(to_torch(x)).numpy(), rtol=1e-5, atol=1e-6)
    # nothing to infer: it becomes a BatchNorm1d of 0 features, as PyTorch's
    assert type(n) is nn.BatchNorm1d and repr(n) == repr(tn)
    b = nn.LazyInstanceNorm1d(affine=True, bias=False)
    assert b.bias is None and isinstance(b.weight, UninitializedParameter)
    b(mindtorch.randn(2, 4, 3))
    assert tuple(b.weight.shape) == (4,) and b.bias is None


def test_options_kept_and_unbatched_inputs():
    m = nn.LazyConv2d(6, 3, stride=2, padding=1, dilation=1, groups=3, bias=False,
                      padding_mode="reflect")
    t = torch.nn.LazyConv2d(6, 3, stride=2, padding=1, dilation=1, groups=3, bias=False,
                            padding_mode="reflect")
    x = mindtorch.randn(3, 8, 8)  # unbatched: channels at dim 0
    assert tuple(m(x).shape) == tuple(t(to_torch(x)).shape)
    assert repr(m) == repr(t) and m.bias is None and m.in_channels == 3
    lin = nn.LazyLinear(2, bias=False)
    lin(mindtorch.randn(5))
    assert lin.in_features == 5 and lin.bias is None


def test_dtype_and_meta_device():
    m = nn.LazyLinear(3, dtype=mindtorch.float64)
    m(mindtorch.randn(2, 4, dtype=mindtorch.float64))
    assert m.weight.dtype is mindtorch.float64
    with mindtorch.device("meta"):
        c = nn.LazyConv1d(4, 3)
        bn = nn.LazyBatchNorm1d()
    assert c.weight.device.type == "meta" and bn.running_mean.device.type == "meta"
    y = c(mindtorch.empty(2, 5, 7, device="meta"))
    assert y.device.type == "meta" and tuple(y.shape) == (2, 4, 5)
    assert c.weight.device.type == "meta" and tuple(c.weight.shape) == (4, 5, 3)
    bn(mindtorch.empty(2, 6, device="meta"))
    assert bn.num_batches_tracked.device.type == "meta" and tuple(bn.running_var.shape) == (6,)


def test_errors_like_torch():
    cases = [
        ("LazyConv1d", (4, 3), (1, 2, 3, 9)),        # neither 2D nor 3D
        ("LazyConv2d", (4, 3), {"groups": 2}, (1, 3, 5, 5)),  # 3 channels, 2 groups
        ("LazyBatchNorm2d", (), (2, 3, 4)),
    ]
    for name, args, *rest in cases:
        kwargs = rest[0] if len(rest) == 2 else {}
        m, t = _both(name, *args, **kwargs)
        x = mindtorch.randn(*rest[-1])
        with pytest.raises(Exception) as want:
            t(to_torch(x))
        with pytest.raises(type(want.value)) as got:
            m(x)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match='Only "zeros" padding mode'):
        nn.LazyConvTranspose2d(3, 3, padding_mode="reflect")


def test_warning_and_cls_to_become():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.LazyLinear(3)
    assert not caught  # (PyTorch 2.13 no longer warns that lazy modules are new)
    assert nn.LazyConvTranspose3d.cls_to_become is nn.ConvTranspose3d
    assert nn.LazyInstanceNorm2d.cls_to_become is nn.InstanceNorm2d
    assert issubclass(nn.LazyConv1d, nn.Conv1d) and issubclass(nn.LazyLinear, nn.Linear)
    assert not issubclass(nn.LazyBatchNorm1d, nn.BatchNorm1d)  # (as PyTorch's)
