"""torch.profiler / torch.autograd.profiler against PyTorch: schedules, the recording phases
that reach on_trace_ready, record_function (context manager and decorator) counts in
key_averages, tables and trace files, and the ops recorded (mindtorch's ops decompose
differently from ATen's, so the aten:: rows are compared op by op, not as whole tables)."""
import os
import warnings

import mindtorch
import pytest
import torch


def _user_rows(prof):
    return sorted((e.key, e.count) for e in prof.key_averages()
                  if not e.key.startswith("aten::"))


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


def _profiled(L, program, **kwargs):
    with L.profiler.profile(**kwargs) as prof:
        with L.profiler.record_function("block"):
            program(L)
    return prof


@pytest.mark.parametrize("op, program", [
    ("aten::mm", lambda L: L.mm(L.ones(2, 3), L.ones(3, 4))),
    ("aten::relu", lambda L: L.relu(L.ones(3))),
    ("aten::add", lambda L: L.ones(3).add(1)),
    ("aten::sum", lambda L: L.ones(2, 2).sum()),
    ("aten::cat", lambda L: L.cat([L.ones(2), L.ones(3)])),
    ("aten::conv2d", lambda L: L.nn.functional.conv2d(L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2))),
])
def test_ops_are_recorded_inside_the_ranges_around_them(op, program):
    for L in (torch, mindtorch):
        prof = _profiled(L, program)
        events = prof.events()
        block = next(e for e in events if e.name == "block")
        recorded = [e for e in events if e.name == op]
        assert recorded, (L.__name__, [e.name for e in events])
        assert all(_inside(e, block) for e in recorded)
        assert 0 <= block.self_cpu_time_total <= block.cpu_time_total
        assert block.cpu_time_total >= sum(c.cpu_time_total for c in block.cpu_children)
        averages = {e.key: e for e in prof.key_averages()}
        assert averages[op].count == len(recorded)


def _inside(event, outer):
    while event.cpu_parent is not None:
        event = event.cpu_parent
        if event is outer:
            return True
    return False


def test_table_layout_and_input_shapes_as_torch():
    def layout(L):
        prof = _profiled(L, lambda L: L.mm(L.ones(2, 3), L.ones(3, 4)), record_shapes=True)
        plain = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5)
        shaped = prof.key_averages(group_by_input_shape=True).table(row_limit=50)
        mm = next(line for line in shaped.splitlines() if "aten::mm " in line)
        lines = plain.splitlines()
        return (lines[1].split(), lines[1].endswith("# of Calls  "), lines[0] == lines[2] == lines[-2], lines[-1].split(":")[0],
                shaped.splitlines()[1].split()[-2:], mm.split()[-2:],
                [e.input_shapes for e in prof.events() if e.name == "aten::mm"])
    assert layout(mindtorch) == layout(torch)


def test_nothing_is_wrapped_once_profiling_stops():
    from mindtorch._ops.registry import OPS
    with mindtorch.profiler.profile():
        mindtorch.ones(2).add(1)
        assert hasattr(OPS["add"].resolved["cpu"], "__wrapped__")
    mindtorch.ones(2).add(1)
    assert not hasattr(OPS["add"].resolved["cpu"], "__wrapped__")
