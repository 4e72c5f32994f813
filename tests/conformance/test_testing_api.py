"""mindtorch.testing.assert_close and make_tensor against torch.testing's on the same inputs:
the same pass/fail decision, exception class and message."""
import math
import re

import numpy as np
import pytest

import mindtorch
from mindtorch.testing import assert_close, make_tensor
from reference import DTYPES, torch


class T:
    """A tensor spec built in either library: values, dtype name, optional transform."""

    def __init__(self, values, dtype="float32", transposed=False, device="cpu"):
        self.values, self.dtype, self.transposed, self.device = values, dtype, transposed, device

    def build(self, mod):
        t = mod.tensor(np.array(self.values)).to(getattr(mod, self.dtype))
        t = t.t() if self.transposed else t
        return t.to(self.device) if mod is mindtorch else t.to("meta" if self.device == "meta"
                                                               else "cpu")


def _build(mod, x):
    if isinstance(x, T):
        return x.build(mod)
    if isinstance(x, list):
        return [_build(mod, v) for v in x]
    if isinstance(x, tuple):
        return tuple(_build(mod, v) for v in x)
    if isinstance(x, dict):
        return {k: _build(mod, v) for k, v in x.items()}
    return x


def _outcome(fn, actual, expected, kwargs):
    try:
        fn(actual, expected, **kwargs)
    except Exception as e:
        return type(e).__name__, str(e).replace("mindtorch.Tensor", "torch.Tensor")
    return "ok", ""


NAN, INF = math.nan, math.inf
CASES = [
    (T([1., 2., 3., 4.]), T([1., 2., 3., 4.1]), {}),
    (T([1., 2., 3., 4.]), T([1., 2., 3., 4. + 1e-6]), {}),
    (T([1., 2., 3., 4.], "float16"), T([1., 2.001, 3., 4.1], "float16"), {}),
    (T([1., 2., 3., 4.], "float16"), T([1., 2.001, 3., 4.], "float16"), {}),
    (T([1., 256., 3., 4.], "bfloat16"), T([1.02, 255., 3., 4.1], "bfloat16"), {}),
    (T([1., 2.], "float64"), T([1., 2. + 1e-9], "float64"), {}),
    (T([1., 2.], "float64"), T([1., 2. + 1e-6], "float64"), {}),
    (T([1, 2, 3, 4], "int32"), T([1, 2, 7, 4], "int32"), {}),
    (T([[1, 2], [3, 4]], "int64"), T([[1, 2], [0, 4]], "int64"), {}),
    (T([[1, 2], [3, 4]], "uint8"), T([[9, 2], [0, 4]], "uint8"), {}),
    (T([True, False], "bool"), T([True, True], "bool"), {}),
    (T([1.5]), T([1.5], "float64"), {}),
    (T([1.5]), T([1.6], "float64"), {"check_dtype": False}),
    (T([1, 2], "int32"), T([1, 2], "int64"), {}),
    (T([1, 2], "int32"), T([1., 2.]), {"check_dtype": False}),
    (T(2.5, "float64"), T(2.6, "float64"), {}),
    (T(2, "int64"), T(3, "int64"), {}),
    (T(2.5, "bfloat16"), T(2.75, "bfloat16"), {}),
    (T([NAN], "float64"), T([NAN], "float64"), {}),
    (T([NAN], "float64"), T([NAN], "float64"), {"equal_nan": True}),
    (T([NAN, 1.], "float64"), T([1., 1.], "float64"), {}),
    (T([INF, -INF]), T([INF, -INF]), {}),
    (T([INF, 1.]), T([-INF, 1.]), {}),
    (T([1e30, 0.]), T([2e30, 0.]), {}),
    (T([0., 1.]), T([1e-3, 1.]), {}),
    (T([1 + 2j, 3j], "complex64"), T([1 + 2.1j, 3j], "complex64"), {}),
    (T([1 + 2j, 3j], "complex128"), T([1 + 2j, 3j], "complex128"), {}),
    (T([1., 2.]), T([1., 2.5]), {"rtol": 0.0, "atol": 0.0}),
    (T([1., 2.]), T([1., 2.5]), {"rtol": 0.3, "atol": 0.0}),
    (T([1., 2.]), T([1., 2.5]), {"rtol": 1e-3}),
    (T([1., 2.]), T([1., 2.5]), {"atol": 1e-3}),
    (T([1, 5], "int64"), T([1, 2], "int64"), {"rtol": 0.1, "atol": 1}),
    (T([1., 2.]), T([1., 2., 3.]), {}),
    (T([[1., 2.], [3., 4.]], transposed=True), T([[1., 3.], [2., 4.]]), {}),
    (T([[1., 2.], [3., 4.]], transposed=True), T([[1., 3.], [2., 4.]]), {"check_stride": True}),
    (T([1., 2.]), T([1., 2.5]), {"msg": "custom message"}),
    (T([1., 2.]), T([1., 2.5]), {"msg": lambda m: "prefix: " + m}),
    ([T([1., 2.]), T([3.])], [T([1., 2.]), T([3.5])], {}),
    ((T([1., 2.]), 1.0), [T([1., 2.]), 1.0], {}),
    ([T([1.]), T([2.])], [T([1.])], {}),
    ({"a": T([1.]), "b": 2}, {"b": 2, "a": T([1.5])}, {}),
    ({"a": 1.0}, {"b": 1.0}, {}),
    (T([1.]), 1.0, {}),
    (1.0, 1, {}),
    (1.0, 1, {"check_dtype": False}),
    (1.0, 1.00001, {}),
    (1.0, 1.0 + 1e-8, {}),
    (1 + 1j, 1 + 1.1j, {}),
    (NAN, NAN, {}),
    (NAN, NAN, {"equal_nan": True}),
    (True, False, {}),
    (None, None, {}),
    (None, 0, {}),
    ([1, 2], [1, 3], {}),
    ("a", "a", {}),
    (np.array([1., 2.]), np.array([1., 2.5]), {}),
    (np.float32(1.0), np.float32(1.5), {}),
    (T([1., 2.], device="meta"), T([5., 6.], device="meta"), {}),
    (T([1., 2.], device="meta"), T([5., 6.], "float64", device="meta"), {}),
    (T([1., 2.], device="meta"), T([5., 6., 7.], device="meta"), {}),
]


