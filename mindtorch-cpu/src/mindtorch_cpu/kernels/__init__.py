"""Every CPU kernel, by op name.  Each module exposes KERNELS = {op name: fn}."""
import importlib
import warnings

from .._malloc import keep_freed_memory

# NumPy reports floating-point edge cases (0 * inf, inf - inf, ...) as RuntimeWarnings;
# PyTorch computes the same IEEE results silently.  Ignored for the warnings NumPy
# attributes to these kernel modules only (user code keeps its own), and at no cost per
# call, unlike np.errstate.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mindtorch_cpu\.kernels\.")

keep_freed_memory()  # (process-wide: see _malloc.py)

FAMILIES = ("creation", "pointwise", "reduction", "linalg", "joining", "indexing", "random",
            "activation", "special", "sorting", "factorization", "conv", "pooling",
            "resample", "normalization", "layers", "loss", "numerics", "inplace", "fft",
            "rnn")
ALL_KERNELS = {}
for _family in FAMILIES:
    ALL_KERNELS.update(importlib.import_module(f"{__name__}.{_family}").KERNELS)
