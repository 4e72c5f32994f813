"""Sorting, selection, scans with indices, quantiles, unique, binning, isin and the
NaN-aware / paired reductions against PyTorch: values, index choices on ties, dtypes,
non-contiguous / 0-dim / empty inputs, error classes, and the meta device."""
import math

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch

torch.set_num_threads(1)  # torch's thread pool makes tiny ops ~1000x slower on a busy box
RNG = np.random.default_rng(0)
NAN, INF = math.nan, math.inf
REAL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
        "float64"]
SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]


def make(shape, dtype, ties=False, nan=False):
    """Random values of shape/dtype: distinct floats unless ties (few distinct values);
    nan sprinkles NaNs into float tensors."""
    dt = getattr(mindtorch, dtype)
    n = math.prod(shape)
    if dt is mindtorch.bool:
        data = RNG.random(shape) > 0.5
    elif ties:
        data = RNG.integers(0 if dt.kind == "u" else -3, 4, shape)
    else:  # distinct values, exact in every dtype
        data = RNG.permutation(max(n, 1))[:n].reshape(shape)
        data = data / 4.0 - 2.0 if dt.is_floating_point else \
            data - (0 if dt.kind == "u" else n // 2)
    data = np.asarray(data).astype(np.float64 if dt.is_floating_point else data.dtype)
    if nan and dt.is_floating_point and data.size:
        data[RNG.random(shape) < 0.25] = NAN
    return mindtorch.tensor(data).to(dt)


def layouts(shape, dtype, **kw):
    """The same kind of data contiguous, transposed and strided (every other element)."""
    yield make(shape, dtype, **kw)
    if len(shape) >= 2 and all(shape):
        yield make(shape[::-1], dtype, **kw).transpose(0, -1) if len(shape) == 2 else \
            make(shape[:-2] + shape[-1:] + shape[-2:-1], dtype, **kw).transpose(-1, -2)
        base = make(shape[:-1] + (shape[-1] * 2,), dtype, **kw)
        yield base[..., 1::2]


def _base_error(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) gives the same result in mindtorch and torch (named tuples by
    name and fields), or both raise errors of the same builtin class."""
    ths = [to_torch(m) if isinstance(m, mindtorch.Tensor) else m for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - any torch error must be matched by class
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *mts)
        return None
    got = fn(mindtorch, *mts)
    if isinstance(expected, tuple):
        assert type(got).__name__ == type(expected).__name__
        named = type(expected).__module__ == "torch.return_types"
        assert named == hasattr(got, "_fields")
        for i, field in enumerate(getattr(got, "_fields", ())):
            assert getattr(expected, field) is expected[i]
    assert_same(got, expected, rtol=rtol, atol=atol)
    return got


def check_meta(fn, *mts):
    """On meta tensors fn gives the CPU result's shapes/dtypes, or the same error class."""
    def to_meta(m):
        return m.to("meta") if isinstance(m, mindtorch.Tensor) else m
    try:
        cpu = fn(mindtorch, *mts)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *[to_meta(m) for m in mts])
        return
    meta = fn(mindtorch, *[to_meta(m) for m in mts])
    cpu, meta = (cpu, meta) if isinstance(cpu, tuple) else ((cpu,), (meta,))
    for c, m in zip(cpu, meta, strict=True):
        assert m.device.type == "meta"
        assert (tuple(m.shape), m.dtype) == (tuple(c.shape), c.dtype)


def dims(ndim):
    return [0, -1] + ([1] if ndim >= 2 else [])


# -- sort / argsort / msort / topk ------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL)
def test_sort(dtype):
    for shape in SHAPES:
        for ties in (False, True):
            for x in layouts(shape, dtype, ties=ties, nan=True):
                for d in dims(len(shape)):
                    for desc in (False, True):
                        check(lambda L, t: L.sort(t, dim=d, descending=desc, stable=True), x)
                        check(lambda L, t: t.argsort(dim=d, descending=desc, stable=True), x)
                        check(lambda L, t: t.argsort(d, desc, stable=True), x)
                        if not ties:  # torch's unstable sort may order ties otherwise
                            check(lambda L, t: t.sort(dim=d, descending=desc), x)
                check(lambda L, t: L.msort(t), x)
    check_meta(lambda L, t: L.sort(t, 0), make((3, 4), dtype))


def test_sort_unstable_ties_are_a_valid_order():
    x = make((4, 40), "int64", ties=True)
    _same_selection(x.sort(1), to_torch(x).sort(1), x, 1)


def test_sort_signed_zeros_and_infinities():
    x = mindtorch.tensor([0.0, -0.0, INF, -INF, NAN, 1.0, -0.0])
    for desc in (False, True):
        got = check(lambda L, t: L.sort(t, descending=desc, stable=True), x)
        assert_same(got.values.signbit(), to_torch(x).sort(descending=desc,
                                                            stable=True).values.signbit())


