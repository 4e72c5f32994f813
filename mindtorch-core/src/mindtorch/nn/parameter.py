"""torch.nn.parameter: Parameter and Buffer."""
from collections import OrderedDict

from .._tensor import Tensor
from .._tensor_copy import set_state
from ..overrides import _disabled_torch_function_impl

__all__ = ["Parameter", "UninitializedParameter", "is_lazy", "Buffer", "UninitializedBuffer",
           "UninitializedTensorMixin"]


class _ParameterMeta(type):
    # isinstance(t, Parameter) also holds for the instance of a Tensor subclass that
    # Parameter(t) flagged _is_param (it keeps its class), as PyTorch's
    def __instancecheck__(cls, instance):
        return type.__instancecheck__(cls, instance) or cls is Parameter and \
            isinstance(instance, Tensor) and instance.__dict__.get("_is_param", False)


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that a Module registers as a parameter when assigned to one of its
    attributes. A leaf sharing ``data``'s storage and version counter; ops on it give
    plain tensors (it opts out of __torch_function__)."""
    __slots__ = ()
    __module__ = "mindtorch.nn.parameter"
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        if not isinstance(data, Tensor):  # PyTorch fails on data.detach()
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if type(data) is not Tensor and type(data) is not Parameter:  # a subclass stays one
            t = data.detach().requires_grad_(requires_grad)
            if type(t) is not type(data):
                raise RuntimeError(
                    f"Creating a Parameter from an instance of type {type(data).__name__} "
                    f"requires that detach() returns an instance of the same type, but return "
                    f"type {type(t).__name__} was found instead. To use the type as a "
                    f"Parameter, please correct the detach() semantics defined by its "
                    f"__torch_dispatch__() implementation.")
            t._is_param = True
            return t
        if not isinstance(requires_grad, bool):  # (PyTorch's Tensor._make_subclass parses it)
            raise TypeError(f"_make_subclass(): argument 'require_grad' (position 3) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if requires_grad and not (data.dtype.is_floating_point or data.dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        p = cls._make(data._storage, data._shape, data._stride, data._offset, data.dtype,
                      None, data._version_counter)
        return Tensor.requires_grad_(p, requires_grad)  # (not routed: see the mixin below)

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
        args = (self.data, self._requires_grad, OrderedDict())
        state = self.__getstate__()
        if state:  # the user's attributes travel too, as PyTorch's
            return _rebuild_parameter_with_state, args + (state,)
        return _rebuild_parameter, args


def _rebuild_parameter(data, requires_grad, backward_hooks=None):
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return set_state(Parameter(data, requires_grad), state)


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


class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (lazy modules): it holds an empty
    tensor until materialize() gives it memory and turns it into ``cls_to_become``.
    Functions and methods other than a few conversions refuse it (its __torch_function__),
    as PyTorch's."""
    __slots__ = ()
    _allowed_names = ("__hash__", "size", "copy_", "is_complex", "is_floating_point", "half",
                      "float", "double", "char", "short", "int", "long", "cuda", "cpu", "to",
                      "get_device")
    _allowed = None  # their functions, looked up on first use (the ops bind after nn)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if UninitializedTensorMixin._allowed is None:
            UninitializedTensorMixin._allowed = [getattr(Tensor, n) for n in cls._allowed_names]
        # (a method-wrapper: a property read, e.g. .data)
        if func in cls._allowed or type(func).__name__ == "method-wrapper":
            return super().__torch_function__(func, types, args, kwargs or {})
        raise ValueError(f"Attempted to use an uninitialized parameter in {func}. This error "
                         f"happens when you are using a `LazyModule` or explicitly "
                         f"manipulating `torch.nn.parameter.{cls.__name__}` objects. When "
                         f"using LazyModules Call `forward` with a dummy batch to initialize "
                         f"the parameters before calling torch functions")

    def materialize(self, shape, device=None, dtype=None):
        from .._creation import empty
        device = self.data.device if device is None else device
        dtype = self.data.dtype if dtype is None else dtype
        self.data = empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This "
                           "error usually happens in `load_state_dict` when trying to load an "
                           "uninitialized parameter into an initialized one. Call `forward` to "
                           "initialize the parameters before accessing their attributes.")

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return self.__class__, (self.requires_grad,)


def is_lazy(param):
    """Whether param is an UninitializedParameter or UninitializedBuffer."""
    return isinstance(param, UninitializedTensorMixin)


def _uninitialized_data(device, dtype):
    from .._creation import empty
    return empty(0, device=device, dtype=dtype)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    __slots__ = ()
    __module__ = "mindtorch.nn.parameter"
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _uninitialized_data(device, dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    __slots__ = ()
    __module__ = "mindtorch.nn.parameter"
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        data = _uninitialized_data(device, dtype)
        t = cls._make(data._storage, data._shape, data._stride, data._offset, data.dtype)
        Tensor.requires_grad_(t, requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
