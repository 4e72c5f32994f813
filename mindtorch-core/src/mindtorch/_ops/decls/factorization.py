"""Factorizations and solvers: torch.linalg (inv, det, solve, cholesky, qr, eigh, eig, svd,
lstsq, matrix_exp, pinv, ...) and their torch.* spellings (inverse, det, slogdet, svd, qr,
cholesky_solve, ...).

Kernel ops (each backend implements them): linalg_inv_ex, linalg_det, linalg_slogdet,
linalg_solve_ex, linalg_solve_triangular, linalg_cholesky_ex, linalg_qr, linalg_eigh,
linalg_eig, linalg_svd, linalg_lstsq, linalg_matrix_exp.  Their metadata rules (torch's
errors in torch's order, result shapes and dtypes) are the `*_meta` functions here: the
CPU kernels call them first, and they are the meta device's rules.  Everything else
decomposes into these ops.  A failure on the data (a singular matrix, one that is not
positive-definite) raises LinAlgError, a RuntimeError, as torch.linalg.LinAlgError.
"""

from ... import _dtype as D
from ... import _promotion
from ..._memory_format import contiguous_format
from ..._shapes import broadcast_shapes
from ..._tensor import Tensor
from ..._warn_once import warn_once
from ..dispatch import write_out
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name, has_data


class LinAlgError(RuntimeError):
    """A linear algebra function failed on its input's values (torch.linalg.LinAlgError)."""


LinAlgError.__module__ = "mindtorch.linalg"
LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"  # type(e).__name__ as torch's

_LOW = (D.float16, D.bfloat16)
_EPS = {D.float32: 1.1920928955078125e-07, D.float64: 2.220446049250313e-16}


def eps(dtype):
    return _EPS[dtype.to_real()]


def check_matrix(A, name, *, square=True, ints=None, halves="low", empty_ok=True):
    """torch's checks of a (batch of) matrix argument, in its order: rank, squareness,
    dtype (RuntimeError, or NotImplementedError naming kernel `ints` where torch's
    dispatch fails first), 16-bit floats (`halves`: "low" RuntimeError, a kernel name for
    NotImplementedError, None to accept them)."""
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    dt = A.dtype
    if dt.kind not in "fc":
        if ints:
            raise NotImplementedError(f'"{ints}" not implemented for \'{_type_name(dt)}\'')
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {_type_name(dt)}")
    if dt in _LOW and halves:
        if halves == "low":
            raise RuntimeError(f"{name}: Low precision dtypes not supported. Got "
                               f"{_type_name(dt)}")
        if empty_ok and not A.numel():  # (PyTorch's kernel is not reached: no error)
            return
        raise NotImplementedError(f'"{halves}" not implemented for \'{_type_name(dt)}\'')


def _same_dtype(name, A, B, a="A", b="B"):
    if A.dtype is not B.dtype:
        raise RuntimeError(f"{name}: Expected {a} and {b} to have the same dtype, but found "
                           f"{a} of type {_type_name(A.dtype)} and {b} of type "
                           f"{_type_name(B.dtype)} instead")


def batch_message(index, batched, text):
    """torch's message for a failure in matrix `index` of a batch."""
    return f"(Batch element {index}): {text}" if batched else text


# -- metadata rules of the kernel ops: ((shape, dtype), ...) of their results ------------

def inv_meta(A, check_errors=False):
    check_matrix(A, "linalg.inv")
    return (A._shape, A.dtype), (A._shape[:-2], D.int32)


def det_meta(A):
    check_matrix(A, "linalg.det", halves="lu_cpu")
    return A._shape[:-2], A.dtype


def slogdet_meta(A):
    check_matrix(A, "linalg.slogdet")
    return (A._shape[:-2], A.dtype), (A._shape[:-2], A.dtype.to_real())


