"""torch.profiler / torch.autograd.profiler against PyTorch: schedules, the recording phases
that reach on_trace_ready, record_function (context manager and decorator) counts in
key_averages, tables and trace files (mindtorch records record_function ranges only, so
PyTorch's aten:: rows are left out of the comparison)."""
import os
import warnings

import mindtorch
import pytest
import torch


def _user_rows(prof):
    return sorted((e.key, e.count) for e in prof.key_averages()
                  if not e.key.startswith(("aten::", "ProfilerStep")))


def _run(L, tmp_path):
    P = L.profiler
    out = [repr(P.ProfilerActivity.CPU), list(P.ProfilerActivity.__members__)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kw in ({"wait": 1, "warmup": 1, "active": 2, "repeat": 2, "skip_first": 1},
                   {"wait": 2, "warmup": 0, "active": 1, "skip_first_wait": 1}):
            s = P.schedule(**kw)
            out.append([s(i).name for i in range(12)])
    traces = []
    m = L.nn.Linear(2, 2)
    with P.profile(activities=[P.ProfilerActivity.CPU], on_trace_ready=lambda p:
                   traces.append(_user_rows(p)),
                   schedule=P.schedule(wait=1, warmup=1, active=2, repeat=1)) as prof:
        for step in range(6):
            with P.record_function("forward"):
                m(L.ones(1, 2))
            if step % 2 == 0:
                with P.record_function("extra"):
                    pass
            prof.step()
    out += [traces, prof.step_num]

    @L.autograd.profiler.record_function("deco")
    def f(x):
        return x + 1
    with L.autograd.profiler.profile() as legacy:
        with L.autograd.profiler.record_function("blk"):
            f(L.ones(1))
        f(L.ones(1))
    table = legacy.key_averages().table(sort_by="cpu_time_total", row_limit=5)
    out += [_user_rows(legacy), type(legacy.key_averages()).__name__, "deco" in table]
    d = str(tmp_path / L.__name__)
    with P.profile(schedule=P.schedule(wait=0, warmup=1, active=1),
                   on_trace_ready=P.tensorboard_trace_handler(d)) as p:
        for _ in range(2):
            p.step()
    out.append([name.endswith(".pt.trace.json") for name in os.listdir(d)])
    return out


def test_profiler_as_torch(tmp_path):
    assert _run(mindtorch, tmp_path) == _run(torch, tmp_path)


def test_schedule_checks_its_arguments():
    for L in (torch, mindtorch):
        with pytest.raises(AssertionError):
            L.profiler.schedule(wait=0, warmup=0, active=0)
