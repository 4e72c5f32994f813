"""Reading a checkpoint's storages (for mindtorch._pickle_torch): the persistent ids a
pickle names them by, each record's storage made once on the device map_location chooses
(register_package's deserializers included), PyTorch's errors for devices without a
backend, and the legacy format's storages, whose bytes follow the pickle."""
import contextlib
import contextvars
import pickle

from . import _dtype as D
from ._device import device
from ._lazy import lazy
from ._storage import TypedStorage, UntypedStorage

np = lazy("numpy", globals())


class StorageType:
    """What torch.<X>Storage names in a checkpoint: the dtype of a storage's elements
    (None for torch.UntypedStorage: bytes)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"StorageType(dtype={self.dtype})"


def _loaded(untyped, dtype):
    """A storage read from a checkpoint, with the element type its persistent id gave (what
    load returns for a storage saved as such, as PyTorch's: typed, uint8 if untyped)."""
    return TypedStorage(wrap_storage=untyped, dtype=dtype, _internal=True)


def _check_pid(pid, length):
    """pid as PyTorch's loaders read it: ("storage", <length - 1> fields), with their
    errors; then the fields' types, which a crafted pickle could get wrong."""
    typename = _ascii(pid[0])
    if typename != "storage":
        raise AssertionError(f"Unknown typename for persistent_load, expected 'storage' but "
                             f"got '{typename}'")
    fields, need = len(pid) - 1, length - 1
    if fields < need:  # (the unpacking of PyTorch's loader)
        raise ValueError(f"not enough values to unpack (expected {need}, got {fields})")
    if fields > need:
        raise ValueError(f"too many values to unpack (expected {need})")
    if not isinstance(pid[1], StorageType) or type(pid[4]) is not int or pid[4] < 0:
        raise pickle.UnpicklingError(f"Invalid storage persistent id {pid!r}")
    return pid


class StorageLoader:
    """Makes each record's storage once (so tensors that shared a storage share it
    again), on the device map_location chooses."""

    def __init__(self, records, map_location):
        self.records, self.map_location = records, map_location
        self.cache = {}

    def load(self, pid):
        _, stype, key, location, numel = _check_pid(pid, 5)
        key = _ascii(key)
        storage = self.cache.get(key)
        if storage is None:
            storage = self.cache[key] = self._make(key, _ascii(location), stype.dtype, numel)
        return _loaded(storage, stype.dtype or D.uint8)

    def _make(self, key, location, dtype, numel):
        nbytes = numel * (dtype.itemsize if dtype is not None else 1)
        arr = self.records.host_array(key, np)
        if arr.size != nbytes:  # (PyTorch counts an untyped storage's elements: bytes)
            raise RuntimeError(f"record size ({arr.size} bytes) does not match expected size "
                               f"({nbytes} bytes = {nbytes} elements * 1 bytes/element) for "
                               f"dtype Byte")
        if self.records.swap and dtype is not None and dtype.itemsize > 1:
            arr = arr.view(dtype.np).byteswap().view(np.uint8)
        return place(arr, location, self.map_location)


def place(arr, location, map_location):
    """A storage holding host bytes `arr`, saved on `location`, where map_location says."""
    m = map_location
    if m is None:
        where = location
    elif isinstance(m, (str, device)):
        where = m
    elif isinstance(m, dict):
        where = m.get(location, location)
    else:  # (PyTorch calls anything else: a non-callable fails as the call does)
        if not callable(m):
            raise TypeError(f"'{type(m).__name__}' object is not callable")
        result = m(UntypedStorage._from_host(arr, device("cpu")), location)
        if result is not None:
            if not isinstance(result, UntypedStorage):
                raise TypeError(f"map_location should return a storage or None, got "
                                f"{type(result).__name__}")
            return result
        where = location
    from . import _serialization_config as config
    if config._PACKAGES and not _to_meta(m):  # (its deserializers take a cpu storage;
        # PyTorch reads nothing for a map_location of meta)
        return config.default_restore_location(UntypedStorage._from_host(arr, device("cpu")),
                                               str(where))
    from ._device import canonical
    return UntypedStorage._from_host(arr, canonical(restore_device(where)))


def _to_meta(map_location):
    return isinstance(map_location, (str, device)) and str(map_location) == "meta"


def restore_device(where, unknown_ok=False):
    """The device a location tag names, as PyTorch's deserializers read tags: "cpu" and
    "meta" exactly, "cuda[:i]" (refused without cuda), another installed device type's
    tag ("npu:0"); anything else ("cpu:0", "bogus") is unknown (None if unknown_ok)."""
    tag = str(where)
    if tag in ("cpu", "meta"):
        return device(tag)
    if tag.startswith("cuda"):
        cuda_unavailable(device("cuda"))
    try:
        dev = device(tag)
    except (RuntimeError, ValueError):
        dev = None
    unknown = (f"don't know how to restore data location of torch.storage.UntypedStorage "
               f"(tagged with {tag})")
    from .plugins._registry import DEVICES
    if dev is None or dev.type in ("cpu", "meta") or \
            (dev.type not in DEVICES and dev.type not in _NO_BACKEND):
        if unknown_ok:
            return None
        raise RuntimeError(unknown)
    if dev.type not in DEVICES:  # (PyTorch's error, for a type it has a deserializer for)
        raise RuntimeError(_NO_BACKEND[dev.type].format(dev.type.upper()))
    return dev


_TO_CPU = ("If you are running on a CPU-only machine, please use torch.load with "
           "map_location=torch.device('cpu') to map your storages to the CPU.")
# PyTorch's errors restoring a storage on a device type it knows but has no backend for
_NO_BACKEND = {
    "xpu": "Attempting to deserialize object on a {0} device but torch.xpu.is_available() "
           "is False. " + _TO_CPU,
    "hpu": "The {0} device module is not registered. " + _TO_CPU,
    "privateuseone": "The {0} device module is not registered. " + _TO_CPU,
    "mps": "torch.UntypedStorage(): Storage device not recognized: mps",
    "mtia": "Cannot execute getCurrentDevice() without MTIA backend.",
}


def cuda_unavailable(dev):
    """PyTorch's error for restoring a storage on cuda where there is none."""
    if dev.type == "cuda":
        from .plugins._registry import DEVICES
        if "cuda" not in DEVICES:
            raise RuntimeError("Attempting to deserialize object on a CUDA device but "
                               "torch.cuda.is_available() is False. If you are running on a "
                               "CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the "
                               "CPU.")


class LegacyStorageLoader:
    """Storages of PyTorch's pre-zip format, whose bytes follow the pickle: made empty
    while unpickling (on cpu, where fill() writes into them, or meta), filled after."""

    def __init__(self, map_location):
        self.map_location = map_location
        self.roots, self.views = {}, {}
        self.pending = []  # (out, view, metadata) of views with lazy bits (_resolved)

    def load(self, pid):
        _, stype, key, location, numel, view = _check_pid(pid, 6)
        dtype = stype.dtype or D.uint8
        key = _ascii(key)
        if key not in self.roots:
            storage = place(np.zeros(numel * dtype.itemsize, np.uint8), _ascii(location),
                            self.map_location)
            if storage.device.type not in ("cpu", "meta"):
                raise NotImplementedError("checkpoints of PyTorch's legacy (non-zip) format "
                                          "load onto the cpu or meta device only")
            self.roots[key] = (storage, dtype)
        storage = self.roots[key][0]
        if view is not None:  # a storage that is a slice of another (very old files)
            view_key, offset, size = view
            if view_key not in self.views:
                part = storage._host_bytes()[offset * dtype.itemsize:
                                             (offset + size) * dtype.itemsize]
                self.views[view_key] = UntypedStorage._from_host(part, storage.device)
            storage = self.views[view_key]
        return _loaded(storage, dtype)

    @contextlib.contextmanager
    def unfilled(self):
        """While the pickle is read: conj / neg views' values wait for fill."""
        token = _UNFILLED.set(self.pending)
        try:
            yield
        finally:
            _UNFILLED.reset(token)

    def fill(self, fh, keys, swap):
        self._fill_storages(fh, keys, swap)
        from .autograd.grad_mode import no_grad
        with no_grad():
            for out, t, metadata in self.pending:
                if out.device.type != "meta":
                    out.copy_(_lazy_bits_applied(t, metadata))

    def _fill_storages(self, fh, keys, swap):
        for key in keys:
            count = fh.read(8)
            if len(count) < 8:
                raise RuntimeError(f"unexpected EOF, expected {8 - len(count)} more bytes. The "
                                   f"file might be corrupted.")
            numel = int.from_bytes(count, "little")
            storage, dtype = self.roots[key]
            if numel * dtype.itemsize != storage.nbytes():
                raise RuntimeError(f"storage {key}: {numel} elements in the file, "
                                   f"{storage.nbytes() // dtype.itemsize} expected")
            data = np.frombuffer(fh.read(storage.nbytes()), np.uint8)
            if data.size != storage.nbytes():
                raise RuntimeError(f"unexpected EOF, expected {storage.nbytes() - data.size} "
                                   f"more bytes. The file might be corrupted.")
            if swap and dtype.itemsize > 1:
                data = data.view(dtype.np).byteswap().view(np.uint8)
            if storage.device.type == "cpu":
                storage._host_bytes()[:] = data


def _ascii(s):
    return s.decode("ascii") if isinstance(s, bytes) else s


def _lazy_bits_applied(t, metadata):
    if metadata.get("conj"):
        t = t.conj_physical()
    if metadata.get("neg"):
        t = t.neg()
    return t


# the resolutions (_resolved) waiting for LegacyStorageLoader.fill while a legacy
# checkpoint unpickles (its storages are read after the pickle)
_UNFILLED = contextvars.ContextVar("unfilled_storages", default=None)
