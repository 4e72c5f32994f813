"""torch.library: custom operators on mindtorch's op registry.

A custom op is an ordinary op of the registry (`define`, named "ns::name"): its kernels
are the registry's per-device kernels (`register_kernel`, `Library.impl` with a device
key), its fake implementation is the `meta` kernel, and a composite implementation is its
decomposition. PyTorch's Autograd dispatch key becomes `_CustomAutograd`: an
autograd.Function (`GeneratedBackwardFor_<ns>_<name>_default`) around the op, running the
registered `setup_context` / `backward`, or refusing backward as PyTorch does when none
was registered. `mindtorch.ops.<ns>.<name>` (see ops.py) calls through `call()` here.
"""
import inspect
import re
import types
import typing

from . import _autocast
from . import _dtype as D
from ._device import device as _device_t
from ._ops.registry import OPS, clear_caches
from ._ops.registry import define as _define
from ._tensor import Tensor

__all__ = [
    "CustomOpDef",
    "Library",
    "custom_op",
    "define",
    "fallthrough_kernel",
    "get_ctx",
    "impl",
    "infer_schema",
    "opcheck",
    "register_autocast",
    "register_autograd",
    "register_fake",
    "register_kernel",
    "register_vmap",
]

_ENTRIES = {}    # "ns::name" -> _Entry (what torch.library added to the op)
_DEF_NAMESPACES = set()  # namespaces with a "DEF" Library (PyTorch allows one each)
_NAMESPACES = set()  # every namespace a Library was made for (mindtorch.ops.<ns> exists)
_KINDS = ("DEF", "IMPL", "FRAGMENT")
# dispatch keys standing for "every device": composite implementations
_COMPOSITE = ("", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
              "CompositeExplicitAutogradNonFunctional", "Math", "DefaultBackend")


class _Entry:
    """torch.library's additions to one op: autograd and the Python implementation."""

    def __init__(self, op):
        self.op = op
        self.backward = self.setup_context = None
        self.autograd_impl = None   # an Autograd-key kernel: handles autograd itself
        self.function = None        # the autograd.Function made on first use
        self.implicit = False       # a CompositeImplicitAutograd implementation
        self.declaration = op.schema.text  # PyTorch's spelling (SymInt), for messages
        self.autocast = {}          # device type -> dtype: register_autocast's casts

    def autograd_function(self):
        if self.function is None:
            self.function = _make_function(self)
        return self.function


def _entry(qualname):
    op = OPS.get(qualname)
    if op is None:
        ns, _, name = qualname.partition("::")
        raise RuntimeError(f"Could not find schema for {ns}::{name}")
    entry = _ENTRIES.get(qualname)
    if entry is None:
        entry = _ENTRIES[qualname] = _Entry(op)
    return entry


def _qualname(op):
    """'ns::name' of a string, CustomOpDef or mindtorch.ops packet."""
    if isinstance(op, str):
        name = op
    else:
        name = getattr(op, "_qualname", None) or getattr(op, "_name", None)
        if name is None:
            raise ValueError(f"register_*(op): expected the op as 'ns::name' or an operator "
                             f"object, got {op!r}")
    if "::" not in name:
        raise ValueError(f"expected op's name to be of the form 'namespace::name', got "
                         f"{name!r}")
    return name.split(".")[0]  # an overload name ("ns::foo.default") names the same op


# -- schemas ---------------------------------------------------------------------------

def _to_registry_schema(text):
    """PyTorch's schema spelling in the registry's: SymInt is int, alias sets are one
    letter, an overload name is dropped."""
    text = re.sub(r"\bSym(Int|Float|Bool)\b", lambda m: m.group(1).lower(), text)
    text = re.sub(r"\(\w+(!?)\)", lambda m: f"(a{m.group(1)})", text.split("->")[0]) + \
        "->" + text.split("->", 1)[1]
    return re.sub(r"^(\s*[\w:]+)\.\w+\(", r"\1(", text)


_ANNOTATIONS = {Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str",
                D.dtype: "ScalarType", _device_t: "Device"}


def _type_name(ann, where):
    """PyTorch's schema type of a Python annotation."""
    if ann in _ANNOTATIONS:
        return _ANNOTATIONS[ann]
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        inner = args[0] if args[1] is type(None) else args[1]
        return _type_name(inner, where) + "?"
    from collections import abc
    if origin in (list, tuple, abc.Sequence) and args and args[0] is not Ellipsis:
        inner = _type_name(args[0], where)
        if not inner.endswith("?") or inner == "Tensor?":
            return inner + "[]"
    from numbers import Number
    if ann in (Number, typing.Union[int, float]) or \
            getattr(ann, "__name__", None) == "Number":
        return "Scalar"
    raise ValueError(f"infer_schema(func): Parameter {where} has unsupported type {ann}. "
                     f"The valid types are: {sorted(set(_ANNOTATIONS.values()))}.")


