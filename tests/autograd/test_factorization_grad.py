"""Gradients of the factorizations, solvers and the rest of torch.linalg against PyTorch
(values and grads), finite differences (gradcheck) and the meta device (grad shapes and
dtypes).  Where a decomposition is only determined up to signs or phases (eigenvectors,
singular vectors), the losses are invariant under them, as PyTorch's own tests do."""
import warnings

import mindtorch
import numpy as np
import pytest
import torch
from gradutil import check_gradgrad, check_grads, const, nc, randn

RNG = np.random.default_rng(5)


def _x(*shape):
    return randn(*shape)


def _sq(*shape):
    """Well-conditioned square matrices."""
    return randn(*shape) + shape[-1] * np.eye(shape[-1])


def _spd_of(m, a):
    """A symmetric positive-definite matrix made (differentiably) from a."""
    return a @ a.mT + m.eye(a.shape[-1], dtype=a.dtype, device=a.device)


def _sym(m, a):
    return a + a.mT


L = lambda m: m.linalg
INF = float("inf")

CASES = [
    # (id naming the op, fn(module, *tensors), specs)
    ("linalg_inv", lambda m, a: L(m).inv(a), [_sq(3, 3)]),
    ("linalg_inv_batch", lambda m, a: L(m).inv(a), [nc(_sq(2, 3, 3))]),
    ("linalg_inv_ex", lambda m, a: L(m).inv_ex(a).inverse, [_sq(2, 2)]),
    ("inverse", lambda m, a: a.inverse(), [_sq(3, 3)]),
    ("inverse_empty", lambda m, a: m.inverse(a), [np.zeros((2, 0, 0))]),
    ("linalg_det", lambda m, a: L(m).det(a), [_x(3, 3)]),
    ("linalg_det_batch", lambda m, a: L(m).det(a), [nc(_x(2, 3, 3))]),
    ("det", lambda m, a: a.det(), [_x(2, 2)]),
    ("det_1x1", lambda m, a: m.det(a), [_x(2, 1, 1)]),
    ("det_empty", lambda m, a: m.det(a), [np.zeros((2, 0, 0))]),
    ("linalg_slogdet", lambda m, a: L(m).slogdet(a).logabsdet, [_x(3, 3)]),
    ("slogdet", lambda m, a: m.slogdet(a)[1], [nc(_x(2, 3, 3))]),
    ("logdet", lambda m, a: m.logdet(_spd_of(m, a)), [_x(2, 3, 3)]),
    ("linalg_solve", lambda m, a, b: L(m).solve(a, b), [_sq(3, 3), _x(3, 2)]),
    ("linalg_solve_vec", lambda m, a, b: L(m).solve(a, b), [_sq(2, 3, 3), _x(2, 3)]),
    ("linalg_solve_bcast", lambda m, a, b: L(m).solve(a, b), [_sq(3, 3), nc(_x(2, 3, 2))]),
    ("linalg_solve_right", lambda m, a, b: L(m).solve(a, b, left=False), [_sq(3, 3), _x(2, 3)]),
    ("linalg_solve_ex", lambda m, a, b: L(m).solve_ex(a, b).result, [_sq(3, 3), _x(3)]),
    ("linalg_solve_const_A", lambda m, a, b: L(m).solve(a, b), [const(_sq(3, 3)), _x(3)]),
    ("linalg_solve_triangular", lambda m, a, b: L(m).solve_triangular(a, b, upper=True),
     [_sq(3, 3), _x(3, 2)]),
    ("linalg_solve_triangular_lower_right",
     lambda m, a, b: L(m).solve_triangular(a, b, upper=False, left=False), [_sq(3, 3), _x(2, 3)]),
    ("linalg_solve_triangular_unit",
     lambda m, a, b: L(m).solve_triangular(a, b, upper=False, unitriangular=True),
     [_sq(2, 3, 3), nc(_x(3, 2))]),
    ("linalg_cholesky", lambda m, a: L(m).cholesky(_spd_of(m, a)), [_x(3, 3)]),
    ("linalg_cholesky_upper", lambda m, a: L(m).cholesky(_spd_of(m, a), upper=True),
     [_x(2, 3, 3)]),
    ("linalg_cholesky_ex", lambda m, a: L(m).cholesky_ex(_spd_of(m, a)).L, [_x(3, 3)]),
    ("cholesky", lambda m, a: m.cholesky(_spd_of(m, a)), [_x(3, 3)]),
    ("cholesky_solve", lambda m, b, a: m.cholesky_solve(b, L(m).cholesky(_spd_of(m, a))),
     [_x(3, 2), _x(3, 3)]),
    ("cholesky_solve_upper",
     lambda m, b, a: b.cholesky_solve(L(m).cholesky(_spd_of(m, a), upper=True), upper=True),
     [_x(2, 3, 1), _x(3, 3)]),
    ("cholesky_solve_direct", lambda m, b, c: m.cholesky_solve(b, c.tril()),
     [_x(3, 2), _sq(3, 3)]),
    ("cholesky_inverse", lambda m, a: m.cholesky_inverse(a.tril()), [_sq(3, 3)]),
    ("cholesky_inverse_upper", lambda m, a: a.triu().cholesky_inverse(upper=True),
     [_sq(2, 2, 2)]),
    ("linalg_qr", lambda m, a: L(m).qr(a), [_x(4, 3)]),
    ("linalg_qr_square", lambda m, a: L(m).qr(a), [nc(_x(3, 3))]),
    ("linalg_qr_wide", lambda m, a: L(m).qr(a), [_x(2, 3, 4)]),
    ("linalg_qr_complete_wide", lambda m, a: L(m).qr(a, "complete"), [_x(2, 4)]),
    ("linalg_qr_only_R", lambda m, a: L(m).qr(a).R, [_x(4, 3)]),
    ("qr", lambda m, a: m.qr(a), [_x(3, 2)]),
    ("linalg_eigh", lambda m, a: (lambda w, v: (w, v * v))(*L(m).eigh(_sym(m, a))), [_x(3, 3)]),
    ("linalg_eigh_U", lambda m, a: (lambda w, v: (w, (v * v) @ w.unsqueeze(-1)))(
        *L(m).eigh(_sym(m, a), "U")),
     [_x(2, 3, 3)]),
    ("linalg_eigh_values", lambda m, a: L(m).eigh(_sym(m, a)).eigenvalues, [_x(3, 3)]),
    ("linalg_eigvalsh", lambda m, a: L(m).eigvalsh(_sym(m, a)), [_x(2, 3, 3)]),
    ("linalg_eigvalsh_identity",
     lambda m, a: L(m).eigvalsh(a * 0 + m.eye(3, dtype=a.dtype, device=a.device)),
     [_x(3, 3)]),
    ("linalg_eig", lambda m, a: (lambda w, v: (w * w).sum() + (v * v.conj()).real.sum(-1) @
                                 w.real)(*L(m).eig(a)), [_x(3, 3)]),
    ("linalg_eigvals", lambda m, a: (L(m).eigvals(a) ** 2).sum(-1), [_x(2, 3, 3)]),
    ("linalg_svd", lambda m, a: (lambda u, s, vh: (u @ vh, s))(*L(m).svd(a, False)), [_x(3, 3)]),
    ("linalg_svd_tall", lambda m, a: (lambda u, s, vh: (u @ vh, s))(*L(m).svd(a, False)),
     [_x(4, 3)]),
    ("linalg_svd_wide", lambda m, a: (lambda u, s, vh: (u @ vh, s))(*L(m).svd(a, False)),
     [nc(_x(2, 2, 4))]),
    ("linalg_svd_full", lambda m, a: (lambda u, s, vh: (u[:, :3] @ vh, s))(*L(m).svd(a)),
     [_x(4, 3)]),
    ("linalg_svd_S", lambda m, a: L(m).svd(a).S, [_x(3, 4)]),
    ("linalg_svdvals", lambda m, a: L(m).svdvals(a), [_x(2, 4, 3)]),
    ("svd", lambda m, a: (lambda u, s, v: (u @ v.mT, s))(*m.svd(a)), [_x(4, 3)]),
    ("svd_S_only", lambda m, a: a.svd(compute_uv=False)[1], [_x(3, 3)]),
    ("linalg_pinv", lambda m, a: L(m).pinv(a), [_x(4, 3)]),
    ("linalg_pinv_wide", lambda m, a: L(m).pinv(a), [nc(_x(2, 2, 3))]),
    ("linalg_pinv_hermitian", lambda m, a: L(m).pinv(_sym(m, a), hermitian=True), [_x(3, 3)]),
    ("pinverse", lambda m, a: m.pinverse(a), [_x(3, 2)]),
    ("linalg_lstsq", lambda m, a, b: L(m).lstsq(a, b).solution, [_x(5, 3), _x(5, 2)]),
    ("linalg_lstsq_vec", lambda m, a, b: L(m).lstsq(a, b).solution, [_x(2, 4, 3), _x(2, 4)]),
    ("linalg_lstsq_wide", lambda m, a, b: L(m).lstsq(a, b).solution, [_x(3, 4), _x(3, 2)]),
    ("linalg_lstsq_residuals", lambda m, a, b: L(m).lstsq(a, b, driver="gelsd")[:2],
     [_x(5, 3), _x(5, 2)]),
    ("linalg_matrix_exp", lambda m, a: L(m).matrix_exp(a), [_x(3, 3)]),
    ("matrix_exp", lambda m, a: a.matrix_exp(), [nc(_x(2, 2, 2))]),
    ("linalg_matrix_power_neg", lambda m, a: L(m).matrix_power(a, -2), [_sq(3, 3)]),
    ("matrix_power_neg1", lambda m, a: m.matrix_power(a, -1), [_sq(2, 2, 2)]),
    ("linalg_vector_norm", lambda m, a: L(m).vector_norm(a, 3, dim=(0, -1)), [_x(2, 3, 2)]),
    ("linalg_vector_norm_inf", lambda m, a: L(m).vector_norm(a, INF), [_x(3, 2)]),
    ("linalg_matrix_norm", lambda m, a: L(m).matrix_norm(a, 1, dim=(0, 1)), [_x(2, 3, 2)]),
    ("linalg_matrix_norm_fro", lambda m, a: L(m).matrix_norm(a), [_x(2, 3, 2)]),
    ("linalg_matrix_norm_nuc", lambda m, a: L(m).matrix_norm(a, "nuc"), [_x(2, 3, 2)]),
    ("_linalg_matrix_norm_str", lambda m, a: L(m).matrix_norm(a, ord="nuc", keepdim=True),
     [nc(_x(3, 3))]),
    ("linalg_matrix_norm_2", lambda m, a: L(m).matrix_norm(a, 2), [_x(3, 2)]),
    ("linalg_matrix_norm_-2", lambda m, a: L(m).matrix_norm(a, -2, dim=(0, 2)), [_x(3, 2, 2)]),
    ("linalg_matrix_norm_1", lambda m, a: L(m).matrix_norm(a, 1), [_x(3, 3)]),
    ("linalg_matrix_norm_-inf", lambda m, a: L(m).matrix_norm(a, -INF, keepdim=True),
     [_x(2, 3, 3)]),
    ("linalg_norm", lambda m, a: L(m).norm(a), [_x(2, 3)]),
    ("linalg_norm_ord", lambda m, a: L(m).norm(a, 2), [_x(3, 3)]),
    ("_linalg_norm_str", lambda m, a: L(m).norm(a, "nuc"), [_x(3, 2)]),
    ("norm_nuc", lambda m, a: m.norm(a, "nuc"), [_x(2, 3)]),
    ("linalg_cond", lambda m, a: L(m).cond(a), [_sq(3, 3)]),
    ("linalg_cond_nuc", lambda m, a: L(m).cond(a, "nuc"), [_sq(3, 3)]),
    ("linalg_multi_dot", lambda m, a, b, c: L(m).multi_dot([a, b, c]),
     [_x(2, 3), _x(3, 2), _x(2)]),
    ("linalg_multi_dot_4", lambda m, a, b, c, d: L(m).multi_dot([a, b, c, d]),
     [_x(3), nc(_x(3, 4)), _x(4, 1), _x(1, 2)]),
    ("linalg_vecdot", lambda m, a, b: L(m).vecdot(a, b), [_x(2, 3), _x(3)]),
    ("linalg_vecdot_dim", lambda m, a, b: L(m).vecdot(a, b, dim=0), [nc(_x(3, 2)), _x(3, 1)]),
    ("linalg_cross", lambda m, a, b: L(m).cross(a, b), [_x(2, 3), _x(1, 3)]),
    ("linalg_diagonal", lambda m, a: L(m).diagonal(a, offset=1), [_x(2, 3, 3)]),
    ("linalg_vander", lambda m, a: L(m).vander(a, N=4), [_x(2, 3)]),
    ("linalg_tensorinv", lambda m, a: L(m).tensorinv(a, ind=1), [_sq(4, 4).reshape(4, 2, 2)]),
    ("linalg_tensorsolve", lambda m, a, b: L(m).tensorsolve(a, b),
     [_sq(4, 4).reshape(2, 2, 4), _x(2, 2)]),
    ("linalg_matmul", lambda m, a, b: L(m).matmul(a, b), [_x(2, 3), _x(3)]),
    ("linalg_lu_factor", lambda m, a: L(m).lu_factor(a).LU, [_sq(3, 3)]),
    ("linalg_lu_factor_ex", lambda m, a: L(m).lu_factor_ex(a).LU, [_x(2, 2)]),
    ("linalg_lu_factor_ex_wide", lambda m, a: L(m).lu_factor_ex(a).LU, [_x(2, 2, 3)]),
    ("linalg_lu_factor_ex_tall", lambda m, a: L(m).lu_factor_ex(a).LU, [nc(_x(3, 2))]),
    ("linalg_lu", lambda m, a: L(m).lu(a)[1:], [_sq(2, 3, 3)]),
    ("linalg_lu_wide", lambda m, a: L(m).lu(a)[1:], [_x(2, 3)]),
    ("linalg_lu_tall", lambda m, a: L(m).lu(a)[1:], [_x(3, 2)]),
    ("lu_unpack", lambda m, a: m.lu_unpack(*L(m).lu_factor(a))[1:], [_sq(3, 3)]),
    ("lu_unpack_tall", lambda m, a: m.lu_unpack(*L(m).lu_factor(a))[1:], [_x(3, 2)]),
    ("lu_unpack_wide", lambda m, a: m.lu_unpack(*L(m).lu_factor(a))[2], [_x(2, 3)]),
    ("lu", lambda m, a: m.lu(a)[0], [_sq(3, 3)]),
    ("linalg_lu_solve", lambda m, a, b: L(m).lu_solve(*L(m).lu_factor(a), b),
     [_sq(3, 3), _x(3, 2)]),
    ("linalg_lu_solve_adjoint", lambda m, a, b: L(m).lu_solve(*L(m).lu_factor(a), b,
                                                              adjoint=True),
     [_sq(2, 3, 3), _x(3, 1)]),
    ("linalg_lu_solve_right", lambda m, a, b: L(m).lu_solve(*L(m).lu_factor(a), b, left=False),
     [_sq(3, 3), nc(_x(2, 3))]),
    ("linalg_lu_solve_right_adjoint",
     lambda m, a, b: L(m).lu_solve(*L(m).lu_factor(a), b, left=False, adjoint=True),
     [_sq(3, 3), _x(2, 3)]),
    ("lu_solve", lambda m, a, b: m.lu_solve(b, *L(m).lu_factor(a)), [_sq(3, 3), _x(3, 2)]),
    ("linalg_householder_product", lambda m, a, t: L(m).householder_product(a, t),
     [_x(4, 3), _x(2)]),
    ("orgqr", lambda m, a, t: m.orgqr(a, t), [nc(_x(2, 3, 3)), _x(2, 3)]),
    ("ormqr", lambda m, a, t, c: m.ormqr(a, t, c), [_x(3, 2), _x(2), _x(3, 2)]),
    ("ormqr_right_transpose", lambda m, a, t, c: m.ormqr(a, t, c, False, True),
     [_x(3, 3), _x(3), _x(2, 3)]),
    ("triangular_solve", lambda m, b, a: m.triangular_solve(b, a), [_x(3, 2), _sq(3, 3)]),
    ("triangular_solve_transpose", lambda m, b, a: b.triangular_solve(a, False, True, True),
     [_x(2, 3, 1), _sq(3, 3)]),
    ("frobenius_norm", lambda m, a: m.frobenius_norm(a, (0, 2)), [_x(2, 3, 2)]),
    ("nuclear_norm", lambda m, a: m.nuclear_norm(a, True), [_x(2, 3, 2)]),
    ("dist", lambda m, a, b: m.dist(a, b), [_x(3, 2), _x(2)]),
    ("dist_p", lambda m, a, b: a.dist(b, 3), [_x(3), nc(_x(3))]),
    ("dist_inf", lambda m, a, b: m.dist(a, b, INF), [_x(2, 2), _x(2, 2)]),
    ("dist_1", lambda m, a, b: m.dist(a, b, 1), [_x(2, 2), _x(2, 2)]),
    ("cdist", lambda m, a, b: m.cdist(a, b), [_x(3, 2), _x(4, 2)]),
    ("cdist_batch", lambda m, a, b: m.cdist(a, b, 1.5), [_x(2, 3, 2), nc(_x(4, 2))]),
    ("cdist_1", lambda m, a, b: m.cdist(a, b, 1), [_x(3, 2), _x(2, 2)]),
    ("cdist_inf", lambda m, a, b: m.cdist(a, b, INF), [_x(3, 2), _x(2, 2)]),
    ("cdist_0", lambda m, a, b: m.cdist(a, b, 0), [_x(3, 2), _x(2, 2)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_grads(fn, specs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch.cholesky's deprecation)
        check_grads(fn, *specs)


@pytest.mark.parametrize("name,fn,specs", [
    ("inv", lambda m, a: L(m).inv(a), [_sq(3, 3)]),
    ("det", lambda m, a: L(m).det(a), [_sq(3, 3)]),
    ("solve", lambda m, a, b: L(m).solve(a, b), [_sq(3, 3), _x(3)]),
    ("cholesky", lambda m, a: L(m).cholesky(_spd_of(m, a)), [_x(3, 3)]),
    ("svdvals", lambda m, a: L(m).svdvals(a), [_x(3, 2)]),
    ("matrix_exp", lambda m, a: L(m).matrix_exp(a), [_x(2, 2)]),
])
def test_float32(name, fn, specs):
    check_grads(fn, *specs, dtype="float32", rtol=1e-3, atol=1e-3)


def _c(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


COMPLEX_CASES = [  # gauge-invariant losses of complex decompositions, as grads of real sums
    ("inv", lambda m, a: L(m).inv(a).abs().sum(), _c(3, 3) + 3 * np.eye(3)),
    ("det", lambda m, a: (L(m).det(a) * (1 + 2j)).real, _c(3, 3)),
    ("slogdet", lambda m, a: (lambda s, l: (s * (2 - 1j)).real + l)(*L(m).slogdet(a)),
     _c(3, 3)),
    ("logdet", lambda m, a: m.logdet(a).imag + m.logdet(a).real * 2, _c(3, 3) + 3 * np.eye(3)),
    ("solve", lambda m, a: L(m).solve(a, a[..., 0] * 1j).abs().sum(), _c(2, 3, 3)),
    ("cholesky", lambda m, a: L(m).cholesky(a @ a.mH + m.eye(3)).abs().sum(), _c(3, 3)),
    ("qr", lambda m, a: sum(x.abs().sum() for x in L(m).qr(a)), _c(4, 3)),
    ("eigh", lambda m, a: (lambda w, v: w.sum() + (v * v.conj()).real.sum(-1) @ w)(
        *L(m).eigh(a + a.mH)), _c(3, 3)),
    ("eig", lambda m, a: (lambda w, v: (w * w).sum().real + (v * v.conj()).real.sum())(
        *L(m).eig(a)), _c(3, 3)),
    ("svd", lambda m, a: (lambda u, s, vh: (u @ vh).abs().sum() + s.sum())(*L(m).svd(a, False)),
     _c(4, 3)),
    ("svd_wide", lambda m, a: (lambda u, s, vh: (u @ vh).real.sum() + s.sum())(
        *L(m).svd(a, False)), _c(2, 3)),
    ("pinv", lambda m, a: L(m).pinv(a).abs().sum(), _c(3, 2)),
    ("matrix_exp", lambda m, a: L(m).matrix_exp(a).real.sum(), _c(2, 2)),
    ("matrix_norm_nuc", lambda m, a: L(m).matrix_norm(a, "nuc"), _c(3, 2)),
    ("lstsq", lambda m, a: L(m).lstsq(a, a[..., :1] * 2j).solution.abs().sum(), _c(4, 3)),
]


@pytest.mark.parametrize("fn,a", [c[1:] for c in COMPLEX_CASES],
                         ids=[c[0] for c in COMPLEX_CASES])
def test_complex(fn, a):
    """Complex inputs: PyTorch's conjugate convention (grads compared with torch's)."""
    grads = []
    for m in (mindtorch, torch):
        t = m.tensor(a, dtype=m.complex128, requires_grad=True)
        grads.append(m.autograd.grad(fn(m, t), t)[0])
    np.testing.assert_allclose(grads[0].numpy(), grads[1].numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("p", [1, -INF, "fro"], ids=["linalg_cond_1", "linalg_cond_-inf",
                                                     "_linalg_cond_str"])
def test_cond_through_the_inverse(p):
    """(torch 2.13 cannot differentiate these: its cond writes into inv_ex's result in place)"""
    a = mindtorch.tensor(_sq(2, 3, 3), requires_grad=True)
    assert mindtorch.autograd.gradcheck(lambda x: L(mindtorch).cond(x, p), [a])
    assert mindtorch.autograd.gradgradcheck(lambda x: L(mindtorch).cond(x, p), [a])


def test_det_of_singular_matrices():
    """torch: 0 for an exactly singular matrix at first order; the adjugate (through the
    SVD) when differentiating twice."""
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]])
    check_grads(lambda m, x: L(m).det(x), a, gradcheck=False)
    grads = []
    for m in (mindtorch, torch):
        x = m.tensor(a, dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(L(m).det(x).sum(), x, create_graph=True)
        gg, = m.autograd.grad((g * g).sum(), x)
        grads.append((g.detach().numpy(), gg.numpy()))
    for mg, tg in zip(*grads):
        np.testing.assert_allclose(mg, tg, rtol=1e-6, atol=1e-6)


def test_eigenvalue_losses_with_repeated_eigenvalues_are_finite():
    for m in (mindtorch, torch):
        a = m.eye(3, dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(L(m).eigvalsh(a).sum() + L(m).svdvals(a).sum(), a)
        assert bool(g.isfinite().all())
    a = mindtorch.eye(3, dtype=mindtorch.float64, requires_grad=True)
    g, = mindtorch.autograd.grad(L(mindtorch).eigh(a).eigenvalues.sum() +
                                 L(mindtorch).svd(a).S.sum(), a)
    np.testing.assert_allclose(g.numpy(), 2 * np.eye(3))


def test_geqrf_is_not_differentiable():
    for m in (mindtorch, torch):
        a = m.ones(3, 2, dtype=m.float64, requires_grad=True)
        with pytest.raises(NotImplementedError, match="geqrf"):
            m.geqrf(a)[0].sum().backward()


def test_qr_mode_errors():
    for m in (mindtorch, torch):
        a = m.ones(3, 2, dtype=m.float64, requires_grad=True)
        with pytest.raises(RuntimeError, match="mode='r'"):
            L(m).qr(a, "r").R.sum().backward()
        with pytest.raises(RuntimeError, match="complete"):
            L(m).qr(a, "complete").R.sum().backward()


def test_in_place_around_decompositions():
    def fn(m, a):
        y = a + a.mT
        y.mul_(0.5)  # (a symmetric non-leaf)
        w, v = L(m).eigh(y)
        return L(m).inv(y) - w.sum(), (v * v).mul_(2)
    check_grads(fn, _sq(3, 3))


@pytest.mark.parametrize("fn", [
    lambda m, a: L(m).inv(a), lambda m, a: m.inverse(a), lambda m, a: L(m).det(a),
    lambda m, a: m.det(a), lambda m, a: L(m).slogdet(a)[1], lambda m, a: m.logdet(a),
    lambda m, a: L(m).solve(a, a), lambda m, a: L(m).solve_triangular(a, a, upper=True),
    lambda m, a: L(m).cholesky(a), lambda m, a: m.cholesky(a), lambda m, a: L(m).qr(a)[0],
    lambda m, a: L(m).eigh(a)[0], lambda m, a: L(m).eigvalsh(a), lambda m, a: L(m).eig(a)[0],
    lambda m, a: L(m).eigvals(a), lambda m, a: L(m).svd(a)[0], lambda m, a: L(m).svdvals(a),
    lambda m, a: m.svd(a)[1], lambda m, a: L(m).pinv(a), lambda m, a: m.pinverse(a),
    lambda m, a: L(m).lstsq(a, a)[0], lambda m, a: L(m).matrix_exp(a),
    lambda m, a: m.matrix_exp(a), lambda m, a: L(m).matrix_power(a, -1),
    lambda m, a: L(m).norm(a), lambda m, a: L(m).vector_norm(a),
    lambda m, a: L(m).cross(a, a), lambda m, a: m.cholesky_solve(a, a),
    lambda m, a: m.cholesky_inverse(a), lambda m, a: m.dist(a, a), lambda m, a: m.cdist(a, a),
    lambda m, a: L(m).diagonal(a), lambda m, a: L(m).lu_factor(a)[0],
    lambda m, a: L(m).lu(a)[1], lambda m, a: m.lu_unpack(*L(m).lu_factor(a))[1],
    lambda m, a: L(m).lu_solve(*L(m).lu_factor(a), a), lambda m, a: m.lu(a)[0],
])
def test_node_names(fn):
    names = []
    for m in (mindtorch, torch):
        a = (m.eye(3, dtype=m.float64) * 2 + 0.1).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            names.append(type(fn(m, a).grad_fn).__name__)
    assert names[0] == names[1]


GRADGRAD = [
    ("inv", lambda m, a: L(m).inv(a), [_sq(2, 2)]),
    ("det", lambda m, a: L(m).det(a), [_sq(3, 3)]),
    ("slogdet", lambda m, a: L(m).slogdet(a).logabsdet, [_sq(2, 2)]),
    ("solve", lambda m, a, b: L(m).solve(a, b), [_sq(2, 2), _x(2)]),
    ("solve_triangular", lambda m, a, b: L(m).solve_triangular(a, b, upper=True),
     [_sq(2, 2), _x(2, 1)]),
    ("cholesky", lambda m, a: L(m).cholesky(_spd_of(m, a)), [_x(2, 2)]),
    ("qr", lambda m, a: L(m).qr(a), [_x(3, 2)]),
    ("eigh", lambda m, a: (lambda w, v: (w, v * v))(*L(m).eigh(_sym(m, a))), [_x(2, 2)]),
    ("svd", lambda m, a: (lambda u, s, vh: (u @ vh, s))(*L(m).svd(a, False)), [_x(3, 2)]),
    ("svdvals", lambda m, a: L(m).svdvals(a), [_x(2, 3)]),
    ("pinv", lambda m, a: L(m).pinv(a), [_x(3, 2)]),
    ("matrix_exp", lambda m, a: L(m).matrix_exp(a), [_x(2, 2)]),
    ("lstsq", lambda m, a, b: L(m).lstsq(a, b).solution, [_x(3, 2), _x(3)]),
    ("cdist", lambda m, a, b: m.cdist(a, b), [_x(2, 2), _x(2, 2)]),
    ("lu", lambda m, a: L(m).lu(a)[1:], [_sq(2, 2)]),
    ("lu_solve", lambda m, a, b: L(m).lu_solve(*L(m).lu_factor(a), b), [_sq(2, 2), _x(2, 1)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    check_gradgrad(fn, *specs)


def test_which_outputs_require_grad():
    for fn in (lambda m, a: m.linalg.slogdet(a), lambda m, a: m.linalg.lstsq(a, a, driver="gelsd"),
               lambda m, a: m.linalg.lu(a), lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)),
               lambda m, a: m.linalg.lu_factor_ex(a), lambda m, a: m.linalg.inv_ex(a),
               lambda m, a: m.geqrf(a), lambda m, a: m.linalg.eigh(a)):
        flags = [[t.requires_grad for t in fn(m, m.eye(3, dtype=m.float64).requires_grad_())]
                 for m in (mindtorch, torch)]
        assert flags[0] == flags[1]
