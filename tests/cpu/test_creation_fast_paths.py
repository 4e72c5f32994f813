"""tensor() from nests of Python numbers and numpy scalars (the fast path of _creation:
one numpy conversion, no per-leaf Python code) against torch: inferred dtype, values,
dtype= casts, overflow and ragged errors, and the cases the fast path hands back to the
general one (mixtures, empty dims, tensors as leaves)."""
import itertools
import math
import re
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import mindtorch
from creation_helpers import compare
from reference import torch

from mindtorch import _from_sequence, _warn_once

BIG = [2 ** 31, 2 ** 63 - 1, -2 ** 63, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 2 ** 70]
LEAVES = [0, 1, -7, 300, True, False, 0.5, -2.25, 1e300, math.inf, -math.inf, math.nan,
          1e-45, 3.4e38, 70000.0] + BIG
DTYPES = [None, "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]


def _tensor(T, data, dtype):
    return T.tensor(data, dtype=None if dtype is None else getattr(T, dtype))


def _same(data, dtype, message=True):
    """tensor(data, dtype=dtype) agrees with torch (error class too, and its message for
    the errors the fast path raises itself)."""
    got = compare(lambda T: _tensor(T, data, dtype))
    if got is None and message:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as want:
                _tensor(torch, data, dtype)
            with pytest.raises(Exception) as err:
                _tensor(mindtorch, data, dtype)
        assert str(err.value) == str(want.value)


@pytest.mark.parametrize("dtype", DTYPES)
def test_single_leaves_every_dtype(dtype):
    for x in LEAVES:
        _same([x], dtype)
        _same([x, x], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pairs_of_leaves_infer_and_cast_like_torch(dtype):
    kinds = [True, 3, 2.5, 2 ** 63, -1]
    for a, b in itertools.product(kinds, repeat=2):
        _same([a, b], dtype)
        _same([[a], [b]], dtype)
        _same(((a, b), [b, a]), dtype)


def test_the_first_bad_leaf_is_reported():
    for data in ([1, 2 ** 64, 1.5], [1.5, 2 ** 70, math.nan], [1, 300, -1], [2 ** 63, 2.5]):
        for dtype in DTYPES:
            _same(data, dtype)


@pytest.mark.parametrize("default", ["float32", "float64", "float16", "bfloat16"])
def test_default_dtype_decides_float_leaves(default):
    old = torch.get_default_dtype()
    try:
        torch.set_default_dtype(getattr(torch, default))
        mindtorch.set_default_dtype(getattr(mindtorch, default))
        for data in ([1.5, 2], [[True, 0.25]], [1, 2], [True]):
            _same(data, None)
    finally:
        torch.set_default_dtype(old)
        mindtorch.set_default_dtype(getattr(mindtorch, str(old).split(".")[1]))


@pytest.mark.parametrize("data", [
    [[1, 2], [3]], [[1, 2], 3], [1, [2, 3]], [[1.0], [2.0, 3.0]], [[[1], [2]], [[3], [4, 5]]],
    [[], []], [[], [1]], [[1], []], [], [[[]]], [[1, 2], (3, 4)], ([1.5], (2.5,)),
    [1, "a"], ["ab"], [1, None], [[1, 2], [3, None]], [1, 2j], [1j, True],
    [np.float32(1), 2.0], [np.int64(3), 2], [np.float64(2), True],
], ids=repr)
def test_nests_the_general_path_decides(data):
    for dtype in (None, "int64", "float32", "bool"):
        _same(data, dtype, message=False)


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 64])  # (NumPy has at most 64 dims)
def test_deep_nests(depth):
    data = 1.5
    for _ in range(depth):
        data = [data]
    _same(data, None, message=False)
    data = 2
    for i in range(min(depth, 6)):
        data = [data] * (i + 1)
    _same(data, None)


NUMPY_SCALARS = ["bool_", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                 "float64", "complex64", "complex128"]


