"""Regression tests for QA round 12a (autograd semantics as user code exercises them),
each against torch."""
import contextlib
import math
import warnings

import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _x(L, requires_grad=True):
    return L.tensor([1., 2., 3.], requires_grad=requires_grad)


def _listed(t):
    return None if t is None else t.tolist()


def test_function_vjp_is_backward_alias():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def vjp(ctx, g):
                return g * 5
        a = _x(L)
        F.apply(a).sum().backward()
        return a.grad.tolist()
    same_outcome(program)


def test_function_with_both_backward_and_vjp_refused():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g

            @staticmethod
            def vjp(ctx, g):
                return g
        F.apply(_x(L)).sum().backward()
    same_outcome(program)


@pytest.mark.parametrize("container", ["list", "dict"])
def test_function_list_or_dict_output_is_one_non_tensor_output(container):
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                outs = [a * 2, a * 3]
                return outs if container == "list" else dict(enumerate(outs))

            @staticmethod
            def backward(ctx, g):
                return g
        r = F.apply(_x(L))
        return type(r).__name__, [r[k].requires_grad for k in (0, 1)]
    same_outcome(program)


@pytest.mark.parametrize("value", [True, False])
def test_requires_grad_attribute_of_non_leaf(value):
    def program(L):
        b = _x(L) * 2
        b.requires_grad = value
        return b.requires_grad
    same_outcome(program)
    same_outcome(lambda L: (_x(L) * 2).requires_grad_(True).requires_grad)


