"""torch.autograd.profiler and the core of torch.profiler: profile / record_function as
training scripts use them.  While a profile records, every op's kernel call is a range
named as PyTorch names its ops (aten::addmm, ...: the dispatcher wraps the kernels it
resolves, see _ops/dispatch.set_kernel_wrapper; nothing is wrapped otherwise), nested in
the ranges open around it (record_function, an op's decomposition), so each event has a
total and a self time (total minus its children's), aggregated by key_averages() into
PyTorch's table.  mindtorch's ops decompose differently from ATen's (an op may show other
children), and autograd's engine adds no rows of its own: a backward pass shows the ops its
formulas run."""
import contextlib
import json
import time

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "emit_nvtx", "profile",
           "record_function"]

_ACTIVE = []  # the profiles recording now (innermost last)
_OPEN = []    # the ranges open now, innermost last: ops and record_function blocks


class _Times:
    """Averages, shared by events and their aggregates."""

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def self_cpu_time(self):
        return self.self_cpu_time_total / self.count if self.count else 0.0

    device_time_total = self_device_time_total = cuda_time_total = 0.0
    self_cuda_time_total = device_time = cuda_time = 0.0
    cpu_memory_usage = self_cpu_memory_usage = 0


class Interval:
    """A range's start and end, in microseconds."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def elapsed_us(self):
        return self.end - self.start


class FunctionEvent(_Times):
    """One recorded range: name, start and end in microseconds, the ranges recorded inside
    it (cpu_children) and the one around it (cpu_parent), the shapes of its tensor
    arguments when shapes are recorded."""

    def __init__(self, name, start_us, input_shapes=None):
        self.name = self.key = name
        self.time_range_start = self.time_range_end = start_us
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.cpu_parent = None
        self.cpu_children = []
        self.count = 1

    @property
    def cpu_time_total(self):
        return self.time_range_end - self.time_range_start

    @property
    def time_range(self):
        return Interval(self.time_range_start, self.time_range_end)

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def __repr__(self):
        return (f"<FunctionEvent name={self.name} cpu_time_total={self.cpu_time_total:.3f}us "
                f"self_cpu_time_total={self.self_cpu_time_total:.3f}us "
                f"input_shapes={self.input_shapes}>")


class FunctionEventAvg(_Times):
    """The events of one key (and input shapes, when grouped by them) summed."""

    def __init__(self, key, input_shapes=""):
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0
        self.cpu_parent = None  # (an aggregate counts as top level, as PyTorch's)

    def add(self, event):
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        return self

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={_us(self.self_cpu_time)} "
                f"cpu_time={_us(self.cpu_time)} input_shapes={self.input_shapes}>")


class EventList(list):
    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        groups = {}
        for e in self:
            # (the steps of torch.profiler's schedule under one key, as PyTorch's)
            name = "ProfilerStep*" if e.key.startswith("ProfilerStep#") else e.key
            shapes = str(e.input_shapes) if group_by_input_shape else ""
            if (name, shapes) not in groups:
                groups[name, shapes] = FunctionEventAvg(name, shapes)
            groups[name, shapes].add(e)
        return EventList(groups.values())

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total",
                "self_privateuse1_time_total"]

    def export_stacks(self, path, metric):
        """PyTorch's flame-graph lines (stack;frames value) of the events that recorded a
        Python stack: none do here, so the file is empty."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError("metric should be one of: " +
                             str(self.supported_export_stacks_metrics()))
        with open(path, "w"):
            pass

    def total_average(self):
        """Every event summed into one aggregate keyed "Total" (nested ranges count in
        their parents too, as PyTorch's)."""
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        """PyTorch's layout: right-aligned columns two spaces apart, times in us / ms / s,
        percentages of the summed self times."""
        events = sorted(self, key=lambda e: getattr(e, sort_by.replace("cuda", "device")),
                        reverse=True) if sort_by else list(self)
        if not events:
            return ""
        total = sum(e.self_cpu_time_total for e in events)
        headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
                   "# of Calls"]
        widths = [min(max(len(e.key) for e in events) + 4, max_name_column_width or 10 ** 9)]
        widths += [12] * (len(headers) - 1)
        shaped = any(e.input_shapes for e in events)
        if shaped:
            headers.append("Input Shapes")
            widths.append(min(max(len(str(e.input_shapes)) for e in events) + 4,
                              max_shapes_column_width))
        row = "".join("{:>" + str(w) + "}  " for w in widths).format
        line = "".join("-" * w + "  " for w in widths)
        rows = [e for e in events if not (top_level_events_only and e.cpu_parent is not None)]
        rows = rows[:row_limit] if row_limit is not None and row_limit >= 0 else rows
        out = ([] if header is None else ["=" * (len(line) - 2), header]) + \
            [line, row(*headers), line]
        for e in rows:
            name = e.key
            if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
                name = name[:max_name_column_width - 3] + "..."
            values = [name, _share(e.self_cpu_time_total, total),
                      _time(e.self_cpu_time_total, time_unit),
                      _share(e.cpu_time_total, total), _time(e.cpu_time_total, time_unit),
                      _time(e.cpu_time, time_unit), e.count]
            if shaped:
                values.append(str(e.input_shapes)[:widths[-1]])
            out.append(row(*values))
        out += [line, f"Self CPU time total: {_time(total, time_unit)}", ""]
        return "\n".join(out)

    def export_chrome_trace(self, path):
        events = [{"name": e.name, "ph": "X", "ts": e.time_range_start,
                   "dur": e.cpu_time_total, "pid": 0, "tid": 0,
                   "cat": "cpu_op" if e.name.startswith("aten::") else "user_annotation"}
                  for e in self]
        with open(path, "w") as f:
            json.dump({"traceEvents": events}, f)

    def __str__(self):
        return self.table()


