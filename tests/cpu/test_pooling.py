"""Pooling against PyTorch: max / avg / adaptive / Lp pooling and max unpooling in 1d-3d,
their options (stride, padding, dilation, ceil_mode, count_include_pad, divisor_override,
return_indices), dtypes, unbatched and non-contiguous inputs, empty batches, PyTorch's
index and NaN conventions, error classes, and the meta device's shapes/dtypes."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)


def F(lib):
    return lib.nn.functional


def make(shape, dtype="float32", nc=False, ties=False):
    """Random values (small integers when ties=True, so windows hold equal maxima);
    nc: a non-contiguous tensor (last two dims transposed in memory)."""
    dt = getattr(mindtorch, dtype)
    data = RNG.integers(-3, 4, shape) if ties or dt.kind in "ui" else RNG.standard_normal(shape)
    if nc and len(shape) >= 2:
        data = np.ascontiguousarray(np.swapaxes(data, -1, -2))
        return mindtorch.tensor(data).to(dt).transpose(-1, -2)
    return mindtorch.tensor(data).to(dt)


def _base(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) gives the same result with mindtorch and torch (or both raise
    errors of one builtin class); on meta, the same shapes and dtypes."""
    ths = [to_torch(m) if isinstance(m, mindtorch.Tensor) else m for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - any torch error must be matched by class
        with pytest.raises(_base(e)):
            fn(mindtorch, *mts)
        return
    got = fn(mindtorch, *mts)
    assert isinstance(got, tuple) == isinstance(expected, tuple)
    assert_same(got, expected, rtol=rtol, atol=atol)
    meta = fn(mindtorch, *[m.to("meta") if isinstance(m, mindtorch.Tensor) else m for m in mts])
    for g, r in zip(meta if isinstance(meta, tuple) else (meta,),
                    got if isinstance(got, tuple) else (got,)):
        assert g.device.type == "meta" and g.shape == r.shape and g.dtype is r.dtype


# (id, fn(lib, x), input shape)
CASES = [
    ("max1d", lambda m, x: F(m).max_pool1d(x, 3), (2, 3, 10)),
    ("max1d_all", lambda m, x: F(m).max_pool1d(x, 3, 2, 1, 2, True, True), (2, 3, 10)),
    ("max1d_unbatched", lambda m, x: F(m).max_pool1d(x, 2, return_indices=True), (3, 7)),
    ("max1d_torch", lambda m, x: m.max_pool1d(x, [2], [1]), (2, 3, 7)),
    ("max1d_with_indices", lambda m, x: m.max_pool1d_with_indices(x, 3, 1, 1), (2, 3, 7)),
    ("max2d", lambda m, x: F(m).max_pool2d(x, 2), (2, 3, 6, 7)),
    ("max2d_stride_pad", lambda m, x: F(m).max_pool2d(x, (3, 2), (2, 1), (1, 1)), (2, 3, 7, 6)),
    ("max2d_dilation_ceil", lambda m, x: F(m).max_pool2d(x, 3, 2, 1, 2, ceil_mode=True,
                                                          return_indices=True), (1, 2, 9, 8)),
    ("max2d_ceil", lambda m, x: F(m).max_pool2d(x, 2, 2, ceil_mode=True, return_indices=True),
     (2, 2, 5, 7)),
    ("max2d_unbatched", lambda m, x: F(m).max_pool2d(x, 2, return_indices=True), (3, 5, 4)),
    ("max2d_with_indices", lambda m, x: F(m).max_pool2d_with_indices(x, 3, 1, 1), (1, 2, 5, 5)),
    ("max2d_torch", lambda m, x: m.max_pool2d(x, [2, 2], [], [0, 1]), (1, 2, 5, 5)),
    ("max2d_empty_batch", lambda m, x: F(m).max_pool2d(x, 2, return_indices=True), (0, 3, 4, 4)),
    ("max3d", lambda m, x: F(m).max_pool3d(x, 2), (1, 2, 4, 5, 4)),
    ("max3d_all", lambda m, x: F(m).max_pool3d(x, (2, 3, 2), 2, 1, (1, 1, 2), True, True),
     (2, 1, 5, 6, 5)),
    ("max3d_with_indices", lambda m, x: F(m).max_pool3d_with_indices(x, 2, 1), (2, 4, 3, 4)),
    ("avg1d", lambda m, x: F(m).avg_pool1d(x, 3), (2, 3, 10)),
    ("avg1d_all", lambda m, x: F(m).avg_pool1d(x, 3, 2, 1, True, False), (2, 3, 10)),
    ("avg1d_torch", lambda m, x: m.avg_pool1d(x, 2, padding=1), (3, 5)),
    ("avg2d", lambda m, x: F(m).avg_pool2d(x, 2), (2, 3, 6, 7)),
    ("avg2d_pad", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1), (2, 3, 7, 6)),
    ("avg2d_exclude_pad", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1, count_include_pad=False),
     (2, 3, 7, 6)),
    ("avg2d_ceil", lambda m, x: F(m).avg_pool2d(x, (3, 2), 2, (1, 0), ceil_mode=True),
     (1, 2, 8, 7)),
    ("avg2d_ceil_exclude", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1, True, False), (1, 2, 6, 6)),
    ("avg2d_divisor", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1, divisor_override=5), (2, 2, 5, 5)),
    ("avg2d_unbatched", lambda m, x: F(m).avg_pool2d(x, 2, 1), (3, 4, 5)),
    ("avg2d_empty_batch", lambda m, x: F(m).avg_pool2d(x, 2), (0, 3, 4, 4)),
    ("avg3d", lambda m, x: F(m).avg_pool3d(x, 2), (1, 2, 4, 5, 4)),
    ("avg3d_all", lambda m, x: F(m).avg_pool3d(x, (2, 3, 2), 2, 1, True, False),
     (2, 1, 5, 6, 5)),
    ("avg3d_divisor", lambda m, x: F(m).avg_pool3d(x, 2, 1, 1, divisor_override=3), (2, 3, 3, 4)),
    ("adaptive_avg1d", lambda m, x: F(m).adaptive_avg_pool1d(x, 4), (2, 3, 10)),
    ("adaptive_avg1d_up", lambda m, x: m.adaptive_avg_pool1d(x, 7), (3, 5)),
    ("adaptive_avg1d_one", lambda m, x: F(m).adaptive_avg_pool1d(x, 1), (2, 3, 5)),
    ("adaptive_avg2d", lambda m, x: F(m).adaptive_avg_pool2d(x, (3, 4)), (2, 3, 7, 10)),
    ("adaptive_avg2d_none", lambda m, x: F(m).adaptive_avg_pool2d(x, (None, 2)), (2, 3, 5, 6)),
    ("adaptive_avg2d_one", lambda m, x: F(m).adaptive_avg_pool2d(x, 1), (2, 3, 5, 6)),
    ("adaptive_avg2d_up", lambda m, x: F(m).adaptive_avg_pool2d(x, 5), (3, 3, 2)),
    ("adaptive_avg2d_zero", lambda m, x: F(m).adaptive_avg_pool2d(x, 0), (1, 3, 3, 2)),
    ("adaptive_avg2d_aten", lambda m, x: m._adaptive_avg_pool2d(x, [2, 3]), (1, 3, 5, 7)),
    ("adaptive_avg3d", lambda m, x: F(m).adaptive_avg_pool3d(x, (2, 3, 2)), (2, 1, 5, 4, 3)),
    ("adaptive_avg3d_none", lambda m, x: F(m).adaptive_avg_pool3d(x, (None, 2, None)),
     (1, 3, 4, 5)),
    ("adaptive_avg3d_empty_batch", lambda m, x: F(m).adaptive_avg_pool3d(x, 2), (0, 1, 3, 3, 3)),
    ("adaptive_max1d", lambda m, x: F(m).adaptive_max_pool1d(x, 4), (2, 3, 10)),
    ("adaptive_max1d_indices", lambda m, x: F(m).adaptive_max_pool1d(x, 3, True), (3, 8)),
    ("adaptive_max1d_with_indices", lambda m, x: F(m).adaptive_max_pool1d_with_indices(x, 3),
     (2, 3, 8)),
    ("adaptive_max1d_torch", lambda m, x: m.adaptive_max_pool1d(x, 3), (2, 3, 8)),
    ("adaptive_max2d", lambda m, x: F(m).adaptive_max_pool2d(x, (3, 4)), (2, 3, 7, 10)),
    ("adaptive_max2d_indices", lambda m, x: F(m).adaptive_max_pool2d(x, (None, 3),
                                                                    return_indices=True),
     (2, 3, 5, 7)),
    ("adaptive_max2d_with_indices", lambda m, x: F(m).adaptive_max_pool2d_with_indices(x, 5),
     (3, 3, 2)),
    ("adaptive_max3d", lambda m, x: F(m).adaptive_max_pool3d(x, 2, True), (2, 1, 5, 4, 3)),
    ("adaptive_max3d_with_indices", lambda m, x: F(m).adaptive_max_pool3d_with_indices(x, 3),
     (1, 4, 4, 5)),
    ("lp1d", lambda m, x: F(m).lp_pool1d(x, 2, 3), (2, 3, 10)),
    ("lp1d_stride", lambda m, x: F(m).lp_pool1d(x, 3, 2, 1, ceil_mode=True), (2, 3, 7)),
    ("lp2d", lambda m, x: F(m).lp_pool2d(x, 2, 2), (2, 3, 6, 7)),
    ("lp2d_float_norm", lambda m, x: F(m).lp_pool2d(x.abs(), 1.5, (3, 2), 1), (2, 3, 6, 7)),
    ("lp2d_inf", lambda m, x: F(m).lp_pool2d(x, float("inf"), 2), (2, 3, 6, 7)),
    ("lp3d", lambda m, x: F(m).lp_pool3d(x, 2, 2), (1, 2, 4, 4, 4)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("layout", ["contiguous", "nc", "ties"])
def test_pooling(case, layout):
    _, fn, shape = case
    check(fn, make(shape, nc=layout == "nc", ties=layout == "ties"))


# the dtypes torch's CPU kernels take (others raise NotImplementedError, also tested)
DTYPE_CASES = [
    ("max2d", lambda m, x: F(m).max_pool2d(x, 2, 1, 1, return_indices=True), (1, 2, 5, 5)),
    ("max2d_values", lambda m, x: F(m).max_pool2d(x, 3, 2), (1, 2, 5, 5)),
    ("max1d_values", lambda m, x: F(m).max_pool1d(x, 2), (1, 2, 5)),
    ("max1d_indices", lambda m, x: F(m).max_pool1d(x, 2, return_indices=True), (1, 2, 5)),
    ("max3d", lambda m, x: F(m).max_pool3d(x, 2, return_indices=True), (1, 1, 3, 4, 4)),
    ("avg2d", lambda m, x: F(m).avg_pool2d(x, 2, 1, 1), (1, 2, 5, 5)),
    ("avg2d_exclude", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1, count_include_pad=False),
     (1, 2, 5, 5)),
    ("avg2d_divisor", lambda m, x: F(m).avg_pool2d(x, 2, divisor_override=3), (1, 2, 5, 5)),
    ("avg1d", lambda m, x: F(m).avg_pool1d(x, 3, 2, 1), (2, 7)),
    ("avg3d", lambda m, x: F(m).avg_pool3d(x, 2, 1, 1), (1, 1, 3, 4, 4)),
    ("adaptive_avg2d", lambda m, x: F(m).adaptive_avg_pool2d(x, 3), (1, 2, 5, 5)),
    ("adaptive_avg3d", lambda m, x: F(m).adaptive_avg_pool3d(x, 2), (1, 1, 3, 4, 4)),
    ("adaptive_max2d", lambda m, x: F(m).adaptive_max_pool2d(x, 3, True), (1, 2, 5, 5)),
    ("adaptive_max3d", lambda m, x: F(m).adaptive_max_pool3d(x, 2, True), (1, 1, 3, 4, 4)),
    ("lp2d", lambda m, x: F(m).lp_pool2d(x, 2, 2), (1, 2, 4, 4)),
]


