"""The correctly rounded hypot of kernels/_complex_abs.py as a compiled loop (loaded through
_jit.compiled for _jit.MIN_SIZE elements or more): the NumPy path's operations, in its order,
element by element (no fused multiply-adds: the bits are the NumPy path's)."""
import math

import numba

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}  # (no fastmath: no contraction)
_SPLIT = 134217729.0  # (2**27 + 1: Veltkamp's split of a double into two 26-bit halves)
_BIG, _SMALL = 2.0 ** 300, 2.0 ** -300  # (beyond: scaled by 2**-600 / 2**600)


@numba.njit(inline="always")
def _square(a):
    """a * a and its rounding error (Dekker's product, exact)."""
    p = a * a
    hi = a * _SPLIT
    hi = hi - (hi - a)
    lo = a - hi
    return p, ((hi * hi - p) + hi * lo + lo * hi) + lo * lo


@numba.njit(inline="always")
def _hypot(x, y):
    ax, ay = abs(x), abs(y)
    if math.isinf(ax) or math.isinf(ay):
        return math.inf
    big = max(ax, ay)
    if math.isnan(big):
        return math.nan
    if big == 0.0:
        return 0.0
    scale = 2.0 ** -600 if big > _BIG else 2.0 ** 600 if big < _SMALL else 1.0
    xs, ys = ax * scale, ay * scale
    h = math.sqrt(xs * xs + ys * ys)
    p1, e1 = _square(xs)
    p2, e2 = _square(ys)
    p3, e3 = _square(h)
    s = p1 + p2
    bb = s - p1
    es = (p1 - (s - bb)) + (p2 - bb)
    r = (s - p3) + (((es + e1) + e2) - e3)
    return (h + r / (2.0 * h)) / scale


@numba.njit(**_JIT)
def complex_hypot(z, out):
    """out[i] = |z[i]| of a 1-D complex128 array."""
    for i in range(z.size):
        out[i] = _hypot(z[i].real, z[i].imag)
