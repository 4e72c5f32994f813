"""CPU kernels of the factorizations and solvers: NumPy's and SciPy's LAPACK drivers (the
ones torch's CPU backend calls: getrf, potrf, geqrf/orgqr, syevd, geev, gesdd, gelsy...),
so results agree with torch's where LAPACK fixes them (R's diagonal signs, the order of
eigenvalues).  Shapes, dtypes and errors come from the metadata rules in
mindtorch._ops.decls.factorization.  A batch with a singular (or not positive-definite)
matrix is redone matrix by matrix, to report LAPACK's info for each as torch does.
"""
import warnings

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import factorization as F
from mindtorch._ops.decls import factorization_householder as H_
from mindtorch._ops.decls import factorization_ldl as LDL
from mindtorch._ops.decls import factorization_lu as LU_
from mindtorch._ops.decls import factorization_spectral as S

from .._np import arr, wrap

_LinAlgError = np.linalg.LinAlgError


def _matrices(a):
    """a (..., m, n) as a list of 2-D arrays, and a function putting results back."""
    batch = a.shape[:-2]
    flat = a.reshape((-1,) + a.shape[-2:])
    return list(flat), batch


def _fail(check_errors, info, name, message):
    """Raise LinAlgError for the first matrix whose info is not 0."""
    if not check_errors:
        return
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        i = int(bad[0])
        text = F.batch_message(i, info.ndim > 0, message(int(info.reshape(-1)[i])))
        raise F.LinAlgError(f"{name}: {text}")


def _sla():
    """scipy.linalg, imported on first use (it costs ~100 ms, a large part of importing
    mindtorch)."""
    import scipy.linalg
    return scipy.linalg


def _lapack(name, m):
    return _sla().lapack.get_lapack_funcs((name,), (m,))[0]


def _lu_each(a, rhs=None):
    """getrf (+ getrs with rhs, broadcast like a) per matrix: (solutions, info)."""
    mats, batch = _matrices(a)
    rhs_mats = _matrices(rhs)[0] if rhs is not None else None
    info = np.zeros(len(mats), np.int32)
    out = []
    with np.errstate(all="ignore"):
        for i, m in enumerate(mats):
            lu, piv, info[i] = _lapack("getrf", m)(m)
            b = rhs_mats[i] if rhs_mats is not None else np.eye(m.shape[-1], dtype=m.dtype)
            out.append(_lapack("getrs", lu)(lu, piv, b)[0])
    x = np.stack(out).reshape(batch + out[0].shape) if out else \
        np.zeros(batch + (a.shape[-1], (rhs if rhs is not None else a).shape[-1]), a.dtype)
    return x, info.reshape(batch)


def inv_ex(A, check_errors=False):
    (_, dt), _ = F.inv_meta(A)
    a = arr(A)
    info = np.zeros(a.shape[:-2], np.int32)
    try:
        r = np.linalg.inv(a)
    except _LinAlgError:
        r, info = _lu_each(a)
        _fail(check_errors, info, "linalg.inv_ex", lambda i: (
            f"The diagonal element {i} is zero, the inversion could not be completed because "
            f"the input matrix is singular."))
    return _lapack_layout(r, dt), wrap(info, D.int32)


def det(A):
    shape, dt = F.det_meta(A)
    if not A.numel():  # (also 16-bit floats, which NumPy's linalg lacks: 1s of 0x0 matrices)
        return wrap(np.ones(shape, dt.np), dt)
    # the product of the diagonal of getrf(A^T) (a row-major A read as column-major), as
    # torch: NumPy's det goes through exp(log|det|), so det([[1, 2], [3, 4]]) in float64
    # was -2.0000000000000004 where torch gives -2.0
    mats, _ = _matrices(arr(A))
    out = np.empty(len(mats), dt.np)
    with np.errstate(all="ignore"):
        for i, m in enumerate(mats):
            lu, piv, _ = _lapack("getrf", m)(m.T)
            flips = np.count_nonzero(piv != np.arange(len(piv)))
            out[i] = np.prod(np.diagonal(lu)) * (-1 if flips % 2 else 1)
    return wrap(out.reshape(shape), dt)


