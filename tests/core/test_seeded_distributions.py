"""Seeded samples of the distributions whose sampling composes several draws (matrix
families): the same numbers drawn in the same order as PyTorch, so after a seed the
samples agree with PyTorch's to rounding (they pass through matrix products) and the
generator is left where PyTorch leaves it (the next draw is bit-identical)."""
import warnings

import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _seeded(program):
    out = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sample = program(lib).detach().numpy()
        out.append((sample, lib.rand(3).numpy(), sorted({str(w.message) for w in caught})))
    (want, want_next, want_warn), (got, got_next, got_warn) = out
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got_next, want_next)
    assert got_warn == want_warn


WISHART = {
    "2x2": lambda L: L.distributions.Wishart(L.tensor(4.0), L.eye(2)).sample((2,)),
    "3x3 no sample shape": lambda L: L.distributions.Wishart(L.tensor(4.0), L.eye(3)).sample(),
    "batched df, scale_tril": lambda L: L.distributions.Wishart(
        L.tensor([3.0, 5.0]), scale_tril=L.tensor([[1.0, 0.0], [0.5, 2.0]])).rsample((3,)),
    "low df": lambda L: L.distributions.Wishart(L.tensor(1.5), L.eye(2)).sample((6,)),
    "float64 precision": lambda L: L.distributions.Wishart(
        5, precision_matrix=L.eye(3, dtype=L.float64) * 2).sample((2,)),
    "max_try_correction=0": lambda L: L.distributions.Wishart(
        L.tensor(4.0), L.eye(2)).rsample((2,), max_try_correction=0),
}


@pytest.mark.parametrize("name", WISHART)
def test_wishart(name):
    # Bartlett: p(p-1)/2 normals per matrix below the diagonal, then PyTorch's correction
    # loop (which redraws the samples that pass the support check, once, with a warning)
    _seeded(WISHART[name])


def test_lkj_cholesky():
    _seeded(lambda L: L.distributions.LKJCholesky(4, L.tensor([0.5, 2.0])).sample((3,)))