def is_vector_rhs(A, B):
    """torch's rule: B is a (batch of) vector(s) when 1-D, or shaped like A minus its last dim."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and B._shape == A._shape[:-1])


def _incompatible(name, A, Bm, left):
    n = A._shape[-1]
    if (Bm[-2] if left else Bm[-1]) != n:
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({A._shape[-2]}x{n} and "
                           f"{Bm[-2]}x{Bm[-1]})")


def solve_plan(A, B, left=True, name="linalg.solve", kernel="lu_cpu"):
    """(broadcast batch shape, whether B is a vector, B's matrix shape) of AX = B (XA = B
    when not left), after torch's checks (dtypes first; B may be a vector)."""
    if A.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as "
                           f"input. Got {_type_name(A.dtype)}")
    _same_dtype(name, A, B)
    vector = is_vector_rhs(A, B)
    check_matrix(A, name, ints=kernel, halves=None)
    Bm = B._shape + (1,) if vector else B._shape
    if len(Bm) < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _incompatible(name, A, Bm, left)
    batch = broadcast_shapes(Bm[:-2], A._shape[:-2])  # (in PyTorch's order, for its message)
    if A.dtype in _LOW:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(A.dtype)}\'')
    return batch, vector, Bm[-2:]


def solve_meta(A, B, left=True, check_errors=False):
    batch, vector, mat = solve_plan(A, B, left)
    shape = batch + (mat[:1] if vector else mat)
    return (shape, A.dtype), (A._shape[:-2], D.int32)


def solve_triangular_meta(A, B, upper, left=True, unitriangular=False):
    """torch's order: ranks and shapes, then A's dtype; B is cast to A's dtype (which
    the result takes), whatever its own."""
    name = "linalg.solve_triangular"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    if B.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _incompatible(name, A, B._shape, left)
    batch = broadcast_shapes(B._shape[:-2], A._shape[:-2])
    if A.dtype.kind not in "fc" or A.dtype in _LOW:
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for '
                                  f'\'{_type_name(A.dtype)}\'')
    return batch + B._shape[-2:], A.dtype


def cholesky_meta(A, upper=False, check_errors=False):
    check_matrix(A, "linalg.cholesky", halves="cholesky_cpu")
    return (A._shape, A.dtype), (A._shape[:-2], D.int32)


_QR_MODES = ("reduced", "complete", "r")


def qr_meta(A, mode="reduced"):
    check_matrix(A, "linalg.qr", square=False, halves="geqrf_cpu", empty_ok=False)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    *batch, m, n = A._shape
    batch, k = tuple(batch), min(m, n)
    q = (0,) if mode == "r" else batch + ((m, m) if mode == "complete" else (m, k))
    r = batch + ((m, n) if mode == "complete" else (k, n))
    return (q, A.dtype), (r, A.dtype)


LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq_plan(A, B, driver):
    """(batch, vector case, driver) of lstsq(A, B) after torch's checks."""
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {_type_name(A.dtype)} and other's "
                           f"dtype {_type_name(B.dtype)}")
    if not (A.ndim >= B.ndim and A.ndim - B.ndim <= 1):
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    # (PyTorch's vector case: B is A's shape without its last dim; another B one dim short
    # of A is a matrix whose batch is still read as B.shape[:-1])
    vector = B.ndim == 1 or (A.ndim - B.ndim == 1 and B._shape == A._shape[:-1])
    if (B._shape[-1] if vector else B._shape[-2]) != A._shape[-2]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size("
                           f"{-1 if vector else -2})")
    driver = "gelsy" if driver is None else driver
    if driver not in LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    batch = broadcast_shapes(A._shape[:-2], B._shape[:-1] if A.ndim > B.ndim else B._shape[:-2])
    if not vector:  # (B's matrices then expand to that batch)
        broadcast_shapes(batch + B._shape[-2:], B._shape)
    return batch, vector, driver


def lstsq_meta(A, B, rcond=None, driver=None):
    """Residuals are computed when m > n and (for gelsd/gelss) every matrix has full rank:
    a shape that depends on the data, assumed full rank here."""
    batch, vector, driver = lstsq_plan(A, B, driver)
    m, n = A._shape[-2:]
    k = 1 if vector else B._shape[-1]
    real = A.dtype.to_real()
    solution = batch + ((n,) if vector else (n, k))
    residuals = batch + (k,) if m > n and driver != "gelsy" else (0,)
    own = A._shape[:-2]  # (rank and singular values depend on A only: its own batch)
    rank = (0,) if driver == "gels" else own
    sv = own + (min(m, n),) if driver in ("gelsd", "gelss") else (0,)
    return (solution, A.dtype), (residuals, real), (rank, D.int64), (sv, real)


