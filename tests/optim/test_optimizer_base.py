"""Optimizer base behaviour against PyTorch: construction errors, parameter groups, names,
zero_grad, repr, state_dict layout, closures and the meta device."""
import importlib
import warnings

import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")

NAMES = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta",
         "Rprop", "ASGD", "Adafactor"]


def available(name):
    return hasattr(mindtorch.optim, name)


def outcome(lib, make):
    try:
        make(lib)
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        base = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        return base, str(e)
    return None


def params(lib, n=2):
    return [lib.ones(2, requires_grad=True) for _ in range(n)]


BAD = [
    ("SGD", dict(lr=-1)), ("SGD", dict(lr=0.1, momentum=-0.5)),
    ("SGD", dict(lr=0.1, weight_decay=-1)), ("SGD", dict(lr=0.1, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
    ("SGD", dict(fused=True, foreach=True)), ("SGD", dict(fused=True, differentiable=True)),
    ("Adam", dict(lr=-0.01)), ("Adam", dict(eps=-1)), ("Adam", dict(betas=(1.0, 0.9))),
    ("Adam", dict(betas=(0.9, -0.1))), ("Adam", dict(weight_decay=-0.1)),
    ("Adam", dict(betas=(0, 0.9))), ("Adam", dict(fused=True, foreach=True)),
    ("AdamW", dict(lr=-1)), ("AdamW", dict(betas=(0.9, 1.5))),
    ("RMSprop", dict(lr=-1)), ("RMSprop", dict(eps=-1)), ("RMSprop", dict(momentum=-1)),
    ("RMSprop", dict(weight_decay=-1)), ("RMSprop", dict(alpha=-1)),
    ("Adagrad", dict(lr=-1)), ("Adagrad", dict(lr_decay=-1)), ("Adagrad", dict(weight_decay=-1)),
    ("Adagrad", dict(initial_accumulator_value=-1)), ("Adagrad", dict(eps=-1)),
    ("Adamax", dict(lr=-1)), ("Adamax", dict(eps=-1)), ("Adamax", dict(betas=(0.9, 1.0))),
    ("Adamax", dict(weight_decay=-1)),
    ("NAdam", dict(lr=-1)), ("NAdam", dict(betas=(-0.1, 0.9))), ("NAdam", dict(momentum_decay=-1)),
    ("NAdam", dict(weight_decay=-1)), ("NAdam", dict(eps=-1)),
    ("RAdam", dict(lr=-1)), ("RAdam", dict(betas=(0.9, 1.0))), ("RAdam", dict(weight_decay=-1)),
    ("RAdam", dict(eps=-1)),
    ("Adadelta", dict(lr=-1)), ("Adadelta", dict(rho=1.5)), ("Adadelta", dict(eps=-1)),
    ("Adadelta", dict(weight_decay=-1)), ("Rprop", dict(lr=-1)), ("Rprop", dict(etas=(1.1, 1.2))),
    ("Rprop", dict(etas=(0.5, 0.9))), ("ASGD", dict(lr=-1)), ("ASGD", dict(weight_decay=-1)),
    ("Adafactor", dict(lr=-1)), ("Adafactor", dict(beta2_decay=0.5)),
    ("Adafactor", dict(eps=(-1, 1e-3))), ("Adafactor", dict(eps=(None, -1))),
    ("Adafactor", dict(d=0.5)), ("Adafactor", dict(weight_decay=-1)),
    ("SparseAdam", dict(lr=0)), ("SparseAdam", dict(eps=0)), ("SparseAdam", dict(betas=(1, 0.5))),
]


@pytest.mark.parametrize("name,kwargs", BAD, ids=[f"{n}-{k}" for n, k in BAD])
def test_bad_hyperparameters(name, kwargs):
    if not available(name):
        pytest.skip(f"{name} not yet")
    got = outcome(mindtorch, lambda lib: getattr(lib.optim, name)(params(lib), **kwargs))
    want = outcome(torch, lambda lib: getattr(lib.optim, name)(params(lib), **kwargs))
    assert want is not None and got == want


GROUP_CASES = {
    "empty": lambda lib: lib.optim.SGD([], lr=0.1),
    "tensor": lambda lib: lib.optim.SGD(lib.ones(2, requires_grad=True), lr=0.1),
    "non-tensor": lambda lib: lib.optim.SGD([1.0], lr=0.1),
    "non-leaf": lambda lib: lib.optim.SGD([lib.ones(2, requires_grad=True) * 2], lr=0.1),
    "set": lambda lib: lib.optim.SGD([{"params": set(params(lib))}], lr=0.1),
    "twice in two groups": lambda lib: (lambda p: lib.optim.SGD(
        [{"params": [p]}, {"params": [p]}], lr=0.1))(lib.ones(2, requires_grad=True)),
    "add a non-dict": lambda lib: lib.optim.SGD(params(lib), lr=0.1).add_param_group([1]),
    "add an existing": lambda lib: (lambda ps: lib.optim.SGD(ps, lr=0.1).add_param_group(
        {"params": ps[0]}))(params(lib)),
    "required lr": lambda lib: type("Opt", (lib.optim.Optimizer,), {})(
        params(lib), {"lr": importlib.import_module(lib.__name__ + ".optim.optimizer").required}),
    "some names missing": lambda lib: lib.optim.SGD(
        [("a", lib.ones(2, requires_grad=True)), lib.ones(2, requires_grad=True)], lr=0.1),
    "named group after unnamed": lambda lib: lib.optim.SGD(params(lib), lr=0.1).add_param_group(
        {"params": [("w", lib.ones(1, requires_grad=True))]}),
    "load wrong group count": lambda lib: lib.optim.SGD(params(lib), lr=0.1).load_state_dict(
        {"state": {}, "param_groups": []}),
    "load wrong group size": lambda lib: lib.optim.SGD(params(lib), lr=0.1).load_state_dict(
        lib.optim.SGD(params(lib, 3), lr=0.1).state_dict()),
    "step of the base class": lambda lib: lib.optim.Optimizer(params(lib), {}).step(),
}


@pytest.mark.parametrize("case", list(GROUP_CASES))
def test_group_errors(case):
    got, want = outcome(mindtorch, GROUP_CASES[case]), outcome(torch, GROUP_CASES[case])
    assert want is not None and got == want


def test_duplicate_parameters_warn():
    p = mindtorch.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        mindtorch.optim.SGD([p, p], lr=0.1)


def test_generator_named_parameters_and_groups():
    for lib in (mindtorch, torch):
        ps = params(lib, 3)
        opt = lib.optim.SGD((p for p in ps), lr=0.1)  # a generator is consumed once
        assert opt.param_groups[0]["params"] == ps or all(
            a is b for a, b in zip(opt.param_groups[0]["params"], ps))
    structures = []
    for lib in (mindtorch, torch):
        ps = params(lib, 3)
        opt = lib.optim.Adam([("a.weight", ps[0]), ("a.bias", ps[1])], lr=0.1)
        opt.add_param_group({"params": [("b", ps[2])], "lr": 0.5})
        sd = opt.state_dict()
        structures.append((sd["param_groups"], repr(opt)))
        assert opt.param_groups[0]["params"][0] is ps[0]
    assert structures[0] == structures[1]


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    p = mindtorch.ones(2, requires_grad=True)
    q = mindtorch.ones(2, requires_grad=True)
    (p * 3).sum().backward()
    opt = mindtorch.optim.SGD([p, q], lr=0.1)
    opt.zero_grad(set_to_none=set_to_none)
    assert q.grad is None
    if set_to_none:
        assert p.grad is None
    else:
        assert p.grad.tolist() == [0.0, 0.0] and not p.grad.requires_grad


def test_closure_and_repr():
    for lib in (mindtorch, torch):
        p = lib.tensor([1.0, -2.0], requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.25, momentum=0.5)

        def closure():
            opt.zero_grad()
            loss = (p * p).sum()
            loss.backward()
            return loss

        assert opt.step(closure).item() == 5.0
        assert p.tolist() == [0.5, -1.0]
    assert repr(mindtorch.optim.SGD(params(mindtorch), lr=0.1)) == repr(
        torch.optim.SGD(params(torch), lr=0.1))


@pytest.mark.parametrize("name", NAMES)
def test_defaults_and_repr_match(name):
    if not available(name):
        pytest.skip(f"{name} not yet")
    m, t = getattr(mindtorch.optim, name)(params(mindtorch)), getattr(torch.optim, name)(
        params(torch))
    assert m.defaults == t.defaults
    assert repr(m) == repr(t)


# (ASGD reads its scalar state, kept on the parameter's device, and Adafactor reads norms,
# as PyTorch's: neither steps on meta there either)
@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("ASGD", "Adafactor")])
def test_meta_parameters(name):
    # shape-only parameters step too: the step counter stays a CPU tensor, as in PyTorch
    if not available(name):
        pytest.skip(f"{name} not yet")
    p = mindtorch.empty(3, 4, device="meta", requires_grad=True)
    p.grad = mindtorch.empty(3, 4, device="meta")
    opt = getattr(mindtorch.optim, name)([p], lr=0.1)
    opt.step()
    opt.step()
    assert p.device.type == "meta"
    for v in opt.state[p].values():
        assert v.device.type == ("meta" if v.ndim else "cpu")


