"""The __torch_function__ protocol and Tensor subclasses against PyTorch: results of ops on
a subclass's instances, handlers' call logs (function identity, types, args, kwargs),
TorchFunctionMode, DisableTorchFunction(Subclass), as_subclass / _make_subclass, autograd,
pickling and deepcopy, nn.Module with subclass parameters, torch.overrides' API.

Each scenario runs once per library (`lib` is mindtorch or torch) and returns plain Python
data, compared between the two."""
import copy
import pickle

import numpy as np
import pytest

import mindtorch
from reference import torch

LIBS = {"mindtorch": mindtorch, "torch": torch}


def both(scenario):
    """scenario(lib) run with mindtorch and torch gives the same result."""
    got, want = scenario(mindtorch), scenario(torch)
    assert got == want, (got, want)
    return got


def classes(lib):
    log = []

    class Plain(lib.Tensor):
        pass

    class Logged(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append((func, [t.__name__ for t in types], args, kwargs))
            return super().__torch_function__(func, types, args, kwargs)

    class Sub(Logged):
        pass

    return Plain, Logged, Sub, log


def data(lib, *shape):
    return lib.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 4 - 1)


def names(x):
    if isinstance(x, (tuple, list)):
        return [names(v) for v in x]
    return type(x).__name__


def values(t):
    return np.round(np.asarray(t.detach().numpy(), dtype=np.float64), 5).tolist()


# -- results keep the subclass ---------------------------------------------------------

_OPS = {
    "add": lambda lib, x: lib.add(x, 1),
    "method": lambda lib, x: x.mul(2),
    "operator": lambda lib, x: x * x - 1,
    "reflected": lambda lib, x: 1 - x,
    "matmul": lambda lib, x: x @ x.t(),
    "getitem": lambda lib, x: x[0],
    "getitem_adv": lambda lib, x: x[[0, 1], 1:],
    "sum": lambda lib, x: x.sum(),
    "max_dim": lambda lib, x: lib.max(x, 1),
    "sort": lambda lib, x: x.sort(dim=0),
    "chunk": lambda lib, x: x.chunk(2, 1),
    "unbind": lambda lib, x: lib.unbind(x),
    "cat": lambda lib, x: lib.cat([x, data(lib, 2, 3)]),
    "cat_plain_first": lambda lib, x: lib.cat([data(lib, 2, 3), x, data(lib, 2, 3)], 1),
    "index_tensors": lambda lib, x: x[lib.tensor([[0], [1]]), lib.tensor([2, 0, 1])],
    "stack_plain_first": lambda lib, x: lib.stack([data(lib, 2, 3), x]),
    "relu": lambda lib, x: lib.nn.functional.relu(x),
    "linear": lambda lib, x: lib.nn.functional.linear(x, data(lib, 4, 3)),
    "softmax": lambda lib, x: lib.softmax(x, -1),
    "where": lambda lib, x: lib.where(x > 0, x, 0.0),
    "T": lambda lib, x: x.T,
    "data": lambda lib, x: x.data,
    "detach": lambda lib, x: x.detach(),
    "clone": lambda lib, x: x.clone(),
    "to": lambda lib, x: x.to(lib.float64),
    "double": lambda lib, x: x.double(),
    "new_zeros": lambda lib, x: x.new_zeros(2),
    "view": lambda lib, x: x.view(3, 2),
    "reshape": lambda lib, x: x.reshape(-1),
    "iter": lambda lib, x: list(x),
    "tolist": lambda lib, x: x.tolist(),
    "zeros_like": lambda lib, x: lib.zeros_like(x),
    "eq": lambda lib, x: x == 0,
    "item": lambda lib, x: x.sum().item(),
}


@pytest.mark.parametrize("case", sorted(_OPS))
def test_results_keep_the_subclass(case):
    def scenario(lib):
        Plain, Logged, _, _ = classes(lib)
        out = []
        for cls in (Plain, Logged):
            x = data(lib, 2, 3).as_subclass(cls)
            r = _OPS[case](lib, x)
            out.append((names(r), r if not isinstance(r, lib.Tensor) else values(r)) if
                       not isinstance(r, (tuple, list)) else names(r))
        return out
    both(scenario)


def test_in_place_ops_return_the_same_subclass_object():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        x = data(lib, 2, 3).as_subclass(Plain)
        y = x.add_(1)
        x += 1
        x[0, 0] = 7.0
        return y is x, names(x), values(x)
    both(scenario)


