"""nn.init against PyTorch: gains, fans and errors exactly; distributions statistically
(large tensors, fixed seeds); deterministic given a generator; no autograd recording."""
import math
import warnings

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

torch = pytest.importorskip("torch")
init, tinit = nn.init, torch.nn.init


@pytest.mark.parametrize("args", [
    ("linear",), ("conv1d",), ("conv2d",), ("conv3d",), ("conv_transpose1d",),
    ("conv_transpose2d",), ("conv_transpose3d",), ("sigmoid",), ("tanh",), ("relu",),
    ("leaky_relu",), ("leaky_relu", 0.2), ("leaky_relu", 3), ("selu",),
    ("leaky_relu", True), ("leaky_relu", "x"), ("gelu",), ("Relu",),
])
def test_calculate_gain(args):
    try:
        expected = tinit.calculate_gain(*args)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            init.calculate_gain(*args)
        return
    got = init.calculate_gain(*args)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("shape", [(3,), (), (4, 5), (4, 5, 3), (2, 3, 4, 5), (0, 3), (2, 0, 3)])
@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "FAN_IN", "bad"])
def test_fans(shape, mode):
    m, t = mt.empty(shape), torch.empty(shape)
    for fn in (lambda mod, x: mod._calculate_fan_in_and_fan_out(x),
               lambda mod, x: mod._calculate_correct_fan(x, mode)):
        try:
            expected = fn(tinit, t)
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e).replace("[", r"\[").replace("]", r"\]")):
                fn(init, m)
            continue
        assert fn(init, m) == expected


N = (400, 500)  # 200k samples: mean within ~4e-3 std of the expected value


def stats(t):
    a = t.detach().numpy().astype(np.float64)
    return a.mean(), a.std(), a.min(), a.max()


def check_moments(t, mean, std, lo=None, hi=None):
    m, s, mn, mx = stats(t)
    assert abs(m - mean) < 0.02 * std + 1e-12, (m, mean)
    assert abs(s - std) < 0.02 * std, (s, std)
    if lo is not None:
        assert mn >= lo and mx <= hi
        # the bounds are reached closely (a uniform over the whole range)
        assert mn < lo + 0.01 * (hi - lo) and mx > hi - 0.01 * (hi - lo)


def test_uniform_normal_constant():
    mt.manual_seed(0)
    check_moments(init.uniform_(mt.empty(N), -2.0, 3.0), 0.5, 5 / math.sqrt(12), -2.0, 3.0)
    check_moments(init.uniform_(mt.empty(N)), 0.5, 1 / math.sqrt(12), 0.0, 1.0)
    check_moments(init.normal_(mt.empty(N), 1.5, 0.3), 1.5, 0.3)
    check_moments(init.normal_(mt.empty(N, dtype=mt.float64)), 0.0, 1.0)
    assert (init.constant_(mt.empty(3, 2), 2.5) == 2.5).all()
    assert (init.ones_(mt.empty(3, 2)) == 1).all() and (init.zeros_(mt.ones(3, 2)) == 0).all()
    assert init.constant_(mt.empty(2, dtype=mt.int64), 3).tolist() == [3, 3]


@pytest.mark.parametrize("mean,std,a,b", [(0.0, 1.0, -2.0, 2.0), (0.5, 2.0, -1.0, 3.0),
                                          (0.0, 1.0, -0.5, 0.5), (1.0, 0.1, 0.9, 5.0)])
def test_trunc_normal(mean, std, a, b):
    mt.manual_seed(1)
    x = init.trunc_normal_(mt.empty(N), mean, std, a, b)
    # the moments of the truncated normal
    alpha, beta = (a - mean) / std, (b - mean) / std
    pdf = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda z: (1 + math.erf(z / math.sqrt(2))) / 2  # noqa: E731
    Z = cdf(beta) - cdf(alpha)
    tmean = mean + (pdf(alpha) - pdf(beta)) / Z * std
    tvar = std ** 2 * (1 + (alpha * pdf(alpha) - beta * pdf(beta)) / Z
                       - ((pdf(alpha) - pdf(beta)) / Z) ** 2)
    m, s, mn, mx = stats(x)
    assert mn >= a and mx <= b
    assert abs(m - tmean) < 0.02 * math.sqrt(tvar) and abs(s - math.sqrt(tvar)) < 0.02 * s


def test_trunc_normal_warns_far_mean():
    for mod in (init, tinit):
        with pytest.warns(UserWarning, match="mean is more than 2 std"):
            mod.trunc_normal_((mt if mod is init else torch).empty(10), 10.0, 1.0, -2.0, 2.0)


