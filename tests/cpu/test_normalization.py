"""Normalization ops (batch/instance/layer/group/RMS norm, local response norm, normalize)
against PyTorch: values and dtypes (16-bit inputs, mixed float32 parameters), in-place
updates of running statistics, non-contiguous and empty inputs, error classes, and the meta
device's shapes/dtypes."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)
# bfloat16 keeps 8 bits: results near 2 are 1/64 apart, and torch rounds its statistics too
TOL = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 2e-2, "atol": 6e-2}}


def make(shape, dtype="float32", low=-2.0, high=2.0, positive=False):
    dt = getattr(mindtorch, dtype)
    if dt.kind in "ui":
        data = RNG.integers(0 if positive else -3, 4, shape)
    else:
        data = RNG.uniform(0.1 if positive else low, high, shape)
    return mindtorch.tensor(np.asarray(data)).to(dt)


def nc(shape, dtype="float32", **kw):
    """A non-contiguous tensor of `shape` (a transpose of the reversed shape)."""
    return make(shape[::-1], dtype, **kw).permute(*range(len(shape) - 1, -1, -1))


def _builtin(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def _ok(x):
    return isinstance(x, (mindtorch.Tensor, torch.Tensor))


def check(fn, *mts, rtol=None, atol=None, meta=True):
    """fn(lib, *tensors) gives PyTorch's result (and leaves the inputs, e.g. running
    statistics, as PyTorch leaves them), or an error of the same builtin class; on meta
    tensors the same shapes/dtypes or the same error."""
    ths = [to_torch(m) if _ok(m) else m for m in mts]
    mts = [m.clone() if _ok(m) else m for m in mts]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = fn(torch, *ths)
        except Exception as e:  # noqa: BLE001 - matched by class
            with pytest.raises(_builtin(e)):
                fn(mindtorch, *mts)
            if meta:
                with pytest.raises(_builtin(e)):
                    fn(mindtorch, *[m.to("meta") if _ok(m) else m for m in mts])
            return None
        metas = [m.to("meta") if _ok(m) else m for m in mts]
        got = fn(mindtorch, *mts)
        assert_same(got, expected, rtol=rtol, atol=atol)
        for m, t in zip(mts, ths):
            if _ok(m):
                assert_same(m, t, rtol=rtol, atol=atol)
        if meta:
            mgot = fn(mindtorch, *metas)
            flat = list(mgot) if isinstance(mgot, tuple) else [mgot]
            for r, c in zip(flat, list(got) if isinstance(got, tuple) else [got]):
                assert r.device.type == "meta"
                assert (tuple(r.shape), r.dtype) == (tuple(c.shape), c.dtype)
    return got


def F(lib):
    return lib.nn.functional


# -- layer norm --------------------------------------------------------------------------------

LAYER = [
    ("last", (4, 3, 5), (5,)), ("two", (4, 3, 5), (3, 5)), ("all", (3, 5), (3, 5)),
    ("1d", (6,), (6,)), ("empty_batch", (0, 5), (5,)), ("empty_norm", (3, 0), (0,)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("case", LAYER, ids=lambda c: c[0])
def test_layer_norm(case, dtype):
    _, shape, ns = case
    x, w, b = make(shape, dtype), make(ns, dtype), make(ns, dtype)
    tol = TOL.get(dtype, {})
    check(lambda L, x, w, b: F(L).layer_norm(x, ns, w, b, eps=1e-3), x, w, b, **tol)
    check(lambda L, x: F(L).layer_norm(x, ns), x, **tol)
    check(lambda L, x, w: L.layer_norm(x, ns, w, None, 1e-5, False), x, w, **tol)
    check(lambda L, x, w, b: L.native_layer_norm(x, ns, w, b, 1e-5), x, w, b, **tol)


def test_layer_norm_layouts_and_mixed():
    x = nc((4, 3, 5))
    check(lambda L, x: F(L).layer_norm(x, (5,)), x)
    check(lambda L, x: F(L).layer_norm(x, (3, 5)), x[:, :, ::1])
    check(lambda L, x, w: F(L).layer_norm(x, (4,), w), make((5, 3, 4))[::2], nc((4,)))
    # 16-bit input with float32 parameters computes in float32 (PyTorch's mixed dtypes)
    for dt in ("float16", "bfloat16"):
        check(lambda L, x, w, b: F(L).layer_norm(x, (5,), w, b), make((3, 5), dt), make((5,)),
              make((5,)), **TOL[dt])


@pytest.mark.parametrize("args", [
    ((4, 3, 5), (4,), None, None), ((4, 3, 5), (5,), (4,), None), ((4, 3, 5), (5,), (1, 5), None),
    ((4, 3, 5), (), None, None), ((), (), None, None), ((4, 5), (6, 5), None, None),
    ((4, 3, 5), (5,), None, (3,)),
], ids=str)
def test_layer_norm_errors(args):
    shape, ns, ws, bs = args
    x = make(shape)
    w = None if ws is None else make(ws)
    b = None if bs is None else make(bs)
    check(lambda L, x: F(L).layer_norm(x, ns, w and _lib(L, w), b and _lib(L, b)), x)


def _lib(L, t):
    return to_torch(t) if L is torch else t


@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("float32", "float64"),
                                    ("float64", "float32"), ("bfloat16", "float16"),
                                    ("float16", "bfloat16")], ids=str)
def test_norm_dtype_errors(dtypes):
    x, p = make((4, 3, 5), dtypes[0]), make((5,), dtypes[1])
    check(lambda L, x, w: F(L).layer_norm(x, (5,), w), x, p)
    p3 = make((3,), dtypes[1])
    check(lambda L, x, w: F(L).group_norm(x, 3, w), x, p3)
    check(lambda L, x, w: F(L).batch_norm(x, None, None, w, training=True), x, p3)
    check(lambda L, x, w: F(L).rms_norm(x, (5,), w), x, p)


# -- batch norm --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 2, 2), (2, 3, 1, 2, 2)], ids=str)
def test_batch_norm(shape, dtype):
    x, w, b = make(shape, dtype), make((3,), dtype), make((3,), dtype)
    rm, rv = make((3,), dtype), make((3,), dtype, positive=True)
    tol = TOL.get(dtype, {})
    for training in (True, False):
        check(lambda L, x, rm, rv, w, b, t=training: F(L).batch_norm(x, rm, rv, w, b, t, 0.3,
                                                                     1e-3),
              x, rm, rv, w, b, **tol)
    check(lambda L, x: F(L).batch_norm(x, None, None, training=True), x, **tol)
    check(lambda L, x, rm, rv: F(L).batch_norm(x, rm, rv), x, rm, rv, **tol)
    for training in (True, False):
        check(lambda L, x, w, b, rm, rv, t=training: L.native_batch_norm(x, w, b, rm, rv, t,
                                                                         0.1, 1e-5),
              x, w, b, rm, rv, **tol)
        check(lambda L, x, w, b, rm, rv, t=training: L.batch_norm(x, w, b, rm, rv, t, 0.2, 1e-5,
                                                                  False),
              x, w, b, rm, rv, **tol)
    check(lambda L, x: L.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5), x, **tol)


def test_batch_norm_mixed_and_layouts():
    # 16-bit input, float32 parameters and running statistics (updated in float32)
    for dt in ("float16", "bfloat16"):
        check(lambda L, x, rm, rv, w: F(L).batch_norm(x, rm, rv, w, None, True),
              make((4, 3, 2), dt), make((3,)), make((3,), positive=True), make((3,)), **TOL[dt])
        check(lambda L, x, w, b, rm, rv: L.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5),
              make((4, 3, 2), dt), make((3,)), None, make((3,)), make((3,), positive=True),
              **TOL[dt])
        check(lambda L, x, w, b, rm, rv: L.native_batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5),
              make((4, 3, 2), dt), None, None, make((3,)), make((3,), positive=True), **TOL[dt])
    check(lambda L, x, rm, rv: F(L).batch_norm(x, rm, rv, training=True), nc((4, 3, 5)),
          make((3,)), make((3,), positive=True))
    # parameters are checked by their number of elements only
    check(lambda L, x, w: F(L).batch_norm(x, None, None, w, w, training=True), make((4, 3)),
          make((3, 1)))


def test_batch_norm_running_stats_views():
    """The running statistics are written in place, also through views (without a version
    bump, as ATen's kernels write them)."""
    base, tbase = make((2, 3)), None
    tbase = to_torch(base)
    x = make((4, 3, 2))
    F(mindtorch).batch_norm(x, base[0], base[1].abs(), training=True, momentum=0.5)
    rv_t = tbase[1].abs()
    F(torch).batch_norm(to_torch(x), tbase[0], rv_t, training=True, momentum=0.5)
    assert_same(base[0], tbase[0])
    assert base._version == tbase._version


def test_batch_norm_empty():
    check(lambda L, x: F(L).batch_norm(x, None, None, training=True), make((0, 3)))
    check(lambda L, x, rm, rv: F(L).batch_norm(x, rm, rv), make((0, 3, 2)), make((3,)),
          make((3,), positive=True))
    check(lambda L, x, w, b: F(L).batch_norm(x, None, None, w, b, True), make((0, 3)),
          make((3,)), make((3,)))
    check(lambda L, x: L.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
          make((0, 3), "int64"))
    check(lambda L, x: L.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5),
          make((0, 3)))


