"""torch.overrides: the ``__torch_function__`` protocol.

An argument whose type defines ``__torch_function__`` (a Tensor subclass, or any object),
or an active TorchFunctionMode, takes over a call of a mindtorch function or Tensor
method: the function, the overriding types and the call's arguments go to the handler.

The op bindings pay nothing for it in the common case (see _ops/registry.py): their
tensor test stays ``type(x) is Tensor`` and ends with ``type(x) in PLAIN`` (Tensor
subclasses whose ``__torch_function__`` is disabled, such as nn.Parameter); any other
argument goes to the converters below, which raise Override for an overriding argument,
and the binding hands its arguments to dispatch_binding.  Active modes are one flag,
``state.mode``, tested first.  Tensor subclasses' own semantics are _tensor_subclass.py.
"""
import functools
import sys
import warnings

from ._tensor import Tensor
from ._warn_once import _user_level

__all__ = ["get_ignored_functions", "get_overridable_functions", "get_testing_overrides",
           "handle_torch_function", "has_torch_function", "resolve_name", "is_tensor_like",
           "is_tensor_method_or_property", "wrap_torch_function", "TorchFunctionMode",
           "BaseTorchFunctionMode", "has_torch_function_unary", "has_torch_function_variadic",
           "get_default_nowrap_functions"]


class _State:
    """mode: a mode is on the stack and torch function is not disabled (the bindings' flag);
    subclass_off: arguments' __torch_function__ disabled (DisableTorchFunctionSubclass,
    inside Tensor.__torch_function__); all_off: modes disabled too (DisableTorchFunction)."""
    __slots__ = ("mode", "subclass_off", "all_off")

    def __init__(self):
        self.mode = self.subclass_off = self.all_off = False


state = _State()
_STACK = []     # TorchFunctionMode stack, innermost last
PLAIN = set()   # Tensor subclasses taking the bindings' fast path (disabled protocol)


def _refresh():
    state.mode = bool(_STACK) and not state.all_off


class _DisabledImpl:
    """A class's __torch_function__ set to this opts out of the protocol (nn.Parameter):
    its instances behave as plain tensors.  (Not a function, so that it is not bound when
    read from an instance, as PyTorch's builtin.)"""
    __slots__ = ()

    def __call__(self, func, types, args=(), kwargs=None):
        prev, state.subclass_off = state.subclass_off, True
        try:
            return func(*args, **(kwargs or {}))
        finally:
            state.subclass_off = prev

    def __repr__(self):
        return "<built-in function _disabled_torch_function_impl>"


_disabled_torch_function_impl = _DisabledImpl()


def _type_overrides(cls):
    """Whether cls defines a __torch_function__ that is not the disabled one."""
    tf = getattr(cls, "__torch_function__", None)
    return tf is not None and getattr(tf, "__func__", tf) is not _disabled_torch_function_impl


def _overrides(obj):
    return _type_overrides(type(obj))


class Override(Exception):
    """Raised by a binding's argument converter for an overriding argument."""


# -- hooks of the generated bindings (slow path only) ---------------------------------

def _tensor_arg(convert):
    def check(op, pos, x):
        if not state.subclass_off and _overrides(x):
            raise Override
        if isinstance(x, Tensor):
            if not _overrides(x):
                PLAIN.add(type(x))  # (e.g. nn.Parameter: the fast path from now on)
            return x
        return convert(op, pos, x)
    return check


def _tensor_list_arg(convert):
    def check(op, pos, x):
        if type(x) is list or type(x) is tuple:
            for t in x:
                if type(t) is not Tensor and type(t) not in PLAIN:
                    break
            else:
                return tuple(x)
            for t in x:
                if type(t) is Tensor or type(t) in PLAIN:
                    continue
                if _overrides(t):
                    if not state.subclass_off:
                        raise Override
                elif isinstance(t, Tensor):
                    PLAIN.add(type(t))
        return convert(op, pos, x)
    return check


def _out_arg(out):
    """An out= argument that is no plain tensor (the binding checks it later as its own)."""
    if _overrides(out):
        if not state.subclass_off:
            raise Override
    elif isinstance(out, Tensor):
        PLAIN.add(type(out))  # (e.g. nn.Parameter: the fast path from now on)


