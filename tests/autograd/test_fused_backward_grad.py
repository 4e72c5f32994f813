"""Backward ops a backend may fuse (threshold_backward for relu/threshold, the activations'
gelu_backward, silu_backward, leaky_relu_backward, hardswish_backward, hardtanh_backward,
_nll_loss_backward for nll_loss/cross_entropy, _softmax_backward_data and
_log_softmax_backward_data, _layer_norm_backward) and the fused recurrent cells
(_lstm_cell, _gru_cell and their backward ops): their own gradients (double backward)
against PyTorch's aten ops and finite differences."""
import numpy as np
import pytest
import torch

import mindtorch
from reference import assert_same
from gradutil import check_gradgrad, check_grads, const, randn
from mindtorch._ops import OPS


def _nll_backward(m, grad, size, target, weight, reduction, ignore_index):
    if m is mindtorch:
        return OPS["_nll_loss_backward"].call(grad, target, weight, size, reduction,
                                              ignore_index)
    x = torch.zeros(size, dtype=grad.dtype)
    valid = target != ignore_index
    w = valid.to(grad.dtype) if weight is None else torch.where(valid, weight[target.clamp(0)],
                                                               0)
    return torch.ops.aten.nll_loss_backward(grad, x, target, weight, reduction, ignore_index,
                                            w.sum())


def test_threshold_backward_grads():
    def fn(m, g, x):
        if m is mindtorch:
            return OPS["threshold_backward"].call(g, x, 0.25)
        return torch.ops.aten.threshold_backward(g, x, 0.25)
    check_grads(fn, randn(3, 4), const(randn(3, 4)))


# (op, its positional arguments after (grad, self)), against ATen's op of the same name
ACTIVATION_BACKWARDS = [("gelu_backward", ()), ("silu_backward", ()),
                        ("leaky_relu_backward", (0.2, False)), ("hardswish_backward", ()),
                        ("hardtanh_backward", (-0.5, 1.0))]


def test_activation_backward_ops_grads():
    """Their own gradients (double backward), from their decompositions; the inputs keep
    away from the piecewise functions' knots, where the derivative jumps."""
    x = np.array([-4.1, -2.2, -0.7, -0.2, 0.3, 0.8, 1.7, 3.6])
    for name, extra in ACTIVATION_BACKWARDS:
        def fn(m, g, x, name=name, extra=extra):
            op = OPS[name].binding if m is mindtorch else getattr(torch.ops.aten, name)
            return op(g, x, *extra)
        if name in ("leaky_relu_backward", "hardtanh_backward"):
            # (their self enters through comparisons only: PyTorch's zeros, mindtorch's None)
            check_grads(fn, randn(8), const(x))
            continue
        if name != "silu_backward":
            check_grads(fn, randn(8), x)
            continue
        # (PyTorch does not differentiate aten::silu_backward: its values, and gradcheck)
        g = randn(8)
        assert_same(fn(mindtorch, mindtorch.tensor(g), mindtorch.tensor(x)),
                    fn(torch, torch.tensor(g), torch.tensor(x)))
        leaves = [mindtorch.tensor(a, requires_grad=True) for a in (g, x)]
        assert mindtorch.autograd.gradcheck(lambda *a: fn(mindtorch, *a), leaves)


def test_nll_loss_backward_grads():
    target = const([0, 3, -100], dtype="int64")
    for reduction in (0, 1, 2):
        shape = (3,) if reduction == 0 else ()
        check_grads(lambda m, g, t: _nll_backward(m, g, (3, 4), t, None, reduction, -100),
                    randn(*shape), target)


def test_relu_and_cross_entropy_second_derivatives():
    check_gradgrad(lambda m, x: m.relu(x) * x, randn(3, 4))
    check_gradgrad(lambda m, x: m.nn.functional.threshold(x, 0.1, 2.0) * x, randn(5))
    check_gradgrad(lambda m, x: m.nn.functional.cross_entropy(
        x, m.tensor([0, 2, 1])) * x.sum(), randn(3, 4))


