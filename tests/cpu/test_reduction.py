"""Reductions and cumsum against PyTorch: dtypes, dims (negative, tuples, keepdim),
non-contiguous and expanded inputs, 0-dim and empty tensors, error classes, and the
meta device's shapes/dtypes."""
import math

import numpy as np
import pytest

import mindtorch
from reference import DTYPES, assert_same, to_torch, torch

torch.set_num_threads(1)  # torch's thread pool makes tiny ops ~1000x slower on a busy box
pytestmark = pytest.mark.filterwarnings("ignore:.*degrees of freedom:UserWarning")
RNG = np.random.default_rng(0)
SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]


def make(shape, dtype, low=-3, high=4):
    """A mindtorch tensor of shape/dtype with small random values (no prod overflow)."""
    dt = getattr(mindtorch, dtype)
    if dt is mindtorch.bool:
        data = RNG.random(shape) > 0.4
    elif dt.kind in "ui":
        data = RNG.integers(0 if dt.kind == "u" else low, high, shape)
    else:
        data = RNG.uniform(-2, 2, shape)
        if dt.is_complex:
            data = data + 1j * RNG.uniform(-2, 2, shape)
    return mindtorch.tensor(np.asarray(data).astype(dt.np))


def layouts(shape, dtype):
    """The same values as a contiguous, a transposed and a strided (as_strided) tensor."""
    yield make(shape, dtype)
    if len(shape) >= 2 and all(shape):
        yield make(shape[::-1], dtype).transpose(0, -1) if len(shape) == 2 else \
            make(shape[:-2] + shape[-1:] + shape[-2:-1], dtype).transpose(-1, -2)
        base = make(shape[:-1] + (shape[-1] * 2,), dtype)  # every other element, at an offset
        yield base.as_strided(shape, base.stride()[:-1] + (2,), 1)


def _base_error(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) gives the same result in mindtorch and torch, or both raise
    errors of the same builtin class."""
    ths = [to_torch(m) for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - any torch error must be matched by class
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *mts)
        return None
    got = fn(mindtorch, *mts)
    if isinstance(expected, tuple):
        assert type(got).__name__ == type(expected).__name__
        assert got._fields == ("values", "indices")
    assert_same(got, expected, rtol=rtol, atol=atol)
    return got


def check_meta(fn, *mts):
    """On meta tensors fn gives the CPU result's shapes/dtypes, or the same error."""
    try:
        cpu = fn(mindtorch, *mts)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *[m.to("meta") for m in mts])
        return
    meta = fn(mindtorch, *[m.to("meta") for m in mts])
    cpu, meta = (cpu, meta) if isinstance(cpu, tuple) else ((cpu,), (meta,))
    assert len(cpu) == len(meta)
    for c, m in zip(cpu, meta):
        assert m.device.type == "meta"
        assert (tuple(m.shape), m.dtype) == (tuple(c.shape), c.dtype)


def dims_for(ndim):
    """dim arguments worth trying on a tensor of ndim dims (incl. negative and tuples)."""
    out = [None, 0, -1]
    if ndim >= 2:
        out += [1, (0, 1), (-1, 0)]
    if ndim >= 3:
        out += [(0, 2), (0, 1, 2)]
    return out


# tolerance for 16-bit floats: torch and numpy sum in different orders
TOL = {"float16": dict(rtol=2e-3, atol=2e-3), "bfloat16": dict(rtol=2e-2, atol=2e-2)}

MULTI_DIM = {  # reductions taking int[]? dim
    "sum": lambda L, x, d, k: L.sum(x, d, k),
    "mean": lambda L, x, d, k: L.mean(x, d, k),
    "amax": lambda L, x, d, k: L.amax(x, () if d is None else d, k),
    "amin": lambda L, x, d, k: x.amin(() if d is None else d, keepdim=k),
    "all": lambda L, x, d, k: L.all(x, d, k) if d is not None else L.all(x),
    "any": lambda L, x, d, k: x.any(d, keepdim=k) if d is not None else x.any(),
    "var": lambda L, x, d, k: L.var(x, d, keepdim=k),
    "std": lambda L, x, d, k: x.std(d, keepdim=k, correction=0),
    "logsumexp": lambda L, x, d, k: L.logsumexp(x, () if d is None else d, k),
    "norm": lambda L, x, d, k: L.norm(x, 2, d, k),
}
ONE_DIM = {  # reductions taking int? dim
    "prod": lambda L, x, d, k: L.prod(x, d, k) if d is not None else L.prod(x),
    "argmax": lambda L, x, d, k: L.argmax(x, d, k),
    "argmin": lambda L, x, d, k: x.argmin(dim=d, keepdim=k),
    "max": lambda L, x, d, k: L.max(x, d, k) if d is not None else L.max(x),
    "min": lambda L, x, d, k: x.min(d, keepdim=k) if d is not None else x.min(),
    "cumsum": lambda L, x, d, k: L.cumsum(x, 0 if d is None else d),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(MULTI_DIM))
