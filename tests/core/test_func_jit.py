"""torch.func's vmap/grad (looped and autograd-based), functional_call and torch.jit's
pass-through, against torch."""
import copy
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


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_jit_wraps_and_computes_the_same():
    m = mindtorch.nn.Linear(3, 2)
    for wrapped in (mindtorch.jit.script(m), mindtorch.jit.trace(m, mindtorch.ones(1, 3))):
        assert isinstance(wrapped, mindtorch.jit.ScriptModule) and wrapped.weight is m.weight
        assert wrapped(mindtorch.ones(1, 3)).tolist() == m(mindtorch.ones(1, 3)).tolist()
    assert not mindtorch.jit.is_scripting() and mindtorch.jit.ignore(len) is len
    buf = io.BytesIO()
    mindtorch.jit.save(mindtorch.jit.script(m), buf)
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


def _leaves(tree):
    """A pytree's leaves in order, with each tensor's requires_grad alongside."""
    if isinstance(tree, dict):
        return [x for k in sorted(tree) for x in [k] + _leaves(tree[k])]
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    return [tree, tree.requires_grad] if hasattr(tree, "requires_grad") else [tree]


def _transforms(L):
    f64 = L.float64
    x, y = L.tensor([0.5, 1.0], dtype=f64), L.tensor([2.0, 3.0], dtype=f64)
    ones = L.ones(2, dtype=f64)
    fn = L.func
    lin = L.nn.Linear(2, 2, dtype=f64)
    with L.no_grad():
        lin.weight.copy_(L.tensor([[1.0, 2.0], [3.0, -1.0]]))
        lin.bias.fill_(0.5)
    params = dict(lin.named_parameters())
    out = [fn.jacrev(lambda a, b: (a.sin() * b, (a * b).sum()))(x, y),
           fn.jacfwd(lambda a, b: a.exp() * b, argnums=(0, 1))(x, y),
           fn.jacrev(lambda a: (a.sum(), {"k": a * 2}), has_aux=False)(x),
           fn.jacrev(lambda a: (a ** 2, a.cos()), has_aux=True)(x),
           fn.hessian(lambda a: (a ** 3).sum())(x),
           fn.hessian(lambda a, b: (a ** 2 * b).sum(), argnums=(0, 1))(x, y),
           fn.jacrev(lambda a: L.zeros(3, dtype=f64))(x),
           fn.grad(lambda a: fn.jacrev(lambda b: (b ** 3).sum())(a).sum())(x),
           fn.vmap(fn.jacrev(lambda a: a.sin().sum()))(L.ones(3, 2, dtype=f64)),
           fn.jacrev(lambda p, v: fn.functional_call(lin, p, (v,)))(params, x),
           fn.hessian(lambda p: fn.functional_call(lin, p, (x,)).pow(2).sum())(params)]
    o, vjp_fn = fn.vjp(lambda a, b: (a * b, a.sum()), x, y)
    out += [o, vjp_fn((ones, L.tensor(1.0, dtype=f64)))]
    o, vjp_fn, aux = fn.vjp(lambda p: (fn.functional_call(lin, p, (x,)), p["bias"] * 3), params,
                            has_aux=True)
    out += [o, vjp_fn(ones), aux]
    out += [fn.jvp(lambda a: a ** 2, (x,), (ones,)),
            fn.jvp(lambda a, b: a * b, (x, y), (ones, L.zeros(2, dtype=f64))),
            fn.jvp(lambda a: (a.exp(), a), (x,), (ones,), has_aux=True)]
    # a closed-over parameter keeps the Jacobian differentiable (Jacobian penalties)
    jac = fn.vmap(fn.jacrev(lin))(L.stack([x, y]))
    jac.pow(2).sum().backward()
    out += [jac, lin.weight.grad]
    return out


def test_jacobian_transforms_as_torch():
    ours, theirs = _leaves(_transforms(mindtorch)), _leaves(_transforms(torch))
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert_same(o, t, rtol=1e-12, atol=1e-12)


def _per_sample_grads(L):
    """PyTorch's per-sample-gradients tutorial: vmap(grad(loss)) over a batch, the model's
    parameters and buffers given as dicts through functional_call."""
    model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.BatchNorm1d(4), L.nn.Tanh(),
                            L.nn.Linear(4, 2)).eval()
    with L.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(L.sin(L.arange(p.numel(), dtype=L.float32) + i).reshape(p.shape) * 0.5)
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def loss(params, buffers, sample, target):
        out = L.func.functional_call(model, (params, buffers), (sample.unsqueeze(0),))
        return L.nn.functional.cross_entropy(out, target.unsqueeze(0))
    data, targets = L.sin(L.arange(15.0)).reshape(5, 3), L.tensor([0, 1, 1, 0, 1])
    grads = L.func.vmap(L.func.grad(loss), in_dims=(None, None, 0, 0))(params, buffers, data,
                                                                         targets)
    g, value = L.func.grad_and_value(loss, argnums=(0, 2))(params, buffers, data[0], targets[0])
    stacked = L.func.vmap(lambda t: {"a": t * 2, "b": (t.sum(), t)})(data)
    return [grads, g, value, stacked]