def matrix_exp_meta(A):
    check_matrix(A, "linalg.matrix_exp", halves=None)
    return A._shape, A.dtype


# -- decompositions ------------------------------------------------------------------------

def _M():
    import mindtorch
    return mindtorch


# PyTorch's _linalg_check_errors: the message of a failed factorization is chosen by words
# of the name of the function reporting it (which the message starts with)
_INFO_MESSAGES = (
    ("inv", LinAlgError, ("The diagonal element {} is zero, the inversion could not be "
                          "completed because the input matrix is singular.")),
    ("solve", LinAlgError, "The solver failed because the input matrix is singular."),
    ("cholesky", LinAlgError, ("The factorization could not be completed because the input is "
                               "not positive-definite (the leading minor of order {} is not "
                               "positive-definite).")),
    ("lu_factor", RuntimeError, ("U[{0},{0}] is zero and using it on lu_solve would result in "
                                 "a division by zero. If you still want to perform the "
                                 "factorization, consider calling linalg.lu(A, pivot) or "
                                 "linalg.lu_factor_ex(A, pivot)")),
)


def check_errors(info, api_name, batched):
    """Raise PyTorch's error for the first nonzero LAPACK info (on devices with data)."""
    if not info.numel() or not has_data(info):
        return
    flat = info.reshape(-1).tolist()
    i = next((k for k, v in enumerate(flat) if v), None)
    if i is None:
        return
    cls, text = next((c, t) for word, c, t in _INFO_MESSAGES if word in api_name)
    raise cls(f"{api_name}: " + batch_message(i, batched, text.format(flat[i])))


def _checked(op_name, api_name):
    """The public function of an `_ex` op: its first result, errors raised under api_name."""
    def checked(A, *args):
        *results, info = OPS[op_name].call(A, *args, False)
        check_errors(info, api_name, A.ndim > 2)
        return results[0]
    return checked


_inv = _checked("linalg_inv_ex", "linalg.inv")
_solve = _checked("linalg_solve_ex", "torch.linalg.solve")
_cholesky = _checked("linalg_cholesky_ex", "linalg.cholesky")


def _cholesky_deprecated(self, upper=False):
    warn_once("cholesky",
              "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be "
              "removed in a future PyTorch release.\nL = torch.cholesky(A)\nshould be "
              "replaced with\nL = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, "
              "upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\nThis "
              "transform will produce equivalent results for all valid (symmetric positive "
              "definite) inputs.")
    if not self.numel():  # (PyTorch returns before any check)
        return self.new_empty(self._shape)
    check_matrix(self, "cholesky", ints="cholesky_cpu", halves="cholesky_cpu")
    return _checked("linalg_cholesky_ex", "cholesky")(self, upper)


def _logdet(self):
    check_matrix(self, "logdet")
    sign, logabs = OPS["linalg_slogdet"].call(self)
    if self.dtype.is_complex:
        return sign.log() + logabs
    return _M().where(sign == -1, float("nan"), logabs)


def _cholesky_solve(self, input2, upper=False):
    for name, t in (("b", self), ("u", input2)):
        if t.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.ndim} "
                               f"dimensions instead")
    if self.dtype is not input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(self.dtype)} and A of type {_type_name(input2.dtype)} "
                           f"instead.")
    if input2._shape[-1] != input2._shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are "
                           f"{input2._shape[-2]} by {input2._shape[-1]} matrices")
    if self._shape[-2] != input2._shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{input2._shape[-1]} by {input2._shape[-1]} but each b matrix is "
                           f"{self._shape[-2]} by {self._shape[-1]}")
    if self.dtype.kind not in "fc" or self.dtype in _LOW:
        raise NotImplementedError(f'"cholesky_solve_cpu" not implemented for '
                                  f'\'{_type_name(self.dtype)}\'')
    L = input2.mH if upper else input2
    st = OPS["linalg_solve_triangular"].call
    return st(L.mH, st(L, self, False, True, False), True, True, False)


