"""torch.amp.GradScaler: the loss is multiplied by a scale before backward; unscale_ divides
the gradients back and records whether any is inf/NaN; step skips the optimizer's step
when one was; update shrinks the scale after such a step and grows it after
growth_interval clean ones.  Computed with mindtorch ops (any device)."""
import enum
import warnings
from collections.abc import Iterable


class OptState(enum.Enum):
    """An optimizer's stage in the iteration (_per_optimizer_states[id(opt)]["stage"],
    which libraries read as PyTorch's)."""
    READY = 0
    UNSCALED = 1
    STEPPED = 2


_READY, _UNSCALED, _STEPPED = OptState.READY, OptState.UNSCALED, OptState.STEPPED


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        if enabled and device == "cuda" and not _cuda_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", stacklevel=2)
            enabled = False
        self._enabled = enabled
        if enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale, self._growth_factor = init_scale, growth_factor
            self._backoff_factor, self._growth_interval = backoff_factor, growth_interval
            self._scale = None  # a float32 tensor on the outputs' device, made by scale()
            self._growth_tracker = 0
            self._per_optimizer_states = {}

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        """outputs (a tensor or nested lists/tuples of tensors) times the scale."""
        if not self._enabled:
            return outputs
        import mindtorch
        if isinstance(outputs, mindtorch.Tensor):
            if self._scale is None:
                self._scale = mindtorch.full((), self._init_scale, dtype=mindtorch.float32,
                                             device=outputs.device)
            return outputs * self._scale.to(outputs.device)
        if isinstance(outputs, Iterable):  # (as PyTorch: other iterables give a lazy map)
            scaled = map(self.scale, outputs)
            return type(outputs)(scaled) if isinstance(outputs, (list, tuple)) else scaled
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer),
                                                     {"stage": _READY, "found_inf": None})

    def unscale_(self, optimizer):
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state["stage"] is _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] is _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        if self._scale is None:
            raise AssertionError("Attempted unscale_ but _scale is None.  This may indicate "
                                 "your script did not use scaler.scale(loss or outputs) earlier "
                                 "in the iteration.")
        import mindtorch
        if any(p.grad is not None and p.grad.dtype is mindtorch.float16
               for group in optimizer.param_groups for p in group["params"]):
            raise ValueError("Attempting to unscale FP16 gradients.")
        inv = self._scale.double().reciprocal().float()
        found = mindtorch.zeros((), dtype=mindtorch.float32, device=self._scale.device)
        grads = False  # (no gradient: no inf check recorded, which step / update refuse)
        with mindtorch.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    g, grads = p.grad, True
                    found = found + (~g.isfinite()).any().to(found.device, mindtorch.float32)
                    g.mul_(inv.to(g.device, g.dtype) if g.dtype.is_floating_point else inv)
        state["found_inf"] = found.clamp(max=1.0) if grads else None
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        if self._scale is None:
            raise AssertionError("Attempted step but _scale is None.  This may indicate your "
                                 "script did not use scaler.scale(loss or outputs) earlier in "
                                 "the iteration.")
        state = self._state(optimizer)
        if state["stage"] is _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is _READY:
            self.unscale_(optimizer)
        if state["found_inf"] is None:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = None
        if not state["found_inf"].item():
            result = optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return result

    def update(self, new_scale=None):
        if not self._enabled:
            return
        if self._scale is None:
            raise AssertionError("Attempted update but _scale is None.  This may indicate your "
                                 "script did not use scaler.scale(loss or outputs) earlier in "
                                 "the iteration.")
        if isinstance(new_scale, float):
            self._scale.fill_(new_scale)
        elif new_scale is not None:  # (PyTorch's checks: a tensor, else its AttributeError)
            reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                      "torch.FloatTensor with requires_grad=False.")
            if new_scale.device.type != self._scale.device.type or new_scale.numel() != 1 or \
                    new_scale.requires_grad:
                raise AssertionError(reason)
            self._scale.copy_(new_scale.reshape(()))
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values()
                     if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(f.item() for f in found):
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = self._scale * self._growth_factor
                    if grown.isfinite().item():
                        self._scale.copy_(grown)
                    self._growth_tracker = 0
        self._per_optimizer_states = {}

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        return self._growth_tracker if self._enabled else 0

    def __getstate__(self):
        if self._enabled and self._per_optimizer_states:
            raise AssertionError("A GradScaler instance may only be pickled at the beginning "
                                 "of an iteration, or at the end after scaler.update().")
        return dict(self.__dict__)

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]


def _cuda_available():
    import mindtorch
    return bool(mindtorch.cuda.is_available())
