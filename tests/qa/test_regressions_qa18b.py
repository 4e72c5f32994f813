"""Regression tests for round qa18b (a tensor's __dict__ holds only its user's attributes,
as PyTorch's: the autograd state lives in slots), each against torch."""
import copy
import io
import pickle

import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


# subclasses at module level, so that pickle finds them: {library: (plain, with __slots__)}
class _MindtorchSub(mindtorch.Tensor):
    pass


class _MindtorchSlotted(mindtorch.Tensor):
    __slots__ = ("extra",)


class _TorchSub(torch.Tensor):
    pass


class _TorchSlotted(torch.Tensor):
    __slots__ = ("extra",)


_SUBCLASSES = {mindtorch: (_MindtorchSub, _MindtorchSlotted), torch: (_TorchSub, _TorchSlotted)}


def _desc(t, L):
    """What a rebuilt tensor shows of its Python side."""
    name = type(t).__name__.replace("_Mindtorch", "_").replace("_Torch", "_")
    return (name, dict(t.__dict__), t.requires_grad,
            isinstance(t, L.nn.Parameter), isinstance(t, L.nn.Buffer))


def _save_load(L, obj, weights_only=False):
    f = io.BytesIO()
    L.save(obj, f)
    f.seek(0)
    return L.load(f, weights_only=weights_only)


def _autograd_states(L):
    """Tensors in each autograd state PyTorch keeps in C."""
    x = L.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    with L.no_grad():
        v0 = x[0]
    v = x[1:]
    y.sum().backward()
    hooked = L.ones(2, requires_grad=True)
    hooked.register_hook(lambda g: g)
    hooked.register_post_accumulate_grad_hook(lambda t: None)
    typed = L.ones(2, requires_grad=True)
    typed.grad_dtype = None
    graded = L.ones(2, requires_grad=True)
    graded.grad = L.zeros(2)
    S = _SUBCLASSES[L][0]
    return {
        "plain": L.ones(2), "leaf": x, "nonleaf": y, "view": v, "no_grad view": v0,
        "param": L.nn.Parameter(L.ones(2)), "hooks": hooked, "grad_dtype": typed,
        "grad set": graded, "detached": x.detach(), "as_subclass": x.as_subclass(S),
        "make_subclass": L.Tensor._make_subclass(S, L.ones(2), True),
        "linear weight": L.nn.Linear(2, 2).weight,
    }


def test_dict_and_vars_are_empty_in_every_autograd_state():
    def program(L):
        return {k: (dict(t.__dict__), vars(t) == {}) for k, t in _autograd_states(L).items()}
    assert same_outcome(program)


def test_dict_update_from_another_tensor_copies_no_autograd_state():
    def program(L):
        a = L.ones(2, requires_grad=True)
        b = (a * 2)[0]
        c = L.zeros(2)
        c.__dict__.update(a.__dict__)
        c.__dict__.update(b.__dict__)
        return c.requires_grad, c.grad_fn, c._base is None, dict(c.__dict__)
    assert same_outcome(program)


def _user_tensor(L, kind):
    S, Slotted = _SUBCLASSES[L]
    if kind == "tensor":
        t = L.ones(2, requires_grad=True)
    elif kind == "param":
        t = L.nn.Parameter(L.ones(2))
    elif kind == "subclass":
        t = S(L.ones(2))
    else:
        t = Slotted(L.ones(2))
        t.extra = 5
    t.foo = 1
    t._bar = [2]
    return t


_COPIES = {
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "pickle": lambda t: pickle.loads(pickle.dumps(t)),
}


@pytest.mark.parametrize("how", sorted(_COPIES))
@pytest.mark.parametrize("kind", ["tensor", "param", "subclass", "slotted"])
def test_user_attributes_through_copies_and_pickles(kind, how):
    def program(L):
        t = _COPIES[how](_user_tensor(L, kind))
        return _desc(t, L), getattr(t, "extra", None)
    same_outcome(program)


@pytest.mark.parametrize("kind", ["tensor", "param"])
@pytest.mark.parametrize("weights_only", [False, True])
def test_user_attributes_through_save_and_load(kind, weights_only):
    def program(L):
        return _desc(_save_load(L, _user_tensor(L, kind), weights_only), L)
    same_outcome(program)


def test_getstate_is_the_user_state():
    def program(L):
        t, p = L.ones(2), L.nn.Parameter(L.ones(2))
        before = t.__getstate__(), p.__getstate__()
        t.a, p.b = 1, 2
        return before, t.__getstate__(), p.__getstate__()
    same_outcome(program)


