"""Creation, copy and conversion ops against PyTorch: empty/zeros/ones/full (every size
spelling, dtype inference, requires_grad, errors), the *_like factories and clone/.to
keeping the input's layout (preserve_format), empty_strided, arange/linspace/eye,
tensor()/as_tensor/asarray/from_numpy, copy_ and .to between every pair of dtypes
(broadcasting, non-contiguous, overlapping memory), fill_/zero_, contiguous, the dtype
helpers, .type(), the new_* methods, and the meta device for every factory.

Most cases are expressions evaluated once with T = mindtorch and once with T = torch:
same dtype, shape, strides, device, requires_grad and values, or the same error class."""
import numpy as np
import pytest

import mindtorch
from reference import DTYPES, assert_same, torch

from creation_helpers import M, cases, compare, expr
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning",
                                        "ignore::DeprecationWarning")


# -- empty / zeros / ones / full --------------------------------------------------------------

@cases("T.zeros(2, 3)", "T.zeros((2, 3))", "T.zeros([2, 3])", "T.zeros(size=(2, 3))",
       "T.zeros(T.Size([2, 3]))", "T.zeros(())", "T.zeros([])", "T.zeros(0, 3)",
       "T.zeros(3, 0, 2)", "T.zeros(np.int64(3))", "T.ones(2, dtype=T.int8)",
       "T.ones(2, 3, dtype=T.bool)", "T.ones(2, 2, dtype=T.bfloat16)",
       "T.zeros(2, dtype=T.complex64)", "T.zeros(2, dtype=float)", "T.zeros(2, dtype=int)",
       "T.zeros(2, dtype=bool)", "T.empty(2, 3).shape", "T.empty((2, 3), dtype=T.float64).stride()",
       "T.zeros(2, requires_grad=True)", "T.ones(2, dtype=T.complex128, requires_grad=True)",
       "T.full((2,), True)", "T.full((2,), 3)", "T.full((2,), 3.5)", "T.full((2,), 1 + 2j)",
       "T.full((2,), 3, dtype=T.float16)", "T.full((2,), 3.7, dtype=T.int32)",
       "T.full((2,), -1, dtype=T.uint8)", "T.full([], 3)", "T.full((), 2.5)",
       "T.full((2, 0), 7)", "T.full((2,), np.float32(1.5))", "T.full((2,), np.int32(2))",
       "T.full((2,), T.tensor(2.5))", "T.full((2,), 1, requires_grad=True)",
       # errors
       "T.zeros(-1)", "T.zeros(2, -1)", "T.ones((3, -2))", "T.empty(-1)", "T.full((-1,), 2)",
       "T.zeros(2.0)", "T.zeros((2.0,))", "T.zeros('a')", "T.zeros(T.tensor([2, 3]))",
       "T.full(2, 3)", "T.full((2,), 300, dtype=T.uint8)", "T.full((2,), 1 + 1j, dtype=T.float32)",
       "T.full((2,), float('nan'), dtype=T.int32)", "T.zeros(2, dtype=T.int64, requires_grad=True)",
       "T.empty(2, dtype=T.int32, requires_grad=True)", "T.full((2,), 1, dtype=T.bool, "
       "requires_grad=True)", "T.zeros(2, dtype='float32')")
def test_basic_factories(text):
    compare(expr(text))


def test_empty_is_uninitialised_but_well_formed():
    for shape in [(2, 3), (), (0, 4)]:
        for dt in DTYPES:
            compare(lambda T: T.empty(shape, dtype=getattr(T, dt)).shape)
            compare(lambda T: T.empty(shape, dtype=getattr(T, dt)).stride())


def test_varargs_and_size_keyword_together():
    compare(expr("T.zeros(2, 3, size=(2,))"))


