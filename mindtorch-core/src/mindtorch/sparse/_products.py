"""torch's older sparse @ dense products (smm, sspaddmm, saddmm, hspmm, hsmm, dsmm) and
torch.sparse.spdiags, with PyTorch's entries: a product contributes, for every row of mat1
holding entries, that whole row of mat1 @ mat2 (zeros kept, not coalesced)."""
from .. import _dtype as D
from .._layout import sparse_coo, sparse_csr, strided
from . import _tensor as T
from ._tensor import make_coo


def _M():
    import mindtorch
    return mindtorch


def _from_values(values, make):
    """make(values) with history to values when they require grad."""
    if values._requires_grad and _M().is_grad_enabled():
        return T.FromValues.apply(values, make)
    return make(values)


def _product_rows(mat1, mat2):
    """The rows of mat1 holding entries (ascending) and those rows of mat1 @ mat2."""
    M = _M()
    coo = mat1 if mat1.is_sparse else T.csr_to_coo(mat1)
    rows = M.unique(coo._idx[0])
    return rows, M.mm(mat1, mat2).index_select(0, rows)


def _expanded(rows, n):
    """The indices of every column of each of rows: 2 x (len(rows) * n)."""
    M = _M()
    cols = M.arange(n, device=rows.device)
    return M.stack([rows.repeat_interleave(n), cols.repeat(rows.shape[0])])


def sspaddmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2) as a sparse tensor: input's entries, then the
    product's rows."""
    M = _M()
    if not getattr(input, "is_sparse", False):
        raise RuntimeError("_internal_get_SparseTensorImpl: not a sparse tensor")
    rows, prod = _product_rows(mat1, mat2)
    n = mat2.shape[1]
    for d, want in enumerate((mat1.shape[0], n)):
        if input.shape[d] != want:
            raise RuntimeError(f"sspaddmm: Argument #1: Expected dim {d} size {want}, got "
                               f"{input.shape[d]}")
    idx = M.cat([input._idx, _expanded(rows, n)], 1)
    vals = M.cat([input._values_of() * beta, (prod * alpha).reshape(-1)])
    shape = (mat1.shape[0], n)
    r = _from_values(vals, lambda v: make_coo(idx, v, shape))
    return r if out is None else out.copy_(r)


saddmm = sspaddmm


def smm(input, mat):
    """sparse @ dense as a sparse tensor (the rows of input holding entries)."""
    rows, prod = _product_rows(input, mat)
    idx = _expanded(rows, mat.shape[1])
    return _from_values(prod.reshape(-1), lambda v: make_coo(idx, v, (input.shape[0],
                                                                       mat.shape[1])))


def hspmm(mat1, mat2, *, out=None):
    """sparse @ dense as a hybrid sparse tensor: one sparse dim (mat1's rows holding
    entries), the product's rows as dense values."""
    if not getattr(mat1, "is_sparse", False):
        raise NotImplementedError("Could not run 'aten::hspmm' with arguments from the "
                                  f"'{mat1._device.type.upper()}' backend.")
    rows, prod = _product_rows(mat1, mat2)
    idx = rows.unsqueeze(0)
    r = _from_values(prod, lambda v: make_coo(idx, v, (mat1.shape[0], mat2.shape[1])))
    return r if out is None else out.copy_(r)


hsmm = hspmm


def dsmm(input, mat2):
    return _M().mm(input, mat2)


_LAYOUT_NAMES = {strided: "Strided"}


def spdiags(diagonals, offsets, shape, layout=None):
    """A sparse matrix from rows of `diagonals` placed at `offsets`: entry (j - offset, j)
    is diagonals[k, j] (SciPy's convention), explicit zeros kept."""
    M = _M()
    if layout not in (None, sparse_coo, sparse_csr):
        if layout in _LAYOUT_NAMES:
            raise RuntimeError(f"Only output layouts (Sparse, SparseCsc, SparseCsr) are "
                               f"supported, got {_LAYOUT_NAMES[layout]}")
        raise NotImplementedError(f"spdiags: the {layout} layout is not supported by "
                                  f"mindtorch")
    if len(shape) != 2:
        raise RuntimeError("Output shape must be 2d")
    if diagonals.ndim > 2:
        raise RuntimeError("Diagonals must be vector or matrix")
    if offsets.ndim > 1:
        raise RuntimeError("Offsets must be scalar or vector")
    if offsets.dtype is not D.int64:
        raise RuntimeError(f"Offset Tensor must have dtype Long but got "
                           f"{D.scalar_type_name(offsets.dtype)}")
    diags = diagonals.reshape(1, -1) if diagonals.ndim < 2 else diagonals
    offs = offsets.reshape(-1).tolist()
    if diags.shape[0] != len(offs):
        raise RuntimeError(f"Number of diagonals ({diags.shape[0]}) does not match the number "
                           f"of offsets ({len(offs)})")
    if len(set(offs)) != len(offs):
        raise RuntimeError("Offset tensor contains duplicate values")
    m, n = (int(s) for s in shape)
    rows, cols, vals = [], [], []
    for k, off in enumerate(offs):
        j = M.arange(max(0, off), max(max(0, off), min(n, m + off, diags.shape[1])))
        rows.append(j - off)
        cols.append(j)
        vals.append(diags[k].index_select(0, j))
    idx = M.stack([M.cat(rows), M.cat(cols)]) if offs else M.zeros(2, 0, dtype=D.int64)
    v = M.cat(vals) if offs else diags.new_zeros(0)
    r = _from_values(v, lambda x: make_coo(idx, x, (m, n)))
    return r.to_sparse_csr() if layout is sparse_csr else r
