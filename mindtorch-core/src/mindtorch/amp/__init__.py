"""torch.amp: GradScaler (loss scaling, on any device) and autocast (autocast_mode.py)."""
from .autocast_mode import (  # noqa: F401
    autocast, custom_bwd, custom_fwd, get_autocast_dtype, is_autocast_available,
    is_autocast_enabled, set_autocast_dtype)
from .grad_scaler import GradScaler  # noqa: F401


def _deprecated(device_type, name, new=None, stacklevel=3):
    import warnings
    new = new or f"torch.amp.{name}('{device_type}', args...)"
    warnings.warn(f"`torch.{device_type}.amp.{name}(args...)` is deprecated. Please use "
                  f"`{new}` instead.", FutureWarning, stacklevel=stacklevel)


_DEVICE_CLASSES = {}  # device type -> (GradScaler, autocast): one pair, so isinstance holds


def _device_classes(device_type):
    """torch.<device>.amp's GradScaler and autocast: subclasses of torch.amp's bound to the
    device (isinstance / subclassing work as with PyTorch's), warning at construction."""
    classes = _DEVICE_CLASSES.get(device_type)
    if classes is not None:
        return classes

    class DeviceGradScaler(GradScaler):
        def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                     growth_interval=2000, enabled=True):
            _deprecated(device_type, "GradScaler")
            super().__init__(device_type, init_scale, growth_factor, backoff_factor,
                             growth_interval, enabled)

    class DeviceAutocast(autocast):
        def __init__(self, enabled=True, dtype=None, cache_enabled=True):
            _deprecated(device_type, "autocast")
            super().__init__(device_type, dtype, enabled, cache_enabled)

    for cls, name, module in ((DeviceGradScaler, "GradScaler", "grad_scaler"),
                              (DeviceAutocast, "autocast", "autocast_mode")):
        cls.__name__ = cls.__qualname__ = name
        cls.__module__ = f"mindtorch.{device_type}.amp.{module}"
    classes = _DEVICE_CLASSES[device_type] = DeviceGradScaler, DeviceAutocast
    return classes


class _DeviceAmp:
    """torch.<device>.amp: the deprecated spellings of GradScaler and autocast."""

    def __init__(self, device_type):
        self.device_type = device_type
        self.GradScaler, self.autocast = _device_classes(device_type)

    def _deprecated(self, name, new=None):  # (warned at the caller of the calling method)
        _deprecated(self.device_type, name, new, stacklevel=4)


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
