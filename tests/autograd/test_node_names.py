"""Autograd node names (grad_fn.name(), shown in grad_fn=<...> of a printed tensor) and the
graph shapes behind them, compared with PyTorch."""
import pytest
import torch

import mindtorch
from gradutil import leaf
from reference import assert_same

M = mindtorch


NAMED = {
    "sum()": lambda m, x, y: x.sum(), "sum(0)": lambda m, x, y: x.sum(0),
    "mean(0)": lambda m, x, y: x.mean(0), "prod(0)": lambda m, x, y: x.prod(0),
    "x**2": lambda m, x, y: x ** 2, "x**y": lambda m, x, y: x ** y,
    "2**x": lambda m, x, y: 2 ** x, "clamp(t)": lambda m, x, y: x.clamp(y * 0, y),
    "div floor": lambda m, x, y: m.div(x, y, rounding_mode="floor"),
    "x % y": lambda m, x, y: x % y, "fill_(t)": lambda m, x, y: (x * 1).fill_(y[0]),
    "masked_fill(t)": lambda m, x, y: x.masked_fill(x > 0, y[0]),
    "index_fill": lambda m, x, y: x.index_fill(0, m.tensor([0]), 1.0),
    "to(float64)": lambda m, x, y: x.to(m.float64), "reshape": lambda m, x, y: x.reshape(3, 1),
    "squeeze(0)": lambda m, x, y: x.reshape(1, 3).squeeze(0),
    "chunk": lambda m, x, y: x.chunk(3)[0],
    "add_": lambda m, x, y: (x * 1).add_(y), "relu_": lambda m, x, y: (x * 1).relu_(),
    # in-place view ops: the next overloads' nodes
    "t_": lambda m, x, y: (x * 1).t_(), "unsqueeze_": lambda m, x, y: (x * 1).unsqueeze_(0),
    "squeeze_()": lambda m, x, y: (x * 1).reshape(1, 3).squeeze_(),
    "squeeze_(0)": lambda m, x, y: (x * 1).reshape(1, 3).squeeze_(0),
    "transpose_": lambda m, x, y: (x * 1).reshape(1, 3).transpose_(0, 1),
    "swapaxes_": lambda m, x, y: (x * 1).reshape(1, 3).swapaxes_(0, 1),
    "as_strided_": lambda m, x, y: (x * 1).as_strided_((2,), (1,)),
}


@pytest.mark.parametrize("name", list(NAMED))
def test_node_names_match_pytorch(name):
    f = NAMED[name]
    got = [f(m, leaf(m, [1.0, 2.0, 3.0]), m.tensor([2.0, 2.0, 2.0])).grad_fn.name()
           for m in (M, torch)]
    assert got[0] == got[1]


def test_split_node_names_as_torch():
    def names(L):
        s = L.ones(4, 4, requires_grad=True) * 1
        return [type(t.grad_fn).__name__ for t in (s.split([1, 3])[0], s.split(2)[0],
                                                   s.split((2, 2))[1], s.chunk(2)[0],
                                                   L.split(s, [1, 3])[0], s.tensor_split(2)[1],
                                                   s.hsplit(2)[0], s.vsplit([1])[1])]
    assert names(M) == names(torch)


def test_reshape_node_names_as_torch():
    """reshape/flatten record ViewBackward0 for a contiguous input, ReshapeAliasBackward0
    for a strided view, UnsafeViewBackward0 when the result is a copy."""
    def names(L):
        y = L.arange(24.0).reshape(2, 3, 4).requires_grad_() * 1
        return [type(t.grad_fn).__name__ for t in (
            y.reshape(6, 4), y.transpose(1, 2).reshape(-1), y.permute(2, 0, 1).reshape(4, 6),
            y.transpose(0, 1).flatten(), y.transpose(1, 2).flatten(0, 1), y[:, :, ::2].reshape(12),
            y.reshape_as(L.ones(4, 6)), y.transpose(1, 2).reshape_as(L.ones(24)), y[0].reshape(12))]
    assert names(M) == names(torch)


