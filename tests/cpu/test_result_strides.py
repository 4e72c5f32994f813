"""Result strides against PyTorch's (mindtorch/_strides.py): results are laid out as
PyTorch allocates them, so that .view() works where it works in PyTorch: advanced
indexing (TensorIterator's order over the restrided input and the indices), reductions,
scans, softmax, masked_fill, tril/triu (contiguous) and sort (like the input)."""
import numpy as np
import pytest

import mindtorch
from reference import torch


_LAYOUT_CASES = [
    (lambda L: L.arange(24).reshape(2, 3, 4), lambda L, x: [
        (slice(None), [2, 0]), (slice(None), slice(None), [1, 3]), (0, slice(None), [1, 3]),
        ([0, 1], slice(None), [1, 2]), (slice(None), [[0], [1]], [1, 2]), (x > 5,),
        (slice(None), L.tensor([[0, 1], [1, 2]]).t()), (L.tensor([[0, 1], [1, 0]]).t(),),
        ([[0, 1]], slice(None), [[1], [2]]), (L.tensor(1),)]),
    (lambda L: L.arange(24).reshape(2, 3, 4).transpose(0, 2), lambda L, x: [
        (slice(None), [0, 2]), ([0, 1],), (slice(None), slice(None), [1, 0]),
        ([1, 2], slice(None), [0, 1]), (slice(None, None, 2), [0, 1]),
        (slice(None), slice(None), L.tensor([[0, 1], [1, 0]]).t())]),
    (lambda L: L.arange(120).reshape(2, 3, 4, 5).permute(0, 2, 3, 1), lambda L, x: [
        (slice(None), [0, 1], slice(None), [2, 0]), (slice(None), slice(None), [1]),
        ([1], [2], [3]), (slice(None), L.tensor([[0], [3]]), L.tensor([1, 2]))]),
]


@pytest.mark.parametrize("case", range(len(_LAYOUT_CASES)))
def test_advanced_indexing_result_strides(case):
    # PyTorch lays the result out as its TensorIterator orders self (restrided) and the
    # indices: x[:, idx] of a contiguous x is contiguous (so .view works on it)
    make, keys = _LAYOUT_CASES[case]
    for km, kt in zip(keys(mindtorch, make(mindtorch)), keys(torch, make(torch))):
        got, want = make(mindtorch)[km], make(torch)[kt]
        assert (tuple(got.shape), got.stride(), got.tolist()) == \
            (tuple(want.shape), want.stride(), want.tolist()), km


_LAYOUT_OPS = {
    "sum": lambda x: x.sum(1), "mean": lambda x: x.mean(0), "amax": lambda x: x.amax(2),
    "std": lambda x: x.std(1), "var": lambda x: x.var(0), "prod": lambda x: x.prod(2),
    "logsumexp": lambda x: x.logsumexp(0), "norm": lambda x: x.norm(dim=1),
    "count_nonzero": lambda x: x.count_nonzero(1), "nansum": lambda x: x.nansum(1),
    "cumsum": lambda x: x.cumsum(0), "cumprod": lambda x: x.cumprod(2),
    "cummax": lambda x: x.cummax(0).values, "cummin": lambda x: x.cummin(1).indices,
    "softmax": lambda x: x.softmax(1), "log_softmax": lambda x: x.log_softmax(0),
    "masked_fill": lambda x: x.masked_fill(x > 5, 0), "tril": lambda x: x.tril(),
    "triu": lambda x: x.triu(1), "sum_keepdim": lambda x: x.sum(1, keepdim=True),
    "sort": lambda x: x.sort(0).values, "sort_indices": lambda x: x.sort(1).indices,
    "argsort": lambda x: x.argsort(2), "sort_sliced": lambda x: x[:, ::2].sort(0).values,
}


@pytest.mark.parametrize("name", list(_LAYOUT_OPS))
def test_results_of_permuted_inputs_are_laid_out_as_torch(name):
    # PyTorch allocates reduction / scan / softmax / masked_fill / tril results contiguous
    # (numpy's follow a permuted input): x.transpose(0, 2).sum(1).view(-1) works; sort's
    # are laid out like the input
    for perm in ((2, 1, 0), (1, 2, 0)):
        got = _LAYOUT_OPS[name](mindtorch.arange(24.0).reshape(2, 3, 4).permute(*perm))
        want = _LAYOUT_OPS[name](torch.arange(24.0).reshape(2, 3, 4).permute(*perm))
        assert (tuple(got.shape), got.stride()) == (tuple(want.shape), want.stride())
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
