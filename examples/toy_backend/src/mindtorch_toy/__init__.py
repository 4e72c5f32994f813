"""mindtorch-toy: a complete, minimal mindtorch backend plugin.

It adds the device type `toy` (two devices, toy:0 and toy:1).  Toy memory is a
`bytearray` per storage, never shared with host arrays, so every crossing between
cpu and toy is a real copy.  A few kernels compute with NumPy on views of that
memory; every other op raises NotImplementedError on toy (or runs on the CPU with
MINDTORCH_CPU_FALLBACK=1).  It also declares one new operator, `toy::scale`.

Installed, it is found through its entry point (see pyproject.toml):

    import mindtorch
    x = mindtorch.tensor([1.0, 2.0]).to("toy")
    print((x * 3 + 1).cpu())            # tensor([4., 7.])
"""
import types

import numpy as np

import mindtorch
from mindtorch import plugins
from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl

__version__ = "0.1.0"
DEVICE = "toy"
DEVICE_COUNT = 2

# -- device memory: DeviceSpec callbacks ------------------------------------------------


def allocate(nbytes, index):
    return bytearray(nbytes)


def from_host(array, index):
    return bytearray(array.tobytes())  # a copy: toy memory is not host memory


def to_host(handle, nbytes):
    return np.frombuffer(handle, np.uint8, nbytes).copy()


def data_ptr(handle):
    return np.frombuffer(handle, np.uint8).ctypes.data if len(handle) else 0


# -- the device module, exposed as mindtorch.toy -----------------------------------------

_current = [0]


def set_device(device):
    index = mindtorch.device(device).index if not isinstance(device, int) else device
    if not 0 <= index < DEVICE_COUNT:
        raise RuntimeError(f"invalid toy device index {index} (device_count is {DEVICE_COUNT})")
    _current[0] = index


module = types.SimpleNamespace(
    is_available=lambda: True,
    device_count=lambda: DEVICE_COUNT,
    current_device=lambda: _current[0],
    set_device=set_device,
    synchronize=lambda device=None: None,  # toy kernels are synchronous
)

# -- kernels: schema arguments arrive positionally, already validated --------------------


def _view(t):
    """Writable NumPy view of a toy tensor's elements, inside toy memory."""
    isz = t.dtype.itemsize
    buf = np.frombuffer(plugins.storage_handle(t), np.uint8)
    return np.ndarray(t.shape, t.dtype.np, buf, t.storage_offset() * isz,
                      tuple(s * isz for s in t.stride()))


def _value(x):
    """A tensor argument's values as a host array (from any device); scalars pass."""
    return plugins.host_array(x) if isinstance(x, mindtorch.Tensor) else x


def _result(array, dtype, *args):
    """A fresh toy tensor holding `array`, on the toy device of the tensor arguments."""
    device = next(a.device for a in args
                  if isinstance(a, mindtorch.Tensor) and a.device.type == DEVICE)
    out = plugins.empty(np.shape(array), dtype, device)
    _view(out)[...] = array
    return out


def _binary(fn):
    def kernel(self, other, *extra):
        dtype = mindtorch.result_type(self, other)  # PyTorch's promotion
        a = np.asarray(_value(self)).astype(dtype.np)
        b = np.asarray(_value(other)).astype(dtype.np)
        return _result(fn(a, b, *extra), dtype, self, other)
    return kernel


def copy_(self, src, non_blocking):
    with np.errstate(all="ignore"):
        _view(self)[...] = _value(src).astype(self.dtype.np)  # broadcasts like torch
    return self


def fill_(self, value):
    _view(self)[...] = _value(value)
    return self


def neg(self):
    return _result(-_value(self), self.dtype, self)


def scale(self, factor):
    dtype = mindtorch.result_type(self, factor)
    return _result(_value(self).astype(dtype.np) * factor, dtype, self)


KERNELS = {
    "add": _binary(lambda a, b, alpha: a + b * alpha if alpha != 1 else a + b),
    "mul": _binary(np.multiply),
    "neg": neg,
    "copy_": copy_,
    "fill_": fill_,
    "toy::scale": scale,
}

# -- the plugin hooks ------------------------------------------------------------------


@hookimpl
def mindtorch_plugin_api_version():
    return PLUGIN_API_VERSION


@hookimpl
def mindtorch_define_ops(registry):
    registry.define("toy::scale(Tensor self, float factor) -> Tensor")


@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device(DEVICE, allocate=allocate, from_host=from_host, to_host=to_host,
                             data_ptr=data_ptr, module=module)


@hookimpl
def mindtorch_register_kernels(registry):
    for name, fn in KERNELS.items():
        registry.impl(name, DEVICE, fn)
