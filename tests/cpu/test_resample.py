"""Resampling against PyTorch: F.pad (every mode, negative padding, values, PyTorch's
errors), F.interpolate / upsample (every mode, size or scale_factor, align_corners,
recompute_scale_factor), pixel / channel shuffles, grid_sample and affine_grid; dtypes,
non-contiguous inputs, empty batches, error classes and the meta device's shapes/dtypes."""
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch._ops import OPS
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def F(lib):
    return lib.nn.functional


def make(shape, dtype="float32", nc=False):
    """Random values (integers for integer dtypes); nc: non-contiguous (last two dims
    transposed in memory)."""
    dt = getattr(mindtorch, dtype)
    if dt is mindtorch.bool:
        data = RNG.random(shape) > 0.5
    elif dt.kind in "ui":
        data = RNG.integers(0 if dt.kind == "u" else -50, 100, shape)
    else:
        data = RNG.standard_normal(shape)
        if dt.is_complex:
            data = data + 1j * RNG.standard_normal(shape)
    if nc and len(shape) >= 2:
        data = np.ascontiguousarray(np.swapaxes(data, -1, -2))
        return mindtorch.tensor(data).to(dt).transpose(-1, -2)
    return mindtorch.tensor(data).to(dt)


def _base(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None, meta=True):
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
    assert_same(got, expected, rtol=rtol, atol=atol)
    if meta:
        r = fn(mindtorch, *[m.to("meta") if isinstance(m, mindtorch.Tensor) else m for m in mts])
        assert r.device.type == "meta" and r.shape == got.shape and r.dtype is got.dtype


# -- padding -----------------------------------------------------------------------------

PADS = [
    # (pad, input shape) for every mode
    ((1, 2), (2, 3, 5)),
    ((2, 0), (3, 4)),
    ((-1, 2), (2, 3, 5)),
    ((1, -2), (2, 3, 5)),
    ((1, 2, 2, 1), (2, 3, 4, 5)),
    ((0, 1, -1, 2), (3, 4, 5)),
    ((1, 1, 2, 0, 1, 2), (1, 2, 3, 4, 5)),
    ((1, 0, 0, 1, 2, 1), (2, 3, 4, 5)),
    ((1, 2), (2, 3, 4, 5)),             # non-constant modes: unsupported size combination
    ((4, 1), (2, 3, 4)),                # reflect: padding too large
    ((6, 0), (2, 3, 5)),                # circular: wraps more than once
    ((-3, -2), (2, 3, 5)),              # cropped to nothing
    ((1, 1), (0, 3, 4)),                # empty batch
    ((1, 1), (2, 0, 4)),                # empty channels
    ((1, 2, 3), (2, 3, 5)),             # odd length
    ((1,) * 8, (2, 3, 5)),              # too long
]
MODES = ["constant", "reflect", "replicate", "circular"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pad,shape", PADS, ids=[f"{p}-{s}" for p, s in PADS])
def test_pad(mode, pad, shape):
    check(lambda m, x: F(m).pad(x, pad, mode=mode), make(shape))


@pytest.mark.parametrize("mode", MODES)
def test_pad_non_contiguous(mode):
    check(lambda m, x: F(m).pad(x, (2, 1, 1, 3), mode=mode), make((2, 3, 4, 5), nc=True))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "int64", "uint8", "bool",
                                   "complex64"])
def test_pad_dtypes(mode, dtype):
    check(lambda m, x: F(m).pad(x, (1, 2), mode=mode), make((2, 3, 5), dtype))


def test_constant_pad_values_and_torch_function():
    x = make((2, 3, 4))
    check(lambda m, x: F(m).pad(x, (1, 2, 0, 1), value=2.5), x)
    check(lambda m, x: F(m).pad(x, (1, 1), value=-7), make((2, 3), "int64"))
    check(lambda m, x: F(m).pad(x, (1, 1), value=1), make((2, 3), "bool"))
    check(lambda m, x: F(m).pad(x, (), value=1), mindtorch.tensor(2.0))
    check(lambda m, x: F(m).pad(x, (1, 1)), mindtorch.tensor(2.0))
    check(lambda m, x: m.constant_pad_nd(x, (1, 2, -1, 0), 3), x)
    check(lambda m, x: m.constant_pad_nd(x, (1, 2, 3)), x)
    check(lambda m, x: m.constant_pad_nd(x, (-3, 0)), x)
    check(lambda m, x: m.constant_pad_nd(x, (-5, 0)), x)


