"""Pooling loops compiled by numba (kernels/pooling.py), imported through _jit.compiled()
from _jit.MIN_SIZE elements: adaptive average pooling's window sums, one output at a time
in window order from zero, then divided by the window's extents in turn, as PyTorch's loop
(and the NumPy path's reduction over gathered terms): the same roundings, without the
(windows x offsets) gather."""
import numba

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(**_JIT)
def adaptive_avg_2d(x, hs, he, ws, we, kh, kw, out):
    """out[p, i, j] = sum of x[p, hs[i]:he[i], ws[j]:we[j]] / kh[i] / kw[j] (x: (planes,
    H, W); out: (planes, len(hs), len(ws)) of x's dtype, zero-filled; kh, kw: the
    extents in that dtype)."""
    for p in range(x.shape[0]):
        plane = x[p]
        for i in range(hs.size):
            for j in range(ws.size):
                s = out[p, i, j]
                for ih in range(hs[i], he[i]):
                    for iw in range(ws[j], we[j]):
                        s += plane[ih, iw]
                out[p, i, j] = s / kh[i] / kw[j]