def slogdet(A):
    (_, dt), (_, real) = F.slogdet_meta(A)
    sign, logabs = np.linalg.slogdet(arr(A))
    return wrap(np.asarray(sign, dt.np), dt), wrap(np.asarray(logabs, real.np), real)


def _swap(a):
    return np.swapaxes(a, -1, -2)


def _lapack_layout(x, dt, column_major=True):
    """A result matrix (batch) as a tensor laid out as PyTorch's LAPACK calls leave theirs:
    each matrix column-major (strides (..., 1, rows)); or row-major (the results PyTorch
    transposes back, such as the solvers' left=False)."""
    x = np.asarray(x, dt.np)
    if x.ndim >= 2 and x.size:
        x = _swap(np.ascontiguousarray(_swap(x))) if column_major else np.ascontiguousarray(x)
    return wrap(x, dt)


def solve_ex(A, B, left=True, check_errors=False):
    batch, vector, _ = F.solve_plan(A, B, left)
    dt = A.dtype
    a, b = arr(A), arr(B)
    if vector:
        b = b[..., None]
    if not left:  # XA = B is A^T X^T = B^T
        a, b = _swap(a), _swap(b)
    ab = np.broadcast_to(a, batch + a.shape[-2:])
    bb = np.broadcast_to(b, batch + b.shape[-2:])
    info = np.zeros(A._shape[:-2], np.int32)
    try:
        x = np.linalg.solve(ab, bb)
    except _LinAlgError:
        x, _ = _lu_each(np.ascontiguousarray(ab), np.ascontiguousarray(bb))
        _, info = _lu_each(a) if a.ndim > 2 else _lu_each(a[None])
        info = info.reshape(A._shape[:-2])
        _fail(check_errors, info, "torch.linalg.solve_ex",
              lambda i: "The solver failed because the input matrix is singular.")
    if not left:
        x = _swap(x)
    if vector:  # (PyTorch lays out a batch of solution vectors as a matrix)
        x = x[..., 0]
    return _lapack_layout(x, dt, left), wrap(info, D.int32)


def _substitute(a, b, upper, unit):
    """Triangular solve by substitution (LAPACK's trtrs refuses a zero diagonal; torch's
    trsm gives inf/nan there): x's unsolved rows are 0, so A's other triangle is ignored."""
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 np.result_type(a, b))
    with np.errstate(all="ignore"):
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            s = b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, :], x)
            x[..., i, :] = s if unit else s / a[..., i, i, None]
    return x


def solve_triangular(A, B, upper, left=True, unitriangular=False):
    shape, dt = F.solve_triangular_meta(A, B, upper, left, unitriangular)
    a, b = arr(A), arr(B)
    if B.dtype is not dt:  # (B takes A's dtype, as in torch)
        if B.dtype.is_complex and not dt.is_complex:
            warnings.warn("Casting complex values to real discards the imaginary part",
                          UserWarning, stacklevel=2)
            b = b.real
        b = b.astype(dt.np)
    if not left:
        a, b, upper = _swap(a), _swap(b), not upper
    batch = shape[:-2]
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    if 0 in a.shape or 0 in b.shape:
        x = np.zeros(b.shape, dt.np)
    else:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # (matrix by matrix: SciPy < 1.16, the last for Python 3.10, takes no batch)
                x = np.array([_sla().solve_triangular(a[i], b[i], lower=not upper,
                                                      unit_diagonal=unitriangular,
                                                      check_finite=False)
                              for i in np.ndindex(*batch)]).reshape(b.shape)
        except _LinAlgError:
            x = _substitute(a, b, upper, unitriangular)
    if not left:
        x = _swap(x)
    return _lapack_layout(x, dt)