@pytest.mark.parametrize("shape", [(300, 400), (64, 32, 3, 3), (500, 80, 5)])
@pytest.mark.parametrize("gain", [1.0, 2.5])
def test_xavier(shape, gain):
    fan_in, fan_out = tinit._calculate_fan_in_and_fan_out(torch.empty(shape))
    std = gain * math.sqrt(2.0 / (fan_in + fan_out))
    mt.manual_seed(2)
    bound = math.sqrt(3) * std
    check_moments(init.xavier_uniform_(mt.empty(shape), gain), 0.0, std, -bound, bound)
    check_moments(init.xavier_normal_(mt.empty(shape), gain=gain), 0.0, std)


@pytest.mark.parametrize("a,mode,nonlinearity", [
    (0, "fan_in", "leaky_relu"), (math.sqrt(5), "fan_in", "leaky_relu"),
    (0, "fan_out", "relu"), (0.1, "fan_out", "leaky_relu"), (0, "fan_in", "linear"),
    (0, "fan_in", "tanh"), (0, "fan_in", "selu")])
def test_kaiming(a, mode, nonlinearity):
    shape = (128, 64, 3, 3)
    fan = tinit._calculate_correct_fan(torch.empty(shape), mode)
    std = tinit.calculate_gain(nonlinearity, a) / math.sqrt(fan)
    mt.manual_seed(3)
    bound = math.sqrt(3) * std
    check_moments(init.kaiming_uniform_(mt.empty(shape), a, mode, nonlinearity), 0.0, std,
                  -bound, bound)
    check_moments(init.kaiming_normal_(mt.empty(shape), a=a, mode=mode,
                                       nonlinearity=nonlinearity), 0.0, std)


def test_kaiming_errors_and_empty():
    for mod, lib in ((init, mt), (tinit, torch)):
        with pytest.raises(ValueError, match="Mode fan_bad not supported"):
            mod.kaiming_uniform_(lib.empty(3, 4), mode="fan_bad")
        with pytest.raises(ValueError, match="Unsupported nonlinearity"):
            mod.kaiming_normal_(lib.empty(3, 4), nonlinearity="swish")
        with pytest.raises(ValueError, match="Fan in and fan out"):
            mod.kaiming_normal_(lib.empty(3))
        with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
            assert mod.kaiming_uniform_(lib.empty(0, 3)).shape == (0, 3)
        with pytest.raises(ValueError, match="Fan in and fan out"):
            mod.xavier_uniform_(lib.empty(5))


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (6, 2)])
def test_eye(shape):
    m = init.eye_(mt.empty(shape))
    np.testing.assert_array_equal(m.numpy(), tinit.eye_(torch.empty(shape)).numpy())
    p = nn.Parameter(mt.empty(shape))
    assert init.eye_(p) is p and p.requires_grad and p.is_leaf
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(mt.empty(3))


@pytest.mark.parametrize("shape,groups", [((4, 4, 3), 1), ((6, 3, 3, 3), 2), ((4, 2, 3, 5, 3), 2),
                                          ((2, 5, 4), 1), ((6, 1, 3, 3), 3)])
def test_dirac(shape, groups):
    m = init.dirac_(mt.ones(shape), groups)
    np.testing.assert_array_equal(m.numpy(), tinit.dirac_(torch.ones(shape), groups).numpy())


def test_dirac_errors():
    for mod, lib in ((init, mt), (tinit, torch)):
        with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions"):
            mod.dirac_(lib.empty(3, 3))
        with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
            mod.dirac_(lib.empty(5, 3, 3), groups=2)


@pytest.mark.parametrize("shape", [(6, 6), (4, 9), (9, 4), (3, 2, 2, 2), (1, 5)])
@pytest.mark.parametrize("gain", [1.0, 0.5])
def test_orthogonal(shape, gain):
    mt.manual_seed(4)
    w = init.orthogonal_(mt.empty(shape, dtype=mt.float64), gain)
    flat = w.reshape(shape[0], -1).numpy() / gain
    rows, cols = flat.shape
    gram = flat @ flat.T if rows <= cols else flat.T @ flat
    np.testing.assert_allclose(gram, np.eye(min(rows, cols)), atol=1e-10)
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions"):
        init.orthogonal_(mt.empty(3))


