"""Gamma, Beta, Dirichlet, Poisson and LogNormal against torch.distributions (values,
reprs, supports, validation, gradients) and their samplers by moments."""

import mindtorch
import pytest


def _values(L):
    D = L.distributions
    g = D.Gamma(L.tensor([0.5, 2.0]), L.tensor([1.0, 3.0]))
    b = D.Beta(L.tensor([2.0, 0.5]), L.tensor([3.0, 0.7]))
    dd = D.Dirichlet(L.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 2.0]]))
    p = D.Poisson(L.tensor([3.0, 0.5]))
    ln = D.LogNormal(L.tensor([0.0, 0.5]), L.tensor([1.0, 1.5]))
    return [repr(g), g.log_prob(L.tensor([0.3, 1.2])), g.entropy(), g.mode, g.variance,
            g.support, repr(b), b.log_prob(L.tensor([0.4, 0.9])), b.entropy(), b.mean,
            b.variance, b.concentration1, repr(dd), dd.log_prob(L.tensor([0.2, 0.3, 0.5])),
            dd.entropy(), dd.mean, dd.variance, dd.event_shape, D.Dirichlet.arg_constraints,
            repr(p), p.log_prob(L.tensor([2.0, 0.0])), p.mode, p.support, repr(ln),
            ln.log_prob(L.tensor([1.5, 0.2])), ln.entropy(), ln.mean, ln.mode, ln.variance,
            repr(D.Gamma(2.0, 1.0)), repr(D.Poisson(3.0))]


def test_values_match_torch():
    from reference import torch
    for ours, theirs in zip(_values(mindtorch), _values(torch)):
        if isinstance(theirs, torch.Tensor):
            assert ours.reshape(-1).tolist() == pytest.approx(theirs.reshape(-1).tolist(),
                                                              rel=1e-5, abs=1e-6)
            assert tuple(ours.shape) == tuple(theirs.shape)
            assert str(ours.dtype) == str(theirs.dtype)
        else:
            assert str(ours) == str(theirs)


def test_validation_errors():
    from reference import torch
    for bad in (lambda L: L.distributions.Gamma(L.tensor([-1.0]), L.tensor([1.0])),
                lambda L: L.distributions.Poisson(L.tensor([1.0])).log_prob(L.tensor([1.5])),
                lambda L: L.distributions.Beta(0.5, 0.5).log_prob(L.tensor(1.5)),
                lambda L: L.distributions.Dirichlet(L.tensor(1.0)),
                lambda L: L.distributions.LogNormal(0.0, 1.0).log_prob(L.tensor(-1.0))):
        with pytest.raises(ValueError):
            bad(torch)
        with pytest.raises(ValueError):
            bad(mindtorch)


@pytest.mark.parametrize("c,r", [(0.5, 1.0), (2.0, 3.0), (7.5, 0.5)])
def test_gamma_samples_by_moments(c, r):
    mindtorch.manual_seed(0)
    s = mindtorch.distributions.Gamma(c, r).sample((40000,))
    assert s.min() > 0
    assert abs(s.mean().item() / (c / r) - 1) < 0.03
    assert abs(s.var().item() / (c / r ** 2) - 1) < 0.08


def test_beta_dirichlet_poisson_lognormal_samples():
    mindtorch.manual_seed(1)
    D = mindtorch.distributions
    s = D.Beta(2.0, 5.0).sample((40000,))
    assert abs(s.mean().item() - 2 / 7) < 0.01 and 0 < s.min() and s.max() < 1
    d = D.Dirichlet(mindtorch.tensor([1.0, 2.0, 3.0])).sample((20000,))
    assert (d.sum(-1) - 1).abs().max() < 1e-5
    assert (d.mean(0) - mindtorch.tensor([1 / 6, 2 / 6, 3 / 6])).abs().max() < 0.01
    p = D.Poisson(mindtorch.tensor(4.0)).sample((40000,))
    assert abs(p.mean().item() - 4) < 0.05 and (p % 1 == 0).all()
    ln = D.LogNormal(0.0, 0.5).sample((40000,))
    assert abs(ln.log().mean().item()) < 0.01 and abs(ln.log().std().item() - 0.5) < 0.01


def test_rate_gradient():
    from reference import torch

    def run(L):
        r = L.tensor([2.0], requires_grad=True)
        L.distributions.Gamma(L.tensor([3.0]), r).log_prob(L.tensor([0.7])).sum().backward()
        return r.grad.tolist()
    assert run(mindtorch) == pytest.approx(run(torch))