def test_flags_of_buffers_and_parameters_of_subclasses_travel():
    def program(L):
        S = _SUBCLASSES[L][0]
        b = L.nn.Buffer(L.ones(2), persistent=False)
        ps = L.nn.Parameter(S(L.ones(2)))
        out = {"buffer": _desc(b, L), "param of subclass": _desc(ps, L)}
        for how, fn in _COPIES.items():
            out["buffer " + how] = _desc(fn(b), L)
            if how != "deepcopy":  # (PyTorch refuses this subclass's deepcopy: new_empty)
                out["param of subclass " + how] = _desc(fn(ps), L)
        out["buffer saved"] = _desc(_save_load(L, b), L)
        return out
    same_outcome(program)


@pytest.mark.parametrize("requires_grad", [True, False])
def test_accelerate_rebuilds_parameters_from_their_dict(requires_grad):
    def program(L):
        m = L.nn.Linear(2, 2)
        m.weight.requires_grad_(requires_grad)
        p = m.weight
        plain = type(p)(p.data.to("meta"), **p.__dict__)  # (requires_grad: its default)
        kwargs = p.__dict__  # accelerate's init_empty_weights, verbatim
        kwargs["requires_grad"] = p.requires_grad
        rebuilt = type(p)(p.to("meta"), **kwargs)
        return _desc(plain, L), _desc(rebuilt, L), rebuilt.device.type, p.requires_grad
    same_outcome(program)


def test_a_user_attribute_is_no_keyword_of_parameter():
    def program(L):
        p = L.nn.Parameter(L.ones(2))
        p.foo = 3
        return type(p)(p.data, **p.__dict__)
    same_outcome(program)


def _int8_params(L):
    class Int8Params(L.nn.Parameter):  # bitsandbytes' shape of a Parameter subclass
        def __new__(cls, data=None, requires_grad=True, has_fp16_weights=False, CB=None,
                    SCB=None):
            if data is None:
                data = L.empty(0)
            obj = L.Tensor._make_subclass(cls, data, requires_grad)
            obj.CB, obj.SCB, obj.has_fp16_weights = CB, SCB, has_fp16_weights
            return obj
    return Int8Params(L.ones(2), requires_grad=False, has_fp16_weights=True)


def test_parameter_subclass_with_extra_attributes():
    def program(L):
        w = _int8_params(L)
        out = {"made": _desc(w, L)}
        rebuilt = type(w)(w.data.to("meta"), requires_grad=w.requires_grad, **w.__dict__)
        out["rebuilt"] = _desc(rebuilt, L), rebuilt.device.type
        for how, fn in _COPIES.items():
            out[how] = _desc(fn(w), L)
        return out
    same_outcome(program)


def test_swap_tensors_swaps_user_attributes_only():
    def program(L):
        a, b = L.ones(2, requires_grad=True), L.zeros(2)
        a.u = 1
        L.utils.swap_tensors(a, b)
        return dict(a.__dict__), dict(b.__dict__), a.requires_grad, b.requires_grad
    same_outcome(program)


def test_assigning_and_deleting_the_dict():
    def program(L):
        t = L.ones(2, requires_grad=True)
        t.__dict__ = {"k": 1}
        seen = t.k, t.requires_grad
        del t.k
        return seen, dict(t.__dict__), t.requires_grad
    same_outcome(program)


# -- __torch_function__: a method call hands the handler the method, as PyTorch's ---------

def test_a_method_call_hands_handlers_the_tensor_method():
    def program(L):
        seen = []

        class Mode(L.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                name = func.__name__
                seen.append((L.overrides.resolve_name(func), func is getattr(L.Tensor, name),
                             func is getattr(L, name)))
                return func(*args, **(kwargs or {}))
        x = L.ones(2)
        with Mode():
            x.mul(x), L.mul(x, x), x.atan2(x), L.atan2(x, x), x.acos(), L.acos(x)
        return seen
    same_outcome(program)


def test_resolve_name_of_tensor_methods():
    names = ["size", "backward", "numpy", "new_zeros", "register_hook", "int", "to", "mul",
             "__repr__", "float"]

    def program(L):
        return [L.overrides.resolve_name(getattr(L.Tensor, n)) for n in names] + \
            [L.overrides.resolve_name(L.mul), L.overrides.resolve_name(L.nn.functional.relu)]
    same_outcome(program)
