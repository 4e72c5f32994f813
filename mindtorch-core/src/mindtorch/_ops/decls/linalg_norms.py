"""The rest of torch.linalg, all decompositions: norms (vector_norm, matrix_norm, norm,
cond), multi_dot, vecdot, cross, diagonal, vander, tensorinv, tensorsolve; and torch.dist,
torch.cdist.  (Imported by decls/factorization.py.)

Where torch takes a norm order that is a number or a string, the string form is its own op
(`_linalg_matrix_norm_str`, ...) and the public function picks one by the argument's type.
"""
from ... import _autocast
from ... import _dtype as D
from ..._shapes import broadcast_shapes, numel
from ..._warn_once import warn_once
from ...overrides import public_level
from .._argcheck import wrap_dim
from ..registry import OPS, define, derivative, overload, route_overloads
from ._helpers import _type_name
from .factorization import check_errors, check_matrix, column_major_copy, input_keyword, single_out
from .linalg import same_rank_first
from .norm import check_norm_dtype

_INF = float("inf")


def _M():
    import mindtorch
    return mindtorch


# -- norms ---------------------------------------------------------------------------------

def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    return OPS["norm"].call(x, ord, dim, keepdim, dtype)


def _check_matrix_norm(A, dim, dtype):
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if A.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(A.dtype)}")
    dim = tuple(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, dim))}")
    d0, d1 = (wrap_dim(d, A.ndim) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    check_norm_dtype(A.dtype, dtype, "linalg.matrix_norm")
    return d0, d1


def _reduced(A, dims, keepdim, dtype):
    """An empty result's zeros (norms of empty matrices are 0)."""
    shape = tuple(1 if d in dims else n for d, n in enumerate(A._shape) if keepdim or
                  d not in dims)
    return _M().zeros(shape, dtype=(dtype or A.dtype).to_real(), device=A.device)


def _matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    d0, d1 = _check_matrix_norm(A, dim, dtype)
    if ord == "fro":
        return _vector_norm(A, 2, (d0, d1), keepdim, dtype)
    if ord == "nuc" or ord in (2, -2):
        if A.dtype in (D.float16, D.bfloat16):
            raise RuntimeError(f"linalg.matrix_norm: Low precision dtypes not supported. Got "
                               f"{_type_name(A.dtype)}")
        if A.numel() == 0 and ord != -2:
            return _reduced(A, (d0, d1), keepdim, dtype)
        if ord == -2 and not min(A._shape[d0], A._shape[d1]):  # (no singular values)
            _no_minimum(-1)
        x = A if dtype is None else A.to(dtype)
        s = OPS["linalg_svdvals"].call(x.movedim((d0, d1), (-2, -1)), None)
        r = s.sum(-1) if ord == "nuc" else s.amax(-1) if ord == 2 else s.amin(-1)
        if keepdim:
            for d in sorted((d0, d1)):
                r = r.unsqueeze(d)
        return r
    if ord in (1, -1, _INF, -_INF):
        if ord in (_INF, -_INF):  # the largest row sum; 1: the largest column sum
            d0, d1 = d1, d0
        if A.numel() == 0 and ord > 0:
            return _reduced(A, (d0, d1), keepdim, dtype)
        # (PyTorch's order: the sums over d0, then the extremum over d1, where d1 is
        # counted after d0 was reduced)
        d1 = d1 - 1 if not keepdim and d0 < d1 else d1
        s = _vector_norm(A, 1, (d0,), keepdim, dtype)
        return s.amax(d1, keepdim) if ord > 0 else s.amin(d1, keepdim)
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def _no_minimum(dim):
    """The error of the minimum PyTorch takes over an empty dim (named as it passes it)."""
    raise IndexError(f"amin(): Expected reduction dim {dim} to have non-zero size.")


def _norm_checks(A, ord, dim):
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dim)}")
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.ndim}D.")


def _norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    _norm_checks(A, ord, dim)
    if ord is not None and (len(dim) == 2 if dim is not None else A.ndim == 2):
        return _matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype)
    return _vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype)


