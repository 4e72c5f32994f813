"""LU factorization: torch.linalg.lu_factor(_ex), lu, lu_solve; torch.lu, torch.lu_unpack,
torch.lu_solve.  Kernel ops: linalg_lu_factor_ex (LAPACK's getrf: 1-based int32 pivots, as
torch), lu_unpack, linalg_lu_solve; their metadata rules are the `*_meta` functions here.
Backward formulas are torch's (linalg_lu_backward, lu_unpack_backward, linalg_lu_solve_LU).
(Imported by decls/factorization.py.)"""

from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..._warn_once import warn_once
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name
from .factorization import _LOW, check_errors, single_out, tuple_out


def _M():
    import mindtorch
    return mindtorch


def _no_pivoting(pivot):
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def _lu_dtype(A):
    if A.dtype.kind not in "fc" or (A.dtype in _LOW and A.numel()):  # (empty: no kernel)
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_type_name(A.dtype)}'")


def lu_factor_meta(A, pivot=True, check_errors=False, name="torch.lu_factor"):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A._shape)} instead")
    if A.numel():  # (an empty input of any dtype never reaches the kernel)
        _lu_dtype(A)
    _no_pivoting(pivot)
    *batch, m, n = A._shape
    batch = tuple(batch)
    return (A._shape, A.dtype), (batch + (min(m, n),), D.int32), (batch, D.int32)


def lu_unpack_meta(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    if LU_data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(LU_data._shape)} instead")
    *batch, m, n = LU_data._shape
    batch, k = tuple(batch), min(m, n)
    if unpack_pivots:
        if LU_pivots.dtype is not D.int32:
            raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor "
                               "of torch.int32 dtype.\nNote: this function is intended to be "
                               "used with the output produced by torch.linalg.lu_factor")
        # (PyTorch does not check the shape: it reads k pivots per matrix, none when k is 0)
        if k and LU_pivots._shape != batch + (k,):
            raise RuntimeError(f"torch.lu_unpack: Expected LU_pivots to have shape "
                               f"{list(batch + (k,))} but got {list(LU_pivots._shape)}")
        if k and _any_outside(LU_pivots, 1, m):
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                               "inclusive.Did you properly pass the result of lu_factor?")
    dt = LU_data.dtype
    p = batch + (m, m) if unpack_pivots else (0,)
    lower, upper = (batch + (m, k), batch + (k, n)) if unpack_data else ((0,), (0,))
    return (p, dt), (lower, dt), (upper, dt)


def lu_solve_meta(LU, pivots, B, left=True, adjoint=False):
    if LU.ndim < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor A must have at least 2 "
                           "dimensions.")
    if LU._shape[-1] != LU._shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but "
                           f"they are {LU._shape[-2]} by {LU._shape[-1]} matrices")
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but "
                           f"found LU of type {_type_name(LU.dtype)} and B of type "
                           f"{_type_name(B.dtype)} instead")
    n = LU._shape[-1]
    if (B._shape[-2] if left else B._shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B._shape[-2]}x"
                           f"{B._shape[-1]})")
    if pivots.dtype is not D.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    if pivots._shape != LU._shape[:-1]:
        raise RuntimeError(f"linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be "
                           f"the same, but got pivots with shape {list(pivots._shape)} instead")
    if LU.dtype.kind not in "fc":
        raise RuntimeError(f"torch.linalg.lu_solve: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(LU.dtype)}")
    shape = broadcast_shapes(B._shape[:-2], LU._shape[:-2]) + B._shape[-2:]  # (PyTorch's order)
    if 0 not in shape:
        _lu_dtype(LU)
    if 0 not in shape:  # (PyTorch's kernel checks the pivots when it has work to do)
        for side, test in (("greater or equal to 1", lambda p: p < 1),
                           ("smaller or equal to LU.size(-2)", lambda p: p > n)):
            if _any(test, pivots):
                raise RuntimeError(f"Pivots given to lu_solve must all be {side}. Did you "
                                   f"properly pass the result of lu_factor?")
    return shape, LU.dtype


def _any(test, t):
    """Whether test(t) holds anywhere: a check on the data, so every device with data
    refuses what LAPACK must not see (out-of-range pivots crash getrs); meta has none."""
    from ...plugins._registry import DEVICES
    if not t.numel() or not DEVICES[t._device.type].has_data:
        return False
    return bool(OPS["any"].binding(test(t)).item())


def _any_outside(pivots, low, high):
    return _any(lambda p: (p < low).logical_or(p > high), pivots)


# -- decompositions ------------------------------------------------------------------------

def _lu_factor(A, pivot=True):
    LU, pivots, info = OPS["linalg_lu_factor_ex"].call(A, pivot, False)
    check_errors(info, "torch.linalg.lu_factor", A.ndim > 2)
    return LU, pivots


def _lu(A, pivot=True):
    if A.ndim < 2:  # (named as PyTorch's linalg.lu)
        lu_factor_meta(A, name="linalg.lu")
    LU, piv, _ = OPS["linalg_lu_factor_ex"].call(A, pivot, False)
    return OPS["lu_unpack"].call(LU, piv, True, True)


def _torch_lu(self, pivot=True, get_infos=False):
    warn_once("torch.lu",
              "torch.lu is deprecated in favor of torch.linalg.lu_factor / "
              "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\n"
              "LU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots "
              "= torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = "
              "torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\nLU, "
              "pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")
    # (PyTorch checks no errors here: a singular matrix is factored, its info dropped)
    return OPS["linalg_lu_factor_ex"].call(self, pivot, False)


