"""Kernels rewritten because ordinary programs found them many times slower than PyTorch
(see benchmarks/bench_hotspots.py): the fast paths give PyTorch's results on the inputs
they serve, the ones the benchmark times included."""
import math

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)


def both(fn, *arrays):
    """fn(library, *tensors) on mindtorch and on torch, with the same data."""
    m = [mindtorch.tensor(a) for a in arrays]
    return fn(mindtorch, *m), fn(torch, *[to_torch(t) for t in m])


# -- kthvalue: a partition, not a sort, finds the k-th value ------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.float16])
@pytest.mark.parametrize("k", [1, 10, 257, 512])
def test_kthvalue_rows(dtype, k):
    x = RNG.standard_normal((64, 512)) * 100
    x[5] = np.round(x[5] / 50)  # a row full of ties, replayed as torch's quickselect
    if dtype in (np.float32, np.float64):
        x[7, ::9] = math.nan
    x = x.astype(dtype)
    for dim in (1, 0, -1):
        if k <= x.shape[dim]:
            for keepdim in (False, True):
                m, t = both(lambda L, a: L.kthvalue(a, k, dim, keepdim), x)
                assert_same(m, t)


def test_kthvalue_noncontiguous():
    x = RNG.standard_normal((40, 30)).astype(np.float32)
    m, t = both(lambda L, a: a.t()[::2].kthvalue(7), x)
    assert_same(m, t)


# -- adaptive average pooling: every window element gathered at once ----------------------

def _bits(t):
    a = t.detach().float().numpy() if t.dtype not in (mindtorch.float64, torch.float64) \
        else t.detach().numpy()
    return a.view(np.int64 if a.dtype == np.float64 else np.int32)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape, size", [
    ((2, 4, 32, 32), (7, 7)), ((2, 3, 14, 14), (2, 2)), ((2, 3, 10, 9), (3, 4)),
    ((4, 9, 9), (5, 7)), ((2, 3, 7, 7), (6, 6)), ((2, 3, 7, 7), (7, 7)),
    ((3, 5, 40), (3,)), ((2, 3, 6, 7, 8), (3, 2, 5))])
def test_adaptive_avg_pool_bits(dtype, shape, size):
    """The same bits as PyTorch's loops (window sums in row-major order from 0), -0.0
    terms and windows of unequal extents included."""
    x = RNG.standard_normal(shape) * 1000
    x.flat[::7] = -0.0
    x.flat[::11] = 0.0
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    name = f"adaptive_avg_pool{len(size)}d"
    rm = getattr(mindtorch.nn.functional, name)(m, size)
    rt = getattr(torch.nn.functional, name)(t, size)
    assert rm.dtype == m.dtype and tuple(rm.shape) == tuple(rt.shape)
    assert np.array_equal(_bits(rm), _bits(rt))


def test_adaptive_avg_pool_negative_zero_window():
    x = np.full((1, 1, 4, 4), -0.0, np.float32)
    m, t = both(lambda L, a: L.nn.functional.adaptive_avg_pool2d(a, 2), x)
    assert np.array_equal(_bits(m), _bits(t))


def test_adaptive_avg_pool_noncontiguous_and_grad():
    x = RNG.standard_normal((3, 12, 10, 4)).astype(np.float32)
    g = RNG.standard_normal((3, 4, 3, 3)).astype(np.float32)
    m = mindtorch.tensor(x).permute(0, 3, 1, 2).requires_grad_()
    t = to_torch(m).requires_grad_()
    rm = mindtorch.nn.functional.adaptive_avg_pool2d(m, 3)
    rt = torch.nn.functional.adaptive_avg_pool2d(t, 3)
    assert_same(rm, rt)
    rm.backward(mindtorch.tensor(g))
    rt.backward(torch.from_numpy(g))
    assert_same(m.grad, t.grad)


# -- searchsorted / bucketize: NumPy's binary search on sorted rows without NaN ------------