@pytest.mark.parametrize("call", [
    lambda L, x, r: F(L).batch_norm(x, None, None),
    lambda L, x, r: F(L).batch_norm(x, r, None),
    lambda L, x, r: F(L).batch_norm(x, r, None, training=True),
    lambda L, x, r: F(L).batch_norm(x[:1, :, 0], None, None, training=True),
    lambda L, x, r: F(L).batch_norm(x[0, 0], None, None, training=True),
    lambda L, x, r: F(L).batch_norm(x, None, None, training=True, eps=0.0),
    lambda L, x, r: F(L).batch_norm(x, None, None, eps=-1.0),
    lambda L, x, r: F(L).batch_norm(x, r[:2], r[:2]),
    lambda L, x, r: F(L).batch_norm(x, None, None, r[:2], training=True),
    lambda L, x, r: F(L).batch_norm(x, r, r, momentum=None, training=True),
    lambda L, x, r: F(L).batch_norm(x.long(), None, None, training=True),
])
def test_batch_norm_errors(call):
    check(call, make((4, 3, 5)), make((3,), positive=True))


# -- instance norm -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_instance_norm(dtype):
    x, w, b = make((2, 3, 4), dtype), make((3,), dtype), make((3,), dtype)
    rm, rv = make((3,), dtype), make((3,), dtype, positive=True)
    tol = TOL.get(dtype, {})
    check(lambda L, x: F(L).instance_norm(x), x, **tol)
    check(lambda L, x, rm, rv, w, b: F(L).instance_norm(x, rm, rv, w, b, momentum=0.4),
          x, rm, rv, w, b, **tol)
    check(lambda L, x, rm, rv: F(L).instance_norm(x, rm, rv, use_input_stats=False), x, rm, rv,
          **tol)
    check(lambda L, x, w, b, rm, rv: L.instance_norm(x, w, b, rm, rv, True, 0.1, 1e-5, False),
          make((2, 3, 2, 2), dtype), w, b, rm, rv, **tol)
    check(lambda L, x: F(L).instance_norm(x), nc((2, 3, 5)))