def cholesky_ex(A, upper=False, check_errors=False):
    (_, dt), _ = F.cholesky_meta(A)
    a = arr(A)
    info = np.zeros(a.shape[:-2], np.int32)
    if not a.size:
        return wrap(np.zeros(a.shape, dt.np), dt), wrap(info, D.int32)
    try:
        L = np.linalg.cholesky(a, upper=upper)
        # (LAPACK's potrf also stops at a NaN pivot; NumPy's may not: the first NaN on L's
        # diagonal is where it would have stopped)
        nan = np.isnan(np.diagonal(L, 0, -2, -1))
        if nan.any():
            info = np.where(nan.any(-1), nan.argmax(-1) + 1, 0).astype(np.int32)
            _fail(check_errors, info, "linalg.cholesky_ex", lambda i: (
                f"The factorization could not be completed because the input is not "
                f"positive-definite (the leading minor of order {i} is not "
                f"positive-definite)."))
    except _LinAlgError:
        mats, batch = _matrices(a)
        info = np.zeros(len(mats), np.int32)
        out = []
        for i, m in enumerate(mats):
            c, info[i] = _lapack("potrf", m)(m, lower=not upper, clean=True)
            out.append(c)
        L, info = np.stack(out).reshape(a.shape), info.reshape(batch)
        _fail(check_errors, info, "linalg.cholesky_ex", lambda i: (
            f"The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {i} is not positive-definite)."))
    return _lapack_layout(L, dt), wrap(info, D.int32)


def qr(A, mode="reduced"):
    (qshape, dt), (rshape, _) = F.qr_meta(A, mode)
    a = arr(A)
    if 0 in a.shape:  # LAPACK has nothing to do: Q is (part of) the identity
        q = np.zeros(qshape, dt.np) if mode == "r" else \
            np.array(np.broadcast_to(np.eye(*qshape[-2:], dtype=dt.np), qshape))
        return wrap(q, dt), wrap(np.zeros(rshape, dt.np), dt)
    if mode == "r":
        return wrap(np.zeros((0,), dt.np), dt), _lapack_layout(np.linalg.qr(a, "r"), dt)
    q, r = np.linalg.qr(a, mode)
    return _lapack_layout(q, dt), _lapack_layout(r, dt)


def eigh(A, UPLO="L"):
    (_, real), (_, dt) = S.eigh_meta(A, UPLO)
    a = arr(A)
    if not a.size:
        return wrap(np.zeros(a.shape[:-1], real.np), real), wrap(np.zeros(a.shape, dt.np), dt)
    try:
        w, v = np.linalg.eigh(a, UPLO=UPLO.upper())
    except _LinAlgError:  # (NaN in the input): LAPACK's info for the first failing matrix
        driver = "heevd" if a.dtype.kind == "c" else "syevd"
        for i, m in enumerate(_matrices(a)[0]):
            info = _lapack(driver, m)(m, lower=int(UPLO.upper() == "L"))[-1]
            if info:
                raise F.LinAlgError("linalg.eigh: " + F.batch_message(
                    i, a.ndim > 2, f"The algorithm failed to converge because the input "
                    f"matrix is ill-conditioned or has too many repeated eigenvalues (error "
                    f"code: {info}).")) from None
        raise
    return wrap(np.asarray(w, real.np), real), _lapack_layout(v, dt)


def eig(A):
    (_, c), _ = S.eig_meta(A)
    a = arr(A)
    if a.shape[-1] == 0 or 0 in a.shape[:-2]:
        return wrap(np.zeros(a.shape[:-1], c.np), c), wrap(np.zeros(a.shape, c.np), c)
    if not np.isfinite(a).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    w, v = np.linalg.eig(a)
    return wrap(np.asarray(w, c.np), c), _lapack_layout(v, c)


def svd(A, full_matrices=True, driver=None):
    (ushape, dt), (sshape, real), (vshape, _) = S.svd_meta(A, full_matrices, driver)
    a = arr(A)
    if 0 in a.shape:  # (identity) singular vectors of an empty matrix
        eye = lambda shape: np.array(np.broadcast_to(
            np.eye(*shape[-2:], dtype=dt.np), shape))
        return wrap(eye(ushape), dt), wrap(np.zeros(sshape, real.np), real), \
            wrap(eye(vshape), dt)
    u, s, vh = _svd(a, full_matrices, ushape, sshape, vshape)
    return _lapack_layout(u, dt), wrap(np.asarray(s, real.np), real), _lapack_layout(vh, dt)