@pytest.mark.parametrize("dtype", [d for d in REAL if d != "bool"])
def test_topk(dtype):
    for shape in [(), (5,), (3, 4), (2, 3, 4), (2, 0)]:
        for x in layouts(shape, dtype):
            for d in dims(len(shape)):
                n = x.shape[d] if x.ndim else 1
                for k in sorted({0, 1, n}):
                    for largest in (True, False):
                        check(lambda L, t: L.topk(t, k, d, largest), x)
                        if k > n:
                            continue
                        got = x.topk(k, d, largest, sorted=False)
                        expected = to_torch(x).topk(k, d, largest, sorted=False)
                        assert_same(got.values.sort(d).values,
                                    expected.values.sort(d).values)


def _same_selection(got, expected, x, dim, as_sets=False):
    """Equal values (as sets: in any order), and indices pointing at them."""
    if as_sets:
        assert_same(got.values.sort(dim).values, expected.values.sort(dim).values)
    else:
        assert_same(got.values, expected.values)
    assert_same(x.gather(dim, got.indices), to_torch(got.values))


def test_topk_ties_and_nan():
    """Equal values: the indices torch's selection algorithm leaves (partial_sort when
    k * 64 <= n, else nth_element then sort), NaN the largest."""
    x = mindtorch.tensor([2.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0])
    check(lambda L, t: t.topk(3), x)
    check(lambda L, t: t.topk(3, largest=False), x)
    y = mindtorch.tensor([1.0, NAN, 3.0, NAN])
    check(lambda L, t: t.topk(2), y)
    check(lambda L, t: t.topk(2, largest=False), y)
    for dtype in ("int32", "float16", "float64"):
        z = make((3, 150), dtype, ties=True, nan=True)
        for k in (1, 2, 3, 40, 149, 150):
            for largest in (True, False):
                check(lambda L, t: t.topk(k, 1, largest), z)
    for dtype in ("int64", "float32", "bfloat16"):  # few of many: the partition path
        w = make((4, 50), dtype, nan=True)
        for k in (1, 5, 12):
            for largest in (True, False):
                check(lambda L, t: t.topk(k, 1, largest), w)
                check(lambda L, t: t.T.topk(k, 0, largest), w)
    # sorted=False: torch's order is unspecified; the same values
    _same_selection(z.topk(40, 1, sorted=False), to_torch(z).topk(40, 1, sorted=False), z, 1,
                    as_sets=True)


# -- kthvalue / median / nanmedian / mode -------------------------------------------------

SELECT_DTYPES = ["uint8", "int16", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("dtype", SELECT_DTYPES)
def test_kthvalue_with_ties(dtype):
    """Ties resolved as torch's quickselect does (the index is not the first occurrence)."""
    for shape in [(), (7,), (3, 9), (2, 5, 4), (0, 3)]:
        for ties in (False, True):
            for x in layouts(shape, dtype, ties=ties, nan=True):
                for d in dims(len(shape)):
                    n = x.shape[d] if x.ndim else 1
                    for k in sorted({1, (n + 1) // 2, n}):
                        for keepdim in (False, True):
                            check(lambda L, t: L.kthvalue(t, k, d, keepdim), x)
    check(lambda L, t: t.kthvalue(2), mindtorch.tensor([2.0, 1, 2, 3, 1, 2, 3, 1]))
    check(lambda L, t: t.kthvalue(3), mindtorch.tensor([1.0, NAN, 3.0, NAN]))


def test_kthvalue_long_rows_with_ties():
    check(lambda L, t: t.kthvalue(40, 1), make((3, 101), "int64", ties=True))


@pytest.mark.parametrize("dtype", SELECT_DTYPES)
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median(name, dtype):
    for shape in [(), (6,), (3, 5), (2, 4, 3), (0, 3)]:
        for ties in (False, True):
            for x in layouts(shape, dtype, ties=ties, nan=True):
                check(lambda L, t: getattr(L, name)(t), x)
                for d in dims(len(shape)):
                    for keepdim in (False, True):
                        check(lambda L, t: getattr(L, name)(t, d, keepdim), x)
                        check(lambda L, t: getattr(t, name)(dim=d, keepdim=keepdim), x)
    nans = mindtorch.tensor([[NAN, 1.0, NAN], [NAN, NAN, NAN], [2.0, NAN, 0.0]])
    check(lambda L, t: getattr(L, name)(t, 1), nans)
    check(lambda L, t: getattr(L, name)(t), nans)
    check(lambda L, t: getattr(L, name)(t), mindtorch.zeros(0))  # NaN, not an error


@pytest.mark.parametrize("dtype", SELECT_DTYPES + ["bool"])
def test_mode(dtype):
    """The smallest most frequent value, at its last index (rows up to 16 elements, where
    torch's sort is stable)."""
    for shape in [(), (7,), (3, 9), (2, 5, 4), (0, 3)]:
        for x in layouts(shape, dtype, ties=True):
            for d in dims(len(shape)):
                for keepdim in (False, True):
                    check(lambda L, t: L.mode(t, d, keepdim), x)
    check(lambda L, t: t.mode(), mindtorch.tensor([1.0, 2.0, 2.0, 1.0, 3.0]))


def test_mode_long_rows_and_nan():
    """Rows over 16 elements (torch's std::sort is no longer an insertion sort) and rows
    with NaN (never equal to itself): the index torch's sort leaves."""
    for dtype in ("int64", "float32", "bfloat16"):
        check(lambda L, t: t.mode(1), make((4, 70), dtype, ties=True, nan=True))
    check(lambda L, t: t.mode(), mindtorch.tensor([NAN, NAN, 1.0]))
    check(lambda L, t: t.mode(0), make((40, 3), "int16", ties=True))


def test_selection_dtypes_and_empty_dims():
    for fn in (lambda L, t: t.kthvalue(1), lambda L, t: t.median(), lambda L, t: t.median(0),
               lambda L, t: t.nanmedian(0), lambda L, t: t.mode(0), lambda L, t: t.topk(1),
               lambda L, t: t.sort()):
        for x in (mindtorch.tensor([True, False]), mindtorch.tensor([1 + 1j, 2]),
                  mindtorch.zeros(0), mindtorch.zeros(2, 0)):
            check(fn, x)
            check_meta(fn, x)
    x = make((2, 3), "float32")
    for fn in (lambda L, t: t.kthvalue(4, 1), lambda L, t: t.kthvalue(0), lambda L, t: t.topk(4),
               lambda L, t: t.topk(-1), lambda L, t: t.kthvalue(1, 2),
               lambda L, t: L.median(t, 0, True), lambda L, t: t.kthvalue(2, 0, True)):
        check(fn, x)
        check_meta(fn, x)


# -- cummax / cummin / logcumsumexp ------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin(name, dtype):
    """Index of the latest equal value; NaN propagates from its own index."""
    for shape in SHAPES:
        for x in layouts(shape, dtype, ties=True, nan=True):
            for d in dims(len(shape)):
                check(lambda L, t: getattr(L, name)(t, d), x)
    check(lambda L, t: getattr(L, name)(t, 0), mindtorch.tensor([NAN, 1.0, NAN, 2.0]))
    check_meta(lambda L, t: getattr(t, name)(1), make((3, 4), dtype))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64",
                                   "complex128", "int64", "bool"])
def test_logcumsumexp(dtype):
    tol = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 2e-2, "atol": 2e-2}}
    for shape in SHAPES:
        for x in layouts(shape, "float64"):
            x = x.to(getattr(mindtorch, dtype)) if dtype not in ("complex64", "complex128") \
                else (x + 0.5j * x.flip(-1) if x.ndim else x * (1 + 0.5j)).to(
                    getattr(mindtorch, dtype))
            for d in dims(len(shape)):
                check(lambda L, t: L.logcumsumexp(t, d), x, **tol.get(dtype, {}))
                check_meta(lambda L, t: t.logcumsumexp(d), x)


