"""Pointwise ops against PyTorch: every op of the UNARY/BINARY tables plus clamp (and
clamp_min/clamp_max), where, round, gelu, silu, lerp, nan_to_num, div rounding modes, pow
and the in-place addcmul_/addcdiv_; functional, in-place and out= forms;
all dtypes (same error class where torch refuses a dtype); broadcasting, Python scalars on
either side, non-contiguous, 0-dim and empty inputs; meta shapes/dtypes equal cpu's."""
import math
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch._ops.decls import pointwise as P
from reference import DTYPES, assert_same, same_error, to_torch, torch

M = mindtorch
torch.set_num_threads(1)  # tiny ops are much slower through torch's thread pool
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning",
                                        "ignore::DeprecationWarning")


# value ranges keeping each op inside its domain (both libraries give nan outside it,
# which would make the comparison vacuous)
DOMAIN = {"log": (0.1, 5), "log2": (0.1, 5), "log10": (0.1, 5), "sqrt": (0.1, 5),
          "rsqrt": (0.1, 5), "log1p": (-0.9, 5), "asin": (-0.99, 0.99),
          "acos": (-0.99, 0.99), "tan": (-1.4, 1.4), "reciprocal": (0.5, 4)}


def make(shape, dtype, low=-3.0, high=3.0, seed=0, nonzero=False):
    """Deterministic values of `dtype` (a name) in [low, high); ints are rounded."""
    rng = np.random.default_rng(seed)
    dt = getattr(M, dtype)
    if dt is M.bool:
        data = rng.random(shape) > 0.5
        if nonzero:
            data = np.ones(shape, bool)
    elif dt.kind in "ui":
        lo = max(int(np.floor(low)), 0 if dt.kind == "u" else -128)
        hi = int(np.ceil(high))
        data = rng.integers(lo, max(hi, lo + 1) + 1, shape)
        if nonzero:
            data = np.where(data == 0, 1, data)
    else:
        data = rng.uniform(low, high, shape)
        if dt.is_complex:
            data = data + 1j * rng.uniform(low, high, shape)
    return M.tensor(np.asarray(data).astype(dt.np))


def noncontig(shape, dtype, **kw):
    """Same kind of values, as a transposed (non-contiguous) view."""
    return make(shape[::-1], dtype, **kw).t() if len(shape) == 2 else make(shape, dtype, **kw)


def th(x):
    return to_torch(x) if isinstance(x, M.Tensor) else x


def compare(mfn, tfn, rtol=None, atol=None):
    """Run both; same error class if torch raises, else the same dtype/shape/values.
    Mismatches raise a short AssertionError (deep torch/numpy tracebacks make each
    failure, and so each known-bug xfail, slow to report)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = tfn()
        except Exception as e:  # noqa: BLE001 - compare whatever torch raises
            base = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
            try:
                mfn()
            except base:
                return None
            except Exception as mine:  # noqa: BLE001
                raise AssertionError(f"torch raised {type(e).__name__}({e}), mindtorch "
                                     f"{type(mine).__name__}({mine})") from None
            raise AssertionError(f"torch raised {type(e).__name__}({e}), mindtorch did not")
        try:
            got = mfn()
        except Exception as mine:  # noqa: BLE001
            raise AssertionError(f"mindtorch raised {type(mine).__name__}({mine}), torch "
                                 f"returned {want!r}") from None
    try:
        assert_same(got, want, rtol=rtol, atol=atol)
    except AssertionError as e:
        raise AssertionError(str(e)) from None
    return got


def compare_scalar_arg(mfn, tfn, scalar, **tol):
    """compare(mfn, tfn(scalar)): where torch refuses a Python scalar argument (TypeError:
    e.g. maximum, atan2) mindtorch must refuse it too, and then both must agree given the
    scalar as a 0-dim tensor."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tfn(scalar)
    except TypeError:
        with pytest.raises(TypeError):
            mfn()
        return compare(lambda: mfn(M.tensor(scalar)), lambda: tfn(torch.tensor(scalar)), **tol)
    except Exception:  # noqa: BLE001 - compare() checks the error class
        pass
    return compare(mfn, lambda: tfn(scalar), **tol)


def _tol(dtype):
    # torch computes reduced-precision ops in float32 and rounds once; numpy sometimes
    # rounds intermediate steps, so allow a couple of ulps there
    return {"float16": dict(rtol=4e-3, atol=1e-3), "bfloat16": dict(rtol=3e-2, atol=1e-2),
            "complex64": dict(rtol=1e-5, atol=1e-5)}.get(dtype, {})