# every factory on the meta device: same shape/dtype/strides as on cpu (and as torch)
FACTORIES = [
    "T.empty(2, 3, device=D)", "T.zeros(2, 0, device=D)", "T.ones((), device=D)",
    "T.full((2, 3), 7, device=D)", "T.full((2,), 1.5, dtype=T.float16, device=D)",
    "T.empty_strided((2, 3), (1, 2), device=D)", "T.arange(5, device=D)",
    "T.arange(0, 1, 0.1, device=D)", "T.arange(10, 0, -3, dtype=T.int8, device=D)",
    "T.linspace(0, 1, 7, device=D)", "T.linspace(0, 1 + 1j, 3, device=D)",
    "T.linspace(0, 10, 4, dtype=T.int32, device=D)", "T.eye(3, device=D)",
    "T.eye(2, 4, dtype=T.bool, device=D)", "T.tensor([[1, 2], [3, 4]], device=D)",
    "T.tensor(np.ones((2, 3)).T, device=D)", "T.as_tensor([1.5, 2.0], device=D)",
    "T.zeros_like(T.ones(3, 2).t(), device=D)", "T.ones_like(T.ones(2), dtype=T.int8, device=D)",
    "T.full_like(T.ones(2, 3), 4, device=D)", "T.empty_like(T.ones(3, 2).t(), device=D)",
    "T.ones(2, 3, device=D).new_zeros(4)", "T.ones(2, device=D).new_full((3,), 2)",
    "T.ones(2, device=D).new_empty_strided((2, 3), (1, 2))",
    "T.zeros(2, 3, requires_grad=True, device=D)", "T.zeros(-1, device=D)",
    "T.arange(0, 5, 0, device=D)", "T.arange(5, dtype=T.bool, device=D)",
    "T.linspace(0, 1, -1, device=D)", "T.eye(-1, device=D)",
    "T.full((2,), 300, dtype=T.uint8, device=D)",
]


@cases(*FACTORIES)
def test_factories_on_meta(text):
    meta = lambda T: eval(text, {"T": T, "np": np, "D": "meta"})  # noqa: E731
    got = compare(meta)
    try:  # (the cpu kernel may refuse what meta accepts, as in torch: bool arange)
        cpu = eval(text, {"T": M, "np": np, "D": "cpu"})
    except (RuntimeError, TypeError):
        return
    assert (got.shape, got.dtype, got.stride()) == (cpu.shape, cpu.dtype, cpu.stride())


# -- layouts: *_like, clone and conversions keep the input's strides ------------------------

LAYOUTS = {
    "contiguous": lambda T: T.arange(24.).reshape(2, 3, 4),
    "transposed": lambda T: T.arange(6.).reshape(3, 2).t(),
    "permuted": lambda T: T.arange(24.).reshape(2, 3, 4).permute(2, 0, 1),
    "sliced": lambda T: T.arange(24.).reshape(4, 6)[::2, ::3],
    "column": lambda T: T.arange(24.).reshape(4, 6)[:, 1:],
    "perm_sliced": lambda T: T.arange(24.).reshape(4, 3, 2).permute(2, 0, 1)[:, ::2],
    "gap_transposed": lambda T: T.arange(24.).reshape(2, 3, 4)[:, :, ::2].transpose(0, 2),
    "expanded": lambda T: T.arange(12.).reshape(3, 4).expand(2, 3, 4),
    "expanded_col": lambda T: T.arange(3.).reshape(3, 1).expand(3, 4),
    "size1_odd_stride": lambda T: T.arange(3.).reshape(1, 3).t(),
    "size1_permuted": lambda T: T.arange(8.).reshape(2, 1, 4).permute(2, 1, 0),
    "empty_transposed": lambda T: T.ones(0, 4).t(),
    "zero_dim": lambda T: T.tensor(3.5),
    "step": lambda T: T.arange(12.)[::2],
}

LIKE_OPS = {
    "empty_like": lambda T, x: T.empty_like(x).stride(),
    "zeros_like": lambda T, x: T.zeros_like(x),
    "ones_like_int": lambda T, x: T.ones_like(x, dtype=T.int16),
    "full_like": lambda T, x: T.full_like(x, 7),
    "full_like_float_into_int": lambda T, x: T.full_like(x.int(), 7.9),
    "empty_like_contiguous": lambda T, x: T.empty_like(x, memory_format=T.contiguous_format)
    .stride(),
    "empty_like_preserve": lambda T, x: T.empty_like(x, memory_format=T.preserve_format).stride(),
    "clone": lambda T, x: T.clone(x),
    "clone_method_contiguous": lambda T, x: x.clone(memory_format=T.contiguous_format),
    "contiguous": lambda T, x: x.contiguous(),
    "to_dtype": lambda T, x: x.to(T.float64),
    "double": lambda T, x: x.double(),
    "to_copy": lambda T, x: x.to(T.float32, copy=True),
    "type": lambda T, x: x.type(T.int32),
    "tensor_of_tensor": lambda T, x: T.tensor(x),
    "tensor_of_tensor_dtype": lambda T, x: T.tensor(x, dtype=T.int8),
    "zeros_like_requires_grad": lambda T, x: T.zeros_like(x, requires_grad=True),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", LIKE_OPS)
def test_like_ops_preserve_layout(op, layout):
    compare(lambda T: LIKE_OPS[op](T, LAYOUTS[layout](T)))


def test_preserve_format_on_random_layouts():
    """empty_like of many as_strided views (dense, gapped, overlapping, zero strides,
    size-1 dims) has PyTorch's strides."""
    rng = np.random.default_rng(0)
    mbase, tbase = M.empty(4096), torch.empty(4096)
    for _ in range(300):
        ndim = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.integers(0, 4, ndim))
        stride = tuple(int(s) for s in rng.integers(0, 13, ndim))
        if rng.random() < 0.4:  # a permuted dense layout
            perm = rng.permutation(ndim)
            dense, acc = [0] * ndim, 1
            for d in perm[::-1]:
                dense[d] = acc
                acc *= max(shape[d], 1)
            stride = tuple(dense)
        want = torch.empty_like(tbase.as_strided(shape, stride)).stride()
        got = M.empty_like(mbase.as_strided(shape, stride)).stride()
        assert got == want, (shape, stride, got, want)


