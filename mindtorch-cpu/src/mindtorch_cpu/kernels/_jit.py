"""The compiled loops (kernels/_compiled.py), imported on first use: numba's import costs
~0.2 s, which `import mindtorch` does not pay.  Without numba (a platform it has no wheel
for) the kernels keep their NumPy paths."""
_loops = None  # the module once imported; False when numba is missing


def loops():
    """kernels._compiled, or None without numba."""
    global _loops
    if _loops is None:
        try:
            from . import _compiled
        except ImportError:
            _compiled = False
        _loops = _compiled
    return _loops or None