@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int32])
def test_searchsorted_sorted_rows(right, dtype):
    b = np.sort(np.round(RNG.standard_normal(200) * 5)).astype(dtype)  # with repeats
    v = np.concatenate([b[::7], np.round(RNG.standard_normal(60) * 8)]).astype(dtype)
    if dtype in (np.float32, np.float64):
        v[:3] = [math.nan, math.inf, -math.inf]
        v[3] = -0.0
    for bb, vv in ((b, v), (b, v.reshape(-1)[:40].reshape(5, 8)),
                   (np.sort(b.reshape(8, 25), -1), v[:80].reshape(8, 10)),
                   (np.sort(RNG.integers(0, 9, (70, 6)), -1).astype(dtype),
                    RNG.integers(-1, 10, (70, 3)).astype(dtype))):
        m, t = both(lambda L, s, x: L.searchsorted(s, x, right=right), bb, vv)
        assert_same(m, t)
        m, t = both(lambda L, s, x: L.searchsorted(s, x, right=right, out_int32=True), bb, vv)
        assert_same(m, t)
    if vv.ndim:
        m, t = both(lambda L, x, s: L.bucketize(x, s, right=right), v, b)
        assert_same(m, t)


def test_searchsorted_unsorted_nan_and_sorter():
    """Boundaries NaN or out of order keep torch's own binary search; a sorter too."""
    b = np.array([0.0, 1, math.nan, 3, 2, 5], np.float32)
    v = np.array([-1, 0.5, 2.5, 4, math.nan, 6], np.float32)
    for bb in (b, b[[0, 1, 4, 3, 5, 2]], np.array([3.0, 1, 2, 0, 5, 4], np.float32)):
        for right in (False, True):
            m, t = both(lambda L, s, x: L.searchsorted(s, x, right=right), bb, v)
            assert_same(m, t)
    s = np.array([3.0, 1, 2, 0, 5, 4], np.float32)
    sorter = np.argsort(s)
    m, t = both(lambda L, a, x, o: L.searchsorted(a, x, sorter=o), s, v, sorter)
    assert_same(m, t)


# -- tril_indices / triu_indices: large triangles computed by a few ops --------------------

@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("row, col, offset", [
    (0, 5, 0), (5, 0, 1), (3, 3, 0), (4, 7, -2), (50, 50, 0), (50, 50, 1), (60, 90, -7),
    (90, 60, 12), (120, 40, -100), (40, 120, 100), (30, 30, 40), (30, 30, -40)])
@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_triangle_indices(name, row, col, offset, dtype):
    m = getattr(mindtorch, name)(row, col, offset, dtype=getattr(mindtorch, dtype))
    t = getattr(torch, name)(row, col, offset, dtype=getattr(torch, dtype))
    assert_same(m, t, check_stride=True)
    meta = getattr(mindtorch, name)(row, col, offset, device="meta")
    assert tuple(meta.shape) == tuple(t.shape) and meta.device.type == "meta"


# -- pow by 2, 3, -2, -1, 0.5, -0.5: products, sqrt and reciprocals as PyTorch's ----------

@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
@pytest.mark.parametrize("exponent", [2, 3, -2, -1, 0.5, -0.5, 2.0, 3.0, -2.0, 4, 1.5, -3])
def test_pow_scalar_exponents(dtype, exponent):
    x = RNG.standard_normal(4096) * 3
    x[:10] = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e-30, -1e-30, 3e38, -3e38, 1e-45]
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    rm, rt = m ** exponent, t ** exponent
    assert rm.dtype == m.dtype
    a, b = rm.float().numpy(), rt.float().numpy()
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    if exponent not in (2, 3, -2, -1) or dtype == "float16":
        # std::pow (Sleef's on PyTorch's vector path) and its sqrt: within an ulp
        torch.testing.assert_close(rm.float().numpy(), rt.float().numpy(), equal_nan=True,
                                   check_dtype=False)
    else:
        assert same.all(), (x[~same][:5], a[~same][:5], b[~same][:5])
    torch.testing.assert_close(to_torch(m.pow(exponent)), t.pow(exponent), equal_nan=True)


