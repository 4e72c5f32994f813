"""The multi-tensor path (optim/_multi_tensor.py): small tensors' state in flat buffers.
It must give bit-identical parameters and states to the per-tensor loop (the same foreach)
and to PyTorch's, through missing gradients, mixed sizes and dtypes, and state loading."""
import numpy as np
import pytest

from optim_helpers import assert_params, assert_states, backward, structure, to_mt

import mindtorch
from mindtorch.optim import _multi_tensor

torch = pytest.importorskip("torch")

CASES = [("Adam", {"lr": 0.05}), ("Adam", {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1}),
         ("AdamW", {"lr": 0.05}), ("AdamW", {"lr": 0.05, "maximize": True}),
         ("SGD", {"lr": 0.05, "momentum": 0.9}),
         ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
         ("SGD", {"lr": 0.05, "momentum": 0.5, "dampening": 0.2}),
         ("RMSprop", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5,
                                                 "weight_decay": 0.1}),
         ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1}),
         ("Adamax", {"lr": 0.05, "weight_decay": 0.1}),
         ("NAdam", {"lr": 0.05}), ("NAdam", {"lr": 0.05, "weight_decay": 0.1,
                                             "decoupled_weight_decay": True}),
         ("RAdam", {"lr": 0.05, "weight_decay": 0.1}),
         ("RAdam", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
         ("Adadelta", {"lr": 0.5, "weight_decay": 0.1}), ("Rprop", {"lr": 0.01}),
         ("ASGD", {"lr": 0.05, "t0": 3, "weight_decay": 0.1})]
# small tensors of several shapes, one large (per-tensor), one float64 (other dtype)
SHAPES = [(7,), (3, 5), (), (2, 1, 4), (9,), (200, 200), (6,), (4, 4)]


def make(lib, name, kwargs, dtypes, foreach=None):
    rng = np.random.default_rng(1)
    ps = [lib.tensor(rng.standard_normal(s).astype(dt)).requires_grad_()
          for s, dt in zip(SHAPES, dtypes)]
    extra = {} if foreach is None else {"foreach": foreach}  # torch's foreach path too
    return ps, getattr(lib.optim, name)(ps, **kwargs, **extra)


def run(name, kwargs, dtypes, steps=8, skip=(), foreach=None):
    sign = -1 if kwargs.get("maximize") else 1
    runs = [make(mindtorch, name, kwargs, dtypes, foreach),
            make(torch, name, kwargs, dtypes, foreach)]
    for k in range(steps):
        for lib, (ps, opt) in zip((mindtorch, torch), runs):
            backward(lib, ps, k, skip=skip[k] if k < len(skip) else None, sign=sign)
            opt.step()
    return runs


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{k}" for n, k in CASES])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_flat_matches_per_tensor_and_torch(name, kwargs, dtype, monkeypatch):
    dtypes = [dtype] * 6 + ["float64", dtype]
    # foreach=True asks torch for its foreach path too (whose arithmetic NAdam, RAdam and
    # ASGD order otherwise than their loops: mindtorch follows it with foreach=True)
    (mp, mo), (tp, to) = run(name, kwargs, dtypes, foreach=True)
    assert mo.__dict__.get("_flat"), "the multi-tensor path did not run"
    monkeypatch.setattr(_multi_tensor, "SMALL", 0)  # no tensor joins the flat buffers
    (pp, po), _ = run(name, kwargs, dtypes, foreach=True)
    assert not po.__dict__.get("_flat")
    for a, b in zip(mp, pp):  # bit-identical to the per-tensor loop
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())
    for i in range(len(mp)):
        for key, v in mo.state[mp[i]].items():
            assert np.array_equal(v.numpy(), po.state[pp[i]][key].numpy()), key
    assert_params(mp, tp, dtype)
    assert_states(mo, to, dtype)


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_missing_gradients(name, kwargs):
    # tensor 1 (small) misses steps 2 and 3, tensor 0 step 5: the flat buffers are rebuilt
    # from the tensors that can share them; counts that differ stay per tensor
    skip = [None, None, 1, 1, None, 0, None, None, None, None]
    (mp, mo), (tp, to) = run(name, kwargs, ["float64"] * 8, steps=10, skip=skip,
                             foreach=True)
    assert_params(mp, tp, "float64")
    assert_states(mo, to, "float64")


