"""LDL factorization of symmetric / Hermitian matrices: torch.linalg.ldl_factor(_ex) and
ldl_solve.  Kernel ops: linalg_ldl_factor_ex (LAPACK's sytrf / hetrf on the lower
triangle: the compact L and D below the diagonal, the upper part zero, and LAPACK's 1-based
int32 pivots, negative for a 2x2 block) and linalg_ldl_solve (sytrs / hetrs); their
metadata rules are the `*_meta` functions here.  PyTorch has no derivative for either."""
from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..registry import OPS, define, derivative
from ._helpers import NOT_IMPLEMENTED_NODE, _type_name, no_derivative
from .factorization import _LOW, single_out, tuple_out
from .factorization_lu import _any


def _float_or_complex(A, name):
    if A.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_type_name(A.dtype)}")


def _square(A, name, what="A"):
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")


def ldl_factor_meta(A, hermitian=False, check_errors=False):
    name = "torch.linalg.ldl_factor_ex"
    _square(A, name)
    _float_or_complex(A, name)
    if A.dtype in _LOW and A.numel():  # (empty: PyTorch's kernel is not reached)
        raise NotImplementedError(f"\"ldl_factor_kernel_cpu\" not implemented for "
                                  f"'{_type_name(A.dtype)}'")
    return (A._shape, A.dtype), (A._shape[:-1], D.int32), (A._shape[:-2], D.int32)


def ldl_solve_meta(LD, pivots, B, hermitian=False):
    name = "torch.linalg.ldl_solve"
    _square(LD, name, "LD")
    n = LD._shape[-1]
    if B.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got "
                         "-2)")
    if B._shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {n} by {n} "
                           f"but each b matrix is {B._shape[-2]} by {B._shape[-1]}")
    if pivots._shape != LD._shape[:-1]:
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, "
                           f"but got pivots with shape {list(pivots._shape)} instead")
    _float_or_complex(LD, name)
    if pivots.dtype.kind not in "iu":
        raise RuntimeError(f"{name}: Expected pivots to be integers. Got "
                           f"{_type_name(pivots.dtype)}")
    if B.dtype is not LD.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(B.dtype)} and A of type {_type_name(LD.dtype)} "
                           f"instead.")
    return broadcast_shapes(LD._shape[:-2], B._shape[:-2]) + B._shape[-2:], LD.dtype


def _ldl_factor(A, hermitian=False):
    LD, pivots, info = OPS["linalg_ldl_factor_ex"].call(A, hermitian, False)
    if _any(lambda i: i != 0, info):
        # (PyTorch's check has no message for a singular D: an internal assert with this text)
        first = int(info.reshape(-1)[info.reshape(-1).nonzero()[0, 0]].item())
        raise RuntimeError(f"torch.linalg.ldl_factor: Unknown error code: {first}.")
    return LD, pivots


def _declare():
    linalg = {"tags": ("linalg",), "modules": ("linalg",), "function": False, "method": False}
    define("linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, "
           "bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor info)", **linalg)
    define("linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> "
           "(Tensor LD, Tensor pivots)", decomposition=_ldl_factor, **linalg)
    define("linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> "
           "Tensor", **linalg)
    tuple_out(OPS["linalg_ldl_factor_ex"])
    tuple_out(OPS["linalg_ldl_factor"])
    single_out(OPS["linalg_ldl_solve"])
    derivative(OPS["linalg_ldl_factor_ex"], self=no_derivative("linalg_ldl_factor_ex"),
               name=NOT_IMPLEMENTED_NODE)
    derivative(OPS["linalg_ldl_solve"], {"LD, B": no_derivative("linalg_ldl_solve")},
               name=NOT_IMPLEMENTED_NODE)


_declare()
