"""mindtorch.xpu / .mps / .mtia when no installed backend provides the device: the questions
device-selection code asks (`torch.xpu.is_available()`) get a CPU build's answers; seeding is
a no-op; anything that needs the device fails as PyTorch's CPU build does."""
import types


def _no(*args, **kwargs):
    return False


def _zero(*args, **kwargs):
    return 0


def _nothing(*args, **kwargs):
    pass


def _raiser(error, message):
    def fail(*args, **kwargs):
        raise error(message)
    return fail


def _mps_fails(what):
    return _raiser(RuntimeError, f"Cannot execute {what}() without MPS backend.")


_XPU_FAILS = _raiser(AssertionError, "Torch not compiled with XPU enabled")

# per device: {attribute: value}; every device also has is_available/device_count/...
_TABLES = {
    "xpu": {"is_initialized": _no, "is_bf16_supported": _no, "empty_cache": _nothing,
            "memory_allocated": _zero, "max_memory_allocated": _zero,
            "memory_reserved": _zero, "synchronize": _XPU_FAILS,
            "current_device": _XPU_FAILS, "get_device_name": _XPU_FAILS,
            "get_device_properties": _XPU_FAILS, "set_device": _XPU_FAILS},
    "mps": {"empty_cache": _mps_fails("emptyCache"), "synchronize": _mps_fails("deviceSynchronize"),
            "seed": _mps_fails("getDefaultGenerator"),
            "current_allocated_memory": _mps_fails("getCurrentAllocatedMemory"),
            "driver_allocated_memory": _mps_fails("getDriverAllocatedMemory")},
    "mtia": {"is_initialized": _no},
}


def module(name):
    """The stand-in module for device type `name`, or None when there is none."""
    table = _TABLES.get(name)
    if table is None:
        return None
    m = types.ModuleType(f"mindtorch.{name}")
    m.is_available, m.device_count = _no, _zero
    m.manual_seed = m.manual_seed_all = m.seed_all = _nothing
    for key, value in table.items():
        setattr(m, key, value)
    return m
