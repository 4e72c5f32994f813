"""torch.func's vmap/grad (looped and autograd-based), functional_call and torch.jit's
pass-through, against torch."""
import io

import mindtorch
import pytest
from reference import assert_same, to_torch, torch


def both(fn):
    return fn(mindtorch), fn(torch)


def test_vmap_matches_torch():
    x = mindtorch.arange(12.0).reshape(3, 4)
    y = mindtorch.linspace(-1, 1, 3)
    for make in (lambda L: L.vmap(L.dot)(x if L is mindtorch else to_torch(x),
                                         (x if L is mindtorch else to_torch(x)) * 2),
                 lambda L: L.func.vmap(lambda r, s: r * s, in_dims=(1, None))(
                     x if L is mindtorch else to_torch(x), y if L is mindtorch else to_torch(y)),
                 lambda L: L.func.vmap(lambda r: (r.sum(), r * 2), out_dims=(0, 1))(
                     x if L is mindtorch else to_torch(x))):
        ours, theirs = both(make)
        assert_same(ours, theirs)
    with pytest.raises(ValueError):
        mindtorch.vmap(mindtorch.add)(mindtorch.ones(2, 3), mindtorch.ones(3, 3))


def test_grad_nests_and_composes():
    ours, theirs = both(lambda L: [
        L.func.grad(lambda t: (t ** 3).sum())(L.tensor([1.0, 2.0], dtype=L.float64)),
        L.func.grad(L.func.grad(lambda t: t.sin() * t))(L.tensor(0.7, dtype=L.float64)),
        L.func.grad(L.func.grad(L.func.grad(lambda t: t.exp() * t)))(L.tensor(0.3, dtype=L.float64)),
        L.func.vmap(L.func.grad(lambda w: (w ** 2).sum()))(L.arange(6.0).reshape(3, 2)),
        L.func.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(L.ones(2), L.arange(2.0)),
        L.func.grad_and_value(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True)(L.ones(3)),
    ])
    for o, t in zip(ours, theirs):
        assert_same(o, t)
    g = mindtorch.func.grad(lambda t: t.sum())(mindtorch.ones(2))
    assert not g.requires_grad
    with pytest.raises(RuntimeError, match="scalar Tensor"):
        mindtorch.func.grad(lambda t: t * 2)(mindtorch.ones(2))


def test_jit_passes_through():
    m = mindtorch.nn.Linear(3, 2)
    assert mindtorch.jit.script(m) is m and mindtorch.jit.trace(m, mindtorch.ones(1, 3)) is m
    assert not mindtorch.jit.is_scripting() and mindtorch.jit.ignore(len) is len
    buf = io.BytesIO()
    mindtorch.jit.save(m, buf)
    buf.seek(0)
    back = mindtorch.jit.load(buf)
    assert back(mindtorch.ones(1, 3)).tolist() == m(mindtorch.ones(1, 3)).tolist()


def test_func_functional_call_takes_one_dict_or_several():
    def run(L):
        m = L.nn.Linear(3, 2)
        with L.no_grad():
            m.weight.copy_(L.arange(6.0).reshape(2, 3))
            m.bias.fill_(0.5)
        x = L.arange(6.0).reshape(2, 3) / 4
        outs = [L.func.functional_call(m, {"bias": L.ones(2)}, (x,)),
                L.func.functional_call(m, ({"weight": L.ones(2, 3)}, {"bias": L.zeros(2)}), x),
                L.func.functional_call(m, [{}], args=(), kwargs={"input": x})]
        errors = []
        for bad in (({"bias": L.ones(2)}, {"bias": L.zeros(2)}), [{}, 3], 3):
            try:
                L.func.functional_call(m, bad, (x,))
            except ValueError as e:
                errors.append(str(e))
        return outs, errors
    (ours, our_errors), (theirs, their_errors) = both(run)
    for o, t in zip(ours, theirs):
        assert_same(o, t)
    assert len(our_errors) == 3 and our_errors == their_errors