def check_meta(mfn_args, result, fn):
    """fn on meta copies of the tensor arguments gives result's shape and dtype."""
    margs = [a.to("meta") if isinstance(a, M.Tensor) else a for a in mfn_args]
    r = fn(*margs)
    assert r.device.type == "meta"
    assert (r.shape, r.dtype) == (result.shape, result.dtype)


# -- unary ----------------------------------------------------------------------------------

UNARY = sorted(P.UNARY)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary(name, dtype):
    low, high = DOMAIN.get(name, (-3.0, 3.0))
    x = noncontig((3, 4), dtype, low=low, high=high)
    got = compare(lambda: getattr(M, name)(x), lambda: getattr(torch, name)(th(x)), **_tol(dtype))
    if got is None:
        return
    check_meta([x], got, getattr(M, name))
    # out=: resized from empty, same values (where torch has an out= at all)
    if name not in P.NO_OUT:
        out = M.empty(0, dtype=got.dtype)
        assert getattr(M, name)(x, out=out) is out
        assert_same(out, to_torch(got))
    # in-place: same result, or the same error when the result does not fit self's dtype
    if name not in P.NO_INPLACE and hasattr(torch.Tensor, name + "_"):
        mx = x.clone()
        compare(lambda: getattr(mx, name + "_")(), lambda: getattr(th(x).clone(), name + "_")(),
                **_tol(dtype))


@pytest.mark.parametrize("name", ["exp", "abs", "neg", "sigmoid", "floor", "logical_not",
                                  "isnan", "sign"])
@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (5,)])
def test_unary_zero_dim_and_empty(name, shape):
    for dtype in ("float32", "int64"):
        x = make(shape, dtype)
        got = compare(lambda: getattr(M, name)(x), lambda: getattr(torch, name)(th(x)))
        if got is not None:
            check_meta([x], got, getattr(M, name))


def test_unary_special_values():
    vals = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -2.5, 2.5, 0.5, -0.5]
    for name in UNARY:
        for dtype in ("float32", "float64"):
            x = M.tensor(vals, dtype=getattr(M, dtype))
            compare(lambda: getattr(M, name)(x), lambda: getattr(torch, name)(th(x)))


def test_inplace_unary_on_view_writes_through_and_bumps_version():
    base = M.tensor([[1.0, -2.0], [3.0, -4.0]])
    v = base.t()
    r = v.abs_()
    assert r is v and base.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert base._version == 1


# -- binary ---------------------------------------------------------------------------------

BINARY = sorted(P.BINARY)
INT_NONNEG_RHS = {"pow", "bitwise_left_shift", "bitwise_right_shift"}
DIVISIONS = {"div", "true_divide", "floor_divide", "remainder", "fmod"}


def _rhs(name, shape, dtype, seed=1):
    if name in INT_NONNEG_RHS and getattr(M, dtype).kind in "uib":
        return make(shape, dtype, low=0, high=3, seed=seed)
    return make(shape, dtype, seed=seed, nonzero=name in DIVISIONS)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_same_dtype_broadcast(name, dtype):
    a = noncontig((3, 4), dtype, seed=2)
    b = _rhs(name, (4,), dtype)
    got = compare(lambda: getattr(M, name)(a, b), lambda: getattr(torch, name)(th(a), th(b)),
                  **_tol(dtype))
    if got is None:
        return
    check_meta([a, b], got, getattr(M, name))
    if name not in P.NO_OUT:
        out = M.empty(0, dtype=got.dtype)
        assert getattr(M, name)(a, b, out=out) is out
        assert_same(out, to_torch(got))
    if name not in P.NO_INPLACE and hasattr(torch.Tensor, name + "_"):
        ma = a.clone()
        compare(lambda: getattr(ma, name + "_")(b), lambda: getattr(th(a), name + "_")(th(b)),
                **_tol(dtype))


MIXED = [("int32", "float16"), ("uint8", "int8"), ("bool", "float32"), ("int64", "float64"),
         ("float16", "bfloat16"), ("float32", "complex64"), ("bool", "int16"),
         ("int8", "int64"), ("float64", "complex64"), ("bfloat16", "int32")]


@pytest.mark.parametrize("da,db", MIXED)
@pytest.mark.parametrize("name", BINARY)
def test_binary_mixed_dtypes(name, da, db):
    a = make((2, 1, 3), da, seed=3)
    b = _rhs(name, (4, 1), db)
    got = compare(lambda: getattr(M, name)(a, b), lambda: getattr(torch, name)(th(a), th(b)),
                  **_tol("bfloat16" if "bfloat16" in (da, db) else
                         "float16" if "float16" in (da, db) else "x"))
    if got is not None:
        check_meta([a, b], got, getattr(M, name))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float16", "float32",
                                   "complex64"])
