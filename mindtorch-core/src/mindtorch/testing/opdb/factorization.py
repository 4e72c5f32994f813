"""Samples of the factorizations, solvers and the rest of torch.linalg (batches, broadcasting,
non-contiguous and empty inputs, real and complex dtypes)."""
import mindtorch

from ._make import t

_f32, _f64, _c64 = mindtorch.float32, mindtorch.float64, mindtorch.complex64


def _sq(d, shape, dtype=_f32, transposed=False):
    """Well-conditioned square matrices."""
    n = shape[-1]
    return t(d, shape, dtype, transposed) + n * mindtorch.eye(n, dtype=dtype, device=d)


def _spd(d, shape, dtype=_f32):
    a = t(d, shape, dtype)
    return a @ a.mH + mindtorch.eye(shape[-1], dtype=dtype, device=d)


def _sym(d, shape, dtype=_f32):
    a = t(d, shape, dtype)
    return a + a.mH


_SQUARE = [lambda d: ((_sq(d, (3, 3)),), {}),
           lambda d: ((_sq(d, (2, 4, 4), _f64),), {}),
           lambda d: ((_sq(d, (3, 3), _c64, transposed=True),), {}),
           lambda d: ((t(d, (0, 2, 2)),), {})]
_RECT = [lambda d: ((t(d, (4, 3)),), {}),
         lambda d: ((t(d, (2, 3, 5), _f64),), {}),
         lambda d: ((t(d, (3, 3), _c64, transposed=True),), {}),
         lambda d: ((t(d, (0, 3)),), {})]
_SOLVE = [lambda d: ((_sq(d, (3, 3)), t(d, (3,))), {}),
          lambda d: ((_sq(d, (2, 3, 3), _f64), t(d, (3, 2), _f64)), {}),
          lambda d: ((_sq(d, (3, 3)), t(d, (2, 4, 3))), {"left": False}),
          lambda d: ((_sq(d, (3, 3), _c64, True), t(d, (2, 3), _c64)), {})]
_TRIANGULAR = [lambda d: ((_sq(d, (3, 3)), t(d, (3, 2))), {"upper": True}),
               lambda d: ((_sq(d, (2, 3, 3), _f64), t(d, (4, 3), _f64)),
                          {"upper": False, "left": False, "unitriangular": True})]
_SPD = [lambda d: ((_spd(d, (3, 3)),), {}),
        lambda d: ((_spd(d, (2, 3, 3), _c64),), {"upper": True})]
_HERMITIAN = [lambda d: ((_sym(d, (3, 3)),), {}),
              lambda d: ((_sym(d, (2, 3, 3), _c64), "U"), {})]
_NORM_INPUTS = [lambda d: ((t(d, (2, 3, 4)),), {}),
                lambda d: ((t(d, (3, 4), _f64, transposed=True), 2, (0, 1), True), {}),
                lambda d: ((t(d, (3, 4), _c64), 1), {"dtype": None})]