@pytest.mark.parametrize("shape", [(2, 3, 5), (2, 3, 4, 5), (1, 1, 4, 5), (1, 2, 2, 4, 5)])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "linear", "bilinear", "bicubic",
                                  "trilinear"])
def test_interpolate_dtype_refusal_names_pytorchs_kernel(shape, mode):
    # (2d nearest / bilinear: the channels-last kernel's name, whatever the layout)
    for dtype in ("int32", "bool"):
        try:
            torch.nn.functional.interpolate(torch.ones(shape, dtype=getattr(torch, dtype)),
                                            scale_factor=2.0, mode=mode)
        except NotImplementedError as e:
            with pytest.raises(NotImplementedError) as got:
                mindtorch.nn.functional.interpolate(
                    mindtorch.ones(shape, dtype=getattr(mindtorch, dtype)), scale_factor=2.0,
                    mode=mode)
            assert str(got.value) == str(e)


def test_channel_shuffle_messages():
    for shape, groups in [((2, 3), 2), ((2, 3, 4), 2), ((2, 4, 3), 0)]:
        with pytest.raises(RuntimeError) as want:
            torch.nn.functional.channel_shuffle(torch.zeros(shape), groups)
        with pytest.raises(RuntimeError) as got:
            mindtorch.nn.functional.channel_shuffle(mindtorch.zeros(shape), groups)
        assert str(got.value) == str(want.value)


def test_constant_pad_negative_size_message():
    for pad in [(-3, -2), (-5, 0), (1, -6)]:
        with pytest.raises(RuntimeError) as want:
            torch.nn.functional.pad(torch.zeros(2, 4), pad)
        for device in ["cpu", "meta"]:
            with pytest.raises(RuntimeError) as got:
                mindtorch.nn.functional.pad(mindtorch.zeros(2, 4, device=device), pad)
            assert str(got.value) == str(want.value)


def test_pad_mode_errors():
    x = make((2, 3, 5))
    check(lambda m, x: F(m).pad(x, (1, 1), mode="foo"), x)
    check(lambda m, x: F(m).pad(x, (1, 1), mode="reflect", value=1.0), x)
    check(lambda m, x: F(m).pad(x, (1, 1), mode="reflect", value=0.0), x)


def test_pad_result_is_not_a_view():
    x = make((2, 3))
    y = mindtorch.nn.functional.pad(x, (-1, 0))
    y.add_(1)
    assert_same(x, to_torch(x))  # (unchanged)
    assert not np.shares_memory(x.numpy(), y.numpy())


# -- interpolation -----------------------------------------------------------------------