def _torch_lu_public(binding):
    def lu(self, pivot=True, get_infos=False, out=None):
        r = binding(self, pivot, get_infos)
        if get_infos:  # PyTorch's class comes from its private _lu_with_info op
            from ... import return_types
            r = return_types.make("_lu_with_info", r._fields)(*r)
        else:
            r = (r[0], r[1])
        if out is not None:
            for o, x in zip(out, r):
                o.resize_(x.shape).copy_(x)
            return out
        return r
    return lu


def _lu_solve_deprecated(self, LU_data, LU_pivots):
    warn_once("torch.lu_solve",
              "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
              "removed in a future PyTorch release.\nNote that torch.linalg.lu_solve has its "
              "arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be replaced "
              "with\nX = torch.linalg.lu_solve(LU, pivots, B)")
    return OPS["linalg_lu_solve"].call(LU_data, LU_pivots, self, True, False)


# -- backward formulas (torch's) -----------------------------------------------------------

def lu_backward(L_grad, U_grad, P, L, U):
    """torch's linalg_lu_backward (pivoted): the gradient of A = P L U."""
    M = _M()
    st = OPS["linalg_solve_triangular"].call
    m, n = L._shape[-2], U._shape[-1]
    k = min(m, n)
    if m == n:
        A_grad = (L.mH @ L_grad).tril(-1) + (U_grad @ U.mH).triu()
        A_grad = st(U.mH, A_grad, False, False, False)
        return P @ st(L.mH, A_grad, True, True, True)
    if m < n:
        A_grad = L.mH @ L_grad - U_grad.triu() @ U.mH
        A_grad = st(U[..., :k].mH, A_grad.tril(-1), False, False, False)
        A_grad = M.cat([A_grad + U_grad[..., :k].triu(), U_grad[..., k:]], -1)
        return P @ st(L.mH, A_grad, True, True, True)
    A_grad = U_grad @ U.mH - L.mH @ L_grad.tril(-1)
    A_grad = st(L[..., :k, :].mH, A_grad.triu(), True, True, True)
    A_grad = M.cat([A_grad + L_grad[..., :k, :].tril(-1), L_grad[..., k:, :]], -2)
    return P @ st(U.mH, A_grad, False, False, False)


def _lu_factor_ex_grad(grad, A_geometry, results):
    LU, piv = results[0], results[1]
    P, L, U = OPS["lu_unpack"].call(LU, piv, True, True)
    m, n = A_geometry[0][-2:]
    k = min(m, n)
    return lu_backward(grad[..., :k], grad[..., :k, :], P, L, U)


def _lu_grad(grads, results):
    P, L, U = results
    return lu_backward(grads[1], grads[2], P, L, U)


def _lu_unpack_grad(grads, LU_data_geometry, unpack_data):
    if not unpack_data:
        return None
    L_grad, U_grad = grads[1], grads[2]
    m, n = LU_data_geometry[0][-2:]
    k = min(m, n)
    if m == n:
        return L_grad.tril(-1) + U_grad.triu()
    M = _M()
    a1 = L_grad[..., :k, :].tril(-1) + U_grad[..., :k].triu()
    return M.cat([a1, L_grad[..., k:, :]], -2) if m > n else M.cat([a1, U_grad[..., k:]], -1)


def lu_solve_LU(gX, LU, pivots, X, left, adjoint):
    """torch's linalg_lu_solve_LU: the gradient with respect to the packed LU."""
    st = OPS["linalg_solve_triangular"].call
    P, L, U = OPS["lu_unpack"].call(LU, pivots, True, True)
    if left != adjoint:
        gR = st(U.mH, -(gX if left else gX.mH) @ (X.mH if left else X), False, True, False)
        gL = st(L.mH, gR @ U.mH, True, True, True).tril(-1)
        return gL + gR.triu()
    gR = -(P.mT @ (X if left else X.mH) @ (gX.mH if left else gX) @ P)
    gR = st(L.mH, gR, True, False, True)
    gU = st(U.mH, L.mH @ gR, False, False, False).triu()
    return gR.tril(-1) + gU


def _lu_solve_grad(grad, LU, pivots, result, left, adjoint):
    gB = OPS["linalg_lu_solve"].call(LU, pivots, grad, left, not adjoint)
    return lu_solve_LU(grad, LU, pivots, result, left, adjoint), gB


def _declare():
    linalg = {"tags": ("linalg",), "modules": ("linalg",), "function": False, "method": False}
    define("linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> "
           "(Tensor LU, Tensor pivots, Tensor info)", **linalg)
    define("linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, "
           "bool adjoint=False) -> Tensor", **linalg)
    define("linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)",
           decomposition=_lu_factor, **linalg)
    define("linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)",
           decomposition=_lu, **linalg)
    define("lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, "
           "bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)", tags=("linalg",),
           method=False)
    overload(define("lu(Tensor self, bool pivot=True, bool get_infos=False) -> "
                    "(Tensor LU, Tensor pivots, Tensor infos)", tags=("linalg",),
                    decomposition=_torch_lu), _torch_lu_public)
    define("lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor",
           tags=("linalg",), decomposition=_lu_solve_deprecated)
    single_out(OPS["linalg_lu_solve"])
    single_out(OPS["lu_solve"])
    for name in ("linalg_lu_factor_ex", "linalg_lu_factor", "linalg_lu", "lu_unpack"):
        tuple_out(OPS[name])


def _derivatives():
    derivative(OPS["linalg_lu_factor_ex"], A=_lu_factor_ex_grad)
    # (the permutation P never requires grad)
    derivative(OPS["linalg_lu"], A=_lu_grad, nondifferentiable_outputs=(0,))
    derivative(OPS["lu_unpack"], LU_data=_lu_unpack_grad, nondifferentiable_outputs=(0,))
    derivative(OPS["linalg_lu_solve"], {"LU, B": _lu_solve_grad})


_declare()
_derivatives()
