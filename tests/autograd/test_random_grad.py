"""Gradients of the Gamma-family samplers against PyTorch: _standard_gamma's
reparameterised gradient (through _standard_gamma_grad), and the samplers PyTorch records
but cannot differentiate (binomial, _sample_dirichlet)."""
import mindtorch
import numpy as np
import pytest
import torch

M = mindtorch
ALPHAS = np.concatenate([np.linspace(0.05, 12, 60), [0.5, 1.0, 30.0, 200.0]])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_backward_matches_torch(dtype):
    grads = []
    for lib in (torch, M):
        lib.manual_seed(3)
        a = lib.tensor(ALPHAS.astype(dtype), requires_grad=True)
        g = lib._standard_gamma(a)
        assert type(g.grad_fn).__name__ == "StandardGammaBackward0"
        (g * lib.linspace(-1, 2, len(ALPHAS), dtype=g.dtype)).sum().backward()
        grads.append(a.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12 if dtype == "float64" else 1e-6)


def test_standard_gamma_grad_values():
    alpha = np.array([0.3, 0.5, 2.0, 7.9, 9.0, 9.0, 40.0, 3.0, 1.0, 0.0, -1.0])
    x = np.array([0.1, 0.79, 0.5, 3.0, 9.0, 2.0, 60.0, 3.0, 0.0, 0.5, 0.5])
    for dtype in ("float32", "float64"):
        want = torch._standard_gamma_grad(torch.tensor(alpha.astype(dtype)),
                                          torch.tensor(x.astype(dtype))).numpy()
        got = M._standard_gamma_grad(M.tensor(alpha.astype(dtype)),
                                     M.tensor(x.astype(dtype))).numpy()
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-12 if dtype == "float64" else 1e-6)


@pytest.mark.parametrize("op", [
    lambda L, t: L.binomial(t * 5, L.full_like(t, 0.5)),
    lambda L, t: L._sample_dirichlet(t),
])
def test_samplers_without_derivative(op):
    for lib in (torch, M):
        t = lib.ones(2, 3, dtype=lib.float64, requires_grad=True)
        out = op(lib, t)
        assert out.requires_grad
        with pytest.raises(RuntimeError, match="derivative for aten::.* is not implemented"):
            out.sum().backward()


def _beta_points(n=400):
    rng = np.random.default_rng(0)
    alpha, beta = np.exp(rng.uniform(-3, 3, n)), np.exp(rng.uniform(-3, 3, n))
    alpha[:80], beta[:80] = rng.uniform(6.5, 60, 80), rng.uniform(6.5, 60, 80)  # both large
    x = rng.beta(alpha, beta).clip(1e-6, 1 - 1e-6)
    return x, alpha, alpha + beta


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_grad_values(dtype):
    x, alpha, total = (v.astype(dtype) for v in _beta_points())
    want = torch._dirichlet_grad(*(torch.from_numpy(v) for v in (x, alpha, total))).numpy()
    got = M._dirichlet_grad(*(M.tensor(v) for v in (x, alpha, total))).numpy()
    assert got.dtype == want.dtype
    # (float32: its small-x series compute in float32 through the C library's logf/powf)
    np.testing.assert_allclose(got, want, rtol=1e-12 if dtype == "float64" else 1e-7)


def test_grad_helpers_refuse_other_dtypes():
    for lib in (torch, M):
        h = lib.ones(3, dtype=lib.float16)
        with pytest.raises(NotImplementedError):
            lib._standard_gamma_grad(h, h)
        with pytest.raises(NotImplementedError):
            lib._dirichlet_grad(h, h, h)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_distribution_rsample_gradients_match_torch(dtype):
    """Gamma, Dirichlet and Beta rsample: PyTorch's samples and reparameterised
    gradients (Dirichlet's through _Dirichlet / _dirichlet_grad)."""
    results = []
    for lib in (torch, M):
        lib.manual_seed(5)
        dt = getattr(lib, dtype)
        conc = lib.tensor([[0.5, 2.0, 7.0], [1.0, 1.0, 30.0]], dtype=dt, requires_grad=True)
        rate = lib.tensor([1.0, 3.0, 0.5], dtype=dt, requires_grad=True)
        c1 = lib.tensor([0.3, 4.0], dtype=dt, requires_grad=True)
        c0 = lib.tensor([2.0, 8.0], dtype=dt, requires_grad=True)
        D = lib.distributions
        x = D.Dirichlet(conc).rsample((4,))
        assert type(x.grad_fn).__name__ == "_DirichletBackward"
        g = D.Gamma(conc, rate).rsample((3,))
        b = D.Beta(c1, c0).rsample((5,))
        w = lib.linspace(-1, 2, 3, dtype=dt)
        ((x * w).sum() + (g * w).sum() + b.sum()).backward()
        results.append([v.detach().numpy() for v in (x, g, b, conc.grad, rate.grad, c1.grad,
                                                      c0.grad)])
    for want, got in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-12 if dtype == "float64" else 1e-6)
