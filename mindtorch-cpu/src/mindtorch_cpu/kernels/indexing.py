"""Indexing kernels: gathers and scatters through explicit coordinate arrays, advanced
indexing through numpy's (whose rules match PyTorch's once bool masks are expanded).

Every index is bounds-checked before numpy sees it: numpy would wrap negative indices
that PyTorch rejects (gather, scatter) or raise with its own wording."""
import math
import warnings

import numpy as np
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch._ops.decls import indexing as I
from mindtorch._ops.decls import scatter as S
from mindtorch._shapes import broadcast_shapes
from mindtorch._strides import check_no_internal_overlap, index_result_strides
from mindtorch._warn_once import _user_level

from .._np import arr, cast, wrap
from . import index_update as U
from ._select import fill_where


def _np_scalar(value, dtype):
    """A Python scalar or 0-dim tensor as a numpy scalar of dtype, overflow-checked."""
    if isinstance(value, Tensor):
        value = arr(value)[()]
        value = value.item() if value.dtype != D.bfloat16.np else float(value)
    I.checked_scalar(value, dtype)
    if isinstance(value, complex) and dtype.kind != "c":
        value = value.real if dtype is not D.bool else value != 0
    with np.errstate(all="ignore"):  # (not catch_warnings: it re-arms every shown warning)
        return cast(value, dtype.np)[()]


def _check_bounds(a, size, dim, error=None, negative=False):
    """Raise for entries of integer array a outside [0, size) ([-size, size) when negative
    indices count from the end)."""
    if a.size == 0 or (a.min() >= (-size if negative else 0) and a.max() < size):
        return
    bad = (a < (-size if negative else 0)) | (a >= size)
    if bad.any():
        v = int(a[bad].flat[0])
        raise error(v) if error else RuntimeError(
            f"index {v} is out of bounds for dimension {dim} with size {size}")


def _as1(t):
    """numpy array of t, 0-dim treated as 1-dim (PyTorch's scatter/gather convention)."""
    a = arr(t)
    return a.reshape(1) if a.ndim == 0 else a


# -- index_select / gather ---------------------------------------------------------------

def index_select(self, dim, index):
    shape = I.index_select_shape(self, dim, index)
    idx = arr(index).reshape(-1)
    size = self._shape[dim] if self.ndim else 1
    bad = (idx < 0) | (idx >= size)
    if bad.any():
        raise I.index_select_oob(self, dim, int(idx[bad][0]))
    if self.ndim == 0:
        return wrap(arr(self).copy(), self.dtype)
    return wrap(np.take(arr(self), idx, axis=dim).reshape(shape), self.dtype)


def gather(self, dim, index, sparse_grad=False):
    S.check_gather(self, dim, index)
    a, idx = _as1(self), _as1(index)
    _check_bounds(idx, a.shape[dim], dim)
    if idx.size == 0:
        return wrap(np.empty(index._shape, self.dtype.np), self.dtype)
    # one take at flat positions (~3x faster than indexing by a coordinate array per dim);
    # contiguous as PyTorch's result, whatever the index's layout
    positions = U.scatter_positions(a.shape, dim, idx)
    return wrap(np.take(np.ascontiguousarray(a).reshape(-1), positions).reshape(index._shape),
                self.dtype)


# -- scatter -------------------------------------------------------------------------------

def _scatter_key(out, dim, index, src):
    """(out as a U.Flat, the flat positions index addresses, src's values there in index
    order), or None for an empty index: scatter's addressing after its bounds check."""
    a, idx = (out.reshape(1) if out.ndim == 0 else out), _as1(index)
    _check_bounds(idx, a.shape[dim], dim)
    if idx.size == 0:
        return None
    if isinstance(src, Tensor):
        s = _as1(src)
        vals = np.ascontiguousarray(s[tuple(slice(0, n) for n in idx.shape)]).reshape(-1)
    else:
        vals = src
    return U.Flat(a), U.scatter_positions(a.shape, dim, idx), vals


def _scatter_into(out, dim, index, src, reduce, dtype):
    """Scatter into the numpy array `out` (written in place)."""
    key = _scatter_key(out, dim, index, src)
    if key is None:
        return
    target, pos, vals = key
    if reduce is None:
        target.flat[pos] = vals  # (in index order: a repeated position keeps the last)
    else:
        U.reduce_at(target.flat, pos, vals, "sum" if reduce == "add" else "prod", True,
                    dtype, opmath=True)
    target.done()


def _scatter_src(self, src):
    return src if isinstance(src, Tensor) else _np_scalar(src, self.dtype)


def scatter(self, dim, index, src, reduce=None):
    S.check_scatter_reduce(reduce, src)
    S.check_scatter(self, dim, index, src)
    out = arr(self).copy()
    _scatter_into(out, dim, index, _scatter_src(self, src), reduce, self.dtype)
    return wrap(out, self.dtype)


