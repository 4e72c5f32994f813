"""Creating tensors from host data, allocation, and the conversions behind .to()/.type().

Host data always travels as a C-contiguous numpy array to the device's from_host; the
data itself is never computed on here (invariant 1: core has no kernels): host data is
only converted (cast and laid out) on the host, tensors are converted by the ops
(empty_like + copy_)."""
import numbers
import operator
import warnings
from itertools import chain

_chain = chain.from_iterable

from . import _dtype as D
from ._device import as_device, canonical, default_device
from ._device import device as _device_t
from ._lazy import lazy
from ._promotion import promote_types
from ._storage import UntypedStorage, _spec
from ._tensor import Tensor, contiguous_strides
from .autograd.grad_mode import state as _grad

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)


def _target_device(device):
    if device is None:
        device = default_device() or "cpu"
    return _device_of(device)


_CONTIGUOUS = {}  # shape -> contiguous strides (a bounded cache of the common shapes)


def _contiguous(shape):
    stride = _CONTIGUOUS.get(shape)
    if stride is None:
        if len(_CONTIGUOUS) > 4096:
            _CONTIGUOUS.clear()
        stride = _CONTIGUOUS[shape] = contiguous_strides(shape)
    return stride


def _empty(shape, dtype, device, stride=None):
    """Uninitialised tensor, contiguous unless `stride` is given (core: memory comes from
    the device's allocator)."""
    device = device if type(device) is not str else canonical(device)
    shape = tuple(shape)
    if stride is None:
        stride = _contiguous(shape)
        n = 1
        for s in shape:
            n *= s
    else:
        stride = tuple(stride)
        n = 0 if 0 in shape else sum((k - 1) * s for k, s in zip(shape, stride)) + 1
    spec = _spec(device)
    nbytes = n * dtype.itemsize
    storage = UntypedStorage._wrap(spec.allocate(nbytes, device.index), nbytes, device, spec)
    return Tensor._make(storage, shape, stride, 0, dtype)


def _from_host_array(arr, device, dtype=None, requires_grad=False):
    arr = arr if arr.flags.c_contiguous else np.array(arr, order="C")  # keeps 0-dim
    dtype = dtype or D.from_numpy_dtype(arr.dtype)
    storage = UntypedStorage._from_host(arr, device)
    t = Tensor._make(storage, arr.shape, _contiguous(arr.shape), 0, dtype)
    if requires_grad:
        _requires_grad(t)
    return t


def _requires_grad(t):
    from ._ops._argcheck import set_requires_grad
    set_requires_grad(t)
    return t


# -- factories the Tensor methods (new_*, legacy constructor) go through ------------------

def _op(name):
    from ._ops import OPS
    return OPS[name].binding


def empty(*size, **kwargs):
    return _op("empty")(*size, **kwargs)


def zeros(*size, **kwargs):
    return _op("zeros")(*size, **kwargs)


def ones(*size, **kwargs):
    return _op("ones")(*size, **kwargs)


def full(size, fill_value, **kwargs):
    return _op("full")(size, fill_value, **kwargs)


# -- torch.tensor: PyTorch's rules for nested sequences ----------------------------------

_MAX_DIMS = 64
_WIDE = {"b": "bool", "u": "int64", "i": "int64", "f": "float64", "c": "complex128"}


def _is_sequence(x):
    """Python's sequence check as PyTorch applies it (tensors and numpy scalars are leaves;
    strings and 0-dim arrays count as sequences, and fail later as in PyTorch)."""
    if isinstance(x, (list, tuple, range, np.ndarray, str, bytes)):
        return True
    if isinstance(x, (Tensor, np.generic, dict, numbers.Number)):
        return False
    return hasattr(type(x), "__getitem__") and hasattr(type(x), "__len__")


def _sizes(data):
    """The shape read off the first elements (PyTorch's compute_sizes)."""
    sizes = []
    x = data
    while _is_sequence(x):
        if isinstance(x, np.ndarray) and x.ndim == 0:
            raise TypeError("len() of unsized object")
        n = len(x)
        sizes.append(n)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(x).__name__}'")
        if n == 0:
            break
        x = x[0]
    return sizes


