"""Factorizations and solvers (torch.linalg and the torch.* spellings) against PyTorch:
values where torch's are determined (and LAPACK's conventions where users depend on them:
R's diagonal signs in qr, eigenvalue order), invariants where torch leaves signs or phases
free (reconstruction, orthogonality), batches with broadcasting, non-contiguous and empty
inputs, dtypes, error classes (LinAlgError for singular matrices), out=, and the meta
device's shapes/dtypes."""
import warnings

import mindtorch
import numpy as np
import pytest
from reference import assert_same, to_torch, torch

RNG = np.random.default_rng(0)
FLOATS = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": dict(rtol=1e-4, atol=1e-4), "complex64": dict(rtol=1e-4, atol=1e-4),
       "float64": dict(rtol=1e-8, atol=1e-8), "complex128": dict(rtol=1e-8, atol=1e-8)}


def rand(shape, dtype="float64"):
    dt = getattr(mindtorch, dtype)
    data = RNG.standard_normal(shape)
    if dt.is_complex:
        data = data + 1j * RNG.standard_normal(shape)
    return mindtorch.tensor(data.astype(dt.np) if dt.kind in "fc" else
                            np.round(data * 3).astype(dt.np))


def square(shape, dtype="float64"):
    """Well-conditioned square matrices (diagonally dominated)."""
    n = shape[-1]
    return rand(shape, dtype) + n * mindtorch.eye(n, dtype=getattr(mindtorch, dtype))


def spd(shape, dtype="float64"):
    a = rand(shape, dtype)
    return a @ a.mH + mindtorch.eye(shape[-1], dtype=getattr(mindtorch, dtype))


def transposed(t):
    """The same values in a non-contiguous (transposed) layout."""
    return t.mT.contiguous().mT


def _base(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, meta=True, **tol):
    """fn(lib, *tensors) agrees with torch (values, dtypes, shapes; named tuples field by
    field), or both raise the same builtin error class; on meta, the same shapes/dtypes."""
    ths = [to_torch(m) if isinstance(m, mindtorch.Tensor) else m for m in mts]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - torch's error class must be matched
        with pytest.raises(_base(e)):
            fn(mindtorch, *mts)
        if meta:
            with pytest.raises(_base(e)):
                fn(mindtorch, *_meta(mts))
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = fn(mindtorch, *mts)
    if isinstance(expected, tuple):
        assert type(got).__name__ == type(expected).__name__
        if hasattr(expected, "_fields"):
            assert got._fields == expected._fields
    assert_same(got, expected, **tol)
    if meta:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = fn(mindtorch, *_meta(mts))
        for c, x in zip(_flat(got), _flat(m)):
            assert x.device.type == "meta"
            assert (tuple(x.shape), x.dtype) == (tuple(c.shape), c.dtype)
    return got


def _meta(mts):
    return [m.to("meta") if isinstance(m, mindtorch.Tensor) else m for m in mts]


def _flat(r):
    return list(r) if isinstance(r, tuple) else [r]


L = lambda m: m.linalg


# -- inverse, determinants, solvers --------------------------------------------------------

SQUARE_SHAPES = [(3, 3), (2, 4, 4), (2, 1, 3, 3), (0, 3, 3), (2, 0, 0), (1, 1)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SQUARE_SHAPES, ids=str)
def test_inverse_and_determinants(shape, dtype):
    a = square(shape, dtype)
    tol = TOL[dtype]
    for x in (a, transposed(a)) if a.ndim >= 2 and a.numel() else (a,):
        check(lambda m, t: L(m).inv(t), x, **tol)
        check(lambda m, t: L(m).inv_ex(t), x, **tol)
        check(lambda m, t: m.inverse(t), x, **tol)
        check(lambda m, t: t.inverse(), x, **tol)
        check(lambda m, t: L(m).det(t), x, **tol)
        check(lambda m, t: m.det(t), x, **tol)
        check(lambda m, t: t.det(), x, **tol)
        check(lambda m, t: L(m).slogdet(t), x, **tol)
        check(lambda m, t: m.slogdet(t), x, **tol)
        check(lambda m, t: t.slogdet(), x, **tol)
        check(lambda m, t: m.logdet(t), x, **tol)
        check(lambda m, t: t.logdet(), x, **tol)


def test_determinant_signs_and_singular_matrices():
    a = mindtorch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]],
                          [[0.0, 1.0], [1.0, 0.0]]], dtype=mindtorch.float64)
    for fn in (lambda m, t: m.det(t), lambda m, t: m.slogdet(t), lambda m, t: m.logdet(t),
               lambda m, t: L(m).inv_ex(t).info):
        check(fn, a)


