"""The sparse tensor: dense mindtorch tensors for its indices and values, so every
computation on it is mindtorch ops and runs on any backend.

A gradient with respect to a sparse tensor stands for its dense value, as in PyTorch (a leaf's
.grad is coalesced, in its pattern); the values' gradient is per entry.

COO: `_idx` (int64, sparse_dim x nnz) and `_vals` (nnz x dense dims); CSR: `_crow`
(rows + 1), `_idx` (the column of each value) and `_vals`.  Its `_device` slot holds
its layout's dispatch key (see _layout.py), so ops given it resolve to `_dispatch.py`.  As in
PyTorch it takes part in autograd itself (requires_grad, grad_fn): ops record their formulas
and the conversions below are autograd Functions."""
from .._layout import LayoutKey, sparse_coo, sparse_csr, strided
from .._tensor import Tensor, no_history
from .._warn_once import warn_once
from ..autograd.function import Function

try:  # (a layout, not a __torch_function__ subclass: it opts out, as nn.Parameter does)
    from ..overrides import _disabled_torch_function_impl
except ImportError:  # (mindtorch without the protocol)
    _disabled_torch_function_impl = None


def _M():
    import mindtorch
    return mindtorch


class SparseTensor(Tensor):
    __slots__ = ("_coalesced", "_crow", "_idx", "_vals")
    _storage = None
    if _disabled_torch_function_impl is not None:
        __torch_function__ = _disabled_torch_function_impl

    # -- metadata --------------------------------------------------------------------
    device = property(lambda self: self._device.device)
    layout = property(lambda self: self._device.layout)
    is_sparse = property(lambda self: self._device.layout is sparse_coo)
    is_sparse_csr = property(lambda self: self._device.layout is sparse_csr)
    is_cpu = property(lambda self: self._device.device.type == "cpu")
    is_meta = property(lambda self: self._device.device.type == "meta")
    is_cuda = property(lambda self: self._device.device.type == "cuda")
    is_npu = property(lambda self: self._device.device.type == "npu")

    def _layout_name(self):
        return "Sparse" if self.is_sparse else "SparseCsr"

    def _expect(self, what, layout):
        if self.layout is not layout:
            expected = "sparse coordinate" if layout is sparse_coo else \
                "sparse row compressed"
            raise RuntimeError(f"{what} expected {expected} tensor layout but got "
                               f"{self._layout_name()}")

    def sparse_dim(self):
        return self._idx._shape[0] if self.is_sparse else 2

    def dense_dim(self):
        return len(self._shape) - self.sparse_dim()

    def _nnz(self):
        return self._vals._shape[0]

    def is_coalesced(self):
        self._expect("is_coalesced", sparse_coo)
        return self._coalesced

    def _coalesced_(self, coalesced):
        self._expect("_coalesced_", sparse_coo)
        self._coalesced = bool(coalesced)
        return self

    def _indices(self):  # (COO) the stored indices, coalesced or not; no history
        self._expect("_indices", sparse_coo)
        return self._idx.detach()

    def _values(self):  # (without history, as PyTorch's)
        if not self.is_sparse:
            from ._dispatch import missing
            missing("_values", self._device.type)()
        return self._vals.detach()

    def _values_of(self):  # (values(): with history)
        return _Values.apply(self) if self._requires_grad else self._vals.detach()

    def indices(self):
        self._expect("indices", sparse_coo)
        if not self._coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return self._idx.detach()

    def values(self):
        if self.is_sparse and not self._coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return self._values_of()

    def crow_indices(self):
        self._expect("crow_indices", sparse_csr)
        return self._crow.detach()

    def col_indices(self):
        self._expect("col_indices", sparse_csr)
        return self._idx.detach()

    def ccol_indices(self):  # (no CSC layout: every sparse tensor refuses it, as PyTorch's)
        raise RuntimeError(f"ccol_indices expected sparse column compressed tensor layout but "
                           f"got {self._layout_name()}")

    def row_indices(self):
        raise RuntimeError(f"row_indices expected sparse column compressed tensor layout but "
                           f"got {self._layout_name()}")

    def coalesce(self):
        self._expect("coalesce", sparse_coo)
        if self._coalesced:
            return self
        return _Coalesce.apply(self) if self._requires_grad else coalesced(self)

    def to_dense(self, dtype=None, *, masked_grad=None):
        if dtype is not None:
            raise RuntimeError(f"dtype argument is not supported by "
                               f"{'sparse' if self.is_sparse else 'sparse_csr'}_to_dense")
        return _ToDense.apply(self) if self._requires_grad else dense_of(self)

    def to_sparse(self, *args, layout=None, blocksize=None, dense_dim=None):
        if args and layout is None and not isinstance(args[0], int):
            layout = args[0]
        if layout is sparse_csr:
            return self.to_sparse_csr()
        if layout not in (None, sparse_coo):
            raise RuntimeError(f"to_sparse: conversion to {layout} is not supported")
        sparse_dim = args[0] if args and isinstance(args[0], int) else None
        if self.is_sparse:
            if sparse_dim is not None and sparse_dim != self.sparse_dim():
                raise RuntimeError("to_sparse: conversion from Sparse to Sparse with "
                                   "sparse_dim argument !=self.sparse_dim() is not supported")
            return self
        return csr_to_coo(self) if not self._requires_grad else self.to_dense().to_sparse()

    def to_sparse_coo(self):
        return self.to_sparse()

    def to_sparse_csr(self, dense_dim=None):
        if self.is_sparse_csr:
            return self
        return coo_to_csr(self) if not self._requires_grad else self.to_dense().to_sparse_csr()

    def __getitem__(self, index):
        from ._shape import getitem
        return getitem(self, index)

    def __setitem__(self, index, value):
        raise NotImplementedError(f"indexed assignment into a {self.layout} tensor is not "
                                  f"supported")

    # -- new_* factories: COO ones with no entries (filled ones refuse, as PyTorch) ---
    def _like_kwargs(self, dtype, device):
        raise NotImplementedError(f"new_* of a {self.layout} tensor is not supported")

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        if not self.is_sparse:
            self._like_kwargs(dtype, device)
        from . import sparse_coo_tensor
        size = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
        return sparse_coo_tensor(size, dtype=dtype or self.dtype,
                                 requires_grad=requires_grad,
                                 device=device or self.device)

    new_empty = new_zeros

    def new_ones(self, *size, **kwargs):
        from ._dispatch import missing
        missing("fill_.Scalar", self._device.type)()

    def new_full(self, size, fill_value, **kwargs):
        self.new_ones(size)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        import mindtorch
        return Tensor.new_tensor(mindtorch.empty(0, dtype=self.dtype, device=self.device),
                                 data, dtype=dtype, device=device, requires_grad=requires_grad)

    def type_as(self, other):
        if not isinstance(other, Tensor):
            return Tensor.type_as(self, other)
        if other.layout is not self.layout:
            names = {sparse_coo: "Sparse", sparse_csr: "SparseCsr"}
            raise RuntimeError(f"to(options) doesn't support converting to a different layout, "
                               f"but got self.layout being {names[self.layout]} and "
                               f"options.layout set as {names.get(other.layout, 'Strided')}")
        return self.to(other.dtype)

    def sum_to_size(self, *size):
        r = Tensor.sum_to_size(self, *size)  # (its checks and sums; PyTorch then views)
        n = len(size[0]) if len(size) == 1 and not isinstance(size[0], int) else len(size)
        if n < self.ndim:
            from ._dispatch import missing
            missing("view", self._device.type)()
        return r

    def unbind(self, dim=0):
        return tuple(self.select(dim, i) for i in range(self.shape[dim]))

    def __iter__(self):
        return iter(self.unbind(0))

    def stride(self, dim=None):
        if not self.is_sparse:
            raise RuntimeError("Sparse CSR tensors do not have strides")
        return (0,) * len(self._shape) if dim is None else 0

    def is_contiguous(self, memory_format=None):
        if not self.is_sparse:
            raise RuntimeError("Sparse CSR tensors do not have is_contiguous")
        return False

    def data_ptr(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def untyped_storage(self):
        raise NotImplementedError(f"Cannot access storage of {self._layout_name()}TensorImpl")

    storage = untyped_storage

    def numpy(self, *, force=False):
        raise TypeError(f"can't convert {self._layout_name()} layout tensor to numpy. Use "
                        f"Tensor.to_dense() first.")

    __array__ = numpy

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to "
                               f"Scalar")
        return self.to_dense().item()

    def tolist(self):
        return self.data_ptr()

    def _host(self):
        return self.numpy()

    # -- autograd-facing copies ------------------------------------------------------
    def _parts(self):  # (what a node keeps of its own output: graph.SavedTensor)
        return self.detach()

    def detach(self):
        r = _like(self, self._vals.detach())
        r._version_counter = self._version_counter
        return r

    def detach_(self):
        self._grad_fn, self._requires_grad = None, False
        return self

    @property
    def data(self):
        return self.detach()

    @data.setter
    def data(self, other):
        raise RuntimeError("data assignment to a sparse tensor is not supported")

    # -- conversions (Tensor.to and its shortcuts) -----------------------------------
    def to(self, *args, **kwargs):
        from .._creation import _parse_to
        if args and isinstance(args[0], Tensor):
            args = (args[0].device, args[0].dtype) + args[1:]
        device, dtype, _, copy, _ = _parse_to(*args, **kwargs)
        if device is not None and device != self.device:
            raise NotImplementedError(f"Could not move a {self.layout} tensor from "
                                      f"{self.device} to {device}")
        if (dtype is None or dtype is self.dtype) and not copy:
            return self
        from .._ops import OPS
        return OPS["_to_copy"].binding(self, dtype=dtype)

    def cpu(self, memory_format=None):
        return self.to("cpu")

    def type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            if not self.is_sparse:  # (PyTorch has no legacy type name for CSR)
                raise RuntimeError(f"Unimplemented backend {self._device.type}")
            return f"torch.sparse.{self.dtype_name()}"
        if isinstance(dtype, str):  # (a legacy name, dense or sparse: the layout stays)
            from .._creation import _BY_TYPE_NAME
            name = dtype.rpartition(".")[2]
            if not dtype.startswith("torch.") or name not in _BY_TYPE_NAME:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = _BY_TYPE_NAME[name]
        return self.to(dtype)

    def dtype_name(self):
        from .._creation import _TYPE_NAMES
        return _TYPE_NAMES[self.dtype]

    def __repr__(self):
        from ._repr import sparse_repr
        param = "Parameter containing:\n" if self.__dict__.get("_is_param") else ""
        return param + sparse_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self) if not spec else format(self.item(), spec)

    def __reduce_ex__(self, protocol):
        from ._serialize import reduce_sparse
        return reduce_sparse(self)

    def __deepcopy__(self, memo):
        r = self.clone() if not self._requires_grad else self.detach().clone()
        r._requires_grad = self._requires_grad
        memo[id(self)] = r
        return r