def _cholesky_inverse(self, upper=False):
    check_matrix(self, "cholesky_inverse", ints="cholesky_inverse_out_cpu",
                 halves="cholesky_inverse_out_cpu", empty_ok=False)
    _check_diagonal(self, "cholesky_inverse")
    eye = _M().eye(self._shape[-1], dtype=self.dtype, device=self.device)
    return _cholesky_solve(eye.expand(self._shape), self, upper)


def _check_diagonal(A, name):
    """LAPACK's (potri's) refusal of a triangular factor with a zero on its diagonal: a
    LinAlgError naming the first such matrix and (1-based) element, on devices with data."""
    if not _has_data(A):
        return
    zero = (A.diagonal(0, -2, -1) == 0).reshape(-1, A._shape[-1]).to(D.int64)
    if not bool(zero.any().item()):
        return
    b = int(zero.amax(-1).argmax().item())
    k = int(zero[b].argmax().item()) + 1
    raise LinAlgError(f"{name}: " + batch_message(b, A.ndim > 2, (
        f"The diagonal element {k} is zero, the inversion could not be completed because "
        f"the input matrix is singular.")))


def _qr(self, some=True):
    warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in "
              "a future PyTorch release.\nThe boolean parameter 'some' has been replaced with a "
              "string parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
              "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
    return OPS["linalg_qr"].call(self, "reduced" if some else "complete")


def _matrix_exp(self):
    return OPS["linalg_matrix_exp"].call(self)


def _declare():
    linalg = {"tags": ("linalg",), "modules": ("linalg",), "function": False, "method": False}
    kernels = [
        ("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)"),
        ("linalg_det(Tensor A) -> Tensor"),
        ("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)"),
        ("linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
         "(Tensor result, Tensor info)"),
        ("linalg_solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, "
         "bool unitriangular=False) -> Tensor"),
        ("linalg_cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> "
         "(Tensor L, Tensor info)"),
        ("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)"),
        ("linalg_lstsq(Tensor A, Tensor B, float? rcond=None, *, str? driver=None) -> "
         "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)"),
        ("linalg_matrix_exp(Tensor A) -> Tensor"),
    ]
    for text in kernels:
        define(text, **linalg)
    composites = [
        ("linalg_inv(Tensor A) -> Tensor", _inv),
        ("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", _solve),
        ("linalg_cholesky(Tensor A, *, bool upper=False) -> Tensor", _cholesky),
    ]
    for text, fn in composites:
        define(text, decomposition=fn, **linalg)
    # torch.* spellings (functions and Tensor methods)
    for text, fn in (
            ("inverse(Tensor self) -> Tensor", _inv),
            ("det(Tensor self) -> Tensor", lambda self: OPS["linalg_det"].call(self)),
            ("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)",
             lambda self: OPS["linalg_slogdet"].call(self)),
            ("logdet(Tensor self) -> Tensor", _logdet),
            ("cholesky(Tensor self, bool upper=False) -> Tensor", _cholesky_deprecated),
            ("cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor",
             _cholesky_solve),
            ("cholesky_inverse(Tensor self, bool upper=False) -> Tensor", _cholesky_inverse),
            ("qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", _qr),
            ("matrix_exp(Tensor self) -> Tensor", _matrix_exp)):
        define(text, tags=("linalg",), decomposition=fn)
    for name in ("linalg_inv", "linalg_det", "linalg_solve", "linalg_solve_triangular",
                 "linalg_cholesky", "inverse", "cholesky", "cholesky_solve", "cholesky_inverse"):
        # (PyTorch's linalg.matrix_exp, det and logdet take no out=)
        single_out(OPS[name])
    for name in ("linalg_inv_ex", "linalg_slogdet", "linalg_solve_ex", "linalg_cholesky_ex",
                 "linalg_qr", "linalg_lstsq", "slogdet", "qr"):
        tuple_out(OPS[name])
    input_keyword("linalg_cholesky", "linalg_cholesky_ex", "linalg_matrix_exp")


def _has_data(t):
    """Values to check: t is not empty and its device holds data."""
    return bool(t.numel()) and has_data(t)