@pytest.mark.parametrize("dtype", [mindtorch.float32, mindtorch.float64], ids=str)
def test_determinant_of_small_integer_matrices_is_exact_as_torch(dtype):
    """det is the product of an LU diagonal (NumPy's det, exp of log|det|, gave
    -2.0000000000000004 for [[1, 2], [3, 4]] where torch prints -2.)."""
    a = mindtorch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[2.0, -1.0], [1.0, 3.0]],
                          [[4.0, 1.0], [2.0, 3.0]]], dtype=dtype)
    assert mindtorch.det(a).tolist() == torch.det(to_torch(a)).tolist() == [-2.0, 7.0, 10.0]
    b = mindtorch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], dtype=dtype)
    assert abs(mindtorch.det(b).item() + 3) < 1e-5


@pytest.mark.parametrize("fn", [
    lambda m, t: L(m).inv(t), lambda m, t: m.inverse(t),
    lambda m, t: L(m).solve(t, t[..., 0]), lambda m, t: L(m).matrix_power(t, -2),
    lambda m, t: L(m).cholesky(t), lambda m, t: m.cholesky(t),
], ids=["inv", "inverse", "solve", "matrix_power", "cholesky", "torch.cholesky"])
@pytest.mark.parametrize("batched", [False, True])
def test_linalg_error_on_singular(fn, batched):
    a = mindtorch.zeros((2, 3, 3) if batched else (3, 3), dtype=mindtorch.float64)
    with pytest.raises(mindtorch.linalg.LinAlgError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(mindtorch, a)
    assert isinstance(e.value, RuntimeError)
    assert type(e.value).__name__ == type(e.value).__qualname__ == "_LinAlgError"  # as torch's
    assert ("Batch element 0" in str(e.value)) == batched
    check(fn, a, meta=False)  # torch raises too


def test_ex_variants_report_info():
    a = mindtorch.stack([mindtorch.eye(3, dtype=mindtorch.float64),
                         mindtorch.zeros(3, 3, dtype=mindtorch.float64),
                         -mindtorch.eye(3, dtype=mindtorch.float64)])
    inv, info = mindtorch.linalg.inv_ex(a)
    assert info.tolist() == [0, 1, 0] and info.dtype is mindtorch.int32
    _, info = mindtorch.linalg.cholesky_ex(a)
    assert info.tolist() == [0, 1, 1]
    check(lambda m, t: L(m).cholesky_ex(t).info, a)
    _, info = mindtorch.linalg.solve_ex(a, mindtorch.ones(3, 3, dtype=mindtorch.float64))
    assert info.tolist() == [0, 1, 0]
    with pytest.raises(mindtorch.linalg.LinAlgError, match="Batch element 1"):
        mindtorch.linalg.inv_ex(a, check_errors=True)


SOLVE_SHAPES = [  # A, B: vectors, batches of vectors, matrices, broadcasting, empties
    ((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3)), ((2, 3, 3), (3,)),
    ((2, 3, 3), (3, 4)), ((3, 3), (2, 3, 1)), ((2, 1, 3, 3), (4, 3, 2)), ((0, 3, 3), (3, 2)),
    ((3, 3), (3, 0)), ((0, 0), (0, 2)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shapes", SOLVE_SHAPES, ids=str)
def test_solve(shapes, dtype):
    a, b = square(shapes[0], dtype), rand(shapes[1], dtype)
    tol = TOL[dtype]
    check(lambda m, x, y: L(m).solve(x, y), a, b, **tol)
    check(lambda m, x, y: L(m).solve_ex(x, y), a, b, **tol)
    check(lambda m, x, y: L(m).solve(x, y), transposed(a), b, **tol)
    if b.ndim >= 2:
        check(lambda m, x, y: L(m).solve(x, y.mT, left=False), a, b, **tol)


@pytest.mark.parametrize("shapes, dtypes", [
    (((3, 3), (4,)), ("float64", "float64")), (((3, 3), (3,)), ("float32", "float64")),
    (((3, 3), (3,)), ("int64", "int64")), (((3,), (3,)), ("float64", "float64")),
    (((3, 4), (3,)), ("float64", "float64")), (((3, 3), ()), ("float64", "float64")),
    (((2, 3, 3), (4, 3, 1)), ("float64", "float64")), (((3, 3), (3,)), ("float16", "float16")),
])
def test_solve_errors(shapes, dtypes):
    a, b = rand(shapes[0], dtypes[0]), rand(shapes[1], dtypes[1])
    check(lambda m, x, y: L(m).solve(x, y), a, b)
    check(lambda m, x, y: L(m).solve(x, y, left=False), a, b)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular(upper, left, unit):
    a = square((2, 3, 3))  # the other triangle is ignored
    b = rand((2, 3, 4) if left else (2, 4, 3))
    fn = lambda m, x, y: L(m).solve_triangular(x, y, upper=upper, left=left,
                                               unitriangular=unit)
    check(fn, a, b)
    check(fn, transposed(a), b.float().double())
    check(fn, a[0], b)  # broadcasting A
    check(fn, a.to(mindtorch.complex128), b.to(mindtorch.complex128))


def test_solve_triangular_edge_cases():
    tri = lambda m, x, y, **kw: L(m).solve_triangular(x, y, upper=True, **kw)
    zero_diag = mindtorch.tensor([[1.0, 2.0], [0.0, 0.0]])  # torch gives inf/nan, no error
    got = mindtorch.linalg.solve_triangular(zero_diag, mindtorch.ones(2, 1), upper=True)
    assert not bool(got.isfinite().all())
    check(tri, rand((0, 3, 3)), rand((3, 2)))
    check(tri, rand((3, 3), "int64"), rand((3, 2), "int64"))
    check(tri, rand((3, 3)), rand((3,)))
    check(tri, rand((3, 3)), rand((4, 2)))
    check(lambda m, x, y: L(m).solve_triangular(x, y), rand((3, 3)), rand((3, 2)), meta=False)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2), (0, 0)], ids=str)
