"""Sums added in PyTorch's order: over an axis that is not the innermost in memory
(outer_sum), and along rows contiguous in memory (inner_sum).

PyTorch's cpu sum (ATen's cascade sum) adds such rows in groups: a sequential sum of
`step` rows at a time, the groups' sums again `step` at a time, up to four levels, so its
error grows with log n.  NumPy adds the rows one after another (error growing with n).
Following PyTorch's order gives its results to the bit, accurate as its, at NumPy speed:
every step below is one ufunc reduction vectorized over the columns.

Columns are taken four vectors of VECTOR_BYTES at a time (four single columns when there
are fewer columns than one vector holds), summed as above; the columns after the last such
group are summed as four interleaved rows (rows i, i + 4, ...), each in the order above,
then combined (ATen's row_sum).  32 bytes: AVX2's vectors, the width of PyTorch's sum
kernels on x86 machines, AVX-512 ones included (measured: the same bits).
"""
import math

import numpy as np
from mindtorch._strides import stride_order

VECTOR_BYTES = 32
_LEVELS = 4


def _levels(x):
    """ATen's multi_row_sum: x (outer, n, columns) summed over axis 1, columns >= 2.  Each
    group is NumPy's reduction of an axis that is not innermost (one row after another),
    from +0.0 as PyTorch's accumulators (so -0.0s sum to +0.0)."""
    outer, n, columns = x.shape
    if n < 16:  # (fewer rows than a group: summed in order, 0 rows: 0)
        return np.add.reduce(x, axis=1, initial=0.0)
    step = 1 << max(4, (1 if n <= 2 else (n - 1).bit_length()) // _LEVELS)
    total = None  # the levels' leftovers, lowest level first
    for _ in range(_LEVELS - 1):
        rows = x.shape[1]
        k = rows // step
        whole = k * step
        if rows > whole:  # (sliced only then: a view costs ~0.1 us, a fifth of a reduction)
            rest = np.add.reduce(x[:, whole:] if k else x, axis=1, initial=0.0)
            total = rest if total is None else np.add(total, rest, out=total)
            if not k:
                return total
            x = x[:, :whole]
        if k == 1:  # (one group: carried up unchanged, as 0 + g)
            group = np.add.reduce(x, axis=1, initial=0.0)
            return group if total is None else np.add(total, group, out=total)
        x = np.add.reduce(x.reshape(outer, k, step, columns), axis=2, initial=0.0)
    top = np.add.reduce(x, axis=1, initial=0.0)  # the top level is never carried further
    return top if total is None else np.add(total, top, out=total)


def _interleaved(x):
    """ATen's row_sum over axis 1 of x (outer, n, columns): four partial sums of the rows
    i = 0, 1, 2, 3 (mod 4), each by _levels, the rows left over added to the first, then
    the other three."""
    outer, n, columns = x.shape
    s = n // 4
    whole = x if n == 4 * s else x[:, :4 * s]
    parts = _levels(whole.reshape(outer, s, 4 * columns)).reshape(outer, 4, columns)
    if not n:
        return parts[:, 0]
    # (no rows left over: the terms are the partial sums as they are)
    terms = parts if whole is x else np.concatenate((parts[:, :1], x[:, 4 * s:], parts[:, 1:]),
                                                    axis=1)
    if columns > 1:  # (NumPy adds the rows of an axis that is not innermost in order)
        return np.add.reduce(terms, axis=1)
    return _in_order(terms, 1)


def _in_order(terms, axis):
    """The sum of `terms` over `axis` (0 or 1), added one after another, as a reduction
    over the outer axis of a C-contiguous copy (NumPy sums a lone innermost axis pairwise,
    and its scan across many columns is slow; one column: the scan).  (swapaxes moves
    axis 1 first as np.moveaxis would, without its ~2 us of argument checks.)"""
    stacked = np.ascontiguousarray(terms.swapaxes(0, axis))
    flat = stacked.reshape(stacked.shape[0], -1)
    if flat.shape[1] == 1:
        return np.add.accumulate(flat[:, 0])[-1:].reshape(stacked.shape[1:])
    return np.add.reduce(flat, axis=0).reshape(stacked.shape[1:])


def outer_sum(x, columns_loop=None, scalar=False):
    """PyTorch's sum over axis 1 of x (outer, n, columns), a C-contiguous float or complex
    array of two columns or more, as an (outer, columns) array of x's dtype.
    columns_loop(x, whole): the same sums by a compiled loop, or None (see cascade_sum).
    scalar: ATen's scalar_outer_sum (columns apart in memory: four at a time)."""
    columns = x.shape[2]
    vector = max(1, VECTOR_BYTES // x.itemsize)
    block = 4 * vector if columns >= vector and not scalar else 4
    whole = columns // block * block
    if columns_loop is not None:
        sums = columns_loop(x, whole)
        if sums is not None:
            return sums
    if whole == columns:
        return _levels(x)
    rest = _interleaved(x[:, :, whole:])
    if not whole:
        return rest
    return np.concatenate((_levels(x[:, :, :whole]), rest), axis=1)


def inner_sum(x):
    """PyTorch's sum over axis 1 of x (rows, n), a float or complex array whose rows are
    contiguous, as a (rows,) array of x's dtype (ATen's vectorized_inner_sum): rows of a
    vector or more as groups of 4 vectors summed by levels (_levels), the vectors left
    over added to the first of the four partial vectors, the four added in order (the
    row's vector of lanes), then from 0 the elements after the last vector and the lanes
    one by one; shorter rows as ATen's scalar row_sum (element 0, the elements from 4 on,
    then 1, 2, 3).  Each step is one NumPy call across the rows, on their transposed copy
    (NumPy's calls over short rows cost more than their passes).  From +0.0, as PyTorch's
    accumulators (no sum is -0.0)."""
    rows, n = x.shape
    vector = max(1, VECTOR_BYTES // x.dtype.itemsize)
    whole = n // vector * vector
    if not whole:
        terms = x.T[[0, *range(4, n), 1, 2, 3] if n >= 4 else list(range(n))]
    else:
        xt = np.ascontiguousarray(x.T)
        vectors, width = n // vector, 4 * vector
        groups = vectors // 4
        left = xt[groups * width:whole].reshape(vectors - groups * 4, vector, rows)
        if not groups:  # (the vectors left over alone: the other partial vectors 0)
            lanes = np.add.reduce(left, axis=0, initial=0.0)
        else:
            acc = xt[:groups * width].reshape(groups, 4, vector, rows)
            acc = np.add.reduce(acc, axis=0, initial=0.0) if groups < 16 else _levels(
                acc.reshape(1, groups, width * rows))[0].reshape(4, vector, rows)
            for v in left:
                np.add(acc[0], v, out=acc[0])
            lanes = np.add.reduce(acc, axis=0)
        terms = np.concatenate((xt[whole:], lanes)) if whole < n else lanes
    if rows == 1:  # (NumPy would sum the lone column pairwise: its scan adds in order)
        return np.add(np.add.accumulate(terms[:, 0])[-1:], 0.0, dtype=x.dtype)
    return np.add.reduce(terms, axis=0, initial=0.0)


def cascade_sum(x, axes, rows=None, columns=None):
    """PyTorch's sum of x, a C-contiguous float or complex array, over `axes` (distinct,
    ascending), shaped as the kept axes.  ATen's TensorIterator puts the reduced axes
    innermost: the innermost group of adjacent reduced axes is summed first (along rows
    when it ends the shape; else over rows, as columns when it is the only group, column
    by column when not), then the other reduced axes' sums are added one after another in
    memory order.  rows: a function computing inner_sum (by a compiled loop), or None;
    columns(x, whole): outer_sum's sums of x (outer, n, columns), those of the columns from
    `whole` on interleaved (_interleaved), by a compiled loop, or None where it does not
    serve (or columns None)."""
    kept = tuple(size for i, size in enumerate(x.shape) if i not in axes)
    if 1 in x.shape:  # (dropped, as TensorIterator does: axes apart may become adjacent)
        axes = tuple(sum(size != 1 for size in x.shape[:a]) for a in axes if x.shape[a] != 1)
        x = x.reshape([size for size in x.shape if size != 1])
    shape = x.shape
    if not axes:  # (a 0-d array, or sums of one element)
        return np.add(x, 0.0, dtype=x.dtype).reshape(kept)
    first = len(axes) - 1  # the innermost group: axes[first:]
    while first and axes[first - 1] == axes[first] - 1:
        first -= 1
    lo, hi = axes[first], axes[-1] + 1
    outer, n, inner = math.prod(shape[:lo]), math.prod(shape[lo:hi]), math.prod(shape[hi:])
    if inner == 1:
        sums = (rows or inner_sum)(x.reshape(outer, n))
    elif first:
        x = x.reshape(outer, n, inner)
        sums = columns and columns(x, 0)
        if sums is None:
            sums = _interleaved(x)
    else:
        return outer_sum(x.reshape(outer, n, inner), columns).reshape(kept)
    if first:  # the other reduced axes, in order, ahead of the kept ones
        sums = np.moveaxis(sums.reshape(shape[:lo] + shape[hi:]), axes[:first], range(first))
        sums = _in_order(sums.reshape(-1, *kept), 0) + 0.0
    return sums.reshape(kept)


def _iteration_order(shape, strides, axes, dims):
    """TensorIterator's order of the axes `dims` (sizes above 1) of a sum, innermost first:
    its insertion sort by the output's strides (the reduced axes' 0 first, the kept ones
    as the output's C order), then the input's (ties and strides 0 left as they are)."""
    out = {}
    for d in reversed(dims):  # (the output's C strides, 0 for the reduced axes)
        out[d] = 0 if d in axes else math.prod(shape[k] for k in out if k not in axes)
    order = stride_order([shape[d] for d in dims], [out[d] for d in dims],
                         [strides[d] for d in dims], reduction=True)
    return [dims[k] for k in order]


def strided_sum(x, axes, strides, rows=None, columns=None):
    """cascade_sum of x (float or complex, any layout) for a tensor laid out with `strides`
    (elements, not negative): TensorIterator's order (_iteration_order) -- the kept axes
    outside, the reduced ones inside -- adjacent axes coalesced where memory runs on; its
    two innermost make ATen's 2-d loop (rows of a vector or more contiguous in memory,
    else columns so, else rows or columns by the smaller stride: interleaved sums, four
    columns at a time), the other reduced axes' sums added in iteration order.  Works on a
    C-contiguous copy in that order."""
    kept = tuple(size for i, size in enumerate(x.shape) if i not in axes)
    dims = [d for d in range(x.ndim) if x.shape[d] != 1]
    if not any(d in axes for d in dims):
        return np.add(x, 0.0, dtype=x.dtype).reshape(kept)
    memory = sorted(dims, key=lambda d: -strides[d])
    kept_in_memory = [d for d in memory if d not in axes]
    if kept_in_memory == sorted(kept_in_memory):  # (a C-contiguous tensor's order...)
        view = x.reshape([x.shape[d] for d in dims]).transpose([dims.index(d) for d in memory])
        if view.flags.c_contiguous:  # (...when the axes are only permuted in memory)
            return cascade_sum(view, tuple(i for i, d in enumerate(memory) if d in axes),
                               rows, columns).reshape(kept)
    inner_first = _iteration_order(x.shape, strides, axes, dims)
    groups = []  # [size, stride, reduced, axes] of the iteration's axes, innermost first
    for d in inner_first:
        size, stride, is_reduced = x.shape[d], strides[d], d in axes
        last = groups[-1] if groups else None
        if last and last[2] == is_reduced and last[1] * last[0] == stride:
            last[0] *= size
            last[3].insert(0, d)
        else:
            groups.append([size, stride, is_reduced, [d]])
    (size0, s0), (size1, s1) = groups[0][:2], groups[1][:2] if len(groups) > 1 else (1, 0)
    vector = max(1, VECTOR_BYTES // x.itemsize)
    # ATen's cascade_sum's 2-d loops, in its order: rows of vectors; columns of vectors, or
    # four columns at a time; rows in four interleaved sums
    kind = "rows" if s0 == 1 and size0 >= vector else "columns" if size1 > 1 and (
        s1 == 1 and size1 >= vector or s0 >= s1) else "interleaved"
    # the copy: outermost first, the columns' case with its rows outside its columns
    layout = groups[:0:-1] + groups[:1] if kind != "columns" else groups[:1:-1] + groups[:2]
    y = x.reshape([x.shape[d] for d in dims])  # (the size-1 axes dropped: a view)
    y = np.ascontiguousarray(y.transpose([dims.index(d) for g in layout for d in g[3]]))
    if kind == "rows":
        sums = (rows or inner_sum)(y.reshape(-1, size0))
    elif kind == "columns":
        sums = outer_sum(y.reshape(-1, size0, size1), columns,
                         scalar=s1 != 1 or size1 < vector)
    else:
        m = y.reshape(-1, size0, 1)
        sums = columns and columns(m, 0)
        sums = _interleaved(m)[:, 0] if sums is None else sums[:, 0]
    terms = sums.reshape(math.prod(kept), -1)
    if terms.shape[1] > 1:  # (the other reduced axes' sums, in order)
        return _in_order(terms, 1).reshape(kept) + 0.0
    return np.add(terms, 0.0, dtype=x.dtype).reshape(kept)
