"""Spectral factorizations: torch.linalg.eigh, eig, svd (kernel ops; their metadata rules
are the `*_meta` functions here) and what decomposes into them: eigvalsh, eigvals, svdvals,
pinv, matrix_rank, torch.svd, torch.pinverse; with their backward formulas (torch's).
(A sub-family of decls/factorization.py, whose helpers it uses.)"""
from ... import _dtype as D
from ..._tensor import Tensor
from ..registry import OPS, define, derivative, nondifferentiable
from ._helpers import _type_name
from .factorization import (_M, _diag_embed, _eye_mask, _has_data, _safe, castable_out,
                            check_matrix, eps, input_keyword, single_out, tuple_out)


# -- metadata rules of the kernel ops --------------------------------------------------------

def eigh_meta(A, UPLO="L"):
    if A.numel() or A.ndim < 2 or A._shape[-1] != A._shape[-2]:  # (PyTorch's kernel is
        # not reached for an empty batch of square matrices: any dtype passes)
        check_matrix(A, "linalg.eigh", ints="linalg_eigh_cpu", halves="linalg_eigh_cpu")
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return (A._shape[:-1], A.dtype.to_real()), (A._shape, A.dtype)


def eig_meta(A, name="linalg.eig"):
    if A.dtype.kind not in "fc":
        raise RuntimeError(f"Unknown Complex ScalarType for {_type_name(A.dtype)}")
    check_matrix(A, name, halves="linalg_eig_out_cpu", empty_ok=False)
    c = A.dtype.to_complex()
    return (A._shape[:-1], c), (A._shape, c)


def svd_meta(A, full_matrices=True, driver=None):
    check_matrix(A, "linalg.svd", square=False, halves="linalg_svd_cpu")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    *batch, m, n = A._shape
    batch, k = tuple(batch), min(m, n)
    u = batch + ((m, m) if full_matrices else (m, k))
    vh = batch + ((n, n) if full_matrices else (k, n))
    return (u, A.dtype), (batch + (k,), A.dtype.to_real()), (vh, A.dtype)


# -- decompositions --------------------------------------------------------------------------

def _eigvals(A):
    eig_meta(A, "linalg.eigvals")
    # linalg.eig refuses infs and NaNs; eigvals gives NaN eigenvalues for such matrices
    bad = A.isfinite().logical_not().flatten(-2).any(-1) if _has_data(A) else None
    if bad is None or not bool(bad.any().item()):
        return OPS["linalg_eig"].call(A)[0]
    A = _M().where(bad.unsqueeze(-1).unsqueeze(-1), 0, A)
    return _M().where(bad.unsqueeze(-1), complex(float("nan"), float("nan")),
                     OPS["linalg_eig"].call(A)[0])


def _svdvals(A, driver=None):
    return OPS["linalg_svd"].call(A, False, driver)[1]


def _svd(self, some=True, compute_uv=True):
    if self.ndim < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                           f"{self.ndim} dimensions instead")
    if not compute_uv:
        S = _svdvals(self)
        m, n = self._shape[-2:]
        U = self.new_zeros(self._shape[:-2] + (m, m))
        return U, S, self.new_zeros(self._shape[:-2] + (n, n))
    U, S, Vh = OPS["linalg_svd"].call(self, not some, None)
    return U, S, Vh.mH


def _tolerances(A, atol, rtol, name):
    """torch's get_atol_rtol: (atol, rtol) as float64 tensors (rtol defaults to
    eps * max(m, n), or 0 where atol > 0)."""
    M = _M()
    as_t = lambda v: v if isinstance(v, Tensor) else M.tensor(
        v, dtype=D.float64, device=A.device)
    for label, v in (("atol", atol), ("rtol", rtol)):
        if isinstance(v, Tensor) and v.dtype.is_complex:
            raise RuntimeError(f"{name}: {label} tensor of complex type is not supported.")
    if rtol is None:
        default = eps(A.dtype) * max(A._shape[-2:])
        rtol = default if atol is None else M.where(as_t(atol) > 0, 0.0, default)
    return as_t(0.0 if atol is None else atol), as_t(rtol)


def _pinv(A, rcond=None, hermitian=False, atol=None, rtol=None):
    if A.ndim < 2 or A.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError(f"linalg.pinv({_type_name(A.dtype)}{{{list(A._shape)}}}): expected "
                           f"a tensor with 2 or more dimensions of float, double, cfloat or "
                           f"cdouble types")
    if rcond is not None:
        if atol is not None or rtol is not None:
            raise RuntimeError("linalg.pinv: rcond cannot be given with atol or rtol")
        atol, rtol = 0.0, rcond
    if A.numel() == 0:
        return A.new_zeros(A._shape[:-2] + (A._shape[-1], A._shape[-2]))
    M = _M()
    atol, rtol = _tolerances(A, atol, rtol, "linalg.pinv")
    if hermitian:
        S, U = OPS["linalg_eigh"].call(A, "L")
        absS = S.abs()
        tol = M.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * absS.amax(-1, keepdim=True))
        inv = M.where(absS > tol, S.reciprocal(), 0.0).to(A.dtype)
        return (U * inv.unsqueeze(-2)) @ U.mH
    U, S, Vh = OPS["linalg_svd"].call(A, False, None)
    tol = M.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * S[..., :1])
    inv = M.where(S > tol, S.reciprocal(), 0.0).to(A.dtype)
    return (Vh.mH * inv.unsqueeze(-2)) @ U.mH


