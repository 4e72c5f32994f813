"""Process-wide settings scripts set before training (torch.set_num_threads,
use_deterministic_algorithms, set_float32_matmul_precision, set_default_device, ...),
torch.typename and torch.compile.

mindtorch's kernels are deterministic and its float32 matmuls run in full precision,
so those settings are recorded and reported back, as PyTorch does, without changing a
result; except the thread count, where a kernel replays how ATen's parallel_for splits
its work (16-bit softmax along an inner dim rounds at the pieces' ends)."""
import os as _os

from . import _device

_state = {"threads": _os.cpu_count() or 1, "interop": _os.cpu_count() or 1,
          "interop_set": False, "deterministic": False, "warn_only": False,
          "matmul_precision": "highest"}


def _positive_int(name, n):
    if type(n) is not int:
        raise RuntimeError(f"{name} expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return n


def set_num_threads(n):
    _state["threads"] = _positive_int("set_num_threads", n)


def get_num_threads():
    return _state["threads"]


def set_num_interop_threads(n):
    """Once per process, as PyTorch's (its inter-op pool is sized once)."""
    n = _positive_int("set_num_interop_threads", n)
    if _state["interop_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _state["interop"], _state["interop_set"] = n, True


def get_num_interop_threads():
    return _state["interop"]


def _bool_arg(name, value, where=""):
    """PyTorch's parser on a bool argument of _set_deterministic_algorithms: bool only."""
    if type(value) is not bool:
        t = type(value)
        shown = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"
        raise TypeError(f"_set_deterministic_algorithms(): argument '{name}'{where} must be "
                        f"bool, not {shown}")
    return value


def use_deterministic_algorithms(mode, *, warn_only=False):
    mode = _bool_arg("mode", mode, " (position 1)")
    _state["deterministic"], _state["warn_only"] = mode, _bool_arg("warn_only", warn_only)


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


_DEBUG_MODES = ("default", "warn", "error")


def set_deterministic_debug_mode(debug_mode):
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, "
                               f"`warn`, `error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_float32_matmul_precision(precision):
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got "  # noqa: TRY004
                           f"{type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        import warnings
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current "
                      f"setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _state["matmul_precision"]


def set_default_device(device):
    """Factories' device when no `with mindtorch.device(...)` block is active; None
    restores the CPU."""
    _device.set_global_default(None if device is None else _device.device(device))


def get_default_device():
    return _device.default_device() or _device.device("cpu")


def typename(obj):
    """'torch.FloatTensor' for a tensor, the qualified name of a class or function, else the
    object's qualified class name."""
    from ._tensor import Tensor
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is None:
        module, name = type(obj).__module__ or "", type(obj).__qualname__
    return name if module in ("", "builtins") else f"{module}.{name}"


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, name=None, disable=False, recompile_limit=None,
            isolate_recompiles=False, shapes_spec=None):
    """mindtorch runs eagerly and has no graph compiler: a function comes back wrapped (as
    PyTorch's: `__wrapped__` and `_torchdynamo_orig_callable` are the original), a module
    in an OptimizedModule that calls it (PyTorch's wrapper: its state_dict keys start with
    `_orig_mod.`), so `model = torch.compile(model)` computes what it did.  disable=True
    gives the model back as it is."""
    if model is None:
        def decorate(fn):
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, name=name, disable=disable,
                           recompile_limit=recompile_limit,
                           isolate_recompiles=isolate_recompiles, shapes_spec=shapes_spec)
        return decorate
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is "
                             f"provided.")
    _check_compile_args(backend, mode, options)
    if disable:
        return model
    from .nn import Module
    if isinstance(model, Module):
        from ._dynamo import OptimizedModule
        return OptimizedModule(model)
    return _eager_callable(model)


def _eager_callable(fn):
    """What compile gives for a function: a wrapper calling it (a compiled function's
    original, which compiling again wraps anew)."""
    import functools
    original = getattr(fn, "_torchdynamo_orig_callable", fn)

    def run(*args, **kwargs):
        from .compiler import _run_compiled
        return _run_compiled(original, args, kwargs)
    try:
        run = functools.wraps(original)(run)
    except AttributeError:  # (a callable object without a __name__...)
        pass
    run._torchdynamo_orig_callable = original
    return run


_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# the backend names torch._dynamo.list_backends(exclude_tags=()) gives
_BACKENDS = frozenset((
    "aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
    "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts",
    "cudagraphs", "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager",
    "eager_debug", "eager_noexcept", "inductor", "invoke_subgraph", "openxla",
    "openxla_eval", "pre_dispatch_eager", "ts", "tvm"))


def _check_compile_args(backend, mode, options):
    """What PyTorch refuses when compile gets its function (nothing is compiled here)."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if isinstance(backend, str) and backend not in _BACKENDS:
        from ._dynamo import exc
        raise exc.InvalidBackend(f"Invalid backend: {backend!r}, see "
                                 f"`torch._dynamo.list_backends()` for available backends.")


# Build flags (torch.has_*): mindtorch's cpu backend computes through NumPy, whose linear
# algebra is LAPACK and whose fft is pocketfft; it has neither MKL nor OpenMP.
has_lapack, has_spectral, has_mkl, has_openmp = True, True, False, False


def set_flush_denormal(mode):
    """Flush denormal floats to zero (results and inputs: SSE's FTZ and DAZ bits of the
    calling thread, where NumPy's kernels run), as PyTorch does; True if it could (x86-64
    Linux), False elsewhere."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    import platform
    import sys
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return False
    import ctypes
    libc = ctypes.CDLL(None)
    env = (ctypes.c_uint8 * 32)()  # glibc's x86-64 fenv_t; MXCSR is its last 4 bytes
    if libc.fegetenv(ctypes.byref(env)) != 0:
        return False
    mxcsr = int.from_bytes(bytes(env[28:32]), "little")
    mxcsr = mxcsr | _FTZ_DAZ if mode else mxcsr & ~_FTZ_DAZ
    env[28:32] = list(mxcsr.to_bytes(4, "little"))
    return libc.fesetenv(ctypes.byref(env)) == 0


_FTZ_DAZ = 0x8040  # MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6)


def is_distributed(input):
    """Whether a tensor is distributed across processes: mindtorch's never are."""
    from ._tensor import Tensor
    if not isinstance(input, Tensor):
        raise TypeError(f"is_distributed(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    return False


class OutOfMemoryError(RuntimeError):
    """A device ran out of memory (torch.OutOfMemoryError)."""


class AcceleratorError(RuntimeError):
    """An accelerator runtime failed (torch.AcceleratorError)."""


def compiled_with_cxx11_abi():
    """PyTorch's answer (extensions build against the new C++ ABI): True."""
    return True


def is_vulkan_available():
    return False


def init_num_threads():
    """Initialises the intra-op thread pool in PyTorch; nothing to do here."""

