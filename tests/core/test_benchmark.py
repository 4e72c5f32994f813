"""mindtorch.utils.benchmark against torch.utils.benchmark: Measurement statistics and
reprs, Compare's tables (character for character), and the Timer's protocol (block sizes,
stopping rules, threads, globals, errors) on real timings."""
import pytest

import mindtorch
import mindtorch.utils.benchmark as MB
from reference import torch

TB = pytest.importorskip("torch.utils.benchmark")

RAW = [[1e-3], [2.5e-6, 2.6e-6], [1., 1.1, 1.2], [1., 1., 1.15, 1.15], [1., 1., 1., 2.],
       [1., 2., 3., 4., 5., 6.], [3e-8 * (1 + 0.01 * i) for i in range(40)], [12., 13., 12.5, 12.]]
SPECS = [dict(stmt="x + 1", setup="pass"),
         dict(stmt="y = x * 2\nz = y + 1", setup="import math\nx = 3", sub_label="sub", env="e",
              num_threads=4),
         dict(stmt="x", setup="x = 1", label="L", sub_label="S", description="D"),
         dict(stmt="x", setup="", label="L", description="two\nlines")]


def _body(m):
    return repr(m).split("\n", 1)[1]  # (the first line names the object's class and id)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("raw", RAW, ids=range(len(RAW)))
def test_measurement_statistics_and_repr(raw, spec):
    m = MB.Measurement(10, list(raw), MB.TaskSpec(**spec))
    t = TB.Measurement(10, list(raw), TB.TaskSpec(**spec))
    assert _body(m) == _body(t)
    assert repr(m).startswith("<mindtorch.utils.benchmark.utils.common.Measurement object at")
    for name in ("median", "mean", "iqr", "significant_figures", "has_warnings", "times",
                 "title", "as_row_name", "num_threads", "label", "stmt"):
        assert getattr(m, name) == getattr(t, name), name
    for threshold in (0.01, 0.1, 0.3):
        assert m.meets_confidence(threshold) == t.meets_confidence(threshold)
    assert m.task_spec.summarize() == t.task_spec.summarize()


def test_merge_and_helpers():
    spec = dict(stmt="x", setup="pass", label="L")
    parts = [(10, [1e-4, 2e-4]), (1, [3e-5]), (5, [1e-4])]
    m = MB.Measurement.merge([MB.Measurement(n, r, MB.TaskSpec(**spec)) for n, r in parts] +
                             [MB.Measurement(1, [1.], MB.TaskSpec(stmt="other", setup="pass"))])
    t = TB.Measurement.merge([TB.Measurement(n, r, TB.TaskSpec(**spec)) for n, r in parts] +
                             [TB.Measurement(1, [1.], TB.TaskSpec(stmt="other", setup="pass"))])
    assert [(x.number_per_run, x.times, x.metadata) for x in m] == \
        [(x.number_per_run, x.times, x.metadata) for x in t]
    for v in (3e-10, 1e-9, 2.5e-7, 1e-6, 4e-3, 0.5, 12.):
        assert MB.select_unit(v) == TB.select_unit(v)
    for v, n in ((0.000123456, 3), (3.14159, 2), (98765.4, 1), (1.0, 4)):
        assert MB.trim_sigfig(v, n) == TB.trim_sigfig(v, n)
    assert [MB.unit_to_english(u) for u in ("ns", "us", "ms", "s")] == \
        [TB.unit_to_english(u) for u in ("ns", "us", "ms", "s")]
    assert MB.ordered_unique([3, 1, 3, 2, 1]) == [3, 1, 2]


def _results(B):
    out = []
    for label in ("add", "mul"):
        for sub in ("small", "big"):
            for k, desc in enumerate(("float", "double", "half")):
                for threads in (1, 4):
                    for env in (("env1", "e2") if label == "mul" else (None,)):
                        base = (1 + (label == "mul")) * (1 if sub == "small" else 50) * \
                            (1 + 0.7 * k) / threads
                        spread = 0.5 if desc == "float" and threads == 4 else 0.01
                        raw = [base * 1e-6 * (1 + spread * i) for i in range(7)]
                        out.append(B.Measurement(10, raw, B.TaskSpec(
                            stmt="x", setup="pass", label=label, sub_label=sub,
                            description=desc, num_threads=threads, env=env)))
    return out


@pytest.mark.parametrize("options", [(), ("trim",), ("color",), ("rowwise",), ("warn",),
                                     ("trim", "color", "warn")])
def test_compare_renders_torchs_tables(options, capsys):
    texts = []
    for B in (MB, TB):
        c = B.Compare(_results(B)[:-3])
        c.extend_results(_results(B)[-3:])
        if "trim" in options:
            c.trim_significant_figures()
        if "color" in options:
            c.colorize()
        if "rowwise" in options:
            c.colorize(rowwise=True)
        if "warn" in options:
            c.highlight_warnings()
        texts.append(str(c))
        c.print()
    assert texts[0] == texts[1]
    assert capsys.readouterr().out == texts[0] + "\n" + texts[1] + "\n"
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`"):
        MB.Compare([1.0])


def test_timer_protocol_on_real_timings():
    calls = []
    t = MB.Timer("""
        y = torch.ones(3) + x
    """, setup="x = 2", globals={"unused": 1}, label="L", sub_label="S", description="D",
                 num_threads=2)
    assert t._task_spec.stmt == "y = torch.ones(3) + x"  # dedented, outer newlines gone
    assert t._globals["torch"] is mindtorch and t._globals["unused"] == 1
    before = mindtorch.get_num_threads()
    m = t.timeit(50)
    assert m.number_per_run == 50 and len(m.raw_times) == 1 and m.raw_times[0] > 0
    assert "1 measurement, 50 runs , 2 threads" in repr(m)
    m = t.blocked_autorange(callback=lambda n, s: calls.append((n, s)), min_run_time=0.02)
    assert sum(m.raw_times) >= 0.02 and len(calls) == len(m.raw_times)
    assert all(n == m.number_per_run for n, _ in calls)
    m = t.adaptive_autorange(threshold=0.5, min_run_time=0.001, max_run_time=0.5)
    assert len(m.times) > 3 or sum(m.raw_times) > 0.5
    assert mindtorch.get_num_threads() == before
    assert (m.label, m.sub_label, m.description, m.num_threads) == ("L", "S", "D", 2)


def test_block_size_grows_until_overhead_is_negligible():
    slow = MB.Timer("time.sleep(0.002)", setup="import time")
    m = slow.blocked_autorange(min_run_time=0.01)
    assert m.number_per_run == 1  # one run already outlasts min_run_time / 1000
    fast = MB.Timer("pass")
    assert fast.blocked_autorange(min_run_time=0.01).number_per_run >= 1000


def test_timer_errors_as_torch():
    for B in (MB, TB):
        with pytest.raises(ValueError, match="only a `str` stmt"):
            B.Timer(lambda: None)
        with pytest.raises(ValueError, match="global_setup is C\\+\\+ only"):
            B.Timer("pass", global_setup="int x;")
        with pytest.raises(ValueError, match="Invalid language"):
            B.Timer("pass", language="rust")
        for method in ("repeat", "autorange"):
            with pytest.raises(NotImplementedError, match="blocked_autorange"):
                getattr(B.Timer("pass"), method)()
    assert torch is not None


def test_measurements_pickle_and_copy():
    import copy
    import pickle
    m = MB.Timer("x + 1", setup="x = 1", label="L").timeit(10)
    for other in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert other.times == m.times and other.label == "L" and _body(other) == _body(m)