def scatter_(self, dim, index, src, reduce=None):
    check_no_internal_overlap(self._shape, self._stride)
    S.check_scatter_reduce(reduce, src)
    S.check_scatter(self, dim, index, src)
    _scatter_into(arr(self), dim, index, _scatter_src(self, src), reduce, self.dtype)
    return self


def scatter_add(self, dim, index, src):
    S.check_scatter(self, dim, index, src)
    out = arr(self).copy()
    _scatter_into(out, dim, index, src, "add", self.dtype)
    return wrap(out, self.dtype)


def scatter_add_(self, dim, index, src):
    check_no_internal_overlap(self._shape, self._stride)
    S.check_scatter(self, dim, index, src)
    _scatter_into(arr(self), dim, index, src, "add", self.dtype)
    return self


def _scatter_reduce_into(out, dim, index, src, reduce, include_self, dtype):
    key = _scatter_key(out, dim, index, src)
    if key is None:
        return
    target, pos, vals = key
    U.reduce_at(target.flat, pos, vals, reduce, include_self, dtype, opmath=True)
    target.done()


def scatter_reduce(self, dim, index, src, reduce, include_self=True):
    reduce = S.check_scatter_reduce_op(self, dim, index, src, reduce)
    out = arr(self).copy()
    _scatter_reduce_into(out, dim, index, src, reduce, include_self, self.dtype)
    return wrap(out, self.dtype)


def scatter_reduce_(self, dim, index, src, reduce, include_self=True):
    check_no_internal_overlap(self._shape, self._stride)
    reduce = S.check_scatter_reduce_op(self, dim, index, src, reduce)
    _scatter_reduce_into(arr(self), dim, index, src, reduce, include_self, self.dtype)
    return self


# -- masks -----------------------------------------------------------------------------------

def masked_fill(self, mask, value):
    shape = I.masked_fill_shape(self, mask, value, inplace=False)
    v = _np_scalar(value, self.dtype)
    out = np.array(np.broadcast_to(arr(self), shape), order="C")  # (contiguous, as PyTorch)
    fill_where(out, arr(mask), v)
    return wrap(out, self.dtype)


def masked_fill_(self, mask, value):
    I.masked_fill_shape(self, mask, value, inplace=True)
    fill_where(arr(self), arr(mask), _np_scalar(value, self.dtype))
    return self


def masked_select(self, mask):
    I.check_mask_dtype(mask, "masked_select")
    shape = broadcast_shapes(mask._shape, self._shape)  # (in PyTorch's order: its error)
    a, m = np.broadcast_to(arr(self), shape), np.broadcast_to(arr(mask), shape)
    return wrap(a[m], self.dtype)  # boolean indexing copies


def nonzero(self):
    a = arr(self)
    # PyTorch's layout: (n, ndim) with strides (1, n), also where a size is 0 or 1 (the
    # cached array stays valid: those strides address no other element)
    r = wrap(np.argwhere(a != 0) if a.ndim == 0 else np.stack(np.nonzero(a)).T, D.int64)
    r._stride = (1, r._shape[0])
    return r


# -- advanced indexing ---------------------------------------------------------------------

def _index_arrays(self, indices):
    """numpy index tuple for an aten-style index list (None = full slice), with masks
    expanded into one integer array per dim they cover; and the shapes of its entries
    (for the result shape)."""
    I.check_index_list(self, indices)
    key = []
    for t in indices:
        if t is None:
            key.append(slice(None))
        elif I.is_mask(t):
            if t.dtype is D.uint8:
                warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a "
                              "dtype torch.bool instead.", UserWarning, stacklevel=_user_level())
            key.extend(np.nonzero(arr(t)))
        else:
            key.append(arr(t))
    shapes = [None if isinstance(k, slice) else k.shape for k in key]
    return tuple(key), shapes


def _check_index_bounds(self, key):
    """PyTorch checks indices in the kernel, i.e. only when there is an element to
    compute: call when the indexing result is not empty.  The message names the index
    tensor's position among the index tensors (x[:, [0, 5]] blames "dimension 0"), as
    PyTorch's kernel, which sees the indexed dims only."""
    tensors = [(d, k) for d, k in enumerate(key) if not isinstance(k, slice)]
    for i, (d, k) in enumerate(tensors):
        n = self._shape[d]
        _check_bounds(k, n, d, lambda v, i=i, n=n: IndexError(
            f"index {v} is out of bounds for dimension {i} with size {n}"), negative=True)


