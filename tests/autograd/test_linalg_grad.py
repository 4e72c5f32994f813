"""Gradients of products and the linalg composites, against PyTorch (values and grads),
finite differences (gradcheck) and the meta device (grad shapes/dtypes)."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, randn
from reference import assert_same

M = mindtorch


def _x(*shape):
    return randn(*shape)


CASES = [
    # (id, fn(module, *tensors), specs)
    ("mm", lambda m, a, b: a.mm(b), [_x(2, 3), _x(3, 4)]),
    ("mm_nc", lambda m, a, b: m.mm(a, b), [nc(_x(2, 3)), _x(4, 3).T]),
    ("mm_empty_k", lambda m, a, b: a.mm(b), [np.zeros((2, 0)), np.zeros((0, 3))]),
    ("mm_empty_n", lambda m, a, b: a.mm(b), [np.zeros((0, 3)), _x(3, 2)]),
    ("mm_const", lambda m, a, b: a.mm(b), [_x(2, 3), const(_x(3, 2))]),
    ("bmm", lambda m, a, b: a.bmm(b), [_x(2, 2, 3), nc(_x(2, 3, 2))]),
    ("bmm_empty", lambda m, a, b: a.bmm(b), [np.zeros((0, 2, 3)), np.zeros((0, 3, 2))]),
    ("mv", lambda m, a, v: a.mv(v), [nc(_x(3, 4)), _x(4)]),
    ("mv_empty", lambda m, a, v: a.mv(v), [np.zeros((3, 0)), np.zeros(0)]),
    ("dot", lambda m, a, b: a.dot(b), [_x(4), nc(_x(4))]),
    ("dot_empty", lambda m, a, b: m.dot(a, b), [np.zeros(0), np.zeros(0)]),
    ("vdot", lambda m, a, b: m.vdot(a, b), [_x(4), _x(4)]),
    ("matmul_1x1", lambda m, a, b: a @ b, [_x(3), _x(3)]),
    ("matmul_1x2", lambda m, a, b: m.matmul(a, b), [_x(3), _x(3, 2)]),
    ("matmul_2x1", lambda m, a, b: m.matmul(a, b), [_x(2, 3), _x(3)]),
    ("matmul_2x2", lambda m, a, b: a.matmul(b), [nc(_x(2, 3)), _x(3, 2)]),
    ("matmul_1x3", lambda m, a, b: a @ b, [_x(3), _x(2, 3, 2)]),
    ("matmul_3x1", lambda m, a, b: a @ b, [_x(2, 2, 3), _x(3)]),
    ("matmul_3x2", lambda m, a, b: a @ b, [nc(_x(2, 2, 3)), _x(3, 2)]),
    ("matmul_2x3", lambda m, a, b: a @ b, [_x(2, 3), _x(2, 3, 2)]),
    ("matmul_bcast", lambda m, a, b: a @ b, [_x(2, 1, 2, 3), _x(3, 3, 2)]),
    ("matmul_4x1", lambda m, a, b: a @ b, [_x(2, 1, 2, 3), _x(3)]),
    ("matmul_empty", lambda m, a, b: a @ b, [np.zeros((0, 2, 3)), _x(3, 2)]),
    ("addmm", lambda m, s, a, b: m.addmm(s, a, b), [_x(2, 2), _x(2, 3), _x(3, 2)]),
    ("addmm_coef", lambda m, s, a, b: m.addmm(s, a, b, beta=0.5, alpha=-2),
     [_x(2), nc(_x(2, 3)), _x(3, 2)]),
    ("addmm_beta0", lambda m, s, a, b: m.addmm(s, a, b, beta=0), [_x(2, 2), _x(2, 3), _x(3, 2)]),
    ("addmm_method", lambda m, s, a, b: s.addmm(a, b, alpha=3), [_x(1, 2), _x(2, 3), _x(3, 2)]),
    ("addmv", lambda m, s, a, v: m.addmv(s, a, v, beta=2, alpha=0.5), [_x(2), _x(2, 3), _x(3)]),
    ("addmv_bcast", lambda m, s, a, v: m.addmv(s, a, v), [_x(1), nc(_x(2, 3)), _x(3)]),
    ("addr", lambda m, s, a, b: m.addr(s, a, b, beta=0.5, alpha=2), [_x(2, 3), _x(2), _x(3)]),
    ("addr_bcast", lambda m, s, a, b: m.addr(s, a, b), [_x(3), _x(2), nc(_x(3))]),
    ("baddbmm", lambda m, s, a, b: m.baddbmm(s, a, b, beta=0.5, alpha=2),
     [_x(2, 2, 2), _x(2, 2, 3), _x(2, 3, 2)]),
    ("baddbmm_bcast", lambda m, s, a, b: m.baddbmm(s, a, b), [_x(2), _x(2, 2, 3), _x(2, 3, 2)]),
    ("addbmm", lambda m, s, a, b: m.addbmm(s, a, b, beta=-1, alpha=0.5),
     [_x(2, 2), nc(_x(3, 2, 3)), _x(3, 3, 2)]),
    ("inner", lambda m, a, b: m.inner(a, b), [_x(2, 3), _x(4, 3)]),
    ("inner_1d", lambda m, a, b: m.inner(a, b), [_x(3), _x(3)]),
    ("inner_0d", lambda m, a, b: m.inner(a, b), [np.array(1.5), _x(2, 3)]),
    ("outer", lambda m, a, b: m.outer(a, b), [_x(2), nc(_x(3))]),
    ("ger", lambda m, a, b: m.ger(a, b), [_x(2), _x(3)]),
    ("tril", lambda m, a: a.tril(), [_x(3, 4)]),
    ("tril_diag", lambda m, a: m.tril(a, -1), [nc(_x(2, 3, 3))]),
    ("triu", lambda m, a: a.triu(1), [_x(3, 4)]),
    ("triu_empty", lambda m, a: a.triu(), [np.zeros((0, 3))]),
    ("diag_1d", lambda m, a: m.diag(a), [_x(3)]),
    ("diag_1d_offset", lambda m, a: m.diag(a, -2), [nc(_x(3))]),
    ("diag_2d", lambda m, a: m.diag(a, 1), [_x(3, 4)]),
    ("diag_embed", lambda m, a: m.diag_embed(a), [_x(2, 3)]),
    ("diag_embed_dims", lambda m, a: m.diag_embed(a, 1, 0, 2), [nc(_x(2, 3))]),
    ("diag_embed_neg", lambda m, a: m.diag_embed(a, -1, -1, 0), [_x(2, 3)]),
    ("diagflat", lambda m, a: m.diagflat(a), [_x(2, 2)]),
    ("diagflat_offset", lambda m, a: m.diagflat(a, 1), [_x(3)]),
    ("trace", lambda m, a: a.trace(), [_x(3, 3)]),
    ("trace_rect", lambda m, a: m.trace(a), [nc(_x(2, 3))]),
    ("tensordot", lambda m, a, b: m.tensordot(a, b, dims=([1, 0], [0, 2])),
     [_x(3, 2, 2), _x(2, 2, 3)]),
    ("tensordot_int", lambda m, a, b: m.tensordot(a, b, 1), [_x(2, 3), nc(_x(3, 2))]),
    ("tensordot_0", lambda m, a, b: m.tensordot(a, b, 0), [_x(2), _x(3)]),
    ("kron", lambda m, a, b: m.kron(a, b), [_x(2, 2), _x(2, 3)]),
    ("kron_ranks", lambda m, a, b: m.kron(a, b), [_x(3), _x(2, 2)]),
    ("cross", lambda m, a, b: m.cross(a, b, dim=1), [_x(2, 3), nc(_x(2, 3))]),
    ("cross_bcast", lambda m, a, b: m.cross(a, b, dim=-1), [_x(1, 3), _x(2, 3)]),
    ("cross_method", lambda m, a, b: a.cross(b, 0), [_x(3, 2), _x(3, 2)]),
    ("matrix_power_0", lambda m, a: m.matrix_power(a, 0), [_x(2, 2)]),
    ("matrix_power_1", lambda m, a: a.matrix_power(1), [_x(3, 3)]),
    ("matrix_power_3", lambda m, a: m.matrix_power(a, 3), [nc(_x(2, 2))]),
    ("matrix_power_batch", lambda m, a: m.matrix_power(a, 2), [_x(2, 2, 2)]),
    ("chain_matmul", lambda m, a, b, c: m.chain_matmul(a, b, c), [_x(2, 3), _x(3, 2), _x(2, 2)]),
    ("chain_matmul_1", lambda m, a: m.chain_matmul(a), [_x(2, 3)]),
    ("einsum_mm", lambda m, a, b: m.einsum("ij,jk->ik", a, b), [_x(2, 3), nc(_x(3, 2))]),
    ("einsum_batch", lambda m, a, b: m.einsum("bij,bjk->bik", a, b), [_x(2, 2, 3), _x(2, 3, 2)]),
    ("einsum_trace", lambda m, a: m.einsum("ii", a), [_x(3, 3)]),
    ("einsum_diag", lambda m, a: m.einsum("ii->i", a), [_x(3, 3)]),
    ("einsum_sum", lambda m, a: m.einsum("ij->", a), [_x(2, 3)]),
    ("einsum_ellipsis", lambda m, a, b: m.einsum("...j,j->...", a, b), [_x(2, 2, 3), _x(3)]),
    ("einsum_outer3", lambda m, a, b, c: m.einsum("i,j,k->ijk", a, b, c), [_x(2), _x(3), _x(2)]),
    ("einsum_bcast", lambda m, a, b: m.einsum("ij,kj->ik", a, b), [_x(1, 3), _x(2, 3)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_grads(fn, specs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (chain_matmul's deprecation)
        check_grads(fn, *specs)


@pytest.mark.parametrize("name,fn,specs", [
    ("mm", lambda m, a, b: a.mm(b), [_x(2, 3), _x(3, 4)]),
    ("bmm", lambda m, a, b: a.bmm(b), [_x(2, 2, 3), _x(2, 3, 2)]),
    ("matmul", lambda m, a, b: a @ b, [_x(2, 2, 3), _x(3)]),
    ("addmm", lambda m, s, a, b: m.addmm(s, a, b, beta=2), [_x(2), _x(2, 3), _x(3, 2)]),
    ("einsum", lambda m, a, b: m.einsum("ij,kj->ik", a, b), [_x(2, 3), _x(2, 3)]),
])
def test_float32(name, fn, specs):
    check_grads(fn, *specs, dtype="float32")


def test_complex_products_match_torch():
    """Conjugates in the formulas (mm, mv, dot, vdot): PyTorch's convention for complex."""
    rng = np.random.default_rng(3)

    def c(*shape):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    a, b, v, w = c(2, 3), c(3, 2), c(3), c(3)
    out = []
    for m in (M, torch):
        ta, tb, tv, tw = (m.tensor(x, dtype=m.complex128, requires_grad=True)
                          for x in (a, b, v, w))
        r = (ta.mm(tb).sum() + ta.mv(tv).sum() * 1j + tv.dot(tw) + m.vdot(tv, tw) * (2 - 1j)
             + m.addmm(ta.mm(tb), tb.t(), ta.t(), alpha=1j, beta=2 - 1j).sum()
             + m.addmv(tw[:2] * 1, tb.t() * 1, tv, alpha=2j).sum())  # complex alpha/beta
        seed = m.ones((), dtype=m.complex128)  # as backward from r's real part
        out.append(m.autograd.grad(r, (ta, tb, tv, tw), seed))
    assert_same(list(out[0]), list(out[1]))


