"""The compiled loops (kernels/_compiled.py), imported on first use, not with mindtorch:
numba's import costs ~0.2 s and ~120 MiB of resident memory (LLVM), loading the loops from
numba's disk cache ~0.5 s more (compiling one, the first time, ~1-2 s).  So they serve ops
over MIN_SIZE elements or more only: below, NumPy's per-call costs matter more than its
passes, and a script of small tensors (the MLP of benchmarks/bench_training.py) never loads
numba.  Without numba (a platform it has no wheel for) the kernels keep their NumPy paths."""
MIN_SIZE = 1 << 16  # elements
_loops = None  # the module once imported; False when numba is missing


def loops(size):
    """kernels._compiled for an op over `size` elements, or None (fewer, or no numba)."""
    global _loops
    if size < MIN_SIZE:
        return None
    if _loops is None:
        try:
            from . import _compiled
        except (ImportError, RuntimeError):  # (RuntimeError: numba finds no cache directory)
            _compiled = False
        _loops = _compiled
    return _loops or None
