"""Type promotion against PyTorch: promote_types and can_cast for every dtype pair,
result_type across tensor / 0-dim tensor / Python scalar operands, in-place casting."""
import itertools

import numpy as np
import pytest

import mindtorch
from reference import DTYPES, mt_dtype, same_error, th_dtype, torch

M = mindtorch
PAIRS = list(itertools.product(DTYPES, DTYPES))


def test_promote_types_every_pair():
    wrong = [(a, b, str(M.promote_types(mt_dtype(a), mt_dtype(b))),
              str(torch.promote_types(th_dtype(a), th_dtype(b))))
             for a, b in PAIRS
             if str(M.promote_types(mt_dtype(a), mt_dtype(b)))
             != str(torch.promote_types(th_dtype(a), th_dtype(b)))]
    assert not wrong


def test_can_cast_every_pair():
    wrong = [(a, b) for a, b in PAIRS
             if M.can_cast(mt_dtype(a), mt_dtype(b)) != torch.can_cast(th_dtype(a), th_dtype(b))]
    assert not wrong


def _same(got, want):
    """mindtorch has no complex32: where torch gives ComplexHalf, complex64 is expected."""
    return str(got) == str(want).replace("complex32", "complex64")


def _operands(dtype, kind):
    """A mindtorch and a torch operand: 'tensor' (1-d), 'zero' (0-dim tensor)."""
    shape = (2,) if kind == "tensor" else ()
    return M.zeros(shape, dtype=mt_dtype(dtype)), torch.zeros(shape, dtype=th_dtype(dtype))


SCALARS = [True, 3, -2, 2.5, 1j]


@pytest.mark.parametrize("kind_a,kind_b", [("tensor", "tensor"), ("tensor", "zero"),
                                           ("zero", "zero"), ("zero", "tensor")])
def test_result_type_tensor_combinations(kind_a, kind_b):
    wrong = []
    for a, b in PAIRS:
        ma, ta = _operands(a, kind_a)
        mb, tb = _operands(b, kind_b)
        got, want = M.result_type(ma, mb), torch.result_type(ta, tb)
        if not _same(got, want):
            wrong.append((a, b, got, want))
    assert not wrong


@pytest.mark.parametrize("kind", ["tensor", "zero"])
def test_result_type_with_python_scalars(kind):
    wrong = []
    for dtype, scalar in itertools.product(DTYPES, SCALARS):
        m, t = _operands(dtype, kind)
        for margs, targs in (((m, scalar), (t, scalar)), ((scalar, m), (scalar, t))):
            got, want = M.result_type(*margs), torch.result_type(*targs)
            if not _same(got, want):
                wrong.append((dtype, scalar, got, want))
    assert not wrong


@pytest.mark.parametrize("a,b,expected", [
    (M.zeros(2, dtype=M.int32), 2.5, "float32"),
    (M.zeros(2, dtype=M.int64), M.zeros((), dtype=M.float16), "float16"),
    (M.zeros(2, dtype=M.uint8), M.zeros(2, dtype=M.int8), "int16"),
    (M.zeros(2, dtype=M.bool), 3, "int64"),
    (M.zeros(2, dtype=M.bool), True, "bool"),
    (M.zeros(2, dtype=M.uint8), 300, "uint8"),
    (M.zeros(2, dtype=M.float16), 1e10, "float16"),
    (M.zeros(2, dtype=M.float32), 1j, "complex64"),
    (M.zeros(2, dtype=M.float64), 1j, "complex128"),
    (M.zeros(2, dtype=M.int8), M.zeros((), dtype=M.int64), "int8"),
    (M.zeros(2, dtype=M.int8), M.zeros((), dtype=M.float64), "float64"),
    (M.zeros(2, dtype=M.int8), M.zeros((), dtype=M.complex128), "complex128"),
    (M.zeros((), dtype=M.int8), 2.5, "float32"),
    (M.zeros(2, dtype=M.bfloat16), M.zeros((), dtype=M.complex128), "complex64"),
])
def test_result_type_examples(a, b, expected):
    assert str(M.result_type(a, b)) == "torch." + expected
    ta = torch.zeros(tuple(a.shape), dtype=th_dtype(a.dtype.name))
    tb = torch.zeros(tuple(b.shape), dtype=th_dtype(b.dtype.name)) if isinstance(b, M.Tensor) \
        else b
    assert str(torch.result_type(ta, tb)) == "torch." + expected  # the reference agrees