@pytest.mark.parametrize("np_type", NUMPY_SCALARS)
def test_numpy_scalars(np_type):
    t = getattr(np, np_type)
    values = [t(v) for v in ([1, 0, 1] if np_type == "bool_" else [1, 0, 5])]
    for dtype in DTYPES:
        _same(values, dtype, message=False)
        _same([values, values[::-1]], dtype, message=False)
    if np_type.startswith("float"):
        _same([t(1.5), t(math.inf)], "int64")


def test_zero_dim_tensors_and_arrays_as_leaves():
    compare(lambda T: T.tensor([T.tensor(1.5), T.tensor(2.0)]))
    compare(lambda T: T.tensor([T.tensor(1), T.tensor(2.0)]))
    compare(lambda T: T.tensor([[T.tensor(1)], [T.tensor(2)]], dtype=T.float64))
    compare(lambda T: T.tensor([T.tensor(1.5)], dtype=T.int64))
    compare(lambda T: T.tensor([np.array(1.5), np.array(2.5)]))


def test_the_fast_path_is_taken():
    """The common nests never reach the per-leaf general path."""
    calls = []
    store = _from_sequence._store
    try:
        _from_sequence._store = lambda *a: calls.append(a) or store(*a)
        mindtorch.tensor([[1.0, 2.0], [3.0, 4.0]])
        mindtorch.tensor([True, 2, 3.5])
        mindtorch.tensor(list(np.arange(4, dtype=np.float32)))
        assert not calls
        mindtorch.tensor([np.float32(1), 2.0])
        assert calls
    finally:
        _from_sequence._store = store


def test_results_are_fresh_and_contiguous():
    data = [[1, 2, 3], [4, 5, 6]]
    a, b = mindtorch.tensor(data), mindtorch.tensor(data)
    a.add_(1)
    assert b.tolist() == data and a.is_contiguous() and a._base is None


class _Index:
    def __index__(self):
        return 3

    def __repr__(self):  # (the test id: the same in every process, as pytest-xdist needs)
        return "_Index()"


@pytest.mark.parametrize("leaf", [None, "ab", "a", {}, _Index(), Fraction(1, 2),
                                  Decimal("1.5"), re.compile("a")], ids=repr)
def test_leaves_of_no_number_type(leaf):
    """PyTorch infers nothing when given a dtype: the leaf is read for that dtype."""
    for dtype in DTYPES:
        _same([1, leaf], dtype)
        _same([leaf], dtype)


@pytest.mark.parametrize("leaf", ["np.float32(0.5)", "np.float16(1.5)", "np.float64(0.5)",
                                  "np.complex64(1+1j)", "np.complex128(1+1j)", "np.bool_(True)",
                                  "np.int64(2)", "T.tensor(1.5)", "T.tensor(1+1j)",
                                  "T.tensor(1+0j)", "T.tensor(True)", "T.tensor(2)"])
def test_numpy_and_tensor_leaves_read_for_the_dtype(leaf):
    for dtype in DTYPES:
        compare(lambda T, d=dtype: _tensor(T, [eval(leaf, {"T": T, "np": np})], d))


@pytest.mark.parametrize("make", ["np.arange(12.0).reshape(3, 4)", "np.arange(10)[::5][:1]",
                                  "np.arange(6, dtype=np.float32)[None, :, None]",
                                  "np.arange(24).reshape(2, 3, 4)[:, ::2]", "np.array(2.5)",
                                  "np.zeros((0, 3))", "np.arange(6).reshape(2, 3).T"])
def test_numpy_arrays_shared_and_copied(make):
    """from_numpy / as_tensor share the array's memory (contiguous arrays are the storage
    themselves), tensor() copies; strides as torch's."""
    for fn in ("from_numpy", "as_tensor", "tensor"):
        compare(lambda T, f=fn: getattr(T, f)(eval(make, {"np": np})))
        a = eval(make, {"np": np})
        t = getattr(mindtorch, fn)(a)
        if a.size:
            last = (-1,) * a.ndim
            a[last] = -1
            assert (t[last].item() == -1) == (fn != "tensor")
            t[(0,) * a.ndim] = 7
            assert (a[(0,) * a.ndim] == 7) == (fn != "tensor")