def test_cholesky(shape, dtype):
    a = spd(shape, dtype)
    tol = TOL[dtype]
    for upper in (False, True):
        check(lambda m, t: L(m).cholesky(t, upper=upper), a, **tol)
        check(lambda m, t: L(m).cholesky_ex(t, upper=upper), a, **tol)
        check(lambda m, t: m.cholesky(t, upper), a, **tol)
        check(lambda m, t: t.cholesky(upper=upper), a, **tol)
        c = mindtorch.linalg.cholesky(a, upper=upper)
        b = rand(shape[:-1] + (2,), dtype)
        check(lambda m, x, y: m.cholesky_solve(y, x, upper), c, b, **tol)
        check(lambda m, x, y: y.cholesky_solve(x, upper=upper), c, b, **tol)
        check(lambda m, x: m.cholesky_inverse(x, upper), c, **tol)
        check(lambda m, x: x.cholesky_inverse(upper=upper), c, **tol)


def test_cholesky_reads_one_triangle():
    a = spd((3, 3))
    lower_only, upper_only = a.tril() + 5 * mindtorch.ones(3, 3).triu(1).double(), \
        a.triu() - 7 * mindtorch.ones(3, 3).tril(-1).double()
    check(lambda m, t: L(m).cholesky(t), lower_only)
    check(lambda m, t: L(m).cholesky(t, upper=True), upper_only)


@pytest.mark.parametrize("fn, shape, dtype", [
    (lambda m, t: L(m).cholesky(t), (3, 4), "float64"),
    (lambda m, t: L(m).cholesky(t), (3,), "float64"),
    (lambda m, t: L(m).cholesky(t), (3, 3), "int32"),
    (lambda m, t: L(m).cholesky(t), (3, 3), "float16"),
    (lambda m, t: L(m).inv(t), (3, 3), "bfloat16"),
    (lambda m, t: L(m).inv(t), (2, 3), "float32"),
    (lambda m, t: L(m).det(t), (3, 3), "int64"),
    (lambda m, t: L(m).det(t), (3, 3), "float16"),
    (lambda m, t: L(m).slogdet(t), (4,), "float32"),
    (lambda m, t: m.logdet(t), (3, 3), "bool"),
    (lambda m, t: m.cholesky_inverse(t), (3, 4), "float32"),
    (lambda m, t: m.cholesky_solve(t, t), (3,), "float32"),
    (lambda m, t: L(m).matrix_exp(t), (3, 4), "float32"),
    (lambda m, t: L(m).matrix_exp(t), (3, 3), "int32"),
], ids=lambda v: None if callable(v) else str(v))  # (a function's str has its address)
def test_errors(fn, shape, dtype):
    check(fn, rand(shape, dtype))