def test_subclass_before_superclass_and_mixed_arguments():
    def scenario(lib):
        _, Logged, Sub, log = classes(lib)
        a = data(lib, 2).as_subclass(Logged)
        b = data(lib, 2).as_subclass(Sub)
        r1, r2 = a + b, lib.add(data(lib, 2), b)
        return names(r1), names(r2), [types for _, types, _, _ in log]
    assert both(scenario)[2] == [["Sub", "Logged"], ["Sub"]]


def test_parameter_results_are_plain_tensors():
    def scenario(lib):
        p = lib.nn.Parameter(data(lib, 2, 2))
        plain = lib.nn.Parameter(data(lib, 2))

        class MyParam(lib.nn.Parameter):
            pass
        q = MyParam(data(lib, 2))
        return (names(p * 2), names(p[0]), names(p.detach()), names(q + 1), names(q),
                lib.overrides.has_torch_function((p, q, plain)),
                lib.nn.Parameter.__torch_function__ is lib._C._disabled_torch_function_impl)
    assert both(scenario)[0] == "Tensor"


def test_parameter_of_a_subclass_keeps_it():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        p = lib.nn.Parameter(data(lib, 2, 2).as_subclass(Plain))
        return (names(p), isinstance(p, lib.nn.Parameter), isinstance(p, Plain),
                p.requires_grad, p.is_leaf, isinstance(data(lib, 1), lib.nn.Parameter),
                repr(p), repr(p * 2))
    assert both(scenario)[:2] == ("Plain", True)


def test_uninitialized_parameters_refuse_ops():
    def scenario(lib):
        P = lib.nn.parameter
        out = []
        for t in (P.UninitializedParameter(), P.UninitializedBuffer()):
            for f in (lambda t: t + 1, lambda t: lib.mul(t, 2), lambda t: t.sum(),
                      lambda t: t.numel(), lambda t: t.size(), lambda t: t.dtype,
                      lambda t: t.requires_grad, lambda t: t.to(lib.float64).dtype,
                      lambda t: t.data.dtype):
                try:
                    r = f(t)
                    out.append(str(r))
                except (ValueError, RuntimeError) as e:
                    out.append((type(e).__name__, str(e).split(" in ")[0]))
        lazy = lib.nn.LazyLinear(2)
        lazy(data(lib, 1, 3))
        return out, names(lazy.weight), isinstance(lazy.weight, lib.nn.Parameter)
    both(scenario)


# -- construction ------------------------------------------------------------------------

def test_as_subclass_is_an_alias_with_history():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        a = data(lib, 2).requires_grad_()
        b = a.as_subclass(Plain)
        c = data(lib, 2).as_subclass(Plain)
        c[0] = 5.0
        (b * 3).sum().backward()
        back = b.as_subclass(lib.Tensor)
        return (names(b), type(b.grad_fn).__name__, b.requires_grad, b.is_leaf, b._base is a,
                c._base is not None, values(a.grad), names(back), type(back.grad_fn).__name__)
    both(scenario)


def test_as_subclass_refuses_a_non_tensor_class():
    for lib in LIBS.values():
        with pytest.raises(TypeError):
            data(lib, 2).as_subclass(int)


def test_make_subclass_in_new_with_metadata():
    def scenario(lib):
        class Tagged(lib.Tensor):
            @staticmethod
            def __new__(cls, x, tag=None, requires_grad=False):
                return lib.Tensor._make_subclass(cls, x, requires_grad)

            def __init__(self, x, tag=None, requires_grad=False):
                self.tag = tag

        src = data(lib, 3)
        t = Tagged(src, "a", requires_grad=True)
        with lib.no_grad():
            src[0] = 9.0  # shares memory with the source
        u = t * 2
        return (names(t), t.tag, t.requires_grad, t.is_leaf, t.grad_fn is None, values(t),
                names(u), getattr(u, "tag", None), names(Tagged(src)),
                Tagged(src).requires_grad)
    both(scenario)


def test_make_subclass_refuses_a_non_tensor_class():
    for lib in LIBS.values():
        with pytest.raises(TypeError):
            lib.Tensor._make_subclass(int, data(lib, 2))


def test_legacy_constructor_of_a_subclass():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        a = data(lib, 2).requires_grad_()
        b = Plain(a)
        return (names(b), type(b.grad_fn).__name__, names(Plain([1.0, 2.0])),
                str(Plain([1, 2]).dtype), list(Plain(2, 3).shape), list(Plain().shape))
    both(scenario)


