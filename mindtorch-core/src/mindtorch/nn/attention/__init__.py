"""torch.nn.attention: choosing scaled_dot_product_attention's backends.

mindtorch has one implementation of F.scaled_dot_product_attention, PyTorch's math
reference (with its cpu flash kernel's edge cases): it runs while MATH or FLASH_ATTENTION
(the backends PyTorch's CPU build has) is enabled, and raises PyTorch's error otherwise.
The flags are those of mindtorch.backends.cuda (enable_math_sdp, ...), as in PyTorch."""
import contextlib
import enum

from ...backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.IntEnum):
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    __str__ = enum.Enum.__str__  # SDPBackend.MATH, as PyTorch's (IntEnum prints 0)


# backends.cuda's flag of each backend
_FLAGS = {SDPBackend.CUDNN_ATTENTION: "cudnn", SDPBackend.FLASH_ATTENTION: "flash",
          SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.MATH: "math",
          SDPBackend.OVERRIDEABLE: "overrideable"}


def _enabled():
    return [b for b, flag in _FLAGS.items() if _cuda._sdp[flag]]


def _enable(backends):
    for b, flag in _FLAGS.items():
        _cuda._sdp[flag] = b in backends


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Enable only `backends` (one SDPBackend or a list) inside the block."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(f"Backend must be an instance of SDPBackend or a list of "
                             f"SDPBackend instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    previous = _enabled()
    try:
        _enable(set(backends))
        yield {}
    finally:
        _enable(set(previous))


def check_backends():
    """Called by scaled_dot_product_attention: PyTorch's error when neither of the CPU's
    backends is enabled."""
    if not (_cuda._sdp["math"] or _cuda._sdp["flash"]):
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. "
                           "This is likely due to turning off both the math kernel and the "
                           "fused kernels.")
