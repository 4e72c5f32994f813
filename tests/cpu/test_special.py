"""Special functions and the remaining pointwise math (_ops/decls/special.py) against
PyTorch: every op of the UNARY/BINARY tables over all dtypes (values, result dtypes, the
error class where torch refuses a dtype), out= and in-place forms, broadcasting, Python
scalars, non-contiguous, 0-dim and empty inputs, special values; the composites (logit,
polygamma, mvlgamma, ldexp, float_power, isposinf/isneginf/isreal) and every
torch.special name; meta shapes/dtypes equal cpu's."""
import math

import numpy as np
import pytest

import mindtorch
from mindtorch._ops.decls import special as S
from reference import DTYPES, assert_same, to_torch, torch
from test_pointwise import check_meta, compare, make, noncontig, th

M = mindtorch
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::RuntimeWarning")

# value ranges inside each op's domain (outside, both give nan: a vacuous comparison)
DOMAIN = {"erfinv": (-0.95, 0.95), "atanh": (-0.95, 0.95), "acosh": (1.1, 4),
          "lgamma": (0.1, 5), "digamma": (0.1, 5), "special_ndtri": (0.05, 0.95),
          "special_entr": (0.0, 4), "logit": (0.05, 0.95)}


def fn(name):
    """The public function of op `name` (torch.special.<x> for special_<x>)."""
    if name.startswith("special_"):
        return lambda mod: getattr(mod.special, name.removeprefix("special_"))
    return lambda mod: getattr(mod, name)


def tol(dtype):
    # SciPy's and PyTorch's special function algorithms agree to a few float32 ulps
    return {"float16": dict(rtol=4e-3, atol=1e-3), "bfloat16": dict(rtol=3e-2, atol=1e-2),
            "float32": dict(rtol=2e-5, atol=1e-6), "complex64": dict(rtol=1e-5, atol=1e-5),
            "uint8": dict(rtol=2e-5, atol=1e-6), "int8": dict(rtol=2e-5, atol=1e-6),
            "int16": dict(rtol=2e-5, atol=1e-6), "int32": dict(rtol=2e-5, atol=1e-6),
            "int64": dict(rtol=2e-5, atol=1e-6), "bool": dict(rtol=2e-5, atol=1e-6)
            }.get(dtype, {})


# PyTorch's airy_ai is accurate to a few parts in 1e6 only (SciPy's: to rounding)
LOOSE = {"special_airy_ai": dict(rtol=1e-4, atol=1e-6)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(S.UNARY))
def test_unary(name, dtype):
    low, high = DOMAIN.get(name, (-3.0, 3.0))
    x = noncontig((3, 4), dtype, low=low, high=high)
    f = fn(name)
    got = compare(lambda: f(M)(x), lambda: f(torch)(th(x)), **LOOSE.get(name, tol(dtype)))
    if got is None:
        return
    check_meta([x], got, f(M))
    out = M.empty(0, dtype=got.dtype)
    assert f(M)(x, out=out) is out
    assert_same(out, to_torch(got))
    if hasattr(torch.Tensor, name + "_"):
        mx = x.clone()
        compare(lambda: getattr(mx, name + "_")(), lambda: getattr(th(x), name + "_")(),
                **tol(dtype))


@pytest.mark.parametrize("name", sorted(S.UNARY))
def test_unary_special_values_0dim_and_empty(name):
    vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e-30, -2.5, 2.5, 0.5, -0.5, 40.0, -40.0]
    f = fn(name)
    for dtype in ("float32", "float64"):
        x = M.tensor(vals, dtype=getattr(M, dtype))
        compare(lambda: f(M)(x), lambda: f(torch)(th(x)), **LOOSE.get(name, tol(dtype)))
    for shape in ((), (0,), (2, 0)):
        x = make(shape, "float32", low=0.2, high=0.8)
        got = compare(lambda: f(M)(x), lambda: f(torch)(th(x)), **tol("float32"))
        check_meta([x], got, f(M))


