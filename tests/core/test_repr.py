"""Tensor repr compared character for character with PyTorch's: integer/bool/float/complex
formatting, fixed vs scientific notation, line wrapping, summarization, nesting, dtype,
device, size and requires_grad suffixes, empty and 0-dim tensors, print options."""
import numpy as np
import pytest

import mindtorch
from mindtorch import _tensor_str
from reference import torch

RNG = np.random.default_rng(0)


def pair(data, dtype=None):
    """Python data gives default-dtype tensors, numpy arrays keep their dtype."""
    m, t = mindtorch.tensor(data), torch.tensor(data)
    if dtype is not None:
        m, t = m.to(getattr(mindtorch, dtype)), t.to(getattr(torch, dtype))
    return m, t


def assert_repr(m, t):
    assert repr(m) == repr(t), f"\nmindtorch:\n{m!r}\ntorch:\n{t!r}"
    assert str(m) == str(t)


VALUES = {
    "ints as floats": [1.0, 2.0, 3.0],
    "fixed": [1.5, -2.25, 3.0],
    "tiny": [1e-5, 1.0],
    "huge": [1e9, 1.0],
    "big ratio ints": [1.0, 5000.0],
    "1e8 int": [1e8, 3.0],
    "above 1e8": [123456789.0],
    "nonfinite": [float("nan"), float("inf"), -float("inf"), 0.0],
    "nonfinite fixed": [float("nan"), 1.5, -float("inf")],
    "zeros": [0.0, -0.0],
    "neg": [-1.0, -0.5, -100.25],
    "mixed magnitudes": [1e-8, 0.5, 3.0],
    "rounding": [0.99996, 1.00004, 2.5e-4],
    "negative sci": [-1.5e-7, 2.0],
}


@pytest.mark.parametrize("name", VALUES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_float_notation(name, dtype):
    assert_repr(*pair(VALUES[name], dtype))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("shape", [(), (1,), (5,), (3, 4), (2, 3, 4)])
def test_integer_dtypes(dtype, shape):
    data = RNG.integers(-120, 120, shape) if dtype != "uint8" else RNG.integers(0, 250, shape)
    if dtype == "bool":
        data = RNG.random(shape) > 0.5
    assert_repr(*pair(data, dtype))


def test_wide_integers():
    assert_repr(*pair([1, -(2 ** 62), 7]))
    assert_repr(*pair(np.arange(40) * 10 ** 9))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("data", [
    [1 + 2j, -3.5 - 0.25j], [1j, 2j], [1e-9 + 1j, 2e5j], [complex("nan+infj"), 1 - 0j],
    [[1 + 1j, 2 - 1j], [-1 - 1j, 0j]], 2 - 3j, [0j, -0j],
], ids=str)
def test_complex(dtype, data):
    assert_repr(*pair(data, dtype))


@pytest.mark.parametrize("shape", [(7,), (30,), (4, 25), (3, 4, 5), (2, 2, 2, 2), (1, 1, 1),
                                   (6, 1), (1, 40)])
@pytest.mark.parametrize("scale", [1.0, 1000.0, 1e-3, 1e6])
def test_random_floats(shape, scale):
    assert_repr(*pair(RNG.standard_normal(shape) * scale, "float32"))


@pytest.mark.parametrize("shape", [(1001,), (2000,), (40, 50), (2, 1000), (1000, 2),
                                   (11, 11, 11), (3, 400), (7, 7, 7, 7)])
def test_summarized(shape):
    data = RNG.standard_normal(shape)
    assert_repr(*pair(data, "float32"))
    assert_repr(*pair(np.arange(int(np.prod(shape))).reshape(shape)))


def test_summarized_threshold_exact():
    assert_repr(*pair(np.arange(1000.0)))   # not summarized: exactly the threshold
    assert_repr(*pair(np.arange(1001.0)))
    assert_repr(*pair(np.arange(1001.0) + 1j, "complex64"))


def test_line_wrapping():
    for n in (8, 9, 10, 11, 12, 13, 16, 17, 25, 100):
        assert_repr(*pair(np.arange(n) * 1.5))
        assert_repr(*pair(np.arange(n) * 12345))
    assert_repr(*pair(RNG.standard_normal((3, 20)) + 1j * RNG.standard_normal((3, 20)),
                      "complex128"))


def test_non_contiguous():
    m, t = pair(RNG.standard_normal((5, 6)))
    assert_repr(m.t(), t.t())
    assert_repr(m[::2, 1::3], t[::2, 1::3])
    big_m, big_t = pair(np.arange(3000.0).reshape(50, 60))
    assert_repr(big_m.t(), big_t.t())


def test_zero_dim():
    for v, dtype in [(3.5, None), (3.0, None), (7, None), (True, None), (1e-7, None),
                     (float("nan"), None), (2.5, "float64"), (4, "int32"), (1.25, "float16"),
                     (3, "bfloat16"), (1 + 1j, None)]:
        assert_repr(*pair(v, dtype))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0), (0, 0, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "complex64"])