def _infer(x):
    """The dtype torch.tensor infers (PyTorch's infer_scalar_type): numpy leaves keep their
    dtype, Python numbers give bool / int64 / the default float or complex dtype, and
    sequences promote their items."""
    if isinstance(x, (np.ndarray, np.generic)):
        return D.from_numpy_dtype(x.dtype)
    if isinstance(x, bool):  # Python's number types and their subclasses only
        return D.bool
    if isinstance(x, int):
        return D.int64
    if isinstance(x, float):
        return D.get_default_dtype()
    if isinstance(x, complex):
        return D.default_complex_dtype()
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    if _is_sequence(x):
        if len(x) == 0:
            return D.get_default_dtype()
        dtype = None
        for item in x:
            if item is x:
                raise TypeError("new(): self-referential lists are incompatible")
            d = _infer(item)
            dtype = d if dtype is None else promote_types(dtype, d)
            if dtype is D.complex128:
                break
        return dtype
    raise RuntimeError(f"Could not infer dtype of {_tp_name(type(x))}")


def _tp_name(cls):
    """The type's name as CPython's C API shows it (decimal.Decimal, but Fraction)."""
    heap = cls.__flags__ & (1 << 9)  # Py_TPFLAGS_HEAPTYPE: classes defined in Python
    return cls.__name__ if heap or cls.__module__ == "builtins" else \
        f"{cls.__module__}.{cls.__qualname__}"


def _read_leaf(x, dtype):
    """A leaf of no Python number type read as PyTorch reads it for dtype: through
    __index__ for integer and bool dtypes, __float__ (or __complex__) otherwise."""
    try:
        if isinstance(x, (str, bytes)):
            raise TypeError
        if dtype.kind in "uib":
            return operator.index(x)
        return complex(x) if dtype.kind == "c" else float(x)
    except TypeError:
        raise TypeError(f"'{_tp_name(type(x))}' object cannot be interpreted as an integer"
                        if dtype.kind in "uib" else
                        f"must be real number, not {_tp_name(type(x))}") from None


def _store(x, sizes, dim, dtype, out):
    """Append the leaves of x to out, checking the shape as PyTorch's recursive_store."""
    if dim == len(sizes):
        kind = dtype.kind  # PyTorch reads the leaf with __index__ for "uib"
        if isinstance(x, Tensor):
            if x.numel() != 1 or kind in "uib" and x.dtype.kind not in "uib":
                if kind in "uib":
                    raise TypeError("only integer tensors of a single element can be converted "
                                    "to an index")
                raise ValueError("only one element tensors can be converted to Python scalars")
            x = x.item()
            if kind == "f" and isinstance(x, complex):  # c10's checked conversion
                if x.imag:
                    raise RuntimeError("value cannot be converted to type double without "
                                       "overflow")
                x = x.real
        elif isinstance(x, (np.generic, np.ndarray)):
            k = x.dtype.kind  # no __index__; Python's float and complex are read directly
            if kind in "ui" and k in "fcb" and not isinstance(x, float) or \
                    kind == "b" and k in "fc" and not isinstance(x, (float, complex)):
                raise TypeError(f"'numpy.{x.dtype.name}' object cannot be interpreted as an "
                                f"integer")
            x = x.item()
            if kind == "f" and k == "c":  # numpy's complex read as a real: its real part
                x = x.real
        elif not isinstance(x, (int, float, complex)):
            x = _read_leaf(x, dtype)
        out.append(x)
        return
    if not _is_sequence(x):
        raise TypeError("not a sequence")
    n = len(x)
    if n != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {n})")
    if isinstance(x, np.ndarray):
        if x.shape != tuple(sizes[dim:]):
            bad = next(i for i, (a, b) in enumerate(zip(x.shape, sizes[dim:])) if a != b)
            raise ValueError(f"expected sequence of length {sizes[dim + bad]} at dim "
                             f"{dim + bad} (got {x.shape[bad]})")
        out.extend(x.ravel().tolist())
        return
    for item in x:
        _store(item, sizes, dim + 1, dtype, out)


