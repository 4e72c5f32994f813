"""Indexing ops: index_select, take, masks, advanced indexing (index, index_put), the
index_* ops along one dim, put and the slice scatters.  gather and scatter are in `scatter`.

Besides the declarations this module holds the shape and dtype checks every backend
shares (the cpu kernels and the meta rules call them), so the error classes and messages
are PyTorch's whatever device runs the op.  They look at metadata only, never at data.
"""
from ... import _dtype as D
from ..._scalars import checked_scalar  # noqa: F401  (used by backends through here)
from ..._shapes import broadcast_shapes, numel
from ..._strides import check_no_internal_overlap, warn_expanded
from ..._warn_once import warn_once
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import inplace_via, write_into, refuse_complex_autograd
from ._helpers import has_data as _has_data  # (imported from here by other decls)
from .views import narrow_start
from ._prechecks import _arg, _check_index_fill_first, _check_narrow_copy_first, _checked_first

_C_NAMES = D.CPP_NAMES  # (masked_fill's error names the mask's dtype so)


type_name = D.scalar_type_name


# -- shared checks ---------------------------------------------------------------------

def _index_int_dtype(op_name, index, allowed="int32 or int64"):
    if index.dtype is not D.int64 and index.dtype is not D.int32:
        raise RuntimeError(f"{op_name}(): Expected dtype {allowed} for index")


def index_select_shape(self, dim, index):
    """Result shape of index_select (checks index's dtype and rank, in PyTorch's order)."""
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    n = index.numel()
    if self.ndim == 0 and n != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {n} "
                           f"value(s)")
    _index_int_dtype("index_select", index)
    if self.ndim == 0:
        return ()
    if self._shape[dim] == 0 and n:
        if self.ndim == 1:  # PyTorch's 1-D path bounds-checks every index first
            raise IndexError("index out of range in self")
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    return self._shape[:dim] + (n,) + self._shape[dim + 1:]


def index_select_oob(self, dim, value):
    # PyTorch raises RuntimeError along dim 1 (its path for that dim) and IndexError
    # along any other
    if self.ndim <= 1 or dim != 1:
        return IndexError("index out of range in self")
    return RuntimeError(f"INDICES element is out of DATA bounds, id={value} "
                        f"axis_dim={self._shape[dim]}")


def check_mask_dtype(mask, op_name="masked_fill_"):
    if mask.dtype is not D.bool:
        if op_name == "masked_select":
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        raise RuntimeError(f"{op_name} only supports boolean masks, but got mask with dtype "
                           f"{_C_NAMES.get(mask.dtype.name, mask.dtype.name)}")


def check_fill_value(value):
    from ..._tensor import Tensor
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")


def masked_fill_shape(self, mask, value, inplace):
    check_mask_dtype(mask)
    check_fill_value(value)
    # (PyTorch's out-of-place form broadcasts mask first: the order of its error's sizes)
    shape = broadcast_shapes(*((self._shape, mask._shape) if inplace else
                               (mask._shape, self._shape)))
    if inplace and shape != self._shape:
        raise RuntimeError(f"output with shape {list(self._shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    if inplace:
        warn_expanded(self, "masked_fill_")
    return shape


_INDEX_DTYPES = (D.int64, D.int32, D.uint8, D.bool)


def is_mask(t):
    return t.dtype is D.bool or t.dtype is D.uint8


def check_index_dtype(t):
    if t.dtype not in _INDEX_DTYPES:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def check_mask_shape(self_shape, mask_shape, start):
    """A mask indexing self from dim `start` must match self's sizes there."""
    for j, n in enumerate(mask_shape):
        k = start + j
        if k >= len(self_shape) or n != self_shape[k]:
            raise IndexError(f"The shape of the mask {list(mask_shape)} at index {j} does not "
                             f"match the shape of the indexed tensor {list(self_shape)} at index "
                             f"{k}")


def too_many_indices(ndim, got):
    return IndexError(f"too many indices for tensor of dimension {ndim} (got {got})")


def advanced_index_shape(self_shape, index_shapes):
    """Shape of self[indices] for index_shapes: per indexed dim, None (full slice) or the
    shape of an integer index tensor (masks already expanded to one entry per dim).
    Index tensors broadcast together; their dims replace the indexed dims in place when
    the indexed dims are adjacent, and go first otherwise (NumPy's and PyTorch's rule)."""
    if len(index_shapes) > len(self_shape):
        raise too_many_indices(len(self_shape), len(index_shapes))
    pos = [i for i, s in enumerate(index_shapes) if s is not None]
    if not pos:
        return tuple(self_shape)
    try:
        bshape = broadcast_shapes(*(index_shapes[i] for i in pos))
    except RuntimeError:
        shapes = ", ".join(str(list(index_shapes[i])) for i in pos)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shapes}") from None
    if 0 not in bshape and any(self_shape[i] == 0 for i in pos):
        # no index is valid for an empty dim (PyTorch checks this before the kernel's
        # bounds checks, which only run for elements of a non-empty result)
        raise IndexError("index is out of bounds for dimension with size 0")
    rest = [n for i, n in enumerate(self_shape) if i >= len(index_shapes) or
            index_shapes[i] is None]
    if pos[-1] - pos[0] + 1 == len(pos):  # adjacent: in place
        first = pos[0]
        return tuple(self_shape[:first]) + bshape + tuple(self_shape[pos[-1] + 1:])
    return bshape + tuple(rest)


