"""Creating tensors from host data, allocation, and argument parsing for .to()/.type().

Host data always travels as a C-contiguous numpy array to the device's from_host; the
data itself is never computed on here (invariant 1: core has no kernels)."""
import numbers

import numpy as np

from . import _dtype as D
from ._device import as_device, canonical, default_device
from ._storage import UntypedStorage, _spec
from ._tensor import Tensor, contiguous_strides


def _target_device(device):
    if device is None:
        device = default_device() or "cpu"
    return canonical(as_device(device))


def _empty(shape, dtype, device):
    """Uninitialised contiguous tensor (core: memory comes from the device's allocator)."""
    device = device if type(device) is not str else canonical(device)
    shape = tuple(shape)
    n = 1
    for s in shape:
        n *= s
    spec = _spec(device)
    nbytes = n * dtype.itemsize
    storage = UntypedStorage._wrap(spec.allocate(nbytes, device.index), nbytes, device, spec)
    return Tensor._make(storage, shape, contiguous_strides(shape), 0, dtype)


def _from_host_array(arr, device, requires_grad=False):
    arr = arr if arr.flags.c_contiguous else np.array(arr, order="C")  # keeps 0-dim
    dtype = D.from_numpy_dtype(arr.dtype)
    storage = UntypedStorage._from_host(arr, device)
    t = Tensor._make(storage, arr.shape, contiguous_strides(arr.shape), 0, dtype)
    t.requires_grad = requires_grad
    return t


def _infer_host(data):
    """Host numpy array and the dtype torch.tensor would infer for `data`."""
    if isinstance(data, Tensor):
        return np.array(data.cpu()._host()), data.dtype
    if isinstance(data, np.ndarray):
        return data, D.from_numpy_dtype(data.dtype)
    if isinstance(data, np.generic):
        return np.asarray(data), D.from_numpy_dtype(data.dtype)
    if isinstance(data, (str, bytes)) or data is None:
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    kinds = set()

    def convert(x, depth):
        if isinstance(x, Tensor):
            if x.numel() != 1 and x.ndim:
                return [convert(v, depth + 1) for v in x.unbind(0)]
            kinds.add(x.dtype.kind)
            return x.item()
        if isinstance(x, (bool, np.bool_)):
            kinds.add("b")
            return bool(x)
        if isinstance(x, numbers.Integral):
            kinds.add("i")
            return int(x)
        if isinstance(x, numbers.Real):
            kinds.add("f")
            return float(x)
        if isinstance(x, numbers.Complex):
            kinds.add("c")
            return complex(x)
        if isinstance(x, np.ndarray):
            kinds.add(D.from_numpy_dtype(x.dtype).kind)
            return x.tolist()
        if isinstance(x, (list, tuple)) or hasattr(x, "__len__") and hasattr(x, "__getitem__"):
            return [convert(v, depth + 1) for v in x]
        raise TypeError(f"Could not infer dtype of {type(x).__name__}")

    py = convert(data, 0)
    if "c" in kinds:
        dtype, npdt = D.default_complex_dtype(), np.complex128
    elif "f" in kinds:
        dtype, npdt = D.get_default_dtype(), np.float64
    elif kinds & {"i", "u"}:
        dtype, npdt = D.int64, np.int64
    elif "b" in kinds:
        dtype, npdt = D.bool, np.bool_
    else:  # empty lists
        dtype, npdt = D.get_default_dtype(), np.float64
    try:
        arr = np.array(py, dtype=npdt)
    except OverflowError:
        raise RuntimeError("Overflow when unpacking long") from None
    except ValueError as e:
        raise ValueError(f"expected a rectangular nested sequence of numbers: {e}") from None
    return arr, dtype


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    arr, inferred = _infer_host(data)
    dtype = dtype or inferred
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    with np.errstate(all="ignore"):
        return _from_host_array(arr.astype(dtype.np, copy=False), _target_device(device),
                                requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor):
        return data._to(device, dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype) \
            and _target_device(device).type == "cpu":
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


asarray = as_tensor


def from_numpy(array):
    """A cpu tensor sharing memory with a numpy array (any non-negative strides)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtype = D.from_numpy_dtype(array.dtype)
    isz = array.itemsize
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    if any(s % isz for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    stride = tuple(s // isz for s in array.strides)
    if array.size == 0:
        span = 0
        raw = np.empty(0, np.uint8)
    else:
        span = (sum((n - 1) * s for n, s in zip(array.shape, stride)) + 1) * isz
        first = array[(slice(0, 1),) * array.ndim].reshape(-1).view(np.uint8) if array.ndim \
            else array.reshape(1).view(np.uint8)
        raw = np.lib.stride_tricks.as_strided(first, shape=(span,), strides=(1,))
    cpu = canonical("cpu")
    storage = UntypedStorage._wrap(raw, span, cpu)
    return Tensor._make(storage, tuple(array.shape), stride, 0, dtype)


def _rebuild(array, device, requires_grad):
    t = tensor(array, device=device)
    t.requires_grad = requires_grad
    return t


def parse_to(t, *args, dtype=None, device=None, non_blocking=False, copy=False,
             memory_format=None):
    """(device, dtype, copy) from Tensor.to's overloads: to(dtype), to(device[, dtype]),
    to(tensor)."""
    for a in args:
        if isinstance(a, D.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            device, dtype = a._device, a.dtype
        elif isinstance(a, (str, int)) or type(a).__name__ == "device":
            device = a
        elif isinstance(a, bool):
            non_blocking = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({type(a).__name__})")
    return (canonical(as_device(device)) if device is not None else None), dtype, copy


_TYPE_NAMES = {
    D.float32: "FloatTensor", D.float64: "DoubleTensor", D.float16: "HalfTensor",
    D.bfloat16: "BFloat16Tensor", D.int64: "LongTensor", D.int32: "IntTensor",
    D.int16: "ShortTensor", D.int8: "CharTensor", D.uint8: "ByteTensor", D.bool: "BoolTensor",
    D.complex64: "ComplexFloatTensor", D.complex128: "ComplexDoubleTensor",
}


def parse_type_name(t, name=None):
    if name is None:
        prefix = "torch." if t._device.type == "cpu" else f"torch.{t._device.type}."
        return prefix + _TYPE_NAMES[t.dtype]
    for dt, n in _TYPE_NAMES.items():
        if name.endswith("." + n) or name == n:
            return dt
    raise ValueError(f"invalid type: '{name}'")
