"""The compiled loops (kernels/_compiled.py), imported on first use, not with mindtorch:
numba's import costs ~0.2 s, loading the loops from numba's disk cache ~0.5 s more
(compiling one, the first time, ~1-2 s).  Without numba (a platform it has no wheel for)
the kernels keep their NumPy paths."""
_loops = None  # the module once imported; False when numba is missing


def loops():
    """kernels._compiled, or None without numba."""
    global _loops
    if _loops is None:
        try:
            from . import _compiled
        except (ImportError, RuntimeError):  # (RuntimeError: numba finds no cache directory)
            _compiled = False
        _loops = _compiled
    return _loops or None
