"""kl_divergence for every pair PyTorch registers, against torch (values, infinities and
gradients), and the dispatch: most specific match, errors, ambiguity warnings."""

import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch
from torch.distributions.kl import _KL_REGISTRY

LEAVES = []  # the parameters made with requires_grad, in order


def _t(L, values, requires_grad=False):
    t = L.tensor(values, dtype=L.float64, requires_grad=requires_grad)
    if requires_grad:
        LEAVES.append(t)
    return t


COV = [[[2.0, 0.5], [0.5, 1.0]], [[1.0, -0.3], [-0.3, 0.5]], [[3.0, 0.0], [0.0, 0.2]]]

# family name: make(L, which, grad) -> an instance (which = 0 for p, 1 for q)
MAKE = {
    "Bernoulli": lambda L, w, g: L.distributions.Bernoulli(
        _t(L, [[0.2, 0.5, 0.9], [0.4, 0.1, 0.7]][w], g)
    ),
    "Beta": lambda L, w, g: L.distributions.Beta(
        _t(L, [[0.5, 1.5, 3.0], [2.0, 1.0, 0.8]][w], g),
        _t(L, [[2.0, 0.7, 4.0], [1.0, 3.0, 0.9]][w], g),
    ),
    "Binomial": lambda L, w, g: L.distributions.Binomial(
        _t(L, [[5.0, 6.0, 5.0], [5.0, 5.0, 5.0]][w]),
        _t(L, [[0.2, 0.5, 0.9], [0.4, 0.1, 0.7]][w], g),
    ),
    "Categorical": lambda L, w, g: L.distributions.Categorical(
        _t(L, [[[0.1, 0.2, 0.7]] * 3, [[0.3, 0.3, 0.4], [0.5, 0.0, 0.5], [0.2, 0.2, 0.6]]][w], g)
    ),
    "Cauchy": lambda L, w, g: L.distributions.Cauchy(
        _t(L, [[0.0, 1.0, -1.0], [0.5, 0.5, 0.5]][w], g),
        _t(L, [[1.0, 2.0, 0.5], [0.7, 1.0, 3.0]][w], g),
    ),
    "ContinuousBernoulli": lambda L, w, g: L.distributions.ContinuousBernoulli(
        _t(L, [[0.2, 0.4995, 0.8], [0.6, 0.3, 0.5]][w], g)
    ),
    "Dirichlet": lambda L, w, g: L.distributions.Dirichlet(
        _t(L, [[[0.5, 1.0, 2.0]] * 3, [[1.0, 1.0, 1.0], [2.0, 0.3, 1.0], [0.5, 0.5, 4.0]]][w], g)
    ),
    "Exponential": lambda L, w, g: L.distributions.Exponential(
        _t(L, [[0.5, 1.0, 3.0], [2.0, 0.3, 1.0]][w], g)
    ),
    "ExponentialFamily": lambda L, w, g: L.distributions.Wishart(
        _t(L, [[4.0, 5.0, 3.0], [3.5, 6.0, 4.0]][w], g), _t(L, [COV, COV[::-1]][w])
    ),
    "Gamma": lambda L, w, g: L.distributions.Gamma(
        _t(L, [[0.5, 1.5, 3.0], [2.0, 1.0, 0.8]][w], g),
        _t(L, [[2.0, 0.7, 4.0], [1.0, 3.0, 0.9]][w], g),
    ),
    "Geometric": lambda L, w, g: L.distributions.Geometric(
        _t(L, [[0.2, 0.5, 0.9], [0.4, 0.1, 0.7]][w], g)
    ),
    "Gumbel": lambda L, w, g: L.distributions.Gumbel(
        _t(L, [[0.0, 1.0, -1.0], [0.5, 0.5, 0.5]][w], g),
        _t(L, [[1.0, 2.0, 0.5], [0.7, 1.0, 3.0]][w], g),
    ),
    "HalfNormal": lambda L, w, g: L.distributions.HalfNormal(
        _t(L, [[1.0, 2.0, 0.5], [0.7, 1.0, 3.0]][w], g)
    ),
    "Independent": lambda L, w, g: L.distributions.Independent(
        L.distributions.Normal(
            _t(L, [[[0.0, 1.0]] * 3, [[0.5, 0.5]] * 3][w], g), _t(L, [[1.0, 2.0], [0.7, 1.0]][w], g)
        ),
        1,
    ),
    "Laplace": lambda L, w, g: L.distributions.Laplace(
        _t(L, [[0.0, 1.0, -1.0], [0.5, 0.5, 0.5]][w], g),
        _t(L, [[1.0, 2.0, 0.5], [0.7, 1.0, 3.0]][w], g),
    ),
    "LowRankMultivariateNormal": lambda L, w, g: L.distributions.LowRankMultivariateNormal(
        _t(L, [[0.5, -1.0], [0.0, 1.0]][w], g),
        _t(L, [[[1.0], [0.5]], [[0.3, 0.1], [-0.2, 0.6]]][w], g),
        _t(L, [[1.0, 2.0], [0.5, 1.5]][w], g),
    ),
    "MultivariateNormal": lambda L, w, g: L.distributions.MultivariateNormal(
        _t(L, [[0.5, -1.0], [0.0, 1.0]][w], g), _t(L, [COV, COV[1]][w], g)
    ),
    "Normal": lambda L, w, g: L.distributions.Normal(
        _t(L, [[0.3, 1.0, -1.0], [0.5, 0.5, 0.5]][w], g),
        _t(L, [[1.0, 2.0, 0.5], [0.7, 1.0, 3.0]][w], g),
    ),
    "OneHotCategorical": lambda L, w, g: L.distributions.OneHotCategorical(
        _t(L, [[[0.1, 0.2, 0.7]] * 3, [[0.3, 0.3, 0.4], [0.5, 0.0, 0.5], [0.2, 0.2, 0.6]]][w], g)
    ),
    "Pareto": lambda L, w, g: L.distributions.Pareto(
        _t(L, [[0.5, 1.0, 2.0], [0.7, 0.8, 1.5]][w], g),
        _t(L, [[0.7, 2.5, 3.0], [1.5, 3.0, 2.0]][w], g),
    ),
    "Poisson": lambda L, w, g: L.distributions.Poisson(
        _t(L, [[0.5, 1.0, 3.0], [2.0, 0.3, 1.0]][w], g)
    ),
    "TransformedDistribution": lambda L, w, g: L.distributions.TransformedDistribution(
        L.distributions.Normal(
            _t(L, [[0.3, 1.0, -1.0], [0.5, 0.5, 0.5]][w], g), _t(L, [1.0, 2.0, 0.5], g)
        ),
        [
            L.distributions.transforms.ExpTransform(),
            L.distributions.transforms.AffineTransform(1.0, 2.0),
        ],
    ),
    "Uniform": lambda L, w, g: L.distributions.Uniform(
        _t(L, [[0.1, 0.2, -1.0], [0.05, 0.0, 0.5]][w], g),
        _t(L, [[0.5, 0.9, 2.0], [0.95, 3.0, 4.0]][w], g),
    ),
}
PAIRS = sorted((p.__name__, q.__name__) for p, q in _KL_REGISTRY)


