"""Kernels of the index updates that core declares as decompositions over index_put_
(index_add, index_copy, index_reduce, put, masked_scatter): the same checks (core's, with
the bounds read here from the index array) and the same results, in a few NumPy calls.

Accumulations run through one ufunc.at over flat positions of a contiguous array: NumPy's
fast path for a 1-D index, ~10x faster than ufunc.at with a tuple of coordinate arrays,
and sequential in index order, as PyTorch's cpu loops (so the same roundings).  Sums
along a dim (index_add, index_put_'s accumulate) go in rounds of whole-slice adds instead
where rows repeat few times (add_in_rounds): the same sums, ~10x faster."""
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import index_update as U
from mindtorch._ops.decls import indexing as I
from mindtorch._ops.registry import OPS

from .._np import arr, cast, wrap

_HALVES = (D.float16, D.bfloat16)
_UFUNCS = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum,
           "amin": np.minimum}


def out_of_range(index, size, negative_ok=False):
    """The first index value outside [0, size) ([-size, size) with negative_ok), or None
    (core's bounds check, on the array)."""
    a = arr(index)
    if a.size == 0:
        return None
    low = -size if negative_ok else 0
    if a.min() >= low and a.max() < size:
        return None
    return int(a[(a < low) | (a >= size)].flat[0])


class Flat:
    """A contiguous 1-D array over `a`'s elements in row-major order: `a`'s own memory when
    it is C-contiguous, else a copy that `done()` writes back."""

    def __init__(self, a):
        self.a, self.copied = a, not a.flags.c_contiguous
        self.flat = a.flatten() if self.copied else a.reshape(-1)

    def done(self):
        if self.copied:
            self.a[...] = self.flat.reshape(self.a.shape)


def along_positions(shape, dim, idx):
    """Flat row-major positions in an array of `shape` of the elements that a source
    (shape with shape[dim] -> len(idx)) addresses along dim through idx, in the source's
    row-major order."""
    outer, inner = math.prod(shape[:dim]), math.prod(shape[dim + 1:])
    idx = idx.astype(np.int64, copy=False)
    if outer == 1 and inner == 1:
        return idx
    pos = (idx * inner)[:, None] + np.arange(inner)
    if outer > 1:
        pos = np.arange(0, outer * shape[dim] * inner, shape[dim] * inner)[:, None, None] + pos
    return pos.reshape(-1)


def identity(reduce, dtype):
    """The value reduced positions start from when include_self=False."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f" or dtype.kind == "c":
        return -np.inf if reduce == "amax" else np.inf
    if dtype is D.bool:
        return reduce == "amin"
    info = np.iinfo(dtype.np)
    return info.min if reduce == "amax" else info.max


def reduce_at(flat, pos, vals, reduce, include_self, dtype, opmath=False):
    """flat[pos[i]] = reduce(flat[pos[i]], vals[i]) in order, scatter_reduce's semantics
    (include_self=False: the positions start from the reduction's identity; mean divides
    the sum by the count of values, plus one with include_self, in self's dtype, flooring
    integers).  opmath: float16 / bfloat16 accumulate in float32 and round once, as
    PyTorch's scatter loops (its index_reduce and put round every step)."""
    if not include_self:
        flat[pos] = identity(reduce, dtype)
    wide = opmath and dtype in _HALVES and reduce != "amax" and reduce != "amin"
    acc = flat.astype(np.float32) if wide else flat
    if reduce != "mean":
        _UFUNCS[reduce].at(acc, pos, vals)
    else:
        acc = acc if wide else acc.copy()
        np.add.at(acc, pos, vals)
        count = np.bincount(pos, minlength=flat.size) + (1 if include_self else 0)
        # (positions nothing was scattered to keep their value)
        count = np.maximum(count, 1).astype(flat.dtype)
        with np.errstate(all="ignore"):
            acc = (np.floor_divide if dtype.kind in "ui" else np.divide)(
                acc.astype(flat.dtype, copy=False), count)
    if acc is not flat:
        flat[...] = acc  # (a value nothing reduced into is unchanged by the round trip)


