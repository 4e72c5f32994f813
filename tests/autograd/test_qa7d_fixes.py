"""Regressions found by QA round 7d (autograd semantics, bad-input errors), each compared
with PyTorch: the error class and message, or the values."""
import mindtorch
import pytest
import torch
from reference import same_errors, tagged_outcome

M = mindtorch


@pytest.mark.parametrize("build", ["add_sum", "mul_scalar", "view_sum", "saves_tensor", "exp",
                                   "mean", "add_alpha", "mul_plain", "linear_nobias"])
def test_second_backward_frees_only_saved_tensors(build):
    def program(m):
        a = m.ones(3, requires_grad=True)
        y = {"add_sum": lambda: (a + 1).sum(), "mul_scalar": lambda: (a * 2).sum(),
             "view_sum": lambda: a.view(3, 1).expand(3, 2).sum(),
             "saves_tensor": lambda: (a * a).sum(), "exp": lambda: a.exp().sum(),
             "mean": lambda: a.mean(), "add_alpha": lambda: m.add(a, a, alpha=2).sum(),
             "mul_plain": lambda: (a * m.ones(3)).sum(),
             "linear_nobias": lambda: m.nn.functional.linear(a, m.ones(2, 3)).sum()}[build]()
        y.backward()
        y.backward()
        return a.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("op", ["t_", "squeeze_", "unsqueeze_", "mul_"])
def test_version_error_names_overload_node(op):
    def program(m):
        x = m.ones(3, 1, requires_grad=True) * 1
        z = x * x
        {"t_": lambda: x.t_(), "squeeze_": lambda: x.squeeze_(),
         "unsqueeze_": lambda: x.unsqueeze_(0), "mul_": lambda: x.mul_(2)}[op]()
        z.sum().backward()
    same_errors(program)


@pytest.mark.parametrize("how", ["tensor", "new_tensor"])
def test_copy_construct_drops_history(how):
    for m in (M, torch):
        a = m.ones(3, requires_grad=True) * 2
        with pytest.warns(UserWarning, match="To copy construct from a tensor"):
            t = m.tensor(a) if how == "tensor" else a.new_tensor(a)
        assert (t.requires_grad, t.is_leaf, t.grad_fn) == (False, True, None)
        assert t.tolist() == [2.0, 2.0, 2.0]


def test_set_grad_enabled_bad_argument():
    same_errors(lambda m: m.set_grad_enabled("x"))


def test_backward_create_graph_warns_once_per_process():
    import warnings

    from mindtorch import _warn_once
    _warn_once._seen.discard("backward_create_graph")
    x = M.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        (x ** 3).sum().backward(create_graph=True)
        (x ** 3).sum().backward(create_graph=True)
        M.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert [str(m.message)[:60] for m in w] == [
        "Using backward() with create_graph=True will create a refere"]
    assert x.grad.tolist() == [6.0, 24.0]


def _warnings_of(f):
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tagged_outcome(f)
    return [(m.category.__name__, str(m.message).split("\n")[0].split(" (Triggered")[0])
            for m in w]


def test_anomaly_names_node_of_any_backward_error():
    def program(m):
        with m.autograd.detect_anomaly():
            b = m.tensor([1.0, 2.0], requires_grad=True)
            c = b.exp()
            c.add_(1)
            c.sum().backward()
    same_errors(program)
    assert _warnings_of(lambda: program(M)) == _warnings_of(lambda: program(torch))
    assert _warnings_of(lambda: program(M))[-1] == (
        "UserWarning", ("Error detected in ExpBackward0. Traceback of forward call that caused "
                        "the error:"))


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64", "complex128"])
def test_gradcheck_single_precision_warning(dtype):
    def program(m):
        x = m.ones(2, dtype=getattr(m, dtype), requires_grad=True)
        m.autograd.gradcheck(lambda t: t * 2, (x,), raise_exception=False)
    assert _warnings_of(lambda: program(M)) == _warnings_of(lambda: program(torch))


