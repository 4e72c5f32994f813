"""torch.lobpcg against torch: eigenvalues, eigenvectors up to sign (B-orthonormal in the
generalized problem), gradients, batches, the random draws, and the checks."""
import numpy as np
import pytest
import torch

import mindtorch


def spd(m, seed, batch=()):
    a = np.random.default_rng(seed).standard_normal(batch + (m, m))
    return a @ np.swapaxes(a, -1, -2) + m * np.eye(m) * (seed % 3)


def both(a):
    return torch.tensor(a), mindtorch.tensor(a)


def same_up_to_sign(mx, tx, tol):
    m, t = mx.detach().numpy(), tx.detach().numpy()
    signs = np.sign(np.sum(m * t, axis=-2, keepdims=True))
    np.testing.assert_allclose(m * signs, t, rtol=tol, atol=tol)


@pytest.mark.parametrize("largest", [None, True, False])
@pytest.mark.parametrize("k", [1, 3])
def test_standard_problem(k, largest):
    ta, ma = both(spd(15, 1))
    tE, tX = torch.lobpcg(ta, k=k, largest=largest, tol=1e-12, niter=500)
    mE, mX = mindtorch.lobpcg(ma, k=k, largest=largest)
    assert mE.shape == tE.shape and mX.shape == tX.shape and mE.dtype is mindtorch.float64
    np.testing.assert_allclose(mE.numpy(), tE.numpy(), rtol=1e-8)
    same_up_to_sign(mX, tX, 1e-5)


def test_generalized_problem_and_float32():
    (ta, ma), (tb, mb) = both(spd(12, 4)), both(spd(12, 5) + 12 * np.eye(12))
    tE, tX = torch.lobpcg(ta, k=2, B=tb, tol=1e-12, niter=500)
    mE, mX = mindtorch.lobpcg(ma, k=2, B=mb)
    np.testing.assert_allclose(mE.numpy(), tE.numpy(), rtol=1e-8)
    same_up_to_sign(mX, tX, 1e-5)
    np.testing.assert_allclose((mX.mT @ mb @ mX).numpy(), np.eye(2), atol=1e-10)
    tE, _ = torch.lobpcg(ta.float(), k=1)
    mE, mX = mindtorch.lobpcg(ma.float(), k=1)
    assert mE.dtype is mindtorch.float32 and mX.dtype is mindtorch.float32
    np.testing.assert_allclose(mE.numpy(), tE.numpy(), rtol=1e-4)


def test_batches_initial_block_and_random_stream():
    ta, ma = both(spd(9, 2, batch=(2,)))
    torch.manual_seed(3)
    mindtorch.manual_seed(3)
    tE, tX = torch.lobpcg(ta, k=2, tol=1e-12, niter=500)
    mE, mX = mindtorch.lobpcg(ma, k=2)
    assert mE.shape == tE.shape == (2, 2) and mX.shape == tX.shape == (2, 9, 2)
    np.testing.assert_allclose(mE.numpy(), tE.numpy(), rtol=1e-8)
    # the same numbers were drawn for the initial blocks: the streams continue alike
    assert mindtorch.randn(3).tolist() == pytest.approx(torch.randn(3).tolist(), abs=0)
    x0 = np.random.default_rng(7).standard_normal((9, 3))
    tE, tX = torch.lobpcg(ta[0], X=torch.tensor(x0), tol=1e-12, niter=500)
    mE, mX = mindtorch.lobpcg(ma[0], X=mindtorch.tensor(x0))
    assert mE.shape == tE.shape == (3,)
    np.testing.assert_allclose(mE.numpy(), tE.numpy(), rtol=1e-8)


def test_gradients():
    a = spd(10, 1)
    ta = torch.tensor(a, requires_grad=True)
    ma = mindtorch.tensor(a, requires_grad=True)
    tE, _ = torch.lobpcg(ta, k=2, tol=1e-12, niter=500)
    mE, _ = mindtorch.lobpcg(ma, k=2)
    (tE * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
    (mE * mindtorch.tensor([1.0, 2.0], dtype=mindtorch.float64)).sum().backward()
    np.testing.assert_allclose(ma.grad.numpy(), ta.grad.numpy(), atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda L, a: L.lobpcg(a, k=5),
    lambda L, a: L.lobpcg(a[:3]),
    lambda L, a: L.lobpcg(a, B=a[:, :3]),
    lambda L, a: L.lobpcg(a, X=L.ones(11, 2, dtype=a.dtype)),
    lambda L, a: L.lobpcg(a, n=5),
])
def test_checks(call):
    ta, ma = both(spd(12, 1))
    with pytest.raises(Exception) as want:
        call(torch, ta)
    with pytest.raises(type(want.value)) as got:
        call(mindtorch, ma)
    assert str(got.value) == str(want.value)
