"""topk's selection for large float32 inputs (kernels/sorting.py's `_top`): a compiled pass
over each row keeping the k best (kernels/_reduce_loops.py), instead of NumPy's
argpartition and a sort of the chosen."""
import numpy as np

from ._jit import compiled


def top_positions(key, k, largest):
    """Positions of the k largest (smallest) keys along the last axis, best first, equal
    keys in index order (NaN the largest), or None where the loop does not serve (not
    float32, fewer than _jit.MIN_SIZE elements, no numba)."""
    if key.dtype != np.float32 or not key.size:
        return None
    jit = compiled("_reduce_loops", key.size)
    if jit is None:
        return None
    rows = np.ascontiguousarray(key).reshape(-1, key.shape[-1])
    out = np.empty((rows.shape[0], k), np.int64)
    jit.topk_rows(rows, k, largest, out)
    return out.reshape(key.shape[:-1] + (k,))
