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
