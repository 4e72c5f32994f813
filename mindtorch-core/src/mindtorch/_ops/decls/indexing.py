"""Indexing ops: index_select, take, masks, advanced indexing (index, index_put), the
the slice scatters.  gather and scatter are in `scatter`; index_fill / index_add /
index_copy / index_reduce along one dim and put in `index_update`.

Besides the declarations this module holds the shape and dtype checks every backend
shares (the cpu kernels and the meta rules call them), so the error classes and messages
are PyTorch's whatever device runs the op.  They look at metadata only, never at data.
"""
from ... import _dtype as D
from ..._memory_format import contiguous_format
from ..._scalars import checked_scalar  # noqa: F401  (used by backends through here)
from ..._shapes import broadcast_shapes, numel
from ..._strides import check_no_internal_overlap, warn_expanded
from ...overrides import public_level
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import has_data as _has_data
from ._helpers import inplace_via, write_into
from ._prechecks import _check_narrow_copy_first, _checked_first
from .views import narrow_start

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
    if len(indices) > self.ndim:  # (PyTorch counts the list's entries before anything)
        raise too_many_indices(self.ndim, len(indices))
    for t in indices:  # then every index's dtype
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


def _masked_scatter_recorded(self, mask, source):
    """masked_scatter_: when autograd records, the out-of-place op's node
    (MaskedScatterBackward0, as PyTorch names the in-place op's) through write_into."""
    from ...autograd import _record
    if _record.recording(self, mask, source):
        check_masked_scatter(self, mask, source)
        return write_into(self, OPS["masked_scatter"], (mask, source))
    return _masked_scatter_(self, mask, source)


def _masked_scatter(self, mask, source):
    shape = broadcast_shapes(mask._shape, self._shape)
    out = OPS["clone"].call(self.expand(shape), contiguous_format)
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
    if n == 0 and index.numel():
        raise IndexError("take(): tried to take from an empty tensor")
    try:  # (a contiguous result, as PyTorch's, whatever the index's layout)
        return OPS["index"].call(flat, (index,)).contiguous()
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
    return OPS["clone"].call(self.narrow(dim, start, length), contiguous_format)


def _declare():
    define("index_select(Tensor self, int dim, Tensor index) -> Tensor", out=True)
    define("masked_fill(Tensor self, Tensor mask, Tensor|Scalar value) -> Tensor")
    define("masked_fill_(Tensor(a!) self, Tensor mask, Tensor|Scalar value) -> Tensor(a!)",
           tags=("inplace",), function=False, decomposition=_masked_fill_)
    define("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
           decomposition=_masked_scatter)
    define("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)",
           tags=("inplace",), function=False, decomposition=_masked_scatter_recorded)
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
    overload(op, public_level(op, _nonzero_wrapper))
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


_declare()
_checked_first("narrow_copy", _check_narrow_copy_first)


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


def _masked_scatter_source(grad, mask, source_geometry):
    """The gradients of the source elements written (in order), zeros for the rest: each
    masked position's gradient put at its rank among the masked positions, the others at a
    spare slot dropped after (shapes that do not depend on the mask's values, so the meta
    device runs it too)."""
    n = numel(shape := source_geometry[0])
    flat = mask.expand(grad.shape).reshape(-1)
    rank = flat.cumsum(0) - 1
    slot = OPS["where"].call(flat, rank, rank.new_full((), n))
    out = grad.new_zeros((n + 1,)).index_put((slot,), grad.reshape(-1))
    return out.narrow(0, 0, n).view(shape)


def _derivatives():
    from ...autograd.functional_helpers import sum_to
    derivative(OPS["masked_scatter"],
               self=lambda grad, self_geometry, mask:
               sum_to(grad.masked_fill(mask, 0), self_geometry[0]),
               source=_masked_scatter_source)
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
    derivative(OPS["take"], self=_take_grad)
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
                       ("take", "take"), ("take_along_dim", "mm"),
                       ("narrow_copy", "narrow_copy")):
        exact_out(OPS[name], kind)


_exact_outs()
