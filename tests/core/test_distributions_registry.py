"""constraint_registry (biject_to, transform_to), ExponentialFamily's Bregman entropy and
PyTorch's torch.distributions module paths, against torch."""
import importlib

import mindtorch
import numpy as np
import pytest
from reference import assert_same, torch

X = np.random.default_rng(0).standard_normal((2, 6))
SQUARE = np.random.default_rng(1).standard_normal((2, 3, 3))
CONSTRAINTS = {  # name: (build(C), unconstrained input)
    "real": (lambda C, L: C.real, X),
    "positive": (lambda C, L: C.positive, X),
    "nonnegative": (lambda C, L: C.nonnegative, X),
    "greater_than": (lambda C, L: C.greater_than(1.5), X),
    "greater_than_eq tensor": (lambda C, L: C.greater_than_eq(
        L.tensor([1.0, -2.0, 0.0, 1.0, 2.0, 3.0], dtype=L.float64)), X),
    "less_than": (lambda C, L: C.less_than(-1.0), X),
    "unit_interval": (lambda C, L: C.unit_interval, X),
    "interval": (lambda C, L: C.interval(-2.0, 3.0), X),
    "half_open_interval": (lambda C, L: C.half_open_interval(0, 1), X),
    "simplex": (lambda C, L: C.simplex, X),
    "real_vector": (lambda C, L: C.real_vector, X),
    "independent positive": (lambda C, L: C.independent(C.positive, 1), X),
    "corr_cholesky": (lambda C, L: C.corr_cholesky, X),
    "lower_cholesky": (lambda C, L: C.lower_cholesky, SQUARE),
    "positive_definite": (lambda C, L: C.positive_definite, SQUARE),
    "positive_semidefinite": (lambda C, L: C.positive_semidefinite, SQUARE),
    "cat": (lambda C, L: C.cat([C.positive, C.unit_interval], dim=-1, lengths=[2, 4]), X),
    "stack": (lambda C, L: C.stack([C.positive, C.interval(-1.0, 1.0)], dim=0), X),
}


def _run(L, name, registry):
    build, data = CONSTRAINTS[name]
    C = L.distributions.constraints
    constraint = build(C, L)
    try:
        t = getattr(L.distributions, registry)(constraint)
    except NotImplementedError as e:
        return {"error": str(e)}
    x = L.tensor(data, dtype=L.float64, requires_grad=True)
    y = t(x)
    out = {"repr": repr(t), "y": y, "inside": bool(constraint.check(y).all()),
           "bijective": t.bijective}
    if t.bijective:
        out["x back"] = t.inv(y)
        ladj = t.log_abs_det_jacobian(x, y)
        out["ladj"] = ladj
        if ladj.requires_grad:  # (not for the identity)
            ladj.sum().backward()
            out["grad"] = x.grad
    return out


@pytest.mark.parametrize("registry", ["biject_to", "transform_to"])
@pytest.mark.parametrize("name", list(CONSTRAINTS))
def test_registry_matches_torch(name, registry):
    want, got = _run(torch, name, registry), _run(mindtorch, name, registry)
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, torch.Tensor):
            assert_same(got[key], value, rtol=1e-9, atol=1e-10)
        else:
            assert got[key] == value, key


def test_register_custom_constraint_and_errors():
    for L in (torch, mindtorch):
        D = L.distributions

        class Odd(D.constraints.Constraint):
            pass

        @D.transform_to.register(Odd)
        def _odd(constraint):
            return D.transforms.ExpTransform()  # noqa: B023

        assert isinstance(D.transform_to(Odd()), D.transforms.ExpTransform)
        with pytest.raises(NotImplementedError, match="Cannot transform Odd constraints"):
            D.biject_to(Odd())
        with pytest.raises(TypeError, match="Expected constraint to be either"):
            D.biject_to.register(3, _odd)


FAMILIES = {
    "Normal": lambda L: L.distributions.Normal(L.tensor([0.5, -1.0], dtype=L.float64),
                                               L.tensor([1.0, 2.0], dtype=L.float64)),
    "Gamma": lambda L: L.distributions.Gamma(L.tensor([0.5, 3.0], dtype=L.float64),
                                             L.tensor([1.0, 2.0], dtype=L.float64)),
    "Exponential": lambda L: L.distributions.Exponential(L.tensor([0.5, 3.0], dtype=L.float64)),
    "Bernoulli": lambda L: L.distributions.Bernoulli(L.tensor([0.2, 0.7], dtype=L.float64)),
    "ContinuousBernoulli": lambda L: L.distributions.ContinuousBernoulli(
        L.tensor([0.2, 0.7], dtype=L.float64)),
    "Beta": lambda L: L.distributions.Beta(L.tensor([0.5, 3.0], dtype=L.float64),
                                           L.tensor([1.0, 2.0], dtype=L.float64)),
    "Dirichlet": lambda L: L.distributions.Dirichlet(L.tensor([[0.5, 3.0, 1.0]],
                                                              dtype=L.float64)),
    "Poisson": lambda L: L.distributions.Poisson(L.tensor([0.5, 3.0], dtype=L.float64)),
    "Wishart": lambda L: L.distributions.Wishart(L.tensor([4.0, 5.0], dtype=L.float64),
                                                 L.tensor([[2.0, 0.5], [0.5, 1.0]],
                                                          dtype=L.float64)),
}