@pytest.mark.parametrize("actual, expected, kwargs", CASES,
                         ids=[str(i) for i in range(len(CASES))])
def test_assert_close_agrees_with_torch(actual, expected, kwargs):
    mine = _outcome(assert_close, _build(mindtorch, actual), _build(mindtorch, expected), kwargs)
    theirs = _outcome(torch.testing.assert_close, _build(torch, actual), _build(torch, expected),
                      kwargs)
    assert mine == theirs


ALLCLOSE_CASES = [
    (T([1.0]), T([1.0], "float64"), {}), (T([1.0]), T([0.0]), {}),
    (T([1.0, 2.0]), [1, 2.5], {}), (T([1.0, 1.00005]), T([1.0, 1.0]), {}),
    (T([1.0, NAN]), T([1.0, NAN]), {}), (T([1.0, NAN]), T([1.0, NAN]), {"equal_nan": False}),
    (T([1, 2], "int64"), T([1, 3], "int64"), {}), (T([1.0]), T([1.5]), {"rtol": 0.5, "atol": 0}),
    (T([1.0]), T([1.5]), {"msg": "boom"}), (1.0, 1.00001, {}), ([1.0, 2.0], [1.0, 2.0], {}),
    (T([1.0, 1.0], "float16"), T([1.0005, 1.0005]), {}),
    (T([1.0], "complex64"), T([1.00001], "complex64"), {}),
    (T([[1.0, 2.0], [3.0, 4.0]], transposed=True), T([[1.0, 3.0], [2.0, 4.0]]), {}),
    (T([1.0, 2.0]), T([1.0, 2.0, 3.0]), {}), (T([1.0]), T([1.5]), {"rtol": 0.1}),
]


@pytest.mark.parametrize("actual, expected, kwargs", ALLCLOSE_CASES,
                         ids=[str(i) for i in range(len(ALLCLOSE_CASES))])
def test_deprecated_assert_allclose_agrees_with_torch(actual, expected, kwargs):
    # expected in actual's dtype, no dtype/stride check, NaNs equal, the old tolerances
    with pytest.warns(FutureWarning, match="assert_allclose\\(\\)` is deprecated since 1.12"):
        mine = _outcome(mindtorch.testing.assert_allclose, _build(mindtorch, actual),
                        _build(mindtorch, expected), kwargs)
    with pytest.warns(FutureWarning):
        theirs = _outcome(torch.testing.assert_allclose, _build(torch, actual),
                          _build(torch, expected), kwargs)
    assert mine == theirs


