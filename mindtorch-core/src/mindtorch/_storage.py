"""Untyped storage: a device buffer owned by a backend, shared by a tensor and its views."""
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


class UntypedStorage:
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

    def nbytes(self):
        return self._nbytes

    size = nbytes

    def data_ptr(self):
        return self._spec.data_ptr(self._handle)

    def _host_bytes(self):
        """The bytes as a host uint8 array (the memory itself on cpu)."""
        if not self._spec.has_data:
            raise NotImplementedError(f"Cannot access data of tensors on the '{self.device.type}' "
                                      f"device: they have no data")
        return self._spec.to_host(self._handle, self._nbytes)

    def __len__(self):
        return self._nbytes

    def __repr__(self):
        return f"UntypedStorage(nbytes={self._nbytes}, device={self.device})"


def host_view(storage, shape, stride, offset, dtype):
    """A numpy view (or copy, off-host) of a strided tensor's elements."""
    buf = storage._host_bytes()
    isz = dtype.itemsize
    if 0 in shape:  # an empty view may sit past the end of its storage
        offset = 0
    return np.ndarray(shape, dtype.np, buf, offset * isz, tuple(s * isz for s in stride))
