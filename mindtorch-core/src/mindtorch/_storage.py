"""Storages.  UntypedStorage: a device buffer owned by a backend (handle + nbytes + device),
shared by a tensor and its views.  TypedStorage: what Tensor.storage() returns (deprecated
in PyTorch), an UntypedStorage read as elements of one dtype.

Core has no kernels: element access, fill and copy go through ops on a flat tensor laid
over the storage's bytes, so they work on every backend (and raise on `meta`, which has no
data).  Memory sharing: share_memory_() moves the bytes to memory the backend can share
(cpu: an anonymous shared mapping, which processes forked afterwards share, as PyTorch's
Hogwild examples need; a pickled tensor still travels by value, so processes started with
"spawn" get copies).  Tensors already holding a numpy view of the old bytes (cpu caches
one per tensor) are not redirected: share a tensor before making aliases of it, as
Module.share_memory() right after construction does.  Pinning: with no accelerator,
pin_memory() raises as PyTorch's does on a CPU-only machine."""
import warnings
import weakref

from ._device import canonical
from ._lazy import lazy
from .plugins._registry import DEVICES

np = lazy("numpy", globals())  # imported with the first tensor (see _lazy.py)


def _spec(device):
    spec = DEVICES.get(device.type)
    if spec is None:
        if device.type == "cuda":
            from ._no_cuda import _unavailable
            _unavailable()
        from .backends import _installed_summary
        raise RuntimeError(f"device type '{device.type}' is not available: no installed "
                           f"backend registers it (installed backends: {_installed_summary()})")
    return spec