def check_index_list(self, indices):
    """Dtype, 0-dim mask and rank checks of an index list; returns the number of self dims
    it indexes."""
    if not indices:
        raise IndexError("at least one index must be provided")
    for t in indices:  # PyTorch checks every index's dtype first
        if t is not None:
            check_index_dtype(t)
    consumed = 0
    for t in indices:
        if t is None:
            consumed += 1
            continue
        if is_mask(t):
            if t.ndim == 0:
                raise RuntimeError("index: 0-dimensional boolean indices are not supported; "
                                   "index with [None] or use Tensor.__getitem__")
            check_mask_shape(self._shape, t._shape, consumed)
            consumed += t.ndim
        else:
            consumed += 1
    if consumed > self.ndim:
        raise too_many_indices(self.ndim, consumed)
    return consumed


def masked_fill_dispatch(self, indices, values):
    """The mask (unsqueezed to self's rank) when index_put_ is a masked_fill: one bool/byte
    index, only full slices besides it, and a single value (PyTorch then casts the value
    to self's dtype instead of requiring equal dtypes)."""
    if values.numel() != 1:
        return None
    mask, consumed = None, 0
    for t in indices:
        if t is None:
            consumed += 1
            continue
        if not is_mask(t) or mask is not None:
            return None
        check_mask_shape(self._shape, t._shape, consumed)
        mask, start = t, consumed
        consumed += t.ndim
    if mask is None:
        return None
    lead = (1,) * start
    return mask, lead + mask._shape + (1,) * (self.ndim - consumed)


def check_index_put_values(self, values, result_shape):
    """values must broadcast to the indexing result (result_shape None: unknown, as for
    masks on a device without data) and have self's dtype."""
    if result_shape is not None:
        ok = values.ndim <= len(result_shape)
        if ok:
            try:
                ok = broadcast_shapes(values._shape, result_shape) == tuple(result_shape)
            except RuntimeError:
                ok = False
        if not ok:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(values._shape)} "
                               f"cannot be broadcast to indexing result of shape "
                               f"{list(result_shape)}")
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{type_name(self.dtype)} for the destination and "
                           f"{type_name(values.dtype)} for the source.")


# -- declarations ----------------------------------------------------------------------

def _masked_fill_(self, mask, value):
    masked_fill_shape(self, mask, value, inplace=True)
    return write_into(self, OPS["masked_fill"], (mask, value))


def check_masked_scatter(self, mask, source):
    """masked_scatter_'s checks before it reads the mask (the cpu kernel's too)."""
    check_no_internal_overlap(self._shape, self._stride)
    if source.dtype is not self.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{type_name(self.dtype)} and {type_name(source.dtype)}")
    if mask.dtype is not D.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {type_name(mask.dtype)}")


