"""Regression tests for QA round 17b (torch.distributions), each against torch."""
import numpy as np
import pytest
from reference import outcome, same_errors

torch = pytest.importorskip("torch")


def _t(L, x, grad=False):
    return L.tensor(np.asarray(x, dtype=np.float32), requires_grad=grad)


def _same_tensors(program, rtol=1e-6):
    ours, theirs = same_errors(program)
    if ours[0] != "ok":
        return
    for a, b in zip(ours[1], theirs[1], strict=True):
        assert (tuple(a.shape), a.requires_grad, a.stride()) == \
            (tuple(b.shape), b.requires_grad, b.stride())
        np.testing.assert_allclose(np.asarray(a.detach().double().tolist()),
                                   b.detach().double().numpy(), rtol=rtol, atol=1e-7)


def test_geometric_from_logits_log_prob_keeps_its_graph_after_sampling():
    """sample() derives probs from logits outside no_grad, so the cached probs (and the
    log_prob built on them) stay differentiable, as in PyTorch (a policy-gradient loss)."""
    def program(L):
        logits = _t(L, [0.3, -1.2, 2.0], grad=True)
        d = L.distributions.Geometric(logits=logits)
        L.manual_seed(0)
        x = d.sample((4,))
        lp = d.log_prob(x)
        (grad,) = L.autograd.grad(lp.sum(), logits)
        return x, lp, grad
    _same_tensors(program)


def test_beta_variance_is_contiguous_with_pytorchs_formula():
    def program(L):
        d = L.distributions.Beta(_t(L, [[0.5, 2.0, 3.0]], True), _t(L, [[1.5, 0.7, 3.0]], True))
        return d.variance, d.stddev
    _same_tensors(program)


@pytest.mark.parametrize("pair", [("Normal", "Bernoulli"), ("Poisson", "Gamma"),
                                  ("Dirichlet", "Beta")])
def test_cross_exponential_family_kl_message(pair):
    """An unregistered pair of exponential families fails with PyTorch's exact message."""
    args = {"Normal": lambda L: (_t(L, [0.0]), _t(L, [1.0])), "Bernoulli": lambda L: (_t(L, [0.3]),),
            "Poisson": lambda L: (_t(L, [2.0]),), "Gamma": lambda L: (_t(L, [2.0]), _t(L, [1.0])),
            "Dirichlet": lambda L: (_t(L, [1.0, 2.0]),), "Beta": lambda L: (_t(L, [1.0]), _t(L, [2.0]))}

    def program(L):
        D = L.distributions
        p, q = (getattr(D, name)(*args[name](L)) for name in pair)
        return D.kl_divergence(p, q)
    ours, _ = same_errors(program)
    assert ours[0] == "NotImplementedError"


@pytest.mark.parametrize("family", ["Bernoulli", "Binomial", "NegativeBinomial", "Categorical"])
def test_lazy_parameter_first_used_under_no_grad_keeps_its_graph(family):
    """probs/logits derived lazily inside sample()'s no_grad are computed with grad
    enabled (PyTorch's lazy_property), so mean/variance/probs used later are differentiable."""
    def program(L):
        D = L.distributions
        logits = _t(L, [[0.3, -1.2, 2.0]], grad=True)
        d = {"Bernoulli": lambda: D.Bernoulli(logits=logits),
             "Binomial": lambda: D.Binomial(4, logits=logits),
             "NegativeBinomial": lambda: D.NegativeBinomial(_t(L, [2.0]), probs=logits.sigmoid()),
             "Categorical": lambda: D.Categorical(probs=logits.softmax(-1))}[family]()
        L.manual_seed(0)
        with L.no_grad():
            d.sample((2,))
        derived = d.logits if family in ("NegativeBinomial", "Categorical") else d.probs
        return derived, d.mean, d.variance
    _same_tensors(program)


@pytest.mark.parametrize("loc_shape,tril_batch,value_shape", [
    ((2, 3), (2,), (4, 2, 3)), ((3,), (), (5, 3)), ((4, 3), (1,), (2, 4, 3)),
    ((2, 1, 3), (3, 1), (2, 3, 3)), ((3,), (2,), (3,))])
def test_multivariate_normal_log_prob_layout_and_gradients(loc_shape, tril_batch, value_shape):
    """log_prob groups the points per scale_tril factor as PyTorch does: same values,
    gradients and (transposed) strides."""
    g = np.random.default_rng(0)
    loc = g.standard_normal(loc_shape)
    tril = np.tril(g.standard_normal(tril_batch + (3, 3)) * 0.3) + 2 * np.eye(3)
    value = g.standard_normal(value_shape)

    def program(L):
        mu, scale = _t(L, loc, True), _t(L, tril, True)
        d = L.distributions.MultivariateNormal(mu, scale_tril=scale)
        lp = d.log_prob(_t(L, value))
        return (lp,) + L.autograd.grad(lp.sum(), (mu, scale))
    _same_tensors(program, rtol=1e-5)