def test_matmul_folds_with_unsafe_view_as_torch():
    """matmul's batched results go through "_unsafe_view": UnsafeViewBackward0, not a view
    of the mm/bmm result (in-place ops on it record their own node), gradients as torch."""
    def run(L):
        a = L.linspace(-1, 1, 24, dtype=L.float64).reshape(2, 3, 4).requires_grad_()
        w = L.linspace(0, 2, 20, dtype=L.float64).reshape(4, 5).requires_grad_()
        outs = [a @ w, L.matmul(a, a.transpose(1, 2)), a @ w[:, 0]]
        names = [type(o.grad_fn).__name__ for o in outs]
        o = a @ w
        bases = o._base is None
        o.relu_()
        (o.sum() + outs[1].pow(2).sum() + outs[2].sum()).backward()
        return names, bases, type(o.grad_fn).__name__, a.grad, w.grad
    ours, theirs = run(M), run(torch)
    assert ours[:3] == theirs[:3]
    assert_same(ours[3], theirs[3])
    assert_same(ours[4], theirs[4])
    x = M.ones(6, dtype=M.float64, requires_grad=True)
    y = M._ops.OPS["_unsafe_view"].binding(x * 2, (2, 3))
    assert y._base is None and type(y.grad_fn).__name__ == "UnsafeViewBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [2.0] * 6


def test_reshape_copy_is_no_view_as_torch():
    """A reshape that must copy returns a tensor of its own (no _base): writes to it leave
    the input alone and in-place ops record their own node (MulBackward0)."""
    def run(L):
        y = L.ones(2, 3, requires_grad=True) * 1
        r = y.t().reshape(6)
        out = [r._base is None, type(r.grad_fn).__name__, type(r.mul_(2).grad_fn).__name__]
        z = L.arange(6.0).reshape(2, 3)
        q = z.t().reshape(6)
        q[0] = 100
        return out + [z[0, 0].item(), q._base is None]
    assert run(M) == run(torch)


def test_flatten_of_one_dim_is_the_tensor_itself():
    for L in (M, torch):
        y = L.ones(2, 3, 4, requires_grad=True) * 1
        t = y.transpose(0, 2)
        assert t.flatten(2) is t and L.flatten(t, 1, -2) is t
        assert type(t.flatten(2).grad_fn).__name__ == "TransposeBackward0"
        with pytest.raises(IndexError):
            t.flatten(1, 4)


def test_index_add_and_fill_in_place_node_names():
    def run(L):
        x = L.linspace(0, 1, 12, dtype=L.float64).reshape(3, 4).requires_grad_()
        s = L.ones(2, 4, dtype=L.float64, requires_grad=True)
        i = L.tensor([0, 2])
        a = (x * 1).index_add_(0, i, s, alpha=2)
        b = (x * 1).index_fill_(1, i, 1.0)
        ((a * a).sum() + (b * b).sum()).backward()
        return [type(a.grad_fn).__name__, type(b.grad_fn).__name__], x.grad, s.grad
    ours, theirs = run(M), run(torch)
    assert ours[0] == theirs[0] == ["IndexAddBackward0", "IndexFillBackward0"]
    assert_same(ours[1], theirs[1])
    assert_same(ours[2], theirs[2])


def _edges(fn):
    """grad_fn.next_functions as (node name or None, input_nr) pairs."""
    return [(None if f is None else type(f).__name__, nr) for f, nr in fn.next_functions]