def test_result_type_two_scalars():
    for a, b in itertools.product(SCALARS, SCALARS):
        assert str(M.result_type(a, b)) == str(torch.result_type(a, b)), (a, b)


@pytest.mark.parametrize("a,b", [("int32", "float16"), ("uint8", "int8"), ("bool", "int16"),
                                 ("int64", "bfloat16"), ("float16", "bfloat16"),
                                 ("float64", "complex64")])
def test_binary_op_results_follow_promotion(a, b):
    x = M.ones(3, dtype=mt_dtype(a))
    y = M.ones(3, dtype=mt_dtype(b))
    assert (x + y).dtype is M.promote_types(x.dtype, y.dtype)
    assert (x * 2.5).dtype is M.result_type(x, 2.5)
    assert (x == y).dtype is M.bool


# -- in-place and out= casting -------------------------------------------------------------

INPLACE_CASES = [
    ("int32", lambda t: t.add_(1.5)),
    ("int64", lambda t: t.mul_(2.5)),
    ("int64", lambda t: t.div_(2)),
    ("bool", lambda t: t.add_(1)),
    ("float32", lambda t: t.add_(1j)),
    ("uint8", lambda t: t.sub_(1.0)),
    ("int16", lambda t: t.add_(3)),               # allowed: int scalar into int16
    ("float16", lambda t: t.add_(2.5)),           # allowed
    ("float32", lambda t: t.add_(1)),             # allowed
]


@pytest.mark.parametrize("dtype,fn", INPLACE_CASES)
def test_inplace_cast_rules_like_torch(dtype, fn):
    m = M.ones(3, dtype=mt_dtype(dtype))
    t = torch.ones(3, dtype=th_dtype(dtype))
    same_error(lambda: fn(m), lambda: fn(t))


def test_inplace_that_cannot_cast_raises_and_leaves_input():
    t = M.tensor([1, 2, 3], dtype=M.int32)
    with pytest.raises(RuntimeError, match="can't be cast"):
        t.add_(1.5)
    assert t.tolist() == [1, 2, 3] and t.dtype is M.int32
    with pytest.raises(RuntimeError):
        t += M.ones(3)


@pytest.mark.parametrize("src,dst", [("float32", "int64"), ("float64", "int32"),
                                     ("complex64", "float32"), ("int64", "bool")])
def test_out_that_cannot_cast_raises_torch_message(src, dst):
    def run(lib, dt):
        try:
            lib.add(lib.ones(2, dtype=dt(src)), 1, out=lib.zeros(2, dtype=dt(dst)))
        except RuntimeError as e:
            return str(e)
    assert run(M, mt_dtype) == run(torch, th_dtype) is not None


def test_inplace_tensor_operand_cast_rules():
    for a, b in PAIRS:
        m = M.ones(2, dtype=mt_dtype(a))
        t = torch.ones(2, dtype=th_dtype(a))
        mb, tb = M.ones(2, dtype=mt_dtype(b)), torch.ones(2, dtype=th_dtype(b))
        if a == "bool" and b == "bool":
            continue  # bool + bool stays bool in both; nothing to cast
        same_error(lambda: m.add_(mb), lambda: t.add_(tb))
        assert m.dtype is mt_dtype(a)


def test_out_cast_rule():
    out = M.empty(3, dtype=M.int64)
    with pytest.raises(RuntimeError):
        M.add(M.ones(3), 1, out=out)
    ok = M.empty(3, dtype=M.float64)
    M.add(M.ones(3, dtype=M.int32), 1, out=ok)
    np.testing.assert_array_equal(ok.numpy(), [2.0, 2.0, 2.0])
