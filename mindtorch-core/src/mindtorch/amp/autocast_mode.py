"""torch.autocast: inside an enabled region the ops of PyTorch's autocast lists run in the
region's dtype (matmul, linear, conv... in bfloat16 by default on cpu) or in float32
(losses, linear algebra...); see mindtorch/_autocast.py for the lists and the casting.
A region PyTorch disables (enabled=False, an unsupported cpu dtype, an unavailable
accelerator) turns autocast off for its device type."""
import functools
import warnings

from .._autocast import state

_ACCELERATORS = ("cuda", "xpu", "mps", "npu", "hpu", "xla", "mtia")
# regions refused with a warning when the device is absent: PyTorch's cuda, and mindtorch's
# own npu (PyTorch enters the others' regions, which then cast nothing)
_WARN_UNAVAILABLE = ("cuda", "npu")
_BF16_DEFAULT = ("cpu", "hpu", "xla")  # PyTorch's default autocast dtype there; else float16


def _device_type(device_type, fn="_is_autocast_available"):
    """device_type as PyTorch reads it: a str (TypeError naming fn otherwise), parsed with
    torch.device's rules and messages ("cpu:0" is cpu)."""
    from .._device import device
    if not isinstance(device_type, str):
        kind = "torch.device" if isinstance(device_type, device) else type(device_type).__name__
        raise TypeError(f"{fn}(): argument 'device_type' (position 1) must be str, not {kind}")
    return device(device_type).type


# PyTorch's autocast dispatch keys (whether or not the device is present)
_AUTOCAST_KEYS = ("cpu", "cuda", "xpu", "mps", "hpu", "xla", "ipu", "privateuseone", "mtia",
                  "maia")


def is_autocast_available(device_type):
    device_type = _device_type(device_type)
    return device_type in _AUTOCAST_KEYS or (device_type != "meta" and _available(device_type))


def get_autocast_dtype(device_type):
    """The dtype set for device_type: the innermost region's (enabled or not), else the
    default."""
    from .. import _dtype as D
    device_type = _device_type(device_type, "get_autocast_dtype")
    if device_type in state.fast:
        return state.fast[device_type]
    if device_type == "meta":
        raise RuntimeError("unsupported scalarType")
    return D.bfloat16 if device_type in _BF16_DEFAULT else D.float16


def set_autocast_dtype(device_type, dtype):
    from .._dtype import dtype as Dtype
    device_type = _device_type(device_type, "set_autocast_dtype")
    if not isinstance(dtype, Dtype):
        raise TypeError(f"set_autocast_dtype(): argument 'dtype' (position 2) must be "
                        f"torch.dtype, not {type(dtype).__name__}")
    state.fast = {**state.fast, device_type: dtype}
    if device_type in state.dtypes:
        state.dtypes = {**state.dtypes, device_type: dtype}


def is_autocast_enabled(device_type=None):
    if device_type is None:
        return "cuda" in state.dtypes
    if type(device_type) is str and device_type in state.dtypes:
        return True
    device_type = _device_type(device_type, "is_autocast_enabled")
    if device_type == "meta":
        raise RuntimeError("unknown device type for autocast in "
                           "get_autocast_dispatch_key_from_device_type")
    return device_type in state.dtypes


def set_autocast_enabled(device_type, enabled=None):
    """set_autocast_enabled(device_type, enabled), or PyTorch's older (enabled) for cuda."""
    position = 2
    if enabled is None:
        device_type, enabled, position = "cuda", device_type, 1
    device_type = _device_type(device_type, "set_autocast_enabled")
    if not isinstance(enabled, bool):
        raise TypeError(f"set_autocast_enabled(): argument 'enabled' (position {position}) "
                        f"must be bool, not {type(enabled).__name__}")
    is_autocast_enabled(device_type)  # (refuses meta)
    dtypes = dict(state.dtypes)
    if enabled:
        dtypes[device_type] = get_autocast_dtype(device_type)
    else:
        dtypes.pop(device_type, None)
    state.on, state.dtypes = bool(dtypes), dtypes


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        from .. import _dtype as D
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not (is_autocast_available(device_type) or device_type in _ACCELERATORS):
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None \
            else cache_enabled
        if enabled and _device_type(device_type) in _WARN_UNAVAILABLE \
                and not _available(_device_type(device_type)):
            name = "CUDA is not available or torch_xla is imported" if device_type == "cuda" \
                else f"{device_type.upper()} is not available"
            warnings.warn(f"{name}. Disabling autocast.", stacklevel=2)
            enabled = False
        elif enabled and device_type != "cuda" and self.fast_dtype not in (D.bfloat16,
                                                                            D.float16):
            name = device_type.upper()
            warnings.warn(f"In {name} autocast, but the target dtype is not supported. "
                          f"Disabling autocast.\n{name} Autocast only supports dtypes of "
                          f"torch.bfloat16, torch.float16 currently.", stacklevel=2)
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        # as PyTorch: this device type's state is set (its dtype even when disabled) and
        # restored on exit, with the cache flag
        self._prev = (is_autocast_enabled(self.device), get_autocast_dtype(self.device),
                      state.cache)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        state.nesting += 1
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc):
        enabled, dtype, cache = self._prev
        state.nesting -= 1
        set_autocast_enabled(self.device, enabled)
        set_autocast_dtype(self.device, dtype)
        set_autocast_cache_enabled(cache)
        return False

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"autocast()(func) requires a callable, but got "
                            f"{type(fn).__name__}. Did you mean to use autocast as a context "
                            f"manager? For example:\n    with torch.autocast(device_type=...):"
                            f"\n        output = model(input)")

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