def scatter_positions(shape, dim, idx):
    """Flat row-major positions in an array of `shape` (C-contiguous) of gather/scatter's
    addressing: (i0, .., idx[i], .., in) for every position i of idx, in idx's row-major
    order."""
    strides = np.cumprod((shape[1:] + (1,))[::-1], dtype=np.int64)[::-1]
    pos = idx.astype(np.int64) * strides[dim]
    for d, n in enumerate(idx.shape):
        if d != dim and n > 1:
            pos += (np.arange(n, dtype=np.int64) * strides[d]).reshape(
                (n,) + (1,) * (idx.ndim - d - 1))
    return pos.reshape(-1)


_ROWS_MIN = 512  # (below it np.add.at is as fast)


# A round of whole-slice adds costs ~15 us more than its elements: rounds pay from about
# this many elements a round against ufunc.at over coordinate arrays (~5 ns an element)
# and against ufunc.at over flat positions (NumPy's fast path, ~1 ns an element)
PER_ROUND_COORDINATES = 1 << 12
PER_ROUND_FLAT = 1 << 14


def occurrence_rounds(rows, elements, per_round=PER_ROUND_COORDINATES):
    """The positions i of `rows` (1-D, wrapped to >= 0) split into rounds: round r holds
    every row's r-th occurrence in index order, so no round repeats a row; a slice for
    a single round.  None when rows repeat so often that the rounds (at `elements`
    elements in all, `per_round` paying for one round) would cost more than ufunc.at."""
    if rows.size <= 1:
        return [slice(None)]
    count = int(np.bincount(rows).max())
    if count == 1:
        return [slice(None)]
    if count > max(4, elements // per_round):
        return None
    order = np.argsort(rows, kind="stable")
    ranked = rows[order]
    first = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
    rank = np.empty(rows.size, np.int64)
    rank[order] = np.arange(rows.size) - np.repeat(first, np.diff(np.append(first, rows.size)))
    return [np.flatnonzero(rank == r) for r in range(count)]


def add_in_rounds(a3, rows, v3, per_round=PER_ROUND_COORDINATES):
    """a3[:, rows[i]] += v3[:, i] for every i in index order: ufunc.at's sums (each
    element's terms added to it one by one, in index order, one rounding each) as a few
    whole-slice adds, a round per repeat of a row (occurrence_rounds).  a3 (outer, n,
    inner) is written in place; rows are wrapped (>= 0).  False (nothing written) when
    ufunc.at is the cheaper."""
    rounds = occurrence_rounds(rows, v3.size, per_round)
    if rounds is None:
        return False
    for positions in rounds:
        a3[:, rows[positions]] += v3[:, positions]
    return True


def add_along(acc, dim, idx, v):
    """acc (C-contiguous, >= 1-D) [.., idx[i], ..] += v (source's elements, row-major)
    along dim, in index order (add_in_rounds); False when it declines (also below
    64K elements, where ranking the rows costs about what it saves against ufunc.at over
    flat positions)."""
    if v.size < 1 << 16:
        return False
    shape = acc.shape
    outer, inner = math.prod(shape[:dim]), math.prod(shape[dim + 1:])
    if v.dtype != acc.dtype and not np.can_cast(v.dtype, acc.dtype, "same_kind"):
        return False
    return add_in_rounds(acc.reshape(outer, shape[dim], inner), idx.astype(np.int64, copy=False),
                         v.reshape(outer, idx.size, inner), PER_ROUND_FLAT)




def add_rows(a, key, v):
    """a[k[i]] += v[i] over whole rows (index_add along dim 0, sparse @ dense, embedding
    backward) as one sparse product, the sums np.add.at does (~10x faster at 10^5 rows): row
    r of [I | S] @ [a; v] starts from a's row, then adds its rows of v in index order, one
    rounding each. False when the case is not that one."""
    k = key[0]
    if len(key) > 1 and any(not isinstance(x, slice) or x != slice(None) for x in key[1:]) \
            or isinstance(k, slice) or k.ndim != 1 or k.size < _ROWS_MIN or a.ndim < 2 or \
            a.dtype.kind != "f" or a.dtype.itemsize < 4:
        return False
    try:
        import scipy.sparse as sp
    except ImportError:
        return False
    n, m = a.shape[0], k.size
    k = np.where(k < 0, k + n, k)
    if _add_rows_in_rounds(a, k, v):
        return True
    rows = np.concatenate([np.arange(n), k])
    cols = np.arange(n + m)
    product = sp.csr_matrix((np.ones(n + m, a.dtype), (rows, cols)), shape=(n, n + m))
    flat = a.reshape(n, -1)
    total = product @ np.concatenate([flat, v.reshape(m, -1)])
    touched = np.zeros(n, bool)
    touched[k] = True  # (untouched rows keep their value, a -0.0 too)
    flat[touched] = total[touched]
    if not np.shares_memory(flat, a):
        a[...] = flat.reshape(a.shape)
    return True


def _add_rows_in_rounds(a, k, v):
    """add_rows' sums by add_in_rounds where rows repeat few times (an embedding's
    gradient over a large vocabulary: several times faster), made alike to the last bit: the
    product's sums start from +0.0, so a touched element whose terms are all -0.0 comes
    out +0.0 (x + 0.0 gives exactly that, and leaves every other value as it is).  Only
    for tables of over twice as many rows as indices (the product also copies every
    untouched row: a vocabulary's; below, about as fast as the rounds)."""
    if a.shape[0] < 2 * k.size:
        return False
    flat = a.reshape(a.shape[0], -1)
    if not add_in_rounds(flat[None], k, v.reshape(1, k.size, -1)):
        return False
    touched = np.unique(k)
    flat[touched] += 0.0
    if not np.shares_memory(flat, a):
        a[...] = flat.reshape(a.shape)
    return True


def _source(source):
    """source's elements in row-major order, 1-D."""
    return np.ascontiguousarray(arr(source)).reshape(-1)


def _copy(self, order="C"):
    """A fresh copy of self to update: contiguous, as PyTorch's index_add / index_copy /
    index_reduce allocate theirs (put keeps self's layout: order "K")."""
    return wrap(arr(self).copy(order=order), self.dtype)


# -- index_add / index_copy / index_reduce: along one dim ------------------------------------

def index_add_(self, dim, index, source, alpha=1):
    """PyTorch's cpu paths, in index order: a >1-D self along its first or last dim with
    alpha 1 and an int64 index goes through index_put_ (float16 / bfloat16 summed in
    float32, rounded once); else every addition rounds to self's dtype (float16 /
    bfloat16: alpha and its product with source too)."""
    if not U.check_index_add_call(self, dim, index, source, alpha, out_of_range):
        return self
    a = arr(self)
    target = Flat(a)
    idx = arr(index).reshape(-1)
    one = type(alpha) is not bool and alpha == 1
    if not one and self.dtype in _HALVES:
        v = (cast(alpha, a.dtype).astype(np.float32) * _source(source).astype(np.float32))
        np.add.at(target.flat, along_positions(a.shape or (1,), dim, idx), v.astype(a.dtype))
    elif not one and self.dtype is D.float32 and self.ndim > 1:
        # PyTorch's slices add alpha * source with a fused multiply-add: the products exact
        # in float64, each sum rounded to float32 as ufunc.at casts it back
        v = np.float64(np.float32(alpha)) * _source(source).astype(np.float64)
        np.add.at(target.flat, along_positions(a.shape, dim, idx), v)
    else:
        if not one and self.dtype is not D.bool:
            # (the product rounded in self's dtype, then added: PyTorch fuses the two for
            # float64 slices, so those may differ in the last bit)
            source = OPS["mul"].call(source, int(alpha) if self.dtype.kind in "ui" else alpha)
        put_path = self.ndim > 1 and dim in (0, self.ndim - 1) and one and \
            index.dtype is D.int64
        v = _source(source)
        if not (put_path and dim == 0 and add_rows(target.flat.reshape(a.shape), (idx,), v)):
            _sum_along(target.flat, a.shape or (1,), dim, idx, v, self.dtype, put_path)
    target.done()
    return self


def _sum_along(flat, shape, dim, idx, v, dtype, opmath):
    """reduce_at's "sum" of v into flat (a row-major array of `shape`) along dim through
    idx, in rounds of whole slices where that is the cheaper (the same sums: one rounding
    each, in index order; float16 / bfloat16 in float32 with opmath, rounded once)."""
    wide = opmath and dtype in _HALVES
    acc = flat.astype(np.float32) if wide else flat
    if not add_along(acc.reshape(shape), dim, idx, v):
        reduce_at(flat, along_positions(shape, dim, idx), v, "sum", True, dtype, opmath)
    elif wide:
        flat[...] = acc


def index_add(self, dim, index, source, alpha=1):
    return index_add_(_copy(self), dim, index, source, alpha)


def index_copy_(self, dim, index, source):
    if not U.check_index_copy_call(self, dim, index, source, out_of_range):
        return self
    a = arr(self)
    a = a.reshape(1) if a.ndim == 0 else a
    s = arr(source)
    s = s.reshape(a.shape[:dim] + (index.numel(),) + a.shape[dim + 1:])
    # (numpy assigns in index order: a repeated index keeps the last slice, as PyTorch's)
    a[(slice(None),) * dim + (arr(index).reshape(-1),)] = s
    return self


def index_copy(self, dim, index, source):
    return index_copy_(_copy(self), dim, index, source)


def index_reduce_(self, dim, index, source, reduce, include_self=True):
    if not U.check_index_reduce_call(self, dim, index, source, reduce, include_self,
                                     out_of_range):
        return self
    a = arr(self)
    target = Flat(a)
    pos = along_positions(a.shape or (1,), dim, arr(index).reshape(-1))
    reduce_at(target.flat, pos, _source(source), reduce, include_self, self.dtype)
    target.done()
    return self


def index_reduce(self, dim, index, source, reduce, include_self=True):
    return index_reduce_(_copy(self), dim, index, source, reduce, include_self)


# -- put / masked_scatter -------------------------------------------------------------------

def put_(self, index, source, accumulate=False):
    U.check_put(self, index, source, out_of_range)
    if not index.numel():
        return self
    target = Flat(arr(self))
    pos = arr(index).reshape(-1)  # (checked: a negative one counts from the end, as NumPy's)
    v = _source(source)
    if accumulate:
        np.add.at(target.flat, pos, v)
    else:
        target.flat[pos] = v  # (in order: a repeated index keeps the last value)
    target.done()
    return self


def put(self, index, source, accumulate=False):
    return put_(_copy(self, "K"), index, source, accumulate)


def masked_scatter_(self, mask, source):
    I.check_masked_scatter(self, mask, source)
    shape = self._shape
    mask = mask.expand(shape)  # (PyTorch's error for a mask that does not broadcast)
    if not mask.numel():
        return self
    m = arr(mask)
    count = int(np.count_nonzero(m))
    if source.numel() < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    a = arr(self)
    s = arr(source).reshape(-1)[:count]  # (row-major order fills the masked positions)
    if a.ndim == 0:
        if count:
            a[()] = s[0]
    else:
        a[m] = s
    return self


def masked_scatter(self, mask, source):
    from mindtorch._shapes import broadcast_shapes
    shape = broadcast_shapes(mask._shape, self._shape)
    out = wrap(np.array(np.broadcast_to(arr(self), shape), order="C"), self.dtype)
    return masked_scatter_(out, mask, source)


KERNELS = {
    "index_add_": index_add_, "index_add": index_add, "index_copy_": index_copy_,
    "index_copy": index_copy, "index_reduce_": index_reduce_, "index_reduce": index_reduce,
    "put_": put_, "put": put, "masked_scatter_": masked_scatter_,
    "masked_scatter": masked_scatter,
}
