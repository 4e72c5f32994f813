"""torch.jit for eager-only mindtorch: script and trace return what they are given (the
module or function computes what it did, as torch.compile here), the decorators mark
nothing, and save/load pickle the object whole."""
__all__ = [
    "Final",
    "annotate",
    "export",
    "ignore",
    "is_scripting",
    "is_tracing",
    "load",
    "save",
    "script",
    "trace",
    "unused",
]

from typing import Final


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    return func


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