def _return_type(ann):
    if ann is None or ann is type(None):
        return "()"
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is tuple:
        return "(" + ", ".join(_type_name(a, "return") for a in args) + ")"
    if ann is inspect.Signature.empty:
        raise ValueError("infer_schema(func): No return type annotation was provided. Please "
                         "add one.")
    return _type_name(ann, "return")


def _default_text(value):
    if value is None or isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def infer_schema(prototype_function, /, *, mutates_args, op_name=None):
    """The schema of a type-annotated function, as PyTorch writes it."""
    sig = inspect.signature(prototype_function)
    hints = typing.get_type_hints(prototype_function)
    mutated = set(() if mutates_args == "unknown" else mutates_args)
    parts, kwonly, n_mutated = [], False, 0
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ValueError("infer_schema(func): Parameters of kind *args or **kwargs are "
                             "not supported")
        if p.kind == p.KEYWORD_ONLY and not kwonly:
            parts.append("*")
            kwonly = True
        if p.name not in hints:
            raise ValueError(f"infer_schema(func): Parameter {p.name} must have a type "
                             f"annotation.")
        typ = _type_name(hints[p.name], p.name)
        if p.name in mutated:
            typ = f"Tensor(a{n_mutated}!)" + typ[len("Tensor"):]
            n_mutated += 1
        text = f"{typ} {p.name}"
        if p.default is not p.empty:
            text += "=" + _default_text(p.default)
        parts.append(text)
    unknown = mutated - set(sig.parameters)
    if unknown:
        raise ValueError(f"infer_schema(func): {sorted(unknown)} in mutates_args were not "
                         f"found in the custom op's signature.")
    ret = _return_type(hints.get("return", sig.return_annotation))
    return f"{op_name or ''}({', '.join(parts)}) -> {ret}"


# -- calling -----------------------------------------------------------------------------

def _positional(schema, args, kwargs, declaration=None):
    """The call's arguments in schema order (defaults filled in), checked against the
    schema's types; PyTorch's dispatcher refuses a bad call with a RuntimeError."""
    declaration = f"Declaration: {declaration or schema.text}"
    if len(args) + len(kwargs) > len(schema.args) or \
            any(a.name in kwargs for a in schema.args[:len(args)]):
        raise RuntimeError(f"{schema.name}() expected at most {len(schema.args)} argument(s) "
                           f"but received {len(args) + len(kwargs)} argument(s). "
                           f"{declaration}")
    values = list(args) + [None] * (len(schema.args) - len(args))
    for i, a in enumerate(schema.args[len(args):], len(args)):
        if a.name in kwargs:
            values[i] = kwargs.pop(a.name)
        elif not a.required:
            values[i] = a.default
        else:
            raise RuntimeError(f"{schema.name}() is missing value for argument '{a.name}'. "
                               f"{declaration}")
    if kwargs:
        raise RuntimeError(f"{schema.name}() expected at most {len(schema.args)} argument(s) "
                           f"but received {len(args) + len(kwargs)} argument(s). "
                           f"{declaration}")
    for i, (a, v) in enumerate(zip(schema.args, values)):
        if not (v is None and a.optional) and not _accepts(a.type, v):
            jit = _jit_type(a.type)
            raise RuntimeError(f"{schema.name}() Expected a value of type "
                               f"'{f'Optional[{jit}]' if a.optional else jit}' for argument "
                               f"'{a.name}' but instead found type '{type(v).__name__}'.\n"
                               f"Position: {i}\nValue: {v!r}\n{declaration}")
        if a.type in ("int", "bool") and isinstance(v, int):  # (as the kernel's type)
            values[i] = int(v) if a.type == "int" else bool(v)
    return values


# what PyTorch's dispatcher takes for a schema type (bool and 0-dim tensors as numbers)
_ACCEPTS = {"Tensor": lambda v: isinstance(v, Tensor),
            "float": lambda v: isinstance(v, (int, float, Tensor)),
            "int": lambda v: isinstance(v, (int, Tensor)),
            "bool": lambda v: isinstance(v, (int, Tensor)),
            "str": lambda v: isinstance(v, str),
            "Device": lambda v: isinstance(v, (str, _device_t)),
            "ScalarType": lambda v: isinstance(v, D.dtype),
            "Scalar": lambda v: isinstance(v, (int, float, complex, Tensor))}


