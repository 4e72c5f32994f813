"""nn.utils.parametrize, parametrizations.weight_norm/spectral_norm and the hook-based
weight_norm against PyTorch (names, state_dict keys, reprs, values and gradients)."""
import warnings

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

from test_module import MT, TH, to_mt

torch = pytest.importorskip("torch")


def parametrization_classes(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)

        def right_inverse(self, a):
            return a.triu()

    class Scale(lib.nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k

        def forward(self, x):
            return x * self.k

        def right_inverse(self, y):
            return y / self.k

    class Split(lib.nn.Module):  # two originals
        def forward(self, a, b):
            return a + b

        def right_inverse(self, x):
            return x * 0.25, x * 0.75

    class Shrink(lib.nn.Module):  # changes the shape
        def forward(self, x):
            return x[:1]

    return Symmetric, Scale, Split, Shrink


PM, PT = parametrization_classes(mt), parametrization_classes(torch)


def both(build):
    return build(mt, MT, PM), build(torch, TH, PT)


def assert_same_module(m, t, x=None):
    assert type(m).__name__ == type(t).__name__
    assert repr(m) == repr(t)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    sd, tsd = m.state_dict(), t.state_dict()
    assert list(sd) == list(tsd)
    for k in sd:
        np.testing.assert_allclose(sd[k].numpy(), tsd[k].numpy(), rtol=1e-12, atol=1e-14)
    if x is not None:
        xm = to_mt(x)
        out_m, out_t = m(xm), t(x)
        np.testing.assert_allclose(out_m.detach().numpy(), out_t.detach().numpy(),
                                   rtol=1e-12, atol=1e-14)
        out_m.pow(2).sum().backward()
        out_t.pow(2).sum().backward()
        for p, q in zip(m.parameters(), t.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-10, atol=1e-12)


X = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3)


def test_register_one_and_chain():
    def build(lib, C, P):
        m = C[0](3, 3).double()
        lib.nn.utils.parametrize.register_parametrization(m, "weight", P[0]())
        lib.nn.utils.parametrize.register_parametrization(m, "weight", P[1](2.0))
        lib.nn.utils.parametrize.register_parametrization(m, "bias", P[1](3.0))
        return m
    m, t = both(build)
    assert_same_module(m, t, X)
    assert nn.utils.parametrize.is_parametrized(m)
    assert nn.utils.parametrize.is_parametrized(m, "weight")
    assert not nn.utils.parametrize.is_parametrized(m, "nope")
    assert nn.utils.parametrize.type_before_parametrizations(m) is MT[0]
    assert isinstance(m, MT[0])


def test_assignment_goes_through_right_inverse():
    def build(lib, C, P):
        m = C[0](3, 3).double()
        lib.nn.utils.parametrize.register_parametrization(m, "weight", P[0]())
        m.weight = lib.arange(9, dtype=lib.float64).reshape(3, 3)
        return m
    m, t = both(build)
    assert_same_module(m, t, X)
    assert type(m.parametrizations.weight.original) is nn.Parameter


def test_two_originals():
    def build(lib, C, P):
        m = C[0](3, 2).double()
        lib.nn.utils.parametrize.register_parametrization(m, "weight", P[2]())
        return m
    m, t = both(build)
    assert_same_module(m, t, X)
    assert "parametrizations.weight.original1" in m.state_dict()


@pytest.mark.parametrize("leave", [True, False])
def test_remove(leave):
    def build(lib, C, P):
        m = C[0](3, 3).double()
        U = lib.nn.utils.parametrize
        U.register_parametrization(m, "weight", P[1](2.0))
        U.register_parametrization(m, "bias", P[1](3.0))
        w = m.parametrizations.weight.original
        U.remove_parametrizations(m, "weight", leave_parametrized=leave)
        assert m.weight is w  # the original Parameter object stays the parameter
        assert U.is_parametrized(m) and not U.is_parametrized(m, "weight")
        U.remove_parametrizations(m, "bias", leave_parametrized=leave)
        assert not U.is_parametrized(m) and not hasattr(m, "parametrizations")
        return m
    m, t = both(build)
    assert type(m) is MT[0]
    assert_same_module(m, t, X)


def test_remove_two_originals():
    def build(lib, C, P):
        m = C[0](3, 2).double()
        U = lib.nn.utils.parametrize
        U.register_parametrization(m, "weight", P[2]())
        try:
            U.remove_parametrizations(m, "weight", leave_parametrized=False)
        except ValueError as e:
            m.error = str(e)
        U.remove_parametrizations(m, "weight")
        return m
    m, t = both(build)
    assert m.error == t.error
    assert_same_module(m, t, X)


