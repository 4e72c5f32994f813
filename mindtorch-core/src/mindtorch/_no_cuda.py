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
    empty_cache = reset_peak_memory_stats = _nothing


def get_rng_state_all():
    return []  # (one state per CUDA device: none)


def _zero(device=None):
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero


def is_bf16_supported(including_emulation=True):
    return False


def __getattr__(name):
    if name == "amp":  # torch.cuda.amp.GradScaler(enabled=...), torch.cuda.amp.autocast(...)
        from .amp import _DeviceAmp
        return _DeviceAmp("cuda")
    raise AttributeError(f"module 'mindtorch.cuda' has no attribute '{name}'")
