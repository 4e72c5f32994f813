"""Missing (undefined) gradients, as PyTorch's engine treats them: a node that receives no
gradient for any of its outputs passes None on (it does not compute zeros), so a leaf
reached only through such branches keeps .grad None (optimizers skip it); a node that
receives some gradients treats the missing ones as zeros.  Tensor hooks see None."""
import pytest
import torch

import mindtorch
from reference import assert_same

M = mindtorch


def leaves(m, *rows):
    return [m.tensor(r, dtype=m.float64, requires_grad=True) for r in rows]


def functions(m):
    """Custom Functions: one that gives no gradient to its second input, one with two
    outputs (called with zeros for a missing one, as PyTorch materializes)."""
    class NoGradForB(m.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2 + b

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    class TwoOutputs(m.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3
    return NoGradForB, TwoOutputs


def _none_through_chain(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    F.apply(x, (y * 3).sin().exp()).sum().backward()
    return x.grad, y.grad


def _none_through_views_and_multi_output(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0, 2.0, 3.0])
    a, b = y.reshape(2, 2).t().unbind(0)
    F.apply(x, a * b).sum().backward()
    return x.grad, y.grad


def _none_and_defined_paths_meet(m):
    # y gets a gradient through its second use: the None path adds nothing
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    (F.apply(x, y.exp()) + y * 5).sum().backward()
    return x.grad, y.grad


def _none_into_copyslices(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [1.0, 2.0, 3.0])
    b = y * 1
    b[:2].mul_(x)
    F.apply(x, b[:2]).sum().backward()
    return x.grad, y.grad


def _none_into_regenerated_view(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [1.0, 2.0, 3.0])
    b = y * 1
    v = b[1:]
    b.mul_(2)  # v's history is regenerated from its base
    F.apply(x, v).sum().backward()
    return x.grad, y.grad


def _custom_function_gets_zeros_for_missing(m):
    _, G = functions(m)
    x, = leaves(m, [1.0, 2.0])
    p, q = G.apply(x.exp())
    p.sum().backward()
    return (x.grad,)


def _custom_function_all_missing_is_called(m):
    # PyTorch calls a custom Function even when every gradient is missing (as zeros)
    F, G = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    F.apply(x, G.apply(y)[0]).sum().backward()
    return x.grad, y.grad


def _multi_output_ops_one_used(m):
    x, = leaves(m, [3.0, 1.0, 4.0, 1.5, 5.0, 9.0])
    a, b, c = x.split(2)
    parts = x.reshape(2, 3).unbind(1)
    top = x.topk(2)
    mx = x.reshape(2, 3).max(1)
    srt = x.sort()
    (a.sum() + parts[2].sum() + top.values.sum() + mx.values.sum() + srt.values[0]).backward()
    return (x.grad,)


def _zeros_through_cat_split(m):
    # the split node receives a gradient for one output: zeros for the other, so y's is 0
    x, y = leaves(m, [1.0, 2.0], [3.0, 4.0])
    a, b = m.cat([x, y]).split(2)
    a.sum().backward()
    return x.grad, y.grad


def _times_zero_gives_zeros(m):
    x, = leaves(m, [1.0, 2.0])
    (x * 0).sum().backward()
    return (x.grad,)


def _retain_graph_twice(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    out = F.apply(x, y.exp() * y).sum()
    out.backward(retain_graph=True)
    out.backward()
    return x.grad, y.grad


def _grad_allow_unused(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    w = y.exp()
    return m.autograd.grad(F.apply(x, w).sum(), [y, w, x], allow_unused=True)


def _grad_materialize(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    return m.autograd.grad(F.apply(x, y.exp()).sum(), [y, x], materialize_grads=True)


def _backward_inputs(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    F.apply(x, y.exp()).sum().backward(inputs=[y])
    return x.grad, y.grad


def _create_graph_second_order(m):
    F, _ = functions(m)
    x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
    (gx,) = m.autograd.grad((F.apply(x * x, y.exp())).sum(), x, create_graph=True)
    gx.sum().backward()
    return x.grad, y.grad


def _integer_index_paths(m):
    # leaves that only choose indices (argmax, max(dim).indices, topk indices) get None
    x, y = leaves(m, [[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]], [[0.1, 0.9, 0.3], [0.5, 0.2, 0.8]])
    z, = leaves(m, [1.0, 2.0, 3.0])
    _, i = y.max(1)
    _, k = y.reshape(-1).topk(2)
    (x.gather(1, y.argmax(1, keepdim=True)).sum() + z[i].sum() + z[k % 3].sum()).backward()
    return x.grad, y.grad, z.grad


def _grad_through_integer_index(m):
    x, w = leaves(m, [1.0, 5.0, 2.0], [1.0, 2.0, 3.0])
    return m.autograd.grad(w[x.argmax()], [x, w], allow_unused=True)


def _split_outputs_in_two_backwards(m):
    x, = leaves(m, [1.0, 2.0, 3.0, 4.0])
    a, b = (x * 2).split(2)
    a.sum().backward(retain_graph=True)
    first = x.grad.clone()
    b.sum().backward()
    return first, x.grad


GRAPHS = {f.__name__[1:]: f for f in (
    _integer_index_paths, _grad_through_integer_index, _split_outputs_in_two_backwards,
    _none_through_chain, _none_through_views_and_multi_output, _none_and_defined_paths_meet,
    _none_into_copyslices, _none_into_regenerated_view, _custom_function_gets_zeros_for_missing,
    _custom_function_all_missing_is_called, _multi_output_ops_one_used,
    _zeros_through_cat_split, _times_zero_gives_zeros, _retain_graph_twice,
    _grad_allow_unused, _grad_materialize, _backward_inputs, _create_graph_second_order)}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_missing_gradients_as_pytorch(name):
    ours, theirs = GRAPHS[name](M), GRAPHS[name](torch)
    assert [g is None for g in ours] == [g is None for g in theirs]
    assert_same(list(ours), list(theirs))


def test_hooks_see_missing_gradients_as_none():
    def program(m):
        F, _ = functions(m)
        seen = []
        x, y = leaves(m, [1.0, 2.0], [0.5, -1.0])
        y.register_hook(lambda g: seen.append(("leaf", g)))
        y.register_post_accumulate_grad_hook(lambda t: seen.append(("post", t.grad)))
        w = y * 3
        w.register_hook(lambda g: seen.append(("tensor", g)))
        w.grad_fn.register_prehook(lambda go: seen.append(("pre", go)))
        w.grad_fn.register_hook(lambda gi, go: seen.append(("node", gi, go)))
        w.retain_grad()
        a, b = (x * 1).split(1)
        b.register_hook(lambda g: seen.append(("unused output", g)))
        (F.apply(a.expand(2), w).sum()).backward()
        return seen, w.grad, y.grad

    ours, theirs = program(M), program(torch)
    assert repr(ours[0]) == repr(theirs[0]).replace("torch", "mindtorch")
    assert ours[1] is None and theirs[1] is None and ours[2] is None and theirs[2] is None