def _norm_str(A, ord, dim=None, keepdim=False, dtype=None):
    _norm_checks(A, ord, dim)
    return _matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype)


_COND_ORDERS = (None, 2, -2, 1, -1, _INF, -_INF, "fro", "nuc")


def _cond(A, p=None):
    if A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if isinstance(p, str):
        check_matrix(A, f"linalg.cond(ord={p})", halves=None)
    if p not in _COND_ORDERS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    M = _M()
    if A.numel() == 0:
        return M.zeros(A._shape[:-2], dtype=A.dtype.to_real(), device=A.device)
    if p is None or p in (2, -2):
        s = OPS["linalg_svdvals"].call(A, None)
        top, bottom = s[..., :1], s[..., -1:]
        return (bottom / top if p == -2 else top / bottom).squeeze(-1)
    if p == "nuc":
        s = OPS["linalg_svdvals"].call(A, None)
        return s.sum(-1) * s.reciprocal().sum(-1)
    if not isinstance(p, str):
        label = f"{p:.6f}" if isinstance(p, float) and abs(p) != _INF else f"{p}"
        check_matrix(A, f"linalg.cond(ord={label})", halves=None)
    inverse, info = OPS["linalg_inv_ex"].call(A, False)
    inverse = M.where((info > 0).unsqueeze(-1).unsqueeze(-1), _INF, inverse)
    r = _matrix_norm(A, p) * _matrix_norm(inverse, p)
    return M.nan_to_num(r, _INF, _INF, -_INF)


def _str_or_number(op, str_op, position, name):
    """op's public function hands a string `name` argument to str_op."""
    def make(binding):
        def public(*args, **kwargs):
            v = args[position] if len(args) > position else kwargs.get(name)
            return (str_op.binding if isinstance(v, str) else binding)(*args, **kwargs)
        return public
    overload(op, make)


# -- products and the rest -----------------------------------------------------------------

def _equal_rank(op):
    """op's operands brought to one rank (leading 1s) before the schema binding wraps a
    negative `dim` against the first one's rank: torch counts it in the broadcast shape."""
    def make(binding):
        def public(a, b, *args, **kwargs):
            if hasattr(a, "ndim") and hasattr(b, "ndim"):  # (torch's order: dim comes last)
                if not _autocast.state.on:  # (autocast casts first; the kernel checks then)
                    _vecdot_checks(a, b)
                if a.ndim == b.ndim == 1:  # PyTorch takes vdot's path: no broadcasting
                    from .linalg import dot_shape
                    dot_shape(a, b)
                broadcast_shapes(a._shape, b._shape)
            if hasattr(a, "ndim") and hasattr(b, "ndim") and a.ndim != b.ndim:
                n = max(a.ndim, b.ndim)
                a = a.reshape((1,) * (n - a.ndim) + tuple(a.shape))
                b = b.reshape((1,) * (n - b.ndim) + tuple(b.shape))
            return binding(a, b, *args, **kwargs)
        return public
    overload(op, public_level(op, make))


def _vecdot_checks(x, y):
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as "
                           f"input. Got {_type_name(x.dtype)}")
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {_type_name(x.dtype)} and y of type "
                           f"{_type_name(y.dtype)} instead")


def _vecdot(x, y, dim=-1):
    _vecdot_checks(x, y)
    return (x.conj() * y).sum(dim)


