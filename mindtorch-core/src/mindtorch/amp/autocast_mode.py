"""torch.autocast: inside an enabled region the ops of PyTorch's autocast lists run in the
region's dtype (matmul, linear, conv... in bfloat16 by default on cpu) or in float32
(losses, linear algebra...); see mindtorch/_autocast.py for the lists and the casting.
A region PyTorch disables (enabled=False, an unsupported cpu dtype, an unavailable
accelerator) turns autocast off for its device type."""
import functools
import warnings

from .._autocast import state

_ACCELERATORS = ("cuda", "xpu", "mps", "npu", "hpu", "xla", "mtia")
_DTYPES = {}  # device type -> autocast dtype set by set_autocast_dtype


def is_autocast_available(device_type):
    return device_type == "cpu" or (device_type != "meta" and _available(device_type))


def get_autocast_dtype(device_type):
    from .. import _dtype as D
    if device_type in _DTYPES:
        return _DTYPES[device_type]
    if device_type == "cpu":
        return D.bfloat16
    if device_type in _ACCELERATORS or _available(device_type):
        return D.float16
    raise RuntimeError("unsupported scalarType")


def set_autocast_dtype(device_type, dtype):
    get_autocast_dtype(device_type)  # (refuses an unknown device type)
    _DTYPES[device_type] = dtype


def is_autocast_enabled(device_type=None):
    return (device_type or "cuda") in state.dtypes


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type == "meta" or not (device_type == "cpu" or device_type in _ACCELERATORS
                                         or _available(device_type)):
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self.device = device_type
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        if enabled and device_type in _ACCELERATORS and not _available(device_type):
            name = "CUDA is not available or torch_xla is imported" if device_type == "cuda" \
                else f"{device_type.upper()} is not available"
            warnings.warn(f"{name}. Disabling autocast.", stacklevel=2)
            enabled = False
        if enabled and device_type == "cpu" and self.fast_dtype.name not in ("bfloat16",
                                                                               "float16"):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", stacklevel=2)
            enabled = False
        self._enabled = bool(enabled)

    def __enter__(self):
        self._prev = (state.on, state.dtypes)
        dtypes = dict(state.dtypes)
        if self._enabled:
            dtypes[self.device] = self.fast_dtype
        else:
            dtypes.pop(self.device, None)
        state.on, state.dtypes = bool(dtypes), dtypes
        return self

    def __exit__(self, *exc):
        state.on, state.dtypes = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self._clone():
                return fn(*args, **kwargs)
        return wrapped

    def _clone(self):  # (a decorated function may run re-entrantly or in several threads)
        c = object.__new__(type(self))
        c.device, c.fast_dtype, c._cache_enabled, c._enabled = \
            self.device, self.fast_dtype, self._cache_enabled, self._enabled
        return c


def _available(device_type):
    import mindtorch
    from ..plugins._registry import DEVICES
    if device_type not in DEVICES and device_type not in _ACCELERATORS:
        return False
    module = getattr(mindtorch, device_type, None)
    return bool(module is not None and getattr(module, "is_available", lambda: False)())


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """A custom Function's forward: with cast_inputs, inside an autocast region of
    device_type its floating tensors are cast to cast_inputs and it runs with autocast
    off; otherwise it runs as written."""
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def forward(*args, **kwargs):
        if cast_inputs is None or not is_autocast_enabled(device_type):
            return fwd(*args, **kwargs)
        args = [_cast(a, device_type, cast_inputs) for a in args]
        kwargs = {k: _cast(v, device_type, cast_inputs) for k, v in kwargs.items()}
        with autocast(device_type, enabled=False):
            return fwd(*args, **kwargs)
    return forward


def _cast(value, device_type, dtype):
    from .._tensor import Tensor
    if isinstance(value, Tensor):
        if value._device.type == device_type and value.dtype.is_floating_point:
            return value.to(dtype)
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast(v, device_type, dtype) for k, v in value.items()}
    return value


def custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)
    return bwd


__all__ = ["autocast", "custom_bwd", "custom_fwd", "get_autocast_dtype", "is_autocast_available",
           "is_autocast_enabled", "set_autocast_dtype"]


def is_autocast_cpu_enabled():
    warnings.warn("torch.is_autocast_cpu_enabled() is deprecated. Please use "
                  "torch.is_autocast_enabled('cpu') instead.", DeprecationWarning, stacklevel=2)
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype():
    warnings.warn("torch.get_autocast_cpu_dtype() is deprecated. Please use "
                  "torch.get_autocast_dtype('cpu') instead.", DeprecationWarning, stacklevel=2)
    return get_autocast_dtype("cpu")


def is_autocast_cache_enabled():
    return True


def clear_autocast_cache():
    """Nothing to clear: mindtorch's autocast casts again rather than caching casts."""