INTERP = [
    # (modes, input shape, keyword arguments)
    (("nearest", "nearest-exact", "area"), (2, 3, 7), {"size": 11}),
    (("nearest", "nearest-exact", "area", "linear"), (2, 3, 7), {"scale_factor": 0.7}),
    (("nearest", "nearest-exact", "linear"), (2, 3, 7), {"scale_factor": 2}),
    (("linear",), (2, 3, 7), {"size": 4, "align_corners": True}),
    (("linear",), (2, 3, 7), {"scale_factor": 1.3, "recompute_scale_factor": True}),
    (("nearest", "nearest-exact", "bilinear", "bicubic", "area"), (2, 3, 5, 6),
     {"size": (7, 4)}),
    (("nearest", "nearest-exact", "bilinear", "bicubic"), (2, 3, 5, 6), {"scale_factor": 1.7}),
    (("nearest", "bilinear", "bicubic", "area"), (2, 3, 5, 6), {"scale_factor": (0.6, 2.0)}),
    (("bilinear", "bicubic"), (2, 3, 5, 6), {"size": 9, "align_corners": True}),
    (("bilinear", "bicubic"), (2, 3, 5, 6), {"size": (1, 6), "align_corners": True}),
    (("nearest", "bilinear", "bicubic"), (2, 3, 5, 6),
     {"scale_factor": 1.3, "recompute_scale_factor": True}),
    (("nearest", "bilinear"), (2, 3, 5, 6), {"size": (5, 6)}),
    (("nearest", "nearest-exact", "trilinear", "area"), (1, 2, 3, 4, 5), {"size": (4, 3, 7)}),
    (("nearest", "nearest-exact", "trilinear"), (1, 2, 3, 4, 5), {"scale_factor": 1.5}),
    (("trilinear",), (1, 2, 3, 4, 5), {"scale_factor": 2, "align_corners": True}),
    (("nearest", "bilinear"), (0, 3, 4, 4), {"size": 3}),
    (("bilinear",), (3, 4, 4), {"size": 3}),                     # needs 4D input
    (("linear",), (2, 3, 4, 4), {"size": 3}),                    # needs 3D input
    (("nearest",), (4, 4), {"size": 3}),
    (("foo",), (2, 3, 4, 4), {"size": 3}),
    (("nearest",), (2, 3, 4, 4), {"size": 3, "scale_factor": 2}),
    (("nearest",), (2, 3, 4, 4), {}),
    (("nearest",), (2, 3, 4, 4), {"size": (3,)}),
    (("nearest",), (2, 3, 4, 4), {"size": (3.0, 4.0)}),
    (("nearest",), (2, 3, 4, 4), {"scale_factor": (2.0,)}),
    (("nearest", "bilinear"), (2, 3, 4, 4), {"size": 3, "align_corners": True}),
    (("nearest",), (2, 3, 4, 4), {"size": 3, "recompute_scale_factor": True}),
    (("nearest", "bilinear"), (2, 3, 4, 4), {"scale_factor": 0.1}),
    (("nearest",), (2, 3, 4, 4), {"size": 0}),
    (("nearest",), (2, 0, 4, 4), {"size": 3}),
    (("nearest",), (2, 3, 4, 4), {"size": 3, "antialias": True}),
    (("lanczos",), (2, 3, 4, 4), {"size": 3}),
]


@pytest.mark.parametrize("case", INTERP, ids=[f"{'-'.join(c[0])}-{c[1]}-{c[2]}" for c in INTERP])
@pytest.mark.parametrize("nc", [False, True])
def test_interpolate(case, nc):
    modes, shape, kwargs = case
    x = make(shape, nc=nc)
    for mode in modes:
        check(lambda m, x: F(m).interpolate(x, mode=mode, **kwargs), x, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode,shape", [("nearest", (1, 2, 5)), ("nearest", (1, 2, 4, 5)),
                                        ("nearest-exact", (1, 2, 4, 5)),
                                        ("nearest", (1, 1, 2, 3, 4)), ("bilinear", (1, 2, 4, 5)),
                                        ("bicubic", (1, 2, 4, 5)), ("linear", (1, 2, 5)),
                                        ("trilinear", (1, 1, 2, 3, 4)), ("area", (1, 2, 4, 5))])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64", "uint8", "int64", "bool"])
def test_interpolate_dtypes(mode, shape, dtype):
    x = make(shape, dtype)
    check(lambda m, x: F(m).interpolate(x, scale_factor=1.7, mode=mode), x)


