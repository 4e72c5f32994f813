"""The SIMD level of the ATen CPU kernels PyTorch picks on this machine, which kernels that
replay PyTorch's vector loops follow (lane counts, tails, vectorized math).

PyTorch compiles its cpu kernels for DEFAULT, AVX2 and AVX512 and picks one at start: the
ATEN_CPU_CAPABILITY environment variable when set (default / avx2 / avx512), else AVX512 on
CPUs with AVX-512 F, BW, VL and DQ, else AVX2 with AVX2 and FMA, else DEFAULT.  An op whose
dispatch stub registers no AVX-512 kernel (most of them) runs its AVX2 kernel on an AVX512
machine: use `vector_isa(avx512_kernel)` to ask which one an op runs.  Non-x86 machines
report DEFAULT here."""
import functools
import os
import platform

_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            return set(next((line.split(":", 1)[1].split() for line in f
                             if line.startswith("flags")), []))
    except OSError:
        return set()


@functools.cache
def capability():
    """'DEFAULT', 'AVX2' or 'AVX512': the kernels PyTorch's dispatcher selects here."""
    if not _X86:
        return "DEFAULT"
    flags = _cpu_flags()
    detected = ("AVX512" if {"avx512f", "avx512bw", "avx512vl", "avx512dq", "fma"} <= flags
                else "AVX2" if {"avx2", "fma"} <= flags else "DEFAULT")
    forced = os.environ.get("ATEN_CPU_CAPABILITY", "").upper()
    order = ("DEFAULT", "AVX2", "AVX512")
    if forced in order and order.index(forced) <= order.index(detected):
        return forced  # (PyTorch only lowers the level: a forced higher one is ignored)
    return detected


def vector_isa(avx512_kernel=False):
    """The kernel an op runs: its AVX512 one only if it registers one (`avx512_kernel`)."""
    level = capability()
    return "AVX2" if level == "AVX512" and not avx512_kernel else level


_VECTOR_BYTES = {"AVX2": 32, "AVX512": 64}


def vector_bytes(avx512_kernel=False):
    """Bytes per SIMD vector of the kernel an op runs here (vector_isa's), None for DEFAULT
    (no vector loop: every element is the scalar code's)."""
    return _VECTOR_BYTES.get(vector_isa(avx512_kernel))


# oneDNN (which PyTorch calls for some ops, e.g. float32 / bfloat16 GELU of a contiguous
# tensor) picks its jit kernels itself: ONEDNN_MAX_CPU_ISA (or DNNL_MAX_CPU_ISA) caps it,
# ATEN_CPU_CAPABILITY does not.  Its ISA names from AVX512_CORE up all include avx512_core.
_ONEDNN_BELOW_AVX512 = ("SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2")


@functools.cache
def onednn_avx512_core():
    """Whether oneDNN runs its avx512_core kernels here (AVX-512 F, CD, BW, VL and DQ)."""
    if not _X86 or not {"avx512f", "avx512cd", "avx512bw", "avx512vl", "avx512dq"} <= \
            _cpu_flags():
        return False
    cap = (os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or "")
    return cap.strip().upper() not in _ONEDNN_BELOW_AVX512
