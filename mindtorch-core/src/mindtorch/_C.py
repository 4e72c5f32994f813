"""torch._C's names of the __torch_function__ protocol (mindtorch has no C extension; the
protocol lives in mindtorch.overrides)."""
from ._tensor import Tensor as TensorBase
from .overrides import (  # noqa: F401
    DisableTorchFunction, DisableTorchFunctionSubclass, _disabled_torch_function_impl,
    _get_function_stack_at, _has_torch_function, _has_torch_function_unary,
    _has_torch_function_variadic, _is_torch_function_all_disabled, _is_torch_function_enabled,
    _is_torch_function_mode_enabled, _len_torch_function_stack, _pop_torch_function_stack,
    _push_on_torch_function_stack,
)

_TensorBase = TensorBase
