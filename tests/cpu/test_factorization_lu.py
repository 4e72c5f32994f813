"""LU factorization (linalg.lu_factor(_ex), lu, lu_solve, torch.lu_unpack, torch.lu_solve)
and Householder reflectors (geqrf, householder_product, orgqr, ormqr), triangular_solve,
against PyTorch (the helpers are test_factorization's)."""
import mindtorch
import numpy as np
import pytest
from test_factorization import FLOATS, TOL, L, check, rand, square, transposed

# -- LU ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 4), (4, 2), (0, 3, 3), (3, 0), (1, 1)],
                         ids=str)
def test_lu_factor_and_unpack(shape, dtype):
    a = rand(shape, dtype)
    tol = TOL[dtype]
    for x in (a, transposed(a)) if a.numel() else (a,):
        check(lambda m, t: L(m).lu_factor(t), x, **tol)  # LAPACK's pivots (1-based int32)
        check(lambda m, t: L(m).lu_factor_ex(t), x, **tol)
        check(lambda m, t: L(m).lu(t), x, **tol)
        check(lambda m, t: m.lu_unpack(*L(m).lu_factor(t)), x, **tol)
        check(lambda m, t: m.lu_unpack(*L(m).lu_factor(t), unpack_data=False), x, **tol)
        check(lambda m, t: m.lu_unpack(*L(m).lu_factor(t), unpack_pivots=False), x, **tol)
        check(lambda m, t: m.lu(t), x, **tol)
        check(lambda m, t: tuple(t.lu(get_infos=True)), x, **tol)
    p, lower, upper = mindtorch.linalg.lu(a)
    np.testing.assert_allclose((p @ lower @ upper).numpy(), a.numpy(), **tol)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_lu_solve(left, adjoint):
    a = square((2, 3, 3))
    b = rand((3, 2) if left else (2, 3))
    fn = lambda m, x, y: L(m).lu_solve(*L(m).lu_factor(x), y, left=left,
                                       adjoint=adjoint)
    check(fn, a, b)
    check(fn, a[0], rand((4,) + tuple(b.shape)))  # broadcasting B's batch
    check(fn, a.to(mindtorch.complex128), b.to(mindtorch.complex128))
    check(fn, rand((0, 3, 3)), b)
    check(lambda m, x, y: m.lu_solve(y, *L(m).lu_factor(x)), a, rand((3, 2)))
    check(lambda m, x, y: y.lu_solve(*L(m).lu_factor(x)), a, rand((3, 2)))


def test_lu_errors():
    a = rand((3, 3))
    for fn in (lambda m, t: L(m).lu_factor(t[0]), lambda m, t: L(m).lu_factor(t.int()),
               lambda m, t: L(m).lu_factor(t.half()), lambda m, t: L(m).lu(t, pivot=False),
               lambda m, t: L(m).lu_factor_ex(t * 0).info,
               lambda m, t: m.lu_unpack(t, t[0]),
               lambda m, t: L(m).lu_solve(*L(m).lu_factor(t), t[0]),
               lambda m, t: L(m).lu_solve(*L(m).lu_factor(t), t[:2]),
               lambda m, t: L(m).lu_solve(*L(m).lu_factor(t), t.float()),
               lambda m, t: L(m).lu_solve(L(m).lu_factor(t)[0], t[0].long(), t),
               lambda m, t: L(m).lu_solve(*L(m).lu_factor(t[:, :2]), t)):
        check(fn, a)
    for fn in (lambda m, t: L(m).lu_factor(t * 0),  # (singular: cpu only)
               lambda m, t: L(m).lu_factor_ex(t * 0, check_errors=True),
               lambda m, t: m.lu_unpack(t, (t[0] * 9).int())):
        check(fn, a, meta=False)


def _pivots(values):
    return mindtorch.tensor(values, dtype=mindtorch.int32)