@pytest.mark.parametrize("case", DTYPE_CASES, ids=[c[0] for c in DTYPE_CASES])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "int64", "int32", "uint8",
                                   "bool", "complex64"])
def test_pooling_dtypes(case, dtype):
    _, fn, shape = case
    x = make(shape, "float32" if dtype in ("bool", "complex64") else dtype)
    if dtype == "bool":
        x = x > 0
    elif dtype == "complex64":
        x = x.to(mindtorch.complex64)
    check(fn, x)


def test_max_pool_index_and_nan_conventions():
    # ties keep the first maximum; NaN wins and the last NaN's index is kept; windows
    # overlapping the padding and -inf values
    inf, nan = float("inf"), float("nan")
    data = np.array([[[[1, 1, 0, 2], [2, nan, 2, nan], [-inf, -inf, -inf, -inf],
                       [3, 3, 3, 3]]]])
    x = mindtorch.tensor(data)
    for fn in (lambda m, x: F(m).max_pool2d(x, 2, 1, 1, return_indices=True),
               lambda m, x: F(m).max_pool2d(x, 3, 1, 1),
               lambda m, x: F(m).max_pool2d(x, 2, 1, return_indices=True),
               lambda m, x: F(m).adaptive_max_pool2d(x, 3, return_indices=True),
               lambda m, x: F(m).max_pool1d(x[0, 0], 2, 1, 1, return_indices=True),
               lambda m, x: F(m).max_pool3d(x, 2, 1, 1, return_indices=True)):
        check(fn, x)