def test_step_counter_dtype_follows_default_dtype():
    for lib in (mindtorch, torch):
        prev = lib.get_default_dtype()
        lib.set_default_dtype(lib.float64)
        try:
            p = lib.ones(2, requires_grad=True)
            p.grad = lib.ones(2)
            opt = lib.optim.Adam([p])
            opt.step()
            assert str(opt.state[p]["step"].dtype).endswith("float64")
        finally:
            lib.set_default_dtype(prev)


def test_tensor_lr():
    out = []
    for lib in (mindtorch, torch):
        p = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        opt = lib.optim.Adam([p], lr=lib.tensor(0.1))
        for _ in range(3):
            opt.zero_grad()
            (p * p).sum().backward()
            opt.step()
        out.append(p.detach().numpy().copy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12)


def test_no_warnings_on_step():
    p = mindtorch.ones(2, requires_grad=True)
    p.grad = mindtorch.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mindtorch.optim.AdamW([p]).step()


def test_hooks_match_torch():
    logs = []
    for lib in (mindtorch, torch):
        log = []
        mod = importlib.import_module(lib.__name__ + ".optim.optimizer")
        p = lib.ones(2, requires_grad=True)
        p.grad = lib.ones(2)
        opt = lib.optim.SGD([p], lr=0.5)
        g = mod.register_optimizer_step_pre_hook(lambda o, a, k: log.append("global pre"))
        h1 = opt.register_step_pre_hook(
            lambda o, a, k: log.append(("pre", len(a), a[0] is o, sorted(k))))
        opt.register_step_post_hook(lambda o, a, k: log.append("post"))
        opt.register_state_dict_pre_hook(lambda o: log.append("sd pre"))
        opt.register_state_dict_post_hook(lambda o, sd: dict(sd, extra=1))
        opt.register_load_state_dict_pre_hook(
            lambda o, sd: log.append(("load pre", sorted(sd))) or None)
        opt.register_load_state_dict_post_hook(lambda o: log.append("load post"), prepend=True)
        opt.step()
        h1.remove()
        g.remove()
        opt.step(closure=None)
        sd = opt.state_dict()
        log.append(sorted(sd))
        del sd["extra"]
        opt.load_state_dict(sd)
        # a pre-hook may replace the arguments
        opt.register_step_pre_hook(lambda o, a, k: ((o,), {"closure": lambda: 7.0}))
        log.append(opt.step())
        bad = opt.register_step_pre_hook(lambda o, a, k: 3)
        try:
            opt.step()
        except RuntimeError:
            log.append("refused")
        bad.remove()
        logs.append(log)
    assert logs[0] == logs[1]