@pytest.mark.parametrize("mode,shape,size", [
    ("linear", (2, 3, 2), 6), ("linear", (1, 1, 1), 5), ("linear", (2, 2, 5), 5),
    ("bilinear", (1, 2, 2, 1), (6, 1)), ("bilinear", (1, 3, 1, 1), (2, 5)),
    ("trilinear", (1, 2, 4, 3, 3), (7, 7, 3)), ("bicubic", (1, 2, 3, 4), (5, 7))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_interpolate_non_finite_input(mode, shape, size, dtype):
    # NaN where PyTorch gets one: inf * 0 from a zero weight (also where a size is
    # unchanged: weights 1 and 0), source indices s * (d + 0.5) - 0.5 fused (one
    # rounding), floored in float32
    rng = np.random.default_rng(len(shape))
    data = rng.standard_normal(shape)
    flat = data.reshape(-1)
    flat[::2] = np.resize([np.inf, -np.inf, np.nan, 1e30], flat[::2].size)
    x = mindtorch.tensor(data).to(getattr(mindtorch, dtype))
    for ac in (False, True):
        check(lambda m, x: F(m).interpolate(x, size=size, mode=mode, align_corners=ac), x,
              rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("size,scales", [((8, 3), (1.5, None)), ((4, 14), (None, 0.7)),
                                         ((8, 14), (0.3, 3.0)), ((5, 9), (1.5, 0.4))])
def test_upsample_nearest2d_ignores_scales_of_unchanged_or_doubled_sizes(size, scales):
    # PyTorch's 2d nearest kernel (small outputs) copies or halves indices, whatever scale
    from mindtorch._ops import OPS
    x = make((2, 3, 4, 7), "float64")
    check(lambda m, x: (torch._C._nn.upsample_nearest2d if m is torch else
                        OPS["upsample_nearest2d"].binding)(x, list(size), *scales), x)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("channels", [3, 6])  # PyTorch's AVX2 path (<= 4) and generic one
def test_interpolate_uint8_fixed_point(mode, channels):
    # PyTorch's uint8 path: int16 weights, one dim at a time, rounding to uint8 in between
    x = mindtorch.tensor(RNG.integers(0, 256, (2, channels, 5, 7))).to(mindtorch.uint8)
    for kw in [{"size": (9, 4)}, {"size": (3, 11), "align_corners": True},
               {"size": (5, 13)}, {"size": (2, 7), "align_corners": True},
               {"scale_factor": (1.3, 0.6), "recompute_scale_factor": False}]:
        check(lambda m, x: F(m).interpolate(x, mode=mode, **kw), x)
        check(lambda m, x: F(m).interpolate(x, mode=mode, **kw), x.transpose(-1, -2))


AA = [  # (shape, interpolate's keywords): down- and upsampling, one dim each way
    ((2, 3, 9, 7), {"size": (4, 3)}), ((1, 2, 4, 5), {"size": (7, 11)}),
    ((1, 2, 5, 6), {"size": (3, 9)}), ((1, 1, 1, 6), {"size": (1, 1)}),
    ((1, 2, 7, 9), {"scale_factor": 0.3}),
    ((1, 2, 7, 9), {"scale_factor": (0.4, 2.5), "recompute_scale_factor": True}),
]


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("case", AA, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "uint8"])
def test_interpolate_antialias(case, mode, align_corners, dtype):
    shape, kw = case
    x = make(shape, dtype, nc=True)
    check(lambda m, x: F(m).interpolate(x, mode=mode, align_corners=align_corners,
                                        antialias=True, **kw), x, rtol=1e-5, atol=1e-6)


def _aa_op(m, mode):
    name = f"_upsample_{mode}2d_aa"
    return getattr(torch.ops.aten, name) if m is torch else OPS[name].call


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
@pytest.mark.parametrize("size,scales", [([4, 5], (0.8, None)), ([3, 6], (None, 0.7))])
def test_antialias_skips_an_unchanged_dim_whatever_its_scale(mode, size, scales):
    """A dim keeping its size is not resampled, even with a scale given (PyTorch's kernel
    skips that pass)."""
    check(lambda m, x: _aa_op(m, mode)(x, size, False, *scales), make((1, 2, 4, 6), "float64"))


def test_antialias_width_one_is_the_separable_result():
    """Output width 1 with the height resampled: PyTorch 2.13's kernel gives every row the
    same value there (a bug of its height pass over a width-1 image); mindtorch gives
    the separable result: PyTorch's height pass on the full width, then its width pass."""
    x = make((1, 2, 4, 6), "float64")
    aa = _aa_op(torch, "bilinear")
    expected = aa(aa(to_torch(x), [3, 6], False, None, None), [3, 1], False, None, None)
    assert_same(_aa_op(mindtorch, "bilinear")(x, [3, 1], False, None, None), expected)


@pytest.mark.parametrize("dtype,shape,mode", [
    ("float16", (1, 1, 4, 4), "bilinear"), ("bfloat16", (1, 1, 4, 4), "bicubic"),
    ("int64", (1, 1, 4, 4), "bilinear"), ("float32", (1, 4, 4), "bilinear"),
    ("float32", (1, 1, 4, 4), "nearest"), ("float32", (1, 1, 4, 4, 4), "bicubic")])
def test_interpolate_antialias_errors(dtype, shape, mode):
    check(lambda m, x: F(m).interpolate(x, size=2, mode=mode, antialias=True),
          make(shape, dtype))


def test_deprecated_upsample_functions_warn():
    x = make((1, 2, 3, 4))
    for fn in (lambda m, x: F(m).upsample(x, size=5), lambda m, x: F(m).upsample(x, None, 2, "bilinear"),
               lambda m, x: F(m).upsample_nearest(x, scale_factor=2),
               lambda m, x: F(m).upsample_bilinear(x, (5, 3))):
        check(fn, x, rtol=1e-5, atol=1e-5, meta=False)
        with pytest.warns(UserWarning, match="deprecated"):
            fn(mindtorch, x)


UPSAMPLE_OPS = [
    ("upsample_nearest1d", (2, 3, 5), ([7], 1.5)),
    ("upsample_nearest2d", (2, 3, 4, 5), ([7, 3], None, None)),
    ("upsample_nearest3d", (1, 2, 3, 4, 5), ([4, 4, 4], None, 0.5, None)),
    ("_upsample_nearest_exact1d", (2, 3, 5), ([7], None)),
    ("_upsample_nearest_exact2d", (2, 3, 4, 5), ([7, 3], 1.5, 0.7)),
    ("_upsample_nearest_exact3d", (1, 2, 3, 4, 5), ([4, 4, 4], None, None, None)),
    ("upsample_linear1d", (2, 3, 5), ([7], False, 1.5)),
    ("upsample_bilinear2d", (2, 3, 4, 5), ([7, 3], True, None, None)),
    ("upsample_bicubic2d", (2, 3, 4, 5), ([7, 3], False, 2.0, 0.5)),
    ("upsample_trilinear3d", (1, 2, 3, 4, 5), ([4, 4, 4], False, None, None, None)),
]


@pytest.mark.parametrize("name,shape,args", UPSAMPLE_OPS, ids=[c[0] for c in UPSAMPLE_OPS])
def test_upsample_ops_and_backward(name, shape, args):
    from mindtorch._ops import OPS
    x = make(shape, "float64")
    check(lambda m, x: OPS[name].binding(x, *args) if m is mindtorch else
          getattr(torch._C._nn, name)(x, *args), x)
    out = OPS[name].binding(x, *args)
    g = make(tuple(out.shape), "float64")
    check(lambda m, g: OPS[name + "_backward"].binding(g, args[0], list(shape), *args[1:])
          if m is mindtorch else
          getattr(torch.ops.aten, name + "_backward")(g, args[0], list(shape), *args[1:]), g)


# -- shuffles ----------------------------------------------------------------------------

SHUFFLES = [
    (lambda m, x: F(m).pixel_shuffle(x, 2), (2, 8, 3, 4)),
    (lambda m, x: m.pixel_shuffle(x, 3), (9, 2, 2)),
    (lambda m, x: m.pixel_shuffle(x, 1), (2, 2, 3, 3)),
    (lambda m, x: F(m).pixel_shuffle(x, 2), (1, 2, 4, 3, 3)),
    (lambda m, x: F(m).pixel_shuffle(x, 2), (2, 6, 3, 4)),
    (lambda m, x: F(m).pixel_shuffle(x, 0), (2, 8, 3, 4)),
    (lambda m, x: F(m).pixel_shuffle(x, 2), (8, 3)),
    (lambda m, x: F(m).pixel_unshuffle(x, 2), (2, 3, 4, 6)),
    (lambda m, x: m.pixel_unshuffle(x, 2), (3, 4, 2)),
    (lambda m, x: F(m).pixel_unshuffle(x, 2), (2, 3, 5, 6)),
    (lambda m, x: F(m).pixel_unshuffle(x, 2), (2, 3, 4, 5)),
    (lambda m, x: F(m).pixel_unshuffle(x, -1), (2, 3, 4, 4)),
    (lambda m, x: F(m).channel_shuffle(x, 2), (2, 4, 3)),
    (lambda m, x: m.channel_shuffle(x, 3), (2, 6, 2, 2)),
    (lambda m, x: F(m).native_channel_shuffle(x, 2), (2, 4, 3, 3)),
    (lambda m, x: F(m).channel_shuffle(x, 4), (2, 6, 3)),
    (lambda m, x: F(m).channel_shuffle(x, 0), (2, 6, 3)),
    (lambda m, x: F(m).channel_shuffle(x, 2), (2, 6)),
]


@pytest.mark.parametrize("i", range(len(SHUFFLES)))
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_shuffles(i, dtype):
    fn, shape = SHUFFLES[i]
    check(fn, make(shape, dtype, nc=True))


@pytest.mark.parametrize("shape", [(1, 0, 4, 4), (0, 4, 4, 4), (4, 0, 0), (2, 0, 6, 4)])
def test_pixel_unshuffle_empty_input_is_returned_as_is(shape):
    check(lambda m, x: F(m).pixel_unshuffle(x, 2), make(shape))
    check(lambda m, x: F(m).pixel_shuffle(x, 2), make(shape))


@pytest.mark.parametrize("kind", ["reflection", "replication"])
@pytest.mark.parametrize("shape,pad", [((2, 3, 4), (-2, -2)), ((2, 3, 4, 5), (0, 0, -2, -2)),
                                       ((2, 3, 4, 5), (-5, 0, -2, -2)),
                                       ((2, 3, 4, 5), (0, 0, -3, -2)),
                                       ((2, 3, 3, 4, 5), (0, 0, 0, 0, -2, -1)),
                                       ((2, 3, 3, 4, 5), (-5, 0, -4, 0, -2, -1))])
def test_pad_negative_to_empty(kind, shape, pad):
    # PyTorch refuses an output only when every padded dim is empty
    from mindtorch._ops import OPS
    name = f"{kind}_pad{len(pad) // 2}d"
    check(lambda m, x: (getattr(torch._C._nn, name) if m is torch else OPS[name].binding)(
        x, pad), make(shape))


@pytest.mark.parametrize("pad", [[1, 2, 1], [1], [1, 1, 1, 1, 1], [1, 2, 1, 1, 1, 1, 1, 1], [],
                                 [3, 3], [1, 1, -3, -1], [1, 0, 2]])
def test_pad_circular_lengths(pad):
    _check_pad_circular(pad, (1, 2, 3, 4))


@pytest.mark.parametrize("pad", [[-1, 4], [-2, 3, 0, 1], [0, 3, -1, 0]])
def test_pad_circular_wider_than_kept(pad):
    # a right side wider than the kept input: PyTorch's element-by-element copy re-reads
    # what it wrote (periodic), along the last dim
    _check_pad_circular(pad, (2, 3, 4))


def _check_pad_circular(pad, shape):
    # PyTorch's _pad_circular: 1 or 2 non-padded dims (an odd last value is ignored)
    from mindtorch._ops import OPS
    x = make(shape)
    check(lambda m, x: (torch.ops.aten._pad_circular if m is torch else
                        OPS["_pad_circular"].binding)(x, pad), x, meta=False)


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), -float("inf"), 1e30, 2 ** 62])
@pytest.mark.parametrize("mode", ["nearest", "area", "bilinear"])
@pytest.mark.parametrize("recompute", [None, True])
def test_interpolate_scale_overflow(scale, mode, recompute):
    # C++'s checked int64 conversion (RuntimeError), or Python's int() and the binding's
    # overflow (ValueError / OverflowError / TypeError) when the scale is recomputed
    check(lambda m, x: F(m).interpolate(x, scale_factor=scale, mode=mode,
                                        recompute_scale_factor=recompute), make((1, 1, 3, 4)))


