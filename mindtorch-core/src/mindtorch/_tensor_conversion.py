"""Tensor's conversions, installed on Tensor when _tensor.py is imported (before
_tensor_copy and _tensor_subclass read its namespace): host conversion (numpy, __array__,
DLPack, item, tolist), the Python protocols that read elements (len, iter, bool, float, int,
index, format), device and dtype conversion (cpu, cuda, type, type_as) and the new_*
factories.  The methods are written in a class body (so that `type`, `numpy`... do not
shadow builtins or modules in this module) and set on Tensor as plain functions: attribute
lookups and calls cost the same as if Tensor's body defined them."""
import types

from . import _dtype as D
from ._lazy import lazy
from ._storage import host_view
from ._tensor import Tensor, _check_format

_NUMPY_LESS = frozenset((D.bfloat16,) + D.FLOAT8)  # dtypes .numpy() refuses, as PyTorch's

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)


_NEW_OPTIONS = ("size", "layout", "pin_memory")  # (no memory_format=: PyTorch's new_* refuse it)


def _new_options(name, kwargs):
    """The keywords the new_* factories pass on besides dtype / device / requires_grad."""
    for k in kwargs:
        if k not in _NEW_OPTIONS:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    return kwargs


class _Conversions:
    # -- host conversion -------------------------------------------------------------
    def _host(self):
        """numpy view of this tensor's elements (shares memory on cpu)."""
        return host_view(self._storage, self._shape, self._stride, self._offset, self.dtype)

    def numpy(self, *, force=False):
        if self._device.type != "cpu":
            if not force:
                raise TypeError(f"can't convert {self._device.type} device type tensor to numpy. "
                                f"Use Tensor.cpu() to copy the tensor to host memory first.")
            return self.cpu().numpy()
        if self.requires_grad and not force and _grad_enabled():  # (no_grad: allowed)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if self.dtype in _NUMPY_LESS:  # (NumPy has no such dtype: PyTorch refuses)
            raise TypeError(f"Got unsupported ScalarType {D.scalar_type_name(self.dtype)}")
        return self._host()

    def __array__(self, dtype=None, copy=None):
        """np.asarray(t), np.sin(t): numpy()'s rules, as PyTorch's (a tensor requiring grad
        or on another device is refused)."""
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        from .utils.dlpack import export
        return export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        from .utils.dlpack import DLDeviceType
        if self._device.type != "cpu":
            raise BufferError(f"DLPack export of {self._device.type} tensors is not supported")
        return DLDeviceType.kDLCPU, 0

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """numpy's ufuncs (np.sin(t), ndarray + t) give tensors, as PyTorch's; a bool
        result becomes uint8, as there."""
        from ._creation import from_numpy
        return from_numpy(array.astype("uint8") if array.dtype == bool else array)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to "
                               f"Scalar")
        if self._device.type == "meta":
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        storage = self._storage
        if storage._spec.host_memory:  # the element read in place (~1 us, not ~3)
            a = np.ndarray((), self.dtype.np, storage._handle, self._offset * self.dtype.itemsize)
        else:
            a = self.cpu()._host().reshape(())
        return a.item() if self.dtype is not D.bfloat16 else float(a)

    def tolist(self):
        a = self.cpu()._host()
        if self.dtype in (D.bfloat16,):
            a = a.astype(np.float32)
        return a.tolist()

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __reversed__(self):  # (PyTorch's: the tensor flipped along dim 0)
        return self if not self._shape else self.flip(0)

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def _scalar_for(self, what):
        n = self.numel()
        if n != 1:
            if what == "bool":
                raise RuntimeError(f"Boolean value of Tensor with "
                                   f"{'no values' if n == 0 else 'more than one value'} is "
                                   f"ambiguous")
            raise ValueError("only one element tensors can be converted to Python scalars")
        v = self.item()
        # float()/int() of a complex tensor take its real part if the imaginary part is 0,
        # as in torch
        if (what == "float" or what == "int") and isinstance(v, complex):
            if v.imag != 0:
                raise RuntimeError(f"value cannot be converted to type "
                                   f"{'double' if what == 'float' else 'int64_t'} without overflow")
            return v.real
        return v

    def __bool__(self):
        return bool(self._scalar_for("bool"))

    def __float__(self):
        if self._requires_grad:
            _warn_scalar_of_grad()
        return float(self._scalar_for("float"))

    def __int__(self):
        return int(self._scalar_for("int"))

    def __complex__(self):
        if self._requires_grad:
            _warn_scalar_of_grad()
        return complex(self._scalar_for("complex"))

    def __index__(self):
        if self.dtype.kind not in "uib" or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __format__(self, spec):
        if not self._shape:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    # -- conversion --------------------------------------------------------------------
    # to/_to and the dtype shortcuts (double, float, ...) are mindtorch._creation's
    # functions, bound by it once imported (a per-call import costs ~2 us)

    def cpu(self, *, memory_format=None):
        if memory_format is not None:
            _check_format("cpu", memory_format)
            return self.to("cpu", memory_format=memory_format)
        return self._to("cpu", None)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        from ._device import device as device_
        d = device if isinstance(device, (str, device_)) else device_("cuda", device)
        if device_(d).type != "cuda":
            raise RuntimeError(f"Invalid device, must be cuda device, but got: {d}")
        return self._to(d, None)

    def get_device(self):
        """The device index; -1 for the host's devices (cpu, meta)."""
        return -1 if self._device.index is None else self._device.index

    def is_pinned(self, device=None):
        return False

    def const_data_ptr(self):
        return self.data_ptr()

    def sum_to_size(self, *size):
        """The sum of self over the dims that `size` broadcasts along (self must be
        expandable from size)."""
        if not size:
            raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
        size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        shape = self._shape
        lead = len(shape) - len(size)
        if lead < 0 or any(n != 1 and n != m for n, m in zip(size, shape[lead:])):
            raise RuntimeError(f"size {{{list(size)}}} is not expandable to size "
                               f"{{{list(shape)}}}.")
        out = self.sum(tuple(range(lead))) if lead else self
        dims = tuple(i for i, (n, m) in enumerate(zip(size, shape[lead:])) if n == 1 and m != 1)
        return out.sum(dims, keepdim=True) if dims else out

    # conj() and neg() materialise (no lazy conjugate/negative bit): nothing to resolve
    def is_conj(self):
        return False

    def is_neg(self):
        return False

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def apply_(self, callable):
        """Replace each element by callable(element), in Python (PyTorch's apply_)."""
        return self._apply_python("apply_", callable, self)

    def map_(self, tensor, callable):
        """self[i] = callable(self[i], tensor[i]), tensor broadcast to self's shape."""
        return self._apply_python("map_", callable, self, tensor.expand_as(self))

    def _apply_python(self, name, fn, *operands):
        if self.requires_grad:
            raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                               f"var.detach().{name}() instead.")
        from ._creation import tensor
        values = [fn(*v) for v in zip(*(t.reshape(-1).tolist() for t in operands))]
        return self.copy_(tensor(values, dtype=self.dtype, device=self._device).reshape(self._shape))

    def type(self, dtype=None, non_blocking=False, **kwargs):
        from ._creation import type_
        return type_(self, dtype, non_blocking, **kwargs)

    def type_as(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self._to(None, other.dtype)

    # -- new_* factories -------------------------------------------------------------
    def _like_kwargs(self, dtype, device):
        return dict(dtype=dtype or self.dtype, device=device or self._device)

    def new(self, *args, device=None, **kwargs):
        """The legacy constructor with self's dtype and device: new(2, 3), new([1, 2])."""
        from ._legacy_types import legacy_new
        return legacy_new(self.dtype, device or self._device, args, kwargs)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        from . import _creation
        return _creation.empty(*size, **_new_options("new_empty", kwargs),
                               **self._like_kwargs(dtype, device),
                               requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        from . import _creation
        return _creation.zeros(*size, **_new_options("new_zeros", kwargs),
                               **self._like_kwargs(dtype, device),
                               requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        from . import _creation
        return _creation.ones(*size, **_new_options("new_ones", kwargs),
                              **self._like_kwargs(dtype, device),
                              requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        from . import _creation
        return _creation.full(size, fill_value, **self._like_kwargs(dtype, device),
                              requires_grad=requires_grad)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        from . import _creation
        _creation.warn_copy_construct(data, "tensor.new_tensor")
        return _creation._tensor(data, **self._like_kwargs(dtype, device),
                                 requires_grad=requires_grad)


for _name, _f in list(vars(_Conversions).items()):
    if isinstance(_f, types.FunctionType):
        _f.__qualname__ = f"Tensor.{_name}"  # (as when defined in Tensor: error messages)
        setattr(Tensor, _name, _f)
del _Conversions


def _warn_scalar_of_grad():
    """PyTorch's once-per-process warning of float()/complex() of a tensor that requires
    grad (with grad mode on)."""
    if _grad_enabled():
        from ._warn_once import warn_once
        warn_once("scalar_of_grad", "Converting a tensor with requires_grad=True to a scalar "
                  "may lead to unexpected behavior.\nConsider using tensor.detach() first.")


def _grad_enabled():
    from .autograd.grad_mode import state
    return state.enabled
