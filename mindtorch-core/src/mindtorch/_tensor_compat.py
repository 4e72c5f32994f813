"""Tensor methods kept for PyTorch compatibility, installed on Tensor at import:
the deprecated out-of-place resize / resize_as (autograd's Resize: a reshape that keeps
the element count), record_stream (streams belong to accelerators), module_load (what
load_state_dict's swap path calls), map2_, and the legacy attributes name, volatile,
_backward_hooks and is_<device> of devices mindtorch has no backend for."""
import functools
import operator
import warnings

from ._legacy_types import storage_type
from ._tensor import Tensor


def requires_grad_keyword(keyword):
    """Tensor.requires_grad_'s argument given by keyword, checked as PyTorch's parser."""
    (name, value), *rest = keyword.items()
    if name != "requires_grad" or rest:
        bad = name if name != "requires_grad" else rest[0][0]
        raise TypeError(f"requires_grad_() got an unexpected keyword argument '{bad}'")
    if not isinstance(value, bool):
        raise TypeError(f"requires_grad_(): argument 'requires_grad' must be bool, not "
                        f"{type(value).__name__}")
    return value


def _check_numel(tensor, sizes):
    numel = functools.reduce(operator.mul, sizes, 1)
    if tensor.numel() != numel:
        raise RuntimeError(
            f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), "
            f"but the given tensor has a size of {'x'.join(map(str, tensor.size()))} "
            f"({tensor.numel()} elements). autograd's resize can only change the shape of a "
            f"given tensor, while preserving the number of elements. ")


@functools.cache
def _resize():
    """autograd's Resize (node ResizeBackward, as PyTorch's), made on first use so that
    `import mindtorch` does not import autograd.function."""
    from .autograd.function import Function
    
    class Resize(Function):
        @staticmethod
        def forward(ctx, tensor, sizes):
            _check_numel(tensor, sizes)
            ctx.input_sizes = tensor.size()
            return tensor.contiguous().view(*sizes)

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output.contiguous().view(ctx.input_sizes), None
    return Resize


def resize(self, *sizes):
    warnings.warn("non-inplace resize is deprecated", stacklevel=2)
    return _resize().apply(self, sizes)


def resize_as(self, tensor):
    warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
    return _resize().apply(self, tensor.size())


def record_stream(self, stream):
    """Marks the tensor as used by a device stream (torch.Stream); mindtorch has no such
    streams (torch.cpu.Stream is not one either: PyTorch refuses it the same way)."""
    raise RuntimeError("unknown parameter type")


def module_load(self, other, assign=False):
    """How load_state_dict's swap path turns a state-dict value into the new
    parameter/buffer: other itself when assigning, else self updated in place (each
    detached, so never self or other)."""
    if assign:
        return other.detach()
    return self.copy_(other).detach()


def map2_(self, x, y, callable):
    """self[i] = callable(self[i], x[i], y[i]), x and y broadcast to self's shape."""
    return self._apply_python("map2_", callable, self, x.expand_as(self), y.expand_as(self))


def _volatile(self):
    warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
    return False


def _on(device_type):
    return property(lambda self: self.device.type == device_type,
                    doc=f"Whether the tensor is on a {device_type} device.")


# PyTorch's CPU build's errors for Tensor.<device>() to a device type no installed backend
# provides
_ABSENT = {
    "xpu": (AssertionError, "Torch not compiled with XPU enabled"),
    "ipu": (RuntimeError, "PyTorch is not linked with support for ipu devices"),
    "mtia": (AssertionError, "Torch not compiled with MTIA enabled. Ensure you have `import "
                             "mtia.host_runtime.torch_mtia.dynamic_library` in your python src "
                             "file and include `//mtia/host_runtime/torch_mtia:torch_mtia` as "
                             "your target dependency!"),
}


def _to_device_type(device_type):
    """Tensor.xpu / ipu / mtia: a copy on that device type (index `device`)."""
    def method(self, device=None, non_blocking=False, memory_format=None):
        from ._device import device as device_
        from .plugins._registry import DEVICES
        if device_type not in DEVICES:
            error, message = _ABSENT[device_type]
            raise error(message)
        d = device if isinstance(device, (str, device_)) else device_(device_type, device)
        fmt = {} if memory_format is None else {"memory_format": memory_format}
        return self.to(d, non_blocking=non_blocking, **fmt)
    method.__name__ = device_type
    return method


def _backward_hooks(self):
    """The hooks register_hook added (by handle id), None before the first."""
    if self._grad_fn is None:
        meta = self._autograd_meta
        return None if meta is None else meta.get("leaf_hooks")
    table = self.grad_fn._tensor_pre_hooks
    return None if table is None else table.get(self._output_nr)


for _fn in (resize, resize_as, record_stream, module_load, map2_,
            *map(_to_device_type, _ABSENT)):
    setattr(Tensor, _fn.__name__, _fn)
Tensor.storage_type = storage_type
Tensor.name = None  # (a legacy attribute: a tensor's name is None)
Tensor.volatile = property(_volatile)
Tensor._backward_hooks = property(_backward_hooks)
for _type in ("xla", "ipu", "maia", "mtia", "vulkan"):
    setattr(Tensor, f"is_{_type}", _on(_type))
