"""DLPack exchange (torch.utils.dlpack, torch.from_dlpack, Tensor.__dlpack__): cpu tensors
go through NumPy's DLPack support, so memory is shared both ways with any library that
speaks DLPack (NumPy, PyTorch, JAX, CuPy's host arrays, ...)."""
import enum

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


def export(tensor, stream=None, max_version=None, dl_device=None, copy=None):
    """Tensor.__dlpack__: a capsule of the tensor's memory (cpu tensors only)."""
    if tensor.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if tensor.device.type != "cpu":
        raise BufferError(f"DLPack export of {tensor.device.type} tensors is not supported")
    kwargs = {"stream": stream}
    if max_version is not None:  # (the newer protocol's arguments, when the caller uses it)
        kwargs.update(max_version=max_version, dl_device=dl_device, copy=copy)
    return tensor._host().__dlpack__(**kwargs)


class _Capsule:
    """A bare DLPack capsule (to_dlpack's result) presented as an exporting object."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return DLDeviceType.kDLCPU, 0


def from_dlpack(ext_tensor):
    """A cpu tensor sharing the memory of a DLPack exporter (an object with __dlpack__, or
    a capsule from to_dlpack, which can be consumed once)."""
    import numpy as np
    from .._creation import from_numpy
    source = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    try:
        array = np.from_dlpack(source)
    except (TypeError, ValueError) as e:
        if isinstance(source, _Capsule):
            raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor "
                               "capsules can be consumed only once, so you might have "
                               "already constructed a tensor from it once.") from e
        raise
    if isinstance(source, _Capsule) and not array.flags.writeable:
        array = _writable(array)
    return from_numpy(array)


def _writable(a):
    """A writable view of `a`'s memory: NumPy marks arrays from legacy (unversioned)
    capsules read-only, such as Tensor.__dlpack__()'s, which PyTorch writes into."""
    import ctypes

    import numpy as np
    if not a.size or any(s < 0 for s in a.strides):
        return a
    span = sum((n - 1) * s for n, s in zip(a.shape, a.strides)) + a.itemsize
    buf = (ctypes.c_char * span).from_address(a.__array_interface__["data"][0])
    buf.owner = a  # (keeps the capsule's memory alive as long as the view)
    raw = np.frombuffer(buf, np.uint8).view(a.dtype)
    return np.lib.stride_tricks.as_strided(raw, a.shape, a.strides, writeable=True)


def to_dlpack(tensor):
    """A versioned capsule (DLPack 1.0): it carries the read-only flag, so consumers keep
    the memory writable (NumPy marks arrays from legacy capsules read-only)."""
    return export(tensor, max_version=(1, 0))
