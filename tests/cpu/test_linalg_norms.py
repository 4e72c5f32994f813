"""Norms (vector_norm, matrix_norm, norm, cond, frobenius/nuclear norms), products and the
other torch.linalg functions (multi_dot, vecdot, cross, diagonal, vander, tensorinv,
tensorsolve, dist, cdist) against PyTorch (the helpers are test_factorization's)."""
import mindtorch
import numpy as np
import pytest
from reference import torch
from test_factorization import TOL, L, check, rand, square, transposed

# -- vector/matrix norms, cond -------------------------------------------------------------

MATRIX_ORDS = ["fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
def test_matrix_norm(ord, dtype):
    a = rand((2, 3, 4), dtype)
    tol = TOL[dtype]
    check(lambda m, t: L(m).matrix_norm(t, ord), a, **tol)
    check(lambda m, t: L(m).matrix_norm(t, ord=ord, dim=(0, 2), keepdim=True), a, **tol)
    check(lambda m, t: L(m).matrix_norm(t, ord, dim=(-1, 0)), transposed(a), **tol)
    check(lambda m, t: L(m).norm(t, ord, dim=(1, 2)), a, **tol)
    check(lambda m, t: L(m).norm(t[0], ord), a, **tol)
    check(lambda m, t: L(m).matrix_norm(t, ord), rand((0, 3), dtype), **tol)
    check(lambda m, t: L(m).matrix_norm(t, ord), rand((3, 0), dtype), **tol)
    if not a.dtype.is_complex:
        check(lambda m, t: L(m).matrix_norm(t, ord, dtype=m.float64), a, **tol)
    if ord in ("fro", "nuc"):
        check(lambda m, t: m.norm(t, ord, dim=(0, 1)), a, **tol)
        check(lambda m, t: t.norm(p=ord, dim=(-1, -2), keepdim=True), a, **tol)


def test_matrix_norm_default_and_errors():
    a = rand((3, 4))
    check(lambda m, t: L(m).matrix_norm(t), a)
    check(lambda m, t: L(m).matrix_norm(t, dim=(1, 0)), a)
    check(lambda m, t: m.norm(t, "nuc"), a)
    check(lambda m, t: m.norm(t, "fro"), rand((2, 3, 4)))
    for fn in (lambda m, t: L(m).matrix_norm(t[0]), lambda m, t: L(m).matrix_norm(t, 3),
               lambda m, t: L(m).matrix_norm(t, "abc"), lambda m, t: L(m).matrix_norm(t.int()),
               lambda m, t: L(m).matrix_norm(t, dim=(0, 0)),
               lambda m, t: L(m).matrix_norm(t, dim=(0, 1, 1)),
               lambda m, t: L(m).matrix_norm(t.half(), "nuc"),
               lambda m, t: L(m).matrix_norm(t, 1, dtype=m.complex128),
               lambda m, t: m.norm(t.unsqueeze(0), "nuc"),
               lambda m, t: L(m).norm(t.unsqueeze(0), "fro"),
               lambda m, t: L(m).norm(t.unsqueeze(0), 2),
               lambda m, t: L(m).norm(t, dim=(0, 1, 1)),
               lambda m, t: L(m).norm(t[0], "fro")):
        check(fn, a)
    check(lambda m, t: L(m).matrix_norm(t, 1), rand((3, 4)).half(), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3.5, float("inf"), -float("inf"), -1])
def test_vector_norm_and_norm(ord):
    a = rand((2, 3, 4))
    ov = 2 if ord is None else ord
    check(lambda m, t: L(m).vector_norm(t, ov), a)
    check(lambda m, t: L(m).vector_norm(t, ov, dim=(0, -1), keepdim=True), transposed(a))
    check(lambda m, t: L(m).vector_norm(t, ov, dim=1, dtype=m.float64), a.float())
    check(lambda m, t: L(m).norm(t, ord, dim=1), a)
    check(lambda m, t: L(m).norm(t.reshape(-1), ord), a)
    check(lambda m, t: L(m).norm(t), a)
    check(lambda m, t: L(m).vector_norm(t, ov), rand((), "complex64"))
    check(lambda m, t: L(m).vector_norm(t.int(), ov), a)