def test_logcumsumexp_extremes():
    x = mindtorch.tensor([-INF, -INF, 0.0, INF, 1.0, NAN, 2.0])
    check(lambda L, t: L.logcumsumexp(t, 0), x)
    big = mindtorch.tensor([[1000.0, -1000.0, 999.0], [-50.0, -60.0, -40.0]])
    check(lambda L, t: L.logcumsumexp(t, 1), big)
    out = mindtorch.empty(0)
    assert mindtorch.logcumsumexp(big, 1, out=out) is out
    assert_same(out, torch.logcumsumexp(to_torch(big), 1))


# -- quantile / nanquantile ---------------------------------------------------------------

@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantile(name, interpolation):
    for dtype in ("float32", "float64"):
        for shape in [(), (6,), (3, 5), (2, 3, 4)]:
            xs = list(layouts(shape, dtype, ties=True, nan=name == "nanquantile"))
            for x in xs if dtype == "float32" else xs[:1]:
                qs = [0.4, 1.0, mindtorch.tensor(0.25, dtype=x.dtype),
                      mindtorch.tensor([0.0, 0.125, 0.5, 5 / 6, 1.0], dtype=x.dtype)]
                for q in qs:
                    for d in [None] + dims(len(shape)):
                        for keepdim in (False, True):
                            check(lambda L, t, q: getattr(L, name)(
                                t, q, d, keepdim, interpolation=interpolation), x, q)
    with_nan = mindtorch.tensor([[1.0, NAN, 3.0], [NAN, NAN, NAN], [0.5, 2.0, 1.0]])
    check(lambda L, t: getattr(t, name)(0.5, 1, interpolation=interpolation), with_nan)
    check_meta(lambda L, t: getattr(L, name)(t, 0.3, 1), make((3, 4), "float32"))


def test_quantile_errors():
    x = make((3, 4), "float32")
    for fn in (lambda L, t: L.quantile(t, 1.5), lambda L, t: L.quantile(t, -0.1),
               lambda L, t: L.quantile(t, L.tensor([0.5, 1.5])),
               lambda L, t: L.quantile(t, L.tensor([0.5], dtype=L.float64)),
               lambda L, t: L.quantile(t, L.tensor([[0.5]])),
               lambda L, t: L.quantile(t, 0.5, interpolation="cubic"),
               lambda L, t: L.quantile(t.half(), 0.5), lambda L, t: L.quantile(t.long(), 0.5),
               lambda L, t: L.quantile(t[:0], 0.5), lambda L, t: L.nanquantile(t, 0.5, 2)):
        check(fn, x)
    out = mindtorch.empty(0)
    assert mindtorch.quantile(x, 0.5, 1, out=out) is out
    assert_same(out, torch.quantile(to_torch(x), 0.5, 1))