def _time(t, unit=None):
    unit = unit or ("s" if t >= 1e6 else "ms" if t >= 1e3 else "us")
    return f"{t / {'s': 1e6, 'ms': 1e3, 'us': 1.0}[unit]:.3f}{unit}"


_us = _time


def _share(t, total):
    return f"{t * 100.0 / total:.2f}%" if total else "NaN"


def _begin(name, input_shapes=None):
    """Opens a range: an event for each recording profile, nested in the open ranges."""
    event = FunctionEvent(name, time.perf_counter_ns() / 1e3, input_shapes)
    if _OPEN:
        event.cpu_parent = _OPEN[-1]
        _OPEN[-1].cpu_children.append(event)
    _OPEN.append(event)
    for prof in _ACTIVE:
        prof._record(event)
    return event


def _end(event):
    event.time_range_end = time.perf_counter_ns() / 1e3
    if _OPEN and _OPEN[-1] is event:
        _OPEN.pop()
    elif event in _OPEN:  # (ranges closed out of order: the ones inside it close too)
        del _OPEN[_OPEN.index(event):]


def _shapes(args):
    return [list(a.shape) if hasattr(a, "_shape") else [] for a in args]


def _traced(op, kernel):
    """kernel, each call recorded as a range named after op."""
    name = op.name if "::" in op.name else "aten::" + op.name

    def run(*args, **kwargs):
        event = _begin(name, _shapes(args) if any(p.record_shapes for p in _ACTIVE) else None)
        try:
            return kernel(*args, **kwargs)
        finally:
            _end(event)
    run.__wrapped__ = kernel
    return run


def start_recording(prof):
    """prof records from now on (the ops too: the first recording profile turns the
    dispatcher's kernel wrapper on)."""
    if prof not in _ACTIVE:
        if not _ACTIVE:
            from .._ops.dispatch import set_kernel_wrapper
            set_kernel_wrapper(_traced)
        _ACTIVE.append(prof)


def stop_recording(prof):
    if prof in _ACTIVE:
        _ACTIVE.remove(prof)
        if not _ACTIVE:
            from .._ops.dispatch import set_kernel_wrapper
            set_kernel_wrapper(None)


_DEVICE_OPTIONS = ("cuda", "xpu", "mtia", "hpu")


def _device_to_profile(use_cuda, use_device):
    """PyTorch's reading of use_cuda / use_device, warning as it does: no device's kernels
    are timed here (cpu ops are recorded whatever the device), so an unavailable device's
    profiling is disabled, as in PyTorch."""
    import warnings
    if use_cuda:
        warnings.warn("The attribute `use_cuda` will be deprecated soon, please use "
                      "``use_device = 'cuda'`` instead.", FutureWarning, stacklevel=3)
        use_device = "cuda"
    if use_device is None:
        return None
    if use_device not in _DEVICE_OPTIONS:
        warnings.warn(f"The {use_device} is not a valid device option.", stacklevel=3)
        return None
    from .. import _device_modules
    module = _device_modules.device_module(use_device)
    if not module.is_available():
        warnings.warn(f"{use_device.upper()} is not available, disabling "
                      f"{use_device.upper()} profiling", stacklevel=3)
        return None
    return use_device


class profile:
    """torch.autograd.profiler.profile (legacy): records ops and record_function ranges
    while active and enabled."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.function_events = EventList() if enabled else None
        self.entered = False
        self.use_device = _device_to_profile(use_cuda, use_device) if enabled else None
        self.with_stack = with_stack

    def __enter__(self):
        if self.enabled:
            if self.entered:
                raise RuntimeError("Profiler context manager is not reentrant")
            self.entered = True
            start_recording(self)
        return self

    def __exit__(self, *exc):
        stop_recording(self)
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
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n,
                                                 group_by_overload_name)

    def table(self, sort_by=None, row_limit=100, **kwargs):
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def export_chrome_trace(self, path):
        self._check_finish()
        self.function_events.export_chrome_trace(path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        self._check_finish()
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        self.function_events.export_stacks(path, metric)

    @property
    def self_cpu_time_total(self):
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def total_average(self):
        self._check_finish()
        return self.function_events.total_average()

    def __str__(self):
        return self.table() if self.function_events is not None else "<unfinished profile>"


class record_function(contextlib.ContextDecorator):
    """A named range; each profile recording while it runs gets an event for it."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._event = None

    def __enter__(self):
        self._event = _begin(self.name)
        return self

    def __exit__(self, *exc):
        _end(self._event)
        return False


@contextlib.contextmanager
def emit_nvtx(enabled=True, record_shapes=False):
    """NVTX ranges are CUDA's: as PyTorch's, entering synchronizes CUDA (refused without
    it); no ranges are emitted."""
    if enabled:
        from .. import cuda
        cuda.synchronize()
    yield
