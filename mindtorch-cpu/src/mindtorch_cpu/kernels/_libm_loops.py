"""numba loops calling the C library's math functions element by element (llvm.log etc.
lower to libm's log / logf, ...): kernels/_libm.py's fast path.  No fastmath, and never
vectorised with SVML (kernels/_libm.py does not use these loops when numba has SVML)."""
import math

from numba import njit

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}  # (C results, no exceptions)
CODES = {"log": 0, "log1p": 1, "exp": 2, "cos": 3, "sin": 4, "tan": 5, "lgamma": 6,
         "erfc": 7}


@njit(**_JIT)
def apply(code, x, out):
    """out[i] = f(x[i]), f the function CODES names (x and out 1-D, of one float dtype:
    float32 calls the float functions logf, ...)."""
    for i in range(x.size):
        v = x[i]
        if code == 0:
            out[i] = math.log(v)
        elif code == 1:
            out[i] = math.log1p(v)
        elif code == 2:
            out[i] = math.exp(v)
        elif code == 3:
            out[i] = math.cos(v)
        elif code == 4:
            out[i] = math.sin(v)
        elif code == 5:
            out[i] = math.tan(v)
        elif code == 6:
            out[i] = math.lgamma(v)
        else:
            out[i] = math.erfc(v)
