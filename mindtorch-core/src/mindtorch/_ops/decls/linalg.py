"""Matrix products: mm, bmm, mv, dot (kernels) and matmul, addmm (decompositions).

The products' shape/dtype rules live here as plain functions of tensor metadata, used by
every backend's kernels (CPU, meta) so that all devices raise the same errors, in
torch's order, and agree on result shapes.  Products need equal dtypes (no promotion).
"""
from ... import _autocast
from ... import _dtype as D
from ..._memory_format import contiguous_format
from ..._shapes import broadcast_shapes
from ..._warn_once import warn_once
from ...overrides import public_level
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name, inplace_via, write_into
from ._out_rules import exact_out
from .linalg_grads import _GRADS, _addmm_backward

_C_NAMES = D.CPP_NAMES  # (m1 and m2's dtype error, conv's)


def _no_bool(kernel_name, *tensors):
    # torch has no boolean products; it only notices when there is something to compute
    if tensors[0].dtype is D.bool and all(t.numel() for t in tensors):
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'Bool\'')


def mm_shape(self, mat2):
    if self.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if self._shape[1] != mat2._shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({self._shape[0]}x"
                           f"{self._shape[1]} and {mat2._shape[0]}x{mat2._shape[1]})")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_C_NAMES[self.dtype.name]} != {_C_NAMES[mat2.dtype.name]}")
    _no_bool("addmm_impl_cpu_", self, mat2)
    return (self._shape[0], mat2._shape[1])


def bmm_plan(self, mat2):
    """(result shape, result dtype, whether there is a product to compute) of bmm.  The
    result takes mat2's dtype; PyTorch only checks the dtypes (bool first, then equality)
    when the result is non-empty and the contraction is too (else: empty or zeros)."""
    for name, t in (("batch1", self), ("batch2", mat2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    b, n, k = self._shape
    if mat2._shape[:2] != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{mat2._shape[0]}, {mat2._shape[1]}].")
    shape = (b, n, mat2._shape[2])
    if 0 in shape or k == 0:
        return shape, mat2.dtype, False
    if self.dtype is D.bool:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(mat2.dtype)}")
    return shape, mat2.dtype, True


def bmm_shape(self, mat2):
    return bmm_plan(self, mat2)[0]


def mv_shape(self, vec):
    if self.ndim == 0:  # PyTorch reads self.size(0) first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if self.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
    n, m = self._shape
    if m != vec._shape[0]:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{m}), vec "
                           f"({vec._shape[0]})")
    if self.dtype is not vec.dtype:
        v, s = _type_name(vec.dtype), _type_name(self.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {s}, "
                           f"and {v}")
    _no_bool("addmv_impl_cpu", self, vec)
    return (n,)


def dot_shape(self, other):
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D "
                           f"tensors")
    if self.dtype is not other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_type_name(self.dtype)} and {_type_name(other.dtype)}")
    if self._shape != other._shape:
        a, b = self._shape[0], other._shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a}] and src [{b}] to "
                           f"have the same number of elements, but got {a} and {b} elements "
                           f"respectively")
    if self.dtype is D.bool:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    return ()


# -- decompositions ---------------------------------------------------------------------

