"""The kernels of the sparse layouts: what an op does when a sparse tensor is among its
arguments (dispatch.resolve sends every op whose device is a sparse layout's key here).

Each entry takes the op's schema arguments positionally, as a backend kernel does, and
computes through mindtorch ops on the indices and values, so it runs on every backend.
They run below autograd: the binding records the op's formula, as PyTorch's sparse kernels
do.  An op without an entry raises PyTorch's NotImplementedError naming the op and key."""
from numbers import Number

from .._dtype import scalar_type_name
from .._layout import LayoutKey
from .._tensor import Tensor
from . import _shape
from . import _tensor as T
from ._tensor import SparseTensor, make_coo


def _M():
    import mindtorch
    return mindtorch


def kernel(op, key_type):
    fn = TABLE.get(op.name)
    if fn is None and key_type.startswith("SparseCsr") and "pointwise" in op.tags and \
            op.name != "where":
        return _no_csr_kernel  # (PyTorch's CSR elementwise kernels check the layout first)
    return fn if fn is not None else missing(op.name, key_type)


def _no_csr_kernel(*args, **kwargs):
    raise RuntimeError("unsupported tensor layout: SparseCsr")


# The ATen overload (or the op a composite reaches first) PyTorch names in its error;
# the comparisons name .Tensor or .Scalar by their other operand.
_ATEN_NAMES = {
    "mean": "mean.dim", "std": "std.correction", "var": "var.correction",
    "sort": "sort.stable", "where": "where.self", "fill_": "fill_.Scalar",
    "count_nonzero": "count_nonzero.dim_IntList", "softmax": "_softmax",
    "functional_softmax": "_softmax", "log_softmax": "_log_softmax",
    "functional_log_softmax": "_log_softmax", "ones_like": "fill_.Scalar",
    "full_like": "fill_.Scalar", "randn_like": "normal_", "rand_like": "uniform_",
    "squeeze": "as_strided",
}
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


def _aten_name(name, args):
    if name in _COMPARISONS or name.rstrip("_") in _COMPARISONS:
        return name + (".Tensor" if len(args) > 1 and isinstance(args[1], Tensor) else
                       ".Scalar")
    return _ATEN_NAMES.get(name, name)


def missing(name, key_type):
    """PyTorch's error for an op its sparse layout lacks."""
    def fn(*args):
        raise NotImplementedError(
            f"Could not run 'aten::{_aten_name(name, args)}' with arguments from the "
            f"'{key_type}' backend. "
            f"This could be because the operator doesn't exist for this backend, or was "
            f"omitted during the selective/custom build process (if using custom build).")
    return fn


def merge(op, dev, first, t):
    """The binding's device of an op mixing sparse and dense tensors: the sparse key, when
    the real devices agree."""
    a, b = getattr(dev, "device", dev), getattr(t._device, "device", t._device)
    if a != b and not (b.type == "cpu" and not t._shape):
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least "
                           f"two devices, {a} and {b}! (when checking arguments for {op.name})")
    return (dev, first) if type(dev) is LayoutKey else (t._device, t)


def _sparse(x):
    return type(x) is SparseTensor


def _coo(x):
    """x as COO (a CSR matrix's rows expanded)."""
    return x if x.is_sparse else T.csr_to_coo(x)


def _back(like, r):
    """A COO result in like's layout."""
    return r if like.is_sparse else T.coo_to_csr(r)


def _scalar(x):
    return isinstance(x, Number) or (isinstance(x, Tensor) and not _sparse(x) and not x.ndim)


# -- products -------------------------------------------------------------------------

def _check_mm(a, b):
    if a.ndim != 2 or b.ndim != 2:
        if min(a.ndim, b.ndim) == 1:  # (PyTorch reads the missing dim first)
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but "
                             "got 1)")
        raise RuntimeError(f"tensor must be 2-D: got {a.ndim}-D and {b.ndim}-D")
    # (PyTorch's kernels word these per layout pair: COO with dense runs addmm's sparse
    # kernel, which names the sparse operand's dtype first)
    coo_dense = (a.layout is _M().sparse_coo) != (b.layout is _M().sparse_coo) and \
        not (_sparse(a) and _sparse(b))
    if a.shape[1] != b.shape[0]:
        if coo_dense:
            want, got = (a.shape[1], b.shape[0]) if _sparse(a) else (b.shape[0], a.shape[1])
            raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {want}, got "
                               f"{got}")
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if a.dtype is not b.dtype:
        if a.is_sparse and b.is_sparse:
            raise RuntimeError(f"mat1 dtype {scalar_type_name(a.dtype)} does not match mat2 "
                               f"dtype {scalar_type_name(b.dtype)}")
        want, got = (b, a) if _sparse(b) and (coo_dense or _sparse(a)) else (a, b)
        raise RuntimeError(f"expected scalar type {scalar_type_name(want.dtype)} but found "
                           f"{scalar_type_name(got.dtype)}")