@pytest.mark.parametrize("nd", [2, 3])
def test_avg_pool_int64_extremes(nd):
    # sums wrap in int64, then C++ division truncates toward zero (also the minimum)
    info = np.iinfo(np.int64)
    data = np.resize([info.min, info.max, 3, -7, 0, info.min, 1, -1], (1, 2) + (4,) * nd)
    x = mindtorch.tensor(data)
    for k, divisor in ((1, None), (2, None), (2, -3), (3, 2)):
        check(lambda m, x: getattr(F(m), f"avg_pool{nd}d")(x, k, None, 0, False, True,
                                                            divisor), x)


def test_avg_pool_int64_truncates():
    x = mindtorch.tensor([[[-1, -2, 3, 4, -5, -7, 1]]])
    for fn in (lambda m, x: F(m).avg_pool1d(x, 2), lambda m, x: F(m).avg_pool1d(x, 3, 2, 1),
               lambda m, x: F(m).avg_pool1d(x, 3, 2, 1, count_include_pad=False)):
        check(fn, x)


UNPOOL = [
    ("unpool1d", 1, (2, 3, 8), lambda m, v, i: F(m).max_unpool1d(v, i, 2)),
    ("unpool1d_size", 1, (3, 7), lambda m, v, i: F(m).max_unpool1d(v, i, 2, output_size=[7])),
    ("unpool2d", 2, (2, 3, 6, 6), lambda m, v, i: F(m).max_unpool2d(v, i, 2)),
    ("unpool2d_stride", 2, (2, 3, 7, 6),
     lambda m, v, i: F(m).max_unpool2d(v, i, 2, 2, output_size=(2, 3, 7, 6))),
    ("unpool2d_unbatched", 2, (3, 6, 4), lambda m, v, i: F(m).max_unpool2d(v, i, (2, 2))),
    ("unpool3d", 3, (1, 2, 4, 4, 6), lambda m, v, i: F(m).max_unpool3d(v, i, 2)),
    ("unpool3d_size", 3, (1, 2, 5, 4, 6),
     lambda m, v, i: F(m).max_unpool3d(v, i, 2, output_size=(5, 4, 6))),
    ("unpool2d_bad_size", 2, (1, 1, 4, 4),
     lambda m, v, i: F(m).max_unpool2d(v, i, 2, output_size=(9, 9))),
    ("unpool2d_short_size", 2, (1, 1, 4, 4),
     lambda m, v, i: F(m).max_unpool2d(v, i, 2, output_size=(4,))),
]


