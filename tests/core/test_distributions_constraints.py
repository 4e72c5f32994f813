"""torch.distributions.constraints against torch: check() on valid and invalid values,
event_dim, is_discrete and repr of every public constraint; dependent constraints and
dependent_property."""
import mindtorch
import numpy as np
import pytest
from reference import torch

MATS = [[[2.0, 0.5], [0.5, 1.0]], [[1.0, 0.0], [0.3, 2.0]], [[1.0, 2.0], [2.0, 1.0]],
        [[0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.6, 0.8]], [[-1.0, 0.0], [0.0, 1.0]]]
VALUES = {
    "scalars": [-2.0, -0.5, 0.0, 0.3, 1.0, 2.0, 3.5, float("nan"), float("inf")],
    "vectors": [[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [-0.1, 0.6, 0.5],
                [0.0, 2.0, 1.0], [1.0, 1.0, 1.0]],
    "matrices": MATS,
}
CONSTRAINTS = {  # name: (build(C), value kind)
    "real": (lambda C: C.real, "scalars"),
    "boolean": (lambda C: C.boolean, "scalars"),
    "positive": (lambda C: C.positive, "scalars"),
    "nonnegative": (lambda C: C.nonnegative, "scalars"),
    "nonnegative_integer": (lambda C: C.nonnegative_integer, "scalars"),
    "positive_integer": (lambda C: C.positive_integer, "scalars"),
    "unit_interval": (lambda C: C.unit_interval, "scalars"),
    "greater_than": (lambda C: C.greater_than(0.3), "scalars"),
    "greater_than_eq": (lambda C: C.greater_than_eq(0.3), "scalars"),
    "less_than": (lambda C: C.less_than(1.0), "scalars"),
    "interval": (lambda C: C.interval(-0.5, 1.0), "scalars"),
    "half_open_interval": (lambda C: C.half_open_interval(-0.5, 1.0), "scalars"),
    "integer_interval": (lambda C: C.integer_interval(0, 2), "scalars"),
    "real_vector": (lambda C: C.real_vector, "vectors"),
    "simplex": (lambda C: C.simplex, "vectors"),
    "one_hot": (lambda C: C.one_hot, "vectors"),
    "multinomial": (lambda C: C.multinomial(2), "vectors"),
    "independent positive": (lambda C: C.independent(C.positive, 1), "vectors"),
    "independent 2": (lambda C: C.independent(C.nonnegative, 2), "matrices"),
    "lower_triangular": (lambda C: C.lower_triangular, "matrices"),
    "lower_cholesky": (lambda C: C.lower_cholesky, "matrices"),
    "corr_cholesky": (lambda C: C.corr_cholesky, "matrices"),
    "square": (lambda C: C.square, "matrices"),
    "symmetric": (lambda C: C.symmetric, "matrices"),
    "positive_semidefinite": (lambda C: C.positive_semidefinite, "matrices"),
    "positive_definite": (lambda C: C.positive_definite, "matrices"),
    "cat": (lambda C: C.cat([C.positive, C.real, C.unit_interval], dim=-1, lengths=[1, 1, 1]),
            "vectors"),
    "stack": (lambda C: C.stack([C.positive, C.real, C.unit_interval], dim=-1), "vectors"),
    "mixture": (lambda C: C.MixtureSameFamilyConstraint(C.positive), "vectors"),
}


@pytest.mark.parametrize("name", list(CONSTRAINTS))
def test_constraint_matches_torch(name):
    build, kind = CONSTRAINTS[name]
    data = np.array(VALUES[kind])
    theirs = build(torch.distributions.constraints)
    ours = build(mindtorch.distributions.constraints)
    assert repr(ours) == repr(theirs)
    assert (ours.event_dim, ours.is_discrete) == (theirs.event_dim, theirs.is_discrete)
    for dtype in ("float64", "float32"):
        want = theirs.check(torch.from_numpy(data).to(getattr(torch, dtype)))
        got = ours.check(mindtorch.tensor(data).to(getattr(mindtorch, dtype)))
        assert str(got.dtype) == str(want.dtype)
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_non_square_and_tensor_bounds():
    for C, L in ((torch.distributions.constraints, torch),
                 (mindtorch.distributions.constraints, mindtorch)):
        assert not bool(C.square.check(L.zeros(2, 3)).any())
        assert not bool(C.symmetric.check(L.zeros(4, 2, 3)).any())
        bound = C.greater_than_eq(L.tensor([0.0, 1.0]))
        assert bound.check(L.tensor([0.5, 0.5])).tolist() == [True, False]
        assert repr(bound) == "GreaterThanEq(lower_bound=tensor([0., 1.]))"


def test_dependent():
    reprs = []
    for L in (torch, mindtorch):
        C = L.distributions.constraints
        assert C.is_dependent(C.dependent) and not C.is_dependent(C.real)
        with pytest.raises(ValueError, match="Cannot determine validity"):
            C.dependent.check(L.zeros(1))
        with pytest.raises(NotImplementedError):
            C.dependent.event_dim  # noqa: B018
        d = C.dependent(is_discrete=True, event_dim=1)
        assert (d.is_discrete, d.event_dim) == (True, 1)

        class Family:
            @C.dependent_property(is_discrete=False, event_dim=0)
            def support(self):
                return C.interval(0.0, self.high)  # noqa: B023
            high = 2.0

        assert C.is_dependent(Family.support) and Family.support.event_dim == 0
        reprs.append((repr(Family().support), repr(Family.support), repr(C.dependent)))
        # Distribution.__init__ skips dependent argument constraints
        assert C.is_dependent(L.distributions.Uniform.support)
    assert reprs[0] == reprs[1]


def test_independent_errors():
    for L in (torch, mindtorch):
        C = L.distributions.constraints
        with pytest.raises(ValueError, match="Expected value.dim"):
            C.independent(C.real, 2).check(L.zeros(3))


def test_uniform_bounds_are_its_argument_constraints():
    messages = []
    for L in (torch, mindtorch):
        d = L.distributions.Uniform(L.tensor([0.0, 1.0]), L.tensor([2.0, 3.0]))
        assert repr(d.arg_constraints["low"]) == "LessThan(upper_bound=tensor([2., 3.]))"
        with pytest.raises(ValueError) as info:
            L.distributions.Uniform(L.tensor([1.0, 2.0]), L.tensor([0.0, 3.0]))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