def test_pixel_shuffle_empty_batch_and_fresh_result():
    check(lambda m, x: F(m).pixel_shuffle(x, 2), make((0, 4, 2, 2)))
    x = make((1, 1, 2, 2))
    y = mindtorch.pixel_shuffle(x, 1)
    assert not np.shares_memory(x.numpy(), y.numpy())


# -- grid sampling -----------------------------------------------------------------------

def _grid(shape, low=-1.2, high=1.2, dtype="float32"):
    return mindtorch.tensor(RNG.uniform(low, high, shape)).to(getattr(mindtorch, dtype))


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample(mode, padding_mode, align_corners):
    check(lambda m, x, g: F(m).grid_sample(x, g, mode, padding_mode, align_corners),
          make((2, 3, 4, 5), nc=True), _grid((2, 3, 6, 2), -2.5, 2.5), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_3d(mode, padding_mode, align_corners):
    check(lambda m, x, g: F(m).grid_sample(x, g, mode, padding_mode, align_corners),
          make((2, 2, 3, 4, 5), nc=True), _grid((2, 2, 3, 4, 3), -2.5, 2.5), rtol=1e-5,
          atol=1e-5)


@pytest.mark.parametrize("nd,mode", [(2, "bilinear"), (2, "nearest"), (2, "bicubic"),
                                     (3, "bilinear"), (3, "nearest")])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_grid_sample_special_coordinates(nd, mode, padding_mode, dtype):
    # NaN / inf / huge coordinates: PyTorch's 2d kernel (vectorized: NaN clipped to 0,
    # folding by trunc, fused multiply-adds) and 3d kernel (scalar: NaN clipped to the
    # last position, an int flip count, corners outside skipped)
    rng = np.random.default_rng(nd)
    g = rng.uniform(-1.5, 1.5, (1, 5) + (3,) * (nd - 1) + (nd,)) * \
        10.0 ** rng.integers(0, 12, (1, 5) + (3,) * (nd - 1) + (nd,))
    flat = g.reshape(-1)
    flat[::2] = np.resize([np.nan, np.inf, -np.inf, 1e30, -1e30, 0.5, 5.9499225e6, 7e4],
                          flat[::2].size)
    x = make((1, 2) + (3, 4, 5)[3 - nd:], dtype)
    for ac in (False, True):
        check(lambda m, x, g: F(m).grid_sample(x, g, mode, padding_mode, ac), x,
              mindtorch.tensor(g).to(getattr(mindtorch, dtype)), rtol=1e-5, atol=1e-5)


def test_grid_sample_variants():
    x, g = make((2, 3, 4, 5)), _grid((2, 3, 6, 2))
    check(lambda m, x, g: m.grid_sampler(x, g, 0, 1, False), x, g, rtol=1e-5, atol=1e-5)
    check(lambda m, x, g: m.grid_sampler_2d(x, g, 1, 2, True), x, g)
    check(lambda m, x, g: m.grid_sampler_3d(x, g, 0, 0, True), x[None], _grid((1, 2, 3, 6, 3)),
          rtol=1e-5, atol=1e-5)
    check(lambda m, x, g: F(m).grid_sample(x, g), x, g, rtol=1e-5, atol=1e-5)
    check(lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), make((0, 3, 4, 5)),
          _grid((0, 3, 6, 2)))
    check(lambda m, x, g: F(m).grid_sample(x, g, align_corners=True), make((1, 1, 1, 1)),
          _grid((1, 2, 2, 2)))
    x64, g64 = make((1, 2, 3, 4), "float64"), _grid((1, 2, 2, 2), dtype="float64")
    check(lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), x64, g64)
    with pytest.warns(UserWarning, match="align_corners"):
        mindtorch.nn.functional.grid_sample(x, g)