def _cast_leaves(host, dtype):
    """Python numbers (a wide host array) written into `dtype` with PyTorch's checks: a
    complex into a real dtype and out-of-range values into an integer dtype raise."""
    if host.dtype == dtype.np:  # nothing to check or cast
        return host
    kind = dtype.kind
    if host.dtype.kind == "c" and kind in "uif" and host.size:
        raise TypeError("'complex' object cannot be interpreted as an integer" if kind != "f"
                        else "must be real number, not complex")
    if kind in "ui" and host.dtype.kind in "fi" and host.size:
        info = D.iinfo(dtype)
        if host.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                bad = ~np.isfinite(host) | (host < info.min) | (host > info.max)
        elif kind == "u":  # c10 lets negative ints wrap into unsigned types
            bad = (host < -info.max) | (host > info.max)
        else:
            bad = (host < info.min) | (host > info.max)
        if bad.any():
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without "
                               f"overflow")
    with np.errstate(all="ignore"):
        return host.astype(dtype.np, copy=False)


_NEST = frozenset((list, tuple))
_PY_LEAVES = frozenset((bool, int, float))


def _regular_nest(data):
    """(sizes, leaves in order, their set of types) when data is a non-empty, regular
    (not ragged) nest of lists and tuples whose leaves share one kind of type, else None.
    The fast path of tensor(): one pass per level, no per-leaf Python code."""
    sizes = [len(data)]
    flat = data
    while sizes[-1]:
        types = set(map(type, flat))
        if not types <= _NEST:
            return sizes, flat, types
        if len(sizes) == _MAX_DIMS:
            return None
        lengths = set(map(len, flat))
        if len(lengths) != 1:
            return None
        sizes.append(lengths.pop())
        flat = list(_chain(flat))
    return None


def _fast_leaves(data, dtype):
    """(sizes, leaves, inferred dtype, numpy scalar type or None) of torch.tensor(data,
    dtype=dtype) for the common nests: Python bools/ints/floats, or numpy scalars of one
    type (then only with dtype None or theirs); None for anything else (mixtures with
    other leaves, ragged or empty nests), which the general path decides, errors included.
    The inference is _infer's for these leaves."""
    nest = _regular_nest(data)
    if nest is None:
        return None
    sizes, flat, types = nest
    if types <= _PY_LEAVES:
        inferred = D.get_default_dtype() if float in types else \
            D.int64 if int in types else D.bool
        return sizes, flat, inferred, None
    if len(types) == 1:
        (leaf,) = types
        if issubclass(leaf, np.generic) and leaf.__module__ == "numpy":
            try:
                inferred = D.from_numpy_dtype(leaf)
            except TypeError:
                return None
            if dtype is None or dtype is inferred:
                return sizes, flat, inferred, leaf
    return None


