"""Regression tests for QA round 13c (higher-order autograd as user code exercises it:
gradient penalties, MAML inner loops, Hessian-vector products), each against torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _inputs(L, shapes, wrt, seed=0):
    g = np.random.default_rng(seed)
    return [L.tensor(g.standard_normal(s), dtype=L.float64, requires_grad=k in wrt)
            for k, s in enumerate(shapes)]


def _double_backward(L, f, shapes, wrt):
    """First derivatives of f's output under create_graph: (requires_grad, grad_fn name)
    each, and the gradients of their weighted sum with respect to the same inputs."""
    xs = _inputs(L, shapes, wrt)
    leaves = [xs[k] for k in wrt]
    y = f(L, *xs)
    w = L.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape)), dtype=y.dtype)
    firsts = L.autograd.grad(y, leaves, w, create_graph=True)
    facts = [(g.requires_grad, type(g.grad_fn).__name__) for g in firsts]
    total = sum((g * (k + 1)).sum() for k, g in enumerate(firsts) if g.requires_grad)
    seconds = L.autograd.grad(total, leaves, allow_unused=True)
    return facts, [None if s is None else s.detach().numpy() for s in seconds]


def _first_facts(L, f, shapes, wrt):
    xs = _inputs(L, shapes, wrt)
    firsts = L.autograd.grad(f(L, *xs).sum(), [xs[k] for k in wrt], create_graph=True)
    return [g.requires_grad for g in firsts]


def _compare(f, shapes, wrt, names=True):
    if names is None:  # PyTorch's backward op has no derivative: first derivatives only
        ours, theirs = same_errors(lambda L: _first_facts(L, f, shapes, wrt))
        assert ours == theirs
        return
    ours, theirs = same_errors(lambda L: _double_backward(L, f, shapes, wrt))
    if ours[0] != "ok":
        return
    (facts, seconds), (t_facts, t_seconds) = ours[1], theirs[1]
    assert [r for r, _ in facts] == [r for r, _ in t_facts]
    if names:
        assert facts == t_facts
    for a, b in zip(seconds, t_seconds):
        assert (a is None) == (b is None), (seconds, t_seconds)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def _F(L):
    return L.nn.functional


def _target(L, *values):
    return L.tensor(values)


# (function of (library, *inputs), input shapes, differentiated inputs, whether to compare
# node names (None: first derivatives only, PyTorch's second backward raises there))
_LINEAR_IN_INPUT = {
    "hardshrink": (lambda L, x: _F(L).hardshrink(x, 0.3), [(3, 4)], (0,), True),
    "softshrink": (lambda L, x: _F(L).softshrink(x, 0.3), [(3, 4)], (0,), True),
    "hardsigmoid": (lambda L, x: _F(L).hardsigmoid(x * 4), [(3, 4)], (0,), None),
    "nll_loss": (lambda L, x: _F(L).nll_loss(x, _target(L, 0, 2, 1)), [(3, 4)], (0,), True),
    "nll_loss_none": (lambda L, x: _F(L).nll_loss(x, _target(L, 0, 2, 1), reduction="none"),
                      [(3, 4)], (0,), True),
    "nll_loss_2d": (lambda L, x: _F(L).nll_loss(x, _target(L, [[0, 1]], [[2, 1]])),
                    [(2, 3, 1, 2)], (0,), True),
    "multi_margin_loss": (lambda L, x: _F(L).multi_margin_loss(x, _target(L, 0, 2, 1)),
                          [(3, 4)], (0,), None),
    "prelu_x": (lambda L, x, w: _F(L).prelu(x, w), [(2, 3, 4), (3,)], (0,), True),
    "prelu_w": (lambda L, x, w: _F(L).prelu(x, w), [(2, 3, 4), (3,)], (1,), False),
    "rrelu_eval": (lambda L, x: _F(L).rrelu(x, training=False), [(3, 4)], (0,), True),
    "conv1d_x": (lambda L, x, w: _F(L).conv1d(x, w), [(2, 2, 5), (3, 2, 2)], (0,), True),
    "conv1d_w": (lambda L, x, w: _F(L).conv1d(x, w), [(2, 2, 5), (3, 2, 2)], (1,), True),
    "conv2d_x_bias": (lambda L, x, w, b: _F(L).conv2d(x, w, b, padding=1),
                      [(1, 2, 3, 3), (2, 2, 2, 2), (2,)], (0, 2), True),
    "conv2d_unbatched": (lambda L, x, w: _F(L).conv2d(x, w), [(2, 3, 3), (2, 2, 2, 2)], (0,),
                         True),
    "conv_transpose2d_x": (lambda L, x, w: _F(L).conv_transpose2d(x, w, stride=2),
                           [(1, 2, 3, 3), (2, 3, 2, 2)], (0,), True),
    "conv_transpose1d_w": (lambda L, x, w: _F(L).conv_transpose1d(x, w),
                           [(1, 2, 4), (2, 3, 2)], (1,), True),
    "conv3d_both": (lambda L, x, w: _F(L).conv3d(x, w),
                    [(1, 1, 3, 3, 3), (2, 1, 2, 2, 2)], (0, 1), True),
    "grid_sample_x": (lambda L, x, g: _F(L).grid_sample(x, g.tanh(), align_corners=False),
                      [(1, 2, 4, 4), (1, 3, 3, 2)], (0,), True),
    "grid_sample_both": (lambda L, x, g: _F(L).grid_sample(x, g.tanh(), align_corners=False),
                         [(1, 2, 4, 4), (1, 3, 3, 2)], (0, 1), True),
    "layer_norm_w": (lambda L, x, w, b: _F(L).layer_norm(x, (4,), w, b),
                     [(2, 3, 4), (4,), (4,)], (1,), True),
    "layer_norm_b": (lambda L, x, w, b: _F(L).layer_norm(x, (4,), w, b),
                     [(2, 3, 4), (4,), (4,)], (2,), True),
    "batch_norm_w": (lambda L, x, w, b: _F(L).batch_norm(x, None, None, w, b, training=True),
                     [(4, 3), (3,), (3,)], (1,), True),
    "batch_norm_b": (lambda L, x, w, b: _F(L).batch_norm(x, None, None, w, b, training=True),
                     [(4, 3), (3,), (3,)], (2,), True),
    "batch_norm_eval_x": (lambda L, x, w: _F(L).batch_norm(
        x, L.zeros(3, dtype=L.float64), L.ones(3, dtype=L.float64), w, training=False),
        [(4, 3), (3,)], (0,), True),
    "group_norm_w": (lambda L, x, w, b: _F(L).group_norm(x, 2, w, b),
                     [(2, 4, 3), (4,), (4,)], (1,), False),
    "group_norm_b": (lambda L, x, w, b: _F(L).group_norm(x, 2, w, b),
                     [(2, 4, 3), (4,), (4,)], (2,), False),
    "instance_norm_w": (lambda L, x, w: _F(L).instance_norm(x, weight=w),
                        [(2, 4, 3), (4,)], (1,), False),
    "group_norm_x_w": (lambda L, x, w, b: _F(L).group_norm(x, 2, w, b),
                       [(2, 4, 3), (4,), (4,)], (0, 1, 2), False),
    # (nondifferentiable outputs a formula reads: no history under create_graph)
    "frexp_mantissa": (lambda L, x: L.frexp(x)[0], [(3, 4)], (0,), True),
    "embedding_bag_mean": (lambda L, w: _F(L).embedding_bag(
        _target(L, 0, 2, 1, 2), w, _target(L, 0, 2)), [(3, 4)], (0,), True),
    # (already right: kept as references for what must not change)
    "linear_fixed_weight": (lambda L, x, w: _F(L).linear(x, w), [(2, 3), (4, 3)], (0,), True),
    "clamp": (lambda L, x: x.clamp(-0.5, 0.5), [(3, 4)], (0,), True),
    "relu": (lambda L, x: _F(L).relu(x), [(3, 4)], (0,), True),
}


@pytest.mark.parametrize("case", sorted(_LINEAR_IN_INPUT))
def test_first_derivative_under_create_graph_requires_grad_as_torch(case):
    """A gradient linear in the input (a mask times grad, a convolution with a fixed
    weight) requires grad under create_graph where PyTorch's backward op takes the input,
    and a second backward through it runs (zeros or no gradient, as PyTorch's)."""
    f, shapes, wrt, names = _LINEAR_IN_INPUT[case]
    _compare(f, shapes, wrt, names)


def test_materialize_grads_zeros_require_grad_under_create_graph():
    def program(L):
        x, z = _inputs(L, [(3,), (2,)], (0, 1))
        y = (x ** 2).sum()
        plain = L.autograd.grad(y, [x, z], materialize_grads=True, retain_graph=True)
        graph = L.autograd.grad(y, [x, z], materialize_grads=True, create_graph=True)
        return [(g.requires_grad, g.tolist()) for g in plain + graph]
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_grad_inputs_given_as_a_dict():
    def program(L):
        x, z = _inputs(L, [(3,), (2,)], (0, 1))
        y = (x ** 2).sum()
        r = L.autograd.grad(y, {"x": x, "z": z}, allow_unused=True, retain_graph=True)
        m = L.autograd.grad(y, {"x": x, "z": z}, materialize_grads=True)
        return {k: None if v is None else v.tolist() for k, v in r.items()}, \
            {k: v.tolist() for k, v in m.items()}
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_materialize_grads_refuses_gradient_edges():
    def program(L):
        from importlib import import_module
        edge = import_module(f"{L.__name__}.autograd.graph").get_gradient_edge
        x, z = _inputs(L, [(3,), (2,)], (0, 1))
        y = x * 2
        return L.autograd.grad(y.exp().sum(), [edge(y), edge(z * 1)], materialize_grads=True)
    same_errors(program)


def test_backward_op_node_freed_after_backward_without_retain_graph():
    """A double-backward-through-grad_outputs trick, then a second pass through the same
    first derivative: PyTorch's HardshrinkBackwardBackward0 freed what it saved."""
    def program(L):
        x, = _inputs(L, [(4,)], (0,))
        y = _F(L).hardshrink(x, 0.5)
        v = L.zeros_like(y, requires_grad=True)
        g, = L.autograd.grad(y, x, v, create_graph=True)
        jv, = L.autograd.grad(g, v, L.ones_like(x))
        return jv.tolist(), L.autograd.grad(g.sum(), x, allow_unused=True)
    same_errors(program)


def _grad_fn_names(L, f, x):
    """The grad_fn of f's first derivative under create_graph, then the second derivative."""
    x = L.tensor(x, dtype=L.float64, requires_grad=True)
    g, = L.autograd.grad(f(L, x).pow(2).sum(), x, create_graph=True)
    h, = L.autograd.grad(g.pow(2).sum(), x)
    return type(g.grad_fn).__name__, h.tolist()


_BACKWARD_OP_NODES = {
    "sigmoid": lambda L, x: x.sigmoid(),
    "tanh": lambda L, x: x.tanh(),
    "softmax": lambda L, x: x.softmax(1),
    "log_softmax": lambda L, x: x.log_softmax(0),
    "gelu": lambda L, x: _F(L).gelu(x),
    "gelu_tanh": lambda L, x: _F(L).gelu(x, approximate="tanh"),
    "hardswish": lambda L, x: _F(L).hardswish(x * 3),
    "silu": lambda L, x: _F(L).silu(x),
    "mse_loss": lambda L, x: _F(L).mse_loss(x, x.detach().flip(0) * 2, reduction="none"),
    "smooth_l1_loss": lambda L, x: _F(L).smooth_l1_loss(x * 2, x.detach(), reduction="none"),
    "huber_loss": lambda L, x: _F(L).huber_loss(x * 3, x.detach(), reduction="none"),
    "soft_margin_loss": lambda L, x: _F(L).soft_margin_loss(x, x.detach().sign(),
                                                            reduction="none"),
    "glu": lambda L, x: _F(L).glu(x),
    # (views whose formulas are PyTorch's backward ops)
    "slice": lambda L, x: x[1:, ::2].exp(),
    "select": lambda L, x: x[:, 1].exp(),
    "narrow": lambda L, x: x.narrow(1, 1, 2).exp(),
    "diagonal": lambda L, x: x.diagonal().exp(),
    "unfold": lambda L, x: x.unfold(1, 2, 1).exp(),
}


@pytest.mark.parametrize("case", sorted(_BACKWARD_OP_NODES))
def test_first_derivative_history_is_pytorchs_backward_op(case):
    """tanh_backward, _softmax_backward_data, ... have PyTorch's double-backward formulas:
    a gradient printed under create_graph shows PyTorch's grad_fn."""
    f = _BACKWARD_OP_NODES[case]
    x = np.random.default_rng(2).standard_normal((3, 4))
    ours, theirs = same_errors(lambda L: _grad_fn_names(L, f, x))
    assert ours[1][0] == theirs[1][0]
    np.testing.assert_allclose(ours[1][1], theirs[1][1], rtol=1e-10, atol=1e-12)


_FORWARD_OVER_REVERSE = {
    "leaky_relu": lambda L, t: _F(L).leaky_relu(t, 0.1),
    "celu": lambda L, t: _F(L).celu(t),
    "logsigmoid": lambda L, t: _F(L).logsigmoid(t),
    "hardtanh": lambda L, t: _F(L).hardtanh(t * 2),
    "tanh": lambda L, t: t.tanh(),
    "prelu": lambda L, t: _F(L).prelu(t, L.tensor([0.3], dtype=L.float64)),
    "cross_entropy": lambda L, t: _F(L).cross_entropy(t[None], L.tensor([1])),
    "layer_norm": lambda L, t: _F(L).layer_norm(t * t, (4,)),
    "conv1d": lambda L, t: _F(L).conv1d((t * t)[None, None], t[None, None, :2]),
}


@pytest.mark.parametrize("case", sorted(_FORWARD_OVER_REVERSE))
def test_jacfwd_of_jacrev_hessian(case):
    """Forward over reverse: a backward op whose arguments depend on each other (grad and
    result) got the tangent of one counted twice, and a gradient handed on by a backward
    op node lost its tangent."""
    f = _FORWARD_OVER_REVERSE[case]
    a = np.random.default_rng(0).standard_normal(4)

    def program(L):
        H = L.func.jacfwd(L.func.jacrev(lambda t: f(L, t).pow(2).sum()))(L.tensor(a))
        return H.tolist()
    ours, theirs = same_errors(program)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-9, atol=1e-12)


