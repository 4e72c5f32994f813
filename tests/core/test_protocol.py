"""The Python protocol of tensors against torch: item, tolist, len, iter, bool/float/
int/index, __array__ and numpy() (sharing memory on cpu), from_numpy (sharing memory,
also for non-contiguous arrays), as_tensor, and torch.Size."""
import operator
import pickle
import warnings

import numpy as np
import pytest

import mindtorch
from reference import DTYPES, mt_dtype, same_error, th_dtype, torch

M = mindtorch



def _pair(data, dtype):
    return M.tensor(data, dtype=mt_dtype(dtype)), torch.tensor(data, dtype=th_dtype(dtype))


# -- scalars out of tensors --------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", [0, 1, 3, 2.5, -1.75])
def test_item_like_torch(dtype, value):
    if dtype in ("uint8", "bool") and value < 0:
        value = -value
    m, t = _pair(value, dtype) if dtype != "bool" else _pair(bool(value), dtype)
    got, want = m.item(), t.item()
    assert type(got) is type(want) and got == want
    assert m.reshape(1, 1).item() == want  # any one-element shape
    for conv in (float, int, bool, complex):
        if dtype.startswith("complex") and conv in (float, int):
            continue  # see test_real_conversion_of_complex
        assert conv(m) == conv(t)


@pytest.mark.parametrize("conv", [float, int])
def test_real_conversion_of_complex(conv):
    assert conv(M.tensor(2.5 + 0j)) == conv(torch.tensor(2.5 + 0j))


def test_item_and_conversion_errors_like_torch():
    m, t = M.ones(2, 3), torch.ones(2, 3)
    for fn in (lambda x: x.item(), lambda x: bool(x), lambda x: bool(x[:0]),
               lambda x: len(x[0, 0]), lambda x: iter(x[0, 0])):
        same_error(lambda: fn(m), lambda: fn(t))
    assert M.ones(2, device="meta").shape == (2,)
    same_error(lambda: M.ones(2, device="meta").item(), lambda: torch.ones(2, device="meta").item())


@pytest.mark.parametrize("conv", [float, int, complex])
def test_scalar_conversion_of_many_elements_error_class(conv):
    same_error(lambda: conv(M.ones(2)), lambda: conv(torch.ones(2)))


def test_int_truncates_and_float_converts():
    assert int(M.tensor(2.7)) == 2 and int(M.tensor(-2.7)) == -2
    assert float(M.tensor(3)) == 3.0 and type(float(M.tensor(3))) is float
    assert bool(M.tensor([0.0])) is False and bool(M.tensor([[2]])) is True
    assert f"{M.tensor(2.5):.2f}" == f"{torch.tensor(2.5):.2f}" == "2.50"


@pytest.mark.parametrize("data,dtype", [(2, "int64"), ([3], "int32"), (True, "bool"),
                                        (1, "uint8"), (2.0, "float32"), ([1, 2], "int64"),
                                        (1.0, "float64")])
def test_index_like_torch(data, dtype):
    m, t = _pair(data, dtype)
    same_error(lambda: operator.index(m), lambda: operator.index(t))
    if m.numel() == 1 and dtype != "float32" and dtype != "float64":
        assert operator.index(m) == operator.index(t)
        assert [10, 20, 30, 40][m] == [10, 20, 30, 40][t]
        assert list(range(5))[m:] == list(range(5))[t:]


# -- tolist, len, iter -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 2)])
def test_tolist_like_torch(dtype, shape):
    rng = np.random.default_rng(0)
    data = rng.integers(0, 5, shape).astype(np.float64) / 2
    m = M.tensor(data).to(mt_dtype(dtype))
    t = torch.tensor(data).to(th_dtype(dtype))
    got, want = m.tolist(), t.tolist()
    assert got == want
    if shape == ():
        assert type(got) is type(want)


