"""swa_utils against PyTorch: averaged weights (running mean, EMA, custom functions,
use_buffers), update_bn's statistics, SWALR's learning rates."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not hasattr(mindtorch.nn, "BatchNorm1d"),
                                reason="nn modules not available")


def model(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 5), lib.nn.BatchNorm1d(5), lib.nn.ReLU(),
                             lib.nn.Linear(5, 2)).double()


def copy_into(m, t):
    with mindtorch.no_grad():
        for a, b in zip(list(m.parameters()) + list(m.buffers()),
                        list(t.parameters()) + list(t.buffers())):
            a.copy_(mindtorch.tensor(b.detach().numpy().copy()))


def same(ms, ts, tol=1e-12):
    for a, b in zip(ms, ts):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("kind", ["swa", "ema-multi", "ema", "swa-multi", "buffers"])
def test_averaged_model(kind):
    rng = np.random.default_rng(0)
    runs = []
    for lib in (mindtorch, torch):
        S = lib.optim.swa_utils
        kw = {"swa": {}, "ema-multi": {"multi_avg_fn": S.get_ema_multi_avg_fn(0.9)},
              "ema": {"avg_fn": S.get_ema_avg_fn(0.8)},
              "swa-multi": {"multi_avg_fn": S.get_swa_multi_avg_fn()},
              "buffers": {"use_buffers": True}}[kind]
        torch.manual_seed(0)
        t = model(torch)
        net = t if lib is torch else model(mindtorch)
        if lib is mindtorch:
            copy_into(net, t)
        avg = S.AveragedModel(net, **kw)
        opt = lib.optim.SGD(net.parameters(), lr=0.1)
        for k in range(5):
            x = lib.tensor(rng.standard_normal((8, 4)))
            opt.zero_grad()
            net(x).pow(2).mean().backward()
            opt.step()
            avg.update_parameters(net)
        rng = np.random.default_rng(0)
        runs.append((list(avg.parameters()) + list(avg.buffers()), avg.n_averaged.item()))
    same(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1] == 5


def test_update_bn():
    rng = np.random.default_rng(1)
    data = [rng.standard_normal((6, 4)) for _ in range(3)]
    out = []
    for lib in (mindtorch, torch):
        torch.manual_seed(0)
        t = model(torch)
        net = t if lib is torch else model(mindtorch)
        if lib is mindtorch:
            copy_into(net, t)
        net.eval()
        loader = [(lib.tensor(d), 0) for d in data]
        lib.optim.swa_utils.update_bn(loader, net)
        out.append((list(net.buffers()), net.training, net[1].momentum))
    same(out[0][0], out[1][0])
    assert out[0][1:] == out[1][1:]


@pytest.mark.parametrize("kwargs", [{"swa_lr": 0.05}, {"swa_lr": [0.05, 0.01],
                                                      "anneal_epochs": 3,
                                                      "anneal_strategy": "linear"},
                                    {"swa_lr": 0.02, "anneal_epochs": 0}])
def test_swalr(kwargs):
    seqs = []
    for lib in (mindtorch, torch):
        groups = [{"params": [lib.ones(2, requires_grad=True)], "lr": lr} for lr in (0.1, 0.3)]
        opt = lib.optim.SGD(groups)
        sched = lib.optim.swa_utils.SWALR(opt, **kwargs)
        seq = [sched.get_last_lr()]
        for _ in range(15):
            opt.step()
            sched.step()
            seq.append(sched.get_last_lr())
        seqs.append(seq)
    assert seqs[0] == seqs[1]


def test_errors():
    for lib in (mindtorch, torch):
        S = lib.optim.swa_utils
        with pytest.raises(ValueError, match="Invalid decay value"):
            S.get_ema_avg_fn(1.5)
        opt = lib.optim.SGD([lib.ones(2, requires_grad=True)], lr=0.1)
        with pytest.raises(ValueError, match="anneal_strategy"):
            S.SWALR(opt, 0.01, anneal_strategy="exp")
        with pytest.raises(ValueError, match="anneal_epochs"):
            S.SWALR(opt, 0.01, anneal_epochs=-1)