def test_pow_products_noncontiguous_and_grad():
    x = RNG.standard_normal((16, 12)).astype(np.float32)
    m = mindtorch.tensor(x).t()[::2].requires_grad_()
    t = to_torch(m).requires_grad_()
    rm, rt = m ** 3, t ** 3
    assert np.array_equal(rm.detach().numpy(), rt.detach().numpy())
    rm.sum().backward()
    rt.sum().backward()
    assert_same(m.grad, t.grad)


# -- pad_sequence: one put of every step without a gradient; PyTorch's copies with one ------

@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("tail", [(), (3,), (2, 2)])
@pytest.mark.parametrize("grad", [False, True])
def test_pad_sequence(batch_first, side, tail, grad):
    from torch.nn.utils.rnn import pad_sequence as th_pad
    arrays = [RNG.standard_normal((n,) + tail) for n in (3, 0, 5, 1, 5)]
    arrays[0] = arrays[0].astype(np.float32)  # the result's dtype; the others converted
    ms = [mindtorch.tensor(a).requires_grad_(grad) for a in arrays]
    ts = [to_torch(m).requires_grad_(grad) for m in ms]
    rm = mindtorch.nn.utils.rnn.pad_sequence(ms, batch_first, -1.5, side)
    rt = th_pad(ts, batch_first, -1.5, side)
    assert_same(rm, rt, check_stride=True)
    assert type(rm.grad_fn).__name__ == type(rt.grad_fn).__name__ if grad else \
        rm.grad_fn is None
    if grad:
        g = RNG.standard_normal(tuple(rt.shape)).astype(np.float32)
        rm.backward(mindtorch.tensor(g))
        rt.backward(torch.from_numpy(g))
        for m, t in zip(ms, ts):
            assert_same(m.grad, t.grad)


def test_pad_sequence_integers_and_meta():
    from torch.nn.utils.rnn import pad_sequence as th_pad
    arrays = [np.array([2 ** 40 + 1, 3]), np.array([1.7, -2.5, 9.9]), np.array([], np.int64)]
    rm = mindtorch.nn.utils.rnn.pad_sequence([mindtorch.tensor(a) for a in arrays])
    assert_same(rm, th_pad([torch.from_numpy(a) for a in arrays]))
    meta = mindtorch.nn.utils.rnn.pad_sequence(
        [mindtorch.empty(3, 2, device="meta"), mindtorch.empty(5, 2, device="meta")], True)
    assert tuple(meta.shape) == (2, 5, 2) and meta.device.type == "meta"


# -- clamp_ (clip_grad_value_'s op): the clip ufunc into self, not clamp + copy_ -----------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
@pytest.mark.parametrize("low, high", [(-1, 1), (None, 0.5), (-0.5, None), (1, -1), (0.0, 0.0),
                                       (-0.0, None), (None, -0.0), (2, 2.5), (-1.5, 7)])
def test_clamp_inplace_bits(dtype, low, high):
    x = RNG.standard_normal(300) * 3
    x[:5] = [math.nan, -0.0, 0.0, math.inf, -math.inf] if dtype != "int64" else [0] * 5
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    for view in (lambda a: a, lambda a: a[::3], lambda a: a.view(30, 10).t()):
        rm, rt = view(m.clone()), view(t.clone())
        if dtype == "int64" and float in (type(low), type(high)):
            continue  # (both refuse: a float result into int64)
        assert view(m.clone()).clamp_(low, high) is not None
        out_m, out_t = rm.clamp_(low, high), rt.clamp_(low, high)
        assert out_m is rm
        assert_same(out_m, out_t)
        a, b = out_m.float().numpy(), out_t.float().numpy()
        assert np.array_equal(a.view(np.int32), b.view(np.int32))


