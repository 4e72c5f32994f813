"""torch.sparse: COO and CSR tensors (see _tensor.py), their constructors, the conversions
of dense tensors, and torch.sparse's functions.

The functions here that PyTorch differentiates with sparse gradients (sparse.mm, sparse.sum,
softmax) compute on the values through `values()` (history: a gradient in the input's
sparsity pattern) and build their result with `_from_values` (history to those values), so
their backward is the values' recorded ops."""
from .. import _dtype as D
from .._layout import sparse_coo, sparse_csr, strided
from .._tensor import Tensor
from . import _legacy
from . import _tensor as T
from ._nodes import SparseDenseMm, recorded_as
from ._tensor import SparseTensor, make_coo, make_csr

__all__ = [
    "addmm",
    "as_sparse_gradcheck",
    "check_sparse_tensor_invariants",
    "log_softmax",
    "mm",
    "sampled_addmm",
    "softmax",
    "spdiags",
    "sum",
]


def _M():
    import mindtorch
    return mindtorch


_check_invariants = [None]  # None: never set; constructors relying on it warn once


def _checking(check_invariants):
    """Whether a constructor checks its indices: its argument, else the global setting
    (PyTorch's once-per-process warning while that was never set)."""
    if check_invariants is not None:
        return bool(check_invariants)
    if _check_invariants[0] is None:
        from .._warn_once import warn_once
        warn_once("sparse_invariants", _IMPLICIT)
        return False
    return _check_invariants[0]


_IMPLICIT = ("Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) "
             "will occur when operating on a sparse tensor which violates the invariants, but "
             "checks incur performance overhead. To silence this warning, explicitly opt in "
             "or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance. ")


class check_sparse_tensor_invariants:
    """Whether the sparse constructors check their indices (off by default, as PyTorch)."""

    def __init__(self, enable=True):
        self.state, self.saved = enable, None

    @staticmethod
    def is_enabled():
        return bool(_check_invariants[0])

    @staticmethod
    def enable():
        _check_invariants[0] = True

    @staticmethod
    def disable():
        _check_invariants[0] = False

    def __enter__(self):
        self.saved = self.is_enabled()  # (set explicitly on exit, as PyTorch)
        _check_invariants[0] = self.state

    def __exit__(self, *exc):
        _check_invariants[0] = self.saved

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def run(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return run


# -- constructors ----------------------------------------------------------------------

def _as_tensor(x, dtype, device):
    M = _M()
    if isinstance(x, Tensor):
        return x if (dtype is None or x.dtype is dtype) and device is None else \
            x.to(device=device, dtype=dtype)
    return M.tensor(x, dtype=dtype, device=device)


def _from_values(values, make, node=T.FromValues):
    """make(values) with history to values when they require grad."""
    if values._requires_grad and _M().is_grad_enabled():
        return node.apply(values, make)
    return make(values)


def _finish(s, requires_grad):
    if requires_grad:
        if not (s.dtype.is_floating_point or s.dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        if s._grad_fn is not None:
            raise RuntimeError("sparse_coo_tensor(): requires_grad=True needs values without "
                               "history")
        s._requires_grad = True
    return s


def sparse_coo_tensor(indices, values=None, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None,
                      is_coalesced=None):
    check_invariants = _checking(check_invariants)
    if values is None:  # sparse_coo_tensor(size): no entries
        size = tuple(indices)
        empty = _M().empty(0, dtype=dtype or D.get_default_dtype(), device=device)
        indices = _M().zeros((len(size), 0), dtype=D.int64, device=empty.device)
        return _finish(make_coo(indices, empty, size, True), requires_grad)
    values = _as_tensor(values, dtype, device)
    indices = _as_tensor(indices, None, values.device)
    if indices.dtype is not D.int64:  # (PyTorch converts floats and bools too)
        indices = indices.long()
    if values.ndim == 0:  # (PyTorch: one entry)
        values = values.reshape(1)
    if size is not None:  # (checked first, as PyTorch)
        if indices.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        sd, dd = indices.shape[0], values.ndim - 1
        if len(size) != sd + dd:
            raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: "
                               f"len(size) = {len(size)}, sparse_dim = {sd}, dense_dim = {dd}")
    if indices.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(indices.shape)}")
    if indices.shape[1] != values.shape[0]:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: "
                           f"{indices.shape[1]}, nnz from values: {values.shape[0]}")
    sd = indices.shape[0]
    if size is None:
        _check_nonnegative(indices)
        lead = (indices.amax(1) + 1).tolist() if indices.shape[1] else [0] * sd
        size = tuple(lead) + tuple(values.shape[1:])
    size = tuple(int(n) for n in size)
    if len(size) != sd + values.ndim - 1:
        raise RuntimeError(f"number of dimensions must be sparse_dim ({sd}) + dense_dim "
                           f"({values.ndim - 1}), but got {len(size)}")
    if tuple(values.shape[1:]) != size[sd:]:
        raise RuntimeError(f"values has incorrect size, expected {list((values.shape[0],) + size[sd:])}"
                           f", got {list(values.shape)}")
    if check_invariants:
        _check_coo(indices, size)
    coalesced = bool(is_coalesced) or indices.shape[1] <= 1 and not is_coalesced is False
    s = _from_values(values, lambda v: make_coo(indices, v, size, coalesced))
    return _finish(s, requires_grad)