def test_multi_dim_reductions(name, dtype):
    fn = MULTI_DIM[name]
    tol = TOL.get(dtype, {})
    for shape in SHAPES:
        for n, x in enumerate(layouts(shape, dtype)):
            for d in dims_for(len(shape)):
                for keepdim in (False, True):
                    # torch raises for logsumexp(t, dim=()) without keepdim (its output
                    # resize bug); mindtorch reduces every dim, like sum
                    if name == "logsumexp" and d is None and shape and not keepdim:
                        continue
                    check(lambda L, t: fn(L, t, d, keepdim), x, **tol)
                    if n == 0:  # meta results do not depend on the layout
                        check_meta(lambda L, t: fn(L, t, d, keepdim), x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(ONE_DIM))
def test_single_dim_reductions(name, dtype):
    fn = ONE_DIM[name]
    tol = TOL.get(dtype, {})
    for shape in SHAPES:
        for n, x in enumerate(layouts(shape, dtype)):
            for d in (None, 0, -1) + ((1, len(shape) - 1) if len(shape) > 1 else ()):
                for keepdim in (False, True):
                    check(lambda L, t: fn(L, t, d, keepdim), x, **tol)
                    if n == 0:
                        check_meta(lambda L, t: fn(L, t, d, keepdim), x)


def test_expanded_input():
    x = mindtorch.tensor([[1.0, 2.0, 3.0]]).expand(4, 3)
    for fn in (lambda L, t: L.sum(t, 0), lambda L, t: L.cumsum(t, 0),
               lambda L, t: L.max(t, 0), lambda L, t: L.var(t, 1)):
        check(fn, x)


@pytest.mark.parametrize("fn", [
    lambda L, x: L.sum(x, dtype=L.float64),
    lambda L, x: L.sum(x, 1, dtype=L.float16),
    lambda L, x: L.sum(x, dtype=L.int32),
    lambda L, x: L.sum(x, dtype=L.bool),
    lambda L, x: L.mean(x, dtype=L.float64),
    lambda L, x: L.mean(x, 0, dtype=L.int64),
    lambda L, x: L.prod(x, 1, dtype=L.float64),
    lambda L, x: L.cumsum(x, 1, dtype=L.int32),
    lambda L, x: L.cumsum(x, -1, dtype=L.float64),
    lambda L, x: L.norm(x, dtype=L.float64),
    lambda L, x: L.norm(x, 2.5, dtype=L.float16),
])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float32"])
def test_dtype_argument(fn, dtype):
    x = make((3, 4), dtype)
    check(fn, x)
    check_meta(fn, x)


def test_integer_results_widen():
    for dtype in ("bool", "uint8", "int8", "int16", "int32"):
        x = make((3, 4), dtype)
        assert x.sum().dtype is mindtorch.int64
        assert x.prod(0).dtype is mindtorch.int64
        assert x.cumsum(1).dtype is mindtorch.int64
    assert make((3,), "uint8").all().dtype is mindtorch.uint8
    assert make((3,), "int8").any().dtype is mindtorch.bool


@pytest.mark.parametrize("fn", [
    lambda L, x: L.sum(x),
    lambda L, x: L.mean(x),
    lambda L, x: L.mean(x, 1),
    lambda L, x: L.prod(x),
    lambda L, x: L.max(x),
    lambda L, x: L.max(x, 0),
    lambda L, x: L.max(x, 1),
    lambda L, x: L.min(x, 1, True),
    lambda L, x: L.amax(x),
    lambda L, x: L.amax(x, 0),
    lambda L, x: L.amin(x, 1),
    lambda L, x: L.argmax(x),
    lambda L, x: L.argmin(x, 0),
    lambda L, x: L.argmax(x, 1),
    lambda L, x: L.all(x),
    lambda L, x: L.any(x),
    lambda L, x: L.var(x),
    lambda L, x: L.std(x, 1),
    lambda L, x: L.norm(x),
    lambda L, x: L.norm(x, float("inf")),
    lambda L, x: L.norm(x, float("inf"), 0),
    lambda L, x: L.norm(x, float("inf"), 1),
    lambda L, x: L.logsumexp(x, 1),
    lambda L, x: L.cumsum(x, 1),
])
def test_empty(fn):
    x = mindtorch.ones(2, 0)
    check(fn, x)
    check_meta(fn, x)