def test_jacfwd_of_a_non_contiguous_input():
    a = np.arange(12.0).reshape(4, 3) / 7

    def program(L):
        x = L.tensor(a).t()
        return L.func.jacfwd(lambda t: t.exp() * t[0].sum())(x).tolist()
    ours, theirs = same_errors(program)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def test_logcumsumexp_forward_ad_and_hessian():
    """logcumsumexp's tangent is PyTorch's formula (the double vjp read the backward
    formula at a zero gradient: log(0), NaN; and its Hessian kept a history)."""
    g = np.random.default_rng(0)
    a, w = g.standard_normal((2, 3)), g.standard_normal((2, 3))

    def program(L):
        x = L.tensor(a)
        jac = L.func.jacfwd(lambda t: L.logcumsumexp(t, 1))(x)
        hess = L.func.hessian(lambda t: (L.logcumsumexp(t, 1) * L.tensor(w)).sum())(x)
        return jac.tolist(), hess.requires_grad, hess.detach().tolist()
    ours, theirs = same_errors(program)
    assert ours[1][1] == theirs[1][1]
    np.testing.assert_allclose(ours[1][0], theirs[1][0], rtol=1e-10)
    np.testing.assert_allclose(ours[1][2], theirs[1][2], rtol=1e-9, atol=1e-12)


