"""Distribution.expand for every family against torch.distributions: shapes, moments,
log_prob, entropy and seeded samples of the expanded distribution (parameters expanded,
inner distributions and cached factors carried over), and the errors of a bad expand."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch


def _t(L, values, dtype="float64"):
    return L.tensor(values, dtype=getattr(L, dtype))


P3 = [0.2, 0.5, 0.7]
LOC3 = [-1.0, 0.5, 2.0]
SCALE3 = [0.5, 1.0, 2.0]
COV = [[2.0, 0.5], [0.5, 1.0]]

# name: (make(L) -> distribution, expand shape)
FAMILIES = {
    "Normal": (lambda L: L.distributions.Normal(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "Normal scalar": (lambda L: L.distributions.Normal(0.5, 2.0), (4,)),
    "Uniform": (lambda L: L.distributions.Uniform(_t(L, LOC3), _t(L, [3.0, 4.0, 5.0])), (2, 3)),
    "Bernoulli probs": (lambda L: L.distributions.Bernoulli(_t(L, P3)), (2, 3)),
    "Bernoulli logits": (lambda L: L.distributions.Bernoulli(logits=_t(L, LOC3)), (2, 3)),
    "Categorical": (lambda L: L.distributions.Categorical(_t(L, [[0.1, 0.2, 0.7],
                                                                  [0.3, 0.3, 0.4]])), (3, 2)),
    "Categorical logits": (lambda L: L.distributions.Categorical(logits=_t(L, LOC3)), (2, 2)),
    "Exponential": (lambda L: L.distributions.Exponential(_t(L, SCALE3)), (2, 3)),
    "Laplace": (lambda L: L.distributions.Laplace(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "Gamma": (lambda L: L.distributions.Gamma(_t(L, SCALE3), _t(L, [1.0, 2.0, 3.0])), (2, 3)),
    "Chi2": (lambda L: L.distributions.Chi2(_t(L, SCALE3)), (2, 3)),
    "Beta": (lambda L: L.distributions.Beta(_t(L, SCALE3), _t(L, [1.0, 2.0, 3.0])), (2, 3)),
    "Dirichlet": (lambda L: L.distributions.Dirichlet(_t(L, [[0.5, 1.0, 2.0]])), (3, 1)),
    "Poisson": (lambda L: L.distributions.Poisson(_t(L, SCALE3)), (2, 3)),
    "LogNormal": (lambda L: L.distributions.LogNormal(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "Cauchy": (lambda L: L.distributions.Cauchy(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "HalfNormal": (lambda L: L.distributions.HalfNormal(_t(L, SCALE3)), (2, 3)),
    "HalfCauchy": (lambda L: L.distributions.HalfCauchy(_t(L, SCALE3)), (2, 3)),
    "Gumbel": (lambda L: L.distributions.Gumbel(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "StudentT": (lambda L: L.distributions.StudentT(_t(L, [3.0, 4.0, 5.0]), _t(L, LOC3)), (2, 3)),
    "Geometric": (lambda L: L.distributions.Geometric(_t(L, P3)), (2, 3)),
    "Binomial": (lambda L: L.distributions.Binomial(5, _t(L, P3)), (2, 3)),
    "Multinomial": (lambda L: L.distributions.Multinomial(4, _t(L, P3)), (2,)),
    "OneHotCategorical": (lambda L: L.distributions.OneHotCategorical(_t(L, [0.2, 0.3, 0.5])),
                          (2,)),
    "VonMises": (lambda L: L.distributions.VonMises(_t(L, LOC3), _t(L, SCALE3)), (2, 3)),
    "Independent": (lambda L: L.distributions.Independent(
        L.distributions.Normal(_t(L, [LOC3]), _t(L, [SCALE3])), 1), (2, 1)),
    "MultivariateNormal": (lambda L: L.distributions.MultivariateNormal(
        _t(L, [0.5, -1.0]), _t(L, COV)), (3,)),
    "MultivariateNormal scale_tril": (lambda L: L.distributions.MultivariateNormal(
        _t(L, [[0.5, -1.0]]), scale_tril=L.linalg.cholesky(_t(L, COV))), (2, 1)),
    "LowRankMultivariateNormal": (lambda L: L.distributions.LowRankMultivariateNormal(
        _t(L, [0.5, -1.0]), _t(L, [[1.0], [0.5]]), _t(L, [1.0, 2.0])), (3,)),
    "Wishart": (lambda L: L.distributions.Wishart(_t(L, 4.0), _t(L, COV)), (2,)),
    "LKJCholesky": (lambda L: L.distributions.LKJCholesky(3, _t(L, 1.5)), (2,)),
    "TransformedDistribution": (lambda L: L.distributions.TransformedDistribution(
        L.distributions.Normal(_t(L, LOC3), _t(L, SCALE3)),
        [L.distributions.transforms.ExpTransform(),
         L.distributions.transforms.AffineTransform(1.0, 2.0)]), (2, 3)),
    "MixtureSameFamily": (lambda L: L.distributions.MixtureSameFamily(
        L.distributions.Categorical(_t(L, [0.2, 0.3, 0.5])),
        L.distributions.Normal(_t(L, LOC3), _t(L, SCALE3))), (2,)),
    "RelaxedBernoulli": (lambda L: L.distributions.RelaxedBernoulli(_t(L, 0.5), _t(L, P3)),
                         (2, 3)),
    "RelaxedOneHotCategorical": (lambda L: L.distributions.RelaxedOneHotCategorical(
        _t(L, 0.5), _t(L, [0.2, 0.3, 0.5])), (2,)),
}
MOMENTS = ("mean", "variance", "stddev", "mode")


def _run(L, name):
    make, shape = FAMILIES[name]
    L.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = make(L)
        d = base.expand(shape)
        out = {"type": type(d).__name__, "batch": tuple(d.batch_shape),
               "event": tuple(d.event_shape), "sample": d.sample((2,)),
               "list shape": tuple(base.expand(list(shape)).batch_shape)}
        for attr in MOMENTS + ("entropy",):
            try:
                out[attr] = getattr(d, attr)() if attr == "entropy" else getattr(d, attr)
            except NotImplementedError:
                out[attr] = "NotImplementedError"
            except AttributeError:  # (torch's expanded Multinomial has no entropy)
                out[attr] = "AttributeError"
    return d, out


@pytest.mark.parametrize("name", list(FAMILIES))
def test_expand_matches_torch(name):
    d_t, want = _run(torch, name)
    d_m, got = _run(mindtorch, name)
    assert got.keys() == want.keys()
    for key in want:
        if want[key] == "AttributeError":
            continue
        if isinstance(want[key], torch.Tensor):
            assert_same(got[key], want[key], rtol=1e-6, atol=1e-9)
        else:
            assert got[key] == want[key], key
    # log_prob of torch's sample, and of one value broadcast over the new batch
    value = want["sample"]
    assert_same(d_m.log_prob(mindtorch.tensor(value.numpy())), d_t.log_prob(value),
                rtol=1e-6, atol=1e-9)
    assert d_m._validate_args == d_t._validate_args


def test_expand_keeps_validation_setting_and_shares_storage():
    for L in (torch, mindtorch):
        loc = L.zeros(3)
        d = L.distributions.Normal(loc, 1.0, validate_args=False).expand((2, 3))
        assert d._validate_args is False
        loc += 1  # a view: the expanded distribution sees the parameter change
        assert float(d.loc[1, 2]) == 1.0
        assert tuple(d.loc.stride()) == (0, 1)


def test_expand_twice_and_from_scalar_batch():
    def run(L):
        d = L.distributions.Gamma(_t(L, 2.0), _t(L, 3.0)).expand((3,)).expand((2, 3))
        return [d.batch_shape, d.log_prob(_t(L, [1.0, 2.0, 3.0])), d.concentration.shape]
    got, want = run(mindtorch), run(torch)
    assert_same(got[1], want[1])
    assert (tuple(got[0]), tuple(got[2])) == (tuple(want[0]), tuple(want[2]))


@pytest.mark.parametrize("shape", [(2,), (4, 3, 2)])
def test_bad_expand_raises_like_torch(shape):
    errors = []
    for L in (torch, mindtorch):
        with pytest.raises(RuntimeError) as info:
            L.distributions.Normal(L.zeros(3), L.ones(3)).expand(shape)
        errors.append(type(info.value))
    assert errors[1] is RuntimeError


def test_subclass_with_custom_init_must_define_expand():
    for L in (torch, mindtorch):
        class Shifted(L.distributions.Normal):
            def __init__(self, loc):
                super().__init__(loc, 1.0)
        with pytest.raises(NotImplementedError, match="must also define a custom .expand"):
            Shifted(L.zeros(2)).expand((3, 2))

        class Plain(L.distributions.Distribution):
            pass
        with pytest.raises(NotImplementedError):
            Plain().expand((2,))

        class Inherits(L.distributions.Normal):
            pass
        assert type(Inherits(L.zeros(2), 1.0).expand((3, 2))) is Inherits


def test_expanded_sample_gradient():
    grads = []
    for L in (torch, mindtorch):
        L.manual_seed(3)
        loc = L.tensor([0.5, -1.0], dtype=L.float64, requires_grad=True)
        d = L.distributions.Normal(loc, 2.0).expand((3, 2))
        (d.rsample() * _t(L, [1.0, 2.0])).sum().backward()
        grads.append(np.array(loc.grad.numpy()))
    np.testing.assert_array_equal(grads[0], grads[1])


def test_base_class_has_no_constraints_and_warns():
    messages = []
    for L in (torch, mindtorch):
        class Custom(L.distributions.Distribution):
            pass
        with pytest.warns(UserWarning) as made:
            d = Custom(validate_args=True)
        with pytest.warns(UserWarning) as validated:
            d._validate_sample(L.zeros(1))
        messages.append([str(w.message).split("'")[-1] for w in [*made, *validated]])
        for attr in ("arg_constraints", "support"):
            with pytest.raises(NotImplementedError):
                getattr(d, attr)
    assert messages[0] == messages[1] and len(messages[0]) == 2


def test_user_subclass_expand_through_instance():
    shapes = []
    for L in (torch, mindtorch):
        D = L.distributions

        class Tagged(D.Normal):
            def __init__(self, loc, scale, tag):
                self.tag = tag
                super().__init__(loc, scale)

            def expand(self, batch_shape, _instance=None):
                new = self._get_checked_instance(Tagged, _instance)
                new.tag = self.tag
                return super().expand(batch_shape, _instance=new)

        class Squashed(D.TransformedDistribution):
            def __init__(self, loc, scale):
                super().__init__(D.Normal(loc, scale), [D.transforms.TanhTransform()])

            def expand(self, batch_shape, _instance=None):
                new = self._get_checked_instance(Squashed, _instance)
                return super().expand(batch_shape, _instance=new)

        t = Tagged(L.zeros(2), 1.0, "x").expand((3, 2))
        s = Squashed(L.zeros(2), L.ones(2)).expand((4, 2))
        assert (type(t), t.tag, type(s)) == (Tagged, "x", Squashed)
        shapes.append((tuple(t.sample().shape), tuple(s.rsample().shape),
                       tuple(s.log_prob(L.zeros(4, 2)).shape)))
    assert shapes[0] == shapes[1]
