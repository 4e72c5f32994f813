"""Learning-rate schedulers against PyTorch's: the lr (and momentum/beta1) of every group
over many steps, state_dict keys and values, closed forms (step(epoch)), composition."""
import math
import warnings

import pytest

import mindtorch

torch = pytest.importorskip("torch")


def optimizer(lib, name="SGD", lrs=(0.1, 0.03), **kwargs):
    groups = [{"params": [lib.ones(2, requires_grad=True)], "lr": lr} for lr in lrs]
    if name == "SGD":
        kwargs.setdefault("momentum", 0.9)
    return getattr(lib.optim, name)(groups, **kwargs)


def snapshot(opt):
    return [(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups]


def plain(sd):
    """A scheduler state_dict without the things that can't compare (functions)."""
    out = {}
    for k, v in sd.items():
        if k == "_schedulers":
            v = [plain(s) for s in v]
        elif callable(v) or k == "_scale_fn_ref":
            v = "callable"
        out[k] = v
    return out


def run(make, steps=40, opt_name="SGD", opt_kwargs=None, metrics=None, epochs=None):
    seqs, states = [], []
    for lib in (mindtorch, torch):
        opt = optimizer(lib, opt_name, **(opt_kwargs or {}))
        sched = make(lib.optim.lr_scheduler, opt)
        seq = [snapshot(opt) + [sched.get_last_lr()]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch: the optimizer did not step first
            for k in range(steps):
                opt.step()
                if metrics is not None:
                    sched.step(metrics[k])
                elif epochs is not None:
                    sched.step(epochs[k])
                else:
                    sched.step()
                seq.append(snapshot(opt) + [sched.get_last_lr()])
        seqs.append(seq)
        states.append(plain(sched.state_dict()))
    assert len(seqs[0]) == len(seqs[1])
    for k, (a, b) in enumerate(zip(*seqs)):
        assert a == b, (k, a, b)  # exactly: the same float operations in the same order
    assert states[0] == states[1]
    return seqs[0]


SCHEDULERS = {
    "StepLR": lambda S, o: S.StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR": lambda S, o: S.MultiStepLR(o, milestones=[2, 5, 5, 11], gamma=0.3),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, gamma=0.93),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
    "CosineAnnealingLR-default": lambda S, o: S.CosineAnnealingLR(o, T_max=10),
    "LinearLR": lambda S, o: S.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=7),
    "LinearLR-default": lambda S, o: S.LinearLR(o),
    "ConstantLR": lambda S, o: S.ConstantLR(o, factor=0.25, total_iters=4),
    "PolynomialLR": lambda S, o: S.PolynomialLR(o, total_iters=12, power=2.0),
    "LambdaLR": lambda S, o: S.LambdaLR(o, lambda e: 0.95 ** e + 0.01 * (e % 3)),
    "LambdaLR-list": lambda S, o: S.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: 0.9 ** e]),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.97),
    "CosineAnnealingWarmRestarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=5),
    "CosineAnnealingWarmRestarts-mult": lambda S, o: S.CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.002),
    "CyclicLR": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "CyclicLR-triangular2": lambda S, o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1,
                                                    step_size_up=3, step_size_down=5,
                                                    mode="triangular2"),
    "CyclicLR-exp_range": lambda S, o: S.CyclicLR(o, 0.01, 0.1, step_size_up=5, gamma=0.97,
                                                  mode="exp_range", cycle_momentum=False),
    "OneCycleLR-cos": lambda S, o: S.OneCycleLR(o, max_lr=0.5, total_steps=40),
    "OneCycleLR-linear": lambda S, o: S.OneCycleLR(o, max_lr=[0.5, 0.2], epochs=4,
                                                   steps_per_epoch=10, anneal_strategy="linear",
                                                   pct_start=0.25),
    "OneCycleLR-three_phase": lambda S, o: S.OneCycleLR(o, max_lr=0.4, total_steps=40,
                                                        three_phase=True, div_factor=10.0),
    "OneCycleLR-no-momentum": lambda S, o: S.OneCycleLR(o, max_lr=0.4, total_steps=40,
                                                        cycle_momentum=False),
    "SequentialLR": lambda S, o: S.SequentialLR(
        o, [S.LinearLR(o, start_factor=0.1, total_iters=5), S.ExponentialLR(o, gamma=0.9),
            S.CosineAnnealingLR(o, T_max=9)], milestones=[5, 15]),
    "ChainedScheduler": lambda S, o: S.ChainedScheduler(
        [S.ConstantLR(o, factor=0.5, total_iters=6), S.ExponentialLR(o, gamma=0.95),
         S.StepLR(o, 4, 0.7)]),
}


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_sequence_matches_torch(name):
    run(SCHEDULERS[name])


@pytest.mark.parametrize("name", ["CyclicLR", "OneCycleLR-cos", "OneCycleLR-three_phase"])
def test_cycles_adam_beta1(name):
    seq = run(SCHEDULERS[name], opt_name="Adam")
    assert len({row[0][2] for row in seq}) > 3  # beta1 moved


def test_onecycle_past_total_steps():
    for lib in (mindtorch, torch):
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=3)
        for _ in range(3):
            opt.step()
            sched.step()
        with pytest.raises(ValueError, match="Tried to step 4 times"):
            sched.step()