# -- unique / unique_consecutive ---------------------------------------------------------

UNIQUE_FLAGS = [{}, {"return_inverse": True}, {"return_counts": True},
                {"return_inverse": True, "return_counts": True}]


@pytest.mark.parametrize("dtype", REAL)
def test_unique(dtype):
    for shape in SHAPES + [(4, 0)]:
        for x in layouts(shape, dtype, ties=True):
            for flags in UNIQUE_FLAGS:
                for d in [None] + (dims(len(shape)) if shape else []):
                    check(lambda L, t: L.unique(t, dim=d, **flags), x)
                    check(lambda L, t: L.unique_consecutive(t, dim=d, **flags), x)
                check(lambda L, t: t.unique(sorted=False, **flags), x)
        # each NaN is its own value; torch's unstable sort orders the NaNs arbitrarily, so
        # the inverse is checked for consistency (and torch orders slices holding NaN
        # inconsistently: no dim here)
        x = make(shape, dtype, ties=True, nan=True)
        check(lambda L, t: L.unique(t, return_counts=True), x)
        check(lambda L, t: L.unique_consecutive(t, return_inverse=True, return_counts=True), x)
        values, inverse = x.unique(return_inverse=True)
        assert_same(values[inverse], to_torch(x))
    rows = mindtorch.tensor([[1, 2], [1, 2], [0, 5], [1, 2], [0, 5], [0, 4]])
    for flags in UNIQUE_FLAGS:
        check(lambda L, t: L.unique(t, dim=0, **flags), rows)
        check(lambda L, t: L.unique_consecutive(t, dim=0, **flags), rows)
        check(lambda L, t: t.unique(True, True, True, 1), rows)


def test_unique_special_values():
    for x in (mindtorch.tensor([0.0, -0.0, 0.0]), mindtorch.tensor([-0.0, 0.0]),
              mindtorch.tensor([3.0, NAN, 1.0, NAN]), mindtorch.tensor(2.5)):
        check(lambda L, t: L.unique(t, return_inverse=True, return_counts=True), x)
        check(lambda L, t: L.unique_consecutive(t, return_inverse=True, return_counts=True), x)
    for fn in (lambda L, t: L.unique(t, dim=0), lambda L, t: L.unique_consecutive(t, dim=-1),
               lambda L, t: L.unique(t.reshape(1, 1) * 1j)):
        check(fn, mindtorch.tensor(2.5))
    check(lambda L, t: L.unique(t, dim=0), mindtorch.zeros(3, 0))


# -- searchsorted / bucketize ------------------------------------------------------------

def test_searchsorted():
    seq = mindtorch.tensor([[-1.0, 0.0, 0.0, 2.0, 5.0], [0.0, 1.0, 1.0, 1.0, 3.0]])
    values = mindtorch.tensor([[-2.0, 0.0, 1.0, 6.0], [1.0, 3.0, 0.5, -1.0]])
    for right in (False, True):
        for out_int32 in (False, True):
            kw = {"right": right, "out_int32": out_int32}
            check(lambda L, s, v: L.searchsorted(s, v, **kw), seq, values)
            check(lambda L, s, v: L.searchsorted(s[0], v, **kw), seq, values)
            check(lambda L, s, v: L.searchsorted(s[1], v.t(), **kw), seq, values)
            check(lambda L, s, v: L.searchsorted(s[:, ::2], v[:, 1:], **kw), seq, values)
            check(lambda L, s: L.searchsorted(s[0], 0.0, **kw), seq)
            check(lambda L, s: L.searchsorted(s[0], 3, **kw), seq)
            check(lambda L, s, v: L.bucketize(v, s[1], **kw), seq, values)
            check(lambda L, s: L.bucketize(1, s[1], **kw), seq)
    check(lambda L, s, v: L.searchsorted(s, v, side="right"), seq, values)
    shuffled, sorter = mindtorch.tensor([5, 1, 3, 1, 9]), mindtorch.tensor([1, 3, 2, 0, 4])
    check(lambda L, s, o: L.searchsorted(s, L.tensor([0, 1, 4, 10]), sorter=o), shuffled,
          sorter)
    # dtypes are promoted; NaN compares as torch's binary search does
    check(lambda L: L.searchsorted(L.tensor([1, 3, 5]), L.tensor([0.5, 3.0, 7.5])))
    check(lambda L: L.searchsorted(L.tensor([1, 3]).short(), L.tensor([1, 4]).byte()))
    check(lambda L: L.searchsorted(L.tensor([1.0, 2.0]).half(), L.tensor([1.5]).bfloat16()))
    check(lambda L: L.searchsorted(L.tensor([1.0, 2.0, NAN]), L.tensor([NAN, 5.0, 1.0])))
    check(lambda L: L.searchsorted(L.tensor([NAN, 1.0, 2.0, 3.0]), L.tensor([0.0, 2.5])))
    check(lambda L: L.searchsorted(L.zeros(0), L.tensor([1.0])))
    check(lambda L: L.searchsorted(L.zeros(2, 0), L.zeros(2, 3)))
    check(lambda L: L.searchsorted(L.zeros(3), L.zeros(0, 3)))