def _check_coo(indices, size):
    if indices.shape[1] == 0:
        return
    _check_nonnegative(indices)
    top = indices.amax(1).tolist()
    for d, (m, n) in enumerate(zip(top, size)):
        if m >= n:
            raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {n} "
                               f"but found index {m}")


def _check_nonnegative(indices):
    """PyTorch's error for the first sparse dim holding a negative index (its least)."""
    if not indices.shape[1]:
        return
    for d, least in enumerate(indices.amin(1).tolist()):
        if least < 0:
            raise RuntimeError(f"found negative index {least} for dim {d}")


# PyTorch's CSR invariants, checked in its order: (what fails, its statement)
_CSR_INVARIANTS = (
    (lambda crow, col, ncols: int(crow[0]) != 0, "`crow_indices[..., 0] == 0`"),
    (lambda crow, col, ncols: int(crow[-1]) != col.shape[0], "`crow_indices[..., -1] == nnz`"),
    (lambda crow, col, ncols: bool(((crow[1:] - crow[:-1]) < 0).any()
                                   | ((crow[1:] - crow[:-1]) > ncols).any()),
     "`0 <= crow_indices[..., 1:] - crow_indices[..., :-1] <= ncols`"),
    (lambda crow, col, ncols: col.shape[0] > 0 and (int(col.max()) >= ncols or
                                                    int(col.min()) < 0),
     "`0 <= col_indices < ncols`"),
    (lambda crow, col, ncols: _unsorted_rows(crow, col),
     ("`col_indices[..., crow_indices[..., i - 1]:crow_indices[..., i]] for all i = 1, ..., "
      "nrows are sorted and distinct along the last dimension values`")),
)


def _unsorted_rows(crow, col):
    """Whether some row's column indices are not strictly increasing."""
    if col.shape[0] < 2:
        return False
    M = _M()
    rows = M.repeat_interleave(M.arange(crow.shape[0] - 1, device=crow.device),
                               crow[1:] - crow[:-1])
    same_row = rows[1:] == rows[:-1]
    return bool((same_row & (col[1:] <= col[:-1])).any())


def _check_csr(crow, col, ncols):
    for fails, statement in _CSR_INVARIANTS:
        if fails(crow, col, ncols):
            raise RuntimeError(f"{statement} is not satisfied.")


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None,
                      device=None, pin_memory=False, requires_grad=False,
                      check_invariants=None):
    check_invariants = _checking(check_invariants)
    values = _as_tensor(values, dtype, device)
    crow = _as_tensor(crow_indices, None, values.device).long()
    col = _as_tensor(col_indices, None, values.device).long()
    if crow.ndim != 1 or col.ndim != 1 or values.ndim != 1:
        raise RuntimeError("sparse_csr_tensor: batched or hybrid CSR tensors are not supported "
                           "(crow_indices, col_indices and values must be 1-D)")
    if col.shape[0] != values.shape[0]:
        raise RuntimeError(f"col_indices.shape[-1] must be equal to nnz (={values.shape[0]}) as "
                           f"defined by values.shape[0], but got {col.shape[0]}")
    if size is None:
        size = (crow.shape[0] - 1, int(col.max()) + 1 if col.shape[0] else 0)
    size = tuple(int(n) for n in size)
    if len(size) != 2 or crow.shape[0] != size[0] + 1:
        raise RuntimeError(f"crow_indices.shape[-1] must be equal to the number of rows + 1 "
                           f"(={size[0] + 1}), but got {crow.shape[0]}")
    if check_invariants:
        _check_csr(crow, col, size[1])
    s = _from_values(values, lambda v: make_csr(crow, col, v, size), T.FromCsrValues)
    return _finish(s, requires_grad)