def _matmul(self, other):
    """torch.matmul's dispatch on ranks: dot, mv, mm; a >2-D left side with a 1-/2-D right
    side folds its batch into rows; everything else broadcasts batch dims into a bmm."""
    d1, d2 = self.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{d1}D and {d2}D")
    mm = OPS["mm"].binding
    if d1 == 1 and d2 == 1:
        return OPS["dot"].binding(self, other)
    if d1 == 2 and d2 == 1:
        return OPS["mv"].binding(self, other)
    if d1 == 1 and d2 == 2:
        return mm(self.unsqueeze(0), other).squeeze_(0)  # in place as PyTorch (its node name)
    if d1 == 2 and d2 == 2:
        return mm(self, other)
    if d1 >= 3 and d2 <= 2:
        lead = self._shape[:-1]
        rows = 1
        for s in lead:
            rows *= s
        folded = self.reshape(rows, self._shape[-1])
        if d2 == 1:
            return OPS["_unsafe_view"].binding(OPS["mv"].binding(folded, other), lead)
        return OPS["_unsafe_view"].binding(mm(folded, other), lead + (other._shape[-1],))
    # batched: 1-D sides become a row (left) or a column (right), dropped at the end
    left = self.unsqueeze(0) if d1 == 1 else self
    right = other.unsqueeze(-1) if d2 == 1 else other
    n, k = left._shape[-2:]
    k2, p = right._shape[-2:]
    batch = broadcast_shapes(left._shape[:-2], right._shape[:-2])
    count = 1
    for s in batch:
        count *= s
    out = OPS["bmm"].binding(left.expand(batch + (n, k)).reshape(count, n, k),
                             right.expand(batch + (k2, p)).reshape(count, k2, p))
    return OPS["_unsafe_view"].binding(out, batch + ((n,) if d1 > 1 else ()) +
                                       ((p,) if d2 > 1 else ()))


def _vdot(self, other):
    dot_shape(self, other)  # dot's errors, before conjugating
    return OPS["dot"].call(self.conj() if self.dtype.is_complex else self, other)


def _outer(self, vec2):
    for name, t in (("self", self), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return OPS["mul"].call(self.reshape(-1, 1), vec2)


def _ger(self, vec2):  # (PyTorch 2.13 no longer warns)
    return _outer(self, vec2)


def _inner(self, other):
    if self.ndim == 0 or other.ndim == 0:
        return OPS["mul"].call(self, other)
    if self._shape[-1] != other._shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(self._shape)} and {list(other._shape)}")
    if self.dtype is not other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if self.ndim == 1 and other.ndim == 1:
        return OPS["dot"].call(self, other)
    k = self._shape[-1]
    r = OPS["mm"].call(self.reshape(-1, k), other.reshape(-1, k).t())
    return r.reshape(self._shape[:-1] + other._shape[:-1])


def addmm_coefficients(self, mat1, mat2, beta, alpha):
    """addmm's checks before the product's own; returns (beta, alpha) as the result dtype
    takes them (integer results truncate them, as torch does)."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    for a, b, names in ((self, mat2, "self and mat2"), (mat1, mat2, "mat1 and mat2")):
        if a.dtype is not b.dtype:  # (before the shapes, as PyTorch)
            raise RuntimeError(f"{names} must have the same dtype, but got "
                               f"{_type_name(a.dtype)} and {_type_name(b.dtype)}")
    kind = mat2.dtype.kind
    if kind != "c" and (isinstance(alpha, complex) or isinstance(beta, complex)):
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[mat2.dtype.name]} "
                           f"without overflow")
    if kind in "uib":
        return int(beta), int(alpha)
    return beta, alpha


def check_bool_addmm(dtype, beta):
    """A bool addmm gets past the product's checks only with nothing to multiply; PyTorch
    then scales self by beta as a Long, which bool can't hold."""
    if dtype is D.bool and beta != 0:
        raise RuntimeError("result type Long can't be cast to the desired output type Bool")


def _addmm(self, mat1, mat2, beta=1, alpha=1):
    """beta * self + alpha * (mat1 @ mat2); beta == 0 ignores self (even its NaNs).
    Backends may fuse it (the CPU kernel rounds 16-bit floats once)."""
    beta, alpha = addmm_coefficients(self, mat1, mat2, beta, alpha)
    product = OPS["mm"].binding(mat1, mat2)
    check_bool_addmm(self.dtype, beta)
    return _combine(product, self.expand(product._shape), beta, alpha, True)


def _combine(product, base, beta, alpha, drop_product=False):
    """alpha * product + beta * base (base ignored, NaNs and all, when beta is 0; so is the
    product when alpha is 0 and drop_product: PyTorch's addmm, addmv and addbmm skip it)."""
    if drop_product and alpha == 0:
        product = OPS["zeros_like"].binding(product)
    elif alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return product + (base if beta == 1 else base * beta)