def _masked_scatter_(self, mask, source):
    check_masked_scatter(self, mask, source)
    mask = mask.expand(self._shape)
    if not mask.numel():
        return self
    target = self if self.ndim else self.reshape(1)  # index_put_ takes no 0-dim mask
    mask = mask if self.ndim else mask.reshape(1)
    if not _has_data(mask):  # no data: shapes checked, nothing to write
        return self
    count = OPS["sum"].call(mask, None, False, None).item()
    if source.numel() < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    # source's elements in its logical (row-major) order fill the masked positions
    values = source.reshape(-1).narrow(0, 0, count)
    OPS["index_put_"].call(target, (mask,), values, False)
    return self


def _masked_scatter(self, mask, source):
    shape = broadcast_shapes(mask._shape, self._shape)
    out = OPS["clone"].call(self.expand(shape), "contiguous_format")
    return _masked_scatter_(out, mask.expand(shape), source)


def _index_put_public(inplace):
    """torch.index_put(_) take a list of tensors: None (a full slice, which __setitem__
    passes to the op) is refused, as PyTorch's argument parser does; index_put_ warns
    about an expanded self (as __setitem__ does, not the ops built on index_put_)."""
    def make(binding):
        def index_put(self, indices, values, accumulate=False):
            if isinstance(indices, (list, tuple)):
                for i, t in enumerate(indices):
                    if t is None:
                        raise TypeError(f"expected Tensor as element {i} in argument 1, but "
                                        f"got NoneType")
            if inplace and hasattr(self, "_stride"):
                warn_expanded(self, "index_put_", "tensor[indices] = tensor")
            return binding(self, indices, values, accumulate)
        return index_put
    return make


def _nonzero_wrapper(binding):
    """torch.nonzero's as_tuple form, on top of the op (which returns the (n, ndim) index
    matrix)."""
    def nonzero(input, *, out=None, as_tuple=False):
        if not as_tuple:
            return binding(input, out=out)
        if out is not None:
            raise RuntimeError("nonzero(): as_tuple=True does not support out=")
        if input.ndim == 0:
            return (binding(input.unsqueeze(0)).select(1, 0),)
        return binding(input).unbind(1)
    return nonzero


# -- composite indexing ops (written with the ops above, so they run on every device) ------

def _take(self, index):
    if index.dtype is not D.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{type_name(index.dtype)}")
    flat = self.reshape(-1)
    n = flat._shape[0]
    try:
        return OPS["index"].call(flat, (index,))
    except IndexError:  # PyTorch's wording
        raise IndexError(_first_oob_message(index, n)) from None


def _first_oob_message(index, n):
    bad = index[(index < -n) | (index >= n)]
    v = bad.reshape(-1)[0].item() if bad.numel() else "?"
    return f"out of range: tried to access index {v} on a tensor of {n} elements."


def _take_along_dim(self, indices, dim=None):
    if dim is None:  # gather from the flattened input (PyTorch views it: no copy)
        return OPS["gather"].call(self.view(-1), 0, indices.view(-1), False)
    _check_take_along_dim(self, indices)
    if not self.ndim:  # PyTorch reads self.size(dim) of the 0-dim tensor
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    # every dim but `dim` broadcasts
    shape = list(broadcast_shapes(self._shape[:dim] + (indices._shape[dim],) +
                                  self._shape[dim + 1:], indices._shape))
    indices = indices.expand(shape)
    shape = list(broadcast_shapes(indices._shape[:dim] + (self._shape[dim],) +
                                  indices._shape[dim + 1:], self._shape))
    self_b = self.expand(shape)
    n = self._shape[dim]
    if indices.numel() and _has_data(indices):
        # PyTorch takes every index modulo n (no bounds check along dim; n == 0 fails)
        if n == 0:
            raise RuntimeError("ZeroDivisionError")
        indices = OPS["remainder"].call(indices, n)
    return OPS["gather"].call(self_b, dim, indices, False)


def _check_take_along_dim(self, indices):
    if self.ndim != indices.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {self.ndim} dimensions for input, and "
                           f"{indices.ndim} dimensions for indices")
    if indices.dtype is not D.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{type_name(indices.dtype)}")


