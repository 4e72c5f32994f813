"""Plugin entry point (entry point group mindtorch.backends, name "cpu")."""
from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl

from . import device


@hookimpl
def mindtorch_plugin_api_version():
    return PLUGIN_API_VERSION


@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device("cpu", allocate=device.allocate, from_host=device.from_host,
                             to_host=device.to_host, data_ptr=device.data_ptr,
                             module=device.module, generator=device.generator,
                             share_memory=device.share_memory, is_shared=device.is_shared,
                             host_memory=True)


@hookimpl
def mindtorch_register_kernels(registry):
    # the kernel modules (and NumPy) are imported when the first op runs, not at
    # `import mindtorch`
    registry.lazy_kernels("cpu", _all_kernels)


def _all_kernels():
    from .kernels import ALL_KERNELS
    return ALL_KERNELS
