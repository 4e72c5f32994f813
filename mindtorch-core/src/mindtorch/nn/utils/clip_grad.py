"""torch.nn.utils.clip_grad: gradient clipping by total norm or by value, through mindtorch
ops (so on any device). ``foreach`` is accepted: the per-tensor loop is the only
implementation (PyTorch's foreach path computes the same values; clip_grad_value_ follows
its op order, which names clamp_min_ when a sparse gradient refuses it)."""
import functools
import types
import warnings

from ...autograd.grad_mode import no_grad
from ..._tensor import Tensor

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]


def _no_grad(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with no_grad():
            return fn(*args, **kwargs)
    return wrapper


def _grouped(tensors):
    """tensors grouped by (device, dtype) in first-appearance order, as PyTorch groups
    them (the order in which per-tensor norms enter the total)."""
    groups = {}
    for t in tensors:
        groups.setdefault((t.device, t.dtype), []).append(t)
    return groups.values()


@_no_grad
def _get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    from ... import linalg, stack, tensor
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    first_device = tensors[0].device
    norms = [linalg.vector_norm(g, norm_type) for group in _grouped(tensors)
             for g in group]
    total = linalg.vector_norm(stack([n.to(first_device) for n in norms]), norm_type)
    if error_if_nonfinite and (total.isnan() | total.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    return total


@_no_grad
def _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    from ... import clamp
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    coef = clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for group in _grouped(grads):
        coef_here = coef.to(group[0].device)
        for g in group:
            g.mul_(coef_here)


@_no_grad
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    """Scales the gradients so that their total norm is at most max_norm; returns the
    total norm (before clipping)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will "
                          "occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = _get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    _clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                   foreach=None):
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value, foreach=None):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:  # PyTorch 2.13's grouping refuses an empty list (its internal check)
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    for group in _grouped(grads):
        for g in group:
            if foreach is False:
                g.clamp_(min=-clip_value, max=clip_value)
            else:  # (PyTorch's foreach path, its CPU default: min then max)
                g.clamp_min_(-clip_value)
                g.clamp_max_(clip_value)