def _chain_order(dims):
    """torch's matrix_chain_order: split points minimising the multiplications."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _multi_dot(tensors):
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    for label, t in (("first", first), ("last", last)):
        if t.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {label} tensor must be 1D or 2D but got "
                               f"{t.ndim}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype is not first.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but "
                               f"tensor 0 is {D.CPP_NAMES[first.dtype.name]} and tensor {i} "
                               f"{D.CPP_NAMES[t.dtype.name]}")
    mats = list(tensors)
    if first.ndim == 1:
        mats[0] = first.unsqueeze(0)
    if last.ndim == 1:
        mats[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        a, b = mats[i], mats[i + 1]
        if a._shape[1] != b._shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(a._shape)} and {list(b._shape)} cannot be multiplied")
    mm = OPS["mm"].call
    split = _chain_order([mats[0]._shape[0]] + [m._shape[1] for m in mats])

    def product(i, j):
        return mats[i] if i == j else mm(product(i, split[i][j]), product(split[i][j] + 1, j))
    out_shape = first._shape[:1] * (first.ndim == 2) + last._shape[1:] * (last.ndim == 2)
    return product(0, n - 1).view(out_shape)  # (PyTorch's last step: a view)


def _linalg_vander(x, N=None):
    if x.dtype in (D.bool, D.float16, D.bfloat16):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {_type_name(x.dtype)}")
    if N is None:
        N = x._shape[-1] if x.ndim else 1
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    M = _M()
    powers = x.unsqueeze(-1).expand(x._shape + (N - 1,)).cumprod(-1)
    return M.cat([M.ones_like(powers[..., :1]), powers], -1)


def _tensorinv(A, ind=2):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    outer, inner = A._shape[:ind], A._shape[ind:]
    if numel(outer) != numel(inner):
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {numel(inner)} != {numel(outer)}")
    inv, info = OPS["linalg_inv_ex"].call(A.reshape(numel(outer), numel(inner)), False)
    check_errors(info, "inv", False)  # (PyTorch's name here)
    return inv.reshape(inner + outer)


def _tensorsolve(A, B, dims=None):
    if dims is not None:
        dims = [wrap_dim(d, A.ndim) for d in dims]
        A = A.movedim(dims, list(range(A.ndim - len(dims), A.ndim)))
    result_shape = A._shape[B.ndim:]
    if numel(result_shape) != B.numel():  # (PyTorch's test and numbers; then the reshape)
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]"
                           f") == prod(self.shape[:other.ndim]), but got "
                           f"{numel(result_shape)} != {B.numel()}")
    x = OPS["linalg_solve"].call(A.reshape(B.numel(), numel(result_shape)), B.reshape(-1), True)
    return x.reshape(result_shape)


def _linalg_cross(self, other, dim=-1):
    return OPS["cross"].call(self, other, dim)


def _triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """torch.triangular_solve(b, A): (A^{-1} b or A^{-T} b, A broadcast and copied)."""
    warn_once("triangular_solve", "torch.triangular_solve is deprecated in favor of "
              "torch.linalg.solve_triangularand will be removed in a future PyTorch release.\n"
              "torch.linalg.solve_triangular has its arguments reversed and does not return a "
              "copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould "
              "be replaced with\nX = torch.linalg.solve_triangular(A, B).")
    for name, t in (("b", self), ("A", A)):
        if t.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 "
                               f"dimensions, but it has {t.ndim} dimensions instead")
    if self.dtype is not A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(self.dtype)} and A of type {_type_name(A.dtype)} "
                           f"instead.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    if self._shape[-2] != A._shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{A._shape[-2]} by {A._shape[-1]} but each b matrix is "
                           f"{self._shape[-2]} by {self._shape[-1]}")
    op = A.mT if transpose else A
    x = OPS["linalg_solve_triangular"].call(op, self, upper != transpose, True, unitriangular)
    coefficient = column_major_copy(A.expand(x._shape[:-2] + A._shape[-2:]))
    return x, coefficient


def _frobenius_norm(self, dim, keepdim=False):
    warn_once("frobenius_norm", "at::frobenius_norm is deprecated and it is just left for JIT "
              "compatibility. It will be removed in a future PyTorch release. Please use "
              "`linalg.vector_norm(A, 2., dim, keepdim)` instead")
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           f"instead.")
    return _vector_norm(self, 2, dim, keepdim, None)


def _nuclear_norm(self, dim=(-2, -1), keepdim=False):
    warn_once("nuclear_norm", "at::nuclear_norm is deprecated and it is just left for JIT "
              "compatibility. It will be removed in a future PyTorch release. Please use "
              "`linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")
    return _matrix_norm(self, "nuc", dim, keepdim, None)


def _nuclear_norm_route(args, kwargs):
    """nuclear_norm(x, keepdim) or nuclear_norm(x, dim, keepdim)."""
    if len(args) > 1 and isinstance(args[1], bool):
        args = (args[0], (-2, -1)) + args[1:]
    dim = args[1] if len(args) > 1 else kwargs.get("dim", (-2, -1))
    if args and hasattr(args[0], "ndim") and (args[0].ndim < 2 or (
            isinstance(dim, (tuple, list)) and len(dim) != 2)):  # (before dims are wrapped)
        _check_matrix_norm(args[0], dim, None)
    return args, kwargs


# -- dist, cdist ---------------------------------------------------------------------------

def _dist(self, other, p=2):
    diff = self - other
    if diff.dtype.kind not in "fc":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_type_name(diff.dtype)} instead.")
    return OPS["norm"].call(diff, p, None, False, None)


_COMPUTE_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                  "donot_use_mm_for_euclid_dist")  # (None is refused, as PyTorch)


def _euclidean_dist(x1, x2):
    """PyTorch's matrix-product form of p = 2 distances: |a|^2 - 2 a.b + |b|^2 as one
    product of padded operands, clamped at 0 before the root (any float dtype)."""
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{D.CPP_NAMES[x1.dtype.name]} != {D.CPP_NAMES[x2.dtype.name]}")
    M = _M()
    n1, n2 = x1.pow(2).sum(-1, keepdim=True), x2.pow(2).sum(-1, keepdim=True)
    a = M.cat([x1 * -2, n1, M.ones_like(n1)], -1)
    b = M.cat([x2, M.ones_like(n2), n2], -1)
    return (a @ b.mT).clamp_min(0).sqrt()


def _uses_mm(compute_mode, P, R):
    """Whether p = 2 distances between P and R rows take PyTorch's matrix-product form."""
    return compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode == "use_mm_for_euclid_dist_if_necessary" and max(P, R) > 25)