def _perturbed(rng, dtype, shape):
    """Random values, and a copy with a few elements nudged by amounts around the dtype's
    tolerance (some within, some beyond), nan/inf sprinkled in."""
    a = rng.standard_normal(shape) * rng.choice([1, 100, 1e-3])
    if dtype in ("bool",):
        a = a > 0
    elif "int" in dtype:
        a = np.round(a * 10)
    e = np.array(a, dtype=np.float64 if a.dtype != bool else bool)
    flat = e.reshape(-1)
    for i in rng.choice(flat.size, size=min(flat.size, rng.integers(0, 3)), replace=False):
        if e.dtype == bool:
            flat[i] = not flat[i]
        else:
            flat[i] = flat[i] * (1 + rng.choice([1e-8, 1e-6, 1e-4, 1e-2, 0.5])) + \
                rng.choice([0, 1e-6, 1e-3, 1, NAN, INF])
    return a, e


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d not in ("int8", "int16")])
def test_assert_close_random_agreement(dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    for _ in range(60):
        shape = tuple(rng.integers(0, 4, size=rng.integers(0, 3)))
        a, e = _perturbed(rng, dtype, shape)
        if dtype.startswith("complex"):
            a, e = a + 1j * np.flip(a), e + 1j * np.flip(a)
        kwargs = {"equal_nan": bool(rng.integers(2))}
        if rng.integers(3) == 0:
            kwargs.update(rtol=float(rng.choice([0, 1e-3, 0.1])),
                          atol=float(rng.choice([0, 1e-5, 1])))
        with np.errstate(all="ignore"):
            ma, me = (mindtorch.tensor(v).to(getattr(mindtorch, dtype)) for v in (a, e))
            ta, te = (torch.tensor(v).to(getattr(torch, dtype)) for v in (a, e))
        # numbers to 12 digits: complex magnitudes may differ in the last bit
        assert _rounded(_outcome(assert_close, ma, me, kwargs)) == \
            _rounded(_outcome(torch.testing.assert_close, ta, te, kwargs)), (a, e, kwargs)


def _rounded(outcome):
    return outcome[0], re.sub(r"\d\.\d+(e-?\d+)?", lambda m: f"{float(m.group()):.12g}",
                              outcome[1])


def test_bool_against_int_is_a_dtype_mismatch():
    # torch.testing fails here with an internal RuntimeError ("Originating a NumberPair()")
    with pytest.raises(AssertionError, match="The \\(d\\)types do not match"):
        assert_close(True, 1)
    assert_close(True, 1, check_dtype=False)


# -- make_tensor -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_make_tensor_ranges_and_layout(dtype):
    mindtorch.manual_seed(0)
    md = getattr(mindtorch, dtype)
    t = make_tensor(4, 5, dtype=md, device="cpu")
    assert t.shape == (4, 5) and t.dtype is md and t.is_contiguous()
    values = t.float() if dtype == "bfloat16" else t
    values = mindtorch.view_as_real(values) if md.is_complex else values
    lo, hi = {"bool": (0, 1), "uint8": (0, 9)}.get(dtype, (-9, 9))
    assert float(values.min()) >= lo and float(values.max()) <= hi
    n = make_tensor((3, 4), dtype=md, device="cpu", noncontiguous=True)
    assert n.shape == (3, 4) and not n.is_contiguous()
    assert make_tensor((1,), dtype=md, device="cpu", noncontiguous=True).is_contiguous()
    z = make_tensor(50, dtype=md, device="cpu", exclude_zero=True, low=0 if md is not
                    mindtorch.bool else None, high=2 if dtype != "bool" else None)
    assert bool((z != 0).all())
    m = make_tensor(2, 3, dtype=md, device="meta")
    assert m.device.type == "meta" and m.shape == (2, 3) and m.dtype is md


def test_make_tensor_bounds_and_grad():
    t = make_tensor(200, dtype=mindtorch.float32, device="cpu", low=-1, high=1,
                    requires_grad=True)
    assert t.requires_grad and t.is_leaf and float(t.min()) >= -1 and float(t.max()) < 1
    big = make_tensor(50, dtype=mindtorch.float16, device="cpu", low=-1e10, high=1e10)
    assert bool(big.isfinite().all())  # clamped to float16's finite range
    i = make_tensor(200, dtype=mindtorch.int8, device="cpu", low=-1000, high=1000)
    assert int(i.min()) >= -128 and int(i.max()) <= 127
    assert set(make_tensor(200, dtype=mindtorch.int64, device="cpu", low=0.5,
                           high=2.5).tolist()) <= {1, 2}  # bounds rounded up for integers


@pytest.mark.parametrize("kwargs", [
    {"dtype": "int64", "requires_grad": True},
    {"dtype": "bool", "requires_grad": True},
    {"dtype": "float32", "low": 2, "high": 1},
    {"dtype": "float32", "low": math.nan},
    {"dtype": "uint8", "low": -5, "high": -1},
    {"dtype": "float32", "noncontiguous": True, "memory_format": "contiguous_format"},
])
def test_make_tensor_errors_as_torch(kwargs):
    kwargs = dict(kwargs)
    dtype = kwargs.pop("dtype")
    if kwargs.get("memory_format"):
        kwargs_t = {**kwargs, "memory_format": torch.contiguous_format}
        kwargs["memory_format"] = mindtorch.contiguous_format
    else:
        kwargs_t = kwargs
    with pytest.raises(Exception) as theirs:
        torch.testing.make_tensor(3, dtype=getattr(torch, dtype), device="cpu", **kwargs_t)
    with pytest.raises(type(theirs.value)) as mine:
        make_tensor(3, dtype=getattr(mindtorch, dtype), device="cpu", **kwargs)
    first = str(theirs.value).split(",")[0].split("=")[0]
    assert str(mine.value).startswith(first)
