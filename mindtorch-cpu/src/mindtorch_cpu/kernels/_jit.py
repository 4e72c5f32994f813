"""The compiled loops (kernels/_compiled.py, _update_loops.py), imported on first use, not
with mindtorch: numba's import costs ~0.2 s and ~120 MiB of resident memory (LLVM),
loading the loops from numba's disk cache ~0.5 s more (compiling one, the first time,
~1-2 s).  So they serve ops over MIN_SIZE elements or more only: below, NumPy's per-call
costs matter more than its passes, and a script of small tensors (the MLP of
benchmarks/bench_training.py) never loads numba.  Without numba (a platform it has no
wheel for) the kernels keep their NumPy paths."""
import importlib
import sys

MIN_SIZE = 1 << 16  # elements
_modules = {}  # module name -> the module once imported, False when numba is missing


def compiled(name, size, min_size=None):
    """The module of numba loops kernels.<name> for an op over `size` elements, or None
    (fewer than min_size elements, MIN_SIZE by default, read at the call: tests lower it;
    or no numba)."""
    if size < (MIN_SIZE if min_size is None else min_size):
        return None
    module = _modules.get(name)
    if module is None:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except (ImportError, RuntimeError):  # (RuntimeError: numba finds no cache directory)
            module = False
        _modules[name] = module
    return module or None


def loaded(name):
    """The module of numba loops kernels.<name> if an earlier op imported it, else None:
    for kernels whose loops give the NumPy path's bits, so that they serve any size once
    loaded (the import is what MIN_SIZE saves)."""
    return _modules.get(name) or None


# For kernels whose NumPy path costs far more per element than a pass (one element at a
# time in Python, or dozens of small steps): numba's one-time load (~0.5-1 s) pays for
# itself from here, so their loops load earlier than MIN_SIZE's
EARLY_MIN_SIZE = 4096  # elements


def early(name, size, threshold=None):
    """The module of numba loops kernels.<name> from `threshold` elements (EARLY_MIN_SIZE by
    default, read at the call: tests lower it), or at any size once it or numba itself is
    loaded; None below (neither loaded) or without numba."""
    if "numba" in sys.modules:
        threshold = 0
    return loaded(name) or compiled(name, size, EARLY_MIN_SIZE if threshold is None else
                                    threshold)


def loops(size):
    """kernels._compiled (GELU, softmax, layer norm's backward) for `size` elements, or None."""
    return compiled("_compiled", size)