def test_attributes_survive_on_the_instance_not_on_results():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        x = data(lib, 2).as_subclass(Plain)
        x.unit = "m"
        return x.unit, hasattr(x + 1, "unit"), repr(x)
    both(scenario)


# -- __torch_function__ call logs ---------------------------------------------------------

def test_handler_sees_function_types_args_kwargs():
    def scenario(lib):
        _, Logged, _, log = classes(lib)
        x = data(lib, 2, 3).as_subclass(Logged)
        y = data(lib, 2, 3)
        lib.add(x, 1, alpha=2)
        x.add(y)
        x + 1
        x[0]
        lib.nn.functional.linear(y, x)
        lib.cat([y, x], 1)
        x.numel()
        x.sum(dim=-1, keepdim=True)
        lib.nn.functional.relu(x, inplace=False)
        lib.sum(input=x)
        checks = [log[0][0] is lib.add, log[1][0] is lib.Tensor.add,
                  log[2][0] is lib.Tensor.add, log[3][0] is lib.Tensor.__getitem__,
                  log[4][0] is lib.nn.functional.linear, log[5][0] is lib.cat,
                  log[6][0] is lib.Tensor.numel]
        shapes = [(types, len(args), sorted(kwargs or {})) for _, types, args, kwargs in log]
        return checks, shapes, log[0][2][1], log[0][3], log[3][2][1], log[5][2][1]
    checks = both(scenario)[0]
    assert all(checks)


