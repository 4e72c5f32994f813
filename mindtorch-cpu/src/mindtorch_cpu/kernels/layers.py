"""Layer kernels: pdist and its backward over row pairs, as compiled loops
(kernels/_distance_loops.py) from _jit.MIN_SIZE pair coordinates, else in chunks of pairs
(the decomposition materialises every pair's difference at once: about 100x slower on
(1000, 64)).  Computed in the input's
precision (float32 for 16-bit floats) with PyTorch's formulas, so overflow to inf and NaN
propagation agree."""
import math

import numpy as np
from mindtorch._ops.decls import layers as L

from .._np import arr, wrap
from ._jit import compiled


def _loops(x, pairs):
    """The compiled pdist loops for x (a C-contiguous float32 / float64 array), or None."""
    if x.dtype not in (np.float32, np.float64) or not x.flags.c_contiguous:
        return None
    return compiled("_distance_loops", pairs * x.shape[1])


def pdist(self, p=2.0):
    (m,) = L.check_pdist(self, p)
    a = arr(self)
    if m == 0 or a.shape[1] == 0:
        return wrap(np.zeros(m, self.dtype.np), self.dtype)
    return wrap(_pdist_rows(a, p).astype(self.dtype.np), self.dtype)


def _pdist_rows(a, p, chunk=1 << 14):
    """||a[i] - a[j]||_p for i < j, row-major pairs; p=0 counts differing coordinates as
    min(ceil(|d|), 1) (NaN propagates), p=inf is the max (NaN propagates)."""
    x = a.astype(np.float32 if a.dtype.itemsize < 4 else a.dtype, copy=False)
    n = x.shape[0]
    jit = _loops(x, n * (n - 1) // 2)
    if jit is not None:
        out = np.empty(n * (n - 1) // 2, x.dtype)
        jit.pdist(x, float(p), out)
        return out
    i, j = np.triu_indices(n, 1)
    out = np.empty(i.size, x.dtype)
    with np.errstate(all="ignore"):
        for s in range(0, i.size, chunk):
            d = np.abs(x[i[s:s + chunk]] - x[j[s:s + chunk]])
            if p == 0:
                r = np.minimum(np.ceil(d), 1).sum(1)
            elif p == 1:
                r = d.sum(1)
            elif p == 2:
                r = np.sqrt((d * d).sum(1))
            elif p == math.inf:
                r = d.max(1)
            else:
                r = (d ** x.dtype.type(p)).sum(1) ** x.dtype.type(1 / p)
            out[s:s + chunk] = r
    return out


def _pdist_backward(grad, self, p, pdist):
    """The decomposition's formula per pair (decls/layers.py _pdist_grad), added to row i
    and taken from row j: in one compiled pass, or as the decomposition (np.add.at)."""
    n, d = self._shape
    a = arr(self)
    if p == 0 or not n or not d or not grad.numel():
        return wrap(np.zeros((n, d), self.dtype.np), self.dtype)
    x = a.astype(np.float32 if a.dtype.itemsize < 4 else a.dtype, copy=False)
    g, dist = (arr(t).astype(x.dtype) for t in (grad, pdist))
    out = np.zeros((n, d), x.dtype)
    jit = _loops(x, g.size)
    if jit is not None:
        jit.pdist_backward(x, np.ascontiguousarray(g), np.ascontiguousarray(dist), float(p), out)
        return wrap(out.astype(self.dtype.np), self.dtype)
    i, j = np.triu_indices(n, 1)
    diff, g, dist = x[i] - x[j], g[:, None], dist[:, None]
    with np.errstate(all="ignore"):
        if p == 1:
            gd = np.sign(diff) * g
        elif p == math.inf:
            gd = np.sign(diff) * (np.abs(diff) == dist) * g
        elif p == 2:
            gd = np.where(dist == 0, 0, diff * g / dist)
        else:
            mag = np.abs(diff)
            gd = np.sign(diff) * mag ** x.dtype.type(p - 1) * g / dist ** x.dtype.type(p - 1)
            gd = np.where((dist == 0) | ((mag == 0) & (p < 1)), 0, gd)
    np.add.at(out, i, gd)
    np.add.at(out, j, -gd)
    return wrap(out.astype(self.dtype.np), self.dtype)


KERNELS = {"pdist": pdist, "_pdist_backward": _pdist_backward}