def test_like_factories_keep_dtype_device_and_override():
    x = lambda T: T.ones(2, 3, dtype=T.int8)  # noqa: E731
    for fn in (lambda T: T.zeros_like(x(T)), lambda T: T.ones_like(x(T), dtype=T.float64),
               lambda T: T.full_like(x(T), -3), lambda T: T.full_like(x(T), 2.5),
               lambda T: T.full_like(x(T), 300), lambda T: T.full_like(x(T), 1 + 1j),
               lambda T: T.full_like(T.ones(2, dtype=T.uint8), -1),
               lambda T: T.full_like(T.ones(2, dtype=T.bool), 2),
               lambda T: T.zeros_like(x(T), requires_grad=True),
               lambda T: T.zeros_like(T.ones(3, 4, device="meta")),
               lambda T: T.zeros_like(T.ones(3, 4, device="meta"), device="cpu"),
               lambda T: T.zeros_like(T.ones(3, 4), device="meta"),
               lambda T: T.zeros_like(T.ones(3, 4, dtype=T.complex64)).dtype,
               lambda T: T.zeros_like([1, 2])):
        compare(fn)


@cases("T.empty_strided((2, 3), (1, 2)).stride()", "T.empty_strided((2, 3), (1, 2)).shape",
       "T.empty_strided((2, 3), (1, 2), dtype=T.int8).dtype",
       "T.empty_strided((2, 3), (0, 0)).stride()", "T.empty_strided((2, 0), (1, 2)).stride()",
       "T.empty_strided((), ()).shape", "T.empty_strided((2, 3), (3, 1), device='meta')",
       "T.empty_strided((2, 3), (1, 2), requires_grad=True).requires_grad",
       "T.empty_strided((2, 3), (1, 2))._base is None",
       "T.empty_strided((2, 3), (1,))", "T.empty_strided((2, -3), (1, 2))",
       "T.empty_strided((2, 3), (1, -2))",
       "T.ones(2).new_empty_strided((2, 3), (1, 2), dtype=T.int8).stride()",
       "T.ones(2, dtype=T.int16).new_empty_strided((2, 3), (1, 2)).dtype",
       "T.empty_like(T.ones(3, 2).t())._base is None", "T.ones(3, 2).t().clone()._base is None")
def test_empty_strided(text):
    compare(expr(text))


def test_empty_strided_storage_covers_the_strides():
    t = M.empty_strided((3, 4), (1, 5))
    assert t.untyped_storage().nbytes() == (2 * 1 + 3 * 5 + 1) * 4
    t.fill_(2.0)
    assert t.sum().item() == 24.0


# -- arange / linspace / eye ---------------------------------------------------------------

