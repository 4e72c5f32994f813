"""Regression tests for sp1 (per-call cost of the cpu kernels of an MLP training step): the
direct paths must give PyTorch's bits, on the shapes each serves and just past where it
stops serving (the general path then)."""
import mindtorch
import numpy as np
import pytest
from reference import to_torch, torch

X86 = torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")


def assert_same_bits(got, expected):
    """Same shape, dtype and bits (bfloat16 compared as its int16 bits)."""
    if got.dtype is mindtorch.bfloat16:
        got, expected = got.view(mindtorch.int16), expected.view(torch.int16)
    got, expected = got.detach().numpy(), expected.detach().numpy()
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"),
                                  expected.view(f"u{expected.itemsize}"))


def tensor(shape, dtype, seed, scale=10.0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * scale + 3
    return mindtorch.tensor(x).to(getattr(mindtorch, dtype))


# -- sum over leading dims of a C-contiguous float tensor (reduction._leading_sum) ----------


# rows below a group, one group, levels with rows left over, rows not a multiple of 4;
# columns: four vectors' blocks, fewer than a vector, blocks and columns after them
LEADING = [((64, 256), (0,)), ((64, 10), (0,)), ((4, 4), (0,)), ((2, 2), (0,)),
           ((15, 33), (0,)), ((16, 8), (0,)), ((17, 40), (0,)), ((257, 7), (0,)),
           ((300, 65), (0,)), ((3, 5, 10), (0, 1)), ((3, 5, 10), (0,)), ((4, 1, 6), (0,)),
           ((1, 8, 6), (0, 1)), ((6, 5, 1), (0,))]
# just outside the direct path: one row summed, one column, a dtype asked, not contiguous,
# dims not leading
OUTSIDE = [((1, 10), (0,)), ((64, 1), (0,)), ((1, 1, 9), (0, 1)), ((8, 5), (1,)),
           ((3, 5, 10), (1, 0)), ((3, 5, 10), (0, 2))]


@pytest.mark.skipif(not X86, reason="PyTorch's 32-byte vector order (x86)")
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dims", LEADING + OUTSIDE)
def test_leading_sum_same_bits(shape, dims, dtype, keepdim, sum_path):
    m = tensor(shape, dtype, 1)
    assert_same_bits(m.sum(dims, keepdim=keepdim), to_torch(m).sum(dims, keepdim=keepdim))


@pytest.mark.skipif(not X86, reason="PyTorch's 32-byte vector order (x86)")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_leading_sum_outside_cases_same_bits(dtype):
    m = tensor((40, 24), dtype, 2)
    t = to_torch(m)
    assert_same_bits(m.t().sum(0), t.t().sum(0))  # (not C-contiguous)
    assert_same_bits(m.sum(0, dtype=mindtorch.float64), t.sum(0, dtype=torch.float64))
    assert_same_bits(m.half().sum(0), t.half().sum(0))
    zeros = mindtorch.full((20, 9), -0.0, dtype=getattr(mindtorch, dtype))
    assert_same_bits(zeros.sum(0), to_torch(zeros).sum(0))  # (+0.0, as ATen's accumulators)


# -- threshold_backward (relu's backward): grad's bits where kept, +0 where dropped --------

def special(shape, dtype, seed):
    """Normal values with infinities, NaNs, -0s and exact threshold hits among them."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    flat = x.reshape(-1)
    for value, every in ((np.inf, 7), (-np.inf, 11), (np.nan, 13), (-0.0, 5), (0.5, 9)):
        flat[rng.integers(0, flat.size, max(1, flat.size // every))] = value
    return mindtorch.tensor(x).to(getattr(mindtorch, dtype))


# the masked product (same shapes, 16 to 64-bit floats) and, outside it, np.where: a 0-d
# grad, a self broadcast against grad.  (bfloat16 left out: NaN payloads travelling to
# torch through float32 differ, on the base commit too)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("grad_shape,self_shape", [((64, 256), (64, 256)), ((4, 4), (4, 4)),
                                                   ((7,), (7,)), ((300, 257), (300, 257)),
                                                   ((), ()), ((64, 10), (10,))])
def test_threshold_backward_same_bits(grad_shape, self_shape, dtype):
    g, x = special(grad_shape, dtype, 3), special(self_shape, dtype, 4)
    for threshold in (0.0, 0.5):
        assert_same_bits(mindtorch.ops.aten.threshold_backward(g, x, threshold),
                         torch.ops.aten.threshold_backward(to_torch(g), to_torch(x), threshold))


def test_relu_backward_other_layouts_same_bits():
    x, g = special((30, 40), "float32", 5), special((30, 40), "float32", 6).t()
    m = x.t().requires_grad_()
    t = to_torch(x).t().requires_grad_()
    (gm,), (gt,) = mindtorch.autograd.grad(m.relu(), m, g), torch.autograd.grad(
        t.relu(), t, to_torch(g.t()).t())
    assert gm.stride() == gt.stride()
    assert_same_bits(gm, gt)