@pytest.mark.parametrize("mode", ["no_grad", "enable_grad", "inference_mode"])
def test_grad_mode_decorating_a_class_warns_and_still_works(mode):
    def program(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")

            @getattr(L, mode)()
            class C:
                def __init__(self, x):
                    self.y = x * 2
            y = C(_x(L)).y
        return y.requires_grad, [(c.category.__name__, str(c.message)) for c in w]
    same_outcome(program)


def test_set_grad_enabled_mode_attribute():
    def program(L):
        g = L.set_grad_enabled(False)
        L.set_grad_enabled(True)
        return g.mode, L.set_grad_enabled(True).mode
    same_outcome(program)


def test_saved_tensors_unpack_hook_must_return_a_tensor():
    def program(L):
        a = _x(L)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
            y = a * a
        y.sum().backward()
    same_outcome(program)


def test_saved_tensors_pack_hook_may_not_modify_its_input():
    def program(L):
        a = _x(L)

        def pack(t):
            t.mul_(2)
            return t
        with L.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            (a * 1) * (a * 1)
    same_outcome(program)


def test_normalize_graph_is_clamp_min():
    def program(L):
        y = L.nn.functional.normalize(_x(L), dim=0)
        return y.grad_fn.next_functions[1][0].next_functions[0][0].name()
    same_outcome(program)


def test_checkpoint_default_device_type():
    def program(L):
        D = L.utils.checkpoint.DefaultDeviceType
        first = D.get_device_type()
        D.set_device_type("meta")
        try:
            return first, D.get_device_type()
        finally:
            D.set_device_type(None)
    same_outcome(program)


def _dirty_add(L, non_differentiable=False):
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.add_(1)
            ctx.mark_dirty(a)
            if non_differentiable:
                ctx.mark_non_differentiable(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g
    return F


@pytest.mark.parametrize("where", ["recorded", "no_grad", "plain_input"])
@pytest.mark.parametrize("non_differentiable", [False, True])
def test_function_mark_dirty_aliases_and_versions(where, non_differentiable):
    def program(L):
        a = L.ones(3) if where == "plain_input" else _x(L).clone()
        F = _dirty_add(L, non_differentiable)
        if where == "no_grad":
            with L.no_grad():
                r = F.apply(a)
        else:
            r = F.apply(a)
        return (r is a, a._version, r._version, r.requires_grad,
                r.grad_fn.name() if r.grad_fn else None)
    same_outcome(program)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("kind", ["input", "namedtuple", "tuple"])
def test_function_outputs_when_nothing_is_recorded(kind, requires_grad):
    import collections
    Pair = collections.namedtuple("Pair", "a b")

    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a if kind == "input" else (Pair if kind == "namedtuple" else tuple)(
                    (a * 2, a * 3))

            @staticmethod
            def backward(ctx, *grads):
                return grads[0]
        a = L.ones(3, requires_grad=requires_grad)
        with L.no_grad():
            r = F.apply(a)
        if kind == "input":
            return r is a, r._base is a, r.requires_grad
        return type(r).__name__, [t.requires_grad for t in r]
    same_outcome(program)


_PIECEWISE_LINEAR = {
    "relu": lambda L, t: t.relu(),
    "relu_": lambda L, t: (t * 1).relu_(),
    "leaky_relu": lambda L, t: L.nn.functional.leaky_relu(t, 0.2),
    "hardtanh": lambda L, t: L.nn.functional.hardtanh(t, -1.5, 1.5),
    "relu6": lambda L, t: L.nn.functional.relu6(t * 3),
    "threshold": lambda L, t: L.nn.functional.threshold(t, 0.5, -1.0),
    "max_pool2d": lambda L, t: L.nn.functional.max_pool2d(t.reshape(1, 1, 2, 2), 2),
    "max_pool1d": lambda L, t: L.nn.functional.max_pool1d(t.reshape(1, 1, 4), 2),
    "adaptive_max_pool1d": lambda L, t: L.nn.functional.adaptive_max_pool1d(
        t.reshape(1, 1, 4), 2),
}


@pytest.mark.parametrize("name", sorted(_PIECEWISE_LINEAR))
def test_second_derivative_through_piecewise_linear_backward_is_zero(name):
    """Their backward ops are flat in the input (PyTorch: zeros), so a first derivative
    taken with create_graph still requires grad and differentiates to zeros."""
    def program(L):
        a = L.tensor([1., -2., 3., 0.25], dtype=L.float64, requires_grad=True)
        y = _PIECEWISE_LINEAR[name](L, a)
        v = L.ones_like(y, requires_grad=True)
        g, = L.autograd.grad(y, a, v, create_graph=True)
        gg, = L.autograd.grad((g * g).sum(), a)
        gv, = L.autograd.grad((g * L.arange(1., 5., dtype=L.float64)).sum(), v)
        return g.tolist(), g.requires_grad, g.grad_fn.name(), gg.tolist(), gv.tolist()
    same_outcome(program)


def test_second_derivative_of_relu_network_wrt_its_input():
    def program(L):
        L.manual_seed(0)
        net = L.nn.Sequential(L.nn.Linear(1, 8), L.nn.ReLU(), L.nn.Linear(8, 1))
        x = L.linspace(-1, 1, 5).reshape(5, 1).requires_grad_()
        du, = L.autograd.grad(net(x).sum(), x, create_graph=True)
        d2u, = L.autograd.grad(du.sum(), x, create_graph=True)
        (d2u ** 2).mean().backward()
        return d2u.tolist(), net[0].weight.grad.tolist()
    same_outcome(program)


def test_a_tensor_cannot_be_its_own_grad():
    def program(L):
        p = _x(L)
        p.grad = p
    same_outcome(program)


def test_saved_attributes_of_unsaved_inputs_strides_and_dir():
    def program(L):
        a, b = L.ones(2, 3, requires_grad=True), L.ones(3, 2, requires_grad=True)
        mm = a.mm(b).grad_fn
        mul = (a * L.ones(2, 3)).grad_fn  # (self is not saved: other needs no grad)
        names = sorted(n for n in dir((a * a).grad_fn) if n.startswith(("_saved_", "_raw_")))
        return (mm._saved_self_sym_strides, mm._saved_mat2_sym_strides, mul._saved_self,
                names)
    same_outcome(program)


@pytest.mark.parametrize("op", ["max", "min"])
def test_full_max_min_gradient_is_positive_zero_off_the_extremum(op):
    """PyTorch's CPU backward writes the share into zeros: the others' gradient is +0.0
    even when the incoming gradient is negative."""
    def program(L):
        a = L.tensor([0.5, -1.0, 2.0, 2.0], requires_grad=True)
        (getattr(a, op)() * -3).backward()
        return [(v, math.copysign(1, v)) for v in a.grad.tolist()]
    same_outcome(program)


def test_tensor_backward_hooks_table_and_pickling_warning():
    import pickle

    def program(L):
        hooks = L.utils.hooks
        a, b = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True) * 2
        seen = [a._backward_hooks, b._backward_hooks]
        handle = b.register_hook(lambda g: g)
        seen.append(len(b._backward_hooks))
        handle.remove()
        seen.append(len(b._backward_hooks))
        a.register_hook(hooks.unserializable_hook(lambda g: g))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            pickle.dumps(a)
            quiet = len(w)
            a.register_hook(lambda g: g)
            pickle.dumps(a)
        return seen, quiet, len(w), [w[-1].category.__name__]
    same_outcome(program)


def test_legacy_autograd_names():
    def program(L):
        import importlib
        variable = importlib.import_module(L.__name__ + ".autograd.variable")
        grad_mode = importlib.import_module(L.__name__ + ".autograd.grad_mode")

        class F(L.autograd.function.InplaceFunction):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g
        y = F.apply(L.ones(2, requires_grad=True))
        with grad_mode.set_multithreading_enabled(False):
            off = L.autograd.is_multithreading_enabled()
        return (isinstance(L.ones(1), variable.Variable), type(variable.VariableMeta).__name__,
                y.grad_fn.name(), off, L.autograd.is_multithreading_enabled())
    same_outcome(program)


@pytest.mark.parametrize("index", ["int", "pair", "slice", "column", "ellipsis", "advanced"])
@pytest.mark.parametrize("value", [7.0, 7])
def test_setitem_of_a_number_records_it_as_a_tensor(index, value):
    """PyTorch writes a number through a 0-dim tensor: the node (CopySlices, FillBackward3,
    IndexPutBackward0) has an input for it, as next_functions and node hooks show."""
    def program(L):
        key = {"int": 0, "pair": (0, 1), "slice": slice(0, 1), "column": (slice(None), 1),
               "ellipsis": Ellipsis, "advanced": L.tensor([1])}[index]
        a = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        b = a.clone()
        b[key] = value
        seen = []
        b.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(len(grad_inputs)))
        b.sum().backward()
        return (b.grad_fn.name(), [(n and n.name(), k) for n, k in b.grad_fn.next_functions],
                seen, a.grad.tolist(), b.tolist())
    same_outcome(program)


