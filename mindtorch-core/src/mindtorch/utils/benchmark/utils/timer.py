"""Timer: PyTorch's benchmark timer over timeit (time.perf_counter).  A statement runs in
blocks of `number` runs; the block size is grown until the timer's own overhead is
negligible, then blocks are timed until enough time (and, adaptively, a narrow enough
spread) is reached."""
import enum
import textwrap
import timeit

from . import common

__all__ = ["Timer", "timer", "Language"]

timer = timeit.default_timer


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def _tidy(code):
    """Snippets written as indented block strings: dedented, the opening newline and the
    trailing whitespace dropped (what runs is the same; reprs read better)."""
    code = textwrap.dedent(code)
    return (code[1:] if code[:1] == "\n" else code).rstrip()


class Timer:
    """Times `stmt` after `setup`, in `globals` (which get `torch`, this library, unless
    given), with `num_threads` intra-op threads; label / sub_label / description / env
    name the task in reprs and in Compare's tables."""

    _timer_cls = timeit.Timer

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1,
                 language=Language.PYTHON):
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})  # (a copy: running adds __builtins__)
        if language in (Language.PYTHON, "py", "python"):
            import mindtorch
            self._globals.setdefault("torch", mindtorch)
            self._language = Language.PYTHON
            if global_setup:
                raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most "
                                 f"likely this code can simply be moved to `setup`.")
        elif language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("mindtorch.utils.benchmark.Timer times Python "
                                      "statements only (no C++ toolchain)")
        else:
            raise ValueError(f"Invalid language `{language}`.")
        stmt, setup = _tidy(stmt), _tidy(setup)
        self._timer = self._timer_cls(stmt=stmt, setup=setup, timer=timer,
                                      globals=self._globals)
        self._task_spec = common.TaskSpec(
            stmt=stmt, setup=setup, global_setup=global_setup, label=label,
            sub_label=sub_label, description=description, env=env, num_threads=num_threads)

    def _timeit(self, number):
        # (no real statement takes under a nanosecond; this also keeps ratios finite)
        return max(self._timer.timeit(number), 1e-9)

    def timeit(self, number=1000000):
        """One block of `number` runs after a warm-up of a hundredth of it (as timeit)."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            return common.Measurement(number_per_run=number,
                                      raw_times=[self._timeit(number=number)],
                                      task_spec=self._task_spec)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _threaded_measurement_loop(self, number, time_hook, stop_hook, min_run_time,
                                   max_run_time=None, callback=None):
        """Blocks timed until min_run_time has passed and stop_hook agrees (or past
        max_run_time)."""
        times, total, can_stop = [], 0.0, False
        with common.set_torch_threads(self._task_spec.num_threads):
            while total < min_run_time or not can_stop:
                spent = time_hook()
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop_hook(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def _estimate_block_size(self, min_run_time):
        """Runs per block: ten times more until the timer's overhead (median of five empty
        blocks) is at most 1e-4 of a block lasting min_run_time / 1000, or a block alone
        exceeds min_run_time.  Also the warm-up."""
        import statistics
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = statistics.median_low([self._timeit(0) for _ in range(5)])
            number = 1
            while True:
                taken = self._timeit(number)
                if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                    break
                if taken > min_run_time or number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def _summarize_results(self, number, times):
        return common.Measurement(number_per_run=number, raw_times=times,
                                  task_spec=self._task_spec)

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of the estimated size, timed until min_run_time has passed;
        callback(number, seconds) after each."""
        number = self._estimate_block_size(min_run_time)
        times = self._threaded_measurement_loop(
            number, lambda: self._timeit(number), lambda times: True,
            min_run_time=min_run_time, callback=callback)
        return self._summarize_results(number, times)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0,
                           callback=None):
        """Blocks timed until more than three are in, min_run_time has passed and their
        interquartile range is below `threshold` of the median (or max_run_time passed)."""
        number = self._estimate_block_size(min_run_time=0.05)

        def narrow_enough(times):
            return len(times) > 3 and common.Measurement(
                number_per_run=number, raw_times=times,
                task_spec=self._task_spec).meets_confidence(threshold=threshold)
        times = self._threaded_measurement_loop(number, lambda: self._timeit(number),
                                                narrow_enough, min_run_time, max_run_time,
                                                callback=callback)
        return self._summarize_results(number, times)