def test_metadata_carrying_subclass():
    def scenario(lib):
        class Meta(lib.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                metas = [a.meta for a in args if isinstance(a, Meta) and hasattr(a, "meta")]
                out = super().__torch_function__(func, types, args, kwargs or {})
                if isinstance(out, Meta) and metas:
                    out.meta = metas[0]
                return out

        x = data(lib, 3).as_subclass(Meta)
        x.meta = {"unit": "s"}
        y = (x * 2).exp()[1:]
        return names(y), y.meta, values(y)
    both(scenario)


def test_handler_replacing_results():
    def scenario(lib):
        class Counting(lib.Tensor):
            calls = 0

            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                cls.calls += 1
                if func is lib.Tensor.sum or func is lib.sum:
                    return "summed"
                with lib._C.DisableTorchFunctionSubclass():
                    return func(*args, **(kwargs or {}))

        x = data(lib, 2).as_subclass(Counting)
        return x.sum(), lib.sum(x), names(x + 1), Counting.calls
    both(scenario)


class _ScalarLike:
    """A non-tensor object taking part in the protocol (PyTorch's docs' example)."""

    def __init__(self, lib, value):
        self.lib, self.value = lib, value

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        lib = next(a.lib for a in args if isinstance(a, _ScalarLike)) if any(
            isinstance(a, _ScalarLike) for a in args) else None
        if lib is None:
            flat = [t for a in args for t in (a if isinstance(a, list) else [a])]
            lib = next(t.lib for t in flat if isinstance(t, _ScalarLike))
        if func is lib.mean:
            return "mean of scalar"
        if func is lib.add or func is lib.Tensor.add:
            return ("add", [type(a).__name__ for a in args], kwargs)
        if func is lib.cat:
            return ("cat", [type(a).__name__ for a in args[0]])
        return NotImplemented


def test_non_tensor_objects_dispatch():
    def scenario(lib):
        s = _ScalarLike(lib, 3)
        out = [lib.add(s, 1), lib.add(data(lib, 1), s, alpha=2), data(lib, 1) + s,
               lib.mean(s), lib.cat([data(lib, 1), s]), lib.overrides.is_tensor_like(s),
               lib.overrides.has_torch_function((1, s))]
        return out
    both(scenario)


def test_all_handlers_not_implemented_raise_type_error():
    for lib in LIBS.values():
        with pytest.raises(TypeError, match="__torch_function__"):
            lib.exp(_ScalarLike(lib, 1))


# -- modes --------------------------------------------------------------------------------

def _logging_mode(lib, log, tag="m"):
    class Mode(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append((tag, func, [t.__name__ for t in types], args[1:], kwargs))
            return func(*args, **(kwargs or {}))
    return Mode()


def test_mode_intercepts_functions_methods_operators_and_factories():
    def scenario(lib):
        log = []
        t = data(lib, 2, 3)
        with _logging_mode(lib, log):
            a = t + 1
            t.sum(-1)
            lib.sum(t, dim=-1)
            lib.ones(2)
            lib.nn.functional.relu(t)
            lib.max(t, 1)
            inside = lib.overrides._is_torch_function_mode_enabled()
        after = lib.overrides._is_torch_function_mode_enabled()
        funcs = [f is g for (_, f, *_), g in zip(log, [
            lib.Tensor.add, lib.Tensor.sum, lib.sum, lib.ones, lib.nn.functional.relu,
            lib.max])]
        return funcs, len(log), values(a), inside, after, log[1][3], log[2][3], log[2][4]
    assert all(both(scenario)[0])


def test_mode_sees_python_level_tensor_methods():
    def scenario(lib):
        log = []
        t = data(lib, 2, 3)
        getitem = lib.Tensor.__getitem__
        with _logging_mode(lib, log):
            a = t[0]
            t[1] = 2.0
            n = t.numel()
            s = t.size(0)
            same = lib.Tensor.__getitem__ is getitem
            r = repr(t)
        return ([f is g for (_, f, *_), g in zip(log, [
            lib.Tensor.__getitem__, lib.Tensor.__setitem__, lib.Tensor.numel, lib.Tensor.size])],
            [(types, args, kwargs) for _, _, types, args, kwargs in log[:2] + log[3:4]],
            values(a), n, s, same, r, names(t[0]), lib.Tensor.__getitem__ is getitem)
    assert all(both(scenario)[0])


def test_mode_entered_inside_a_handler_keeps_the_outer_one_routing():
    def scenario(lib):
        log = []

        class Inner(lib.overrides.BaseTorchFunctionMode):
            pass

        class Outer(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                log.append(func.__name__.strip("_"))
                with Inner():
                    return func(*args, **(kwargs or {}))

        t = data(lib, 2, 3)
        with Outer():
            t + 1
            t.size()
            t[0]
            t.numel()
        return len(log), log[1], log[3]
    both(scenario)


def test_subclass_defined_inside_a_mode_is_routed():
    def scenario(lib):
        with _logging_mode(lib, []):
            Plain, _, _, _ = classes(lib)
        x = data(lib, 2).as_subclass(Plain)
        return names(x.detach()), names(x[0]), names(x.data)
    both(scenario)


def test_nn_init_functions_honour_the_protocol():
    def scenario(lib):
        _, Logged, _, log = classes(lib)
        x = data(lib, 3, 4).as_subclass(Logged)
        init = lib.nn.init
        results = [init.uniform_(x, -1, 1), init.normal_(x), init.constant_(x, 0.5),
                   init.kaiming_uniform_(x, a=1)]
        return ([f is g for (f, *_), g in zip(log, [init.uniform_, init.normal_,
                                                      init.constant_, init.kaiming_uniform_])],
                [sorted(kwargs) for _, _, _, kwargs in log], len(log), names(results),
                all(r is x for r in results))
    assert all(both(scenario)[0])


def test_keywords_seen_from_code_compiled_at_run_time():
    def scenario(lib):
        log = []
        ns = {"lib": lib, "t": data(lib, 2, 3)}
        with _logging_mode(lib, log):
            exec(compile("lib.sum(t, dim=0, keepdim=True); t.mean(-1)", "<stdin>", "exec"), ns)
        return [(args, kwargs) for _, _, _, args, kwargs in log]
    both(scenario)


def test_mode_sees_subclass_types_then_the_subclass_handles():
    def scenario(lib):
        log = []
        _, Logged, _, sub_log = classes(lib)
        x = data(lib, 2).as_subclass(Logged)
        with _logging_mode(lib, log):
            r = lib.mul(x, 2)
        return [types for _, _, types, _, _ in log], len(sub_log), names(r)
    both(scenario)


def test_nested_modes_innermost_first_and_results_replaced():
    def scenario(lib):
        log = []

        class Const(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                log.append("const")
                if func is lib.exp:
                    return "replaced"
                return func(*args, **(kwargs or {}))

        t = data(lib, 2)
        with _logging_mode(lib, log, "outer"), Const():
            r = lib.exp(t)
            s = lib.neg(t)
            depth = lib._C._len_torch_function_stack()
        return r, values(s), [e if isinstance(e, str) else e[0] for e in log], depth
    both(scenario)


def test_disable_torch_function_and_subclass():
    def scenario(lib):
        log = []
        _, Logged, _, sub_log = classes(lib)
        x = data(lib, 2).as_subclass(Logged)
        with _logging_mode(lib, log):
            with lib._C.DisableTorchFunctionSubclass():
                a = x + 1
                sub_on = lib._C._is_torch_function_enabled()
                has = lib.overrides.has_torch_function_unary(x)
            n_mode = len(log)
            with lib._C.DisableTorchFunction():
                b = x + 1
                mode_on = lib.overrides._is_torch_function_mode_enabled()
        with lib._C.DisableTorchFunctionSubclass():
            has_outside_mode = lib.overrides.has_torch_function_unary(x)
        return (names(a), names(b), n_mode, len(log), len(sub_log), sub_on, mode_on, has,
                has_outside_mode, lib._C._is_torch_function_enabled())
    both(scenario)


def test_base_mode_and_mode_stack_functions():
    def scenario(lib):
        O = lib.overrides
        with O.BaseTorchFunctionMode() as m:
            r = lib.add(data(lib, 2), 1)
            current = O._get_current_function_mode() is m
            depth = O._len_torch_function_stack()
        return values(r), current, depth, O._get_current_function_mode()
    both(scenario)


# -- the overrides module -----------------------------------------------------------------

def test_has_torch_function_and_is_tensor_like():
    def scenario(lib):
        O = lib.overrides
        Plain, _, _, _ = classes(lib)
        t, p = data(lib, 1), data(lib, 1).as_subclass(Plain)
        return (O.has_torch_function((t, 1)), O.has_torch_function((t, p)),
                O.has_torch_function_unary(p), O.has_torch_function_variadic(t, 2, p),
                O.is_tensor_like(t), O.is_tensor_like(p), O.is_tensor_like(3),
                O.is_tensor_like(lib.nn.Parameter(t)),
                lib.nn.functional.has_torch_function is O.has_torch_function,
                lib.autograd.is_tensor_like is O.is_tensor_like)
    both(scenario)


def test_handle_torch_function_for_python_functions():
    def scenario(lib):
        O = lib.overrides
        _, Logged, _, log = classes(lib)

        @O.wrap_torch_function(lambda x, y=None: (x, y))
        def combine(x, y=None):
            return x * 2

        def manual(x):
            if O.has_torch_function_unary(x):
                return O.handle_torch_function(manual, (x,), x)
            return x + 1

        x = data(lib, 2).as_subclass(Logged)
        a, b = combine(x), manual(x)
        plain = manual(data(lib, 2))
        return (names(a), names(b), names(plain), [f.__name__ for f, *_ in log[:1]],
                log[-1][0] is manual, values(b))
    both(scenario)


def test_default_nowrap_functions_and_grad():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)
        x = data(lib, 2).requires_grad_().as_subclass(Plain).detach().requires_grad_()
        (x * x).sum().backward()
        nowrap = lib.overrides.get_default_nowrap_functions()
        return names(x.grad), lib.Tensor.grad.__get__ in nowrap, values(x.grad)
    both(scenario)


def test_overridable_and_testing_overrides_tables():
    table = mindtorch.overrides.get_overridable_functions()
    assert mindtorch.add in table[mindtorch]
    assert mindtorch.nn.functional.linear in table[mindtorch.nn.functional]
    dummies = mindtorch.overrides.get_testing_overrides()
    assert dummies[mindtorch.add](1, 2) == -1
    assert mindtorch.is_tensor in mindtorch.overrides.get_ignored_functions()
    assert mindtorch.overrides.resolve_name(mindtorch.add) == "torch.add"
    assert mindtorch.overrides.resolve_name(mindtorch.nn.functional.relu) == \
        "torch.nn.functional.relu"


# -- autograd, pickling, modules ----------------------------------------------------------

def test_autograd_through_a_subclass():
    def scenario(lib):
        _, Logged, _, log = classes(lib)
        a = data(lib, 2, 3).requires_grad_()
        w = data(lib, 4, 3).requires_grad_()
        x = a.as_subclass(Logged)
        y = lib.nn.functional.linear(x, w).tanh().sum()
        del log[:]
        y.backward()
        g = lib.autograd.grad((x * x).sum(), a)[0]
        return (names(y), [f.__name__ for f, *_ in log], names(a.grad), names(w.grad),
                np.round(values(a.grad), 6).tolist(), np.round(values(w.grad), 6).tolist(),
                names(g), values(g))
    both(scenario)


class PickledPlain(mindtorch.Tensor):
    pass


class PickledSlots(mindtorch.Tensor):
    __slots__ = ("unit",)


class TorchPickledPlain(torch.Tensor):
    pass


class TorchPickledSlots(torch.Tensor):
    __slots__ = ("unit",)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_pickle_keeps_class_and_attributes(requires_grad):
    def scenario(lib):
        plain_cls, slots_cls = (PickledPlain, PickledSlots) if lib is mindtorch else \
            (TorchPickledPlain, TorchPickledSlots)
        x = data(lib, 2, 2).as_subclass(plain_cls).detach().requires_grad_(requires_grad)
        x.tag = [1, 2]
        s = data(lib, 3).as_subclass(slots_cls)
        s.unit = "kg"
        y, t = pickle.loads(pickle.dumps(x)), pickle.loads(pickle.dumps(s))
        c = copy.copy(x)
        return (type(y).__name__.replace("Torch", ""), y.tag, values(y), y.requires_grad,
                y.is_leaf, type(t).__name__.replace("Torch", ""), t.unit, c.tag,
                c.data_ptr() == x.data_ptr())
    both(scenario)


def test_save_and_load_keep_the_subclass():
    import io

    def scenario(lib):
        plain_cls = PickledPlain if lib is mindtorch else TorchPickledPlain
        x = data(lib, 2, 2).as_subclass(plain_cls)
        x.tag = "t"
        p = lib.nn.Parameter(data(lib, 3).as_subclass(plain_cls))
        buf = io.BytesIO()
        lib.save({"x": x, "p": p}, buf)
        buf.seek(0)
        r = lib.load(buf, weights_only=False)
        buf.seek(0)
        with pytest.raises(pickle.UnpicklingError):
            lib.load(buf)  # (weights_only: the subclass is no allowed global)
        return (type(r["x"]).__name__.replace("Torch", ""), r["x"].tag, values(r["x"]),
                isinstance(r["p"], lib.nn.Parameter), r["p"].requires_grad, values(r["p"]))
    both(scenario)


def test_deepcopy_of_a_subclass():
    def scenario(lib):
        Plain, _, _, _ = classes(lib)

        class Copyable(lib.Tensor):
            def __deepcopy__(self, memo):
                return self.clone().as_subclass(type(self))

        with pytest.raises(RuntimeError, match="new_empty"):
            copy.deepcopy(data(lib, 2).as_subclass(Plain))
        c = copy.deepcopy(data(lib, 2).as_subclass(Copyable))
        plain = copy.deepcopy(data(lib, 2))
        return names(c), values(c), names(plain)
    both(scenario)


def test_module_with_subclass_parameters():
    def scenario(lib):
        _, Logged, _, log = classes(lib)
        lin = lib.nn.Linear(3, 2)
        with lib.no_grad():
            lin.weight.copy_(data(lib, 2, 3))
            lin.bias.fill_(0.5)
        lin.weight = lib.nn.Parameter(lin.weight.detach().as_subclass(Logged))
        del log[:]
        out = lin(data(lib, 4, 3))
        logged = [f.__name__ for f, *_ in log]
        out.pow(2).sum().backward()
        opt = lib.optim.SGD(lin.parameters(), lr=0.1)
        opt.step()
        sd = lin.state_dict()
        fresh = lib.nn.Linear(3, 2)
        fresh.load_state_dict(sd)
        return (names(out), logged, [names(p) for p in lin.parameters()],
                names(lin.weight.grad), {k: names(v) for k, v in sd.items()},
                np.round(values(lin.weight), 5).tolist(), names(fresh.weight),
                [n for n, _ in lin.named_parameters()])
    both(scenario)


def test_transform_getitem_to_index_like_torch():
    """transformers builds attention masks by vmapping a function that indexes with the
    mapped (0-dim tensor) positions, inside this mode."""
    def run(lib):
        import importlib
        mode = importlib.import_module(lib.__name__ + "._dynamo._trace_wrapped_higher_order_op")
        x = lib.arange(12.0).view(3, 4)
        pad = lib.tensor([[1, 1, 0], [1, 0, 0]], dtype=lib.bool)

        def allowed(b, q, kv):
            return (kv <= q) & pad[b, kv]
        vm = lib.vmap
        with mode.TransformGetItemToIndex():
            out = [x[1], x[lib.tensor(2), 1], x[lib.tensor([0, 2])], x[1:], x[(1, 2)]]
            out.append(vm(vm(vm(allowed, (None, None, 0)), (None, 0, None)), (0, None, None))(
                lib.arange(2), lib.arange(3), lib.arange(3)))
        return [t.tolist() for t in out]
    assert run(mindtorch) == run(torch)
