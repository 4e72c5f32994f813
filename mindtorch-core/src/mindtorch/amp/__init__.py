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

    def _deprecated(self, name):
        import warnings
        d = self.device_type
        warnings.warn(f"`torch.{d}.amp.{name}(args...)` is deprecated. Please use "
                      f"`torch.amp.{name}('{d}', args...)` instead.", FutureWarning,
                      stacklevel=3)