def test_out():
    a, b = square((3, 3)), rand((3, 2))
    out = mindtorch.empty(0, dtype=mindtorch.float64)
    assert mindtorch.linalg.inv(a, out=out) is out
    assert_same(out, torch.linalg.inv(to_torch(a)))
    with pytest.raises(RuntimeError):
        mindtorch.linalg.inv(a, out=mindtorch.empty(0))
    out = mindtorch.empty(3, 2, dtype=mindtorch.float64)
    assert mindtorch.linalg.solve(a, b, out=out) is out
    outs = tuple(mindtorch.empty(0, dtype=mindtorch.float64) for _ in range(2))
    r = mindtorch.linalg.slogdet(a, out=outs)
    assert r.sign is outs[0] and r.logabsdet is outs[1]
    q, r_ = mindtorch.empty(0, dtype=mindtorch.float64), mindtorch.empty(0, dtype=mindtorch.float64)
    res = mindtorch.linalg.qr(a, out=(q, r_))
    assert res.Q is q
    assert_same(q @ r_, to_torch(a))


@pytest.mark.parametrize("shape", [(0, 2, 2), (0, 3), (2, 0, 0), (3, 0)], ids=str)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_empty_16_bit_inputs(dtype, shape):
    """PyTorch's kernels that lack 16-bit floats are not reached for empty inputs (no error)
    where the dispatch is the only check; qr and eig still refuse them."""
    x = mindtorch.ones(shape, dtype=getattr(mindtorch, dtype))
    for fn in (lambda m, t: L(m).det(t), lambda m, t: L(m).slogdet(t), lambda m, t: L(m).lu(t),
               lambda m, t: L(m).lu_factor(t), lambda m, t: L(m).svd(t),
               lambda m, t: L(m).svdvals(t), lambda m, t: L(m).eigh(t),
               lambda m, t: L(m).cholesky_ex(t), lambda m, t: L(m).qr(t),
               lambda m, t: L(m).eig(t), lambda m, t: m.lu_unpack(*L(m).lu_factor(t))):
        check(fn, x)


def test_cholesky_edge_cases():
    """torch.cholesky returns an empty input as it is (any shape or dtype); a NaN pivot
    stops the factorization (LAPACK's info) as in PyTorch; cholesky_inverse refuses a
    factor with a zero on its diagonal (LinAlgError naming the first)."""
    for shape, dtype in (((0, 3), "float64"), ((2, 0, 3), "float32"), ((0,), "float64"),
                         ((0, 3), "int64"), ((2, 3), "int64"), ((2, 2), "int64")):
        check(lambda m, t: m.cholesky(t), rand(shape, dtype))
    nan = float("nan")
    for x in ([[nan, 1.0], [1, 1]], [[4.0, 1], [1, nan]], [[[1.0, 0], [0, 1]], [[1, 0], [0, nan]]]):
        a = mindtorch.tensor(x)
        check(lambda m, t: L(m).cholesky_ex(t).info, a, meta=False)
        check(lambda m, t: L(m).cholesky(t), a, meta=False)
    for x in ([[1.0, 0], [2, 0]], [[0.0, 0], [0, 0]], [[[1.0, 0], [0, 1]], [[1, 0], [2, 0]]]):
        a = mindtorch.tensor(x, dtype=mindtorch.float64)
        for upper in (False, True):
            check(lambda m, t: m.cholesky_inverse(t, upper), a, meta=False)
    with pytest.raises(mindtorch.linalg.LinAlgError, match=r"\(Batch element 1\): The diagonal "
                       r"element 2 is zero"):
        mindtorch.cholesky_inverse(mindtorch.tensor([[[1.0, 0], [0, 1]], [[1, 0], [2, 0]]]))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("b_dtype", ["int64", "bool", "float32", "float64", "complex64"])
def test_solve_triangular_casts_b_to_a_dtype(b_dtype, left):
    """PyTorch 2.13 checks ranks and shapes, then A's dtype, and casts B to A's dtype."""
    a = square((2, 3, 3))
    b = rand((3, 2) if left else (2, 3), b_dtype)
    fn = lambda m, x, y: L(m).solve_triangular(x, y, upper=True, left=left)  # noqa: E731
    check(fn, a, b)
    for x, y in ((a.long(), b), (a.half(), b), (a.long(), rand((4, 2))), (a[0, 0], b),
                 (a.float(), rand((3,))), (a.half()[:, :2], b)):
        check(fn, x, y)


