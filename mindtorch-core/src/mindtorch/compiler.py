"""torch.compiler: mindtorch runs eagerly and has no graph compiler: a torch.compile'd
callable runs as it is (is_compiling() is True meanwhile, as for code PyTorch traces), and
the decorators and knobs programs use around torch.compile are accepted and leave functions
as they are."""
import threading
import types

from ._runtime import compile  # noqa: F401 - torch's name

config = types.SimpleNamespace(job_id=None, dynamic_sources="", unbacked_sources="")
_default_backend = ["inductor"]


def _as_is(fn):
    return fn


allow_in_graph = assume_constant_result = wrap_numpy = nested_compile_region = _as_is


def disable(fn=None, recursive=True, *, reason=None):
    return fn if fn is not None else _as_is


def substitute_in_graph(original_fn, *, can_constant_fold_through=False,
                        skip_signature_check=False):
    return _as_is


def list_backends(exclude_tags=("debug", "experimental")):
    return ["cudagraphs", "inductor", "openxla", "tvm"]


def set_default_backend(backend):
    _default_backend[0] = backend


def get_default_backend():
    return _default_backend[0]


def set_stance(stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
    """Accepted (as a function, decorator or context manager): there is no compiled code
    whose use it could steer."""
    return _NullStance()


class _NullStance:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


def reset():
    """Forget compiled code: there is none."""


def cudagraph_mark_step_begin():
    pass


def set_enable_guard_collectives(enabled):
    return False


class _Compiling(threading.local):
    depth = 0  # this thread's calls of torch.compile'd functions and modules in progress


_compiling = _Compiling()


def is_compiling():
    """True inside a torch.compile'd function or module (what the code there sees while
    PyTorch traces it), False elsewhere."""
    return _compiling.depth > 0


def is_exporting():
    return False


is_dynamo_compiling = is_compiling


def _run_compiled(fn, args, kwargs):
    """fn(*args, **kwargs) as a compiled callable runs it (eagerly, is_compiling() True)."""
    _compiling.depth += 1
    try:
        return fn(*args, **kwargs)
    finally:
        _compiling.depth -= 1