@pytest.mark.parametrize("call", [
    lambda L, x: F(L).instance_norm(x[:, :, :1]),
    lambda L, x: F(L).instance_norm(x[0]),
    lambda L, x: F(L).instance_norm(x, use_input_stats=False),
    lambda L, x: F(L).instance_norm(x.long()),
])
def test_instance_norm_errors(call):
    check(call, make((2, 3, 4)))


# -- group norm --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("case", [((2, 6, 3), 3), ((2, 4), 2), ((3, 4, 2, 2), 1),
                                  ((2, 4, 3), 4), ((0, 4, 2), 2)], ids=str)
def test_group_norm(case, dtype):
    shape, g = case
    C = shape[1]
    x, w, b = make(shape, dtype), make((C,), dtype), make((C,), dtype)
    tol = TOL.get(dtype, {})
    check(lambda L, x, w, b: F(L).group_norm(x, g, w, b, 1e-3), x, w, b, **tol)
    check(lambda L, x: F(L).group_norm(x, g), x, **tol)
    check(lambda L, x, w: L.group_norm(x, g, w, None, 1e-5, False), x, w, **tol)
    n, hw = shape[0], int(np.prod(shape[2:]))
    check(lambda L, x, w, b: L.native_group_norm(x, w, b, n, C, hw, g, 1e-5), x, w, b, **tol)


def test_group_norm_layouts_and_mixed():
    check(lambda L, x: F(L).group_norm(x, 2), nc((3, 4, 5)))
    check(lambda L, x, w: F(L).group_norm(x, 3, w), make((2, 3, 4), "float16"), make((3,)),
          **TOL["float16"])