def test_matrix_power_and_exp_rounding():
    """matrix_power multiplies in PyTorch's order (it decides where infs meet); float32
    matrix_exp is computed in double precision (within PyTorch's ulps)."""
    a = rand((3, 3), "float32")
    a[0, 1], a[2, 0] = float("inf"), -float("inf")
    for n in (2, 3, 4, 5, 6, 7):
        check(lambda m, t: L(m).matrix_power(t, n), a)
    big = mindtorch.tensor([[11.0, 0.5], [1, -2.5]])
    check(lambda m, t: L(m).matrix_exp(t), big)
    check(lambda m, t: L(m).matrix_exp(t), big.to(mindtorch.complex64))


# -- decompositions: qr, eigh, eig, svd ----------------------------------------------------

RECT_SHAPES = [(4, 3), (3, 4), (3, 3), (2, 4, 2), (2, 2, 5), (0, 3), (3, 0), (0, 2, 2)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", RECT_SHAPES, ids=str)
def test_qr(shape, dtype):
    a = rand(shape, dtype)
    tol = TOL[dtype]
    for mode in ("reduced", "complete", "r"):
        q, r = mindtorch.linalg.qr(a, mode=mode)
        tq, tr = torch.linalg.qr(to_torch(a), mode=mode)
        assert_same(r, tr, **tol)  # LAPACK's geqrf: R's diagonal signs as torch's
        assert_same(q, tq, **tol)
        if mode != "r":
            assert_same(q @ r, to_torch(a), **tol)
        check(lambda m, t: L(m).qr(t, mode), a, **tol)
    check(lambda m, t: m.qr(t), a, **tol)
    check(lambda m, t: t.qr(some=False), a, **tol)
    if a.ndim >= 2 and a.numel():
        check(lambda m, t: L(m).qr(t), transposed(a), **tol)


def _fix_signs(v, ref):
    """v with each column's phase matched to ref's (eigen/singular vectors are determined up
    to a sign or phase per column)."""
    vv, rr = np.asarray(v), np.asarray(ref)
    k = np.argmax(np.abs(rr), axis=-2)[..., None, :]
    ratio = np.take_along_axis(rr, k, -2) / np.take_along_axis(vv, k, -2)
    return vv * (ratio / np.abs(ratio))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 3, 3), (0, 0)], ids=str)
def test_eigh(shape, dtype):
    a = rand(shape, dtype)
    a = a + a.mH
    tol = TOL[dtype]
    for uplo in ("L", "U"):
        w, v = mindtorch.linalg.eigh(a, UPLO=uplo)
        tw, tv = torch.linalg.eigh(to_torch(a), UPLO=uplo)
        assert_same(w, tw, **tol)  # ascending, as LAPACK's syevd
        assert v.dtype is a.dtype and tuple(v.shape) == tuple(tv.shape)
        if a.numel():
            np.testing.assert_allclose(_fix_signs(v.numpy(), tv.numpy()), tv.numpy(), **tol)
        np.testing.assert_allclose((v @ mindtorch.diag_embed(w.to(a.dtype)) @ v.mH).numpy(),
                                   a.numpy(), **tol)
        check(lambda m, t: L(m).eigvalsh(t, uplo), a, **tol)
        check(lambda m, t: L(m).eigh(t, uplo).eigenvalues, a, **tol)
    # each UPLO reads one triangle
    check(lambda m, t: L(m).eigvalsh(t, "U"), a.triu(), **tol)
    check(lambda m, t: L(m).eigvalsh(t), a.tril(), **tol)


def _sorted_complex(w):
    w = np.asarray(w)
    return np.sort_complex(np.round(w, 6))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2), (0, 0)], ids=str)
def test_eig(shape, dtype):
    a = rand(shape, dtype)
    w, v = mindtorch.linalg.eig(a)
    tw, tv = torch.linalg.eig(to_torch(a))
    assert w.dtype is a.dtype.to_complex() and v.dtype is w.dtype
    assert tuple(w.shape) == tuple(tw.shape) and tuple(v.shape) == tuple(tv.shape)
    tol = TOL[dtype]
    if a.numel():
        np.testing.assert_allclose(_sorted_complex(w.numpy()), _sorted_complex(tw.numpy()),
                                   **tol)
        av = a.to(w.dtype) @ v
        np.testing.assert_allclose(av.numpy(), (v * w.unsqueeze(-2)).numpy(), **tol)
        np.testing.assert_allclose(np.linalg.norm(v.numpy(), axis=-2), 1, **tol)
    check(lambda m, t: L(m).eigvals(t).abs().sort(-1).values, a, **tol)
    check(lambda m, t: L(m).eig(t).eigenvalues.abs().sort(-1).values, a, **tol)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", RECT_SHAPES + [(0, 0)], ids=str)