def _add_shortcuts():
    from .._creation import _SHORTCUTS
    for name, dtype in _SHORTCUTS.items():
        def method(self, memory_format=None, _dtype=dtype):
            return self.to(_dtype)
        method.__name__ = method.__qualname__ = name
        setattr(SparseTensor, name, method)


_add_shortcuts()


# -- making sparse tensors -------------------------------------------------------------

def make_coo(indices, values, shape, coalesced=False, device=None):
    t = object.__new__(SparseTensor)
    t._idx, t._vals, t._crow, t._coalesced = indices, values, None, coalesced
    _fill(t, values, shape, sparse_coo, device)
    return t


def make_csr(crow, col, values, shape, device=None):
    warn_once("sparse_csr beta", "Sparse CSR tensor support is in beta state. If you miss a "
              "functionality in the sparse tensor support, please submit a feature request to "
              "https://github.com/pytorch/pytorch/issues.")  # (PyTorch's, at every CSR made)
    t = object.__new__(SparseTensor)
    t._idx, t._vals, t._crow, t._coalesced = col, values, crow, True
    _fill(t, values, shape, sparse_csr, device)
    return t


def _fill(t, values, shape, layout, device):
    t._shape = tuple(shape)
    t._stride = (0,) * len(shape)  # (PyTorch's stride() of a sparse tensor)
    t._offset = 0
    t.dtype = values.dtype
    t._device = LayoutKey.of(layout, device or values._device)
    t._version_counter = [0]
    t._cache = t._base = None
    no_history(t)


