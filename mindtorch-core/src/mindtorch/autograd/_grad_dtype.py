"""Tensor.grad_dtype (PyTorch 2.13): the dtype a leaf's .grad must have.  Unset it is the
tensor's dtype; None allows any; the engine casts incoming gradients to it."""
from .. import _dtype as D
from .._tensor import autograd_meta

_UNSET = object()


def allowed(t):
    """The dtype t.grad must have, or None for any."""
    meta = t._autograd_meta
    d = _UNSET if meta is None else meta.get("grad_dtype", _UNSET)
    return t.dtype if d is _UNSET else d


def get(t):
    if t._grad_fn is not None:
        raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
    return allowed(t)


def assign(t, value):
    if t._grad_fn is not None:
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    if value is not None and not isinstance(value, D.dtype):
        raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got "
                           f"{type(value).__name__}")
    g = t._grad
    if g is not None and value is not None and g.dtype is not value:
        raise RuntimeError(
            f"Cannot set grad_dtype to '{D.scalar_type_name(value)}' because there is already "
            f"a gradient with dtype '{D.CPP_NAMES[g.dtype.name]}'. Please clear the gradient "
            f"(.grad = None) before changing grad_dtype, or ensure the new grad_dtype matches "
            f"the existing gradient's dtype.")
    autograd_meta(t)["grad_dtype"] = value