def _cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """All pairwise p-norm distances: for p = 2 by a matrix product where PyTorch uses one
    (compute_mode "use_mm_for_euclid_dist", or either side over 25 rows by default),
    otherwise each computed directly (PyTorch's kernels)."""
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    if x1._shape[-1] != x2._shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1._shape[-1]} X2: {x2._shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{_type_name(t.dtype)}")
    if not p >= 0:  # (NaN too)
        raise RuntimeError("cdist only supports non-negative p values")
    batch = broadcast_shapes(x1._shape[:-2], x2._shape[:-2])
    P, R, m = x1._shape[-2], x2._shape[-2], x1._shape[-1]
    if not (x1.numel() and x2.numel() and m):  # (before any dtype is dispatched on)
        return _M().zeros(batch + (P, R), dtype=x1.dtype, device=x1.device)
    if p == 2 and _uses_mm(compute_mode, P, R):
        return _euclidean_dist(x1, x2)
    if x1.dtype in (D.float16, D.bfloat16):  # (x1's kernel first)
        raise NotImplementedError(f"\"cdist\" not implemented for '{_type_name(x1.dtype)}'")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(x1.dtype)} but found "
                           f"{_type_name(x2.dtype)}")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    # PyTorch's kernels for p = 0 (sum of min(ceil(|d|), 1): NaN propagates) and p = inf
    # (a running max from 0 that skips NaN)
    if p == 0:
        return OPS["minimum"].call(diff.abs().ceil(), _M().ones((), dtype=diff.dtype,
                                                                device=diff.device)).sum(-1)
    if p == float("inf"):
        d = diff.abs()
        return _M().where(d.isnan(), 0, d).amax(-1)
    return OPS["norm"].call(diff, p, (-1,), False, None)


def _dist_grad(grad, self, other, p, result):
    from .norm import _norm_grad
    g = _norm_grad(grad, self - other, p, None, False, result)
    return (None, None) if g is None else (g, -g)


