"""QA round qa19a's regressions, each compared with PyTorch: float32 log_softmax along the
last dim by the compiled loop, bit for bit (Sleef's expf and logf, the sum by vector
lanes)."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

_R = np.random.default_rng(1919)


def _rows(shape, scale):
    x = (_R.standard_normal(shape) * scale).astype(np.float32)
    flat = x.reshape(-1, shape[-1])
    flat.reshape(-1)[::37] = -np.inf
    flat[0] = -np.inf  # a row of -inf only: NaN
    if flat.shape[0] > 2:
        flat[1, -1] = np.nan
        flat[2, 0] = np.inf
    return x


@pytest.mark.parametrize("scale", [1e-3, 4, 1e3, 1e30])
@pytest.mark.parametrize("shape", [(1, 1), (5, 1), (8, 3, 7), (3, 15), (4, 16), (6, 17),
                                   (64, 10), (300, 33), (64, 100), (2, 4, 32, 32), (7, 1000),
                                   (3, 2000), (512, 9)])
def test_float32_log_softmax_bits_on_the_compiled_path(shape, scale, monkeypatch):
    # the compiled log_softmax serves from _jit.EARLY_MIN_SIZE elements (here: any size)
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
    x = _rows(shape, scale)
    got = mindtorch.log_softmax(mindtorch.from_numpy(x), -1).numpy()
    expected = torch.log_softmax(torch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", [(64, 100), (16, 1000)])
def test_float32_log_softmax_bits_from_the_early_size(shape):
    x = (_R.standard_normal(shape) * 3).astype(np.float32)
    assert x.size >= _jit.EARLY_MIN_SIZE
    got = mindtorch.log_softmax(mindtorch.from_numpy(x), 1).numpy()
    expected = torch.log_softmax(torch.from_numpy(x), 1).numpy()
    np.testing.assert_array_equal(got, expected)
