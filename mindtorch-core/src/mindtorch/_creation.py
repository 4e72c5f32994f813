"""Creating tensors from host data, allocation, and the conversions behind .to()/.type().

Host data always travels as a C-contiguous numpy array to the device's from_host; the
data itself is never computed on here (invariant 1: core has no kernels): host data is
only converted (cast and laid out) on the host, tensors are converted by the ops
(empty_like + copy_)."""
import warnings

from . import _dtype as D
from ._device import as_device, canonical, default_device
from ._device import device as _device_t
from ._from_sequence import NEST, _tp_name, host_from_sequence, regular_nest
from ._layout import TorchName
from ._lazy import lazy
from ._memory_format import memory_format as _memory_format_t
from ._storage import FIXED_SIZE, UntypedStorage, _spec
from ._tensor import Tensor, _check_format, contiguous_strides
from .autograd.grad_mode import state as _grad
from .overrides import state as _tf_state

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
    if nbytes >= 1 << 63:  # (PyTorch's computeStorageNbytes)
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}" + (
            "" if stride == _contiguous(shape) else f" and strides={list(stride)}"))
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


def deprecated_range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None,
                     device=None, requires_grad=False):
    """torch.range: start, start + step, ... up to end inclusive (floor((end - start) / step)
    + 1 values), in the default dtype unless dtype= says otherwise; deprecated, as in
    PyTorch."""
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    from ._ops.decls.creation import arange_plan
    dtype = dtype or D.get_default_dtype()
    arange_plan(start, end, step, dtype)  # PyTorch's checks of the bounds and step
    if dtype.kind in "uib":  # accumulated in int64, as PyTorch
        start, end, step = int(start), int(end), int(step)
        n = abs(end - start) // abs(step) + 1
    else:
        n = int((float(end) - float(start)) / float(step)) + 1
    r = (_op("arange")(n, dtype=D.float64 if dtype.kind in "fc" else D.int64, device=device)
         * step + start).to(dtype)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r.requires_grad_() if requires_grad else r


deprecated_range.__name__ = deprecated_range.__qualname__ = "range"


_PY_TYPES = {float: D.float64, int: D.int64, bool: D.bool, complex: D.complex128}


def _dtype_arg(dtype, fn="tensor"):
    dtype = _PY_TYPES.get(dtype, dtype)
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    return dtype


def warn_copy_construct(data, what):
    """PyTorch's advice when torch.tensor / new_tensor copy a tensor."""
    if isinstance(data, Tensor):
        warnings.warn(f"To copy construct from a tensor, it is recommended to use "
                      f"sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      f".requires_grad_(True), rather than {what}(sourceTensor).",
                      UserWarning, stacklevel=3)


def _through_modes(fn, data, **options):
    """fn(data, **options) handed to the active TorchFunctionModes, as PyTorch's factories
    are (the options given, defaults left out)."""
    import inspect

    from .overrides import handle_torch_function
    defaults = inspect.signature(fn).parameters
    given = {k: v for k, v in options.items() if v is not defaults[k].default}
    return handle_torch_function(fn, (), data, **given)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    if _tf_state.mode:
        return _through_modes(tensor, data, dtype=dtype, device=device,
                              requires_grad=requires_grad, pin_memory=pin_memory)
    warn_copy_construct(data, "torch.tensor")
    return _tensor(data, dtype, device, requires_grad)


def _tensor(data, dtype=None, device=None, requires_grad=False):
    dtype = _dtype_arg(dtype)
    device = _target_device(device)
    if isinstance(data, Tensor):  # a copy, laid out like data, without its history
        t = convert(data.detach(), device, dtype, copy=True)
    elif isinstance(data, (np.ndarray, np.generic)):
        if isinstance(data, np.uint64) and dtype in (None, D.uint64):  # (PyTorch's store
            raise TypeError("an integer is required")                 # refuses it)
        t = _copy_ndarray(np.asarray(data), dtype, device)
    else:
        nest = regular_nest(data) if type(data) in NEST else None
        t = _stacked(nest, dtype, device) if nest and nest[2] == {Tensor} else None
        if t is None:
            host, dtype = host_from_sequence(data, dtype, nest)
            t = _from_host_array(host, device, dtype)
    if _grad.inference:
        _inference_tensor(t)
    if requires_grad:
        _requires_grad(t)
    return t


