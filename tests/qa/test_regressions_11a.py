"""Regression tests for QA round 11a (GNN, RL, recommender and tabular programs), each against torch."""
import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _both(fn, *arrays):
    """fn(mindtorch, *tensors) and fn(torch, *tensors) on the same NumPy data."""
    return (fn(mindtorch, *(mindtorch.from_numpy(a.copy()) for a in arrays)),
            fn(torch, *(torch.from_numpy(a.copy()) for a in arrays)))


# -- sort / argsort without stable=: libstdc++'s std::sort order of equal values ---------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int8, np.bool_])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("n", [16, 17, 40, 300])
def test_unstable_sort_ties_follow_std_sort(dtype, descending, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 4, (3, n)).astype(dtype)
    if dtype == np.float64:
        a[:, ::7] = np.nan
        a[:, 1::5] = -0.0
    for dim, data in ((1, a), (0, np.ascontiguousarray(a.T)), (0, a.T)):
        m, t = _both(lambda L, x: L.sort(x, dim=dim, descending=descending), data)
        np.testing.assert_array_equal(m.indices.numpy(), t.indices.numpy())
        np.testing.assert_array_equal(np.signbit(m.values.numpy()), np.signbit(t.values.numpy()))
        m, t = _both(lambda L, x: L.argsort(x, dim=dim, descending=descending), data)
        np.testing.assert_array_equal(m.numpy(), t.numpy())
        m, t = _both(lambda L, x: x.argsort(dim=dim, descending=descending, stable=True), data)
        np.testing.assert_array_equal(m.numpy(), t.numpy())


def test_unstable_sort_ranks_many_rows_and_radix_path():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 10, (100, 100)).astype(np.float32)  # enough work for the compiled replay
    m, t = _both(lambda L, x: x.argsort().argsort(), a)
    np.testing.assert_array_equal(m.numpy(), t.numpy())
    b = rng.integers(0, 5, 40000)  # torch's radix sort: stable
    m, t = _both(lambda L, x: x.argsort(), b)
    np.testing.assert_array_equal(m.numpy(), t.numpy())
    m, t = _both(lambda L, x: x.argsort(descending=True), b)
    np.testing.assert_array_equal(m.numpy(), t.numpy())
