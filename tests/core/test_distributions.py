"""torch.distributions subset against PyTorch: log_prob/cdf/icdf/entropy/mean/variance/mode
values and gradients, shapes, reprs, validation errors, kl_divergence; samples by their
shapes and moments (the generators differ)."""
import mindtorch
import numpy as np
import pytest
import torch


def both(make):
    return make(torch), make(mindtorch)


def close(a, b, tol=1e-10):
    a = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
    b = b.detach().numpy() if hasattr(b, "detach") else np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_allclose(b, a, rtol=tol, atol=tol)


LOC = np.array([[0.0, 1.5, -2.0], [0.3, -0.1, 4.0]])
SCALE = np.array([[1.0, 0.5, 2.0], [3.0, 0.2, 1.0]])
P = np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
FAMILIES = {
    "normal": (lambda L: L.distributions.Normal(L.tensor(LOC), L.tensor(SCALE)), LOC + 0.25),
    "normal_scalar": (lambda L: L.distributions.Normal(0.5, 2.0), np.array([0.1, -3.0])),
    "uniform": (lambda L: L.distributions.Uniform(L.tensor(LOC), L.tensor(LOC + SCALE)),
                LOC + 0.1),
    "bernoulli": (lambda L: L.distributions.Bernoulli(probs=L.tensor(P)), (P > 0.2) * 1.0),
    "bernoulli_logits": (lambda L: L.distributions.Bernoulli(logits=L.tensor(LOC)),
                         (LOC > 0) * 1.0),
    "categorical": (lambda L: L.distributions.Categorical(probs=L.tensor(P)),
                    np.array([1, 2])),
    "categorical_logits": (lambda L: L.distributions.Categorical(logits=L.tensor(LOC)),
                           np.array([[0, 2], [1, 1]])),
}


@pytest.mark.parametrize("name", list(FAMILIES))
def test_values_as_torch(name):
    make, value = FAMILIES[name]
    t, m = both(make)
    assert repr(m) == repr(t)
    assert (m.batch_shape, m.event_shape) == (t.batch_shape, t.event_shape)
    assert repr(m.support) == repr(t.support)
    tv, mv = torch.tensor(value), mindtorch.tensor(value)
    if "categorical" in name:
        tv, mv = tv.long(), mv.long()
    close(t.log_prob(tv), m.log_prob(mv))
    close(t.entropy(), m.entropy())
    for attr in ("mean", "variance", "stddev", "mode", "probs", "logits"):
        if hasattr(t, attr) and not (name.startswith("uniform") and attr == "mode"):
            try:
                want = getattr(t, attr)
            except NotImplementedError:
                continue
            close(want, getattr(m, attr))
    if name.startswith(("normal", "uniform")):
        close(t.cdf(tv), m.cdf(mv))
        q = np.full(tv.shape, 0.3)
        close(t.icdf(torch.tensor(q)), m.icdf(mindtorch.tensor(q)))


def test_gradients_as_torch():
    grads = []
    for L in (torch, mindtorch):
        loc = L.tensor(LOC, requires_grad=True)
        scale = L.tensor(SCALE, requires_grad=True)
        logits = L.tensor(LOC, requires_grad=True)
        d = L.distributions
        n = d.Normal(loc, scale)
        total = n.log_prob(L.tensor(LOC + 0.3)).sum() + n.entropy().sum() \
            + d.Categorical(logits=logits).log_prob(L.tensor([0, 2])).sum() \
            + d.kl_divergence(n, d.Normal(L.zeros(3, dtype=L.float64), 1.0)).sum()
        total.backward()
        grads.append([loc.grad, scale.grad, logits.grad])
    for a, b in zip(*grads):
        close(a, b)


