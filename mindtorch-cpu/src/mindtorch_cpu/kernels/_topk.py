"""topk's selection for large float32 inputs (kernels/sorting.py's `_top`): a compiled pass
over each row keeping the k best (kernels/_reduce_loops.py), instead of NumPy's
argpartition and a sort of the chosen."""
import numpy as np

from ._jit import compiled


def top_positions(key, k, largest):
    """(positions, tied) for the k largest (smallest) keys along the last axis (positions
    best first, equal keys in index order, NaN the largest; tied: per row, whether
    PyTorch's algorithm must be replayed there), or None where the loop does not serve
    (not float32, k not under a quarter of the row, fewer than _jit.MIN_SIZE elements, no
    numba)."""
    if key.dtype != np.float32 or not 0 < 4 * k < key.shape[-1]:
        return None
    jit = compiled("_reduce_loops", key.size)
    if jit is None:
        return None
    rows = np.ascontiguousarray(key).reshape(-1, key.shape[-1])
    out = np.empty((rows.shape[0], k), np.int64)
    tied = np.empty(rows.shape[0], np.bool_)
    jit.topk_rows(rows, k, largest, out, tied)
    return out.reshape(key.shape[:-1] + (k,)), tied.reshape(key.shape[:-1])
