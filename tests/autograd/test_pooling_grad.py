"""Gradients of the pooling ops against PyTorch (values and grads), finite differences
(gradcheck) and the meta device; second derivatives; PyTorch's node names."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, rand, randn


def F(m):
    return m.nn.functional


def _unpool_input(nd, shape):
    """(values, indices) of a max pooling with kernel 2 (indices as a const)."""
    x = torch.tensor(randn(*shape))
    v, i = getattr(torch.nn.functional, f"max_pool{nd}d")(x, 2, return_indices=True)
    return v.numpy(), const(i.numpy())


V1, I1 = _unpool_input(1, (2, 2, 6))
V2, I2 = _unpool_input(2, (1, 2, 4, 6))
V3, I3 = _unpool_input(3, (1, 1, 4, 4, 2))

CASES = [
    # (id: the op reached, fn(module, *tensors), specs[, options])
    ("max_pool1d", lambda m, x: F(m).max_pool1d(x, 3, 2, 1), [randn(2, 2, 7)]),
    ("max_pool1d_unbatched", lambda m, x: F(m).max_pool1d(x, 2, 1), [nc(randn(2, 5))]),
    ("max_pool1d_with_indices", lambda m, x: m.max_pool1d_with_indices(x, 2, 1, 1, 2)[0],
     [randn(1, 2, 6)]),
    ("max_pool2d", lambda m, x: F(m).max_pool2d(x, 2), [randn(1, 2, 4, 4)]),
    ("max_pool2d_overlap", lambda m, x: F(m).max_pool2d(x, 3, 1, 1, 2, True), [randn(1, 2, 5, 4)]),
    ("max_pool2d_with_indices", lambda m, x: F(m).max_pool2d_with_indices(x, 2, 1)[0],
     [nc(randn(2, 3, 4))]),
    ("max_pool2d_empty", lambda m, x: F(m).max_pool2d(x, 2), [randn(0, 2, 4, 4)]),
    ("max_pool3d", lambda m, x: F(m).max_pool3d(x, 2, 1, 1), [randn(1, 1, 3, 3, 2)]),
    ("max_pool3d_with_indices", lambda m, x: F(m).max_pool3d_with_indices(x, 2)[0],
     [nc(randn(1, 2, 4, 4))]),
    ("avg_pool1d", lambda m, x: F(m).avg_pool1d(x, 3, 2, 1, False, False), [randn(2, 2, 7)]),
    ("avg_pool2d", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1), [nc(randn(1, 2, 5, 4))]),
    ("avg_pool2d_ceil", lambda m, x: F(m).avg_pool2d(x, 2, 2, 1, True, False), [randn(2, 5, 4)]),
    ("avg_pool2d_divisor", lambda m, x: F(m).avg_pool2d(x, 2, 1, divisor_override=3),
     [randn(1, 1, 4, 3)]),
    ("avg_pool2d_empty", lambda m, x: F(m).avg_pool2d(x, 2), [randn(0, 2, 4, 4)]),
    ("avg_pool3d", lambda m, x: F(m).avg_pool3d(x, 2, 1, 1, False, False), [randn(1, 1, 3, 3, 2)]),
    ("adaptive_avg_pool1d", lambda m, x: F(m).adaptive_avg_pool1d(x, 4), [randn(2, 2, 7)]),
    ("adaptive_avg_pool1d_mean", lambda m, x: m.adaptive_avg_pool1d(x, 1), [randn(2, 5)]),
    ("adaptive_avg_pool2d", lambda m, x: F(m).adaptive_avg_pool2d(x, (3, 2)), [nc(randn(1, 2, 5, 4))]),
    ("adaptive_avg_pool2d_up", lambda m, x: F(m).adaptive_avg_pool2d(x, 4), [randn(2, 3, 2)]),
    ("_adaptive_avg_pool2d", lambda m, x: m._adaptive_avg_pool2d(x, (2, 3)), [randn(1, 2, 3, 4)]),
    ("adaptive_avg_pool3d", lambda m, x: F(m).adaptive_avg_pool3d(x, (2, 1, 3)),
     [randn(1, 1, 3, 3, 4)]),
    ("_adaptive_avg_pool3d", lambda m, x: m._adaptive_avg_pool3d(x, (2, 2, 2)), [randn(1, 3, 3, 3)]),
    ("adaptive_max_pool1d", lambda m, x: m.adaptive_max_pool1d(x, 3)[0], [randn(2, 2, 7)]),
    ("nn_adaptive_max_pool1d", lambda m, x: F(m).adaptive_max_pool1d(x, 3), [randn(2, 7)]),
    ("adaptive_max_pool1d_with_indices",
     lambda m, x: F(m).adaptive_max_pool1d_with_indices(x, 4)[0], [randn(1, 2, 6)]),
    ("nn_adaptive_max_pool2d", lambda m, x: F(m).adaptive_max_pool2d(x, (2, None)),
     [nc(randn(1, 2, 5, 4))]),
    ("adaptive_max_pool2d_with_indices",
     lambda m, x: F(m).adaptive_max_pool2d_with_indices(x, 3)[0], [randn(2, 4, 5)]),
    ("nn_adaptive_max_pool3d", lambda m, x: F(m).adaptive_max_pool3d(x, 2), [randn(1, 1, 3, 3, 4)]),
    ("adaptive_max_pool3d_with_indices",
     lambda m, x: F(m).adaptive_max_pool3d_with_indices(x, (1, 2, 2))[0], [randn(2, 3, 3, 3)]),
    ("nn_max_unpool1d", lambda m, v, i: F(m).max_unpool1d(v, i, 2), [V1, I1]),
    ("nn_max_unpool2d", lambda m, v, i: F(m).max_unpool2d(v, i, 2, output_size=(5, 7)),
     [V2, I2]),
    ("nn_max_unpool3d", lambda m, v, i: F(m).max_unpool3d(v, i, 2), [V3, I3]),
    ("lp_pool1d", lambda m, x: F(m).lp_pool1d(x, 2, 3, 2), [randn(2, 2, 7)]),
    ("lp_pool2d", lambda m, x: F(m).lp_pool2d(x, 3, 2), [rand(1, 2, 4, 4)]),
    ("lp_pool3d", lambda m, x: F(m).lp_pool3d(x, 2, 2), [randn(1, 1, 2, 4, 2)]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_grads(case):
    _, fn, specs, *opts = case
    check_grads(fn, *specs, **(opts[0] if opts else {}))


@pytest.mark.parametrize("name,fn,spec", [
    ("max_pool2d", lambda m, x: F(m).max_pool2d(x, 3, 2, 1), randn(1, 2, 5, 5)),
    ("avg_pool2d", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1), randn(1, 2, 5, 5)),
    ("adaptive_avg_pool2d", lambda m, x: F(m).adaptive_avg_pool2d(x, 3), randn(1, 2, 5, 5)),
    ("adaptive_max_pool2d", lambda m, x: F(m).adaptive_max_pool2d(x, 3), randn(1, 2, 5, 5)),
])
def test_float32(name, fn, spec):
    check_grads(fn, spec, dtype="float32", gradcheck=False)


GRADGRAD = [
    # the backward ops' own derivatives
    ("max_pool2d_with_indices_backward", lambda m, x: F(m).max_pool2d(x, 2, 1),
     [randn(1, 1, 3, 4)]),
    ("max_pool3d_with_indices_backward", lambda m, x: F(m).max_pool3d(x, 2, 1),
     [randn(1, 2, 3, 2)]),
    ("avg_pool2d_backward", lambda m, x: F(m).avg_pool2d(x, 2, 1, 1), [randn(1, 1, 3, 4)]),
    ("avg_pool3d_backward", lambda m, x: F(m).avg_pool3d(x, 2, 1, 1), [randn(1, 2, 2, 3)]),
    ("_adaptive_avg_pool2d_backward", lambda m, x: F(m).adaptive_avg_pool2d(x, 2),
     [randn(1, 1, 3, 4)]),
    ("_adaptive_avg_pool3d_backward", lambda m, x: F(m).adaptive_avg_pool3d(x, 2),
     [randn(1, 3, 2, 3)]),
    ("adaptive_max_pool2d_backward", lambda m, x: F(m).adaptive_max_pool2d(x, 2),
     [randn(1, 1, 3, 4)]),
    ("adaptive_max_pool3d_backward", lambda m, x: F(m).adaptive_max_pool3d(x, 2),
     [randn(1, 2, 3, 3)]),
    ("max_unpool2d", lambda m, v: F(m).max_unpool2d(v * v, m.tensor(I2.array), 2), [V2]),
    ("lp_pool2d", lambda m, x: F(m).lp_pool2d(x, 2, 2), [randn(1, 1, 2, 4)]),
]


@pytest.mark.parametrize("case", GRADGRAD, ids=[c[0] for c in GRADGRAD])
def test_gradgrad(case):
    _, fn, specs = case
    check_gradgrad(fn, *specs)


def test_node_names_match_torch():
    x = randn(1, 2, 6, 6)
    mx = mindtorch.tensor(x, requires_grad=True)
    tx = torch.tensor(x, requires_grad=True)
    calls = [lambda m, x: F(m).max_pool2d(x, 2), lambda m, x: F(m).max_pool1d(x[0], 2),
             lambda m, x: F(m).max_pool3d(x, 2), lambda m, x: F(m).avg_pool2d(x, 2),
             lambda m, x: F(m).avg_pool1d(x[0], 2), lambda m, x: F(m).avg_pool3d(x, 1),
             lambda m, x: F(m).adaptive_avg_pool2d(x, 3),
             lambda m, x: F(m).adaptive_avg_pool2d(x, 1),
             lambda m, x: F(m).adaptive_avg_pool3d(x, 3),
             lambda m, x: F(m).adaptive_max_pool2d(x, 3),
             lambda m, x: F(m).adaptive_max_pool3d(x, 3),
             lambda m, x: F(m).adaptive_max_pool1d(x[0], 3),
             lambda m, x: F(m).lp_pool2d(x, 2, 2)]
    for fn in calls:
        assert fn(mindtorch, mx).grad_fn.name() == fn(torch, tx).grad_fn.name()
    v, i = F(torch).max_pool2d(tx, 2, return_indices=True)
    mv = mindtorch.tensor(v.detach().numpy(), requires_grad=True)
    mi = mindtorch.tensor(i.numpy())
    assert F(mindtorch).max_unpool2d(mv, mi, 2).grad_fn.name() == \
        F(torch).max_unpool2d(v, i, 2).grad_fn.name()
    g = F(mindtorch).avg_pool2d(mx, 2)
    (gx,) = mindtorch.autograd.grad(g.sum(), mx, create_graph=True)
    tg = F(torch).avg_pool2d(tx, 2)
    (tgx,) = torch.autograd.grad(tg.sum(), tx, create_graph=True)
    assert gx.grad_fn.name() == tgx.grad_fn.name()


def test_saved_input_modified_in_place_raises():
    # like PyTorch, max pooling saves its input: changing it in place breaks backward
    x = mindtorch.tensor(randn(1, 1, 4, 4), requires_grad=True)
    y = x * 1
    out = F(mindtorch).max_pool2d(y, 2)
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.sum().backward()


def test_ties_and_nan_route_gradient_like_torch():
    data = np.array([[[[1.0, 1.0, 0.0], [1.0, np.nan, 2.0], [2.0, 2.0, 2.0]]]])
    for fn in (lambda m, x: F(m).max_pool2d(x, 2, 1, 1),
               lambda m, x: F(m).adaptive_max_pool2d(x, 2)):
        check_grads(fn, data, gradcheck=False)