def _like(s, values, coalesced=None):
    """A sparse tensor with s's indices and other values."""
    if s.is_sparse:
        return make_coo(s._idx, values, s._shape,
                        s._coalesced if coalesced is None else coalesced)
    return make_csr(s._crow, s._idx, values, s._shape)


# -- conversions, without autograd (the Functions below add it) -----------------------

def _flat_index(indices, shape):
    """Each sparse entry's row-major position in the sparse dims."""
    M = _M()
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    strides = M.tensor(list(reversed(strides)), dtype=M.int64, device=indices.device)
    return (indices * strides.unsqueeze(1)).sum(0) if indices.shape[0] else \
        M.zeros(indices.shape[1], dtype=M.int64, device=indices.device)


def _unflatten(flat, shape):
    M = _M()
    rows = []
    for n in reversed(shape):
        rows.append(flat % n)
        flat = M.div(flat, n, rounding_mode="floor")
    return M.stack(list(reversed(rows))) if rows else \
        M.zeros((0, flat.shape[0]), dtype=flat.dtype, device=flat.device)


def coalesced(s):
    """s with its duplicate indices summed and its indices sorted."""
    M = _M()
    sd = s._idx._shape[0]
    flat = _flat_index(s._idx, s._shape[:sd])
    uniq, inv = M.unique(flat, sorted=True, return_inverse=True)
    vals = s._vals
    if uniq.shape[0] < flat.shape[0]:  # (PyTorch adds duplicates in its unstable sort's order)
        order = M.sort(flat).indices
        inv, vals = inv[order], vals[order]
    vals = M.zeros((uniq.shape[0],) + s._vals._shape[1:], dtype=s.dtype,
                   device=s._vals.device).index_add(0, inv, vals)
    return make_coo(_unflatten(uniq, s._shape[:sd]), vals, s._shape, True)


