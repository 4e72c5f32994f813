"""Index updates along one dim: index_fill / index_add / index_copy / index_reduce (and
their in-place forms) as index_put_ along the dim, and put.  Their checks, in PyTorch's
order, are functions of their own that the cpu kernels call too (kernels/index_update.py),
so a backend kernel raises the decomposition's errors.  The other indexing ops are in
`indexing`.
"""
from ... import _dtype as D
from ..._memory_format import contiguous_format
from ..._scalars import checked_scalar
from ..._strides import check_no_internal_overlap, warn_expanded
from ..._warn_once import warn_once
from ..registry import OPS, define, derivative
from ._helpers import has_data as _has_data
from ._helpers import refuse_complex_autograd, write_into
from ._prechecks import _arg, _check_index_fill_first, _checked_first
from .indexing import type_name


def _vector_index(self, dim, index):
    """(self viewed with at least one dim, the index list that selects `index` along dim)."""
    target = self if self.ndim else self.reshape(1)
    return target, (None,) * dim + (index.reshape(-1),)


def _index_fill_(self, dim, index, value):
    from ..._tensor import Tensor
    warn_expanded(self, "index_fill_")
    if index.dtype is not D.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    scalar = value
    if isinstance(value, Tensor):  # (PyTorch fills with its item(), a checked Scalar)
        if value.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value.ndim} dimension(s).")
        scalar = value.item() if _has_data(value) else None
    if isinstance(scalar, complex) and not self.dtype.is_complex:  # (even 1+0j, even bool)
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not "
                           "supported")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if scalar is not None:
        checked_scalar(scalar, self.dtype)
    if isinstance(value, Tensor):
        fill = value if value.dtype is self.dtype else value.to(self.dtype)
    else:
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
    if n == 0 and index.numel():
        raise IndexError("put_(): Tried to put elements into an empty tensor")
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
        if include_self and self.ndim > 1 and reduce == "mean" and self.dtype is D.bool:
            name = "div_floor_cpu"  # (the sliced path fails dividing by the counts)
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
    target, idx, src = _as_scatter(self, dim, index, source)
    OPS["scatter_reduce_"].call(target, dim, idx, src, reduce, include_self)
    return self


def _as_scatter(self, dim, index, source):
    """index_reduce as a scatter_reduce: every element of source scatters to its index
    along dim (0-dim tensors as 1-element ones)."""
    shape = [1] * max(source.ndim, 1)
    shape[dim] = index.numel()
    target = self if self.ndim else self.reshape(1)
    src = source if source.ndim else source.reshape(1)
    return target, index.reshape(shape).expand(src._shape).to(D.int64), src


def _index_reduce_grad(grad, self, dim, index, source, reduce, include_self, result):
    """PyTorch's index_reduce_backward: scatter_reduce's, through the same scatter."""
    from .scatter import _scatter_reduce_grad
    target, idx, src = _as_scatter(self, dim, index, source)
    g_self, g_src = _scatter_reduce_grad(grad.reshape(target._shape), target, dim, idx, src,
                                         reduce, include_self, result.reshape(target._shape))
    return g_self.reshape(self._shape), g_src.reshape(source._shape)


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


def _out_of_place(inplace, memory_format=None):
    """The out-of-place op of an in-place decomposition: the same on a clone (laid out as
    self, or in memory_format: PyTorch's index_add / index_copy / index_reduce give
    contiguous results)."""
    def op(self, *args):
        return inplace(OPS["clone"].call(self, memory_format), *args)
    return op


def _declare():
    define("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) "
           "-> Tensor(a!)", tags=("inplace",), function=False,
           decomposition=_named_inplace("put", _put_))
    define("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
           decomposition=_out_of_place(_put_))
    define("index_reduce_(Tensor(a!) self, int dim, Tensor index, Tensor source, str reduce, "
           "*, bool include_self=True) -> Tensor(a!)", tags=("inplace",), function=False,
           decomposition=_named_inplace("index_reduce", _index_reduce_))
    define("index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
           "bool include_self=True) -> Tensor", out=True,
           decomposition=_out_of_place(_index_reduce_, contiguous_format))
    # index_fill / index_add / index_copy: index_put_ along one dim
    for name, inplace, args in (
            ("index_fill", _index_fill_, "Tensor|Scalar value"),
            ("index_add", _index_add_, "Tensor source, *, Scalar alpha=1"),
            ("index_copy", _index_copy_, "Tensor source")):
        define(f"{name}(Tensor self, int dim, Tensor index, {args}) -> Tensor",
               decomposition=_out_of_place(inplace, None if name == "index_fill" else
                                           contiguous_format),
               out=name != "index_fill")
        define(f"{name}_(Tensor(a!) self, int dim, Tensor index, {args}) -> Tensor(a!)",
               tags=("inplace",), function=False,
               decomposition=_named_inplace(name, inplace))


_declare()
_checked_first("index_fill", _check_index_fill_first)
_checked_first("index_fill_", _check_index_fill_first)
_checked_first("index_reduce", _check_index_reduce_first)
_checked_first("index_reduce_", _check_index_reduce_first)


def _index_copy_source(grad, dim, index, source_geometry):
    shape = source_geometry[0]
    if not shape:  # (a 0-dim source: one element through a one-element index)
        return grad.index_select(dim, index.reshape(-1)).reshape(())
    return grad.index_select(dim, index).expand(shape)


def _derivatives():
    derivative(OPS["index_reduce"], {"self, source": _index_reduce_grad})
    refuse_complex_autograd("index_reduce")  # (PyTorch has no complex formula)
    # index_fill: the filled entries get no gradient; a tensor value gets their sum
    derivative(OPS["index_fill"], self=lambda grad, dim, index: grad.index_fill(dim, index, 0),
               value=lambda grad, dim, index: grad.index_select(dim, index).sum(),
               name=lambda self, dim, index, value:
               f"IndexFillBackward{int(isinstance(value, type(self)))}")
    # put: PyTorch's formulas (the flat positions written get no gradient unless accumulated)
    derivative(OPS["put"], self=lambda grad, index, source, accumulate:
               grad if accumulate else grad.put(index, grad.new_zeros(source._shape), False),
               source=lambda grad, index, source_geometry:
               grad.take(index).reshape(source_geometry[0]))
    # index_copy: the overwritten entries get no gradient, every source slice its own
    # (duplicate indices included, as PyTorch's formula)
    derivative(OPS["index_copy"], self=lambda grad, dim, index: grad.index_fill(dim, index, 0),
               source=_index_copy_source)
    derivative(OPS["index_add"], self=lambda grad: grad,
               source=lambda grad, dim, index, alpha:
               grad.index_select(dim, index) * alpha if alpha != 1 else
               grad.index_select(dim, index))


_derivatives()


def _exact_outs():
    """out= of these ops takes only the result's dtype, as in PyTorch."""
    from ._out_rules import exact_out
    for name in ("index_add", "index_copy", "index_reduce"):
        exact_out(OPS[name], "mm")


_exact_outs()