def _take_along_dim_public(binding):
    """PyTorch checks ranks and the index dtype before it wraps `dim`."""
    def take_along_dim(input, indices, dim=None, *, out=None):
        from ..._tensor import Tensor
        if dim is not None and isinstance(input, Tensor) and isinstance(indices, Tensor):
            _check_take_along_dim(input, indices)
        return binding(input, indices, dim, out=out)
    return take_along_dim


def _vector_index(self, dim, index):
    """(self viewed with at least one dim, the index list that selects `index` along dim)."""
    target = self if self.ndim else self.reshape(1)
    return target, (None,) * dim + (index.reshape(-1),)


def _index_fill_(self, dim, index, value):
    from ..._tensor import Tensor
    warn_expanded(self, "index_fill_")
    if index.dtype is not D.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value.ndim} dimension(s).")
        fill = value if value.dtype is self.dtype else value.to(self.dtype)
    else:
        checked_scalar(value, self.dtype)
        fill = OPS["full"].binding((), value, dtype=self.dtype, device=self._device)
    if _empty_dim_writes(self, dim, index):
        return self
    size = self._shape[dim] if self.ndim else 1
    v = _first_out_of_range(index, size, negative_ok=True)
    if v is not None:
        raise IndexError(f"index {v} is out of bounds for dimension {dim} with size {size}")
    target, indices = _vector_index(self, dim, index)
    OPS["index_put_"].call(target, indices, fill, False)
    return self


def _check_index_reduce_name(reduce):
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")


def _check_index_reduce_first(args, kwargs):
    """index_reduce checks the reduction before it wraps dim."""
    reduce = _arg(args, kwargs, 4, "reduce")
    if isinstance(reduce, str):
        _check_index_reduce_name(reduce)


def _check_index_func(name, self, dim, index, source, check_dim):
    """The checks index_add_ and index_reduce_ share (PyTorch's index_func_meta_impl)."""
    if index.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: "
                         f"{index.ndim} with type: {type_name(index.dtype)} and size: "
                         f"{list(index._shape)}")
    if index.dtype is not D.int64 and index.dtype is not D.int32:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{type_name(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"{name}(): self ({type_name(self.dtype)}) and source "
                           f"({type_name(source.dtype)}) must have the same scalar type")
    if check_dim and dim != 0 and dim >= source.ndim:
        raise RuntimeError(f"{name}(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {source.ndim}")
    n = source._shape[dim] if source.ndim else 1
    if index.numel() != n:
        if not source.ndim:  # PyTorch's message reads source.size(dim) of a 0-dim source
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"{name}(): Number of indices ({index.numel()}) should be equal "
                           f"to source.size(dim): ({n}), for dim: {dim}")
    return n


def _check_index_add(self, dim, index, source, name="index_add_"):
    """index_add's (and index_reduce's) checks, in PyTorch's order (index_func_meta_impl)."""
    _check_index_func(name, self, dim, index, source, check_dim=True)
    ss, rs = list(self._shape), list(source._shape)
    if self.ndim and source.ndim:
        del ss[dim], rs[dim]
    if ss != rs:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(self._shape)} "
                           f"source.shape = {list(source._shape)}")


def _first_out_of_range(index, size, negative_ok=False):
    """The first index value outside [0, size) ([-size, size) with negative_ok), or None."""
    if not index.numel() or not _has_data(index):
        return None
    bad = (index >= size) | (index < (-size if negative_ok else 0))
    if not OPS["any"].binding(bad).item():
        return None
    return index[bad].reshape(-1)[0].item()


