"""Sums over an axis that is not the innermost in memory, added in PyTorch's order.

PyTorch's cpu sum (ATen's cascade sum) adds such rows in groups: a sequential sum of
`step` rows at a time, the groups' sums again `step` at a time, up to four levels, so its
error grows with log n.  NumPy adds the rows one after another (error growing with n).
Following PyTorch's order gives its results to the bit, accurate as its, at NumPy speed:
every step below is one ufunc reduction vectorized over the columns.

Columns are taken four vectors of VECTOR_BYTES at a time (four single columns when there
are fewer columns than one vector holds), summed as above; the columns after the last such
group are summed as four interleaved rows (rows i, i + 4, ...), each in the order above,
then combined (ATen's row_sum).  32 bytes: AVX2's vectors, the width PyTorch's kernels use
on most x86 machines (with AVX-512 it groups differently, and those trailing columns may
differ in the last bit).
"""
import numpy as np

VECTOR_BYTES = 32
_LEVELS = 4


def _levels(x):
    """ATen's multi_row_sum: x (outer, n, columns) summed over axis 1, columns >= 2.  Each
    group is NumPy's reduction of an axis that is not innermost (one row after another),
    from +0.0 as PyTorch's accumulators (so -0.0s sum to +0.0)."""
    outer, n, columns = x.shape
    if not n:
        return np.zeros((outer, columns), x.dtype)
    step = 1 << max(4, (1 if n <= 2 else (n - 1).bit_length()) // _LEVELS)
    total = None  # the levels' leftovers, lowest level first
    for _ in range(_LEVELS - 1):
        k = x.shape[1] // step
        if x.shape[1] > k * step:
            rest = np.add.reduce(x[:, k * step:], axis=1, initial=0.0)
            total = rest if total is None else np.add(total, rest, out=total)
        if not k:
            return total
        x = np.add.reduce(x[:, :k * step].reshape(outer, k, step, columns), axis=2,
                          initial=0.0)
        if k == 1:  # (one group: carried up unchanged, as 0 + g)
            return x[:, 0] if total is None else np.add(total, x[:, 0], out=total)
    top = np.add.reduce(x, axis=1, initial=0.0)  # the top level is never carried further
    return top if total is None else np.add(total, top, out=total)


def _interleaved(x):
    """ATen's row_sum over axis 1 of x (outer, n, columns): four partial sums of the rows
    i = 0, 1, 2, 3 (mod 4), each by _levels, the rows left over added to the first."""
    outer, n, columns = x.shape
    s = n // 4
    parts = _levels(x[:, :4 * s].reshape(outer, s, 4 * columns)).reshape(outer, 4, columns)
    acc = parts[:, 0]  # (a view of the fresh parts: added to in place)
    for i in range(4 * s, n):
        acc += x[:, i]
    acc += parts[:, 1]
    acc += parts[:, 2]
    acc += parts[:, 3]
    return acc


def outer_sum(x):
    """PyTorch's sum over axis 1 of x (outer, n, columns), a C-contiguous float or complex
    array of two columns or more, as an (outer, columns) array of x's dtype."""
    columns = x.shape[2]
    vector = max(1, VECTOR_BYTES // x.dtype.itemsize)
    block = 4 * vector if columns >= vector else 4
    whole = columns // block * block
    if whole == columns:
        return _levels(x)
    rest = _interleaved(x[:, :, whole:])
    if not whole:
        return rest
    return np.concatenate((_levels(x[:, :, :whole]), rest), axis=1)
