"""Autograd semantics, one test each, compared with PyTorch where there is a value."""
import threading
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import leaf
from reference import assert_same

M = mindtorch


def same_as_torch(program):
    """program(module) -> tensors; mindtorch's equal PyTorch's."""
    ours, theirs = program(M), program(torch)
    for a, b in zip(ours, theirs, strict=True):
        assert_same(a, b)
    return ours


# -- recording --------------------------------------------------------------------------

def test_broadcast_add_then_transposed_view_weighted_sum():
    # the case: a (1,3) + b (4,1), transposed, weighted sum
    w = np.arange(12.0).reshape(3, 4)
    grads = []
    for m in (M, torch):
        a = leaf(m, [[1.0, 2.0, 3.0]])
        b = leaf(m, [[1.0], [2.0], [3.0], [4.0]])
        ((a + b).t() * m.tensor(w, dtype=m.float32)).sum().backward()
        grads.append((a.grad, b.grad))
    assert tuple(grads[0][0].shape) == (1, 3)
    assert_same(grads[0][0], grads[1][0])
    assert_same(grads[0][1], grads[1][1])


def test_result_metadata_and_names():
    x = leaf(M, [1.0, 2.0])
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    assert y.grad_fn.name() == "MulBackward0" and type(y.grad_fn).__name__ == "MulBackward0"
    z = y + x
    assert z.grad_fn.name() == "AddBackward0"
    (nxt0, nr0), (nxt1, nr1) = z.grad_fn.next_functions
    assert nxt0 is y.grad_fn and nr0 == 0
    assert nxt1.name() == "torch::autograd::AccumulateGrad" and nxt1.variable is x
    assert type(nxt1).__name__ == "AccumulateGrad"
    assert "grad_fn=<AddBackward0>" in repr(z)
    assert not (x > 1).requires_grad  # comparisons: no history
    assert not x.argmax().requires_grad if hasattr(x, "argmax") else True
    with M.no_grad():
        assert not (x * 2).requires_grad


def test_no_recording_without_requires_grad():
    x = M.tensor([1.0, 2.0])
    y = x * 2
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf


# -- engine ------------------------------------------------------------------------------

def test_gradients_summed_per_input_and_diamond():
    def program(m):
        x = leaf(m, [1.0, 2.0, 3.0])
        y = x * x
        (y * x + y.exp() * 2 + x).sum().backward()
        return (x.grad,)
    same_as_torch(program)