def sparse_compressed_tensor(compressed_indices, plain_indices, values, size=None, *,
                             dtype=None, layout=None, device=None, requires_grad=False,
                             check_invariants=None):
    check_invariants = _checking(check_invariants)
    if layout is not sparse_csr:
        raise NotImplementedError(f"sparse_compressed_tensor: layout {layout} is not supported "
                                  f"(sparse_csr is)")
    return sparse_csr_tensor(compressed_indices, plain_indices, values, size, dtype=dtype,
                             device=device, requires_grad=requires_grad,
                             check_invariants=check_invariants)


# -- dense tensors' conversion methods ---------------------------------------------------

@T.node_name("ToSparseBackward1")
class _ToSparse(T.Function):
    @staticmethod
    def forward(ctx, x, convert):
        return convert(x)

    @staticmethod
    def backward(ctx, g):
        return (g.to_dense() if g.layout is not strided else g), None


@T.node_name("ToSparseBackward0")
class _ToSparseDim(_ToSparse):  # (to_sparse(sparse_dim): PyTorch's other overload)
    pass


@T.node_name("ToSparseCsrBackward0")
class _ToSparseCsr(_ToSparse):  # (Tensor.to_sparse_csr; to_sparse(layout=) is ToSparse's)
    pass


def _converted(x, convert, function=_ToSparse):
    if x._requires_grad and _M().is_grad_enabled():
        return function.apply(x, convert)
    return convert(x.detach())


def _to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
    if args and isinstance(args[0], int) and layout is None:
        return _converted(self, lambda x: T.to_coo(x, args[0]), _ToSparseDim)
    if args and layout is None:
        layout = args[0]
    if layout is sparse_csr:
        return _to_sparse_csr(self, dense_dim, _function=_ToSparse)
    if layout not in (None, sparse_coo):
        raise RuntimeError(f"to_sparse: layout {layout} is not supported")
    return _converted(self, T.to_coo)


def _to_sparse_csr(self, dense_dim=None, *, _function=_ToSparseCsr):
    if dense_dim:
        raise NotImplementedError("to_sparse_csr: hybrid CSR tensors are not supported")
    return _converted(self, T.to_csr, _function)


@T.node_name("SparseMaskBackward0")
class _SparseMask(T.Function):
    @staticmethod
    def forward(ctx, x, mask):
        return T._like(mask, T.mask_values(x, mask), True)

    @staticmethod
    def backward(ctx, g):
        return g.to_dense(), None


def _sparse_mask(self, mask):
    if not isinstance(mask, SparseTensor):
        raise RuntimeError(  # noqa: TRY004 - PyTorch's class
            f"sparse_mask expects mask to be sparse, got {mask.layout}")
    if tuple(mask.shape) != tuple(self.shape):
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(self.shape)} but mask has size {list(mask.shape)}")
    mask = mask.detach()
    mask = mask if not mask.is_sparse or mask._coalesced else T.coalesced(mask)
    coo = mask if mask.is_sparse else T.csr_to_coo(mask)
    if self._requires_grad and _M().is_grad_enabled():
        r = _SparseMask.apply(self, coo)
    else:
        r = _SparseMask.forward(None, self.detach(), coo)
    return r if mask.is_sparse else make_csr(mask._crow, mask._idx, r._vals, mask.shape)


def _strided_only(name, kind="sparse coordinate", error=RuntimeError):
    def method(self, *args, **kwargs):
        raise error(f"{name} expected {kind} tensor layout but got Strided")
    method.__name__ = name
    return method


def _unsupported_layout(name):
    def method(self, *args, **kwargs):
        raise NotImplementedError(f"to_sparse_{name}: the sparse_{name} layout is not supported "
                                  f"by mindtorch (sparse_coo and sparse_csr are)")
    method.__name__ = f"to_sparse_{name}"
    return method