def test_inplace_on_nonleaf():
    def fn(m, s, a, b):
        y = s * 1
        y.addmm_(a, b, alpha=2)
        return y.tril_()
    check_grads(fn, _x(2, 2), _x(2, 3), _x(3, 2))


@pytest.mark.parametrize("fn,expected", [
    (lambda m, a: a.mm(a), "MmBackward0"),
    (lambda m, a: a.unsqueeze(0).bmm(a.unsqueeze(0)), "BmmBackward0"),
    (lambda m, a: a.mv(a[0]), "MvBackward0"),
    (lambda m, a: a[0].dot(a[1]), "DotBackward0"),
    (lambda m, a: m.vdot(a[0], a[1]), "VdotBackward0"),
    (lambda m, a: a @ a, "MmBackward0"),
    (lambda m, a: a[0] @ a, "SqueezeBackward4"),  # a row times a matrix: mm then squeeze_
    (lambda m, a: m.addmm(a, a, a), "AddmmBackward0"),
    (lambda m, a: m.addmv(a[0], a, a[1]), "AddmvBackward0"),
    (lambda m, a: m.addr(a, a[0], a[1]), "AddrBackward0"),
    (lambda m, a: m.baddbmm(a, a.unsqueeze(0), a.unsqueeze(0)), "BaddbmmBackward0"),
    (lambda m, a: m.addbmm(a, a.unsqueeze(0), a.unsqueeze(0)), "AddbmmBackward0"),
    (lambda m, a: a.tril(), "TrilBackward0"),
    (lambda m, a: a.triu(), "TriuBackward0"),
    (lambda m, a: m.diag(a[0]), "DiagEmbedBackward0"),
    (lambda m, a: m.diagflat(a), "DiagEmbedBackward0"),
    (lambda m, a: m.diag_embed(a), "DiagEmbedBackward0"),
    (lambda m, a: a.trace(), "TraceBackward0"),
    (lambda m, a: m.cross(a, a, dim=0), "LinalgCrossBackward0"),
    (lambda m, a: m.matrix_power(a, 3), "MmBackward0"),
])
def test_node_names(fn, expected):
    for m in (M, torch):
        a = m.ones(3, 3, requires_grad=True)
        assert type(fn(m, a).grad_fn).__name__ == expected


