"""LowRankMultivariateNormal, Wishart and LKJCholesky against torch.distributions with the
same parameters: log_prob, entropy, moments, matrices, reprs, errors and gradients;
sampling checked by its moments (mindtorch's random stream is its own)."""
import math

import numpy as np
import pytest

import mindtorch
from reference import assert_same, torch

RNG = np.random.default_rng(0)
LIBS = ((mindtorch, mindtorch.from_numpy), (torch, torch.from_numpy))


def _spd(n, batch=()):
    a = RNG.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _both(build, names, args):
    """build(lib, *params) for both libraries; names: the properties/methods compared."""
    out = []
    for lib, conv in LIBS:
        params = [conv(a.copy()).requires_grad_() if isinstance(a, np.ndarray) else a
                  for a in args]
        d = build(lib, *params)
        out.append((d, params))
    for name in names:
        m, t = (getattr(d, name) for d, _ in out)
        m, t = (v() if callable(v) else v for v in (m, t))
        assert_same(m, t, rtol=1e-10, atol=1e-10)
    assert repr(out[0][0]) == repr(out[1][0])
    return out


def _grads(out, value_np):
    """Gradients of log_prob(value).sum() + entropy-free: every parameter that requires grad."""
    gs = []
    for (d, params), (lib, conv) in zip(out, LIBS):
        lp = d.log_prob(conv(value_np.copy())).sum()
        tensors = [p for p in params if hasattr(p, "requires_grad")]
        gs.append(lib.autograd.grad(lp, tensors))
    for gm, gt in zip(*gs):
        assert_same(gm, gt, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_low_rank_normal_matches_torch(batch):
    loc, W, D = (RNG.standard_normal(batch + (4,)), RNG.standard_normal((4, 2)),
                 RNG.random(batch + (4,)) + 0.5)
    out = _both(lambda lib, *p: lib.distributions.LowRankMultivariateNormal(*p),
                ["entropy", "mean", "mode", "variance", "stddev", "covariance_matrix",
                 "precision_matrix", "scale_tril", "batch_shape", "event_shape"], [loc, W, D])
    x = RNG.standard_normal((3,) + batch + (4,))
    assert_same(out[0][0].log_prob(mindtorch.from_numpy(x)),
                out[1][0].log_prob(torch.from_numpy(x)), rtol=1e-10, atol=1e-10)
    _grads(out, x)


def test_low_rank_normal_float32_and_errors():
    loc, W, D = (np.zeros(3, np.float32), np.ones((3, 2), np.float32),
                 np.full(3, 2., np.float32))
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    r = [lib.distributions.LowRankMultivariateNormal(c(loc), c(W), c(D)).log_prob(c(x))
         for lib, c in LIBS]
    assert_same(r[0], r[1])
    bad = [((np.zeros(()), W, D), "loc must be at least one-dimensional"),
           ((loc, np.ones(3, np.float32), D), "cov_factor must be at least two-dimensional"),
           ((loc, np.ones((2, 2), np.float32), D), "cov_factor must be a batch of matrices"),
           ((loc, W, np.ones(2, np.float32)), "cov_diag must be a batch of vectors")]
    for args, message in bad:
        for lib, c in LIBS:
            with pytest.raises(ValueError, match=message):
                lib.distributions.LowRankMultivariateNormal(*[c(np.asarray(a)) for a in args])
    for lib, c in LIBS:
        with pytest.raises(RuntimeError, match="positive-definite"):  # before validation
            lib.distributions.LowRankMultivariateNormal(c(loc), c(W), c(-D))
        with pytest.raises(ValueError, match="parameter loc"):  # validation
            lib.distributions.LowRankMultivariateNormal(c(loc * np.nan), c(W), c(D))


@pytest.mark.parametrize("spelling", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_wishart_matches_torch(spelling):
    S = _spd(3)
    param = {"covariance_matrix": S, "precision_matrix": np.linalg.inv(S),
             "scale_tril": np.linalg.cholesky(S)}[spelling]
    df = np.array([3.5, 6.0])
    out = _both(lambda lib, d, p: lib.distributions.Wishart(d, **{spelling: p}),
                ["entropy", "mean", "variance", "mode", "covariance_matrix",
                 "precision_matrix", "scale_tril", "batch_shape", "event_shape"], [df, param])
    X = _spd(3, (4, 1)) / 3
    assert_same(out[0][0].log_prob(mindtorch.from_numpy(X)),
                out[1][0].log_prob(torch.from_numpy(X)), rtol=1e-10, atol=1e-10)
    _grads(out, X)


def test_wishart_number_df_batched_matrices_and_errors():
    S = _spd(2, (3,))
    out = _both(lambda lib, p: lib.distributions.Wishart(5, covariance_matrix=p),
                ["entropy", "batch_shape"], [S])
    X = _spd(2, (3,))
    assert_same(out[0][0].log_prob(mindtorch.from_numpy(X)),
                out[1][0].log_prob(torch.from_numpy(X)), rtol=1e-10, atol=1e-10)
    eye = np.eye(3)
    for lib, c in LIBS:
        with pytest.raises(AssertionError, match="Exactly one of"):
            lib.distributions.Wishart(4., covariance_matrix=c(eye), scale_tril=c(eye))
        with pytest.raises(ValueError, match="at least two-dimensional"):
            lib.distributions.Wishart(4., covariance_matrix=c(np.ones(3)))
        with pytest.raises(ValueError, match="expected to be greater than ndim - 1 = 2"):
            lib.distributions.Wishart(c(np.array(1.5)), covariance_matrix=c(eye))
        with pytest.warns(UserWarning, match="Low df values detected"):
            lib.distributions.Wishart(c(np.array(2.5)), covariance_matrix=c(eye))
        with pytest.raises(ValueError, match="support"):
            lib.distributions.Wishart(4., covariance_matrix=c(eye)).log_prob(c(-eye))
        assert repr(lib.distributions.Wishart(4., covariance_matrix=c(eye)).arg_constraints[
            "df"]) == "GreaterThan(lower_bound=2)"


@pytest.mark.parametrize("dim", [2, 3, 5])
def test_lkj_cholesky_log_prob_matches_torch(dim):
    Ls = np.stack([np.linalg.cholesky(np.corrcoef(RNG.standard_normal((dim, dim + 4))))
                   for _ in range(3)])
    conc = np.array([0.5, 1.0, 3.0])
    out = _both(lambda lib, c: lib.distributions.LKJCholesky(dim, c),
                ["batch_shape", "event_shape"], [conc])
    assert_same(out[0][0].log_prob(mindtorch.from_numpy(Ls)),
                out[1][0].log_prob(torch.from_numpy(Ls)), rtol=1e-10, atol=1e-10)
    _grads(out, Ls)
    for lib, c in LIBS:
        d = lib.distributions.LKJCholesky(dim, 2.0)
        assert repr(d) == "LKJCholesky(concentration: 2.0)" and d.concentration.dtype == \
            lib.float32
        for name in ("mean", "variance"):
            with pytest.raises(NotImplementedError):
                getattr(d, name)
        with pytest.raises(NotImplementedError):
            d.entropy()
        with pytest.raises(ValueError, match="support"):
            d.log_prob(c(np.eye(dim) * 2))
        with pytest.raises(ValueError, match="Found dim=1"):
            lib.distributions.LKJCholesky(1)


def test_low_rank_normal_samples_have_its_moments():
    mindtorch.manual_seed(0)
    loc, W, D = (mindtorch.tensor([1., -2., 0.5]), mindtorch.tensor([[1., 0.], [0.5, 1.],
                                                                       [0., -1.]]),
                 mindtorch.tensor([0.5, 1., 2.]))
    d = mindtorch.distributions.LowRankMultivariateNormal(loc, W, D)
    x = d.sample((40000,))
    assert x.shape == (40000, 3)
    assert (x.mean(0) - loc).abs().max() < 0.05
    cov = (x - x.mean(0)).T @ (x - x.mean(0)) / 40000
    assert (cov - d.covariance_matrix).abs().max() < 0.1
    Wg = W.clone().requires_grad_()
    mindtorch.distributions.LowRankMultivariateNormal(loc, Wg, D).rsample((5,)).sum().backward()
    assert Wg.grad is not None and Wg.grad.shape == (3, 2)


def test_wishart_samples_have_its_moments():
    mindtorch.manual_seed(0)
    S = mindtorch.tensor([[2., 0.5], [0.5, 1.]])
    d = mindtorch.distributions.Wishart(mindtorch.tensor(5.5), covariance_matrix=S)
    x = d.sample((30000,))
    assert x.shape == (30000, 2, 2)
    assert bool(mindtorch.distributions.constraints.positive_definite.check(x).all())
    assert ((x.mean(0) - d.mean).abs() / d.mean.abs()).max() < 0.03
    assert ((x.var(0) - d.variance).abs() / d.variance).max() < 0.08


@pytest.mark.parametrize("dim,conc", [(2, 1.0), (3, 1.0), (4, 2.5)])
def test_lkj_samples_are_correlation_factors_with_torchs_spread(dim, conc):
    corrs = []
    for lib, _ in LIBS:
        lib.manual_seed(0)
        d = lib.distributions.LKJCholesky(dim, conc)
        L = d.sample((20000,))
        assert tuple(L.shape) == (20000, dim, dim)
        assert bool(d.support.check(L).all())
        corrs.append(L @ L.mT)
        assert math.isfinite(d.log_prob(L[:100]).sum().item())
    (m, t), rows, cols = corrs, *np.triu_indices(dim, 1)
    for i, j in zip(rows, cols):  # each correlation: mean 0, torch's spread
        assert abs(m[:, i, j].mean().item()) < 0.02
        assert abs(m[:, i, j].var().item() - t[:, i, j].var().item()) < 0.015
    if dim == 2:  # the one correlation is Beta(c, c) on (-1, 1): variance 1 / (2c + 1)
        assert abs(m[:, 0, 1].var().item() - 1 / (2 * conc + 1)) < 0.01


def test_expand_as_torch():
    S, W = _spd(3), RNG.standard_normal((3, 2))
    L = np.linalg.cholesky(np.corrcoef(RNG.standard_normal((3, 7))))
    X = _spd(3) / 3
    builds = [(lambda lib, c: lib.distributions.LowRankMultivariateNormal(
                   c(np.zeros(3)), c(W), c(np.ones(3))), np.ones(3), ("mean", "variance")),
              (lambda lib, c: lib.distributions.Wishart(c(np.array(4.5)), covariance_matrix=c(S)),
               X, ("mean", "variance", "entropy")),
              (lambda lib, c: lib.distributions.LKJCholesky(3, c(np.array(2.0))), L, ())]
    for build, value, names in builds:
        r = []
        for lib, c in LIBS:
            d = build(lib, c).expand((4, 2))
            assert tuple(d.batch_shape) == (4, 2)
            r.append([d.log_prob(c(value.copy()))] + [
                getattr(d, n)() if callable(getattr(d, n)) else getattr(d, n) for n in names] +
                [tuple(d.sample((5,)).shape)])
        for a, b in zip(*r):
            assert_same(a, b, rtol=1e-10, atol=1e-10)
