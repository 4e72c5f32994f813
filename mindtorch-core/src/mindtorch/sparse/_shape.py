"""Shape ops of COO tensors (select, index_select, permute, unsqueeze, cat, stack and
integer indexing): index arithmetic on the entries, as PyTorch's sparse kernels.  The ops
PyTorch refuses on sparse tensors raise its errors here too."""
from .._layout import strided
from . import _tensor as T
from ._tensor import make_coo


def _M():
    import mindtorch
    return mindtorch


def _fresh(idx, vals, shape):
    """A result of these ops: not known to be coalesced unless it has one entry at most
    (PyTorch's flag)."""
    return make_coo(idx, vals, shape, idx.shape[1] <= 1)


def _coo_only(s, name):
    if not s.is_sparse:
        from ._dispatch import missing
        missing(name, s._device.type)()


def _wrap(dim, n):
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def select(s, dim, index):
    if not s.is_sparse:  # (PyTorch selects from a CSR matrix's COO form: sorted rows)
        r = select(T.csr_to_coo(s), dim, index)
        if r.layout is not strided:
            r._coalesced = True
        return r
    dim = _wrap(dim, s.ndim)
    size = s.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(s.shape)} at dimension {dim}")
    index %= size
    sd = s._idx.shape[0]
    shape = s.shape[:dim] + s.shape[dim + 1:]
    if dim >= sd:
        return _fresh(s._idx, s._vals.select(dim - sd + 1, index), shape)
    keep = (s._idx[dim] == index).nonzero().reshape(-1)
    vals = s._vals.index_select(0, keep)
    if sd == 1:  # no sparse dim left: the entries' sum, dense
        return vals.sum(0)
    rest = [d for d in range(sd) if d != dim]
    return _fresh(s._idx[rest].index_select(1, keep), vals, shape)


def narrow_copy(s, dim, start, length):
    """The entries inside [start, start + length) along dim, shifted to start at 0."""
    _coo_only(s, "narrow_copy")
    dim = _wrap(dim, s.ndim)
    size = s.shape[dim]
    if start < 0 or length < 0 or start + length > size:  # (no wrapping of start here)
        raise RuntimeError(f"Invalid range to narrow. range(start, start+length) must be a "
                           f"subset of range(0, {size}).")
    sd = s._idx.shape[0]
    shape = s.shape[:dim] + (length,) + s.shape[dim + 1:]
    if dim >= sd:
        vals = s._vals.narrow(dim - sd + 1, start, length).clone()
        return make_coo(s._idx.clone(), vals, shape, s._coalesced)
    at = s._idx[dim]
    keep = ((at >= start) & (at < start + length)).nonzero().reshape(-1)
    idx = s._idx.index_select(1, keep)
    idx[dim] -= start
    return make_coo(idx, s._vals.index_select(0, keep), shape,
                    s._coalesced or keep.shape[0] <= 1)


def index_select(s, dim, index):
    _coo_only(s, "index_select")
    dim = _wrap(dim, s.ndim)
    sd = s._idx.shape[0]
    shape = list(s.shape)
    shape[dim] = index.numel()
    if dim >= sd:
        return _fresh(s._idx, s._vals.index_select(dim - sd + 1, index), shape)
    # the entries matching each index in turn (PyTorch's order: by index, then entry)
    pos, entry = (index.reshape(-1, 1) == s._idx[dim].reshape(1, -1)).nonzero().unbind(1)
    idx = s._idx.index_select(1, entry).clone()
    idx[dim] = pos
    return _fresh(idx, s._vals.index_select(0, entry), shape)


def permute(s, dims):
    _coo_only(s, "permute")
    n = s.ndim
    dims = [_wrap(d, n) for d in dims]
    if sorted(dims) != list(range(n)):
        raise RuntimeError("permute(): dims must be a permutation of the tensor's dims")
    sd = s._idx.shape[0]
    if sorted(dims[:sd]) != list(range(sd)):
        raise RuntimeError("permute(sparse_coo): transpositions between sparse and dense "
                           "dimensions are not allowed. Only transpositions within sparse and "
                           "dense dimensions are supported.")
    shape = [s.shape[d] for d in dims]
    vals = s._vals.permute([0] + [d - sd + 1 for d in dims[sd:]])
    return _fresh(s._idx[dims[:sd]], vals, shape)


