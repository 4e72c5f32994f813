"""Indexing ops: result shapes from index shapes (the checks are core's, shared with every
backend).  Ops whose result size depends on data (nonzero, masked_select, indexing with
a bool mask) cannot be inferred and raise PyTorch's NotImplementedError (errors.py)."""
from mindtorch import Tensor
from mindtorch._ops.decls import indexing as I
from mindtorch._ops.decls import scatter as S
from mindtorch._strides import check_no_internal_overlap

from ..errors import no_meta_kernel


def index_select(self, dim, index):
    return I.index_select_shape(self, dim, index), self.dtype


def gather(self, dim, index, sparse_grad=False):
    S.check_gather(self, dim, index)
    return index._shape, self.dtype


def scatter(self, dim, index, src, reduce=None):
    S.check_scatter_reduce(reduce, src)
    S.check_scatter(self, dim, index, src)
    if not isinstance(src, Tensor):
        I.checked_scalar(src, self.dtype)
    return self._shape, self.dtype


def scatter_add(self, dim, index, src):
    S.check_scatter(self, dim, index, src)
    return self._shape, self.dtype


def scatter_reduce(self, dim, index, src, reduce, include_self=True):
    S.check_scatter_reduce_op(self, dim, index, src, reduce)
    return self._shape, self.dtype


def _fill_value(self, value):
    if not isinstance(value, Tensor):
        I.checked_scalar(value, self.dtype)


def masked_fill(self, mask, value):
    shape = I.masked_fill_shape(self, mask, value, inplace=False)
    _fill_value(self, value)
    return shape, self.dtype


def masked_fill_(self, mask, value):
    I.masked_fill_shape(self, mask, value, inplace=True)
    _fill_value(self, value)
    return self._shape, self.dtype


def masked_select(self, mask):
    raise no_meta_kernel("masked_select")


def nonzero(self):
    raise no_meta_kernel("nonzero")


def _index_shapes(self, indices):
    """Per-dim index shapes, or None when a bool mask makes them data dependent."""
    I.check_index_list(self, indices)
    shapes = []
    for t in indices:
        if t is not None and I.is_mask(t):
            return None
        shapes.append(None if t is None else t._shape)
    return shapes


def index(self, indices):
    shapes = _index_shapes(self, indices)
    if shapes is None:
        raise no_meta_kernel("nonzero")  # (PyTorch's indexing turns masks into nonzero)
    return I.advanced_index_shape(self._shape, shapes), self.dtype


def index_put(self, indices, values, accumulate=False):
    if not accumulate:
        fill = I.masked_fill_dispatch(self, indices, values)
        if fill is not None:
            I.masked_fill_shape(self, fill[0], values.reshape(()), inplace=True)
            return self._shape, self.dtype
    shapes = _index_shapes(self, indices)
    result = None if shapes is None else I.advanced_index_shape(self._shape, shapes)
    I.check_index_put_values(self, values, result)
    return self._shape, self.dtype


def _writing(rule):
    """An in-place scatter rule: PyTorch's refusal of a self whose elements share memory."""
    def inplace(self, *args, **kwargs):
        check_no_internal_overlap(self._shape, self._stride)
        return rule(self, *args, **kwargs)
    return inplace


RULES = {
    "index_select": index_select, "gather": gather,
    "scatter": scatter, "scatter_": _writing(scatter), "scatter_add": scatter_add,
    "scatter_add_": _writing(scatter_add), "scatter_reduce": scatter_reduce,
    "scatter_reduce_": _writing(scatter_reduce),
    "masked_fill": masked_fill, "masked_fill_": masked_fill_, "masked_select": masked_select,
    "nonzero": nonzero, "index": index, "index_put": index_put, "index_put_": index_put,
}
