"""Tensor methods about storage: storage(), set_(), is_set_to(), memory sharing and
pinning (see _storage.py for what sharing and pinning mean in mindtorch)."""
from . import _dtype as D
from ._storage import TypedStorage, UntypedStorage, _pin_memory, _share, \
    _warn_typed_storage_removal
from ._tensor import _CPP_NAMES, Tensor, contiguous_strides


def storage(self):
    """The TypedStorage of this tensor's dtype over its storage (deprecated, as in torch)."""
    _warn_typed_storage_removal()
    return TypedStorage(wrap_storage=self._storage, dtype=self.dtype, _internal=True)


def is_shared(self):
    return self._storage.is_shared()


def share_memory_(self):
    _share(self._storage)
    self._cache = None  # (a backend's view of the old bytes)
    return self


def is_pinned(self, device=None):
    return False


def pin_memory(self, device=None):
    _pin_memory(self._device, self.dtype)


def is_set_to(self, tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    return self._storage is tensor._storage and self._offset == tensor._offset and \
        self._shape == tensor._shape and self._stride == tensor._stride


def _check_writable(self):
    from .autograd.grad_mode import state
    if state.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")


def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """Point self at source's memory: another tensor's (storage, offset, size, stride), a
    storage (all of it by default), or nothing (set_())."""
    _check_writable(self)
    if source is None:
        source = UntypedStorage(0, self._device)
        size = (0,)
    if isinstance(source, Tensor):
        if source.dtype is not self.dtype:
            raise RuntimeError(f"Could not set tensor of type {_CPP_NAMES[source.dtype.name]} "
                               f"to a tensor of type {_CPP_NAMES[self.dtype.name]}")
        _check_device(self, source._storage)
        return _point(self, source._storage, source._offset, source._shape, source._stride)
    if isinstance(source, TypedStorage):
        if source.dtype is not self.dtype:
            raise RuntimeError(f"Expected a Storage of type {_CPP_NAMES[self.dtype.name]} or an "
                               f"UntypedStorage, but got type {D.scalar_type_name(source.dtype)}"
                               f" for argument 1 'storage'")
        source = source._untyped_storage
    if not isinstance(source, UntypedStorage):
        raise TypeError(f"set_() received an invalid combination of arguments - got "
                        f"({type(source).__name__}), but expected one of:\n * ()\n"
                        f" * (torch.Storage source)\n * (torch.Storage source, int "
                        f"storage_offset, tuple of ints size, tuple of ints stride = None)\n"
                        f" * (Tensor source)\n * (Tensor source, int storage_offset, tuple of "
                        f"ints size, tuple of ints stride = None)")
    _check_device(self, source)
    if size is None:
        size = (source.nbytes() // self.dtype.itemsize,)
    size = tuple(int(n) for n in size)
    stride = contiguous_strides(size) if stride is None else tuple(int(s) for s in stride)
    if len(stride) != len(size):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length "
                           f"({len(stride)})")
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    if 0 not in size:
        isz = self.dtype.itemsize
        needed = (storage_offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1) * isz
        if needed > source.nbytes():  # (PyTorch grows a resizable storage here)
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                               f"offset {storage_offset}, and itemsize {isz} requiring a "
                               f"storage size of {needed} are out of bounds for storage of "
                               f"size {source.nbytes()}")
    return _point(self, source, int(storage_offset), size, stride)


def _check_device(self, storage):
    if storage.device is not self._device:
        raise RuntimeError(f'Attempted to set the storage of a tensor on device '
                           f'"{self._device}" to a storage on different device '
                           f'"{storage.device}".  This is no longer allowed; the devices must '
                           f'match.')


def _point(self, storage, offset, shape, stride):
    self._storage, self._offset = storage, offset
    self._shape, self._stride, self._cache = tuple(shape), tuple(stride), None
    self._base = None  # no longer a view of anything
    self._version_counter[0] += 1
    return self


for _f in (storage, is_shared, share_memory_, is_pinned, pin_memory, is_set_to, set_):
    setattr(Tensor, _f.__name__, _f)