def index(self, indices):
    key, shapes = _index_arrays(self, indices)
    if len(shapes) == 1 and shapes[0] is not None and self._shape[0]:
        shape = shapes[0] + self._shape[1:]  # one index along dim 0: nothing to broadcast
    else:
        shape = I.advanced_index_shape(self._shape, shapes)  # PyTorch's errors
        if all(s is None for s in shapes):
            return wrap(arr(self).copy(), self.dtype)
    if 0 in shape:
        return wrap(np.empty(shape, self.dtype.np), self.dtype)
    try:  # numpy checks the bounds (PyTorch's range, negatives included)...
        r = arr(self)[key]  # (fancy indexing copies)
    except IndexError:  # ...and PyTorch's message names the first bad index
        _check_index_bounds(self, key)
        raise
    r, strides = _laid_out(r, self, key)
    t = wrap(r, self.dtype)
    if strides is not None and t._stride != strides:
        t._stride = strides  # (size-1 dims: wrap gives NumPy-contiguous arrays canonical ones)
    return t


def _laid_out(r, self, key):
    """numpy's result r of self[key] in PyTorch's strides for it (contiguous for a
    contiguous self and contiguous indices, the usual case), and those strides (None:
    contiguous)."""
    r = np.asarray(r)  # (a 0-dim index gives a numpy scalar)
    arrays = [k for k in key if not isinstance(k, slice)]
    if self.is_contiguous() and all(k.flags.c_contiguous for k in arrays):
        return (r if r.flags.c_contiguous else r.copy()), None
    layouts = [None if isinstance(k, slice) else
               (k.shape, tuple(s // k.itemsize for s in k.strides)) for k in key]
    shape, strides = index_result_strides(self._shape, self._stride, layouts)
    if r.strides == tuple(s * r.itemsize for s in strides):
        return r, strides
    out = np.lib.stride_tricks.as_strided(np.empty(r.size, r.dtype), shape,
                                          tuple(s * r.itemsize for s in strides))
    np.copyto(out, r)
    return out, strides


def index_put_(self, indices, values, accumulate=False):
    if not accumulate:
        fill = I.masked_fill_dispatch(self, indices, values)
        if fill is not None:
            mask, shape = fill
            return masked_fill_(self, mask.reshape(shape), values.reshape(()))
    key, shapes = _index_arrays(self, indices)
    shape = I.advanced_index_shape(self._shape, shapes)
    I.check_index_put_values(self, values, shape)
    if 0 in shape:
        return self
    _check_index_bounds(self, key)
    a, v = arr(self), arr(values)
    if accumulate:
        if all(k.ndim == 0 for k in key if not isinstance(k, slice)):
            # ufunc.at refuses an array of values for 0-dim indices: make them 1-dim
            key = tuple(k if isinstance(k, slice) else k.reshape(1) for k in key)
            shape = I.advanced_index_shape(self._shape, [
                None if isinstance(k, slice) else k.shape for k in key])
        # NumPy's ufunc.at reads garbage when it broadcasts an array of values over a
        # multi-dim index (numpy 2.4): give it the values at full size
        v = np.ascontiguousarray(np.broadcast_to(v, shape))
        if not U.add_rows(a, key, v) and not _add_by_rows(a, key, v):
            np.add.at(a, key, v)
    else:
        a[key] = v
    return self


def _add_by_rows(a, key, v):
    """np.add.at(a, key, v) for index arrays on adjacent dims (v at the result's full size)
    as U.add_in_rounds over a seen as (dims before, the indexed dims as one, dims after):
    the same sums, in whole-slice adds.  False (nothing written) when it declines."""
    arrays = [d for d, k in enumerate(key) if not isinstance(k, slice)]
    if not arrays or arrays[-1] - arrays[0] + 1 != len(arrays) or v.dtype != a.dtype \
            or arrays[-1] >= a.ndim:
        return False
    first, last = arrays[0], arrays[-1] + 1
    dims = a.shape[first:last]
    coords = np.broadcast_arrays(*[np.where(k < 0, k + n, k) for k, n in zip(key[first:last], dims)])
    rows = np.ravel_multi_index(coords, dims).reshape(-1) if len(dims) > 1 else coords[0].reshape(-1)
    work = a if a.flags.c_contiguous else np.ascontiguousarray(a)
    outer = math.prod(a.shape[:first])
    if not U.add_in_rounds(work.reshape(outer, math.prod(dims), -1), rows,
                           v.reshape(outer, rows.size, -1)):
        return False
    if work is not a:
        a[...] = work
    return True


def index_put(self, indices, values, accumulate=False):
    out = wrap(arr(self).copy(order="K"), self.dtype)  # (self's layout kept, as PyTorch's)
    return index_put_(out, indices, values, accumulate)


KERNELS = {
    "index_select": index_select, "gather": gather,
    "scatter": scatter, "scatter_": scatter_, "scatter_add": scatter_add,
    "scatter_add_": scatter_add_, "scatter_reduce": scatter_reduce,
    "scatter_reduce_": scatter_reduce_,
    "masked_fill": masked_fill, "masked_fill_": masked_fill_, "masked_select": masked_select,
    "nonzero": nonzero, "index": index, "index_put": index_put, "index_put_": index_put_,
    **U.KERNELS,
}
