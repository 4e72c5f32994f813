"""LDL factorization (linalg.ldl_factor(_ex), ldl_solve) against PyTorch: LAPACK's compact
factor and pivots (2x2 blocks of indefinite matrices included), symmetric and Hermitian
complex matrices, batches with broadcasting, empty and non-contiguous inputs, info and
errors, out=, no derivative, and the meta device (the helpers are test_factorization's)."""
import mindtorch
import numpy as np
import pytest
from reference import torch
from test_factorization import FLOATS, TOL, L, check, rand, transposed


def sym(shape, dtype="float64", hermitian=True):
    """Symmetric (Hermitian for complex when `hermitian`) and indefinite: 2x2 pivots."""
    a = rand(shape, dtype)
    return a + (a.mH if hermitian else a.mT)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (5, 5), (0, 2, 2), (0, 0), (1, 1)],
                         ids=str)
def test_ldl_factor(shape, dtype):
    tol = TOL[dtype]
    for hermitian in (False, True):
        a = sym(shape, dtype, hermitian)
        for x in (a, transposed(a)) if a.numel() else (a,):
            check(lambda m, t: L(m).ldl_factor(t, hermitian=hermitian), x, **tol)
            check(lambda m, t: L(m).ldl_factor_ex(t, hermitian=hermitian), x, **tol)
    # only the lower triangle is read
    check(lambda m, t: L(m).ldl_factor(t), rand((4, 4), dtype), **tol)


def test_ldl_factor_pivot_blocks():
    # a zero diagonal forces 2x2 pivots (negative entries in pivots)
    a = mindtorch.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 0.5], [2.0, 0.5, 0.0]],
                         dtype=mindtorch.float64)
    got = check(lambda m, t: L(m).ldl_factor(t), a)
    assert (got.pivots < 0).any()


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldl_solve(dtype):
    tol = TOL[dtype]
    for hermitian in (False, True):
        a = sym((2, 3, 3), dtype, hermitian)
        b = rand((3, 2), dtype)
        fn = lambda m, x, y: L(m).ldl_solve(*L(m).ldl_factor(x, hermitian=hermitian), y,
                                           hermitian=hermitian)
        check(fn, a, b, **tol)  # LD's batch broadcast over B
        check(fn, a[0], rand((2, 3, 2), dtype), **tol)  # B's batch
        check(fn, a[0], transposed(rand((3, 4), dtype)), **tol)
        check(fn, rand((0, 3, 3), dtype), b, **tol)


def test_singular_info_and_errors():
    z = mindtorch.stack([mindtorch.eye(2), mindtorch.zeros(2, 2)])
    check(lambda m, t: L(m).ldl_factor_ex(t), z)
    for lib in (mindtorch, torch):
        zz = z if lib is mindtorch else torch.from_numpy(z.numpy())
        with pytest.raises(RuntimeError, match="torch.linalg.ldl_factor: Unknown error code: 1"):
            lib.linalg.ldl_factor(zz)
        with pytest.raises(RuntimeError, match="ldl_factor_ex: Unknown error code: 1"):
            lib.linalg.ldl_factor_ex(zz, check_errors=True)
    for bad in (rand((2, 3)), rand((3,)), mindtorch.ones(2, 2, dtype=mindtorch.int64),
                mindtorch.ones(2, 2, dtype=mindtorch.float16)):
        check(lambda m, t: L(m).ldl_factor(t), bad)
    ld, piv = mindtorch.linalg.ldl_factor(sym((3, 3)))
    for args in [(ld, piv, rand((3,))), (ld, piv, rand((2, 2))), (ld, piv.long(), rand((3, 1))),
                 (ld, piv, rand((3, 1), "float32")), (ld[:2], piv, rand((3, 1))),
                 (ld, piv[:2], rand((3, 1))), (ld, piv.float(), rand((3, 1))),
                 (ld.long(), piv, rand((3, 1)).long())]:
        check(lambda m, *ts: L(m).ldl_solve(*ts), *args)


def test_out_and_no_derivative():
    a = sym((3, 3))
    ld, piv = mindtorch.empty(0, dtype=mindtorch.float64), mindtorch.empty(0,
                                                                        dtype=mindtorch.int32)
    r = mindtorch.linalg.ldl_factor(a, out=(ld, piv))
    assert r[0] is ld and r[1] is piv
    np.testing.assert_allclose(ld.numpy(), torch.linalg.ldl_factor(
        torch.from_numpy(a.numpy())).LD.numpy())
    x = mindtorch.empty(0, dtype=mindtorch.float64)
    assert mindtorch.linalg.ldl_solve(ld, piv, rand((3, 1)), out=x) is x
    for lib in (mindtorch, torch):
        t = (a.clone() if lib is mindtorch else torch.from_numpy(a.numpy())).requires_grad_()
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is "
                                               "not implemented"):
            lib.linalg.ldl_factor(t).LD.sum().backward()
        f = lib.linalg.ldl_factor(t.detach())
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_solve is not "
                                               "implemented"):
            lib.linalg.ldl_solve(f.LD, f.pivots, lib.ones(3, 1, dtype=lib.float64,
                                                          requires_grad=True)).sum().backward()
