"""Optimizers and schedulers at their edges, against torch: bad hyperparameters (error class),
parameter lists, groups with their own options, parameters without a gradient, zero_grad,
state_dict round trips into fresh optimizers with training continued, scheduler state."""
import copy

import numpy as np
import pytest

import mindtorch
from reference import same_error

torch = pytest.importorskip("torch")

OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta",
              "ASGD", "Rprop"]
BAD = [dict(lr=-1.0), dict(lr=-1e-3), dict(eps=-1e-8), dict(betas=(1.0, 0.9)), dict(betas=(0.9, 1.0)),
       dict(betas=(-0.1, 0.9)), dict(betas=(0.9, -0.1)), dict(weight_decay=-0.1), dict(momentum=-0.5),
       dict(momentum=0.9, nesterov=True, dampening=0.1), dict(nesterov=True), dict(alpha=-0.1),
       dict(lr_decay=-0.1), dict(initial_accumulator_value=-1.0), dict(momentum_decay=-1.0),
       dict(rho=1.5), dict(rho=-0.1), dict(etas=(1.5, 1.2)), dict(etas=(0.5, 0.9)),
       dict(step_sizes=(1e-6, 50)), dict(lambd=-1.0), dict(t0=-1.0), dict(foo=1), dict(lr=0.0),
       dict(eps=0.0), dict(weight_decay=0.0), dict(amsgrad=True), dict(maximize=True),
       dict(centered=True, momentum=0.5), dict(lr=mindtorch.tensor(0.1)), dict(foreach=True),
       dict(decoupled_weight_decay=True)]


def _lib_value(L, v):
    return L.tensor(v.item()) if isinstance(v, mindtorch.Tensor) else v


@pytest.mark.parametrize("kw", BAD, ids=[repr(k) for k in BAD])
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_hyperparameter_checks(name, kw):
    def make(L):
        p = L.nn.Parameter(L.zeros(2))
        return getattr(L.optim, name)([p], **{k: _lib_value(L, v) for k, v in kw.items()})
    same_error(lambda: make(mindtorch), lambda: make(torch))


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_parameter_list_errors(name):
    for arg in ([], (), iter([])):
        same_error(lambda: getattr(mindtorch.optim, name)(arg), lambda: getattr(torch.optim, name)(arg))
    same_error(lambda: getattr(mindtorch.optim, name)(mindtorch.zeros(2, requires_grad=True)),
               lambda: getattr(torch.optim, name)(torch.zeros(2, requires_grad=True)))
    same_error(lambda: getattr(mindtorch.optim, name)([mindtorch.zeros(2), 1.0]),
               lambda: getattr(torch.optim, name)([torch.zeros(2), 1.0]))
    for L_ in (mindtorch, torch):  # the same parameter in two groups
        p = L_.nn.Parameter(L_.zeros(2))
        if L_ is torch:
            same_error(lambda: getattr(mindtorch.optim, name)(
                [{"params": [mp]}, {"params": [mp]}]),
                lambda: getattr(torch.optim, name)([{"params": [p]}, {"params": [p]}]))
        else:
            mp = p
    # a group without params
    same_error(lambda: getattr(mindtorch.optim, name)([{"lr": 0.1}]),
               lambda: getattr(torch.optim, name)([{"lr": 0.1}]))


def _model(L, seed=0):
    rng = np.random.default_rng(seed)
    lin1, lin2 = L.nn.Linear(3, 4).double(), L.nn.Linear(4, 2).double()
    frozen = L.nn.Parameter(L.tensor(rng.standard_normal(2)))  # never used: no gradient
    with L.no_grad():
        for p in list(lin1.parameters()) + list(lin2.parameters()):
            p.copy_(L.tensor(rng.standard_normal(tuple(p.shape))))
    return lin1, lin2, frozen


def _groups(L, name, lin1, lin2, frozen):
    other = {"SGD": dict(lr=0.05, momentum=0.5), "Adam": dict(lr=0.01, betas=(0.8, 0.9)),
             "AdamW": dict(lr=0.01, weight_decay=0.1), "RMSprop": dict(lr=0.02, centered=True),
             "Rprop": dict(lr=0.02, etas=(0.4, 1.3))}.get(name, dict(lr=0.03))
    base = {"ASGD": dict(lr=0.05), "Rprop": dict(lr=0.01), "Adadelta": dict(lr=0.5)}.get(name, dict(lr=0.01))
    if name == "SGD":
        base = dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.01)
    return getattr(L.optim, name)(
        [{"params": list(lin1.parameters()) + [frozen]}, {"params": lin2.parameters(), **other}],
        **base)


