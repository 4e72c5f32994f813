"""torch.signal.windows against torch: every window, sym and periodic, float32 and
float64, small and odd lengths (to the last ulps the exp/cos/i0 kernels round
differently); the checks; requires_grad."""
import numpy as np
import pytest
import torch

import mindtorch

WINDOWS = [("bartlett", {}), ("blackman", {}), ("cosine", {}), ("exponential", {}),
           ("exponential", {"tau": 0.5}), ("gaussian", {}), ("gaussian", {"std": 2.5}),
           ("general_cosine", {"a": [0.46, 0.23, 0.31]}), ("general_hamming", {}),
           ("general_hamming", {"alpha": 0.5}), ("hamming", {}), ("hann", {}),
           ("kaiser", {}), ("kaiser", {"beta": 3.0}), ("nuttall", {})]


@pytest.mark.parametrize(("name", "kwargs"), WINDOWS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_windows_match_torch_exactly(name, kwargs, dtype):
    for M in (0, 1, 2, 5, 10, 33):
        for sym in (True, False):
            want = getattr(torch.signal.windows, name)(
                M, sym=sym, dtype=getattr(torch, dtype), **kwargs)
            got = getattr(mindtorch.signal.windows, name)(
                M, sym=sym, dtype=getattr(mindtorch, dtype), **kwargs)
            assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
            tol = 1e-14 if dtype == "float64" else 2e-6  # (exp/cos/i0 kernels' last ulp)
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=tol, atol=tol / 10)


def test_exponential_center_and_defaults():
    want = torch.signal.windows.exponential(10, sym=False, center=3.0, tau=2.0)
    got = mindtorch.signal.windows.exponential(10, sym=False, center=3.0, tau=2.0)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=3e-7)
    assert got.dtype is mindtorch.float32


@pytest.mark.parametrize("call", [
    lambda L: L.signal.windows.hann(-1),
    lambda L: L.signal.windows.hann(4, dtype=L.float16),
    lambda L: L.signal.windows.gaussian(4, std=0),
    lambda L: L.signal.windows.exponential(4, tau=-1),
    lambda L: L.signal.windows.exponential(4, center=1.0),
    lambda L: L.signal.windows.kaiser(4, beta=-1),
    lambda L: L.signal.windows.general_cosine(4, a=[]),
    lambda L: L.signal.windows.general_cosine(4, a=3),
    lambda L: L.signal.windows.hann(4, layout=L.sparse_coo),
])
def test_checks(call):
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(type(want.value)) as got:
        call(mindtorch)
    assert str(got.value) == str(want.value)


def test_requires_grad():
    for L in (torch, mindtorch):
        w = L.signal.windows.gaussian(5, requires_grad=True, dtype=L.float64)
        assert w.requires_grad
