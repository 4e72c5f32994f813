"""Resuming training across libraries: a checkpoint (model, optimizer and scheduler
state_dicts, epoch) saved by one of torch/mindtorch after three steps is loaded by the
other, which continues; its next losses and learning rates equal the saver's own."""
import io

import numpy as np
import pytest
import torch

import mindtorch

X = np.random.RandomState(1).randn(8, 3)
Y = np.random.RandomState(2).randint(0, 2, 8)
OPTIMIZERS = [("Adam", {"lr": 0.01, "amsgrad": True}), ("SGD", {"lr": 0.1, "momentum": 0.9}),
              ("AdamW", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
              ("NAdam", {}), ("RAdam", {}), ("Adagrad", {}), ("Adamax", {})]


def build(lib):
    m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.BatchNorm1d(4),
                          lib.nn.Linear(4, 2)).double()
    rng = np.random.RandomState(0)
    with lib.no_grad():
        for p in m.parameters():
            p.copy_(lib.from_numpy(rng.uniform(-.5, .5, tuple(p.shape))))
    return m


def steps(lib, m, opt, sched, n):
    x, y = lib.from_numpy(X), lib.from_numpy(Y)
    losses = []
    for _ in range(n):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("direction", ["torch_to_mindtorch", "mindtorch_to_torch"])
@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_resume_from_the_other_library(name, kw, direction):
    src, dst = (torch, mindtorch) if direction == "torch_to_mindtorch" else (mindtorch, torch)
    m = build(src)
    opt = getattr(src.optim, name)(m.parameters(), **kw)
    sched = src.optim.lr_scheduler.StepLR(opt, 2, 0.5)
    steps(src, m, opt, sched, 3)
    buf = io.BytesIO()
    src.save({"model": m.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
              "epoch": 3}, buf)
    buf.seek(0)
    ckpt = dst.load(buf)
    assert ckpt["epoch"] == 3
    m2 = build(dst)
    m2.load_state_dict(ckpt["model"])
    opt2 = getattr(dst.optim, name)(m2.parameters(), **kw)
    opt2.load_state_dict(ckpt["opt"])
    sched2 = dst.optim.lr_scheduler.StepLR(opt2, 2, 0.5)
    sched2.load_state_dict(ckpt["sched"])
    want, got = steps(src, m, opt, sched, 3), steps(dst, m2, opt2, sched2, 3)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert opt2.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
    for a, b in zip(m.state_dict().values(), m2.state_dict().values()):
        np.testing.assert_allclose(np.asarray(b.numpy()), np.asarray(a.numpy()), rtol=1e-10,
                                   atol=1e-12)
