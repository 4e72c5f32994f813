"""torch.autocast: its disabled forms (enabled=False, or an unavailable accelerator, which
PyTorch disables with a warning) run unchanged; an enabled region is not supported."""
import functools
import warnings

_ACCELERATORS = ("cuda", "xpu", "mps", "npu", "hpu", "xla", "mtia")


def is_autocast_available(device_type):
    return False


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device, self.fast_dtype, self._cache_enabled = device_type, dtype, cache_enabled
        if enabled and device_type in _ACCELERATORS and not _available(device_type):
            warnings.warn(f"{device_type.upper()} is not available. Disabling autocast.",
                          stacklevel=2)
            enabled = False
        self._enabled = bool(enabled)

    def __enter__(self):
        if self._enabled:
            raise NotImplementedError(
                f"autocast on '{self.device}' is not supported by mindtorch yet (ops would run "
                f"in {self.fast_dtype or 'the autocast dtype'} under PyTorch); cast the model "
                f"and inputs explicitly, e.g. model.to(torch.bfloat16)")
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapped


def _available(device_type):
    import mindtorch
    module = getattr(mindtorch, device_type, None)
    return bool(module is not None and getattr(module, "is_available", lambda: False)())


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """A custom Function's forward under autocast: no region is ever enabled here, so the
    forward runs as written."""
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    return bwd
