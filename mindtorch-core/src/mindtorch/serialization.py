"""mindtorch.save / mindtorch.load in PyTorch's zip format (torch.save / torch.load).

A checkpoint is an uncompressed zip archive `<stem>/`: `data.pkl` (the object, pickled
with tensors as `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)`
whose storages are persistent ids ('storage', torch.<X>Storage, key, location, numel)),
`data/<key>` (each storage's bytes, 64-byte aligned), `byteorder`, `version`,
`.format_version`, `.storage_alignment` and `.data/serialization_id`. Both directions
use PyTorch's global names, so files move between PyTorch and mindtorch, and mindtorch
reads them without PyTorch installed. PyTorch's older (pre-1.6, non-zip) format is read
(onto cpu or meta) and written (_use_new_zipfile_serialization=False) too.

Loading is safe by default (weights_only=True): the unpickler resolves only the globals
a checkpoint of tensors and containers needs (PyTorch's weights_only allowlist, plus
what add_safe_globals adds), so a pickle cannot call os.system or any other function.
weights_only=False unpickles anything, which can run arbitrary code: use it only for
files from a trusted source."""
import contextlib
import os
import sys

from . import _serialization_config as _config
from ._lazy import lazy
from ._serialization_config import (
    LoadEndianness, default_restore_location, get_crc32_options, get_default_load_endianness,
    get_default_mmap_options, location_tag, register_package, set_crc32_options,
    set_default_load_endianness, set_default_mmap_options, skip_data)

io = lazy("io", globals(), "io")
pickle = lazy("pickle", globals(), "pickle")
struct = lazy("struct", globals(), "struct")
zipfile = lazy("zipfile", globals(), "zipfile")
# the pickle machinery and the modules it needs are imported on first use
P = lazy("mindtorch._pickle_torch", globals(), "P")

DEFAULT_PROTOCOL = 2
# torch.serialization's constants (the legacy format's header and C type sizes)
MAGIC_NUMBER, PROTOCOL_VERSION = 0x1950A86A20F9469CFC6C, 1001
STORAGE_KEY_SEPARATOR = ","
LONG_SIZE, INT_SIZE, SHORT_SIZE = 4, 4, 2
MAP_SHARED, MAP_PRIVATE = 1, 2  # (mmap's flags on Linux / macOS)


class SourceChangeWarning(Warning):
    """PyTorch's warning about a pickled module whose source changed (code filters it)."""


# -- save ------------------------------------------------------------------------------------

def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True, _disable_byteorder_record=False):
    """Write `obj` (tensors, state_dicts, optimizer states, containers, Python values)
    to a path or a writable binary file object, in PyTorch's zip format (its legacy
    format with _use_new_zipfile_serialization=False)."""
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    if not _use_new_zipfile_serialization:
        if _config.skipping_data():
            raise RuntimeError("Cannot use skip_data=True with "
                               "_use_new_zipfile_serialization=False")
        if isinstance(f, (str, os.PathLike)):
            with open(f, "wb") as fh:
                return _save_legacy(obj, fh, pickle_protocol)
        return _save_legacy(obj, f, pickle_protocol)
    data_pkl = io.BytesIO()
    pickler = P.TorchPickler(data_pkl, protocol=pickle_protocol)
    pickler.dump(obj)
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.path.abspath(os.fspath(f)))
        if not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        try:
            fh = open(f, "wb")
        except OSError as e:  # PyTorch's C++ writer reports it as RuntimeError
            raise RuntimeError(f"open file failed with strerror: {e.strerror}") from None
        with fh:
            _write_archive(fh, _archive_name(f), data_pkl.getvalue(), pickler.storages,
                           _disable_byteorder_record)
    else:
        _write_archive(_Sink(f), "archive", data_pkl.getvalue(), pickler.storages,
                       _disable_byteorder_record)


class _Sink:
    """A file object as zipfile's write-only stream: no seek, so records are written once,
    in order, each followed by a data descriptor (as PyTorch's writer does), and a stream
    that cannot seek back (a pipe, a gzip file) takes the archive too."""

    def __init__(self, f):
        self.f, self.written = f, 0

    def write(self, data):
        self.f.write(data)
        self.written += len(data)
        return len(data)

    def tell(self):  # (from the archive's start: what the records' alignment counts)
        return self.written

    def flush(self):
        if hasattr(self.f, "flush"):
            self.f.flush()


