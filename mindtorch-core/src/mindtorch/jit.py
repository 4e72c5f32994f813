"""torch.jit for eager-only mindtorch: script and trace wrap a module or function in
PyTorch's classes (`_jit_modules`) that run it as it is, the decorators mark nothing, and
save/load pickle the object whole.  Each entry point warns as PyTorch's does (TorchScript
is deprecated there)."""
__all__ = [
    "Attribute",
    "Error",
    "Final",
    "RecursiveScriptModule",
    "ScriptFunction",
    "ScriptModule",
    "TopLevelTracedModule",
    "TracedModule",
    "TracerWarning",
    "annotate",
    "enable_onednn_fusion",
    "export",
    "fork",
    "freeze",
    "fuser",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "isinstance",
    "load",
    "onednn_fusion_enabled",
    "optimize_for_inference",
    "optimized_execution",
    "save",
    "script",
    "script_if_tracing",
    "script_method",
    "set_fusion_strategy",
    "strict_fusion",
    "trace",
    "trace_module",
    "unused",
    "wait",
]

import builtins
import collections
import contextlib
import typing
import warnings
from typing import Final

from ._jit_modules import (
    RecursiveScriptModule,
    ScriptFunction,
    ScriptModule,
    TopLevelTracedModule,
    TracedModule,
    script_module,
    traced_module,
)

_TO_COMPILE = "Please switch to `torch.compile` or `torch.export`."


def _deprecated(what, advice="Please use `torch.compile` instead."):
    warnings.warn(f"`torch.jit.{what}` is deprecated. {advice}", DeprecationWarning,
                  stacklevel=3)


class TracerWarning(Warning):
    """PyTorch's warning about traced code that depends on Python values."""


class Error(Exception):
    """torch.jit.Error: what a failing TorchScript assertion raises."""


Attribute = collections.namedtuple("Attribute", ["value", "type"])


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    _deprecated("script", _TO_COMPILE)
    from .nn import Module
    if builtins.isinstance(obj, (ScriptModule, ScriptFunction, type)):
        return obj  # (a class stays the class, as a TorchScript class does)
    if builtins.isinstance(obj, Module):
        return script_module(obj)
    return ScriptFunction(obj) if callable(obj) else obj


def trace(func, example_inputs=None, *args, **kwargs):
    _deprecated("trace", _TO_COMPILE)
    from .nn import Module
    if builtins.isinstance(func, Module):
        return _trace_module(func)
    if builtins.isinstance(func, (ScriptModule, ScriptFunction)):
        return func
    return ScriptFunction(func)


def trace_module(mod, inputs, *args, **kwargs):
    return _trace_module(mod)


def _trace_module(mod):
    _deprecated("trace_method", _TO_COMPILE)
    return traced_module(mod)


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    _deprecated("freeze")
    if not builtins.isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use "  # noqa: TRY004
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    return mod


def optimize_for_inference(mod, other_methods=None):
    _deprecated("optimize_for_inference")
    if not builtins.isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please "  # noqa: TRY004
                           "use torch.jit.script or torch.jit.trace to script your "
                           "'nn.Module'.")
    return freeze(mod.eval(), preserved_attrs=other_methods)


def interface(obj):
    _deprecated("interface")
    return obj


def script_method(fn):
    _deprecated("script_method", _TO_COMPILE)
    return fn


script_if_tracing = _overload = _overload_method = export = unused = (lambda fn: fn)
_script_if_tracing = script_if_tracing  # (torchvision's ops decorate with the private name)


class strict_fusion:
    """A context manager asserting that the code inside fuses: nothing fuses here."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Future:
    """fork's result: the call already ran (eagerly), wait() hands its value over."""

    def __init__(self, value):
        self._value = value

    def wait(self):
        return self._value

    value = wait

    def done(self):
        return True


def fork(func, *args, **kwargs):
    _deprecated("fork")
    return Future(func(*args, **kwargs))


def wait(future):
    _deprecated("wait")
    return future.wait()


def isinstance(obj, target_type):  # torch.jit's name
    """Python's isinstance, refined for the typing containers TorchScript accepts
    (List[int], Dict[str, Tensor], Tuple[int, str], Optional[T])."""
    origin, args = typing.get_origin(target_type), typing.get_args(target_type)
    if origin is None:
        return builtins.isinstance(obj, target_type)
    if origin is typing.Union:
        return any(isinstance(obj, a) for a in args)
    if not builtins.isinstance(obj, origin):
        return False
    if origin is list and args:
        return all(isinstance(v, args[0]) for v in obj)
    if origin is dict and args:
        return all(isinstance(k, args[0]) and isinstance(v, args[1]) for k, v in obj.items())
    if origin is tuple and args:
        return len(obj) == len(args) and all(isinstance(v, a) for v, a in zip(obj, args))
    return True


@contextlib.contextmanager
def optimized_execution(should_optimize):
    yield


@contextlib.contextmanager
def fuser(name):
    yield


def set_fusion_strategy(strategy):
    _deprecated("set_fusion_strategy")
    return [("STATIC", 2), ("DYNAMIC", 10)]


_onednn = [False]


def enable_onednn_fusion(enabled):
    _onednn[0] = bool(enabled)


def onednn_fusion_enabled():
    return _onednn[0]


def ignore(drop=False, **kwargs):
    """The function as it is (nothing is compiled), with PyTorch's checks and warnings of
    the decorator's arguments."""
    if callable(drop):
        return drop
    if not builtins.isinstance(drop, bool):
        raise RuntimeError("Argument to @torch.jit.ignore must be a bool or a function but "  # noqa: TRY004
                           f"got {drop}")
    form = ("drop_on_export=True" if kwargs.pop("drop_on_export", None) else
            "True" if drop else None)
    if form is not None:  # (the "{}" is PyTorch's text)
        warnings.warn(f"ignore({form}) has been deprecated. TorchScript will now drop the "
                      "function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)
    return lambda fn: fn


def annotate(the_type, the_value):
    return the_value


def is_scripting():
    return False


def is_tracing():
    return False


def save(m, f, _extra_files=None):
    """m.save(f) for a path, else m.save_to_buffer() written to f, as PyTorch's: what is
    not a ScriptModule or ScriptFunction has neither (AttributeError)."""
    import os
    warnings.warn("`torch.jit.save` is deprecated. Please switch to `torch.export`.",
                  DeprecationWarning, stacklevel=2)
    if builtins.isinstance(f, (str, os.PathLike)):
        m.save(f, _extra_files=_extra_files)
    else:
        f.write(m.save_to_buffer(_extra_files=_extra_files))


def load(f, map_location=None, _extra_files=None):
    """What jit.save wrote; `_extra_files` (a dict of names) gets the saved contents.  A
    TorchScript archive written by PyTorch's jit.save is refused (NotImplementedError):
    mindtorch does not run TorchScript."""
    from .serialization import load as _load
    warnings.warn("`torch.jit.load` is deprecated. Please switch to `torch.export`.",
                  DeprecationWarning, stacklevel=2)
    with warnings.catch_warnings():  # (torch.load's dispatch warning is not jit.load's)
        warnings.filterwarnings("ignore", message="'torch.load' received a zip file")
        obj = _load(f, map_location=map_location, weights_only=False)
    if not (builtins.isinstance(obj, dict) and "mindtorch.jit" in obj):
        return obj  # (written by an earlier mindtorch: the object alone)
    saved = obj["extra_files"]
    for name in _extra_files or ():
        _extra_files[name] = saved.get(name, b"")
    return obj["mindtorch.jit"]