def _host_from_sequence(data, dtype):
    """(C-contiguous host array, dtype) of torch.tensor(data) for Python data."""
    fast = _fast_leaves(data, dtype) if type(data) in _NEST else None
    if fast is not None:
        sizes, flat, inferred, leaf = fast
        target = dtype or inferred
    else:
        if isinstance(data, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        sizes = _sizes(data)
        try:
            inferred = _infer(data)
        except (RuntimeError, TypeError):  # (PyTorch infers nothing when given a dtype)
            if dtype is None:
                raise
            inferred = dtype
        target = dtype or inferred
        flat, leaf = [], None
        # PyTorch converts each leaf as it stores it: the first bad value, or a break in
        # the nest's shape after the good ones, is the error it reports
        if 0 not in sizes:  # PyTorch reads no element of an empty nest (nor its shape)
            try:
                _store(data, sizes, 0, target, flat)
            except (TypeError, ValueError):
                _raise_first_leaf_error(flat, target)
                raise
    try:
        if target.kind in "ui" and inferred.kind == "f":  # ints and floats into an int dtype
            return _mixed_into_integers(flat, target).reshape(sizes), target
        host = np.array(flat, dtype=leaf) if leaf else _wide_array(flat, inferred, target)
        return _cast_leaves(host.reshape(sizes), target), target
    except (TypeError, ValueError, RuntimeError):
        _raise_first_leaf_error(flat, target)
        raise


def _mixed_into_integers(flat, dtype):
    """Python ints and floats written into an integer dtype: each checked as its own type,
    as PyTorch reads each leaf (an int may wrap into an unsigned type, a float may not)."""
    integral = np.array([isinstance(x, numbers.Integral) for x in flat], dtype=bool)
    out = np.empty(len(flat), dtype.np)
    out[integral] = _cast_leaves(_wide_array([x for x, i in zip(flat, integral) if i],
                                             D.int64, dtype), dtype)
    out[~integral] = _cast_leaves(np.array([x for x, i in zip(flat, integral) if not i],
                                           dtype=np.float64), dtype)
    return out


def _raise_first_leaf_error(flat, dtype):
    """Raise the error of the first leaf PyTorch would refuse to write into dtype (checked
    one by one, in order: only on the error path)."""
    kind = dtype.kind
    if kind not in "uif":
        return
    for x in flat:
        if isinstance(x, (complex, np.complexfloating)):
            raise TypeError("'complex' object cannot be interpreted as an integer" if kind != "f"
                            else "must be real number, not complex")
        if kind == "f":
            continue
        if isinstance(x, (int, np.integer)) and not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        try:
            _cast_leaves(np.array([x]), dtype)
        except OverflowError:
            raise ValueError("Overflow when unpacking long long") from None


def _wide_array(flat, inferred, target):
    """The leaves in the widest dtype of their kind (Python ints bound for a floating
    dtype are read as floats: 2**64 fits a float32)."""
    if target.kind == "b":  # any number reads as its truth value (2**70 too)
        return np.array([bool(x) for x in flat], dtype=np.bool_)
    kind = target.kind if inferred.kind in "ui" and target.kind in "fc" or \
        inferred.kind == "c" and target.kind == "f" else inferred.kind
    try:
        return np.array(flat, dtype=_WIDE[kind])
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None


_PY_TYPES = {float: D.float64, int: D.int64, bool: D.bool, complex: D.complex128}


def _dtype_arg(dtype, fn="tensor"):
    dtype = _PY_TYPES.get(dtype, dtype)
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    return dtype


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    dtype = _dtype_arg(dtype)
    device = _target_device(device)
    if isinstance(data, Tensor):  # a copy, laid out like data
        t = convert(data, device, dtype, copy=True)
    elif isinstance(data, (np.ndarray, np.generic)):
        t = _copy_ndarray(np.asarray(data), dtype, device)
    else:
        host, dtype = _host_from_sequence(data, dtype)
        t = _from_host_array(host, device)
    if requires_grad:
        _requires_grad(t)
    return t


def as_tensor(data, dtype=None, device=None):
    """data itself when it already is a tensor (or a cpu numpy array) of that dtype and
    device; else a converted copy."""
    dtype = _dtype_arg(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return convert(data, device, dtype)
    if isinstance(data, np.ndarray):
        return _adopt_ndarray(data, dtype, device, copy=False)
    return tensor(data, dtype=dtype, device=device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """as_tensor with copy=: None shares memory when it can, True always copies, False
    refuses to copy."""
    dtype = _dtype_arg(dtype, "asarray")
    if isinstance(obj, (Tensor, np.ndarray, np.generic)):
        src = obj.dtype if isinstance(obj, Tensor) else _check_ndarray(np.asarray(obj))
        here = obj._device if isinstance(obj, Tensor) else canonical("cpu")
        if copy is False and dtype is not None and dtype is not src:
            raise ValueError(f"can't alias tensor with dtype '{D.scalar_type_name(src)}' "
                             f"into dtype '{D.scalar_type_name(dtype)}'.")
        if copy is False and device is not None and _target_device(device) is not here:
            raise ValueError(f"can't alias tensor from device '{here}' to "
                             f"'{_target_device(device)}'.")
        t = convert(obj, device, dtype, copy=bool(copy)) if isinstance(obj, Tensor) else \
            _adopt_ndarray(np.asarray(obj), dtype, device, copy=bool(copy))
    elif copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    else:
        t = tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        _requires_grad(t)
    return t


def _check_ndarray(array):
    """The dtype of a numpy array PyTorch can adopt; its refusals otherwise."""
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    dtype = D.from_numpy_dtype(array.dtype)
    isz = array.itemsize
    for s in array.strides:
        if s < 0 or s % isz:
            break
    else:
        return dtype
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if any(s % isz for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    return dtype


def _copy_ndarray(array, dtype, device):
    """A tensor holding a copy of a numpy array, cast to dtype (C++ casts) and laid out like
    the array (PyTorch: from_numpy, then a preserve_format copy)."""
    src = _check_ndarray(array)
    dtype = dtype or src
    isz = array.itemsize
    stride = tuple([s // isz for s in array.strides])
    if stride == _contiguous(array.shape) and array.size:  # the common case
        if dtype is src:  # (a cast may warn, a copy does not)
            return _from_host_array(array.copy(), device, dtype)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return _from_host_array(array.astype(dtype.np), device, dtype)
    from ._ops.decls.creation import preserve_strides
    stride = preserve_strides(array.shape, stride)
    span = 0 if array.size == 0 else sum((n - 1) * s for n, s in zip(array.shape, stride)) + 1
    flat = np.empty(span, dtype.np)
    laid_out = np.lib.stride_tricks.as_strided(flat, array.shape,
                                               tuple(s * flat.itemsize for s in stride))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # complex -> real drops the imaginary part, as copy_
        np.copyto(laid_out, array, casting="unsafe")
    storage = UntypedStorage._from_host(flat, device)
    return Tensor._make(storage, tuple(array.shape), stride, 0, dtype)


def _adopt_ndarray(array, dtype, device, copy):
    """as_tensor/asarray of a numpy array: shared when it is already right, else a copy."""
    src = _check_ndarray(array)
    device = _target_device(device)
    if copy or device.type != "cpu" or (dtype is not None and dtype is not src):
        return _copy_ndarray(array, dtype, device)
    return from_numpy(array)


def from_numpy(array):
    """A cpu tensor sharing memory with a numpy array (any non-negative strides)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtype = _check_ndarray(array)
    isz = array.itemsize
    stride = tuple([s // isz for s in array.strides])
    if array.size == 0:
        span = 0
        raw = np.empty(0, np.uint8)
    elif array.flags.c_contiguous:  # the array itself is the storage (as cpu's from_host)
        span, raw = array.nbytes, array
    else:
        span = (sum((n - 1) * s for n, s in zip(array.shape, stride)) + 1) * isz
        first = array[(slice(0, 1),) * array.ndim].reshape(-1).view(np.uint8) if array.ndim \
            else array.reshape(1).view(np.uint8)
        raw = np.lib.stride_tricks.as_strided(first, shape=(span,), strides=(1,))
    storage = UntypedStorage._wrap(raw, span, _device_of("cpu"))
    return Tensor._make(storage, tuple(array.shape), stride, 0, dtype)


def _rebuild(array, device, requires_grad):
    t = tensor(array, device=device)
    t.requires_grad = requires_grad
    return t


# -- conversions: .to(), .type() ----------------------------------------------------------

_DEVICES = {}  # device string -> canonical device (only strings that always mean one device)


def _device_of(device):
    """canonical(as_device(device)), cached for strings naming one fixed device."""
    if type(device) is str:
        d = _DEVICES.get(device)
        if d is None:
            d = canonical(as_device(device))
            if d.type in ("cpu", "meta") or ":" in device:  # "npu" follows the current device
                _DEVICES[device] = d
        return d
    return canonical(as_device(device))


_ops = []  # [empty_like binding, its metadata-only impl, copy_ binding], found on first use


def _conversion_ops():
    if not _ops:
        from ._ops import OPS
        op = OPS["empty_like"]
        _ops.extend((op.binding, op.core_impl, OPS["copy_"].binding))
    return _ops


def convert(t, device=None, dtype=None, copy=False, memory_format=None):
    """t on `device` with `dtype`: t itself when nothing changes and no copy is asked for,
    else a fresh tensor laid out like t (preserve_format) or contiguous.  As in PyTorch,
    memory_format alone never forces a copy (only channels_last formats would)."""
    device = t._device if device is None else _device_of(device)
    dtype = t.dtype if dtype is None else dtype
    if device is t._device and dtype is t.dtype and not copy:
        return t
    if t._requires_grad and _grad.enabled:  # through the op, which records ToCopyBackward0
        from ._ops import OPS
        return OPS["_to_copy"].call(t, dtype, device, memory_format)
    return copied(t, device, dtype, memory_format)


def copied(t, device, dtype, memory_format=None):
    """A fresh copy of t on `device` with `dtype` (what _to_copy computes)."""
    empty_like, allocate_like, copy_ = _ops or _conversion_ops()
    if device is t._device:  # allocation is metadata only: no need for the binding
        out = allocate_like(t, dtype, None, memory_format)
    else:
        out = empty_like(t, dtype=dtype, device=device, memory_format=memory_format)
    copy_(out, t)
    out._version_counter[0] = 0  # a fresh result: filling it is no modification
    return out


_TO_NAMES = ("device", "dtype", "non_blocking", "copy")


def _is_dtype(x):
    return isinstance(x, D.dtype) or (isinstance(x, type) and x in _PY_TYPES)


def _parse_to(*args, **kwargs):
    """(device, dtype, non_blocking, copy, memory_format) from Tensor.to's overloads:
    to(device=None, dtype=None, non_blocking=False, copy=False), to(dtype, non_blocking,
    copy), to(tensor, non_blocking, copy); memory_format= is keyword-only."""
    values = dict(device=None, dtype=None, non_blocking=False, copy=False)
    names = _TO_NAMES
    args = list(args)
    if args and isinstance(args[0], Tensor):
        other = args.pop(0)
        values.update(device=other._device, dtype=other.dtype)
        names = _TO_NAMES[2:]
    elif args and args[0] is not None and _is_dtype(args[0]):
        values["dtype"] = args.pop(0)
        names = _TO_NAMES[2:]
    memory_format = kwargs.pop("memory_format", None)
    if len(args) > len(names) or any(k not in _TO_NAMES for k in kwargs) or \
            any(k in kwargs for k in names[:len(args)]) or \
            (names is not _TO_NAMES and ("device" in kwargs or "dtype" in kwargs)):
        raise _bad_to(args, kwargs)
    values.update(zip(names, args))
    values.update(kwargs)
    device, dtype = values["device"], values["dtype"]
    if device is not None and not isinstance(device, (str, int)) and \
            type(device).__name__ != "device" or isinstance(device, bool):
        raise _bad_to(args, kwargs)
    if dtype is not None and not _is_dtype(dtype):
        raise _bad_to(args, kwargs)
    if not all(isinstance(values[k], bool) for k in ("non_blocking", "copy")):
        raise _bad_to(args, kwargs)
    device = canonical(as_device(device)) if device is not None else None
    return device, _PY_TYPES.get(dtype, dtype), values["non_blocking"], values["copy"], \
        memory_format


def _bad_to(args, kwargs):
    got = [type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in
                                              kwargs.items()]
    return TypeError(f"to() received an invalid combination of arguments - got "
                     f"({', '.join(got)}), but expected one of:\n"
                     " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking"
                     " = False, bool copy = False, *, torch.memory_format memory_format = None)\n"
                     " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
                     "torch.memory_format memory_format = None)\n"
                     " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
                     "torch.memory_format memory_format = None)")


def to(t, *args, **kwargs):
    """Tensor.to."""
    if not kwargs and len(args) == 1:  # the common forms: to(dtype), to("cpu"), to(device)
        a = args[0]
        ta = type(a)
        if ta is D.dtype:
            return t if a is t.dtype else convert(t, None, a)
        if ta is str or ta is _device_t:
            d = _device_of(a)
            return t if d is t._device else convert(t, d, None)
    device, dtype, _, copy, memory_format = _parse_to(*args, **kwargs)
    return convert(t, device, dtype, copy, memory_format)


_TYPE_NAMES = {
    D.float32: "FloatTensor", D.float64: "DoubleTensor", D.float16: "HalfTensor",
    D.bfloat16: "BFloat16Tensor", D.int64: "LongTensor", D.int32: "IntTensor",
    D.int16: "ShortTensor", D.int8: "CharTensor", D.uint8: "ByteTensor", D.bool: "BoolTensor",
    D.complex64: "ComplexFloatTensor", D.complex128: "ComplexDoubleTensor",
}
_BY_TYPE_NAME = {n: dt for dt, n in _TYPE_NAMES.items()}


def _parse_type(name):
    """(device type or None, dtype) of a legacy type name: 'torch.FloatTensor' or
    'torch.<accelerator>.FloatTensor'."""
    parts = name.split(".") if isinstance(name, str) else ()
    if len(parts) in (2, 3) and parts[0] == "torch" and parts[-1] in _BY_TYPE_NAME and \
            (len(parts) == 2 or parts[1] not in ("cpu", "meta")):
        return (parts[1] if len(parts) == 3 else None), _BY_TYPE_NAME[parts[-1]]
    raise ValueError(f"invalid type: '{name}'")


def parse_type_name(t, name=None):
    """t's legacy type name, or the dtype a type name stands for (an accelerator's names
    need that accelerator's backend)."""
    if name is None:
        prefix = "torch." if t._device.type == "cpu" else f"torch.{t._device.type}."
        return prefix + _TYPE_NAMES[t.dtype]
    device, dtype = _parse_type(name)
    if device is not None:
        _spec(_target_device(device))  # raises when no backend provides it
    return dtype


def type_(t, dtype=None, non_blocking=False, **kwargs):
    """Tensor.type: the type name, or t converted to a dtype or legacy type name."""
    if dtype is None:
        return parse_type_name(t)
    device = None
    from ._legacy_types import tensortype
    if isinstance(dtype, tensortype):  # Tensor.type(torch.LongTensor)
        dtype = f"torch.{dtype.__name__}"
    if isinstance(dtype, str):
        device, dtype = _parse_type(dtype)
        if device is not None:
            device = _target_device(device)
            _spec(device)
    elif not isinstance(dtype, D.dtype):
        raise ValueError(f"invalid type: '{getattr(dtype, '__name__', dtype)}'")
    return convert(t, device, dtype)


# -- Tensor's conversion methods ----------------------------------------------------------
# Bound here, once, rather than as Tensor methods importing this module on every call
# (which cost ~2 us of a ~5 us conversion).

_SHORTCUTS = {"double": D.float64, "float": D.float32, "half": D.float16,
              "bfloat16": D.bfloat16, "long": D.int64, "int": D.int32, "short": D.int16,
              "char": D.int8, "byte": D.uint8, "bool": D.bool, "cfloat": D.complex64,
              "cdouble": D.complex128}


def _shortcut(name, dtype):
    def method(self, memory_format=None):
        return convert(self, None, dtype, False, memory_format)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"self.{name}() is self.to({dtype})"
    return method


def _to_method(self, device, dtype, copy=False):
    return convert(self, device, dtype, copy)


def _bind_tensor_methods():
    Tensor.to = to
    Tensor._to = _to_method
    for name, dtype in _SHORTCUTS.items():
        setattr(Tensor, name, _shortcut(name, dtype))


_bind_tensor_methods()