def test_hooks_added_during_a_step_as_torch():
    # post hooks are read after the step: one registered by the closure (or by a pre-hook)
    # runs in that step; without any hook the step takes the unhooked path
    logs = []
    for lib in (mindtorch, torch):
        log = []
        p = lib.ones(2, requires_grad=True)
        p.grad = lib.ones(2)
        opt = lib.optim.SGD([p], lr=0.5)

        def closure():
            if not log:
                opt.register_step_post_hook(lambda o, a, k: log.append("post"))
            log.append("closure")
            return 1.0
        log.append(opt.step(closure))
        opt.register_step_pre_hook(lambda o, a, k: log.append("pre") or opt.register_step_post_hook(
            lambda o, a, k: log.append("late post")) and None)
        opt.step()
        log.append(p.detach().numpy().tolist())
        logs.append(log)
    assert logs[0] == logs[1]

def test_pickle_and_deepcopy():
    import copy
    import pickle
    p = mindtorch.ones(3, requires_grad=True)
    p.grad = mindtorch.ones(3)
    opt = mindtorch.optim.Adam([p], lr=0.1)
    opt.step()
    for clone in (copy.deepcopy(opt), pickle.loads(pickle.dumps(opt))):
        assert clone.state_dict()["param_groups"] == opt.state_dict()["param_groups"]
        q = clone.param_groups[0]["params"][0]
        assert clone.state[q]["step"].item() == 1.0
        q.grad = mindtorch.ones(3)  # (pickling a tensor drops its grad, as in PyTorch)
        clone.step()
        assert clone.state[q]["step"].item() == 2.0


