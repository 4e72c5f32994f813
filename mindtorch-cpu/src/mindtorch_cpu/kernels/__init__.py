"""Every CPU kernel, by op name.  Each module exposes KERNELS = {op name: fn}."""
import importlib

from .._malloc import keep_freed_memory

keep_freed_memory()  # (process-wide: see _malloc.py)

FAMILIES = ("creation", "pointwise", "reduction", "linalg", "joining", "indexing", "random",
            "activation", "special", "sorting", "factorization", "conv", "pooling",
            "resample", "normalization", "group_norm", "batch_norm", "layers", "loss", "numerics", "inplace",
            "fft", "rnn", "sampling", "reorder")
ALL_KERNELS = {}
for _family in FAMILIES:
    ALL_KERNELS.update(importlib.import_module(f"{__name__}.{_family}").KERNELS)