def _empty_dim_writes(self, dim, index, restride_size=1):
    """PyTorch's index_fill_/index_copy_ on an empty self: a non-empty index into an empty
    dim fails when restriding; anything else writes nothing (and checks no index)."""
    if self.ndim and self._shape[dim] == 0 and index.numel():
        # PyTorch views self with that dim as size restride_size, stride 0: an error when
        # the storage is too small for it, else its bounds check fails
        sizes = list(self._shape)
        sizes[dim] = restride_size
        strides = list(self._stride)
        strides[dim] = 0
        need = (self._offset + 1 + sum((n - 1) * st for n, st in zip(sizes, strides) if n)) \
            * self.dtype.itemsize
        if 0 not in sizes and need > self._storage.nbytes():
            raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset "
                               f"{self._offset}, and itemsize {self.dtype.itemsize} requiring a "
                               f"storage size of {need} are out of bounds for storage of size "
                               f"{self._storage.nbytes()}")
        return False
    return self.numel() == 0


def check_index_add_call(self, dim, index, source, alpha, out_of_range=None):
    """index_add_'s checks, bounds included (out_of_range(index, size): the first index
    outside [0, size) or None; a backend's kernel may pass its own); False when nothing
    is written."""
    check_no_internal_overlap(self._shape, self._stride)
    _check_index_add(self, dim, index, source)
    if self.ndim > 1 and not self.numel():  # PyTorch's slice loop runs no iteration
        return False
    size = self._shape[dim] if self.ndim else 1
    v = (out_of_range or _first_out_of_range)(index, size)
    if v is not None:
        # PyTorch adds along the first or last dim of a >1-D tensor with index_put_ when
        # alpha is 1 and the index int64 (a RuntimeError); its other paths raise IndexError
        if self.ndim > 1 and dim in (0, self.ndim - 1) and index.dtype is D.int64 and \
                type(alpha) is not bool and alpha == 1:
            raise RuntimeError(f"index {v} is out of bounds for dimension {dim} with size "
                               f"{size}")
        raise IndexError("index out of range in self")
    return True


def _index_add_(self, dim, index, source, alpha=1):
    if not check_index_add_call(self, dim, index, source, alpha):
        return self
    if alpha != 1:
        if self.dtype.kind in "ui":
            alpha = int(alpha)
        if self.dtype is not D.bool:
            source = OPS["mul"].call(source, alpha)
    target, indices = _vector_index(self, dim, index)
    OPS["index_put_"].call(target, indices, source.reshape(target._shape[:dim] + (
        index.numel(),) + target._shape[dim + 1:]), True)
    return self


def _check_index_copy(self, dim, index, source):
    """index_copy's checks, in PyTorch's order."""
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    n = index.numel()
    if not source.ndim and n != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {n})")
    if source.ndim and self.ndim and source.ndim != self.ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({self.ndim})")
    if index.dtype is not D.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{type_name(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {type_name(self.dtype)} and (source) "
                           f"{type_name(source.dtype)}")
    ss, rs = list(self._shape), list(source._shape)
    if ss:
        del ss[dim]
    if rs:
        del rs[min(dim, len(rs) - 1)]
    if ss != rs:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {ss} and source slice shape: {rs}.")
    if source.ndim and n != source._shape[dim]:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to "
                         f"source.size(dim) ({source._shape[dim]})")


def check_index_copy_call(self, dim, index, source, out_of_range=None):
    """index_copy_'s checks, bounds included (out_of_range as check_index_add_call's);
    False when nothing is written."""
    check_no_internal_overlap(self._shape, self._stride)
    _check_index_copy(self, dim, index, source)
    if _empty_dim_writes(self, dim, index):
        return False
    size = self._shape[dim] if self.ndim else 1
    v = (out_of_range or _first_out_of_range)(index, size)
    if v is not None:
        raise IndexError(f"index_copy_(): index {v} is out of bounds for dimension {dim} with "
                         f"size {size}")
    return True


def _index_copy_(self, dim, index, source):
    if not check_index_copy_call(self, dim, index, source):
        return self
    target, indices = _vector_index(self, dim, index)
    OPS["index_put_"].call(target, indices, source.reshape(target._shape[:dim] + (
        index.numel(),) + target._shape[dim + 1:]), False)
    return self


# -- scatters of a whole slice: a copy of self with one view of it overwritten -------------

def _view_scatter(view_of):
    def scatter(self, src, *args):
        out = OPS["clone"].call(self, None)
        target = view_of(out, *args)
        if target._shape != src._shape:
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src "
                               f"size = {list(src._shape)}, slice size = "
                               f"{list(target._shape)}")
        target.copy_(src)
        out._version_counter[0] = 0
        return out
    return scatter


