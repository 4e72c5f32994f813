"""Regression tests for QA round qa20c (speed of sums in PyTorch's order), each the bits of
torch's sum / mean: the compiled row loop's SIMD group sums (many short rows, level
carries), the compiled sums over a dim that is not innermost, the NumPy steps on the
rows' transposed copy, and tensors laid out other than C-contiguously (transposed,
permuted, sliced, expanded: TensorIterator's axis order), on the NumPy and compiled paths."""
import itertools

import mindtorch
import numpy as np
import pytest
from reference import to_torch, torch

X86 = torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512")
pytestmark = pytest.mark.skipif(not X86, reason="PyTorch's 32-byte vector order (x86)")
DTYPES = ["float32", "float64", "float16", "bfloat16", "complex64"]



def bits(t):
    t = t.detach()
    return (t.float() if str(t.dtype) == "torch.bfloat16" else t).numpy()


def tensor(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10 + 3
    if dtype == "complex64":
        x = x + 1j * rng.standard_normal(shape)
    return mindtorch.tensor(x).to(getattr(mindtorch, dtype))


def check(m, t, reduce):
    expected, got = bits(reduce(t)), bits(reduce(m))
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


# rows (short, a vector's length, levels carried), dims that are not innermost (columns
# fewer than a vector, four vectors' blocks and columns after them), dims apart
SHAPES = [((300, 49), (1,)), ((100, 7), (1,)), ((9, 520), (1,)), ((2, 16 * 32 * 16 + 77), (1,)),
          ((700, 3), (0,)), ((300, 40), (0,)), ((70, 1000), (0,)), ((50, 9, 6), (0, 2)),
          ((64,), None), ((1000,), None)]


@pytest.mark.parametrize("fn", ["sum", "mean"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dims", SHAPES)
def test_contiguous_same_bits(shape, dims, dtype, fn, sum_path):
    m = tensor(shape, dtype, 1)
    check(m, to_torch(m), lambda a: getattr(a, fn)() if dims is None else getattr(a, fn)(dims))


LAYOUTS = {  # layout name -> (tensor, its library) -> the tensor in that layout
    "transposed": lambda a, lib: a.transpose(0, -1),
    "permuted": lambda a, lib: a.permute(2, 0, 3, 1),
    "channels_last": lambda a, lib: a.contiguous(memory_format=lib.channels_last),
    "sliced": lambda a, lib: a[:, ::2, :, 1:],
    "expanded": lambda a, lib: a[:, :1].expand(-1, 5, -1, -1),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "complex64"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_other_layouts_same_bits(layout, dtype, sum_path):
    base = tensor((6, 10, 9, 12), dtype, 2)
    m, t = LAYOUTS[layout](base, mindtorch), LAYOUTS[layout](to_torch(base), torch)
    assert m.stride() == t.stride()
    for r in range(m.dim() + 1):
        for dims in itertools.combinations(range(m.dim()), r):
            for fn in ("sum", "mean"):
                check(m, t, lambda a, fn=fn, dims=dims: getattr(a, fn)(dims) if dims else
                      getattr(a, fn)())


def test_options_on_other_layouts(sum_path):
    base = tensor((40, 33), "float32", 3)
    m, t = base.t(), to_torch(base).t()
    check(m, t, lambda a: a.sum(0, keepdim=True))
    check(m, t, lambda a: a.sum((0, 1)))
    expected = t.mean(1, dtype=torch.float64).numpy()
    np.testing.assert_array_equal(m.mean(1, dtype=mindtorch.float64).numpy(), expected)


def test_many_short_rows_signed_zeros_and_specials(sum_path):
    x = np.full((500, 37), -0.0, np.float32)
    x[1, 3], x[2, 30], x[3, 9], x[3, 10] = np.inf, np.nan, -np.inf, np.inf
    m = mindtorch.tensor(x)
    for reduce in (lambda a: a.sum(1), lambda a: a.sum(0), lambda a: a.t().sum(0)):
        got, expected = bits(reduce(m)), bits(reduce(to_torch(m)))
        np.testing.assert_array_equal(got, expected)
        assert np.array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_one_norm_same_bits(layout, dtype):
    # ATen's norm kernel adds |x| one element after another (not the sum's cascade)
    base = tensor((33, 70), dtype, 4).abs() * -1 + 0.5
    change = {"contiguous": lambda a: a, "transposed": lambda a: a.t(),
              "sliced": lambda a: a[:, ::2]}[layout]
    m, t = change(base), change(to_torch(base))
    for dims in (None, 0, 1, (0, 1)):
        for keepdim in (False, True):
            got = mindtorch.linalg.vector_norm(m, 1, dims, keepdim)
            expected = torch.linalg.vector_norm(t, 1, dims, keepdim)
            np.testing.assert_array_equal(bits(got), bits(expected))
            assert got.dtype.__repr__().split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_array_equal(bits(m.norm(p=1, dim=1)), bits(t.norm(p=1, dim=1)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_two_norm_plain_reduction_same_bits(dtype):
    # over dims that are not one run in memory (and float16 everywhere) ATen's 2-norm adds
    # x * x one element after another
    base = tensor((33, 70), dtype, 5)
    for m, t, dims in ((base, to_torch(base), 0), (base.t(), to_torch(base).t(), 1),
                       (base[:, ::2], to_torch(base)[:, ::2], 1)):
        got, expected = mindtorch.linalg.vector_norm(m, 2, dims), torch.linalg.vector_norm(
            t, 2, dims)
        np.testing.assert_array_equal(bits(got), bits(expected))
    if dtype == "float16":
        np.testing.assert_array_equal(bits(base.norm()), bits(to_torch(base).norm()))