def unsqueeze(s, dim):
    _coo_only(s, "unsqueeze")
    dim = _wrap(dim, s.ndim + 1)
    sd = s._idx.shape[0]
    shape = s.shape[:dim] + (1,) + s.shape[dim:]
    if dim > sd:
        return _fresh(s._idx, s._vals.unsqueeze(dim - sd + 1), shape)
    M = _M()
    zero = M.zeros((1, s._idx.shape[1]), dtype=s._idx.dtype, device=s._idx.device)
    idx = M.cat([s._idx[:dim], zero, s._idx[dim:]])
    return _fresh(idx, s._vals, shape)


def cat(tensors, dim=0):
    from ._tensor import SparseTensor
    M = _M()
    tensors = list(tensors)
    if not all(type(t) is SparseTensor and t.is_sparse for t in tensors):
        raise RuntimeError("cat(): sparse and dense tensors (or sparse layouts) cannot be "
                           "mixed; all tensors must be sparse COO")
    first = tensors[0]
    dim = _wrap(dim, first.ndim)
    sd = first._idx.shape[0]
    for t in tensors:
        if t.ndim != first.ndim or t._idx.shape[0] != sd or any(
                a != b for d, (a, b) in enumerate(zip(t.shape, first.shape)) if d != dim):
            raise RuntimeError("cat(): all sparse tensors must have the same sparse_dim, "
                               "dense_dim and sizes except in the dimension of concatenation")
    if dim >= sd:
        raise NotImplementedError("cat(): concatenating sparse tensors along a dense dim is "
                                  "not supported")
    idx, offset = [], 0
    for t in tensors:
        shifted = t._idx.clone()
        shifted[dim] += offset
        idx.append(shifted)
        offset += t.shape[dim]
    shape = list(first.shape)
    shape[dim] = offset
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = M.promote_types(dtype, t.dtype)
    return _fresh(M.cat(idx, 1), M.cat([t._vals.to(dtype) for t in tensors]), shape)


def stack(tensors, dim=0):
    return cat([unsqueeze(t, dim) for t in tensors], dim)


def getitem(s, index):
    """s[i], s[:, i], s[..., i], s[None]: integers, full slices, Ellipsis and None."""
    index = index if isinstance(index, tuple) else (index,)
    if sum(i is Ellipsis for i in index) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(i is not None and i is not Ellipsis for i in index)
    if used > s.ndim:
        raise IndexError(f"too many indices for tensor of dimension {s.ndim}")
    expanded = []
    for i in index:
        expanded += [slice(None)] * (s.ndim - used) if i is Ellipsis else [i]
    from .._ops import OPS  # (through the bindings, so that autograd records them)
    dim = 0
    for k, i in enumerate(expanded):
        if i is None:
            s = OPS["unsqueeze"].binding(s, dim)
            dim += 1
        elif isinstance(i, slice) and i == slice(None):
            dim += 1
        elif isinstance(i, int) and not isinstance(i, bool):
            size = s.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size "
                                 f"{size}")
            s = OPS["select"].binding(s, dim, i)
        else:
            raise NotImplementedError(f"indexing a sparse tensor with {type(i).__name__} is "
                                      f"not supported (integers, full slices, ... and None are)")
        if type(s) is not T.SparseTensor:  # every sparse dim selected: dense from here
            rest = tuple(expanded[k + 1:])
            return s[rest] if rest else s
    return s


def _refuse(message):
    def fn(*args, **kwargs):
        raise RuntimeError(message)
    return fn


def _no_expand(s, *args, **kwargs):
    raise RuntimeError(f"expand is unsupported for {'Sparse' if s.is_sparse else 'SparseCsr'} "
                       f"tensors")


_RESHAPE = _refuse("reshape is not implemented for sparse tensors")
_CONTIGUOUS = _refuse("unsupported memory format option Contiguous")

TABLE = {
    "select": select, "index_select": index_select, "permute": permute,
    "narrow_copy": narrow_copy,
    "unsqueeze": unsqueeze, "cat": cat, "stack": stack,
    "reshape": _RESHAPE, "flatten": _RESHAPE, "einsum": _RESHAPE,
    "expand": _no_expand, "repeat": _no_expand,
    "contiguous": _CONTIGUOUS, "masked_fill": _CONTIGUOUS,
}