def test_len_and_iter_like_torch():
    m, t = M.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    assert len(m) == len(t) == 2 and len(M.zeros(0, 3)) == 0
    rows = list(m)
    assert len(rows) == 2 and all(r.shape == (3,) for r in rows)
    assert [r.tolist() for r in rows] == [r.tolist() for r in t]
    assert rows[1]._base is m._base or rows[1]._base is m  # rows are views, as in torch
    assert list(M.zeros(0, 3)) == []
    assert [x.item() for x in M.tensor([1, 2, 3])] == [1, 2, 3]
    assert 2 in M.tensor([1, 2, 3]) and 5 not in M.tensor([1, 2, 3])


# -- numpy interop -------------------------------------------------------------------------

def test_numpy_shares_memory_on_cpu():
    t = M.zeros(2, 3)
    a = t.numpy()
    assert a.dtype == np.float32 and a.shape == (2, 3)
    a[0, 1] = 5.0
    assert t.tolist()[0][1] == 5.0
    t.fill_(2.0)
    assert (a == 2.0).all()
    assert np.shares_memory(a, t.numpy())


def test_numpy_of_views_is_strided_view():
    base = M.arange(12.0).reshape(3, 4)
    for view, tview in ((base.t(), torch.arange(12.0).reshape(3, 4).t()),
                        (base.narrow(1, 1, 2), torch.arange(12.0).reshape(3, 4).narrow(1, 1, 2)),
                        (base.select(1, 2), torch.arange(12.0).reshape(3, 4).select(1, 2))):
        a = view.numpy()
        np.testing.assert_array_equal(a, tview.numpy())
        assert a.strides == tview.numpy().strides
        assert np.shares_memory(a, base.numpy())


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bfloat16"])
def test_numpy_dtypes_like_torch(dtype):
    m, t = M.zeros(2, dtype=mt_dtype(dtype)), torch.zeros(2, dtype=th_dtype(dtype))
    assert m.numpy().dtype == t.numpy().dtype


def test_numpy_refusals_like_torch():
    same_error(lambda: M.ones(2, device="meta").numpy(),
               lambda: torch.ones(2, device="meta").numpy())
    r = M.ones(2).requires_grad_()
    same_error(lambda: r.numpy(), lambda: torch.ones(2).requires_grad_().numpy())
    np.testing.assert_array_equal(r.numpy(force=True), [1.0, 1.0])


def test_array_protocol():
    t = M.arange(4.0)
    a = np.asarray(t)
    assert a.dtype == np.float32 and np.shares_memory(a, t.numpy())
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    assert np.asarray(torch.arange(4.0), dtype=np.float64).dtype == np.float64
    np.testing.assert_array_equal(np.add(t, 1), [1.0, 2.0, 3.0, 4.0])
    assert np.array(M.tensor(3)).shape == ()
    # numpy()'s refusals, as PyTorch's __array__: requires grad, another device
    for lib in (M, torch):
        with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that "
                                               "requires grad"):
            np.sin(lib.ones(2, requires_grad=True))
    same_error(lambda: np.asarray(M.ones(2, device="meta")),
               lambda: np.asarray(torch.ones(2, device="meta")))


class _Reflecting:
    """An operand that tensors refuse and that answers every reflected operator."""


for _name in ("radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow", "rmatmul",
              "rand", "ror", "rxor", "rlshift", "rrshift"):
    setattr(_Reflecting, f"__{_name}__", lambda self, other, n=_name: n)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                                "matmul", "and_", "or_", "xor", "lshift", "rshift", "iadd",
                                "imul", "lt", "eq"])
def test_operators_defer_to_the_other_operand(op):
    # t <op> obj: NotImplemented from the tensor, so obj's reflected method answers
    def run(lib, other):
        t = lib.ones(2, dtype=lib.int64)
        try:
            return getattr(operator, op)(t, other)
        except TypeError as e:
            return str(e)
    assert run(M, _Reflecting()) == run(torch, _Reflecting())
    assert run(M, None) == run(torch, None) and run(M, "a") == run(torch, "a")


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "floordiv", "pow", "matmul",
                                "and_"])
def test_reflected_operators_refuse_like_python(op):
    def run(lib):
        try:
            getattr(operator, op)("a", lib.ones(2, dtype=lib.int64))
        except TypeError as e:
            return str(e)
    assert run(M) == run(torch) is not None