def test_family_classes_live_in_pytorchs_module_paths():
    """type(d) and messages naming the class show PyTorch's per-family module
    (torch.distributions.multinomial.Multinomial), and such instances still pickle."""
    import pickle

    import mindtorch
    names = [n for n in torch.distributions.__all__
             if isinstance(getattr(torch.distributions, n), type)
             and issubclass(getattr(torch.distributions, n), torch.distributions.Distribution)]
    for name in names:
        ours = getattr(mindtorch.distributions, name)
        assert ours.__module__.replace("mindtorch", "torch", 1) == \
            getattr(torch.distributions, name).__module__, name

    def program(L):
        return L.distributions.Multinomial(3, _t(L, [0.3, 0.7])).mode
    ours, theirs = (outcome(lambda: program(mindtorch)), outcome(lambda: program(torch)))
    assert ours[0] == theirs[0] == "NotImplementedError"
    assert ours[1].replace("mindtorch", "torch") == theirs[1]
    d = pickle.loads(pickle.dumps(mindtorch.distributions.Beta(_t(mindtorch, [1.0]),
                                                               _t(mindtorch, [2.0]))))
    assert float(d.mean) == pytest.approx(1 / 3)


@pytest.mark.parametrize("make", [
    lambda L: L.distributions.Categorical(_t(L, [0.3, 0.7])).sample((0,)),
    lambda L: L.distributions.Multinomial(0, _t(L, [0.3, 0.7])).sample((2,)),
    lambda L: L.distributions.OneHotCategorical(_t(L, [0.3, 0.7])).sample((2, 0)),
    lambda L: (L.manual_seed(0), L.distributions.Categorical(_t(L, [0.3, 0.7])).sample())[1]])
def test_categorical_sample_of_no_draws_refused_like_pytorch(make):
    """An empty sample_shape asks multinomial for zero draws, which PyTorch refuses."""
    ours, theirs = same_errors(make)
    if ours[0] == "ok":
        assert ours[1].tolist() == theirs[1].tolist()


@pytest.mark.parametrize("make", [
    lambda T: T.ExpTransform(), lambda T: T.ExpTransform().inv, lambda T: T.AffineTransform(0.0, 2.0),
    lambda T: T.ComposeTransform([T.ExpTransform()]), lambda T: T.StickBreakingTransform(),
    lambda T: T.IndependentTransform(T.ExpTransform(), 1), lambda T: T.identity_transform])
def test_transforms_compare_by_value_and_are_unhashable(make):
    def program(L):
        T = L.distributions.transforms
        return make(T) == make(T), hash(make(T))
    same_errors(program)


@pytest.mark.parametrize("df_dtype,cov_dtype", [("float64", "float32"), ("float32", "float64")])
def test_wishart_bartlett_noise_takes_the_chi2_dtype(df_dtype, cov_dtype):
    """The below-diagonal normals of the Bartlett factor take the chi-squared draws' dtype
    (PyTorch's), so mixed-dtype parameters fail (or succeed) as in PyTorch."""
    import warnings

    def program(L):
        L.manual_seed(0)
        d = L.distributions.Wishart(L.tensor(4.5, dtype=getattr(L, df_dtype)),
                                    covariance_matrix=L.eye(3, dtype=getattr(L, cov_dtype)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return d.sample()
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert str(ours[1].dtype).split(".")[-1] == str(theirs[1].dtype).split(".")[-1]
        np.testing.assert_allclose(ours[1].double().tolist(), theirs[1].double().numpy(),
                                   rtol=1e-5)


@pytest.mark.parametrize("make", [
    lambda L: L.distributions.Bernoulli(_t(L, [0.3])).log_prob(L.tensor([True])),
    lambda L: L.nn.functional.binary_cross_entropy_with_logits(_t(L, [0.5]), L.tensor([True])),
    lambda L: L.nn.functional.binary_cross_entropy_with_logits(
        _t(L, [0.5]), L.tensor([True]), pos_weight=_t(L, [2.0]))])
def test_bool_target_of_bce_with_logits_refused_as_two_bools(make):
    """PyTorch computes 1 - target as a subtraction of two tensors: its refusal names two
    bool tensors."""
    ours, _ = same_errors(make)
    assert ours[0] == "RuntimeError"


def test_logit_relaxed_bernoulli_param_shape():
    def program(L):
        import importlib
        module = importlib.import_module(L.__name__ + ".distributions.relaxed_bernoulli")
        d = module.LogitRelaxedBernoulli(_t(L, 0.5), logits=_t(L, [[0.1, 0.5]]))
        return tuple(d.param_shape), tuple(d.expand((3, 2)).param_shape)
    ours, theirs = same_errors(program)
    assert ours == theirs
