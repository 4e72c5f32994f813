"""distributions.VonMises against PyTorch: seeded samples (the rejection sampler draws
PyTorch's numbers), log_prob, circular mean/variance, dtypes and validation."""
import numpy as np
import pytest

import mindtorch as mt

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_von_mises_matches_pytorch(dtype):
    results = []
    for lib in (torch, mt):
        dt = getattr(lib, dtype)
        lib.manual_seed(3)
        d = lib.distributions.VonMises(lib.tensor([0.0, 1.0, -2.0, 3.0], dtype=dt),
                                       lib.tensor([0.5, 2.0, 1e-6, 50.0], dtype=dt))
        value = lib.tensor([0.3, 0.2, 0.1, -3.0], dtype=dt)
        results.append([d.sample((5,)), d.sample(), d.log_prob(value), d.variance, d.mean,
                        d.mode, lib.rand(2)])
    for a, b in zip(*results):
        assert str(a.dtype) == str(b.dtype).replace("mindtorch", "torch")
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6, atol=1e-7)


def test_von_mises_validation_and_shapes():
    d = mt.distributions.VonMises(0.0, mt.ones(2, 3))
    assert d.batch_shape == (2, 3) and d.sample((4,)).shape == (4, 2, 3)
    with pytest.raises(ValueError, match="concentration"):
        mt.distributions.VonMises(0.0, -1.0)