def _accepts(kind, v):
    if kind.endswith("[]"):
        inner = kind[:-2]
        return isinstance(v, (list, tuple)) and all(
            (x is None and inner.endswith("?")) or _accepts(inner.rstrip("?"), x) for x in v)
    check = _ACCEPTS.get(kind)
    return check is None or check(v)


def _jit_type(kind):
    """The TorchScript spelling of a schema type, as PyTorch's message shows it."""
    if kind.endswith("?"):
        return f"Optional[{_jit_type(kind[:-1])}]"
    if kind.endswith("[]"):
        return f"List[{_jit_type(kind[:-2])}]"
    return {"ScalarType": "int", "Scalar": "number"}.get(kind, kind)


def _as_python_call(fn, schema):
    """A registry kernel (every argument positional, in schema order) calling a user
    function whose keyword-only parameters are the schema's."""
    names = [(a.name, a.kwarg_only) for a in schema.args]
    if not any(k for _, k in names):
        return fn

    def kernel(*args):
        pos = [v for (n, k), v in zip(names, args) if not k]
        kw = {n: v for (n, k), v in zip(names, args) if k}
        return fn(*pos, **kw)
    kernel.__wrapped__ = fn
    return kernel


def _needs_grad(values):
    from .autograd.grad_mode import state
    if not state.enabled:
        return False
    for v in values:
        if isinstance(v, Tensor) and v.requires_grad:
            return True
        if isinstance(v, (list, tuple)) and any(isinstance(t, Tensor) and t.requires_grad
                                                for t in v):
            return True
    return False


def call(qualname, args, kwargs):
    """mindtorch.ops.<ns>.<name>(...): the op, through its autograd Function when an input
    requires grad (PyTorch's Autograd key)."""
    op = OPS[qualname]
    entry = _ENTRIES.get(qualname)
    if entry is None:  # an op a backend plugin declared: its binding's conventions
        return op.binding(*args, **kwargs)
    values = _positional(op.schema, args, dict(kwargs), entry.declaration)
    casts = _autocast.state.on and [(d, t) for d, t in entry.autocast.items()
                                     if d in _autocast.state.dtypes]
    if casts:  # (PyTorch's Autocast kernel: the inputs cast, the op run with autocast off)
        from .amp.autocast_mode import _cast
        for device_type, dtype in casts:
            values = _cast(values, device_type, dtype)
        with _autocast.off():
            return _call(op, entry, values, values, {})
    return _call(op, entry, values, args, kwargs)


def _call(op, entry, values, args, kwargs):
    if entry.implicit and entry.backward is None and \
            entry.autograd_impl is None:  # (differentiable through its sub-ops)
        return op.binding(*args, **kwargs)
    if not _needs_grad(values):
        return op.call(*values)
    if not op.schema.returns:  # (a mutating op returning nothing: autograd never sees it)
        from .autograd.grad_mode import no_grad
        with no_grad():
            return op.call(*values)
    if entry.autograd_impl is not None:
        return entry.autograd_impl(*values)
    return entry.autograd_function().apply(*values)


def _make_function(entry):
    from .autograd.function import Function
    op = entry.op
    display = op.name.replace("::", ".") + ".default"

    def forward(*args):
        return op.call(*args)

    args = op.schema.args
    n_positional = sum(not a.kwarg_only for a in args)
    kwonly = [a.name for a in args if a.kwarg_only]

    def setup_context(ctx, inputs, output):
        if entry.setup_context is None:
            return
        if kwonly:  # PyTorch passes keyword-only arguments apart
            entry.setup_context(ctx=ctx, inputs=inputs[:n_positional],
                                keyword_only_inputs=dict(zip(kwonly, inputs[n_positional:])),
                                output=output)
        else:
            entry.setup_context(ctx=ctx, inputs=inputs, output=output)

    def backward(ctx, *grads):
        if entry.backward is None:
            raise RuntimeError(f"Trying to backward through {display} but no autograd "
                               f"formula was registered. Please use register_autograd to "
                               f"add one.")
        result = entry.backward(ctx, *grads)
        result = result if isinstance(result, tuple) else (result,)
        return result + (None,) * (len(args) - len(result))  # (keyword-only: no gradient)

    name = "GeneratedBackwardFor_" + op.name.replace("::", "_") + "_default"
    return type(name, (Function,), {"forward": staticmethod(forward),
                                    "setup_context": staticmethod(setup_context),
                                    "backward": staticmethod(backward)})


# -- registration ------------------------------------------------------------------------

def _device_type(key):
    """A dispatch key ("CPU", "Meta") or device type ("cpu") as a device type name."""
    if isinstance(key, _device_t):
        return key.type
    key = str(key)
    return {"CPU": "cpu", "Meta": "meta", "CUDA": "cuda"}.get(key, key.lower())