def test_softmax_backward_data_grads():
    for name in ("_softmax_backward_data", "_log_softmax_backward_data"):
        def fn(m, g, y, name=name):
            if m is mindtorch:
                return OPS[name].call(g, y, 1, mindtorch.float64)
            return getattr(torch.ops.aten, name)(g, y, 1, torch.float64)
        check_grads(fn, randn(3, 4), randn(3, 4))


def test_softmax_second_derivatives():
    check_gradgrad(lambda m, x: m.softmax(x, 1) * x, randn(3, 4))
    check_gradgrad(lambda m, x: m.log_softmax(x, 0) * x, randn(3, 4))


def test_layer_norm_backward_op_and_second_derivatives():
    # the op against PyTorch's (values: PyTorch's double backward of it also differentiates
    # the statistics, which this op takes as given)
    rng = np.random.default_rng(3)
    g, x = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 3, 4))
    for weight in (rng.standard_normal(4), None):
        got, expected = [], []
        for m, out in ((mindtorch, got), (torch, expected)):
            gt, xt = m.tensor(g), m.tensor(x)
            w = None if weight is None else m.tensor(weight)
            mean = xt.mean(-1, keepdim=True)
            rstd = (xt.var(-1, unbiased=False, keepdim=True) + 1e-5).rsqrt()
            if m is mindtorch:
                out += OPS["_layer_norm_backward"].call(gt, xt, mean, rstd, w, (4,))
            else:
                out += torch.ops.aten.native_layer_norm_backward(
                    gt, xt, (4,), mean, rstd, torch.ones(4, dtype=xt.dtype) if w is None
                    else w, torch.zeros(4, dtype=xt.dtype), [True, True, True])
        assert_same(got, expected)
    # create_graph: the formula differentiates through the statistics instead
    check_gradgrad(lambda m, x, w: m.nn.functional.layer_norm(x, (4,), w) * x, randn(3, 4),
                   randn(4))


def test_group_norm_backward_op_and_second_derivatives():
    # the op against PyTorch's native_group_norm_backward (it takes the statistics as given)
    rng = np.random.default_rng(4)
    g, x = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 4, 3))
    for weight in (rng.standard_normal(4), None):
        got, expected = [], []
        for m, out in ((mindtorch, got), (torch, expected)):
            gt, xt = m.tensor(g), m.tensor(x)
            w = None if weight is None else m.tensor(weight)
            x3 = xt.reshape(2, 2, 6)
            mean, rstd = x3.mean(-1), (x3.var(-1, unbiased=False) + 1e-5).rsqrt()
            if m is mindtorch:
                out += OPS["_group_norm_backward"].call(gt, xt, mean, rstd, w, None, None, 2,
                                                        4, 3, 2)
            else:
                out += torch.ops.aten.native_group_norm_backward(
                    gt, xt, mean, rstd, torch.ones(4, dtype=xt.dtype) if w is None else w,
                    2, 4, 3, 2, [True, True, True])
        assert_same(got, expected)
    # create_graph: the formula differentiates through the statistics instead
    check_gradgrad(lambda m, x, w: m.nn.functional.group_norm(x, 2, w) * x, randn(3, 4, 2),
                   randn(4))


def _cells(m):
    """The fused cells in m: mindtorch's ops, or the PyTorch references the kit uses."""
    if m is mindtorch:
        return {name: OPS[name].call for name in ("_lstm_cell", "_lstm_cell_backward",
                                                  "_gru_cell", "_gru_cell_backward")}
    from mindtorch.testing.opdb.rnn import torch_references
    return torch_references(torch)


def test_lstm_cell_grads():
    check_grads(lambda m, gates, cx: _cells(m)["_lstm_cell"](gates, cx)[:2],
                randn(3, 8), randn(3, 2))


def test_gru_cell_grads():
    check_grads(lambda m, gi, gh, hx: _cells(m)["_gru_cell"](gi, gh, hx)[0],
                randn(3, 6), randn(3, 6), randn(3, 2))


