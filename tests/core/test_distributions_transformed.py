"""TransformedDistribution with the elementwise transforms, OneHotCategorical (and its
straight-through form) and MixtureSameFamily against PyTorch: log_prob, cdf/icdf,
moments, transform inverses and Jacobians, shapes, reprs, gradients and errors; samples by
shape and support (mindtorch's generator is not PyTorch's)."""
import mindtorch
import numpy as np
import pytest
import torch
from reference import assert_same

X = np.array([[0.3, -1.2], [2.0, 0.5], [-0.7, 0.05]])


def _same(ours, theirs):
    """Tensors to 1e-10 (dtype and shape exactly); anything else equal."""
    assert len(ours) == len(theirs)
    for o, e in zip(ours, theirs):
        if isinstance(e, torch.Tensor):
            assert_same(o, e, rtol=1e-10, atol=1e-12)
        else:
            assert o == e, (o, e)


def _t(L, a, grad=False):
    return L.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def _transforms(L):
    T = L.distributions.transforms
    return {"tanh": T.TanhTransform(), "exp": T.ExpTransform(), "sigmoid": T.SigmoidTransform(),
            "softplus": T.SoftplusTransform(), "affine": T.AffineTransform(0.5, -2.0),
            "affine_t": T.AffineTransform(_t(L, [1.0, -1.0]), _t(L, [0.5, 3.0])),
            "affine_ev": T.AffineTransform(_t(L, [1.0, -1.0]), _t(L, [0.5, 3.0]), event_dim=1),
            "compose": T.ComposeTransform([T.AffineTransform(0.0, 0.5), T.TanhTransform()]),
            "power": T.PowerTransform(_t(L, 2.5))}


@pytest.mark.parametrize("name", list(_transforms(torch)))
def test_transforms_as_torch(name):
    def run(L):
        t = _transforms(L)[name]
        x = _t(L, np.abs(X) if name == "power" else X, grad=True)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        back = t.inv(y)
        (y.sum() + ladj.sum()).backward()
        return [y, ladj, back, x.grad, t.bijective, repr(t).replace("torch.", ""),
                t.domain.event_dim, t.codomain.event_dim]
    _same(run(mindtorch), run(torch))


def _squashed(L, loc, scale):
    D = L.distributions
    return D.TransformedDistribution(D.Normal(loc, scale), [D.TanhTransform(cache_size=1)])


def test_squashed_gaussian_policy_as_torch():
    """SAC's tanh-squashed Gaussian: log_prob of given actions, shapes, support, repr and
    the gradient of a loss through log_prob."""
    def run(L):
        D = L.distributions
        loc, scale = _t(L, X, True), _t(L, np.exp(X / 3), True)
        dist = _squashed(L, loc, scale)
        actions = _t(L, np.tanh(X[::-1].copy()))
        lp = dist.log_prob(actions)
        lp.sum().backward()
        lognormal = D.TransformedDistribution(D.Normal(_t(L, 0.2), _t(L, 0.7)),
                                              [D.AffineTransform(0.1, 2.0), D.ExpTransform()])
        v = _t(L, [0.5, 1.5, 4.0])
        return [lp, loc.grad, scale.grad, tuple(dist.batch_shape), tuple(dist.event_shape),
                repr(dist.support), repr(dist), dist.has_rsample, lognormal.log_prob(v),
                lognormal.cdf(v), lognormal.icdf(_t(L, [0.1, 0.5, 0.9]))]
    _same(run(mindtorch), run(torch))


def test_squashed_sample_uses_the_cached_inverse():
    dist = _squashed(mindtorch, _t(mindtorch, X), _t(mindtorch, np.ones_like(X)))
    a = dist.rsample((4,))
    assert tuple(a.shape) == (4, 3, 2) and bool((a.abs() <= 1).all())
    assert bool(dist.log_prob(a).isfinite().all()) and a.requires_grad is False
    with pytest.raises(ValueError):
        dist.log_prob(_t(mindtorch, np.full((3, 2), 1.5)))


def test_one_hot_categorical_as_torch():
    logits = np.array([[0.1, 0.5, -0.2], [1.0, -1.0, 0.0]])

    def run(L):
        D = L.distributions
        lg = _t(L, logits, True)
        d = D.OneHotCategorical(logits=lg)
        v = _t(L, [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
        lp = d.log_prob(v)
        st = D.OneHotCategoricalStraightThrough(logits=lg)
        (st.rsample() * _t(L, [1.0, 2.0, 3.0])).sum().backward()
        return [lp, d.entropy(), d.mean, d.variance, d.mode, d.enumerate_support(),
                tuple(d.sample((5,)).shape), tuple(d.batch_shape), tuple(d.event_shape),
                repr(d), tuple(lg.grad.shape), float(d.sample().sum(-1).sum())]
    _same(run(mindtorch), run(torch))
    with pytest.raises(ValueError):
        mindtorch.distributions.OneHotCategorical(logits=_t(mindtorch, logits)).log_prob(
            _t(mindtorch, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]))


def test_mixture_same_family_as_torch():
    def run(L):
        D = L.distributions
        w = _t(L, [[0.3, 0.7], [0.5, 0.5]], True)
        mix = D.MixtureSameFamily(D.Categorical(probs=w),
                                  D.Normal(_t(L, [[-1.0, 1.0], [0.0, 2.0]]),
                                           _t(L, [[0.5, 0.8], [1.0, 0.3]])))
        x = _t(L, [0.2, 1.7])
        lp = mix.log_prob(x)
        lp.sum().backward()
        gmm = D.MixtureSameFamily(D.Categorical(logits=_t(L, [0.2, -0.4])),
                                  D.Independent(D.Normal(_t(L, [[0.0, 1.0], [2.0, -1.0]]),
                                                         _t(L, [[1.0, 0.5], [0.7, 0.9]])), 1))
        return [lp, w.grad, mix.mean, mix.variance, mix.cdf(x), tuple(mix.sample((3,)).shape),
                repr(mix).replace("torch.", ""), gmm.log_prob(_t(L, [[0.5, 0.5], [1.0, -1.0]])),
                gmm.mean, tuple(gmm.sample((4,)).shape)]
    _same(run(mindtorch), run(torch))
    for L in (torch, mindtorch):
        D = L.distributions
        with pytest.raises(ValueError):
            D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(_t(L, [0.0]), _t(L, [1.0])))
        with pytest.raises(ValueError):
            D.MixtureSameFamily(D.Categorical(logits=_t(L, [0.0, 1.0, 2.0])),
                                D.Normal(_t(L, [0.0, 1.0]), _t(L, [1.0, 1.0])))
