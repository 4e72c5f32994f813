"""Small programs that combine the distributions as users do (a squashed Gaussian
policy, a mixture density network, a VAE loss, constrained parameters through
biject_to, a planar-style flow with a custom Transform), run with torch and mindtorch on
the same inputs and seeds: same values and gradients."""
import mindtorch
import numpy as np
import pytest
from reference import torch

RNG = np.random.default_rng(7)
OBS = RNG.standard_normal((5, 3))
W = RNG.standard_normal((3, 4)) * 0.5


def _param(L, data):
    return L.tensor(data, dtype=L.float64, requires_grad=True)


def squashed_policy(L):
    D = L.distributions
    w = _param(L, W)
    h = L.tensor(OBS, dtype=L.float64) @ w
    mu, log_std = h[:, :2], h[:, 2:].clamp(-5, 2)
    base = D.Independent(D.Normal(mu, log_std.exp()), 1)
    policy = D.TransformedDistribution(base, [D.transforms.TanhTransform(cache_size=1),
                                              D.transforms.AffineTransform(0.5, 2.0)])
    L.manual_seed(0)
    action = policy.rsample()
    log_prob = policy.log_prob(action)
    loss = (log_prob - action.pow(2).sum(-1)).mean()
    loss.backward()
    return [action, log_prob, loss, w.grad, policy.expand((2, 5)).log_prob(action)]


def mixture_density(L):
    D = L.distributions
    w = _param(L, W)
    h = L.tensor(OBS, dtype=L.float64) @ w  # (5, 4): 2 logits, 2 means
    mix = D.Categorical(logits=h[:, :2])
    comp = D.Independent(D.Normal(h[:, 2:].unsqueeze(-1).expand(5, 2, 3),
                                  L.ones(5, 2, 3, dtype=L.float64)), 1)
    gmm = D.MixtureSameFamily(mix, comp)
    y = L.tensor(OBS, dtype=L.float64)
    nll = -gmm.log_prob(y).mean()
    nll.backward()
    L.manual_seed(1)
    return [nll, w.grad, gmm.mean, gmm.variance, gmm.sample((2,)), gmm.expand((3, 5)).batch_shape]


def vae_loss(L):
    D = L.distributions
    w = _param(L, W)
    h = L.tensor(OBS, dtype=L.float64) @ w
    q = D.Normal(h[:, :2], h[:, 2:].exp())
    prior = D.Normal(L.zeros_like(h[:, :2]), L.ones_like(h[:, :2]))
    L.manual_seed(2)
    z = q.rsample()
    kl = D.kl_divergence(q, prior).sum(-1)
    kl_mc = (q.log_prob(z) - prior.log_prob(z)).sum(-1)
    kl_ind = D.kl_divergence(D.Independent(q, 1), D.Independent(prior, 1))
    (kl.mean() + z.pow(2).mean()).backward()
    return [z, kl, kl_mc, kl_ind, w.grad]


def constrained(L):
    D = L.distributions
    raw = _param(L, [[0.3, -1.2, 0.5], [2.0, 0.1, -0.4]])
    two = L.tensor(2.0, dtype=L.float64)
    simplex = D.biject_to(D.constraints.simplex)(raw)
    scale = D.transform_to(D.constraints.positive)(raw)
    corr = D.biject_to(D.constraints.corr_cholesky)(raw)
    lkj = D.LKJCholesky(3, two)
    loss = (D.Dirichlet(L.ones(4, dtype=L.float64) * 2).log_prob(simplex).sum()
            + D.Gamma(two, 1.0).log_prob(scale).sum() + lkj.log_prob(corr).sum()
            + D.biject_to(D.constraints.simplex).log_abs_det_jacobian(raw, simplex).sum())
    loss.backward()
    return [simplex, scale, corr, loss, raw.grad]


def custom_flow(L):
    D = L.distributions

    class Shift(D.transforms.Transform):
        domain = D.constraints.real
        codomain = D.constraints.real
        bijective = True
        sign = +1

        def __init__(self, shift):
            super().__init__()
            self.shift = shift

        def _call(self, x):
            return x + self.shift.tanh() * x.tanh()

        def _inverse(self, y):
            raise NotImplementedError

        def log_abs_det_jacobian(self, x, y):
            return (1 + self.shift.tanh() * (1 - x.tanh().pow(2))).log()

    shift = _param(L, [0.3, -0.5])
    flow = D.TransformedDistribution(D.Normal(L.zeros(2, dtype=L.float64), 1.0),
                                     [Shift(shift), D.transforms.ExpTransform()])
    L.manual_seed(3)
    x = flow.base_dist.sample((4,))
    y = flow.transforms[1](flow.transforms[0](x))
    log_det = sum(t.log_abs_det_jacobian(a, b) for t, a, b in
                  zip(flow.transforms, [x, flow.transforms[0](x)], [flow.transforms[0](x), y]))
    loss = (flow.base_dist.log_prob(x) - log_det).sum()
    loss.backward()
    return [y, loss, shift.grad]


@pytest.mark.parametrize("program", [squashed_policy, mixture_density, vae_loss, constrained,
                                     custom_flow], ids=lambda f: f.__name__)
def test_program_matches_torch(program):
    want, got = program(torch), program(mindtorch)
    for w, g in zip(want, got):
        if isinstance(w, torch.Tensor):
            np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-9,
                                       atol=1e-11)
        else:
            assert tuple(g) == tuple(w) if isinstance(w, torch.Size) else g == w