def test_orthogonal_is_uniform():
    # Haar-distributed: the (0, 0) entry of 4x4 orthogonal matrices has mean 0, var 1/4
    mt.manual_seed(5)
    vals = [init.orthogonal_(mt.empty(4, 4, dtype=mt.float64))[0, 0].item() for _ in range(2000)]
    assert abs(np.mean(vals)) < 0.04 and abs(np.var(vals) - 0.25) < 0.03


def test_sparse():
    mt.manual_seed(6)
    w = init.sparse_(mt.empty(200, 300), 0.3, std=0.05)
    zeros = (w == 0).sum(0)
    assert (zeros == math.ceil(0.3 * 200)).all()
    nz = w.numpy()[w.numpy() != 0]
    assert abs(nz.std() - 0.05) < 0.002
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.sparse_(mt.empty(3), 0.1)


RANDOM_INITS = [
    lambda t, g: init.uniform_(t, -1, 1, generator=g),
    lambda t, g: init.normal_(t, 0, 2, generator=g),
    lambda t, g: init.trunc_normal_(t, generator=g),
    lambda t, g: init.xavier_uniform_(t, generator=g),
    lambda t, g: init.xavier_normal_(t, generator=g),
    lambda t, g: init.kaiming_uniform_(t, generator=g),
    lambda t, g: init.kaiming_normal_(t, generator=g),
    lambda t, g: init.orthogonal_(t, generator=g),
    lambda t, g: init.sparse_(t, 0.5, generator=g),
]


@pytest.mark.parametrize("fn", RANDOM_INITS)
def test_generator_determinism_and_no_grad(fn):
    def draw(seed):
        mt.manual_seed(0)  # (sparse_ draws the zeros' rows from the default generator)
        g = mt.Generator().manual_seed(seed)
        p = nn.Parameter(mt.empty(5, 6))
        out = fn(p, g)
        assert out is p and p.is_leaf and p.grad_fn is None and p.requires_grad
        return p.detach().clone()
    a, b, c = draw(7), draw(7), draw(8)
    assert (a == b).all() and not (a == c).all()
    # the default generator is used when none is given
    mt.manual_seed(11)
    x = fn(mt.empty(5, 6), None)
    mt.manual_seed(11)
    assert (fn(mt.empty(5, 6), None) == x).all()


@pytest.mark.parametrize("fn", RANDOM_INITS + [
    lambda t, g: init.constant_(t, 1.0), lambda t, g: init.eye_(t),
    lambda t, g: init.ones_(t), lambda t, g: init.zeros_(t)])
def test_meta_tensors(fn):
    t = mt.empty(5, 6, device="meta")
    out = fn(t, None)
    assert out.is_meta and out.shape == (5, 6)


def test_dirac_meta():
    assert init.dirac_(mt.empty(4, 4, 3, device="meta")).is_meta


def test_deprecated_aliases():
    for name in ("uniform", "normal", "constant", "eye", "dirac", "xavier_uniform",
                 "xavier_normal", "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"):
        assert callable(getattr(init, name))
    with pytest.warns(FutureWarning, match="`nn.init.uniform` is now deprecated in favor of "
                                           "`nn.init.uniform_`"):
        init.uniform(mt.empty(3))
    assert sorted(init.__all__) == sorted(tinit.__all__)


def test_int_tensor_errors_match():
    # uniform_/normal_ refuse integer tensors as PyTorch does
    for fn in (lambda lib, mod: mod.uniform_(lib.empty(3, dtype=lib.int64)),
               lambda lib, mod: mod.normal_(lib.empty(3, dtype=lib.int64))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                fn(torch, tinit)
            except Exception as e:
                with pytest.raises(type(e)):
                    fn(mt, init)


def test_private_helpers():
    mt.manual_seed(3)
    t = init._no_grad_trunc_normal_(mt.empty(1000), 0.0, 1.0, -1.0, 1.0)
    assert t.abs().max() <= 1.0
    assert (init._no_grad_fill_(mt.empty(3), 2.0) == 2).all()
    assert (init._no_grad_zero_(mt.ones(3)) == 0).all()
    u = init._no_grad_uniform_(mt.empty(1000), -1.0, 1.0)
    assert u.min() >= -1 and u.max() <= 1
    assert init._no_grad_normal_(mt.empty(10), 0.0, 1.0).shape == (10,)
    for name in ("_no_grad_uniform_", "_no_grad_normal_", "_no_grad_trunc_normal_",
                 "_no_grad_fill_", "_no_grad_zero_"):
        assert hasattr(tinit, name)