def _euclidean_dist_grad(grad, x1, x2, result):
    """PyTorch's gradient of the matrix-product form (_euclidean_dist_backward): with
    ratio = grad / dist (0 where dist is 0), x1 * sum_r ratio - ratio @ x2, and likewise
    for x2: two products, no (P, R, m) differences."""
    ratio = (grad / result).masked_fill(result == 0, 0)
    return (x1 * ratio.sum(-1, keepdim=True) - ratio @ x2,
            x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT @ x1)


def _cdist_grad(grad, x1, x2, p, compute_mode, result):
    from .norm import _norm_grad
    if p == 0 or 0 in result.shape or x1.shape[-1] == 0:
        return x1.new_zeros(x1.shape), x2.new_zeros(x2.shape)
    if p == 2 and _uses_mm(compute_mode, x1.shape[-2], x2.shape[-2]):
        return _euclidean_dist_grad(grad, x1, x2, result)
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == float("inf"):  # (PyTorch's cdist: every component at the max, ties not split)
        g = grad.unsqueeze(-1) * diff.sign() * (diff.abs() == result.unsqueeze(-1))
    else:
        g = _norm_grad(grad, diff, p, (diff.ndim - 1,), False, result)
    return g.sum(-2), -g.sum(-3)


def _declare():
    linalg = {"tags": ("linalg",), "modules": ("linalg",), "function": False, "method": False}
    opts = "int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None"
    mopts = "int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None"
    for text, fn in (
            (f"linalg_vector_norm(Tensor x, Scalar ord=2, {opts}) -> Tensor", _vector_norm),
            (f"linalg_matrix_norm(Tensor A, Scalar ord, {mopts}) -> Tensor", _matrix_norm),
            (f"linalg_norm(Tensor A, Scalar? ord=None, {opts}) -> Tensor", _norm),
            ("linalg_cond(Tensor A, Scalar? p=None) -> Tensor", _cond),
            ("linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", _vecdot),
            ("linalg_multi_dot(Tensor[] tensors) -> Tensor", _multi_dot),
            ("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", _linalg_cross),
            ("linalg_diagonal(Tensor A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
             lambda A, offset=0, dim1=-2, dim2=-1: A.diagonal(offset, dim1, dim2)),
            ("linalg_vander(Tensor x, *, int? N=None) -> Tensor", _linalg_vander),
            ("linalg_tensorinv(Tensor A, int ind=2) -> Tensor", _tensorinv),
            ("linalg_tensorsolve(Tensor A, Tensor B, int[]? dims=None) -> Tensor",
             _tensorsolve)):
        define(text, decomposition=fn, **linalg)
    # the string forms of the norm orders (reached through the functions above)
    hidden = {"tags": ("linalg",), "function": False, "method": False}
    define(f"_linalg_matrix_norm_str(Tensor A, str ord='fro', {mopts}) -> Tensor",
           decomposition=_matrix_norm, **hidden)
    define(f"_linalg_norm_str(Tensor A, str ord, {opts}) -> Tensor", decomposition=_norm_str,
           **hidden)
    define("_linalg_cond_str(Tensor A, str p) -> Tensor", decomposition=_cond, **hidden)
    define("triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, "
           "bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)",
           tags=("linalg",), decomposition=_triangular_solve)
    from .sorting import _with_out  # out=(solution, cloned_coefficient), as PyTorch
    _with_out(OPS["triangular_solve"], ["solution", "cloned_coefficient"])
    define("frobenius_norm(Tensor self, int[] dim, bool keepdim=False) -> Tensor",
           tags=("linalg",), method=False, out=True, decomposition=_frobenius_norm)
    route_overloads(define("nuclear_norm(Tensor self, int[] dim=[-2,-1], bool keepdim=False) "
                           "-> Tensor", tags=("linalg",), method=False, out=True,
                           decomposition=_nuclear_norm), _nuclear_norm_route)
    define("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", tags=("linalg",),
           decomposition=_dist)
    define("cdist(Tensor x1, Tensor x2, float p=2.0, "
           "str? compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor",
           tags=("linalg",), method=False, decomposition=_cdist)
    _str_or_number(OPS["linalg_matrix_norm"], OPS["_linalg_matrix_norm_str"], 1, "ord")
    _str_or_number(OPS["linalg_norm"], OPS["_linalg_norm_str"], 1, "ord")
    _str_or_number(OPS["linalg_cond"], OPS["_linalg_cond_str"], 1, "p")
    _default_fro(OPS["linalg_matrix_norm"])
    # (PyTorch checks dim's length, and the order, before wrapping its dims)
    _dim_length_first(OPS["linalg_matrix_norm"], 2, _matrix_norm_first)
    _dim_length_first(OPS["frobenius_norm"], 1, lambda A, dim, kw: _float_norm_input(A))
    _dim_length_first(OPS["linalg_norm"], 2, lambda A, dim, kw: len(dim) not in (1, 2) and
                      _norm_checks(A, None, dim))
    _equal_rank(OPS["linalg_vecdot"])
    same_rank_first(OPS["linalg_cross"], -1)
    for name in ("linalg_vector_norm", "linalg_matrix_norm", "linalg_norm", "linalg_cond",
                 "linalg_vecdot", "linalg_multi_dot", "linalg_cross", "linalg_tensorinv",
                 "linalg_tensorsolve"):  # (linalg.vander and dist take no out=)
        single_out(OPS[name])
    input_keyword("linalg_vector_norm", "linalg_matrix_norm", "linalg_norm", "linalg_cond",
                  "linalg_tensorinv")
    _count_first(OPS["linalg_multi_dot"])