def spmm(s, d):
    """sparse (2 sparse dims) @ dense: each entry's row of d, scaled, added into its row."""
    s = _coo(s)
    if s._idx.shape[0] != 2:
        raise RuntimeError("mm: expected a sparse matrix with 2 sparse dims and no dense dims")
    rows, cols = s._idx[0], s._idx[1]
    contrib = s._vals.unsqueeze(1) * d.index_select(0, cols)
    out = _M().zeros((s.shape[0], d.shape[1]), dtype=contrib.dtype, device=d.device)
    return out.index_add(0, rows, contrib)


def mm(a, b):
    _check_mm(a, b)
    if _sparse(a) and _sparse(b):
        r = T.to_coo(spmm(a, T.dense_of(b)))
        return _back(a, r)
    if _sparse(a):
        return spmm(a, b)
    return spmm(transpose(b, 0, 1), a.t()).t().contiguous()  # (dense @ sparse)


def bmm(s, d):
    """Batched COO (3 sparse dims) @ dense: spmm over the (batch, row) pairs."""
    if not _sparse(s) or _sparse(d):
        raise RuntimeError("bmm_sparse: Tensor 'mat2' must be dense")
    if d.ndim != 3:
        raise RuntimeError(f"bmm_sparse: Tensor 'mat2' must have 3 dims, but has {d.ndim}")
    for (i, j) in ((0, 0), (2, 1)):
        if s.shape[i] != d.shape[j]:
            raise RuntimeError(f"bmm_sparse: 'self.size({i})' and 'mat2.size({j})' must match")
    if s.dtype is not d.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(s.dtype)} but found "
                           f"{scalar_type_name(d.dtype)}")
    s = _coo(s)
    if s._idx.shape[0] != 3:
        raise RuntimeError("bmm_sparse: expected a sparse tensor with 3 sparse dims")
    batch, rows, cols = s._idx[0], s._idx[1], s._idx[2]
    contrib = s._vals.unsqueeze(1) * d[batch, cols]
    out = _M().zeros((s.shape[0] * s.shape[1], d.shape[2]), dtype=d.dtype, device=d.device)
    return out.index_add(0, batch * s.shape[1] + rows, contrib).reshape(
        s.shape[0], s.shape[1], d.shape[2])


def mv(s, v):
    if v.ndim != 1 or s.ndim != 2:
        raise RuntimeError(f"vector + matrix @ vector expected, got {s.ndim}, {v.ndim}")
    if s.shape[1] != v.shape[0]:
        raise RuntimeError("mv: expected self.size(-1) == vec.size(-1)")
    return mm(s, v.unsqueeze(1)).squeeze(1)


def matmul(a, b):
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return mm(a.unsqueeze(0), b).squeeze(0)
    if a.ndim == 1 and b.ndim == 1:
        missing("dot", (a if _sparse(a) else b)._device.type)(a, b)
    if a.ndim >= 3 and b.ndim <= 2 and not _sparse(a):  # (a dense batch folds into rows)
        r = matmul(a.reshape(-1, a.shape[-1]), b)
        return r.reshape(tuple(a.shape[:-1]) + tuple(r.shape[1:]))
    if _sparse(a) and a.ndim >= 3 and b.ndim <= 2 or _sparse(b) and b.ndim >= 3 and a.ndim == 1:
        raise RuntimeError("reshape is not implemented for sparse tensors")
    from .._shapes import broadcast_shapes  # (PyTorch broadcasts the batch dims, then fails)
    broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    kind = "Sparse" if any(_sparse(x) and x.is_sparse for x in (a, b)) else "SparseCsr"
    raise RuntimeError(f"expand is unsupported for {kind} tensors")


