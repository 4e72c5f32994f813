"""Regression tests for QA round 18c (the less common dtypes), each against torch."""
import math

import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")

LIMITED = ["uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
           "float8_e5m2fnuz", "float8_e8m0fnu"]
FLOAT8 = [d for d in LIMITED if d.startswith("float8")]


def _values(L, t):
    """What is compared of a result: dtype and flat float64 values."""
    if isinstance(t, L.Tensor):  # (NaN as a string: equal to itself)
        return str(t.dtype), ["nan" if math.isnan(v) else v for v in t.double().reshape(-1).tolist()]
    if isinstance(t, tuple):
        return tuple(_values(L, x) for x in t)
    return str(t) if isinstance(t, L.dtype) else t


# PyTorch's cpu kernels compute few ops on uint16/32/64 and float8: the others raise
# '"<kernel>" not implemented for ...' (and mindtorch with them, not computing)
LIMITED_OPS = [
    "x + x", "x + 1", "x - x", "1 - x", "x * x", "x * 2", "x * x[0]", "x / x", "x / 2",
    "x // 2", "x // x", "x % 3", "x.fmod(3)", "x ** 2", "x ** 1", "x ** x",
    "2 ** x", "x.square()", "-x", "x.neg()", "x.abs()", "x.sign()", "x.sgn()", "x.exp()",
    "x.log()", "x.sqrt()", "x.sin().dtype", "x.tanh()", "x.sigmoid()", "x.floor()", "x.round()",
    "x.trunc()", "x.reciprocal()", "x.rsqrt()", "x.isinf()", "x.isfinite()", "x.isnan()",
    "x.signbit()", "x.logical_not()", "~x", "x & x", "x | 1", "x ^ x", "x << 1", "x >> 1",
    "x < x", "x <= 1", "x > 1", "x >= x", "x == x", "x != 1", "x.maximum(x)",
    "x.minimum(x)", "x.fmax(x)", "x.fmin(x)", "x.atan2(x).dtype", "x.hypot(x)", "x.copysign(x)",
    "x.logical_and(x)", "x.gcd(x)", "x.relu()", "x.clamp(0, 5)", "x.clamp(min=0)",
    "x.clamp(max=1)", "x.clamp(x, x)", "x.clamp(min=x)", "x.max()", "x.min()", "x.amax()",
    "x.amin()", "x.argmax()", "x.argmin()", "x.max(0)", "x.min(0)", "x.cumsum(0)",
    "x.cumsum(0, dtype=L.float32)", "x.cumprod(0)", "x.cummax(0)", "x.cummin(0)", "x.prod()",
    "x.prod(dtype=L.float32)", "x.mean()", "x.norm()", "x.flip(0)", "x.sort()",
    "x.argsort()", "x.topk(1)", "x.kthvalue(1)", "x.median()", "x.mode()", "x.unique()",
    "x.nonzero()", "x.count_nonzero()", "x.count_nonzero(0)", "x.count_nonzero((0,))", "x.softmax(0)", "x.softmax(0, dtype=L.float32).dtype", "x.logsumexp(0)",
    "x.masked_fill(x == x, 1)", "x.masked_select(x == x)", "x.index_select(0, L.tensor([0]))",
    "x.gather(0, L.tensor([1]))", "x.put(L.tensor([0]), x[:1])", "x.unsqueeze(0).triu()", "x.dot(x)", "x.dot(L.ones(2))", "x.nan_to_num()",
    "x.lerp(x, 0.5)", "x.where(x == x, x)", "L.cat([x, x])", "x.clone()", "x.float()",
    "x[1:]", "x.masked_fill(x == x, 2 ** 127)",
]


