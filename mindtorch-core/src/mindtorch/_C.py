"""torch._C's names of the __torch_function__ protocol (mindtorch has no C extension; the
protocol lives in mindtorch.overrides), and the few private helpers libraries call."""
import sys as _sys
import types as _types

from ._tensor import Tensor as TensorBase
from .overrides import (  # noqa: F401
    DisableTorchFunction, DisableTorchFunctionSubclass, _disabled_torch_function_impl,
    _get_function_stack_at, _has_torch_function, _has_torch_function_unary,
    _has_torch_function_variadic, _is_torch_function_all_disabled, _is_torch_function_enabled,
    _is_torch_function_mode_enabled, _len_torch_function_stack, _pop_torch_function_stack,
    _push_on_torch_function_stack,
)

_TensorBase = TensorBase


def _log_api_usage_once(event):
    """PyTorch's usage logging (torchvision calls it in every model's __init__): mindtorch
    logs nothing, but refuses a non-str event as PyTorch does."""
    if not isinstance(event, str):
        raise TypeError("bad argument type for built-in operation")


def _get_tracing_state():
    return None  # (no TorchScript tracer is ever active)


def _parse_to(*args, **kwargs):
    """(device, dtype, non_blocking, memory_format) from Module.to's arguments."""
    from ._creation import _parse_to_no_copy
    return _parse_to_no_copy(*args, **kwargs)


# torch._C._nn: Lightning's device/dtype mixin parses Module.to's arguments with it
_nn = _types.ModuleType(__name__ + "._nn")
_nn._parse_to = _parse_to
_sys.modules[_nn.__name__] = _nn