def test_searchsorted_errors():
    seq = mindtorch.tensor([[1, 3, 5], [2, 4, 6]])

    def v(L, s, values, **kw):  # values on s's device
        return L.tensor(values, device=s.device, **kw)
    for fn in (lambda L, s: L.searchsorted(s, v(L, s, [[0, 3]])),
               lambda L, s: L.searchsorted(s, 3),
               lambda L, s: L.searchsorted(s[0, 0], v(L, s, [1])),
               lambda L, s: L.searchsorted(s[0], v(L, s, [1]), side="middle"),
               lambda L, s: L.searchsorted(s[0], v(L, s, [1]), side="left", right=True),
               lambda L, s: L.searchsorted(s[0], v(L, s, [1]), sorter=v(L, s, [0, 1])),
               lambda L, s: L.searchsorted(s[0], v(L, s, [1]),
                                           sorter=v(L, s, [0, 1, 2], dtype=L.int32)),
               lambda L, s: L.searchsorted(s[0] > 2, v(L, s, [True])),
               lambda L, s: L.searchsorted(s[0] * 1j, v(L, s, [1j])),
               lambda L, s: L.bucketize(v(L, s, [1]), s),
               lambda L, s: L.bucketize(v(L, s, [1]), s[0, 0])):
        check(fn, seq)
        check_meta(fn, seq)
    # (a check of the data: cpu only)
    check(lambda L, s: L.searchsorted(s[0], L.tensor([1]), sorter=L.tensor([0, 1, 3])), seq)


# -- histc / histogram / bincount --------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_histc(dtype):
    for shape in [(), (0,), (7,), (3, 4), (2, 3, 5)]:
        for x in layouts(shape, dtype, ties=True):
            for bins, lo, hi in [(100, 0, 0), (4, 0, 0), (5, -1, 2), (3, 1, 1), (7, -2.5, 0.7)]:
                check(lambda L, t: L.histc(t, bins, lo, hi), x)
                check_meta(lambda L, t: t.histc(bins=bins, min=lo, max=hi), x)
    edges = mindtorch.tensor([0.0, 0.1, 0.2, 0.3, 0.7, 1.0, 1.1, -0.1, NAN]).to(
        getattr(mindtorch, dtype))
    check(lambda L, t: L.histc(t, 10, 0, 1), edges)  # elements on bin edges, NaN skipped


def test_histc_errors():
    for fn in (lambda L, t: L.histc(t, 0), lambda L, t: L.histc(t, 4, 3, 1),
               lambda L, t: L.histc(t, 4, 0, INF), lambda L, t: L.histc(t.long(), 4),
               lambda L, t: L.histc(t * NAN, 4), lambda L, t: L.histc(t.bool(), 4)):
        check(fn, mindtorch.tensor([1.0, 2.0]))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histogram(dtype):
    x = make((3, 5), dtype, ties=True)
    w = make((3, 5), dtype).abs()
    edges = mindtorch.tensor([-3.0, -1.0, 0.0, 0.5, 2.0]).to(x.dtype)
    for bins in (1, 4, 7, edges):
        for kw in ({}, {"range": (-1.0, 1.5)}, {"weight": w}, {"density": True},
                   {"weight": w, "density": True}):
            if "range" in kw and isinstance(bins, mindtorch.Tensor):
                continue
            rest = {k: v for k, v in kw.items() if k != "weight"}
            check(lambda L, t, b, wt: L.histogram(t, b, weight=wt, **rest), x, bins,
                  kw.get("weight"))
    check(lambda L, t: t.histogram(3), mindtorch.ones(4, dtype=x.dtype))
    check(lambda L, t: L.histogram(t, 3), mindtorch.zeros(0, dtype=x.dtype))
    check_meta(lambda L, t: L.histogram(t, 6), x)


def test_bincount():
    x = mindtorch.tensor([1, 1, 3, 0, 7, 3])
    for weights in (None, mindtorch.tensor([0.5, 1, 2, -1, 3, 0.25]), x * 2,
                    mindtorch.tensor([0.5, 1, 2, -1, 3, 0.25]).half(),
                    mindtorch.tensor([0.5, 1, 2, -1, 3, 0.25], dtype=mindtorch.float64)):
        for minlength in (0, 3, 12):
            check(lambda L, t, w: L.bincount(t, w, minlength), x, weights)
            check(lambda L, t, w: t.int().bincount(weights=w, minlength=minlength), x, weights)
    for fn in (lambda L, t: L.bincount(t[:0]), lambda L, t: L.bincount(t[:0], t[:0].float(), 2),
               lambda L, t: L.bincount(t - 1), lambda L, t: L.bincount(t.float()),
               lambda L, t: L.bincount(t.reshape(2, 3)), lambda L, t: L.bincount(t, t[:2]),
               lambda L, t: L.bincount(t, minlength=-1), lambda L, t: L.bincount(t.bool()),
               lambda L, t: L.bincount(t.byte())):
        check(fn, x)
    with pytest.raises(NotImplementedError):
        mindtorch.bincount(x.to("meta"))


