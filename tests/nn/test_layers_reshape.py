"""nn padding, upsampling, pixel/channel shuffle, fold/unfold and distance modules against
PyTorch."""
import pytest

import mindtorch
import mindtorch.nn as mnn
from layers_helpers import assert_same_repr, check_module, close, inputs, torch

tnn = torch.nn


def _pair(name, *args, **kwargs):
    return getattr(tnn, name)(*args, **kwargs), getattr(mnn, name)(*args, **kwargs)


PAD_CASES = [  # (family, padding, extra args)
    ("ZeroPad", 2, ()), ("ZeroPad", (1, 0, 2, 1, 0, 3), ()),
    ("ConstantPad", 1, (3.5,)), ("ConstantPad", (0, 2, 1, 1, 2, 0), (-1,)),
    ("ReflectionPad", 2, ()), ("ReflectionPad", (1, 2, 0, 2, 1, 1), ()),
    ("ReplicationPad", 3, ()), ("ReplicationPad", (2, 0, 1, 3, 0, 1), ()),
    ("CircularPad", 2, ()), ("CircularPad", (1, 2, 2, 0, 1, 1), ()),
]


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("family,padding,extra", PAD_CASES)
def test_padding_matches_torch(family, padding, extra, dims):
    if isinstance(padding, tuple):
        padding = padding[:2 * dims]
    th, mt = _pair(f"{family}{dims}d", padding, *extra)
    assert_same_repr(mt, th)
    assert mt.padding == th.padding
    spatial = (4, 5, 3)[:dims]
    for dtype in ["float64", "float32"]:
        check_module(th, mt, *inputs((2, 3, *spatial), dtype=dtype), dtype=dtype)
    check_module(th, mt, *inputs((3, *spatial), noncontiguous=dims > 1))


def test_padding_negative_and_list():
    th, mt = _pair("ConstantPad2d", [-1, 2, 0, -2], 0.5)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs((2, 4, 5)))
    th, mt = _pair("ZeroPad1d", [3, 1])
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs((2, 4, 5)))


def test_padding_errors():
    for name, shape in [("ReflectionPad1d", (1, 2, 2)), ("ReflectionPad2d", (2,)),
                        ("ReplicationPad2d", (3,)), ("CircularPad2d", (2, 2)),
                        ("CircularPad1d", (1, 2, 3, 4)), ("CircularPad3d", (2, 2, 2))]:
        th, mt = _pair(name, 3 if "Reflection" in name else 1)
        try:
            th(torch.randn(shape))
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            expected = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        else:
            pytest.fail(f"torch accepted {name} {shape}")
        with pytest.raises(expected):
            mt(mindtorch.randn(*shape))
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        mnn.CircularPad2d(1)(mindtorch.randn(2, 2))


@pytest.mark.parametrize("kwargs,shape", [
    (dict(scale_factor=2), (2, 3, 5)),
    (dict(size=7, mode="linear"), (2, 3, 5)),
    (dict(scale_factor=1.5, mode="linear", align_corners=True), (2, 3, 5)),
    (dict(scale_factor=(2, 3)), (1, 2, 3, 4)),
    (dict(size=(5, 7), mode="bilinear"), (1, 2, 3, 4)),
    (dict(scale_factor=2.5, mode="bicubic", align_corners=False,
          recompute_scale_factor=True), (1, 2, 3, 4)),
    (dict(size=(4, 5), mode="nearest-exact"), (1, 2, 3, 4)),
    (dict(scale_factor=(2, 1, 1.5), mode="trilinear"), (1, 2, 3, 4, 2)),
    (dict(size=(2, 6, 3), mode="area"), (1, 2, 3, 4, 2)),
])
def test_upsample_matches_torch(kwargs, shape):
    th, mt = _pair("Upsample", **kwargs)
    assert_same_repr(mt, th)
    assert (mt.scale_factor, mt.size, mt.mode, mt.align_corners, mt.name) == \
        (th.scale_factor, th.size, th.mode, th.align_corners, th.name)
    check_module(th, mt, *inputs(shape))
    check_module(th, mt, *inputs(shape, dtype="float32"), dtype="float32")


@pytest.mark.parametrize("name,kwargs", [("UpsamplingNearest2d", dict(scale_factor=2)),
                                         ("UpsamplingNearest2d", dict(size=(5, 3))),
                                         ("UpsamplingBilinear2d", dict(scale_factor=3)),
                                         ("UpsamplingBilinear2d", dict(size=4))])
def test_upsampling_2d(name, kwargs):
    th, mt = _pair(name, **kwargs)
    assert_same_repr(mt, th)
    assert (mt.mode, mt.align_corners, mt.name) == (th.mode, th.align_corners, th.name)
    check_module(th, mt, *inputs((2, 3, 4, 5), noncontiguous=True))