def dense_of(s):
    M = _M()
    if s.is_sparse_csr:
        s = csr_to_coo(s)
    sd = s._idx._shape[0]
    out = M.zeros(s._shape, dtype=s.dtype, device=s._vals.device)
    if sd == 0:
        return out + s._vals.sum(0) if s._vals._shape[0] else out
    return out.index_put_(tuple(s._idx), s._vals, accumulate=True)


def csr_to_coo(s):
    M = _M()
    counts = s._crow[1:] - s._crow[:-1]
    rows = M.repeat_interleave(M.arange(s._shape[0], device=s._crow.device), counts)
    return make_coo(M.stack([rows, s._idx]), s._vals, s._shape, True)


def to_coo(dense, sparse_dim=None):
    """The nonzero entries of a dense tensor (over its first sparse_dim dims)."""
    M = _M()
    sd = dense.ndim if sparse_dim is None else sparse_dim
    if sd == 0 and dense.ndim > 0:
        raise RuntimeError("dense_to_sparse: sparse_dim argument must be in >0 when "
                           "self.dim()>0")
    if not 0 <= sd <= dense.ndim:
        raise RuntimeError(f"dense_to_sparse: sparse_dim argument must be in [0,{dense.ndim}] "
                           f"range, but {sd} is given")
    flat = dense.reshape((-1,) + tuple(dense.shape[sd:]))
    nz = flat.ne(0)
    if sd < dense.ndim:
        nz = nz.flatten(1).any(1)
    keep = M.nonzero(nz).reshape(-1)
    indices = _unflatten(keep, tuple(dense.shape[:sd]))
    return make_coo(indices, flat.index_select(0, keep), dense.shape, True)