def _scaled(L, seen):
    class F(L.autograd.Function):
        @staticmethod
        def forward(x, y=None, k=2.0):
            return x * k if y is None else x * y * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append([type(i).__name__ for i in inputs])
            ctx.save_for_backward(inputs[0], inputs[1])
            ctx.k = inputs[2]

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            if y is None:
                return g * ctx.k, None, None
            return g * y * ctx.k, g * x * ctx.k, None
    return F


@pytest.mark.parametrize("call", ["defaults", "keyword_tensor", "keyword_number",
                                  "unknown_keyword", "too_many"])
def test_setup_context_functions_bind_arguments_as_pytorch(call):
    """With setup_context, apply binds the arguments to forward's signature (defaults
    filled in, keywords made positional: a tensor passed by keyword is an input)."""
    def program(L):
        seen = []
        F = _scaled(L, seen)
        x, y = L.ones(2, requires_grad=True), L.full((2,), 3.0, requires_grad=True)
        out = {"defaults": lambda: F.apply(x),
               "keyword_tensor": lambda: F.apply(x, y=y),
               "keyword_number": lambda: F.apply(x, k=5.0),
               "unknown_keyword": lambda: F.apply(x, j=1),
               "too_many": lambda: F.apply(x, y, 1.0, 2.0)}[call]()
        out.sum().backward()
        return seen, _listed(x.grad), _listed(y.grad)
    same_outcome(program)


def test_setup_context_function_with_keyword_only_parameter_refused():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(x, *, scale=1.0):
                return x * scale

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def backward(ctx, g):
                return g
        F.apply(L.ones(2, requires_grad=True))
    same_outcome(program)


def _offloading(L):
    """Saved-tensor hooks that hand back a plain copy (as CPU-offloading hooks do)."""
    return L.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t)


def _rounded(t):
    return [round(v, 9) for v in t.tolist()]


@pytest.mark.parametrize("op", ["exp", "sin", "sin_of_nonleaf", "custom"])
def test_unpacked_saved_tensor_keeps_its_autograd_identity(op):
    """An unpack hook's result stands for the saved tensor (its grad_fn / leaf), so a
    create_graph backward through hooked saves still differentiates."""
    def program(L):
        class Square(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 2

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 2 * x * g
        a = L.tensor([0.5, 1.0], dtype=L.float64, requires_grad=True)
        with _offloading(L):
            y = {"exp": lambda: a.exp(), "sin": lambda: a.sin(),
                 "sin_of_nonleaf": lambda: (a * 2).sin(), "custom": lambda: Square.apply(a)}[op]()
        g, = L.autograd.grad(y.sum(), a, create_graph=True)
        gg, = L.autograd.grad(g.sum(), a)
        return _rounded(g), _rounded(gg)
    same_outcome(program)


@pytest.mark.parametrize("hooked", [False, True])
def test_checkpoint_inputs_are_saved_tensors(hooked):
    """Non-reentrant checkpoint saves its inputs as any saved tensor: the user's hooks see
    them; without hooks, an in-place change before backward raises the version error."""
    def program(L):
        ck = L.utils.checkpoint.checkpoint
        a = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)
        x = a * 1
        log = []
        hooks = L.autograd.graph.saved_tensors_hooks(
            lambda t: (log.append("pack"), t)[1], lambda t: (log.append("unpack"), t)[1])
        with hooks if hooked else contextlib.nullcontext():
            y = ck(lambda t, k: t.sin() * t * k, x, 2.0, use_reentrant=False)
        y.sum().backward(retain_graph=True)
        if hooked:
            return log, _rounded(a.grad)
        x.add_(1)
        y.sum().backward()
    same_outcome(program)