def _set_kernel(qualname, device_type, fn):
    from .plugins._registry import KERNELS
    op = OPS[qualname]
    KERNELS.setdefault(qualname, {})[device_type] = _as_python_call(fn, op.schema)
    op.resolved.clear()


def _set_composite(qualname, fn, explicit):
    op = OPS[qualname]
    kernel = _as_python_call(fn, op.schema)
    if explicit:  # differentiable only through register_autograd, as in PyTorch
        from .autograd.grad_mode import no_grad

        def composite(*args):
            with no_grad():
                return kernel(*args)
        op.decomposition = composite
    else:
        op.decomposition = kernel
    _entry(qualname).implicit = not explicit
    clear_caches()


def _register_impl(qualname, key, fn):
    if key in _COMPOSITE:
        _set_composite(qualname, fn, explicit=key not in ("", "CompositeImplicitAutograd",
                                                          "Math"))
    elif key.startswith("Autograd"):
        _entry(qualname).autograd_impl = _as_python_call(fn, OPS[qualname].schema)
    else:
        _set_kernel(qualname, _device_type(key), fn)
        _entry(qualname)


def _define_op(qualname, schema, tags=()):
    if qualname in OPS:
        raise RuntimeError(f"Tried to register an operator ({qualname}) with the same name "
                           f"and overload name multiple times.")
    tags = tags if isinstance(tags, (tuple, list)) else (tags,)
    op = _define(_to_registry_schema(qualname + schema[schema.index("("):]),
                 tags=tuple(getattr(t, "name", t) for t in tags),  # (torch.Tag: its name)
                 validate=True, method=False, function=False)
    _entry(qualname).declaration = re.sub(r"^[\w:]+(\.\w+)?\(", qualname + "(",
                                          qualname + schema[schema.index("("):])
    return op


class Library:
    """A set of operator definitions/implementations in one namespace: kind "DEF" (the
    namespace's one definition library), "FRAGMENT" (more definitions) or "IMPL"
    (implementations of ops defined elsewhere)."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in _KINDS:
            raise ValueError(f"Unsupported kind: {kind}")
        if ns == "aten" and kind == "DEF":
            raise ValueError(f"{ns} is a reserved namespace. Please try creating a library "
                             f"with another name.")
        if kind == "DEF":
            if ns in _DEF_NAMESPACES:
                raise RuntimeError(f"Only a single TORCH_LIBRARY can be used to register the "
                                   f"namespace {ns}; please put all of your definitions in a "
                                   f"single TORCH_LIBRARY block.")
            _DEF_NAMESPACES.add(ns)
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key
        _NAMESPACES.add(ns)
        self._op_defs = set()
        self._impls = []

    def __repr__(self):
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema, alias_analysis="", *, tags=()):
        """Define `name(args) -> returns` in this namespace; returns the op's name."""
        name = schema[:schema.index("(")].strip().split(".")[0]
        if self.kind == "IMPL":
            raise RuntimeError("define() is not allowed in an IMPL library")
        qualname = f"{self.ns}::{name}"
        _define_op(qualname, schema, tags)
        self._op_defs.add(qualname)
        return name

    def impl(self, op_name, fn, dispatch_key="", *, with_keyset=False, allow_override=False):
        """Register fn for op_name under a dispatch key: a device ("CPU", "Meta"), a
        composite key (every device), or an Autograd key."""
        if not callable(fn):
            raise TypeError(f"Input function is required to be a callable but found type "
                            f"{type(fn)}")
        name = op_name if isinstance(op_name, str) else _qualname(op_name)
        qualname = name if "::" in name else f"{self.ns}::{name}"
        qualname = qualname.split(".")[0]
        key = dispatch_key or self.dispatch_key
        if qualname.startswith("aten::"):
            core = qualname[len("aten::"):]
            if core not in OPS:
                raise RuntimeError(f"operator aten::{core} is not known to mindtorch")
            if key in _COMPOSITE or key.startswith("Autograd"):
                raise NotImplementedError(f"overriding aten::{core} under {key or 'a '}"
                                          f"composite key is not supported by mindtorch")
            from .plugins._registry import KERNELS
            device_type = _device_type(key)
            self._impls.append((core, device_type, KERNELS.get(core, {}).get(device_type)))
            KERNELS.setdefault(core, {})[device_type] = fn
            OPS[core].resolved.clear()
            return
        _entry(qualname)
        _register_impl(qualname, key, fn)

    def fallback(self, fn, dispatch_key="", *, with_keyset=False):
        raise NotImplementedError("Library.fallback is not supported by mindtorch")

    def _destroy(self):
        from .plugins._registry import KERNELS
        for core, device_type, old in self._impls:
            if old is None:
                KERNELS.get(core, {}).pop(device_type, None)
            else:
                KERNELS[core][device_type] = old
            OPS[core].resolved.clear()
        for qualname in self._op_defs:
            OPS.pop(qualname, None)
            KERNELS.pop(qualname, None)
            _ENTRIES.pop(qualname, None)
        if self.kind == "DEF":
            _DEF_NAMESPACES.discard(self.ns)
        self._op_defs, self._impls = set(), []