def test_rsample_is_differentiable_and_samples_have_the_law():
    mindtorch.manual_seed(0)
    loc = mindtorch.tensor([1.0, -2.0], requires_grad=True)
    n = mindtorch.distributions.Normal(loc, mindtorch.tensor([0.5, 2.0]))
    x = n.rsample((20000,))
    assert x.shape == (20000, 2) and n.sample().shape == (2,) and not n.sample().requires_grad
    x.sum().backward()
    assert loc.grad.tolist() == [20000.0, 20000.0]
    np.testing.assert_allclose(x.detach().mean(0).numpy(), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(x.detach().std(0).numpy(), [0.5, 2.0], atol=0.05)
    c = mindtorch.distributions.Categorical(probs=mindtorch.tensor([0.2, 0.8]))
    s = c.sample((4000,))
    assert s.dtype == mindtorch.int64 and s.shape == (4000,)
    assert abs(s.float().mean().item() - 0.8) < 0.05
    assert c.sample().shape == () and c.sample((2, 3)).shape == (2, 3)
    b = mindtorch.distributions.Bernoulli(probs=mindtorch.tensor([0.1, 0.9]))
    assert abs(b.sample((4000,)).mean(0)[1].item() - 0.9) < 0.05
    u = mindtorch.distributions.Uniform(2.0, 3.0).sample((1000,))
    assert 2.0 <= u.min().item() and u.max().item() < 3.0


@pytest.mark.parametrize("pair", ["normal", "categorical", "bernoulli", "uniform"])
def test_kl_divergence_as_torch(pair):
    def make(L):
        d = L.distributions
        if pair == "normal":
            return d.Normal(L.tensor(LOC), L.tensor(SCALE)), d.Normal(L.tensor(LOC * 0.5), 1.5)
        if pair == "categorical":
            q = L.tensor([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
            return d.Categorical(probs=L.tensor(P)), d.Categorical(probs=q)
        if pair == "bernoulli":
            return d.Bernoulli(L.tensor(P)), d.Bernoulli(L.tensor(np.array([[0.5, 0.0, 1.0],
                                                                             [0.2, 0.3, 0.5]])))
        return d.Uniform(L.tensor(LOC), L.tensor(LOC + 1)), d.Uniform(L.tensor(LOC - 0.5),
                                                                     L.tensor(LOC + 0.8))
    (tp, tq), (mp, mq) = both(make)
    close(torch.distributions.kl_divergence(tp, tq), mindtorch.distributions.kl_divergence(mp, mq))


def test_validation_errors_as_torch():
    cases = [lambda L: L.distributions.Normal(0.0, -1.0),
             lambda L: L.distributions.Normal(L.tensor([0.0]), L.tensor([float("nan")])),
             lambda L: L.distributions.Normal(0.0, 1.0).log_prob(L.tensor(float("nan"))),
             lambda L: L.distributions.Normal(0.0, 1.0).log_prob(0.5),
             lambda L: L.distributions.Bernoulli(probs=1.5),
             lambda L: L.distributions.Bernoulli(probs=0.3, logits=0.1),
             lambda L: L.distributions.Bernoulli(0.3).log_prob(L.tensor(0.5)),
             lambda L: L.distributions.Categorical(probs=L.tensor([0.5, -0.1])),
             lambda L: L.distributions.Categorical(probs=L.ones(3)).log_prob(L.tensor(5)),
             lambda L: L.distributions.Categorical(probs=L.tensor(1.0)),
             lambda L: L.distributions.Normal(L.zeros(2), 1.0).log_prob(L.zeros(3)),
             lambda L: L.distributions.Uniform(0.0, 2.0).log_prob(L.tensor(3.0))]
    for case in cases:
        errors = []
        for L in (torch, mindtorch):
            with pytest.raises(ValueError) as e:
                case(L)
            errors.append(str(e.value))
        assert errors[1] == errors[0]
    # validate_args=False computes outside the support, as PyTorch
    close(torch.distributions.Uniform(0.0, 2.0, validate_args=False).log_prob(torch.tensor(3.0)),
          mindtorch.distributions.Uniform(0.0, 2.0, validate_args=False).log_prob(
              mindtorch.tensor(3.0)))


def test_policy_gradient_step_as_torch():
    """REINFORCE: the loss -log_prob(action) * return, entropy bonus, one SGD step."""
    out = []
    for L in (torch, mindtorch):
        w = L.tensor(np.linspace(-0.5, 0.5, 12).reshape(4, 3), requires_grad=True)
        obs = L.tensor(np.linspace(0, 1, 8).reshape(2, 4))
        dist = L.distributions.Categorical(logits=obs @ w)
        actions = L.tensor([2, 0])
        loss = -(dist.log_prob(actions) * L.tensor([1.0, -0.5], dtype=L.float64)).mean() \
            - 0.01 * dist.entropy().mean()
        loss.backward()
        out.append((loss, w.grad))
    close(out[0][0], out[1][0])
    close(out[0][1], out[1][1])