def test_upsample_errors():
    for kwargs, shape in [(dict(), (1, 2, 3)), (dict(size=3, scale_factor=2), (1, 2, 3)),
                          (dict(size=3, mode="bilinear"), (1, 2, 3)),
                          (dict(size=3, mode="cubic"), (1, 2, 3))]:
        th, mt = _pair("Upsample", **kwargs)
        try:
            th(torch.randn(shape))
        except Exception as e:  # noqa: BLE001
            expected = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        else:
            pytest.fail(f"torch accepted {kwargs}")
        with pytest.raises(expected):
            mt(mindtorch.randn(*shape))


@pytest.mark.parametrize("name,arg,shape", [
    ("PixelShuffle", 2, (2, 8, 3, 4)), ("PixelShuffle", 3, (9, 2, 2)),
    ("PixelShuffle", 1, (1, 2, 3, 3, 2)),
    ("PixelUnshuffle", 2, (2, 3, 4, 6)), ("PixelUnshuffle", 3, (1, 6, 3)),
    ("ChannelShuffle", 2, (2, 4, 3, 3)), ("ChannelShuffle", 3, (1, 6, 5)),
])
def test_shuffles(name, arg, shape):
    th, mt = _pair(name, arg)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs(shape))
    check_module(th, mt, *inputs(shape, dtype="float32"), dtype="float32")


def test_shuffle_errors():
    for name, arg, shape in [("PixelShuffle", 2, (1, 3, 2, 2)), ("PixelShuffle", 2, (3, 2)),
                             ("PixelUnshuffle", 2, (1, 1, 3, 4)),
                             ("ChannelShuffle", 4, (1, 6, 2, 2))]:
        th, mt = _pair(name, arg)
        try:
            th(torch.randn(shape))
        except Exception as e:  # noqa: BLE001
            expected = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        else:
            pytest.fail(f"torch accepted {name} {shape}")
        with pytest.raises(expected):
            mt(mindtorch.randn(*shape))


@pytest.mark.parametrize("kwargs,shape", [
    (dict(kernel_size=2), (2, 3, 4, 5)),
    (dict(kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (2, 3, 6, 7)),
    (dict(kernel_size=3, padding=(1, 0)), (3, 5, 4)),
])
def test_unfold_fold(kwargs, shape):
    th, mt = _pair("Unfold", **kwargs)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs(shape))
    (x, tx), = inputs(shape)
    cols, tcols = mt(x), th(tx)
    th_fold, mt_fold = _pair("Fold", shape[-2:], **kwargs)
    assert_same_repr(mt_fold, th_fold)
    close(mt_fold(cols), th_fold(tcols), "float64")
    check_module(th_fold, mt_fold, *inputs(tuple(tcols.shape), dtype="float32"),
                 dtype="float32")


def test_fold_errors():
    th, mt = _pair("Fold", (4, 5), 2)
    for shape in [(1, 3, 12), (1, 4, 11)]:
        with pytest.raises(RuntimeError):
            th(torch.randn(shape))
        with pytest.raises(RuntimeError):
            mt(mindtorch.randn(*shape))


@pytest.mark.parametrize("kwargs", [{}, dict(p=1.0), dict(p=3.0, eps=1e-3, keepdim=True),
                                    dict(p=0.5), dict(p=float("inf"))])
@pytest.mark.parametrize("shapes", [((4, 5), (4, 5)), ((4, 5), (1, 5)), ((5,), (5,))])
def test_pairwise_distance(kwargs, shapes):
    th, mt = _pair("PairwiseDistance", **kwargs)
    assert_same_repr(mt, th)
    assert (mt.norm, mt.eps, mt.keepdim) == (th.norm, th.eps, th.keepdim)
    check_module(th, mt, *inputs(*shapes))


@pytest.mark.parametrize("kwargs,shapes", [({}, ((4, 5), (4, 5))), (dict(dim=0), ((4, 5), (4, 1))),
                                           (dict(dim=-1, eps=0.5), ((2, 3, 4), (3, 4))),
                                           ({}, ((3, 2, 4), (3, 2, 4)))])
def test_cosine_similarity(kwargs, shapes):
    th, mt = _pair("CosineSimilarity", **kwargs)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs(*shapes))
    check_module(th, mt, *inputs(*shapes, dtype="float32"), dtype="float32")


def test_distance_errors():
    with pytest.raises(RuntimeError):
        mnn.PairwiseDistance()(mindtorch.randn(3, 4), mindtorch.randn(3, 5))
    with pytest.raises(RuntimeError):
        mnn.CosineSimilarity()(mindtorch.randn(3, 4), mindtorch.randn(2, 4))
    with pytest.raises(IndexError):
        mnn.CosineSimilarity(dim=2)(mindtorch.randn(3, 4), mindtorch.randn(3, 4))


def test_meta():
    x = mindtorch.empty(2, 4, 6, 6, device="meta")
    tx = torch.empty(2, 4, 6, 6, device="meta")
    for name, args in [("ReflectionPad2d", (2,)), ("Upsample", (None, 2.0, "bilinear")),
                       ("PixelShuffle", (2,)), ("Unfold", (3,))]:
        th, mt = _pair(name, *args)
        out = mt(x)
        assert out.device.type == "meta" and tuple(out.shape) == tuple(th(tx).shape)