def test_grid_sample_errors():
    x, g = make((2, 3, 4, 5)), _grid((2, 3, 6, 2))
    for fn, args in [
        (lambda m, x, g: F(m).grid_sample(x, g, "foo", align_corners=False), (x, g)),
        (lambda m, x, g: F(m).grid_sample(x, g, padding_mode="foo", align_corners=False), (x, g)),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x, g.double())),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x[:1], g)),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x, g[..., :1])),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x[0], g[0])),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x[:, :, :0], g)),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), (x.long(), g.long())),
        (lambda m, x, g: F(m).grid_sample(x, g, "bicubic", align_corners=False),
         (x[None], _grid((1, 2, 3, 6, 3)))),
        (lambda m, x, g: F(m).grid_sample(x, g, align_corners=False),
         (x[None], _grid((1, 2, 3, 6, 2)))),
    ]:
        check(fn, *args)


@pytest.mark.parametrize("nd", [2, 3])
@pytest.mark.parametrize("channels", [0, 2])
@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("float32", "float64"),
                                    ("float32", "complex64"), ("float16", "float16")])
def test_grid_sampler_dtype_checks(nd, channels, dtypes):
    # an empty result: no dtype check in PyTorch's 2d kernel, the input's only in its 3d one
    x = make((2, channels) + (3,) * nd, dtypes[0])
    g = _grid((2,) + (2,) * nd + (nd,), dtype=dtypes[1])
    check(lambda m, x, g: m.grid_sampler(x, g, 0, 0, False), x, g, rtol=2e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "float16", "complex64"])
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 3, 1, 5, 3)])
def test_affine_grid_generator_dtypes(dtype, size):
    # integer grids: the scaled steps truncated; a unit dim refused for 16-bit floats
    theta = make((2,) + ((2, 3) if len(size) == 4 else (3, 4)), dtype)
    for ac in (False, True):
        check(lambda m, t: m.affine_grid_generator(t, size, ac), theta, rtol=2e-2, atol=2e-2)