def _step(L, opt, lin1, lin2, x_np):
    opt.zero_grad()
    loss = lin2(L.tanh(lin1(L.tensor(x_np)))).pow(2).mean()
    loss.backward()
    opt.step()
    return loss.item()


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_groups_frozen_parameter_and_state_dict_round_trip(name):
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal((5, 3)) for _ in range(6)]
    runs = {}
    for L in (mindtorch, torch):
        lin1, lin2, frozen = _model(L)
        opt = _groups(L, name, lin1, lin2, frozen)
        losses = [_step(L, opt, lin1, lin2, x) for x in xs[:3]]
        # into a fresh optimizer from a deep-copied state_dict, then on
        sd = copy.deepcopy(opt.state_dict())
        fresh = _groups(L, name, lin1, lin2, frozen)
        fresh.load_state_dict(sd)
        losses += [_step(L, fresh, lin1, lin2, x) for x in xs[3:]]
        assert frozen.grad is None
        runs[L] = (losses, [p.detach().numpy().copy() for p in list(lin1.parameters()) + list(lin2.parameters())],
                   fresh.state_dict())
    (ml, mp, msd), (tl, tp, tsd) = runs[mindtorch], runs[torch]
    np.testing.assert_allclose(ml, tl, rtol=1e-10, atol=1e-12)
    for a, b in zip(mp, tp):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    assert [sorted(g) for g in msd["param_groups"]] == [sorted(g) for g in tsd["param_groups"]]
    for gm, gt in zip(msd["param_groups"], tsd["param_groups"]):
        assert gm["params"] == gt["params"]
        for k in gt:
            if k != "params" and not isinstance(gt[k], torch.Tensor):
                assert gm[k] == gt[k], k
    assert sorted(msd["state"]) == sorted(tsd["state"])
    for k in tsd["state"]:
        assert sorted(msd["state"][k]) == sorted(tsd["state"][k])
        for s in tsd["state"][k]:
            a, b = msd["state"][k][s], tsd["state"][k][s]
            if isinstance(b, torch.Tensor):
                assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape), s
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)
            else:
                assert a == b


def test_load_state_dict_mismatch_errors():
    def make(L, n):
        return L.optim.Adam([L.nn.Parameter(L.zeros(2)) for _ in range(n)])
    same_error(lambda: make(mindtorch, 2).load_state_dict(make(mindtorch, 3).state_dict()),
               lambda: make(torch, 2).load_state_dict(make(torch, 3).state_dict()))
    def two_groups(L):
        return L.optim.Adam([{"params": [L.nn.Parameter(L.zeros(2))]},
                             {"params": [L.nn.Parameter(L.zeros(2))]}])
    same_error(lambda: make(mindtorch, 2).load_state_dict(two_groups(mindtorch).state_dict()),
               lambda: make(torch, 2).load_state_dict(two_groups(torch).state_dict()))


@pytest.mark.parametrize("set_to_none", [True, False, None])
def test_zero_grad(set_to_none):
    seen = []
    for L in (mindtorch, torch):
        p, q = L.nn.Parameter(L.ones(2)), L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([p, q], lr=0.1)
        (p * 3).sum().backward()
        if set_to_none is None:
            opt.zero_grad()
        else:
            opt.zero_grad(set_to_none=set_to_none)
        seen.append((None if p.grad is None else p.grad.tolist(), q.grad))
    assert seen[0] == seen[1]


def test_add_param_group_errors_and_defaults():
    outs = []
    for L in (mindtorch, torch):
        p, q = L.nn.Parameter(L.zeros(2)), L.nn.Parameter(L.zeros(2))
        opt = L.optim.Adam([p], lr=0.1, betas=(0.5, 0.6))
        opt.add_param_group({"params": q, "lr": 0.2})
        outs.append([{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups])
        for bad in ({"params": p}, {"params": [L.zeros(2)], "lr": 1}, {"params": []}):
            try:
                opt.add_param_group(bad)
                outs.append("ok")
            except Exception as e:
                outs.append(next(c for c in type(e).__mro__ if c.__module__ == "builtins").__name__)
    half = len(outs) // 2
    assert outs[:half] == outs[half:]


SCHEDULERS = [
    ("StepLR", dict(step_size=2, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 4, 4], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=4, eta_min=0.01)),
    ("LinearLR", dict(start_factor=0.25, total_iters=3)),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=10, three_phase=True)),
    ("LambdaLR", dict(lr_lambda=lambda e: 0.9 ** e)),
    ("MultiplicativeLR", dict(lr_lambda=lambda e: 0.95)),
    ("ConstantLR", dict(factor=0.5, total_iters=2)),
    ("PolynomialLR", dict(total_iters=4, power=2.0)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3, T_mult=2)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2)),
]


def _sched(L, name, kw, opt):
    return getattr(L.optim.lr_scheduler, name)(opt, **kw)