@pytest.mark.parametrize("text", [
    "[T.tensor(1.5), T.tensor(2.0), T.tensor(-3.0)]",
    "[T.tensor(1), T.tensor(2)]",
    "[[T.tensor(True)], [T.tensor(False)]]",
    "[[T.tensor(1.5, dtype=T.float16)] * 3] * 2",
    "(T.tensor(1.5, dtype=T.float64), T.tensor(2.5, dtype=T.float64))",
    "[T.tensor(1), T.tensor(2.5)]",                          # mixed dtypes: general path
    "[T.tensor(1.5), 2.5]",
    "[T.tensor([1.5]), T.tensor([2.5])]",                    # 1-element, not 0-dim
    "[T.tensor([1.5, 2.0]), T.tensor([2.5, 1.0])]",          # several elements: refused
    "[T.tensor(1.5, requires_grad=True), T.tensor(2.0)]",
    "[T.tensor(1.5, device='meta')]",
    "[T.tensor(1.5), T.tensor(2.5)[None][0]]",               # a view as a leaf
])
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int64", "bool"])
def test_tensors_as_leaves(text, dtype):
    compare(lambda T: _tensor(T, eval(text, {"T": T}), dtype))


def test_tensor_leaves_give_a_fresh_tensor_of_its_own():
    leaves = [mindtorch.tensor(float(i)) for i in range(6)]
    for data in (leaves, [leaves[:3], leaves[3:]]):
        t = mindtorch.tensor(data, requires_grad=True)
        assert t._base is None and t.is_contiguous() and t.grad_fn is None
        assert t._version == 0
        with mindtorch.no_grad():
            t.view(-1)[0] = 9
        assert leaves[0].item() == 0
    assert mindtorch.tensor(leaves, device="meta").device.type == "meta"


@pytest.mark.parametrize("text", [
    "[np.arange(3.0), np.arange(3.0) * 2]",
    "[np.ones((2, 3), np.float32)] * 4",
    "[[np.arange(2)], [np.arange(2) + 5]]",
    "(np.array([True, False]), np.array([False, False]))",
    "[np.arange(3.0), np.arange(3)]",                        # mixed dtypes: general path
    "[np.arange(3.0), np.arange(2.0)]",                      # ragged
    "[np.array(1.5), np.array(2.5)]",                        # 0-dim: len() fails in torch
    "[np.arange(3.0).astype('>f8'), np.arange(3.0).astype('>f8')]",
    "[np.arange(6.0)[::2], np.arange(3.0)]",
    "[np.ones(2, np.float32)]", "[np.array([True])]", "[np.array([300])]",
    "[np.array([1 + 2j], np.complex64)]", "[np.array([1 + 2j])]", "[np.zeros(0, np.float32)]",
])
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int64", "uint8", "bool"])
def test_numpy_arrays_as_leaves(text, dtype):
    compare(lambda T: _tensor(T, eval(text, {"np": np}), dtype))


def test_list_of_arrays_warns_once_as_torch():
    _warn_once._seen.discard("list of arrays")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mindtorch.tensor([np.arange(3.0)])
        mindtorch.tensor([np.arange(3.0)])
        mindtorch.tensor([[np.arange(3.0)]])  # the first item is a list: no warning
    assert [str(w.message)[:52] for w in caught] == \
        ["Creating a tensor from a list of numpy.ndarrays is e"]
    assert caught[0].filename == __file__


@pytest.mark.parametrize("text", ["range(5)", "range(0)", "[range(3), range(3)]",
                                  "[range(3), [1.5, 2, 3]]", "(range(2), range(3))",
                                  "range(2 ** 63 - 2, 2 ** 63)", "range(2 ** 63, 2 ** 63 + 1)"])
@pytest.mark.parametrize("dtype", [None, "float32", "uint8", "bool"])
def test_ranges(text, dtype):
    _same(eval(text), dtype, message=False)