@pytest.mark.parametrize("dtype", LIMITED)
@pytest.mark.parametrize("expr", LIMITED_OPS)
def test_limited_dtypes_refuse_as_pytorch(expr, dtype):
    def program(L):
        x = L.tensor([1, 2]).to(getattr(L, dtype))
        return _values(L, eval(expr, {"L": L, "x": x}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", FLOAT8)
@pytest.mark.parametrize("expr", [
    "x.std()", "x.var(0)", "x.reshape(1, 2).var(0)", "x.reshape(1, 2).std(1)",
    "x[:0].var()", "x.lerp(L.ones(2), 0.5)", "x.lerp(x, x)", "x.lerp(x, 0.5)",
    "x.histc()", "7 // x", "x // 7"])
def test_float8_refusals_named_as_pytorch(expr, dtype):
    def program(L):
        x = L.tensor([1.0, 2.0]).to(getattr(L, dtype))
        return _values(L, eval(expr, {"L": L, "x": x}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", LIMITED)
@pytest.mark.parametrize("expr", [
    "L.arange(5, dtype=d)", "L.linspace(0, 1, 3, dtype=d)", "L.eye(2, dtype=d)",
    "L.rand(2, dtype=d).shape", "L.randn(2, dtype=d).shape", "L.zeros(2, dtype=d)",
    "L.full((2,), 3, dtype=d)", "L.empty(2, dtype=d).uniform_().shape",
    "L.empty(2, dtype=d).normal_().shape", "L.empty(2, dtype=d).exponential_().shape"])
def test_limited_dtypes_factories(expr, dtype):
    def program(L):
        return _values(L, eval(expr, {"L": L, "d": getattr(L, dtype)}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", FLOAT8)
@pytest.mark.parametrize("value", [240, 241, 449, 61440, 1e6, float("inf"), float("nan"), 0.0, -1.0, 1e-39,
                                   -1000, 1j, 1 + 0j, 1e39, -1, 0])
@pytest.mark.parametrize("how", ["full2", "full1", "setitem_slice", "setitem_one"])
def test_float8_fills_check_overflow_as_c10(dtype, value, how):
    # c10 checks the range of a Scalar filling more than one float8 element; one element,
    # and indexing assignments (a double tensor copied in), are converted unchecked
    def program(L):
        d = getattr(L, dtype)
        if how.startswith("full"):
            r = L.full((2,) if how == "full2" else (1,), value, dtype=d)
        else:
            r = L.zeros(3, dtype=d)
            r[slice(0, 2) if how == "setitem_slice" else 0] = value
        return _values(L, r)
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", FLOAT8)
@pytest.mark.parametrize("expr", [
    "x.random_()", "x.random_(5)", "x.random_(0, 5)", "x.random_(3, None)", "x.random_(5, 2)",
    "L.randint(0, 5, (2,), dtype=x.dtype)", "L.zeros(0, dtype=x.dtype).random_()",
    "L.logspace(0, 2, 3, dtype=x.dtype)"])
def test_float8_random_and_logspace_refusals(expr, dtype):
    def program(L):
        x = L.zeros(2, dtype=getattr(L, dtype))
        return _values(L, eval(expr, {"L": L, "x": x}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", FLOAT8)
@pytest.mark.parametrize("expr", [
    "x == 1.1", "x != 2.5", "1000 == x", "x == -1", "x * x", "L.where(x == x, x, 1.3)",
    "x == x", "x.abs()", "x + L.tensor(3).to(L.float8_e8m0fnu)", "x * L.tensor(2.0)",
    "x.where(L.tensor([True, False] * 3), 0)",
    "x.where(L.tensor([True, False] * 3), 1000)", "x.where(L.tensor([True, False] * 3), -1.0)"])
def test_float8_arithmetic_rounds_as_c10(expr, dtype):
    # numbers convert to float8 by c10's rules (e4m3fn saturates, e8m0fnu takes |x|), and
    # the math is float32 math rounded once by them
    def program(L):
        x = L.tensor([1.125, 2, 448, 0.001, float("nan"), float("inf")]).to(getattr(L, dtype))
        return _values(L, eval(expr, {"L": L, "x": x}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "uint16"] + FLOAT8)
@pytest.mark.parametrize("expr", [
    "d.to_complex()", "L.result_type(L.ones(2, dtype=d), 1j)",
    "L.result_type(L.ones(2, dtype=d), L.ones((), dtype=L.complex64))",
    "L.promote_types(d, L.complex64)", "L.ones(2, dtype=d) == 1j",
    "L.linalg.eigvals(L.eye(2, dtype=d))"])
def test_to_complex_of_types_without_one(expr, dtype):
    # PyTorch: "Unknown Complex ScalarType for <type>" where a complex counterpart is needed
    def program(L):
        return _values(L, eval(expr, {"L": L, "d": getattr(L, dtype)}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtype", FLOAT8)
@pytest.mark.parametrize("values", [
    "list(range(2000))", "list(range(6))", "[float('nan'), float('inf'), 1e-5, 1e5]", "[0.]",
    "[1e-5, 3.]", "[[0., 2.], [4., 1e10]]", "3.", "[0.5, 0.25]", "[2 ** -120, 1.]"])
def test_float8_printing(values, dtype):
    # float8_e8m0fnu: its smallest value (what 0 converts to) prints as itself but is not
    # measured, and its NaNs are (PyTorch's isfinite / ne(0) on it)
    same_outcome(lambda L: repr(L.tensor(eval(values)).to(getattr(L, dtype))))


@pytest.mark.parametrize("dtype", LIMITED)
@pytest.mark.parametrize("expr", [
    "x.scatter(1, L.tensor([[0], [1]]), 2)", "x.scatter_(1, L.tensor([[0], [1]]), x[:, :1])",
    "x.index_copy(1, L.tensor([0]), x[:, :1])", "L.equal(x, x)", "L.equal(x, L.ones(2, 3))",
    "x.unique(dim=0)",
    "x.index_select(1, L.tensor([0]))", "x[0].index_select(0, L.tensor([0]))",
    "L.nn.functional.embedding(L.tensor([1]), x)", "x.fill_diagonal_(1)",
    "L.nn.functional.pad(x, (1, 1))", "L.nn.functional.pad(x, (1, 1), value=0.0)"])
def test_limited_dtypes_indexing_ops(expr, dtype):
    def program(L):
        x = L.tensor([[1, 2, 3], [4, 5, 6]]).to(getattr(L, dtype))
        return _values(L, eval(expr, {"L": L, "x": x}))
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("expr", [
    "L.ones(2, dtype=L.float8_e5m2, device='meta').random_(0, 5).shape",
    "L.logspace(0, 1, 3, dtype=L.uint16, device='meta').shape",
    "(L.ones(2, dtype=L.uint16, device='meta') + 1).dtype",
    "L.ones(2, dtype=L.float8_e5m2, device='meta').flip(0).shape",
    "L.arange(3, dtype=L.uint16, device='meta').shape"])
def test_meta_computes_the_limited_dtypes(expr):
    # (PyTorch's meta kernels take every dtype: the refusals are its cpu kernels')
    same_outcome(lambda L: _values(L, eval(expr, {"L": L})), quiet=True)
