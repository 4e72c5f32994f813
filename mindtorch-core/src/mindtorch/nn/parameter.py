"""torch.nn.parameter: Parameter and Buffer."""
from collections import OrderedDict

from .._tensor import Tensor

__all__ = ["Parameter", "Buffer", "is_lazy"]


class Parameter(Tensor):
    """A tensor that a Module registers as a parameter when assigned to one of its
    attributes. A leaf sharing ``data``'s storage and version counter; ops on it give
    plain tensors (they build their results as Tensor)."""
    __slots__ = ()
    __module__ = "mindtorch.nn.parameter"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not "
                            f"{type(data).__name__}")
        if requires_grad and not (data.dtype.is_floating_point or data.dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        p = cls._make(data._storage, data._shape, data._stride, data._offset, data.dtype,
                      None, data._version_counter)
        return p.requires_grad_(requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        from ..autograd.grad_mode import no_grad
        with no_grad():
            result = type(self)(self.data.clone(), self._requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return _rebuild_parameter, (self.data, self._requires_grad, OrderedDict())


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # isinstance(t, Buffer) holds for the tensors Buffer(...) returned (flagged _is_buffer)
    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and \
                instance.__dict__.get("_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """Marks a tensor as a buffer: assigning it to a Module attribute registers it (with
    ``persistent`` deciding whether it is part of the state_dict). Returns a plain detached
    tensor carrying that flag, as PyTorch's."""
    __slots__ = ()
    __module__ = "mindtorch.nn.parameter"

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


def is_lazy(param):
    return False