@pytest.mark.parametrize("name", BINARY)
def test_binary_tensor_and_scalar(name, dtype):
    x = make((2, 3), dtype, seed=4, nonzero=name in DIVISIONS)
    for scalar in (2, 2.5, True, -3):
        if name in INT_NONNEG_RHS and scalar == -3:
            continue  # negative shift counts are undefined
        compare_scalar_arg(lambda s=scalar: getattr(M, name)(x, s),
                           lambda s: getattr(torch, name)(th(x), s), scalar, **_tol(dtype))
        if getattr(M, dtype).kind in "uib" and name in INT_NONNEG_RHS:
            continue  # x's negative values would be exponents/shift counts
        # a 0-dim tensor on the left (PyTorch's binary ops need a tensor argument)
        s = M.tensor(scalar)
        compare(lambda: getattr(M, name)(s, x), lambda: getattr(torch, name)(th(s), th(x)),
                **_tol(dtype))


OPERATORS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "**": lambda a, b: a ** b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b, "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "float64"])
@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_python_operators_scalars_either_side(op, dtype):
    fn = OPERATORS[op]
    x = make((2, 3), dtype, low=1, high=3, seed=5, nonzero=True)
    y = make((3,), dtype, low=1, high=3, seed=6, nonzero=True)
    for m_args, t_args in (((x, y), (th(x), th(y))), ((x, 2), (th(x), 2)),
                           ((2, x), (2, th(x))), ((x, 1.5), (th(x), 1.5)),
                           ((1.5, x), (1.5, th(x))), ((True, x), (True, th(x)))):
        compare(lambda: fn(*m_args), lambda: fn(*t_args))


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="])
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool"])
def test_augmented_assignment_in_place(op, dtype):
    def run(mod, x, y):
        z = x.clone()
        ref = z
        z = eval(f"z {op} y", {}, {"z": z, "y": y})  # noqa: S307 - fixed operator strings
        assert z is ref  # in place
        return z
    x = make((2, 3), dtype, low=1, high=3, seed=7, nonzero=True)
    y = make((3,), dtype, low=1, high=3, seed=8, nonzero=True)
    compare(lambda: run(M, x, y), lambda: run(torch, th(x), th(y)))
    compare(lambda: run(M, x, 2), lambda: run(torch, th(x), 2))


def test_binary_zero_dim_and_empty():
    for name in BINARY:
        for sa, sb in (((), ()), ((0,), ()), ((0, 3), (3,)), ((2, 0), (1, 0)), ((), (4,))):
            for dtype in ("float32", "int64"):
                a = make(sa, dtype, seed=9)
                b = _rhs(name, sb, dtype)
                got = compare(lambda: getattr(M, name)(a, b),
                              lambda: getattr(torch, name)(th(a), th(b)))
                if got is not None:
                    check_meta([a, b], got, getattr(M, name))


def test_broadcast_errors():
    for name in BINARY:
        a, b = make((2, 3), "float32"), make((4,), "float32")
        compare(lambda: getattr(M, name)(a, b), lambda: getattr(torch, name)(th(a), th(b)))
    x = make((3,), "float32")
    compare(lambda: x.add_(make((2, 3), "float32")),
            lambda: th(x).add_(torch.ones(2, 3)))


@pytest.mark.parametrize("name", ["add", "sub", "rsub"])
def test_alpha(name):
    for dtype, alpha in (("float32", 2.5), ("int64", 3), ("int64", 2.5), ("bool", True),
                         ("float16", -1)):
        a, b = make((2, 3), dtype, seed=10), make((3,), dtype, seed=11)
        compare(lambda: getattr(M, name)(a, b, alpha=alpha),
                lambda: getattr(torch, name)(th(a), th(b), alpha=alpha), **_tol(dtype))


@pytest.mark.parametrize("alias,target", sorted(P.ALIASES.items()))
def test_aliases(alias, target):
    a, b = make((2, 3), "float32", seed=12, low=0.5), make((3,), "float32", seed=13, low=0.5)
    if alias in ("negative", "absolute"):
        compare(lambda: getattr(M, alias)(a), lambda: getattr(torch, alias)(th(a)))
    else:
        compare(lambda: getattr(M, alias)(a, b), lambda: getattr(torch, alias)(th(a), th(b)))