def test_cell_backward_ops_grads():
    """The backward ops from a workspace (constant: the forward computed it)."""
    gates, cx = mindtorch.tensor(randn(3, 8)), mindtorch.tensor(randn(3, 2))
    workspace = const(OPS["_lstm_cell"].call(gates, cx)[2].numpy())
    check_grads(lambda m, gh, gc, c, w: _cells(m)["_lstm_cell_backward"](gh, gc, c, w),
                randn(3, 2), randn(3, 2), const(cx.numpy()), workspace)
    gi, gh, hx = (mindtorch.tensor(randn(3, n)) for n in (6, 6, 2))
    workspace = const(OPS["_gru_cell"].call(gi, gh, hx)[1].numpy())
    check_grads(lambda m, g, h, w: _cells(m)["_gru_cell_backward"](g, h, w),
                randn(3, 2), randn(3, 2), workspace)


def test_cell_second_derivatives():
    check_gradgrad(lambda m, gates, cx: OPS["_lstm_cell"].call(gates, cx)[0] * cx,
                   randn(2, 8), randn(2, 2))
    check_gradgrad(lambda m, gi, gh, hx: OPS["_gru_cell"].call(gi, gh, hx)[0] * hx,
                   randn(2, 6), randn(2, 6), randn(2, 2))


def test_sigmoid_tanh_backward_ops_grads():
    """sigmoid_backward / tanh_backward (grad, result): their own gradients against ATen's
    (double backward of sigmoid and tanh), and the second derivatives through them."""
    for name in ("sigmoid_backward", "tanh_backward"):
        def fn(m, g, y, name=name):
            op = OPS[name].binding if m is mindtorch else getattr(torch.ops.aten, name)
            return op(g, y)
        check_grads(fn, randn(3, 4), np.tanh(randn(3, 4)))
    check_gradgrad(lambda m, x: m.sigmoid(x) * x, randn(3, 4))
    check_gradgrad(lambda m, x: m.tanh(x) * x, randn(3, 4))


# (op, its arguments before / after the tensors (grad, input or result)), against ATen's
EXP_BACKWARDS = [("softplus_backward", (), (1.5, 2.0)), ("log_sigmoid_backward", (), ()),
                 ("elu_backward", (0.7, 1.2, 1.5, False), ()),
                 ("elu_backward", (0.7, 1.2, 1.5, True), ())]


def test_softplus_elu_log_sigmoid_backward_ops_grads():
    """Their own gradients (double backward of softplus, ELU / SELU / CELU and their
    in-place variants, logsigmoid) against ATen's: log_sigmoid_backward's buffer (exp(-|x|),
    which ATen's cpu kernel reads) is a constant; elu_backward takes its tensor last."""
    x = np.array([-4.1, -2.2, -0.7, -0.2, 0.3, 0.8, 1.7, 3.6])
    for name, before, after in EXP_BACKWARDS:
        def fn(m, g, x, name=name, before=before, after=after):
            op = OPS[name].binding if m is mindtorch else getattr(torch.ops.aten, name)
            if name == "elu_backward":
                return op(g, *before, x)
            if name == "log_sigmoid_backward":
                return op(g, x, x.detach().abs().neg().exp())
            return op(g, x, *after)
        check_grads(fn, randn(8), x)
    for fn in ("softplus", "elu", "selu", "celu", "logsigmoid"):
        check_gradgrad(lambda m, x, fn=fn: getattr(m.nn.functional, fn)(x) * x, randn(3, 4))


def test_batch_norm_inference_backward_grads():
    """The evaluation-mode backward op (frozen statistics): its own gradients against
    ATen's native_batch_norm_backward(train=False), and batch norm's second derivatives in
    evaluation mode."""
    rm, rv = const(randn(3)), const(np.abs(randn(3)) + 0.5)

    def fn(m, g, x, w, rm, rv):
        if m is mindtorch:
            return OPS["_batch_norm_inference_backward"].call(g, x, w, rm, rv, 1e-5)
        return torch.ops.aten.native_batch_norm_backward(g, x, w, rm, rv, None, None, False,
                                                         1e-5, [True] * 3)
    check_grads(fn, randn(4, 3, 2), randn(4, 3, 2), randn(3), rm, rv)
    check_gradgrad(lambda m, x, w, rm, rv: m.nn.functional.batch_norm(
        x, rm, rv, w, training=False) * x, randn(4, 3), randn(3), rm, rv)


