"""The float32 GELU kernel (erf from Abramowitz & Stegun 7.1.26, as PyTorch's cpu GELU) against
PyTorch: across blocks, the tails, special values, strided and reduced-precision input."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels._cpu_capability import onednn_avx512_core
from mindtorch_cpu.kernels.activation import _BLOCK

torch = pytest.importorskip("torch")


def _compare(x_np):
    ref = torch.nn.functional.gelu(torch.from_numpy(np.array(x_np))).numpy()
    out = mindtorch.nn.functional.gelu(mindtorch.tensor(x_np)).numpy()
    assert out.shape == ref.shape and out.dtype == ref.dtype
    np.testing.assert_allclose(out, ref, rtol=1.3e-6, atol=5e-7, equal_nan=True)
    return out, ref


def test_wide_range_and_special_values():
    rng = np.random.default_rng(0)
    x = np.concatenate([
        rng.standard_normal(3 * _BLOCK + 5).astype(np.float32) * 3,  # several blocks + a rest
        np.linspace(-12, 12, 20001, dtype=np.float32),  # both tails
        np.array([0, -0.0, 1e-30, -1e-30, 1e-8, np.inf, -np.inf, np.nan, 3.4e38, -3.4e38],
                 np.float32)])
    out, ref = _compare(x)
    assert (out == ref).mean() > 0.5  # the same erf as PyTorch: mostly bit-identical
    # gelu(inf), gelu(3.4e38): inf, 3.4e38; but NaN (0 * inf) and inf (x (1 + erf) overflows
    # before the halving) in oneDNN's avx512_core kernel (PyTorch's on AVX-512 CPUs)
    inf, big = (np.nan, np.inf) if onednn_avx512_core() else (np.inf, np.float32(3.4e38))
    assert np.array_equal(out[-5], inf, equal_nan=True) and out[-2] == big
    assert np.isnan(out[-4])


@pytest.mark.parametrize("shape", [(), (0, 3), (1,), (3, 5, 7)])
def test_shapes(shape):
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    _compare(x)
    if len(shape) == 3:
        _compare(x[:, ::2].transpose(2, 0, 1))  # strided input


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_reduced_precision_goes_through_float32(dtype):
    x = torch.randn(2000).to(getattr(torch, dtype))
    out = mindtorch.nn.functional.gelu(mindtorch.tensor(x.float().numpy()).to(
        getattr(mindtorch, dtype)))
    ref = torch.nn.functional.gelu(x).float().numpy()
    np.testing.assert_array_equal(out.float().numpy(), ref)