# -- integer division and pow errors ---------------------------------------------------------

@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod"])
def test_integer_division_by_zero(name):
    a, b = M.tensor([1, 2, 3]), M.tensor([1, 0, 2])
    compare(lambda: getattr(M, name)(a, b), lambda: getattr(torch, name)(th(a), th(b)))
    f = M.tensor([1.0, -2.0, 0.0])
    compare(lambda: getattr(M, name)(f, 0.0), lambda: getattr(torch, name)(th(f), 0.0))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_remainder_zero_keeps_dividend_sign(dtype):
    # fmod moved to the divisor's sign: an exact zero keeps the dividend's sign (-0.0 % 1)
    a = M.tensor([-0.0, 0.0, -0.0, 0.0, -4.0, 4.0, 3.0, -3.0, 7.5], dtype=getattr(M, dtype))
    b = M.tensor([1.0, 1.0, -1.0, -1.0, 2.0, -2.0, float("inf"), float("inf"), -2.0],
                 dtype=getattr(M, dtype))
    for f in (lambda x, y: x % y, lambda x, y: x.remainder(1.0), lambda x, y: 7.5 % y):
        got, want = f(a, b), f(th(a), th(b))
        assert got.float().copysign(M.tensor(1.0)).tolist() == \
            want.float().copysign(torch.tensor(1.0)).tolist() and \
            got.float().signbit().tolist() == want.float().signbit().tolist()


@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_div_rounding_modes(mode, dtype):
    a = make((3, 4), dtype, seed=14, low=-7, high=7)
    b = make((4,), dtype, seed=15, nonzero=True)
    got = compare(lambda: M.div(a, b, rounding_mode=mode),
                  lambda: torch.div(th(a), th(b), rounding_mode=mode), **_tol(dtype))
    compare(lambda: M.div(a, 2, rounding_mode=mode),
            lambda: torch.div(th(a), 2, rounding_mode=mode), **_tol(dtype))
    compare(lambda: a.clone().div_(b, rounding_mode=mode),
            lambda: th(a).div_(th(b), rounding_mode=mode), **_tol(dtype))
    if got is not None:
        check_meta([a, b], got, lambda x, y: M.div(x, y, rounding_mode=mode))


def test_div_bad_rounding_mode():
    a = make((3,), "float32")
    compare(lambda: M.div(a, 2, rounding_mode="round"),
            lambda: torch.div(th(a), 2, rounding_mode="round"))


def test_div_integer_by_zero_modes():
    a, b = M.tensor([5, -5]), M.tensor([0, 2])
    for mode in (None, "trunc", "floor"):
        compare(lambda: M.div(a, b, rounding_mode=mode),
                lambda: torch.div(th(a), th(b), rounding_mode=mode))


@pytest.mark.parametrize("base,exp", [
    ("int64", "int64"), ("int32", "float32"), ("float32", "int64"), ("float16", "float16"),
    ("uint8", "uint8"), ("bool", "bool"), ("complex64", "float32"), ("int8", "int64"),
])
def test_pow(base, exp):
    a = make((3, 4), base, seed=16, low=-3, high=3)
    b = make((4,), exp, seed=17, low=0, high=3)
    compare(lambda: M.pow(a, b), lambda: torch.pow(th(a), th(b)), **_tol(base))
    compare(lambda: a ** 2, lambda: th(a) ** 2, **_tol(base))
    compare(lambda: a ** 0.5, lambda: th(a) ** 0.5, **_tol(base))
    compare(lambda: 2 ** b, lambda: 2 ** th(b), **_tol(exp))
    compare(lambda: 2.5 ** b, lambda: 2.5 ** th(b), **_tol(exp))
    compare(lambda: M.pow(a, -1), lambda: torch.pow(th(a), -1), **_tol(base))
    neg = make((4,), exp, seed=18, low=-3, high=-1)
    compare(lambda: M.pow(a, neg), lambda: torch.pow(th(a), th(neg)), **_tol(base))


