"""Every CPU kernel, by op name.  Each module exposes KERNELS = {op name: fn}."""
import importlib

from mindtorch._ops import OPS

from .._malloc import keep_freed_memory
from . import _limited

keep_freed_memory()  # (process-wide: see _malloc.py)

FAMILIES = ("creation", "pointwise", "reduction", "linalg", "joining", "indexing", "random",
            "activation", "special", "sorting", "factorization", "conv", "pooling",
            "resample", "normalization", "group_norm", "batch_norm", "layers", "loss", "numerics", "inplace",
            "fft", "rnn", "sampling", "reorder")
ALL_KERNELS = {}
for _family in FAMILIES:
    ALL_KERNELS.update(importlib.import_module(f"{__name__}.{_family}").KERNELS)
# PyTorch's refusals of the uint16/32/64 and float8 dtypes (see _limited.py)
ALL_KERNELS.update({op: _limited.by_self(op, ALL_KERNELS[op]) for op in _limited.BY_SELF
                    if op in ALL_KERNELS})
ALL_KERNELS.update({op: _limited.by_self(op, OPS[op].decomposition)
                    for op in _limited.DECOMPOSED})
