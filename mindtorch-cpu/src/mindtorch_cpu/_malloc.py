"""Keep freed memory in the process (glibc only), set once when the cpu kernels load.

glibc serves large blocks by mmap and returns freed heap memory to the OS past thresholds
that adapt to the largest block freed so far.  A model's activations (a few MB per layer)
then fault in fresh pages on every forward: ~9,000 page faults, ~10% of an all-MiniLM-L6-v2
batch on 2 cores.  Fixed thresholds keep up to 64 MiB of freed memory for reuse, as a
caching allocator would; the peak RSS does not change.  MINDTORCH_CPU_KEEP_FREED_MEMORY=0
leaves glibc's defaults."""
import ctypes
import os
import sys

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)
MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 64 << 20


def keep_freed_memory():
    """True when the thresholds were set (glibc's mallopt accepted both)."""
    if os.environ.get("MINDTORCH_CPU_KEEP_FREED_MEMORY", "1") == "0" or \
            not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # absent from other C libraries (musl)
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and
                mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