def _pinverse(self, rcond=1e-15):
    return OPS["linalg_pinv"].call(self, rcond, False, None, None)


def _matrix_rank(A, tol=None, hermitian=False, atol=None, rtol=None):
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at "
                           "least 2 dimensions.")
    if A.dtype in (D.float16, D.bfloat16) and not (tol is None and atol is None and
                                                   rtol is None):
        # (with tolerances PyTorch goes straight to the kernel, which lacks the dtype)
        kernel = "linalg_eigh_cpu" if hermitian else "linalg_svd_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(A.dtype)}\'')
    if A.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        if atol is not None or rtol is not None:
            raise RuntimeError("linalg.matrix_rank: tol cannot be given with atol or rtol")
        atol, rtol = tol, 0.0
    M = _M()
    if A.numel() == 0:
        return M.zeros(A._shape[:-2], dtype=D.int64, device=A.device)
    atol, rtol = _tolerances(A, atol, rtol, "torch.linalg.matrix_rank")
    if hermitian:
        S = OPS["linalg_eigh"].call(A, "L")[0].abs()
        top = S.amax(-1, keepdim=True)
    else:
        S = _svdvals(A)
        top = S[..., :1]
    tol = M.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * top)
    return (S > tol).sum(-1)


def _declare():
    linalg = {"tags": ("linalg",), "modules": ("linalg",), "function": False, "method": False}
    for text in ("linalg_eigh(Tensor A, str UPLO='L') -> (Tensor eigenvalues, "
                 "Tensor eigenvectors)",
                 "linalg_eig(Tensor A) -> (Tensor eigenvalues, Tensor eigenvectors)",
                 "linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> "
                 "(Tensor U, Tensor S, Tensor Vh)"):
        define(text, **linalg)
    for text, fn in (
            ("linalg_eigvalsh(Tensor A, str UPLO='L') -> Tensor",
             lambda A, UPLO="L": OPS["linalg_eigh"].call(A, UPLO)[0]),
            ("linalg_eigvals(Tensor A) -> Tensor", _eigvals),
            ("linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", _svdvals),
            (("linalg_pinv(Tensor A, Tensor|Scalar? rcond=None, bool hermitian=False, *, "
              "Tensor|Scalar? atol=None, Tensor|Scalar? rtol=None) -> Tensor"), _pinv),
            (("linalg_matrix_rank(Tensor A, Tensor|Scalar? tol=None, bool hermitian=False, *, "
              "Tensor|Scalar? atol=None, Tensor|Scalar? rtol=None) -> Tensor"),
             _matrix_rank)):
        define(text, decomposition=fn, **linalg)
    # torch.* spellings (functions and Tensor methods)
    define("svd(Tensor self, bool some=True, bool compute_uv=True) -> "
           "(Tensor U, Tensor S, Tensor V)", tags=("linalg",), decomposition=_svd)
    define("pinverse(Tensor self, float rcond=1e-15) -> Tensor", tags=("linalg",),
           decomposition=_pinverse)
    for name in ("linalg_eigvalsh", "linalg_svdvals"):
        single_out(OPS[name])
    castable_out(OPS["linalg_eigvals"], "torch.linalg.eigvals", "eigenvalues")
    castable_out(OPS["linalg_pinv"], "linalg.pinv")  # (torch.pinverse has no out=)
    castable_out(OPS["linalg_matrix_rank"], "torch.linalg.matrix_rank")
    input_keyword("linalg_eigh", "linalg_eig", "linalg_eigvalsh", "linalg_eigvals",
                  "linalg_pinv", "linalg_matrix_rank")
    for name in ("linalg_eigh", "linalg_eig", "linalg_svd", "svd"):
        tuple_out(OPS[name])


# -- backward formulas (torch's FunctionsManual, written with mindtorch ops) ---------------

_PHASE = ("The eigenvectors in the complex case are specified up to multiplication by "
          "e^{i phi}. The specified loss function depends on this quantity, so it is "
          "ill-defined.")


def _check_phase(a, b, message):
    """PyTorch's refusal of a loss that depends on the phases of complex eigen / singular
    vectors: imag(diag(V^H gV)) (for svd: U's and V's, opposite) must vanish."""
    try:
        same = bool(_M().allclose(a, b, 1e-2, 1e-2))
    except RuntimeError:  # a device without data (meta) cannot read it: no check, as
        return            # formulas do not branch on devices
    if not same:
        raise RuntimeError(message)


def _eigh_grad(grads, results):
    gL, gV = grads
    L, V = results
    M = _M()
    VhgV = V.mH @ gV
    if V.dtype.is_complex:
        d = VhgV.diagonal(0, -2, -1).imag
        _check_phase(d, M.zeros_like(d), "linalg_eigh_backward: " + _PHASE)
    VhgV = 0.5 * (VhgV - VhgV.mH)
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    eye = _eye_mask(L._shape[-1], L.device)
    inner = M.where(eye, _diag_embed(gL).to(V.dtype), VhgV / _safe(M.where(eye, 1, E)))
    return V @ (inner @ V.mH)


