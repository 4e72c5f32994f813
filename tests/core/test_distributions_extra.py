"""Cauchy, HalfNormal, HalfCauchy, Gumbel, StudentT, Chi2, Geometric, Binomial,
Multinomial, RelaxedBernoulli and RelaxedOneHotCategorical against
torch.distributions: log_prob, cdf/icdf, moments, entropy, supports, reprs, gradients, the
base class's NotImplementedError for what a family lacks, and validation errors (samples by
shape, dtype and support)."""
import mindtorch
import pytest
import torch
from reference import assert_same


def _t(L, *values):
    return L.tensor(values if len(values) > 1 else values[0], dtype=L.float64)


FAMILIES = {  # name -> (make(L), a value in the support, a value outside it)
    "Cauchy": (lambda L: L.distributions.Cauchy(_t(L, 0.5, -1.0, 2.0), _t(L, 1.0, 0.5, 2.0)),
               (0.3, 1.7, 4.0), None),
    "HalfNormal": (lambda L: L.distributions.HalfNormal(_t(L, 1.0, 0.5, 2.0)),
                   (0.3, 1.7, 4.0), (-1.0, 0.5, 2.5)),
    "HalfCauchy": (lambda L: L.distributions.HalfCauchy(_t(L, 1.0, 0.5, 2.0)),
                   (0.3, 1.7, 4.0), (-1.0, 0.5, 2.5)),
    "Gumbel": (lambda L: L.distributions.Gumbel(_t(L, 0.5, -1.0, 2.0), _t(L, 1.0, 0.5, 2.0)),
               (0.3, 1.7, 4.0), None),
    "StudentT": (lambda L: L.distributions.StudentT(_t(L, 0.8, 1.5, 5.0), _t(L, 0.5, -1.0, 2.0),
                                                    _t(L, 1.0, 0.5, 2.0)), (0.3, 1.7, 4.0), None),
    "Chi2": (lambda L: L.distributions.Chi2(_t(L, 1.0, 2.5, 4.0)), (0.3, 1.7, 4.0),
             (-1.0, 0.5, 2.5)),
    "Geometric": (lambda L: L.distributions.Geometric(_t(L, 0.2, 0.5, 1.0)), (0.0, 2.0, 0.0),
                  (0.5, 1.0, 2.0)),
    "GeometricLogits": (lambda L: L.distributions.Geometric(logits=_t(L, 0.2, -0.5, 1.0)),
                        (0.0, 2.0, 3.0), (-1.0, 1.0, 2.0)),
    "Binomial": (lambda L: L.distributions.Binomial(5, _t(L, 0.2, 0.5, 0.9)), (0.0, 2.0, 5.0),
                 (6.0, 1.0, 2.0)),
    "BinomialLogits": (lambda L: L.distributions.Binomial(_t(L, 3.0, 3.0, 3.0),
                                                          logits=_t(L, 0.2, -0.5, 1.0)),
                       (0.0, 2.0, 3.0), (0.5, 1.0, 2.0)),
}


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__


@pytest.mark.parametrize("name", list(FAMILIES))
def test_family_as_torch(name):
    make, inside, outside = FAMILIES[name]

    def run(L):
        d = make(L)
        v = _t(L, *inside)
        out = [_outcome(lambda: d.log_prob(v)), _outcome(lambda: d.cdf(v)),
               _outcome(lambda: d.icdf(_t(L, 0.1, 0.5, 0.9))), _outcome(d.entropy)]
        out += [_outcome(lambda a=a: getattr(d, a)) for a in ("mean", "mode", "variance")]
        s = d.sample((4,))
        out += [repr(d).replace("torch.", ""), repr(d.support), d.has_rsample,
                tuple(s.shape), str(s.dtype).replace("torch.", "")]
        if outside is not None:
            out.append(_outcome(lambda: d.log_prob(_t(L, *outside))))
        return out
    for o, e in zip(run(mindtorch), run(torch)):
        if isinstance(e, torch.Tensor):
            assert_same(o, e, rtol=1e-10, atol=1e-12)
        else:
            assert o == e, (o, e)


def test_studentt_gradients_and_samples():
    def run(L):
        df, loc = _t(L, 2.0, 3.0).requires_grad_(), _t(L, 0.0, 1.0).requires_grad_()
        L.distributions.StudentT(df, loc).log_prob(_t(L, 0.3, 1.0)).sum().backward()
        return [df.grad, loc.grad]
    for o, e in zip(run(mindtorch), run(torch)):
        assert_same(o, e, rtol=1e-10, atol=1e-12)
    x = mindtorch.distributions.StudentT(_t(mindtorch, 30.0)).rsample((4000,))
    assert abs(float(x.mean())) < 0.1 and abs(float(x.std()) - 1.0) < 0.1


def test_binomial_support_and_errors():
    assert_same(mindtorch.distributions.Binomial(3, _t(mindtorch, 0.2, 0.7)).enumerate_support(),
                torch.distributions.Binomial(3, _t(torch, 0.2, 0.7)).enumerate_support())
    for L in (torch, mindtorch):
        D = L.distributions
        with pytest.raises(ValueError):
            D.Geometric(probs=_t(L, 0.5), logits=_t(L, 0.0))
        with pytest.raises(ValueError):
            D.Cauchy(0.0, -1.0)
        s = D.Binomial(_t(L, 2.0, 7.0), _t(L, 0.5, 0.3)).sample((100,))
        assert bool((s >= 0).all()) and bool((s <= _t(L, 2.0, 7.0)).all())


def _vector_families(L):
    D = L.distributions
    temp = _t(L, 0.5)
    return [
        (D.Multinomial(5, _t(L, [0.2, 0.3, 0.5], [0.1, 0.1, 0.8])),
         _t(L, [1.0, 2.0, 2.0], [0.0, 0.0, 5.0]), _t(L, [1.0, 2.0, 3.0], [0.0, 0.0, 5.0])),
        (D.Multinomial(3, logits=_t(L, 0.1, -0.2, 0.3)), _t(L, 1.0, 1.0, 1.0),
         _t(L, -1.0, 2.0, 1.0)),
        (D.RelaxedBernoulli(temp, probs=_t(L, 0.2, 0.7)), _t(L, 0.3, 0.9), _t(L, 1.5, 0.5)),
        (D.RelaxedOneHotCategorical(temp, logits=_t(L, [0.1, 0.5, -0.2], [1.0, 0.0, 0.0])),
         _t(L, [0.2, 0.5, 0.3], [0.6, 0.3, 0.1]), _t(L, [0.2, 0.5, 0.4], [0.6, 0.3, 0.1])),
    ]


def test_vector_families_as_torch():
    def run(L):
        out = []
        for d, inside, outside in _vector_families(L):
            s = d.rsample((3,)) if d.has_rsample else d.sample((3,))
            out += [d.log_prob(inside), _outcome(d.entropy), _outcome(lambda d=d: d.mean),
                    repr(d), repr(d.support), d.has_rsample, tuple(s.shape),
                    bool(d.support.check(s).all()),
                    _outcome(lambda d=d, x=outside: d.log_prob(x))]
        return out
    for o, e in zip(run(mindtorch), run(torch)):
        if isinstance(e, torch.Tensor):
            assert_same(o, e, rtol=1e-10, atol=1e-12)
        else:
            assert o == e, (o, e)
    with pytest.raises(NotImplementedError):
        mindtorch.distributions.Multinomial(_t(mindtorch, 5.0), _t(mindtorch, 0.5, 0.5))