def _select_for_scatter(t, dim, index):
    n = t._shape[dim] if t.ndim else 0
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(t._shape)} at dimension {dim}")
    return t.select(dim, index)


def _narrow_copy(self, dim, start, length):
    # (a negative length gets the range message here, narrow's own check first there)
    start = narrow_start(self._shape[dim], start, length)
    return OPS["clone"].call(self.narrow(dim, start, length), "contiguous_format")


# -- put / index_reduce ----------------------------------------------------------------------

def check_put(self, index, source, out_of_range=None):
    """put_'s checks, bounds included (out_of_range(index, n, negative_ok) as
    _first_out_of_range)."""
    if index.dtype is not D.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{type_name(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {type_name(self.dtype)} and source.dtype = "
                           f"{type_name(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() = "
                         f"{index.numel()}")
    n = self.numel()
    v = (out_of_range or _first_out_of_range)(index, n, True)
    if v is not None:
        raise IndexError(f"out of range: tried to access index {v} on a tensor of {n} elements.")


def _put_(self, index, source, accumulate=False):
    check_put(self, index, source)
    # write through a flat view when self has one, else into a contiguous copy
    flat = self.view(-1) if self.is_contiguous() else OPS["clone"].call(self, None).reshape(-1)
    OPS["index_put_"].call(flat, (index.reshape(-1),), source.reshape(-1), accumulate)
    if flat._storage is not self._storage:
        self.copy_(flat.view(self._shape))
    return self


_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


def check_index_reduce_call(self, dim, index, source, reduce, include_self,
                            out_of_range=None):
    """index_reduce_'s checks, bounds included (out_of_range as check_index_add_call's);
    False when nothing is written."""
    check_no_internal_overlap(self._shape, self._stride)
    warn_once("index_reduce", "index_reduce() is in beta and the API may change at any time.")
    _check_index_reduce_name(reduce)
    _check_index_add(self, dim, index, source, "index_reduce_")
    n = index.numel()
    # PyTorch's dtype support differs by path: its 1-D path and include_self=False take
    # neither complex nor bool; the sliced path lacks complex amax/amin and bool mean
    odd = self.dtype.is_complex or self.dtype is D.bool
    if odd and (not include_self or index.numel() and (
            self.ndim <= 1 or reduce in ("amax", "amin") and self.dtype.is_complex or
            reduce == "mean" and self.dtype is D.bool)):
        name = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f'"{name}" not implemented for \'{type_name(self.dtype)}\'')
    if include_self and self.ndim and not self._shape[dim] and n:
        # PyTorch's include_self path reads self's slices: its first select fails
        raise IndexError("index out of range in self" if self.ndim == 1 else
                         f"select(): index 0 out of range for tensor of size "
                         f"{list(self._shape)} at dimension {dim}")
    if _empty_dim_writes(self, dim, index, n):
        return False
    size = self._shape[dim] if self.ndim else 1
    if (out_of_range or _first_out_of_range)(index, size) is not None:
        raise IndexError("index out of range in self")
    return source.numel() > 0


def _index_reduce_(self, dim, index, source, reduce, include_self=True):
    if not check_index_reduce_call(self, dim, index, source, reduce, include_self):
        return self
    n = index.numel()
    # every element of source scatters to its index along dim
    shape = [1] * max(source.ndim, 1)
    shape[dim] = n
    target = self if self.ndim else self.reshape(1)
    src = source if source.ndim else source.reshape(1)
    idx = index.reshape(shape).expand(src._shape).to(D.int64)
    OPS["scatter_reduce_"].call(target, dim, idx, src, reduce, include_self)
    return self


def _named_inplace(name, inplace):
    """index_add_ / index_fill_: when autograd records, the out-of-place op's node
    (IndexAddBackward0, as PyTorch names the in-place op's) through write_into; else the
    in-place decomposition (index_put_ along the dim)."""
    def op(self, *args):
        from ...autograd import _record
        if _record.recording(self, *args):
            return write_into(self, OPS[name], args)
        return inplace(self, *args)
    return op