def test_adafactor_refuses_complex():
    for lib in (mindtorch, torch):
        p = lib.ones(2, dtype=lib.complex64, requires_grad=True)
        p.grad = lib.ones(2, dtype=lib.complex64)
        with pytest.raises(RuntimeError, match="Adafactor does not support complex"):
            lib.optim.Adafactor([p]).step()


def test_sparse_adam_refuses_dense_gradients_and_complex():
    for lib in (mindtorch, torch):
        p = lib.ones(2, requires_grad=True)
        p.grad = lib.ones(2)
        opt = lib.optim.SparseAdam([p])
        with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients"):
            opt.step()
        with pytest.raises(ValueError, match=r"Complex params at indices \[\[0, 1\]\]"):
            lib.optim.SparseAdam([p, lib.ones(2, dtype=lib.complex64, requires_grad=True)])


def _meta_gradient(lib, name, kwargs, learned_lr=False):
    """differentiable=True: two steps on a non-leaf copy of w0 whose gradients keep their
    graph, then the gradient of a loss of the result with respect to w0 (and to a tensor
    learning rate)."""
    w0 = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
    lr = lib.tensor(0.1, dtype=lib.float64, requires_grad=True) if learned_lr else 0.1
    w = w0.clone()
    opt = getattr(lib.optim, name)([w], lr=lr, differentiable=True, **kwargs)
    for _ in range(2):
        loss = ((w * lib.tensor([1.0, 2.0], dtype=lib.float64)) ** 2).sum()
        (w.grad,) = lib.autograd.grad(loss, w, create_graph=True)
        opt.step()
    (w ** 2).sum().backward()
    return [w.detach().numpy(), w0.grad.numpy()] + ([lr.grad.numpy()] if learned_lr else [])


@pytest.mark.parametrize("name,kwargs,learned_lr", [
    ("SGD", {}, False), ("SGD", {"momentum": 0.9, "nesterov": True}, False),
    ("SGD", {}, True), ("SGD", {"weight_decay": 0.1}, True), ("Adam", {}, False),
    ("Adam", {"weight_decay": 0.1}, False), ("AdamW", {}, False), ("Adagrad", {}, False),
    ("NAdam", {}, False), ("RAdam", {}, False), ("Adadelta", {}, False), ("ASGD", {}, False)])
def test_differentiable_steps_give_torch_meta_gradients(name, kwargs, learned_lr):
    got = _meta_gradient(mindtorch, name, kwargs, learned_lr)
    want = _meta_gradient(torch, name, kwargs, learned_lr)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["Adam", "NAdam", "SGD"])
def test_differentiable_steps_with_many_parameters(name):
    """Many small parameters (the multi-tensor path's case) still step one by one when
    differentiable, so the meta-gradient is PyTorch's."""
    def run(lib):
        w0 = lib.arange(30, dtype=lib.float64).reshape(30, 1).div(30).requires_grad_()
        ws = [row.clone() for row in w0.unbind(0)]
        opt = getattr(lib.optim, name)(ws, lr=0.1, differentiable=True)
        loss = sum((w * (i + 1)) ** 2 for i, w in enumerate(ws)).sum()
        grads = lib.autograd.grad(loss, ws, create_graph=True)
        for w, g in zip(ws, grads):
            w.grad = g
        opt.step()
        sum((w ** 2).sum() for w in ws).backward()
        return w0.grad.numpy()
    np.testing.assert_allclose(run(mindtorch), run(torch), rtol=1e-10, atol=1e-12)