def _eigvalsh_grad(grad, A, UPLO):
    V = OPS["linalg_eigh"].call(A, UPLO)[1]
    return (V * grad.unsqueeze(-2)) @ V.mH


def _eig_grad(grads, A, results):
    gL, gV = grads
    L, V = results
    M = _M()
    Vh = V.mH
    VhgV = Vh @ gV
    d = VhgV.diagonal(0, -2, -1).imag
    _check_phase(d, M.zeros_like(d), "linalg_eig_backward: " + _PHASE)
    VhgV = VhgV - Vh @ (V * VhgV.diagonal(0, -2, -1).real.unsqueeze(-2))
    Lc = L.conj()
    E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1)
    eye = _eye_mask(L._shape[-1], L.device)
    inner = M.where(eye, _diag_embed(gL), VhgV / _safe(M.where(eye, 1, E)))
    gA = OPS["linalg_solve_ex"].call(Vh, inner @ Vh, True, False)[0]
    return gA if A.dtype.is_complex else gA.real


def _eigvals_grad(grad, A):
    V = OPS["linalg_eig"].call(A)[1]
    Vh = V.mH
    gA = OPS["linalg_solve_ex"].call(Vh, grad.unsqueeze(-1) * Vh, True, False)[0]
    return gA if A.dtype.is_complex else gA.real


def _svd_grad(grads, results, full_matrices):
    gU, gS, gVh = grads
    U, S, Vh = results
    m, n, k = U._shape[-2], Vh._shape[-1], S._shape[-1]
    if full_matrices and m != n:
        U, gU = U[..., :k], gU[..., :k]
        Vh, gVh = Vh[..., :k, :], gVh[..., :k, :]
    M = _M()
    skew = lambda X: X - X.mH
    UhgU, VhgV = U.mH @ gU, Vh @ gVh.mH
    if U.dtype.is_complex:
        _check_phase(UhgU.diagonal(0, -2, -1).imag, -VhgV.diagonal(0, -2, -1).imag,
                     "svd_backward: The singular vectors in the complex case are specified "
                     "up to multiplication by e^{i phi}. The specified loss function depends "
                     "on this phase term, making it ill-defined.")
    UhgU, VhgV = skew(UhgU), skew(VhgV)
    S2 = S * S
    eye = _eye_mask(k, S.device)
    E = _safe(M.where(eye, 1, S2.unsqueeze(-2) - S2.unsqueeze(-1)))
    gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    gA = gA + _diag_embed(gS)
    if U.dtype.is_complex:
        gA = gA + _diag_embed(UhgU.diagonal(0, -2, -1) / _safe(2.0 * S))
    if m > n:
        gA = U @ gA
        gUSinv = gU / _safe(S).unsqueeze(-2)
        gA = (gA + gUSinv - U @ (U.mH @ gUSinv)) @ Vh
    elif m < n:
        gA = gA @ Vh
        SinvgVh = gVh / _safe(S).unsqueeze(-1)
        gA = U @ (gA + SinvgVh - (SinvgVh @ Vh.mH) @ Vh)
    else:
        gA = U @ (gA @ Vh)
    return gA


def _svdvals_grad(grad, A):
    U, _, Vh = OPS["linalg_svd"].call(A, False, None)
    return (U * grad.unsqueeze(-2)) @ Vh


def pinv_backward(grad, pinvA, A):
    """torch's pinv_backward: the gradient of pinv at A, in the smaller dimension."""
    m, n = A._shape[-2:]
    pinvAh, gradh = pinvA.mH, grad.mH
    if m <= n:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        return (-(pinvA @ K).mH + KpinvAh - (A @ pinvA) @ KpinvAh +
                (pinvAh @ pinvA) @ (gradh - K @ A))
    K = pinvA @ gradh
    pinvAhK = pinvAh @ K
    return (-(K @ pinvA).mH + ((gradh - A @ K) @ pinvA) @ pinvAh + pinvAhK -
            (pinvAhK @ pinvA) @ A)


def _pinv_grad(grad, A, result):
    return pinv_backward(grad, result, A)


_GRADS = {
    "linalg_eigh": {"A": _eigh_grad},
    "linalg_eigvalsh": {"A": _eigvalsh_grad, "name": "LinalgEighBackward0"},
    "linalg_eig": {"A": _eig_grad},
    "linalg_eigvals": {"A": _eigvals_grad, "name": "LinalgEigBackward0"},
    "linalg_svd": {"A": _svd_grad},
    "linalg_svdvals": {"A": _svdvals_grad, "name": "LinalgSvdBackward0"},
    "linalg_pinv": {"A": _pinv_grad},
}


def _derivatives():
    for op_name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[op_name], name=formulas.pop("name", None), **formulas)
    nondifferentiable(OPS["linalg_matrix_rank"])  # (an integer count)


_declare()
_derivatives()
