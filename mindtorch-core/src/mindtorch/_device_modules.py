"""`import mindtorch.npu`, `from mindtorch.cuda.amp import GradScaler`: the device modules
(`mindtorch.<device type>`) are objects that backends register, or the no-CUDA stand-in,
not files of this package.  Attribute access reaches them through mindtorch.__getattr__;
this finder lets import statements reach them (and their submodule-like attributes) too.
It sits after the standard finders, so it only answers names no file provides."""
import importlib.abc
import importlib.util
import sys

_PREFIX = "mindtorch."


def device_module(name):
    """The object exposed as mindtorch.<name>, or None."""
    from .plugins import _registry
    spec = _registry.DEVICES.get(name)
    if spec is not None and spec.module is not None:
        if not hasattr(spec.module, "amp"):  # torch.cpu.amp.autocast (deprecated spelling)
            from .amp import _DeviceAmp
            spec.module.amp = _DeviceAmp(name)
        return spec.module
    if name == "cuda":
        from . import _no_cuda
        return _no_cuda
    return _absent(name)


_ABSENT = {}


def _absent(name):
    """The stand-in of a device type no backend provides (xpu, mps, mtia), or None."""
    if name not in _ABSENT:
        from . import _absent_devices
        _ABSENT[name] = _absent_devices.module(name)
    return _ABSENT[name]


def get_device_module(device=None):
    """torch.get_device_module: the module of a device (type) -- mindtorch.cpu, .cuda, a
    plugin's -- or of the current accelerator when None (cpu without one)."""
    from ._device import device as _device
    if device is None:
        from . import accelerator
        acc = accelerator.current_accelerator()
        name = acc.type if acc is not None else "cpu"
    else:
        name = device.type if isinstance(device, _device) else _device(device).type
    module = device_module(name)
    if module is None:
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered "
                           f"as 'torch.{name}'.")
    return module


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        head, *rest = fullname[len(_PREFIX):].split(".")
        obj = device_module(head)
        for part in rest:
            if obj is None:
                return None
            obj = getattr(obj, part, None)
        if obj is None:
            return None
        # a package (it has __path__): its own attributes can be imported in turn
        spec = importlib.util.spec_from_loader(fullname, self, is_package=True)
        spec.loader_state = obj, getattr(obj, "__spec__", None)
        return spec

    def create_module(self, spec):
        return spec.loader_state[0]

    def exec_module(self, module):
        """Nothing to run: the object exists already.  A module of its own package
        keeps its own spec (importing set ours)."""
        original = module.__spec__.loader_state[1]
        if original is not None:
            module.__spec__ = original


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