# -- out=: linalg functions want out tensors of their results' dtypes ----------------------

# the functions whose own out= check PyTorch reports in its words (scalar type names);
# the others fail in the generic check (C++ type names)
_OUT_DTYPE_MESSAGES = {
    "linalg_matrix_norm": "linalg.matrix_norm expected out tensor dtype {want} but got: {got}",
    "linalg_norm": "linalg.norm expected out tensor dtype {want} but got: {got}",
    "linalg_vecdot": "linalg.vecdot: Expected out of dtype{want} but found {got}",
}


def _check_out_dtype(op, r, out):
    if r.dtype is out.dtype:
        return
    text = _OUT_DTYPE_MESSAGES.get(op.name)
    if text is not None:
        raise RuntimeError(text.format(want=_type_name(r.dtype), got=_type_name(out.dtype)))
    raise RuntimeError(f"Expected out tensor to have dtype {D.CPP_NAMES[r.dtype.name]}, but "
                       f"got {D.CPP_NAMES[out.dtype.name]} instead")


def _with_out(op, write):
    prev = op._public

    def make(generated):
        inner = prev(generated) if prev is not None else generated

        def public(*args, out=None, **kwargs):
            r = inner(*args, **kwargs)
            return r if out is None else write(op, out, r)
        return public
    overload(op, make)


def _write_one(op, out, r):
    if not isinstance(out, Tensor):
        raise TypeError(f"{op.name}(): argument 'out' must be Tensor, not "
                        f"{type(out).__name__}")
    _check_out_dtype(op, r, out)
    return write_out(op, out, r)


def _write_tuple(op, out, r):
    if not isinstance(out, (tuple, list)) or len(out) != len(r):
        raise TypeError(f"{op.name}(): argument 'out' must be tuple of {len(r)} Tensors")
    for o, x in zip(out, r):
        _write_one(op, o, x)
    return type(r)(*out)


def column_major_copy(t):
    """A copy of t with each matrix column-major, as PyTorch's LAPACK-backed results are."""
    return OPS["clone"].call(t.mT, contiguous_format).mT


def single_out(op):
    """out= for an op with one result (of exactly the result's dtype, as linalg wants)."""
    _with_out(op, _write_one)


def tuple_out(op):
    """out=(t1, t2, ...) for an op with several results."""
    _with_out(op, _write_tuple)


def input_keyword(*names):
    """PyTorch names these functions' matrix `input` (aten's self; also NumPy's `x`), where
    their schemas here say A: the public functions take those keywords too."""
    for name in names:
        op = OPS[name]
        prev = op._public

        def make(generated, prev=prev):
            inner = prev(generated) if prev is not None else generated

            def public(*args, **kwargs):
                if not args and kwargs:
                    key = "input" if "input" in kwargs else "x" if "x" in kwargs else None
                    if key is not None:
                        args = (kwargs.pop(key),)
                return inner(*args, **kwargs)
            return public
        overload(op, make)


def castable_out(op, label, what="result"):
    """out= of any dtype the result safely casts to (pinv, matrix_rank, eigvals check it
    so; `what` is the result's name in the message)."""
    def write(op, out, r):
        if isinstance(out, Tensor) and not _promotion.can_cast(r.dtype, out.dtype):
            raise RuntimeError(f"{label}: Expected {what} to be safely castable from "
                               f"{_type_name(r.dtype)} dtype, but got {what} with dtype "
                               f"{_type_name(out.dtype)}")
        return write_out(op, out, r) if isinstance(out, Tensor) else _write_one(op, out, r)
    _with_out(op, write)



# -- backward formulas (torch's FunctionsManual, written with mindtorch ops) ---------------
# Quotients by eigenvalue / singular value gaps divide by 1 where a gap is 0: torch gets
# 0/0 there when the loss does not depend on the vectors (it skips the term when their
# gradient is undefined; here a missing gradient arrives as zeros).

def _safe(den):
    return _M().where(den == 0, 1, den)


def _eye_mask(n, device):
    return _M().eye(n, dtype=D.bool, device=device)


def _inv_grad(grad, result):
    inv_h = result.mH
    return -(inv_h @ (grad @ inv_h))