SAMPLES = {
    "linalg_inv_ex": _SQUARE, "linalg_inv": _SQUARE, "inverse": _SQUARE,
    "linalg_det": _SQUARE, "det": _SQUARE, "linalg_slogdet": _SQUARE, "slogdet": _SQUARE,
    "logdet": [lambda d: ((_spd(d, (2, 3, 3), _f64),), {})],
    "linalg_matrix_exp": _SQUARE, "matrix_exp": _SQUARE,
    "linalg_eig": _SQUARE, "linalg_eigvals": _SQUARE,
    "linalg_solve_ex": _SOLVE, "linalg_solve": _SOLVE,
    "linalg_solve_triangular": _TRIANGULAR,
    "linalg_cholesky_ex": _SPD, "linalg_cholesky": _SPD,
    "cholesky": [lambda d: ((_spd(d, (3, 3)),), {})],
    "cholesky_solve": [lambda d: ((t(d, (3, 2)), mindtorch.linalg.cholesky(_spd(d, (3, 3)))),
                                  {})],
    "cholesky_inverse": [lambda d: ((mindtorch.linalg.cholesky(_spd(d, (2, 3, 3), _f64)),),
                                    {})],
    "linalg_eigh": _HERMITIAN, "linalg_eigvalsh": _HERMITIAN,
    "linalg_qr": _RECT + [lambda d: ((t(d, (4, 3)), "complete"), {}),
                          lambda d: ((t(d, (2, 3, 4), _f64), "r"), {})],
    "qr": _RECT + [lambda d: ((t(d, (4, 3)), False), {})],
    "linalg_svd": _RECT + [lambda d: ((t(d, (4, 3)), False), {})],
    "linalg_svdvals": _RECT, "svd": _RECT + [lambda d: ((t(d, (4, 3)),), {"some": False})],
    "linalg_pinv": _RECT + [lambda d: ((_sym(d, (3, 3)),), {"hermitian": True})],
    "pinverse": _RECT,
    "linalg_matrix_rank": _RECT + [lambda d: ((t(d, (3, 3)),), {"atol": 0.5, "rtol": 0.1})],
    "linalg_lstsq": [lambda d: ((t(d, (5, 3)), t(d, (5, 2))), {}),
                     lambda d: ((t(d, (2, 5, 3), _f64), t(d, (5, 2), _f64)), {"driver": "gelsd"}),
                     lambda d: ((t(d, (5, 3)), t(d, (5,))), {"driver": "gels"}),
                     lambda d: ((t(d, (3, 5), _c64), t(d, (3, 2), _c64)), {"driver": "gelss"})],
    "linalg_vector_norm": _NORM_INPUTS,
    "linalg_matrix_norm": [lambda d: ((t(d, (2, 3, 4)),), {}),
                           lambda d: ((t(d, (3, 4), _f64), "nuc"), {}),
                           lambda d: ((t(d, (2, 3, 4)), -1, (0, 2), True), {})],
    "_linalg_matrix_norm_str": [lambda d: ((t(d, (2, 3, 4)), "nuc"), {})],
    "linalg_norm": [lambda d: ((t(d, (2, 3, 4)),), {}),
                    lambda d: ((t(d, (3, 4), _f64), 2), {})],
    "_linalg_norm_str": [lambda d: ((t(d, (3, 4)), "fro"), {})],
    "linalg_cond": [lambda d: ((_sq(d, (2, 3, 3)),), {}),
                    lambda d: ((_sq(d, (3, 3), _f64), 1), {})],
    "_linalg_cond_str": [lambda d: ((_sq(d, (3, 3)), "nuc"), {})],
    "linalg_vecdot": [lambda d: ((t(d, (2, 3)), t(d, (3,))), {}),
                      lambda d: ((t(d, (3, 2), _c64), t(d, (3, 1), _c64)), {"dim": 0})],
    "linalg_multi_dot": [lambda d: (([t(d, (2, 3)), t(d, (3, 4)), t(d, (4,))],), {})],
    "linalg_cross": [lambda d: ((t(d, (2, 3)), t(d, (1, 3))), {})],
    "linalg_diagonal": [lambda d: ((t(d, (2, 3, 4)),), {"offset": 1})],
    "linalg_vander": [lambda d: ((t(d, (2, 3)),), {"N": 4})],
    "linalg_tensorinv": [lambda d: ((_sq(d, (6, 6)).reshape(6, 2, 3), 1), {})],
    "linalg_tensorsolve": [lambda d: ((_sq(d, (6, 6)).reshape(6, 2, 3), t(d, (6,))), {})],
    "dist": [lambda d: ((t(d, (3, 4)), t(d, (4,))), {}),
             lambda d: ((t(d, (3,), _f64), t(d, (3,), _f64), 1), {})],
    "linalg_lu_factor_ex": _RECT, "linalg_lu_factor": _SQUARE, "linalg_lu": _RECT,
    "lu": [lambda d: ((_sq(d, (2, 3, 3)),), {"get_infos": True})],
    "lu_unpack": [lambda d: (tuple(mindtorch.linalg.lu_factor(t(d, (2, 4, 3)))), {}),
                  lambda d: (tuple(mindtorch.linalg.lu_factor(_sq(d, (3, 3), _c64))),
                             {"unpack_pivots": False})],
    "linalg_lu_solve": [
        lambda d: (tuple(mindtorch.linalg.lu_factor(_sq(d, (3, 3)))) + (t(d, (2, 3, 2)),), {}),
        lambda d: (tuple(mindtorch.linalg.lu_factor(_sq(d, (2, 3, 3), _f64))) +
                   (t(d, (4, 3), _f64),), {"left": False, "adjoint": True})],
    "lu_solve": [lambda d: ((t(d, (3, 2)),) + tuple(mindtorch.linalg.lu_factor(_sq(d, (3, 3)))),
                            {})],
    "geqrf": _RECT,
    "linalg_ldl_factor_ex": [lambda d: ((_sym(d, (3, 3)),), {}),
                             lambda d: ((_sym(d, (2, 3, 3), _c64),), {"hermitian": True})],
    "linalg_ldl_factor": [lambda d: ((_sym(d, (2, 4, 4), _f64),), {})],
    "linalg_ldl_solve": [lambda d: (tuple(mindtorch.linalg.ldl_factor(_sym(d, (3, 3)))) +
                                    (t(d, (2, 3, 2)),), {})],
    "linalg_householder_product": [lambda d: (tuple(mindtorch.geqrf(t(d, (2, 4, 3)))), {}),
                                   lambda d: ((t(d, (3, 3), _c64), t(d, (2,), _c64)), {})],
    "orgqr": [lambda d: (tuple(mindtorch.geqrf(t(d, (4, 3), _f64))), {})],
    "ormqr": [lambda d: (tuple(mindtorch.geqrf(t(d, (4, 3)))) + (t(d, (4, 2)),), {}),
              lambda d: (tuple(mindtorch.geqrf(t(d, (3, 3)))) + (t(d, (2, 3)),),
                         {"left": False, "transpose": True})],
    "triangular_solve": [lambda d: ((t(d, (2, 3, 2)), _sq(d, (3, 3))), {}),
                         lambda d: ((t(d, (3, 1), _f64), _sq(d, (3, 3), _f64), False, True),
                                    {})],
    "frobenius_norm": [lambda d: ((t(d, (2, 3, 4)), (0, 2)), {"keepdim": True})],
    "nuclear_norm": [lambda d: ((t(d, (2, 3, 4)),), {}),
                     lambda d: ((t(d, (2, 3, 4)), (0, 1)), {})],
    "cdist": [lambda d: ((t(d, (2, 3, 4)), t(d, (5, 4))), {}),
              lambda d: ((t(d, (3, 2), _f64), t(d, (4, 2), _f64), 1.0), {})],
}