@cases("T.arange(5)", "T.arange(5.0)", "T.arange(1, 5)", "T.arange(1, 5, 2)",
       "T.arange(0, 1, 0.1)", "T.arange(1, 2.5, 0.5)", "T.arange(5, 1, -1)",
       "T.arange(5, 1, -0.5)", "T.arange(0, 10, 3, dtype=T.float32)",
       "T.arange(0, 2.5, dtype=T.int64)", "T.arange(0.5, 5, dtype=T.int32)",
       "T.arange(-1.5, 3, 1.7, dtype=T.int64)", "T.arange(-1.5, 3, 1.7, dtype=T.int32)",
       "T.arange(5, 1, -1.5, dtype=T.int64)", "T.arange(5, 1, -1.5, dtype=T.int16)",
       "T.arange(0.9, 3.9, 1, dtype=T.int64)", "T.arange(-0.5, 2, 1, dtype=T.int64)",
       "T.arange(0, -0.5, -1, dtype=T.int64)", "T.arange(0, 3, 0.5, dtype=T.int32)",
       "T.arange(-1.5, 3, 0.7, dtype=T.int32)", "T.arange(0, 1, 0.3, dtype=T.uint8)",
       "T.arange(5, dtype=T.uint8)", "T.arange(300, dtype=T.int8)",
       "T.arange(300, dtype=T.uint8)", "T.arange(4, dtype=T.float16)",
       "T.arange(-3, 3, 0.25, dtype=T.float16)", "T.arange(0, 1, 0.1, dtype=T.bfloat16)",
       "T.arange(0, 10, 0.1, dtype=T.bfloat16)", "T.arange(0, 1, 0.1, dtype=T.float64)",
       "T.arange(0, 1, 1 / 3)", "T.arange(0.1, 0.9, 0.1)", "T.arange(1, 1.3, 0.1)",
       "T.arange(1e-8, 1e-7, 1e-8)", "T.arange(0, 10**10, 10**9)", "T.arange(2**62, 2**62 + 3)",
       "T.arange(0)", "T.arange(0, 0)", "T.arange(5, 5, -1)", "T.arange(-5, -1)",
       "T.arange(10, 0, -3)", "T.arange(end=5)", "T.arange(start=1, end=5)",
       "T.arange(1, 5, step=2)", "T.arange(T.tensor(5))", "T.arange(np.int64(5))",
       "T.arange(np.float32(2.5))", "T.arange(True)", "T.arange(3 + 0j)",
       "T.arange(0, 5, float('inf'))", "T.arange(5.0, requires_grad=True)",
       "T.arange(5, dtype=T.float32, requires_grad=True)",
       # errors
       "T.arange(1, 5, -1)", "T.arange(5, 1)", "T.arange(0, 5, 0)", "T.arange(0, 5, 0.0)",
       "T.arange(0, 5, float('nan'))", "T.arange(0, float('inf'))", "T.arange(0, float('nan'))",
       "T.arange(float('-inf'), 0)", "T.arange(0, 1, 0.3, dtype=T.int64)",
       "T.arange(0, 1, -0.5, dtype=T.int64)", "T.arange(5, dtype=T.bool)",
       "T.arange(3, dtype=T.complex64)", "T.arange(1 + 1j)", "T.arange(5, requires_grad=True)",
       "T.arange()", "T.arange('a')", "T.arange(0, 5, float('inf'), dtype=T.int32)",
       "T.arange(0, 1e30, 1e29, dtype=T.int32)")
def test_arange(text):
    compare(expr(text))


def test_arange_length_follows_double_precision():
    # the classic float-step lengths: ceil((end - start) / step) in double
    for s, e, st in [(0, 1, 0.1), (0, 0.3, 0.1), (1, 1.3, 0.1), (0, 2, 0.2), (-1, 1, 0.1),
                     (0, 10, 0.7), (0.5, 0.8, 0.1)]:
        for dt in ("float32", "float64", "float16", "int32"):
            compare(lambda T: T.arange(s, e, st, dtype=getattr(T, dt)).shape)


def test_arange_values_long_float_ranges():
    # torch's vectorised loop rounds slightly differently: a few ulps
    compare(lambda T: T.arange(0, 1000, 0.1), rtol=1e-6, atol=1e-4)
    compare(lambda T: T.arange(0, 1000, 0.1, dtype=T.float64), rtol=1e-13, atol=1e-12)
    compare(lambda T: T.arange(0, 1000, 0.1, dtype=T.float16), rtol=1e-3, atol=0.5)


@cases("T.range(0, 3)", "T.range(0, 2.5)", "T.range(1, 4, 0.5)", "T.range(0, 1, 0.1)",
       "T.range(0, 1, 0.3)", "T.range(3, 0, -1)", "T.range(0, 3, dtype=T.int64)",
       "T.range(-3, 5, 3, dtype=T.int32)", "T.range(0, 3, dtype=T.float64)",
       "T.range(0, 3, requires_grad=True)", "T.range(2, 2)", "T.range(0, 2, device='meta')",
       # errors
       "T.range(0, 3, 0)", "T.range(3, 0)", "T.range(0, float('inf'))", "T.range(5)")
def test_range_deprecated_inclusive(text):
    compare(expr(text))


def test_range_warns_deprecated():
    with pytest.warns(UserWarning, match="torch.range is deprecated"):
        mindtorch.range(0, 1)