def test_backward_inputs_dict_and_grad_variables():
    import collections

    def program(L):
        x = L.ones(3, requires_grad=True)
        (x * 2).sum().backward(inputs={"a": x})
        first = x.grad.tolist()
        with pytest.warns(FutureWarning, match="grad_variables"):
            L.autograd.backward([(x * 3).sum()], grad_variables=[L.tensor(2.0)])
        refusals = []
        for call in (lambda: L.autograd.backward((x * 2).sum(),
                                                 inputs=collections.OrderedDict(a=x)),
                     lambda: L.autograd.grad((x * 2).sum(), collections.OrderedDict(a=x)),
                     lambda: L.autograd.backward([(x * 3).sum()], [L.tensor(1.0)],
                                                 grad_variables=[L.tensor(2.0)])):
            try:
                call()
            except (TypeError, RuntimeError) as e:
                refusals.append((type(e).__name__, str(e)))
        return first, x.grad.tolist(), refusals
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_binary_cross_entropy_first_derivative_node():
    p = np.random.default_rng(3).uniform(0.1, 0.9, (2, 3))

    def program(L):
        x, t = (L.tensor(v, requires_grad=True) for v in (p, p[::-1].copy()))
        g = L.autograd.grad(_F(L).binary_cross_entropy(x, t), [x, t], create_graph=True)
        h = L.autograd.grad(g[0].pow(2).sum() + g[1].pow(2).sum(), [x, t])
        return type(g[0].grad_fn).__name__, [v.tolist() for v in h]
    ours, theirs = same_errors(program)
    assert ours[1][0] == theirs[1][0]
    np.testing.assert_allclose(ours[1][1], theirs[1][1], rtol=1e-10)


