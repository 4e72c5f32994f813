"""The structured transforms (softmax, stick-breaking, Cholesky, positive definite,
correlation Cholesky, reshape, independent, cat, stack, cdf) against torch: forward,
inverse, log|det J| with its gradient, shapes, domains and errors."""
import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch

RNG = np.random.default_rng(0)
VEC = RNG.standard_normal((2, 3, 4))
MAT = RNG.standard_normal((2, 3, 3))
SIX = RNG.standard_normal((2, 6))


def _T(L):
    return L.distributions.transforms


CASES = {  # name: (build(L), input)
    "softmax": (lambda L: _T(L).SoftmaxTransform(), VEC),
    "stick_breaking": (lambda L: _T(L).StickBreakingTransform(), VEC),
    "lower_cholesky": (lambda L: _T(L).LowerCholeskyTransform(), MAT),
    "positive_definite": (lambda L: _T(L).PositiveDefiniteTransform(), MAT),
    "corr_cholesky": (lambda L: _T(L).CorrCholeskyTransform(), SIX),
    "reshape": (lambda L: _T(L).ReshapeTransform((3, 4), (2, 6)), VEC),
    "independent": (lambda L: _T(L).IndependentTransform(_T(L).ExpTransform(), 2), VEC),
    "cat": (lambda L: _T(L).CatTransform(
        [_T(L).ExpTransform(), _T(L).AffineTransform(1.0, 3.0), _T(L).SigmoidTransform()],
        dim=-1, lengths=[1, 2, 1]), VEC),
    "cat dim 1": (lambda L: _T(L).CatTransform(
        [_T(L).ExpTransform(), _T(L).TanhTransform()], dim=1, lengths=[2, 1]), VEC),
    "stack": (lambda L: _T(L).StackTransform(
        [_T(L).ExpTransform(), _T(L).AffineTransform(1.0, -2.0), _T(L).SigmoidTransform()],
        dim=1), VEC),
    "cdf": (lambda L: _T(L).CumulativeDistributionTransform(
        L.distributions.Normal(L.tensor(0.5, dtype=L.float64), L.tensor(2.0, dtype=L.float64))),
        VEC),
    "inverse stick_breaking": (lambda L: _T(L).StickBreakingTransform().inv,
                               np.full((2, 3), 1 / 3)),
}
HAS_LADJ = {"softmax": False, "lower_cholesky": False, "positive_definite": False}


def _run(L, name):
    build, data = CASES[name]
    t = build(L)
    x = L.tensor(data, dtype=L.float64, requires_grad=True)
    y = t(x)
    out = {"y": y, "x back": t.inv(y), "bijective": t.bijective,
           "domain": repr(t.domain), "codomain": repr(t.codomain),
           "event dims": (t.domain.event_dim, t.codomain.event_dim),
           "forward_shape": tuple(t.forward_shape(tuple(x.shape))),
           "inverse_shape": tuple(t.inverse_shape(tuple(y.shape))),
           "repr": repr(t), "equal": t == build(L)}
    if HAS_LADJ.get(name, True):
        ladj = t.log_abs_det_jacobian(x, y)
        (ladj.sum() + y.pow(2).sum()).backward()
        out["ladj"], out["grad"] = ladj, x.grad
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_transform_matches_torch(name):
    want, got = _run(torch, name), _run(mindtorch, name)
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, torch.Tensor):
            assert_same(got[key], value, rtol=1e-9, atol=1e-10)
        else:
            assert got[key] == value, key


def test_cached_inverse_and_with_cache():
    for L in (torch, mindtorch):
        t = _T(L).IndependentTransform(_T(L).StickBreakingTransform(), 1, cache_size=1)
        x = L.zeros(2, 3)
        y = t(x)
        assert t.inv(y) is x
        assert type(_T(L).CatTransform([_T(L).ExpTransform()]).with_cache(1)).__name__ == \
            "CatTransform"
        assert _T(L).ComposeTransform([_T(L).ExpTransform()]).with_cache(1)._cache_size == 1


@pytest.mark.parametrize("bad", [
    lambda L: _T(L).ReshapeTransform((3, 4), (5,)),
    lambda L: _T(L).ReshapeTransform((3, 4), (12,)).forward_shape((2, 4, 3)),
    lambda L: _T(L).ReshapeTransform((3, 4), (12,)).forward_shape((4,)),
    lambda L: _T(L).CorrCholeskyTransform().forward_shape((5,)),
    lambda L: _T(L).CorrCholeskyTransform().inverse_shape((3, 2)),
    lambda L: _T(L).SoftmaxTransform().forward_shape(()),
])
def test_shape_errors(bad):
    messages = []
    for L in (torch, mindtorch):
        with pytest.raises(ValueError) as info:
            bad(L)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_stick_breaking_in_transformed_distribution():
    def run(L):
        base = L.distributions.Normal(L.tensor([[0.5, -1.0, 2.0]], dtype=L.float64),
                                      L.tensor([1.0, 2.0, 0.5], dtype=L.float64))
        d = L.distributions.TransformedDistribution(base, [_T(L).StickBreakingTransform()])
        value = L.tensor([[0.1, 0.2, 0.3, 0.4]], dtype=L.float64)
        return [d.log_prob(value), d.event_shape, d.batch_shape, repr(d.support)]
    got, want = run(mindtorch), run(torch)
    assert_same(got[0], want[0])
    assert (tuple(got[1]), tuple(got[2]), got[3]) == (tuple(want[1]), tuple(want[2]), want[3])


def test_sign_and_monotone_cdf():
    results = []
    for L in (torch, mindtorch):
        T = _T(L)
        with pytest.raises(NotImplementedError):
            T.Transform().sign  # noqa: B018
        signs = T.ExpTransform().sign, T.ExpTransform().inv.sign, T.TanhTransform().sign
        assert signs == (1, 1, 1)
        base = L.distributions.Normal(L.tensor([0.5, -1.0], dtype=L.float64), 2.0)
        flipped = L.distributions.TransformedDistribution(
            base, [T.AffineTransform(1.0, -3.0), T.ExpTransform()])
        value = L.tensor([0.5, 2.0], dtype=L.float64)
        results.append((flipped.cdf(value), flipped.icdf(L.tensor([0.2, 0.7], dtype=L.float64))))
        with pytest.raises(NotImplementedError):
            L.distributions.TransformedDistribution(base, [T.AbsTransform()]).cdf(value)
    assert_same(results[1][0], results[0][0])
    assert_same(results[1][1], results[0][1])


def test_pickle_and_deepcopy_after_inverse():
    import copy
    import pickle
    t = _T(mindtorch).ExpTransform()
    inverse = t.inv  # (held weakly by t)
    d = mindtorch.distributions.TransformedDistribution(
        mindtorch.distributions.Normal(mindtorch.zeros(2), 1.0), [t, inverse])
    for clone in (copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        x = mindtorch.tensor([1.5, 2.0])  # (log log x: x > 1)
        np.testing.assert_array_equal(clone.log_prob(x).numpy(), d.log_prob(x).numpy())
    assert repr(pickle.loads(pickle.dumps(inverse))) == "_InverseTransform(ExpTransform())"


def test_compose_inverse_is_linked_both_ways():
    for L in (torch, mindtorch):
        T = _T(L)
        t = T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)])
        inv = t.inv
        assert t.inv is inv and inv.inv is t
        x = L.tensor([0.5, 1.0])
        assert bool((inv(t(x)) - x).abs().max() < 1e-6)