_LIBS = []  # the fragments define()/impl() use when not given a lib (kept alive)


def _fragment(ns):
    lib = Library(ns, "FRAGMENT")
    _LIBS.append(lib)
    return lib


def define(qualname, schema, *, lib=None, tags=()):
    """torch.library.define("ns::name", "(Tensor x) -> Tensor")."""
    if "::" not in qualname:
        raise ValueError(f"define(qualname, schema): expected qualname to be "
                         f"namespace::name, got {qualname}")
    ns, name = qualname.split("::", 1)
    (lib or _fragment(ns)).define(name + schema, tags=tags)


def register_kernel(op, device_types, func=None, /, *, lib=None):
    """The implementation of op on the given device types (None: every device)."""
    qualname = _qualname(op)
    _entry(qualname)

    def register(fn):
        if device_types is None:
            _set_composite(qualname, fn, explicit=True)
        else:
            for d in (device_types,) if isinstance(device_types, (str, _device_t)) \
                    else device_types:
                _set_kernel(qualname, _device_type(d), fn)
        return fn
    return register if func is None else register(func)


def impl(qualname, types, func=None, *, lib=None):
    """torch.library.impl: register_kernel for device types or dispatch keys; also the
    older form impl(library, name, dispatch_key) decorating the kernel."""
    if isinstance(qualname, Library):
        library, name, key = qualname, types, func or ""
        return lambda fn: library.impl(name, fn, key) or fn
    qualname = _qualname(qualname)
    _entry(qualname)

    def register(fn):
        for key in (types,) if isinstance(types, (str, _device_t)) else types:
            key = key.type if isinstance(key, _device_t) else key
            if key in _COMPOSITE or key.startswith("Autograd") or key[:1].isupper():
                _register_impl(qualname, key, fn)
            else:
                _set_kernel(qualname, key, fn)
        return fn
    return register if func is None else register(func)


def register_fake(op, func=None, /, *, lib=None, _stacklevel=1, allow_override=False):
    """The op's shape/dtype function: its kernel on the meta device."""
    qualname = _qualname(op)
    _entry(qualname)

    def register(fn):
        _set_kernel(qualname, "meta", fn)
        return fn
    return register if func is None else register(func)


impl_abstract = register_fake  # (PyTorch's former name)


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    """backward(ctx, *grads) -> one gradient per input; setup_context(ctx, inputs,
    output) saves what backward needs."""
    qualname = _qualname(op)
    if not callable(backward):
        raise TypeError(f"Expected backward to be callable, got {type(backward)}")
    entry = _entry(qualname)
    if entry.op.mutates:
        raise RuntimeError(f"Attempted to register an autograd formula for {qualname}, but "
                           f"the operator is mutable. We don't support register_autograd on "
                           f"mutable operators.")
    entry.backward, entry.setup_context = backward, setup_context


def register_vmap(op, func=None, /, *, lib=None):
    """Accepted for compatibility: mindtorch's vmap calls the op once per slice."""
    _entry(_qualname(op))
    return (lambda fn: fn) if func is None else func


def register_autocast(op, device_type, cast_inputs, /, *, lib=None):
    """Under autocast of device_type, the op's floating inputs of that device
    (float64 aside) are cast to cast_inputs and the op runs with autocast off."""
    from .amp.autocast_mode import is_autocast_available
    entry = _entry(_qualname(op))
    if not is_autocast_available(device_type):
        raise ValueError(f"Device type '{device_type}' does not support autocast.")
    entry.autocast[device_type] = cast_inputs


def fallthrough_kernel():
    """A dummy kernel name for Library.impl (PyTorch's fallthrough)."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


class _FakeContext:
    def new_dynamic_size(self, *, min=0, max=None):
        raise NotImplementedError("data-dependent output sizes are not supported in "
                                  "mindtorch's fake (meta) kernels")

    create_unbacked_symint = new_dynamic_size


def get_ctx():
    """The context of a fake implementation."""
    return _FakeContext()


from ._custom_op import CustomOpDef, custom_op, opcheck