def addmm(self, mat1, mat2, beta=1, alpha=1):
    if _sparse(self):
        if not _sparse(mat1) or _sparse(mat2):
            raise NotImplementedError("addmm: a sparse self needs a sparse mat1 and dense mat2")
        prod = T.to_coo(mm(mat1, mat2) * alpha)
        return prod if beta == 0 else add(mul(self, beta), prod, 1)
    prod = mm(mat1, mat2)
    prod = prod if alpha == 1 else prod * alpha
    if beta == 0:  # (self is ignored, nan or not)
        return prod
    return prod + (self if beta == 1 else self * beta)


# -- shape ----------------------------------------------------------------------------

def transpose(s, d0, d1):
    n = s.ndim
    d0, d1 = d0 % n if n else 0, d1 % n if n else 0
    if not s.is_sparse:  # (PyTorch gives sparse_csc; the entries come as COO)
        s = T.csr_to_coo(s)
    sd = s._idx.shape[0]
    shape = list(s.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    if d0 == d1:
        return make_coo(s._idx, s._vals, shape, s._coalesced)
    if (d0 < sd) != (d1 < sd):
        raise RuntimeError(f"transpose(): can't transpose a sparse dim {min(d0, d1)} with a "
                           f"dense dim {max(d0, d1)}; use to_dense() first")
    if d0 < sd:
        order = list(range(sd))
        order[d0], order[d1] = d1, d0
        return make_coo(s._idx[order], s._vals, shape, False)
    return make_coo(s._idx, s._vals.transpose(d0 - sd + 1, d1 - sd + 1), shape, s._coalesced)


def t(s):
    if s.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {s.ndim}D")
    return transpose(s, 0, 1) if s.ndim == 2 else s


def mH(s):
    r = transpose(s, -2, -1)
    return r if not s.dtype.is_complex else _map_values(r, lambda v: v.conj())


# -- arithmetic -------------------------------------------------------------------------

def _map_values(s, fn, coalesced=None):
    return T._like(s, fn(s._vals), coalesced)


def _cat_coo(a, b, alpha):
    M = _M()
    a, b = _coo(a), _coo(b)
    if a.shape != b.shape:
        raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but "
                           f"{list(a.shape)} != {list(b.shape)}")
    if a._idx.shape[0] != b._idx.shape[0]:
        raise RuntimeError("add: expected sparse tensors with the same sparse_dim")
    dtype = M.promote_types(a.dtype, b.dtype)
    bv = b._vals if alpha == 1 else b._vals * alpha
    vals = M.cat([a._vals.to(dtype), bv.to(dtype)])
    return make_coo(M.cat([a._idx, b._idx], 1), vals, a.shape, False)


def _same_pattern(a, b):
    return a.shape == b.shape and a._idx.shape == b._idx.shape and \
        (a._idx is b._idx or bool((a._idx == b._idx).all()))


def _add_into(dense, s, alpha):
    """dense + alpha * s, in place (dense is the engine's or the user's own tensor)."""
    s = _coo(s)
    if alpha != 1 and s.dtype is dense.dtype and dense.dtype in (_M().float32, _M().float64) \
            and s._idx.shape[0] and s._idx.shape[1]:
        return _axpy_into(dense, s._idx, s._vals, _M().tensor(alpha, dtype=dense.dtype).item(),
                          s.is_sparse and s._coalesced)
    v = s._vals if alpha == 1 else s._vals * alpha
    if s._idx.shape[0] == 0:
        return dense.add_(v.sum(0))
    return dense.index_put_(tuple(s._idx), v.to(dense.dtype), accumulate=True)


def _axpy_into(dense, idx, vals, alpha, unique):
    """PyTorch's dense += alpha * sparse for float32 / float64: an axpy (fused multiply-add)
    per entry, in index order; entries at the same place in rounds, first ones first."""
    M = _M()
    from .._ops.decls.sampling import fma_parts
    n = idx.shape[1]
    rank = None
    if not unique:
        place = idx[0]
        for d in range(1, idx.shape[0]):
            place = place * dense.shape[d] + idx[d]
        order = M.argsort(place, stable=True)
        run = M.ones(n, dtype=M.bool)
        run[1:] = place[order][1:] != place[order][:-1]
        start = M.where(run, M.arange(n), 0).cummax(0).values
        rank = M.empty_like(order).index_put_((order,), M.arange(n) - start)
    for r in range(1 if rank is None else int(rank.max()) + 1):
        sel = None if rank is None else (rank == r).nonzero().squeeze(1)
        at = tuple(idx if sel is None else idx[:, sel])
        cur, v = dense[at], vals if sel is None else vals[sel]
        if dense.dtype is M.float32:  # (the product is exact in float64)
            new = (v.double() * alpha + cur.double()).float()
        else:
            once, twice = fma_parts(v, alpha, cur)
            new = M.where(once.isnan(), twice, once)  # (infinite or huge: the split overflowed)
        dense.index_put_(at, new)
    return dense


