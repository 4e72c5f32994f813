"""dtypes: attributes like torch's, tensor() dtype inference, the default dtype."""
import pickle
import re

import numpy as np
import pytest

import mindtorch
from reference import DTYPES, mt_dtype, same_error, th_dtype, torch

M = mindtorch


@pytest.fixture
def default_dtype():
    """Restores the default dtype after a test changes it."""
    prev = M.get_default_dtype()
    yield
    M.set_default_dtype(prev)
    torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("name", DTYPES)
def test_attributes_like_torch(name):
    m, t = mt_dtype(name), th_dtype(name)
    assert m.itemsize == t.itemsize
    assert m.is_floating_point == t.is_floating_point
    assert m.is_complex == t.is_complex
    assert m.is_signed == t.is_signed
    assert repr(m) == repr(t) and str(m) == str(t)
    assert pickle.loads(pickle.dumps(m)) is m
    if m.kind in "fc" and name != "float16":  # torch gives complex32, which mindtorch lacks
        assert repr(m.to_complex()) == repr(t.to_complex())
    assert repr(m.to_real()) == repr(t.to_real())


def test_aliases_are_the_same_objects():
    for alias, name in {"half": "float16", "float": "float32", "double": "float64",
                        "short": "int16", "int": "int32", "long": "int64",
                        "cfloat": "complex64", "cdouble": "complex128"}.items():
        assert getattr(M, alias) is getattr(M, name)
        assert getattr(torch, alias) == getattr(torch, name)  # the reference agrees


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32", "float64", "complex64",
                                  "complex128"])
def test_finfo_like_torch(name):
    m, t = M.finfo(mt_dtype(name)), torch.finfo(th_dtype(name))
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal"):
        assert getattr(m, attr) == getattr(t, attr), attr
    assert m.dtype == t.dtype


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32"])
def test_finfo_resolution_like_torch(name):
    assert M.finfo(mt_dtype(name)).resolution == torch.finfo(th_dtype(name)).resolution


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_like_torch(name):
    m, t = M.iinfo(mt_dtype(name)), torch.iinfo(th_dtype(name))
    assert (m.bits, m.max, m.min, m.dtype) == (t.bits, t.max, t.min, t.dtype)


def test_info_errors_like_torch():
    for m_call, t_call in [(lambda: M.finfo(M.int32), lambda: torch.finfo(torch.int32)),
                           (lambda: M.iinfo(M.float32), lambda: torch.iinfo(torch.float32)),
                           (lambda: M.iinfo(M.bool), lambda: torch.iinfo(torch.bool))]:
        with pytest.raises(TypeError) as want:
            t_call()
        with pytest.raises(TypeError, match=re.escape(str(want.value))):
            m_call()
    assert M.finfo().dtype == "float32"


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32", "float64", "complex64",
                                  "uint8", "int8", "int16", "int32", "int64"])
def test_info_repr_like_torch(name):
    info = "finfo" if name[0] in "fbc" else "iinfo"
    m, t = getattr(M, info)(mt_dtype(name)), getattr(torch, info)(th_dtype(name))
    assert repr(m) == repr(t) and str(m) == str(t)


def test_dtype_predicates_on_tensors():
    for name in DTYPES:
        t = M.zeros(2, dtype=mt_dtype(name))
        assert t.is_floating_point() == M.is_floating_point(t) == mt_dtype(name).is_floating_point
        assert t.is_complex() == M.is_complex(t) == mt_dtype(name).is_complex
        assert t.is_signed() == th_dtype(name).is_signed
        assert t.element_size() == t.itemsize == mt_dtype(name).itemsize


# -- tensor() dtype inference ---------------------------------------------------------------

INFER = [
    [1, 2], [1.0], [True], [True, False], [1, 2.0], [True, 1], [True, 1.5], [1, 2j],
    [[1, 2], [3, 4.0]], [], [[]], 3, 2.5, True, 1j, (1, 2), range(3), -2 ** 63,
    np.float64(1.0), np.int32(1), np.bool_(True), np.float32(2.0),
    [np.int32(1), 2], np.array([1, 2], dtype=np.int16), np.array([[1.5]], dtype=np.float32),
    np.array(True), np.array([1 + 2j], dtype=np.complex128), [np.float32(1), True],
    [np.int8(1), 2.5], [np.array([1, 2], dtype=np.int8), [3, 4]],
    [np.float64(1.0), 2],
    [np.int8(1), np.int8(2)],
    [np.float16(1.0), 2],
    [np.array([1], dtype=np.int8), np.array([3], dtype=np.int8)],
]


