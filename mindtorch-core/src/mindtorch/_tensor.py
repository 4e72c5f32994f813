"""The Tensor: storage + shape/stride/offset + dtype.  Ops become methods at import
(see mindtorch/__init__.py); this module holds what is not an op: metadata, autograd
state, the Python protocol (host conversion and the number protocol: _tensor_conversion.py)."""
import math
import numbers

from . import _dtype as D
from ._memory_format import contiguous_format as _contiguous_format
from ._memory_format import is_contiguous_as
from ._memory_format import memory_format as _memory_format_t
from ._size import Size, _new_tuple  # (torch.Size; also imported from here)


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
    operator.__name__, operator.__qualname__ = method.__name__, "Tensor." + method.__name__
    return operator


def _reflected_dispatching(method):
    """_reflected, for an operator that is no one op's binding called as (self, other):
    it hands its own call to __torch_function__, so that handlers see Tensor.<dunder> with
    the operands as given, as PyTorch's do."""
    def operator(self, other):
        try:
            if (type(self) is not Tensor or overrides.state.mode) and \
                    overrides.has_torch_function((self, other)):
                return overrides.handle_torch_function(operator, (self, other), self, other)
            return method(self, other)
        except TypeError:
            return NotImplemented
    operator.__name__ = method.__name__
    operator.__qualname__ = "Tensor." + method.__name__
    return operator


def _check_format(name, memory_format):
    """A memory_format= argument: a torch.memory_format (its name as a str is refused)."""
    if type(memory_format) is not _memory_format_t:
        from ._ops._argcheck import _type_name
        raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {_type_name(memory_format)}")


def autograd_meta(t):
    """t's rarely-set autograd state, a dict made on first write (Tensor._autograd_meta is
    None until then).  Its keys: accumulator (a weakref to a leaf's AccumulateGrad),
    retains_grad, leaf_hooks and post_accumulate_hooks ({handle id: hook}), grad_dtype (set
    by Tensor.grad_dtype), fw_tangent (forward AD), no_grad_view (the grad mode a view
    requiring grad was made in), custom_function_view ((output index, Function name))."""
    meta = t._autograd_meta
    if meta is None:
        meta = t._autograd_meta = {}
    return meta


def no_history(t):
    """The autograd slots of a tensor made without Tensor._make: a leaf that does not
    require grad."""
    t._requires_grad = False
    t._grad_fn = t._grad = t._autograd_meta = None
    t._output_nr = t._grad_version = 0


_autograd_backward = [None]  # autograd.backward, once imported (see Tensor.backward)


class Tensor:
    # Mindtorch's own state lives in slots, so that the instance dict holds only what
    # the user sets (t.foo = 1), as PyTorch's (code copies __dict__ between tensors).
    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype", "_device",
                 "_version_counter", "_cache", "_base",
                 # autograd state (see autograd/_record.py), read by the generated bindings
                 "_requires_grad", "_grad_fn",
                 "_output_nr",     # which output of _grad_fn this tensor is
                 "_grad_version",  # a view's version when its history was recorded
                 "_grad", "_autograd_meta",  # (the rarely-set rest: autograd_meta above)
                 "__weakref__", "__dict__")
    __module__ = "mindtorch"
    __array_priority__ = 1000  # numpy scalar <op> tensor defers to the tensor's operator

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
        t._cache = None
        t._base = base
        t._requires_grad = False  # (inline: no_history, which tensors made elsewhere call)
        t._grad_fn = t._grad = t._autograd_meta = None
        t._output_nr = t._grad_version = 0
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
                not self.retains_grad:  # (as PyTorch: only when unset)
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
        meta = self._autograd_meta
        return meta is not None and meta.get("retains_grad", False)

    def _is_view(self):
        return self._base is not None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        run = _autograd_backward[0]
        if run is None:  # (imported once: an import statement per call costs ~0.5 us)
            from .autograd import backward as run
            _autograd_backward[0] = run
        run(self, gradient, retain_graph, create_graph, inputs=inputs)

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
        return add_hook(autograd_meta(self).setdefault("leaf_hooks", {}), hook)

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after a leaf's .grad was accumulated."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require "
                               "gradient")
        from .utils.hooks import add_hook
        return add_hook(autograd_meta(self).setdefault("post_accumulate_hooks", {}), hook)

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in .grad during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None or self.retains_grad:
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
        autograd_meta(self)["retains_grad"] = True

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
        if self._base is not None:  # (any view, as PyTorch's, history or not)
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

    # host conversion (numpy, item, ...), the Python number protocol, cpu/cuda/type and the
    # new_* factories: _tensor_conversion.py, installed on this class at import

    # -- printing ----------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None):
        from ._tensor_str import tensor_repr
        return tensor_repr(self, tensor_contents=tensor_contents)

    __str__ = __repr__

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

    @_reflected_dispatching
    def __rsub__(self, other):
        return self.rsub(other)

    @_reflected_dispatching
    def __rdiv__(self, other):  # (Python 2's name, which PyTorch keeps for both)
        return self.reciprocal().mul(other)

    __rtruediv__ = __rdiv__

    @_reflected_dispatching
    def __rfloordiv__(self, other):
        return _op("floor_divide")(other, self)

    @_reflected_dispatching
    def __rmod__(self, other):
        return _op("remainder")(other, self)

    @_reflected_dispatching
    def __rpow__(self, other):
        return _op("pow")(other, self)

    @_reflected_dispatching
    def __rmatmul__(self, other):
        return _op("matmul")(other, self)

    @_reflected_dispatching
    def __rlshift__(self, other):
        return _op("bitwise_left_shift")(other, self)

    @_reflected_dispatching
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
    "__pos__": "positive", "__div__": "div", "__idiv__": "div_",  # (PyTorch keeps __div__)
}
# PyTorch's names of some (__itruediv__ is __idiv__ there, as here)
OPERATOR_NAMES = {"__pow__": "pow", "__ipow__": "pow_", "__itruediv__": "__idiv__"}
# the operators whose calls __torch_function__ handlers see as the operator itself
# (Tensor.__pow__); the others' as their op's method (a + b: Tensor.add), as PyTorch's
SELF_REPORTED_OPERATORS = {
    "__floordiv__", "__pow__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
    "__eq__", "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"}


from . import _tensor_conversion  # noqa: E402,F401 - numpy, item, cpu, new_*... (before subclasses)
from . import _tensor_copy  # noqa: E402,F401 - pickling and deepcopy (before subclasses)
from . import _tensor_subclass, overrides  # noqa: E402,F401 - the __torch_function__ protocol