def add(a, b, alpha=1):
    if _sparse(a) and _sparse(b):
        if a.is_sparse and b.is_sparse and _same_pattern(a, b):  # (PyTorch's fast path)
            dtype = _M().promote_types(a.dtype, b.dtype)
            return _map_values(a, lambda v: v.to(dtype) + b._vals.to(dtype) * alpha)
        r = _cat_coo(a, b, alpha)
        both = a.is_sparse and b.is_sparse and a._coalesced and b._coalesced
        return _back(a, T.coalesced(r) if both or not a.is_sparse else r)
    if _sparse(a) and a.is_sparse:
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                           "instead.")
    if _sparse(a):  # (PyTorch adds a CSR self into the dense other, alpha scaling self)
        return _dense_plus_sparse(b, a, alpha, "op2-sparse")
    return _dense_plus_sparse(a, b, alpha, "dense-sparse")


def _dense_plus_sparse(d, s, alpha, kind):
    M = _M()
    if not isinstance(d, Tensor):  # (a Python scalar: a 0-dim tensor)
        d = M.tensor(d)
    if tuple(d.shape) != tuple(s.shape):
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                           f"size {list(d.shape)} while other has size {list(s.shape)} (FYI: "
                           f"{kind} addition does not currently support broadcasting)")
    out = d.to(M.promote_types(d.dtype, s.dtype), copy=True)
    if kind == "op2-sparse":
        out = out.contiguous()
    return _add_into(out, s, alpha)


def _no_csr(*tensors):
    if any(_sparse(x) and not x.is_sparse for x in tensors):
        raise RuntimeError("unsupported tensor layout: SparseCsr")


def sub(a, b, alpha=1):
    _no_csr(a, b)
    return add(a, b, -alpha)


def add_(a, b, alpha=1):
    if not _sparse(a):
        if not _sparse(b):
            return a.add_(b, alpha=alpha)
        return _add_into(a, b, alpha)
    if not _sparse(b):
        raise RuntimeError("add_(sparse, dense) is not supported: the result would be dense")
    r = add(a, b, alpha)
    _replace(a, r)
    return a


def sub_(a, b, alpha=1):
    return add_(a, b, -alpha)


def _replace(s, r):
    """Write r's entries into sparse s (in-place ops)."""
    if r.dtype is not s.dtype:
        r = _map_values(r, lambda v: v.to(s.dtype))
    s._idx, s._vals, s._crow = r._idx, r._vals, r._crow
    if s.is_sparse:
        s._coalesced = r._coalesced if r.is_sparse else True


def mul(a, b):
    if _sparse(a) and _scalar(b):
        return _map_values(a, lambda v: v * b)
    if _sparse(b) and _scalar(a):
        return _map_values(b, lambda v: a * v)
    if _sparse(a) and _sparse(b):
        sa = T.coalesced(_coo(a)) if a.is_sparse and not a._coalesced else _coo(a)
        return _back(a, T._like(sa, sa._vals * T.mask_values(T.dense_of(b), sa), True))
    s, d = (a, b) if _sparse(a) else (b, a)
    if tuple(d.shape) != tuple(s.shape):
        d = _dense_to_shape_of(d, s)
    sc = _coo(s)
    return _back(s, T._like(sc, sc._vals * T.mask_values(d, sc)))


def _dense_to_shape_of(d, s):
    """The dense factor of a sparse product broadcast to the sparse one's shape (PyTorch
    masks it by the sparse pattern, so it may not grow the result)."""
    from .._shapes import broadcast_shapes
    if s.is_sparse and tuple(broadcast_shapes(d.shape, s.shape)) == tuple(s.shape):
        return d.expand(s.shape)
    if not s.is_sparse:
        raise RuntimeError(f"sparse_mask(): operands have incompatible sizes; self has size "
                           f"{list(d.shape)} but mask has size {list(s.shape)}")
    raise RuntimeError(f"mul: a sparse tensor and a dense tensor of size {list(d.shape)} "
                       f"(expected {list(s.shape)})")