def test_empty_values():
    e = mindtorch.ones(0)
    assert e.sum().item() == 0
    assert math.isnan(e.mean().item())
    assert e.prod().item() == 1
    assert e.all().item() is True and e.any().item() is False
    with pytest.raises(RuntimeError):
        e.max()
    with pytest.raises(IndexError):
        e.argmax()


@pytest.mark.parametrize("fn", [
    lambda L, x: L.sum(x, 2),
    lambda L, x: L.sum(x, -3),
    lambda L, x: L.sum(x, (0, 0)),
    lambda L, x: L.sum(x, (1, -1)),
    lambda L, x: L.mean(x, 5, True),
    lambda L, x: L.prod(x, 2),
    lambda L, x: L.max(x, 2),
    lambda L, x: L.min(x, -3),
    lambda L, x: L.amax(x, (0, 2)),
    lambda L, x: L.argmax(x, 2),
    lambda L, x: L.all(x, 2),
    lambda L, x: L.any(x, (0, 0)),
    lambda L, x: L.var(x, 3),
    lambda L, x: L.std(x, (0, -2)),
    lambda L, x: L.norm(x, 2, 4),
    lambda L, x: L.logsumexp(x, 2),
    lambda L, x: L.cumsum(x, 2),
    lambda L, x: L.cumsum(x, -3),
])
def test_bad_dims(fn):
    x = make((2, 3), "float32")
    check(fn, x)
    check_meta(fn, x)


@pytest.mark.parametrize("fn", [
    lambda L, x: L.sum(x, 1.5),
    lambda L, x: L.sum(x, "a"),
    lambda L, x: L.max(x, 1.5),
    lambda L, x: L.max(x, (0, 1)),
    lambda L, x: L.argmax(x, (0,)),
    lambda L, x: L.prod(x, (0, 1)),
    lambda L, x: L.cumsum(x, 0.5),
    lambda L, x: L.sum(x, dtype="float32"),
    lambda L, x: L.var(x, 1, 1),
    lambda L, x: L.norm(x, "nuc2"),
    lambda L, x: L.norm(x, "fro", (0, 1, 1)),
])
def test_bad_arguments(fn):
    check(fn, make((2, 3), "float32"))


@pytest.mark.parametrize("fn", [
    lambda L, x: L.mean(x), lambda L, x: L.var(x), lambda L, x: L.std(x, 0),
    lambda L, x: L.norm(x), lambda L, x: L.argmax(x), lambda L, x: L.max(x),
])
@pytest.mark.parametrize("dtype", ["bool", "int64", "complex64"])
def test_unsupported_dtypes(fn, dtype):
    check(fn, make((2, 3), dtype))


def test_zero_dim():
    x = mindtorch.tensor(2.5)
    for fn in (lambda L, t: L.sum(t, 0), lambda L, t: L.sum(t, -1, True),
               lambda L, t: L.sum(t, (0,)), lambda L, t: L.max(t, 0),
               lambda L, t: L.max(t, -1, True), lambda L, t: L.argmax(t, 0, True),
               lambda L, t: L.cumsum(t, 0), lambda L, t: L.cumsum(t, -1),
               lambda L, t: L.var(t, 0, correction=0), lambda L, t: L.logsumexp(t, 0),
               lambda L, t: L.prod(t, 0, True), lambda L, t: L.norm(t, 2, 0),
               lambda L, t: L.sum(t, 1), lambda L, t: L.max(t, 1)):
        check(fn, x)
        check_meta(fn, x)


