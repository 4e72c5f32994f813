"""Tensor subclasses, as PyTorch's: Tensor.__torch_function__ (ops on a subclass's instances
give instances of it), as_subclass, _make_subclass, construction, pickling and deepcopy.

The op bindings reach the protocol by themselves (overrides.py); a subclass's Python-level
Tensor methods and tensor-valued properties are routed through it by wrappers that
__init_subclass__ puts on the subclass, so that plain tensors pay nothing for them.
"""
import os
import sys
import types

from ._tensor import OPERATORS, Tensor
from ._tensor_copy import set_state
from .overrides import (
    _handle, _refresh, _type_overrides, handle_torch_function,
    has_torch_function_unary, state,
)

# a subclass's instances route every property of Tensor's (getters, setters and deleters)
# and its dtype slot, as PyTorch's; while a mode is active, plain tensors route these
# (PyTorch's modes see every property read; not here, where the op machinery's own Python
# reads shapes and dtypes that PyTorch's C++ reads unseen)
_MODE_ROUTED_PROPERTIES = ("data", "grad", "T", "mT", "H", "mH", "real", "imag")
_PRIVATE_PROPERTIES = ("_version", "_backward_hooks")
# not routed: the operators call op bindings (which dispatch themselves), as_subclass and
# construction are how handlers build their results, __iter__ goes through unbind
# (the reflected ones hand themselves over: a wrapper on the subclass would also change
# which operand's method Python tries first)
_NOT_ROUTED = {"__hash__", "__reduce_ex__", "__deepcopy__", "__init_subclass__", "__new__",
               "__iter__", "as_subclass", "__torch_function__", "__getstate__", *OPERATORS,
               "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rdiv__", "__rfloordiv__",
               "__rmod__", "__rpow__", "__rmatmul__", "__rand__", "__ror__", "__rxor__",
               "__rlshift__", "__rrshift__"}


_ALIAS = []  # the alias op's binding, once the ops exist


def _alias(t):
    if not _ALIAS:
        from ._ops import OPS
        _ALIAS.append(OPS["alias"].binding)
    prev = state.subclass_off, state.all_off
    state.subclass_off = state.all_off = True  # (modes do not see the alias either)
    state.mode = False
    try:
        return _ALIAS[0](t)
    finally:
        state.subclass_off, state.all_off = prev
        _refresh()


def _retype(t, cls):
    """t (a fresh tensor no one else holds) as an instance of cls."""
    try:
        t.__class__ = cls
        return t
    except TypeError:  # (cls adds __slots__: a new object with t's fields)
        new = object.__new__(cls)
        for name in Tensor.__slots__:
            if name not in ("__weakref__", "__dict__"):
                setattr(new, name, getattr(t, name))
        new.__dict__.update(t.__dict__)
        return new


def as_subclass(self, cls):
    """An alias of this tensor (same data, autograd history through AliasBackward0) that
    is an instance of cls."""
    if not isinstance(cls, type):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not issubclass(cls, Tensor):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")
    return _retype(_alias(self), cls)


