"""QA round 10a (numerical edge cases): regressions, each compared with PyTorch (values,
dtypes, error class and message)."""
import pytest
from reference import same_outcome


def _result(t):
    return str(t.dtype), t.tolist()


_ADDC_CASES = [
    # (self, tensor1, tensor2 dtypes, value): the value converts to the common type
    ("int64", "int64", "int64", 0.5), ("int64", "int64", "int64", 1.7),
    ("int64", "int64", "int64", -1.7), ("uint8", "int64", "int64", -1.5),
    ("int64", "bool", "bool", 2.5), ("int64", "int64", "int64", True),
    ("int64", "int64", "float32", 1.7), ("float32", "int64", "int64", 1.7),
    ("int8", "int8", "int8", 300), ("int64", "int64", "int64", float("nan")),
    ("int64", "int64", "int64", 1e30), ("int64", "int64", "int64", 1j),
    ("float32", "float32", "float32", 1e300), ("float32", "float32", "float32", 1j),
    ("float32", "float32", "float32", 2 + 0j), ("float16", "float16", "float16", 1e10),
    ("complex64", "complex64", "float32", 1j), ("bool", "bool", "bool", 2),
    ("bool", "int64", "int64", 2), ("float64", "float32", "float32", 1.7),
    ("float64", "float32", "int64", 1.7),
]


@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("dtypes", _ADDC_CASES, ids=str)
def test_addc_value_converts_to_common_type(op, dtypes):
    *names, value = dtypes

    def program(lib):
        self, t1, t2 = (lib.tensor([1.0, 2.0, 3.0]).div(3 if i else 1).to(getattr(lib, n))
                        if n != "bool" else lib.tensor([True, False, True])
                        for i, n in enumerate(names))
        return _result(getattr(lib, op)(self, t1, t2 + 1 if op == "addcdiv" else t2,
                                        value=value))
    same_outcome(program)


@pytest.mark.parametrize("op", ["addcmul_", "addcdiv_"])
@pytest.mark.parametrize("dtypes", [("int64", "int64", 2.9), ("int64", "float32", 2.9),
                                    ("float32", "float64", 1.7), ("float16", "float32", 2.5)],
                         ids=str)
def test_addc_inplace_value(op, dtypes):
    names = dtypes[:2]

    def program(lib):
        x = lib.tensor([1, 2, 3]).to(getattr(lib, names[0]))
        t = lib.tensor([1.0, 2.0, 3.0]).div(3).to(getattr(lib, names[1]))
        return _result(getattr(x, op)(t, t + 1, value=dtypes[2]))
    same_outcome(program)


def test_addcmul_out_float_int_computation():
    def program(lib):
        x = lib.tensor([1, 2, 3])
        return _result(lib.addcmul(x, x, x, value=1.5, out=lib.empty(3)))
    same_outcome(program)


@pytest.mark.parametrize("fn", ["i0", "special.i1", "special.modified_bessel_i0",
                                "special.modified_bessel_i1", "special.i0"])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16", "float64"])
def test_bessel_i_overflow_in_float32(fn, dtype):
    # PyTorch computes exp(|x|) * series: infinite from |x| > 88.72 on in float32
    import math
    import operator
    import mindtorch
    import torch
    values = [-100.0, -89.0, -88.73, -88.72, 0.0, 50.0, 88.0, 88.72, 88.72283172607421875,
              88.7228393554, 89.0, 100.0, 1e30, math.inf, -math.inf, math.nan]

    def program(lib):
        return operator.attrgetter(fn)(lib)(lib.tensor(values, dtype=getattr(lib, dtype)))
    if isinstance(same_outcome(lambda lib: str(program(lib).dtype)), tuple):
        return  # the same error (no 16-bit kernel)
    ours, theirs = program(mindtorch), program(torch)
    assert [math.isinf(v) for v in ours.tolist()] == [math.isinf(v) for v in theirs.tolist()]
    torch.testing.assert_close(torch.tensor(ours.float().tolist()),
                               torch.tensor(theirs.float().tolist()), rtol=1e-6, atol=0,
                               equal_nan=True)
