"""The helpers of torch.optim.optimizer that hand-written optimizers import (copies of
PyTorch's own: `@_use_grad_for_differentiable`, `_get_value`, `_default_to_fused_or_foreach`,
the `ParamsT` annotation, the docstring fragments...), with mindtorch's meaning: on the CPU
no foreach or fused default, as PyTorch's."""
import functools
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .._tensor import Tensor
from ._fused import _FUSED_DEVICES, _check_fused_param

ParamsT = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]
StateDict = dict[str, Any]

_foreach_doc = """foreach (bool, optional): whether the multi-tensor implementation is used
            (default: None, which picks it on devices with foreach kernels)"""
_fused_doc = """fused (bool, optional): whether the fused implementation is used (default: None)"""
_capturable_doc = """capturable (bool, optional): whether this instance can be captured in a
            graph (default: False)"""
_differentiable_doc = """differentiable (bool, optional): whether autograd runs through the
            optimizer step (default: False)"""
_maximize_doc = """maximize (bool, optional): maximize the objective instead of minimizing
            it (default: False)"""
_params_doc = """params (iterable): iterable of parameters or named_parameters to optimize,
            or of dicts defining parameter groups"""


def _use_grad_for_differentiable(func):
    """step() decorated: run with grad mode = the optimizer's `differentiable` default."""
    @functools.wraps(func)
    def _use_grad(*args, **kwargs):
        import mindtorch as M
        previous = M.is_grad_enabled()
        try:
            M.set_grad_enabled(args[0].defaults["differentiable"])
            return func(*args, **kwargs)
        finally:
            M.set_grad_enabled(previous)
    return _use_grad


def _disable_dynamo_if_unsupported(single_tensor_fn=None):
    return lambda func: func


def _get_value(x):
    return x.item() if isinstance(x, Tensor) else x


def _stack_if_compiling(x):
    return x


def _to_scalar(x):
    """A 1-element tensor hyperparameter as a 0-dim tensor; numbers as they are."""
    return x.squeeze() if isinstance(x, Tensor) and x.dim() != 0 else x


def _get_scalar_dtype(is_fused=None):
    import mindtorch as M
    if is_fused:
        return M.float32
    return M.float64 if M.get_default_dtype() is M.float64 else M.float32


def _view_as_real(params, *state_and_grads):
    import mindtorch as M
    for i, p in enumerate(params):
        if p.is_complex():
            params[i] = M.view_as_real(p)
            for s in state_and_grads:
                s[i] = M.view_as_real(s[i])


def _get_foreach_kernels_supported_devices():
    return ["cuda", "xpu", "mtia", "privateuseone"]


def _get_fused_kernels_supported_devices():
    return list(_FUSED_DEVICES)


def _get_capturable_supported_devices(supports_xla=True):
    return ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if supports_xla else [])


def _device_dtype_check_for_fused(p, cuda_unsupported=False):
    _check_fused_param(p)


def _default_to_fused_or_foreach(params, differentiable, use_fused=False):
    """(fused, foreach) when the user gave neither: PyTorch's choice by device (neither on
    the CPU, where it has no foreach kernels)."""
    if differentiable:
        return False, False
    fused = use_fused and all(
        p is None or (isinstance(p, Tensor) and p.device.type in _FUSED_DEVICES
                      and p.is_floating_point()) for p in params)
    foreach_devices = _get_foreach_kernels_supported_devices()
    foreach = not fused and all(
        p is None or (isinstance(p, Tensor) and p.device.type in foreach_devices)
        for p in params)
    return fused, foreach


def _group_tensors_by_device_and_dtype(tensorlistlist, with_indices=False):
    """{(device, dtype): ([the lists' tensors at those indices], indices or [])}, grouped by
    the first list's tensors (in order of first appearance; PyTorch's hash order may
    differ)."""
    groups = defaultdict(list)
    for i, t in enumerate(tensorlistlist[0]):
        groups[(t.device, t.dtype)].append(i)
    return {key: ([[lst[i] for i in idx] for lst in tensorlistlist],
                  idx if with_indices else []) for key, idx in groups.items()}
