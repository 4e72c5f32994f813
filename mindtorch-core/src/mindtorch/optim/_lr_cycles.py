"""torch.optim.lr_scheduler's cyclic schedules, CyclicLR and OneCycleLR, which cycle the
groups' momentum (or Adam's beta1) against the learning rate. Re-exported by
lr_scheduler."""
import math
import types
from functools import partial

from .lr_scheduler import LRScheduler, _check_optimizer, _per_group, _set, _warn_outside_step

__all__ = ["CyclicLR", "OneCycleLR"]


def _momentum_setup(sched, optimizer, base_momentum, max_momentum, fresh):
    """cycle_momentum: the groups' momentum (or Adam's beta1) starts at its maximum."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")
    sched.use_beta1 = "betas" in optimizer.defaults
    maxs = _per_group("max_momentum", optimizer, max_momentum)
    bases = _per_group("base_momentum", optimizer, base_momentum)
    if fresh:
        for hi, lo, group in zip(maxs, bases, optimizer.param_groups):
            _set_momentum(sched, group, hi)
            group["max_momentum"] = hi
            group["base_momentum"] = lo
    return maxs, bases


def _set_momentum(sched, group, value):
    if sched.use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


class CyclicLR(LRScheduler):
    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _set(group, "lr", lr)
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            maxs, bases = _momentum_setup(self, optimizer, base_momentum, max_momentum,
                                          last_epoch == -1)
            self.base_momentums, self.max_momentums = bases, maxs  # (state_dict's key order)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = self._triangular_scale_fn, "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = self._triangular2_scale_fn, "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x):
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x):
        return gamma ** x

    def get_lr(self):
        _warn_outside_step(self)
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base + (hi - base) * scale_factor * scale
               for base, hi in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, lo, hi in zip(self.optimizer.param_groups, self.base_momentums,
                                     self.max_momentums):
                _set_momentum(self, group, hi - (hi - lo) * scale_factor * scale)
        return lrs

    def state_dict(self):
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85,
                 max_momentum=0.95, div_factor=25.0, final_div_factor=1e4, three_phase=False,
                 last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError("Expected positive integer steps_per_epoch, but got "
                                 f"{steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        up = float(pct_start * self.total_steps) - 1

        def phase(end_step, lr, momentum):
            return {"end_step": end_step, "start_lr": lr[0], "end_lr": lr[1],
                    "start_momentum": momentum[0], "end_momentum": momentum[1]}
        lo_hi, hi_lo = ("base_momentum", "max_momentum"), ("max_momentum", "base_momentum")
        if three_phase:
            self._schedule_phases = [
                phase(up, ("initial_lr", "max_lr"), hi_lo),
                phase(float(2 * pct_start * self.total_steps) - 2, ("max_lr", "initial_lr"),
                      lo_hi),
                phase(self.total_steps - 1, ("initial_lr", "min_lr"),
                      ("max_momentum", "max_momentum"))]
        else:
            self._schedule_phases = [phase(up, ("initial_lr", "max_lr"), hi_lo),
                                     phase(self.total_steps - 1, ("max_lr", "min_lr"), lo_hi)]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for lr, group in zip(max_lrs, self.optimizer.param_groups):
                group["initial_lr"] = lr / div_factor
                group["max_lr"] = lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _momentum_setup(self, optimizer, base_momentum, max_momentum, last_epoch == -1)
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start, end, pct):
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _annealing_linear(start, end, pct):
        return (end - start) * pct + start

    def get_lr(self):
        _warn_outside_step(self)
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps "
                             f"is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, ph in enumerate(self._schedule_phases):
                end = ph["end_step"]
                if step <= end or i == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lrs.append(self._anneal_func(group[ph["start_lr"]], group[ph["end_lr"]],
                                                 pct))
                    if self.cycle_momentum:
                        _set_momentum(self, group, self._anneal_func(
                            group[ph["start_momentum"]], group[ph["end_momentum"]], pct))
                    break
                start = ph["end_step"]
        return lrs
