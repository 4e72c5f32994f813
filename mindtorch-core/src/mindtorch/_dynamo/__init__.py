"""torch._dynamo's user-facing corner: mindtorch has no graph compiler, so torch.compile
wraps a module in an OptimizedModule that runs it eagerly (the wrapper PyTorch's
state_dict keys, `_orig_mod.` and repr show), and the knobs scripts set are accepted."""
import sys
import types

from . import eval_frame  # noqa: F401
from .eval_frame import OptimizedModule  # noqa: F401

# settings scripts write (torch._dynamo.config.suppress_errors = True): nothing reads them
config = types.SimpleNamespace(
    suppress_errors=False, cache_size_limit=8, recompile_limit=8,
    accumulated_cache_size_limit=256, accumulated_recompile_limit=256, verbose=False,
    capture_scalar_outputs=False, capture_dynamic_output_shape_ops=False, optimize_ddp=True,
    automatic_dynamic_shapes=True, assume_static_by_default=True,
    force_parameter_static_shapes=True, error_on_recompile=False, specialize_int=False,
    guard_nn_modules=False)


def reset():
    """Forget compiled code: there is none."""


def disable(fn=None, recursive=True):
    return fn if fn is not None else (lambda f: f)


def is_compiling():
    from ..compiler import is_compiling
    return is_compiling()


def allow_in_graph(fn):
    """(Decorators that steer tracing: with nothing traced, the function as it is.)"""
    return fn


assume_constant_result = allow_in_graph


def mark_static_address(t, guard=True):
    """(Hints about tensors to the tracer: nothing reads them.)"""


def mark_dynamic(t, index, **kwargs):
    pass


maybe_mark_dynamic = mark_static = mark_dynamic


class _Exc(types.ModuleType):
    """torch._dynamo.exc: the error classes `except` clauses name (never raised here)."""

    class TorchDynamoException(RuntimeError):
        pass

    class Unsupported(TorchDynamoException):
        pass

    class InternalTorchDynamoError(TorchDynamoException):
        pass

    class InvalidBackend(TorchDynamoException):
        pass


exc = sys.modules[__name__ + ".exc"] = _Exc(__name__ + ".exc")  # (importable too)
for _cls in (exc.TorchDynamoException, exc.Unsupported, exc.InternalTorchDynamoError,
             exc.InvalidBackend):
    _cls.__module__ = exc.__name__


def list_backends(exclude_tags=("debug", "experimental")):
    from ..compiler import list_backends
    return list_backends(exclude_tags)