# -- isin ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [d for d in REAL if d != "bool"])
def test_isin(dtype):
    for shape in [(), (0,), (6,), (3, 4)]:
        for x in layouts(shape, dtype, ties=True):
            for test in (make((5,), "int64", ties=True), make((2, 3), "float32", ties=True),
                         mindtorch.zeros(0), 2, -1.0):
                for invert in (False, True):
                    check(lambda L, e, s: L.isin(e, s, invert=invert), x, test)
            check_meta(lambda L, t: L.isin(t, L.tensor([1, 2], device=t.device)), x)
    check(lambda L: L.isin(2, L.tensor([1, 2, 3])))
    check(lambda L: L.isin(L.tensor([255]).byte(), -1))
    check(lambda L: L.isin(L.tensor([1.0, NAN]), L.tensor([NAN, 1.0])))
    for bad in (lambda L: L.isin(L.tensor([True]), L.tensor([1])),
                lambda L: L.isin(L.tensor([1]), L.tensor([1j]))):
        check(bad)


# -- nansum / nanmean / std_mean / var_mean / aminmax --------------------------------------

@pytest.mark.parametrize("dtype", REAL + ["complex64"])
def test_nansum_nanmean(dtype):
    tol = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 2e-2, "atol": 2e-2}}
    for shape in SHAPES:
        for x in layouts(shape, dtype, nan=True):
            for d in [None, ()] + dims(len(shape)) + ([(0, -1)] if len(shape) > 1 else []):
                for keepdim in (False, True):
                    for name in ("nansum", "nanmean"):
                        check(lambda L, t: getattr(L, name)(t, d, keepdim), x,
                              **tol.get(dtype, {}))
            check(lambda L, t: t.nansum(dtype=L.float64), x)
            check_meta(lambda L, t: L.nansum(t, 0), x)
            check_meta(lambda L, t: L.nanmean(t), x)


@pytest.mark.parametrize("name", ["std_mean", "var_mean"])
def test_std_var_mean(name):
    forms = [lambda L, f, t: f(t), lambda L, f, t: f(t, True), lambda L, f, t: f(t, False),
             lambda L, f, t: f(t, 0), lambda L, f, t: f(t, 1, False, True),
             lambda L, f, t: f(t, dim=(0, -1), correction=0, keepdim=True),
             lambda L, f, t: f(t, None, correction=2), lambda L, f, t: f(t, dim=1, unbiased=False)]
    for dtype in ("float16", "float32", "float64", "complex64", "int64"):
        for x in layouts((3, 4), dtype):
            for form in forms:
                check(lambda L, t: form(L, getattr(L, name), t), x,
                      **({"rtol": 2e-3, "atol": 2e-3} if dtype == "float16" else {}))
    check_meta(lambda L, t: getattr(L, name)(t, 1), make((3, 4), "float32"))


@pytest.mark.parametrize("dtype", REAL + ["complex64"])
def test_aminmax(dtype):
    for shape in SHAPES:
        for x in layouts(shape, dtype, ties=True, nan=True):
            check(lambda L, t: L.aminmax(t), x)
            check(lambda L, t: t.aminmax(keepdim=True), x)
            for d in dims(len(shape)):
                for keepdim in (False, True):
                    check(lambda L, t: L.aminmax(t, dim=d, keepdim=keepdim), x)
                    check_meta(lambda L, t: L.aminmax(t, dim=d, keepdim=keepdim), x)
    check(lambda L, t: L.aminmax(t, 0), make((3,), "float32"))  # dim is keyword-only


@pytest.mark.parametrize("fn", [
    lambda L, x, o: L.sort(x, 0, out=o),
    lambda L, x, o: L.sort(x, dim=1, stable=True, out=o),
    lambda L, x, o: L.topk(x, 2, out=o),
    lambda L, x, o: L.kthvalue(x, 2, 1, True, out=o),
    lambda L, x, o: L.median(x, 0, out=o),
    lambda L, x, o: L.nanmedian(x, -1, out=o),
    lambda L, x, o: L.mode(x, 0, out=o),
    lambda L, x, o: L.cummax(x, 1, out=o),
    lambda L, x, o: L.cummin(x, 0, out=o),
])
@pytest.mark.parametrize("out_dtypes", [("float32", "int64"), ("float64", "int64"),
                                        ("float32", "int32")])
def test_tuple_out(fn, out_dtypes):
    """out=(values, indices): written in place (resized), torch's `<op>_out` named tuple;
    dtypes must be exact."""
    x = make((3, 4), "float32", ties=True)

    def with_out(L, t):
        outs = tuple(L.empty(0, dtype=getattr(L, d)) for d in out_dtypes)
        got = fn(L, t, outs)
        assert got[0] is outs[0] and got[1] is outs[1]
        return got
    check(with_out, x)
    check(lambda L, t: L.aminmax(t, dim=1, out=(L.empty(0), L.empty(0))), x)
    check(lambda L, t: L.histogram(t, 3, out=(L.empty(0), L.empty(0))), x)
    check(lambda L, t: L.median(t, out=L.empty(0)), x)  # (no dim: no out=)
    check(lambda L, t: L.sort(t, out=L.empty(0)), x)
    with pytest.raises(RuntimeError):
        fn(mindtorch, x.clone().requires_grad_(), (mindtorch.empty(0), mindtorch.empty(0)))


