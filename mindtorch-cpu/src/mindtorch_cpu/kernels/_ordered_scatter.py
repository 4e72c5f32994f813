"""Gradients that PyTorch's backward loops accumulate point by point: for each plane, the
output points in raster order, each adding into a few input cells in a fixed order.  The
order of the adds decides the last bit, so they are made in that order:
grad[p, targets[o, k]] += go[p, o] (or, with weights, fma(go[p, o], weights[o, k], grad):
the fused multiply-add PyTorch's compiler emits), targets -1 skipped.

numba's loops (_upsample_loops) from _jit.EARLY_MIN_SIZE elements for 32/64-bit floats;
otherwise NumPy, in passes: the writes grouped by how many earlier writes share their
target, so that each group's targets are distinct (16-bit floats round each sum there, as
PyTorch's adds in their type).
"""
import numpy as np

from ._jit import early


def scatter(go, targets, weights, n_cells):
    """go: (planes, points), targets / weights: (points, K); the (planes, n_cells) sums."""
    go = np.ascontiguousarray(go)
    grad = np.zeros((go.shape[0], n_cells), go.dtype)
    jit = early("_upsample_loops", go.size) if go.dtype.itemsize >= 4 else None
    if jit is not None and weights is not None:
        jit.scatter_fma(go, targets, weights, grad)
    elif jit is not None:
        jit.scatter_add(go, targets, grad)
    else:
        _ranked(go, targets, weights, grad)
    return grad


def _ranked(go, targets, weights, grad):
    from ._upsample_fma import fma
    order = targets.ravel()
    points = np.repeat(np.arange(targets.shape[0]), targets.shape[1])
    keep = order >= 0
    order, points = order[keep], points[keep]
    flat_w = None if weights is None else weights.ravel()[keep]
    rank = _arrival_rank(order)
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max(initial=-1)) + 2))
    for r in range(len(bounds) - 1):
        sel = by_rank[bounds[r]:bounds[r + 1]]
        cells = order[sel]
        if flat_w is None:
            grad[:, cells] += go[:, points[sel]]
        else:
            grad[:, cells] = fma(go[:, points[sel]], flat_w[sel], grad[:, cells])


def _arrival_rank(targets):
    """For each write in sequence, how many earlier writes went to the same target."""
    n = targets.size
    if n == 0:
        return np.zeros(0, np.int64)
    order = np.argsort(targets, kind="stable")
    sorted_t = targets[order]
    first = np.r_[True, sorted_t[1:] != sorted_t[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - start
    return rank
