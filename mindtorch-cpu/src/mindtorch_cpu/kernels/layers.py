"""Layer kernels: pdist over row pairs in chunks (its decomposition materialises every
pair's difference at once: about 100x slower on (1000, 64)).  Computed in the input's
precision (float32 for 16-bit floats) with PyTorch's formulas, so overflow to inf and NaN
propagation agree."""
import math

import numpy as np
from mindtorch._ops.decls import layers as L

from .._np import arr, wrap


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
    i, j = np.triu_indices(x.shape[0], 1)
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


KERNELS = {"pdist": pdist}
