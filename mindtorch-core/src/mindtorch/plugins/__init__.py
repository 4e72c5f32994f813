"""The backend plugin API (pluggy, project name "mindtorch").

A backend is a distribution with an entry point in the group `mindtorch.backends`
pointing at a module (or object) that implements some of the hooks in HookSpecs with
the `hookimpl` marker.  See docs/plugin-authoring.md.
"""
import pluggy

PROJECT = "mindtorch"
ENTRY_POINT_GROUP = "mindtorch.backends"
PLUGIN_API_VERSION = 1
SUPPORTED_API_VERSIONS = frozenset({1})

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class HookSpecs:
    @hookspec(firstresult=True)
    def mindtorch_plugin_api_version(self):
        """Return the PLUGIN_API_VERSION the plugin was built against (an int)."""

    @hookspec
    def mindtorch_define_ops(self, registry):
        """Declare new operators: registry.define("ns::name(Tensor self) -> Tensor", ...)."""

    @hookspec
    def mindtorch_register_devices(self, registry):
        """Register device types: registry.register_device("toy", allocate=..., ...)."""

    @hookspec
    def mindtorch_register_kernels(self, registry):
        """Register kernels: registry.impl("add", "toy", fn)."""


def host_array(t):
    """A C-contiguous numpy copy-or-view of any tensor's data, from any device with data.
    Kernels use it to read tensors that live on another device (e.g. in copy_)."""
    import numpy as np
    a = t._host()
    return a if a.flags.c_contiguous else np.array(a, order="C")  # keeps 0-dim


def storage_handle(t):
    """The backend handle of a tensor's storage (what the device's allocate/from_host
    returned), for kernels that read or write their device's memory directly.  Mind
    t.storage_offset() and t.stride(): a view shares its base's handle."""
    return t._storage._handle


def wrap_storage(handle, nbytes, device):
    """Storage object for a backend's raw handle (for kernels that allocate themselves)."""
    from .._device import canonical
    from .._storage import UntypedStorage
    return UntypedStorage._wrap(handle, nbytes, canonical(device))


def make_tensor(storage, shape, stride, offset, dtype):
    """A tensor over a storage (for kernels that build their own results)."""
    from .._tensor import Tensor
    return Tensor._make(storage, tuple(shape), tuple(stride), offset, dtype)


def empty(shape, dtype, device):
    """Uninitialised contiguous tensor allocated by the device's allocator."""
    from .._creation import _empty
    from .._device import canonical
    return _empty(shape, dtype, canonical(device))
