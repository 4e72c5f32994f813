"""Sums add in PyTorch's order (kernels/_cascade.py, and _reduce_loops.sum_rows): over a
dim that is not the innermost in memory (a Linear layer's bias gradient, `x.mean(0)`),
along rows (`x.sum(-1)`, `x.mean((2, 3))`, `x.sum()`) and over dims apart (`x.sum((0, 2,
3))`).  The same bits as PyTorch's on x86 machines (whose sum kernels use 32-byte vectors
with AVX2 and AVX-512 alike), across sizes that take each of its paths (whole vector
groups, trailing vectors, fewer elements than a vector, group levels), and dtypes; by
the NumPy path and by the compiled loop."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels._cascade import outer_sum
from reference import to_torch, torch

RNG = np.random.default_rng(7)
X86 = torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")
CASES = [((64, 256), (0,)), ((1000, 7), (0,)), ((3, 70, 33), (1,)), ((5000, 12), (0,)),
         ((17, 256), (0,)), ((300, 2), (0,)), ((4097, 9), (0,)), ((9, 40), (0,)),
         ((2, 3, 40, 5), (0, 1)), ((33, 64), (0,)), ((200, 48), (0,)), ((5, 300, 4), (1,)),
         ((6, 3), (0,)), ((2, 20), (0,)), ((64, 10), (-2,))]
DTYPES = ["float32", "float64", "float16", "bfloat16", "complex64"]


def bits(t):
    t = t.detach()
    return (t.float() if str(t.dtype) == "torch.bfloat16" else t).numpy()


@pytest.mark.parametrize("fn", ["sum", "mean"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dims", CASES)
def test_same_bits_as_pytorch(shape, dims, dtype, fn):
    x = RNG.standard_normal(shape) * 10 + 3
    if dtype == "complex64":
        x = x + 1j * RNG.standard_normal(shape)
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    expected, got = bits(getattr(t, fn)(dims)), bits(getattr(m, fn)(dims))
    if X86:
        np.testing.assert_array_equal(got, expected)
    else:  # (another vector width groups trailing columns differently)
        np.testing.assert_allclose(got, expected, rtol=1e-3 if "16" in dtype else 1e-6)


def test_more_accurate_than_numpy_order():
    # 4,000 rows of 1 + small terms: one float32 accumulator drifts, the groups do not
    x = np.full((4000, 16), 1.0, np.float32) + RNG.uniform(0, 1e-3, (4000, 16)).astype(
        np.float32)
    exact = x.astype(np.float64).sum(0)
    ours = outer_sum(x.reshape(1, 4000, 16))[0].astype(np.float64)
    numpy_order = np.add.reduce(x, axis=0).astype(np.float64)
    assert np.abs(ours - exact).max() < np.abs(numpy_order - exact).max() / 4


def test_signed_zero_and_specials():
    x = np.zeros((40, 9), np.float32)
    x[:] = -0.0
    x[3, 1], x[5, 2], x[7, 3] = np.inf, np.nan, -np.inf
    x[8, 3] = np.inf
    m = mindtorch.tensor(x)
    got, expected = m.sum(0).numpy(), to_torch(m).sum(0).numpy()
    np.testing.assert_array_equal(got, expected)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
    grad = mindtorch.zeros(0, 5).sum(0)
    assert grad.shape == (5,) and not grad.any()


def test_bias_gradient_bits():
    w = mindtorch.randn(256, 784, requires_grad=True)
    b = mindtorch.randn(256, requires_grad=True)
    x, g = mindtorch.randn(64, 784), mindtorch.randn(64, 256) * 100
    tw, tb = (to_torch(p).requires_grad_() for p in (w, b))
    mindtorch.nn.functional.linear(x, w, b).backward(g)
    torch.nn.functional.linear(to_torch(x), tw, tb).backward(to_torch(g))
    if X86:
        np.testing.assert_array_equal(b.grad.numpy(), tb.grad.numpy())
    else:
        np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-6)


# rows of fewer elements than a vector, of a few vectors, of one group level and of more
# (levels carried: 16 groups of 4 vectors and beyond), full sums, dims apart
ROW_CASES = [((64, 5), (1,)), ((33, 10), (1,)), ((7, 31), (-1,)), ((16, 100), (1,)),
             ((3, 544), (1,)), ((2, 2049), (1,)), ((1, 9000), (0,)), ((6, 40, 7, 7), (2, 3)),
             ((1003,), None), ((4, 3, 20), None), ((5, 6, 7, 9), (0, 2, 3)),
             ((4, 3, 6, 10), (0, 2)), ((3, 4, 50), (0, 2)), ((2, 3, 4, 5), (0, 1, 3)), ((9, 1, 5), (0, 2)), ((1, 7, 1, 3), (0, 2)), ((4, 1), (1,))]



@pytest.mark.parametrize("fn", ["sum", "mean"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dims", ROW_CASES)
def test_rows_and_dims_apart_same_bits_as_pytorch(shape, dims, dtype, fn, sum_path):
    x = RNG.standard_normal(shape) * 10 + 3
    if dtype == "complex64":
        x = x + 1j * RNG.standard_normal(shape)
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    reduce = (lambda a: getattr(a, fn)()) if dims is None else (
        lambda a: getattr(a, fn)(dims))
    expected, got = bits(reduce(t)), bits(reduce(m))
    assert got.shape == expected.shape
    if X86:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-3 if "16" in dtype else 1e-6)


def test_row_sums_signed_zero_and_specials(sum_path):
    x = np.full((6, 45), -0.0, np.float32)
    x[1, 3], x[2, 40], x[3, 9], x[3, 10] = np.inf, np.nan, -np.inf, np.inf
    m = mindtorch.tensor(x)
    got, expected = m.sum(1).numpy(), to_torch(m).sum(1).numpy()
    np.testing.assert_array_equal(got, expected)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