def test_svd(shape, dtype):
    a = rand(shape, dtype)
    tol = TOL[dtype]
    for full in (True, False):
        u, s, vh = mindtorch.linalg.svd(a, full_matrices=full)
        tu, ts, tvh = torch.linalg.svd(to_torch(a), full_matrices=full)
        assert_same(s, ts, **tol)
        for x, tx in ((u, tu), (vh, tvh)):
            assert x.dtype is a.dtype and tuple(x.shape) == tuple(tx.shape)
        k = s.shape[-1]
        us = u[..., :k] * s.to(a.dtype).unsqueeze(-2)
        np.testing.assert_allclose((us @ vh[..., :k, :]).numpy(), a.numpy(), **tol)
        eye = np.eye(u.shape[-1])
        np.testing.assert_allclose((u.mH @ u).numpy(), np.broadcast_to(eye, u.mH.shape[:-1] +
                                                                         (u.shape[-1],)), **tol)
        if a.numel():
            np.testing.assert_allclose(_fix_signs(u[..., :k].numpy(), tu[..., :k].numpy()),
                                       tu[..., :k].numpy(), **tol)
        check(lambda m, t: L(m).svd(t, full).S, a, **tol)
    check(lambda m, t: L(m).svdvals(t), a, **tol)
    U, S, V = mindtorch.svd(a)
    tU, tS, tV = torch.svd(to_torch(a))
    assert_same(S, tS, **tol)
    assert U.shape == tU.shape and V.shape == tV.shape
    check(lambda m, t: m.svd(t, some=False).S, a, **tol)
    check(lambda m, t: t.svd(compute_uv=False), a, **tol)


def test_decomposition_errors():
    for fn in (lambda m, t: L(m).qr(t, mode="x"), lambda m, t: L(m).eigh(t, UPLO="X"),
               lambda m, t: L(m).svd(t, driver="gesvd"), lambda m, t: L(m).eig(t.int()),
               lambda m, t: L(m).eigvals(t[0]), lambda m, t: L(m).eigh(t.half()),
               lambda m, t: L(m).svd(t.long()), lambda m, t: L(m).qr(t.bfloat16()),
               lambda m, t: L(m).eigh(t[:, :2])):
        check(fn, rand((3, 3)))


INF, NAN = float("inf"), float("nan")


def _with(value, shape=(2, 4, 3), where=(1, 2, 1), dtype="float64"):
    a = rand(shape, dtype)
    a[where] = value
    return a


@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_of_non_finite_input(dtype):
    """NaN: LinAlgError naming the batch element, as PyTorch.  inf: LAPACK's gesdd may
    loop forever, so it is not called: NaN singular values (what PyTorch's LAPACK gives
    for most shapes); the finite matrices of the batch are unaffected."""
    nan = _with(NAN, dtype=dtype)
    for fn in (lambda m, t: L(m).svd(t), lambda m, t: L(m).svdvals(t),
               lambda m, t: m.svd(t), lambda m, t: L(m).matrix_norm(t, "nuc")):
        check(fn, nan, meta=False)
    with pytest.raises(mindtorch.linalg.LinAlgError, match=r"\(Batch element 1\): The "
                       "algorithm failed to converge because the input matrix contained "
                       "non-finite values"):
        mindtorch.linalg.svdvals(nan)
    inf = _with(-INF, dtype=dtype)
    tol = TOL[dtype]
    for fn in (lambda m, t: L(m).svdvals(t), lambda m, t: L(m).matrix_rank(t),
               lambda m, t: L(m).matrix_norm(t, 2), lambda m, t: L(m).cond(t)):
        check(fn, inf, meta=False, **tol)
    U, S, Vh = mindtorch.linalg.svd(inf)
    assert S[1].isnan().all() and U[1].isnan().all() and Vh[1].isnan().all()
    check(lambda m, t: L(m).svd(t)[1], inf[0], meta=False, **tol)


@pytest.mark.parametrize("driver", ["gelsd", "gelss"])
def test_lstsq_of_non_finite_input(driver):
    """LAPACK's failure is a RuntimeError (LinAlgError), as PyTorch's (an internal assert)."""
    a, b = _with(NAN, shape=(4, 3), where=(1, 1)), rand((4, 2))
    check(lambda m, x, y: L(m).lstsq(x, y, driver=driver), a, b, meta=False)
    with pytest.raises(mindtorch.linalg.LinAlgError):
        mindtorch.linalg.lstsq(a, b, driver=driver)


