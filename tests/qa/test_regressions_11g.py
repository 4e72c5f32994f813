"""Regression tests for QA round 11g (torch.func and autograd.functional), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import outcome, same_errors

torch = pytest.importorskip("torch")


def _plain(r):
    """A result as nested (container type name, ...) with tensors as float64 arrays."""
    if isinstance(r, (tuple, list)):
        return (type(r).__name__,) + tuple(_plain(x) for x in r)
    if isinstance(r, dict):
        return {k: _plain(v) for k, v in r.items()}
    if hasattr(r, "detach"):
        return np.asarray(r.detach().double().tolist()), tuple(r.shape), r.requires_grad
    return r


def _same(program):
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        _assert_close(_plain(ours[1]), _plain(theirs[1]))


def _assert_close(a, b):
    if isinstance(a, tuple) and a and isinstance(a[0], np.ndarray):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-10, atol=1e-12)
        assert a[1:] == b[1:]
    elif isinstance(a, tuple):
        assert len(a) == len(b) and a[:1] == b[:1], (a, b)
        for x, y in zip(a[1:], b[1:]):
            _assert_close(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _assert_close(a[k], b[k])
    else:
        assert a == b


def _xy(L):
    g = np.random.default_rng(0)
    return (L.tensor(g.standard_normal(3)), L.tensor(g.standard_normal(2)))


def _f2(a, b):
    return a[:2] * b, (a ** 2).sum() + b.prod()


@pytest.mark.parametrize("kw", [dict(), dict(vectorize=True),
                                dict(vectorize=True, strategy="forward-mode"),
                                dict(strategy="forward-mode"),
                                dict(strict=True, vectorize=True, strategy="forward-mode")])
@pytest.mark.parametrize("tuple_in", [False, True])
def test_jacobian_strategies_containers_and_refusals(kw, tuple_in):
    def program(L):
        x, y = _xy(L)
        F = L.autograd.functional
        if tuple_in:
            return F.jacobian(_f2, (x, y), **kw)
        return F.jacobian(lambda a: (a.exp(), a.sum()), x, **kw)
    _same(program)


@pytest.mark.parametrize("kw", [dict(), dict(vectorize=True),
                                dict(vectorize=True, outer_jacobian_strategy="forward-mode"),
                                dict(outer_jacobian_strategy="forward-mode"),
                                dict(strict=True, vectorize=True),
                                dict(outer_jacobian_strategy="sideways")])
def test_hessian_forwards_vectorize_and_strategy(kw):
    def program(L):
        x, y = _xy(L)
        f = lambda a, b: (a.sum() * b.pow(2)).sum() + (a ** 3).sum() * b[0]  # noqa: E731
        h = L.autograd.functional.hessian(f, (x, y), **kw)
        return [[t.detach() for t in row] for row in h]  # (torch's forward-over-reverse
    _same(program)                                       #  leaves them requiring grad)


def test_jvp_strict_refuses_an_unused_input():
    def program(L):
        x, y = _xy(L)
        return L.autograd.functional.jvp(lambda a, b: a * 2, (x, y), (x, y), strict=True)
    _same(program)


@pytest.mark.parametrize("argnums", [(0, 0), (0, -2), (0, 1.0), 0.5, (), 2])
def test_grad_argnums_checks(argnums):
    def program(L):
        x, y = _xy(L)
        return L.func.grad(lambda a, b: (a.sin() * b.sum()).sum(), argnums=argnums)(x, y)
    _same(program)


@pytest.mark.parametrize("case", ["float_input", "shape1_output", "backward_in_grad",
                                  "backward_in_vmap"])
def test_grad_refusals(case):
    def program(L):
        x, _ = _xy(L)
        F = L.func
        if case == "float_input":
            return F.grad(lambda a: a * 2)(3.0)
        if case == "shape1_output":
            return F.grad(lambda a: a.sum().reshape(1))(x)
        if case == "backward_in_grad":
            return F.grad(lambda a: (a.sum().backward(), a.sum())[1])(x)
        return F.vmap(lambda a: (a.sum().backward(), a)[1])(x.reshape(3, 1).requires_grad_())
    _same(program)


@pytest.mark.parametrize("case", ["aux_not_tuple", "float_output", "int_output",
                                  "cotangent_structure", "ok_tuple"])
def test_vjp_checks(case):
    def program(L):
        x, y = _xy(L)
        F = L.func
        if case == "aux_not_tuple":
            return F.vjp(lambda a: a * 3, x, has_aux=True)
        if case == "float_output":
            return F.vjp(lambda a: 3.0, x)
        if case == "int_output":
            return F.vjp(lambda a: a.argmax(), x)
        if case == "cotangent_structure":
            return F.vjp(lambda a: a.sin(), x)[1]((x, x))
        return F.vjp(lambda a: (a[:2], a.sum()), x)[1]((y, L.tensor(1.0, dtype=L.float64)))
    _same(program)


@pytest.mark.parametrize("case", ["chunk0", "chunk_neg", "int_output", "float_output",
                                  "aux_not_tuple"])
def test_jacrev_checks(case):
    def program(L):
        x, _ = _xy(L)
        F = L.func
        if case == "chunk0":
            return F.jacrev(lambda a: a.sin(), chunk_size=0)(x)
        if case == "chunk_neg":
            return F.jacrev(lambda a: a.sin(), chunk_size=-1)(x)
        if case == "int_output":
            return F.jacrev(lambda a: a.argmax())(x)
        if case == "float_output":
            return F.jacrev(lambda a: 1.0)(x)
        return F.jacrev(lambda a: a.sin(), has_aux=True)(x)
    _same(program)


@pytest.mark.parametrize("randomness", ["error", "same", "different"])
def test_jacfwd_randomness_draws_as_one_vmapped_call(randomness):
    def program(L):
        L.manual_seed(0)
        x, _ = _xy(L)
        j = L.func.jacfwd(lambda a: a * L.rand(3, dtype=L.float64), randomness=randomness)(x)
        return j, L.rand(2, dtype=L.float64)  # (the stream after it)
    _same(program)


def test_jacrev_of_jacfwd_and_messages():
    def program(L):
        x, _ = _xy(L)
        F = L.func
        f = lambda a: (a.sin() * a.exp()).sum()  # noqa: E731
        return F.jacrev(F.jacfwd(f))(x), F.jacfwd(F.jacfwd(f))(x)
    _same(program)
    _same(lambda L: L.func.jvp(lambda a: 1.0, (_xy(L)[0],), (_xy(L)[0],)))


def test_linearize_tangent_dtype():
    def program(L):
        x, _ = _xy(L)
        out, fn = L.func.linearize(lambda a: a.sin() * a.sum(), x)
        return fn(x.float())
    _same(program, )


_VMAP_CASES = {
    "out_dims_tuple_short": lambda L, X: L.func.vmap(lambda a: (a * 2, a.sum()), out_dims=(1,))(X),
    "out_dims_none_scalar": lambda L, X: L.func.vmap(lambda a: L.tensor(1.0), out_dims=None)(X),
    "out_dims_none_batched": lambda L, X: L.func.vmap(lambda a: a, out_dims=None)(X),
    "out_dims_mixed": lambda L, X: L.func.vmap(lambda a: (a, 1.0), out_dims=(0, None))(X),
    "out_dims_float": lambda L, X: L.func.vmap(lambda a: a, out_dims=0.5)(X),
    "out_dims_list_for_tuple": lambda L, X: L.func.vmap(lambda a: (a, a), out_dims=[0, 1])(X),
    "out_dims_dict": lambda L, X: L.func.vmap(lambda a: {"s": a}, out_dims={"s": 1})(X),
    "python_scalar_out": lambda L, X: L.func.vmap(lambda a: 1.0)(X),
    "none_out": lambda L, X: L.func.vmap(lambda a: None)(X),
    "in_dims_list": lambda L, X: L.func.vmap(L.dot, in_dims=[0, 0])(X, X),
    "in_dims_none": lambda L, X: L.func.vmap(lambda a: a, in_dims=None)(X),
    "no_args": lambda L, X: L.func.vmap(lambda: L.ones(2))(),
    "chunk_size0": lambda L, X: L.func.vmap(lambda a: a.exp(), chunk_size=0)(X),
    "empty_batch": lambda L, X: L.func.vmap(lambda a: (a * 2, a.sum()))(X[:0]),
    "empty_batch_dim1": lambda L, X: L.func.vmap(lambda a: a * 2, in_dims=-1, out_dims=1)(X[:, :0]),
    "name": lambda L, X: L.func.vmap(L.sin).__name__,
}


@pytest.mark.parametrize("case", sorted(_VMAP_CASES))
def test_vmap_outputs_and_argument_checks(case):
    _same(lambda L: _VMAP_CASES[case](L, L.tensor(np.arange(12.0).reshape(4, 3))))


def test_vmap_and_grad_keep_named_tuples():
    def program(L):
        X = L.tensor(np.random.default_rng(1).standard_normal((3, 2, 4)))
        r = L.func.vmap(lambda a: a.max(dim=1))(X)
        g = L.func.grad(lambda a: a.sum(dim=0).max(dim=0).values.sum())(X[0])
        return type(r).__name__, r.values, r.indices, g
    _same(program)


_STRICT_CG = {
    "hessian_quadratic": lambda F, L, x: F.hessian(lambda a: (a * a).sum(), x, create_graph=True,
                                                   strict=True),
    "hessian_linear": lambda F, L, x: F.hessian(lambda a: a.sum() * 3, x, create_graph=True,
                                                strict=True),
    "vhp_quadratic": lambda F, L, x: F.vhp(lambda a: (a * a).sum(), x, x, create_graph=True,
                                           strict=True),
    "vjp_linear": lambda F, L, x: F.vjp(lambda a: a * 2, x, x, create_graph=True, strict=True),
    "jvp_linear": lambda F, L, x: F.jvp(lambda a: a * 2, x, x, create_graph=True, strict=True),
    "jacobian_linear": lambda F, L, x: F.jacobian(lambda a: (a.sin(), a * 2), x,
                                                  create_graph=True, strict=True),
    "jvp_quadratic": lambda F, L, x: F.jvp(lambda a: a * a, x, x, create_graph=True, strict=True),
    "jacobian_complex": lambda F, L, x: F.jacobian(lambda a: a * (1 + 1j), x.to(L.complex128)),
}


@pytest.mark.parametrize("case", sorted(_STRICT_CG))
def test_autograd_functional_strict_create_graph(case):
    def program(L):
        x = L.tensor([1.0, 2.0], dtype=L.float64)
        r = _STRICT_CG[case](L.autograd.functional, L, x)
        return [t.detach() for t in _leaves_of(r)]
    _same(program)


def _leaves_of(r):
    return [y for x in r for y in _leaves_of(x)] if isinstance(r, (tuple, list)) else [r]


@pytest.mark.parametrize("api", ["grad", "grad_and_value", "jacrev", "jacfwd", "hessian", "vmap"])
def test_transforms_wrap_the_function(api):
    _same(lambda L: (getattr(L.func, api)(L.sin).__name__,
                     getattr(L.func, api)(L.sin).__wrapped__ is L.sin))


@pytest.mark.parametrize("api", ["jacrev", "jacfwd"])
@pytest.mark.parametrize("where", ["input", "output", "other_input"])
def test_jacobians_refuse_complex(api, where):
    def program(L):
        x = L.tensor([1.0, 2.0], dtype=L.float64)
        z = x.to(L.complex128)
        fn = getattr(L.func, api)
        if where == "input":
            return fn(lambda a: a * 2)(z)
        if where == "output":
            return fn(lambda a: a * (1 + 1j))(x)
        return fn(lambda a, b: a * b.real)(x, z)
    _same(program)


def test_vhp_signature():
    import inspect
    assert str(inspect.signature(mindtorch.autograd.functional.vhp)) == \
        str(inspect.signature(torch.autograd.functional.vhp))


def _setitem_unbatched(L, a):
    b = L.zeros(3, dtype=a.dtype)
    b[0] = a.sum()
    return b


def _iadd_unbatched(L, a):
    b = L.zeros(3, dtype=a.dtype)
    b += a
    return b


def _inplace_batched_ok(L, a):
    b = a.clone()
    b[0] = 1.0
    b += a
    return b.relu_()


_BATCHED = {
    "item": lambda L, a: a.sum().item(),
    "float": lambda L, a: float(a.sum()),
    "if": lambda L, a: a if a.sum() > 0 else -a,
    "tolist": lambda L, a: a.tolist(),
    "nonzero": lambda L, a: a.nonzero(),
    "mask_index": lambda L, a: a[a > 0],
    "add_into_unbatched": lambda L, a: L.zeros(3, dtype=a.dtype).add_(a),
    "setitem_unbatched": _setitem_unbatched,
    "iadd_unbatched": _iadd_unbatched,
    "inplace_batched_ok": _inplace_batched_ok,
    "plain_item_ok": lambda L, a: a * L.tensor(2.0).item(),
    "where_ok": lambda L, a: L.where(a > 0, a, 0.0),
    "jvp_inside_ok": lambda L, a: L.func.jvp(lambda b: b.sin(), (a,), (a,))[1],
    "grad_inside_ok": lambda L, a: L.func.grad(lambda b: (b ** 3).sum())(a),
    "relu_inplace_module_ok": lambda L, a: L.nn.ReLU(inplace=True)(a.clone()),
}


@pytest.mark.parametrize("case", sorted(_BATCHED))
def test_vmap_refuses_what_batched_tensors_cannot_do(case):
    def program(L):
        return L.func.vmap(lambda a: _BATCHED[case](L, a))(
            L.tensor(np.random.default_rng(2).standard_normal((4, 3))))
    if case.endswith("_unbatched"):  # (PyTorch's message depends on the op: the class is compared)
        ours, theirs = outcome(lambda: program(mindtorch)), outcome(lambda: program(torch))
        assert ours[0] == theirs[0] == "RuntimeError"
    else:
        _same(program)


def test_vmap_custom_function_forward_reads_numpy():
    def program(L):
        class Twice(L.autograd.Function):
            generate_vmap_rule = True

            @staticmethod
            def forward(x):
                return L.tensor(x.numpy() * 2)

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return L.func.vmap(Twice.apply)(L.tensor(np.arange(6.0).reshape(2, 3)))
    _same(program)  # (torch's generated rule runs forward on batched tensors: refused)


def test_vmap_custom_function_with_own_rule_reads_numpy():
    def program(L):
        class Twice(L.autograd.Function):
            @staticmethod
            def forward(x):
                return L.tensor(x.numpy() * 2)

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def backward(ctx, g):
                return g * 2

            @staticmethod
            def vmap(info, in_dims, x):
                return Twice.apply(x.movedim(in_dims[0], 0)), 0
        return L.func.vmap(Twice.apply)(L.tensor(np.arange(6.0).reshape(2, 3)))
    _same(program)


@pytest.mark.parametrize("randomness", ["error", "same", "different"])
@pytest.mark.parametrize("batched", [False, True])
def test_vmap_inplace_randomness(randomness, batched):
    def program(L):
        L.manual_seed(0)
        X = L.tensor(np.arange(6.0).reshape(2, 3))
        f = (lambda a: a.clone().normal_()) if batched else \
            (lambda a: L.empty(3, dtype=L.float64).normal_())
        return L.func.vmap(f, randomness=randomness)(X)
    _same(program)


def test_linearize_tangent_structure_message():
    def program(L):
        x, y = _xy(L)
        out, fn = L.func.linearize(lambda a: a.sin(), x)
        return fn(x, x)
    _same(program)


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
@pytest.mark.parametrize("api", ["grad", "jacrev", "vjp_fn"])
def test_transforms_under_no_grad_and_inference_mode(mode, api):
    def program(L):
        with getattr(L, mode)():
            x = L.tensor([1.0, 2.0], dtype=L.float64)
            if api == "grad":
                r = L.func.grad(lambda a: (a ** 3).sum())(x)
            elif api == "jacrev":
                r = L.func.jacrev(lambda a: a ** 3)(x)
            else:
                r = L.func.vjp(lambda a: a ** 3, x)[1](x)[0]
        return r, r.requires_grad
    _same(program)


def test_grad_of_leaf_requiring_grad_under_no_grad():
    def program(L):
        x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
        with L.no_grad():
            g = L.func.grad(lambda a: (a ** 3).sum())(x)
        out, fn = L.func.vjp(lambda a: a.sin(), x)
        with L.no_grad():
            v = fn(L.ones(2, dtype=L.float64))[0]
        return g, g.requires_grad, v.requires_grad
    _same(program)


def test_vmap_in_dim_leaf_type_and_jvp_without_primals():
    X = np.arange(6.0).reshape(2, 3)
    _same(lambda L: L.func.vmap(lambda a: a, in_dims=("x",))(L.tensor(X)))
    _same(lambda L: L.func.jvp(lambda: L.ones(2), (), ()))


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "copy_"])
@pytest.mark.parametrize("other", ["same", "scalar"])
def test_vmap_inplace_into_unbatched_messages(op, other):
    def program(L):
        X = L.tensor(np.arange(12.0).reshape(4, 3))
        return L.func.vmap(lambda a: getattr(L.zeros(3, dtype=L.float64), op)(
            a if other == "same" else a.sum()))(X)
    _same(program)


@pytest.mark.parametrize("case", ["batched", "unbatched", "autograd_grad", "af_jacobian",
                                  "grad_inside_ok", "jacrev_inside_ok", "module_inside_ok"])
def test_vmap_refuses_requires_grad_(case):
    def program(L):
        X = L.tensor(np.arange(6.0).reshape(2, 3))
        f = {
            "batched": lambda a: a.clone().requires_grad_(),
            "unbatched": lambda a: L.zeros(2).requires_grad_(),
            "autograd_grad": lambda a: L.autograd.grad(
                (a.clone().requires_grad_() ** 2).sum(), a)[0],
            "af_jacobian": lambda a: L.autograd.functional.jacobian(L.sin, a),
            "grad_inside_ok": lambda a: L.func.grad(lambda b: (b ** 2).sum())(a),
            "jacrev_inside_ok": lambda a: L.func.jacrev(L.sin)(a),
            "module_inside_ok": lambda a: a.sum() + 0 * L.nn.Linear(3, 2).weight.sum().detach(),
        }[case]
        return L.func.vmap(f)(X).shape
    _same(program)


@pytest.mark.parametrize("randomness", ["same", "different"])
@pytest.mark.parametrize("op", ["multinomial", "normal", "bernoulli", "rand_like", "randint"])
def test_vmap_random_ops_with_batched_inputs(randomness, op):
    def program(L):
        L.manual_seed(0)
        X = L.tensor(np.linspace(-1.0, 1.0, 12).reshape(3, 4), dtype=L.float32)
        f = {"multinomial": lambda a: L.multinomial(a.softmax(0), 2),
             "normal": lambda a: L.normal(a, 1.0),
             "bernoulli": lambda a: L.bernoulli(a.sigmoid()),
             "rand_like": lambda a: L.rand_like(a),
             "randint": lambda a: L.randint(0, 10, (2,))}[op]
        return L.func.vmap(f, randomness=randomness)(X), L.rand(2)
    _same(program)
