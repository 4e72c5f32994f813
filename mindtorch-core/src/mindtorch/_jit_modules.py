"""What torch.jit.script / trace return, for a framework that runs everything eagerly:
wrappers with PyTorch's classes (ScriptModule, RecursiveScriptModule, TopLevelTracedModule,
ScriptFunction) that call the original module or function, so `isinstance(m,
torch.jit.ScriptModule)`, `m.save(path)` and `torch.jit.load` work and compute what the
original computed.  There is no TorchScript: `code` and `graph` are refused clearly."""
import copy

from .nn.modules.module import Module

# attributes PyTorch derives from the compiled TorchScript, which an eager wrapper lacks
_TORCHSCRIPT_ONLY = frozenset(("code", "graph", "inlined_graph", "code_with_constants",
                               "schema", "graph_for"))
# what the wrapper keeps for itself; other attribute writes reach the original module
_OWN = frozenset(("_orig", "_parameters", "_buffers", "_modules",
                  "_non_persistent_buffers_set", "original_name"))


def _no_torchscript(obj, name):
    return AttributeError(
        f"'{type(obj).__name__}' object has no attribute '{name}': mindtorch runs "
        "scripted and traced code eagerly, so there is no TorchScript code or graph to show")


class _Archive:
    """The saving side of ScriptModule.save / ScriptFunction.save (a pickled object with
    the `_extra_files` PyTorch stores beside it), read back by torch.jit.load."""

    @staticmethod
    def save(obj, f, extra_files):
        from .serialization import save
        files = {k: v.encode() if isinstance(v, str) else bytes(v)
                 for k, v in (extra_files or {}).items()}
        save({"mindtorch.jit": obj, "extra_files": files}, f)

    @staticmethod
    def to_bytes(obj, extra_files):
        import io
        buf = io.BytesIO()
        _Archive.save(obj, buf, extra_files)
        return buf.getvalue()


class ScriptModule(Module):
    """PyTorch's base of scripted and traced modules."""

    def save(self, f, _extra_files=None):
        _Archive.save(self, f, _extra_files)

    def save_to_buffer(self, _extra_files=None):
        return _Archive.to_bytes(self, _extra_files)


class _EagerScriptModule(ScriptModule):
    """A scripted or traced module here: runs the forward of a shallow copy of the module
    (`_orig`), which shares the module's parameter and buffer tables (the same tensors, as
    a scripted module's are) but has its own training flag and attributes, as a scripted
    module does; the wrapper reads and writes those of the copy, so code in forward
    reading `self.training` sees what the wrapper's `.eval()` set.  Children are wrapped
    likewise."""

    def __init__(self, mod):
        super().__init__()
        d = self.__dict__
        del d["training"]  # (the copy's, through the property)
        d["_orig"] = mod
        d["original_name"] = type(mod).__name__
        d["_parameters"] = mod._parameters
        d["_buffers"] = mod._buffers
        d["_non_persistent_buffers_set"] = mod._non_persistent_buffers_set
        d["_modules"] = {k: None if c is None else _wrap_child(type(self), c)
                         for k, c in mod._modules.items()}

    @property
    def training(self):
        return self._orig.training

    @training.setter
    def training(self, value):
        self._orig.training = value

    def forward(self, *args, **kwargs):
        return self._orig(*args, **kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name in _TORCHSCRIPT_ONLY:
                raise _no_torchscript(self, name) from None
            if name.startswith("__") or "_orig" not in self.__dict__:
                raise
            return getattr(self._orig, name)

    def __setattr__(self, name, value):
        if name in _OWN or hasattr(type(self), name):
            return super().__setattr__(name, value)
        return setattr(self._orig, name, value)

    def __reduce__(self):
        return (type(self), (self._orig,))

    def extra_repr(self):
        return f"original_name={self.original_name}"

    def __bool__(self):  # (a module is true, whatever len() its container protocol gives)
        return True


class RecursiveScriptModule(_EagerScriptModule):
    """What torch.jit.script(module) returns."""

    # the containers' protocols, as a scripted Sequential / ModuleList / ModuleDict keeps
    def __getitem__(self, index):  # (PyTorch's gives the Python module, as iteration)
        return self._orig[index]

    def __len__(self):
        return len(self._orig)

    def __iter__(self):
        return iter(self._orig)

    def __contains__(self, item):
        return item in self._orig


class TracedModule(_EagerScriptModule):
    """torch.jit.trace(module)'s children: named after the original class, and, as
    PyTorch's, without the containers' indexing (a traced graph has no Python list)."""

    def _get_name(self):
        return self.original_name


class TopLevelTracedModule(TracedModule):
    """What torch.jit.trace(module) returns."""


def _detached_copy(mod):
    """mod's copy with its own attributes and children's copies, sharing its tables of
    parameters and buffers."""
    if isinstance(mod, ScriptModule):
        return mod
    clone = copy.copy(mod)
    clone.__dict__["_modules"] = {k: None if c is None else _detached_copy(c)
                                  for k, c in mod._modules.items()}
    return clone


def _wrap_child(cls, mod):
    if isinstance(mod, ScriptModule):
        return mod
    return (TracedModule if issubclass(cls, TracedModule) else cls)(mod)


def script_module(mod):
    return mod if isinstance(mod, ScriptModule) else RecursiveScriptModule(_detached_copy(mod))


def traced_module(mod):
    return mod if isinstance(mod, ScriptModule) else TopLevelTracedModule(_detached_copy(mod))


class ScriptFunction:
    """torch.jit.script(function) / trace(function): calls the function."""

    def __init__(self, fn):
        self._fn = fn
        self.name = getattr(fn, "__name__", type(fn).__name__)
        if self.name == "<lambda>":
            self.name = "_lambda"
        self.qualified_name = f"__torch__.{self.name}"

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __getattr__(self, name):
        if name in _TORCHSCRIPT_ONLY:
            raise _no_torchscript(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def save(self, f, _extra_files=None):
        _Archive.save(self, f, _extra_files)

    def save_to_buffer(self, _extra_files=None):
        return _Archive.to_bytes(self, _extra_files)