def test_per_sample_gradients_as_torch():
    ours, theirs = _leaves(_per_sample_grads(mindtorch)), _leaves(_per_sample_grads(torch))
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert_same(o, t, rtol=1e-5, atol=1e-6)


def _ensemble(L):
    """PyTorch's model-ensembling tutorial: stack_module_state, a meta-device copy of the
    model called through functional_call under vmap."""
    def make(i):
        m = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.BatchNorm1d(4), L.nn.ReLU(),
                            L.nn.Linear(4, 2))
        with L.no_grad():
            for j, p in enumerate(m.parameters()):
                p.copy_(L.sin(L.arange(p.numel(), dtype=L.float32) * (i + 1) + j)
                        .reshape(p.shape) * 0.5)
        return m.eval()
    models = [make(i) for i in range(3)]
    params, buffers = L.func.stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    x = L.sin(L.arange(6.0)).reshape(2, 3)
    out = L.func.vmap(lambda p, b, v: L.func.functional_call(base, (p, b), (v,)),
                      in_dims=(0, 0, None))(params, buffers, x)
    out.sum().backward()
    errors = []
    for bad in ([], [models[0], make(1).train()]):
        try:
            L.func.stack_module_state(bad)
        except RuntimeError as e:
            errors.append(str(e))
    return [params, buffers, out, params["0.weight"].grad, errors]


def test_model_ensembling_as_torch():
    ours, theirs = _leaves(_ensemble(mindtorch)), _leaves(_ensemble(torch))
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert_same(o, t, rtol=1e-5, atol=1e-6)


def test_jit_and_compiler_helpers_programs_use():
    """torch.jit's freeze/fork/wait/isinstance/... and the torch.compiler namespace (eager:
    nothing is compiling, decorators give the function back) answer as torch's do."""
    from typing import Dict, List, Optional, Tuple

    def run(L):
        m = L.nn.Linear(2, 1)
        j, c = L.jit, L.compiler
        fut = j.fork(lambda a, b: a + b, L.ones(1), 2)
        f = c.disable(lambda a: a * 3)
        out = [j.wait(fut).tolist(), fut.wait().tolist(),
               j.isinstance([1, 2], List[int]), j.isinstance([1, "a"], List[int]),
               j.isinstance({"a": L.ones(1)}, Dict[str, L.Tensor]), j.isinstance(None, Optional[int]),
               j.isinstance((1, "x"), Tuple[int, str]), j.isinstance((1, 2), Tuple[int, str]),
               c.is_compiling(), c.is_dynamo_compiling(), c.is_exporting(), f(L.ones(1)).item(),
               c.allow_in_graph(both) is both, c.assume_constant_result(both) is both,
               c.list_backends()]
        with j.optimized_execution(False):
            fr = j.freeze(j.script(m.eval()))
        out.append(fr(L.ones(1, 2)).shape)
        c.reset()
        return out
    assert run(mindtorch) == run(torch)


def test_replace_all_batch_norm_modules_functionalize_debug_unwrap():
    # torch.func's helpers beside the transforms, against PyTorch's
    def run(lib):
        net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4),
                                lib.nn.Sequential(lib.nn.BatchNorm1d(4, track_running_stats=False)))
        assert lib.func.replace_all_batch_norm_modules_(net) is net
        state = [(m.running_mean, m.running_var, m.num_batches_tracked, m.track_running_stats)
                 for m in (net[1], net[2][0])]
        keys = sorted(net.state_dict())

        def f(x):
            x.add_(1)
            return x * 2
        x = lib.ones(2)
        y = lib.func.functionalize(f)(x)
        with pytest.raises(RuntimeError, match="received invalid argument for remove=x"):
            lib.func.functionalize(f, remove="x")
        return state, keys, x.tolist(), y.tolist(), lib.func.debug_unwrap(x) is x
    assert run(mindtorch) == run(torch)


def test_vmap_nested_in_dims():
    # in_dims per argument may follow the argument's structure (dicts, tuples), as PyTorch's
    def run(lib):
        v = lib.func.vmap
        a = v(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
            {"a": lib.arange(6.0).reshape(3, 2), "b": lib.ones(2)})
        b = v(lambda p: p[0] * p[1], in_dims=((0, 1),))(
            (lib.ones(3, 2), lib.arange(3.0).reshape(1, 3)))
        c = v(lambda p, q: p[0] + q + p[1], in_dims=((0, None), 0))(
            (lib.ones(3, 2), 5), lib.ones(3, 2))
        with pytest.raises(ValueError, match="in_dims is not compatible with the structure"):
            v(lambda d: d, in_dims=({"a": 0},))({"a": lib.ones(3), "b": lib.ones(3)})
        return [t.tolist() for t in (a, b, c)]
    assert run(mindtorch) == run(torch)