def _install():
    methods = {
        "to_sparse": _to_sparse, "to_sparse_coo": lambda self: _to_sparse(self),
        "to_sparse_csr": _to_sparse_csr, "sparse_mask": _sparse_mask,
        "to_dense": lambda self, dtype=None, *, masked_grad=None:
            self if dtype is None else self.to(dtype),
        "sparse_dim": lambda self: 0, "dense_dim": lambda self: self.ndim,
        "indices": _strided_only("indices"), "_indices": _strided_only("_indices"),
        "values": _strided_only("values", "sparse"), "_values": _strided_only("_values",
                                                                             "sparse"),
        "coalesce": _strided_only("coalesce"), "is_coalesced": _strided_only("is_coalesced"),
        "crow_indices": _strided_only("crow_indices", "sparse row compressed"),
        "col_indices": _strided_only("col_indices", "sparse row compressed"),
        "_nnz": _strided_only("_nnz", "sparse", NotImplementedError),
        "ccol_indices": _strided_only("ccol_indices", "sparse column compressed"),
        "row_indices": _strided_only("row_indices", "sparse column compressed"),
        **{f"to_sparse_{name}": _unsupported_layout(name) for name in ("csc", "bsr", "bsc")},
        "smm": lambda self, mat: smm(self, mat),
        "sspaddmm": lambda self, mat1, mat2, *, beta=1, alpha=1: sspaddmm(
            self, mat1, mat2, beta=beta, alpha=alpha),
    }
    from .._tensor_subclass import replace_tensor_method
    for name, fn in methods.items():  # (replacing _layout's stubs)
        current = getattr(Tensor.__dict__.get(name), "orig", Tensor.__dict__.get(name))
        if current is None or getattr(current, "sparse_stub", False):
            fn.__name__ = fn.__qualname__ = name
            replace_tensor_method(name, fn)


_install()


# -- torch.sparse's functions -------------------------------------------------------------

def _coalesced_coo(s):
    if not s.is_sparse:  # (with history through the dense form when s requires grad)
        s = s.to_dense().to_sparse() if s._requires_grad else T.csr_to_coo(s)
    return s.coalesce()


_MM_REDUCE = {"mean": "mean", "amax": "amax", "max": "amax", "amin": "amin", "min": "amin"}


def _mm_reduce(mat1, mat2, reduce):
    """CSR @ dense with each output row reduced over its row's products (PyTorch's
    _sparse_mm_reduce_impl); rows without entries are 0."""
    M = _M()
    if not (isinstance(mat1, SparseTensor) and mat1.is_sparse_csr):
        raise NotImplementedError("Could not run 'aten::_sparse_mm_reduce_impl' with arguments "
                                  "from the 'SparseCPU' backend. This could be because the "
                                  "operator doesn't exist for this backend, or was omitted "
                                  "during the selective/custom build process (if using custom "
                                  "build).")
    kind = _MM_REDUCE.get(reduce)
    if kind is None:
        raise RuntimeError(f"sparse_mm_reduce: reduce type of {reduce} has not been enabled."
                           if reduce == "prod" else "reduce argument must be either sum, prod, "
                           f"mean, amax or amin, got {reduce}")
    if mat2.dtype is not mat1.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'other' to have scalar type "
                           f"{D.scalar_type_name(mat1.dtype)}; but got torch."
                           f"{D.scalar_type_name(mat2.dtype)}Tensor instead (while checking "
                           f"arguments for sparse_mm_reduce)")
    if mat2.ndim != 2 or mat2.shape[0] != mat1.shape[1]:
        raise RuntimeError(f"Expected a tensor of dimension 2 and tensor.size[0] == "
                           f"{mat1.shape[1]} but got: dimension {mat2.ndim} and tensor.size[0] "
                           f"= {mat2.shape[0] if mat2.ndim else 0}")
    coo = T.csr_to_coo(mat1)
    rows, cols = coo._idx[0], coo._idx[1]
    products = coo._vals.unsqueeze(1) * mat2.index_select(0, cols)
    out = M.zeros((mat1.shape[0], mat2.shape[1]), dtype=products.dtype, device=mat2.device)
    at = rows.unsqueeze(1).expand_as(products)
    if kind == "mean":
        return out.scatter_reduce(0, at, products, kind, include_self=False)
    # amax / amin: the first product reaching it, gathered, so that its gradient goes to that
    # entry alone (PyTorch's arg_out), not shared among equal ones as scatter_reduce's
    best = out.scatter_reduce(0, at, products.detach(), kind, include_self=False)
    n = products.shape[0]
    position = M.arange(n, device=mat2.device).unsqueeze(1).expand_as(products)
    first = M.full(out.shape, n, dtype=position.dtype, device=mat2.device).scatter_reduce(
        0, at, position.masked_fill(products.detach() != best.index_select(0, rows), n), "amin")
    return M.where(first < n, products.gather(0, first.clamp(max=max(n - 1, 0))), out) if n \
        else out


