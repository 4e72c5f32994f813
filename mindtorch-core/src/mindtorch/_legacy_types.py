"""PyTorch's legacy tensor types (torch.FloatTensor, torch.LongTensor, ...): constructors
of CPU tensors of one dtype, usable in isinstance() and Tensor.type()."""
import operator

from . import _dtype as D

_TYPES = {"Double": D.float64, "Float": D.float32, "Half": D.float16,
          "BFloat16": D.bfloat16, "Long": D.int64, "Int": D.int32, "Short": D.int16,
          "Char": D.int8, "Byte": D.uint8, "Bool": D.bool}


class tensortype(type):
    """The class of the legacy types: `FloatTensor(data)`, `FloatTensor(2, 3)` (an
    uninitialised 2x3 tensor), `isinstance(t, FloatTensor)`."""

    is_cuda = False
    is_sparse = False

    def __instancecheck__(cls, obj):
        from ._tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == "cpu"

    def __call__(cls, *args, device=None, **kwargs):
        return legacy_new(cls.dtype, device, args, kwargs)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def legacy_new(dtype, device, args, kwargs, exact=True):
    """The legacy constructor (FloatTensor(...), Tensor.new(...), torch.Tensor(...)) of
    `dtype` tensors: no argument (empty), sizes or a torch.Size (uninitialised), a tensor
    of that dtype (detached alias; any dtype unless `exact`, as torch.Tensor's) or data."""
    from . import _creation
    from ._tensor import Tensor
    if kwargs:
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"unexpected keyword arguments {sorted(kwargs)}")
    if not args:
        return _creation.empty(0, dtype=dtype, device=device)
    if len(args) == 1 and type(args[0]).__name__ == "Size":
        return _creation.empty(*args, dtype=dtype, device=device)
    first = args[0]
    if _index_like(first) and not isinstance(first, bool) and \
            not (len(args) == 1 and isinstance(first, Tensor)):
        # sizes (PyTorch's int list: after the first, bools and one-element integer
        # tensors count as ints too)
        for pos, a in enumerate(args, 1):
            if not _index_like(a):
                from ._ops._argcheck import _type_name
                raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                                f"{pos} with error \"type must be tuple of ints,but got "
                                f"{_type_name(a)}\"")
        sizes = [int(a.item()) if isinstance(a, Tensor) else operator.index(a) for a in args]
        return _creation.empty(*sizes, dtype=dtype, device=device)
    if len(args) > 1:
        from ._ops._argcheck import _type_name
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(_type_name(a) for a in args)}), but expected one of:")
    data = args[0]
    if isinstance(data, Tensor):
        if data.dtype is not dtype and exact:
            raise TypeError(f"expected {dtype} tensor (got {data.dtype} tensor)")
        return data.detach()
    if data is None or isinstance(data, (float, bool, complex)):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    return _creation._tensor(data, dtype, device)  # (not torch.tensor: modes see no call)


def _index_like(a):
    """An element PyTorch's int-list parser takes: what has __index__, or a one-element
    integer tensor."""
    from ._tensor import Tensor
    if isinstance(a, Tensor):
        return a.numel() == 1 and not (a.dtype.is_floating_point or a.dtype.is_complex)
    try:  # (a NumPy array has __index__ but is data unless it is an integer 0-dim one)
        operator.index(a)
    except TypeError:
        return False
    return True


LEGACY_TYPES = {f"{name}Tensor": tensortype(f"{name}Tensor", (), {"dtype": dtype})
                for name, dtype in _TYPES.items()}


class storagetype(type):
    """The class of the legacy storages (torch.FloatStorage, ...): constructors of typed
    CPU storages of one dtype (FloatStorage(3), LongStorage([1, 2])), usable in
    isinstance() on any TypedStorage of that dtype, as PyTorch's."""

    def __instancecheck__(cls, obj):
        from ._storage import TypedStorage
        return isinstance(obj, TypedStorage) and obj.dtype is cls.dtype and \
            obj.device.type == "cpu"

    def __call__(cls, *args, **kwargs):
        from ._storage import TypedStorage
        return TypedStorage(*args, dtype=cls.dtype, **kwargs)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"

    def from_buffer(cls, buffer, byte_order="native", count=-1, offset=0):
        """A storage holding a copy of the buffer's bytes read as elements of its dtype."""
        import numpy as np

        from ._storage import TypedStorage, UntypedStorage
        from ._device import canonical
        order = {"native": "=", "little": "<", "big": ">"}.get(byte_order)
        if order is None:
            raise ValueError(f"Expected byte_order to be 'native', 'little' or 'big', got "
                             f"'{byte_order}'")
        wire = cls.dtype.np.newbyteorder(order) if cls.dtype.itemsize > 1 else cls.dtype.np
        data = np.frombuffer(buffer, wire, count, offset).astype(cls.dtype.np)
        return TypedStorage(wrap_storage=UntypedStorage._from_host(
            np.ascontiguousarray(data).view(np.uint8), canonical("cpu")), dtype=cls.dtype,
            _internal=True)


# the dtypes with a legacy storage class, named by PyTorch's ScalarType (FloatStorage)
_BY_DTYPE = {d: storagetype(D.scalar_type_name(d) + "Storage", (), {"dtype": d})
             for d in tuple(_TYPES.values()) + (D.complex64, D.complex128)}
LEGACY_STORAGES = {cls.__name__: cls for cls in _BY_DTYPE.values()}
LEGACY_STORAGES["Storage"] = LEGACY_STORAGES["FloatStorage"]  # (PyTorch's alias)
LEGACY_TYPES.update(LEGACY_STORAGES)


def storage_type(t):
    """Tensor.storage_type(): the legacy storage class of t's dtype (None for dtypes
    without one)."""
    return _BY_DTYPE.get(t.dtype)


def set_default_tensor_type(t):
    """Deprecated torch.set_default_tensor_type(torch.DoubleTensor or 'torch.FloatTensor'):
    the type's dtype becomes the default (CPU types only).  A name is imported as PyTorch
    does (its ImportError / AttributeError)."""
    from ._warn_once import warn_once
    warn_once("set_default_tensor_type",
              "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
              "torch.set_default_dtype() and torch.set_default_device() as alternatives.")
    if isinstance(t, str):
        if t.startswith("torch.cuda.") and t.endswith("Tensor"):
            raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
        t = _import_dotted(t)
    if not isinstance(t, tensortype):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    D.set_default_dtype(t.dtype)


def _import_dotted(name):
    import importlib

    import mindtorch
    parts = name.split(".")
    obj = mindtorch if parts[0] == "torch" else importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], 1):
        if not hasattr(obj, part):
            raise AttributeError(f"module '{'.'.join(parts[:i])}' has no attribute '{part}'")
        obj = getattr(obj, part)
    return obj
