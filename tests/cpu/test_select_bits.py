"""clamp, relu and threshold_backward select values; they must give PyTorch's bits, not
only its values: -0 kept where torch keeps it, NaN payloads and signs kept, +0 where a
gradient is dropped (NaN and -0 gradients included), on contiguous and strided inputs.
(bfloat16 kernels compute in float32, so there a NaN's payload is not compared.)"""
import numpy as np
import pytest
from reference import torch

import mindtorch
from mindtorch._ops import OPS

_INT = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}
FLOATS = ["float16", "bfloat16", "float32", "float64"]
SPECIAL = [1.0, -np.nan, np.nan, 5.0, -np.inf, np.inf, -0.0, 0.0, 2.0, -3.0, 0.5, -0.5]


def bits(t):
    """A tensor's raw bits as a numpy integer array (torch or mindtorch)."""
    lib = torch if isinstance(t, torch.Tensor) else mindtorch
    return np.asarray(t.view(getattr(lib, _INT[t.element_size()])).numpy())


def same_bits(got, expected):
    g, e = bits(got), bits(expected)
    if expected.dtype is torch.bfloat16:
        nan = expected.isnan().numpy()
        assert (got.isnan().numpy() == nan).all()
        g, e = g[~nan], e[~nan]
    assert (g == e).all()


def both(values, dtype):
    """A torch tensor and a mindtorch tensor with the same bits (torch's conversion: it
    turns -NaN into NaN on the way to bfloat16)."""
    t = torch.tensor(values, dtype=torch.float64).to(getattr(torch, dtype))
    return t, mindtorch.tensor(bits(t)).view(getattr(mindtorch, dtype))


def data(dtype):
    rng = np.random.default_rng(0)
    values = np.concatenate([SPECIAL, rng.standard_normal(36)]).reshape(6, 8)
    return both(values.tolist(), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("bounds", [(0, 2), (None, 1.5), (-1, None), (3, 1), (0.0, 0.0),
                                    (-float("inf"), float("inf")), (0, None), (None, 0)])
def test_clamp_number_bounds_bits(dtype, bounds):
    t, m = data(dtype)
    for sl in (np.s_[:, :], np.s_[::2, 1::3], np.s_[0, 0]):
        same_bits(m[sl].clamp(*bounds), t[sl].clamp(*bounds))


@pytest.mark.parametrize("dtype", FLOATS)
def test_relu_bits(dtype):
    t, m = data(dtype)
    same_bits(mindtorch.relu(m), torch.relu(t))
    same_bits(mindtorch.relu(m.T), torch.relu(t.T))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("threshold", [0, 0.5, -1])
def test_threshold_backward_bits(dtype, threshold):
    gt, gm = data(dtype)
    xt, xm = both(np.roll(np.asarray(SPECIAL + [0.25] * 36), 5).reshape(6, 8).tolist(), dtype)
    for sl in (np.s_[:, :], np.s_[::2, 1::3]):
        expected = torch.ops.aten.threshold_backward(gt[sl], xt[sl], threshold)
        got = OPS["threshold_backward"].call(gm[sl], xm[sl], threshold)
        same_bits(got, expected)


@pytest.mark.parametrize("dtype", FLOATS + ["int64", "int8", "uint8", "bool"])
def test_where_and_masked_fill_bits_on_random_masks(dtype):
    """Large enough for the bit-select path (kernels/_select.py), with broadcasting, a
    number operand, a transposed input and the in-place form."""
    rng = np.random.default_rng(1)
    values = rng.standard_normal((48, 64)) * 5
    values.flat[:4] = [np.nan, -0.0, np.inf, -np.nan]
    t = torch.tensor(values).to(getattr(torch, dtype))
    m = mindtorch.tensor(t.numpy()) if dtype == "bool" else \
        mindtorch.tensor(bits(t)).view(getattr(mindtorch, dtype))
    tr, mr = t[:1].flip(1), m[:1].flip(1)  # a broadcast row
    cond = rng.random((48, 64)) < 0.5
    tc, mc = torch.from_numpy(cond), mindtorch.tensor(cond)
    one = True if dtype == "bool" else 1
    cases = [lambda L, x, r, c: L.where(c, x, r), lambda L, x, r, c: L.where(c, r, x),
             lambda L, x, r, c: L.where(c, x, one), lambda L, x, r, c: x.masked_fill(c, one),
             lambda L, x, r, c: x.T.masked_fill(c.T, one), lambda L, x, r, c: x.masked_fill(c[:1], one),
             lambda L, x, r, c: x.clone().masked_fill_(c, one)]
    for f in cases:
        expected, got = f(torch, t, tr, tc), f(mindtorch, m, mr, mc)
        assert str(got.dtype) == str(expected.dtype) and tuple(got.shape) == expected.shape
        if dtype == "bool":
            assert (got.numpy() == expected.numpy()).all()
        else:
            same_bits(got, expected)