@pytest.mark.parametrize("case", [
    lambda lib, C, P: lib.nn.utils.parametrize.register_parametrization(C[0](3, 2), "weight",
                                                                       P[3]()),
    lambda lib, C, P: lib.nn.utils.parametrize.register_parametrization(C[0](3, 2), "nope",
                                                                       P[3]()),
    lambda lib, C, P: lib.nn.utils.parametrize.remove_parametrizations(C[0](3, 2), "weight"),
    lambda lib, C, P: lib.nn.utils.parametrize.ParametrizationList([], lib.ones(1)),
])
def test_errors(case):
    with pytest.raises(Exception) as expected:
        case(torch, TH, PT)
    with pytest.raises(type(expected.value)) as got:
        case(mt, MT, PM)
    assert str(got.value).replace("MT", "").replace("test_module.", "") == \
        str(expected.value).replace("test_module.", "")


def test_unsafe_and_cached():
    m = MT[0](3, 2).double()
    nn.utils.parametrize.register_parametrization(m, "weight", PM[3](), unsafe=True)
    assert m.weight.shape == (1, 3)
    calls = []
    m2 = MT[0](3, 3).double()

    class Counting(nn.Module):
        def forward(self, x):
            calls.append(1)
            return x * 2

    nn.utils.parametrize.register_parametrization(m2, "weight", Counting())
    calls.clear()
    with nn.utils.parametrize.cached():
        a, b = m2.weight, m2.weight
    assert a is b and len(calls) == 1
    m2.weight
    assert len(calls) == 2


def test_deepcopy_and_pickle():
    import copy
    import pickle
    m = MT[0](3, 3).double()
    nn.utils.parametrize.register_parametrization(m, "weight", PM[0]())
    c = copy.deepcopy(m)
    assert type(c).__name__ == "ParametrizedLin"
    np.testing.assert_array_equal(c.weight.detach().numpy(), m.weight.detach().numpy())
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules"):
        pickle.dumps(m)


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm_parametrization(dim):
    def build(lib, C, P):
        m = C[0](3, 4).double()
        return lib.nn.utils.parametrizations.weight_norm(m, dim=dim)
    m, t = both(build)
    assert_same_module(m, t, X)


def test_weight_norm_parametrization_loads_old_keys():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = torch.nn.utils.weight_norm(TH[0](3, 4).double()).state_dict()
    assert "weight_g" in old
    m = nn.utils.parametrizations.weight_norm(MT[0](3, 4).double())
    t = torch.nn.utils.parametrizations.weight_norm(TH[0](3, 4).double())
    m.load_state_dict({k: to_mt(v) * 2 for k, v in old.items()})
    t.load_state_dict({k: v * 2 for k, v in old.items()})
    assert_same_module(m, t, X)


@pytest.mark.parametrize("dim", [0, 1, -2, None])
def test_weight_norm_hook_form(dim):
    def build(lib, C, P):
        m = C[0](3, 4).double()
        with pytest.warns(FutureWarning, match="parametrizations.weight_norm"):
            lib.nn.utils.weight_norm(m, dim=dim)
        return m
    m, t = both(build)
    assert_same_module(m, t, X)
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nn.utils.weight_norm(m)
    nn.utils.remove_weight_norm(m)
    torch.nn.utils.remove_weight_norm(t)
    assert_same_module(m, t)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found in"):
        nn.utils.remove_weight_norm(m)


def test_spectral_norm_matches_given_same_vectors():
    def build(lib, C, P):
        lib.manual_seed(0)
        m = C[0](5, 3).double()
        return lib.nn.utils.parametrizations.spectral_norm(m)
    m, t = both(build)
    sn_m, sn_t = m.parametrizations.weight[0], t.parametrizations.weight[0]
    sn_m._u.copy_(to_mt(sn_t._u))
    sn_m._v.copy_(to_mt(sn_t._v))
    for mode in ("eval", "train"):
        getattr(m, mode)()
        getattr(t, mode)()
        np.testing.assert_allclose(m.weight.detach().numpy(), t.weight.detach().numpy(),
                                   rtol=1e-10)
    np.testing.assert_allclose(sn_m._u.numpy(), sn_t._u.numpy(), rtol=1e-10, atol=1e-12)
    assert list(m.state_dict()) == list(t.state_dict())
    # the result's largest singular value is 1 (after enough power iterations)
    m.train()
    for _ in range(30):
        w = m.weight
    assert abs(np.linalg.svd(w.detach().numpy(), compute_uv=False)[0] - 1) < 1e-6
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'nope'"):
        nn.utils.parametrizations.spectral_norm(MT[0](2, 2), "nope")