@pytest.mark.parametrize("ord", [-1.0, -2.5, float("inf"), -float("inf"), -3])
def test_vector_norm_without_identity_message(ord):
    # an empty reduction with no identity: PyTorch prints the order as a Scalar (-1, not -1.0)
    for fn in (lambda m, t: L(m).vector_norm(t, ord), lambda m, t: m.norm(t, p=ord)):
        msgs = []
        for lib in (torch, mindtorch):
            with pytest.raises(RuntimeError) as e:
                fn(lib, lib.ones(0))
            msgs.append(str(e.value))
        assert msgs[1] == msgs[0]


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc"])
def test_cond(p):
    a = square((2, 3, 3))
    check(lambda m, t: L(m).cond(t, p), a)
    check(lambda m, t: L(m).cond(t, p), a.to(mindtorch.complex64), rtol=1e-4, atol=1e-4)
    singular = mindtorch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=mindtorch.float64)
    if p not in (None, 2, -2, "nuc"):  # (svd-based: rounding decides)
        check(lambda m, t: L(m).cond(t, p), singular)
    check(lambda m, t: L(m).cond(t, p), rand((0, 0)))
    check(lambda m, t: L(m).cond(t, p), rand((3, 4)))


def test_cond_errors():
    for fn in (lambda m, t: L(m).cond(t, 3), lambda m, t: L(m).cond(t, "abc"),
               lambda m, t: L(m).cond(t[0]), lambda m, t: L(m).cond(t.int())):
        check(fn, square((3, 3)))


# -- products and the other linalg functions -----------------------------------------------

def test_multi_dot():
    a, b, c, d = rand((2, 3)), rand((3, 5)), rand((5, 1)), rand((1, 4))
    for ts in ([a, b], [a, b, c], [a, b, c, d], [a[0], b, c], [a, b, c[:, 0]],
               [a[0], b, c[:, 0]], [a[0], a[0]]):
        check(lambda m, *t: L(m).multi_dot(list(t)), *ts)
    check(lambda m, *t: L(m).multi_dot(t), rand((0, 3)), rand((3, 2)), rand((2, 0)))
    for ts in ([a], [a, a], [a, b.float()], [a, b.unsqueeze(0)], [a.unsqueeze(0), b],
               [a, b[0], c]):
        check(lambda m, *t: L(m).multi_dot(list(t)), *ts)
    out = mindtorch.empty(0, dtype=mindtorch.float64)
    assert mindtorch.linalg.multi_dot([a, b], out=out) is out


def test_vecdot_cross_diagonal():
    x, y = rand((2, 3)), rand((3,))
    check(lambda m, a, b: L(m).vecdot(a, b), x, y)
    check(lambda m, a, b: L(m).vecdot(a, b), y, x)
    check(lambda m, a, b: L(m).vecdot(a, b, dim=0), x.mT, y.unsqueeze(-1))
    check(lambda m, a, b: L(m).vecdot(a, b), x.to(mindtorch.complex128),
          x.to(mindtorch.complex128) * 1j)
    check(lambda m, a, b: L(m).vecdot(a, b), x.long(), x.long())
    check(lambda m, a, b: L(m).vecdot(a, b), x.float(), x)
    check(lambda m, a, b: L(m).cross(a, b), x, y)
    check(lambda m, a, b: L(m).cross(a, b), y, x)
    check(lambda m, a, b: L(m).cross(a, b, dim=0), x.mT, y.unsqueeze(-1))
    check(lambda m, a, b: L(m).cross(a, b), rand((2, 4)), rand((2, 4)))
    z = rand((2, 3, 4))
    check(lambda m, a: L(m).diagonal(a), z)
    check(lambda m, a: L(m).diagonal(a, offset=1, dim1=0, dim2=2), z)
    check(lambda m, a, b: L(m).matmul(a, b), rand((2, 3, 4)), rand((4, 2)))


def test_vander_tensorinv_tensorsolve():
    x = rand((2, 3))
    check(lambda m, a: L(m).vander(a), x)
    check(lambda m, a: L(m).vander(a, N=5), x[0])
    check(lambda m, a: L(m).vander(a), mindtorch.tensor([1, 2, 3], dtype=mindtorch.int32))
    for n in (0, 1):
        check(lambda m, a: L(m).vander(a, N=n), x)
    check(lambda m, a: L(m).vander(a), x.bool())
    a = square((6, 6)).reshape(6, 2, 3)
    check(lambda m, t: L(m).tensorinv(t, ind=1), a)
    check(lambda m, t: L(m).tensorinv(t.reshape(2, 3, 2, 3)), a)
    check(lambda m, t: L(m).tensorinv(t, ind=0), a)
    check(lambda m, t: L(m).tensorinv(t.reshape(4, 9)), a)
    b = rand((6,))
    check(lambda m, t, u: L(m).tensorsolve(t, u), a, b)
    check(lambda m, t, u: L(m).tensorsolve(t.reshape(2, 3, 6), u.reshape(2, 3)), a, b)
    check(lambda m, t, u: L(m).tensorsolve(t.reshape(2, 3, 2, 3), u.reshape(2, 3), dims=(0,)),
          a, b)
    check(lambda m, t, u: L(m).tensorsolve(t, u[:4]), a, b)