def binding_converters():
    from ._ops import _argcheck as h
    return {"tensor": _tensor_arg(h.tensor), "tensor_or_scalar": _tensor_arg(h.tensor_or_scalar),
            "tensor_list": _tensor_list_arg(h.tensor_list),
            "optional_tensor_list": _tensor_list_arg(h.optional_tensor_list),
            "out": _out_arg}


_PUBLIC_CODES = {}  # id(code) -> the public function (overload()) whose frame runs it


def register_public(fn, *wrappers):
    """fn (and the wrappers inside it) call other ops' bindings: a binding dispatching
    from under fn names fn as the function called (mindtorch.max, not _max_dim)."""
    for f in {fn, *wrappers}:
        f.__code__ = f.__code__.replace()  # (its own code object: closures share theirs)
        _PUBLIC_CODES[id(f.__code__)] = fn


def _public_caller(func):
    """(the public function called, the user's frame that called it: the first above the
    binding outside the op machinery (_ops/, generated code), else None)."""
    # (the binding's caller: above it and dispatch_binding)
    func, frame = _outermost_public(sys._getframe(2).f_back, func)
    ops_dir = _OPS_DIR or _ops_dir()
    while frame is not None and frame.f_code.co_filename.startswith(ops_dir):
        frame = frame.f_back
    return func, frame


def _outermost_public(frame, func, op=None):
    """(the outermost public function whose registered code runs in frame and the frames
    above it (op's only, if given), else func; the frame above those).  (An overload() may
    wrap an earlier one.)"""
    while frame is not None and id(frame.f_code) in _PUBLIC_CODES:
        public = _PUBLIC_CODES[id(frame.f_code)]
        if op is not None and getattr(public, "_op", None) is not op:
            break
        func, frame = public, frame.f_back
    return func, frame


_OPS_DIR = None


def _ops_dir():
    """What the op machinery's code is compiled from: _ops/'s files and the generated code
    (bindings, autograd runners), as a prefix tuple for str.startswith."""
    global _OPS_DIR
    import os
    from ._ops import registry
    _OPS_DIR = (os.path.dirname(registry.__file__), "<binding ", "<call ", "<autograd ",
                "<backward ")
    return _OPS_DIR


def _keyword_names(frame):
    """The names the frame's current call passes by keyword, read from its bytecode (a
    binding's parameters cannot tell), or None where unknown (f(*a, **k))."""
    if frame is None:
        return None
    key = (frame.f_code, frame.f_lasti)
    names = _CALL_SITES.get(key, _UNSEEN)
    if names is _UNSEEN:
        if len(_CALL_SITES) > 4096:
            _CALL_SITES.clear()
        names = _CALL_SITES[key] = _call_keywords(*key)
    return names


_UNSEEN = object()
_CALL_SITES = {}  # (code, instruction offset) -> that call's keyword names


def _call_keywords(code, lasti):
    """The keyword names of the call instruction at lasti, across the bytecodes of Python
    3.10 (CALL_FUNCTION_KW after the names' LOAD_CONST), 3.11-3.12 (KW_NAMES, then
    [PRECALL,] CALL) and 3.13+ (the names' LOAD_CONST, then CALL_KW)."""
    import dis
    previous = ins = None  # (lasti may point into the call's inline cache entries)
    for following in dis.get_instructions(code):
        if following.offset > lasti:
            break
        if ins is not None and ins.opname not in ("PRECALL", "EXTENDED_ARG"):
            previous = ins
        ins = following
    if ins is None:
        return None
    if ins.opname in ("CALL_KW", "CALL_FUNCTION_KW"):
        ok = previous is not None and previous.opname == "LOAD_CONST"
        return previous.argval if ok else None
    if ins.opname == "CALL":  # (3.11-3.12: KW_NAMES before it gives the names)
        kw = previous is not None and previous.opname == "KW_NAMES"
        return code.co_consts[previous.arg] if kw else ()  # (dis leaves its argval unknown)
    if ins.opname.startswith(("CALL_FUNCTION", "CALL_METHOD")) and ins.opname != \
            "CALL_FUNCTION_EX":
        return ()
    return None


