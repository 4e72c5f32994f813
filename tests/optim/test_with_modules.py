"""Optimizers and schedulers driving nn modules (Parameters), against PyTorch: an MLP on a
fixed batch, the same initial weights, losses and parameters after each step."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")
nn_ok = hasattr(mindtorch.nn, "Sequential") and hasattr(mindtorch.nn, "Linear")
pytestmark = pytest.mark.skipif(not nn_ok, reason="nn modules not available")


def mlp(lib, dtype):
    return lib.nn.Sequential(lib.nn.Linear(12, 16), lib.nn.Tanh(), lib.nn.Linear(16, 16),
                             lib.nn.Tanh(), lib.nn.Linear(16, 3)).to(dtype)


def pair(dtype):
    torch.manual_seed(0)
    t = mlp(torch, getattr(torch, dtype))
    m = mlp(mindtorch, getattr(mindtorch, dtype))
    with mindtorch.no_grad():
        for (name, mp), (_, tp) in zip(m.named_parameters(), t.named_parameters()):
            mp.copy_(mindtorch.tensor(tp.detach().numpy().copy()))
    return m, t


@pytest.mark.parametrize("name,kwargs", [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}), ("AdamW", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True}), ("RMSprop", {"lr": 0.005, "centered": True}),
    ("NAdam", {"lr": 0.01}), ("RAdam", {"lr": 0.01}), ("Adagrad", {"lr": 0.05}),
    ("Adamax", {"lr": 0.01})])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_mlp_training_matches(name, kwargs, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 12)).astype(dtype)
    y = rng.standard_normal((8, 3)).astype(dtype)
    m, t = pair(dtype)
    runs = []
    for lib, model in ((mindtorch, m), (torch, t)):
        opt = getattr(lib.optim, name)(model.parameters(), **kwargs)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=kwargs["lr"], total_steps=20) \
            if name in ("SGD", "AdamW") else lib.optim.lr_scheduler.StepLR(opt, 5, 0.5)
        xs, ys = lib.tensor(x), lib.tensor(y)
        losses = []
        for _ in range(20):
            opt.zero_grad()
            loss = ((model(xs) - ys) ** 2).mean()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
        runs.append((losses, [p.detach().numpy().copy() for p in model.parameters()], opt))
    tol = 1e-10 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(runs[0][0], runs[1][0], rtol=tol, atol=tol)
    for a, b in zip(runs[0][1], runs[1][1]):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    assert runs[0][2].state_dict()["param_groups"] == runs[1][2].state_dict()["param_groups"]
    assert runs[0][0][-1] < runs[0][0][0]


def test_named_parameters_and_groups_from_modules():
    out = []
    for lib in (mindtorch, torch):
        model = mlp(lib, lib.float32)
        opt = lib.optim.AdamW([
            {"params": [p for n, p in model.named_parameters() if n.endswith("weight")]},
            {"params": [p for n, p in model.named_parameters() if n.endswith("bias")],
             "weight_decay": 0.0}], lr=1e-3)
        named = lib.optim.SGD(model.named_parameters(), lr=0.1)
        out.append((opt.state_dict(), named.state_dict(), repr(opt)))
    assert out[0] == out[1]
