"""pdist and its backward as compiled loops over the row pairs (kernels/layers.py; loaded
through _jit.compiled for pdists of _jit.MIN_SIZE pair coordinates or more): one pass, no
(pairs, d) temporaries.  Each pair's coordinates are accumulated in order in the input's
precision, with the formulas of the NumPy paths (p = 0, 1, 2, inf, other p)."""
import math

import numba
import numpy as np

from ._compiled import _JIT


@numba.njit(inline="always")
def _pair(x, i, j, p):
    acc = x.dtype.type(0)
    for k in range(x.shape[1]):
        d = abs(x[i, k] - x[j, k])
        if p == 2.0:
            acc += d * d
        elif p == 1.0:
            acc += d
        elif p == math.inf:
            if d > acc or math.isnan(d):  # (NaN propagates)
                acc = d
        elif p == 0.0:
            acc += d if math.isnan(d) else min(math.ceil(d), 1.0)
        else:
            acc += d ** x.dtype.type(p)
    if p == 2.0:
        return math.sqrt(acc)
    if p == 0.0 or p == 1.0 or p == math.inf:
        return acc
    return acc ** x.dtype.type(1 / p)


@numba.njit(**_JIT)
def pdist(x, p, out):
    n, m = x.shape[0], 0
    for i in range(n):
        for j in range(i + 1, n):
            out[m] = _pair(x, i, j, p)
            m += 1


@numba.njit(**_JIT)
def pdist_backward(x, grad, dist, p, out):
    """out (zeros, x's shape) += each pair's d||x_i - x_j||_p / d(x_i - x_j) at row i, -=
    at row j (decls/layers.py _pdist_grad's cases)."""
    n, m = x.shape[0], 0
    pm1 = x.dtype.type(p - 1)
    for i in range(n):
        for j in range(i + 1, n):
            g, r = grad[m], dist[m]
            m += 1
            for k in range(x.shape[1]):
                diff = x[i, k] - x[j, k]
                s = np.sign(diff)
                if p == 1.0:
                    gd = s * g
                elif p == math.inf:
                    gd = s * (abs(diff) == r) * g
                elif p == 2.0:
                    gd = 0.0 if r == 0 else diff * g / r
                else:
                    a = abs(diff)
                    gd = 0.0 if r == 0 or (a == 0 and p < 1) else s * a ** pm1 * g / r ** pm1
                out[i, k] += gd
                out[j, k] -= gd