def mm(mat1, mat2, reduce="sum"):
    """sparse @ dense (or sparse @ sparse); mat1's gradient is sparse, in its pattern.
    reduce (CSR mat1): "sum", "mean", "amax" / "max", "amin" / "min" over each row."""
    if reduce != "sum":
        return _mm_reduce(mat1, mat2, reduce)
    if not isinstance(mat1, SparseTensor) or isinstance(mat2, SparseTensor):
        return _M().mm(mat1, mat2)
    from ._dispatch import _check_mm
    _check_mm(mat1, mat2)
    if not mat1._requires_grad:
        return SparseDenseMm.apply(mat1, mat2) if mat2.requires_grad and \
            _M().is_grad_enabled() else _M().mm(mat1, mat2)
    return recorded_as("SparseAddmmBackward0", _spmm, mat1, mat2)


def _spmm(mat1, mat2):
    s = _coalesced_coo(mat1)
    rows, cols = s._idx[0], s._idx[1]
    out = _M().zeros((s.shape[0], mat2.shape[1]), dtype=mat2.dtype, device=mat2.device)
    return out.index_add(0, rows, s._values_of().unsqueeze(1) * mat2.index_select(0, cols))


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    return recorded_as("SparseAddmmBackward0",
                       lambda m, a, b: m * beta + mm(a, b) * alpha, mat, mat1, mat2)


def sum(input, dim=None, dtype=None):
    """The sum of the specified entries; over some dims a sparse tensor (dense when every
    sparse dim is reduced).  The gradient is sparse, in input's pattern."""
    if not (isinstance(input, SparseTensor) and input.is_sparse):  # (PyTorch: COO only)
        if dim is None:
            raise RuntimeError(f"coalesce expected sparse coordinate tensor layout but got "
                               f"{'SparseCsr' if isinstance(input, SparseTensor) else 'Strided'}")
        _refuse("_indices", input)
    if dim is None:
        return _sum(input, dim, dtype)
    return recorded_as("SparseSumBackward0", lambda x: _sum(x, dim, dtype), input)


def _sum(input, dim, dtype):
    s = _coalesced_coo(input)
    vals = s._values_of()
    if dtype is not None:
        vals = vals.to(dtype)
    if dim is None:
        return vals.sum()
    from .._ops._argcheck import wrap_dims
    dims = sorted(wrap_dims([dim] if isinstance(dim, int) else list(dim), s.ndim))
    sd = s._idx.shape[0]
    dense_dims = [d - sd + 1 for d in dims if d >= sd]
    if dense_dims:
        vals = vals.sum(dense_dims)
    keep = [d for d in range(sd) if d not in dims]
    if not keep:
        return vals.sum(0)
    shape = [n for d, n in enumerate(s.shape) if d not in dims]
    idx = s._idx[keep]
    r = _from_values(vals, lambda v: make_coo(idx, v, shape))
    return r.coalesce()


