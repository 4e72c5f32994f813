"""Tensor.numpy() / np.asarray refuse a tensor requiring grad only while grad mode is on,
as PyTorch (custom op kernels, which run below autograd, convert their inputs)."""
import numpy as np
import pytest
import torch

import mindtorch


@pytest.mark.parametrize("lib", [torch, mindtorch])
def test_numpy_of_a_tensor_requiring_grad(lib):
    x = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires"):
        x.numpy()
    with lib.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
        assert np.asarray(x).tolist() == [1.0, 1.0]
    with lib.inference_mode():
        assert x.numpy().tolist() == [1.0, 1.0]