# -- clamp, where, round, gelu, silu, lerp --------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_clamp(dtype):
    x = noncontig((3, 4), dtype, seed=19)
    cases = [dict(min=-1), dict(max=1), dict(min=-1, max=1), dict(min=-0.5, max=0.5),
             dict(min=1, max=-1), dict()]
    for kw in cases:
        got = compare(lambda: M.clamp(x, **kw), lambda: torch.clamp(th(x), **kw), **_tol(dtype))
        if got is not None:
            check_meta([x], got, lambda t: M.clamp(t, **kw))
            compare(lambda: x.clone().clamp_(**kw), lambda: th(x).clamp_(**kw), **_tol(dtype))
    lo, hi = make((4,), dtype, seed=20, low=-2, high=0), make((3, 1), dtype, seed=21, low=0,
                                                              high=2)
    compare(lambda: M.clamp(x, lo, hi), lambda: torch.clamp(th(x), th(lo), th(hi)),
            **_tol(dtype))
    compare(lambda: M.clamp(x, min=lo), lambda: torch.clamp(th(x), min=th(lo)), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_clamp_min_max(dtype):
    x = noncontig((3, 4), dtype, seed=19)
    bound = make((4,), dtype, seed=20, low=-1, high=1)
    for name in ("clamp_min", "clamp_max"):
        for b in (0, -0.5, True, bound, M.tensor(0.5)):
            got = compare(lambda: getattr(M, name)(x, b), lambda: getattr(torch, name)(th(x), th(b)),
                          **_tol(dtype))
            if got is None:
                continue
            check_meta([x, b], got, getattr(M, name))
            compare(lambda: getattr(x, name)(b), lambda: getattr(th(x), name)(th(b)),
                    **_tol(dtype))
            compare(lambda: getattr(x.clone(), name + "_")(b),
                    lambda: getattr(th(x), name + "_")(th(b)), **_tol(dtype))
            out = M.empty(0, dtype=got.dtype)
            assert getattr(M, name)(x, b, out=out) is out


@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64", "complex64"])
def test_addcmul_addcdiv_in_place(dtype):
    a = noncontig((3, 4), dtype, seed=30)
    b, c = make((4,), dtype, seed=31), make((3, 1), dtype, seed=32, nonzero=True)
    for name in ("addcmul_", "addcdiv_"):
        for kw in ({}, {"value": 2}):
            compare(lambda: getattr(a.clone(), name)(b, c, **kw),
                    lambda: getattr(th(a), name)(th(b), th(c), **kw), **_tol(dtype))
    compare(lambda: make((4,), dtype).addcmul_(a, b), lambda: th(make((4,), dtype)).addcmul_(
        th(a), th(b)))  # self cannot take the broadcast shape


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "bfloat16", "float32",
                                   "float64", "complex64", "complex128"])
def test_nan_to_num(dtype):
    inf, nan = float("inf"), float("nan")
    vals = [nan, inf, -inf, 1.5, -0.0]
    x = M.tensor(vals).to(getattr(M, dtype)) if getattr(M, dtype).kind in "fc" else \
        make((5,), dtype)
    if x.dtype.is_complex:
        x = x + M.tensor([inf, nan, 2.0, -inf, nan]).to(x.dtype) * 1j
    for kw in ({}, dict(nan=1.0), dict(nan=0.5, posinf=9.0, neginf=-9.0), dict(posinf=1e300)):
        got = compare(lambda: M.nan_to_num(x, **kw), lambda: torch.nan_to_num(th(x), **kw))
        compare(lambda: x.clone().nan_to_num_(**kw), lambda: th(x).nan_to_num_(**kw))
        out = M.empty(0, dtype=got.dtype)
        assert M.nan_to_num(x, out=out, **kw) is out


def test_clamp_nan_and_mixed():
    x = M.tensor([float("nan"), -2.0, 2.0])
    compare(lambda: M.clamp(x, -1, 1), lambda: torch.clamp(th(x), -1, 1))
    i = M.tensor([-3, 0, 3])
    compare(lambda: M.clamp(i, -1.5, 1.5), lambda: torch.clamp(th(i), -1.5, 1.5))
    compare(lambda: M.clamp(i, M.tensor([0.5])), lambda: torch.clamp(th(i), torch.tensor([0.5])))
    compare(lambda: i.clone().clamp_(-1.5, 1.5), lambda: th(i).clamp_(-1.5, 1.5))


@pytest.mark.parametrize("cond_dtype", ["bool", "uint8", "float32", "int64"])
def test_where(cond_dtype):
    c = make((3, 1), cond_dtype, seed=22)
    a, b = make((4,), "float32", seed=23), make((3, 4), "int64", seed=24)
    got = compare(lambda: M.where(c, a, b), lambda: torch.where(th(c), th(a), th(b)))
    compare(lambda: M.where(c, a, 2), lambda: torch.where(th(c), th(a), 2))
    compare(lambda: M.where(c, 1.5, b), lambda: torch.where(th(c), 1.5, th(b)))
    compare(lambda: M.where(c, 1, 0), lambda: torch.where(th(c), 1, 0))
    if got is not None:
        check_meta([c, a, b], got, M.where)