def _require_str(device_type):
    if not isinstance(device_type, str):  # (PyTorch's ValueError)
        raise ValueError(  # noqa: TRY004
            f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """A custom Function's forward.  It records on ctx the autocast dtype and whether it ran
    under autocast (custom_bwd runs the backward in the same state); with cast_inputs,
    inside an autocast region of device_type its floating tensors (float64 aside) are cast
    to cast_inputs and it runs with autocast off (and so does the backward)."""
    _require_str(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def forward(*args, **kwargs):
        ctx, enabled = args[0], is_autocast_enabled(device_type)
        ctx._dtype = get_autocast_dtype(device_type)
        ctx._fwd_used_autocast = enabled and cast_inputs is None
        if cast_inputs is None or not enabled:
            return fwd(*args, **kwargs)
        with autocast(device_type, enabled=False):
            return fwd(*_cast(args, device_type, cast_inputs),
                       **_cast(kwargs, device_type, cast_inputs))
    return forward


def _cast(value, device_type, dtype):
    """value with its eligible tensors (floating but float64, on device_type) cast, through
    mappings and iterables as PyTorch's amp._cast."""
    from collections.abc import Iterable, Mapping

    from .._tensor import Tensor
    if isinstance(value, Tensor):
        eligible = value.dtype.is_floating_point and value._device.type == device_type and \
            value.dtype.name != "float64"
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)) or type(value).__module__ == "numpy":
        return value
    if isinstance(value, Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype)
                for k, v in value.items()}
    if isinstance(value, Iterable):
        iterator = (_cast(v, device_type, dtype) for v in value)
        return type(value)(iterator) if isinstance(value, (list, tuple)) else iterator
    return value


def custom_bwd(bwd=None, *, device_type):
    """A custom Function's backward, run in the autocast state its custom_fwd forward
    recorded."""
    _require_str(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def backward(*args, **kwargs):
        ctx = args[0]
        with autocast(device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(*args, **kwargs)
    return backward


__all__ = ["autocast", "custom_bwd", "custom_fwd", "get_autocast_dtype", "is_autocast_available",
           "is_autocast_enabled", "set_autocast_dtype"]


def _deprecated(old, new, fn, device_type):
    def call(*args):
        warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.",
                      DeprecationWarning, stacklevel=2)
        return fn(device_type, *args)
    call.__name__ = old.split("(")[0]
    return call


# PyTorch's per-device spellings (deprecated)
is_autocast_cpu_enabled = _deprecated("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')",
                                      is_autocast_enabled, "cpu")
get_autocast_cpu_dtype = _deprecated("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')",
                                     get_autocast_dtype, "cpu")
get_autocast_gpu_dtype = _deprecated("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')",
                                     get_autocast_dtype, "cuda")
set_autocast_cpu_dtype = _deprecated("set_autocast_cpu_dtype(dtype)",
                                     "set_autocast_dtype('cpu', dtype)", set_autocast_dtype, "cpu")
set_autocast_gpu_dtype = _deprecated("set_autocast_gpu_dtype(dtype)",
                                     "set_autocast_dtype('cuda', dtype)", set_autocast_dtype,
                                     "cuda")
set_autocast_cpu_enabled = _deprecated("set_autocast_cpu_enabled(enabled)",
                                       "set_autocast_enabled('cpu', enabled)",
                                       set_autocast_enabled, "cpu")


def is_autocast_cache_enabled():
    return state.cache


def set_autocast_cache_enabled(enabled):
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    state.cache = enabled


def autocast_increment_nesting():
    state.nesting += 1
    return state.nesting


def autocast_decrement_nesting():
    state.nesting -= 1
    return state.nesting


def clear_autocast_cache():
    """Nothing to clear: mindtorch's autocast casts again rather than caching casts."""