def _flat(storage, dtype):
    """A 1-D tensor of `dtype` over all of the storage's bytes."""
    from ._tensor import Tensor
    return Tensor._make(storage, (storage._nbytes // dtype.itemsize,), (1,), 0, dtype)


def _no_data(storage):
    if not storage._spec.has_data:
        raise NotImplementedError(f"Not available for '{storage.device.type}' device type")


def _check_index(i, n):
    if not isinstance(i, int) or isinstance(i, bool):
        if hasattr(i, "__index__") and not isinstance(i, bool):
            i = i.__index__()
        else:
            raise TypeError(f"can't index a storage with {type(i).__name__}")
    if not -n <= i < n:
        raise IndexError(f"index {i} out of range for storage of size {n}")
    return i % n if n else i


def _pin_memory(device, dtype=None):
    if device.type != "cpu":
        from ._dtype import uint8
        from ._dtype import scalar_type_name  # ('Float' for float32)
        name = device.type.capitalize() + scalar_type_name(dtype or uint8)
        raise RuntimeError(f"cannot pin '{name}Type' only dense CPU tensors can be pinned")
    raise RuntimeError("Cannot access accelerator device when none is available.")


def _share(storage):
    spec = storage._spec
    if not spec.has_data:
        raise RuntimeError("_share_fd_: only available on CPU")
    if spec.share_memory is not None:  # (a device without it: left as it is, as torch's cuda)
        storage._handle = spec.share_memory(storage._handle, storage._nbytes)
    return storage


class _StorageBase:
    """What both storage kinds compute the same way from _elements()."""
    __slots__ = ()

    def _elements(self):
        raise NotImplementedError

    def __len__(self):
        return self.size()

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        _no_data(self._untyped())
        return self._elements()[_check_index(i, self.size())].item()

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            self._elements()[i] = value
            return
        _no_data(self._untyped())
        self._elements()[_check_index(i, self.size())] = value

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        _no_data(self._untyped())
        return self._elements().tolist()

    def fill_(self, value):
        self._elements().fill_(value)
        return self

    def data_ptr(self):
        return self._untyped().data_ptr()

    def is_shared(self):
        u = self._untyped()
        return bool(u._spec.is_shared(u._handle))

    def share_memory_(self):
        _share(self._untyped())
        return self

    def is_pinned(self, device="cuda"):
        return False

    def pin_memory(self, device="cuda"):
        _pin_memory(self.device)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_meta(self):
        return self.device.type == "meta"

    def __str__(self):
        if not self._untyped()._spec.has_data:  # (meta)
            data = "..."
        else:
            data = " " + "\n ".join(str(v) for v in self.tolist())
        return f"{data}\n[{self._description()} of size {len(self)}]"

    __repr__ = __str__


# storages over memory the tensor does not own (from_numpy, frombuffer): never grown, as
# PyTorch's non-resizable storages
FIXED_SIZE = weakref.WeakSet()


class UntypedStorage(_StorageBase):
    __slots__ = ("_handle", "_nbytes", "device", "__weakref__")

    def __init__(self, nbytes=0, device="cpu"):
        dev = canonical(device)
        self._handle = _spec(dev).allocate(int(nbytes), dev.index)
        self._nbytes, self.device = int(nbytes), dev

    @classmethod
    def _wrap(cls, handle, nbytes, device, spec=None):
        s = object.__new__(cls)
        s._handle, s._nbytes, s.device = handle, nbytes, device
        return s

    @property
    def _spec(self):
        return _spec(self.device)

    @classmethod
    def _from_host(cls, array, device):
        """Storage on `device` holding a C-contiguous host array (shared on cpu)."""
        spec = _spec(device)
        return cls._wrap(spec.from_host(array, device.index), array.nbytes, device, spec)

    def _untyped(self):
        return self

    def untyped(self):
        return self

    def _elements(self):
        from ._dtype import uint8
        return _flat(self, uint8)

    def nbytes(self):
        return self._nbytes

    def size(self):
        return self._nbytes

    def element_size(self):
        return 1

    def data_ptr(self):
        return self._spec.data_ptr(self._handle)

    def _host_bytes(self):
        """The bytes as a host uint8 array (the memory itself on cpu)."""
        if not self._spec.has_data:
            raise NotImplementedError(f"Cannot copy out of {self.device.type} tensor; no data!")
        return self._spec.to_host(self._handle, self._nbytes)

    def __getitem__(self, i):
        if isinstance(i, slice):  # a storage over those bytes (shared on cpu)
            start, stop, step = i.indices(self._nbytes)
            if step != 1:
                raise RuntimeError(f"Trying to slice with a step of {step}, but only a step "
                                   f"of 1 is supported")
            return UntypedStorage._from_host(self._host_bytes()[start:max(start, stop)],
                                             self.device)
        return _StorageBase.__getitem__(self, i)

    @classmethod
    def from_file(cls, filename, shared=False, nbytes=0):
        """The first nbytes of a file: mapped if shared (writes reach it), else a copy."""
        from ._creation import from_file
        from ._dtype import uint8
        return from_file(filename, shared, nbytes, dtype=uint8)._storage

    def copy_(self, src, non_blocking=False):
        if src.nbytes() != self._nbytes:
            raise RuntimeError(f"size does not match, self was {self._nbytes} bytes but src "
                               f"was {src.nbytes()} bytes")
        self._elements().copy_(src._untyped()._elements())
        return self

    def clone(self):
        return self._elements().clone()._storage

    def __deepcopy__(self, memo):
        return self.clone()

    def cpu(self):
        return self if self.device.type == "cpu" else self._elements().cpu()._storage

    def to(self, *, device, non_blocking=False):
        dev = canonical(device)
        return self if dev is self.device else self._elements().to(dev)._storage

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return "torch.storage.UntypedStorage"
        raise NotImplementedError("UntypedStorage.type(dtype) is not supported")

    def _description(self):
        return f"torch.storage.UntypedStorage(device={self.device})"


_warned = [False]


class SharedStorage:
    """A tensor's storage as Tensor.__reduce_ex__ hands it on: copy.copy passes it as it is
    (the copy shares memory, as PyTorch's); pickle writes the storage's bytes, once per
    tensor pickled (as PyTorch's, views pickled together do not share memory after)."""
    __slots__ = ("storage",)

    def __init__(self, storage):
        self.storage = storage

    def __reduce__(self):
        s = self.storage
        if not s._spec.has_data:  # (meta: a storage of the size, without data)
            return UntypedStorage, (s._nbytes, str(s.device))
        data = np.array(s._host_bytes()[:s._nbytes], copy=True) if s._nbytes else \
            np.zeros(0, np.uint8)
        return _storage_from_bytes, (data, str(s.device))


def _storage_from_bytes(data, device):
    return UntypedStorage._from_host(data, canonical(device))


def _warn_typed_storage_removal(stacklevel=3):
    """PyTorch warns once per process that TypedStorage is deprecated."""
    if not _warned[0]:
        _warned[0] = True
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and "
                      "UntypedStorage will be the only storage class. This should only matter "
                      "to you if you are using storages directly.  To access UntypedStorage "
                      "directly, use tensor.untyped_storage() instead of tensor.storage()",
                      UserWarning, stacklevel=stacklevel)


class TypedStorage(_StorageBase):
    """An UntypedStorage read as elements of `dtype` (Tensor.storage())."""
    is_sparse = False

    def __init__(self, *args, wrap_storage=None, dtype=None, device=None, _internal=False):
        if not _internal:
            _warn_typed_storage_removal()
        from ._dtype import get_default_dtype
        self.dtype = dtype or get_default_dtype()
        if wrap_storage is None:
            n = args[0] if args and isinstance(args[0], int) else 0
            wrap_storage = UntypedStorage(n * self.dtype.itemsize, device or "cpu")
            if args and not isinstance(args[0], int):  # TypedStorage(sequence)
                data = list(args[0])
                wrap_storage = UntypedStorage(len(data) * self.dtype.itemsize,
                                              device or "cpu")
                _flat(wrap_storage, self.dtype).copy_(_as_tensor(data, self.dtype))
        self._untyped_storage = wrap_storage

    @property
    def device(self):
        return self._untyped_storage.device

    def _untyped(self):
        return self._untyped_storage

    def untyped(self):
        return self._untyped_storage

    def _elements(self):
        return _flat(self._untyped_storage, self.dtype)

    def size(self):
        return self._untyped_storage._nbytes // self.dtype.itemsize

    def nbytes(self):
        return self._untyped_storage._nbytes

    def element_size(self):
        return self.dtype.itemsize

    def copy_(self, source, non_blocking=None):
        if not isinstance(source, _StorageBase):
            raise TypeError(f"copy_(): argument 'src' (position 1) must be torch.Storage, not "
                            f"{type(source).__name__}")
        self._elements().copy_(source._elements())
        return self

    def clone(self):
        return TypedStorage(wrap_storage=self._untyped_storage.clone(), dtype=self.dtype,
                            _internal=True)

    def cpu(self):
        return TypedStorage(wrap_storage=self._untyped_storage.cpu(), dtype=self.dtype,
                            _internal=True)

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:  # the legacy class name (torch.FloatStorage) where there is one
            from ._creation import _TYPE_NAMES
            dev = self.device.type
            if dev not in ("cpu", "cuda") or self.dtype not in _TYPE_NAMES:
                return "torch.storage.TypedStorage"
            prefix = "torch." if dev == "cpu" else f"torch.{dev}."
            return prefix + _TYPE_NAMES[self.dtype].replace("Tensor", "Storage")
        raise NotImplementedError("TypedStorage.type(dtype) is not supported")

    def _description(self):
        return f"torch.storage.TypedStorage(dtype={self.dtype}, device={self.device})"


def _as_tensor(data, dtype):
    from ._creation import tensor
    return tensor(data, dtype=dtype)


def host_view(storage, shape, stride, offset, dtype):
    """A numpy view (or copy, off-host) of a strided tensor's elements."""
    buf = storage._host_bytes()
    isz = dtype.itemsize
    if 0 in shape:  # an empty view may sit past the end of its storage
        offset = 0
    return np.ndarray(shape, dtype.np, buf, offset * isz, tuple(s * isz for s in stride))
