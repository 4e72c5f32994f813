"""Meta inference of the factorizations and solvers: the metadata rules shared with the
CPU kernels (mindtorch._ops.decls.factorization), which check arguments in torch's order.
lstsq's residuals assume full rank (their size depends on the data on other devices)."""
from mindtorch._ops.decls import factorization as F
from mindtorch._ops.decls import factorization_householder as H
from mindtorch._ops.decls import factorization_ldl as LDL
from mindtorch._ops.decls import factorization_lu as LU
from mindtorch._ops.decls import factorization_spectral as S

RULES = {
    "linalg_inv_ex": F.inv_meta,
    "linalg_det": F.det_meta,
    "linalg_slogdet": F.slogdet_meta,
    "linalg_solve_ex": F.solve_meta,
    "linalg_solve_triangular": F.solve_triangular_meta,
    "linalg_cholesky_ex": F.cholesky_meta,
    "linalg_qr": F.qr_meta,
    "linalg_eigh": S.eigh_meta,
    "linalg_eig": S.eig_meta,
    "linalg_svd": S.svd_meta,
    "linalg_lstsq": F.lstsq_meta,
    "linalg_matrix_exp": F.matrix_exp_meta,
    "linalg_lu_factor_ex": lambda A, pivot=True, check_errors=False: LU.lu_factor_meta(
        A, pivot, check_errors),
    "lu_unpack": LU.lu_unpack_meta,
    "linalg_lu_solve": LU.lu_solve_meta,
    "geqrf": H.geqrf_meta,
    "linalg_ldl_factor_ex": LDL.ldl_factor_meta,
    "linalg_ldl_solve": LDL.ldl_solve_meta,
}