@pytest.mark.parametrize("call", [
    lambda L, x: F(L).group_norm(x, 2),
    lambda L, x: F(L).group_norm(x[0, 0], 1),
    lambda L, x: F(L).group_norm(x[:1, :, 0], 3),
    lambda L, x: F(L).group_norm(x, 0),
    lambda L, x: F(L).group_norm(x, 3, x[0, 0]),
    lambda L, x: F(L).group_norm(x.long(), 3),
    lambda L, x: L.group_norm(x, 2),
    lambda L, x: L.native_group_norm(x, None, None, 4, 3, 4, 3, 1e-5),
])
def test_group_norm_errors(call):
    check(call, make((4, 3, 5)))


# -- RMS norm, local response norm, normalize ----------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_rms_norm(dtype):
    x, w = make((4, 3, 5), dtype), make((3, 5), dtype)
    tol = TOL.get(dtype, {})
    check(lambda L, x: F(L).rms_norm(x, (5,)), x, **tol)
    check(lambda L, x, w: F(L).rms_norm(x, (3, 5), w, 1e-3), x, w, **tol)
    check(lambda L, x, w: L.rms_norm(x, [5], w[0]), x, w, **tol)
    check(lambda L, x: F(L).rms_norm(x, (5,)), nc((4, 3, 5), dtype), **tol)
    check(lambda L, x: F(L).rms_norm(x, (5,)), make((0, 5), dtype))


def test_rms_norm_mixed_and_errors():
    # mismatched parameter dtypes fall back to PyTorch's composite: the input's dtype wins
    check(lambda L, x, w: F(L).rms_norm(x, (5,), w), make((3, 5)), make((5,), "float64"))
    check(lambda L, x, w: F(L).rms_norm(x, (5,), w), make((3, 5), "float64"), make((5,)))
    check(lambda L, x, w: F(L).rms_norm(x, (5,), w), make((3, 5), "bfloat16"), make((5,)),
          **TOL["bfloat16"])
    check(lambda L, x: F(L).rms_norm(x, (4,)), make((3, 5)))
    check(lambda L, x: F(L).rms_norm(x, (5,), x[0, :4]), make((3, 5)))
    check(lambda L, x: F(L).rms_norm(x, (5,)), make((3, 5), "int64"))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bfloat16"])
@pytest.mark.parametrize("case", [((2, 5, 3), 2), ((2, 5, 3), 3), ((1, 4, 2, 3), 5),
                                  ((2, 3, 2, 2, 2), 1), ((0, 3, 4), 2)], ids=str)
def test_local_response_norm(case, dtype):
    shape, size = case
    tol = TOL.get(dtype, {})
    check(lambda L, x: F(L).local_response_norm(x, size), make(shape, dtype), **tol)
    check(lambda L, x: F(L).local_response_norm(x, size, 0.1, 0.5, 2.0), make(shape, dtype),
          **tol)