@cases("T.linspace(0, 1, 5)", "T.linspace(0, 1, 0)", "T.linspace(0, 1, 1)",
       "T.linspace(3, 1, 1)", "T.linspace(1, 0, 7)", "T.linspace(0, 1, 11)",
       "T.linspace(-1, 1, 101)", "T.linspace(-3.7, 5.9, 33)", "T.linspace(1, 1, 3)",
       "T.linspace(0, 1e10, 3)", "T.linspace(True, False, 3)", "T.linspace(0, 1, steps=3)",
       "T.linspace(0, 1, 5, dtype=T.float64)", "T.linspace(-1, 1, 101, dtype=T.float64)",
       "T.linspace(0, 1, 5, dtype=T.float16)", "T.linspace(-2, 3, 9, dtype=T.float16)",
       "T.linspace(0, 1, 5, dtype=T.bfloat16)", "T.linspace(0, 1 + 1j, 5)",
       "T.linspace(0, 1 + 0j, 3)", "T.linspace(-1j, 2 + 1j, 6, dtype=T.complex128)",
       "T.linspace(0, 1, 5, dtype=T.complex64)", "T.linspace(T.tensor(0.), T.tensor(1.), 5)",
       "T.linspace(0, 1, 5, requires_grad=True)",
       # integer dtypes: start and end truncated, values truncated
       "T.linspace(0, 10, 4, dtype=T.int64)", "T.linspace(0, 10, 7, dtype=T.int32)",
       "T.linspace(10, 0, 7, dtype=T.int32)", "T.linspace(-10, 10, 7, dtype=T.int32)",
       "T.linspace(0, 255, 18, dtype=T.uint8)", "T.linspace(-3, 3, 9, dtype=T.int8)",
       "T.linspace(0, 100, 11, dtype=T.int64)", "T.linspace(5, 5, 3, dtype=T.int64)",
       "T.linspace(3.7, 5, 1, dtype=T.int64)", "T.linspace(-3.7, 5, 1, dtype=T.int64)",
       "T.linspace(-3.7, 5.9, 4, dtype=T.int64)", "T.linspace(-3.7, 5.9, 7, dtype=T.int16)",
       # errors
       "T.linspace(0, 1, -1)", "T.linspace(0, 1, 5, dtype=T.bool)",
       "T.linspace(0, 300, 4, dtype=T.int8)", "T.linspace(0, 1 + 1j, 3, dtype=T.float32)",
       "T.linspace(0, 1, 5, dtype=T.int64, requires_grad=True)", "T.linspace(0, 1, 2.0)",
       "T.linspace(0, 1)")
def test_linspace(text):
    # torch's kernel may use fused multiply-adds and vector chunks: an ulp or two apart
    compare(expr(text), rtol=1e-6 if "float64" not in text else 1e-15, atol=1e-6)


@cases("T.eye(3)", "T.eye(2, 4)", "T.eye(4, 2)", "T.eye(0)", "T.eye(3, 0)", "T.eye(n=2, m=3)",
       "T.eye(3, dtype=T.int32)", "T.eye(3, dtype=T.bool)", "T.eye(3, dtype=T.complex64)",
       "T.eye(3, dtype=T.bfloat16)", "T.eye(3, requires_grad=True)", "T.eye(T.tensor(2))",
       "T.eye(-1)", "T.eye(2, -1)", "T.eye(3.0)", "T.eye(3, dtype=T.int64, requires_grad=True)")
def test_eye(text):
    compare(expr(text))


# -- tensor() ----------------------------------------------------------------------------------

