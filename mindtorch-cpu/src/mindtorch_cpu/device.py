"""The cpu device: storage is host memory held by a numpy array (any C-contiguous
array; kernels' fresh results are adopted as storage without a copy)."""
import os
import types

from mindtorch._lazy import lazy

from . import _streams

np = lazy("numpy", globals())  # imported with the first tensor, not at `import mindtorch`


def allocate(nbytes, index=None):
    # PyTorch's allocator raises RuntimeError (numpy: MemoryError, or ValueError past 2**63)
    try:
        return np.empty(nbytes, np.uint8)
    except MemoryError:
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to "
                           f"allocate {nbytes} bytes.") from None
    except ValueError:
        raise RuntimeError(f"Storage size calculation overflowed: {nbytes} bytes") from None


def from_host(array, index=None):
    return array  # shares memory, as torch.from_numpy does


def to_host(handle, nbytes):
    return handle.reshape(-1).view(np.uint8)


def data_ptr(handle):
    return handle.__array_interface__["data"][0]


def share_memory(handle, nbytes):
    """The bytes copied to an anonymous shared mapping, which processes forked afterwards
    share (writes on either side are seen by the other)."""
    if is_shared(handle):
        return handle
    import mmap
    shared = np.frombuffer(mmap.mmap(-1, max(nbytes, 1)), np.uint8, nbytes)
    shared[...] = to_host(handle, nbytes)
    return shared


def is_shared(handle):
    base = handle.base
    return type(base) is memoryview and type(base.obj).__name__ == "mmap"


def generator(seed, index=None):
    from .mt19937 import Engine  # PyTorch's CPU generator, so seeds give PyTorch's numbers
    return Engine(seed)


def _is_mkldnn_bf16_supported():
    """torch.ops.mkldnn._is_mkldnn_bf16_supported: whether PyTorch's bfloat16 ops that have
    a oneDNN path (LSTM, ...) take it here."""
    from .kernels._cpu_capability import onednn_avx512_core  # (with the kernels, lazily)
    return onednn_avx512_core()


def _kernel_vector_bytes(avx512_kernel=False):
    """Bytes per SIMD vector of the ATen kernel PyTorch runs here (64 for an op registering
    an AVX-512 kernel on an AVX-512 machine, else 32): decompositions replaying a vector
    loop's lanes ask it."""
    from .kernels._cpu_capability import vector_bytes  # (with the kernels, lazily)
    return vector_bytes(avx512_kernel) or 32


module = types.SimpleNamespace(
    is_available=lambda: True,
    device_count=lambda: 1,
    current_device=lambda: "cpu",  # (as torch.cpu.current_device())
    set_device=lambda device: None,
    synchronize=lambda device=None: None,
    cpu_count=lambda: os.cpu_count(),
    is_initialized=lambda: True,
    Stream=_streams.Stream, Event=_streams.Event, StreamContext=_streams.StreamContext,
    current_stream=_streams.current_stream, stream=_streams.stream,
    _kernel_vector_bytes=_kernel_vector_bytes,
    _is_mkldnn_bf16_supported=_is_mkldnn_bf16_supported,
)