def _sgd(L):
    p = L.nn.Parameter(L.zeros(2))
    return L.optim.SGD([{"params": [p]}, {"params": [L.nn.Parameter(L.zeros(1))], "lr": 0.2}],
                       lr=0.1, momentum=0.9)


@pytest.mark.parametrize("name,kw", SCHEDULERS, ids=[s[0] for s in SCHEDULERS])
def test_scheduler_state_dict_and_resume(name, kw):
    traces, sds = [], []
    for L in (mindtorch, torch):
        opt = _sgd(L)
        s = _sched(L, name, kw, opt)
        lrs = [s.get_last_lr() + [g["lr"] for g in opt.param_groups]]
        for _ in range(4):
            opt.step()
            s.step()
            lrs.append(s.get_last_lr() + [g["lr"] for g in opt.param_groups])
        sd = s.state_dict()
        opt2 = _sgd(L)
        opt2.load_state_dict(opt.state_dict())
        s2 = _sched(L, name, kw, opt2)
        s2.load_state_dict(sd)
        for _ in range(4):
            opt2.step()
            s2.step()
            lrs.append(s2.get_last_lr() + [g["lr"] for g in opt2.param_groups])
        traces.append(lrs)
        sds.append(sorted(k for k in sd if k != "_get_lr_called_within_step"))
    np.testing.assert_allclose(traces[0], traces[1], rtol=1e-12)
    assert sds[0] == sds[1]


def test_chained_and_sequential():
    traces = []
    for L in (mindtorch, torch):
        opt = _sgd(L)
        S = L.optim.lr_scheduler
        a, b = S.ExponentialLR(opt, 0.9), S.StepLR(opt, 2, 0.5)
        chained = S.ChainedScheduler([a, b])
        lrs = []
        for _ in range(5):
            opt.step()
            chained.step()
            lrs.append(chained.get_last_lr())
        opt = _sgd(L)
        seq = S.SequentialLR(opt, [S.LinearLR(opt, 0.5, total_iters=2), S.ExponentialLR(opt, 0.8)],
                             milestones=[3])
        for _ in range(6):
            opt.step()
            seq.step()
            lrs.append(seq.get_last_lr())
        lrs.append(sorted(seq.state_dict()))
        traces.append(lrs)
    assert str(traces[0]) == str(traces[1]) or np.allclose(
        np.array(traces[0][:-1]), np.array(traces[1][:-1]), rtol=1e-12)
    assert traces[0][-1] == traces[1][-1]


def test_scheduler_errors():
    for make in (lambda L, o: L.optim.lr_scheduler.StepLR(o, 2, last_epoch=3),
                 lambda L, o: L.optim.lr_scheduler.LinearLR(o, start_factor=0.0),
                 lambda L, o: L.optim.lr_scheduler.LinearLR(o, end_factor=2.0),
                 lambda L, o: L.optim.lr_scheduler.OneCycleLR(o, 0.1),
                 lambda L, o: L.optim.lr_scheduler.OneCycleLR(o, 0.1, total_steps=0),
                 lambda L, o: L.optim.lr_scheduler.OneCycleLR(o, 0.1, total_steps=5, anneal_strategy="x"),
                 lambda L, o: L.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0),
                 lambda L, o: L.optim.lr_scheduler.ReduceLROnPlateau(o, mode="x"),
                 lambda L, o: L.optim.lr_scheduler.ReduceLROnPlateau(o, threshold_mode="x"),
                 lambda L, o: L.optim.lr_scheduler.ReduceLROnPlateau(o, min_lr=[0.1, 0.2, 0.3]),
                 lambda L, o: L.optim.lr_scheduler.LambdaLR(o, [lambda e: 1.0]),
                 lambda L, o: L.optim.lr_scheduler.SequentialLR(o, [L.optim.lr_scheduler.StepLR(o, 2)], [1]),
                 lambda L, o: L.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0),
                 lambda L, o: L.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
                 lambda L, o: L.optim.lr_scheduler.StepLR(object(), 2)):
        same_error(lambda: make(mindtorch, _sgd(mindtorch)), lambda: make(torch, _sgd(torch)))


def test_reduce_lr_on_plateau_state_round_trip():
    traces = []
    metrics = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]
    for L in (mindtorch, torch):
        opt = _sgd(L)
        s = L.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5, cooldown=1, min_lr=0.02)
        lrs = []
        for i, m in enumerate(metrics):
            if i == 5:
                sd = s.state_dict()
                s = L.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5, cooldown=1,
                                                           min_lr=0.02)
                s.load_state_dict(sd)
            s.step(m)
            lrs.append([g["lr"] for g in opt.param_groups] + s.get_last_lr())
        traces.append((lrs, sorted(sd)))
    assert traces[0][1] == traces[1][1]
    np.testing.assert_allclose(traces[0][0], traces[1][0], rtol=1e-12)