@pytest.mark.parametrize("kwargs", [
    {}, {"mode": "max"}, {"threshold_mode": "abs", "threshold": 0.05},
    {"mode": "max", "threshold_mode": "abs", "patience": 0},
    {"patience": 2, "cooldown": 3, "factor": 0.5, "min_lr": 0.01},
    {"patience": 1, "factor": 0.5, "min_lr": [0.05, 0.001], "eps": 1e-3},
])
def test_reduce_on_plateau(kwargs):
    metrics = [1.0 / (k + 1) if k < 10 else 0.1 + 0.01 * math.sin(k) for k in range(60)]
    if kwargs.get("mode") == "max":
        metrics = [-m for m in metrics]
    seq = run(lambda S, o: S.ReduceLROnPlateau(o, **kwargs), steps=60, metrics=metrics)
    assert seq[-1][0][0] < 0.1


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
                                  "LinearLR", "ConstantLR", "PolynomialLR", "LambdaLR",
                                  "CosineAnnealingWarmRestarts",
                                  "CosineAnnealingWarmRestarts-mult"])
def test_closed_form_epochs(name):
    run(SCHEDULERS[name], steps=12, epochs=[3, 4, 7, 7, 10, 2, 0, 15, 16, 30, 31, 5])


def test_tensor_lr_is_filled_in_place():
    for lib in (mindtorch, torch):
        lr = lib.tensor(0.1)
        opt = lib.optim.SGD([lib.ones(2, requires_grad=True)], lr=lr)
        sched = lib.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
        opt.step()
        sched.step()
        assert opt.param_groups[0]["lr"] is lr and abs(lr.item() - 0.05) < 1e-7


def test_state_dict_round_trip():
    for lib in (mindtorch, torch):
        opt = optimizer(lib)
        S = lib.optim.lr_scheduler
        a = S.CosineAnnealingLR(opt, T_max=10)
        for _ in range(4):
            opt.step()
            a.step()
        opt2 = optimizer(lib)
        b = S.CosineAnnealingLR(opt2, T_max=10)
        b.load_state_dict(a.state_dict())
        assert b.last_epoch == 4 and b.get_last_lr() == a.get_last_lr()


ERRORS = {
    "not an optimizer": lambda S, o: S.StepLR(object(), 2),
    "resume without initial_lr": lambda S, o: S.StepLR(o, 2, last_epoch=3),
    "ConstantLR factor": lambda S, o: S.ConstantLR(o, factor=1.5),
    "LinearLR start": lambda S, o: S.LinearLR(o, start_factor=0),
    "LinearLR end": lambda S, o: S.LinearLR(o, end_factor=2),
    "lambdas count": lambda S, o: S.LambdaLR(o, [lambda e: 1.0]),
    "multiplicative not callable": lambda S, o: S.MultiplicativeLR(o, [1.0, 2.0]),
    "warm restarts T_0": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=0),
    "warm restarts T_mult": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5),
    "warm restarts negative epoch": lambda S, o: S.CosineAnnealingWarmRestarts(o, 2).step(-1),
    "plateau factor": lambda S, o: S.ReduceLROnPlateau(o, factor=1.0),
    "plateau mode": lambda S, o: S.ReduceLROnPlateau(o, mode="up"),
    "plateau threshold mode": lambda S, o: S.ReduceLROnPlateau(o, threshold_mode="x"),
    "plateau min_lrs": lambda S, o: S.ReduceLROnPlateau(o, min_lr=[0.1]),
    "onecycle nothing": lambda S, o: S.OneCycleLR(o, max_lr=0.1),
    "onecycle total": lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=0),
    "onecycle epochs": lambda S, o: S.OneCycleLR(o, max_lr=0.1, epochs=0, steps_per_epoch=2),
    "onecycle pct": lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=5, pct_start=1.5),
    "onecycle anneal": lambda S, o: S.OneCycleLR(o, 0.1, 5, anneal_strategy="exp"),
    "onecycle max_lr list": lambda S, o: S.OneCycleLR(o, [0.1], 5),
    "cyclic mode": lambda S, o: S.CyclicLR(o, 0.01, 0.1, mode="sine"),
    "sequential empty": lambda S, o: S.SequentialLR(o, [], []),
    "sequential milestones": lambda S, o: S.SequentialLR(o, [S.StepLR(o, 2)], [3]),
    "sequential plateau": lambda S, o: S.SequentialLR(o, [S.ReduceLROnPlateau(o)], []),
    "chained empty": lambda S, o: S.ChainedScheduler([]),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors(case):
    outcomes = []
    for lib in (mindtorch, torch):
        try:
            ERRORS[case](lib.optim.lr_scheduler, optimizer(lib))
        except Exception as e:  # noqa: BLE001 - class and message compared
            outcomes.append((next(c for c in type(e).__mro__ if c.__module__ == "builtins"),
                             str(e).replace("mindtorch", "torch")))
        else:
            outcomes.append(None)
    assert outcomes[1] is not None and outcomes[0] == outcomes[1]


def test_onecycle_needs_momentum():
    for lib in (mindtorch, torch):
        opt = lib.optim.Adagrad([lib.ones(2, requires_grad=True)])
        with pytest.raises(ValueError, match="optimizer must support momentum"):
            lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 5)


def test_step_order_warnings():
    for lib in (mindtorch, torch):
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, 2)
        with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
            sched.step()
        opt = optimizer(lib)
        sched = lib.optim.lr_scheduler.ExponentialLR(opt, 0.9)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(3):
                opt.step()
                sched.step()
        opt.step = lambda closure=None: None  # replaced after the scheduler was made
        sched2 = lib.optim.lr_scheduler.StepLR(optimizer(lib), 2)
        sched2.optimizer.step = lambda closure=None: None
        with pytest.warns(UserWarning, match="has been overridden"):
            sched2.step()