@pytest.mark.parametrize("p", [0, 1, 2, 3.5, float("inf")])
def test_dist_cdist(p):
    x, y = rand((3, 4)), rand((4,))
    check(lambda m, a, b: m.dist(a, b, p), x, y)
    check(lambda m, a, b: a.dist(b, p=p), transposed(x), x)
    check(lambda m, a, b: m.dist(a, b), x.float(), y)
    x1, x2 = rand((2, 3, 4)), rand((5, 4))
    check(lambda m, a, b: m.cdist(a, b, p=p), x1, x2)
    check(lambda m, a, b: m.cdist(a, b, p), rand((2, 1, 3, 2)), rand((4, 5, 2)))
    check(lambda m, a, b: m.cdist(a, b, p, "use_mm_for_euclid_dist"), x1.float(),
          x2.float(), rtol=1e-4, atol=1e-4)
    check(lambda m, a, b: m.cdist(a, b, p), rand((0, 4)), x2)


def test_dist_cdist_errors():
    x = rand((3, 4))
    for fn in (lambda m, a: m.dist(a.int(), a.int()), lambda m, a: m.cdist(a[0], a),
               lambda m, a: m.cdist(a, a[:, :2]), lambda m, a: m.cdist(a.int(), a.int()),
               lambda m, a: m.cdist(a, a, p=-1), lambda m, a: m.cdist(a, a.float()),
               lambda m, a: m.cdist(a.to(m.complex64), a.to(m.complex64)),
               lambda m, a: m.cdist(a.half(), a.half())):
        check(fn, x)
    for mode in ("fast", None):
        with pytest.raises(ValueError, match=f"{mode} is not a valid value for compute_mode"):
            mindtorch.cdist(x, x, compute_mode=mode)


# -- frobenius/nuclear norms ---------------------------------------------------------------


def test_frobenius_nuclear_norm_and_addmv_():
    x = rand((2, 3, 4))
    check(lambda m, t: m.frobenius_norm(t, (0, 1)), x)
    check(lambda m, t: m.frobenius_norm(t, 1, keepdim=True), x)
    check(lambda m, t: m.frobenius_norm(t, (0, 1, 2)), x)
    check(lambda m, t: m.nuclear_norm(t), x)
    check(lambda m, t: m.nuclear_norm(t, True), x)
    check(lambda m, t: m.nuclear_norm(t, (0, 2), keepdim=True), x)
    check(lambda m, t: m.nuclear_norm(t[0, 0]), x)
    check(lambda m, s, a, v: m.addmv_(s, a, v, beta=2), rand((3,)), rand((3, 4)), rand((4,)))


# -- check order and special values ---------------------------------------------------------

def test_vecdot_and_cross_check_order():
    """vecdot: dtypes, broadcasting, then dim; cross: ranks first (PyTorch refuses inputs of
    different ranks), torch.cross's default dim is self's first of size 3."""
    f, i = rand((2, 3)), rand((2, 3), "int64")
    for fn in (lambda m, f, i: L(m).vecdot(i, f, dim=5), lambda m, f, i: L(m).vecdot(f, i, dim=5),
               lambda m, f, i: L(m).vecdot(f, f.float(), dim=5),
               lambda m, f, i: L(m).vecdot(f, f[:, :2], dim=5),
               lambda m, f, i: L(m).vecdot(f, f[0], dim=5),
               lambda m, f, i: m.cross(f[0], f), lambda m, f, i: m.cross(f, f[0], dim=1),
               lambda m, f, i: m.cross(f[0], f, dim=5), lambda m, f, i: L(m).cross(f[0], f, dim=5),
               lambda m, f, i: L(m).cross(f[0], f), lambda m, f, i: m.cross(f[0], i, dim=-1),
               lambda m, f, i: m.cross(f.mT, f[:1].mT), lambda m, f, i: m.cross(f[0, 0], f[0]),
               lambda m, f, i: m.cross(f[:1], f), lambda m, f, i: m.cross(f, i, dim=1)):
        check(fn, f, i)


@pytest.mark.parametrize("fn", [
    lambda m: L(m).cross(m.ones(2), m.ones(2)), lambda m: m.cross(m.ones(3, 2), m.ones(3, 2), 1),
    lambda m: L(m).cross(m.ones(2, 3), m.ones(2, 3), dim=-2),
    lambda m: L(m).vecdot(m.ones(2), m.ones(1)), lambda m: L(m).vecdot(m.ones(0), m.ones(1)),
    lambda m: L(m).vecdot(m.ones(1, 2), m.ones(1))])