def _int_coefficients(dtype, beta, alpha):
    if isinstance(alpha, complex) or isinstance(beta, complex):
        if dtype.kind != "c":
            raise RuntimeError(f"value cannot be converted to type {_C_NAMES[dtype.name]} "
                               f"without overflow")
    return (int(beta), int(alpha)) if dtype.kind in "uib" else (beta, alpha)


def _addmv(self, mat, vec, beta=1, alpha=1):
    if mat.ndim != 2 or vec.ndim != 1 or self.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {self.ndim}, {mat.ndim}, "
                           f"{vec.ndim}")
    n, m = mat._shape
    if vec._shape[0] != m or (self.ndim and self._shape[0] not in (1, n)):
        raise RuntimeError(f"size mismatch, got input ({self._shape[0] if self.ndim else 1}), "
                           f"mat ({n}x{m}), vec ({vec._shape[0]})")
    if not self.dtype is mat.dtype is vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_type_name(self.dtype)}, {_type_name(mat.dtype)}, and "
                           f"{_type_name(vec.dtype)}")
    beta, alpha = _int_coefficients(self.dtype, beta, alpha)
    if not mat.numel():  # PyTorch's shortcut: zeros, or beta * self (in self's shape)
        if beta == 0:
            return OPS["zeros"].binding((n,), dtype=self.dtype, device=self._device)
        return OPS["mul"].call(self, OPS["full"].binding((), beta, dtype=self.dtype,
                                                         device=self._device))
    return _combine(OPS["mv"].call(mat, vec), self.expand((n,)), beta, alpha, True)


def _size(t, d):
    """PyTorch's t.size(d), with its IndexError for a tensor of fewer dims."""
    if not t.ndim:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if d >= t.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-t.ndim}, "
                         f"{t.ndim - 1}], but got {d})")
    return t._shape[d]


def _baddbmm(self, batch1, batch2, beta=1, alpha=1):
    # (PyTorch expands self to the result's shape first: its size reads come first)
    self.expand((_size(batch1, 0), _size(batch1, 1), _size(batch2, 2)))
    if self.dtype is not batch1.dtype or self.dtype is not batch2.dtype and \
            batch1.dtype is batch2.dtype:
        if self.dtype is not batch1.dtype:
            raise RuntimeError(f"Input dtypes must be the same, got: input "
                               f"{_C_NAMES[self.dtype.name]}, batch1: "
                               f"{_C_NAMES[batch1.dtype.name]}, batch2: "
                               f"{_C_NAMES[batch2.dtype.name]}")
    try:
        product = OPS["bmm"].call(batch1, batch2)
    except NotImplementedError as e:  # (PyTorch's kernel names itself)
        raise NotImplementedError(str(e).replace('"bmm"', '"baddbmm"')) from None
    beta, alpha = _int_coefficients(self.dtype, beta, alpha)
    return _combine(product, self.expand(product._shape), beta, alpha)


def _addbmm(self, batch1, batch2, beta=1, alpha=1):
    base = self.expand((_size(batch1, 1), _size(batch2, 2)))  # (PyTorch's order)
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1._shape[0] != batch2._shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{batch1._shape[0]} and {batch2._shape[0]}")
    (_, n, k), (_, k2, m) = batch1._shape, batch2._shape
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{m})")
    # (PyTorch adds each batch's product with addmm_, which checks the dtypes; no batch, no
    # check)
    for names, a in (("self", self), ("mat1", batch1)):
        if batch1._shape[0] and a.dtype is not batch2.dtype:
            raise RuntimeError(f"{names} and mat2 must have the same dtype, but got "
                               f"{_type_name(a.dtype)} and {_type_name(batch2.dtype)}")
    product = OPS["bmm"].call(batch1, batch2)
    beta, alpha = _int_coefficients(self.dtype, beta, alpha)
    if self.dtype is D.bool or alpha == 0:
        total = OPS["sum"].call(product, (0,), False, product.dtype)
        return _combine(total, base, beta, alpha, True)
    # PyTorch adds alpha * (each batch's product) to beta * self in turn: a sequential sum
    # rounds (and meets infs) as it does
    start = OPS["zeros_like"].binding(base) if beta == 0 else base * beta
    terms = OPS["cat"].call([start.unsqueeze(0), product * alpha if alpha != 1 else product], 0)
    return OPS["cumsum"].call(terms, 0, self.dtype)[-1]