@pytest.mark.parametrize("name", list(FAMILIES))
def test_exponential_family_entropy(name):
    results = []
    for L in (torch, mindtorch):
        d = FAMILIES[name](L)
        assert isinstance(d, L.distributions.ExponentialFamily)
        try:
            results.append(L.distributions.ExponentialFamily.entropy(d))
        except NotImplementedError:
            results.append("NotImplementedError")
    if isinstance(results[0], str):
        assert results[1] == results[0]
    else:
        assert_same(results[1], results[0], rtol=1e-9, atol=1e-12)


TORCH_MODULES = sorted(n for n in dir(torch.distributions)
                       if isinstance(getattr(torch.distributions, n), type(torch))
                       and getattr(torch.distributions, n).__name__.startswith(
                           "torch.distributions"))


@pytest.mark.parametrize("module", TORCH_MODULES)
def test_module_paths(module):
    theirs = importlib.import_module(f"torch.distributions.{module}")
    ours = importlib.import_module(f"mindtorch.distributions.{module}")
    assert getattr(mindtorch.distributions, module) is ours
    names = getattr(theirs, "__all__", None) or [
        n for n, v in vars(theirs).items() if isinstance(v, type)
        and v.__module__ == theirs.__name__ and not n.startswith("_")]
    for name in names:
        assert hasattr(ours, name), f"{module}.{name}"


def test_utils():
    from mindtorch.distributions.utils import (
        clamp_probs,
        lazy_property,
        logits_to_probs,
        probs_to_logits,
        tril_matrix_to_vec,
        vec_to_tril_matrix,
    )
    tu = torch.distributions.utils
    m = np.arange(16.0).reshape(4, 4)
    for diag in (0, -1, 1):
        assert_same(tril_matrix_to_vec(mindtorch.tensor(m), diag),
                    tu.tril_matrix_to_vec(torch.tensor(m), diag))
        v = tu.tril_matrix_to_vec(torch.tensor(m), diag)
        assert_same(vec_to_tril_matrix(mindtorch.tensor(v.numpy()), diag),
                    tu.vec_to_tril_matrix(v, diag))
    for L, fn in ((torch, tu.vec_to_tril_matrix), (mindtorch, vec_to_tril_matrix)):
        with pytest.raises(ValueError, match="cannot be expressed as the lower triangular"):
            fn(L.zeros(5))
    p = np.array([0.0, 0.3, 1.0])
    assert_same(clamp_probs(mindtorch.tensor(p)), tu.clamp_probs(torch.tensor(p)))
    assert_same(probs_to_logits(mindtorch.tensor(p), True),
                tu.probs_to_logits(torch.tensor(p), True))
    assert_same(logits_to_probs(mindtorch.tensor(p)), tu.logits_to_probs(torch.tensor(p)))
    assert mindtorch.distributions.utils.euler_constant == tu.euler_constant

    class A:
        calls = 0

        @lazy_property
        def x(self):
            A.calls += 1
            return 3
    a = A()
    assert (a.x, a.x, A.calls) == (3, 3, 1)


def test_private_helpers_in_module_paths():
    from mindtorch.distributions.dirichlet import _Dirichlet  # noqa: F401
    from mindtorch.distributions.lowrank_multivariate_normal import (
        _batch_lowrank_logdet,
        _batch_lowrank_mahalanobis,
    )
    from mindtorch.distributions.multivariate_normal import _batch_mahalanobis, _batch_mv
    from torch.distributions import lowrank_multivariate_normal as tl
    from torch.distributions import multivariate_normal as tm
    rng = np.random.default_rng(3)
    W, D, x = rng.standard_normal((2, 3, 2)), rng.random((2, 3)) + 0.5, rng.standard_normal((2, 3))
    cap = np.linalg.cholesky(np.swapaxes(W, -1, -2) @ (W / D[..., None]) + np.eye(2))
    m = [mindtorch.tensor(a) for a in (W, D, x, cap)]
    t = [torch.tensor(a) for a in (W, D, x, cap)]
    assert_same(_batch_lowrank_logdet(m[0], m[1], m[3]), tl._batch_lowrank_logdet(t[0], t[1], t[3]))
    assert_same(_batch_lowrank_mahalanobis(*m), tl._batch_lowrank_mahalanobis(*t))
    assert_same(_batch_mahalanobis(m[3], m[2][..., :2]), tm._batch_mahalanobis(t[3], t[2][..., :2]))
    assert_same(_batch_mv(m[0], m[2][..., :2]), tm._batch_mv(t[0], t[2][..., :2]))


def test_lazy_property_on_the_class_is_a_property():
    for L in (torch, mindtorch):
        logits = L.distributions.Bernoulli.logits
        assert isinstance(logits, property)
        assert isinstance(logits, L.distributions.utils.lazy_property)