def _save_legacy(obj, f, protocol):
    """PyTorch's pre-1.6 format (read by _load_legacy): the pickles of the magic number,
    the protocol version, the system info, the object and its storage keys, then each
    storage as its element count (int64, little-endian) and its bytes."""
    buf = io.BytesIO()
    for header in (_LEGACY_MAGIC, _LEGACY_PROTOCOL,
                   {"protocol_version": _LEGACY_PROTOCOL,
                    "little_endian": sys.byteorder == "little",
                    "type_sizes": {"short": 2, "int": 4, "long": 4}}):
        pickle.dump(header, buf, protocol=protocol)
    pickler = P.TorchPickler(buf, protocol=protocol, legacy=True)
    pickler.dump(obj)
    storages = sorted(pickler.storages, key=lambda ks: ks[0])  # as PyTorch: keys as strings
    pickle.dump([key for key, _ in storages], buf, protocol=protocol)
    for key, storage in storages:  # (its persistent id's element count: bytes if untyped)
        buf.write(pickler._refs[id(storage)][0].pid[4].to_bytes(8, "little"))
        if storage.nbytes():
            buf.write(storage._host_bytes().tobytes())
    f.write(buf.getvalue())


def _archive_name(path):
    return os.path.splitext(os.path.basename(os.fspath(path)))[0] or "archive"


def _write_archive(fh, name, data_pkl, storages, no_byteorder):
    start = fh.tell()
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        def record(rel, data):
            info = zipfile.ZipInfo(f"{name}/{rel}", date_time=(1980, 1, 1, 0, 0, 0))
            # zipfile adds a 20-byte zip64 field to the local header of large records
            z64 = 20 if len(data) * 1.05 > zipfile.ZIP64_LIMIT else 0
            info.extra = _padding(fh.tell() - start, len(info.filename.encode()) + z64)
            zf.writestr(info, data)
        record("data.pkl", data_pkl)
        record(".format_version", b"1")
        record(".storage_alignment", str(_config.save.storage_alignment).encode())
        if not no_byteorder:
            record("byteorder", sys.byteorder.encode())
        skip = _config.skipping_data()  # (the space for the bytes, to be filled later)
        for key, storage in storages:
            record(f"data/{key}", bytes(storage.nbytes()) if skip or not storage.nbytes()
                   else storage._host_bytes())
        record("version", b"3\n")
        if no_byteorder:  # (PyTorch's writer adds the record it was not given at the end)
            record("byteorder", sys.byteorder.encode())
        record(".data/serialization_id", _serialization_id())


def _padding(offset, name_len):
    """An extra field ('FB', as PyTorch's writer) that puts the record's data at a multiple
    of config.save.storage_alignment (64) bytes from the archive's start, so it can be
    memory-mapped in place."""
    alignment = _config.save.storage_alignment
    pad = -(offset + 30 + name_len) % alignment
    if pad == 0:
        return b""
    if pad < 4:
        pad += alignment
    return struct.pack("<HH", 0x4246, pad - 4) + b"Z" * (pad - 4)


def _serialization_id():
    return str(int.from_bytes(os.urandom(17), "little")).rjust(40, "0")[-40:].encode()


# -- load ------------------------------------------------------------------------------------

