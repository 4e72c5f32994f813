"""Pickling in PyTorch's conventions (for mindtorch.serialization): a pickler that
writes tensors, dtypes, sizes and devices under PyTorch's global names, the rebuild
functions those names resolve to when loading, and the two unpicklers (the restricted
weights_only one and the full one). Storages are read by _pickle_storages."""
import _compat_pickle
import codecs
import collections
import pickle
import re
import types
import warnings
from collections import OrderedDict

from . import _dtype as D
from ._device import device
from ._layout import LayoutKey, layout
from ._pickle_storages import (  # noqa: F401 - (the loaders: read here by serialization)
    _UNFILLED,
    LegacyStorageLoader,
    StorageLoader,
    StorageType,
    _ascii,
    _lazy_bits_applied,
    restore_device,
)
from ._serialization_config import location_tag
from ._storage import TypedStorage, UntypedStorage
from ._tensor import Size, Tensor

# mindtorch dtype name -> PyTorch's legacy storage class (the dtype tag of a storage)
STORAGE_NAMES = {
    "float32": "FloatStorage", "float64": "DoubleStorage", "float16": "HalfStorage",
    "bfloat16": "BFloat16Storage", "int64": "LongStorage", "int32": "IntStorage",
    "int16": "ShortStorage", "int8": "CharStorage", "uint8": "ByteStorage",
    "bool": "BoolStorage", "complex64": "ComplexFloatStorage",
    "complex128": "ComplexDoubleStorage",
}
# PyTorch dtypes mindtorch does not have, named so loading them fails clearly
_MISSING_DTYPES = {"qint8", "quint8",
                   "qint32", "quint4x2", "quint2x4", "complex32", "bits8", "bits16",
                   "float4_e2m1fn_x2", "int1", "int2", "int3", "int4", "int5", "int6", "int7",
                   "uint1", "uint2", "uint3", "uint4", "uint5", "uint6", "uint7"}


# -- writing -------------------------------------------------------------------------------

class Global:
    """A global written by its PyTorch name (the pickler emits GLOBAL 'module name')."""
    _cache = {}

    def __new__(cls, module, name):
        g = cls._cache.get((module, name))
        if g is None:
            g = cls._cache[(module, name)] = object.__new__(cls)
            g.module, g.name = module, name
        return g

    def __call__(self, *args):  # pickle's save_reduce wants a callable; never called
        raise TypeError(f"{self.module}.{self.name} is a placeholder")


def _utils(name):
    return Global("torch._utils", name)


class _StorageRef:
    """Stands for a storage in the pickle; written as its persistent id."""
    __slots__ = ("pid",)

    def __init__(self, pid):
        self.pid = pid


def _local_object_error(qualname):
    """The C pickler's error for an object defined in a function, as this Python words it
    ("Can't pickle local object" until 3.12, "Can't get local object" from 3.13)."""
    def local():
        pass
    try:
        pickle.dumps(local)
    except Exception as e:  # noqa: BLE001 - its class is what we want
        return type(e)(str(e).replace(local.__qualname__, qualname))
    return AttributeError(f"Can't pickle local object {qualname!r}")