def test_vecdot_cross_messages(fn):
    # cross names dim as given (-1, not its wrapped value); 1-D vecdot is vdot: no broadcast
    def run(lib):
        try:
            return fn(lib).tolist()
        except RuntimeError as e:
            return str(e)
    assert run(mindtorch) == run(torch)


def test_norm_dim_length_checked_before_wrapping():
    x = rand((2, 3, 4))
    for fn in (lambda m, t: L(m).matrix_norm(t, dim=(0, 3, 3)),
               lambda m, t: L(m).matrix_norm(t, "nuc", dim=(5,)),
               lambda m, t: L(m).matrix_norm(t, 2, dim=(0, 3)),
               lambda m, t: m.nuclear_norm(t, (0, 3, 3)), lambda m, t: m.nuclear_norm(t, dim=(5,)),
               lambda m, t: L(m).norm(t, "nuc", dim=(0, 3, 3)),
               lambda m, t: L(m).norm(t, 2, dim=(0, 3, 3))):
        check(fn, x)


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist", "use_mm_for_euclid_dist_if_necessary"])
def test_cdist_matrix_product_path(mode):
    """p = 2 through PyTorch's matrix product (over 25 rows, or asked for): its rounding,
    any float dtype (half too), its dtype-mismatch error, zero gradients at zero distance;
    empty inputs of any float dtypes return before the dtype matters."""
    x1, x2 = rand((2, 30, 3)), rand((4, 3))
    x1[0, :4] = x2  # zero distances
    # (a zero distance is the root of a rounding error of either library's product)
    check(lambda m, a, b: m.cdist(a, b, compute_mode=mode), x1, x2, rtol=1e-12, atol=1e-7)
    check(lambda m, a, b: m.cdist(a, b, compute_mode=mode), x1[0, :5].mT, x2[:2].mT)
    for dt in ("half", "bfloat16"):
        check(lambda m, a, b: m.cdist(getattr(a, dt)(), getattr(b, dt)(), compute_mode=mode),
              x1, x2)
    check(lambda m, a, b: m.cdist(a, b.float(), compute_mode=mode), x1, x2)
    check(lambda m, a, b: m.cdist(a.half(), b.float(), compute_mode=mode), x1[:, :0], x2)
    got, want = [], []
    for lib, out in ((mindtorch, got), (torch, want)):
        a = (x1 if lib is mindtorch else torch.from_numpy(x1.numpy())).clone().requires_grad_()
        b = (x2 if lib is mindtorch else torch.from_numpy(x2.numpy())).clone().requires_grad_()
        lib.cdist(a, b, compute_mode=mode).pow(3).sum().backward()
        out += [a.grad.numpy(), b.grad.numpy()]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, float("inf"), float("nan")], ids=str)
def test_cdist_special_values(p):
    """p = 0 propagates NaN, p = inf skips it (PyTorch's kernels); a NaN p is refused."""
    inf, nan = float("inf"), float("nan")
    x = mindtorch.tensor([[inf, 1.0], [nan, 0], [1e30, 2]], dtype=mindtorch.float64)
    y = mindtorch.tensor([[inf, 1.0], [0, nan]], dtype=mindtorch.float64)
    check(lambda m, a, b: m.cdist(a, b, p=p), x, y)


def test_dtype_and_order_checked_before_dims():
    x = rand((2, 3, 4))
    for fn in (lambda m, t: L(m).matrix_norm(t, 0, dim=(0, 3)),
               lambda m, t: L(m).matrix_norm(t.long(), 0, dim=(0, 3)),
               lambda m, t: L(m).matrix_norm(t, 3, dim=(0, 0)),
               lambda m, t: m.frobenius_norm(t.long(), (0, 4)),
               lambda m, t: m.frobenius_norm(t, (0, 4)),
               lambda m, t: m.cdist(t.to(m.bfloat16), t), lambda m, t: m.cdist(t, t.half()),
               lambda m, t: m.cross(t[0, :, :3].bool(), t[0, :, :3].float(), dim=1),
               lambda m, t: L(m).matrix_rank(t[0, :, :3].to(m.bfloat16), atol=0.5, rtol=0.1),
               lambda m, t: L(m).matrix_rank(t[0, :, :3].half(), hermitian=True, atol=0.5),
               lambda m, t: L(m).matrix_rank(t[0, :, :3].half())):
        check(fn, x)