def sampled_addmm(input, mat1, mat2, *, beta=1.0, alpha=1.0, out=None):
    """beta * input + alpha * (mat1 @ mat2) at input's (CSR) entries only."""
    if not (isinstance(input, SparseTensor) and input.is_sparse_csr):
        _refuse("sparse_sampled_addmm", input)
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if isinstance(m, SparseTensor):
            raise RuntimeError(  # noqa: TRY004 - PyTorch's class
                f"sampled_addmm: Expected {name} to have strided layout, but got "
                f"{'Sparse' if m.is_sparse else 'SparseCsr'}")
    if mat1.dtype is not mat2.dtype:
        raise RuntimeError(f"sampled_addmm: Expected mat1 and mat2 to have the same dtype, but "
                           f"got {D.scalar_type_name(mat1.dtype)} and "
                           f"{D.scalar_type_name(mat2.dtype)}")
    if mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"sampled_addmm: mat1 and mat2 shapes cannot be multiplied "
                           f"({'x'.join(map(str, mat1.shape))} and "
                           f"{'x'.join(map(str, mat2.shape))})")
    r = recorded_as("SparseSampledAddmmBackward0",
                    lambda s, a, b: _sampled_addmm(s, a, b, beta, alpha), input, mat1, mat2)
    return r if out is None else out.copy_(r)


def _sampled_addmm(s, a, b, beta, alpha):
    rows, cols = T.csr_to_coo(s.detach())._idx
    dots = (a.index_select(0, rows) * b.t().index_select(0, cols)).sum(-1)
    vals = s.values() * beta + dots * alpha
    return _from_values(vals, lambda v: make_csr(s._crow, s._idx, v, s.shape))


def _refuse(op, input):
    """PyTorch's error for a COO-only op given a CSR or dense input."""
    from ._dispatch import missing
    key = input._device.type if isinstance(input, SparseTensor) else \
        {"cpu": "CPU", "meta": "Meta"}.get(input.device.type, input.device.type)
    missing(op, key)()


def _grouped(s, dim):
    """Each entry's group along dim (the entries sharing all other sparse indices)."""
    M = _M()
    others = [d for d in range(s._idx.shape[0]) if d != dim]
    if not others:
        return M.zeros(s._idx.shape[1], dtype=D.int64, device=s._idx.device), 1
    flat = T._flat_index(s._idx[others], [s.shape[d] for d in others])
    uniq, inv = M.unique(flat, return_inverse=True)
    return inv, uniq.shape[0]


def _softmax(input, dim, dtype, log):
    M = _M()
    if not isinstance(input, SparseTensor) or not input.is_sparse:  # (PyTorch: COO only)
        _refuse("_sparse_log_softmax" if log else "_sparse_softmax", input)
    from .._ops._argcheck import wrap_dim
    s = _coalesced_coo(input)
    dim = wrap_dim(dim, s.ndim)
    if dim >= s._idx.shape[0]:
        raise NotImplementedError("sparse.softmax over a dense dim is not supported")
    vals = s._values_of() if dtype is None else s._values_of().to(dtype)
    group, n = _grouped(s, dim)
    tail = tuple(vals.shape[1:])
    idx = group.reshape((-1,) + (1,) * len(tail)).expand(vals.shape)
    top = M.full((n,) + tail, float("-inf"), dtype=vals.dtype, device=vals.device)
    top = top.scatter_reduce(0, idx, vals.detach(), "amax")
    shifted = vals - top.index_select(0, group)
    e = shifted.exp()
    total = M.zeros((n,) + tail, dtype=vals.dtype, device=vals.device).index_add(0, group, e)
    out = shifted - total.log().index_select(0, group) if log else \
        e / total.index_select(0, group)
    r = _from_values(out, lambda v: make_coo(s._idx, v, s.shape, True))
    return r if input.is_sparse else r.to_sparse_csr()


def softmax(input, dim, *, dtype=None):
    """Softmax over the specified entries along dim (unspecified ones count as -inf)."""
    return recorded_as("SparseSoftmaxBackward0", lambda x: _softmax(x, dim, dtype, False),
                       input)


def log_softmax(input, dim, *, dtype=None):
    return recorded_as("SparseLogSoftmaxBackward0", lambda x: _softmax(x, dim, dtype, True),
                       input)


def _missing(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"torch.sparse.{name} is not supported by mindtorch")
    fn.__name__ = name
    return fn


as_sparse_gradcheck = _missing("as_sparse_gradcheck")


globals().update(_legacy.LEGACY)  # torch.sparse.FloatTensor ...


def spmm(input, mat2):
    return _M().mm(input, mat2)


from ._products import dsmm, hsmm, hspmm, saddmm, smm, spdiags, sspaddmm  # noqa: E402,F401