def test_public_names():
    for name in ("searchsorted", "bucketize", "isin", "std_mean", "var_mean"):
        assert hasattr(mindtorch, name) and not hasattr(mindtorch.Tensor, name)
    for name in ("sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode",
                 "quantile", "nanquantile", "unique", "unique_consecutive", "cummax", "cummin",
                 "logcumsumexp", "histc", "histogram", "bincount", "nansum", "nanmean",
                 "aminmax"):
        assert hasattr(mindtorch, name) and hasattr(mindtorch.Tensor, name)
    x = mindtorch.tensor([2.0, 1.0])
    assert type(x.sort()) is mindtorch.return_types.sort
    assert type(x.median(0)) is mindtorch.return_types.median


def test_bucketize_out_only_for_a_tensor_input():
    b = mindtorch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        mindtorch.bucketize(2.5, b, out=mindtorch.empty(0, dtype=mindtorch.int64))
    assert mindtorch.bucketize(2.5, b).item() == torch.bucketize(2.5, torch.tensor([1.0, 2, 3]))
    out = mindtorch.empty(0, dtype=mindtorch.int64)
    mindtorch.bucketize(mindtorch.tensor([2.5, 0.0]), b, out=out)
    assert out.tolist() == [2, 0]


@pytest.mark.parametrize("dtype", ["complex64", "bool"])
@pytest.mark.parametrize("seq_shape,values_shape", [((0,), (3,)), ((3,), (0,)), ((0,), (0,)),
                                                    ((2, 3), (2, 0)), ((2, 0), (2, 3))])
def test_searchsorted_unsupported_dtype_with_no_values(dtype, seq_shape, values_shape):
    # PyTorch returns for no values before it dispatches on the dtype
    def run(L):
        dt = getattr(L, dtype)
        return L.searchsorted(L.zeros(seq_shape, dtype=dt), L.zeros(values_shape, dtype=dt))
    try:
        expected = run(torch)
    except NotImplementedError:
        with pytest.raises(NotImplementedError):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


def test_histc_integer_and_bool_errors():
    # bool: no linspace of edges; integers: the given range (widened when empty) must fit
    # the dtype, then no kernel; PyTorch's order and messages
    def run(L):
        out = []
        for dt in ("bool", "uint8", "int8", "int16", "int32", "int64"):
            for shape in ((0,), (3,)):
                for kw in ({}, {"min": -1, "max": 1}, {"min": 0, "max": 300}, {"min": 2, "max": 2},
                           {"min": 0, "max": 2 ** 40}):
                    with pytest.raises((RuntimeError, NotImplementedError)) as e:
                        L.histc(L.ones(shape, dtype=getattr(L, dt)), bins=3, **kw)
                    out.append((e.type.__name__, str(e.value)))
        return out
    assert run(mindtorch) == run(torch)


def test_topk_k_checked_before_dtype():
    for dtype in ("bool", "complex64"):
        for k in (0, 3):
            def message(L):
                with pytest.raises(RuntimeError) as e:
                    L.topk(L.ones(2, dtype=getattr(L, dtype)), k)
                return str(e.value)
            assert message(mindtorch) == message(torch)


@pytest.mark.parametrize("name", ["sort", "argsort", "msort"])
def test_sort_complex_error_message(name):
    def message(L):
        with pytest.raises(RuntimeError) as e:
            getattr(L, name)(L.tensor([1j, 2.0]))
        return str(e.value)
    assert message(mindtorch) == message(torch)


@pytest.mark.parametrize("weights_shape", [None, (4,), (2, 2), (0,)])
@pytest.mark.parametrize("minlength", [0, 3])
def test_bincount_of_no_input_checks_no_weights(weights_shape, minlength):
    def run(L):
        w = None if weights_shape is None else L.ones(weights_shape)
        return L.bincount(L.zeros(0, dtype=L.int64), w, minlength)
    assert_same(run(mindtorch), run(torch))


@pytest.mark.parametrize("edges", [[0.0, math.nan, 2, 3], [0.0, 1, math.inf, 3],
                                   [-math.inf, 1, 2, 3], [3.0, 2, 1, 0], [0.0, 5, -1, 3],
                                   [math.nan] * 4, [0, 1e30, -1e30, 2]])
def test_histogram_unsorted_or_nonfinite_edges(edges):
    # PyTorch's binary search (std::upper_bound) places values among such edges
    for x in ([1.0, 2, 3, 4, 5, 6], [math.nan, 1, 2, math.inf, -math.inf, 0.5]):
        assert_same(mindtorch.histogram(mindtorch.tensor(x), mindtorch.tensor(edges)),
                    torch.histogram(torch.tensor(x), torch.tensor(edges)))


