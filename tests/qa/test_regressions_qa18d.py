"""Regression tests for QA round 18d (architectures as users write them), each against torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _graph(fn, depth=0, out=None):
    """The autograd graph below fn as indented node names (what torchviz-like tools show)."""
    out = [] if out is None else out
    if fn is None or depth > 5:
        return out
    out.append("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        _graph(nxt, depth + 1, out)
    return out


_INPLACE = {
    "mul_scalar": lambda L, v, y: v.mul_(2),
    "mul_tensor": lambda L, v, y: v.mul_(y),
    "add_alpha": lambda L, v, y: v.add_(y, alpha=0.5),
    "sigmoid_": lambda L, v, y: v.sigmoid_(),
    "clamp_": lambda L, v, y: v.clamp_(-0.5, 0.5),
    "mul_self": lambda L, v, y: v.mul_(v),
    "addcmul_": lambda L, v, y: v.addcmul_(y, y, value=0.5),
    "silu_inplace": lambda L, v, y: L.nn.functional.silu(v, inplace=True),
    "hardswish_inplace": lambda L, v, y: L.nn.functional.hardswish(v, inplace=True),
    "dropout_inplace": lambda L, v, y: (L.manual_seed(0),
                                        L.nn.functional.dropout(v, 0.3, True, inplace=True)),
    "chained": lambda L, v, y: v.mul_(2).add_(y),
    "copy_": lambda L, v, y: v.copy_(y),
}
_VIEWS = {"slice": lambda h: h[:2], "select": lambda h: h[1], "t": lambda h: h.t(),
          "flat": lambda h: h.view(-1)}


@pytest.mark.parametrize("view", sorted(_VIEWS))
@pytest.mark.parametrize("op", sorted(_INPLACE))
def test_inplace_on_view_graph_names_the_op_under_copy_slices(op, view):
    """An in-place op on a view (EfficientNet's inplace Dropout after flatten): the base's
    CopySlices wraps the op's own node, as PyTorch's, not a copy_ node; same gradients."""
    def program(L):
        g = np.random.default_rng(0)
        x = L.tensor(g.standard_normal((3, 3)), requires_grad=True)
        y0 = L.tensor(g.standard_normal((3, 3)), requires_grad=True)
        h = x * 1.5
        v, y = _VIEWS[view](h), _VIEWS[view](y0 * 1.0)
        _INPLACE[op](L, v, y)
        ((h * L.arange(9.).view(3, 3)).sum() + (v * 2).sum()).backward()
        return _graph(h.grad_fn), v.grad_fn.name(), x.grad.tolist(), y0.grad is None
    ours, theirs = same_errors(program)
    if ours[0] != "ok":  # (v.mul_(v): both refuse, the view's value being saved)
        return
    assert ours[1][:2] == theirs[1][:2]
    np.testing.assert_allclose(ours[1][2], theirs[1][2], rtol=1e-12)
    assert ours[1][3] == theirs[1][3]


def test_inplace_on_view_saved_result_then_written_again_fails_alike():
    """sigmoid_ on a view saves its result: writing the base again must fail backward with
    PyTorch's version error."""
    def program(L):
        x = L.randn(3, 3, requires_grad=True)
        h = x * 1
        h[:2].sigmoid_()
        h.mul_(2)
        h.sum().backward()
    same_errors(program)


def test_inplace_on_view_of_no_grad_base_with_grad_operand():
    def program(L):
        y = L.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
        h = L.zeros(3, 2)
        h[1:].mul_(2).add_(y * y)
        h.sum().backward()
        return _graph(h.grad_fn), y.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("op", ["exp_", "sigmoid_", "tanh_", "mul_"])
def test_inplace_on_view_double_backward(op):
    """The op's node saved its result: it keeps the view (whose history goes through the
    base's CopySlices), so a double backward does not reach the node a second time."""
    def program(L):
        y = L.tensor([0.5, -1.5, 2.0], requires_grad=True)
        c = y * 1
        getattr(c[:2], op)(*((3.0,) if op == "mul_" else ()))
        g, = L.autograd.grad(c.pow(2).sum(), y, create_graph=True)
        g2, = L.autograd.grad(g.sum(), y)
        return g.tolist(), g2.tolist()
    ours, theirs = same_errors(program)
    np.testing.assert_allclose(np.array(ours[1]), np.array(theirs[1]), rtol=1e-6)