def test_numpy_ufuncs_and_ndarray_operands_give_tensors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # torch's __array_wrap__
        for fn in (np.sin, lambda t: np.greater(t, 1.5), lambda t: t + np.ones(2),
                   lambda t: np.float64(2) * t, lambda t: np.maximum(t, np.ones(2, np.int8)),
                   lambda t: t @ np.ones(2)):
            got, want = fn(M.tensor([1.0, 2.0])), fn(torch.tensor([1.0, 2.0]))
            assert isinstance(got, M.Tensor) and str(got.dtype) == str(want.dtype)
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: np.arange(12.0).reshape(3, 4),
    lambda: np.arange(12.0).reshape(3, 4).T,
    lambda: np.arange(12.0).reshape(3, 4)[:, ::2],
    lambda: np.arange(24, dtype=np.int32).reshape(2, 3, 4)[1:, :, 1::2],
    lambda: np.array(3.5),
    lambda: np.zeros((0, 3)),
    lambda: np.array([True, False]),
    lambda: np.arange(6, dtype=np.uint8),
    lambda: np.ones(3, dtype=np.complex64),
    lambda: np.broadcast_to(np.arange(3.0), (2, 3)),
])
def test_from_numpy_shares_memory(make):
    a = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about read-only arrays
        m, t = M.from_numpy(a), torch.from_numpy(a)
    assert tuple(m.shape) == tuple(t.shape) and str(m.dtype) == str(t.dtype)
    assert m.stride() == t.stride() and m.is_contiguous() == t.is_contiguous()
    np.testing.assert_array_equal(m.numpy(), a)
    assert m.numpy().strides == a.strides
    if a.size and a.flags.writeable:
        m.fill_(1)
        assert (a == 1).all()  # writes reach the array
        a[...] = 0
        assert not m.numpy().any()
        assert m.data_ptr() == a.__array_interface__["data"][0]


@pytest.mark.parametrize("bad", [
    lambda: np.arange(6)[::-1], lambda: np.zeros(2, dtype=np.float128) if hasattr(
        np, "float128") else np.zeros(2, dtype=np.str_), lambda: [1, 2], lambda: 3.5,
])
def test_from_numpy_errors_like_torch(bad):
    same_error(lambda: M.from_numpy(bad()), lambda: torch.from_numpy(bad()))


def test_as_tensor():
    a = np.arange(4.0)
    t = M.as_tensor(a)
    assert t.dtype is M.float64 and np.shares_memory(t.numpy(), a)  # same dtype: shared
    c = M.as_tensor(a, dtype=M.float32)
    assert c.dtype is M.float32 and not np.shares_memory(c.numpy(), a)  # cast: copied
    x = M.ones(3)
    assert M.as_tensor(x) is x and M.as_tensor(x, dtype=M.float32) is x
    assert M.as_tensor(x, dtype=M.float64).dtype is M.float64
    assert M.as_tensor([1, 2]).dtype is M.int64
    assert M.as_tensor([1.0], device="meta").device.type == "meta"
    assert M.as_tensor(a, device="meta").device.type == "meta"
    assert M.asarray(a).dtype is M.float64
    assert str(M.as_tensor([1, 2.5]).dtype) == str(torch.as_tensor([1, 2.5]).dtype)


def test_pickle_round_trip():
    t = M.arange(6.0).reshape(2, 3).t()
    r = pickle.loads(pickle.dumps(t))
    assert r.tolist() == t.tolist() and r.dtype is t.dtype and r.shape == t.shape


def test_deepcopy_copies_storages_like_torch():
    import copy

    def run(lib):
        base = lib.arange(6.0)
        base.note = [1]
        d = copy.deepcopy({"a": base, "b": base[2:4], "c": base.view(2, 3).t(), "p": base[1:3]})
        d["a"][2] = 100.0  # views copied together still share one storage
        return (d["b"].tolist(), d["c"].stride(), d["c"].storage_offset(),
                d["p"].storage_offset(), d["p"].untyped_storage().nbytes(), d["a"].note,
                d["a"].note is not base.note, copy.deepcopy(lib.ones(4, device="meta")[1:]).shape)
    assert run(M) == run(torch)


# -- torch.Size ----------------------------------------------------------------------------

