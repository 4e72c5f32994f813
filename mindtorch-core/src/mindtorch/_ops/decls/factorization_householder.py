"""Householder reflectors: geqrf (a kernel: LAPACK's packed QR), and householder_product /
orgqr / ormqr, which decompose into mindtorch ops (each reflector applied in turn), so they
are differentiable through their sub-ops.  (Imported by decls/factorization.py.)"""
from ..registry import OPS, define, derivative
from ._helpers import _type_name
from .factorization import _LOW, column_major_copy, single_out, tuple_out


def _M():
    import mindtorch
    return mindtorch


def _float_only(A, kernel):
    if A.dtype.kind not in "fc" or A.dtype in _LOW:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(A.dtype)}'")


def geqrf_meta(self):
    if self.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _float_only(self, "geqrf_cpu")
    *batch, m, n = self._shape
    return (self._shape, self.dtype), (tuple(batch) + (min(m, n),), self.dtype)


def _check_reflectors(A, tau, name, dtype=True):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if tau.ndim < 1:
        raise RuntimeError(f"{name}: tau must have at least 1 dimension.")
    if tau._shape[:-1] != A._shape[:-2]:
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau._shape[:-1])}")
    if dtype and tau.dtype is not A.dtype:
        raise RuntimeError(f"{name}: tau dtype {_type_name(tau.dtype)} does not match input "
                           f"dtype {_type_name(A.dtype)}")


def _apply_reflectors(A, tau, Q):
    """H_1 H_2 ... H_k Q, with H_i = I - tau_i v_i v_i^H and v_i = (0.., 1, A[i+1:, i])."""
    M = _M()
    m = A._shape[-2]
    rows = M.arange(m, device=A.device)
    for i in range(tau._shape[-1] - 1, -1, -1):
        v = M.where(rows < i, 0, M.where(rows == i, 1, A[..., :, i]))
        Q = Q - (tau[..., i, None, None] * v.unsqueeze(-1)) * (v.conj().unsqueeze(-2) @ Q)
    return Q


def _householder_product(A, tau, name="torch.linalg.householder_product"):
    _check_reflectors(A, tau, name)
    m, n = A._shape[-2:]
    if m < n:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if n < tau._shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    _float_only(A, "orgqr_cpu")
    eye = _M().eye(m, n, dtype=A.dtype, device=A.device).expand(A._shape)
    return column_major_copy(_apply_reflectors(A, tau, eye))  # (orgqr's layout)


def _ormqr(self, input2, input3, left=True, transpose=False):
    """op(Q) C (C op(Q) when not left), Q = H_1 ... H_k of the reflectors in `self`."""
    A, tau, C = self, input2, input3
    name = "torch.ormqr"
    _check_reflectors(A, tau, name, dtype=False)  # (ormqr checks the dtypes last)
    if C.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    d = -2 if left else -1
    if C._shape[d] != A._shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{d}] must be equal to input.shape[-2]")
    if tau._shape[-1] != min(C._shape[d], A._shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{d}], "
                           f"input.shape[-1])")
    if C.ndim != A.ndim:
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {C.ndim} and input.ndim is "
                           f"equal to {A.ndim}")
    if C._shape[:-2] != A._shape[:-2]:
        raise RuntimeError(f"{name}: Expected batch dimensions of other to be equal to "
                           f"input.shape[:-2], but got {list(C._shape[:-2])}")
    for other, t in (("tau", tau), ("other", C)):  # (PyTorch's text: no space after dtype)
        if t.dtype is not A.dtype:
            raise RuntimeError(f"{name}: Expected input and {other} to have the same dtype, "
                               f"but input has dtype{_type_name(A.dtype)} and {other} has "
                               f"dtype {_type_name(t.dtype)}")
    _float_only(A, "ormqr_cpu")
    m = A._shape[-2]
    Q = _apply_reflectors(A, tau, _M().eye(m, dtype=A.dtype, device=A.device)
                          .expand(A._shape[:-2] + (m, m)))
    if transpose:
        Q = Q.mH
    return Q @ C if left else C @ Q


def _geqrf_grad(grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def _declare():
    define("geqrf(Tensor self) -> (Tensor a, Tensor tau)", tags=("linalg",))
    define("linalg_householder_product(Tensor A, Tensor tau) -> Tensor", tags=("linalg",),
           modules=("linalg",), function=False, method=False,
           decomposition=_householder_product)
    define("orgqr(Tensor self, Tensor input2) -> Tensor", tags=("linalg",),  # (its messages
           decomposition=_householder_product)  # name householder_product, as PyTorch's)
    define("ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, "
           "bool transpose=False) -> Tensor", tags=("linalg",), decomposition=_ormqr)
    tuple_out(OPS["geqrf"])
    for name in ("linalg_householder_product", "orgqr", "ormqr"):
        single_out(OPS[name])
    # torch has no derivative for geqrf: its backward raises, as torch's does
    derivative(OPS["geqrf"], self=_geqrf_grad)


_declare()