def test_max_min_forms():
    a, b = make((3, 4), "float32"), make((3, 4), "float32")
    check(lambda L, x, y: L.max(x, y), a, b)
    check(lambda L, x, y: L.min(x, y), a, b)
    check(lambda L, x, y: x.max(y), a, b)
    check(lambda L, x, y: x.min(other=y), a, b)
    check(lambda L, x: L.max(x, dim=1, keepdim=True), a)
    check(lambda L, x: x.min(0), a)
    r = mindtorch.max(a, 1)
    assert isinstance(r, mindtorch.return_types.max)
    values, indices = r
    assert r.values is values and r.indices is indices
    assert isinstance(mindtorch.min(a, 0), mindtorch.return_types.min)
    check(lambda L, x: L.max(x, keepdim=True), a)  # torch: TypeError


def test_max_out():
    a = make((3, 4), "float32")
    values, indices = mindtorch.empty(0), mindtorch.empty(0, dtype=mindtorch.int64)
    r = mindtorch.max(a, 1, out=(values, indices))
    assert r.values is values and r.indices is indices
    expected = torch.max(to_torch(a), 1)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)
    out = mindtorch.empty(())
    assert mindtorch.sum(a, None, out=out) is out  # sum(a, out=) alone is a TypeError
    assert_same(out, to_torch(a).sum())
    with pytest.raises(TypeError):
        mindtorch.sum(a, out=out)


def test_nan_and_ties():
    nan = float("nan")
    x = mindtorch.tensor([[1.0, nan, 3.0, nan], [2.0, 2.0, 1.0, 1.0]])
    for fn in (lambda L, t: L.max(t, 1), lambda L, t: L.min(t, 1), lambda L, t: L.amax(t, 1),
               lambda L, t: L.argmax(t, 1), lambda L, t: L.argmin(t, 1),
               lambda L, t: L.max(t), lambda L, t: L.logsumexp(t, 1),
               lambda L, t: L.all(t, 1), lambda L, t: L.sum(t, 1)):
        check(fn, x)
    inf = float("inf")
    y = mindtorch.tensor([[inf, 1.0], [-inf, -inf], [inf, -inf]])
    check(lambda L, t: L.logsumexp(t, 1), y)


def test_var_std_overloads():
    x = make((3, 4), "float64")
    for fn in (lambda L, t: L.var(t, True), lambda L, t: L.var(t, False),
               lambda L, t: L.std(t, 1, True), lambda L, t: L.std(t, 1, False, True),
               lambda L, t: t.var(1, unbiased=False), lambda L, t: L.var(t, (0, 1), True, True),
               lambda L, t: L.var(t, None, True), lambda L, t: L.std(t, correction=2.5),
               lambda L, t: L.var(t, correction=True), lambda L, t: L.std(t, -1, correction=0),
               lambda L, t: L.var(t, 0, correction=5)):
        check(fn, x)
        check_meta(fn, x)
    with pytest.raises(TypeError):
        mindtorch.var(x, unbiased=False, correction=1)


def test_var_few_degrees_of_freedom_warns():
    with pytest.warns(UserWarning, match="degrees of freedom"):
        r = mindtorch.ones(1).var()
    assert math.isnan(r.item())


def test_norm_orders():
    x = make((3, 4), "float32")
    inf = float("inf")
    for p in ("fro", 0, 1, 2, 3, 0.5, -1, inf, -inf):
        for d in (None, 1, (0, 1)):
            check(lambda L, t: L.norm(t, p, d), x)
            check(lambda L, t: t.norm(p, d, True), x)
            check_meta(lambda L, t: L.norm(t, p, d), x)
    check(lambda L, t: L.norm(t), make((2, 3), "complex64"))
    # 16-bit floats accumulate in float32: 3 * 300^2 overflows float16 but not the result
    check(lambda L, t: L.norm(t), mindtorch.full((3,), 300.0, dtype=mindtorch.float16))


def test_large_float16_sum_rounds_once():
    x = mindtorch.full((3,), 30000.0, dtype=mindtorch.float16)
    check(lambda L, t: L.sum(t), x)
    check(lambda L, t: L.mean(t), x)


def test_results_are_fresh():
    x = make((3, 4), "float32")
    before = x.numpy().copy()
    for r in (x.sum(()), x.amax(()), x.cumsum(0), x.max(0).values, x.prod(0), x.var(0)):
        r.fill_(7)
    np.testing.assert_array_equal(x.numpy(), before)
    s = mindtorch.tensor(3.0)
    c = s.cumsum(0)
    c.fill_(1)
    assert s.item() == 3.0


