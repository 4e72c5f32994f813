"""torch.amp against PyTorch: GradScaler's scaled losses, unscaled gradients, skipped steps,
scale schedule and state_dict, its errors; autocast's disabled forms run unchanged
(enabled regions: test_autocast.py)."""
import math
import warnings

import pytest
import torch

import mindtorch


def scaler_trace(lib, grads, **kw):
    """Per step: scaled loss, unscaled grad, parameter after step, scale, growth tracker."""
    p = lib.nn.Parameter(lib.tensor([1.0, -2.0]))
    opt = lib.optim.SGD([p], lr=0.1)
    scaler = lib.amp.GradScaler("cpu", **kw)
    trace = []
    for g in grads:
        opt.zero_grad()
        loss = scaler.scale((p * lib.tensor(g)).sum())
        loss.backward()
        scaler.unscale_(opt)
        unscaled = p.grad.tolist()
        scaler.step(opt)
        scaler.update()
        trace.append((loss.item(), unscaled, p.tolist(), scaler.get_scale(),
                      scaler._get_growth_tracker()))
    return trace, scaler.state_dict()


@pytest.mark.parametrize("kw", [{}, {"init_scale": 4.0, "growth_interval": 2},
                                {"init_scale": 8.0, "growth_factor": 4.0, "backoff_factor": 0.25,
                                 "growth_interval": 1}], ids=str)
def test_grad_scaler_sequence(kw):
    grads = [[1.0, 2.0], [math.inf, 1.0], [0.5, 0.5], [math.nan, 0.0], [1.0, 1.0], [2.0, 3.0]]
    got, want = scaler_trace(mindtorch, grads, **kw), scaler_trace(torch, grads, **kw)
    assert repr(got) == repr(want)  # (repr: nan compares equal)


def test_grad_scaler_scale_nested_and_state_dict_round_trip():
    s = mindtorch.amp.GradScaler("cpu", init_scale=2.0)
    out = s.scale([mindtorch.tensor(1.0), (mindtorch.tensor(3.0),)])
    assert out[0].item() == 2.0 and isinstance(out[1], tuple) and out[1][0].item() == 6.0
    s2 = mindtorch.amp.GradScaler("cpu")
    s2.load_state_dict({**s.state_dict(), "scale": 16.0, "_growth_tracker": 3})
    assert s2.get_scale() == 16.0 and s2._get_growth_tracker() == 3
    with pytest.raises(RuntimeError):
        s2.load_state_dict({})


def test_grad_scaler_errors_as_torch():
    for lib in (torch, mindtorch):
        p = lib.nn.Parameter(lib.ones(1))
        opt = lib.optim.SGD([p], lr=1.0)
        s = lib.amp.GradScaler("cpu")
        with pytest.raises(AssertionError):
            s.step(opt)
        s.scale(p.sum()).backward()
        s.unscale_(opt)
        with pytest.raises(RuntimeError, match="already been called"):
            s.unscale_(opt)
        with pytest.raises(RuntimeError, match="Closure"):
            s.step(opt, closure=lambda: 0)


def test_disabled_forms_run_unchanged():
    for lib in (torch, mindtorch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for scaler in (lib.amp.GradScaler("cuda"), lib.amp.GradScaler("cpu", enabled=False),
                           lib.cuda.amp.GradScaler(enabled=False)):
                loss = lib.ones(()) * 3
                assert not scaler.is_enabled() and scaler.scale(loss) is loss
                assert scaler.get_scale() == 1.0 and scaler.state_dict() == {}
            p = lib.nn.Parameter(lib.ones(1))
            opt = lib.optim.SGD([p], lr=1.0)
            p.sum().backward()
            scaler.step(opt)
            scaler.update()
            assert p.item() == 0.0
            for ctx in (lib.autocast("cuda"), lib.autocast("cpu", enabled=False),
                        lib.amp.autocast("cuda", dtype=lib.float16), lib.cuda.amp.autocast()):
                with ctx:
                    assert (lib.ones(2, 2) @ lib.ones(2, 2)).dtype == lib.float32
                    assert not lib.is_autocast_enabled()


def test_disabled_cpu_region_and_custom_fwd_passthrough():
    @mindtorch.autocast("cpu", enabled=False)
    def f(x):
        return x + 1
    assert f(mindtorch.ones(1)).item() == 2.0
    assert mindtorch.amp.custom_fwd(device_type="cuda")(f)(mindtorch.ones(1)).item() == 2.0


def test_device_amp_spellings_warn_deprecated():
    """torch.cuda.amp.GradScaler / torch.cpu.amp.GradScaler and .autocast: FutureWarnings
    naming the torch.amp spelling, attributed to the caller's line."""
    def run(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.cuda.amp.GradScaler(enabled=False)
            lib.cpu.amp.GradScaler()
            with lib.cuda.amp.autocast(enabled=False):
                pass
        return [(c.category.__name__, str(c.message), c.filename == __file__) for c in w]
    assert run(mindtorch) == run(torch)
