"""torch._foreach_* against PyTorch: unary, binary (scalar, scalar list, tensor list with
alpha, one tensor), addcmul / addcdiv / lerp in each argument form, norm / max / clone /
copy_ / zero_, in-place forms (the given list returned, inputs updated) and PyTorch's list errors."""
import mindtorch
import pytest
import torch
from reference import assert_same, to_torch


def _lists(L):
    return [L.tensor([0.5, -1.5, 2.0]), L.tensor([[0.25, 3.0], [-0.75, 1.0]])]


def _others(L):
    return [L.tensor([1.0, 2.0, -0.5]), L.tensor([[2.0, 0.5], [1.5, -1.0]])]


CALLS = [
    ("_foreach_add", lambda L: (_lists(L), 1.5), {}),
    ("_foreach_add", lambda L: (_lists(L), _others(L)), {"alpha": 2}),
    ("_foreach_add", lambda L: (_lists(L), [1.0, -2.0]), {}),
    ("_foreach_add", lambda L: (_lists(L), L.tensor(3.0)), {"alpha": 0.5}),
    ("_foreach_sub", lambda L: (_lists(L), _others(L)), {"alpha": 3}),
    ("_foreach_mul", lambda L: (_lists(L), L.tensor(2.0)), {}),
    ("_foreach_mul", lambda L: (_lists(L), [2.0, 0.5]), {}),
    ("_foreach_div", lambda L: (_lists(L), _others(L)), {}),
    ("_foreach_div", lambda L: ([L.tensor([3, 4])], 2), {}),
    ("_foreach_pow", lambda L: (_lists(L), 2), {}),
    ("_foreach_pow", lambda L: (2.0, _lists(L)), {}),
    ("_foreach_maximum", lambda L: (_lists(L), _others(L)), {}),
    ("_foreach_minimum", lambda L: (_lists(L), 0.5), {}),
    ("_foreach_clamp_min", lambda L: (_lists(L), 0.0), {}),
    ("_foreach_clamp_max", lambda L: (_lists(L), [1.0, 0.5]), {}),
    ("_foreach_addcmul", lambda L: (_lists(L), _others(L), _lists(L)), {"value": 0.5}),
    ("_foreach_addcmul", lambda L: (_lists(L), _others(L), _lists(L), [2.0, -1.0]), {}),
    ("_foreach_addcdiv", lambda L: (_lists(L), _others(L), _others(L), L.tensor([0.5, 2.0])),
     {}),
    ("_foreach_lerp", lambda L: (_lists(L), _others(L), 0.25), {}),
    ("_foreach_lerp", lambda L: (_lists(L), _others(L), [L.tensor(0.5), L.tensor(0.1)]), {}),
    ("_foreach_norm", lambda L: (_lists(L),), {}),
    ("_foreach_norm", lambda L: (_lists(L), 1), {}),
    ("_foreach_norm", lambda L: (_lists(L),), {"ord": float("inf")}),
    ("_foreach_max", lambda L: (_lists(L),), {}),
    ("_foreach_clone", lambda L: (_lists(L),), {}),
] + [(f"_foreach_{n}", lambda L: ([t.abs() + 0.1 for t in _lists(L)],), {})
     for n in ("abs", "exp", "log", "sqrt", "sigmoid", "tanh", "neg", "reciprocal", "sign",
               "floor", "round", "rsqrt", "erf", "lgamma", "frac", "log1p")]


@pytest.mark.parametrize("name,make,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_out_of_place_and_in_place_as_torch(name, make, kwargs):
    ours = getattr(mindtorch, name)(*make(mindtorch), **kwargs)
    theirs = getattr(torch, name)(*make(torch), **kwargs)
    assert type(ours) is type(theirs) is tuple
    assert_same(list(ours), list(theirs))
    if hasattr(torch, name + "_") and not isinstance(make(torch)[0], float):
        args_m, args_t = make(mindtorch), make(torch)
        if name.endswith("div") and args_t[0][0].dtype is torch.int64:
            return
        assert getattr(mindtorch, name + "_")(*args_m, **kwargs) is args_m[0]
        getattr(torch, name + "_")(*args_t, **kwargs)
        assert_same(args_m[0], args_t[0])


def test_copy_and_zero():
    a = _lists(mindtorch)
    assert mindtorch._foreach_copy_(a, _others(mindtorch)) is a
    assert_same(a, _others(torch))
    assert mindtorch._foreach_zero_(a) is a
    assert_same(a, [torch.zeros_like(t) for t in _others(torch)])


@pytest.mark.parametrize("call", [
    lambda L: L._foreach_add(_lists(L), _others(L)[:1]),
    lambda L: L._foreach_add([], 1.0),
    lambda L: L._foreach_mul(_lists(L), [1.0]),
    lambda L: L._foreach_add(_lists(L), _others(L)[::-1]),
    lambda L: L._foreach_norm([L.tensor([1, 2])]),
])
def test_errors_as_torch(call):
    with pytest.raises(RuntimeError) as theirs:
        call(torch)
    with pytest.raises(RuntimeError) as ours:
        call(mindtorch)
    if "list" in str(theirs.value):
        assert str(ours.value) == str(theirs.value)


def test_ema_update_with_foreach_lerp():
    """An EMA of a model's parameters (timm's foreach form) equals the plain loop's."""
    outs = []
    for L in (mindtorch, torch):
        model = L.nn.Linear(3, 2)
        ema = L.nn.Linear(3, 2)
        with L.no_grad():
            for i, (p, e) in enumerate(zip(model.parameters(), ema.parameters())):
                p.copy_(L.arange(p.numel(), dtype=L.float32).reshape(p.shape) + i)
                e.zero_()
            for _ in range(3):
                L._foreach_lerp_(list(ema.parameters()), list(model.parameters()), 0.1)
                L._foreach_mul_(list(model.parameters()), 0.9)
        outs.append([to_torch(p) if L is mindtorch else p for p in ema.parameters()])
    for o, t in zip(*outs):
        torch.testing.assert_close(o, t)