def mul_(a, b):
    if not _sparse(a):
        return a.copy_(mul(a, b).to_dense()) if _sparse(b) else a.mul_(b)
    _replace(a, mul(a, b))
    return a


def div(a, b, rounding_mode=None):
    _no_csr(a)
    if _sparse(a) and _scalar(b):
        return _map_values(a, lambda v: _M().div(v, b, rounding_mode=rounding_mode))
    if _sparse(a):
        raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor "
                           f"divisor (got shape {list(b.shape)} for divisor)")
    raise NotImplementedError("div: a dense tensor divided by a sparse one is not supported")


def div_(a, b, rounding_mode=None):
    _replace(a, div(a, b, rounding_mode))
    return a


def pow_(s, exponent):
    _no_csr(s)
    if not _scalar(exponent):
        missing("pow.Tensor_Tensor", s._device.type)()
    if exponent == 0:
        raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make "
                           "the result tensor dense")
    c = T.coalesced(s) if s.is_sparse and not s._coalesced else s
    return _map_values(c, lambda v: v.pow(exponent))


def _unary(name, linear=False):
    """A zero-preserving function of the values (nonlinear ones on coalesced entries)."""
    def fn(s, *args):
        c = s if linear or not s.is_sparse or s._coalesced else T.coalesced(s)
        return _map_values(c, lambda v: getattr(_M(), name)(v, *args))
    return fn


def _inplace(name, fn, linear):
    def run(s, *args):
        if not linear and s.is_sparse and not s._coalesced:
            raise RuntimeError(f"{name} requires coalesced input")
        _replace(s, fn(s, *args))
        return s
    return run


def threshold_backward(grad, self, threshold):
    """relu's backward on a sparse result: grad at self's entries above the threshold."""
    if not (_sparse(self) and self.is_sparse):
        return missing("threshold_backward", (grad if _sparse(grad) else self)._device.type)()
    c = self if self._coalesced else T.coalesced(self)
    g = T.mask_values(T.dense_of(grad) if _sparse(grad) else grad, c)
    return T._like(c, _M().where(c._vals > threshold, g, 0).to(g.dtype), True)


def linear(input, weight, bias=None):
    """input @ weight^T + bias with either operand sparse (2-D)."""
    r = mm(weight, input.t()).t() if _sparse(weight) else mm(input, weight.t())
    return r if bias is None else r + bias


# -- reductions -------------------------------------------------------------------------

def sum_(s, dim=None, keepdim=False, dtype=None):
    if dim is not None and not s.is_sparse and not keepdim:
        raise RuntimeError("reduction operations on CSR tensors with keepdim=False is "
                           "unsupported")
    like, s = s, _coo(s)
    vals = s._vals if dtype is None else s._vals.to(dtype)
    if dim is None or set(dim) >= set(range(s.ndim)):
        return vals.sum(dtype=None if dtype is None else dtype) if not keepdim else \
            vals.sum().reshape((1,) * s.ndim)
    r = _sum_dims(s, vals, dim)
    if not keepdim:
        return r
    if not _sparse(r):  # (every sparse dim reduced)
        return r.reshape([1 if d in dim else n for d, n in enumerate(s.shape)])
    for d in sorted(dim):  # (the reduced dims come back as size-1 dims, as PyTorch does)
        r = _shape.unsqueeze(r, d)
    return _back(like, r)


def _sum_dims(s, vals, dim):
    """COO s (its values vals) summed over some of its dims."""
    sd = s._idx.shape[0]
    sparse_dims = [d for d in dim if d < sd]
    dense_dims = [d - sd + 1 for d in dim if d >= sd]
    if dense_dims:
        vals = vals.sum(dense_dims)
    keep = [d for d in range(sd) if d not in sparse_dims]
    shape = [n for d, n in enumerate(s.shape) if d not in dim]
    if not keep:  # every sparse dim reduced: a dense result
        return vals.sum(0)
    return T.coalesced(make_coo(s._idx[keep], vals, shape))


