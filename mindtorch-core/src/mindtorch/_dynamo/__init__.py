"""torch._dynamo's user-facing corner: mindtorch has no graph compiler, so torch.compile
wraps a module in an OptimizedModule that runs it eagerly (the wrapper PyTorch's
state_dict keys, `_orig_mod.` and repr show), and the knobs scripts set are accepted."""
import types

from . import eval_frame  # noqa: F401
from .eval_frame import OptimizedModule  # noqa: F401

# settings scripts write (torch._dynamo.config.suppress_errors = True): nothing reads them
config = types.SimpleNamespace(suppress_errors=False, cache_size_limit=8, verbose=False,
                               capture_scalar_outputs=False, optimize_ddp=True)


def reset():
    """Forget compiled code: there is none."""


def disable(fn=None, recursive=True):
    return fn if fn is not None else (lambda f: f)


def is_compiling():
    return False
