"""torch.jit for eager-only mindtorch: script and trace return what they are given (the
module or function computes what it did, as torch.compile here), the decorators mark
nothing, and save/load pickle the object whole."""
__all__ = [
    "Final",
    "ScriptFunction",
    "ScriptModule",
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
    "set_fusion_strategy",
    "trace",
    "trace_module",
    "unused",
    "wait",
]

import builtins
import contextlib
import typing
from typing import Final


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    return func


def trace_module(mod, inputs, *args, **kwargs):
    return mod


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    return mod


def optimize_for_inference(mod, other_methods=None):
    return mod


script_if_tracing = interface = trace  # (decorators: the function or class as it is)


class ScriptModule:
    """What script() returns in PyTorch; nothing here is one (script returns its input)."""


class ScriptFunction:
    """As ScriptModule."""


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
    return Future(func(*args, **kwargs))


def wait(future):
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
    return [("STATIC", 2), ("DYNAMIC", 10)]


_onednn = [False]


def enable_onednn_fusion(enabled):
    _onednn[0] = bool(enabled)


def onednn_fusion_enabled():
    return _onednn[0]


def ignore(drop=False, **kwargs):
    return drop if callable(drop) else (lambda fn: fn)


def unused(fn):
    return fn


def export(fn):
    return fn


def annotate(the_type, the_value):
    return the_value


def is_scripting():
    return False


def is_tracing():
    return False


def save(m, f, _extra_files=None):
    from .serialization import save as _save
    _save(m, f)


def load(f, map_location=None, _extra_files=None):
    """What jit.save wrote (a pickled object); a TorchScript archive written by PyTorch's
    jit.save is refused (NotImplementedError): mindtorch does not run TorchScript."""
    import warnings
    from .serialization import load as _load
    with warnings.catch_warnings():  # (torch.load's dispatch warning is not jit.load's)
        warnings.filterwarnings("ignore", message="'torch.load' received a zip file")
        return _load(f, map_location=map_location, weights_only=False)