def _inference_tensor(t):
    from .autograd._inference import mark_new
    return mark_new(t)


def _stacked(nest, dtype, device):
    """tensor() of a regular nest of 0-dim tensors of one dtype and device (the values are
    read as they are, so the stack op writes them at once), or None for the general path:
    tensors that require grad (PyTorch warns), of several dtypes (PyTorch reads each as a
    Python number, with that number's conversion) or without data."""
    sizes, flat, _ = nest
    dev, dt = flat[0]._device, flat[0].dtype
    for t in flat:
        if t._shape or t._requires_grad or t._device is not dev or t.dtype is not dt:
            return None
    if dtype not in (None, dt) or not _spec(dev).has_data:
        return None
    r = _op("stack")(flat)
    if len(sizes) > 1:  # the fresh result's storage, shaped as the nest (not a view)
        shape = tuple(sizes)
        r = Tensor._make(r._storage, shape, _contiguous(shape), 0, dt)
    return convert(r, device)


def as_tensor(data, dtype=None, device=None):
    """data itself when it already is a tensor (or a cpu numpy array) of that dtype and
    device; else a converted copy."""
    if _tf_state.mode:
        return _through_modes(as_tensor, data, dtype=dtype, device=device)
    dtype = _dtype_arg(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return convert(data, device, dtype)
    if isinstance(data, np.ndarray):
        return _adopt_ndarray(data, dtype, device, copy=False)
    return tensor(data, dtype=dtype, device=device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """PyTorch's asarray: tensors, numpy arrays and buffer-protocol objects (their bytes
    read as dtype or the default dtype) are aliased when they can be: copy=None copies only
    for another dtype / device, True always copies, False refuses to.  Numpy scalars and
    0-dim arrays are copied; other objects are read as sequences.  The result's
    requires_grad is set (on obj itself when it is returned): by default obj's."""
    if _tf_state.mode:
        return _through_modes(asarray, obj, dtype=dtype, device=device, copy=copy,
                              requires_grad=requires_grad)
    dtype = _dtype_arg(dtype, "asarray")
    from ._storage import _StorageBase, _flat
    if isinstance(obj, _StorageBase):  # its bytes read as dtype (PyTorch's default: int64)
        t = _flat(obj._untyped(), dtype or getattr(obj, "dtype", None) or D.int64)
        t = t if device is None else t.to(device)
        return _requires_grad(t) if requires_grad else t
    t = obj if isinstance(obj, Tensor) else None
    rg = requires_grad if requires_grad is not None else t is not None and t.requires_grad
    if rg and requires_grad is None:
        from ._warn_once import warn_once
        warn_once("asarray_requires_grad", "torch.asarray: unspecified requires_grad now "
                  "defaults to obj.requires_grad instead of False. Pass requires_grad=False "
                  "explicitly to get the old behavior and silence this warning.")
    force_copy = bool(copy)
    if isinstance(obj, (np.ndarray, np.generic)):
        if isinstance(obj, np.generic) and copy is False:
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or "
                               "transform it in a ndarray. ")
        array = np.asarray(obj)
        t = _shared(array, _check_ndarray(array))
        if array.ndim == 0:  # (PyTorch: a scalar, copied)
            t, force_copy = t.clone(), False
    elif t is None and type(obj).__name__ == "PyCapsule":
        from .utils.dlpack import from_dlpack
        t = from_dlpack(obj)
    elif t is None and not isinstance(obj, str):
        try:
            memoryview(obj)
        except TypeError:
            pass
        else:
            t = frombuffer(obj, dtype=dtype or D.get_default_dtype())
    if t is None:  # a sequence
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        t = tensor(obj, dtype=dtype, device=device)
        return _requires_grad(t) if rg else t
    dev = None if device is None else _target_device(device)
    wrong_device = dev is not None and dev is not t._device
    wrong_dtype = dtype is not None and dtype is not t.dtype
    if force_copy or copy is None and (wrong_device or wrong_dtype):
        t = convert(t, dev, dtype, copy=force_copy) if wrong_device or wrong_dtype else \
            t.clone()
    elif wrong_device:
        raise ValueError(f"can't alias tensor from device '{t._device}' to '{dev}'.")
    elif wrong_dtype:
        raise ValueError(f"can't alias tensor with dtype '{D.scalar_type_name(t.dtype)}' "
                         f"into dtype '{D.scalar_type_name(dtype)}'.")
    if t.grad_fn is not None:
        return t if rg else t.detach()
    if rg:
        return _requires_grad(t)
    t._requires_grad = False
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


def _real_if_needed(array, dtype):
    """complex -> real drops the imaginary part, silently (as copy_; bool tests both);
    float8 destinations get c10's conversion (_float8.py); a double becomes a float16
    through float32, as c10's."""
    if dtype._limited == D._FP8 and array.dtype != dtype.np:
        from . import _float8
        return _float8.cast(array, dtype)
    if array.dtype.kind == "c" and dtype.np.kind not in "cb":
        array = array.real
    if dtype is D.float16 and array.dtype.itemsize > 4 and array.dtype.kind == "f":
        return array.astype(np.float32)  # (c10::Half is built from a float: rounds twice)
    return array


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
        with np.errstate(all="ignore"):  # (not catch_warnings: it re-arms shown warnings)
            return _from_host_array(_real_if_needed(array, dtype).astype(dtype.np), device, dtype)
    from ._strides import preserve_strides
    stride = preserve_strides(array.shape, stride)
    span = 0 if array.size == 0 else sum((n - 1) * s for n, s in zip(array.shape, stride)) + 1
    flat = np.empty(span, dtype.np)
    laid_out = np.lib.stride_tricks.as_strided(flat, array.shape,
                                               tuple(s * flat.itemsize for s in stride))
    with np.errstate(all="ignore"):
        np.copyto(laid_out, _real_if_needed(array, dtype), casting="unsafe")
    storage = UntypedStorage._from_host(flat, device)
    return Tensor._make(storage, tuple(array.shape), stride, 0, dtype)


def _adopt_ndarray(array, dtype, device, copy):
    """as_tensor/asarray of a numpy array: shared when it is already right, else a copy."""
    src = _check_ndarray(array)
    device = _target_device(device)
    if copy or device.type != "cpu" or (dtype is not None and dtype is not src):
        t = _copy_ndarray(array, dtype, device)
        return _inference_tensor(t) if _grad.inference else t
    return _shared(array, src)


def from_numpy(array):
    """A cpu tensor sharing memory with a numpy array (any non-negative strides)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_tp_name(type(array))})")
    return _shared(array, _check_ndarray(array))


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None,
              pin_memory=False):
    """A 1-D cpu tensor of `size` elements read from a file's bytes; shared=True maps the
    file (writes reach it; a missing file is created with that size), else a copy."""
    import os
    dtype = dtype or D.get_default_dtype()
    nbytes = size * dtype.itemsize
    mode = "read-write" if shared else "read-only"
    if shared and not os.path.exists(filename):
        with open(filename, "wb") as f:
            f.truncate(nbytes)
    try:
        actual = os.path.getsize(filename)
    except OSError as e:
        raise RuntimeError(f"unable to open file <{filename}> in {mode} mode: {e.strerror} "
                           f"({e.errno})") from None
    if actual < nbytes:
        raise RuntimeError(f"file <{filename}> size <{actual}> is smaller than the required "
                           f"mapping size <{nbytes}>")
    if not size:
        return empty(0, dtype=dtype, device=device)
    flat = np.memmap(filename, np.uint8, "r+", shape=(nbytes,)) if shared else \
        np.fromfile(filename, np.uint8, count=nbytes)
    t = _shared(np.asarray(flat).view(dtype.np) if not shared else flat.view(dtype.np), dtype)
    return t if device is None else t.to(device)


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D cpu tensor over an object exposing the buffer protocol (sharing its memory),
    with PyTorch's checks of count and offset."""
    mem = memoryview(buffer).cast("B")
    if mem.readonly:  # (once, before the checks, as PyTorch)
        from ._warn_once import warn_once
        warn_once("buffer_not_writable", "The given buffer is not writable, and PyTorch does "
                  "not support non-writable tensors. This means you can write to the underlying "
                  "(supposedly non-writable) buffer using the tensor. You may want to copy "
                  "the buffer to protect its data or make it writable before converting it "
                  "to a tensor. This type of warning will be suppressed for the rest of "
                  "this program.")
    size, isz = mem.nbytes, dtype.itemsize
    if size == 0 or count == 0:
        raise ValueError(f"both buffer length ({size}) and count ({count}) must not be 0")
    if not 0 <= offset < size:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({size} bytes) minus 1")
    if count < 0:
        if (size - offset) % isz:
            raise ValueError(f"buffer length ({size - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({isz})")
        count = (size - offset) // isz
    elif size - offset < count * isz:
        raise ValueError(f"requested buffer length ({count} * {isz} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({size} bytes)")
    array = np.frombuffer(mem, dtype=np.uint8, count=count * isz, offset=offset)
    if mem.readonly:  # (PyTorch writes through it; a copy keeps the buffer intact)
        array = array.copy()
    t = _shared(array.view(dtype.np), dtype)
    return t.requires_grad_() if requires_grad else t


def _shared(array, dtype):
    """from_numpy of an array _check_ndarray accepted (as dtype)."""
    if not array.flags.writeable:
        from ._warn_once import warn_once
        warn_once("numpy_not_writable", "The given NumPy array is not writable, and PyTorch "
                  "does not support non-writable tensors. This means writing to this tensor "
                  "will result in undefined behavior. You may want to copy the array to "
                  "protect its data or make it writable before converting it to a tensor. "
                  "This type of warning will be suppressed for the rest of this program.")
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
    FIXED_SIZE.add(storage)
    t = Tensor._make(storage, tuple(array.shape), stride, 0, dtype)
    return _inference_tensor(t) if _grad.inference else t


def _rebuild(array, device, requires_grad):
    t = tensor(array, device=device)
    t.requires_grad = requires_grad
    return t


def _rebuild_tensor(storage, offset, shape, stride, dtype, requires_grad):
    """Tensor.__reduce_ex__'s inverse: a tensor over `storage` (a SharedStorage handed on
    by copy.copy, or the UntypedStorage unpickled from one)."""
    from ._storage import SharedStorage
    if isinstance(storage, SharedStorage):
        storage = storage.storage
    t = Tensor._make(storage, tuple(shape), tuple(stride), offset, getattr(D, dtype))
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
    else a fresh tensor laid out like t (preserve_format) or in memory_format.  As in
    PyTorch, memory_format copies only when t's strides suggest another format."""
    device = t._device if device is None else _device_of(device)
    dtype = t.dtype if dtype is None else dtype
    if device is t._device and dtype is t.dtype and not copy:
        if memory_format is None or memory_format == "preserve_format":
            return t
        from ._memory_format import suggest
        if suggest(t) == memory_format:
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
    return _inference_tensor(out) if _grad.inference else out


_TO_NAMES = ("device", "dtype", "non_blocking", "copy")


def _is_dtype(x):
    return isinstance(x, D.dtype) or (isinstance(x, type) and x in _PY_TYPES)


def _parse_to(*args, **kwargs):
    """(device, dtype, non_blocking, copy, memory_format) from Tensor.to's overloads:
    to(device=None, dtype=None, non_blocking=False, copy=False), to(dtype, non_blocking,
    copy), to(tensor, non_blocking, copy); memory_format= is keyword-only."""
    values = dict(device=None, dtype=None, non_blocking=False, copy=False)
    names = _TO_NAMES
    given, args = args, list(args)  # (the error lists the arguments as given)
    if args and isinstance(args[0], Tensor):
        other = args.pop(0)
        values.update(device=other._device, dtype=other.dtype)
        names = _TO_NAMES[2:]
    elif args and args[0] is not None and _is_dtype(args[0]):
        values["dtype"] = args.pop(0)
        names = _TO_NAMES[2:]
    listed = dict(kwargs)  # (the error lists memory_format too)
    memory_format = kwargs.pop("memory_format", None)
    if memory_format is not None and type(memory_format) is not _memory_format_t:
        raise _bad_to(given, listed)  # (a format's name as a str is refused, as PyTorch)
    if len(args) > len(names) or any(k not in _TO_NAMES for k in kwargs) or \
            any(k in kwargs for k in names[:len(args)]) or \
            (names is not _TO_NAMES and ("device" in kwargs or "dtype" in kwargs)):
        raise _bad_to(given, kwargs)
    values.update(zip(names, args))
    values.update(kwargs)
    device, dtype = values["device"], values["dtype"]
    if device is not None and not isinstance(device, (str, int)) and \
            type(device).__name__ != "device" or isinstance(device, (bool, TorchName)):
        raise _bad_to(given, kwargs)  # (a memory format or layout is a str, not a device)
    if dtype is not None and not _is_dtype(dtype):
        raise _bad_to(given, kwargs)
    if not all(isinstance(values[k], bool) for k in ("non_blocking", "copy")):
        raise _bad_to(given, kwargs)
    device = canonical(as_device(device)) if device is not None else None
    return device, _PY_TYPES.get(dtype, dtype), values["non_blocking"], values["copy"], \
        memory_format


def _parse_to_no_copy(*args, **kwargs):
    """(device, dtype, non_blocking, memory_format) as torch._C._nn._parse_to reads them for
    Module.to and PackedSequence.to: Tensor.to's arguments, a copy argument refused."""
    device, dtype, non_blocking, _, memory_format = _parse_to(*args, **kwargs)
    positional = _TO_NAMES if not args or not (isinstance(args[0], Tensor) or (
        args[0] is not None and _is_dtype(args[0]))) else (None,) + _TO_NAMES[2:]
    if "copy" in kwargs or "copy" in positional[:len(args)]:
        raise RuntimeError(".to() does not accept copy argument")
    return device, dtype, non_blocking, memory_format


def _bad_to(args, kwargs):
    from ._ops._argcheck import _type_name
    # (PyTorch's listing: keywords last to first, a trailing ", " when there are only those)
    got = ", ".join([_type_name(a) for a in args] +
                    [f"{k}={_type_name(v)}" for k, v in reversed(kwargs.items())])
    got += ", " if kwargs and not args else ""
    return TypeError(f"to() received an invalid combination of arguments - got "
                     f"({got}), but expected one of:\n"
                     " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking"
                     " = False, bool copy = False, *, torch.memory_format memory_format = None)\n"
                     " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
                     "torch.memory_format memory_format = None)\n"
                     " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
                     "torch.memory_format memory_format = None)\n")


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
_TYPE_NAMES.update({d: D.scalar_type_name(d) + "Tensor" for d in (D.uint16, D.uint32, D.uint64)
                    + D.FLOAT8})  # (names only: no legacy classes, as in PyTorch)
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


# the dtypes with legacy tensor type names (torch.FloatTensor...): PyTorch's error messages
# show the others by their dispatch type names (CPUBoolType, CPUComplexFloatType)
_LEGACY_NAMED = frozenset({"float64", "float32", "float16", "int64", "int32", "int16", "int8",
                           "uint8"})


def message_type_name(t):
    """t's type as PyTorch's error messages print it."""
    if t.dtype.name in _LEGACY_NAMED:
        return parse_type_name(t)
    device = t._device.type
    return f"{'CPU' if device == 'cpu' else device.upper()}{D.scalar_type_name(t.dtype)}Type"


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
    elif not isinstance(dtype, type) and not isinstance(dtype, D.dtype):
        raise TypeError("dtype must be a type, str, or dtype object")
    elif not isinstance(dtype, D.dtype):  # a class that is no tensor type
        raise ValueError(f"invalid type: '{dtype.__name__}'")
    return convert(t, device, dtype)


# -- Tensor's conversion methods ----------------------------------------------------------
# Bound here, once, rather than as Tensor methods importing this module on every call
# (which cost ~2 us of a ~5 us conversion).

_SHORTCUTS = {"double": D.float64, "float": D.float32, "half": D.float16,
              "bfloat16": D.bfloat16, "long": D.int64, "int": D.int32, "short": D.int16,
              "char": D.int8, "byte": D.uint8, "bool": D.bool, "cfloat": D.complex64,
              "cdouble": D.complex128}


def _shortcut(name, dtype):
    def method(self, *, memory_format=None):
        if memory_format is not None:
            _check_format(name, memory_format)
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