def _det_grad(grad, A, result):
    """G = conj(det) * grad * A^{-H}.  First order: exactly singular matrices get 0 (torch
    solves with a perturbed LU, and conj(det) = 0 there).  For higher orders, near-singular
    matrices take the adjugate through the SVD (det U det Vh U diag(prod of the other
    singular values) Vh), as torch does."""
    from ...autograd.grad_mode import state
    M = _M()
    if A.numel() == 0:
        return M.zeros_like(A)
    n = A._shape[-1]
    eye = M.eye(n, dtype=A.dtype, device=A.device)
    d = (grad * result.conj()).unsqueeze(-1).unsqueeze(-1) * eye
    solve = OPS["linalg_solve_ex"].call
    if not state.enabled:
        singular_det = (result == 0).unsqueeze(-1).unsqueeze(-1)
        return M.where(singular_det, 0.0, solve(A.mH, d, True, False)[0])
    # each formula on its matrices only (torch's masked_fmap); the others get a stand-in
    # (the identity; distinct singular values), so that no inf reaches the masked branch
    near = (result.abs() < 100 * eps(A.dtype)).unsqueeze(-1).unsqueeze(-1)
    nonsingular = solve(M.where(near, eye, A).mH, d, True, False)[0]
    spread = M.diag_embed(M.arange(1, n + 1, device=A.device).to(A.dtype))
    U, S, Vh = OPS["linalg_svd"].call(M.where(near, A, spread), True, None)
    alpha = (OPS["linalg_det"].call(U) * OPS["linalg_det"].call(Vh)).conj() * grad
    D_ = alpha.unsqueeze(-1) * _prod_others(S)
    singular = (U * D_.unsqueeze(-2)) @ Vh
    return M.where(near, singular, nonsingular)


def _prod_others(S):
    """For each i, the product of S_j over j != i (no division: exact where S_i = 0)."""
    M = _M()
    ones = M.ones_like(S[..., :1])
    left = M.cat([ones, S[..., :-1]], -1).cumprod(-1)
    right = M.cat([ones, S.flip(-1)[..., :-1]], -1).cumprod(-1).flip(-1)
    return left * right


def _slogdet_grad(grads, A, results):
    g_sign, g_logabs = grads
    sign = results[0]
    g = g_logabs
    if A.dtype.is_complex:
        g = g - 1j * (g_sign.conj() * sign).imag
    n = A._shape[-1]
    d = g.unsqueeze(-1).unsqueeze(-1) * _M().eye(n, dtype=A.dtype, device=A.device)
    return OPS["linalg_solve_ex"].call(A.mH, d, True, False)[0]


def _solve_grad(grad, A, B_geometry, result, left):
    """gB = A^{-H} gX (gX A^{-H} when not left); gA = -gB X^H (-X^H gB)."""
    vector = len(B_geometry[0]) == 1 or (len(B_geometry[0]) == A.ndim - 1 and
                                         tuple(B_geometry[0]) == A._shape[:-1])
    gX, X = (grad.unsqueeze(-1), result.unsqueeze(-1)) if vector else (grad, result)
    gB = OPS["linalg_solve_ex"].call(A.mH, gX, left, False)[0]
    gA = -(gB @ X.mH) if left else -(X.mH @ gB)
    return gA, gB.squeeze(-1) if vector else gB


def _solve_triangular_grad(grad, A, result, upper, left, unitriangular):
    gB = OPS["linalg_solve_triangular"].call(A.mH, grad, not upper, left, unitriangular)
    gA = -(gB @ result.mH) if left else -(result.mH @ gB)
    gA = gA.triu(int(unitriangular)) if upper else gA.tril(-int(unitriangular))
    return gA, gB


def _cholesky_grad(grad, result, upper):
    L, gL = (result.mH, grad.mH) if upper else (result, grad)
    gA = (L.mH @ gL).tril()
    gA = 0.5 * (gA + gA.tril(-1).mH)
    st = OPS["linalg_solve_triangular"].call
    gA = st(L.mH, gA, True, True, False)
    return st(L, gA, False, False, False)