def test_local_response_norm_layouts_and_errors():
    check(lambda L, x: F(L).local_response_norm(x, 3), nc((2, 4, 3)))
    check(lambda L, x: F(L).local_response_norm(x, 2), make((3, 4)))
    check(lambda L, x: F(L).local_response_norm(x, 0), make((2, 3, 4)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("kw", [{}, {"p": 1.0}, {"p": float("inf")}, {"p": 3.0, "dim": 0},
                                {"dim": (0, 2)}, {"dim": -1, "eps": 0.5}, {"p": 0.0}], ids=str)
def test_normalize(kw, dtype):
    tol = TOL.get(dtype, {})
    check(lambda L, x: F(L).normalize(x, **kw), make((4, 3, 5), dtype), **tol)
    check(lambda L, x: F(L).normalize(x, **kw), nc((4, 3, 5), dtype), **tol)


def test_normalize_edges():
    check(lambda L, x: F(L).normalize(x, dim=0), make((4,)))
    check(lambda L, x: F(L).normalize(x, dim=0), make(()))
    check(lambda L, x: F(L).normalize(x), make((0, 3)))
    check(lambda L, x: F(L).normalize(x), mindtorch.zeros(2, 3))  # eps keeps it finite
    check(lambda L, x: F(L).normalize(x), make((4,)))
    check(lambda L, x: F(L).normalize(x), make((3, 4), "int64"))
    out = mindtorch.empty(3, 4)
    x = make((3, 4))
    r = F(mindtorch).normalize(x, out=out)
    assert r is out
    assert_same(out, F(torch).normalize(to_torch(x)))


def test_functional_names_and_signatures():
    """nn.functional's forms take PyTorch's functional argument order; torch.<name> the
    ATen one (no nn.functional-only names leak into mindtorch)."""
    fn = mindtorch.nn.functional
    for name in ("batch_norm", "instance_norm", "layer_norm", "group_norm", "rms_norm",
                 "local_response_norm", "normalize"):
        assert callable(getattr(fn, name))
    for name in ("local_response_norm", "normalize", "functional_batch_norm"):
        assert not hasattr(mindtorch, name)
    for name in ("batch_norm", "instance_norm", "layer_norm", "group_norm", "rms_norm",
                 "native_layer_norm", "native_batch_norm", "native_group_norm"):
        assert callable(getattr(mindtorch, name))
    with pytest.raises(TypeError):
        fn.layer_norm(make((2, 3)), (3,), cudnn_enable=True)
    with pytest.raises(TypeError):
        mindtorch.batch_norm(make((2, 3)), None, None, None, None, True, 0.1, 1e-5)


# -- regressions found by the fuzzer ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("params", ["weight", "bias", "both", "none", "half"])
def test_native_norm_statistics_dtype_with_float32_parameters(dtype, params):
    """A 16-bit input with float32 parameters keeps float32 mean and rstd (PyTorch's mixed
    kernels); without parameters, or with 16-bit ones, the input's dtype."""
    pdt = dtype if params == "half" else "float32"
    w = make((4,), pdt) if params in ("weight", "both", "half") else None
    b = make((4,), pdt) if params in ("bias", "both") else None
    check(lambda L, x, w, b: L.native_layer_norm(x, [4], w, b, 1e-5), make((3, 4), dtype), w,
          b, rtol=2e-2, atol=2e-2)
    check(lambda L, x, w, b: L.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5),
          make((2, 4, 3), dtype), w, b, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("shape, norm", [((3,), [1, 3]), ((2, 3), [1, 2, 3]), ((), [1]),
                                         ((3,), []), ((2, 3), [2]), ((3,), [2, 3])])
def test_rms_norm_shape_errors(shape, norm):
    """An input with fewer dims than normalized_shape: ValueError (checked after the
    weight's shape and before the trailing sizes); an empty normalized_shape refused."""
    check(lambda L, x: L.rms_norm(x, norm), make(shape))
    check(lambda L, x, w: L.rms_norm(x, norm, w), make(shape), make((3,)))
    check(lambda L, x: L.rms_norm(x, norm), make(shape, "int64"))


def test_rms_norm_complex():
    x = mindtorch.complex(make((2, 3)), make((2, 3)))
    check(lambda L, x: L.rms_norm(x, [3]), x)
    check(lambda L, x, w: L.rms_norm(x, [2, 3], w), x, make((2, 3)))


@pytest.mark.parametrize("shape", [(0, 3), (0, 3, 2), (0,), (2, 0, 3)])
@pytest.mark.parametrize("training", [False, True])
def test_batch_norm_empty_input_skips_checks(shape, training):
    """An empty input skips batch_norm's kernel and checks (no running statistics needed
    in evaluation mode): only scaled by weight[0] and shifted by bias[0]."""
    check(lambda L, x: L.batch_norm(x, None, None, None, None, training, 0.1, 1e-5, True),
          make(shape))
    for w in (make((3,)), make((3,), "float64"), make((0,)), make((2, 3))):
        check(lambda L, x, w: L.batch_norm(x, w, w, None, None, training, 0.1, 1e-5, True),
              make(shape), w)


@pytest.mark.parametrize("dtypes", [("float32", "float16", "float32"),
                                    ("float32", "float64", "float64"),
                                    ("float32", "float32", "float16"),
                                    ("float32", "bfloat16", "bfloat16"),
                                    ("float16", "float32", "float32"),
                                    ("float16", "float64", "float32"),
                                    ("float16", "float16", "float32")])
@pytest.mark.parametrize("use_input_stats", [True, False])
@pytest.mark.parametrize("weight", [None, "float32"])
def test_instance_norm_running_stats_dtype(dtypes, use_input_stats, weight):
    """Running statistics of another dtype than the parameters' (or the kernel's) are taken
    in that dtype when running_mean's differs, and updated in their own dtype."""
    x, rm, rv = make((2, 3, 4), dtypes[0]), make((3,), dtypes[1]), make((3,), dtypes[2],
                                                                           positive=True)
    w = None if weight is None else make((3,), weight)
    check(lambda L, x, rm, rv, w: L.instance_norm(x, w, None, rm, rv, use_input_stats, 0.1,
                                                  1e-5, True), x, rm, rv, w, rtol=1e-2,
          atol=1e-2)


@pytest.mark.parametrize("shape", [(), (3,)])
def test_group_norm_short_input(shape):
    """torch.group_norm reads size(0) and size(1) (IndexError); nn.functional's refuses
    first (RuntimeError)."""
    check(lambda L, x: L.group_norm(x, 1), make(shape))
    check(lambda L, x: F(L).group_norm(x, 1), make(shape))
    check(lambda L, x: L.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, True),
          make(shape))


def test_normalize_checks_dtype_before_dim():
    check(lambda L, x: F(L).normalize(x, 1.0, (0, 3)), make((2, 3, 4), "int16"))
    check(lambda L, x: F(L).normalize(x, 1.0, (0, 3)), make((2, 3, 4)))
    check(lambda L, x: F(L).normalize(input=x, dim=0), make((2, 3)))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_native_batch_norm_out_tuple(training, dtype):
    """out=(output, save_mean, save_invstd): a plain tuple of the out tensors; evaluation
    leaves save_mean/save_invstd as they were (PyTorch's native_batch_norm_out)."""
    from reference import same_error
    x = np.random.default_rng(0).standard_normal((4, 3, 2)).astype(dtype)
    res = {}
    for m in (mindtorch, torch):
        args = (m.tensor(x), m.ones(3) * 2, m.zeros(3) + 0.5, m.zeros(3), m.ones(3))
        out = (m.empty(0, dtype=getattr(m, dtype)), m.empty(0), m.full((2,), 7.0))
        r = m.native_batch_norm(*args, training, 0.1, 1e-5, out=out)
        assert type(r) is tuple and all(a is b for a, b in zip(r, out))
        res[m] = out + args[3:]
    for a, b in zip(res[mindtorch], res[torch]):
        assert_same(a, b, rtol=2e-3, atol=1e-3)
    for make in (lambda m: (m.empty(0, dtype=m.float64), m.empty(0), m.empty(0)),
                 lambda m: (m.empty(0), m.empty(0), m.empty(0, dtype=m.float64)),
                 lambda m: (m.empty(0), m.empty(0))):
        same_error(lambda: mindtorch.native_batch_norm(
            mindtorch.ones(4, 3), None, None, None, None, True, 0.1, 1e-5, out=make(mindtorch)),
            lambda: torch.native_batch_norm(torch.ones(4, 3), None, None, None, None, True,
                                            0.1, 1e-5, out=make(torch)))


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("dtype, weight, hxw", [
    ("complex64", None, 5), ("int64", None, 5), ("float32", "float64", 5),
    ("float16", "float64", 5), ("float32", None, 5), ("complex64", 5, 3)])
def test_native_group_norm_check_order(device, dtype, weight, hxw):
    # PyTorch: groups, weight/bias sizes, dtypes, then input's size (in its kernel)
    from reference import same_error

    def args(lib, **kw):
        x = lib.ones(2, 4, 3, dtype=getattr(lib, dtype), **kw)
        w = (None if weight is None else lib.ones(weight, **kw) if isinstance(weight, int)
             else lib.ones(4, dtype=getattr(lib, weight), **kw))
        return x, w, None, 2, 4, hxw, 2, 1e-5
    same_error(lambda: mindtorch.native_group_norm(*args(mindtorch, device=device)),
               lambda: torch.native_group_norm(*args(torch)))


@pytest.mark.parametrize("perm, step", [(None, 2), ((0, 2, 3, 1), None), ((0, 3, 1, 2), None),
                                        (None, None)])
def test_native_group_norm_layout_check(perm, step):
    # native_group_norm takes contiguous or channels-last input only; group_norm copies first
    from reference import same_error

    def mk(lib):
        x = lib.arange(240., dtype=lib.float64).reshape(2, 4, 5, 6)
        if perm:
            inv = [perm.index(i) for i in range(4)]
            x = x.permute(*perm).contiguous().permute(*inv)
        return x[..., ::step] if step else x
    hw = 30 // (step or 1)
    same_error(lambda: mindtorch.native_group_norm(mk(mindtorch), None, None, 2, 4, hw, 2, 1e-5),
               lambda: torch.native_group_norm(mk(torch), None, None, 2, 4, hw, 2, 1e-5))
    assert_same(mindtorch.group_norm(mk(mindtorch), 2), torch.group_norm(mk(torch), 2))