_EXTRA_KEYWORDS = (("out", None), ("layout", None), ("pin_memory", False), ("axis", None),
                   ("keepdims", None))
_TENSOR_TYPES = ("Tensor", "Tensor|Scalar", "Tensor[]", "Tensor?[]")


def _binding_spec(op):
    """(the registry's missing-argument marker, [(name, keyword-only, default, tensor-typed,
    varargs) per schema argument]), made on the op's first dispatch."""
    from ._ops.registry import _NO, _pyname
    varargs = op.options.get("varargs")
    op._tf_spec = _NO, [(_pyname(a.name), a.kwarg_only and a.name != varargs, a.default,
                         a.type in _TENSOR_TYPES, a.name == varargs) for a in op.schema.args]
    return op._tf_spec


def dispatch_binding(op, loc):
    """A binding's call (its locals) handed to the modes and overriding arguments, with the
    arguments as the caller gave them where the binding can tell (defaults left out)."""
    _NO, spec = op.__dict__.get("_tf_spec") or _binding_spec(op)
    func, caller = _public_caller(_called_binding(op))
    given = _keyword_names(caller) or ()
    args, kwargs, overloaded = [], {}, []
    for name, kwonly, default, is_tensor, is_varargs in spec:
        v = loc[name]
        if v is _NO and name == "self":
            v = loc.get("input", _NO)
        if is_varargs and loc.get("_va"):
            args.extend((x, _NO) for x in loc["_va"])
            continue
        if v is _NO:
            continue
        keyword = "input" if name == "self" and "input" in given else name
        if keyword in given or kwonly and v is not default:
            kwargs[keyword] = v
        elif not kwonly:
            args.append((v, default))
        if is_tensor and not state.subclass_off:
            for x in (v if type(v) in (list, tuple) else (v,)):
                if type(x) is not Tensor and type(x) not in PLAIN and _overrides(x):
                    _add_overloaded(overloaded, x)
    while args and args[-1][0] is args[-1][1]:
        args.pop()
    for name, default in _EXTRA_KEYWORDS:
        if loc.get(name, default) is not default:
            kwargs[name] = loc[name]
    out = loc.get("out")
    if out is not None and not state.subclass_off and type(out) is not Tensor and \
            type(out) not in PLAIN and _overrides(out):
        _add_overloaded(overloaded, out)
    try:
        return _handle(func, overloaded, tuple(v for v, _ in args), kwargs or None, True)
    except Exception as e:  # (raised while the binding handled Override: not its context)
        while e is not None and not isinstance(e.__context__, Override):
            e = e.__context__
        if e is not None:
            e.__context__ = None
        raise


def _called_binding(op):
    """The binding that is dispatching: Tensor.<name> when the call went through the op's
    method (its own function object, see OpDef.method_binding: the binding's frame runs its
    code, or, for an overload() wrapper, a frame above it in the op machinery does), so
    that handlers see the method as PyTorch's do; else the function."""
    method = op._method
    if method is None:
        return op.binding
    frame = sys._getframe(2)
    if frame.f_code is method.__code__:
        return method
    if op._public is not None:
        ops_dir = _OPS_DIR or _ops_dir()
        frame = frame.f_back
        while frame is not None:
            public = _PUBLIC_CODES.get(id(frame.f_code))
            if public is method:
                return method
            if public is op._binding or public is None and \
                    not frame.f_code.co_filename.startswith(ops_dir):
                break
            frame = frame.f_back
    return op.binding


# -- dispatch -----------------------------------------------------------------------

def _add_overloaded(overloaded, arg, get_type=type):
    """One argument per type; a subclass goes before its base, else in argument order."""
    cls = get_type(arg)
    if not overloaded:
        overloaded.append(arg)
        return
    if any(get_type(a) is cls for a in overloaded):
        return
    for i, a in enumerate(overloaded):
        if issubclass(cls, get_type(a)):
            overloaded.insert(i, arg)
            return
    overloaded.append(arg)