@pytest.mark.parametrize("data", INFER)
def test_tensor_infers_dtype_like_torch(data):
    m, t = M.tensor(data), torch.tensor(data)
    assert str(m.dtype) == str(t.dtype)
    assert tuple(m.shape) == tuple(t.shape)
    if t.numel():
        np.testing.assert_array_equal(m.numpy(), t.numpy())


def test_tensor_from_tensors_infers_dtype():
    parts = [M.tensor(1), M.tensor(2.0)]
    t = M.tensor(parts)
    assert t.dtype is M.float32 and t.tolist() == [1.0, 2.0]
    assert M.tensor([M.tensor(1), 2.5]).dtype is M.float32
    assert M.tensor(M.tensor([1, 2], dtype=M.int16)).dtype is M.int16
    assert M.tensor([M.tensor(1, dtype=M.int8), 2]).dtype is M.int64


def test_tensor_from_int8_tensors_keeps_int8():
    assert M.tensor([M.tensor([1], dtype=M.int8), M.tensor([2], dtype=M.int8)]).dtype is M.int8


@pytest.mark.parametrize("data,dtype", [
    ([1, 2], float), ([1, 2], int),
    ([1, 2], bool), ([1.5, 2], "int32"), ([0, 2.5], "bool"),
    ([1, 2], "float16"), ([1.25, -3], "bfloat16"), ([1, 2], "complex64"),
])
def test_tensor_explicit_dtype(data, dtype):
    md = mt_dtype(dtype) if isinstance(dtype, str) else dtype
    td = th_dtype(dtype) if isinstance(dtype, str) else dtype
    m, t = M.tensor(data, dtype=md), torch.tensor(data, dtype=td)
    assert str(m.dtype) == str(t.dtype)
    np.testing.assert_array_equal(np.asarray(m.tolist()), np.asarray(t.tolist()))


@pytest.mark.parametrize("data", ["a", [[1, 2], [3]], None,
                                  [1, None],
                                  2 ** 63,
                                  [2 ** 64]])
def test_tensor_bad_data_error_class(data):
    same_error(lambda: M.tensor(data), lambda: torch.tensor(data))


def test_tensor_complex_into_real_dtype_error():
    same_error(lambda: M.tensor([1 + 1j], dtype=M.float32),
               lambda: torch.tensor([1 + 1j], dtype=torch.float32))


# -- default dtype ----------------------------------------------------------------------------

def test_default_dtype_is_float32():
    assert M.get_default_dtype() is M.float32


@pytest.mark.parametrize("name", ["float64", "float16", "bfloat16"])
def test_set_default_dtype_changes_inference(name, default_dtype):
    M.set_default_dtype(mt_dtype(name))
    torch.set_default_dtype(th_dtype(name))
    assert M.get_default_dtype() is mt_dtype(name)
    for data in ([1.0], 2.5, [1, 2.0], [1], [True]):
        assert str(M.tensor(data).dtype) == str(torch.tensor(data).dtype)
    assert str(M.zeros(2).dtype) == str(torch.zeros(2).dtype)
    assert str(M.arange(0, 1, 0.5).dtype) == str(torch.arange(0, 1, 0.5).dtype)
    if name == "float64":
        assert M.tensor([1j]).dtype is M.complex128


@pytest.mark.parametrize("bad", ["int32", "complex64", "bool"])
def test_set_default_dtype_rejects_non_float(bad, default_dtype):
    same_error(lambda: M.set_default_dtype(mt_dtype(bad)),
               lambda: torch.set_default_dtype(th_dtype(bad)))
    assert M.get_default_dtype() is M.float32


def test_set_default_dtype_rejects_python_type(default_dtype):
    same_error(lambda: M.set_default_dtype(float), lambda: torch.set_default_dtype(float))
