"""Kernels rewritten because ordinary programs found them many times slower than PyTorch
(see benchmarks/bench_hotspots.py): the fast paths give PyTorch's results on the inputs
they serve, the ones the benchmark times included."""
import math

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)


def both(fn, *arrays):
    """fn(library, *tensors) on mindtorch and on torch, with the same data."""
    m = [mindtorch.tensor(a) for a in arrays]
    return fn(mindtorch, *m), fn(torch, *[to_torch(t) for t in m])


# -- kthvalue: a partition, not a sort, finds the k-th value ------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.float16])
@pytest.mark.parametrize("k", [1, 10, 257, 512])
def test_kthvalue_rows(dtype, k):
    x = RNG.standard_normal((64, 512)) * 100
    x[5] = np.round(x[5] / 50)  # a row full of ties, replayed as torch's quickselect
    if dtype in (np.float32, np.float64):
        x[7, ::9] = math.nan
    x = x.astype(dtype)
    for dim in (1, 0, -1):
        if k <= x.shape[dim]:
            for keepdim in (False, True):
                m, t = both(lambda L, a: L.kthvalue(a, k, dim, keepdim), x)
                assert_same(m, t)


def test_kthvalue_noncontiguous():
    x = RNG.standard_normal((40, 30)).astype(np.float32)
    m, t = both(lambda L, a: a.t()[::2].kthvalue(7), x)
    assert_same(m, t)