def _get_overloaded_args(relevant_args, get_type_fn=None):
    """The arguments whose types take part (plain Tensor too, as in PyTorch's Python-level
    dispatch), in the order their handlers are tried."""
    get_type = get_type_fn or type
    overloaded = []
    for arg in relevant_args:
        if _type_overrides(get_type(arg)):
            _add_overloaded(overloaded, arg, get_type)
    return overloaded


def _handle(func, overloaded, args, kwargs, from_binding=False):
    types = tuple(map(type, overloaded))
    if state.mode:
        mode = _STACK.pop()
        _refresh()
        try:
            result = mode.__torch_function__(func, types, args, kwargs)
        finally:
            _STACK.append(mode)
            _tensor_subclass.route_tensor_methods(True)  # (a mode the handler left undid it)
            _refresh()
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        method = arg.__torch_function__
        if getattr(method, "__self__", None) is arg:
            # (PyTorch's texts: its Python path's lacks a closing backtick)
            warnings.warn(f"Defining your `__torch_function_{'_`' if from_binding else '_'} as "
                          "a plain method is deprecated and will be an error in future, please "
                          "define it as a classmethod.",
                          UserWarning if from_binding else DeprecationWarning,
                          stacklevel=_user_level() if from_binding else 3)
        result = method(func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    if from_binding:
        name = resolve_name(func) or repr(func)
        kinds = [f"  - tensor subclass {t}" for t in types]
        if _STACK and not state.all_off:
            kinds.insert(0, f"  - mode object {_STACK[-1]!r}")
        raise TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ "
                        "handlers returned NotImplemented:\n\n" + "\n".join(kinds) +
                        "\n\nFor more information, try re-running with "
                        "TORCH_LOGS=not_implemented")
    msg = (f"no implementation found for '{_python_level_name(func)}' on types that "
           f"implement __torch_function__: {list(types)}")
    if state.mode:
        msg += f" nor in mode {_STACK[-1]!r}"
    raise TypeError(msg)


def _python_level_name(func):
    """How PyTorch's handle_torch_function names func: module.name (its Tensor methods
    written in Python are torch._tensor's)."""
    name = getattr(func, "__name__", repr(func))
    if "." not in (_tensor_attribute(func) or "."):
        return "torch._tensor." + name
    module = str(getattr(func, "__module__", None))
    return ("torch" + module[9:] if module.startswith("mindtorch") else module) + "." + name


def public_level(op, make):
    """overload()'s make, for a public function whose binding takes other arguments than it
    (conv's padding='same', tensordot's dims, return_indices, ...) or whose result it
    reshapes (unique): the modes and overriding arguments get the public function's own
    call, so a handler's result is what the function returns.  (A binding dispatching from
    under it would hand a handler the binding's arguments and its public-level result back
    to the wrapper.)  The check costs these functions a scan of their arguments."""
    from ._ops.registry import _named

    def make_public(binding):
        inner = _named(make(binding), op)

        def public(*args, **kwargs):
            if state.mode or has_torch_function(_relevant(args, kwargs)):
                # (the function or the method, whichever registered this code)
                func = _outermost_public(sys._getframe(), op.binding, op)[0]
                return handle_public(func, args, kwargs)
            return inner(*args, **kwargs)
        return public
    return make_public


def dispatching(fn):
    """fn, a public function taking a tensor first that is written in Python here (C++ in
    PyTorch: torch.detach, is_complex, numel, ...), handing its own calls to the modes and
    overriding arguments, so that handlers see it (not the method it calls) with its
    arguments.  Plain tensors pay one type test."""
    @functools.wraps(fn)
    def public(*args, **kwargs):
        if len(args) == 1 and type(args[0]) is Tensor and not kwargs and not state.mode:
            return fn(*args)
        if state.mode or has_torch_function(_relevant(args, kwargs)):
            return handle_public(public, args, kwargs)
        return fn(*args, **kwargs)
    return public


def handle_public(func, args, kwargs):
    """func(*args, **kwargs), a public function's call that has_torch_function found
    overridable, handed to the modes and overriding arguments (also inside lists)."""
    return _handle(func, _get_overloaded_args(_relevant(args, kwargs or {})), args,
                   kwargs or None, True)