@cases("T.tensor([[1, 2], [3, 4]])", "T.tensor([[1, 2], [3, 4.5]])", "T.tensor([1, True])",
       "T.tensor([True, False])", "T.tensor([1, 2 + 1j])", "T.tensor([1.5, 2 + 1j])",
       "T.tensor([1, 2.5 + 0j])", "T.tensor(3)", "T.tensor(3.5)", "T.tensor(True)",
       "T.tensor(1 + 2j)", "T.tensor([])", "T.tensor([[]])", "T.tensor([[], []])",
       "T.tensor([[[]], []])", "T.tensor([[], [1]])", "T.tensor([[]], dtype=T.int32)",
       "T.tensor([], dtype=T.bool)", "T.tensor(range(4))", "T.tensor((1, 2, 3))",
       "T.tensor(((1, 2), (3, 4)))", "T.tensor([[1, 2], (3, 4)])",
       "T.tensor([float('nan'), float('inf')])", "T.tensor([1e300])", "T.tensor([1e-50])",
       "T.tensor([1e300], dtype=T.float64)", "T.tensor([1e40], dtype=T.float32)",
       "T.tensor([70000], dtype=T.float16)", "T.tensor([2**63 - 1], dtype=T.float16)",
       # explicit dtypes: truncation, wrapping of negative ints into uint8, bool
       "T.tensor([1, 2], dtype=T.float16)", "T.tensor([1.7, -2.7], dtype=T.int32)",
       "T.tensor([1.5, 0], dtype=T.bool)", "T.tensor([1.5, float('nan')], dtype=T.bool)",
       "T.tensor([1 + 1j, 0j], dtype=T.bool)", "T.tensor([1, 2], dtype=T.complex64)",
       "T.tensor([-1, -255], dtype=T.uint8)", "T.tensor([True, 2.5], dtype=T.int8)",
       "T.tensor([9.2e18], dtype=T.int64)", "T.tensor([[1, 2], [3, 4]], dtype=T.bfloat16)",
       "T.tensor(3, dtype=T.bfloat16)", "T.tensor([0.1], dtype=T.bfloat16)",
       "T.tensor([1, 2], dtype=float)", "T.tensor([1, 2], dtype=int)",
       "T.tensor([1, 2], dtype=bool)", "T.tensor([1.0], requires_grad=True)",
       "T.tensor([1], dtype=T.float32, requires_grad=True)",
       "T.tensor([1 + 1j], requires_grad=True)",
       # numpy scalars and 0-dim tensors inside lists keep their dtypes
       "T.tensor([np.float32(1.0), np.float32(2.0)])", "T.tensor([np.float32(1.0), 2.0])",
       "T.tensor([np.float16(1), 2.5])", "T.tensor([np.int32(1), 2])",
       "T.tensor([np.int8(1), np.int8(2)])", "T.tensor([np.uint8(1), np.int8(2)])",
       "T.tensor([np.float64(1.0), 2])", "T.tensor([np.bool_(True), 2.5])",
       "T.tensor([True, np.int8(2)])", "T.tensor([np.float64(1.5)], dtype=T.int32)",
       "T.tensor([T.tensor(1), T.tensor(2)])", "T.tensor([T.tensor(1.5), 2])",
       "T.tensor([T.tensor(1.5, dtype=T.float16), 2])",
       "T.tensor([T.tensor(1, dtype=T.int8), T.tensor(2, dtype=T.int8)])",
       "T.tensor([np.array([1, 2]), np.array([3, 4])])", "T.tensor([np.array([1, 2]), [3, 4]])",
       "T.tensor([[1, 2], np.array([3.5, 4])])",
       # errors
       "T.tensor([[1], [2, 3]])", "T.tensor([[1, 2], [3]])", "T.tensor([[1, 2], []])",
       "T.tensor([1, [2]])", "T.tensor([[1], 2])", "T.tensor([[1, 2], 3])", "T.tensor('a')",
       "T.tensor(['a'])", "T.tensor([1, 'a'])", "T.tensor(None)", "T.tensor([None])",
       "T.tensor([1, None])", "T.tensor({1: 2})", "T.tensor({1, 2})",
       "T.tensor(x for x in [1])", "T.tensor([1 + 1j], dtype=T.float32)",
       "T.tensor([1 + 0j], dtype=T.int32)", "T.tensor([300], dtype=T.uint8)",
       "T.tensor([-256], dtype=T.uint8)", "T.tensor([-1.5], dtype=T.uint8)",
       "T.tensor([255.7], dtype=T.uint8)", "T.tensor([float('nan')], dtype=T.int32)",
       "T.tensor([float('inf')], dtype=T.int64)", "T.tensor([1e19], dtype=T.int64)",
       "T.tensor([2**31], dtype=T.int32)", "T.tensor([2**63])", "T.tensor([-2**63 - 1])",
       "T.tensor([2**64 - 1], dtype=T.uint8)", "T.tensor([1], requires_grad=True)",
       "T.tensor([T.tensor(300), 2], dtype=T.uint8)", "T.tensor([T.tensor([1, 2])])",
       "T.tensor([T.tensor([1., 2.])])", "T.tensor([T.tensor(1.5)], dtype=T.int64)",
       "T.tensor([np.array([1, 2]), [3, 4, 5]])", "T.tensor([1, 2], dtype='float32')")
def test_tensor_from_python_data(text):
    compare(expr(text))