def test_matrix_power_0_gradient_is_zero():
    for m in (M, torch):
        a = m.ones(2, 2, requires_grad=True)
        r = m.matrix_power(a, 0)
        assert r.requires_grad
        r.sum().backward()
        assert a.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]


GRADGRAD = [
    ("mm", lambda m, a, b: a.mm(b), [_x(2, 3), _x(3, 2)]),
    ("bmm", lambda m, a, b: a.bmm(b), [_x(2, 2, 3), _x(2, 3, 2)]),
    ("mv", lambda m, a, v: a.mv(v), [_x(2, 3), _x(3)]),
    ("dot", lambda m, a, b: a.dot(b), [_x(3), _x(3)]),
    ("matmul", lambda m, a, b: a @ b, [_x(2, 2, 3), _x(3, 2)]),
    ("addmm", lambda m, s, a, b: m.addmm(s, a, b, beta=0.5, alpha=2),
     [_x(2, 2), _x(2, 3), _x(3, 2)]),
    ("addr", lambda m, s, a, b: m.addr(s, a, b, alpha=2), [_x(2, 3), _x(2), _x(3)]),
    ("addbmm", lambda m, s, a, b: m.addbmm(s, a, b), [_x(2, 2), _x(2, 2, 3), _x(2, 3, 2)]),
    ("trace", lambda m, a: a.trace(), [_x(2, 2)]),
    ("diag_embed", lambda m, a: m.diag_embed(a), [_x(2, 2)]),
    ("cross", lambda m, a, b: m.cross(a, b, dim=0), [_x(3), _x(3)]),
    ("einsum", lambda m, a, b: m.einsum("ij,jk->ik", a, b), [_x(2, 3), _x(3, 2)]),
]


@pytest.mark.parametrize("fn,specs", [c[1:] for c in GRADGRAD], ids=[c[0] for c in GRADGRAD])
def test_gradgrad(fn, specs):
    check_gradgrad(fn, *specs)
