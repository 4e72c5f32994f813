"""torch.amp: GradScaler (loss scaling, on any device) and autocast.

mindtorch has no autocast yet: an autocast region that PyTorch would enable raises
NotImplementedError (rather than silently computing in the wrong precision); one that
PyTorch disables (enabled=False, or device_type 'cuda' without CUDA) runs as it is."""
from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401


class _DeviceAmp:
    """torch.cuda.amp's deprecated spellings: GradScaler and autocast bound to one device."""

    def __init__(self, device_type):
        self.device_type = device_type

    def GradScaler(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,  # noqa: N802
                   growth_interval=2000, enabled=True):
        return GradScaler(self.device_type, init_scale, growth_factor, backoff_factor,
                          growth_interval, enabled)

    def autocast(self, enabled=True, dtype=None, cache_enabled=True):
        return autocast(self.device_type, dtype, enabled, cache_enabled)


def is_autocast_enabled(device_type=None):
    return False