def _out_of_place(inplace):
    """The out-of-place op of an in-place decomposition: the same on a clone."""
    def op(self, *args):
        return inplace(OPS["clone"].call(self, None), *args)
    return op


def _declare():
    define("index_select(Tensor self, int dim, Tensor index) -> Tensor", out=True)
    define("masked_fill(Tensor self, Tensor mask, Tensor|Scalar value) -> Tensor")
    define("masked_fill_(Tensor(a!) self, Tensor mask, Tensor|Scalar value) -> Tensor(a!)",
           tags=("inplace",), function=False, decomposition=_masked_fill_)
    define("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
           decomposition=_masked_scatter)
    define("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)",
           tags=("inplace",), function=False, decomposition=_masked_scatter_)
    define("masked_select(Tensor self, Tensor mask) -> Tensor", out=True,
           tags=("dynamic_output_shape",))
    # self[indices] for an index list as PyTorch's aten::index takes it: None is a full
    # slice; internal (Tensor.__getitem__ uses it), hence neither function nor method
    define("index(Tensor self, Tensor?[] indices) -> Tensor", function=False, method=False)
    overload(define("index_put(Tensor self, Tensor?[] indices, Tensor values, "
                    "bool accumulate=False) -> Tensor"), _index_put_public(False))
    overload(define("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, "
                    "bool accumulate=False) -> Tensor(a!)", tags=("inplace",),
                    decomposition=inplace_via("index_put")), _index_put_public(True))
    op = define("nonzero(Tensor self) -> Tensor", out=True, tags=("dynamic_output_shape",))
    overload(op, _nonzero_wrapper)
    define("argwhere(Tensor self) -> Tensor", tags=("dynamic_output_shape",),
           decomposition=lambda self: OPS["nonzero"].call(self))
    define("take(Tensor self, Tensor index) -> Tensor", out=True, decomposition=_take)
    overload(define("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor",
                    out=True, decomposition=_take_along_dim), _take_along_dim_public)
    define("select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor",
           decomposition=_view_scatter(_select_for_scatter))
    define("slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, "
           "int step=1) -> Tensor",
           decomposition=_view_scatter(lambda t, *a: OPS["slice"].call(t, *a)))
    define("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) "
           "-> Tensor", decomposition=_view_scatter(lambda t, *a: t.diagonal(*a)))
    define("narrow_copy(Tensor self, int dim, int start, int length) -> Tensor", out=True,
           decomposition=_narrow_copy)
    define("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) "
           "-> Tensor(a!)", tags=("inplace",), function=False, decomposition=_put_)
    define("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
           decomposition=_out_of_place(_put_))
    define("index_reduce_(Tensor(a!) self, int dim, Tensor index, Tensor source, str reduce, "
           "*, bool include_self=True) -> Tensor(a!)", tags=("inplace",), function=False,
           decomposition=_index_reduce_)
    define("index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
           "bool include_self=True) -> Tensor", out=True,
           decomposition=_out_of_place(_index_reduce_))
    # index_fill / index_add / index_copy: index_put_ along one dim
    for name, inplace, args in (
            ("index_fill", _index_fill_, "Tensor|Scalar value"),
            ("index_add", _index_add_, "Tensor source, *, Scalar alpha=1"),
            ("index_copy", _index_copy_, "Tensor source")):
        define(f"{name}(Tensor self, int dim, Tensor index, {args}) -> Tensor",
               decomposition=_out_of_place(inplace), out=name != "index_fill")
        define(f"{name}_(Tensor(a!) self, int dim, Tensor index, {args}) -> Tensor(a!)",
               tags=("inplace",), function=False,
               decomposition=_named_inplace(name, inplace) if name != "index_copy" else inplace)


_declare()
_checked_first("index_fill", _check_index_fill_first)
_checked_first("index_fill_", _check_index_fill_first)
_checked_first("index_reduce", _check_index_reduce_first)
_checked_first("narrow_copy", _check_narrow_copy_first)
_checked_first("index_reduce_", _check_index_reduce_first)


