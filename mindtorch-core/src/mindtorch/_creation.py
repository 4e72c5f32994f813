"""Creating tensors from host data, allocation, and argument parsing for .to()/.type().

Host data always travels as a C-contiguous numpy array to the device's from_host; the
data itself is never computed on here (invariant 1: core has no kernels)."""
import numbers

import numpy as np

from . import _dtype as D
from ._device import as_device, canonical, default_device
from ._promotion import promote_types
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


def _leaf_dtype(x):
    """The dtype torch.tensor infers for one leaf of the data."""
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (np.generic, np.ndarray)):
        return D.from_numpy_dtype(x.dtype)
    if isinstance(x, bool):
        return D.bool
    if isinstance(x, numbers.Integral):
        return D.int64
    if isinstance(x, numbers.Real):
        return D.get_default_dtype()
    if isinstance(x, numbers.Complex):
        return D.default_complex_dtype()
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _infer_host(data):
    """Host numpy array and the dtype torch.tensor would infer for `data`: the leaves'
    own dtypes (Python numbers: bool, int64, default float/complex) promoted together."""
    if isinstance(data, Tensor):
        return np.array(data.cpu()._host()), data.dtype
    if isinstance(data, (np.ndarray, np.generic)):
        return np.asarray(data), D.from_numpy_dtype(data.dtype)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    dtype = None

    def convert(x):
        nonlocal dtype
        if isinstance(x, Tensor) and x.ndim:
            dtype = x.dtype if dtype is None else promote_types(dtype, x.dtype)
            return x.tolist()
        if isinstance(x, np.ndarray) and x.ndim:
            dtype = _leaf_dtype(x) if dtype is None else promote_types(dtype, _leaf_dtype(x))
            return x.tolist()
        if isinstance(x, (list, tuple, range)) or (not isinstance(x, Tensor) and
                                                   hasattr(x, "__len__") and
                                                   hasattr(x, "__getitem__")
                                                   and not isinstance(x, (str, bytes))):
            return [convert(v) for v in x]
        d = _leaf_dtype(x)
        dtype = d if dtype is None else promote_types(dtype, d)
        return x.item() if isinstance(x, (Tensor, np.generic, np.ndarray)) else x

    py = convert(data)
    dtype = dtype or D.get_default_dtype()
    wide = {"b": np.bool_, "u": np.int64, "i": np.int64, "f": np.float64, "c": np.complex128}
    try:
        arr = np.array(py, dtype=wide[dtype.kind])
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
    except (ValueError, TypeError) as e:
        raise ValueError(f"expected a rectangular nested sequence of numbers: {e}") from None
    return arr, dtype


_PY_TYPES = {float: D.float64, int: D.int64, bool: D.bool, complex: D.complex128}


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    arr, inferred = _infer_host(data)
    dtype = _PY_TYPES.get(dtype, dtype) or inferred
    if not isinstance(dtype, D.dtype):
        raise TypeError(f"tensor(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    if inferred.is_complex and not dtype.is_complex:
        raise TypeError("must be real number, not complex")
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