@pytest.mark.parametrize("case", UNPOOL, ids=[c[0] for c in UNPOOL])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_max_unpool(case, dtype):
    _, nd, shape, fn = case
    pool = getattr(mindtorch.nn.functional, f"max_pool{nd}d")
    v, i = pool(make(shape, dtype), 2, return_indices=True)
    check(fn, v, i)


def test_max_unpool_errors():
    v = make((1, 1, 2, 2))
    for i in (mindtorch.tensor([[[[0, 1], [2, 99]]]]), mindtorch.tensor([[[[0, 1], [2, -1]]]]),
              mindtorch.tensor([[[[0, 1], [2, 3]]]], dtype=mindtorch.int32),
              mindtorch.tensor([[[0, 1, 2, 3]]])):
        check(lambda m, v, i: F(m).max_unpool2d(v, i, 2), v, i)
    check(lambda m, v, i: F(m).max_unpool2d(v, i, 2), v.long(), mindtorch.zeros(1, 1, 2, 2,
                                                                             dtype=mindtorch.int64))


ERRORS = [
    lambda m, x: F(m).max_pool2d(x, 2, padding=2),
    lambda m, x: F(m).max_pool2d(x, 2, padding=2, dilation=3),
    lambda m, x: F(m).max_pool2d(x, 0),
    lambda m, x: F(m).max_pool2d(x, 0, 1),
    lambda m, x: F(m).max_pool2d(x, 2, stride=0),
    lambda m, x: F(m).max_pool2d(x, 2, dilation=0),
    lambda m, x: F(m).max_pool2d(x, 2, padding=-1),
    lambda m, x: F(m).max_pool2d(x, (2, 2, 2)),
    lambda m, x: F(m).max_pool2d(x, 2, (1, 1, 1)),
    lambda m, x: F(m).max_pool2d(x, 7),
    lambda m, x: F(m).max_pool2d(x[0, 0], 2),
    lambda m, x: F(m).max_pool2d(x.reshape(1, 2, 3, 6, 6), 2),
    lambda m, x: F(m).max_pool2d(x[:, :0], 2),
    lambda m, x: F(m).max_pool2d(x[:, :, :0], 2),
    lambda m, x: F(m).max_pool1d(x[0], 7),
    lambda m, x: F(m).max_pool1d(x[0, 0, 0], 2),
    lambda m, x: F(m).max_pool1d(x[0, 0, 0], 2, return_indices=True),
    lambda m, x: F(m).max_pool1d(x[0], (2, 2)),
    lambda m, x: F(m).max_pool1d(x[0], 2, padding=2),
    lambda m, x: F(m).max_pool3d(x, 2, padding=2),
    lambda m, x: F(m).max_pool3d(x, 7),
    lambda m, x: F(m).max_pool3d(x[0], 2),
    lambda m, x: F(m).avg_pool2d(x, 2, padding=2),
    lambda m, x: F(m).avg_pool2d(x, 7),
    lambda m, x: F(m).avg_pool2d(x[0, 0], 2),
    lambda m, x: F(m).avg_pool2d(x.reshape(1, 2, 3, 6, 6), 2),
    lambda m, x: F(m).avg_pool2d(x, 2, divisor_override=0),
    lambda m, x: F(m).avg_pool2d(x, 0),
    lambda m, x: F(m).avg_pool1d(x[0], 2, padding=2),
    lambda m, x: F(m).avg_pool1d(x[0], 7),
    lambda m, x: F(m).avg_pool1d(x[0, 0, 0], 2),
    lambda m, x: F(m).avg_pool3d(x.reshape(2, 3, 2, 3, 6), 2, padding=2),
    lambda m, x: F(m).avg_pool3d(x.reshape(2, 3, 2, 3, 6), 5),
    lambda m, x: F(m).avg_pool3d(x[0, 0], 2),
    lambda m, x: F(m).adaptive_avg_pool2d(x, -1),
    lambda m, x: F(m).adaptive_avg_pool2d(x, [3]),
    lambda m, x: F(m).adaptive_avg_pool2d(x[0, 0], 2),
    lambda m, x: F(m).adaptive_avg_pool2d(x[:, :, :0], 2),
    lambda m, x: F(m).adaptive_avg_pool1d(x[0], (2, 2)),
    lambda m, x: F(m).adaptive_avg_pool1d(x[0, 0, 0], 2),
    lambda m, x: F(m).adaptive_avg_pool3d(x[0, 0], 2),
    lambda m, x: F(m).adaptive_max_pool2d(x, -1),
    lambda m, x: F(m).adaptive_max_pool2d(x, [3]),
    lambda m, x: F(m).adaptive_max_pool2d(x[0, 0], 2),
    lambda m, x: F(m).adaptive_max_pool2d(x[:, :0], 2),
    lambda m, x: F(m).adaptive_max_pool1d(x[0, 0, 0], 2),
    lambda m, x: F(m).adaptive_max_pool1d(x[0], -1),
    lambda m, x: F(m).adaptive_max_pool3d(x[0, 0], 2),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_pooling_errors(i):
    check(ERRORS[i], make((2, 3, 6, 6)))


def _aten(lib, name):
    from mindtorch._ops import OPS
    if lib is not torch:
        return OPS[name].binding
    return getattr(torch, name, None) or getattr(torch._C._nn, name)


def _unpool(nd, *args, **kwargs):
    shape = (1, 2) + (2,) * nd
    return lambda m, x: getattr(F(m), f"max_unpool{nd}d")(
        x[:1, :2, :2, :2].reshape(shape), m.zeros(shape, dtype=m.int64, device=x.device),
        *args, **kwargs)


# F's argument forms (int vs sequence, PyTorch's Python-level checks and their exception
# classes), each against PyTorch: success or the same error class
ARGUMENT_FORMS = [
    # avg_pool3d refuses a kernel larger than the input, whatever ceil_mode
    lambda m, x: F(m).avg_pool3d(x[:, :, :2, :2, None].expand(2, 3, 2, 2, 2), 3, 1, 1, True),
    # lp_pool unpacks _pair / _triple(kernel_size): ValueError; lp_pool1d multiplies by it
    lambda m, x: F(m).lp_pool2d(x, 2, (2, 2, 2)),
    lambda m, x: F(m).lp_pool2d(x, 2, [2]),
    lambda m, x: F(m).lp_pool2d(x, float("inf"), [2, 3]),
    lambda m, x: F(m).lp_pool3d(x[None], 2, (2, 2)),
    lambda m, x: F(m).lp_pool3d(x[None], 1.5, 2),
    lambda m, x: F(m).lp_pool1d(x[0], 2, [2]),
    lambda m, x: F(m).lp_pool1d(x[0], 2, 3, 2),
    # max_unpool: F's _unpool_output_size reads as many stride / padding values as the
    # kernel has (extra ones ignored, missing ones an IndexError); ATen's 3d op checks them
    _unpool(1, 2, padding=(0, 0)),
    _unpool(2, 2, padding=(0, 0, 0)),
    _unpool(2, [2]),
    _unpool(3, 2, padding=(0, 0)),
    _unpool(3, 2, stride=(2, 2)),
    _unpool(3, 2, 2, 0, (4, 4, 4)),
    lambda m, x: _aten(m, "max_unpool3d")(
        x[:1, :1, :2, :2, None].expand(1, 1, 2, 2, 2),
        m.zeros((1, 1, 2, 2, 2), dtype=m.int64, device=x.device), [4, 4, 4], [2, 2, 2], [0, 0]),
    lambda m, x: _aten(m, "max_unpool2d")(
        x[:1, :1, :2, :2], m.zeros((1, 1, 2, 2), dtype=m.int64, device=x.device), [4, -1]),
    # adaptive pools: F's _list_with_default (ValueError on the rank first), ATen's int
    # output_size for every dim, negative sizes, empty channels
    lambda m, x: F(m).adaptive_avg_pool2d(x[0], (2, 2, 2)),
    lambda m, x: F(m).adaptive_max_pool3d(x, (2, 2, 2, 2)),
    lambda m, x: F(m).adaptive_max_pool2d(x, (2, None, 2)),
    lambda m, x: F(m).adaptive_max_pool2d(x[0, 0], 2, True),
    lambda m, x: F(m).adaptive_max_pool1d(x[0], (2, None)),
    lambda m, x: F(m).adaptive_avg_pool3d(x[:0, :0, None], 2),
    lambda m, x: F(m).adaptive_avg_pool3d(x[None], -1),
    lambda m, x: _aten(m, "_adaptive_avg_pool2d")(x, 3),
    lambda m, x: _aten(m, "_adaptive_avg_pool3d")(x[None], 0),
    lambda m, x: _aten(m, "adaptive_max_pool2d")(x, 2)[1],
    lambda m, x: _aten(m, "_adaptive_avg_pool2d")(x, (-2, 2)),
    # lp_pool1d's kernel_size goes to avg_pool1d as it is; an empty unpooled output
    lambda m, x: F(m).lp_pool1d(x[0], 3.0, (), -1),
    _unpool(1, 0),
    _unpool(2, 0),
    # empty results: no kernel runs, so no dtype is refused
    lambda m, x: _aten(m, "_adaptive_avg_pool2d")(x[:0].to(m.complex64), (2, 1)),
    lambda m, x: _aten(m, "_adaptive_avg_pool2d")(x[:0].long(), (2, 1)),
    lambda m, x: _aten(m, "_adaptive_avg_pool2d")(x.int(), (0, 0)),
    lambda m, x: _aten(m, "_adaptive_avg_pool3d")(x[None].int(), (0, 0, 0)),
    lambda m, x: F(m).max_unpool1d(x[:1, :2, 0, :3].long(), x[:1, :2, 0, :3].long() * 0, 0),
]


@pytest.mark.parametrize("i", range(len(ARGUMENT_FORMS)))
def test_pooling_argument_forms(i):
    check(ARGUMENT_FORMS[i], make((2, 3, 6, 6)))


@pytest.mark.parametrize("grad", [False, True])
def test_max_pool1d_result_layout(grad):
    # PyTorch: without grad a new contiguous tensor; with it, 2d pooling's channels-last
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    strides = []
    for L in (torch, mindtorch):
        x = L.tensor(data).permute(0, 2, 1).requires_grad_(grad)
        strides.append(L.nn.functional.max_pool1d(x, 1).stride())
    assert strides[0] == strides[1]


def test_unbatched_and_batched_agree():
    x = make((3, 6, 5))
    F_ = mindtorch.nn.functional
    for fn in (lambda x: F_.max_pool2d(x, 2, return_indices=True),
               lambda x: F_.avg_pool2d(x, 3, 1, 1), lambda x: F_.adaptive_avg_pool2d(x, 4),
               lambda x: F_.adaptive_max_pool2d(x, 4, True)):
        a, b = fn(x), fn(x[None])
        for u, v in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
            assert u.shape == v[0].shape and u.dtype is v[0].dtype
            np.testing.assert_array_equal(u.numpy(), v[0].numpy())


@pytest.mark.parametrize("name,shape", [("max_pool1d", (2, 3, 8)), ("avg_pool1d", (2, 3, 8)),
                                        ("max_pool2d", (2, 3, 8, 8)), ("avg_pool2d", (3, 8, 8)),
                                        ("max_pool3d", (1, 2, 6, 6, 6)),
                                        ("avg_pool3d", (2, 6, 6, 6))])
@pytest.mark.parametrize("args", [(0,), (2, 0), (2, 1, -1), (3, 1, 2), (2, 1, 0, 0), (-1,),
                                  (3, -1), (9,), (3, None, 1, 5), ((2, 2),), (2, (1, 1, 1, 1))])
@pytest.mark.parametrize("indices", [False, True])
def test_argument_error_messages(name, shape, args, indices):
    # max_pool1d's values-only form checks its arguments itself ("max_pool1d() ..."); the
    # others name kH/dH/dilationH as ATen's shape checks (C++ division in the pad check)
    if name.startswith("avg") and (len(args) > 3 or indices):
        return
    kw = dict(return_indices=True) if indices else {}

    def run(lib):
        x = lib.ones(shape, requires_grad=indices)
        return getattr(lib.nn.functional, name)(x, *args, **kw)
    try:
        run(torch)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as got:
            run(mindtorch)
        assert str(got.value) == str(e)
    else:
        run(mindtorch)


@pytest.mark.parametrize("shape", [(2, 0, 8), (0, 3, 8), (3, 0), (8,), (2, 3, 4, 8)])
def test_max_pool1d_rank_message(shape):
    try:
        torch.nn.functional.max_pool1d(torch.ones(shape), 2)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as got:
            mindtorch.nn.functional.max_pool1d(mindtorch.ones(shape), 2)
        assert str(got.value) == str(e)
    else:
        mindtorch.nn.functional.max_pool1d(mindtorch.ones(shape), 2)


@pytest.mark.parametrize("size", [(9, 9), (2, 3, 9, 9)])
def test_max_unpool_output_size_message(size):
    # the requested size prints as given, as PyTorch's (a tuple: the int[] binding makes
    # lists and torch.Size tuples)
    def run(lib):
        y, i = lib.nn.functional.max_pool2d(lib.ones(2, 3, 7, 9), 2, return_indices=True)
        return lib.nn.functional.max_unpool2d(y, i, 2, output_size=size)
    with pytest.raises(ValueError) as want:
        run(torch)
    with pytest.raises(ValueError) as got:
        run(mindtorch)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("shape,args,inside", [
    ((1, 1, 2, 6, 1), ([2, 1, 2], [3, 3, 1], [1, 0, 1], [1, 1, 2], True), True),
    ((1, 2, 6, 1), ([1, 2], [3, 1], [0, 1], [1, 2], True), True),
    ((1, 1, 1), (2, 1, 1, 2, True), False),
    ((1, 2, 1, 6), ([2, 1], [1, 3], [1, 0], [2, 1], True), False),  # overlapping windows
    ((1, 2, 1, 6), ([2, 1], [3, 3], [1, 0], [2, 1], True), False),  # disjoint windows
])
def test_max_pool_index_of_a_window_wholly_in_padding(shape, args, inside):
    # -inf, indexed at each dim's first position not before the input, as PyTorch's
    # kernels; past the plane, its gradient reaches no input (PyTorch's lands in the
    # next plane or beyond the buffer)
    def run(lib, device="cpu"):
        x = lib.arange(float(np.prod(shape)), dtype=lib.float64).reshape(shape).to(device)
        x.requires_grad_(True)
        y, i = getattr(lib.nn.functional, f"max_pool{len(shape) - 2}d")(
            x, *args, return_indices=True)
        y.sum().backward()
        return y, i, x.grad
    got, want = run(mindtorch), run(torch)
    assert_same(got[0], want[0])
    assert_same(got[1], want[1])
    if inside:
        assert_same(got[2], want[2])
    else:
        assert not got[2].any()
    assert run(mindtorch, "meta")[2].shape == got[2].shape
