"""CPU kernels: sorting, selection, scans with indices, set ops, binning.  Checks, shapes
and dtypes come from the shared rules in mindtorch._ops.decls.sorting.

Values are compared through `_key` (16-bit floats widened exactly to float32, where
NumPy's sorting and NaN tests are reliable); results are gathered from the original
array, so they keep their exact bits.  Sorting is stable: NaN sorts last ascending
and first descending, as in torch.  Where torch's index choices on equal values come from
its C++ algorithms (quickselect for kthvalue, libstdc++'s std::sort / nth_element /
partial_sort for mode, topk and sort without stable=), rows with ties replay those
algorithms (in Python, _std_algorithms.py, or compiled in _sort_loops.py for large
work).
"""
import math
import operator

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import sorting as S
from mindtorch._ops.decls.creation import _empty_like

from .._np import arr, wrap
from . import _jit
from ._jit import compiled
from ._std_algorithms import _nth_element, _partial_sort, _std_sort
from ._topk import top_positions

_I64 = D.int64
_HALVES = (D.float16, D.bfloat16)


def _key(t, a):
    return a.astype(np.float32) if t.dtype in _HALVES else a


def _nan(t, k):
    """Where k (the key of tensor t) is NaN; None for dtypes without NaN."""
    return np.isnan(k) if t.dtype.kind == "f" else None


def _order(k, axis, descending):
    """Stable argsort along axis; descending keeps equal values in index order."""
    if not descending:
        return np.argsort(k, axis=axis, kind="stable")
    n = k.shape[axis]
    return (n - 1) - np.flip(np.argsort(np.flip(k, axis), axis=axis, kind="stable"), axis)


def _scalar_result(t, a):
    """sort/topk/kthvalue/median/mode of a 0-dim tensor: itself, at index 0."""
    return wrap(a.copy(), t.dtype), wrap(np.zeros((), np.int64), _I64)


def _pick(rows, index, dim, keepdim):
    """Values of rows (reduced dim last) at index (one per row), shaped as the reduction's
    result (the reduced dim restored at `dim` when keepdim)."""
    values = np.take_along_axis(rows, index[..., None], -1)[..., 0]
    if keepdim:
        values, index = np.expand_dims(values, dim), np.expand_dims(index, dim)
    return values, index


def _reduced_result(t, values, index):
    return wrap(np.array(values), t.dtype), wrap(np.array(index, np.int64), _I64)


# -- sort / topk ------------------------------------------------------------------------

def sort(self, dim=-1, descending=False, stable=None):
    S.check_sort(self)
    a = arr(self)
    if not self.ndim:
        return _scalar_result(self, a)
    key = _key(self, a)
    idx = _order(key, dim, descending)
    values = np.take_along_axis(a, idx, dim)
    if not stable and a.shape[dim] > 16 and not _radix_sorted(self, descending) and \
            _replay_ties(self, key, idx, dim, sorted_key=values if key is a else None):
        values = np.take_along_axis(a, idx, dim)  # (equal values' bits: -0.0 / 0.0, NaNs)
    if self.is_contiguous():
        return wrap(values, self.dtype), wrap(idx, _I64)
    # PyTorch's results are laid out like the input (empty_like)
    out, out_idx = _empty_like(self), _empty_like(self, _I64)
    np.copyto(arr(out), values)
    np.copyto(arr(out_idx), idx)
    return out, out_idx


def _radix_sorted(t, descending):
    """Whether torch's CPU sort takes its (stable) radix sort: ascending 1-d integer
    tensors of at least 32768 elements (at::internal::GRAIN_SIZE)."""
    return not descending and t.ndim == 1 and t.dtype.kind in "iu" and t.numel() >= 32768