def test_broadcast_gradient_history_as_pytorchs_sum_to():
    """A gradient summed to a 0-dim input is a full sum (SumBackward0); one summed over
    kept dims has no extra view (SumBackward1), as PyTorch's sum_to."""
    g = np.random.default_rng(4)
    a, b, c = g.standard_normal((3, 4)), g.standard_normal(()), g.standard_normal((1, 4))

    def program(L):
        x, s, r = (L.tensor(v, requires_grad=True) for v in (a, b, c))
        grads = L.autograd.grad(((x * s) * r).exp().sum(), [s, r], create_graph=True)
        h = L.autograd.grad(sum(v.sum() for v in grads), [x, s, r])
        return [type(v.grad_fn).__name__ for v in grads], [v.tolist() for v in h]
    ours, theirs = same_errors(program)
    assert ours[1][0] == theirs[1][0]
    for m, t in zip(ours[1][1], theirs[1][1]):
        np.testing.assert_allclose(m, t, rtol=1e-10)


def test_eigh_forward_ad_takes_the_tangent_as_given():
    """linalg.eigh / eigvalsh tangents are PyTorch's (V^H dA V, dA not symmetrized), so
    torch.func.hessian (forward over reverse) of a function of eigenvalues is PyTorch's."""
    g = np.random.default_rng(0)
    a = g.standard_normal((3, 3))
    a = a @ a.T + np.diag([1.0, 2.0, 3.0])
    w = g.standard_normal(3)

    def program(L):
        f = lambda t: (L.linalg.eigvalsh(t) * L.tensor(w)).sum()
        return L.func.hessian(f)(L.tensor(a)).tolist()
    ours, theirs = same_errors(program)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-9, atol=1e-12)