def test_nonscalar_backward_needs_gradient():
    x = leaf(M, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        (x * 2).backward()
    (x * 2).backward(M.tensor([1.0, 1.0]))
    assert x.grad.tolist() == [2.0, 2.0]


def test_backward_twice_without_retain_graph():
    x = leaf(M, [1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]  # accumulated twice
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second "
                                           "time"):
        y.backward()


def test_backward_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        M.tensor([1.0]).sum().backward()


def test_autograd_grad_options():
    x, y = leaf(M, [1.0, 2.0]), leaf(M, [3.0, 4.0])
    out = x * 3
    (gx,) = M.autograd.grad(out, x, M.tensor([1.0, 2.0]), retain_graph=True)
    assert gx.tolist() == [3.0, 6.0] and x.grad is None  # returned, not accumulated
    with pytest.raises(RuntimeError, match="Tensor at index 1 appears to not have been used"):
        M.autograd.grad(out.sum(), [x, y], retain_graph=True)  # (torch's message)
    with pytest.raises(RuntimeError, match="Tensor at index 0 appears to not have been used"):
        M.autograd.grad(out.sum(), [y, x], retain_graph=True)
    gx, gy = M.autograd.grad(out.sum(), [x, y], allow_unused=True, retain_graph=True)
    assert gy is None and gx.tolist() == [3.0, 3.0]
    gx, gy = M.autograd.grad(out.sum(), [x, y], materialize_grads=True)
    assert gy.tolist() == [0.0, 0.0]


def test_grad_with_respect_to_intermediate():
    x = leaf(M, [1.0, 2.0])
    h = x * 2
    out = (h * h).sum()
    (gh,) = M.autograd.grad(out, h)
    assert gh.tolist() == [4.0, 8.0] and x.grad is None


def test_backward_inputs_restricts_accumulation():
    x, y = leaf(M, [1.0]), leaf(M, [2.0])
    (x * y).sum().backward(inputs=[x])
    assert x.grad.tolist() == [2.0] and y.grad is None


def test_multiple_roots():
    x = leaf(M, [1.0, 2.0])
    a, b = x * 2, x * 3
    M.autograd.backward([a.sum(), b.sum()])
    assert x.grad.tolist() == [5.0, 5.0]


def test_grad_accumulates_in_place_and_setter_checks():
    x = leaf(M, [1.0, 2.0])
    (x * 2).sum().backward()
    g = x.grad
    (x * 2).sum().backward()
    assert g is x.grad and g.tolist() == [4.0, 4.0]  # in place, as PyTorch
    x.grad = None
    with pytest.raises(RuntimeError, match="the same size"):
        x.grad = M.zeros(3)
    with pytest.raises(RuntimeError, match="must match the tensor's grad_dtype"):
        x.grad = M.zeros(2, dtype=M.float64)


def test_leaf_grad_is_not_aliased_between_inputs():
    # add's formula passes the incoming gradient to both inputs: their .grad must not be
    # one tensor (an in-place update of one would change the other)
    x, y = leaf(M, [1.0, 2.0]), leaf(M, [3.0, 4.0])
    (x + y).backward(M.tensor([1.0, 1.0]))
    assert x.grad is not y.grad
    x.grad.mul_(5)
    assert y.grad.tolist() == [1.0, 1.0]


HIGHER_ORDER = {
    "x^3 exp(x)": lambda m, x: x * x * x * x.exp(),
    "sin(x) cos(x)": lambda m, x: x.sin() * x.cos(),
    "tanh": lambda m, x: x.tanh(),
    "sigmoid(2x)": lambda m, x: (x * 2).sigmoid(),
    "log(1 + x^2)": lambda m, x: (x * x + 1).log(),
    "softmax": lambda m, x: m.softmax(x.reshape(1, 3), 1).reshape(3) * m.tensor(
        [1.0, 2.0, 3.0], dtype=m.float64),
    "x^2.5": lambda m, x: (x * x).pow(1.25),
    "matmul": lambda m, x: (x.reshape(3, 1) @ (x * x).reshape(1, 3)).sum(0),
}


@pytest.mark.parametrize("name", list(HIGHER_ORDER))
def test_higher_order_derivatives(name):
    # f', f'', f''' against PyTorch (create_graph through every formula)
    f = HIGHER_ORDER[name]
    results = []
    for m in (M, torch):
        x = leaf(m, [0.5, -1.0, 2.0], "float64")
        y = f(m, x).sum()
        (g1,) = m.autograd.grad(y, x, create_graph=True)
        (g2,) = m.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = m.autograd.grad(g2.sum(), x)
        results.append((g1, g2, g3))
    for a, b in zip(*results):
        assert_same(a, b)


def test_create_graph_backward_accumulates_differentiable_grad():
    x = leaf(M, [2.0], "float64")
    (x * x * x).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.tolist() == [12.0]
    (g2,) = M.autograd.grad(x.grad.sum(), x)
    assert g2.tolist() == [12.0]


# -- grad mode ---------------------------------------------------------------------------

def test_grad_mode_forms():
    x = leaf(M, [1.0])
    with M.no_grad():
        assert not M.is_grad_enabled()
        with M.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad

    @M.no_grad()
    def f():
        return x * 2
    assert not f().requires_grad and M.is_grad_enabled()

    M.set_grad_enabled(False)  # a plain call takes effect at once
    try:
        assert not M.is_grad_enabled()
    finally:
        M.set_grad_enabled(True)
    with M.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert M.is_grad_enabled()

    @M.set_grad_enabled(False)
    def g():
        return M.is_grad_enabled()
    assert M.is_grad_enabled() and g() is False

    with M.inference_mode():
        assert M.is_inference_mode_enabled() and not (x * 2).requires_grad
    with M.inference_mode(False):
        assert (x * 2).requires_grad
    assert M.autograd.no_grad is M.no_grad


def test_grad_mode_is_thread_local():
    seen = []
    with M.no_grad():
        t = threading.Thread(target=lambda: seen.append(M.is_grad_enabled()))
        t.start()
        t.join()
        assert not M.is_grad_enabled()
    assert seen == [True]


# -- tensor API --------------------------------------------------------------------------

def test_detach_and_requires_grad_rules():
    x = leaf(M, [1.0, 2.0])
    y = x * 2
    d = y.detach()
    assert not d.requires_grad and d.grad_fn is None
    d.add_(1)  # shares data and version counter
    assert y._version == 1 and y.tolist() == [3.0, 5.0]
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        y.requires_grad_(False)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require"):
        M.tensor([1, 2]).requires_grad_()  # (PyTorch's message for the method)
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype"):
        M.tensor([1, 2], requires_grad=True)
    z = x * 3
    z.detach_()
    assert z.is_leaf and not z.requires_grad
    with pytest.raises(RuntimeError, match="Can't detach views in-place"):
        (x * 1)[0:1].detach_()


def test_hooks():
    x = leaf(M, [1.0, 2.0])
    y = x * 2
    calls = []
    h = y.register_hook(lambda g: calls.append(g.tolist()) or g * 10)
    y.retain_grad()
    (y * 3).sum().backward()
    assert calls == [[3.0, 3.0]]
    assert y.grad.tolist() == [30.0, 30.0]  # retain_grad sees the hooked gradient
    assert x.grad.tolist() == [60.0, 60.0]
    h.remove()
    x.grad = None
    (x * 2 * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]

    # a leaf's hook runs before accumulation; post-accumulate hooks after it
    x = leaf(M, [1.0])
    order = []
    x.register_hook(lambda g: order.append("hook") or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: order.append(("post", t.grad.tolist())))
    (x * 3).sum().backward()
    assert order == ["hook", ("post", [6.0])]


def test_node_hooks():
    x = leaf(M, [1.0, 2.0])
    y = x * 2
    seen = []
    y.grad_fn.register_prehook(lambda gout: seen.append("pre"))
    y.grad_fn.register_hook(lambda gin, gout: (seen.append("post"), (gin[0] * 0, None))[1])
    y.sum().backward()
    assert seen == ["pre", "post"] and x.grad.tolist() == [0.0, 0.0]


# -- versions and in-place ------------------------------------------------------------------

def test_inplace_bumps_version_and_saved_tensor_check():
    x = leaf(M, [1.0, 2.0])
    y = x * 1
    z = y * y  # saves y
    v = y._version
    y.add_(1)
    assert y._version == v + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_inplace_on_input_add_does_not_need_saved():
    x = leaf(M, [1.0, 2.0])
    y = x * 1
    z = y + 2  # add saves nothing: changing y later is fine (as in PyTorch)
    y.mul_(3)
    z.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_inplace_on_leaf_and_view_of_leaf_raise():
    x = leaf(M, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.add_(1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable"):
        x[0:1].mul_(2)
    with M.no_grad():
        x.add_(1)  # allowed without grad mode (optimizer updates)
    assert x.tolist() == [2.0, 3.0]


def test_inplace_on_non_leaf_keeps_history():
    c = leaf(M, [1.0, 2.0])
    d = c * 2
    d.add_(1)
    assert d.grad_fn.name() == "AddBackward0"
    d.sum().backward()
    assert c.grad.tolist() == [2.0, 2.0]


def test_inplace_mul_uses_value_before_write():
    def program(m):
        x, w = leaf(m, [1.0, 2.0]), leaf(m, [3.0, 4.0])
        y = x * 1
        y.mul_(w)
        (y * y).sum().backward()
        return x.grad, w.grad
    same_as_torch(program)


def test_inplace_on_view_of_non_leaf_rewrites_base_history():
    # CopySlices: the base's gradient sees the view's in-place op
    def program(m):
        x, w = leaf(m, [[1.0, 2.0], [3.0, 4.0]]), leaf(m, [5.0, 6.0])
        base = x * 1
        view = base[:, 1]
        view.mul_(w)
        assert base.grad_fn.name() == "torch::autograd::CopySlices"
        (base * m.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        return x.grad, w.grad
    same_as_torch(program)


def test_view_history_after_base_changes():
    # a view taken before an in-place change of its base sees the new history
    def program(m):
        x = leaf(m, [1.0, 2.0, 3.0])
        base = x * 1
        view = base[1:]
        base.mul_(x)
        (view * 2).sum().backward()
        return (x.grad,)
    same_as_torch(program)


def test_setitem_on_non_leaf():
    def program(m):
        x, w = leaf(m, [1.0, 2.0, 3.0]), leaf(m, [7.0])
        y = x * 2
        y[1:2] = w * 3
        (y * y).sum().backward()
        return x.grad, w.grad
    same_as_torch(program)


def test_to_dtype_is_differentiable():
    x = leaf(M, [1.0, 2.0])
    y = x.to(M.float64)
    assert y.requires_grad and y.dtype is M.float64
    (y * y).sum().backward()
    assert x.grad.dtype is M.float32 and x.grad.tolist() == [2.0, 4.0]
    z = x.double().float()
    assert z.requires_grad


def test_to_device_is_differentiable():
    # (a meta gradient cannot travel back to the cpu: only the recorded history is checked)
    x = leaf(M, [1.0, 2.0])
    y = x.to("meta")
    assert y.requires_grad and y.device.type == "meta"
    assert y.grad_fn.next_functions[-1][0].variable is x
    assert x.to("cpu") is x


def test_out_argument_refused_when_recording():
    x = leaf(M, [1.0])
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        M.mul(x, 2, out=M.empty(1))


# -- checking --------------------------------------------------------------------------

def test_gradcheck_detects_wrong_formula():
    class Wrong(M.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g  # should be 2x g

    x = leaf(M, [1.0, 2.0], "float64")
    assert M.autograd.gradcheck(lambda t: t * t * 3, (x,))
    assert M.autograd.gradgradcheck(lambda t: t * t * t, (x,))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        M.autograd.gradcheck(Wrong.apply, (x,))
    assert M.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False


def test_gradcheck_checks_both_parts_of_complex_outputs():
    class WrongImag(M.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * (1 + 2j)

        @staticmethod
        def backward(ctx, g):
            return (g * (1 - 2j)).real * 0 + g.real  # drops the imaginary part's term

    x = leaf(M, [1.0, 2.0], "float64")
    assert M.autograd.gradcheck(lambda t: t * (1 + 2j), (x,))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        M.autograd.gradcheck(WrongImag.apply, (x,))


def test_detect_anomaly_names_forward_op():
    class NanGrad(M.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = leaf(M, [1.0])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with M.autograd.detect_anomaly():
            y = NanGrad.apply(x)
            with pytest.raises(RuntimeError, match="Function 'NanGradBackward' returned nan "
                                                   "values in its 0th output"):
                y.sum().backward()
    assert any("test_engine.py" in str(x.message) and "NanGrad" in str(x.message) for x in w)
    NanGrad.apply(leaf(M, [1.0])).sum().backward()  # without anomaly mode: no check
    M.autograd.set_detect_anomaly(True)
    assert M.autograd.is_anomaly_enabled()
    M.autograd.set_detect_anomaly(False)


def test_saved_tensors_hooks():
    packed, unpacked = [], []

    def pack(t):
        packed.append(tuple(t.shape))
        return t * 1

    def unpack(t):
        unpacked.append(tuple(t.shape))
        return t

    x = leaf(M, [1.0, 2.0])
    with M.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    assert packed == [(2,), (2,)] and len(unpacked) == 2
    assert x.grad.tolist() == [2.0, 4.0]


# -- device-agnostic ---------------------------------------------------------------------

def test_graph_on_meta():
    x = M.empty(4, 1, device="meta", requires_grad=True)
    w = M.empty(3, device="meta", requires_grad=True)
    y = ((x * w).exp().t()[1:] * 2).sum()
    y.backward()
    assert x.grad.shape == (4, 1) and x.grad.device.type == "meta"
    assert w.grad.shape == (3,) and w.grad.dtype is M.float32


def test_decorators_without_parentheses_and_variable():
    x = leaf(M, [1.0])

    @M.no_grad
    def f(t):
        return t * 2

    @M.inference_mode
    def g(t):
        return t * 2

    @M.enable_grad
    def h(t):
        return t * 2
    assert not f(x).requires_grad and not g(x).requires_grad
    with M.no_grad():
        assert h(x).requires_grad
    v = M.autograd.Variable(M.ones(2), requires_grad=True)
    assert v.requires_grad and v.is_leaf


SETITEM_CASES = {
    "number into a slice": lambda m, a: _set(a * 1, slice(0, 1), 10.0),
    "then in place on the result": lambda m, a: _set(a * 1, 0, 10.0).mul_(a),
    "augmented slice": lambda m, a: _imul_slice(a * 1),
    "view written twice": lambda m, a: _twice(a * 1, a),
}


def _set(t, index, value):
    t[index] = value
    return t


def _imul_slice(t):
    t[1:] *= 2
    return t


def _twice(t, a):
    v = t[1:]
    v.mul_(2)
    v.add_(a[:2] * a[1:])
    return t


@pytest.mark.parametrize("name", list(SETITEM_CASES))
def test_writes_into_views_of_non_leaves(name):
    results = []
    for m in (M, torch):
        a = leaf(m, [1.0, 2.0, 3.0])
        out = SETITEM_CASES[name](m, a)
        (out * m.tensor([1.0, 2.0, 3.0])).sum().backward()
        results.append((out, a.grad, type(out.grad_fn).__name__))
    assert_same(results[0][0], results[1][0])
    assert_same(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


def test_detached_view_is_not_a_view_for_autograd():
    def program(m):
        x = leaf(m, [1.0, 2.0, 3.0])
        x[0:2].detach().add_(1)  # allowed: a detached tensor, not a view of a leaf
        y = x * 1
        w = leaf(m, [2.0, 3.0])
        d = y[0:2].detach()
        d.mul_(w)
        assert y.grad_fn.name() == "MulBackward0" and d.grad_fn.name() == "MulBackward0"
        (y.sum() + d.sum()).backward()
        return x, x.grad, w.grad
    same_as_torch(program)


def test_deepcopy_gives_a_leaf_with_grad():
    import copy
    x = leaf(M, [1.0, 2.0])
    (x * 2).sum().backward()
    c = copy.deepcopy(x)
    assert c.is_leaf and c.requires_grad and c.grad.tolist() == [2.0, 2.0]
    assert c.grad is not x.grad
    with pytest.raises(RuntimeError) as want:
        copy.deepcopy(torch.ones(1, requires_grad=True) * 2)
    with pytest.raises(RuntimeError) as got:
        copy.deepcopy(x * 2)
    assert str(got.value) == str(want.value)


def test_grad_mode_decorates_generators():
    x = leaf(M, [1.0])

    @M.no_grad()
    def gen():
        for _ in range(2):
            yield (x * 2).requires_grad, M.is_grad_enabled()
    seen = list(gen())
    assert seen == [(False, False), (False, False)] and M.is_grad_enabled()
    it = gen()
    next(it)
    assert M.is_grad_enabled()  # the mode does not leak between iterations


def test_version_check_message_names_the_op_as_torch():
    """'which is output 0 of Exp' (the saving node's op), the current producer for inputs
    ('of Add' after add_), CopySlices by its C++ name."""
    def message(L, make):
        x = L.ones(2, 2, requires_grad=True)
        y, z = make(L, x)
        with pytest.raises(RuntimeError) as e:
            z.backward()
        return str(e.value).split("which is ")[1].split(", is")[0]

    def exp_out(L, x):
        y = x.exp()
        z = y.sum()
        y.mul_(2)
        return y, z

    def mul_in(L, x):
        y = x @ x
        z = (y * y).sum()
        y.add_(1)
        return y, z

    def setitem(L, x):
        y = x * 1
        z = (y * y).sum()
        y[0] = 5
        return y, z
    for make in (exp_out, mul_in, setitem):
        assert message(M, make) == message(torch, make)


@pytest.mark.parametrize("make", [lambda t: t.unbind(), lambda t: t.split(2),
                                  lambda t: t.chunk(2), lambda t: t.tensor_split(2),
                                  lambda t: t.hsplit(2)],
                         ids=["unbind", "split", "chunk", "tensor_split", "hsplit"])
@pytest.mark.parametrize("leaf", [False, True])
def test_multi_output_views_refuse_inplace_as_torch(make, leaf):
    """unbind/split/chunk outputs of a tensor requiring grad cannot change in place
    ("Output 1 of Unbind is a view ..."); tensor_split/hsplit pieces can (as in torch)."""
    def run(L):
        s = L.ones(4, 4, requires_grad=True)
        s = s if leaf else s * 1
        try:
            make(s)[1].mul_(2)
        except RuntimeError as e:
            return str(e)
        return "ok"
    ours, theirs = run(M), run(torch)
    assert (ours == "ok") == (theirs == "ok")
    if "multiple views" in theirs:
        assert ours == theirs
    with M.no_grad():
        M.ones(4, requires_grad=True).unbind()[0].mul_(2)  # no grad recording: allowed