def _addmm_backward(m, g, a, b):
    """A linear layer's node: mat2 = W.t() (column-major), a bias."""
    if m is mindtorch:
        return OPS["_addmm_backward"].call(g, a, b, 1, 1, (b.shape[1],), False, True,
                                           (True, True, True))
    from mindtorch.testing.opdb._info import _torch_addmm_backward
    return _torch_addmm_backward(g, a, b, 1, 1, (b.shape[1],), False, True,
                                 (True, True, True))


def test_addmm_backward_grads():
    check_grads(lambda m, g, a, w: _addmm_backward(m, g, a, w.t()), randn(3, 2), randn(3, 4),
                randn(2, 4))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("wanted", ["x,w,b", "w,b", "b", "x", "w", "x,b"])
@pytest.mark.parametrize("layout", ["plain", "x column-major", "w row-major"])
def test_linear_node_gradients_are_the_formulas(dtype, wanted, layout):
    # the node's one call (_addmm_backward, cpu's kernel) gives the per-input formulas'
    # gradients to the bit, with their strides; under create_graph the formulas run
    rng = np.random.default_rng(7)
    x0, w0, b0 = rng.standard_normal((5, 4)), rng.standard_normal((3, 4)), \
        rng.standard_normal(3)
    results = []
    for create_graph in (False, True):
        dt = getattr(mindtorch, dtype)
        x, w, b = (mindtorch.tensor(v, dtype=dt, requires_grad=n in wanted)
                   for v, n in ((x0, "x"), (w0, "w"), (b0, "b")))
        xin = x.mT.contiguous().mT if layout == "x column-major" else x
        mat2 = w.t().contiguous() if layout == "w row-major" else w.t()
        y = mindtorch.addmm(b, xin, mat2)
        leaves = [t for t in (x, w, b) if t.requires_grad]
        grads = mindtorch.autograd.grad((y * y).sum(), leaves, create_graph=create_graph)
        results.append(grads)
        # and PyTorch's, to the values (BLAS may round differently), with its strides
        tx, tw, tb = (torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=n in wanted)
                      for v, n in ((x0, "x"), (w0, "w"), (b0, "b")))
        txin = tx.mT.contiguous().mT if layout == "x column-major" else tx
        tmat2 = tw.t().contiguous() if layout == "w row-major" else tw.t()
        ty = torch.addmm(tb, txin, tmat2)
        expected = torch.autograd.grad((ty * ty).sum(), [t for t in (tx, tw, tb)
                                                         if t.requires_grad])
        for got, want in zip(grads, expected):
            assert got.stride() == want.stride()
        tolerance = {"rtol": 1e-2, "atol": 1e-2} if dtype == "float16" else {}
        assert_same(list(grads), list(expected), **tolerance)
    for fused, formulas in zip(*results):
        assert fused.stride() == formulas.stride()
        assert np.array_equal(fused.detach().float().numpy(), formulas.detach().float().numpy())


def test_linear_node_saves_only_what_its_wanted_gradients_need():
    # a frozen weight and a trainable bias (bias-only fine-tuning): the input is not saved,
    # so changing it in place afterwards is fine, as in PyTorch
    for m in (mindtorch, torch):
        x = m.randn(4, 3)
        w, b = m.randn(2, 3), m.zeros(2, requires_grad=True)
        y = m.nn.functional.linear(x, w, b)
        x.add_(1)
        y.sum().backward()
        assert b.grad.tolist() == [4.0, 4.0]
    # the weight trainable: the input is saved, and changing it is refused, as in PyTorch
    for m in (mindtorch, torch):
        x = m.randn(4, 3)
        w = m.randn(2, 3, requires_grad=True)
        y = m.nn.functional.linear(x, w)
        x.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()
