"""Gradients of padding, upsampling, shuffles, grid sampling and affine grids against
PyTorch (values and grads), finite differences (gradcheck) and the meta device; second
derivatives (the backward ops' own formulas); PyTorch's node names."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, nc, randn

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def F(m):
    return m.nn.functional


def _aten(m, name, *args):
    """An ATen op by name: mindtorch's op, or torch's."""
    if m is mindtorch:
        from mindtorch._ops import OPS
        return OPS[name].binding(*args)
    return getattr(torch.ops.aten, name)(*args)


GRID = np.random.default_rng(3).uniform(-1.3, 1.3, (1, 3, 2, 2))

CASES = [
    # (id: the op reached, fn(module, *tensors), specs)
    ("pad", lambda m, x: F(m).pad(x, (1, 2), value=0.5), [randn(2, 3)]),
    ("constant_pad_nd", lambda m, x: m.constant_pad_nd(x, (1, -1, 0, 2)), [nc(randn(2, 3, 4))]),
    ("constant_pad_nd_crop", lambda m, x: m.constant_pad_nd(x, (-1, -1)), [randn(2, 4)]),
    ("constant_pad_nd_0dim", lambda m, x: m.constant_pad_nd(x, ()), [np.array(1.5)]),
    ("constant_pad_nd_empty", lambda m, x: m.constant_pad_nd(x, (1, 1)), [randn(0, 3)]),
    ("reflection_pad1d", lambda m, x: F(m).pad(x, (2, 1), mode="reflect"), [randn(2, 2, 4)]),
    ("reflection_pad2d", lambda m, x: F(m).pad(x, (1, 2, 2, 1), mode="reflect"),
     [nc(randn(2, 3, 4))]),
    ("reflection_pad3d", lambda m, x: F(m).pad(x, (1, 1, 1, 0, 0, 1), mode="reflect"),
     [randn(1, 1, 2, 3, 3)]),
    ("replication_pad1d", lambda m, x: F(m).pad(x, (2, -1), mode="replicate"), [randn(2, 4)]),
    ("replication_pad2d", lambda m, x: F(m).pad(x, (1, 2, 2, 1), mode="replicate"),
     [randn(1, 2, 3, 4)]),
    ("replication_pad3d", lambda m, x: F(m).pad(x, (1, 1, 1, 0, 0, 1), mode="replicate"),
     [randn(1, 2, 3, 3)]),
    ("_pad_circular", lambda m, x: F(m).pad(x, (1, 2, -1, 1), mode="circular"),
     [randn(1, 2, 3, 4)]),
    ("upsample_nearest2d", lambda m, x: F(m).interpolate(x, scale_factor=1.6), [randn(1, 2, 3, 4)]),
    ("upsample_nearest1d", lambda m, x: F(m).interpolate(x, size=7), [randn(1, 2, 3)]),
    ("upsample_nearest3d", lambda m, x: F(m).interpolate(x, scale_factor=(2, 1, 0.5)),
     [randn(1, 1, 2, 2, 4)]),
    ("_upsample_nearest_exact1d", lambda m, x: F(m).interpolate(x, 5, mode="nearest-exact"),
     [randn(1, 2, 3)]),
    ("_upsample_nearest_exact2d",
     lambda m, x: F(m).interpolate(x, scale_factor=0.7, mode="nearest-exact"), [randn(1, 2, 4, 5)]),
    ("_upsample_nearest_exact3d",
     lambda m, x: F(m).interpolate(x, size=(3, 2, 3), mode="nearest-exact"), [randn(1, 1, 2, 2, 2)]),
    ("upsample_linear1d", lambda m, x: F(m).interpolate(x, 7, mode="linear"), [nc(randn(1, 2, 4))]),
    ("upsample_linear1d_corners",
     lambda m, x: F(m).interpolate(x, scale_factor=0.6, mode="linear", align_corners=True),
     [randn(2, 5)[None]]),
    ("upsample_bilinear2d", lambda m, x: F(m).interpolate(x, (3, 5), mode="bilinear"),
     [nc(randn(1, 2, 2, 3))]),
    ("upsample_bilinear2d_corners",
     lambda m, x: F(m).interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True),
     [randn(1, 1, 3, 3)]),
    ("upsample_bicubic2d", lambda m, x: F(m).interpolate(x, (4, 3), mode="bicubic"),
     [randn(1, 2, 3, 3)]),
    ("upsample_trilinear3d", lambda m, x: F(m).interpolate(x, (3, 2, 3), mode="trilinear"),
     [randn(1, 1, 2, 3, 2)]),
    ("interpolate_area", lambda m, x: F(m).interpolate(x, scale_factor=0.6, mode="area"),
     [randn(1, 2, 4, 5)]),
    ("upsample", lambda m, x: F(m).upsample(x, scale_factor=2, mode="bilinear"),
     [randn(1, 1, 2, 2)]),
    ("upsample_nearest", lambda m, x: F(m).upsample_nearest(x, (3, 3)), [randn(1, 1, 2, 2)]),
    ("upsample_bilinear", lambda m, x: F(m).upsample_bilinear(x, scale_factor=1.5),
     [randn(1, 1, 2, 2)]),
    ("interpolate_empty_batch", lambda m, x: F(m).interpolate(x, 3, mode="bilinear"),
     [randn(0, 2, 2, 2)]),
    ("pixel_shuffle", lambda m, x: F(m).pixel_shuffle(x, 2), [nc(randn(1, 4, 2, 3))]),
    ("pixel_unshuffle", lambda m, x: m.pixel_unshuffle(x, 2), [randn(2, 4, 2)]),
    ("channel_shuffle", lambda m, x: F(m).channel_shuffle(x, 2), [randn(2, 4, 3)]),
    ("grid_sample", lambda m, x, g: F(m).grid_sample(x, g, align_corners=False),
     [randn(1, 2, 3, 4), GRID]),
    ("grid_sampler", lambda m, x, g: m.grid_sampler(x, g, 0, 1, True), [nc(randn(1, 2, 3, 4)), GRID]),
    ("grid_sampler_2d", lambda m, x, g: m.grid_sampler_2d(x, g, 0, 2, False),
     [randn(1, 2, 3, 4), GRID]),
    ("grid_sampler_2d_nearest", lambda m, x, g: m.grid_sampler_2d(x, g, 1, 0, False),
     [randn(1, 2, 3, 4), GRID]),
    ("grid_sampler_3d", lambda m, x, g: F(m).grid_sample(x, g, "bilinear", "reflection", False),
     [randn(1, 2, 2, 3, 2), GRID.reshape(1, 2, 1, 2, 3)]),
    ("grid_sampler_3d_nearest", lambda m, x, g: m.grid_sampler_3d(x, g, 1, 1, True),
     [nc(randn(1, 1, 2, 3, 2)), GRID.reshape(1, 2, 1, 2, 3)]),
    ("grid_sampler_2d_bicubic", lambda m, x, g: m.grid_sampler_2d(x, g, 2, 0, False),
     [randn(1, 2, 3, 4), GRID]),
    ("grid_sample_bicubic_reflection",
     lambda m, x, g: F(m).grid_sample(x, g, "bicubic", "reflection", True),
     [randn(1, 1, 3, 4), GRID[:, :2]]),
    ("_upsample_bilinear2d_aa",
     lambda m, x: F(m).interpolate(x, (2, 7), mode="bilinear", antialias=True),
     [nc(randn(1, 2, 5, 4))]),
    ("_upsample_bicubic2d_aa", lambda m, x: F(m).interpolate(
        x, (3, 2), mode="bicubic", align_corners=True, antialias=True), [randn(1, 1, 7, 5)]),
    ("_upsample_lanczos2d_aa", lambda m, x: F(m).interpolate(
        x, scale_factor=0.6, mode="lanczos", antialias=True), [randn(1, 2, 6, 5)]),
    ("affine_grid", lambda m, t: F(m).affine_grid(t, (2, 1, 3, 4), align_corners=False),
     [randn(2, 2, 3)]),
    ("affine_grid_generator", lambda m, t: m.affine_grid_generator(t, (1, 1, 2, 3, 2), True),
     [randn(1, 3, 4)]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs = case
    check_grads(fn, *specs)


@pytest.mark.parametrize("name,fn,spec", [
    ("reflection_pad2d", lambda m, x: F(m).pad(x, (1, 2, 2, 1), mode="reflect"), randn(1, 2, 4, 5)),
    ("upsample_bicubic2d", lambda m, x: F(m).interpolate(x, scale_factor=1.7, mode="bicubic"),
     randn(1, 2, 4, 5)),
    ("upsample_bilinear2d", lambda m, x: F(m).interpolate(x, (3, 7), mode="bilinear"),
     randn(1, 2, 4, 5)),
])
def test_float32(name, fn, spec):
    check_grads(fn, spec, dtype="float32", gradcheck=False, rtol=1e-5, atol=1e-5)


def test_grid_sample_float32():
    check_grads(lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), randn(1, 2, 3, 4),
                GRID, dtype="float32", gradcheck=False, rtol=1e-5, atol=1e-5)


def test_native_channel_shuffle_has_no_derivative_as_in_torch():
    for m in (mindtorch, torch):
        x = m.tensor(randn(1, 4, 2), requires_grad=True)
        y = m.native_channel_shuffle(x, 2)
        assert y.requires_grad and y.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="native_channel_shuffle is not implemented"):
            y.sum().backward()


GRADGRAD = [
    # the backward ops' derivatives (PyTorch's XBackwardBackward0 nodes)
    ("constant_pad_nd", lambda m, x: F(m).pad(x, (1, -1, 0, 2)) ** 2, [randn(2, 3)]),
    ("reflection_pad1d_backward", lambda m, x: F(m).pad(x, (2, 1), mode="reflect") ** 2,
     [randn(1, 4)]),
    ("reflection_pad2d_backward", lambda m, x: F(m).pad(x, (1, 1, 1, 1), mode="reflect") ** 2,
     [randn(1, 2, 3)]),
    ("reflection_pad3d_backward", lambda m, x: F(m).pad(x, (1,) * 6, mode="reflect") ** 2,
     [randn(1, 2, 2, 2)]),
    ("replication_pad1d_backward", lambda m, x: F(m).pad(x, (2, 1), mode="replicate") ** 2,
     [randn(1, 3)]),
    ("replication_pad2d_backward", lambda m, x: F(m).pad(x, (1, 0, 1, 2), mode="replicate") ** 2,
     [randn(1, 2, 2)]),
    ("replication_pad3d_backward", lambda m, x: F(m).pad(x, (1,) * 6, mode="replicate") ** 2,
     [randn(1, 2, 1, 2)]),
    ("_pad_circular", lambda m, x: F(m).pad(x, (1, 2), mode="circular") ** 2, [randn(1, 1, 3)]),
]
# (backward op, forward op's trailing arguments, input shape)
_UPSAMPLE_BACKWARD = [
    ("upsample_nearest1d_backward", ([5], None), (1, 1, 3)),
    ("_upsample_nearest_exact1d_backward", ([5], None), (1, 1, 3)),
    ("upsample_linear1d_backward", ([5], False, None), (1, 1, 3)),
    ("upsample_nearest2d_backward", ([3, 4], None, None), (1, 1, 2, 3)),
    ("_upsample_nearest_exact2d_backward", ([3, 4], None, None), (1, 1, 2, 3)),
    ("upsample_bilinear2d_backward", ([3, 4], True, None, None), (1, 1, 2, 3)),
    ("upsample_bicubic2d_backward", ([3, 4], False, None, None), (1, 1, 2, 3)),
    ("upsample_nearest3d_backward", ([2, 3, 2], None, None, None), (1, 1, 1, 2, 2)),
    ("_upsample_nearest_exact3d_backward", ([2, 3, 2], None, None, None), (1, 1, 1, 2, 2)),
    ("upsample_trilinear3d_backward", ([2, 3, 2], False, None, None, None), (1, 1, 1, 2, 2)),
    ("_upsample_bilinear2d_aa_backward", ([3, 4], False, None, None), (1, 1, 2, 3)),
    ("_upsample_bicubic2d_aa_backward", ([2, 2], True, None, None), (1, 1, 3, 5)),
    ("_upsample_lanczos2d_aa_backward", ([5, 2], False, 0.5, None), (1, 1, 3, 5)),
]
for _name, _args, _shape in _UPSAMPLE_BACKWARD:
    GRADGRAD.append((_name, lambda m, x, n=_name[:-len("_backward")], a=_args:
                     _aten(m, n, x, *a) ** 2, [randn(*_shape)]))
GRADGRAD += [
    ("pixel_shuffle", lambda m, x: F(m).pixel_shuffle(x, 2) ** 2, [randn(1, 4, 1, 2)]),
    ("pixel_unshuffle", lambda m, x: F(m).pixel_unshuffle(x, 2) ** 2, [randn(1, 1, 2, 2)]),
    ("channel_shuffle", lambda m, x: F(m).channel_shuffle(x, 2) ** 2, [randn(1, 4, 1)]),
    ("grid_sampler_2d_backward",
     lambda m, x, g: F(m).grid_sample(x, g, align_corners=False), [randn(1, 1, 3, 3), GRID]),
    ("grid_sampler_2d_backward_bicubic",
     lambda m, x, g: F(m).grid_sample(x, g, "bicubic", align_corners=False),
     [randn(1, 1, 2, 3), GRID[:, :1]]),
    ("grid_sampler_3d_backward",
     lambda m, x, g: F(m).grid_sample(x, g, align_corners=True),
     [randn(1, 1, 2, 2, 2), GRID.reshape(1, 2, 1, 2, 3)[:, :1]]),
    ("grid_sampler_2d_backward_border",
     lambda m, x, g: F(m).grid_sample(x, g, padding_mode="border", align_corners=True),
     [randn(1, 1, 3, 3), GRID]),
    ("affine_grid_generator", lambda m, t: F(m).affine_grid(t, (1, 1, 2, 3), False) ** 2,
     [randn(1, 2, 3)]),
]


@pytest.mark.parametrize("case", GRADGRAD, ids=[c[0] for c in GRADGRAD])
def test_gradgrad(case):
    _, fn, specs = case
    check_gradgrad(fn, *specs)


def test_node_names_match_torch():
    x = randn(1, 2, 4, 5)
    mx = mindtorch.tensor(x, requires_grad=True)
    tx = torch.tensor(x, requires_grad=True)
    g = GRID
    calls = [lambda m, x: F(m).pad(x, (1, 1)), lambda m, x: F(m).pad(x[0], (1, 1), mode="reflect"),
             lambda m, x: F(m).pad(x, (1,) * 4, mode="replicate"),
             lambda m, x: F(m).pad(x, (1,) * 6, mode="reflect"),
             lambda m, x: F(m).pad(x[0], (1, 1), mode="circular"),
             lambda m, x: F(m).interpolate(x, scale_factor=2),
             lambda m, x: F(m).interpolate(x[0], scale_factor=2, mode="nearest-exact"),
             lambda m, x: F(m).interpolate(x, scale_factor=2, mode="bilinear"),
             lambda m, x: F(m).interpolate(x, scale_factor=2, mode="bicubic"),
             lambda m, x: F(m).interpolate(x[None], scale_factor=2, mode="trilinear"),
             lambda m, x: F(m).interpolate(x, size=3, mode="area"),
             lambda m, x: F(m).interpolate(x[0], size=3, mode="area"),
             lambda m, x: F(m).pixel_shuffle(x.reshape(1, 4, 2, 5), 2),
             lambda m, x: F(m).pixel_unshuffle(x[..., :4], 2),
             lambda m, x: F(m).channel_shuffle(x, 2),
             lambda m, x: F(m).grid_sample(x, m.tensor(g), align_corners=False),
             lambda m, x: F(m).grid_sample(x[None], m.tensor(g.reshape(1, 2, 1, 2, 3)),
                                           align_corners=False),
             lambda m, x: F(m).affine_grid(x[0, :, :2, :3], (2, 1, 2, 2), align_corners=False)]
    for fn in calls:
        assert fn(mindtorch, mx).grad_fn.name() == fn(torch, tx).grad_fn.name()
    backward_ops = [lambda m, x: F(m).pad(x, (1,) * 4, mode="reflect"), calls[2], calls[5],
                    calls[7], calls[8], calls[0]]
    for fn in backward_ops:  # the backward ops' own nodes
        (mg,) = mindtorch.autograd.grad((fn(mindtorch, mx) ** 2).sum(), mx, create_graph=True)
        (tg,) = torch.autograd.grad((fn(torch, tx) ** 2).sum(), tx, create_graph=True)
        assert mg.grad_fn.name() == tg.grad_fn.name()


def test_grid_sample_meta_grads():
    x = mindtorch.randn(1, 2, 3, 4, device="meta", requires_grad=True)
    g = mindtorch.randn(1, 5, 6, 2, device="meta", requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = mindtorch.nn.functional.grid_sample(x, g)
    gx, gg = mindtorch.autograd.grad(out.sum(), (x, g))
    assert gx.shape == x.shape and gg.shape == g.shape and gx.device.type == "meta"