def norm(s, p=2, dim=None, keepdim=False, dtype=None):
    """The norm of the (coalesced) entries."""
    if dim is not None:
        raise NotImplementedError("norm: dim= is not supported for sparse tensors")
    c = T.coalesced(_coo(s)) if not (s.is_sparse and s._coalesced) else s
    return _M().linalg.vector_norm(c._vals, 2 if p is None else p, dtype=dtype)


# -- copies -----------------------------------------------------------------------------

def clone(s, memory_format=None):
    r = T._like(s, s._vals.clone())
    r._idx = s._idx.clone()
    if r._crow is not None:
        r._crow = s._crow.clone()
    return r


def to_copy(s, dtype=None, device=None, memory_format=None):
    if device is not None and device != s.device:
        raise NotImplementedError(f"Could not move a {s.layout} tensor to {device}")
    return _map_values(s, lambda v: v.to(dtype) if dtype is not None else v.clone())


def copy_(dst, src, non_blocking=False):
    if not _sparse(dst):
        return dst.copy_(T.dense_of(src) if _sparse(src) else src)
    if not _sparse(src):
        raise RuntimeError("copy_: copying a dense tensor into a sparse one is not supported")
    if dst.shape != src.shape or dst.layout is not src.layout:
        raise RuntimeError("copy_: sparse tensors of different sizes or layouts")
    _replace(dst, clone(src))
    return dst


def zero_(s):
    M = _M()
    s._idx = s._idx[:, :0] if s.is_sparse else s._idx[:0]
    s._vals = s._vals[:0].clone()
    if not s.is_sparse:
        s._crow = M.zeros_like(s._crow)
    else:
        s._coalesced = True
    return s


def zeros_like(s, dtype=None, device=None, requires_grad=False, memory_format=None):
    r = zero_(clone(s))
    return r if dtype is None else to_copy(r, dtype)


def dropout(s, p=0.5, train=True, inplace=False):
    """Identity when it drops nothing; else PyTorch's refusal of its mask draw."""
    if train and p > 0:
        missing("bernoulli_.float", s._device.type)()
    return s


def _any(s, dim=None, keepdim=False):
    if dim is not None or not s.is_sparse:
        missing("any.dim" if s.is_sparse else "any.all_out", s._device.type)()
    return _M().any(s._vals)


def _fill_(s, value):
    """Every specified entry set to value (PyTorch fills a CSR tensor's values; COO refuses)."""
    if s.is_sparse or isinstance(value, Tensor):
        missing("fill_." + ("Tensor" if isinstance(value, Tensor) else "Scalar"),
                s._device.type)()
    s._vals.fill_(value)
    return s


_LINEAR = ("neg",)
_NONLINEAR = ("abs", "sqrt", "sin", "tan", "tanh", "asin", "atan", "sinh", "asinh", "atanh",
              "expm1", "log1p", "relu", "sign", "sgn", "floor", "ceil", "trunc", "round",
              "erf", "erfinv", "deg2rad", "rad2deg", "square", "frac", "nan_to_num",
              "isnan", "isinf", "signbit", "angle", "conj_physical")

# (no linalg_vector_norm: PyTorch refuses it, hence clip_grad_norm_ refuses sparse gradients)
TABLE = {
    "mm": mm, "bmm": bmm, "mv": mv, "matmul": matmul, "addmm": addmm, "t": t, "transpose": transpose,
    "mT": lambda s: transpose(s, -2, -1), "mH": mH, "adjoint": mH,
    "add": add, "sub": sub, "add_": add_, "sub_": sub_, "mul": mul, "mul_": mul_, "div": div,
    "div_": div_, "pow": pow_, "sum": sum_, "norm": norm, "clone": clone, "_to_copy": to_copy,
    "copy_": copy_, "zero_": zero_, "zeros_like": zeros_like,
}
for _name in _LINEAR + _NONLINEAR:
    TABLE[_name] = _unary(_name, _name in _LINEAR)
    TABLE[_name + "_"] = _inplace(_name + "_", TABLE[_name], _name in _LINEAR)
TABLE.update(
    linear=linear, empty_like=zeros_like, dropout=dropout, functional_dropout=dropout, threshold_backward=threshold_backward,
    functional_relu=lambda s, inplace=False: TABLE["relu_" if inplace else "relu"](s),
    any=_any, fill_=_fill_)
TABLE.update(_shape.TABLE)
