"""torch.serialization's settings and location helpers: the fallback byte order of a
checkpoint without a byteorder record, the mmap flags of load(mmap=True), the crc32
switch of save, and the storage location tags load resolves (location_tag,
default_restore_location).  (Re-exported by mindtorch.serialization.)"""
import enum
import mmap as _mmap
import sys
import threading


class LoadEndianness(enum.Enum):
    __module__ = "mindtorch.serialization"  # (where PyTorch defines it)
    NATIVE = 1
    LITTLE = 2
    BIG = 3


class load:  # (PyTorch's names: torch.utils.serialization.config.load)
    """load()'s settings (mindtorch.utils.serialization.config.load): mmap when load's
    mmap=None, the byte order of checkpoints without a byteorder record, mmap's flags."""
    mmap = False
    endianness = None
    mmap_flags = _mmap.MAP_PRIVATE
    calculate_storage_offsets = False


class save:
    """save()'s settings: crc32 (recorded only), pinned copies (no CUDA: unused), and the
    alignment of each storage's bytes in the archive."""
    compute_crc32 = True
    use_pinned_memory_for_d2h = False
    storage_alignment = 64


_tls = threading.local()  # skip_data's state, per thread as PyTorch's


def skipping_data():
    return getattr(_tls, "skip_data", False)


class skip_data:
    """A context manager: save writes each storage's record without its bytes (zeros: the
    space to fill in later) and load leaves storages unread (zeros)."""
    __module__ = "mindtorch.serialization"

    def __init__(self, materialize_fake_tensors=False):
        self.materialize_fake_tensors = materialize_fake_tensors  # (no fake tensors here)

    def __enter__(self):
        self._old = skipping_data()
        _tls.skip_data = True

    def __exit__(self, *exc):
        _tls.skip_data = self._old


def get_default_load_endianness():
    return load.endianness


def set_default_load_endianness(endianness):
    """The byte order of a checkpoint that does not record one (default None: native)."""
    if not isinstance(endianness, LoadEndianness) and endianness is not None:
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    load.endianness = endianness


def fallback_byteorder():
    e = load.endianness
    return {LoadEndianness.LITTLE: "little", LoadEndianness.BIG: "big"}.get(e, sys.byteorder)


def get_default_mmap_options():
    return load.mmap_flags


class set_default_mmap_options:
    __module__ = "mindtorch.serialization"
    """load(mmap=True)'s mapping: mmap.MAP_PRIVATE (copy-on-write, the default) or
    mmap.MAP_SHARED (writes reach the file); a call, or a context manager restoring the
    previous flags."""

    def __init__(self, flags):
        if flags != _mmap.MAP_PRIVATE and flags != _mmap.MAP_SHARED:
            raise ValueError(f"Invalid argument in function set_default_mmap_options, expected "
                             f"mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got {flags}")
        self.prev = load.mmap_flags
        load.mmap_flags = flags

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        load.mmap_flags = self.prev


def get_crc32_options():
    return save.compute_crc32


def set_crc32_options(compute_crc32):
    """Recorded only: zip records always carry their crc32 here."""
    save.compute_crc32 = compute_crc32


# register_package's entries, (priority, registration order, tagger, deserializer) sorted:
# those under _BUILTIN run before mindtorch's own tagging / restoring (PyTorch registers its
# cpu package at 10, the devices' after it), the others for locations it does not know
_PACKAGES = []
_BUILTIN = 10


def register_package(priority, tagger, deserializer):
    """Add a tagger (storage -> location or None, at save) and a deserializer ((storage,
    location) -> storage or None, at load), tried in priority order (lower first)."""
    _PACKAGES.append((priority, len(_PACKAGES), tagger, deserializer))
    _PACKAGES.sort(key=lambda entry: entry[:2])


def _packages(first):
    return [entry for entry in _PACKAGES if (entry[0] < _BUILTIN) == first]


def location_tag(storage):
    """The location save records for a storage: its device ("cpu", "meta", "cuda:0"),
    unless a package registered before mindtorch's own tags it."""
    for _, _, tagger, _ in _packages(True):
        tag = tagger(storage)
        if tag:
            return tag
    return str(storage.device)


def default_restore_location(storage, location):
    """`storage` moved to the saved `location`, as load does without map_location: the
    registered packages' deserializers, in priority order, around mindtorch's own."""
    for _, _, _, restore in _packages(True):
        result = restore(storage, location)
        if result is not None:
            return result
    from ._pickle_storages import restore_device
    dev = restore_device(location, unknown_ok=bool(_PACKAGES))
    if dev is not None:
        return storage.to(device=dev)
    for _, _, _, restore in _packages(False):
        result = restore(storage, location)
        if result is not None:
            return result
    raise RuntimeError(f"don't know how to restore data location of "
                       f"torch.storage.UntypedStorage (tagged with {location})")