BINARY = sorted(S.BINARY)
# second operands inside the domain: xlogy's log, zeta's q (> 0)
RHS = {"xlogy": (0.1, 4), "special_xlog1py": (-0.9, 4), "special_zeta": (0.1, 4)}
LHS = {"special_zeta": (1.1, 5)}


def _pair(name, dtype, a_shape=(3, 4), b_shape=(4,)):
    lo, hi = LHS.get(name, (-3.0, 3.0))
    a = noncontig(a_shape, dtype, low=lo, high=hi, seed=2)
    lo, hi = RHS.get(name, (-3.0, 3.0))
    return a, make(b_shape, dtype, low=lo, high=hi, seed=1, nonzero=name in ("gcd", "lcm"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_same_dtype_broadcast(name, dtype):
    a, b = _pair(name, dtype)
    f = fn(name)
    got = compare(lambda: f(M)(a, b), lambda: f(torch)(th(a), th(b)), **tol(dtype))
    if got is None:
        return
    check_meta([a, b], got, f(M))
    out = M.empty(0, dtype=got.dtype)
    assert f(M)(a, b, out=out) is out
    assert_same(out, to_torch(got))
    if hasattr(torch.Tensor, name + "_"):
        ma = a.clone()
        compare(lambda: getattr(ma, name + "_")(b), lambda: getattr(th(a), name + "_")(th(b)),
                **tol(dtype))


MIXED = [("int32", "float16"), ("bool", "float32"), ("int64", "float64"),
         ("float16", "bfloat16"), ("uint8", "int8"), ("float32", "complex64")]


@pytest.mark.parametrize("da,db", MIXED)
@pytest.mark.parametrize("name", BINARY)
def test_binary_mixed_dtypes(name, da, db):
    a = make((2, 1, 3), da, low=1.1, high=3, seed=3)
    b = make((4, 1), db, low=0.5, high=3, seed=4)
    f = fn(name)
    got = compare(lambda: f(M)(a, b), lambda: f(torch)(th(a), th(b)),
                  **tol("bfloat16" if "bfloat16" in (da, db) else
                        "float16" if "float16" in (da, db) else "float32"))
    if got is not None:
        check_meta([a, b], got, f(M))


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "float64"])
@pytest.mark.parametrize("name", BINARY)
def test_binary_python_scalars(name, dtype):
    x = make((2, 3), dtype, low=1.1, high=3, seed=5)
    f = fn(name)
    for s in (2, 2.5, True, -3):
        compare(lambda: f(M)(x, s), lambda: f(torch)(th(x), s), **tol(dtype))
        compare(lambda: f(M)(s, x), lambda: f(torch)(s, th(x)), **tol(dtype))


@pytest.mark.parametrize("name", BINARY)
def test_binary_zero_dim_empty_and_broadcast_errors(name):
    f = fn(name)
    for sa, sb in (((), ()), ((0,), ()), ((0, 3), (3,)), ((), (4,)), ((2, 3), (4,))):
        for dtype in ("float32", "int64"):
            a, b = _pair(name, dtype, sa, sb)
            got = compare(lambda: f(M)(a, b), lambda: f(torch)(th(a), th(b)), **tol(dtype))
            if got is not None:
                check_meta([a, b], got, f(M))


def test_binary_special_values():
    v = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 2.5]
    a = M.tensor([[x] for x in v], dtype=M.float64)
    b = M.tensor(v, dtype=M.float64)
    for name in BINARY:
        if name in ("gcd", "lcm"):
            continue
        f = fn(name)
        x = a[[0, 1, 2, 3, 5, 6, 7]] if name.removeprefix("special_") in S.POLYNOMIALS else a
        # (PyTorch's polynomials read uninitialized memory for x = nan)
        compare(lambda: f(M)(x, b), lambda: f(torch)(th(x), th(b)))