def _svd(a, full_matrices, ushape, sshape, vshape):
    """NumPy's svd (gesdd), except on matrices holding NaN, which PyTorch refuses, or inf,
    on which gesdd may loop forever: PyTorch's LAPACK gives NaN singular values there
    (or, for some shapes, fails), so they get NaN without calling LAPACK."""
    bad = ~np.isfinite(a).all(axis=(-2, -1))
    if not bad.any():
        try:
            return np.linalg.svd(a, full_matrices=full_matrices)
        except _LinAlgError:
            bad = np.zeros(a.shape[:-2], bool)  # (found below, matrix by matrix)
    nan = np.isnan(a).any(axis=(-2, -1)).reshape(-1)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        raise F.LinAlgError("linalg.svd: " + F.batch_message(
            i, a.ndim > 2, "The algorithm failed to converge because the input matrix "
            "contained non-finite values."))
    real = np.empty(0, a.dtype).real.dtype
    u, s, vh = (np.full(shape, np.nan, dt) for shape, dt in
                ((ushape, a.dtype), (sshape, real), (vshape, a.dtype)))
    flat = [x.reshape((-1,) + x.shape[len(sshape) - 1:]) for x in (a, u, s, vh)]
    for i, (m, ok) in enumerate(zip(flat[0], ~bad.reshape(-1))):
        if ok:
            r = _lapack("gesdd", m)(m, compute_uv=1, full_matrices=int(full_matrices))
            if r[-1] > 0:
                raise F.LinAlgError("linalg.svd: " + F.batch_message(
                    i, a.ndim > 2, f"The algorithm failed to converge because the input "
                    f"matrix is ill-conditioned or has too many repeated singular values "
                    f"(error code: {r[-1]})."))
            flat[1][i], flat[2][i], flat[3][i] = r[:3]
    return u, s, vh


def lstsq(A, B, rcond=None, driver=None):
    (_, dt), (res_shape, real), (rank_shape, _), (sv_shape, _) = \
        F.lstsq_meta(A, B, rcond, driver)
    batch, vector, driver = F.lstsq_plan(A, B, driver)
    a = np.broadcast_to(arr(A), batch + A._shape[-2:])
    b = arr(B)[..., None] if vector else arr(B)
    b = np.broadcast_to(b, batch + b.shape[-2:])
    m, n = a.shape[-2:]
    k = b.shape[-1]
    if rcond is None:
        rcond = F.eps(dt) * max(m, n)
    x = np.zeros(batch + (n, k), dt.np)
    own = A._shape[:-2]  # (rank and singular values: A's own batch, as PyTorch's)
    ranks = np.zeros(own, np.int64)
    svs = np.zeros(own + (min(m, n),), real.np)
    lapack_driver = driver
    if m and n and k:  # (no right-hand side: LAPACK's quick return, rank 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for idx in np.ndindex(*batch):
                if driver == "gels":
                    element = int(np.ravel_multi_index(idx, batch)) if batch else 0
                    x[idx] = _gels(a[idx], b[idx], element, len(batch) > 0)
                    continue
                try:
                    sol, _, rank, s = _sla().lstsq(a[idx], b[idx], cond=rcond,
                                                   check_finite=False,
                                                   lapack_driver=lapack_driver)
                except ValueError as e:  # (SciPy's LinAlgError: LAPACK failed on NaN/inf)
                    raise F.LinAlgError(f"torch.linalg.lstsq: LAPACK's {lapack_driver} "
                                        f"failed: {e}") from None
                if s is not None and not np.isfinite(s).all():  # (SciPy >= 1.18 returns
                    # the failed SVD's NaNs and garbage instead of raising)
                    raise F.LinAlgError(f"torch.linalg.lstsq: LAPACK's {lapack_driver} "
                                        f"failed: SVD did not converge")
                a_idx = tuple(i * (d != 1) for i, d in zip(idx[len(batch) - len(own):], own))
                x[idx], ranks[a_idx] = sol, rank
                if s is not None:
                    svs[a_idx] = s
    if res_shape != (0,) and (driver == "gels" or (ranks == n).all()):
        # (torch's gels skips LAPACK for an empty A: zeros)
        residuals = (np.abs(b - a @ x) ** 2).sum(-2) * (driver != "gels" or n > 0)
    else:
        residuals = np.zeros((0,), real.np)
    x = _swap(np.ascontiguousarray(_swap(x)))  # (LAPACK's column-major solution)
    if vector:
        x = x[..., 0]
    return (wrap(x, dt), wrap(np.asarray(residuals, real.np), real),
            wrap(ranks if rank_shape != (0,) else np.zeros((0,), np.int64), D.int64),
            wrap(svs if sv_shape != (0,) else np.zeros((0,), real.np), real))