def test_empty(shape, dtype):
    assert_repr(mindtorch.empty(shape, dtype=getattr(mindtorch, dtype)),
                torch.empty(shape, dtype=getattr(torch, dtype)))


@pytest.mark.parametrize("shape", [(), (0,), (2, 3), (1000, 1000)])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "float16"])
def test_meta(shape, dtype):
    assert_repr(mindtorch.empty(shape, dtype=getattr(mindtorch, dtype), device="meta"),
                torch.empty(shape, dtype=getattr(torch, dtype), device="meta"))


def test_requires_grad():
    assert_repr(mindtorch.ones(3, requires_grad=True), torch.ones(3, requires_grad=True))
    assert_repr(mindtorch.ones(2, 3, dtype=mindtorch.float64, requires_grad=True),
                torch.ones(2, 3, dtype=torch.float64, requires_grad=True))
    assert_repr(mindtorch.tensor(2.5, requires_grad=True), torch.tensor(2.5, requires_grad=True))
    assert_repr(mindtorch.empty(0, requires_grad=True), torch.empty(0, requires_grad=True))
    # suffixes move to a new line when the last line is full
    m, t = pair(np.arange(9) * 1234.5, "float64")
    assert_repr(m.requires_grad_(), t.requires_grad_())
    m, t = pair(np.arange(17) * 1000, "int16")
    assert_repr(m, t)


def test_default_dtype_changes_suffixes():
    old = mindtorch.get_default_dtype()
    mindtorch.set_default_dtype(mindtorch.float64)
    torch.set_default_dtype(torch.float64)
    try:
        for data, dtype in [([1.5], "float32"), ([1.5], "float64"), ([1j], "complex128"),
                            ([1j], "complex64")]:
            assert_repr(*pair(data, dtype))
        assert_repr(mindtorch.empty(0, dtype=mindtorch.float32),
                    torch.empty(0, dtype=torch.float32))
        assert_repr(mindtorch.empty(0), torch.empty(0))
    finally:
        mindtorch.set_default_dtype(old)
        torch.set_default_dtype(getattr(torch, old.name))


@pytest.fixture
def printoptions():
    yield
    _tensor_str.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("options", [
    dict(precision=2), dict(precision=8), dict(sci_mode=True), dict(sci_mode=False),
    dict(linewidth=40), dict(threshold=5), dict(threshold=5, edgeitems=1),
    dict(threshold=5, edgeitems=0), dict(profile="short"), dict(profile="full"),
    dict(profile="bogus", precision=2),  # (an unknown profile changes nothing)
], ids=str)
def test_printoptions(options, printoptions):
    _tensor_str.set_printoptions(**options)
    torch.set_printoptions(**options)
    for data in ([1.23456789, 2.0], [1e-9, 2.0], [1.0, 2.0], [0.0, 0.0], np.arange(20.0),
                 RNG.standard_normal((4, 6)), np.arange(12).reshape(3, 4), [1 + 2j, 3.25j],
                 np.arange(1500.0)):
        assert_repr(*pair(data))
    assert _tensor_str.get_printoptions() == {
        k: getattr(torch._tensor_str.PRINT_OPTS, k) for k in _tensor_str.get_printoptions()}


def test_printoptions_context():
    m, t = pair([1.23456])
    with _tensor_str.printoptions(precision=1):
        assert repr(m) == "tensor([1.2])"
    assert repr(m) == repr(t)