def test_integer_edge_values():
    a = M.tensor([-4, 6, 0, 0, 2 ** 40, -7], dtype=M.int64)
    b = M.tensor([6, -4, 0, 5, 3 ** 20, 7], dtype=M.int64)
    for name in ("gcd", "lcm"):
        compare(lambda: getattr(M, name)(a, b), lambda: getattr(torch, name)(th(a), th(b)))
    u = M.tensor([4, 6, 255], dtype=M.uint8)
    compare(lambda: M.gcd(u, u[[1, 0, 2]]), lambda: torch.gcd(th(u), th(u)[[1, 0, 2]]))


def test_heaviside_dtype_rules():
    x = M.tensor([-1.0, 0.0, 2.0])
    for v in (M.tensor([5.0]), M.tensor([5]), M.tensor(0.5, dtype=M.float64),
              M.tensor([1j], dtype=M.complex64)):
        compare(lambda: M.heaviside(x, v), lambda: torch.heaviside(th(x), th(v)))
    c = M.tensor([1j, 0j])
    compare(lambda: M.heaviside(c, c), lambda: torch.heaviside(th(c), th(c)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_nextafter_steps_one_ulp(dtype):
    a = M.tensor([1.0, 0.0, -2.0, 1e-3], dtype=getattr(M, dtype))
    b = M.tensor([2.0, -1.0, 0.0, 0.0], dtype=getattr(M, dtype))
    compare(lambda: M.nextafter(a, b), lambda: torch.nextafter(th(a), th(b)))


# -- composites and ops with extra arguments -----------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_logit(dtype):
    x = noncontig((3, 4), dtype, low=0.0, high=1.0)
    for eps in (None, 0.1, 0.0, -0.1):
        got = compare(lambda: M.logit(x, eps), lambda: torch.logit(th(x), eps), **tol(dtype))
        if got is not None:
            check_meta([x], got, lambda t: M.logit(t, eps))
    compare(lambda: M.special.logit(x, eps=0.2), lambda: torch.special.logit(th(x), eps=0.2),
            **tol(dtype))
    compare(lambda: x.clone().logit_(0.1), lambda: th(x).logit_(0.1), **tol(dtype))


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_polygamma_infinities(n):
    # n >= 2 is n! zeta(n + 1, x) in PyTorch, NaN at +inf
    x = M.tensor([float("inf"), -float("inf"), float("nan"), 0.0, -2.0], dtype=M.float64)
    compare(lambda: M.polygamma(n, x), lambda: torch.polygamma(n, th(x)))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float16", "bfloat16",
                                   "float32", "float64", "complex64"])
@pytest.mark.parametrize("n", [0, 1, 2, 4, -1])
def test_polygamma(n, dtype):
    x = noncontig((3, 4), dtype, low=0.2, high=4)
    got = compare(lambda: M.polygamma(n, x), lambda: torch.polygamma(n, th(x)), **tol(dtype))
    if got is None:
        return
    check_meta([x], got, lambda t: M.polygamma(n, t))
    compare(lambda: x.polygamma(n), lambda: th(x).polygamma(n), **tol(dtype))
    compare(lambda: M.special.polygamma(n, x), lambda: torch.special.polygamma(n, th(x)),
            **tol(dtype))
    compare(lambda: M.polygamma(n=n, input=x), lambda: torch.polygamma(n=n, input=th(x)),
            **tol(dtype))
    compare(lambda: x.clone().polygamma_(n), lambda: th(x).polygamma_(n), **tol(dtype))
    out = M.empty(0, dtype=got.dtype)
    assert M.polygamma(n, x, out=out) is out