def test_affine_grid():
    t2 = mindtorch.tensor(RNG.standard_normal((2, 2, 3)), dtype=mindtorch.float32)
    t3 = mindtorch.tensor(RNG.standard_normal((2, 3, 4)))
    for ac in (False, True):
        check(lambda m, t: F(m).affine_grid(t, (2, 3, 4, 5), align_corners=ac), t2,
              rtol=1e-5, atol=1e-6)
        check(lambda m, t: F(m).affine_grid(t, [2, 1, 3, 4, 2], ac), t3)
        check(lambda m, t: m.affine_grid_generator(t, (2, 3, 1, 5), ac), t2, rtol=1e-5,
              atol=1e-6)
    for fn, t in [(lambda m, t: F(m).affine_grid(t, (2, 3, 4), False), t2),
                  (lambda m, t: F(m).affine_grid(t, (2, 3, 4, 5, 6), False), t2),
                  (lambda m, t: F(m).affine_grid(t.long(), (2, 3, 4, 5), False), t2),
                  (lambda m, t: F(m).affine_grid(t, (2, 3, 0, 5), False), t2)]:
        check(fn, t)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            mindtorch.nn.functional.affine_grid(t2, (2, 3, 4, 5))


def test_affine_grid_error_messages():
    """The size prints as the torch.Size a caller usually passes, theta's shape as torch.Size."""
    import torch
    for size, shape in [((2, 1, 3), (2, 2, 3)), ((2, 1, 3, 4), (2, 1, 3))]:
        with pytest.raises(Exception) as want:
            torch.nn.functional.affine_grid(torch.zeros(shape), torch.Size(size), False)
        with pytest.raises(type(want.value), match=None) as got:
            mindtorch.nn.functional.affine_grid(mindtorch.zeros(shape), mindtorch.Size(size),
                                                False)
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_align_corners_default_warning_at_callers_line(requires_grad):
    # grid_sample / affine_grid without align_corners: PyTorch's UserWarning at the line
    # calling them, also from a lambda and with inputs requiring grad (more frames between)
    for lib in (mindtorch, torch):
        theta = lib.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=requires_grad)
        calls = [lambda: lib.nn.functional.affine_grid(theta, (1, 1, 2, 2)),
                 lambda: lib.nn.functional.grid_sample(
                     lib.ones(1, 1, 2, 2, requires_grad=requires_grad), lib.zeros(1, 1, 1, 2))]
        for call in calls:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                call()
            assert [x.category for x in w] == [UserWarning], lib
            assert (w[0].filename, w[0].lineno) == (__file__, call.__code__.co_firstlineno), lib
            assert str(w[0].message).startswith("Default grid_sample and affine_grid behavior")
