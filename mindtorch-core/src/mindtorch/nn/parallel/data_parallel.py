"""DataParallel without accelerators: as PyTorch's when no device type is available, it
keeps no devices (device_ids == []) and its forward is the wrapped module's, so code
written for several GPUs runs unchanged (its state_dict keys are prefixed `module.`)."""
from typing import Generic, TypeVar

from ..modules.module import Module

T = TypeVar("T", bound=Module)

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class DataParallel(Module, Generic[T]):
    """Runs `module` (which, with accelerators, would be replicated on device_ids, each
    replica given a slice of the batch along `dim`)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []  # no accelerator: device_ids, output_device and dim go unused

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0,
                  module_kwargs=None):
    """The functional form; like PyTorch's, it needs an accelerator's device type."""
    raise RuntimeError("device type could not be determined")


def replicate(network, devices, detach=False):
    if not devices:
        return []
    raise AssertionError("Broadcast function not implemented for CPU tensors")


def scatter(inputs, target_gpus, dim=0):
    raise RuntimeError(_NO_ACCELERATOR)


def gather(outputs, target_device, dim=0):
    raise AssertionError("Gather function not implemented for CPU tensors")


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None):
    raise RuntimeError(_NO_ACCELERATOR)
