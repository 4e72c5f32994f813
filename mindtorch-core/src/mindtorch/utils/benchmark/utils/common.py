"""What a measurement is: the task it timed (TaskSpec), its times and their statistics
(Measurement), and the formatting helpers Compare shares.  Statistics and rounding go
through mindtorch tensors as PyTorch's go through torch's (float32 where it uses the
default dtype), so medians, units and trimmed figures come out the same."""
import collections
import contextlib
import dataclasses
import textwrap

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig",
           "ordered_unique", "set_torch_threads"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # a spread below 25 ns is not resolved
# an interquartile range past these fractions of the median earns a warning
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25


def _torch():
    import mindtorch
    return mindtorch


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What a Timer runs (everything but its globals)."""
    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (or a one-line stmt), with the sub_label."""
        sub = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + sub
        if "\n" not in self.stmt:
            return self.stmt + sub
        paren = f" ({self.sub_label})" if self.sub_label else ""
        return f"stmt:{paren}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self) -> str:
        if not self.setup or self.setup == "pass":
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self) -> str:
        """Title, description and setup, a blank line after each that spans lines."""
        parts = [p for p in (self.title, self.description or "", self.setup_str()) if p]
        return "\n".join(p + "\n" if "\n" in p else p for p in parts)


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """Times of `number_per_run` runs of a task, each raw time covering one block of runs.
    Statistics are per run; the task's fields read through (m.label, m.num_threads...)."""
    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict | None = None  # the user's

    def __post_init__(self):
        self._sorted_times = ()
        self._warnings = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name):
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self) -> list:
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """A rough count of trustworthy digits (for Compare's trimming): the median over a
        90% interval of the interquartile points' mean, as a power of ten, in [1, 4]."""
        M = _torch()
        self._lazy_init()
        n = len(self._sorted_times)
        middle = self._sorted_times[n // 4:int(M.tensor(3 * n / 4).ceil())]
        std = M.tensor(middle).std(unbiased=False).item()
        root_n = M.tensor(len(middle)).sqrt().item()
        interval = max(1.645 * std / root_n, _MIN_CONFIDENCE_INTERVAL)
        digits = int(M.tensor(M.tensor(self._median / interval).log10().item()).floor())
        return min(max(digits, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self):
        if not self.raw_times or self._sorted_times:
            return
        M = _torch()
        self._sorted_times = tuple(sorted(self.times))
        times = M.tensor(self._sorted_times, dtype=M.float64)
        self._median = times.quantile(.5).item()
        self._mean = times.mean().item()
        self._p25, self._p75 = times.quantile(.25).item(), times.quantile(.75).item()
        for threshold, why in ((_IQR_GROSS_WARN_THRESHOLD,
                                "This suggests significant environmental influence."),
                               (_IQR_WARN_THRESHOLD, "This could indicate system fluctuation.")):
            if not self.meets_confidence(threshold):
                self._warnings += (f"  WARNING: Interquartile range is "
                                   f"{self.iqr / self.median * 100:.1f}% of the median "
                                   f"measurement.\n           {why}",)
                break

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def env(self) -> str:
        return "Unspecified env" if self.task_spec.env is None else self.task_spec.env

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self):
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        threads = self.num_threads
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({self._p25 / scale:.2f} to "
                         f"{self._p75 / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {threads} "
                     f"thread{'s' if threads > 1 else ''}")
        lines += self._warnings
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements):
        """One Measurement per task: the replicates' per-run times together
        (number_per_run 1, no metadata)."""
        by_task = collections.defaultdict(list)
        for m in measurements:
            by_task[m.task_spec].extend(m.times)
        return [Measurement(number_per_run=1, raw_times=times, task_spec=task, metadata=None)
                for task, times in by_task.items()]


def select_unit(t: float):
    """(unit, seconds per unit) bringing t to between 1 and 1000 units."""
    M = _torch()
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(M.tensor(t).log10().item() // 3), "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u: str) -> str:
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x: float, n: int) -> float:
    """x rounded to n significant figures (3.14159, 2 -> 3.1)."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    M = _torch()
    magnitude = int(M.tensor(x).abs().log10().ceil().item())
    scale = 10 ** (magnitude - n)
    return float(M.tensor(x / scale).round() * scale)


def ordered_unique(elements) -> list:
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n: int):
    M = _torch()
    before = M.get_num_threads()
    try:
        M.set_num_threads(n)
        yield
    finally:
        M.set_num_threads(before)
