"""Weibull, Pareto, InverseGamma, Kumaraswamy, LogisticNormal, NegativeBinomial,
FisherSnedecor, GeneralizedPareto and ContinuousBernoulli against torch.distributions:
moments, entropy, log_prob/cdf/icdf, reprs and supports, seeded samples (bit-exact up to
rounding), reparameterised gradients and expand."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch

LEAVES = []  # the parameters made with requires_grad, in order


def _t(L, values, requires_grad=False, dtype="float64"):
    t = L.tensor(values, dtype=getattr(L, dtype), requires_grad=requires_grad)
    if requires_grad:
        LEAVES.append(t)
    return t


# name: make(L, grad) -> distribution
FAMILIES = {
    "Weibull": lambda L, g: L.distributions.Weibull(_t(L, [0.5, 1.0, 2.0], g),
                                                    _t(L, [0.7, 1.5, 3.0], g)),
    "Pareto": lambda L, g: L.distributions.Pareto(_t(L, [0.5, 1.0, 2.0], g),
                                                  _t(L, [0.7, 1.5, 3.0], g)),
    "InverseGamma": lambda L, g: L.distributions.InverseGamma(_t(L, [0.5, 1.5, 3.0], g),
                                                              _t(L, [1.0, 2.0, 0.5], g)),
    "Kumaraswamy": lambda L, g: L.distributions.Kumaraswamy(_t(L, [0.5, 1.5, 3.0], g),
                                                            _t(L, [2.0, 0.7, 4.0], g)),
    "LogisticNormal": lambda L, g: L.distributions.LogisticNormal(
        _t(L, [[0.5, -1.0, 0.0], [1.0, 2.0, -0.5]], g), _t(L, [1.0, 0.5, 2.0], g)),
    "LogisticNormal scalar": lambda L, g: L.distributions.LogisticNormal(_t(L, 0.5, g),
                                                                         _t(L, 1.5, g)),
    "NegativeBinomial probs": lambda L, g: L.distributions.NegativeBinomial(
        _t(L, [1.0, 3.0, 10.0]), _t(L, [0.2, 0.5, 0.7], g)),
    "NegativeBinomial logits": lambda L, g: L.distributions.NegativeBinomial(
        4, logits=_t(L, [-1.0, 0.0, 1.5], g)),
    "FisherSnedecor": lambda L, g: L.distributions.FisherSnedecor(_t(L, [1.0, 3.0, 8.0], g),
                                                                  _t(L, [1.5, 5.0, 12.0], g)),
    # (float32: PyTorch's log_prob compares with a float32 zero, failing for float64)
    "GeneralizedPareto": lambda L, g: L.distributions.GeneralizedPareto(
        _t(L, [0.0, 1.0, -1.0], g, "float32"), _t(L, [1.0, 2.0, 0.5], g, "float32"),
        _t(L, [0.0, 0.3, -0.4], g, "float32")),
    "ContinuousBernoulli probs": lambda L, g: L.distributions.ContinuousBernoulli(
        _t(L, [0.1, 0.4995, 0.5, 0.8], g)),
    "ContinuousBernoulli logits": lambda L, g: L.distributions.ContinuousBernoulli(
        logits=_t(L, [-2.0, 0.001, 0.0, 1.5], g)),
}
PROPERTIES = ("mean", "mode", "variance", "stddev")
METHODS = ("entropy",)


def _outcome(fn):
    try:
        return fn()
    except NotImplementedError:
        return "NotImplementedError"


def _run(L, name):
    L.manual_seed(0)
    d = FAMILIES[name](L, False)
    out = {"repr": repr(d), "support": repr(d.support), "batch": tuple(d.batch_shape),
           "event": tuple(d.event_shape), "has_rsample": d.has_rsample,
           "sample": d.sample((4,)), "sample 2": d.sample()}
    if d.has_rsample:
        out["rsample"] = d.rsample((2,))
    for p in PROPERTIES:
        out[p] = _outcome(lambda p=p: getattr(d, p))
    out["entropy"] = _outcome(d.entropy)
    e = d.expand((2,) + tuple(d.batch_shape))
    out["expanded"] = (type(e).__name__, tuple(e.batch_shape), tuple(e.event_shape))
    out["expanded sample"] = e.sample()
    out["expanded mean"] = _outcome(lambda: e.mean)
    out["next draw"] = L.rand(2, dtype=L.float64)  # the generator left where torch leaves it
    return d, e, out


@pytest.mark.parametrize("name", list(FAMILIES))
def test_family_matches_torch(name):
    d_t, e_t, want = _run(torch, name)
    d_m, e_m, got = _run(mindtorch, name)
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, torch.Tensor):
            assert_same(got[key], value, rtol=1e-6, atol=1e-12 if value.dtype == torch.float64
                        else 1e-6)
        else:
            assert got[key] == value, key
    values = want["sample"]
    mine = mindtorch.tensor(values.numpy())
    tol = {"rtol": 1e-9, "atol": 1e-12} if values.dtype == torch.float64 else {}
    assert_same(d_m.log_prob(mine), d_t.log_prob(values), **tol)
    assert_same(e_m.log_prob(mine[:2]), e_t.log_prob(values[:2]), **tol)
    if not d_t.event_shape and not d_t.support.is_discrete:
        probs = torch.tensor([0.1, 0.5, 0.9], dtype=values.dtype).reshape(
            (-1,) + (1,) * len(d_t.batch_shape))
        for method, arg_t in (("cdf", values), ("icdf", probs)):
            arg_m = mindtorch.tensor(arg_t.numpy())
            try:
                theirs = getattr(d_t, method)(arg_t)
            except NotImplementedError:
                with pytest.raises(NotImplementedError):
                    getattr(d_m, method)(arg_m)
                continue
            assert_same(getattr(d_m, method)(arg_m), theirs, **tol)


@pytest.mark.parametrize("name", [n for n in FAMILIES if "Negative" not in n])
def test_rsample_and_log_prob_gradients(name):
    grads = []
    for L in (torch, mindtorch):
        L.manual_seed(1)
        LEAVES.clear()
        d = FAMILIES[name](L, True)
        x = d.rsample((3,))
        loss = (x * x).sum() + d.log_prob(x.detach()).sum()
        if "LogisticNormal" not in name and "Fisher" not in name:  # (no entropy)
            loss = loss + d.entropy().sum()
        grads.append([g.numpy() for g in L.autograd.grad(loss, LEAVES)])
    assert len(grads[0]) == len(grads[1]) > 0
    for want, got in zip(*grads):
        np.testing.assert_allclose(got, want, rtol=1e-5 if got.dtype == np.float32 else 1e-8,
                                   atol=1e-10)


@pytest.mark.parametrize("bad", [
    lambda L: L.distributions.Weibull(L.tensor([-1.0]), 1.0),
    lambda L: L.distributions.Pareto(1.0, L.tensor([0.0])),
    lambda L: L.distributions.NegativeBinomial(2.0, L.tensor([1.0])),
    lambda L: L.distributions.NegativeBinomial(2.0),
    lambda L: L.distributions.FisherSnedecor(L.tensor([1.0]), -2.0),
    lambda L: L.distributions.GeneralizedPareto(0.0, -1.0, 0.5),
    lambda L: L.distributions.ContinuousBernoulli(L.tensor([1.5]), validate_args=True),
    lambda L: L.distributions.Kumaraswamy(L.tensor([1.0]), L.tensor([-1.0])),
    lambda L: L.distributions.Weibull(L.tensor([1.0]), 1.0).log_prob(L.tensor([-1.0])),
])
def test_invalid_arguments(bad):
    errors = []
    for L in (torch, mindtorch):
        with pytest.raises(ValueError) as info:
            bad(L)
        errors.append(str(info.value).split(" of distribution")[0])
    assert errors[0] == errors[1]


def test_isinstance_and_modules():
    import importlib
    for name, cls in [("weibull", "Weibull"), ("pareto", "Pareto"),
                      ("inverse_gamma", "InverseGamma"), ("kumaraswamy", "Kumaraswamy"),
                      ("logistic_normal", "LogisticNormal")]:
        module = importlib.import_module(f"mindtorch.distributions.{name}")
        assert issubclass(getattr(module, cls), mindtorch.distributions.TransformedDistribution)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from mindtorch.distributions.continuous_bernoulli import ContinuousBernoulli
    assert issubclass(ContinuousBernoulli, mindtorch.distributions.ExponentialFamily)


@pytest.mark.parametrize("make", [
    lambda L: L.distributions.Bernoulli(L.tensor([[0.2, 0.7, 0.5]])),
    lambda L: L.distributions.Categorical(L.tensor([[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]])),
    lambda L: L.distributions.Binomial(3, L.tensor([0.2, 0.7])),
    lambda L: L.distributions.OneHotCategorical(L.tensor([[0.2, 0.8], [0.5, 0.5]])),
])
def test_enumerate_support(make):
    for expand in (True, False):
        want = make(torch).enumerate_support(expand)
        assert_same(make(mindtorch).enumerate_support(expand), want)
        assert_same(make(mindtorch).log_prob(make(mindtorch).enumerate_support(expand)),
                    make(torch).log_prob(want))


def test_independent_enumerate_support():
    for L in (torch, mindtorch):
        D = L.distributions
        ind = D.Independent(D.Bernoulli(L.tensor([[0.2, 0.5]])), 1)
        ind0 = D.Independent(D.Bernoulli(L.tensor([[0.2, 0.5]])), 0)
        assert (ind.has_enumerate_support, ind0.has_enumerate_support) == (False, True)
        assert tuple(ind0.enumerate_support().shape) == (2, 1, 2)
        with pytest.raises(NotImplementedError, match="cartesian product"):
            ind.enumerate_support()