def _make_subclass(cls, data, require_grad=False, **_layout_options):
    """An instance of cls sharing data's storage and version counter, a leaf (the usual
    body of a subclass's __new__)."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit "
                           "from Tensor is not possible. Make sure your class inherits from "
                           "Tensor.")
    if not isinstance(data, Tensor):
        raise TypeError(f"_make_subclass(): argument 'data' (position 2) must be Tensor, "
                        f"not {type(data).__name__}")
    t = cls._make(data._storage, data._shape, data._stride, data._offset, data.dtype, None,
                  data._version_counter)
    return t.requires_grad_(require_grad) if require_grad else t


def new(cls, args, device):
    """cls(...) for a Tensor subclass without a __new__ of its own: Tensor's legacy
    constructor, as an instance of cls (an alias for a tensor argument, as PyTorch's)."""
    if len(args) == 1 and isinstance(args[0], Tensor):
        return as_subclass(args[0], cls)
    return _retype(Tensor.__new__(Tensor, *args, device=device), cls)


def _convert(ret, cls):
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor):
        return ret if isinstance(ret, cls) else as_subclass(ret, cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        return type(ret)(*items) if hasattr(ret, "_fields") else type(ret)(items)
    return ret


_NOWRAP = {Tensor._base.__get__, Tensor.grad.__get__, Tensor._grad.__get__}


def __torch_function__(cls, func, types, args=(), kwargs=None):
    """The default: run func with the protocol disabled for arguments, and give tensor
    results (also inside tuples and lists) the class cls."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    prev, state.subclass_off = state.subclass_off, True
    try:
        ret = func(*args, **kwargs)
    finally:
        state.subclass_off = prev
    return ret if func in _NOWRAP else _convert(ret, cls)


# -- routing a subclass's Python-level methods -----------------------------------------

# (as PyTorch's C++ methods: a plain tensor is no overriding argument, no kwargs are None)

# the Tensor methods PyTorch writes in Python (its others are C++: their errors and
# warnings when every handler declines are the bindings')
_PYTHON_IN_PYTORCH = frozenset((
    "__array__", "__array_wrap__", "__contains__", "__deepcopy__", "__dir__", "__dlpack__",
    "__dlpack_device__", "__format__", "__len__", "__reduce_ex__", "__repr__", "__reversed__",
    "__setstate__", "backward", "dim_order", "is_shared", "istft", "lu", "module_load",
    "norm", "register_hook", "register_post_accumulate_grad_hook", "resize", "resize_as",
    "share_memory_", "split", "stft", "storage", "storage_type", "to_sparse_coo",
    "unflatten", "unique", "unique_consecutive"))


def _routed_method(orig):
    in_cpp = orig.__name__ not in _PYTHON_IN_PYTORCH

    def method(self, *args, **kwargs):
        if state.subclass_off and not state.mode:
            return orig(self, *args, **kwargs)
        return _handle(orig, [self] if not state.subclass_off else [], (self, *args),
                       kwargs or None, in_cpp)
    method.__name__, method.__qualname__, method.__doc__ = \
        orig.__name__, orig.__qualname__, orig.__doc__
    method.__wrapped__ = orig
    return method


def _routed_accessor(accessor, user_only=True):
    """A property's __get__, __set__ or __delete__ through the protocol: handlers see it
    (e.g. Tensor.shape.__get__) with (self,) or (self, value), as PyTorch's.  user_only:
    not when mindtorch's own modules read metadata (x.dtype, x.ndim in a function's
    argument checks before its op dispatches: C++ in PyTorch, which handlers never see);
    the tensor-valued properties (x.data, x.T) route whoever reads them."""
    def routed(self, *value):
        if state.subclass_off and not state.mode or \
                user_only and sys._getframe(1).f_code.co_filename.startswith(_PACKAGE):
            return accessor(self, *value)
        return _handle(accessor, [self] if not state.subclass_off else [], (self, *value),
                       None, True)  # (C++ in PyTorch: its errors and warnings)
    return routed


_PACKAGE = os.path.dirname(__file__) + os.sep


def _routed_property(prop, name):
    if not isinstance(prop, property):  # (the dtype slot: construction writes it)
        return property(_routed_accessor(prop.__get__), prop.__set__, None, prop.__doc__)
    return property(_routed_accessor(prop.__get__, name not in _MODE_ROUTED_PROPERTIES),
                    prop.fset and _routed_accessor(prop.__set__),
                    prop.fdel and _routed_accessor(prop.__delete__), prop.__doc__)


def _defined_by_tensor(cls, name):
    return next((c for c in cls.__mro__ if name in c.__dict__), None) is Tensor


def _routable(subclass=True):
    """{name: Tensor's own function or property} of what the protocol routes (for a
    subclass, else for plain tensors under a mode)."""
    found = {}
    for name, value in Tensor.__dict__.items():
        value = getattr(value, "orig", value)  # (under a mode: see _ModeRouted)
        public = not name.startswith("_") or name.endswith("__")
        method = isinstance(value, types.FunctionType) and not hasattr(value, "_op") and \
            name not in _NOT_ROUTED and public
        if method or subclass and isinstance(value, property) and \
                (public or name in _PRIVATE_PROPERTIES):
            found[name] = value
    if subclass:
        found["dtype"] = Tensor.__dict__["dtype"]
    else:
        found.update((n, getattr(Tensor.__dict__[n], "orig", Tensor.__dict__[n]))
                     for n in _MODE_ROUTED_PROPERTIES)
    return found


def __init_subclass__(cls, **kwargs):
    super(Tensor, cls).__init_subclass__(**kwargs)
    for name in ("__deepcopy__", "__reduce_ex__"):
        if _defined_by_tensor(cls, name):
            setattr(cls, name, _SUBCLASS[name])
    if not _type_overrides(cls):
        return
    for name, value in _routable().items():
        if _defined_by_tensor(cls, name):
            setattr(cls, name, _routed_method(value) if isinstance(value, types.FunctionType)
                    else _routed_property(value, name))


def replace_tensor_method(name, fn):
    """Tensor.<name> = fn after subclasses may have been made (the sparse methods, loaded on
    first use): the wrappers that route the old one on subclasses and under a mode now
    route fn."""
    old = Tensor.__dict__.get(name)
    old_fn = getattr(old, "orig", old)
    setattr(Tensor, name, fn if old is old_fn else type(old)(fn))
    stack = Tensor.__subclasses__()
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if getattr(cls.__dict__.get(name), "__wrapped__", None) is old_fn:
            setattr(cls, name, _routed_method(fn))


# -- routing plain tensors' Python-level methods while a mode is active ----------------

class _ModeRouted:
    """Tensor.<name> while a TorchFunctionMode is active: read from the class it is still
    the original (handlers compare func with torch.Tensor.<name>); read from a tensor it
    goes to the mode.  Put in place by the first mode entered, removed by the last."""
    __slots__ = ("orig",)

    def __init__(self, orig):
        self.orig = orig

    def __get__(self, obj, cls=None):
        return self.orig if obj is None else types.MethodType(self._call, obj)

    def _call(self, obj, *args, **kwargs):  # (bound to obj by __get__)
        if not state.mode:
            return self.orig(obj, *args, **kwargs)
        return _handle(self.orig, [], (obj, *args), kwargs or None)


class _ModeRoutedProperty(_ModeRouted):
    __slots__ = ()

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.orig
        getter = self.orig.__get__
        return _handle(getter, [], (obj,), None) if state.mode else getter(obj)

    def __set__(self, obj, value):
        self.orig.__set__(obj, value)

    def __delete__(self, obj):
        self.orig.__delete__(obj)


_ROUTED = [False]


def route_tensor_methods(on):
    if _ROUTED[0] == on:
        return
    _ROUTED[0] = on
    for name, value in _routable(subclass=False).items():
        routed = _ModeRoutedProperty if isinstance(value, property) else _ModeRouted
        setattr(Tensor, name, routed(value) if on else value)


# -- deepcopy and pickling ------------------------------------------------------------

_plain_deepcopy = Tensor.__deepcopy__
_plain_reduce_ex = Tensor.__reduce_ex__


def _set_user_state(t, st):
    """t's Python attributes from __getstate__'s state: its class's __setstate__ if it
    has one, as PyTorch's."""
    if getattr(type(t), "__setstate__", None) is not None:
        t.__setstate__(st)
        return t
    return set_state(t, st)


