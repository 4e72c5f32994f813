"""torch.profiler as training scripts use it: profile (with a schedule stepping through
wait / warmup / active phases and on_trace_ready), record_function, ProfilerActivity,
schedule, tensorboard_trace_handler.  What a profile records (ops, record_function ranges,
a ProfilerStep#<n> range per step) is mindtorch.autograd.profiler's."""
import enum
import os
import socket
import time
import warnings

from .autograd import profiler as _legacy
from ._warn_once import warn_once
from .autograd.profiler import record_function

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "record_function", "schedule",
           "tensorboard_trace_handler"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities():
    return {ProfilerActivity.CPU}


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """The action for each step: after skip_first steps, cycles of wait (NONE), warmup
    (WARMUP) and active steps (RECORD, the last RECORD_AND_SAVE), repeat times (0:
    forever); skip_first_wait drops the first cycle's wait."""
    if not (wait >= 0 and warmup >= 0 and active > 0 and repeat >= 0 and skip_first >= 0):
        raise AssertionError("Invalid profiler schedule arguments")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        k = step % cycle
        if k < wait:
            return ProfilerAction.NONE
        if k < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if k < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return schedule_fn


def _always_record(_):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """on_trace_ready writing each trace as <worker>.<time>.pt.trace.json in dir_name."""
    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, name))
    return handler


class profile(_legacy.profile):
    """torch.profiler.profile: records while its schedule's action is RECORD or
    RECORD_AND_SAVE (each active phase starts a new trace); on_trace_ready runs at the end
    of each active phase, and at exit if recording."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False,
                 with_flops=False, with_modules=False, experimental_config=None,
                 execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        super().__init__(record_shapes=record_shapes, with_stack=with_stack)
        self.activities = set(activities) if activities else supported_activities()
        self.schedule = schedule or _always_record
        self.record_steps = schedule is not None  # (ProfilerStep#<n> ranges: with a schedule)
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(0)
        self.function_events = _legacy.EventList()
        self.acc_events = acc_events
        self._traced = False  # (whether a trace was started: the next one clears it)
        self._step_range = None

    def start(self):
        self._sync()

    def stop(self):
        self._close_step()
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._finish_trace()
        _legacy.stop_recording(self)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def step(self):
        self._close_step()
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev == ProfilerAction.RECORD_AND_SAVE or (
                prev == ProfilerAction.RECORD and self.current_action == ProfilerAction.NONE):
            self._finish_trace()
        if prev in (ProfilerAction.NONE, ProfilerAction.RECORD_AND_SAVE) and \
                self.current_action != ProfilerAction.NONE:  # (warmup or record: PyTorch's
            self._new_trace()                                  # trace starts empty there)
        self._sync()

    def _sync(self):
        if self.current_action != ProfilerAction.NONE:
            self._traced = True
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            _legacy.start_recording(self)
            if self.record_steps:
                self._step_range = _legacy.record_function(f"ProfilerStep#{self.step_num}")
                self._step_range.__enter__()
        else:
            _legacy.stop_recording(self)

    def _new_trace(self):
        if self._traced and not self.acc_events:
            warn_once("profiler clears events", "Warning: Profiler clears events at the end "
                      "of each cycle. Only events from the current cycle will be reported. To "
                      "keep events across cycles, set acc_events=True.")
        if not self.acc_events:
            self.function_events = _legacy.EventList()

    def _close_step(self):
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
            self._step_range = None

    def _finish_trace(self):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def export_memory_timeline(self, path, device=None):
        raise NotImplementedError("mindtorch's profiler records no memory timeline")