@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("p", [1, 2, 5, 0])
def test_mvlgamma(p, dtype):
    x = noncontig((3, 4), dtype, low=2.5, high=6)
    got = compare(lambda: M.mvlgamma(x, p), lambda: torch.mvlgamma(th(x), p), **tol(dtype))
    if got is not None:
        check_meta([x], got, lambda t: M.mvlgamma(t, p))
        compare(lambda: M.special.multigammaln(x, p),
                lambda: torch.special.multigammaln(th(x), p), **tol(dtype))
        compare(lambda: x.mvlgamma(p), lambda: th(x).mvlgamma(p), **tol(dtype))
        compare(lambda: x.clone().mvlgamma_(p), lambda: th(x).mvlgamma_(p), **tol(dtype))


@pytest.mark.parametrize("da,db", [("float32", "int64"), ("float16", "int64"),
                                   ("bfloat16", "float16"), ("int64", "int32"),
                                   ("float64", "float32"), ("complex64", "int64"),
                                   ("float32", "bool")])
def test_ldexp(da, db):
    a = noncontig((3, 4), da, seed=3)
    b = make((4,), db, low=-4, high=4, seed=4)
    got = compare(lambda: M.ldexp(a, b), lambda: torch.ldexp(th(a), th(b)), **tol(da))
    if got is not None:
        check_meta([a, b], got, M.ldexp)
        compare(lambda: a.clone().ldexp_(b), lambda: th(a).ldexp_(th(b)), **tol(da))


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "float64",
                                   "complex64"])
