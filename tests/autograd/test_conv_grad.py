"""Gradients of the convolutions (convolution and its public forms, convolution_backward,
F.unfold / F.fold = im2col / col2im) against PyTorch (values and grads), finite
differences (gradcheck), the meta device (grad shapes/dtypes), and second derivatives."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, randn
from mindtorch._ops import OPS
from reference import assert_same

M = mindtorch


def _x(*shape):
    return randn(*shape)


def _f(m):
    return m.nn.functional


def _conv_backward(m, *args):
    """convolution_backward of either library (torch's is only in torch.ops.aten)."""
    if m is torch:
        return torch.ops.aten.convolution_backward(*args)
    return OPS["convolution_backward"].call(*args)


CASES = [
    # (id, fn(module, *tensors), specs)
    ("conv1d", lambda m, x, w, b: _f(m).conv1d(x, w, b, stride=2, padding=1),
     [_x(2, 2, 5), _x(3, 2, 2), _x(3)]),
    ("conv1d_groups", lambda m, x, w: _f(m).conv1d(x, w, groups=2, dilation=2),
     [nc(_x(1, 4, 6)), _x(4, 2, 2)]),
    ("conv1d_first_layer", lambda m, x, w, b: m.conv1d(x, w, b, padding=1),
     [const(_x(2, 1, 5)), _x(2, 1, 3), _x(2)]),
    ("conv1d_same_even", lambda m, x, w: _f(m).conv1d(x, w, padding="same"),
     [_x(1, 2, 5), _x(2, 2, 2)]),
    ("conv1d_unbatched", lambda m, x, w: _f(m).conv1d(x, w), [_x(2, 4), _x(2, 2, 2)]),
    ("conv2d", lambda m, x, w, b: _f(m).conv2d(x, w, b, stride=(2, 1), padding=(1, 0),
                                               dilation=(1, 2)),
     [_x(1, 2, 4, 5), _x(2, 2, 2, 2), _x(2)]),
    ("conv2d_groups", lambda m, x, w: m.conv2d(x, w, groups=2, padding=1),
     [_x(1, 4, 3, 3), nc(_x(2, 2, 2, 2))]),
    ("conv2d_same", lambda m, x, w: _f(m).conv2d(x, w, padding="same"),
     [nc(_x(1, 1, 3, 4)), _x(2, 1, 3, 2)]),
    ("conv2d_valid_unbatched", lambda m, x, w: _f(m).conv2d(x, w, padding="valid"),
     [_x(2, 3, 3), _x(1, 2, 2, 2)]),
    ("conv2d_empty_batch", lambda m, x, w, b: _f(m).conv2d(x, w, b),
     [np.zeros((0, 2, 3, 3)), _x(2, 2, 2, 2), _x(2)]),
    ("conv3d", lambda m, x, w, b: _f(m).conv3d(x, w, b, padding=(1, 0, 0), stride=(1, 2, 1)),
     [_x(1, 1, 2, 3, 3), _x(2, 1, 2, 2, 2), _x(2)]),
    ("conv_transpose1d", lambda m, x, w, b: _f(m).conv_transpose1d(
        x, w, b, stride=2, padding=1, output_padding=1, groups=2),
     [_x(1, 2, 3), _x(2, 2, 3), _x(4)]),
    ("conv_transpose2d", lambda m, x, w: m.conv_transpose2d(x, w, stride=(2, 1), dilation=2,
                                                            output_padding=(1, 0)),
     [nc(_x(1, 2, 2, 3)), _x(2, 1, 2, 2)]),
    ("conv_transpose2d_unbatched", lambda m, x, w, b: _f(m).conv_transpose2d(x, w, b),
     [_x(1, 2, 2), _x(1, 2, 2, 2), _x(2)]),
    ("conv_transpose3d", lambda m, x, w: _f(m).conv_transpose3d(x, w, stride=(1, 2, 1)),
     [_x(1, 2, 2, 2, 1), _x(2, 1, 1, 2, 2)]),
    ("convolution", lambda m, x, w, b: m.convolution(x, w, b, [1, 2], [1, 1], [1, 1], False,
                                                     [0, 0], 1),
     [_x(1, 1, 3, 4), _x(2, 1, 2, 2), _x(2)]),
    ("convolution_transposed", lambda m, x, w: m.convolution(x, w, None, [2], [0], [1], True,
                                                             [1], 1),
     [_x(2, 2, 3), _x(2, 1, 2)]),
    ("convolution_backward", lambda m, g, x, w: _conv_backward(
        m, g, x, w, [2], [2], [1], [1], False, [0], 1, [True, True, True]),
     [_x(1, 2, 4), _x(1, 2, 6), _x(2, 2, 2)]),
    ("convolution_backward_transposed", lambda m, g, x, w: _conv_backward(
        m, g, x, w, None, [1], [0], [2], True, [0], 2, [True, True, False])[:2],
     [_x(1, 2, 4), _x(1, 2, 2), _x(2, 1, 2)]),
    ("im2col", lambda m, x: _f(m).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
     [_x(1, 2, 3, 4)]),
    ("im2col_unbatched", lambda m, x: _f(m).unfold(x, 2), [nc(_x(1, 3, 3))]),
    ("col2im", lambda m, c: _f(m).fold(c, (3, 4), 2, padding=(1, 0), stride=(2, 1)),
     [_x(1, 8, 6)]),
    ("col2im_unbatched", lambda m, c: _f(m).fold(c, (3, 3), 2), [nc(_x(4, 4))]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.filterwarnings("ignore:Using padding='same'")
def test_grads(fn, specs):
    check_grads(fn, *specs)


@pytest.mark.parametrize("name,fn,specs", [
    ("conv2d", lambda m, x, w, b: _f(m).conv2d(x, w, b, padding=1),
     [_x(2, 3, 5, 5), _x(4, 3, 3, 3), _x(4)]),
    ("conv_transpose2d", lambda m, x, w: _f(m).conv_transpose2d(x, w, stride=2, groups=2),
     [_x(2, 4, 3, 3), _x(4, 2, 2, 2)]),
    ("im2col", lambda m, x: _f(m).unfold(x, 2), [_x(2, 2, 3, 3)]),
])
def test_float32(name, fn, specs):
    check_grads(fn, *specs, dtype="float32", rtol=1e-4, atol=1e-5)


GRADGRAD = [
    ("conv2d", lambda m, x, w, b: _f(m).conv2d(x, w, b, padding=1, stride=(1, 2)),
     [_x(1, 2, 3, 3), _x(2, 2, 2, 2), _x(2)]),
    ("conv1d_groups", lambda m, x, w: _f(m).conv1d(x, w, groups=2, dilation=2, padding=1),
     [_x(1, 4, 4), _x(2, 2, 2)]),
    ("conv_transpose1d", lambda m, x, w, b: _f(m).conv_transpose1d(
        x, w, b, stride=2, output_padding=1, groups=2),
     [_x(1, 2, 3), _x(2, 1, 2), _x(2)]),
    ("conv_transpose2d", lambda m, x, w: _f(m).conv_transpose2d(x, w, padding=1, dilation=2),
     [_x(1, 1, 3, 2), _x(1, 2, 2, 2)]),
    ("im2col", lambda m, x: _f(m).unfold(x, 2, stride=2), [_x(1, 1, 3, 4)]),
    ("col2im", lambda m, c: _f(m).fold(c, (3, 3), 2), [_x(1, 4, 4)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    """Double backward through convolution_backward's decomposition (transposed
    convolutions of the gradient)."""
    check_gradgrad(fn, *specs)


def test_double_backward_matches_torch():
    """create_graph through ConvolutionBackward0: the gradient of a gradient norm."""
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 2, 4, 4)), rng.standard_normal((3, 2, 2, 2))
    out = []
    for m in (M, torch):
        tx = m.tensor(x, requires_grad=True)
        tw = m.tensor(w, requires_grad=True)
        y = _f(m).conv2d(tx, tw, stride=2, padding=1)
        gx, gw = m.autograd.grad((y ** 2).sum(), (tx, tw), create_graph=True)
        out.append(m.autograd.grad((gx ** 2).sum() + (gw * gw).sum(), (tx, tw)))
    assert_same(list(out[0]), list(out[1]))


@pytest.mark.parametrize("fn,expected", [
    (lambda m, x, w: _f(m).conv2d(x, w), "ConvolutionBackward0"),
    (lambda m, x, w: _f(m).conv2d(x[0], w), "SqueezeBackward1"),  # (unbatched)
    (lambda m, x, w: _f(m).conv2d(x, w, padding="same"), "ConvolutionBackward0"),
    (lambda m, x, w: _f(m).conv_transpose2d(x, w), "ConvolutionBackward0"),
    (lambda m, x, w: _f(m).conv1d(x[0, 0], w[0]), "SqueezeBackward1"),
    (lambda m, x, w: _f(m).conv1d(x[0], w[:, 0]), "ConvolutionBackward0"),
    (lambda m, x, w: _f(m).unfold(x, 2), "Im2ColBackward0"),
    (lambda m, x, w: _f(m).fold(x[0], (1, 5), (1, 3)), "Col2ImBackward0"),
])
def test_node_names(fn, expected):
    for m in (M, torch):
        x = m.ones(2, 2, 3, 3, requires_grad=True)
        w = m.ones(2, 2, 3, 3, requires_grad=True)
        assert type(fn(m, x, w).grad_fn).__name__ == expected


def test_only_wanted_gradients_are_computed():
    """A first layer (input without grad) asks convolution_backward for the weight's
    gradient only: output_mask leaves the others out (None, as aten's undefined)."""
    x, w = M.randn(2, 1, 5, 5), M.randn(3, 1, 3, 3, requires_grad=True)
    y = M.conv2d(x, w)
    calls = []
    op = OPS["convolution_backward"]
    kernel = op.resolved["cpu"]
    op.resolved["cpu"] = lambda *a: calls.append(a[-1]) or kernel(*a)
    try:
        y.sum().backward()
    finally:
        op.resolved["cpu"] = kernel
    assert calls == [(0, 1, 0)]
    gi, gw, gb = OPS["convolution_backward"].call(M.ones(2, 3, 3, 3), x, w.detach(), None, [1],
                                                  [0], [1], False, [0], 1, [False, True, False])
    assert gi is None and gb is None and gw.shape == w.shape


def test_saved_input_modified_in_place_raises():
    for m in (M, torch):
        x = m.randn(1, 1, 3, 3, requires_grad=True)
        h = x * 1
        w = m.randn(1, 1, 2, 2, requires_grad=True)
        y = m.conv2d(h, w)
        h.add_(1)
        with pytest.raises(RuntimeError):
            y.sum().backward()


@pytest.mark.parametrize("fn", [
    lambda m, x, w, b: _f(m).conv2d(x, w, b, padding=1, stride=(1, 2)),
    lambda m, x, w, b: _f(m).conv_transpose2d(x, w.transpose(0, 1), b, stride=2),
], ids=["conv2d", "conv_transpose2d"])
def test_complex_gradients_match_torch(fn):
    """The other operand conjugated: PyTorch's convention for complex gradients."""
    rng = np.random.default_rng(5)

    def c(*shape):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    x, w, b, g = c(1, 2, 4, 4), c(2, 2, 2, 2), c(2), None
    out = []
    for m in (M, torch):
        tx, tw, tb = (m.tensor(a, requires_grad=True) for a in (x, w, b))
        y = fn(m, tx, tw, tb)
        if g is None:
            g = c(*y.shape)
        out.append(m.autograd.grad(y, (tx, tw, tb), m.tensor(g)))
    assert_same(list(out[0]), list(out[1]))
