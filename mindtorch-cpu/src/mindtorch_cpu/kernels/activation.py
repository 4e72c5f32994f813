"""CPU kernels: activation ops (the others decompose into pointwise ops)."""
import numpy as np
from mindtorch._ops.decls import activation as A

from .._np import arr, wrap
from .pointwise import _erf


def _gelu(self, approximate="none"):
    A.check_gelu(self, approximate)
    a = arr(self)
    ca = a.astype(np.float32) if a.dtype.itemsize < 4 else a
    if approximate == "tanh":
        r = 0.5 * ca * (1 + np.tanh(np.sqrt(2 / np.pi) * (ca + 0.044715 * ca ** 3)))
    else:
        r = 0.5 * ca * (1 + _erf(ca / np.sqrt(2)))
    return wrap(r, self.dtype)


KERNELS = {"gelu": _gelu}


def _threshold_backward(grad, self, threshold):
    """grad where self > threshold, else 0 (one pass; the decomposition takes two ops)."""
    g = arr(grad)
    return wrap(np.where(arr(self) <= threshold, g.dtype.type(0), g), grad.dtype)


KERNELS["threshold_backward"] = _threshold_backward