def test_load_state_dict_then_flat():
    (mp, mo), (tp, to) = run("Adam", {"lr": 0.05}, ["float64"] * 8, steps=3)
    ps, fresh = make(mindtorch, "Adam", {"lr": 0.05}, ["float64"] * 8)
    with mindtorch.no_grad():
        for p, q in zip(ps, tp):
            p.copy_(mindtorch.tensor(q.detach().numpy()))
    fresh.load_state_dict(to_mt(to.state_dict()))
    assert structure(fresh.state_dict()) == structure(to.state_dict())
    for k in range(3, 6):
        backward(mindtorch, ps, k)
        backward(torch, tp, k)
        fresh.step()
        to.step()
    assert fresh.__dict__.get("_flat")
    assert_params(ps, tp, "float64")
    assert_states(fresh, to, "float64")


def test_default_thresholds():
    # foreach=None: Adam from MIN_TENSORS small tensors on, SGD (momentum) from 24
    def flat_used(name, n, **kw):
        ps = [mindtorch.ones(8, requires_grad=True) for _ in range(n)]
        for p in ps:
            p.grad = mindtorch.ones(8)
        opt = getattr(mindtorch.optim, name)(ps, lr=0.1, **kw)
        for _ in range(3):
            opt.step()
        return bool(opt.__dict__.get("_flat"))
    assert flat_used("Adam", _multi_tensor.MIN_TENSORS)
    assert not flat_used("SGD", 8, momentum=0.9) and flat_used("SGD", 24, momentum=0.9)
    assert flat_used("SGD", 2, momentum=0.9, foreach=True)


def test_few_small_tensors_stay_per_tensor():
    ps = [mindtorch.ones(3, requires_grad=True) for _ in range(_multi_tensor.MIN_TENSORS - 1)]
    ps.append(mindtorch.ones(300, 300, requires_grad=True))
    for p in ps:
        p.grad = mindtorch.ones_like(p)
    opt = mindtorch.optim.Adam(ps)
    opt.step()
    opt.step()
    assert not opt.__dict__.get("_flat")
    opt = mindtorch.optim.Adam(ps, foreach=False)
    opt.step()
    assert not opt.__dict__.get("_flat")


def test_state_tensors_are_views_of_one_buffer():
    ps = [mindtorch.ones(5, requires_grad=True) for _ in range(6)]
    for p in ps:
        p.grad = mindtorch.ones(5)
    opt = mindtorch.optim.Adam(ps, lr=0.1)
    opt.step()
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd["state"]) == list(range(6))
    assert all(sd["state"][i]["exp_avg"].shape == (5,) for i in range(6))
    assert all(sd["state"][i]["step"].item() == 2.0 for i in range(6))
    # changing one state tensor in place is seen by the next (flat) step, as per tensor
    opt.state[ps[0]]["exp_avg"].fill_(100.0)
    opt.step()
    assert opt.state[ps[0]]["exp_avg"][0].item() > 50


@pytest.mark.parametrize("name", ["Adam", "RMSprop", "NAdam"])
def test_complex_and_real_mixed(name):
    # complex tensors go per tensor (through real views); the real ones share flat buffers
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(5) + 1j * rng.standard_normal(5)] + [
        rng.standard_normal(s) for s in [(4,), (2, 3), (6,), (3,), (5,)]]
    runs = []
    for lib in (mindtorch, torch):
        ps = [lib.tensor(a.copy()).requires_grad_() for a in arrays]
        opt = getattr(lib.optim, name)(ps, lr=0.05)
        for k in range(6):
            backward(lib, ps, k)
            opt.step()
        runs.append((ps, opt))
    assert runs[0][1].__dict__.get("_flat")
    assert_params(runs[0][0], runs[1][0], "float64")
    assert_states(runs[0][1], runs[1][1], "float64")