def _cholesky_solve_grad(grad, self, input2, result, upper):
    gB = OPS["cholesky_solve"].call(grad, input2, upper)
    common = gB @ result.mH
    common = common + common.mH
    return gB, (-(input2 @ common) if upper else -(common @ input2))


def _cholesky_inverse_grad(grad, self, result, upper):
    common = grad + grad.mH
    common = result @ common @ result
    return -(self @ common) if upper else -(common @ self)


def _qr_grad(grads, results, mode):
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    gQ, gR = grads
    Q, R = results
    m, n = Q._shape[-2], R._shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")
    st = OPS["linalg_solve_triangular"].call
    gA = gR @ R.mH - Q.mH @ gQ
    if m >= n:
        X = gA.triu()
        X = X + X.mH
        X = X - 0.5 * _real_diag_embed(X)
        return st(R.mH, Q @ X + gQ, False, False, False)
    X = -gA
    X = (X - X.mH).tril()
    if X.dtype.is_complex:
        X = X - 0.5j * _diag_embed(X.diagonal(0, -2, -1).imag)
    gA = st(R[..., :m].mH, Q @ X, False, False, False)
    gA = _M().cat([gA, gA.new_zeros(gA._shape[:-1] + (n - m,))], -1)
    return gA + Q @ gR


def _diag_embed(v):
    return OPS["diag_embed"].call(v, 0, -2, -1)


def _real_diag_embed(X):
    d = X.diagonal(0, -2, -1)
    return _diag_embed(d.real if X.dtype.is_complex else d).to(X.dtype)


def _lstsq_grad(grads, A, B, results):
    """From the solution through pinv(A), and from the residuals (when computed)."""
    from ...autograd.functional_helpers import sum_to
    from .factorization_spectral import pinv_backward
    gX, gL = grads[0], grads[1]
    vector = lstsq_plan(A, B, None)[1]
    col = (lambda t: t.unsqueeze(-1)) if vector else (lambda t: t)
    Bm, gXm = col(B), col(gX)
    pinvA = OPS["linalg_pinv"].call(A, None, False, None, None)
    gA = pinv_backward(gXm @ Bm.mH, pinvA, A)
    gB = pinvA.mH @ gXm
    if gL.numel():
        X = col(results[0])
        r = A @ X - Bm
        gLm = gL.unsqueeze(-2)
        gA = gA + 2 * (gLm * r) @ X.mH
        gB = gB - 2 * gLm * r
    # (B one dim short of A and not a vector: its matrices were expanded to the batch)
    return sum_to(gA, A._shape), gB.squeeze(-1) if vector else sum_to(gB, B._shape)


def _matrix_exp_grad(grad, A):
    """The upper right block of exp([[A^H, G], [0, A^H]])."""
    M = _M()
    Ah = A.mH
    n = A._shape[-1]
    top = M.cat([Ah, grad.to(A.dtype)], -1)
    bottom = M.cat([M.zeros_like(Ah), Ah], -1)
    big = OPS["linalg_matrix_exp"].call(M.cat([top, bottom], -2))
    return big[..., :n, n:]


_GRADS = {
    "linalg_inv_ex": {"A": _inv_grad},
    "linalg_det": {"A": _det_grad},
    "linalg_slogdet": {"A": _slogdet_grad},
    "linalg_solve_ex": {"A, B": _solve_grad},
    "linalg_solve_triangular": {"A, B": _solve_triangular_grad},
    "linalg_cholesky_ex": {"A": _cholesky_grad},
    "cholesky": {"self": _cholesky_grad},
    "cholesky_solve": {"self, input2": _cholesky_solve_grad},
    "cholesky_inverse": {"self": _cholesky_inverse_grad},
    "linalg_qr": {"A": _qr_grad},
    "linalg_lstsq": {"A, B": _lstsq_grad, "nondifferentiable_outputs": (2, 3)},
    "linalg_matrix_exp": {"A": _matrix_exp_grad},
}


def _derivatives():
    for op_name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[op_name], name=formulas.pop("name", None),
                   nondifferentiable_outputs=formulas.pop("nondifferentiable_outputs", None),
                   **formulas)


_declare()
_derivatives()
