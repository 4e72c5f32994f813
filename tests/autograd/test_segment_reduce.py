"""torch.segment_reduce against PyTorch: every reduction over lengths and offsets, empty
segments, initial values, leading dims, and the gradients of the data."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_outcome, torch

RNG = np.random.default_rng(0)
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "amax", "amin"]


def _grad_pair(x, fn):
    """fn(T, data) -> result for both libraries; compares the result and the data's
    gradient under the same upstream values."""
    rs, gs = [], []
    for T, conv in ((mindtorch, mindtorch.from_numpy), (torch, torch.from_numpy)):
        d = conv(x.copy()).requires_grad_()
        r = fn(T, d)
        # (both signs: PyTorch's max/min backward shares only a positive gradient among ties)
        up = conv(np.linspace(-1.0, 2.0, r.numel()).reshape(tuple(r.shape)))
        g, = T.autograd.grad((r * up).nansum(), d)
        assert r.grad_fn.name() == "SegmentReduceBackward0"
        rs.append(r)
        gs.append(g)
    assert_same(rs[0], rs[1])
    assert_same(gs[0], gs[1])


@pytest.mark.parametrize("reduce", REDUCTIONS)
@pytest.mark.parametrize("initial", [None, 0.5, 3.0])
def test_lengths_and_offsets(reduce, initial):
    x = RNG.integers(-3, 4, 9).astype(np.float64)  # integers: ties among the data
    lengths, offsets = [2, 0, 4, 3], [0, 2, 2, 6, 9]
    _grad_pair(x, lambda T, d: T.segment_reduce(d, reduce, lengths=T.tensor(lengths),
                                                initial=initial))
    _grad_pair(x, lambda T, d: T.segment_reduce(d, reduce, offsets=T.tensor(offsets),
                                                initial=initial))


@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "prod"])
def test_leading_and_trailing_dims(reduce):
    x = RNG.standard_normal((2, 5, 3))
    lengths = [[1, 4, 0], [2, 2, 1]]
    _grad_pair(x, lambda T, d: T.segment_reduce(d, reduce, lengths=T.tensor(lengths), axis=1))
    _grad_pair(x, lambda T, d: T.segment_reduce(d, reduce, lengths=T.tensor(lengths),
                                                axis=-2, unsafe=True))
    _grad_pair(x[0].T.copy(), lambda T, d: T.segment_reduce(
        d.t(), reduce, lengths=T.tensor([3, 2], dtype=T.int32)))
    # offsets not starting at 0 / not reaching the end: those elements are in no segment
    _grad_pair(x[0], lambda T, d: T.segment_reduce(d, reduce, offsets=T.tensor([1, 3, 4])))


@pytest.mark.parametrize("reduce", ["prod", "max", "min", "mean"])
@pytest.mark.parametrize("values", [[0., 3., 0., 2., 5., 0., 4.], [0., 3., 2., 2., 0., np.nan, 4.],
                                    [np.nan, 0., 1., 0., 0., 1., 1.]])
def test_zeros_nans_and_ties(reduce, values):
    x = np.array(values)
    for initial in (None, 2.0):
        _grad_pair(x, lambda T, d: T.segment_reduce(d, reduce, lengths=T.tensor([3, 0, 2, 2]),
                                                    initial=initial))


def test_float32_and_empty():
    x = RNG.standard_normal(6).astype(np.float32)
    assert_same(mindtorch.segment_reduce(mindtorch.from_numpy(x), "mean",
                                         lengths=mindtorch.tensor([4, 2])),
                torch.segment_reduce(torch.from_numpy(x), "mean", lengths=torch.tensor([4, 2])))
    same_outcome(lambda T: T.segment_reduce(T.zeros(0), "max", lengths=T.tensor([0, 0])).tolist())


@pytest.mark.parametrize("call", [
    lambda T: T.segment_reduce(T.ones(6), "sum", lengths=T.tensor([2, 2])),
    lambda T: T.segment_reduce(T.ones(6), "sum", lengths=T.tensor([-1, 7])),
    lambda T: T.segment_reduce(T.ones(6), "sum", lengths=T.tensor([2., 4.])),
    lambda T: T.segment_reduce(T.ones(6), "sum", indices=T.tensor([0, 1])),
    lambda T: T.segment_reduce(T.ones(6), "sum"),
    lambda T: T.segment_reduce(T.ones(6), "foo", lengths=T.tensor([6])),
    lambda T: T.segment_reduce(T.ones(6, dtype=T.int64), "sum", lengths=T.tensor([6])),
    lambda T: T.segment_reduce(T.ones(6), "sum", lengths=T.tensor([6]), axis=1),
    lambda T: T.segment_reduce(T.ones(2, 6), "sum", lengths=T.tensor([2, 4]), axis=1),
])
def test_errors(call):
    same_outcome(lambda T: call(T).tolist())