def _gels(a, b, element, batched):
    """LAPACK's gels (QR or LQ, no rank revealing) on one matrix, as PyTorch's gels driver:
    an exactly singular triangular factor is its LinAlgError."""
    m, n = a.shape
    rhs = np.zeros((max(m, n), b.shape[-1]), np.result_type(a, b))
    rhs[:m] = b
    _, x, info = _lapack("gels", a)(a, rhs)
    if info > 0:
        raise F.LinAlgError("torch.linalg.lstsq: " + F.batch_message(
            element, batched, f"The least squares solution could not be computed because the "
            f"input matrix does not have full rank (error code: {info})."))
    return x[:n]


def matrix_exp(A):
    _, dt = F.matrix_exp_meta(A)
    a = arr(A)
    if 0 in a.shape:
        return wrap(np.zeros(a.shape, dt.np), dt)
    # (in double precision: SciPy's single-precision Pade is tens of ulps off, where
    # PyTorch's float32 result is within an ulp or two)
    compute = np.complex128 if dt.is_complex else np.float64
    with np.errstate(all="ignore"):
        r = _sla().expm(a.astype(compute))
    return wrap(np.asarray(r, dt.np), dt)


def lu_factor_ex(A, pivot=True, check_errors=False):
    (shape, dt), (pshape, _), (ishape, _) = LU_.lu_factor_meta(A, pivot, check_errors)
    a = arr(A)
    lu = np.zeros(shape, dt.np)
    piv = np.zeros(pshape, np.int32)
    info = np.zeros(ishape, np.int32)
    if a.size:
        mats, _ = _matrices(a)
        flat_lu = lu.reshape((-1,) + shape[-2:])
        flat_piv, flat_info = piv.reshape(-1, pshape[-1]), info.reshape(-1)
        for i, m in enumerate(mats):
            flat_lu[i], p, flat_info[i] = _lapack("getrf", m)(m)
            flat_piv[i] = p + 1  # (LAPACK's 1-based pivots, as torch returns them)
    info = wrap(info, D.int32)
    if check_errors:
        F.check_errors(info, "torch.linalg.lu_factor_ex", info.ndim > 0)
    return _lapack_layout(lu, dt), wrap(piv, D.int32), info


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    (_, dt), _, _ = LU_.lu_unpack_meta(LU_data, LU_pivots,
                                                               unpack_data, unpack_pivots)
    lu = arr(LU_data)
    m, n = lu.shape[-2:]
    k = min(m, n)
    if unpack_data:
        lower = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=dt.np)
        upper = np.triu(lu[..., :k, :])
    else:
        lower = upper = np.zeros((0,), dt.np)
    if unpack_pivots:  # the row swaps of getrf, applied in order: A = P L U
        batch = lu.shape[:-2]
        piv = arr(LU_pivots).astype(np.int64) - 1 if k else np.zeros(batch + (0,), np.int64)
        perm = np.array(np.broadcast_to(np.arange(m), batch + (m,)))
        for i in range(k):
            j = piv[..., i:i + 1]
            row_i = perm[..., i:i + 1].copy()
            perm[..., i:i + 1] = np.take_along_axis(perm, j, -1)
            np.put_along_axis(perm, j, row_i, -1)
        P = np.zeros(batch + (m, m), dt.np)
        np.put_along_axis(P, perm[..., None, :], 1, -2)
    else:
        P = np.zeros((0,), dt.np)
    return wrap(P, dt), wrap(np.asarray(lower, dt.np), dt), wrap(np.asarray(upper, dt.np), dt)


