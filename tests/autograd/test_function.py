"""Custom autograd.Function: outputs, ctx features, views, dirty inputs, gradient counts and
once_differentiable, each compared with PyTorch's behaviour."""
import pytest
import torch

import mindtorch
from gradutil import leaf

M = mindtorch


class TwoOutputs(M.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return x * k, x * x

    @staticmethod
    def backward(ctx, ga, gb):
        (x,) = ctx.saved_tensors
        return ga * ctx.k + gb * 2 * x, None


class Separate(M.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k, x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, ga, gb):
        (x,) = ctx.saved_tensors
        return ga * ctx.k + gb * 2 * x, None


@pytest.mark.parametrize("fn", [TwoOutputs, Separate])
def test_function_two_outputs_get_separate_grads(fn):
    x = leaf(M, [1.0, 2.0])
    a, b = fn.apply(x, 3.0)
    assert a.grad_fn is b.grad_fn and a.grad_fn.name() == fn.__name__ + "Backward"
    assert a.output_nr == 0 and b.output_nr == 1
    (ga,) = M.autograd.grad(a.sum(), x, retain_graph=True)
    (gb,) = M.autograd.grad(b.sum(), x)
    assert ga.tolist() == [3.0, 3.0] and gb.tolist() == [2.0, 4.0]


def test_function_ctx_features():
    seen = {}

    class F(M.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, flag):
            seen["needs"] = ctx.needs_input_grad
            ctx.set_materialize_grads(False)
            idx = x.argmax()
            ctx.mark_non_differentiable(idx)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            seen["g_idx"] = g_idx
            return g * 2, None, None

    x = leaf(M, [1.0, 5.0])
    out, idx = F.apply(x, M.tensor([1.0]), True)
    assert seen["needs"] == (True, False, False)
    assert not idx.requires_grad
    out.sum().backward()
    assert seen["g_idx"] is None and x.grad.tolist() == [2.0, 2.0]


def test_function_non_differentiable_input_returned_as_is():
    # the alias made for a returned input keeps mark_non_differentiable (as PyTorch's)
    class F(M.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
            return args

        @staticmethod
        def backward(ctx, *grads):
            return grads

    a, b = leaf(M, [1.0, 2.0]), M.tensor([3.0, 4.0])
    x, y = F.apply(a, b)
    assert x.requires_grad and x.grad_fn is not None
    assert not y.requires_grad and y.grad_fn is None


def test_function_view_output_refuses_inplace():
    # PyTorch forbids writing in place into a Function's output that views an input
    for lib in (M, torch):
        class F(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g

        class G(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view(2)

            @staticmethod
            def backward(ctx, g):
                return g

        x = lib.ones(2, requires_grad=True)
        for fn, name in ((F, "F"), (G, "G")):
            for src in (x, x * 1):
                with pytest.raises(RuntimeError, match=f"Output 0 of {name} is a view and is "
                                                       "being modified inplace"):
                    fn.apply(src).add_(1)
        y = F.apply(x * 1)
        with lib.no_grad():
            y.add_(1)  # allowed without grad mode
        assert F.apply(x * 1).clone().add_(1).tolist() == [2.0, 2.0]


def test_function_mark_dirty():
    class AddOne(M.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf(M, [1.0])
    y = x * 2
    z = AddOne.apply(y)
    assert z is y and y.grad_fn.name() == "AddOneBackward"
    (y * 3).sum().backward()
    assert x.grad.tolist() == [6.0]
    with pytest.raises(RuntimeError, match="leaf Variable"):
        AddOne.apply(leaf(M, [1.0]))


def test_function_wrong_number_of_grads():
    class Bad(M.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return (g,)

    x = leaf(M, [1.0])
    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        Bad.apply(x, x).sum().backward()


def test_once_differentiable():
    class Sq(M.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @M.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x

    x = leaf(M, [3.0])
    (g,) = M.autograd.grad(Sq.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [6.0] and not g.requires_grad


@pytest.mark.parametrize("as_view", [False, True])
def test_output_aliasing_an_input_modified_in_place_keeps_the_function_node(as_view):
    """An input returned as is (or as a view, a gradient reversal layer's x.view_as(x))
    after an in-place op on it: the output's node is the Function's, and its backward runs
    (its history was not to be regenerated from the base's)."""
    def run(L):
        class Reverse(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view_as(x) if as_view else x

            @staticmethod
            def backward(ctx, g):
                return -0.5 * g
        w = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
        h = w * 2
        h.relu_()
        out = Reverse.apply(h)
        (out * L.tensor([1.0, 2.0, 3.0])).sum().backward()
        return type(out.grad_fn).__name__, out._base is h, w.grad.tolist()
    assert run(M) == run(torch) == ("ReverseBackward", True, [-1.0, -0.0, -3.0])


def test_backward_node_repr_and_module_as_torch():
    # a custom Function's node is a Python class in PyTorch: object's repr, module
    # torch.autograd.function; nodes named after PyTorch's C++ nodes keep the short repr
    for lib in (torch, mindtorch):
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        node = Double.apply(lib.ones(1, requires_grad=True)).grad_fn
        prefix = lib.__name__ + ".autograd.function.DoubleBackward object at "
        assert repr(node).startswith("<" + prefix), repr(node)
        assert type(node).__module__ == lib.__name__ + ".autograd.function"
        assert node.name() == "DoubleBackward"
        packed = lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2, 1, requires_grad=True),
                                                       [3, 2])
        assert repr(packed.data.grad_fn).startswith("<PackPaddedSequenceBackward0 object at ")
