"""mindtorch.cuda when no installed backend provides a `cuda` device: it answers the
questions scripts ask before choosing a device (`torch.cuda.is_available()`)."""


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


class CudaUnavailable(AssertionError, RuntimeError):
    """PyTorch's CPU build raises AssertionError for any use of CUDA; a RuntimeError too, as
    for any other device type no installed backend provides."""


def _unavailable(*args, **kwargs):
    raise CudaUnavailable("Torch not compiled with CUDA enabled: no installed mindtorch "
                          "backend provides the 'cuda' device (see `python -m "
                          "mindtorch.backends`)")


current_device = set_device = synchronize = get_device_name = get_device_properties = \
    get_device_capability = get_rng_state = initial_seed = init = current_stream = \
    ipc_collect = _unavailable


def _nothing(*args, **kwargs):
    """Seeding and cache calls: PyTorch queues them until CUDA starts (never, here), so a
    script's set_seed() helper runs on a machine without CUDA."""


manual_seed = manual_seed_all = seed = seed_all = set_rng_state = set_rng_state_all = \
    empty_cache = reset_peak_memory_stats = reset_max_memory_allocated = _nothing


def get_rng_state_all():
    return []  # (one state per CUDA device: none)


def _zero(device=None):
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero


def is_bf16_supported(including_emulation=True):
    return False


def memory_stats(device=None):
    import collections
    return collections.OrderedDict()


def _renamed(old, new):
    def fn(device=None):
        import warnings
        warnings.warn(f"`torch.cuda.{old}` has been renamed to `torch.cuda.{new}`",
                      FutureWarning, stacklevel=2)
        return 0
    return fn


memory_cached = _renamed("memory_cached", "memory_reserved")
max_memory_cached = _renamed("max_memory_cached", "max_memory_reserved")
mem_get_info = default_stream = set_per_process_memory_fraction = get_sync_debug_mode = \
    set_sync_debug_mode = _unavailable
has_half = True
default_generators = ()


def get_arch_list():
    return []


def is_tf32_supported():
    return False


class CudaError(RuntimeError):
    """A CUDA runtime error (never raised: there is no CUDA)."""


from ._runtime import AcceleratorError, OutOfMemoryError  # noqa: F401 - `except` targets


class _CudaTensorType(type):
    """torch.cuda.FloatTensor, ...: names old scripts evaluate (`T = torch.cuda.FloatTensor if
    cuda else torch.FloatTensor`); no tensor is one and constructing one fails."""
    is_cuda = True
    is_sparse = False

    def __instancecheck__(cls, obj):
        return False

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled "
                        f"with CUDA enabled.")

    def __repr__(cls):
        return f"<class 'torch.cuda.{cls.__name__}'>"


for _kind in ("Double", "Float", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte",
              "Bool"):
    globals()[_kind + "Tensor"] = _CudaTensorType(_kind + "Tensor", (), {})


class Event:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("Tried to instantiate dummy base class Event")


class Stream:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class CUDAGraph:  # (named in annotations, e.g. transformers' generation utilities)
    def __init__(self, *args, **kwargs):
        raise RuntimeError("Tried to instantiate dummy base class CUDAGraph")


class graph:  # (torch's name) `with torch.cuda.graph(g):` needs a CUDA stream
    def __init__(self, cuda_graph, pool=None, stream=None, *args, **kwargs):
        Stream()


def graph_pool_handle():
    raise RuntimeError("Tried to instantiate dummy base class _graph_pool_handle")


def is_current_stream_capturing():
    raise RuntimeError("Tried to instantiate dummy base class _cuda_isCurrentStreamCapturing")


class device:  # (torch's name)
    """`with torch.cuda.device(i):` (fails on entry: there is no CUDA device)."""

    def __init__(self, device):
        self.idx = device

    def __enter__(self):
        raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, *exc):
        return False


class _NoStream:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def device_of(obj):
    """The device context of a tensor: a no-op for the (non-CUDA) tensors there are."""
    return _NoStream()


def stream(stream):
    if stream is None:
        return _NoStream()
    _unavailable()


class StreamContext(_NoStream):
    """`with torch.cuda.StreamContext(None):` runs (there is no stream to select)."""

    def __init__(self, stream):
        if stream is not None:
            _unavailable()


def __getattr__(name):
    if name == "amp":  # torch.cuda.amp.GradScaler(enabled=...), torch.cuda.amp.autocast(...)
        from .amp import _CudaAmp
        return _CudaAmp()
    if name == "random":  # torch.cuda.random.get_rng_state_all(): this module's functions
        import sys
        return sys.modules[__name__]
    raise AttributeError(f"module 'mindtorch.cuda' has no attribute '{name}'")