def _kl(L, pair, grad):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, q = MAKE[pair[0]](L, 0, grad), MAKE[pair[1]](L, 1, grad)
    return L.distributions.kl_divergence(p, q)


@pytest.mark.parametrize("pair", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_kl_matches_torch(pair):
    want = _kl(torch, pair, False)
    got = _kl(mindtorch, pair, False)
    assert_same(got, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "pair",
    [
        ("Normal", "Normal"),
        ("MultivariateNormal", "MultivariateNormal"),
        ("LowRankMultivariateNormal", "MultivariateNormal"),
        ("Beta", "Beta"),
        ("Gamma", "Normal"),
        ("Independent", "Independent"),
        ("Categorical", "Categorical"),
        ("ExponentialFamily", "ExponentialFamily"),
    ],
)
def test_kl_gradients(pair):
    grads = []
    for L in (torch, mindtorch):
        LEAVES.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p, q = MAKE[pair[0]](L, 0, True), MAKE[pair[1]](L, 1, True)
        kl = L.distributions.kl_divergence(p, q)
        grads.append(
            [
                None if g is None else g.numpy()  # (Bregman: p's parameters detached)
                for g in L.autograd.grad(kl.sum(), LEAVES, allow_unused=True)
            ]
        )
    assert len(grads[0]) == len(grads[1]) > 0
    for want, got in zip(*grads):
        assert (want is None) == (got is None)
        if want is not None:
            np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-12)


def test_dispatch_and_errors():
    for L in (torch, mindtorch):
        D = L.distributions
        n = D.Normal(0.0, 1.0)
        with pytest.raises(
            NotImplementedError,
            match="No KL\\(p \\|\\| q\\) is implemented for p type Normal and q type VonMises",
        ):
            D.kl_divergence(n, D.VonMises(0.0, 1.0))
        with pytest.raises(NotImplementedError, match="cross KL-divergence"):
            D.kl_divergence(D.Poisson(1.0), D.Exponential(1.0))
        with pytest.raises(TypeError):
            D.register_kl(3, D.Normal)

        class MyNormal(D.Normal):
            pass

        class Other(D.Normal):
            pass

        # a subclass uses its parent's function, until a more specific one is registered
        assert float(D.kl_divergence(MyNormal(0.0, 1.0), n)) == 0.0

        @D.register_kl(MyNormal, D.Normal)
        def _mine(p, q):
            return L.tensor(7.0)  # noqa: B023

        assert float(D.kl_divergence(MyNormal(0.0, 1.0), Other(0.0, 1.0))) == 7.0

        @D.register_kl(D.Normal, Other)
        def _other(p, q):
            return L.tensor(8.0)  # noqa: B023

        with pytest.warns(RuntimeWarning, match="Ambiguous kl_divergence\\(MyNormal, Other\\)"):
            D.kl_divergence(MyNormal(0.0, 1.0), Other(0.0, 1.0))


def test_transformed_needs_equal_transforms():
    for L in (torch, mindtorch):
        D = L.distributions
        assert float(D.kl_divergence(D.LogNormal(0.0, 1.0), D.LogNormal(0.0, 1.0))) == 0.0
        w1, w2 = D.Weibull(L.tensor(1.0), L.tensor(2.0)), D.Weibull(L.tensor(1.0), L.tensor(3.0))
        with pytest.raises(NotImplementedError):
            D.kl_divergence(w1, w2)
        assert float(D.kl_divergence(w1, D.Weibull(L.tensor(1.0), L.tensor(2.0)))) == 0.0