def _addr(self, vec1, vec2, beta=1, alpha=1):
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    from ..._promotion import result_type
    dtype = result_type(self, vec1, vec2)
    for name, c in (("beta", beta), ("alpha", alpha)):
        if dtype.kind in "uib" and isinstance(c, (float, complex)):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               f"floating point number.")
        if dtype is not D.bool and isinstance(c, bool):
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    _int_coefficients(dtype, beta, alpha)  # (complex coefficients need a complex result)
    product = OPS["outer"].call(vec1, vec2)
    base = self.expand(product._shape)
    if dtype is D.bool:  # logical: beta and self, or alpha and the outer product
        r = product if alpha else OPS["zeros_like"].binding(product)
        return OPS["logical_or"].call(r, base) if beta else r
    return _combine(product, base, beta, alpha).to(dtype)


def check_tri(self, lower):
    if self.ndim < 2:
        raise RuntimeError(f"{'tril' if lower else 'triu'}: input tensor must have at least "
                           f"2 dimensions")


def _tril_mask(self, diagonal, lower):
    check_tri(self, lower)
    n, m = self._shape[-2:]
    arange = OPS["arange"].binding
    rows = arange(n, dtype=D.int64, device=self._device).unsqueeze(-1)
    cols = arange(m, dtype=D.int64, device=self._device)
    offset = cols - rows
    return offset <= diagonal if lower else offset >= diagonal


def _zero_of(self):
    return OPS["zeros"].binding((), dtype=self.dtype, device=self._device)


def _tril(self, diagonal=0):
    # (contiguous, as PyTorch's tril: where's result follows its mask's layout)
    return OPS["where"].call(_tril_mask(self, diagonal, True), self, _zero_of(self)).contiguous()


def _triu(self, diagonal=0):
    return OPS["where"].call(_tril_mask(self, diagonal, False), self,
                             _zero_of(self)).contiguous()


def _diag(self, diagonal=0):
    if self.ndim == 1:  # (diag_embed's node, as in PyTorch)
        return OPS["diag_embed"].call(self, diagonal, 0, 1)
    if self.ndim == 2:
        return OPS["clone"].call(self.diagonal(diagonal), contiguous_format)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")


def _diag_embed(self, offset=0, dim1=-2, dim2=-1):
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = self._shape[-1] + abs(offset)
    shape = list(self._shape[:-1])
    for d in sorted((dim1, dim2)):
        shape.insert(d, n)
    out = OPS["zeros"].binding(tuple(shape), dtype=self.dtype, device=self._device)
    out.diagonal(offset, dim1, dim2).copy_(self)
    out._version_counter[0] = 0
    return out


def _diagflat(self, offset=0):
    return _diag(self.reshape(-1), offset)


def _trace(self):
    if self.dtype is D.bool:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if self.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.ndim}")
    return OPS["sum"].call(self.diagonal(), None, False, None)


