"""torch.amp: GradScaler (loss scaling, on any device) and autocast (autocast_mode.py)."""
from .autocast_mode import (  # noqa: F401
    autocast, custom_bwd, custom_fwd, get_autocast_dtype, is_autocast_available,
    is_autocast_enabled, set_autocast_dtype)
from .grad_scaler import GradScaler  # noqa: F401


class _DeviceAmp:
    """torch.cuda.amp's deprecated spellings: GradScaler and autocast bound to one device."""

    def __init__(self, device_type):
        self.device_type = device_type

    def GradScaler(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,  # noqa: N802
                   growth_interval=2000, enabled=True):
        self._deprecated("GradScaler")
        return GradScaler(self.device_type, init_scale, growth_factor, backoff_factor,
                          growth_interval, enabled)

    def autocast(self, enabled=True, dtype=None, cache_enabled=True):
        self._deprecated("autocast")
        return autocast(self.device_type, dtype, enabled, cache_enabled)

    def _deprecated(self, name, new=None):
        import warnings
        d = self.device_type
        new = new or f"torch.amp.{name}('{d}', args...)"
        warnings.warn(f"`torch.{d}.amp.{name}(args...)` is deprecated. Please use `{new}` "
                      f"instead.", FutureWarning, stacklevel=3)


class _CudaAmp(_DeviceAmp):
    """torch.cuda.amp also has the custom Function decorators (deprecated spellings)."""

    def __init__(self):
        super().__init__("cuda")

    def custom_fwd(self, fwd=None, *, cast_inputs=None):
        self._deprecated("custom_fwd", "torch.amp.custom_fwd(args..., device_type='cuda')")
        return custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)

    def custom_bwd(self, bwd):
        self._deprecated("custom_bwd", "torch.amp.custom_bwd(args..., device_type='cuda')")
        return custom_bwd(bwd, device_type="cuda")