def test_size_like_torch():
    m, t = M.ones(2, 3).shape, torch.ones(2, 3).shape
    assert repr(m) == repr(t) == "torch.Size([2, 3])"
    assert str(m) == str(t)
    assert repr(M.tensor(1.0).shape) == repr(torch.tensor(1.0).shape) == "torch.Size([])"
    assert isinstance(m, tuple) and isinstance(m, M.Size)
    assert m == (2, 3) and m[0] == 2 and m[-1] == 3
    assert repr(m[1:]) == repr(t[1:]) and isinstance(m[1:], M.Size)
    assert repr(m + (4,)) == repr(t + (4,))
    assert m.numel() == t.numel() == 6 and M.Size([]).numel() == 1
    assert m.count(3) == 1 and m.index(3) == 1
    assert M.ones(2, 3).size() == m and M.ones(2, 3).size(1) == 3 and M.ones(2, 3).size(-2) == 2
    assert pickle.loads(pickle.dumps(m)) == m
    assert M.zeros(m).shape == m  # a Size is a valid shape argument


def test_tuple_plus_size_is_size():
    assert repr((1,) + M.Size([2, 3])) == repr((1,) + torch.Size([2, 3]))


def test_size_repeats_and_converts_items_like_torch():
    for lib in (M, torch):
        s = lib.Size([2, 3])
        assert type(s * 2) is lib.Size and type(2 * s) is lib.Size and s * 2 == (2, 3, 2, 3)
        # items convert through __index__: bools, numpy ints, one-element integer tensors
        assert lib.Size([True, np.int64(3), lib.tensor(4), lib.tensor([5])]) == (1, 3, 4, 5)
    for bad in (lambda lib: [1.5], lambda lib: ["a"], lambda lib: [lib.tensor(3.0)],
                lambda lib: [lib.tensor([3, 4])]):
        with pytest.raises(TypeError) as e:
            M.Size(bad(M))
        with pytest.raises(TypeError) as f:
            torch.Size(bad(torch))
        assert str(e.value) == str(f.value)
    same_error(lambda: M.Size([1]) + [2], lambda: torch.Size([1]) + [2])


@pytest.mark.parametrize("kw", [{"dtype": "int32"}, {"dtype": "int16", "count": 3, "offset": 2},
                                {"dtype": "uint8", "offset": 11}, {"dtype": "bfloat16"},
                                {"dtype": "float32", "requires_grad": True},
                                {"dtype": "int64"}, {"dtype": "int32", "offset": 12},
                                {"dtype": "int32", "count": 4}, {"dtype": "int32", "count": 0}])
def test_frombuffer_like_torch(kw):
    def run(lib, buf):
        args = dict(kw, dtype=getattr(lib, kw["dtype"]))
        try:
            t = lib.frombuffer(buf, **args)
        except ValueError as e:
            return str(e)
        return t.tolist(), str(t.dtype), t.requires_grad
    data = bytes(range(1, 13))
    assert run(M, bytearray(data)) == run(torch, bytearray(data))
    buf = bytearray(data)
    t = M.frombuffer(buf, dtype=M.uint8)
    t[0] = 100
    buf[1] = 50
    assert buf[0] == 100 and t[1].item() == 50  # the buffer's memory, shared
    from mindtorch import _warn_once  # (PyTorch warns once per process)
    _warn_once._seen.discard("buffer_not_writable")
    with pytest.warns(UserWarning, match="not writable"):
        M.frombuffer(data, dtype=M.uint8)


def test_comparisons_with_numpy_arrays_as_torch():
    """t == ndarray compares elementwise (PyTorch's __eq__); its other operators leave the
    array to NumPy (t != ndarray falls back to identity; t + ndarray is NumPy's add)."""
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        r = [(x == np.array([1.0, 3.0])).tolist(), L.tensor([1, 2]) == np.array([1, 3]),
             (x.detach() == np.array(1.0)).tolist(), x.detach() != np.array([1.0, 3.0]),
             x == "a"]
        r[1] = r[1].tolist()
        return r
    assert run(M) == run(torch)
    same_error(lambda: M.ones(2) == np.ones(3), lambda: torch.ones(2) == np.ones(3))