def to_csr(dense):
    if dense.ndim != 2:
        raise RuntimeError(f"to_sparse_csr: expected a 2-D tensor, got {dense.ndim}-D (batched "
                           f"and hybrid CSR tensors are not supported)")
    return coo_to_csr(to_coo(dense))


def coo_to_csr(s):
    """A 2-D COO tensor's entries (coalesced) in compressed rows."""
    M = _M()
    if s.ndim != 2 or s._idx.shape[0] != 2:
        raise RuntimeError("coo_to_sparse_csr: conversion from Sparse to SparseCsr for input "
                           "tensors with sparse_dim()!=2 is not supported")
    c = s if s._coalesced else coalesced(s)
    rows = c._idx[0]
    counts = M.zeros(s.shape[0], dtype=M.int64, device=rows.device).index_add(
        0, rows, M.ones_like(rows))
    crow = M.cat([M.zeros(1, dtype=M.int64, device=rows.device), counts.cumsum(0)])
    return make_csr(crow, c._idx[1], c._vals, s.shape)


def mask_values(dense, mask):
    """dense's values at mask's (COO) entries, one per entry."""
    if mask._idx._shape[0] == 0:
        return dense.expand((mask._vals._shape[0],) + tuple(dense.shape))
    return dense[tuple(mask._idx)]


# -- autograd through the conversions ---------------------------------------------------

def node_name(name):
    """Gives a Function's backward node PyTorch's name (ToDenseBackward0 ...)."""
    def mark(cls):
        cls._backward_cls.__name__ = cls._backward_cls.__qualname__ = name
        return cls
    return mark


@node_name("ToDenseBackward0")
class _ToDense(Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = s.detach()
        return dense_of(s)

    @staticmethod
    def backward(ctx, g):  # (g at s's entries, once each: PyTorch's sparse_mask)
        s = ctx.s if ctx.s.is_sparse else csr_to_coo(ctx.s)
        s = s if s._coalesced else coalesced(s)
        r = make_coo(s._idx, mask_values(g, s), s._shape, True)
        return r if ctx.s.is_sparse else coo_to_csr(r)


@node_name("ValuesBackward0")
class _Values(Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = s.detach()
        return s._vals.detach()

    @staticmethod
    def backward(ctx, g):
        return _like(ctx.s, g)


@node_name("CoalesceBackward0")
class _Coalesce(Function):
    @staticmethod
    def forward(ctx, s):
        return coalesced(s)

    @staticmethod
    def backward(ctx, g):  # (a sparse gradient stands for its dense value: the same one)
        return g


@node_name("SparseCooTensorWithDimsAndTensorsBackward0")
class FromValues(Function):
    """sparse_coo_tensor(indices, values) with values requiring grad: each value's gradient
    is the gradient at its index."""
    @staticmethod
    def forward(ctx, values, make):
        s = make(values.detach())
        ctx.s = s
        return s

    @staticmethod
    def backward(ctx, g):
        s = ctx.s if ctx.s.is_sparse else csr_to_coo(ctx.s)
        return mask_values(g.to_dense() if g.layout is not strided else g, s), None


@node_name("SparseCompressedTensorBackward0")
class FromCsrValues(FromValues):
    """sparse_csr_tensor(crow, col, values) with values requiring grad."""