def _count_first(op):
    """multi_dot of an empty list: PyTorch's count error (the binding would find no tensor
    to take a device from)."""
    prev = op._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, **kwargs):
            tensors = args[0] if args else kwargs.get("tensors")
            if isinstance(tensors, (list, tuple)) and not tensors:
                _multi_dot(tensors)
            return inner(*args, **kwargs)
        return public
    overload(op, make)


def _default_fro(op):
    """matrix_norm(A) means ord='fro' (a string: the other op)."""
    prev = op._public

    def make(generated):
        inner = prev(generated)

        def public(*args, **kwargs):
            if len(args) < 2 and "ord" not in kwargs:
                kwargs["ord"] = "fro"
            A = args[0] if args else kwargs.get("A")
            if getattr(A, "ndim", 2) < 2:  # (before the binding wraps dim=(-2, -1))
                _check_matrix_norm(A, (-2, -1), None)
            return inner(*args, **kwargs)
        return public
    overload(op, make)


_MATRIX_ORDS = (2, -2, 1, -1, _INF, -_INF)


def _matrix_norm_first(A, dim, kwargs):
    ord = kwargs.get("ord", "fro")
    if isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord not in _MATRIX_ORDS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    _check_matrix_norm(A, dim, kwargs.get("dtype"))  # (before the binding refuses repeats)


def _float_norm_input(A):
    if A.dtype.kind not in "fc":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_type_name(A.dtype)} instead.")


def _dim_length_first(op, position, check):
    """check(A, dim, kwargs) on op's arguments before the binding wraps `dim` (at
    `position`) against A's rank."""
    prev = op._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, **kwargs):
            dim = args[position] if len(args) > position else kwargs.get("dim")
            A = args[0] if args else kwargs.get("A", kwargs.get("self"))
            if isinstance(dim, (tuple, list)) and hasattr(A, "ndim"):
                check(A, tuple(dim), {"ord": args[1]} if len(args) > 1 else kwargs)
            return inner(*args, **kwargs)
        return public
    overload(op, make)


def _derivatives():
    derivative(OPS["dist"], {"self, other": _dist_grad})
    derivative(OPS["cdist"], {"x1, x2": _cdist_grad})


_declare()
_derivatives()
