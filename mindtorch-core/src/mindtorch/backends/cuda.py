"""torch.backends.cuda: no mindtorch backend provides CUDA; the matmul and attention
flags scripts set are accepted and kept."""
import enum


class _MatmulFlags:
    def __init__(self):
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True

    # allow_tf32 is the float32 matmul precision seen from CUDA (as PyTorch's flag):
    # set_float32_matmul_precision("high") turns it on, setting it picks "high" / "highest"
    @property
    def allow_tf32(self):
        from .._runtime import get_float32_matmul_precision
        return get_float32_matmul_precision() != "highest"

    @allow_tf32.setter
    def allow_tf32(self, value):
        from .._runtime import set_float32_matmul_precision
        set_float32_matmul_precision("high" if value else "highest")


matmul = _MatmulFlags()
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True,
        "overrideable": True}  # (nn.attention.sdpa_kernel sets them too)


def is_built():
    return False


class _LinalgBackend(enum.IntEnum):
    Default = 0
    Cusolver = 1
    Magma = 2

    __str__ = enum.Enum.__str__  # _LinalgBackend.Default, as PyTorch's (IntEnum prints 0)


_LINALG_NAMES = {"default": _LinalgBackend.Default, "cusolver": _LinalgBackend.Cusolver,
                 "magma": _LinalgBackend.Magma}


def preferred_linalg_library(backend=None):
    """The CUDA linear-algebra library choice: only the default, as a CPU build's."""
    if backend is not None:
        b = backend if isinstance(backend, _LinalgBackend) else _LINALG_NAMES.get(backend)
        if b is None:
            raise RuntimeError("Unknown input value. Choose from: default, cusolver, magma.")
        if b is not _LinalgBackend.Default:
            lib = "cuSOLVER" if b is _LinalgBackend.Cusolver else "MAGMA"
            raise RuntimeError(f"Cannot set preferred backend to {lib} if PyTorch has not "
                               f"been compiled with {lib}.")
    return _LinalgBackend.Default


def enable_flash_sdp(enabled):
    _sdp["flash"] = bool(enabled)


def flash_sdp_enabled():
    return _sdp["flash"]


def enable_mem_efficient_sdp(enabled):
    _sdp["mem_efficient"] = bool(enabled)


def mem_efficient_sdp_enabled():
    return _sdp["mem_efficient"]


def enable_math_sdp(enabled):
    _sdp["math"] = bool(enabled)


def math_sdp_enabled():
    return _sdp["math"]


def enable_cudnn_sdp(enabled):
    _sdp["cudnn"] = bool(enabled)


def cudnn_sdp_enabled():
    return _sdp["cudnn"]


def is_flash_attention_available():
    return False


def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True,
               enable_cudnn=True):
    """The deprecated spelling of torch.nn.attention.sdpa_kernel (a context manager)."""
    import warnings
    warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this "
                  "context manager will be removed. Please see "
                  "`torch.nn.attention.sdpa_kernel()` for the new context manager, with "
                  "updated signature.", FutureWarning, stacklevel=2)
    from ..nn.attention import SDPBackend, sdpa_kernel
    chosen = [b for b, on in ((SDPBackend.FLASH_ATTENTION, enable_flash),
                              (SDPBackend.EFFICIENT_ATTENTION, enable_mem_efficient),
                              (SDPBackend.MATH, enable_math),
                              (SDPBackend.CUDNN_ATTENTION, enable_cudnn)) if on]
    return sdpa_kernel(chosen)