def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Read what save (or torch.save, zip format) wrote, from a path or a readable binary
    file object. weights_only (default True) loads only tensors, containers and plain
    values; map_location ('cpu', a device, {saved location: target} or a callable
    (storage, location) -> storage) chooses where storages go; mmap=True maps a file's
    tensor data instead of reading it."""
    weights_only = _weights_only_choice(weights_only, pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    if weights_only and pickle_load_args:
        import warnings
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")  # (Python 2 strings: PyTorch's default)
    if mmap is None:
        mmap = _config.load.mmap
    if isinstance(f, (str, os.PathLike)):
        if os.fspath(f).endswith(".safetensors"):
            return _load_safetensors(os.fspath(f), map_location)
        with open(f, "rb") as fh:
            return _load_file(fh, os.fspath(f), map_location, weights_only, mmap,
                              pickle_load_args, f if isinstance(f, str) else None)
    _check_seekable(f)
    return _load_file(f, None, map_location, weights_only, mmap, pickle_load_args)


_TRUE_VALUES = ("1", "y", "yes", "true")


def _env_flag(name):
    return os.getenv(name, "0").lower() in _TRUE_VALUES


def _weights_only_choice(weights_only, pickle_module):
    """weights_only as given (default: True unless a pickle_module is given), overridden by
    PyTorch's environment variables: TORCH_FORCE_WEIGHTS_ONLY_LOAD always,
    TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD only where the call does not pass weights_only."""
    force, force_no = (_env_flag("TORCH_FORCE_WEIGHTS_ONLY_LOAD"),
                       _env_flag("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"))
    if force and force_no:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if force:
        return True
    if weights_only is None and force_no:
        import warnings
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since "
                      "the`weights_only` argument was not explicitly passed to `torch.load`, "
                      "forcing weights_only=False.", UserWarning, stacklevel=3)
        return False
    return pickle_module is None if weights_only is None else weights_only


def _load_safetensors(path, map_location):
    """A path ending in .safetensors: read with safetensors.torch's load_file, as PyTorch's
    load does (map_location a device or its name only)."""
    if isinstance(map_location, dict):
        raise RuntimeError(  # noqa: TRY004 - PyTorch's class
            "Loading safetensors file with dict map_location is not supported. Use a device "
            "string or torch.device instead.")
    if map_location is not None and not isinstance(map_location, (str, bytes)) \
            and callable(map_location):
        raise RuntimeError("Loading safetensors file with callable map_location is not "
                           "supported. Use a device string or torch.device instead.")
    try:
        import safetensors  # noqa: F401 - (only its presence is checked here)
    except ImportError as e:
        raise RuntimeError("Attempting to load a safetensors file but safetensors is not "
                           "installed. Please install safetensors with: pip install "
                           "safetensors") from e
    from ._device import device
    from .utils.safetensors import load_file
    where = map_location if isinstance(map_location, (str, bytes, device)) else "cpu"
    return load_file(path, device=str(where))


def _check_seekable(f):
    """PyTorch's error for a file object load cannot seek in (it reads the zip directory
    at the end first)."""
    hint = (". You can only torch.load from a file that is seekable. Please pre-load the data "
            "into a buffer like io.BytesIO and try to load from it instead.")
    if not hasattr(f, "seek"):
        raise AttributeError(f"'{type(f).__name__}' object has no attribute 'seek'{hint}")
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as e:
        raise type(e)(f"{e}{hint}") from None


def _load_file(fh, path, map_location, weights_only, mmap, pickle_args, name=None):
    start = fh.tell()
    is_zip = fh.read(4) == b"PK\x03\x04"  # as PyTorch: the first record's magic decides
    fh.seek(start)
    if not is_zip:
        if mmap:  # (PyTorch names a file given by a str)
            raise RuntimeError("mmap can only be used with files saved with `torch.save("
                               f"{name + ', ' if name else ''}_use_new_zipfile_serialization="
                               "True), please torch.save your checkpoint with this option in "
                               "order to use mmap.")
        return _load_legacy(fh, map_location, weights_only, pickle_args)
    try:
        zf = zipfile.ZipFile(fh)
    except zipfile.BadZipFile:  # (miniz's words: no room for an end record, or none found)
        fh.seek(0, os.SEEK_END)
        problem = "not a ZIP archive" if fh.tell() - start < 22 else \
            "failed finding central directory"
        raise RuntimeError(f"PytorchStreamReader failed reading zip archive: {problem}. "
                           f"{_CORRUPT}") from None
    if mmap and path is None:
        zf.close()
        raise ValueError("f must be a file path in order to use the mmap argument")
    with zf:
        prefix = _archive_prefix(zf)
        names = set(zf.namelist())
        if prefix + "constants.pkl" in names:
            _torchscript(weights_only)
        reader = _Records(zf, prefix, path if mmap else None)
        order = reader.read("byteorder").decode() if prefix + "byteorder" in names \
            else _config.fallback_byteorder()
        reader.swap = order != sys.byteorder
        loader = P.StorageLoader(reader, map_location)
        cls = P.WeightsUnpickler if weights_only else P.FullUnpickler
        unpickler = cls(io.BytesIO(reader.read("data.pkl")), loader=loader, **pickle_args)
        try:
            return unpickler.load()
        except pickle.UnpicklingError as e:
            if weights_only:
                raise pickle.UnpicklingError(P.weights_only_message(e)) from None
            raise


_CORRUPT = ("This is an internal miniz error. If you are seeing this error, there is a high "
            "likelihood that your checkpoint file is corrupted. This can happen if the "
            "checkpoint was not saved properly, was transferred incorrectly, or the file was "
            "modified after saving.")
_TORCHSCRIPT = ("mindtorch cannot load TorchScript archives (what torch.jit.save writes): they "
               "hold TorchScript code, which mindtorch does not run. Save the model's "
               "state_dict with torch.save and load it into the model's class instead.")


def _torchscript(weights_only):
    """torch.load of a TorchScript archive (it has a constants.pkl record): PyTorch warns
    and hands it to torch.jit.load, refused under weights_only."""
    import warnings
    warnings.warn("'torch.load' received a zip file that looks like a TorchScript archive "
                  "dispatching to 'torch.jit.load' (call 'torch.jit.load' directly to silence "
                  "this warning)", UserWarning, stacklevel=4)
    if weights_only:
        raise RuntimeError("Cannot use ``weights_only=True`` with TorchScript archives passed "
                           "to ``torch.load``. " + P._UNSAFE)
    raise NotImplementedError(_TORCHSCRIPT)


_LEGACY_MAGIC, _LEGACY_PROTOCOL = MAGIC_NUMBER, PROTOCOL_VERSION


def _load_legacy(fh, map_location, weights_only, pickle_args):
    """PyTorch's format before 1.6 (_use_new_zipfile_serialization=False): pickles of the
    magic number, the protocol version, the system info, the object and the storage keys,
    then each storage's element count and bytes."""
    loader = P.LegacyStorageLoader(map_location)
    cls = P.WeightsUnpickler if weights_only else P.FullUnpickler

    def unpickle():
        try:
            return cls(fh, loader=loader, **pickle_args).load()
        except pickle.UnpicklingError as e:
            if weights_only:
                raise pickle.UnpicklingError(P.weights_only_message(e)) from None
            raise
    # bytes that are no pickle raise the unpickler's error (an empty file's EOFError)
    if unpickle() != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol = unpickle()
    if protocol != _LEGACY_PROTOCOL:
        raise RuntimeError(f"Invalid protocol version: {protocol}")
    info = unpickle()
    with loader.unfilled():
        result = unpickle()
    keys = unpickle()
    little = info.get("little_endian", True) if isinstance(info, dict) else True
    loader.fill(fh, [str(k) for k in keys], little != (sys.byteorder == "little"))
    return result


