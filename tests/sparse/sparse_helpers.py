"""Sparse tensors built alike in mindtorch and PyTorch, and comparing them."""
import mindtorch
import numpy as np
from reference import assert_same, torch

INDICES = [[0, 1, 1, 3, 0], [2, 0, 2, 1, 2]]  # (0, 2) twice: uncoalesced
VALUES = [3.0, -4.0, 5.0, 0.5, 1.5]
SIZE = (4, 3)


def coo(indices=INDICES, values=VALUES, size=SIZE, dtype="float32", **kw):
    """The same COO tensor in both: (mindtorch, torch)."""
    shape = () if size is None else (size,)
    a = mindtorch.sparse_coo_tensor(indices, values, *shape, dtype=getattr(mindtorch, dtype),
                                    **kw)
    b = torch.sparse_coo_tensor(indices, values, *shape, dtype=getattr(torch, dtype), **kw)
    return a, b


def csr(dense_np, dtype="float32"):
    a = mindtorch.tensor(dense_np, dtype=getattr(mindtorch, dtype)).to_sparse_csr()
    b = torch.tensor(dense_np, dtype=getattr(torch, dtype)).to_sparse_csr()
    return a, b


def dense(shape, dtype="float32", seed=0, requires_grad=False):
    x = np.random.default_rng(seed).standard_normal(shape)
    a = mindtorch.tensor(x, dtype=getattr(mindtorch, dtype), requires_grad=requires_grad)
    b = torch.tensor(x, dtype=getattr(torch, dtype), requires_grad=requires_grad)
    return a, b


def assert_sparse_same(m, t, *, exact_pattern=True, atol=None, rtol=None):
    """Same layout, size, dtype, coalesced flag, indices and values (or, without
    exact_pattern, the same dense values)."""
    assert str(m.layout) == str(t.layout), (m.layout, t.layout)
    assert tuple(m.shape) == tuple(t.shape)
    assert str(m.dtype) == str(t.dtype)
    if exact_pattern:
        if t.layout == torch.sparse_coo:
            assert m.is_coalesced() == t.is_coalesced()
            assert m.sparse_dim() == t.sparse_dim() and m.dense_dim() == t.dense_dim()
            assert_same(m._indices(), t._indices())
            assert_same(m._values(), t._values(), atol=atol, rtol=rtol)
        else:
            assert_same(m.crow_indices(), t.crow_indices())
            assert_same(m.col_indices(), t.col_indices())
            assert_same(m.values(), t.values(), atol=atol, rtol=rtol)
    assert_same(m.to_dense(), t.to_dense(), atol=atol, rtol=rtol)
