"""torch.device, plus the `with mindtorch.device(...)` default-device context."""
from _thread import _local as _thread_local  # threading.local, without importing threading

# Names accepted even when no plugin provides them yet, so that code mentioning
# e.g. "npu:0" or "mps" parses (PyTorch's device types, in its order, and npu); using
# them then fails clearly.
_TORCH_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")
_WELL_KNOWN = set(_TORCH_TYPES) | {"npu"}
_state = _thread_local()


def _known_types():
    from .plugins._registry import DEVICES
    return _WELL_KNOWN | DEVICES.keys()


class device:
    __slots__ = ("type", "index", "_prev")

    def __new__(cls, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): a device object cannot be combined with an index")
            return type
        if isinstance(type, int) and not isinstance(type, bool):
            index, type = type, _default_accelerator()
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__})")
        if not type:
            raise RuntimeError("Device string must not be empty")
        name, sep, idx = type.partition(":")
        # (PyTorch's type is letters and '_'; a registered plugin's may have digits too)
        if not (name.isascii() and name.replace("_", "a").isalpha() or name in _known_types()) \
                or sep and not (idx.isascii() and idx.isdigit() and (idx == "0" or idx[0] != "0")):
            raise RuntimeError(f"Invalid device string: '{type}'")  # (float32, cuda:x, cpu:01)
        if sep:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            index = int(idx)
        if name not in _known_types():
            listed = _TORCH_TYPES + tuple(sorted(_known_types() - set(_TORCH_TYPES)))
            raise RuntimeError(f"Expected one of {', '.join(listed)} device type at start of "
                               f"device string: {type}")
        if index is not None and (not isinstance(index, int) or index < 0):
            if not isinstance(index, int):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not "
                                f"{index.__class__.__name__}")
            raise RuntimeError("Device index must not be negative")
        self = object.__new__(cls)
        self.type = name
        self.index = index
        return self

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):  # like torch: a device never equals a string
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (str(self),))

    # `with mindtorch.device("meta"):` makes factories default to that device
    def __enter__(self):
        stack = getattr(_state, "stack", None)
        if stack is None:
            stack = _state.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _state.stack.pop()


def _default_accelerator():
    """The device type of a bare index (device(0), .to(0)): the available accelerator's; an
    error without one, as PyTorch's."""
    from .accelerator import current_accelerator
    acc = current_accelerator()
    if acc is None:
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return acc.type


_global = [None]  # set_default_device's device, beneath every `with device(...)` block


def set_global_default(d):
    _global[0] = d


def default_device():
    stack = getattr(_state, "stack", None)
    return stack[-1] if stack else _global[0]


_CANONICAL = {}
_HOST_NAMES = {}  # "cpu", "meta:0", ...: their canonical device (no current-device lookup)


def canonical(d):
    """The one shared device object for d, so tensors compare devices with `is`.
    An index-less accelerator device means its current device."""
    if type(d) is str:
        c = _HOST_NAMES.get(d)
        if c is not None:
            return c
        c = canonical(device(d))
        if c.type in ("cpu", "meta"):
            _HOST_NAMES[d] = c
        return c
    if type(d) is not device:
        d = device(d)
    if d.type in ("cpu", "meta"):  # one host: tensors' devices carry no index (as torch)
        if d.index is not None:
            d = device(d.type)
    elif d.index is None:
        from .plugins._registry import DEVICES
        spec = DEVICES.get(d.type)
        current = getattr(spec.module, "current_device", None) if spec else None
        d = device(d.type, current() if current else 0)
    key = (d.type, d.index)
    c = _CANONICAL.get(key)
    if c is None:
        c = _CANONICAL[key] = d
    return c


def as_device(d):
    """Normalise a device argument (None, str, int or device) to a device or None."""
    if d is None or type(d) is device:
        return d
    return device(d)