@pytest.mark.parametrize("name", ["std_mean", "var_mean"])
@pytest.mark.parametrize("data, kw", [
    ([math.inf, 1.0, 2.0], {}), ([1.0, 2.0, math.inf], {}), ([1.0, math.inf, math.inf], {}),
    ([[1.0, math.inf], [2.0, 3.0]], {}), ([[1.0, math.inf], [2.0, 3.0]], {"dim": 0}),
    ([[1.0, math.inf], [2.0, 3.0]], {"dim": 1, "keepdim": True}),
    ([[1.0, 2.0], [3.0, -math.inf]], {"dim": (1, 0)}), (math.inf, {}),
    ([complex(math.inf, 1), complex(1, math.inf), 2], {}),
    ([1 + 1j, complex(1, math.inf)], {}),
])
@pytest.mark.parametrize("transpose", [False, True])
def test_paired_mean_is_welfords(name, data, kw, transpose):
    # PyTorch's Welford mean: an infinity followed by another element gives NaN
    m = mindtorch.tensor(data)
    if transpose and m.ndim == 2:
        m = m.t()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(getattr(mindtorch, name)(m, **kw), getattr(torch, name)(to_torch(m), **kw))


def _complex_grads(fn, *shapes, dtype="complex128"):
    """fn's gradients (of |fn|.sum()) for complex inputs, in mindtorch and PyTorch."""
    rng = np.random.default_rng(7)
    data = [rng.standard_normal(s) + 1j * rng.standard_normal(s) for s in shapes]
    ms = [mindtorch.tensor(d).to(getattr(mindtorch, dtype)).requires_grad_() for d in data]
    ts = [to_torch(m).requires_grad_() for m in ms]
    gm = mindtorch.autograd.grad(fn(mindtorch, *ms).abs().sum(), ms)
    gt = torch.autograd.grad(fn(torch, *ts).abs().sum(), ts)
    assert_same(tuple(gm), gt)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("dim, keepdim", [(1, False), ((0, 1), True), (0, False)])
def test_logsumexp_complex_grad_is_conjugate(dtype, dim, keepdim):
    # PyTorch's logsumexp_backward: grad * (self - result).exp().conj()
    _complex_grads(lambda L, x: L.logsumexp(x, dim, keepdim), (3, 4), dtype=dtype)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128"])
def test_scans_start_from_the_identity(name, dtype):
    # PyTorch's accumulator starts at 0 / 1: 0 + -0.0 is 0.0, and the complex product
    # 1 * infj is nan+infj (not infj), which the rest of the scan carries on
    inf, nan = float("inf"), float("nan")
    values = [[-0.0, 2.0], [complex(0, inf), 2.0], [complex(inf, 0), 1j], [complex(-0.0, -0.0),
              -1.0], [complex(nan, 1), 3.0]]
    if dtype == "float32":
        values = [[v.real if isinstance(v, complex) else v for v in row] for row in values]
    dt = getattr(mindtorch, dtype)
    x = mindtorch.tensor(values, dtype=dt)
    for d, src in ((1, x), (0, x.t())):  # the scanned dim first or last in memory
        got = getattr(mindtorch, name)(src, d)
        want = getattr(torch, name)(to_torch(src), d)
        assert_same(got, want)
        g, w = got.numpy(), want.numpy()
        for part in (np.real, np.imag):  # signed zeros too
            a, b = part(g), part(w)
            keep = ~np.isnan(a)
            assert (np.signbit(a[keep]) == np.signbit(b[keep])).all()


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float16"])
def test_scans_accumulate_as_pytorch(dtype):
    # PyTorch's cpu scans accumulate float32/complex64 in double (float for half types):
    # bit-identical partial results, and a partial sum past float's range comes back
    r = np.random.default_rng(3).standard_normal(600).astype(np.float32)
    x = mindtorch.tensor(r).to(getattr(mindtorch, dtype))
    if dtype == "complex64":
        x = x + 1j * x.flip(0)
    for name, src in (("cumsum", x), ("cumprod", x[:40])):
        got = getattr(mindtorch, name)(src, 0).numpy()
        want = getattr(torch, name)(to_torch(src), 0).numpy()
        assert np.array_equal(got, want, equal_nan=True)
    big = mindtorch.tensor([3e38, 3e38, -3e38, 1.0])
    assert_same(mindtorch.cumsum(big, 0), torch.cumsum(to_torch(big), 0))