@pytest.mark.parametrize("pivots", [[0, 2, 3], [5, 1, 2], [4, 0, 3], [-7, 2, 3]], ids=str)
def test_lu_solve_refuses_out_of_range_pivots(pivots):
    """Such pivots would reach LAPACK's getrs (a crash): refused, as PyTorch does (the
    lower bound first), on every device with data; only when there is something to solve."""
    LU, p = mindtorch.linalg.lu_factor(square((3, 3)))
    b = rand((3, 2))
    bad = _pivots(pivots)
    for fn in (lambda m, a, q, y: L(m).lu_solve(a, q, y),
               lambda m, a, q, y: L(m).lu_solve(a, q, y.mT, left=False, adjoint=True),
               lambda m, a, q, y: m.lu_solve(y, a, q)):
        check(fn, LU, bad, b, meta=False)
        with pytest.raises(RuntimeError, match="Pivots given to lu_solve must all be"):
            fn(mindtorch, LU, bad, b)
        check(fn, LU, bad, rand((0, 3, 2)))  # an empty result: nothing checked
        check(fn, LU, bad[None].expand(2, 3), rand((2, 3, 0)))
    # (the meta device has no data to check: shapes only)
    r = L(mindtorch).lu_solve(LU.to("meta"), bad.to("meta"), b.to("meta"))
    assert r.shape == (3, 2) and r.device.type == "meta"


@pytest.mark.parametrize("dtype", ["int64", "bool", "float16"])
def test_lu_of_empty_inputs_of_any_dtype(dtype):
    """An empty input never reaches PyTorch's kernel: any dtype factorizes; lu_solve still
    wants a floating point LU."""
    x = mindtorch.ones((0, 3), dtype=getattr(mindtorch, dtype))
    for fn in (lambda m, t: L(m).lu(t), lambda m, t: L(m).lu_factor(t),
               lambda m, t: L(m).lu_factor_ex(t)):
        check(fn, x)
    e = mindtorch.ones((0, 0), dtype=x.dtype)
    check(lambda m, a, b: L(m).lu_solve(a, L(m).lu_factor(a.float())[1], b), e,
          mindtorch.ones((0, 2), dtype=x.dtype))


def test_lu_unpack_pivots():
    """Pivots out of range are refused; with k = min(m, n) = 0 none is read (any shape)."""
    a = rand((3, 3))
    check(lambda m, t, q: m.lu_unpack(t, q), a, _pivots([1, 4, 3]), meta=False)
    check(lambda m, t, q: m.lu_unpack(t, q), a, _pivots([0, 2, 3]), meta=False)
    for lu, piv in (((3, 0), (5,)), ((0, 3), (2,)), ((2, 3, 0), (0,)), ((3, 0), (2, 0))):
        ones = mindtorch.ones(piv, dtype=mindtorch.int32)
        check(lambda m, t, q: m.lu_unpack(t, q), rand(lu), ones)


# -- Householder reflectors, triangular_solve, frobenius/nuclear norms --------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (2, 4, 2), (2, 3, 5), (0, 3, 2)], ids=str)
def test_geqrf_householder(shape, dtype):
    a = rand(shape, dtype)
    tol = TOL[dtype]
    check(lambda m, t: m.geqrf(t), a, **tol)
    check(lambda m, t: t.geqrf(), transposed(a) if a.numel() else a, **tol)
    if shape[-2] >= shape[-1]:
        check(lambda m, t: L(m).householder_product(*m.geqrf(t)), a, **tol)
        check(lambda m, t: m.orgqr(*m.geqrf(t)), a, **tol)
        check(lambda m, t: t.orgqr(m.geqrf(t)[1][..., :1]), a, **tol)
        c = rand(shape[:-2] + (shape[-2], 2), dtype)
        for left, transpose in ((True, False), (True, True)):
            check(lambda m, t, u: m.ormqr(*m.geqrf(t), u, left, transpose), a, c, **tol)
        check(lambda m, t, u: t.ormqr(m.geqrf(t)[1], u.mT, left=False, transpose=True), a, c,
              **tol)