def _tensordot(self, other, dims_self, dims_other):
    if len(dims_self) != len(dims_other):
        raise RuntimeError("both dimension lists should have same length")
    if self.dtype is not other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    from .._argcheck import wrap_dim
    ds = [wrap_dim(d, self.ndim) for d in dims_self]
    do = [wrap_dim(d, other.ndim) for d in dims_other]
    for a, b, ra, rb in zip(ds, do, dims_self, dims_other):
        na, nb = self._shape[a], other._shape[b]
        if na != nb:
            if na != 1 and nb != 1:
                raise RuntimeError(f"contracted dimensions need to match, but first has size "
                                   f"{na} in dim {ra} and second has size {nb} in dim {rb}")
            # a size-1 side broadcasts: the other side is summed over that dim
            if na == 1:
                other = OPS["sum"].call(other, (b,), True, other.dtype)
            else:
                self = OPS["sum"].call(self, (a,), True, self.dtype)
    free_s = [d for d in range(self.ndim) if d not in ds]
    free_o = [d for d in range(other.ndim) if d not in do]
    def prod(t, dims):
        n = 1
        for d in dims:
            n *= t._shape[d]
        return n
    k = prod(self, ds)
    left = self.permute(free_s + ds).reshape(prod(self, free_s), k)
    right = other.permute(do + free_o).reshape(k, prod(other, free_o))
    out_shape = tuple(self._shape[d] for d in free_s) + tuple(other._shape[d] for d in free_o)
    return OPS["mm"].call(left, right).reshape(out_shape)


def _tensordot_public(binding):
    """tensordot(a, b, dims=2): dims is a count (int or 0-dim tensor) of trailing/leading
    dims, or a pair of dim lists."""
    def tensordot(a, b, dims=2, out=None):
        if hasattr(dims, "_shape"):
            dims = dims.item() if not dims._shape else dims.tolist()
        if isinstance(dims, int):
            if dims < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            if dims > a.ndim or dims > b.ndim:
                raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got "
                                   f"dims={dims}")
            ds, do = list(range(-dims, 0)), list(range(dims))
        else:
            ds, do = dims
            ds = [ds] if isinstance(ds, int) else list(ds)
            do = [do] if isinstance(do, int) else list(do)
        return binding(a, b, ds, do, out=out)
    return tensordot


def _kron(self, other):
    nd = max(self.ndim, other.ndim)
    sa = (1,) * (nd - self.ndim) + self._shape
    sb = (1,) * (nd - other.ndim) + other._shape
    a = self.reshape([d for n in sa for d in (n, 1)])
    b = other.reshape([d for n in sb for d in (1, n)])
    # (PyTorch unsafe-views its product, and fails for some non-contiguous inputs: a
    # reshape for those here)
    product = OPS["mul"].call(a, b)
    shape = [x * y for x, y in zip(sa, sb)]
    if product.is_contiguous():
        return OPS["_unsafe_view"].call(product, shape)
    return product.reshape(shape)


def _cross(self, other, dim=None):
    """torch.cross: the default dim is self's first of size 3 (not the broadcast shape's),
    then linalg.cross's checks: ranks, dim, lengths, broadcasting, dtypes."""
    if dim is None:
        warn_once("cross dim",
                  "Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                  "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                  "default value of dim will change to agree with that of linalg.cross in a "
                  "future release.")
        dim = next((d for d, n in enumerate(self._shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    check_same_rank(self, other)
    from .._argcheck import wrap_dim
    d = wrap_dim(dim, self.ndim)
    if self._shape[d] != 3 or other._shape[d] != 3:  # (no broadcasting along dim)
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{self._shape[d]} and {other._shape[d]}")
    shape = broadcast_shapes(self._shape, other._shape)
    if self.dtype is D.bool:  # (the kernel's dtype first)
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if self.dtype is not other.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(other.dtype)}")
    a, b = self.expand(shape), other.expand(shape)
    c = [a.select(d, i) for i in range(3)]
    e = [b.select(d, i) for i in range(3)]
    mul, sub = OPS["mul"].call, OPS["sub"].call
    parts = [sub(mul(c[(i + 1) % 3], e[(i + 2) % 3]), mul(c[(i + 2) % 3], e[(i + 1) % 3]), 1)
             for i in range(3)]
    with _autocast.off():  # (PyTorch's kernel: no autocast stack)
        return OPS["stack"].call(parts, d)


def check_same_rank(self, other):
    if self.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")


def same_rank_first(op, default_dim=None):
    """op's public function checks its operands' ranks before the binding wraps `dim`
    (an IndexError, which PyTorch's rank check precedes), then their lengths along dim,
    named as given (-1, not the wrapped dim); torch.cross's default dim (None) is looked
    for first."""
    prev = op._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, **kwargs):
            dim = args[2] if len(args) > 2 else kwargs.get("dim", default_dim)
            if len(args) >= 2 and hasattr(args[0], "ndim") and hasattr(args[1], "ndim") and \
                    dim is not None:
                a, b = args[0], args[1]
                check_same_rank(a, b)
                if isinstance(dim, int):
                    from .._argcheck import wrap_dim
                    d = wrap_dim(dim, a.ndim)
                    if a._shape[d] != 3 or b._shape[d] != 3:
                        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have "
                                           f"length 3. Got {a._shape[d]} and {b._shape[d]}")
            return inner(*args, **kwargs)
        return public
    overload(op, make)