def test_eig_eigh_of_non_finite_input():
    """eig refuses infs and NaNs (RuntimeError), eigvals gives NaN for those matrices;
    eigh's LAPACK failure on NaN is a LinAlgError (not NumPy's)."""
    for value in (INF, NAN):
        a = _with(value, shape=(2, 3, 3))
        check(lambda m, t: L(m).eig(t), a, meta=False)
        check(lambda m, t: L(m).eigvals(t)[0], a, meta=False)  # (the finite matrix)
        assert L(mindtorch).eigvals(a)[1].isnan().all()  # (PyTorch: LAPACK's undefined values)
    a = _with(NAN, shape=(3, 3), where=(1, 1), dtype="complex64")
    for fn in (lambda m, t: L(m).eigh(t), lambda m, t: L(m).eigh(t.expand(2, 3, 3))):
        check(fn, a, meta=False)
    with pytest.raises(mindtorch.linalg.LinAlgError, match=r"linalg.eigh: \(Batch element 0\)"):
        mindtorch.linalg.eigh(a.expand(2, 3, 3))


# -- pinv, matrix_rank, lstsq, matrix_exp, matrix_power ------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3), (0, 3), (0, 2, 2)], ids=str)
def test_pinv_and_rank(shape, dtype):
    a = rand(shape, dtype)
    tol = TOL[dtype]
    check(lambda m, t: L(m).pinv(t), a, **tol)
    check(lambda m, t: m.pinverse(t), a, **tol)
    check(lambda m, t: t.pinverse(rcond=0.3), a, **tol)
    check(lambda m, t: L(m).matrix_rank(t), a)
    check(lambda m, t: L(m).matrix_rank(t, atol=1.0, rtol=0.1), a)
    low = a[..., :1] @ a[..., :1, :] if a.shape[-1] and a.shape[-2] else a
    check(lambda m, t: L(m).matrix_rank(t), low)
    check(lambda m, t: L(m).pinv(t, atol=0.5), a, **tol)
    check(lambda m, t: L(m).pinv(t, rtol=0.4), a, **tol)
    if shape[-1] == shape[-2]:
        h = a + a.mH
        check(lambda m, t: L(m).pinv(t, hermitian=True), h, **tol)
        check(lambda m, t: L(m).matrix_rank(t, hermitian=True), h)


def test_pinv_tolerance_tensors_and_errors():
    a = rand((2, 3, 3))
    check(lambda m, t, r: L(m).pinv(t, rtol=r), a, mindtorch.tensor([0.1, 0.9]))
    check(lambda m, t, r: L(m).matrix_rank(t, atol=r), a, mindtorch.tensor([0.1, 2.0]))
    check(lambda m, t: L(m).matrix_rank(t, 1.5), a)
    for fn in (lambda m, t: L(m).pinv(t.int()), lambda m, t: L(m).pinv(t[0, 0]),
               lambda m, t: L(m).matrix_rank(t[0, 0]), lambda m, t: L(m).matrix_rank(t.half())):
        check(fn, a)


LSTSQ_SHAPES = [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5, 2)),
                ((2, 5, 3), (5, 2)), ((2, 5, 3), (2, 5)), ((3, 3), (3, 1)), ((0, 3), (0, 2)),
                ((4, 0), (4, 2))]


@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss", "gels"])
@pytest.mark.parametrize("shapes", LSTSQ_SHAPES, ids=str)
def test_lstsq(shapes, driver):
    a, b = rand(shapes[0]), rand(shapes[1])
    check(lambda m, x, y: L(m).lstsq(x, y, driver=driver), a, b)
    if driver in (None, "gelsd"):
        c = a.to(mindtorch.complex128)
        check(lambda m, x, y: L(m).lstsq(x, y, driver=driver), c, b.to(c.dtype))
        check(lambda m, x, y: L(m).lstsq(x, y, driver=driver), a.float(), b.float(),
              rtol=1e-4, atol=1e-4)


