"""Exponential, Laplace, Independent and MultivariateNormal against torch.distributions:
values, shapes, reprs, validation errors and gradients (samples by shape and moments)."""
import mindtorch
import pytest
from reference import assert_same, torch

COV = [[2.0, 0.5], [0.5, 1.0]]


def both(fn):
    return fn(mindtorch), fn(torch)


def check(fn):
    ours, theirs = both(fn)
    for o, t in zip(ours, theirs):
        if isinstance(t, torch.Tensor):
            assert_same(o, t)
        else:
            assert str(o) == str(t)


@pytest.mark.parametrize("kind", ["covariance_matrix", "scale_tril", "precision_matrix"])
def test_multivariate_normal(kind):
    def make(L):
        cov = L.tensor(COV, dtype=L.float64)
        m = {"covariance_matrix": cov, "scale_tril": L.linalg.cholesky(cov),
             "precision_matrix": L.linalg.inv(cov)}[kind]
        d = L.distributions.MultivariateNormal(L.tensor([0.5, -1.0], dtype=L.float64), **{kind: m})
        x = L.tensor([[0.5, -0.5], [1.0, 2.0]], dtype=L.float64)
        return [repr(d), d.log_prob(x), d.entropy(), d.covariance_matrix, d.scale_tril,
                d.precision_matrix, d.variance, d.mean, d.batch_shape, d.event_shape,
                d.rsample((3,)).shape, repr(d)]
    check(make)


def test_multivariate_normal_batches_errors_and_grad():
    check(lambda L: [L.distributions.MultivariateNormal(L.zeros(3, 2), L.tensor(COV)).log_prob(
        L.ones(2)), L.distributions.MultivariateNormal(L.zeros(2), L.tensor(COV).expand(4, 2, 2)
                                                       ).entropy()])
    for bad in (lambda L: L.distributions.MultivariateNormal(L.zeros(2), -L.tensor(COV)),
                lambda L: L.distributions.MultivariateNormal(L.zeros(2)),
                lambda L: L.distributions.MultivariateNormal(L.zeros(2), L.ones(2))):
        with pytest.raises(ValueError) as theirs:
            bad(torch)
        with pytest.raises(ValueError) as ours:
            bad(mindtorch)
        assert str(ours.value)[:60] == str(theirs.value)[:60]

    def grad(L):
        mu = L.tensor([0.5, 0.1], dtype=L.float64, requires_grad=True)
        L.distributions.MultivariateNormal(mu, L.tensor(COV, dtype=L.float64)).log_prob(
            L.tensor([1.0, 1.0], dtype=L.float64)).backward()
        return [mu.grad]
    check(grad)
    x = mindtorch.distributions.MultivariateNormal(mindtorch.zeros(2), mindtorch.tensor(COV))
    s = x.sample((20000,))
    assert (s.T.cov() - mindtorch.tensor(COV)).abs().max() < 0.1


def test_exponential_laplace_independent():
    def make(L):
        D, v = L.distributions, L.tensor([0.3, 1.5])
        e, lp = D.Exponential(L.tensor([0.5, 2.0])), D.Laplace(L.tensor([0.0, 1.0]), L.tensor([1.0, 0.5]))
        ind = D.Independent(D.Normal(L.zeros(4, 3), L.ones(4, 3)), 1)
        q = L.tensor([0.1, 0.9])
        return [repr(e), e.log_prob(v), e.cdf(v), e.icdf(q), e.entropy(), e.mean, e.variance,
                e.stddev, e.mode, e.sample((4,)).shape, e.support,
                repr(lp), lp.log_prob(v), lp.cdf(v), lp.icdf(q), lp.entropy(), lp.variance,
                lp.stddev, lp.rsample((2,)).shape,
                repr(ind), ind.batch_shape, ind.event_shape, ind.log_prob(L.ones(4, 3)),
                ind.entropy(), ind.sample((2,)).shape, ind.has_rsample]
    check(make)
    for bad in (lambda L: L.distributions.Exponential(L.tensor([-1.0])),
                lambda L: L.distributions.Exponential(L.tensor([1.0])).log_prob(L.tensor([-1.0]))):
        with pytest.raises(ValueError):
            bad(torch)
        with pytest.raises(ValueError):
            bad(mindtorch)
    s = mindtorch.distributions.Laplace(1.0, 2.0).sample((40000,))
    assert abs(s.mean().item() - 1) < 0.1 and abs(s.var().item() - 8) < 0.5
    s = mindtorch.distributions.Exponential(2.0).rsample((40000,))
    assert abs(s.mean().item() - 0.5) < 0.02 and s.min() >= 0