def _matrix_power(self, n):
    if self.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if self._shape[-1] != self._shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {self._shape[-2]} by {self._shape[-1]} matrices")
    if n < 0:  # a power of the inverse (torch.linalg.inv's errors for singular matrices)
        self, n = OPS["linalg_inv"].call(self), -n
        if n == 1:
            return self
    if n == 0:  # identities written over a copy of self, whose gradient is then zero
        eye = OPS["eye"].binding(self._shape[-1], dtype=self.dtype, device=self._device)
        return OPS["clone"].call(self, contiguous_format).copy_(eye.expand(self._shape))
    if n == 1:
        return OPS["clone"].call(self, contiguous_format)
    # PyTorch's order of products (it decides where infs and NaNs meet): a @ a, (a @ a) @ a,
    # then powers of two from the lowest bit, each multiplied into the result in turn
    mm = OPS["matmul"].call
    if n <= 3:
        r = mm(self, self)
        return r if n == 2 else mm(r, self)
    z = result = None
    while n:
        bit, n = n & 1, n >> 1
        z = self if z is None else mm(z, z)
        if bit:
            result = z if result is None else mm(result, z)
    return result


def _chain_matmul(matrices):
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return OPS["clone"].call(matrices[0], contiguous_format)
    return OPS["linalg_multi_dot"].call(matrices)  # (PyTorch's: its order of products)


def _chain_matmul_public(binding):
    def chain_matmul(*matrices, out=None):
        warn_once("chain_matmul",
                  "torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use torch.linalg.multi_dot instead, which accepts a list of two "
                  "or more tensors rather than multiple parameters.")
        if not matrices:
            raise RuntimeError("chain_matmul(): Expected one or more matrices")
        return binding(list(matrices), out=out)
    return chain_matmul


def _addr_(self, *args):
    """addr promotes: a result self's dtype can't hold is refused (not cast)."""
    def check(self, result):
        from ..._promotion import can_cast
        if not can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_type_name(result.dtype)} can't be cast to the "
                               f"desired output type {_type_name(self.dtype)}")
    return write_into(self, OPS["addr"], args, check)


def _addbmm_(self, *args):
    """PyTorch's addbmm_ writes through addbmm's out=: a self that only broadcasts to the
    result is resized to it."""
    def check(self, result):
        if self._shape != result._shape:
            self.resize_(result._shape)
    return write_into(self, OPS["addbmm"], args, check)


_INPLACE = {"addr": _addr_, "addbmm": _addbmm_}


