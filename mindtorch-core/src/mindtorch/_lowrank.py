"""torch.svd_lowrank and torch.pca_lowrank: randomized low-rank SVD (Halko, Martinsson and
Tropp, "Finding structure with randomness", 2009).  A Gaussian test matrix's image under A,
refined by `niter` power iterations (each re-orthonormalized by QR), spans A's dominant
column space; the SVD of A projected onto that basis gives the factors.  Written with
mindtorch ops only (so every device runs it); the test matrix is one randn draw of shape
(columns, q), so a seeded generator gives PyTorch's factors."""


def _ops():
    import mindtorch
    return mindtorch


def _basis(A, q, niter, M):
    """An orthonormal (..., m, q) basis of A - M's dominant column space."""
    M_ = _ops()
    dtype = A.dtype if A.dtype.is_complex or A.dtype in (
        M_.float16, M_.float32, M_.float64) else M_.float32
    omega = M_.randn(A.shape[-1], q, dtype=dtype, device=A.device)

    def image(op, X):  # (A - M) X, or (A - M)^H X
        Y = (A if op is None else A.mH) @ X
        return Y if M is None else Y - (M if op is None else M.mH) @ X
    Q = M_.linalg.qr(image(None, omega)).Q
    for _ in range(niter):
        Q = M_.linalg.qr(image("H", Q)).Q
        Q = M_.linalg.qr(image(None, Q)).Q
    return Q


def _svd_lowrank(A, q, niter, M):
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    wide = m < n
    if wide:  # (the basis of the smaller side)
        A, M = A.mH, (None if M is None else M.mH)
    Q = _basis(A, q, niter, M)
    B = Q.mH @ A if M is None else Q.mH @ A - Q.mH @ M
    U, S, Vh = _ops().linalg.svd(B, full_matrices=False)
    U, V = Q @ U, Vh.mH
    return (V, S, U) if wide else (U, S, V)


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) with A - M ~ U diag(S) V^H, of rank q (default 6), from niter power
    iterations; M (broadcast to A) defaults to none."""
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A, q=None, center=True, niter=2):
    """svd_lowrank of A with its column means removed (center=True): V's columns are the
    principal directions, S**2 / (m - 1) the variances.  q defaults to min(6, m, n)."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if center:
        A = A - A.mean(dim=(-2,), keepdim=True)
    return _svd_lowrank(A, q, niter, None)