def _archive_prefix(zf):
    """The archive's folder: the first record's (PyTorch's reader checks for a version
    record, then for data.pkl, in it)."""
    names = zf.namelist()
    prefix = names[0].split("/")[0] + "/" if names and "/" in names[0] else ""
    if not ({prefix + "version", prefix + ".data/version"} & set(names)):
        raise RuntimeError('Expected hasRecord("version") to be true, but got false.')
    if prefix + "data.pkl" not in names:
        raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not "
                           "found")
    return prefix


class _Records:
    """A checkpoint's storage records: read into fresh host arrays, or memory-mapped from
    the file (mmap=True): copy-on-write, or writing through under MAP_SHARED
    (set_default_mmap_options)."""

    def __init__(self, zf, prefix, mmap_path):
        self.zf, self.prefix, self.mmap_path = zf, prefix, mmap_path
        self.swap = False  # (set once the byteorder record is read)

    def read(self, rel):
        """The bytes of record `rel` (data.pkl, byteorder), unchecked as host_array's."""
        info = self.zf.getinfo(self.prefix + rel)
        out = bytearray(info.file_size)
        self._read_into(info, memoryview(out))
        return bytes(out)

    def host_array(self, key, np):
        name = f"{self.prefix}data/{key}"
        try:
            info = self.zf.getinfo(name)
        except KeyError:
            raise RuntimeError(f"PytorchStreamReader failed locating file data/{key}: file "
                               f"not found. {_CORRUPT}") from None
        if _config.skipping_data():  # (skip_data: storages left unread)
            return np.zeros(info.file_size, np.uint8)
        if self.mmap_path is not None and info.compress_type == zipfile.ZIP_STORED \
                and info.file_size:
            shared = _config.get_default_mmap_options() == _config._mmap.MAP_SHARED
            return np.memmap(self.mmap_path, np.uint8, "r+" if shared else "c",
                             self._data_offset(info), (info.file_size,))
        out = np.empty(info.file_size, np.uint8)
        self._read_into(info, memoryview(out))
        return out

    def _read_into(self, info, out):
        fp = self.zf.fp
        if info.compress_type == zipfile.ZIP_STORED and hasattr(fp, "readinto"):
            # read in place, no crc32 check (PyTorch's reader has none: a record written
            # through a MAP_SHARED mapping still loads)
            fp.seek(self._data_offset(info))
            if fp.readinto(out) == info.file_size:
                return
        with self.zf.open(info) as r:
            r.readinto(out)

    def _data_offset(self, info):
        fp = self.zf.fp  # header_offset counts from the file's start (zipfile adds any prefix)
        fp.seek(info.header_offset)
        header = fp.read(30)
        if len(header) < 30 or header[:4] != b"PK\x03\x04":  # (miniz's check)
            raise RuntimeError(f"PytorchStreamReader failed reading file "
                               f"{info.filename[len(self.prefix):]}: invalid header or archive "
                               f"is corrupted. {_CORRUPT}")
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        return info.header_offset + 30 + name_len + extra_len