def test_where_dtypes_and_method():
    c = make((5,), "bool", seed=25)
    for da, db in MIXED:
        a, b = make((5,), da, seed=26), make((5,), db, seed=27)
        compare(lambda: M.where(c, a, b), lambda: torch.where(th(c), th(a), th(b)))
        compare(lambda: a.where(c, b), lambda: th(a).where(th(c), th(b)))
    compare(lambda: M.where(M.tensor(True), M.tensor(1.0), M.zeros(2, 3)),
            lambda: torch.where(torch.tensor(True), torch.tensor(1.0), torch.zeros(2, 3)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
def test_round(dtype, decimals):
    x = make((3, 4), dtype, low=-30, high=30, seed=28)
    # torch refuses integers given decimals= explicitly (even 0) but rounds them without
    kw = {} if decimals == 0 and dtype == "int32" else {"decimals": decimals}
    got = compare(lambda: M.round(x, **kw), lambda: torch.round(th(x), **kw), **_tol(dtype))
    if got is not None:
        check_meta([x], got, lambda t: M.round(t, **kw))
        compare(lambda: x.clone().round_(**kw), lambda: th(x).round_(**kw), **_tol(dtype))


def test_round_half_to_even():
    x = M.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 0.35])
    compare(lambda: M.round(x), lambda: torch.round(th(x)))
    compare(lambda: M.round(x, decimals=1), lambda: torch.round(th(x), decimals=1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(dtype, approximate):
    x = noncontig((3, 4), dtype, seed=29)
    got = compare(lambda: M.gelu(x, approximate=approximate),
                  lambda: torch.nn.functional.gelu(th(x), approximate=approximate),
                  **_tol(dtype))
    if got is not None:
        check_meta([x], got, lambda t: M.gelu(t, approximate=approximate))
        compare(lambda: x.clone().gelu_(approximate=approximate),
                lambda: torch.nn.functional.gelu(th(x), approximate=approximate), **_tol(dtype))


def test_gelu_bad_mode():
    x = make((3,), "float32")
    compare(lambda: M.gelu(x, approximate="fast"),
            lambda: torch.nn.functional.gelu(th(x), approximate="fast"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_silu(dtype):
    x = noncontig((3, 4), dtype, seed=30)
    got = compare(lambda: M.silu(x), lambda: torch.nn.functional.silu(th(x)), **_tol(dtype))
    if got is not None:
        check_meta([x], got, M.silu)
        compare(lambda: x.clone().silu_(), lambda: torch.nn.functional.silu(th(x)),
                **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_lerp(dtype):
    a, b = noncontig((3, 4), dtype, seed=31), make((4,), dtype, seed=32)
    w = make((3, 1), dtype, low=0, high=1, seed=33)
    compare(lambda: M.lerp(a, b, 0.3), lambda: torch.lerp(th(a), th(b), 0.3), **_tol(dtype))
    got = compare(lambda: M.lerp(a, b, w), lambda: torch.lerp(th(a), th(b), th(w)),
                  **_tol(dtype))
    if got is not None:
        compare(lambda: a.clone().lerp_(b, 0.5), lambda: th(a).lerp_(th(b), 0.5), **_tol(dtype))
        out = M.empty(0, dtype=got.dtype)
        assert M.lerp(a, b, w, out=out) is out


def test_lerp_mismatched_dtypes():
    a, b = make((3,), "float32"), make((3,), "float64")
    compare(lambda: M.lerp(a, b, 0.5), lambda: torch.lerp(th(a), th(b), 0.5))


# -- in-place and out= rules -----------------------------------------------------------------

def test_inplace_broadcast_self_shape_error():
    x, y = make((3,), "float32"), make((2, 3), "float32")
    for name in ("add_", "mul_", "sub_", "maximum"):
        if name.endswith("_"):
            compare(lambda: getattr(x.clone(), name)(y), lambda: getattr(th(x), name)(th(y)))


def test_out_resize_and_dtype_rules():
    a, b = make((2, 3), "int32"), make((3,), "int32")
    out = M.empty(6, dtype=M.float64)
    with pytest.warns(UserWarning, match="resized"):
        M.add(a, b, out=out)
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(out.numpy(), (to_torch(a) + to_torch(b)).double().numpy())
    compare(lambda: M.exp(a, out=M.empty(0, dtype=M.int32)),
            lambda: torch.exp(th(a), out=torch.empty(0, dtype=torch.int32)))
    compare(lambda: M.eq(a, b, out=M.empty(0, dtype=M.int64)),
            lambda: torch.eq(th(a), th(b), out=torch.empty(0, dtype=torch.int64)))


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("call", [lambda L, t: L.neg(t), lambda L, t: L.negative(t),
                                  lambda L, t: t.neg_(), lambda L, t: -t])
def test_neg_of_bool_refused_on_every_device(device, call):
    same_error(lambda: call(mindtorch, mindtorch.ones(2, dtype=mindtorch.bool, device=device)),
               lambda: call(torch, torch.ones(2, dtype=torch.bool)))


@pytest.mark.parametrize("kw", [{"posinf": -math.inf}, {"neginf": math.inf},
                                {"posinf": -math.inf, "neginf": math.inf, "nan": math.inf}])
@pytest.mark.parametrize("dtype", ["float32", "float16", "complex64"])
def test_nan_to_num_replaces_each_element_once(kw, dtype):
    data = [math.inf, -math.inf, math.nan, 1.0]
    m = mindtorch.tensor(data).to(getattr(mindtorch, dtype))
    assert_same(mindtorch.nan_to_num(m, **kw), torch.nan_to_num(to_torch(m), **kw))


@pytest.mark.parametrize("a, b, kw", [
    ([complex(math.nan, 1), complex(1, math.inf), 1 + 1j],
     [complex(math.nan, 1), complex(1, math.inf), complex(math.nan, 0)], {"equal_nan": True}),
    ([complex(math.nan, 1), math.nan], [complex(1, math.nan), math.nan],
     {"equal_nan": True, "rtol": 0, "atol": 0}),
    ([math.nan, 1.0], [math.nan, 1.0], {"equal_nan": True, "rtol": 0, "atol": 0}),
    ([True, False], [False, False], {"atol": 2}), ([True, False], [False, True], {"rtol": 2}),
])
def test_isclose_equal_nan_and_tolerances(a, b, kw):
    ma, mb = mindtorch.tensor(a), mindtorch.tensor(b)
    assert_same(mindtorch.isclose(ma, mb, **kw), torch.isclose(to_torch(ma), to_torch(mb), **kw))


@pytest.mark.parametrize("kw", [{"rtol": -1}, {"rtol": -0.5}, {"atol": -1e-5},
                                {"atol": -123456789.0}])
def test_isclose_negative_tolerance_message(kw):
    def run(lib):
        with pytest.raises(RuntimeError) as e:
            lib.allclose(lib.ones(1), lib.ones(1), **kw)
        return str(e.value)
    assert run(mindtorch) == run(torch)  # the number printed as C++ prints a double


@pytest.mark.parametrize("call", [
    lambda L, z: L.maximum(z, z), lambda L, z: z.minimum(z.real), lambda L, z: L.max(z, z),
    lambda L, z: L.min(z.real, z), lambda L, z: L.fmax(z, z), lambda L, z: z.fmin(z)])
def test_extrema_refuse_complex_with_torch_message(call):
    def run(L):
        with pytest.raises(RuntimeError) as e:
            call(L, L.tensor([1j, 2.0]))
        return str(e.value)
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("name", ["floor", "ceil", "round", "trunc", "frac", "sign", "signbit",
                                  "erf", "relu"])
@pytest.mark.parametrize("value", [1j, True])
def test_unary_refusals_with_torch_messages(name, value):
    def run(L):
        try:
            return getattr(L, name)(L.tensor([value])).tolist()
        except RuntimeError as e:  # (NotImplementedError is one)
            return type(e).__name__, str(e)
    assert run(mindtorch) == run(torch)


def test_diff_of_order_zero_ignores_prepend_and_append():
    x, p, a = (mindtorch.tensor(v) for v in ([1.0, 2.0, 4.0], [5.0], [7.0]))
    assert_same(mindtorch.diff(x, n=0, prepend=p, append=a),
                torch.diff(to_torch(x), n=0, prepend=to_torch(p), append=to_torch(a)))
    same_error(lambda: mindtorch.diff(x, n=0, prepend=mindtorch.ones(1, 1)),
               lambda: torch.diff(to_torch(x), n=0, prepend=torch.ones(1, 1)))


@pytest.mark.parametrize("name", ["rad2deg", "deg2rad", "rad2deg_", "deg2rad_"])
def test_angle_conversions_refuse_complex(name):
    same_error(lambda: getattr(mindtorch.ones(2, dtype=mindtorch.complex64), name)(),
               lambda: getattr(torch.ones(2, dtype=torch.complex64), name)())


@pytest.mark.parametrize("call", [
    lambda L: L.diff(L.ones(4, dtype=L.int64), -1, -3),    # order before dim
    lambda L: L.diff(L.ones(()), 1, -3),                    # rank before dim
    lambda L: L.ones(4).diff(n=-2, dim=4), lambda L: L.diff(L.ones(4), 1, 4),
])
def test_diff_checks_before_dim(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


@pytest.mark.parametrize("call", [
    lambda L: L.add(L.ones(2, dtype=L.int8), 1, alpha=1000),
    lambda L: L.sub(L.ones(2, dtype=L.int8), L.ones(2, dtype=L.int8), alpha=-129),
    lambda L: L.add(L.ones(2, dtype=L.uint8), 1, alpha=-1),          # wraps, as in c10
    lambda L: L.add(L.ones(2, dtype=L.float16), 1, alpha=1e6),
    lambda L: L.add(L.ones(2, dtype=L.int8), 1, alpha=2 ** 63),
    lambda L: L.ones(2, dtype=L.int8).add_(1, alpha=300),
])
def test_alpha_converted_to_the_result_dtype_checked(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


def test_nan_to_num_refuses_complex_autograd():
    from test_indexing import _c, same_complex_autograd
    same_complex_autograd(lambda L, x: L.nan_to_num(x), lambda L: (_c(L, 4),))
    same_complex_autograd(lambda L, x: x.nan_to_num(1.0, 2.0), lambda L: (_c(L, 2, 3),))
    same_complex_autograd(lambda L, x: x.clone().nan_to_num_(), lambda L: (_c(L, 4),))
    same_complex_autograd(lambda L, x: L.nan_to_num(x), lambda L: (_c(L, 4).real,))
    same_complex_autograd(lambda L, x: L.nan_to_num(x), lambda L: (_c(L, 4, grad=False),))


_BIG = 2 ** 63     # PyTorch makes a Python int in [2**63, 2**64) a uint64 number


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "true_divide", "floor_divide",
                                  "multiply", "subtract", "divide"])
@pytest.mark.parametrize("x,y", [
    (_BIG, _BIG), (_BIG, _BIG + 5), (_BIG, 1), (1, _BIG), (_BIG, -1), (_BIG, True),
    (True, _BIG), (_BIG, 2.5), (2.5, _BIG), (_BIG, 1j), (1j, _BIG), (2 ** 64, 1),
    (-2 ** 63 - 1, 1), (1, 2 ** 64), (3, 4)])
def test_two_numbers_beyond_int64(name, x, y):
    """torch.add(2**63, 2**63) etc.: PyTorch's promotion errors, its NotImplementedError
    for uint64 add/floor_divide, its float results and its uint64 products."""
    same_error(lambda: getattr(mindtorch, name)(x, y), lambda: getattr(torch, name)(x, y))
    try:
        expected = getattr(torch, name)(x, y)
    except Exception:
        return
    assert_same(getattr(mindtorch, name)(x, y), expected)


@pytest.mark.parametrize("mode", [None, "floor", "trunc"])
@pytest.mark.parametrize("y", [_BIG, 1.5, 2])
def test_div_rounding_two_numbers_beyond_int64(mode, y):
    same_error(lambda: mindtorch.div(_BIG, y, rounding_mode=mode),
               lambda: torch.div(_BIG, y, rounding_mode=mode))
    try:
        expected = torch.div(_BIG, y, rounding_mode=mode)
    except Exception:
        return
    assert_same(mindtorch.div(_BIG, y, rounding_mode=mode), expected)


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("call", [
    lambda L, a, b: L.floor_divide(a, b), lambda L, a, b: L.div(a, b, rounding_mode="floor"),
    lambda L, a, b: L.div(a, b, rounding_mode="trunc"), lambda L, a, b: a.floor_divide_(b),
    lambda L, a, b: L.floor_divide(a.real, 1j), lambda L, a, b: L.div(a, b)])
def test_rounding_division_refuses_complex_on_every_device(device, call):
    # PyTorch's cpu kernels lack complex floor/trunc division (NotImplementedError): the
    # check is the declaration's, so the meta device refuses too
    a = mindtorch.tensor([1 + 2j, -3.5 + 1j, 4j])
    b = mindtorch.tensor([2 - 1j, 1 + 1j, -2 + 0.5j])
    same_error(lambda: call(mindtorch, a.to(device), b.to(device)),
               lambda: call(torch, to_torch(a), to_torch(b)))
