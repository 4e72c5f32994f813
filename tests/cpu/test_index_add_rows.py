"""index_add / index_put_(accumulate=True) over whole rows from 512 indices on: the cpu
kernel's sparse-product path (_add_rows) gives PyTorch's sums exactly."""
import mindtorch
import numpy as np
import pytest
from reference import torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(300, 5), (300, 2, 3), (700,)])
def test_index_add_many_rows_matches_torch(dtype, shape):
    rng = np.random.default_rng(0)
    base = rng.standard_normal(shape).astype(dtype)
    base[7] = -0.0  # (an untouched row keeps its sign of zero)
    idx = rng.integers(8, shape[0], size=2000)
    src = rng.standard_normal((2000,) + shape[1:]).astype(dtype)
    r = mindtorch.tensor(base).index_add(0, mindtorch.tensor(idx), mindtorch.tensor(src))
    e = torch.tensor(base).index_add(0, torch.tensor(idx), torch.tensor(src))
    assert np.array_equal(r.numpy(), e.numpy())
    assert np.signbit(r.numpy()[7]).all()
    r = mindtorch.tensor(base).index_add(0, mindtorch.tensor(idx), mindtorch.tensor(src),
                                         alpha=0.5)
    e = torch.tensor(base).index_add(0, torch.tensor(idx), torch.tensor(src), alpha=0.5)
    assert np.array_equal(r.numpy(), e.numpy())


def test_index_put_accumulate_many_rows_as_add_at():
    """Negative indices, a transposed target: np.add.at's sums (the path it replaces)."""
    rng = np.random.default_rng(1)
    idx = rng.integers(-400, 400, size=3000)
    src = rng.standard_normal((3000, 6)).astype(np.float32)
    target = mindtorch.zeros(6, 400).t()
    target.index_put_((mindtorch.tensor(idx),), mindtorch.tensor(src), accumulate=True)
    expected = np.zeros((400, 6), np.float32)
    np.add.at(expected, idx, src)
    assert np.array_equal(target.numpy(), expected)
    with pytest.raises(IndexError):
        mindtorch.zeros(10, 2).index_put_((mindtorch.tensor([11] * 600),),
                                          mindtorch.ones(600, 2), accumulate=True)
