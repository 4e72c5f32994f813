"""torch.lobpcg: the k largest (or smallest) eigenpairs of the symmetric generalized
problem A X = B X diag(E), with PyTorch's signature, checks, result order and random
draws. LOBPCG converges to these pairs; here a dense symmetric eigensolver gives them
(exact up to rounding, where PyTorch's iteration stops within `tol`), so niter, tol,
iK, method, tracker and the ortho_* options do not change the result. Gradients are
eigh's, of the symmetrized A (and B), as PyTorch's LOBPCG backward assumes converged
pairs."""
from . import _dtype as D


def _M():
    import mindtorch
    return mindtorch


def _dense(t):
    return t.to_dense() if t is not None and getattr(t, "is_sparse", False) else t


def _eigenpairs(A, B, k, largest):
    M = _M()
    if B is None:
        w, V = M.linalg.eigh(A)
    else:  # B = L L^T: eigenpairs of L^-1 A L^-T, vectors mapped back (B-orthonormal)
        L = M.linalg.cholesky(B)
        eye = M.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(A.shape)
        Li = M.linalg.solve_triangular(L, eye, upper=False)
        w, V = M.linalg.eigh(Li @ A @ Li.mT)
        V = Li.mT @ V
    if largest:
        return w[..., -k:].flip(-1), V[..., -k:].flip(-1)
    return w[..., :k], V[..., :k]


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
           method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
           ortho_bparams=None):
    """(E, X): the k largest (largest=False: smallest) eigenvalues of A X = B X E, largest
    first (smallest first), and their eigenvectors as columns (B-orthonormal)."""
    M = _M()
    A, B = _dense(A), _dense(B)
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = A.dtype if A.dtype in (D.float16, D.float32, D.float64) else D.float32
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows "
                         f"(={m}) is smaller than 3 x the number of requested eigenpairs "
                         f"(={n})")
    batches = 1
    for s in A.shape[:-2]:
        batches *= s
    for _ in range(batches):  # PyTorch's initial blocks: the same draws from the generator
        start = M.randn((m, n), dtype=dtype, device=A.device) if X is None else \
            X.reshape((-1,) + tuple(X.shape[-2:]))[0]
        if not (start.ndim == 2 and tuple(start.shape) == (m, n)):
            raise AssertionError(f"X shape mismatch: got {start.shape}, expected {(m, n)}")
    if A.requires_grad or (B is not None and B.requires_grad):
        A = (A + A.mT) / 2  # (PyTorch differentiates through the symmetric part)
        B = None if B is None else (B + B.mT) / 2
    return _eigenpairs(A.to(dtype), None if B is None else B.to(dtype), k,
                       True if largest is None else largest)