# A Python number picks PyTorch's Scalar overload, whose node has no edge for it (pow,
# clamp, lerp, masked_fill, ...); ops whose Python signature is Tensor-only wrap it as a
# tensor and keep a None edge (add, mul, div, where); a Tensor bound keeps every edge.
EDGES = {
    "x**2": lambda m, x, w: x ** 2, "2**x": lambda m, x, w: 2 ** x,
    "pow(2.0, x)": lambda m, x, w: m.pow(2.0, x), "x**w": lambda m, x, w: x ** w,
    "clamp(0, 1)": lambda m, x, w: x.clamp(0, 1), "clamp(min=0)": lambda m, x, w: x.clamp(min=0),
    "clamp(w, None)": lambda m, x, w: x.clamp(w, None), "clamp_max": lambda m, x, w: x.clamp_max(1),
    "clamp_(0, 1)": lambda m, x, w: (x * 1).clamp_(0, 1),
    "lerp(w, 0.5)": lambda m, x, w: x.lerp(w, 0.5), "lerp(w, w)": lambda m, x, w: x.lerp(w, w),
    "lerp_": lambda m, x, w: (x * 1).lerp_(w, 0.3),
    "masked_fill": lambda m, x, w: x.masked_fill(x > 0, 1.0),
    "masked_fill_": lambda m, x, w: (x * 1).masked_fill_(x > 0, 1.0),
    "1 - x": lambda m, x, w: 1 - x, "x % 2": lambda m, x, w: x % 2,
    "fmod": lambda m, x, w: x.fmod(2), "remainder(2.0, x)": lambda m, x, w: m.remainder(2.0, x),
    "x // 2": lambda m, x, w: x // 2, "fill_": lambda m, x, w: (x * 1).fill_(2),
    "index_fill": lambda m, x, w: x.index_fill(0, m.tensor([0]), 2.0),
    "scatter value": lambda m, x, w: x.scatter(0, m.tensor([0]), 2.0),
    "xlogy(x, 2)": lambda m, x, w: m.xlogy(x, 2.0), "xlogy(2, x)": lambda m, x, w: m.xlogy(2.0, x),
    "copysign": lambda m, x, w: x.copysign(-1.0), "float_power": lambda m, x, w: x.float_power(2),
    "bernoulli_(0.5)": lambda m, x, w: (x * 1).bernoulli_(0.5),
    "bernoulli_(t)": lambda m, x, w: (x * 1).bernoulli_(m.full((3,), 0.5)),
    "normal(x, 1.0)": lambda m, x, w: m.normal(x, 1.0), "normal(1.0, x)": lambda m, x, w: m.normal(1.0, x),
    "normal(x, w)": lambda m, x, w: m.normal(x, w),
    "x + 1": lambda m, x, w: x + 1, "x * 2": lambda m, x, w: x * 2, "x / 2": lambda m, x, w: x / 2,
    "2 / x": lambda m, x, w: 2 / x, "mul_": lambda m, x, w: (x * 1).mul_(2),
    "where(c, x, 0)": lambda m, x, w: m.where(x > 0, x, 0.0),
    "where(c, 1, x)": lambda m, x, w: m.where(x > 0, 1.0, x),
    "cross_entropy weight": lambda m, x, w: m.nn.functional.cross_entropy(
        x.view(1, 3), m.tensor([1]), weight=m.ones(3)),
    "nll_loss weight": lambda m, x, w: m.nn.functional.nll_loss(
        x.view(1, 3), m.tensor([1]), weight=m.ones(3)),
}


@pytest.mark.parametrize("name", list(EDGES))
def test_next_functions_as_torch(name):
    f = EDGES[name]
    got = [f(m, leaf(m, [0.5, 0.25, 0.75]), leaf(m, [0.3, 0.6, 0.9])).grad_fn for m in (M, torch)]
    assert (got[0].name(), _edges(got[0])) == (got[1].name(), _edges(got[1]))


def test_refused_loss_weight_raises_when_recorded():
    for m in (M, torch):
        with pytest.raises(RuntimeError, match="not differentiable with respect to argument "
                                               "'weight'"):
            m.nn.functional.nll_loss(leaf(m, [[0.5, 0.25]]), m.tensor([1]),
                                     weight=leaf(m, [1.0, 2.0]))


def test_scalar_overload_gradients_unchanged():
    """Dropping a number's edge leaves the gradients of the tensors as they were."""
    def grads(m):
        x, w = leaf(m, [0.5, 0.25, 0.75]), leaf(m, [0.3, 0.6, 0.9])
        (x.pow(3) + x.clamp(0.3, 0.6) + x.lerp(w, 0.25) + m.xlogy(2.0, x)
         + x.masked_fill(x > 0.6, 2.0)).sum().backward()
        return x.grad, w.grad
    for a, b in zip(grads(M), grads(torch)):
        assert_same(a, b)
