"""Every CPU kernel, by op name.  Each module exposes KERNELS = {op name: fn}."""
from . import creation, indexing, joining, linalg, pointwise, random, reduction

ALL_KERNELS = {}
for _m in (creation, pointwise, reduction, linalg, joining, indexing, random):
    ALL_KERNELS.update(_m.KERNELS)