def _relevant(args, kwargs):
    """A call's arguments, with those of its lists and tuples (tensors in a list)."""
    out = []
    for v in (*args, *kwargs.values()):
        if type(v) in (list, tuple):
            out.extend(v)
        else:
            out.append(v)
    return out


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call the modes' and relevant_args' __torch_function__ for public_api(*args, **kwargs)
    (a Python function that found has_torch_function(relevant_args) true)."""
    return _handle(public_api, _get_overloaded_args(relevant_args), args, kwargs)


def _check(obj):
    if state.mode:
        return True
    cls = type(obj)
    return cls is not Tensor and not state.subclass_off and cls not in PLAIN and \
        cls not in _BASIC and _overrides(obj)


_BASIC = {int, float, bool, complex, str, bytes, type(None), tuple, list, dict, slice,
          type(Ellipsis)}


def has_torch_function(relevant_args):
    return any(map(_check, relevant_args))


def has_torch_function_unary(obj):
    return _check(obj)


def has_torch_function_variadic(*args):
    return any(map(_check, args))


def is_tensor_like(inp):
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func):
    return getattr(Tensor, getattr(func, "__name__", ""), None) is func or \
        getattr(func, "__name__", None) == "__get__"


def resolve_name(f):
    """The public name of a function, as torch.<...> (None when it has none)."""
    attribute = _tensor_attribute(f)
    if attribute is not None:
        return "torch.Tensor." + attribute
    module, name = getattr(f, "__module__", None), getattr(f, "__qualname__", None)
    if not module or not name:
        return None
    short = getattr(f, "__name__", name)
    if module.startswith("mindtorch") and getattr(__import__("mindtorch"), short, None) is f:
        return "torch." + short  # (defined in a private module: torch.result_type)
    return "torch" + module[len("mindtorch"):] + "." + name if \
        module.startswith("mindtorch") else f"{module}.{name}"


_ACCESSORS = ("__get__", "__set__", "__delete__")


def _tensor_attribute(f):
    """What f is of Tensor's: "add" (a method; Tensor.__getitem__ whatever its name),
    "shape.__get__" (a property's accessor), else None."""
    short = getattr(f, "__name__", None)
    if short in _ACCESSORS:
        owner = getattr(f, "__self__", None)
        return next((f"{n}.{short}" for n, v in vars(Tensor).items()
                     if getattr(v, "orig", v) is owner), None)
    if short is None or f is getattr(__import__("mindtorch"), short, None):
        return None
    if getattr(Tensor, short, None) is f:
        return short
    if str(getattr(f, "__module__", "")).startswith("mindtorch"):
        return next((n for n, v in vars(Tensor).items() if v is f), None)
    return None


def wrap_torch_function(dispatcher):
    """Decorator: the function honours __torch_function__ on the arguments dispatcher(*args,
    **kwargs) returns."""
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


# -- disabling and modes -------------------------------------------------------------

class DisableTorchFunctionSubclass:
    """Within it, arguments' __torch_function__ is ignored (modes still apply)."""

    def __enter__(self):
        self._prev = state.subclass_off
        state.subclass_off = True

    def __exit__(self, *exc):
        state.subclass_off = self._prev


class DisableTorchFunction:
    """Within it, neither arguments' __torch_function__ nor modes apply."""

    def __enter__(self):
        self._prev = state.subclass_off, state.all_off
        state.subclass_off = state.all_off = True
        _refresh()

    def __exit__(self, *exc):
        state.subclass_off, state.all_off = self._prev
        _refresh()


def _is_torch_function_enabled():
    return not state.subclass_off


def _is_torch_function_all_disabled():
    return state.all_off


def _is_torch_function_mode_enabled():
    return state.mode


def _push_mode(mode):
    _STACK.append(mode)
    if len(_STACK) == 1:  # plain tensors' Python-level methods go to modes from now on
        _tensor_subclass.route_tensor_methods(True)
    _refresh()


def _pop_mode():
    if not _STACK:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = _STACK.pop()
    if not _STACK:
        _tensor_subclass.route_tensor_methods(False)
    _refresh()
    return mode


def _len_torch_function_stack():
    return len(_STACK)


def _get_function_stack_at(i):
    return _STACK[i]


def _get_current_function_mode():
    return _STACK[-1] if _STACK else None


def _get_current_function_mode_stack():
    return list(_STACK)


class _pop_mode_temporarily:
    def __enter__(self):
        self.mode = _pop_mode()
        return self.mode

    def __exit__(self, *exc):
        _push_mode(self.mode)


_push_on_torch_function_stack, _pop_torch_function_stack = _push_mode, _pop_mode


class TorchFunctionMode:
    """Within ``with Mode():``, every mindtorch function and Tensor method call goes to
    ``Mode.__torch_function__(func, types, args, kwargs)`` (with the mode popped while it
    runs, so calling func there runs the function)."""

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just "
                      "`with Mode()`")
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class enable_reentrant_dispatch:
    """Accepted for compatibility: mindtorch has no dispatcher below Python to re-enter."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


# -- function tables ------------------------------------------------------------------

def get_default_nowrap_functions():
    """Functions whose results Tensor.__torch_function__ hands back without conversion."""
    return {Tensor._base.__get__, Tensor.grad.__get__, Tensor._grad.__get__}


def get_ignored_functions():
    """Public functions that do not take part in the protocol (no tensor arguments)."""
    import mindtorch as m
    names = ("is_tensor", "is_storage", "get_default_dtype",
             "set_default_tensor_type", "manual_seed", "seed", "initial_seed",
             "set_printoptions", "set_grad_enabled", "is_grad_enabled", "no_grad",
             "enable_grad", "inference_mode", "is_inference_mode_enabled", "promote_types",
             "result_type", "can_cast", "iinfo", "finfo", "compile", "set_rng_state",
             "get_rng_state", "use_deterministic_algorithms", "get_num_threads",
             "set_num_threads")
    return {getattr(m, n) for n in names if hasattr(m, n)} | {
        Tensor.__new__, Tensor._make_subclass, Tensor.__init_subclass__, Tensor.as_subclass}


def _public_functions():
    import mindtorch as m
    from . import fft, linalg, special
    from .nn import functional
    from ._ops import OPS
    tables = {}
    ignored = get_ignored_functions()
    for mod in (m, functional, linalg, fft, special):
        names = [n for n in getattr(mod, "__all__", ()) or dir(mod) if not n.startswith("_")]
        if mod is m:
            names += [n for n, op in OPS.items() if op.options.get("function", True)
                      and "::" not in n and not n.startswith("_")]
        fns = tables.setdefault(mod, [])
        for n in sorted(set(names)):
            f = getattr(mod, n, None)
            if callable(f) and not isinstance(f, type) and f not in ignored and f not in fns:
                fns.append(f)
    tables[Tensor] = [getattr(Tensor, n) for n in dir(Tensor) if _overridable_method(n)]
    return tables


# Tensor's dunders that are no part of the protocol (PyTorch's list has the operators,
# __getitem__, __len__, __repr__, ...)
_PLAIN_DUNDERS = {"__new__", "__init__", "__init_subclass__", "__hash__", "__iter__",
                  "__torch_function__", "__getstate__", "__dir__", "__class_getitem__",
                  "__subclasshook__"}


def _overridable_method(name):
    f = getattr(Tensor, name, None)
    if not callable(f) or isinstance(f, type):
        return False
    if name.startswith("__") and name.endswith("__"):
        return name not in _PLAIN_DUNDERS and f is not getattr(object, name, None)
    return not name.startswith("_")


def get_overridable_functions():
    """{namespace: [functions]} that honour __torch_function__ (generates their bindings)."""
    return _public_functions()


def get_testing_overrides():
    """{function: a dummy override returning -1}, one per overridable function."""
    def dummy(*args, **kwargs):
        return -1
    return {f: dummy for fns in _public_functions().values() for f in fns}


def _has_torch_function(args):
    return has_torch_function(args)


_has_torch_function_unary, _has_torch_function_variadic = \
    has_torch_function_unary, has_torch_function_variadic

from . import _C, _tensor_subclass  # noqa: F401 - Tensor.__torch_function__, ...; torch._C
