"""Floating-point edge cases compute PyTorch's IEEE results without NumPy's warnings,
while NumPy's own warnings in user code are untouched."""
import warnings

import numpy as np

import mindtorch


def test_no_numpy_warnings_from_kernels_but_users_keep_theirs():
    inf = float("inf")
    with warnings.catch_warnings(record=True) as caught:
        r = [mindtorch.tensor([inf]) - mindtorch.tensor([inf]),
             mindtorch.tensor([0.0]) * inf, mindtorch.tensor([0.0, -1.0]).log(),
             mindtorch.tensor([1.0]) / 0]
        x = mindtorch.tensor([0.0, 1.0], requires_grad=True)
        x.sqrt().sum().backward()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert [t.isnan().any().item() for t in r] == [True, True, True, False]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.array([0.0]) * np.inf
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)]