@pytest.mark.parametrize("bins", ["one edge", "no edges", "0-dim", "int64", 0])
def test_histogram_bins_errors(bins):
    def run(L):
        b = {"one edge": L.tensor([1.0]), "no edges": L.zeros(0), "0-dim": L.tensor(1.0),
             "int64": L.tensor([1, 2])}.get(bins, bins)
        return L.histogram(L.zeros(0), b)
    with pytest.raises(RuntimeError):
        run(torch)
    with pytest.raises(RuntimeError):
        run(mindtorch)


@pytest.mark.parametrize("n_elements", [0, 1, 4, 100])
@pytest.mark.parametrize("layout", ["transposed", "transposed float64", "strided 1-d",
                                    "gapped float64"])
def test_isin_test_elements_layout(n_elements, layout):
    # PyTorch's brute-force path (few test elements) views them as 1-d: some layouts fail
    def run(L):
        t = {"transposed": lambda: L.arange(4.0).reshape(2, 2).t(),
             "transposed float64": lambda: L.arange(4.0, dtype=L.float64).reshape(2, 2).t(),
             "strided 1-d": lambda: L.arange(8.0)[::2],
             "gapped float64": lambda: L.arange(16.0, dtype=L.float64)[::2].reshape(
                 2, 4)[:, ::2].t()}[layout]()
        return L.isin(L.arange(float(n_elements)), t)
    try:
        expected = run(torch)
    except RuntimeError:
        with pytest.raises(RuntimeError):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("weight_shape,weight_dtype", [((8,), "float64"), ((2, 4), "float64"),
                                                       ((7,), "float64"), ((8,), "float32")])
def test_histogram_weight_flattened(weight_shape, weight_dtype):
    # PyTorch flattens input and weight: only their sizes must agree (then the dtypes)
    def run(L):
        w = L.arange(8, dtype=getattr(L, weight_dtype)).reshape(weight_shape)
        return L.histogram(L.linspace(-1, 1, 8, dtype=L.float64).reshape(1, 8), 4,
                           range=(-1.0, 1.0), weight=w, density=True)
    try:
        expected = run(torch)
    except RuntimeError:
        with pytest.raises(RuntimeError):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("dtype", ["int32", "bool", "float32", "complex64"])
@pytest.mark.parametrize("dim", [3, 1, None, (0, 5)])
def test_nanmean_dtype_checked_before_dim(dtype, dim):
    def run(L):
        return L.nanmean(L.ones(3, 4, dtype=getattr(L, dtype)), dim)
    try:
        expected = run(torch)
    except (RuntimeError, IndexError) as e:
        with pytest.raises(type(e)):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0,), (2, 3), ()])
@pytest.mark.parametrize("dim", [0, -1])
def test_mode_complex_empty_result_returned(shape, dim):
    # PyTorch returns an empty (or 0-dim) input's result before it refuses complex
    def run(L):
        return tuple(L.mode(L.zeros(shape, dtype=L.complex64), dim))
    try:
        expected = run(torch)
    except (NotImplementedError, IndexError) as e:
        with pytest.raises(type(e)):
            run(mindtorch)
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("dtype", ["complex64", "bool"])
@pytest.mark.parametrize("shape, dim", [((), 0), ((2, 0), 0), ((2, 0), 1), ((0, 3), -1),
                                        ((3,), 0)])
def test_cummax_kthvalue_dtype_check_only_when_a_kernel_runs(dtype, shape, dim):
    # PyTorch copies a 0-dim input and returns empty ones without its kernel (which lacks
    # complex, and bool for kthvalue): no dtype error there; empty-dim and k errors first
    from reference import same_error
    x = mindtorch.zeros(shape, dtype=getattr(mindtorch, dtype))
    if x.numel():
        x = x + (1j if dtype == "complex64" else True)
    for name in ("cummax", "cummin"):
        same_error(lambda: getattr(mindtorch, name)(x, dim),
                   lambda: getattr(torch, name)(to_torch(x), dim))
        if not x.dtype.is_complex or not x.ndim or not x.numel():
            assert_same(getattr(mindtorch, name)(x, dim), getattr(torch, name)(to_torch(x), dim))
    for k in (1, 2, 5):
        same_error(lambda: mindtorch.kthvalue(x, k, dim),
                   lambda: torch.kthvalue(to_torch(x), k, dim))


@pytest.mark.parametrize("dtype", ["complex64", "bool"])
@pytest.mark.parametrize("shape", [(3, 0), (0,), (), (3, 2)])
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_dtype_check_order(name, shape, dtype):
    # PyTorch: an empty input's median is NaN whatever the dtype; over a dim, the empty-dim
    # IndexError comes before the dtype's NotImplementedError
    from reference import same_error
    x = mindtorch.zeros(shape, dtype=getattr(mindtorch, dtype))
    fn = getattr(mindtorch, name)
    ref = getattr(torch, name)
    for dev in ("cpu", "meta"):
        same_error(lambda: fn(x.to(dev)), lambda: ref(to_torch(x)))
        for d in range(max(x.ndim, 1)):
            same_error(lambda: fn(x.to(dev), d), lambda: ref(to_torch(x), d))
    if not x.numel():
        assert_same(fn(x), ref(to_torch(x)))