NP_DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16,
             np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("np_dtype", NP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_tensor_from_numpy_every_dtype(np_dtype):
    data = np.arange(-3, 9).reshape(3, 4).astype(np_dtype)
    for fn in (lambda T: T.tensor(data), lambda T: T.tensor(data.T),
               lambda T: T.tensor(data[:, ::2]),
               lambda T: T.tensor(data[1]), lambda T: T.tensor(data[0, 0]),
               lambda T: T.tensor(np.asarray(data[0, 0])), lambda T: T.tensor(data[:0]),
               lambda T: T.tensor(data, dtype=T.float32), lambda T: T.tensor(data.T, dtype=T.int8),
               lambda T: T.tensor(data, dtype=T.complex128),
               lambda T: T.tensor(data, requires_grad=True), lambda T: T.tensor(data[::-1]),
               lambda T: T.as_tensor(data.T), lambda T: T.as_tensor(data.T, dtype=T.float64),
               lambda T: T.asarray(data[:, ::2]), lambda T: T.from_numpy(data.T),
               lambda T: T.from_numpy(data[::-1]), lambda T: T.as_tensor(data[::-1])):
        compare(fn)


@cases("T.tensor(np.array(['a']))",
       "T.tensor(np.array([1, 2], dtype=object))", "T.tensor(np.zeros(3, dtype='>f4'))",
       "T.from_numpy(np.zeros(3, dtype='>f4'))", "T.from_numpy(np.zeros(3, dtype=object))",
       "T.from_numpy([1, 2])", "T.from_numpy(np.array(3.0))", "T.tensor(np.zeros((0, 3)))",
       "T.tensor(np.zeros((2, 0)), dtype=T.int8)", "T.tensor(np.zeros((2, 0, 3)))",
       "T.tensor(np.array([1.5, np.nan]), dtype=T.int32)", "T.tensor(np.array([300]), "
       "dtype=T.uint8)", "T.tensor(np.array([1 + 1j]), dtype=T.float64)",
       "T.tensor(np.float32(5.0))", "T.tensor(np.int16(5))", "T.tensor(np.bool_(True))",
       "T.tensor(np.bool_(True), dtype=T.float32)",
       "T.tensor(np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1))",
       "T.tensor(np.ones((2, 3)).T, device='meta')")
def test_tensor_from_numpy_edge_cases(text):
    compare(expr(text))


def test_tensor_copies_and_as_tensor_shares():
    a = np.arange(6.0).reshape(2, 3)
    t = M.tensor(a)
    a[0, 0] = 100
    assert t[0, 0].item() == 0  # tensor() copies
    for share in (M.as_tensor(a), M.asarray(a), M.from_numpy(a), M.as_tensor(a.T),
                  M.asarray(a[:, ::2]), M.from_numpy(a[:, 1:])):
        share.fill_(-7)
        assert a.min() == -7
        a[...] = np.arange(6.0).reshape(2, 3)
    # a dtype change or copy=True copies; so does another device
    for copied in (M.as_tensor(a, dtype=M.float32), M.asarray(a, copy=True),
                   M.asarray(a, dtype=M.float32), M.tensor(a.T)):
        copied.fill_(-1)
        assert a.min() == 0
    assert M.as_tensor(a, device="meta").device.type == "meta"
    # tensors: as_tensor/asarray return the tensor itself when nothing changes
    x = M.ones(3)
    assert M.as_tensor(x) is x and M.asarray(x) is x and M.as_tensor(x, dtype=M.float32) is x
    assert M.asarray(x, copy=True) is not x
    assert M.as_tensor(x, dtype=M.float64).dtype is M.float64


@cases("T.as_tensor([1, 2])", "T.as_tensor([1, 2], dtype=T.float32)", "T.as_tensor(3.5)",
       "T.as_tensor(T.tensor([1, 2]), dtype=T.float32)", "T.as_tensor(T.tensor([1, 2]), "
       "device='meta')", "T.as_tensor(T.ones(2, 3).t(), dtype=T.float64)",
       "T.as_tensor(T.tensor([1, 2]), dtype=float)", "T.asarray([1, 2])", "T.asarray(3)",
       "T.asarray(3.0)", "T.asarray([1, 2.5])", "T.asarray(np.float32(2.5))",
       "T.asarray(3, dtype=T.float16)", "T.asarray(T.tensor([1, 2]), dtype=T.float32)",
       "T.asarray(T.tensor([1, 2]), copy=True)", "T.asarray(np.array([1.5]), requires_grad=True)",
       "T.asarray(T.ones(2), requires_grad=True)", "T.asarray(np.arange(6).reshape(2, 3).T, "
       "copy=True)", "T.asarray(np.arange(6).reshape(2, 3).T, dtype=T.float32)",
       "T.asarray([1, 2], copy=False)", "T.asarray(np.array([1, 2]), dtype=T.float32, copy=False)",
       "T.asarray(T.ones(2), dtype=T.int8, copy=False)", "T.asarray(np.arange(4)[::-1])",
       "T.asarray(T.ones(2, dtype=T.int8), requires_grad=True)")
def test_as_tensor_and_asarray(text):
    compare(expr(text))


@pytest.mark.parametrize("size,stride", [((0, 3), (-1, 1)), ((0,), (-5,)), ((2, 0), (-3, -2)),
                                         ((0, 3, 2), (-1, 100, -1)), ((3, 0, 2), (-7, -1, 5)),
                                         ((2, 3), (-1, 1)), ((3,), (-1,)), ((2, 2), (2 ** 62, 1)),
                                         ((0, 2), (2 ** 62, 1)), ((4, 1), (3, -1)),
                                         ((1, 4), (-1, 1)), ((1, 1), (-5, -7)),
                                         ((1, 2), (-1, -1)), ((2, 1), (-1, 1))])
def test_empty_strided_negative_strides(size, stride):
    # PyTorch refuses a negative stride over more than one element (with a nonzero size)
    # and an overflowing storage size; other negative strides become contiguous ones
    for make in (lambda L: L.empty_strided(size, stride),
                 lambda L: L.ones(2, dtype=L.float64).new_empty_strided(size, stride)):
        try:
            expected = make(torch)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                make(mindtorch)
            continue
        result = make(mindtorch)
        assert (tuple(result.shape), result.stride(), str(result.dtype)) == (
            tuple(expected.shape), expected.stride(), str(expected.dtype))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("args", [(-1, 2, 4), (-1, 2, 7, 2), (0, 3, 4), (-1.5, 2.5, 5),
                                  (2, -1, 4), (-1, 2, 4, -2.0), (-1, 2, 4, 0.5), (0, 30, 4),
                                  (0, 20, 3, 10.0), (-1, 2, 1), (0, 2, 3, float("nan"))])
def test_logspace_integral(dtype, args):
    # PyTorch's integral kernel: ends converted to the dtype, a double step, float(base) **
    # exponent, C++'s conversion (out of range and NaN: the lowest value); bool refused
    def run(L):
        return L.logspace(*args, dtype=getattr(L, dtype))
    try:
        expected = run(torch)
    except (RuntimeError, NotImplementedError) as e:
        with pytest.raises(type(e)):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("make", [
    lambda L: L.empty(2 ** 50), lambda L: L.zeros(2 ** 47, dtype=L.float64),
    lambda L: L.ones(2 ** 20).expand(2 ** 30, 2 ** 20).contiguous(),
    lambda L: L.empty(2 ** 61, dtype=L.float64)])
def test_allocation_beyond_memory_raises_runtime_error(make):
    # PyTorch's allocator: RuntimeError (not numpy's MemoryError / ValueError)
    from reference import same_error
    same_error(lambda: make(mindtorch), lambda: make(torch))
    with pytest.raises(RuntimeError, match="bytes|Storage size calculation overflowed"):
        make(mindtorch)


@pytest.mark.parametrize("steps", [1000, 70001, 196608])
def test_linspace_float64_long_is_exact(steps):
    """start + step * i rounded once, as torch's fused multiply-add: bit for bit even where
    step * i needs more than a long double's 64 bits (regression)."""
    for start, end in ((0.2, 3.0), (-7.5, 1e3), (1.0, -2.0)):
        want = torch.linspace(start, end, steps, dtype=torch.float64).numpy()
        got = mindtorch.linspace(start, end, steps, dtype=mindtorch.float64).numpy()
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("array", [np.array([1, "a"], dtype=object), np.array(["a"]),
                                   np.array([b"a"]), np.zeros(1, dtype=[("a", "i4")]),
                                   np.array(["2020-01-01"], dtype="datetime64[D]")],
                         ids=lambda a: str(a.dtype))
def test_from_numpy_unsupported_dtype_message(array):
    """PyTorch names the array's scalar type (numpy.object_, numpy.str_, ...)."""
    for make in (lambda L: L.from_numpy(array), lambda L: L.as_tensor(array)):
        with pytest.raises(TypeError) as theirs:
            make(torch)
        with pytest.raises(TypeError) as ours:
            make(mindtorch)
        assert str(ours.value) == str(theirs.value)