def _deepcopy(self, memo):
    if has_torch_function_unary(self):
        return handle_torch_function(_deepcopy, (self,), self, memo)
    if type(self.new_empty(())) is not type(self):
        raise RuntimeError(
            "The default implementation of __deepcopy__() for non-wrapper subclasses only "
            "works for subclass types that implement new_empty() and for which that "
            "function returns another instance of the same subclass. You should either "
            "properly implement new_empty() for your subclass or override __deepcopy__() "
            "if it is intended behavior for new_empty() to return an instance of a "
            "different type.")
    import copy
    new = _plain_deepcopy(self, memo)
    if type(new) is not type(self):
        new = _retype(new, type(self))
    memo[id(self)] = new
    return _set_user_state(new, copy.deepcopy(self.__getstate__(), memo))


def _reduce_ex(self, protocol):
    if has_torch_function_unary(self):
        return handle_torch_function(_reduce_ex, (self,), self, protocol)
    fn, args = _plain_reduce_ex(self, protocol)[:2]  # (its state is __getstate__'s below)
    return _rebuild_from_type_v2, (fn, type(self), args, self.__getstate__())


def _rebuild_from_type_v2(func, new_type, args, st):
    ret = func(*args)
    if type(ret) is not new_type:
        ret = as_subclass(ret, new_type)
    return _set_user_state(ret, st)


_SUBCLASS = {"__deepcopy__": _deepcopy, "__reduce_ex__": _reduce_ex}

__torch_function__.__qualname__ = "Tensor.__torch_function__"
Tensor.__torch_function__ = classmethod(__torch_function__)
Tensor.__init_subclass__ = classmethod(__init_subclass__)
Tensor.as_subclass = as_subclass
Tensor._make_subclass = staticmethod(_make_subclass)