def _declare():
    for name, args in (("mm", "Tensor self, Tensor mat2"), ("bmm", "Tensor self, Tensor mat2"),
                       ("mv", "Tensor self, Tensor vec"), ("dot", "Tensor self, Tensor tensor")):
        define(f"{name}({args}) -> Tensor", tags=("linalg",), out=True)
    define("matmul(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_matmul, modules=("linalg",))
    define("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
           "-> Tensor", tags=("linalg",), out=True, decomposition=_addmm)
    define("_addmm_backward(Tensor grad, Tensor? mat1, Tensor? mat2, Scalar beta, "
           "Scalar alpha, int[]? self_shape, bool mat1_transposed, bool mat2_transposed, "
           "bool[] output_mask) -> (Tensor, Tensor, Tensor)", tags=("linalg",),
           function=False, method=False, decomposition=_addmm_backward)
    define("vdot(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_vdot)
    define("inner(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_inner)
    define("outer(Tensor self, Tensor vec2) -> Tensor", tags=("linalg",), out=True,
           decomposition=_outer)
    define("ger(Tensor self, Tensor vec2) -> Tensor", tags=("linalg",), out=True,
           decomposition=_ger)
    coefficients = "*, Scalar beta=1, Scalar alpha=1"
    for name, args, fn in (("addmv", "Tensor mat, Tensor vec", _addmv),
                           ("addr", "Tensor vec1, Tensor vec2", _addr),
                           ("baddbmm", "Tensor batch1, Tensor batch2", _baddbmm),
                           ("addbmm", "Tensor batch1, Tensor batch2", _addbmm)):
        define(f"{name}(Tensor self, {args}, {coefficients}) -> Tensor", tags=("linalg",),
               out=True, decomposition=fn)
    for name, fn in (("tril", _tril), ("triu", _triu)):
        define(f"{name}(Tensor self, int diagonal=0) -> Tensor", out=True, decomposition=fn)
    define("diag(Tensor self, int diagonal=0) -> Tensor", out=True, decomposition=_diag)
    define("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
           dim_extra=1, decomposition=_diag_embed)
    define("diagflat(Tensor self, int offset=0) -> Tensor", decomposition=_diagflat)
    define("trace(Tensor self) -> Tensor", decomposition=_trace)
    tensordot = define("tensordot(Tensor self, Tensor other, int[] dims_self, "
                       "int[] dims_other) -> Tensor", tags=("linalg",), method=False, out=True,
                       decomposition=_tensordot)
    overload(tensordot, public_level(tensordot, _tensordot_public))
    define("kron(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_kron)
    define("cross(Tensor self, Tensor other, int? dim=None) -> Tensor", tags=("linalg",),
           out=True, decomposition=_cross)
    define("matrix_power(Tensor self, int n) -> Tensor", tags=("linalg",), out=True,
           decomposition=_matrix_power, modules=("linalg",))
    chain = define("chain_matmul(Tensor[] matrices) -> Tensor", tags=("linalg",),
                   method=False, out=True, decomposition=_chain_matmul)
    overload(chain, public_level(chain, _chain_matmul_public))
    # in-place forms: the result written back (copy_ refuses a result self can't hold)
    for name, args in (("addmm", "Tensor mat1, Tensor mat2, " + coefficients),
                       ("addmv", "Tensor mat, Tensor vec, " + coefficients),
                       ("addr", "Tensor vec1, Tensor vec2, " + coefficients),
                       ("baddbmm", "Tensor batch1, Tensor batch2, " + coefficients),
                       ("addbmm", "Tensor batch1, Tensor batch2, " + coefficients),
                       ("tril", "int diagonal=0"), ("triu", "int diagonal=0")):
        define(f"{name}_(Tensor(a!) self, {args}) -> Tensor(a!)", tags=("inplace",),
               function=name == "addmv",  # (torch.addmv_)
               decomposition=_INPLACE.get(name) or inplace_via(name))
    for name, kind in (("mm", "mm"), ("bmm", "mm"), ("addmm", "mm"), ("matmul", "matmul"),
                       ("mv", "mm"), ("dot", "dot"), ("vdot", "dot"), ("inner", "inner"),
                       ("tensordot", "tensordot"), ("addmv", "mm"), ("baddbmm", "mm"),
                       ("addbmm", "mm"), ("tril", "mm"), ("triu", "mm"), ("diag", "mm"),
                       ("cross", "mm"), ("matrix_power", "mm"), ("chain_matmul", "multi_dot")):
        exact_out(OPS[name], kind)
    same_rank_first(OPS["cross"])


def _derivatives():  # (the formulas: linalg_grads.py)
    for op_name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[op_name], name=formulas.pop("name", None),
                   fused=formulas.pop("fused", None), **formulas)


_declare()
_derivatives()
