"""torch.accelerator: the one accelerator device type a script trains on, as backend
plugins provide it (npu, cuda, ...); cpu and meta are not accelerators.  Scripts write
`torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else
"cpu"`."""
from ._device import device as _device

_HOST = ("cpu", "meta")


def _spec():
    """The first registered accelerator's device spec whose runtime is available."""
    from .plugins._registry import DEVICES
    for name, spec in DEVICES.items():
        module = spec.module
        if name not in _HOST and module is not None and \
                getattr(module, "is_available", lambda: False)():
            return spec
    return None


def is_available():
    return _spec() is not None


def current_accelerator(check_available=False):
    """The accelerator's device (index-less), or None when there is none."""
    spec = _spec()
    return None if spec is None else _device(spec.type)


def device_count():
    spec = _spec()
    return 0 if spec is None else int(getattr(spec.module, "device_count", lambda: 1)())


def _module(what):
    spec = _spec()
    if spec is None:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    fn = getattr(spec.module, what, None)
    if fn is None:
        raise RuntimeError(f"the '{spec.type}' backend does not provide {what}()")
    return fn


def current_device_index():
    return _module("current_device")()


def set_device_index(device):
    index = device.index if isinstance(device, _device) else device
    _module("set_device")(index)


def synchronize(device=None):
    _module("synchronize")() if device is None else _module("synchronize")(device)


current_device_idx, set_device_idx = current_device_index, set_device_index
