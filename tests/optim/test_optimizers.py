"""Every optimizer against PyTorch's over a grid of options: the same parameters and losses
for 10 steps, parameters and states equal (float64 within 1e-12, float32 within 1e-6)."""
import itertools

import pytest

from optim_helpers import assert_params, assert_states, backward, run_both, to_mt

import mindtorch

torch = pytest.importorskip("torch")


def grid(**options):
    keys = list(options)
    return [dict(zip(keys, values)) for values in itertools.product(*options.values())]


CASES = (
    [("SGD", dict(lr=0.1, **o)) for o in grid(momentum=[0, 0.9], dampening=[0, 0.3],
                                             weight_decay=[0, 0.1], maximize=[False, True])]
    + [("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=wd)) for wd in (0, 0.1)]
    + [("SGD", {"lr": 0.01})]
    + [(name, dict(lr=0.05, **o)) for name in ("Adam", "AdamW")
       for o in grid(amsgrad=[False, True], weight_decay=[0, 0.1], maximize=[False, True])]
    + [("Adam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
       ("Adam", dict(lr=0.02, betas=(0.8, 0.9), eps=1e-3)), ("AdamW", {})]
    + [("RMSprop", dict(lr=0.01, **o)) for o in grid(centered=[False, True], momentum=[0, 0.9],
                                                    weight_decay=[0, 0.1],
                                                    maximize=[False, True])]
    + [("RMSprop", dict(alpha=0.5, eps=1e-2))]
    + [("Adagrad", dict(lr=0.1, **o)) for o in grid(lr_decay=[0, 0.05], weight_decay=[0, 0.1],
                                                   initial_accumulator_value=[0, 0.3],
                                                   maximize=[False, True])]
    + [("Adamax", dict(lr=0.05, **o)) for o in grid(weight_decay=[0, 0.1], maximize=[False, True])]
    + [("Adamax", dict(betas=(0.5, 0.8), eps=1e-2))]
    + [(name, dict(lr=0.05, **o)) for name in ("NAdam", "RAdam")
       for o in grid(weight_decay=[0, 0.1], decoupled_weight_decay=[False, True],
                     maximize=[False, True])]
    + [("NAdam", dict(momentum_decay=0.1, betas=(0.8, 0.9))), ("RAdam", dict(betas=(0.5, 0.6)))]
    + [("Adadelta", dict(lr=0.5, **o)) for o in grid(weight_decay=[0, 0.1],
                                                    maximize=[False, True])]
    + [("Adadelta", dict(rho=0.5, eps=1e-3))]
    + [("Rprop", dict(lr=0.01, **o)) for o in grid(maximize=[False, True])]
    + [("Rprop", dict(etas=(0.3, 1.5), step_sizes=(1e-3, 0.05)))]
    + [("ASGD", dict(lr=0.05, **o)) for o in grid(weight_decay=[0, 0.1], maximize=[False, True])]
    + [("ASGD", dict(lr=0.05, t0=3, lambd=0.01, alpha=0.5))]
    + [("Adafactor", dict(lr=0.05, **o)) for o in grid(weight_decay=[0, 0.1],
                                                      maximize=[False, True])]
    + [("Adafactor", dict(beta2_decay=-0.5, eps=(1e-20, 1e-2), d=1.5))]
)


def case_id(case):
    name, kwargs = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_matches_torch(case, dtype):
    name, kwargs = case
    mo, to, _, _ = run_both(name, kwargs, dtype)
    assert_states(mo, to, dtype)


NAMES = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta",
         "Rprop", "ASGD", "Adafactor"]


@pytest.mark.parametrize("name", NAMES)
def test_missing_gradients_and_groups(name):
    # a parameter without a gradient at some steps is skipped (no state until its first one)
    kwargs = {"lr": 0.05, "momentum": 0.9} if name == "SGD" else {"lr": 0.05}
    mo, to, _, _ = run_both(name, kwargs, skip_at={0, 1, 4})
    assert_states(mo, to, "float64")
    groups = [([0, 2], {"lr": 0.01}), ([1, 3], {"weight_decay": 0.2})]
    mo, to, _, _ = run_both(name, kwargs, groups=groups)
    assert_states(mo, to, "float64")
    assert repr(mo) == repr(to)


@pytest.mark.parametrize("name,kwargs", [("SGD", {"lr": 0.1, "momentum": 0.5}),
                                         ("Adam", {"lr": 0.05, "amsgrad": True}),
                                         ("AdamW", {"lr": 0.05, "weight_decay": 0.1}),
                                         ("RMSprop", {"centered": True, "momentum": 0.5}),
                                         ("Adagrad", {"initial_accumulator_value": 0.1}),
                                         ("Adamax", {"weight_decay": 0.1}),
                                         ("NAdam", {"weight_decay": 0.1}),
                                         ("RAdam", {"weight_decay": 0.1}),
                                         ("Adadelta", {"weight_decay": 0.1}),
                                         ("Rprop", {}), ("ASGD", {"t0": 2})])
def test_complex_parameters(name, kwargs):
    mo, to, _, _ = run_both(name, kwargs, "complex128", complex_=True)
    assert_states(mo, to, "complex128")


LOAD_CASES = [c for c in CASES if c[1].get("weight_decay") != 0.1 and not c[1].get("maximize")]


@pytest.mark.parametrize("case", LOAD_CASES, ids=case_id)
def test_load_torch_state_and_continue(case):
    name, kwargs = case
    # five steps in torch; its state loaded into fresh optimizers of both libraries (loading
    # casts floating state to the parameter's dtype: NAdam's mu_product becomes float64)
    _, to, _, tp = run_both(name, kwargs, steps=5)
    mp = [mindtorch.tensor(p.detach().numpy().copy()).requires_grad_() for p in tp]
    tp = [p.detach().clone().requires_grad_() for p in tp]
    mo = getattr(mindtorch.optim, name)(mp, **kwargs)
    mo.load_state_dict(to_mt(to.state_dict()))
    to2 = getattr(torch.optim, name)(tp, **kwargs)
    to2.load_state_dict(to.state_dict())
    assert_states(mo, to2, "float64")
    for k in range(5, 10):
        backward(mindtorch, mp, k)
        backward(torch, tp, k)
        mo.step()
        to2.step()
        assert_params(mp, tp, "float64")
    assert_states(mo, to2, "float64")


def test_state_dict_round_trip_and_lr_change():
    mo, to, mp, tp = run_both("Adam", {"lr": 0.05}, steps=3)
    loaded = []
    for lib, o, ps in ((mindtorch, mo, mp), (torch, to, tp)):
        sd = o.state_dict()
        p2 = [p.detach().clone().requires_grad_() for p in ps]
        o2 = lib.optim.Adam(p2, lr=0.5)
        o2.load_state_dict(sd)
        assert o2.param_groups[0]["lr"] == 0.05 and o2.param_groups[0]["params"][0] is p2[0]
        assert o2.param_groups is not sd["param_groups"]
        # tensors already of the parameter's dtype and device are shared, not copied
        loaded.append(o2.state[p2[0]]["exp_avg"] is sd["state"][0]["exp_avg"])
    assert loaded[0] == loaded[1]
    # changing the lr in param_groups takes effect, as in torch
    for o in (mo, to):
        o.param_groups[0]["lr"] = 0.2
    backward(mindtorch, mp, 4)
    backward(torch, tp, 4)
    mo.step()
    to.step()
    assert_params(mp, tp, "float64")
    assert_states(mo, to, "float64")


FUSED = [("Adam", dict(lr=0.05, fused=True)), ("AdamW", dict(lr=0.05, fused=True, amsgrad=True)),
         ("SGD", dict(lr=0.05, momentum=0.9, fused=True)), ("Adagrad", dict(lr=0.1, fused=True))]


@pytest.mark.parametrize("case", FUSED, ids=case_id)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_fused_option(case, dtype):
    # PyTorch's fused CPU kernels: the same values here; `step` float32 on the device
    mo, to, _, _ = run_both(*case, dtype)
    assert_states(mo, to, dtype)


@pytest.mark.parametrize("name", NAMES)
def test_tensor_lr(name):
    # a 0-dim float32 lr: its value takes part in the arithmetic as PyTorch's does
    def make(lib):
        return {"lr": lib.tensor(0.03)}
    arrays = __import__("optim_helpers").initial("float64")
    runs = []
    for lib in (mindtorch, torch):
        ps = [lib.tensor(a.copy()).requires_grad_() for a in arrays]
        opt = getattr(lib.optim, name)(ps, **make(lib))
        for k in range(6):
            backward(lib, ps, k)
            opt.step()
        runs.append((ps, opt))
    assert_params(runs[0][0], runs[1][0], "float64")


@pytest.mark.parametrize("kwargs", [{"lr": 0.02}, {"lr": 0.02, "nesterov": False, "momentum": 0.5},
                                    {"adjust_lr_fn": "match_rms_adamw", "weight_decay": 0.0},
                                    {"ns_steps": 3, "eps": 1e-3}])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_muon(kwargs, dtype):
    # 2-D parameters only; Newton-Schulz in bfloat16 as PyTorch's (equal here to the bit)
    rng = __import__("numpy").random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(dtype) for s in [(6, 4), (3, 8), (5, 5)]]
    runs = []
    for lib in (mindtorch, torch):
        ps = [lib.tensor(a.copy()).requires_grad_() for a in arrays]
        opt = lib.optim.Muon(ps, **kwargs)
        for k in range(5):
            backward(lib, ps, k)
            opt.step()
        runs.append((ps, opt))
    assert_params(runs[0][0], runs[1][0], dtype)
    assert_states(runs[0][1], runs[1][1], dtype)


def test_muon_errors():
    for lib in (mindtorch, torch):
        with pytest.raises(ValueError, match="Muon only supports 2D parameters"):
            lib.optim.Muon([lib.ones(3, requires_grad=True)])
        with pytest.raises(ValueError, match="Adjust learning rate function x"):
            lib.optim.Muon([lib.ones(3, 3, requires_grad=True)], adjust_lr_fn="x")


@pytest.mark.parametrize("name,kwargs", [("SGD", {"lr": 0.01}),
                                         ("SGD", {"lr": 0.01, "momentum": 0.9}),
                                         ("RMSprop", {"momentum": 0.5}), ("RAdam", {}),
                                         ("Adadelta", {}), ("ASGD", {})])
def test_large_tensors(name, kwargs):
    # tensors above the multi-tensor size, of growing sizes, step one by one
    rng = __import__("numpy").random.default_rng(2)
    arrays = [rng.standard_normal(s) for s in [(200, 180), (190, 200), (250, 250), (36000,)]]
    runs = []
    for lib in (mindtorch, torch):
        ps = [lib.tensor(a.copy()).requires_grad_() for a in arrays]
        opt = getattr(lib.optim, name)(ps, **kwargs)
        for k in range(4):
            backward(lib, ps, k)
            opt.step()
        runs.append((ps, opt))
    assert_params(runs[0][0], runs[1][0], "float64")
    assert_states(runs[0][1], runs[1][1], "float64")