# -- allowlisting extra globals for weights_only loads ---------------------------------------

def add_safe_globals(safe_globals):
    """Let weights_only loads resolve these objects (or (object, "module.name") pairs)."""
    P.SAFE_GLOBALS.update(dict.fromkeys(safe_globals))


def get_safe_globals():
    return list(P.SAFE_GLOBALS)


def clear_safe_globals():
    P.SAFE_GLOBALS.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    saved = dict(P.SAFE_GLOBALS)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        P.SAFE_GLOBALS.clear()
        P.SAFE_GLOBALS.update(saved)


def get_unsafe_globals_in_checkpoint(f):
    """The "module.name" of each pickle GLOBAL in a zip checkpoint (a path or a binary file
    object) that weights_only would refuse; read from the pickle's opcodes, nothing is
    unpickled (so a global a reduction pushes at load time is not seen)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return get_unsafe_globals_in_checkpoint(fh)
    start = f.tell()
    is_zip = f.read(4) == b"PK\x03\x04"
    f.seek(start)
    if not is_zip:
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    with zipfile.ZipFile(f) as zf:
        data = zf.read(_archive_prefix(zf) + "data.pkl")
    return list(P.unsafe_globals_in_pickle(data))


@contextlib.contextmanager
def mkdtemp():
    """A temporary directory's path, removed with its contents on exit."""
    import shutil
    import tempfile
    path = tempfile.mkdtemp()
    try:
        yield path
    finally:
        shutil.rmtree(path)


def check_module_version_greater_or_equal(module, req_version_tuple, error_if_malformed=True):
    """Whether module.__version__ ("x.y.z") is at least req_version_tuple, its fields read
    as the tuple's types; a version that cannot be read so raises RuntimeError (or, unless
    error_if_malformed, warns and counts as met)."""
    try:
        fields = module.__version__.split(".")
        version = tuple(type(want)(fields[i]) for i, want in enumerate(req_version_tuple))
        return version >= req_version_tuple
    except Exception as e:  # (any failure to read the version)
        message = (f"'{module.__name__}' module version string is malformed "
                   f"'{module.__version__}' and cannot be compared with tuple "
                   f"{req_version_tuple}")
        if error_if_malformed:
            raise RuntimeError(message) from e
        import warnings
        warnings.warn(message + ", but continuing assuming that requirement is met",
                      stacklevel=2)
        return True


def validate_cuda_device(location):
    """The device index of a "cuda[:i]" location (PyTorch's error where there is no cuda)."""
    return P.restore_device(location if str(location).startswith("cuda") else "cuda").index


def validate_hpu_device(location):
    return P.restore_device("hpu").index


def normalize_storage_type(storage_type):
    """The mindtorch storage class of the same name (torch.FloatStorage, ...)."""
    import mindtorch
    return getattr(mindtorch, storage_type.__name__)


def storage_to_tensor_type(storage):
    """The legacy tensor type of a storage's element type (FloatStorage -> FloatTensor)."""
    import mindtorch
    return getattr(mindtorch, type(storage).__name__.replace("Storage", "Tensor"))


def _get_layout(name):
    """The layout a checkpoint names ("torch.sparse_coo"), as torch.serialization's."""
    from . import _layout
    found = getattr(_layout, str(name).rpartition(".")[2], None)
    if not isinstance(found, _layout.layout) or str(found) != name:
        raise KeyError(name)
    return found


__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "get_unsafe_globals_in_checkpoint", "LoadEndianness", "get_default_load_endianness",
           "set_default_load_endianness", "get_default_mmap_options", "set_default_mmap_options",
           "get_crc32_options", "set_crc32_options", "location_tag", "default_restore_location",
           "safe_globals", "skip_data", "DEFAULT_PROTOCOL", "SourceChangeWarning",
           "normalize_storage_type", "storage_to_tensor_type", "register_package", "mkdtemp",
           "check_module_version_greater_or_equal", "validate_cuda_device",
           "validate_hpu_device"]