def test_float_power(dtype):
    a = noncontig((3, 4), dtype, low=0.5, high=3)
    b = make((4,), "float32", low=-2, high=2, seed=6)
    for other in (b, 2, 2.5, -1, 1j):
        got = compare(lambda: M.float_power(a, other), lambda: torch.float_power(th(a), th(other)))
        if got is not None and isinstance(other, M.Tensor):
            check_meta([a, b], got, M.float_power)
    compare(lambda: M.float_power(2, a), lambda: torch.float_power(2, th(a)))
    for other in (b, 2, 1j):  # in place: only a double (complex128) self holds the result
        compare(lambda: a.clone().float_power_(other), lambda: th(a).float_power_(th(other)))
        d = a.double() if dtype != "complex64" else a.to(M.complex128)
        compare(lambda: d.clone().float_power_(other), lambda: th(d).float_power_(th(other)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_isposinf_isneginf_isreal(dtype):
    if dtype in ("float32", "float64", "float16", "complex64"):
        x = M.tensor([1.0, math.inf, -math.inf, math.nan, 0.0]).to(getattr(M, dtype))
    else:
        x = make((5,), dtype)
    if dtype == "complex64":
        x = x * 1j + 1
    for name in ("isposinf", "isneginf", "isreal"):
        got = compare(lambda: getattr(M, name)(x), lambda: getattr(torch, name)(th(x)))
        if got is not None:
            check_meta([x], got, getattr(M, name))
            assert_same(getattr(x, name)(), getattr(th(x), name)())
    out = M.empty(0, dtype=M.bool)
    if not getattr(M, dtype).is_complex:
        assert M.isposinf(x, out=out) is out


def test_angle_and_sgn_complex():
    z = M.tensor([0j, 3 + 4j, -1 - 1j, 2j, complex(math.inf, 1), complex(math.nan, 1)])
    for name in ("angle", "sgn"):
        compare(lambda: getattr(M, name)(z), lambda: getattr(torch, name)(th(z)))
    compare(lambda: z.clone().sgn_(), lambda: th(z).sgn_())


def test_sinc_complex_and_zero():
    z = M.tensor([0j, 0.5 + 0.5j, 1 + 0j], dtype=M.complex128)
    compare(lambda: M.sinc(z), lambda: torch.sinc(th(z)))


def test_xlogy_scalar_forms():
    y = M.tensor([0.0, 1.0, 2.0, math.nan, -1.0])
    x = M.tensor([0.0, 0.0, 2.0, 0.0, 0.0])
    for a, b in ((x, y), (0.0, y), (2, y), (x, 0.0), (x, 3)):
        for name in ("xlogy", "special_xlogy", "special_xlog1py"):
            f = fn(name)
            compare(lambda: f(M)(a, b), lambda: f(torch)(th(a), th(b)))
    compare(lambda: x.clone().xlogy_(y), lambda: th(x).xlogy_(th(y)))
    compare(lambda: M.xlogy(2.0, 3.0), lambda: torch.xlogy(2.0, 3.0))


@pytest.mark.parametrize("dtype", ["int64", "float16", "float32", "float64"])
def test_orthogonal_polynomials(dtype):
    x = M.tensor([0.3, 0.7, 1.5, -1.0, 1.0, 0.0, -0.99, 2.0, -0.5, 0.5]).to(getattr(M, dtype))
    n = M.tensor([3, 12, 4, 5, 7, 9, 20, 0, -1, 2.5])
    # (the recurrences round in another order than PyTorch's compiled loops: a few ulps
    # per step)
    loose = dict(rtol=1e-4, atol=1e-5)
    for name in S.POLYNOMIALS:
        f = fn("special_" + name)
        for a, b in ((x, n), (x, 3), (0.5, n), (x.reshape(2, 5), n[:5]), (x[:0], n[:1])):
            got = compare(lambda: f(M)(a, b), lambda: f(torch)(th(a), th(b)), **loose)
            if got is not None and isinstance(a, M.Tensor) and isinstance(b, M.Tensor):
                check_meta([a, b], got, f(M))


def test_polynomials_and_bessel_functions_have_no_gradient():
    x = M.tensor([0.5, 1.5], requires_grad=True)
    for name in S.POLYNOMIALS:
        assert not fn("special_" + name)(M)(x, 2).requires_grad
    for name in S.BESSEL:
        assert not fn("special_" + name)(M)(x).requires_grad


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int64"])
def test_igamma(dtype):
    a = noncontig((3, 4), dtype, low=0.5, high=4)
    x = make((4,), dtype, low=0.0, high=5, seed=3)
    for mf, tf in ((M.igamma, torch.igamma), (M.igammac, torch.igammac),
                   (M.special.gammainc, torch.special.gammainc),
                   (M.special.gammaincc, torch.special.gammaincc)):
        got = compare(lambda: mf(a, x), lambda: tf(th(a), th(x)), **tol(dtype))
        if got is not None:
            check_meta([a, x], got, mf)
    compare(lambda: a.clone().igamma_(x), lambda: th(a).igamma_(th(x)), **tol(dtype))
    compare(lambda: a.igammac(x), lambda: th(a).igammac(th(x)), **tol(dtype))


SPECIAL_NAMES = ("erf", "erfc", "erfcx", "erfinv", "expit", "logit", "xlogy", "xlog1py",
                 "gammaln", "digamma", "psi", "polygamma", "multigammaln", "i0", "i0e", "i1",
                 "i1e", "sinc", "entr", "ndtr", "ndtri", "log_ndtr", "logsumexp", "softmax",
                 "log_softmax", "expm1", "exp2", "log1p", "round", "zeta",
                 *S.BESSEL, "gammainc", "gammaincc")


def test_every_torch_special_function_exists():
    names = [n for n in dir(torch.special) if not n.startswith("_") and
             callable(getattr(torch.special, n)) and n != "Tensor"]
    assert [n for n in names if not hasattr(M.special, n)] == []


@pytest.mark.parametrize("name", SPECIAL_NAMES)
def test_torch_special_namespace(name):
    x = noncontig((3, 4), "float32", low=0.1, high=0.9)
    y = make((4,), "float32", low=1.5, high=3, seed=7)
    args = {"xlogy": (x, y), "xlog1py": (x, y), "zeta": (y + 1, x), "polygamma": (2, x),
            "gammainc": (x, y), "gammaincc": (x, y),
            "multigammaln": (x + 2, 3), "logsumexp": (x, 1), "softmax": (x, 0),
            "log_softmax": (x, 1)}.get(name, (x,))
    targs = tuple(th(a) for a in args)
    got = compare(lambda: getattr(M.special, name)(*args),
                  lambda: getattr(torch.special, name)(*targs), **tol("float32"))
    assert got is not None
    if name not in ("logsumexp", "softmax", "log_softmax", "multigammaln", "polygamma"):
        out = M.empty(0)
        assert getattr(M.special, name)(*args, out=out) is out
        assert_same(out, to_torch(got), **tol("float32"))
    for i in range(2):  # integer input
        xi = make((5,), "int64", low=1, high=5)
        if name in ("round", "softmax", "log_softmax", "logsumexp"):
            break
        a = tuple(xi if isinstance(t, M.Tensor) and j == i else t for j, t in enumerate(args))
        compare(lambda: getattr(M.special, name)(*a),
                lambda: getattr(torch.special, name)(*(th(t) for t in a)), **tol("float32"))


def test_special_round_decimals_and_ints():
    x = make((3, 4), "float32")
    compare(lambda: M.special.round(x, decimals=2), lambda: torch.special.round(th(x), decimals=2))
    i = make((3,), "int64")
    compare(lambda: M.special.round(i), lambda: torch.special.round(th(i)))


def test_special_log_softmax_dtype():
    x = make((3, 4), "float32")
    compare(lambda: M.special.log_softmax(x, 1, dtype=M.float64),
            lambda: torch.special.log_softmax(th(x), 1, dtype=torch.float64))


@pytest.mark.parametrize("name", ["asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh",
                                  "arcsin", "arccos", "arctan", "fix"])
def test_aliases_and_in_place(name):
    x = noncontig((3, 4), "float32", low=-0.9, high=0.9) + (2 if "cosh" in name else 0)
    compare(lambda: getattr(M, name)(x), lambda: getattr(torch, name)(th(x)), **tol("float32"))
    compare(lambda: getattr(x.clone(), name + "_")(),
            lambda: getattr(th(x), name + "_")(), **tol("float32"))
    out = M.empty(0)
    assert getattr(M, name)(x, out=out) is out


def test_scipy_is_a_dependency_of_the_cpu_backend():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[2] / "mindtorch-cpu" /
            "pyproject.toml").read_text()
    assert "scipy" in text
    assert np.isfinite(M.special.i0e(M.tensor([1.0])).item())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("edtype", ["int8", "int32", "int64"])
def test_ldexp_with_integer_exponents_is_c_ldexp(dtype, edtype):
    # exact: no overflow of 2 ** e before the product, one rounding into subnormals,
    # exponents read as a C int (int64 wraps)
    x = mindtorch.tensor([1.0, 0.0, 2.0, -0.0, math.inf, -math.inf, math.nan, 1.5, 0.75, 3.0])
    e = mindtorch.tensor([2000, 5000, -2000, 7, -3000, 3000, 1, -149, 1024, 2 ** 31 + 3])
    m, me = x.to(getattr(mindtorch, dtype)), e.to(getattr(mindtorch, edtype))
    assert_same(mindtorch.ldexp(m, me), torch.ldexp(to_torch(m), to_torch(me)))
    for k in (-1074, -1075, -25, -24, -133):
        e1 = mindtorch.tensor([k], dtype=mindtorch.int64)
        assert_same(mindtorch.ldexp(m, e1), torch.ldexp(to_torch(m), to_torch(e1)))


@pytest.mark.parametrize("dtypes", [("int64", "int64"), ("float32", "float32"),
                                    ("complex64", "int64"), ("float16", "float32")])
def test_ldexp_other_operands_multiply_by_a_power_of_two(dtypes):
    x = mindtorch.tensor([0.0, 1.0, 2.0]).to(getattr(mindtorch, dtypes[0]))
    e = mindtorch.tensor([5000.0, 200.0, -3.0]).to(getattr(mindtorch, dtypes[1]))
    assert_same(mindtorch.ldexp(x, e), torch.ldexp(to_torch(x), to_torch(e)))


@pytest.mark.parametrize("p", [0, 1, 2])
def test_mvlgamma_refuses_bool_before_p(p):
    from reference import same_error
    same_error(lambda: mindtorch.mvlgamma(mindtorch.ones(3, dtype=mindtorch.bool), p),
               lambda: torch.mvlgamma(torch.ones(3, dtype=torch.bool), p))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32"])
def test_trigamma_is_pytorchs_series(dtype):
    # at the poles sin(pi x) does not round to 0: PyTorch gives large finite values
    x = mindtorch.tensor([0.0, -1.0, -2.0, -5.0, -0.0, 0.3, -2.5, 3.0, 1e30, -1e30, 7e4,
                          math.nan, math.inf, -math.inf]).to(getattr(mindtorch, dtype))
    assert_same(mindtorch.polygamma(1, x), torch.polygamma(1, to_torch(x)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("eps", [None, 0.1])
def test_logit_of_16_bit_floats_rounds_every_step(dtype, eps):
    x = mindtorch.linspace(0.0001, 0.9999, 3001).to(getattr(mindtorch, dtype))
    assert_same(mindtorch.logit(x, eps), torch.logit(to_torch(x), eps), rtol=0, atol=0)


@pytest.mark.parametrize("name", ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0",
                                  "bessel_y1"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bessel_and_airy_follow_pytorchs_expansions(name, dtype):
    # large arguments: PyTorch's expansions in the input's dtype (float32 rounding of
    # x - pi/4 included); airy_ai: NaN at +-inf, 0 beyond 103.892
    rng = np.random.default_rng(3)
    values = np.concatenate([
        [math.nan, math.inf, -math.inf, 0.0, -0.0, 1e30, -1e30, 1e-30, 65504.0, 70000.0, 0.5,
         -2.5, 2.09, -2.09, 5.0, -5.0, 103.9], rng.standard_normal(200) * 3,
        rng.standard_normal(200) * 1e4])
    m = mindtorch.tensor(values).to(getattr(mindtorch, dtype))
    assert_same(getattr(mindtorch.special, name)(m), getattr(torch.special, name)(to_torch(m)))


@pytest.mark.parametrize("dtype", ["float32", "float16", "complex64", "int64"])
def test_ldexp_bool_exponent_refused_only_on_the_c_ldexp_path(dtype):
    from reference import same_error

    def call(L):
        return L.ldexp(L.ones(2, dtype=getattr(L, dtype)), L.ones(2, dtype=L.bool))
    same_error(lambda: call(mindtorch), lambda: call(torch))
    if dtype in ("complex64", "int64"):
        assert_same(call(mindtorch), call(torch))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_legendre_polynomial_p_special_values(dtype):
    # PyTorch's early returns (n < 0, non-finite n, |x| == 1) and its recurrence; a NaN x
    # with n >= 2 gives PyTorch's uninitialized result (not compared): mindtorch gives NaN
    xs = [-math.inf, -1e30, -2.5, -1.0, -0.0, 0.0, 1e-30, 0.5, 1.0, 65504.0, 70000.0, math.inf]
    ns = [-1.0, 0.0, 1.0, 2.0, 3.0, 6.0, 2.5, math.inf, -math.inf, math.nan, 1e30]
    x = mindtorch.tensor(xs, dtype=getattr(mindtorch, dtype)).reshape(-1, 1)
    n = mindtorch.tensor(ns, dtype=getattr(mindtorch, dtype))
    tx, tn = to_torch(x), to_torch(n)
    assert_same(mindtorch.special.legendre_polynomial_p(x, n),
                torch.special.legendre_polynomial_p(tx, tn))
    nan = mindtorch.tensor([math.nan], dtype=getattr(mindtorch, dtype))
    assert mindtorch.special.legendre_polynomial_p(nan, 3).isnan().all()