X5 = torch.linspace(-1, 1, 10, dtype=torch.float64).reshape(2, 5)


def test_spectral_norm_hook_form():
    def build(lib, C, P):
        lib.manual_seed(0)
        return lib.nn.utils.spectral_norm(C[0](5, 3).double(), n_power_iterations=2)
    m, t = both(build)
    m.load_state_dict({k: to_mt(v) for k, v in t.state_dict().items()})
    assert list(m.state_dict()) == list(t.state_dict()) == ["bias", "weight_orig", "weight_u",
                                                            "weight_v"]
    assert dict(m.state_dict()._metadata) == dict(t.state_dict()._metadata)
    x = X5
    for mode in ("train", "train", "eval"):
        getattr(m, mode)()
        getattr(t, mode)()
        om, ot = m(to_mt(x)), t(x)
        np.testing.assert_allclose(om.detach().numpy(), ot.detach().numpy(), rtol=1e-10)
        np.testing.assert_allclose(m.weight_u.numpy(), t.weight_u.numpy(), rtol=1e-10)
    om.sum().backward()
    ot.sum().backward()
    np.testing.assert_allclose(m.weight_orig.grad.numpy(), t.weight_orig.grad.numpy(),
                               rtol=1e-9, atol=1e-12)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks"):
        nn.utils.spectral_norm(m)
    nn.utils.remove_spectral_norm(m)
    torch.nn.utils.remove_spectral_norm(t)
    assert_same_module(m, t, x)
    assert not m._forward_pre_hooks and not m._state_dict_hooks
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found in"):
        nn.utils.remove_spectral_norm(m)


def test_spectral_norm_loads_version_0_state_dict():
    # a checkpoint without weight_v and with the normalised weight (spectral_norm before 1.0)
    torch.manual_seed(0)
    t = torch.nn.utils.spectral_norm(TH[0](5, 3).double())
    t(X5)
    old = {"bias": t.bias, "weight_orig": t.weight_orig, "weight_u": t.weight_u,
           "weight": t.weight.detach()}
    t2 = torch.nn.utils.spectral_norm(TH[0](5, 3).double())
    t2.load_state_dict(dict(old))
    m = nn.utils.spectral_norm(MT[0](5, 3).double())
    m.load_state_dict({k: to_mt(v) for k, v in old.items()})
    np.testing.assert_allclose(m.weight_v.numpy(), t2.weight_v.numpy(), rtol=1e-8)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("triv", [True, False])
def test_orthogonal(shape, orthogonal_map, triv):
    def build(lib, C, P):
        lib.manual_seed(0)
        m = C[0](shape[1], shape[0]).double()
        return lib.nn.utils.parametrizations.orthogonal(m, orthogonal_map=orthogonal_map,
                                                        use_trivialization=triv)
    m, t = both(build)
    assert list(m.state_dict()) == list(t.state_dict())
    m.load_state_dict({k: to_mt(v) for k, v in t.state_dict().items()})
    x = torch.linspace(-1, 1, 2 * shape[1], dtype=torch.float64).reshape(2, shape[1])
    assert_same_module(m, t, x)
    w = m.weight.detach().numpy()
    gram = w @ w.T if shape[0] <= shape[1] else w.T @ w
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-10)


def test_orthogonal_assignment_and_errors():
    m = nn.utils.parametrizations.orthogonal(MT[0](4, 4).double())
    q = np.linalg.qr(np.arange(16.0).reshape(4, 4) + np.eye(4))[0]
    m.weight = mt.tensor(q)
    np.testing.assert_allclose(m.weight.detach().numpy(), q, atol=1e-10)
    for lib, C in ((mt, MT), (torch, TH)):
        P = lib.nn.utils.parametrizations
        with pytest.raises(ValueError, match="Expected a matrix or batch of matrices. Got a "
                                             "tensor of 1 dimensions."):
            P.orthogonal(C[0](2, 2), "bias")
        with pytest.raises(ValueError, match='orthogonal_map has to be one of'):
            P.orthogonal(C[0](2, 2), orthogonal_map="qr")
        with pytest.raises(ValueError, match="Expected a matrix or batch of matrices of shape"):
            P.orthogonal(C[0](2, 2).double()).weight = lib.ones(3, 3, dtype=lib.float64)
        m2 = P.orthogonal(C[0](3, 3).double(), use_trivialization=False)
        with pytest.raises(NotImplementedError, match="use_trivialization=False"):
            m2.weight = lib.eye(3, dtype=lib.float64)