class TorchPickler(pickle._Pickler):
    """The pure-Python pickler (so globals can be written by name without importing
    them), with tensors reduced as PyTorch reduces them. `storages` lists (key, storage)
    in first-use order for the archive's data/ records."""
    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file, protocol=2, legacy=False):
        super().__init__(file, protocol)
        self.legacy = legacy  # pre-zip format: a storage's id ends with its view (None)
        self.storages = []
        self._refs = {}  # id(storage) -> (_StorageRef, dtype)

    def save_torch_global(self, obj):
        if self.proto >= 4:
            self.save(obj.module)
            self.save(obj.name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[Global] = save_torch_global

    def save_global(self, obj, name=None):
        public = None if name is not None else _legacy_name(obj) or (
            None if _found_where_named(obj) else _torch_name(obj))
        if public:  # (a legacy tensor type, or what its own names do not reach)
            module, _, attribute = public.rpartition(".")
            if module == "torch.Tensor":  # (a method, not mindtorch.<name>: as PyTorch
                self.save_reduce(getattr, (Global("torch._C", "TensorBase"), attribute),
                                 obj=obj)  # writes its method descriptors)
                return
            self.save(Global(module, attribute))
            return
        qualname = name or getattr(obj, "__qualname__", None)
        if isinstance(qualname, str) and "<locals>" in qualname.split("."):
            # (the C pickler's error, which PyTorch's save meets: a lambda or class defined
            # inside a function)
            raise _local_object_error(qualname)
        super().save_global(obj, name)

    dispatch[types.FunctionType] = save_global

    def save_dtype(self, obj):
        self.save(Global("torch", obj.name))

    dispatch[D.dtype] = save_dtype

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            return obj.pid
        if isinstance(obj, UntypedStorage):  # a storage saved as such: its bytes' record
            return self._storage_ref(obj, D.uint8, untyped=True).pid
        if isinstance(obj, TypedStorage):
            return self._storage_ref(obj._untyped_storage, obj.dtype).pid
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        if type(obj) is Size:
            return Global("torch", "Size"), (tuple(obj),)
        if type(obj) is device:
            args = (obj.type,) if obj.index is None else (obj.type, obj.index)
            return Global("torch", "device"), args
        if type(obj) is layout:  # (sparse tensors' records name theirs)
            return Global("torch.serialization", "_get_layout"), (repr(obj),)
        return NotImplemented

    def _reduce_tensor(self, t):
        from .nn.parameter import Parameter, UninitializedTensorMixin
        if isinstance(t, UninitializedTensorMixin):  # (no data: its class, as PyTorch's)
            return Global("torch.nn.parameter", type(t).__name__), (t.requires_grad,)
        if type(t._device) is LayoutKey:
            if t.__dict__.get("_is_param"):  # (a sparse Parameter: the parameter record)
                return _utils("_rebuild_parameter"), (t.detach(), t.requires_grad,
                                                      OrderedDict())
            from .sparse._serialize import sparse_parts
            return _utils("_rebuild_sparse_tensor"), sparse_parts(t)
        if isinstance(t, Parameter) and "_is_param" not in t.__dict__:
            data = Tensor._make(t._storage, t._shape, t._stride, t._offset, t.dtype)
            state = t.__getstate__()
            if state:
                return (_utils("_rebuild_parameter_with_state"),
                        (data, t.requires_grad, OrderedDict(), state))
            return _utils("_rebuild_parameter"), (data, t.requires_grad, OrderedDict())
        if not t._storage._spec.has_data:  # meta: no data to write
            from ._serialization_config import skipping_data
            if skipping_data() and t.device.type == "meta":
                warnings.warn("Serializing tensors on the meta device under skip_data context "
                              "manager is a no-op", stacklevel=2)
            return (_utils("_rebuild_meta_tensor_no_storage"),
                    (t.dtype, tuple(t._shape), tuple(t._stride), t.requires_grad))
        ref = self._storage_ref(t._storage, t.dtype)
        if t.dtype.name in STORAGE_NAMES:
            rebuild = (_utils("_rebuild_tensor_v2"), (ref, t._offset, tuple(t._shape),
                                                      tuple(t._stride), t.requires_grad,
                                                      OrderedDict()))
        else:  # dtypes without a legacy storage class: bytes + the dtype, as PyTorch
            rebuild = (_utils("_rebuild_tensor_v3"), (ref, t._offset, tuple(t._shape),
                                                      tuple(t._stride), t.requires_grad,
                                                      OrderedDict(), t.dtype))
        state = t.__getstate__()
        if state or type(t) is not Tensor:  # Python attributes, a subclass: set afterwards
            cls = type(t)
            new_type = Global("torch", "Tensor") if cls is Tensor else \
                Global(cls.__module__, cls.__qualname__)
            return (Global("torch._tensor", "_rebuild_from_type_v2"),
                    (rebuild[0], new_type, rebuild[1], state))
        return rebuild

    def _storage_ref(self, storage, dtype, untyped=False):
        known = self._refs.get(id(storage))
        if known is not None:
            if known[1] is not dtype:
                raise RuntimeError("Cannot save multiple tensors or storages that view the "
                                   "same data as different types")
            return known[0]
        key = str(len(self.storages))
        name = None if untyped else STORAGE_NAMES.get(dtype.name)
        pid = ("storage", Global("torch", name) if name else Global("torch.storage",
                                                                    "UntypedStorage"),
               key, location_tag(storage), storage.nbytes() // (dtype.itemsize if name else 1)) \
            + ((None,) if self.legacy else ())
        ref = _StorageRef(pid)
        self._refs[id(storage)] = (ref, dtype)
        self.storages.append((key, storage))
        return ref


# -- reading: rebuild functions (what torch._utils' names resolve to) ------------------------

def _tensor_from(storage, offset, size, stride, dtype=None):
    if not isinstance(storage, TypedStorage):
        raise pickle.UnpicklingError(f"expected a storage, got {type(storage).__name__}")
    dtype = dtype or storage.dtype
    if not isinstance(dtype, D.dtype):
        raise pickle.UnpicklingError(f"expected a dtype, got {type(dtype).__name__}")
    size, stride = tuple(size), tuple(stride)
    if not (type(offset) is int and offset >= 0 and len(size) == len(stride)
            and all(type(n) is int and n >= 0 for n in size)
            and all(type(s) is int and s >= 0 for s in stride)):
        raise RuntimeError(f"invalid tensor geometry: sizes {list(size)}, strides "
                           f"{list(stride)}, storage offset {offset}")
    nbytes = storage._untyped_storage.nbytes()
    if 0 not in size:
        needed = (offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1) * dtype.itemsize
        if needed > nbytes:
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, "
                               f"storage offset {offset}, and itemsize {dtype.itemsize} "
                               f"requiring a storage size of {needed} are out of bounds for "
                               f"storage of size {nbytes}")
    return Tensor._make(storage._untyped_storage, size, stride, offset, dtype)


def _with_grad(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _tensor_from(storage, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    return _with_grad(_resolved(_tensor_from(storage, storage_offset, size, stride), metadata),
                      requires_grad)


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None):
    return _with_grad(_resolved(_tensor_from(storage, storage_offset, size, stride, dtype),
                                metadata), requires_grad)


def _resolved(t, metadata):
    """t with the lazy bits PyTorch's record carries applied: its storage holds a conjugate
    view's (or a negative view's) data unconjugated, and mindtorch has no such views, so
    the values are computed (a copy)."""
    if not metadata:
        return t
    if not isinstance(metadata, dict):
        raise pickle.UnpicklingError(f"expected a dict of tensor metadata, got "
                                     f"{type(metadata).__name__}")
    pending = _UNFILLED.get()
    if pending is None:
        return _lazy_bits_applied(t, metadata)
    out = t.new_empty(t.shape)  # (its values once the storage's bytes are read)
    pending.append((out, t, metadata))
    return out


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _set_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    from . import empty_strided
    return _with_grad(empty_strided(size, stride, dtype=dtype, device="meta"), requires_grad)


def _rebuild_from_type_v2(func, new_type, args, state):
    ret = func(*args)
    if type(ret) is not new_type:
        from .nn.parameter import Parameter
        if new_type is Parameter:
            ret = Parameter(ret, ret.requires_grad)
        elif isinstance(new_type, type) and issubclass(new_type, Tensor):  # as PyTorch's
            ret = ret.as_subclass(new_type)
        else:
            raise pickle.UnpicklingError(f"cannot rebuild a tensor of type {new_type}")
    return _set_state(ret, state)


def _set_state(obj, state):
    """A tensor's saved Python attributes. Names its class defines (shape, stride,
    storage, dtype, ...) are refused: a pickle must not rewrite a tensor's geometry."""
    if isinstance(state, tuple):
        state = {k: v for part in state if part for k, v in part.items()}
    for k, v in (state or {}).items():
        if not isinstance(k, str) or hasattr(type(obj), k):
            raise pickle.UnpicklingError(f"cannot restore attribute {k!r} of a tensor")
        setattr(obj, k, v)
    return obj


def _unsupported(what):
    def rebuild(*args, **kwargs):
        raise RuntimeError(f"mindtorch.load: {what} are not supported")
    rebuild.__name__ = f"_rebuild_{what.replace(' ', '_')}"
    return rebuild


def _parameter_class():
    from .nn.parameter import Parameter
    return Parameter


def _allowed_globals():
    """PyTorch's weights_only allowlist, by PyTorch's names, as mindtorch objects."""
    from ._dtype import ALL
    from .serialization import _get_layout
    rc = {
        "collections.OrderedDict": OrderedDict, "collections.Counter": collections.Counter,
        "torch.nn.parameter.Parameter": _parameter_class(),
        "torch.serialization._get_layout": _get_layout, "torch.Size": Size,
        "torch.Tensor": Tensor, "torch.device": device, "_codecs.encode": codecs.encode,
        "builtins.bytearray": bytearray, "builtins.set": set, "builtins.complex": complex,
        "torch.storage.UntypedStorage": StorageType(None),
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    }
    for d in ALL:
        rc[f"torch.{d.name}"] = d
        if d.name in STORAGE_NAMES:  # (torch.cuda's: GPU checkpoints of PyTorch < 1.13)
            for module in ("torch", "torch.cuda"):
                rc[f"{module}.{STORAGE_NAMES[d.name]}"] = StorageType(d)
    rc.update(_legacy_tensor_types())
    for f in (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3, _rebuild_parameter,
              _rebuild_parameter_with_state, _rebuild_meta_tensor_no_storage):
        rc[f"torch._utils.{f.__name__}"] = f
    from .sparse._serialize import rebuild_sparse_tensor
    rc["torch._utils._rebuild_sparse_tensor"] = rebuild_sparse_tensor
    for name, what in (("qtensor", "quantized tensors"),
                       ("nested_tensor", "nested tensors"),
                       ("wrapper_subclass", "tensor subclasses"),
                       ("device_tensor_from_cpu_tensor", "device tensors"),
                       ("device_tensor_from_numpy", "device tensors")):
        rc[f"torch._utils._rebuild_{name}"] = _unsupported(what)
    return rc


def _legacy_tensor_types():
    """torch.FloatTensor and the like (cpu, cuda and sparse), as PyTorch allowlists them,
    and torch.storage.TypedStorage."""
    import mindtorch
    rc = {"torch.storage.TypedStorage": TypedStorage}
    for module, namespace in (("torch", mindtorch), ("torch.cuda", mindtorch.cuda),
                              ("torch.sparse", mindtorch.sparse)):
        for name in STORAGE_NAMES.values():
            kind = name.replace("Storage", "Tensor")
            if hasattr(namespace, kind) and not kind.startswith("Complex"):
                rc[f"{module}.{kind}"] = getattr(namespace, kind)
    return rc


def _found_where_named(obj):
    """obj is what its __module__ and __qualname__ lead to (pickle's way of naming it)."""
    import sys
    found = sys.modules.get(getattr(obj, "__module__", None) or "")
    for part in str(getattr(obj, "__qualname__", "")).split("."):
        found = getattr(found, part, None)
    return found is obj


# the public namespaces a mindtorch function is looked up in by its __name__, when its
# __module__ does not reach it (written by PyTorch's name: torch.nn.functional.cross_entropy)
_PUBLIC_PLACES = ("", ".nn.functional", ".linalg", ".fft", ".special", ".nn.init")


def _legacy_name(obj):
    """PyTorch's name of a legacy tensor type (torch.cuda.LongTensor), or None."""
    try:
        return _legacy_type_names().get(obj)
    except TypeError:  # (unhashable)
        return None


def _torch_name(obj):
    """PyTorch's "module.name" for a mindtorch object: a public attribute of its name that
    is obj (torch.nn.functional.cross_entropy), or None."""
    name = getattr(obj, "__name__", None)
    if not isinstance(name, str) or not str(getattr(obj, "__module__", "")).startswith(
            "mindtorch"):
        return None
    for path in _PUBLIC_PLACES:
        if _public(path, name) is obj:
            return f"torch{path}.{name}"
    from ._tensor import Tensor
    if getattr(Tensor, name, None) is obj:  # (a method that is no function's object)
        return f"torch.Tensor.{name}"
    return None


_LEGACY_NAMES = None


def _legacy_type_names():
    """{legacy tensor type: its PyTorch name} ("torch.cuda.LongTensor")."""
    global _LEGACY_NAMES
    if _LEGACY_NAMES is None:
        _LEGACY_NAMES = {obj: name for name, obj in _legacy_tensor_types().items()
                         if name != "torch.storage.TypedStorage"}
    return _LEGACY_NAMES


_ALLOWED = None
SAFE_GLOBALS = {}  # serialization.add_safe_globals' entries (a dict as an ordered set)


def user_globals():
    """{"module.name": object} of add_safe_globals' entries: objects by their module and
    qualified name, (object, "module.name") pairs as given; PyTorch's checks, at load.
    A mindtorch object also answers to its PyTorch name (mindtorch.nn... as torch.nn...),
    which is how PyTorch's checkpoints spell it."""
    rc = {}
    for entry in SAFE_GLOBALS:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(entry[1])}")
            rc[entry[1]] = entry[0]
        else:
            module = entry.__module__
            rc[f"{module}.{entry.__qualname__}"] = entry
            if module == "mindtorch" or module.startswith("mindtorch."):
                rc[f"torch{module[9:]}.{entry.__qualname__}"] = entry
    return rc


_BLOCKED_MODULES = ("sys", "os", "posix", "nt")


def allowed():
    global _ALLOWED
    if _ALLOWED is None:
        _ALLOWED = _allowed_globals()
    return _ALLOWED


def _py3_name(module, name):
    """Python 2 names in protocol-2 pickles (__builtin__.set) as Python 3's."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, *, loader, **kwargs):
        super().__init__(file, **kwargs)
        self.loader = loader

    def persistent_load(self, pid):
        if type(pid) is not tuple:  # (protocol 0's PERSID gives the id's text)
            raise AssertionError(f"saved_id must be a tuple, got {type(pid).__name__}")
        return self.loader.load(pid)


# the opcodes PyTorch's weights-only unpickler runs: protocol 2's (what torch.save writes),
# none of protocol 4's (FRAME, SHORT_BINUNICODE, MEMOIZE, STACK_GLOBAL...)
_WEIGHTS_OPCODES = b"".join([
    pickle.GLOBAL, pickle.NEWOBJ, pickle.REDUCE, pickle.BUILD, pickle.APPEND, pickle.APPENDS,
    pickle.SETITEM, pickle.SETITEMS, pickle.MARK, pickle.TUPLE, pickle.TUPLE1, pickle.TUPLE2,
    pickle.TUPLE3, pickle.NONE, pickle.NEWFALSE, pickle.NEWTRUE, pickle.EMPTY_TUPLE,
    pickle.EMPTY_LIST, pickle.EMPTY_DICT, pickle.EMPTY_SET, pickle.BININT, pickle.BININT1,
    pickle.BININT2, pickle.BINFLOAT, pickle.BINUNICODE, pickle.SHORT_BINSTRING, pickle.BINPERSID,
    pickle.BINGET, pickle.LONG_BINGET, pickle.BINPUT, pickle.LONG_BINPUT, pickle.LONG1,
    pickle.PROTO, pickle.STOP])


def unsafe_globals_in_pickle(data):
    """The GLOBALs ("module.name", Python 3's names as PyTorch's) of the pickle `data` that
    weights_only would refuse, read from its opcodes (those the weights-only unpickler
    runs; another one is refused as it would be)."""
    import pickletools
    found = set()
    for op, arg, _ in pickletools.genops(data):
        code = op.code.encode("latin-1")
        if code not in _WEIGHTS_OPCODES:
            raise pickle.UnpicklingError(f"Unsupported operand {code[0]}")
        if code == pickle.GLOBAL:
            found.add(".".join(_py3_name(*arg.split(" ", 1))))
    return found - allowed().keys() - user_globals().keys()


_SETITEM_TYPES = (dict, OrderedDict, collections.Counter)
_SETITEM_WHAT = " for dict, collections.OrderedDict, collections.Counter"


def _is_allowlisted(obj):
    """obj is what an allowed global (PyTorch's, or add_safe_globals') resolved to."""
    return any(v is obj for v in allowed().values()) or \
        any(v is obj for v in user_globals().values())


class WeightsUnpickler(pickle._Unpickler):
    """Resolves only allowlisted globals, so unpickling can call nothing else, and builds
    (BUILD opcode) only dicts and allowlisted user types, never tensors. The pure-Python
    unpickler, so that BUILD can be checked (a checkpoint's data.pkl is small)."""
    dispatch = {op: pickle._Unpickler.dispatch[op] for op in _WEIGHTS_OPCODES}

    def load_proto(self):  # (any protocol number is read, as PyTorch's unpickler)
        self.proto = self.read(1)[0]
        if self.proto != 2:
            warnings.warn(f"Detected pickle protocol {self.proto} in the checkpoint, which was "
                          "not the default pickle protocol used by `torch.load` (2). The "
                          "weights_only Unpickler might not support all instructions "
                          "implemented by this protocol, please file an issue for adding "
                          "support if you encounter this.", stacklevel=2)

    dispatch[pickle.PROTO[0]] = load_proto

    def _load_get(self, index):  # a missing memo index is a bare KeyError, as PyTorch's
        if index not in self.memo:
            e = KeyError(index)
            e.memo = True
            raise e
        self.append(self.memo[index])

    dispatch[pickle.BINGET[0]] = lambda self: self._load_get(self.read(1)[0])
    dispatch[pickle.LONG_BINGET[0]] = \
        lambda self: self._load_get(int.from_bytes(self.read(4), "little"))

    def __init__(self, file, *, loader, **kwargs):
        super().__init__(file, **kwargs)
        self.loader = loader

    def persistent_load(self, pid):
        if type(pid) is not tuple and type(pid) is not int:
            raise pickle.UnpicklingError(f"persistent_load id must be tuple or int, but got "
                                         f"{type(pid)}")
        if type(pid) is tuple and pid and _ascii(pid[0]) != "storage":
            raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got "
                                         f"{type(pid[0])}")
        return self.loader.load(pid)

    def load(self):
        try:
            return super().load()
        except KeyError as e:  # the pure-Python unpickler's dispatch lookup of an opcode
            if e.args and type(e.args[0]) is int and not hasattr(e, "memo"):
                raise pickle.UnpicklingError(f"Unsupported operand {e.args[0]}") from None
            raise

    def load_build(self):
        inst = self.stack[-2]  # under the state
        if not (type(inst) in (OrderedDict, dict, collections.Counter)
                or type(inst) in user_globals().values()):
            raise pickle.UnpicklingError(f"Can only build OrderedDict or types allowlisted "
                                         f"via `add_safe_globals`, but got {type(inst)}")
        super().load_build()

    dispatch[pickle.BUILD[0]] = load_build

    # the containers each opcode may fill, and the callables it may call, as PyTorch's
    def _target(self, opcode, allowed_types, what):
        if type(self.stack[-1]) not in allowed_types:
            raise pickle.UnpicklingError(f"Can only {opcode}{what}, but got "
                                         f"{type(self.stack[-1])}")

    def load_append(self):
        item = self.stack.pop()
        self._target("append to lists", (list,), "")
        self.stack[-1].append(item)

    def load_appends(self):
        items = self.pop_mark()
        self._target("extend lists", (list,), "")
        self.stack[-1].extend(items)

    def load_setitem(self):
        value, key = self.stack.pop(), self.stack.pop()
        self._target("SETITEM", _SETITEM_TYPES, _SETITEM_WHAT)
        self.stack[-1][key] = value

    def load_setitems(self):
        items = self.pop_mark()
        self._target("SETITEMS", _SETITEM_TYPES, _SETITEM_WHAT)
        for i in range(0, len(items), 2):
            self.stack[-1][items[i]] = items[i + 1]

    def load_reduce(self):
        args = self.stack.pop()
        func = self.stack[-1]
        if not _is_allowlisted(func):
            message = f"Trying to call reduce for unrecognized function {func}"
            if hasattr(func, "__self__"):
                message += f" which belongs to {func.__self__}"
            raise pickle.UnpicklingError(message)
        self.stack[-1] = func(*args)

    def load_newobj(self):
        args = self.stack.pop()
        cls = self.stack.pop()
        if not (cls is _parameter_class() or _is_allowlisted(cls)):
            raise pickle.UnpicklingError("Can only create new object for nn.Parameter or "
                                         "classes allowlisted via `add_safe_globals` but got "
                                         f"{cls}")
        self.append(cls.__new__(cls, *args))

    for _op, _load in ((pickle.APPEND, load_append), (pickle.APPENDS, load_appends),
                       (pickle.SETITEM, load_setitem), (pickle.SETITEMS, load_setitems),
                       (pickle.REDUCE, load_reduce), (pickle.NEWOBJ, load_newobj)):
        dispatch[_op[0]] = _load
    del _op, _load

    def find_class(self, module, name):
        module, name = _py3_name(module, name)
        full = f"{module}.{name}"
        obj = allowed().get(full)
        if obj is None:  # (the user's entries are read, and checked, only when needed)
            obj = user_globals().get(full)
        if obj is not None:
            return obj
        if module in _BLOCKED_MODULES:
            raise pickle.UnpicklingError(f"Trying to load unsupported GLOBAL {full} whose "
                                         f"module {module} is blocked.")
        if module == "torch" and name in _MISSING_DTYPES:
            raise pickle.UnpicklingError(f"dtype torch.{name} is not supported by mindtorch")
        shown = name if module == "builtins" else full
        raise pickle.UnpicklingError(
            f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please "
            f"use `mindtorch.serialization.add_safe_globals([{shown}])` or the "
            f"`mindtorch.serialization.safe_globals([{shown}])` context manager to allowlist "
            f"this global if you trust this class/function.")


class FullUnpickler(_Unpickler):
    """weights_only=False: any global (PyTorch's names mapped to mindtorch's)."""

    def find_class(self, module, name):
        m3, n3 = _py3_name(module, name)
        obj = allowed().get(f"{m3}.{n3}")
        if obj is not None:
            return obj
        if m3 == "torch" or m3.startswith("torch."):
            found = _c_builtin(m3, n3) if m3.startswith("torch._C") else \
                _public(m3[5:], n3)
            if found is None:
                raise pickle.UnpicklingError(f"mindtorch has no equivalent of {m3}.{n3}")
            return found
        return super().find_class(module, name)


def _public(path, name):
    """mindtorch<path>.<name> (path "" or ".nn.functional"; name may be dotted: a
    protocol-4 qualified name, Tensor.add), or None."""
    import importlib
    try:
        found = importlib.import_module("mindtorch" + path)
        for part in name.split("."):
            found = getattr(found, part)
        return found
    except (ImportError, AttributeError):
        return None


# where PyTorch's pickles of its builtins (torch.relu, F.gelu, torch.special.erf...) point:
# classes whose attribute they are, or C modules holding them under (prefixed) aten names
_C_CLASSES = {"_VariableFunctionsClass": None, "_VariableFunctions": None, "TensorBase": "Tensor",
              "_TensorBase": "Tensor", "Generator": "Generator"}
_C_MODULES = {"torch._C._nn": ((".nn.functional", ""), ""),
              "torch._C._special": ((".special",), "special_"),
              "torch._C._linalg": ((".linalg",), "linalg_"), "torch._C._fft": ((".fft",), "fft_")}


_ATEN_NAMES = {"log_sigmoid": "logsigmoid"}  # (an aten name unlike its functional's)


def _c_builtin(module, name):
    """The mindtorch object a PyTorch builtin's pickle (module torch._C...) stands for."""
    if module == "torch._C" and name in _C_CLASSES:
        import mindtorch
        return getattr(mindtorch, _C_CLASSES[name]) if _C_CLASSES[name] else mindtorch
    places, prefix = _C_MODULES.get(module, ((), ""))
    short = _ATEN_NAMES.get(name, name.removeprefix(prefix))
    for path in places:
        found = _public(path, short)
        if found is not None:
            return found
    return None


_UNSAFE = ("In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
           "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` "
           "set to `False` will likely succeed, but it can result in arbitrary code execution. "
           "Do it only if you got the file from a trusted source.")
_DOCS = ("\n\nCheck the documentation of torch.load to learn more about types accepted by "
         "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def weights_only_message(error):
    """PyTorch's text: advice on allowlisting for a refused global, else a generic failure
    (a file that is no pickle, an unsupported opcode)."""
    message = str(error)
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        return ("Weights only load failed. This file can still be loaded, to do so you have "
                "two options, \x1b[1mdo those steps only if you trust the source of the "
                f"checkpoint\x1b[0m. \n\t(1) {_UNSAFE}\n\t(2) Alternatively, to load with "
                "`weights_only=True` please check the recommended steps in the following error "
                f"message.\n\tWeightsUnpickler error: {message}{_DOCS}")
    issue = "" if re.search(r"whose module (\S+) is blocked", message) else (
        "Please file an issue with the following so that we can make `weights_only=True` "
        "compatible with your use case: WeightsUnpickler error: ")
    return f"Weights only load failed. {_UNSAFE}\n{issue}\n\n{message}{_DOCS}"