@pytest.mark.parametrize("early_stop", [True, False])
def test_checkpoint_recompute_stops_once_everything_is_saved(early_stop):
    def program(L):
        log = []
        L.manual_seed(0)
        m = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.Tanh(), L.nn.Linear(3, 1))
        for i, mod in enumerate(m):
            mod.register_forward_hook(lambda mod, args, out, i=i: log.append(i))
        x = L.ones(1, 2, requires_grad=True)
        with L.utils.checkpoint.set_checkpoint_early_stop(early_stop):
            y = L.utils.checkpoint.checkpoint(m, x, use_reentrant=False)
        y.sum().backward()
        return log, x.grad.tolist()
    same_outcome(program)


@pytest.mark.parametrize("rerun", ["more", "fewer", "other_dtype"])
def test_checkpoint_mismatched_recompute(rerun):
    def program(L):
        calls = [0]

        def f(t):
            calls[0] += 1
            u = t.sin()
            if calls[0] == 1:
                return u.exp()
            return {"more": lambda: u.exp().cos(), "fewer": lambda: u * 1,
                    "other_dtype": lambda: u.double().exp()}[rerun]()
        x = L.ones(2, requires_grad=True)
        y = L.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        y.sum().backward()
        return x.grad.tolist()
    same_outcome(program)


def test_allow_mutation_on_saved_tensors_context():
    def program(L):
        with L.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
            a = _x(L)
            b = a * 1
            c = b * b
            b.mul_(0)
            c.sum().backward()
            return type(ctx).__name__, a.grad.tolist()
    same_outcome(program)


@pytest.mark.parametrize("rule", ["none", "generated"])
@pytest.mark.parametrize("transform", ["jacfwd", "hessian"])
def test_jacfwd_needs_a_vmap_rule_of_custom_functions(rule, transform):
    """PyTorch's jacfwd vmaps over the basis: a Function without a vmap rule is refused."""
    def program(L):
        class Cube(L.autograd.Function):
            generate_vmap_rule = rule == "generated"

            @staticmethod
            def forward(x):
                return x ** 3

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0])
                ctx.save_for_forward(inputs[0])

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 3 * x * x * g

            @staticmethod
            def jvp(ctx, t):
                x, = ctx.saved_tensors
                return 3 * x * x * t
        x = L.tensor([1.0, 2.0])
        if transform == "jacfwd":
            return L.func.jacfwd(Cube.apply)(x).tolist()
        return L.func.hessian(lambda t: Cube.apply(t).sum())(x).tolist()
    same_outcome(program)


def test_custom_jvp_returning_too_many_tangents():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g

            @staticmethod
            def jvp(ctx, t):
                return t, t
        fa = L.autograd.forward_ad
        with fa.dual_level():
            F.apply(fa.make_dual(L.tensor([1., 2.]), L.tensor([1., 0.])))
    same_outcome(program)


@pytest.mark.parametrize("case", ["wrong_size", "dirty_not_in_place", "dirty_in_place",
                                  "view_not_view", "view_view", "as_is_not_view"])
def test_custom_jvp_tangent_checks(case):
    def program(L):
        dirty, as_is, view = case.startswith("dirty"), case == "as_is_not_view", \
            case.startswith("view")

        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                if dirty:
                    x.mul_(2)
                    ctx.mark_dirty(x)
                    return x
                return x if as_is else x.view(2) if view else x * 2

            @staticmethod
            def backward(ctx, g):
                return g

            @staticmethod
            def jvp(ctx, t):
                return {"wrong_size": lambda: t[:1], "dirty_not_in_place": lambda: t * 2,
                        "dirty_in_place": lambda: t.mul_(2), "view_not_view": lambda: t * 1,
                        "view_view": lambda: t.view(2), "as_is_not_view": lambda: t}[case]()
        fa = L.autograd.forward_ad
        with fa.dual_level():
            x = fa.make_dual(L.tensor([1., 2.]), L.tensor([1., 1.]))
            return fa.unpack_dual(F.apply(x)).tangent.tolist()
    same_outcome(program)