def _replay_ties(t, key, idx, dim, compile_from=1024, sorted_key=None):
    """torch's non-stable CPU sort is libstdc++'s std::sort of (value, index) pairs, which
    keeps equal values in index order only for rows of up to 16.  Longer rows with equal
    values get their order (written into idx) from a replay of that sort on each
    element's rank in the stable order, so NaN and descending need no comparator of
    their own; compiled from `compile_from` replayed elements.  sorted_key: key in idx's
    order, if the caller has it.  Whether any row was replayed."""
    order = np.moveaxis(idx, dim, -1)
    n = order.shape[-1]
    s = np.moveaxis(sorted_key, dim, -1) if sorted_key is not None else \
        np.take_along_axis(np.moveaxis(key, dim, -1), order, -1)
    same = s[..., 1:] == s[..., :-1]
    if t.dtype.kind == "f" and (np.isnan(s[..., 0]).any() or np.isnan(s[..., -1]).any()):
        same |= np.isnan(s[..., 1:]) & np.isnan(s[..., :-1])  # (sorted: NaNs at an end)
    same = same.reshape(-1, n - 1)
    tied = np.flatnonzero(same.any(-1))
    if not tied.size:
        return False
    rows = order.reshape(-1, n)
    rank = np.empty((tied.size, n), np.int64)
    np.put_along_axis(rank, rows[tied], np.concatenate(
        (np.zeros((tied.size, 1), np.int64), np.cumsum(~same[tied], axis=1)), axis=1), 1)
    jit = _jit.loaded("_sort_loops") or compiled(
        "_sort_loops", rank.size * _jit.MIN_SIZE // compile_from)  # (Python: ~3 us an element)
    if jit:
        jit.sort_rows(rank, rank)  # (each row is read before it is overwritten)
        rows[tied] = rank
    for r, key_row in zip(tied, rank.tolist() if not jit else ()):
        v = list(zip(key_row, range(n)))
        _std_sort(v, 0, n, operator.lt)
        rows[r] = [i for _, i in v]
    order[...] = rows.reshape(order.shape)
    return True


def topk(self, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest) along dim, NaN counting as the largest.  Where equal values
    make the choice or order of indices torch's algorithm's (std::partial_sort, or
    std::nth_element then std::sort), that algorithm is replayed on the row; sorted=False
    returns the same choice, sorted too (torch's order is unspecified then)."""
    S.topk_shape(self, k, dim)
    a = arr(self)
    if not self.ndim:
        return _scalar_result(self, a)
    _, key = _rows(self, dim)
    fast = top_positions(key, k, largest)  # (large float32: one compiled pass per row)
    order = _top(key, k, largest) if fast is None else fast[0]
    if k:  # (sorted or not: equal values at the k-th make the choice torch's)
        if fast is not None:
            tied = fast[1]
        else:
            chosen = np.take_along_axis(key, order, -1)
            tied = _equal(self, chosen[..., 1:], chosen[..., :-1]).any(-1) | (
                _equal(self, key, chosen[..., -1:]).sum(-1) >
                _equal(self, chosen, chosen[..., -1:]).sum(-1))
        if tied.any():
            flat_key, flat_order = key.reshape(-1, key.shape[-1]), order.reshape(-1, k)
            for r in np.flatnonzero(tied.reshape(-1)):
                flat_order[r] = _torch_topk(flat_key[r].tolist(), k, largest)
            order = flat_order.reshape(order.shape)
    idx = np.ascontiguousarray(np.moveaxis(order, -1, dim))
    return wrap(np.take_along_axis(a, idx, dim), self.dtype), wrap(idx, _I64)


def _top(key, k, largest):
    """Positions of the k largest (smallest) keys of each row, in sorted order, equal keys
    in index order.  Few of many: a partition, then a sort of those k only."""
    n = key.shape[-1]
    if not 0 < 4 * k < n:
        return _order(key, -1, largest)[..., :k]
    part = np.argpartition(key, n - k if largest else k - 1, axis=-1)
    chosen = part[..., n - k:] if largest else part[..., :k]
    chosen.sort(-1)  # (index order first, so the stable sort keeps it among equal keys)
    return np.take_along_axis(
        chosen, _order(np.take_along_axis(key, chosen, -1), -1, largest), -1)


def _equal(t, x, y):
    """x == y, NaN equal to NaN (as equivalent elements under torch's comparators)."""
    eq = x == y
    return eq | (np.isnan(x) & np.isnan(y)) if t.dtype.kind == "f" else eq


_isnan = math.isnan


def _greater(x, y):  # NaN the greatest
    return (_isnan(x) and not _isnan(y)) or x > y


def _smaller(x, y):
    return (not _isnan(x) and _isnan(y)) or x < y


def _torch_topk(values, k, largest):
    """The indices torch's CPU topk (sorted=True) returns for one row."""
    v, n = [(x, i) for i, x in enumerate(values)], len(values)
    if any(map(_isnan, values)):
        less = _greater if largest else _smaller
    else:  # (the same order without NaN, compared in C)
        less = operator.gt if largest else operator.lt
    if k * 64 <= n:
        _partial_sort(v, 0, k, n, less)
    else:
        _nth_element(v, 0, k - 1, n, less)
        _std_sort(v, 0, k - 1, less)  # (the k-th is in place already)
    return [i for _, i in v[:k]]


def _torch_mode_index(values):
    """The index torch's CPU mode returns for one row: std::sort by value, then the last
    element of the first longest run (NaN never equal, so each NaN is a run)."""
    v, n = [(x, i) for i, x in enumerate(values)], len(values)
    _std_sort(v, 0, n, operator.lt)
    best = freq = index = 0
    for i in range(n):
        freq += 1
        if i == n - 1 or v[i][0] != v[i + 1][0]:
            if freq > best:
                best, index = freq, v[i][1]
            freq = 0
    return index


# -- kthvalue / median / mode -----------------------------------------------------------

def _rows(t, dim):
    """(original rows, key rows) with the reduced dim last."""
    rows = np.moveaxis(arr(t), dim, -1)
    return rows, _key(t, rows)


def _torch_quickselect(values, k):
    """The original index that torch's CPU kthvalue (quick_select_template: median of three
    pivot, Hoare partition, NaN greatest) leaves at position k; only needed where the
    k-th value has ties, which that algorithm breaks its own way."""
    n = len(values)
    vals, idx = list(values), list(range(n))

    gt = _greater

    def swap(i, j):
        vals[i], vals[j] = vals[j], vals[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, n - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(vals[lo], vals[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)
        if gt(vals[lo + 1], vals[hi]):
            swap(lo + 1, hi)
        if gt(vals[lo], vals[hi]):
            swap(lo, hi)
        if gt(vals[lo + 1], vals[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, vals[lo]
        while True:
            i += 1
            while gt(pivot, vals[i]):
                i += 1
            j -= 1
            while gt(vals[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


def kthvalue(self, k, dim=-1, keepdim=False):
    S.kthvalue_shape(self, k, dim, keepdim)
    if not self.ndim:
        return _scalar_result(self, arr(self))
    rows, key = _rows(self, dim)
    # (any index of the k-th value serves where it is unique: rows with ties replay below)
    index = np.argpartition(key, k - 1, axis=-1)[..., k - 1]
    kth = np.take_along_axis(key, index[..., None], -1)
    same = key == kth
    nan = _nan(self, key)
    if nan is not None:
        same |= nan & np.isnan(kth)
    tied = same.sum(-1) > 1
    if tied.any():
        flat_key, flat_index = key.reshape(-1, key.shape[-1]), index.reshape(-1)
        for r in np.flatnonzero(tied.reshape(-1)):
            flat_index[r] = _torch_quickselect(flat_key[r].tolist(), k - 1)
        index = flat_index.reshape(index.shape)
    return _reduced_result(self, *_pick(rows, index, dim, keepdim))


def _median_dim(ignore_nan):
    """The ((n - 1) // 2)-th element in (value, index) order -- torch's nth_element with
    that comparator; median picks the first NaN of a row with NaN, nanmedian skips them."""
    name = "nanmedian" if ignore_nan else "median"

    def kernel(self, dim, keepdim=False):
        S.median_dim_shape(name, self, dim, keepdim)
        if not self.ndim:
            return _scalar_result(self, arr(self))
        rows, key = _rows(self, dim)
        n = key.shape[-1]
        order = np.argsort(key, axis=-1, kind="stable")
        nan = _nan(self, key)
        count = n - (nan.sum(-1) if ignore_nan and nan is not None else 0)
        position = np.broadcast_to(np.maximum(count - 1, 0) // 2, order.shape[:-1])
        index = np.take_along_axis(order, position[..., None], -1)[..., 0]
        if nan is not None and not ignore_nan:
            index = np.where(nan.any(-1), np.argmax(nan, -1), index)
        elif nan is not None:  # rows of NaN only: where nth_element leaves equal elements
            index = np.where(nan.all(-1), _nth_element_of_equals(n), index)
        return _reduced_result(self, *_pick(rows, index, dim, keepdim))
    return kernel


def _nth_element_of_equals(n):
    """The original index libstdc++'s std::nth_element (introselect) puts first among n
    mutually equivalent elements: each round moves the middle element to the front and
    swaps the rest pairwise from both ends; insertion sort then moves nothing."""
    idx = list(range(n))
    first, last, depth = 0, n, 2 * (n.bit_length() - 1)
    while last - first > 3 and depth:
        depth -= 1
        mid = first + (last - first) // 2
        idx[first], idx[mid] = idx[mid], idx[first]
        lo, hi = first + 1, last
        while True:
            hi -= 1
            if not lo < hi:
                break
            idx[lo], idx[hi] = idx[hi], idx[lo]
            lo += 1
        last = lo  # the cut is past position 0, so the search continues to its left
    return idx[0]


def _median(ignore_nan):
    """The lower median of every element (NaN if any is NaN, for median)."""
    def kernel(self):
        S.check_median(self)
        a = arr(self).reshape(-1)
        key = _key(self, a)
        nan = _nan(self, key)
        if nan is not None:
            if ignore_nan:
                key = key[~nan]
            elif nan.any():
                key = key[:0]
        if not key.size:  # nothing to take the median of: NaN, converted as C++ does
            # for integers (to the lowest int64 / int32, then truncated)
            fill = math.nan if self.dtype.kind in "fc" else \
                np.iinfo(np.int64 if self.dtype.itemsize == 8 else np.int32).min
            return wrap(np.array(fill).astype(self.dtype.np), self.dtype)
        m = (key.size - 1) // 2
        return wrap(np.array(np.partition(key, m)[m]).astype(self.dtype.np), self.dtype)
    return kernel


def mode(self, dim=-1, keepdim=False):
    """The most frequent value (the smallest of equally frequent ones) and the index torch
    finds it at: the last of its run after std::sort, which keeps equal values in index
    order for rows up to 16 elements; longer rows whose mode repeats, and rows with NaN,
    replay that sort (compiled, kernels/_sort_loops.py, for a few thousand elements or
    more; once loaded, for every row)."""
    S.mode_shape(self, dim, keepdim)
    if not self.ndim:
        return _scalar_result(self, arr(self))
    rows, key = _rows(self, dim)
    lead, n = key.shape[:-1], key.shape[-1]
    key = key.reshape(-1, n)
    m = key.shape[0]
    jit = _jit.loaded("_sort_loops")
    if m and n and jit:  # loaded: std::sort's replay, every row
        index = np.empty(m, np.int64)
        jit.mode_index(np.ascontiguousarray(key), np.arange(m), index)
        return _reduced_result(self, *_pick(rows, index.reshape(lead), dim, keepdim))
    order = np.argsort(key, axis=-1, kind="stable")
    s = np.take_along_axis(key, order, -1)
    new = np.ones((m, n), bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    run = np.cumsum(new, axis=1) - 1
    counts = np.bincount((run + np.arange(m)[:, None] * n).reshape(-1),
                         minlength=m * n).reshape(m, n)
    best = np.argmax(counts, axis=1)
    last = n - 1 - np.argmax((run == best[:, None])[:, ::-1], axis=1)
    index = order[np.arange(m), last]
    replay = (counts.max(axis=1, initial=0) > 1) & (n > 16)
    nan = _nan(self, key)
    if nan is not None:
        replay |= nan.any(axis=1)
    rows_replayed = np.flatnonzero(replay)
    # (Python's replay costs ~1 us an element: numba's loading pays off from a few thousand)
    jit = compiled("_sort_loops", 16 * rows_replayed.size * n) if rows_replayed.size else None
    if jit is not None:
        jit.mode_index(np.ascontiguousarray(key), rows_replayed, index)
    for r in rows_replayed if jit is None else ():
        index[r] = _torch_mode_index(key[r].tolist())
    return _reduced_result(self, *_pick(rows, index.reshape(lead), dim, keepdim))


# -- scans ------------------------------------------------------------------------------

def _cumulative(name, accumulate):
    """cummax/cummin: the running extreme and the index it came from -- the latest index
    among equal values, and each NaN once seen (torch's `>=` / `<=` update rule)."""
    def kernel(self, dim):
        S.check_cumulative(name, self)
        a = arr(self)
        if not self.ndim or not a.size:
            return wrap(a.copy(), self.dtype), wrap(np.zeros(a.shape, np.int64), _I64)
        key = _key(self, a)
        hit = key == accumulate(key, axis=dim)
        nan = _nan(self, key)
        if nan is not None:
            hit |= nan
        positions = np.arange(a.shape[dim]).reshape((-1,) + (1,) * (a.ndim - dim - 1))
        idx = np.maximum.accumulate(np.where(hit, positions, 0), axis=dim)
        values = np.ascontiguousarray(np.take_along_axis(a, idx, dim))  # (as PyTorch)
        return wrap(values, self.dtype), wrap(np.ascontiguousarray(idx), _I64)
    return kernel


def logcumsumexp(self, dim):
    S.check_cumulative("logcumsumexp", self)
    a = arr(self)
    if not self.ndim:
        return wrap(a.copy(), self.dtype)
    with np.errstate(all="ignore"):
        if self.dtype.is_complex:
            r = _complex_logcumsumexp(a, dim)
        else:
            r = np.logaddexp.accumulate(_key(self, a), axis=dim)
        # (a contiguous result, as PyTorch's kernel allocates it)
        return wrap(np.ascontiguousarray(np.asarray(r).astype(self.dtype.np)), self.dtype)


def _complex_logcumsumexp(a, dim):
    """log(exp(acc) + exp(x)) step by step, shifted by the operand of larger real part."""
    x = np.moveaxis(a, dim, 0)
    out = np.empty(x.shape, x.dtype)
    if x.shape[0]:
        acc = out[0] = x[0]
        for i in range(1, x.shape[0]):
            first = acc.real >= x[i].real
            big, small = np.where(first, acc, x[i]), np.where(first, x[i], acc)
            acc = out[i] = big + np.log1p(np.exp(small - big))
    return np.moveaxis(out, 0, dim)


# -- searchsorted / histograms / bincount / isin ----------------------------------------

def _in(x, dtype):
    """x (tensor or number) as a numpy array converted to dtype, 16-bit floats widened."""
    a = arr(x) if hasattr(x, "_shape") else np.asarray(x)
    a = a.astype(dtype.np)
    return a.astype(np.float32) if dtype in _HALVES else a


_SORTED_ROWS = 64  # (more rows of boundaries: the vectorised search below, one pass a step)


def searchsorted(sorted_sequence, self, out_int32=False, right=False, side=None, sorter=None):
    """Binary search with torch's comparisons (`!(mid >= v)` / `!(mid > v)`), vectorised
    over every value: NaN in either operand moves the search right, as in torch."""
    shape, out, right, common = S.searchsorted_plan(sorted_sequence, self, out_int32, right,
                                                    side, sorter)
    b, v = _in(sorted_sequence, common), _in(self, common)
    n = b.shape[-1]
    if sorter is not None:
        order = arr(sorter)
        if order.size and (order.min() < 0 or order.max() >= n):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        b = np.take_along_axis(b, order, -1)
    if b.ndim == 1:
        b, v = b.reshape(1, n), v.reshape(1, -1)
    else:  # one row of boundaries per row of values
        rows = math.prod(b.shape[:-1])
        b, v = b.reshape(rows, n), v.reshape(rows, v.shape[-1])
    if b.shape[0] <= _SORTED_ROWS and not (b.dtype.kind == "f" and np.isnan(b).any()) \
            and (b[:, 1:] >= b[:, :-1]).all():
        # sorted rows without NaN: every binary search finds the same bound, NumPy's too
        # (its NaN values sort last: past every boundary, as torch's comparisons put them)
        side = "right" if right else "left"
        start = np.stack([np.searchsorted(br, vr, side) for br, vr in zip(b, v)])
        return wrap(start.reshape(shape).astype(out.np), out)
    start = np.zeros(v.shape, np.int64)
    end = np.full(v.shape, n, np.int64)
    rows = np.arange(b.shape[0])[:, None]
    active = start < end
    while active.any():
        mid = start + ((end - start) >> 1)
        at = b[rows, np.minimum(mid, n - 1)]
        go_right = ~(at > v) if right else ~(at >= v)
        start = np.where(active & go_right, mid + 1, start)
        end = np.where(active & ~go_right, mid, end)
        active = start < end
    return wrap(start.reshape(shape).astype(out.np), out)


def histc(self, bins=100, min=0, max=0):
    """torch's histc: bins of equal width over [min, max] (the data's range when min ==
    max), each element's bin computed in the input's dtype as
    (x - lo) * bins / (hi - lo), truncated; the last bin includes hi."""
    from_data = S.histc_range(self, bins, min, max)
    a = arr(self).reshape(-1)
    lo, hi = float(min), float(max)
    if from_data:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if from_data:
        S.check_histc_range(lo, hi, True)
    t = a.dtype.type
    return wrap(_linear_bins(a, t(lo), t(hi), bins, None).astype(a.dtype), self.dtype)


def _upper_bound(seq, v):
    """std::upper_bound of each of v in seq with its comparisons (`v < seq[mid]`), so that
    NaN or unsorted edges put values where PyTorch's histogram does."""
    first = np.zeros(v.shape, np.int64)
    length = np.full(v.shape, seq.size, np.int64)
    while (length > 0).any():
        half = length >> 1
        mid = first + half
        left = v < seq[np.minimum(mid, seq.size - 1)]
        right = (length > 0) & ~left
        first = np.where(right, mid + 1, first)
        length = np.where(right, length - half - 1, np.where(length > 0, half, 0))
    return first


def _linear_bins(a, lo, hi, bins, edges, weights=None):
    """Counts (or summed weights) of a's elements in `bins` equal bins over [lo, hi];
    with `edges`, a bin found by division is corrected against its neighbours' edges
    (torch.histogram's local search)."""
    keep = (a >= lo) & (a <= hi)
    x = a[keep]
    with np.errstate(all="ignore"):
        pos = ((x - lo) * a.dtype.type(bins) / (hi - lo)).astype(np.int64)
    pos = np.clip(pos, 0, bins)
    if edges is not None:
        first = np.maximum(pos - 1, 0)
        count = np.zeros(pos.shape, np.int64)
        for step in range(3):  # upper_bound over edges[pos - 1 : pos + 2]
            j = first + step
            inside = j < np.minimum(pos + 2, bins + 1)
            count += inside & (edges[np.minimum(j, bins)] <= x)
        pos = first + count - 1
    pos = np.minimum(pos, bins - 1)
    w = None if weights is None else weights[keep].astype(np.float64)
    return np.bincount(pos, weights=w, minlength=bins)[:bins]


def histogram(self, bins=100, range=None, weight=None, density=False):
    """torch.histogram: (hist, bin_edges); integer bins span `range` (the data's range,
    widened by 0.5 each side when it is a single value), tensor bins are the edges."""
    from .creation import linspace
    nbins, given = S.histogram_plan(self, bins, range, weight)
    a = arr(self).reshape(-1)
    w = None if weight is None else arr(weight).reshape(-1)
    if given:
        edges = arr(bins).copy()
        if nbins:
            keep = (a >= edges[0]) & (a <= edges[-1])
            pos = np.minimum(_upper_bound(_key(self, edges), _key(self, a[keep])) - 1,
                             nbins - 1)
            hist = np.bincount(pos, weights=None if w is None else w[keep].astype(np.float64),
                               minlength=nbins)[:nbins]
        else:
            hist = np.zeros(0)
    else:
        if range is not None:
            lo, hi = range
        elif a.size:
            lo, hi = float(a.min()), float(a.max())
        else:
            lo, hi = 0.0, 1.0
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{S._num(lo)}, "
                               f"{S._num(hi)}] is not finite")
        edges = arr(linspace(lo, hi, nbins + 1, self.dtype))
        hist = _linear_bins(a, edges[0], edges[-1], nbins, edges, w)
    hist = hist.astype(a.dtype)
    if density:
        with np.errstate(all="ignore"):
            hist = (hist / a.dtype.type(hist.sum(dtype=np.float64))) / np.diff(edges)
    return wrap(hist.astype(a.dtype), self.dtype), wrap(edges.astype(a.dtype), self.dtype)


def bincount(self, weights=None, minlength=0):
    out = S.bincount_dtype(self, weights, minlength)
    a = arr(self)
    if not a.size:
        return wrap(np.zeros(minlength, np.int64), out)
    if a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None
    if weights is not None:
        w = arr(weights)
        w = (w.real if w.dtype.kind == "c" else w).astype(np.float64)
    return wrap(np.bincount(a, weights=w, minlength=minlength).astype(out.np), out)


def isin(elements, test_elements, assume_unique=False, invert=False):
    shape, common = S.isin_plan(elements, test_elements)
    found = np.isin(_in(elements, common), _in(test_elements, common).reshape(-1),
                    invert=invert)
    return wrap(np.asarray(found).reshape(shape), D.bool)


# -- unique -----------------------------------------------------------------------------

def _groups(t, dim, consecutive):
    """(original rows, order, first-of-group mask) of t's elements (dim None) or of its
    slices along dim: sorted stably unless consecutive; NaNs never equal each other."""
    a = arr(t)
    rows = a.reshape(-1) if dim is None else np.moveaxis(a, dim, 0)
    n = rows.shape[0]
    key = _key(t, rows.reshape(n, math.prod(rows.shape[1:])))
    if consecutive:
        order = np.arange(n)
    elif dim is not None and n and t.dtype.kind == "f" and np.isnan(key).any():
        # (PyTorch std::sorts the slices lexicographically by < and >, NaN neither: replayed)
        v = [(tuple(row), i) for i, row in enumerate(key.tolist())]
        _std_sort(v, 0, n, _lexicographic_less)
        order = np.array([i for _, i in v], np.int64)
    elif key.shape[1] == 1 or not n:
        order = np.argsort(key[:, 0] if n else key.reshape(0), kind="stable")
        if dim is None and n > 16 and t.dtype.kind == "f" and np.isnan(key).sum() > 1:
            # (each NaN is its own group, numbered in the order of torch's unstable sort)
            _replay_ties(t, key[:, 0], order, 0)
    else:
        order = np.lexsort(key.T[::-1])  # first column most significant; stable
    s = key[order]
    first = np.ones(n, bool)
    first[1:] = (s[1:] != s[:-1]).any(axis=1)
    return rows, order, first


def _lexicographic_less(x, y):  # (the first pair with a < b or a > b decides; NaN never)
    return next((a < b for a, b in zip(x, y) if a < b or a > b), False)


def _unique(t, dim, consecutive):
    rows, order, first = _groups(t, dim, consecutive)
    n = rows.shape[0]
    values = np.ascontiguousarray(rows[order[first]])
    if dim is not None:  # (PyTorch's layout: dim moved back from the front, not contiguous)
        values = np.moveaxis(values, 0, dim)
    inverse = np.empty(n, np.int64)
    inverse[order] = np.cumsum(first) - 1
    counts = np.diff(np.append(np.flatnonzero(first), n))
    return (wrap(values, t.dtype),
            wrap(inverse.reshape(t._shape if dim is None else (n,)), _I64),
            wrap(counts.astype(np.int64), _I64))


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Always sorted, as torch's CPU unique is, whatever `sorted` says."""
    S.check_unique(self, dim)
    return _unique(self, dim, False)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    S.check_unique(self, dim)
    return _unique(self, dim, True)


KERNELS = {
    "sort": sort, "topk": topk, "kthvalue": kthvalue,
    "median": _median(False), "nanmedian": _median(True),
    "_median_dim": _median_dim(False), "_nanmedian_dim": _median_dim(True),
    "mode": mode,
    "cummax": _cumulative("cummax", np.maximum.accumulate),
    "cummin": _cumulative("cummin", np.minimum.accumulate),
    "logcumsumexp": logcumsumexp,
    "searchsorted": searchsorted, "histc": histc, "histogram": histogram,
    "bincount": bincount, "isin": isin,
    "unique": unique, "unique_consecutive": unique_consecutive,
}