def lu_solve(LU, pivots, B, left=True, adjoint=False):
    shape, dt = LU_.lu_solve_meta(LU, pivots, B, left, adjoint)
    batch = shape[:-2]
    b = arr(B)
    if not left:  # X op(A) = B is op(A)^H X^H = B^H
        b = np.conj(_swap(b))
    trans = 2 if adjoint == left else 0
    x = np.zeros(batch + b.shape[-2:], dt.np)
    if x.size:
        lu = np.broadcast_to(arr(LU), batch + LU._shape[-2:])
        piv = np.broadcast_to(arr(pivots) - 1, batch + pivots._shape[-1:])
        b = np.broadcast_to(b, x.shape)
        for idx in np.ndindex(*batch):
            x[idx] = _lapack("getrs", lu[idx])(lu[idx], piv[idx], b[idx], trans=trans)[0]
    if not left:
        x = np.conj(_swap(x))
    return _lapack_layout(x, dt, left)



def _ldl_lapack(op, m, hermitian):
    """sytrf / sytrs, or hetrf / hetrs for a Hermitian complex matrix."""
    return _lapack(("he" if hermitian and m.dtype.kind == "c" else "sy") + op, m)


def ldl_factor_ex(A, hermitian=False, check_errors=False):
    (shape, dt), (pshape, _), (ishape, _) = LDL.ldl_factor_meta(A, hermitian, check_errors)
    ld = np.zeros(shape, dt.np)
    piv = np.zeros(pshape, np.int32)
    info = np.zeros(ishape, np.int32)
    if ld.size:
        flat_ld, flat_piv = ld.reshape((-1,) + shape[-2:]), piv.reshape(-1, pshape[-1])
        flat_info = info.reshape(-1)
        for i, m in enumerate(_matrices(arr(A))[0]):
            f, p, flat_info[i] = _ldl_lapack("trf", m, hermitian)(m, lower=1)
            flat_ld[i], flat_piv[i] = np.tril(f), p  # (the upper triangle: zeros, as torch)
    if check_errors and info.any():
        raise RuntimeError(f"torch.linalg.ldl_factor_ex: Unknown error code: "
                           f"{int(info.reshape(-1)[np.flatnonzero(info)[0]])}.")
    return _lapack_layout(ld, dt), wrap(piv, D.int32), wrap(info, D.int32)


def ldl_solve(LD, pivots, B, hermitian=False):
    shape, dt = LDL.ldl_solve_meta(LD, pivots, B, hermitian)
    batch = shape[:-2]
    x = np.zeros(shape, dt.np)
    if x.size:
        ld = np.broadcast_to(arr(LD), batch + LD._shape[-2:])
        piv = np.broadcast_to(arr(pivots).astype(np.int32), batch + pivots._shape[-1:])
        b = np.broadcast_to(arr(B), shape)
        for idx in np.ndindex(*batch):
            x[idx] = _ldl_lapack("trs", ld[idx], hermitian)(ld[idx], piv[idx], b[idx],
                                                          lower=1)[0]
    return _lapack_layout(x, dt)

def geqrf(self):
    (shape, dt), (tshape, _) = H_.geqrf_meta(self)
    a = np.zeros(shape, dt.np)
    tau = np.zeros(tshape, dt.np)
    if a.size and tau.size:
        mats, _ = _matrices(arr(self))
        flat_a, flat_tau = a.reshape((-1,) + shape[-2:]), tau.reshape(-1, tshape[-1])
        for i, m in enumerate(mats):
            flat_a[i], flat_tau[i] = _lapack("geqrf", m)(m)[:2]
    return _lapack_layout(a, dt), wrap(tau, dt)


KERNELS = {
    "geqrf": geqrf,
    "linalg_ldl_factor_ex": ldl_factor_ex,
    "linalg_ldl_solve": ldl_solve,
    "linalg_lu_factor_ex": lu_factor_ex,
    "lu_unpack": lu_unpack,
    "linalg_lu_solve": lu_solve,
    "linalg_inv_ex": inv_ex,
    "linalg_det": det,
    "linalg_slogdet": slogdet,
    "linalg_solve_ex": solve_ex,
    "linalg_solve_triangular": solve_triangular,
    "linalg_cholesky_ex": cholesky_ex,
    "linalg_qr": qr,
    "linalg_eigh": eigh,
    "linalg_eig": eig,
    "linalg_svd": svd,
    "linalg_lstsq": lstsq,
    "linalg_matrix_exp": matrix_exp,
}