def test_householder_errors():
    a = rand((4, 3))
    for fn in (lambda m, t: m.geqrf(t[0]), lambda m, t: m.geqrf(t.int()),
               lambda m, t: L(m).householder_product(t[0], t[0]),
               lambda m, t: L(m).householder_product(t.mT, t[0, :2]),
               lambda m, t: L(m).householder_product(t, t[:, 0]),
               lambda m, t: L(m).householder_product(t, t[0].double()),
               lambda m, t: L(m).householder_product(t.unsqueeze(0), t[:2]),
               lambda m, t: L(m).householder_product(t.long(), t[0].long()),
               lambda m, t: m.ormqr(t, t[0], t[:2]),
               lambda m, t: m.ormqr(t, t[0, :2], t)):
        check(fn, a)


def test_ormqr_ranks_and_batches():
    a, tau = rand((4, 3)), rand((3,))
    for x, t, c in ((a, tau, rand((1, 4, 2))), (a[None].expand(2, 4, 3), tau[None].expand(2, 3),
                                                 rand((3, 4, 2))),
                    (a[None].expand(2, 4, 3), tau[None].expand(2, 3), rand((1, 4, 2))),
                    (a, tau, rand((1, 4, 2)).float()), (a, tau, rand((1, 5, 2))),
                    (a[None].expand(2, 4, 3), tau[None].expand(2, 3), rand((4, 2)))):
        check(lambda m, p, q, r: m.ormqr(p, q, r), x, t, c)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
def test_triangular_solve(upper, transpose):
    a, b = square((2, 3, 3)), rand((3, 2))
    fn = lambda m, x, y: m.triangular_solve(y, x, upper, transpose)
    check(fn, a, b)
    check(lambda m, x, y: y.triangular_solve(x, upper=upper, transpose=transpose,
                                             unitriangular=True), a[0], b)
    check(fn, a.to(mindtorch.complex128), b.to(mindtorch.complex128))
    for sa, sb, db in (((3, 3), (3,), "float64"), ((3, 3), (4, 2), "float64"),
                       ((3, 3), (3, 2), "float32")):
        check(fn, rand(sa), rand(sb, db))


def test_triangular_solve_out_tuple():
    """out=(solution, cloned_coefficient), PyTorch's triangular_solve_out."""
    from reference import assert_same, same_error, torch
    A = rand((3, 3)).triu() + 3 * mindtorch.eye(3)
    b = rand((3, 2))
    outs = {m: (m.empty(0, dtype=m.float64), m.empty(5, dtype=m.float64))
            for m in (mindtorch, torch)}
    r = {m: m.triangular_solve(b if m is mindtorch else torch.tensor(b.numpy()),
                               A if m is mindtorch else torch.tensor(A.numpy()),
                               out=outs[m]) for m in (mindtorch, torch)}
    assert r[mindtorch][0] is outs[mindtorch][0] and r[mindtorch].cloned_coefficient is \
        outs[mindtorch][1]
    assert_same(outs[mindtorch][0], outs[torch][0])
    assert_same(outs[mindtorch][1], outs[torch][1])
    for make in (lambda m: (m.empty(0, dtype=m.float64), m.empty(0)),
                 lambda m: (m.empty(0),), lambda m: (m.empty(0), 1)):
        same_error(lambda: mindtorch.triangular_solve(mindtorch.ones(3, 1), mindtorch.eye(3),
                                                      out=make(mindtorch)),
                   lambda: torch.triangular_solve(torch.ones(3, 1), torch.eye(3),
                                                  out=make(torch)))
    same_error(lambda: mindtorch.triangular_solve(mindtorch.ones(3, 1, requires_grad=True),
                                                  mindtorch.eye(3), out=make(mindtorch)),
               lambda: torch.triangular_solve(torch.ones(3, 1, requires_grad=True),
                                              torch.eye(3), out=make(torch)))


def test_triangular_solve_warns_once_deprecated():
    """PyTorch's TORCH_WARN_ONCE pointing to linalg.solve_triangular, at the user's line."""
    import warnings
    from mindtorch import _warn_once
    _warn_once._seen.discard("triangular_solve")
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        for _ in range(2):
            mindtorch.triangular_solve(mindtorch.ones(2, 1), mindtorch.eye(2))
    assert len(rec) == 1 and rec[0].filename == __file__
    assert str(rec[0].message).startswith("torch.triangular_solve is deprecated in favor of "
                                          "torch.linalg.solve_triangular")