def test_clamp_inplace_tensor_bounds_and_errors():
    x = RNG.standard_normal((4, 5)).astype(np.float32)
    lo = RNG.standard_normal(5).astype(np.float32)
    m, t = mindtorch.tensor(x), torch.from_numpy(x.copy())
    assert_same(m.clamp_(mindtorch.tensor(lo), mindtorch.tensor(0.5)),
                t.clamp_(torch.from_numpy(lo), torch.tensor(0.5)))
    for fn in (lambda L, a: a.clamp_(), lambda L, a: a.clamp_(min=-1e39),
               lambda L, a: a.expand(3, 4, 5).clamp_(0, 1)):
        with pytest.raises(RuntimeError):
            fn(mindtorch, mindtorch.tensor(x))
        with pytest.raises(RuntimeError):
            fn(torch, torch.from_numpy(x.copy()))


# -- nan_to_num: one np.nan_to_num pass for float32/float64 and complex --------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "complex128", "int32", "bool"])
@pytest.mark.parametrize("kwargs", [{}, {"nan": 1.5}, {"posinf": 1e39, "neginf": -1e39},
                                    {"nan": -0.0, "posinf": 0.1, "neginf": 2.0}, {"nan": 1e300}])
def test_nan_to_num_bits(dtype, kwargs):
    x = RNG.standard_normal(200) * 3
    x[:8] = [math.nan, -math.nan, math.inf, -math.inf, -0.0, 0.0, 1e300, -1e300]
    m = mindtorch.tensor(x)
    if dtype.startswith("complex"):
        m = mindtorch.complex(m, m.flip(0))
    m = m.to(getattr(mindtorch, dtype))
    t = to_torch(m) if dtype != "bfloat16" else torch.from_numpy(x).to(torch.bfloat16)
    for view in (lambda a: a, lambda a: a.view(20, 10).t()):
        rm, rt = view(m).nan_to_num(**kwargs), view(t).nan_to_num(**kwargs)
        assert_same(rm, rt, check_stride=True)
        a = rm.float().numpy() if dtype == "bfloat16" else rm.numpy()
        b = rt.float().numpy() if dtype == "bfloat16" else rt.numpy()
        assert np.array_equal(np.ascontiguousarray(a).view(np.uint8),
                              np.ascontiguousarray(b).view(np.uint8))


def test_nan_to_num_grad():
    x = np.array([math.nan, math.inf, -math.inf, 1.0, -2.0])
    m = mindtorch.tensor(x).requires_grad_()
    t = torch.from_numpy(x).requires_grad_()
    m.nan_to_num(posinf=3.0).mul(2).sum().backward()
    t.nan_to_num(posinf=3.0).mul(2).sum().backward()
    assert_same(m.grad, t.grad)


# -- lerp with a number weight: lerp_'s fast path on a copy --------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [7, 1000, 70000])
@pytest.mark.parametrize("weight", [0.3, 0.7, -1.5, 2, 0, 1, 0.5, -0.49])
def test_lerp_number_weight_bits(dtype, n, weight):
    a, b = RNG.standard_normal(n) * 10, RNG.standard_normal(n) * 10
    a[:4], b[:4] = [math.nan, math.inf, -math.inf, -0.0], [1, math.inf, math.inf, 0.0]
    ma = mindtorch.tensor(a).to(getattr(mindtorch, dtype))
    mb = mindtorch.tensor(b).to(getattr(mindtorch, dtype))
    rm, rt = mindtorch.lerp(ma, mb, weight), torch.lerp(to_torch(ma), to_torch(mb), weight)
    assert_same(rm, rt, check_stride=True)
    if dtype == "float32":  # (float64's NumPy fma is long double: ~1 ulp off at times)
        assert np.array_equal(rm.numpy().view(np.uint8), rt.numpy().view(np.uint8))
    assert np.array_equal(ma.numpy(), a.astype(ma.numpy().dtype), equal_nan=True)  # untouched