def _old_style(m):
    class Twice(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    return Twice


def test_function_instance_deprecated_and_call_refused():
    def program(m):
        return _old_style(m)()(m.ones(1))
    same_errors(program)
    assert [c for c, _ in _warnings_of(lambda: program(M))] == ["DeprecationWarning"]


@pytest.mark.parametrize("transform", ["vmap", "grad", "jacrev", "jacfwd", "vjp", "plain"])
def test_old_style_function_refused_by_func_transforms(transform):
    def program(m):
        f, x = _old_style(m).apply, m.ones(3, 2)
        return {"vmap": lambda: m.vmap(f)(x), "grad": lambda: m.func.grad(
            lambda t: f(t).sum())(x), "jacrev": lambda: m.func.jacrev(f)(x[0]),
            "jacfwd": lambda: m.func.jacfwd(f)(x[0]), "vjp": lambda: m.func.vjp(f, x)[0],
            "plain": lambda: f(x)}[transform]().tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_builtin_functions_still_run_under_vmap():
    lstm = M.nn.LSTM(2, 3)
    assert M.vmap(lambda x: lstm(x)[0])(M.ones(4, 5, 2)).shape == (4, 5, 3)


@pytest.mark.parametrize("case", ["plain", "leaf", "nonleaf"])
@pytest.mark.parametrize("dtype", ["int64", "complex64", "float64"])
def test_data_assignment_dtype_when_requiring_grad(case, dtype):
    def program(m):
        d = m.ones(2, requires_grad=case != "plain")
        if case == "nonleaf":
            d = d * 2
        d.data = m.zeros(3, dtype=getattr(m, dtype))
        return str(d.dtype), d.requires_grad, tuple(d.shape)
    ours, theirs = same_errors(program)
    assert ours == theirs


def _ident(x):
    return x


_FUNC_MISUSE = {
    "vmap_dim_low": lambda m: m.vmap(m.sin, in_dims=-3)(m.ones(2, 3)),
    "vmap_dim_high": lambda m: m.vmap(_ident, in_dims=1)(m.ones(2)),
    "vmap_0d": lambda m: m.vmap(_ident, in_dims=0)(m.tensor(1.0)),
    "vmap_non_tensor": lambda m: m.vmap(_ident, in_dims=(0, 0))(m.ones(2), 3),
    "vmap_nothing": lambda m: m.vmap(_ident, in_dims=(None,))(m.ones(2)),
    "vmap_float_dims": lambda m: m.vmap(_ident, in_dims=1.5)(m.ones(2)),
    "vmap_sizes": lambda m: m.vmap(m.add)(m.ones(3, 3), m.ones(2, 3)),
    "vmap_structure": lambda m: m.vmap(m.add, in_dims=(0,))(m.ones(2), m.ones(2)),
    "vmap_neg_dim": lambda m: m.vmap(_ident, in_dims=-1)(m.ones(2, 3)).tolist(),
    "grad_argnum_high": lambda m: m.func.grad(lambda x, y: x.sum(), argnums=(0, 2))(
        m.ones(2), m.ones(2)),
    "grad_argnum_low": lambda m: m.func.grad(lambda x: x.sum(), argnums=-2)(m.ones(2)),
    "grad_argnum_float": lambda m: m.func.grad(lambda x: x.sum(), argnums=1.0)(m.ones(2)),
    "grad_argnums_empty": lambda m: m.func.grad(lambda x: x.sum(), argnums=())(m.ones(2)),
    "grad_aux_not_pair": lambda m: m.func.grad(lambda x: (x.sum(), 1, 2), has_aux=True)(
        m.ones(2)),
    "grad_not_tensor": lambda m: m.func.grad(lambda x: 3)(m.ones(2)),
    "grad_neg_argnum": lambda m: m.func.grad(lambda x, y: (x * y).sum(), argnums=-1)(
        m.ones(2), m.full((2,), 3.0)).tolist(),
    "jacrev_argnum": lambda m: m.func.jacrev(_ident, argnums=1)(m.ones(2)),
}


@pytest.mark.parametrize("case", sorted(_FUNC_MISUSE))
def test_func_transform_misuse_errors(case):
    ours, theirs = same_errors(_FUNC_MISUSE[case])
    assert ours == theirs


@pytest.mark.parametrize("how", ["grad", "backward_inputs", "backward"])
def test_reentrant_checkpoint_refuses_partial_backward(how):
    from mindtorch.utils import checkpoint as mcp
    from torch.utils import checkpoint as tcp

    def program(m):
        cp = mcp if m is M else tcp
        m.manual_seed(0)
        lin = m.nn.Linear(4, 2)
        x = m.ones(3, 4, requires_grad=True)
        y = cp.checkpoint(lin, x, use_reentrant=True).sum()
        if how == "grad":
            return m.autograd.grad(y, x)[0].tolist()
        y.backward(inputs=[x] if how == "backward_inputs" else None)
        return x.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


_OUT_CALLS = {
    "mm": lambda m, a: m.mm(a, a, out=m.zeros(2, 2)),
    "matmul": lambda m, a: m.matmul(a, a, out=m.zeros(2, 2)),
    "bmm": lambda m, a: m.bmm(a[None], a[None], out=m.zeros(1, 2, 2)),
    "addmm": lambda m, a: m.addmm(a, a, a, out=m.zeros(2, 2)),
    "sum": lambda m, a: m.sum(a, 0, out=m.zeros(2)),
    "mean": lambda m, a: m.mean(a, 0, out=m.zeros(2)),
    "where": lambda m, a: m.where(a > 0, a, a, out=m.zeros(2, 2)),
    "clamp": lambda m, a: m.clamp(a, 0, 1, out=m.zeros(2, 2)),
    "dot": lambda m, a: m.dot(a[0], a[0], out=m.zeros(())),
    "floor": lambda m, a: m.floor(a, out=m.zeros(2, 2)),
    "argmax": lambda m, a: m.argmax(a, 0, out=m.zeros(2, dtype=m.long)),
    "max": lambda m, a: m.max(a, 0, out=(m.zeros(2), m.zeros(2, dtype=m.long))),
}


@pytest.mark.parametrize("grad", [True, False])
@pytest.mark.parametrize("call", sorted(_OUT_CALLS))
def test_out_refused_for_inputs_requiring_grad(call, grad):
    def program(m):
        a = m.ones(2, 2, requires_grad=True)
        with m.set_grad_enabled(grad):
            r = _OUT_CALLS[call](m, a)
        return [t.tolist() for t in r] if isinstance(r, tuple) else r.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


def _function(m, backward=None, forward=None):
    """A Function doubling its input, with the given backward / forward bodies."""
    class F(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return forward(ctx, x) if forward else x * 2

        @staticmethod
        def backward(ctx, g):
            return backward(g)
    return F


@pytest.mark.parametrize("bad", ["str", "meta", "int"])
def test_function_backward_result_checked(bad):
    def program(m):
        back = {"str": lambda g: "x", "meta": lambda g: g.to("meta"), "int": lambda g: 3}[bad]
        x = m.ones(2, requires_grad=True)
        return m.autograd.grad(_function(m, back).apply(x).sum(), x)
    same_errors(program)


def test_function_zero_dim_gradient_of_other_device_moves():
    x = M.ones((), requires_grad=True)
    g, = M.autograd.grad(_function(M, lambda g: g.to("cpu")).apply(x), x)
    assert g.device.type == "cpu"


@pytest.mark.parametrize("case", ["not_input", "not_returned"])
def test_mark_dirty_checks(case):
    def forward(ctx, x):
        if case == "not_input":
            y = x * 2
            ctx.mark_dirty(y)
            return y
        x.mul_(2)
        ctx.mark_dirty(x)
        return x * 1

    def program(m):
        x = m.ones(2, requires_grad=True) * 1
        return _function(m, lambda g: g, forward).apply(x).tolist()
    assert _warnings_of(lambda: program(M)) == _warnings_of(lambda: program(torch))
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("case", ["longer", "list", "shorter", "bare", "same"])
def test_jvp_structure_mismatch(case):
    def program(m):
        one = m.ones(2)
        primals, tangents = {"longer": ((one,), (one, one)), "list": ((one,), [one]),
                             "shorter": ((one, one), (one,)), "bare": ((one,), one),
                             "same": ((one,), (one,))}[case]
        return m.func.jvp(m.sin, primals, tangents)[1].tolist()
    ours, theirs = same_errors(program)
    if case == "same":
        assert ours[1] == pytest.approx(theirs[1])
