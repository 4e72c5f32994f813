"""torch.autograd.profiler and the core of torch.profiler: profile / record_function as
training scripts use them.  mindtorch has no op-level tracer: a profile records the wall
time of each `record_function` range run while it is active (PyTorch also records every
ATen op; those rows are absent here), aggregated by key_averages()."""
import contextlib
import json
import time

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "emit_nvtx", "profile",
           "record_function"]

_ACTIVE = []  # the profiles recording now (innermost last)


class FunctionEvent:
    """One recorded range: name, start and end in microseconds."""

    def __init__(self, name, start_us, end_us):
        self.name = self.key = name
        self.time_range_start, self.time_range_end = start_us, end_us
        self.count = 1

    @property
    def cpu_time_total(self):
        return self.time_range_end - self.time_range_start

    cpu_time = self_cpu_time_total = cpu_time_total
    device_time_total = self_device_time_total = cuda_time_total = 0.0

    def __repr__(self):
        return f"<FunctionEvent name={self.name} cpu_time_total={self.cpu_time_total:.3f}us>"


class FunctionEventAvg:
    """The events of one key summed (count, totals) and averaged."""

    def __init__(self, key):
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0
        self.device_time_total = self.self_device_time_total = self.cuda_time_total = 0.0

    def add(self, event):
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        return self

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} cpu_time={self.cpu_time:.3f}us "
                f"count={self.count}>")


class EventList(list):
    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        groups = {}
        for e in self:
            groups.setdefault(e.key, FunctionEventAvg(e.key)).add(e)
        return EventList(groups.values())

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        rows = sorted(self, key=lambda e: -getattr(e, sort_by.replace("cuda", "device"), 0)) \
            if sort_by else list(self)
        rows = rows[:row_limit] if row_limit and row_limit > 0 else rows
        total = sum(e.cpu_time_total for e in self) or 1.0
        width = max([len("Name")] + [len(e.key) for e in rows])
        cols = ("CPU total %", "CPU total", "CPU time avg", "# of Calls")
        line = "-" * width + "  " + "  ".join("-" * 12 for _ in cols)
        out = [line, f"{'Name':>{width}}  " + "  ".join(f"{c:>12}" for c in cols), line]
        for e in rows:
            out.append(f"{e.key:>{width}}  {100 * e.cpu_time_total / total:>11.2f}%  "
                       f"{_us(e.cpu_time_total):>12}  {_us(e.cpu_time):>12}  {e.count:>12}")
        out += [line, f"Self CPU time total: {_us(total)}", ""]
        return "\n".join(([header] if header else []) + out)

    def export_chrome_trace(self, path):
        events = [{"name": e.name, "ph": "X", "ts": e.time_range_start,
                   "dur": e.cpu_time_total, "pid": 0, "tid": 0, "cat": "user_annotation"}
                  for e in self]
        with open(path, "w") as f:
            json.dump({"traceEvents": events}, f)

    def __str__(self):
        return self.table()


def _us(t):
    return f"{t / 1e3:.3f}ms" if t >= 1e3 else f"{t:.3f}us"


class profile:
    """torch.autograd.profiler.profile (legacy): records record_function ranges while
    active and enabled."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        self.enabled = enabled
        self.function_events = EventList() if enabled else None
        self.entered = False

    def __enter__(self):
        if self.enabled:
            if self.entered:
                raise RuntimeError("Profiler context manager is not reentrant")
            self.entered = True
            _ACTIVE.append(self)
        return self

    def __exit__(self, *exc):
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        return False

    def _record(self, event):
        self.function_events.append(event)

    def _check_finish(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def events(self):
        self._check_finish()
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        self._check_finish()
        return self.function_events.key_averages()

    def table(self, sort_by=None, row_limit=100, **kwargs):
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def export_chrome_trace(self, path):
        self._check_finish()
        self.function_events.export_chrome_trace(path)

    @property
    def self_cpu_time_total(self):
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def __str__(self):
        return self.table() if self.function_events is not None else "<unfinished profile>"


class record_function(contextlib.ContextDecorator):
    """A named range; each profile recording while it runs gets an event for it."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._start = None

    def __enter__(self):
        self._start = time.perf_counter_ns()
        return self

    def __exit__(self, *exc):
        end = time.perf_counter_ns()
        event = FunctionEvent(self.name, self._start / 1e3, end / 1e3)
        for prof in _ACTIVE:
            prof._record(event)
        return False


@contextlib.contextmanager
def emit_nvtx(enabled=True, record_shapes=False):
    """No NVTX without CUDA: runs the block."""
    yield
