"""CPU kernels of the numerics family (the rest of it decomposes)."""
import numpy as np

from mindtorch import _dtype as D
from mindtorch._ops.decls import numerics as N

from .._np import arr, wrap


def frexp(self):
    N.frexp_meta(self)
    a = arr(self)
    wide = a.astype(np.float32) if self.dtype is D.bfloat16 else a
    mantissa, exponent = np.frexp(wide)
    return wrap(mantissa.astype(self.dtype.np, copy=False), self.dtype), \
        wrap(exponent.astype(np.int32), D.int32)


KERNELS = {"frexp": frexp}
