"""torch.amp.GradScaler: the loss is multiplied by a scale before backward; unscale_ divides
the gradients back and records whether any is inf/NaN; step skips the optimizer's step
when one was; update shrinks the scale after such a step and grows it after
growth_interval clean ones.  Computed with mindtorch ops (any device)."""
import enum
import warnings
from collections import defaultdict
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
            self._init_growth_tracker = self._growth_tracker = 0
            self._per_optimizer_states = defaultdict(_fresh_state)

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
        return self._per_optimizer_states[id(optimizer)]

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        """The optimizer's gradients times inv_scale (a sparse one: its values); returns
        {device: 1.0 if one of them had an inf or NaN else found_inf}, as PyTorch's."""
        import mindtorch
        grads = []
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not allow_fp16 and p.grad.dtype is mindtorch.float16:
                    raise ValueError("Attempting to unscale FP16 gradients.")
                if p.grad.is_sparse:
                    grads.append(_writable_values(p))
                else:
                    grads.append(p.grad)
        found = {}
        with mindtorch.no_grad():
            for g in grads:
                f = found.setdefault(g.device, found_inf.to(g.device, copy=True))
                f.add_((~g.isfinite()).any().to(f.dtype)).clamp_(max=1.0)
                g.mul_(inv_scale.to(g.device, g.dtype) if g.dtype.is_floating_point else inv_scale)
        return found

    def _check_inf_per_device(self, optimizer):
        import mindtorch
        one = mindtorch.full((), 1.0, dtype=mindtorch.float32, device=self._scale.device)
        zero = mindtorch.full((), 0.0, dtype=mindtorch.float32, device=self._scale.device)
        found = self._unscale_grads_(optimizer, one, zero, True)
        self._state(optimizer)["found_inf_per_device"] = found
        return found

    def _found_inf_per_device(self, optimizer):
        return self._state(optimizer)["found_inf_per_device"]

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
        inv = self._scale.double().reciprocal().float()
        found = mindtorch.zeros((), dtype=mindtorch.float32, device=self._scale.device)
        # (no gradient: no inf check recorded, which step / update refuse)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv, found, False)
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
        if not state["found_inf_per_device"]:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        result = None
        if not sum(v.item() for v in state["found_inf_per_device"].values()):
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
            found = [f for s in self._per_optimizer_states.values()
                     for f in s["found_inf_per_device"].values()]
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
        self._per_optimizer_states = defaultdict(_fresh_state)

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


def _writable_values(p):
    """The values of p's sparse gradient, to unscale in place: coalesced for float16 (as
    PyTorch: duplicates could overflow once summed), materialized when they are a
    broadcast view (an embedding's backward)."""
    import mindtorch
    g = p.grad
    if g.dtype is mindtorch.float16:
        g = p.grad = g.coalesce()
    values = g._values()
    if not values.is_contiguous():
        g = p.grad = mindtorch.sparse_coo_tensor(g._indices(), values.contiguous(), g.shape,
                                                 is_coalesced=g.is_coalesced())
        values = g._values()
    return values


def _fresh_state():
    return {"stage": _READY, "found_inf_per_device": {}}


def _cuda_available():
    import mindtorch
    return bool(mindtorch.cuda.is_available())
