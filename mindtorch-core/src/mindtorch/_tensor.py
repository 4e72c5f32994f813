"""The Tensor: storage + shape/stride/offset + dtype.  Ops become methods at import
(see mindtorch/__init__.py); this module holds what is not an op: metadata, the
Python protocol, host conversion."""
import math
import numbers

from . import _dtype as D
from ._lazy import lazy
from ._memory_format import contiguous_format as _contiguous_format
from ._memory_format import is_contiguous_as
from ._memory_format import memory_format as _memory_format_t
from ._size import Size, _new_tuple  # (torch.Size; also imported from here)
from ._storage import host_view

_NUMPY_LESS = frozenset((D.bfloat16,) + D.FLOAT8)  # dtypes .numpy() refuses, as PyTorch's

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)


def contiguous_strides(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


_CPP_NAMES = D.CPP_NAMES  # (also read by _tensor_storage.py)


def _no_dimensions(dim):
    """size(dim) / stride(dim) of a 0-d tensor: PyTorch's error (not wrap_dim's)."""
    raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def _reflected(method):
    """A reflected operator gives NotImplemented for an operand its op refuses, so that
    Python raises its own TypeError, as PyTorch's do."""
    def operator(self, other):
        try:
            return method(self, other)
        except TypeError:
            return NotImplemented
    operator.__name__ = method.__name__
    return operator



def _check_format(name, memory_format):
    """A memory_format= argument: a torch.memory_format (its name as a str is refused)."""
    if type(memory_format) is not _memory_format_t:
        from ._ops._argcheck import _type_name
        raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {_type_name(memory_format)}")


_NEW_OPTIONS = ("size", "layout", "pin_memory")  # (no memory_format=: PyTorch's new_* refuse it)


def _new_options(name, kwargs):
    """The keywords the new_* factories pass on besides dtype / device / requires_grad."""
    for k in kwargs:
        if k not in _NEW_OPTIONS:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    return kwargs

class Tensor:
    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype", "_device",
                 "_version_counter", "_cache", "__weakref__", "__dict__")
    __module__ = "mindtorch"
    __array_priority__ = 1000  # numpy scalar <op> tensor defers to the tensor's operator
    # Rarely-set attributes live in the instance dict; these class defaults keep
    # creating a tensor cheap (the per-op cost is dominated by object setup).
    _base = None
    # autograd state (see autograd/_record.py): read by the generated op bindings
    _requires_grad = False
    _grad_fn = None
    _output_nr = 0      # which output of _grad_fn this tensor is
    _grad_version = 0   # a view's version when its history was recorded
    _grad = None

    # legacy constructor: Tensor(sizes...) or Tensor(data) gives default-dtype tensors
    def __new__(cls, *args, device=None):
        from ._legacy_types import legacy_new
        if cls is not Tensor:  # a subclass's cls(...) or super().__new__(cls, ...)
            return _tensor_subclass.new(cls, args, device)
        return legacy_new(D.get_default_dtype(), device, args, {}, exact=False)

    @classmethod
    def _make(cls, storage, shape, stride, offset, dtype, base=None, version=None):
        t = object.__new__(Tensor if cls is Tensor else cls)
        t._storage = storage
        t._shape = shape
        t._stride = stride
        t._offset = offset
        t.dtype = dtype
        t._device = storage.device
        t._version_counter = [0] if version is None else version
        if base is not None:
            t._base = base
        t._cache = None
        return t

    def _parts(self):
        """What Tensor._make(*parts) needs to rebuild this tensor's data without its
        autograd state (cheaper to keep than a detached tensor)."""
        return (self._storage, self._shape, self._stride, self._offset, self.dtype, self._base,
                self._version_counter)

    def _view(self, shape, stride, offset):
        """A view sharing storage and version counter; its _base is the root base."""
        return Tensor._make(self._storage, tuple(shape), tuple(stride), offset, self.dtype,
                            self._base if self._base is not None else self,
                            self._version_counter)

    # -- metadata --------------------------------------------------------------------
    @property
    def shape(self):
        return _new_tuple(Size, self._shape)

    def size(self, dim=None):
        if dim is None:
            return _new_tuple(Size, self._shape)
        from ._ops._argcheck import dim_arg, wrap_dim
        if type(dim) is not int:
            dim = dim_arg("size", dim)
        if not self._shape:
            _no_dimensions(dim)
        return self._shape[wrap_dim(dim, len(self._shape))]

    def stride(self, dim=None):
        if dim is None:
            return self._stride
        from ._ops._argcheck import dim_arg, wrap_dim
        if type(dim) is not int:
            dim = dim_arg("stride", dim)
        if not self._shape:
            _no_dimensions(dim)
        return self._stride[wrap_dim(dim, len(self._shape))]

    def storage_offset(self):
        return self._offset

    @property
    def device(self):
        return self._device

    @property
    def ndim(self):
        return len(self._shape)

    def dim(self):
        return len(self._shape)

    ndimension = dim

    def numel(self):
        return math.prod(self._shape)

    nelement = numel

    def element_size(self):
        return self.dtype.itemsize

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.numel() * self.dtype.itemsize

    @property
    def is_meta(self):
        return self._device.type == "meta"

    @property
    def is_cpu(self):
        return self._device.type == "cpu"

    @property
    def is_cuda(self):
        return self._device.type == "cuda"

    @property
    def is_npu(self):
        return self._device.type == "npu"

    is_mps = property(lambda self: self._device.type == "mps")
    is_xpu = property(lambda self: self._device.type == "xpu")
    # layouts and formats mindtorch has none of (code tests them before special paths)
    is_sparse = is_sparse_csr = is_quantized = is_mkldnn = is_nested = False

    @property
    def layout(self):
        from ._layout import strided
        return strided

    def dim_order(self, *, ambiguity_check=False):
        from ._memory_format import dim_order
        return dim_order(self, ambiguity_check)

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def is_signed(self):
        return self.dtype.is_signed

    def is_contiguous(self, *, memory_format=_contiguous_format):
        if memory_format is not _contiguous_format:
            _check_format("is_contiguous", memory_format)
            if memory_format in ("channels_last", "channels_last_3d"):
                return is_contiguous_as(self._shape, self._stride, memory_format)
        if 0 in self._shape:
            return True
        expected = 1
        for n, s in zip(reversed(self._shape), reversed(self._stride)):
            if n != 1 and s != expected:
                return False
            expected *= n
        return True

    def untyped_storage(self):
        return self._storage

    def data_ptr(self):
        return self._storage.data_ptr() + self._offset * self.dtype.itemsize

    @property
    def _version(self):
        if type(self._version_counter) is not list:
            from .autograd._inference import no_version
            no_version()
        return self._version_counter[0]

    def is_inference(self):
        """Whether this is an inference tensor (made in inference_mode())."""
        return type(self._version_counter) is not list

    # -- autograd --------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if value is True and self._grad_fn is None and self.dtype not in D.DIFFERENTIABLE:
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value is True and self._grad_fn is not None:  # (requires_grad_() lets it pass)
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad=True, /, **keyword):
        if keyword:  # requires_grad_(requires_grad=...): its errors name no position
            from ._tensor_compat import requires_grad_keyword
            requires_grad = requires_grad_keyword(keyword)
        elif not isinstance(requires_grad, bool):
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. "
                                   "If you want to use a computed variable in a subgraph that "
                                   "doesn't require differentiation use "
                                   "var_no_grad = var.detach().")
            return self
        if requires_grad and self.dtype not in D.DIFFERENTIABLE:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and type(self._version_counter) is not list:
            from .autograd._inference import check_requires_grad
            check_requires_grad(self)
        self._requires_grad = requires_grad
        return self

    @property
    def grad_fn(self):
        if self._grad_fn is None:
            return None
        from .autograd._record import history
        return history(self)

    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def grad(self):
        if self._grad is None and self._grad_fn is not None and \
                not self.__dict__.get("_retains_grad"):  # (as PyTorch: only when unset)
            import warnings
            from .autograd.graph import NON_LEAF_GRAD
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            from .autograd import _grad_dtype
            allowed = _grad_dtype.allowed(self)
            if allowed is not None and value.dtype is not allowed:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_CPP_NAMES[value.dtype.name]}'"
                    f" to a tensor with grad_dtype '{D.scalar_type_name(allowed)}'. The "
                    f"gradient must match the tensor's grad_dtype (defaults to the tensor's "
                    f"dtype). You can set the tensor's grad_dtype attribute with a specific "
                    f"dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging "
                    f"the dtypes of a tensor and its gradient may break downstream systems "
                    f"that assume they match.")
            if value._device is not self._device and value.device != self.device:  # (sparse)
                raise RuntimeError(f"attempting to assign a gradient with device type "
                                   f"'{value._device.type}' to a tensor with device type "
                                   f"'{self._device.type}'. Please ensure that the gradient "
                                   f"and the tensor are on the same device")
            if value._shape != self._shape:
                raise RuntimeError(f"attempting to assign a gradient of size "
                                   f"'{list(value._shape)}' to a tensor of size "
                                   f"'{list(self._shape)}'. Please ensure that the gradient "
                                   f"and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def grad_dtype(self):
        from .autograd import _grad_dtype
        return _grad_dtype.get(self)

    @grad_dtype.setter
    def grad_dtype(self, value):
        from .autograd import _grad_dtype
        _grad_dtype.assign(self, value)

    @property
    def retains_grad(self):
        return bool(self.__dict__.get("_retains_grad"))

    def _is_view(self):
        return self._base is not None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        from .autograd import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        """hook(grad) runs when this tensor's gradient is computed; returning a tensor
        replaces the gradient.  Returns a handle whose remove() unregisters it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                               "gradient")
        fn = self.grad_fn
        if fn is not None:
            return fn._register_tensor_hook(self._output_nr, hook)
        from .utils.hooks import add_hook
        hooks = self.__dict__.setdefault("_leaf_hooks", {})
        return add_hook(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after a leaf's .grad was accumulated."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                               "gradient")
        from .utils.hooks import add_hook
        return add_hook(self.__dict__.setdefault("_post_accumulate_hooks", {}), hook)

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in .grad during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None or self.__dict__.get("_retains_grad"):
            return
        import weakref
        ref = weakref.ref(self)

        def retain(grad):
            t = ref()
            if t is not None:
                if t._grad is None:
                    # (as PyTorch's hook: a contiguous copy, recorded under create_graph)
                    from ._memory_format import contiguous_format
                    t._grad = grad.clone() if grad.is_sparse else grad.clone(
                        memory_format=contiguous_format)
                else:
                    t._grad = t._grad + grad
        fn._register_tensor_hook(self._output_nr, retain, retain=True)
        self._retains_grad = True

    @property
    def data(self):  # shares the data, not the version counter (inference tensors have none)
        return self.detach() if type(self._version_counter) is not list else Tensor._make(
            self._storage, self._shape, self._stride, self._offset, self.dtype)

    @data.setter
    def data(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(other).__name__}")
        if self._requires_grad and other.dtype not in D.DIFFERENTIABLE:
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._set_metadata_from(other)

    def _set_metadata_from(self, other):
        self._storage, self._shape, self._stride = other._storage, other._shape, other._stride
        self._offset, self.dtype, self._device = other._offset, other.dtype, other._device
        self._cache = None

    def detach(self):
        """A tensor sharing this one's data and version counter, without history (and not
        a view as far as autograd goes: writing into it leaves the base's history alone)."""
        return Tensor._make(self._storage, self._shape, self._stride, self._offset, self.dtype,
                            None, self._version_counter)

    def detach_(self):
        if self._base is not None and self._grad_fn is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views of "
                               "DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py as "
                               "the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    def __hash__(self):
        return id(self)

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

    def __repr__(self, *, tensor_contents=None):
        from ._tensor_str import tensor_repr
        return tensor_repr(self, tensor_contents=tensor_contents)

    __str__ = __repr__

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
        return _creation.empty(*size, **_new_options("new_empty", kwargs), **self._like_kwargs(dtype, device),
                               requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        from . import _creation
        return _creation.zeros(*size, **_new_options("new_zeros", kwargs), **self._like_kwargs(dtype, device),
                               requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        from . import _creation
        return _creation.ones(*size, **_new_options("new_ones", kwargs), **self._like_kwargs(dtype, device),
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

    # -- indexing ----------------------------------------------------------------------
    def __getitem__(self, index):
        from ._indexing import getitem
        return getitem(self, index)

    def __setitem__(self, index, value):
        from ._indexing import setitem
        setitem(self, index, value)

    # -- Python operators not expressible as a direct op binding ---------------------
    # (reflected: NotImplemented for an operand the op refuses, see _binary_operator)
    @_reflected
    def __radd__(self, other):
        return self.add(other)

    @_reflected
    def __rmul__(self, other):
        return self.mul(other)

    @_reflected
    def __rsub__(self, other):
        return self.rsub(other)

    @_reflected
    def __rtruediv__(self, other):
        return self.reciprocal().mul(other)

    @_reflected
    def __rfloordiv__(self, other):
        return _op("floor_divide")(other, self)

    @_reflected
    def __rmod__(self, other):
        return _op("remainder")(other, self)

    @_reflected
    def __rpow__(self, other):
        return _op("pow")(other, self)

    @_reflected
    def __rmatmul__(self, other):
        return _op("matmul")(other, self)

    @_reflected
    def __rlshift__(self, other):
        return _op("bitwise_left_shift")(other, self)

    @_reflected
    def __rrshift__(self, other):
        return _op("bitwise_right_shift")(other, self)

    def where(self, condition, other):
        """Tensor.where(condition, y): self where condition holds, else y."""
        from . import _ops
        return _ops.OPS["where"].binding(condition, self, other)

    @_reflected
    def __rand__(self, other):
        return self.bitwise_and(other)

    @_reflected
    def __ror__(self, other):
        return self.bitwise_or(other)

    @_reflected
    def __rxor__(self, other):
        return self.bitwise_xor(other)

    def __pos__(self):
        return self.positive()

    def __invert__(self):
        if self.dtype.kind not in "uib":
            raise TypeError("~ (operator.invert) is only implemented on integer and "
                            "Boolean-type tensors")
        return self.bitwise_not()

    def __contains__(self, element):
        if isinstance(element, (Tensor, numbers.Number)):
            return bool((element == self).any().item())  # (PyTorch's operand order)
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you "
                           f"passed in a {type(element)}.")

    # matrix views and complex parts: view ops declared in _ops/decls/views.py
    @property
    def T(self):
        return _op("numpy_T")(self)

    @property
    def mT(self):
        return _op("mT")(self)

    @property
    def H(self):
        return _op("matrix_H")(self)

    @property
    def mH(self):
        return _op("mH")(self)

    @property
    def real(self):
        if not self.dtype.is_complex:
            return self
        return _op("view_as_real")(self).select(-1, 0)

    @real.setter
    def real(self, value):  # (x.real = v writes through the view, as PyTorch)
        self.real.copy_(value)

    @property
    def imag(self):
        if not self.dtype.is_complex:
            raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
        return _op("view_as_real")(self).select(-1, 1)

    @imag.setter
    def imag(self, value):
        self.imag.copy_(value)

    def conj(self):
        if not self.dtype.is_complex:
            return self
        return _op("conj")(self)


_BINDINGS = {}  # op name -> binding, for the properties above (looked up on first use)


def _op(name):
    binding = _BINDINGS.get(name)
    if binding is None:
        from ._ops import OPS
        binding = _BINDINGS[name] = OPS[name].binding
    return binding


# Python operator -> op name; bound in mindtorch/__init__.py once the ops exist.
OPERATORS = {
    "__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow",
    "__matmul__": "matmul", "__neg__": "neg", "__abs__": "abs",
    "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
    "__lshift__": "bitwise_left_shift", "__rshift__": "bitwise_right_shift",
    "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
    "__ge__": "ge",
    "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
    "__ifloordiv__": "floor_divide_", "__imod__": "remainder_", "__ipow__": "pow_",
    "__iand__": "bitwise_and_", "__ior__": "bitwise_or_", "__ixor__": "bitwise_xor_",
    "__ilshift__": "bitwise_left_shift_", "__irshift__": "bitwise_right_shift_",
}


def _warn_scalar_of_grad():
    """PyTorch's once-per-process warning of float()/complex() of a tensor that requires
    grad (with grad mode on)."""
    if _grad_enabled():
        from ._warn_once import warn_once
        warn_once("scalar_of_grad", "Converting a tensor with requires_grad=True to a scalar "
                  "may lead to unexpected behavior.\nConsider using tensor.detach() first.")


from . import _tensor_copy  # noqa: E402,F401 - pickling and deepcopy (before subclasses)
from . import _tensor_subclass, overrides  # noqa: E402,F401 - the __torch_function__ protocol


def _grad_enabled():
    from .autograd.grad_mode import state
    return state.enabled