# -- backward formulas (see registry.derivative): PyTorch's, from derivatives.yaml ----------

def _index_grad(grad, self_geometry, indices):
    # repeated indices accumulate
    return OPS["index_put"].call(grad.new_zeros(self_geometry[0]), indices, grad, True)


def _index_put_self(grad, indices, accumulate):
    if accumulate:
        return grad
    return OPS["index_put"].call(grad, indices, grad.new_zeros(()), False)  # overwritten


def _masked_select_grad(grad, self_geometry, mask):
    shape = broadcast_shapes(self_geometry[0], mask._shape)
    return grad.new_zeros(shape).masked_scatter(mask, grad)


def _take_grad(grad, self_geometry, index):
    shape = self_geometry[0]
    flat = grad.new_zeros((numel(shape),))
    return OPS["index_put"].call(flat, (index.reshape(-1),), grad.reshape(-1), True).reshape(
        shape)


def _zeroed(scatter, grad, region, *args):
    """grad with the region a select/slice/diagonal_scatter wrote set to zero."""
    return OPS[scatter].call(grad, region.new_zeros(region._shape), *args)


def _slice_of(grad, dim, start, end, step):
    return OPS["slice"].call(grad, dim, start, end, step)


def _derivatives():
    refuse_complex_autograd("index_reduce")  # (PyTorch has no complex formula)
    derivative(OPS["index"], self=_index_grad)
    derivative(OPS["index_put"], self=_index_put_self,
               values=lambda grad, indices: OPS["index"].call(grad, indices))
    derivative(OPS["index_select"], self=lambda grad, self_geometry, dim, index:
               grad.new_zeros(self_geometry[0]).index_add(dim, index, grad))
    derivative(OPS["masked_fill"], self=lambda grad, mask: grad.masked_fill(mask, 0),
               value=lambda grad, mask: grad.masked_fill(~mask, 0).sum(),
               name=lambda self, mask, value:
               f"MaskedFillBackward{int(isinstance(value, type(self)))}")
    derivative(OPS["masked_select"], self=_masked_select_grad)
    # index_fill: the filled entries get no gradient; a tensor value gets their sum
    derivative(OPS["index_fill"], self=lambda grad, dim, index: grad.index_fill(dim, index, 0),
               value=lambda grad, dim, index: grad.index_select(dim, index).sum(),
               name=lambda self, dim, index, value:
               f"IndexFillBackward{int(isinstance(value, type(self)))}")
    derivative(OPS["take"], self=_take_grad)
    derivative(OPS["index_add"], self=lambda grad: grad,
               source=lambda grad, dim, index, alpha:
               grad.index_select(dim, index) * alpha if alpha != 1 else
               grad.index_select(dim, index))
    # select/slice/diagonal_scatter: self gets grad with the written region zeroed, src
    # that region of grad
    derivative(OPS["select_scatter"],
               self=lambda grad, dim, index: _zeroed("select_scatter", grad,
                                                     grad.select(dim, index), dim, index),
               src=lambda grad, dim, index: grad.select(dim, index))
    derivative(OPS["slice_scatter"],
               self=lambda grad, dim, start, end, step: _zeroed(
                   "slice_scatter", grad, _slice_of(grad, dim, start, end, step), dim, start,
                   end, step),
               src=_slice_of)
    derivative(OPS["diagonal_scatter"],
               self=lambda grad, offset, dim1, dim2: _zeroed(
                   "diagonal_scatter", grad, grad.diagonal(offset, dim1, dim2), offset, dim1,
                   dim2),
               src=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2))
    nondifferentiable(OPS["nonzero"])


_derivatives()


def _exact_outs():
    """out= of these ops takes only the result's dtype, as in PyTorch."""
    from ._out_rules import exact_out
    for name, kind in (("index_select", "index_select"), ("masked_select", "masked_select"),
                       ("nonzero", "nonzero"),
                       ("take", "take"), ("take_along_dim", "mm"), ("index_add", "mm"),
                       ("index_reduce", "mm"), ("narrow_copy", "narrow_copy")):
        exact_out(OPS[name], kind)


_exact_outs()