def test_lstsq_rank_deficient_and_errors():
    a = rand((5, 2)) @ rand((2, 3))
    b = rand((5, 2))
    for driver in ("gelsy", "gelsd", "gelss"):  # (meta assumes full rank for residuals)
        check(lambda m, x, y: L(m).lstsq(x, y, driver=driver).rank, a, b)
        check(lambda m, x, y: L(m).lstsq(x, y, driver=driver).residuals, a, b, meta=False)
    check(lambda m, x, y: L(m).lstsq(x, y, rcond=0.5, driver="gelsd"), rand((5, 3)), b,
          meta=False)
    for fn, sa, sb in ((lambda m, x, y: L(m).lstsq(x, y), (3, 3), (4, 2)),
                       (lambda m, x, y: L(m).lstsq(x, y), (3,), (3,)),
                       (lambda m, x, y: L(m).lstsq(x, y.float()), (3, 3), (3, 2)),
                       (lambda m, x, y: L(m).lstsq(x, y, driver="x"), (3, 3), (3, 2)),
                       (lambda m, x, y: L(m).lstsq(x, y), (3, 3), (2, 2, 3, 2)),
                       (lambda m, x, y: L(m).lstsq(x.int(), y.int()), (3, 3), (3, 2))):
        check(fn, rand(sa), rand(sb))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2), (0, 0), (1, 1)], ids=str)
def test_matrix_exp(shape, dtype):
    a = rand(shape, dtype) * 0.5
    tol = TOL[dtype]
    check(lambda m, t: L(m).matrix_exp(t), a, **tol)
    check(lambda m, t: m.matrix_exp(t), a, **tol)
    check(lambda m, t: t.matrix_exp(), transposed(a) if a.numel() else a, **tol)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_matrix_exp_16_bit(dtype):
    """Computed in float32 and rounded once.  (torch 2.13's CPU kernel returns inf/nan for
    16-bit matrices larger than 1x1; 1x1 ones agree.)"""
    a = (rand((2, 3, 3)) * 0.5).float()
    got = mindtorch.linalg.matrix_exp(a.to(getattr(mindtorch, dtype)))
    assert got.dtype is getattr(mindtorch, dtype)
    want = torch.linalg.matrix_exp(to_torch(a.to(getattr(mindtorch, dtype)).float()))
    assert_same(got.float(), want, rtol=2e-2, atol=2e-2)
    one = rand((2, 1, 1)).to(getattr(mindtorch, dtype))
    check(lambda m, t: L(m).matrix_exp(t), one, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 5])
def test_matrix_power(n):
    a = square((2, 3, 3))
    check(lambda m, t: L(m).matrix_power(t, n), a)
    check(lambda m, t: m.matrix_power(t, n), transposed(a))
    check(lambda m, t: L(m).matrix_power(t, n), a.long() if n >= 0 else a.to(mindtorch.int32))


def test_namespace():
    names = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal",
             "eig", "eigh", "eigvals", "eigvalsh", "inv", "inv_ex", "lstsq", "matmul",
             "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm",
             "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular", "svd",
             "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot", "vector_norm"]
    for name in names:
        assert hasattr(mindtorch.linalg, name), name
    assert issubclass(mindtorch.linalg.LinAlgError, RuntimeError)
    assert type(mindtorch.linalg.svd(rand((2, 2)))).__name__ == "linalg_svd"
    assert type(mindtorch.svd(rand((2, 2)))).__name__ == "svd"
    assert not hasattr(mindtorch, "linalg_inv") and not hasattr(mindtorch.Tensor, "cdist")


# -- 16-bit floats, import cost -----------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16_bit_where_torch_computes(dtype):
    dt = getattr(mindtorch, dtype)
    x, y = rand((3, 4)).to(dt), rand((4,)).to(dt)
    tol = dict(rtol=2e-2, atol=2e-2)
    check(lambda m, a: L(m).vector_norm(a, 3), x, **tol)
    check(lambda m, a: L(m).matrix_norm(a, -float("inf")), x, **tol)
    check(lambda m, a: L(m).norm(a, dim=0), x, **tol)
    check(lambda m, a, b: m.dist(a, b), x, y, **tol)
    check(lambda m, a, b: L(m).vecdot(a, b), x, y, **tol)
    check(lambda m, a, b: L(m).multi_dot([a, b]), x, y, **tol)
    check(lambda m, a: L(m).vander(a), y, **tol)
    check(lambda m, a, b: L(m).cross(a, b), x[:, :3], x[:, 1:], **tol)
    check(lambda m, a: L(m).pinv(a), x)  # (errors)
    check(lambda m, a: L(m).svdvals(a), x)
    check(lambda m, a: L(m).eig(a[:, :3]), x)
    check(lambda m, a: L(m).solve(a[:, :3], a), x)


def test_import_does_not_load_scipy_linalg():
    import subprocess
    import sys
    code = "import sys, mindtorch; print('scipy.linalg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
