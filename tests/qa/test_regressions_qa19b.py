"""Regression tests for QA round qa19b: float32 layer norm bits against torch's cpu kernel
(its cascaded Welford row moments, its fused output steps), in the NumPy path and in the
compiled loops (served from _jit.EARLY_MIN_SIZE elements, or any size once numba is loaded;
the NumPy replica where numba is missing: both forced here at any size)."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")

SIZES = [1, 3, 7, 8, 17, 64, 127, 255, 384, 511, 513, 768, 1025, 3000]
# (1..15 vectors, several chunks, a partial chunk, a deeper merge stack, a scalar tail)


def _inputs(rows, n, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, n)) * 30 - 50).astype(np.float32)
    return x, rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


def _force(monkeypatch, path):
    """The compiled loops at any size, or their NumPy replica (the loops taken as missing)."""
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
    if path == "numpy":
        monkeypatch.setitem(_jit._modules, "_layer_norm_loops", False)
    else:
        pytest.importorskip("numba")


def _bits(t):
    return t.numpy().view(np.uint32)


@pytest.mark.parametrize("path", ["numpy", "compiled"])
@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
def test_native_layer_norm_float32_bits(monkeypatch, path, affine):
    _force(monkeypatch, path)
    for seed, n in enumerate(SIZES):
        x, w, b = _inputs(5, n, seed)
        w = w if affine in ("weight", "both") else None
        b = b if affine in ("bias", "both") else None
        args = [(lib.from_numpy(x.copy()), [n], None if w is None else lib.from_numpy(w.copy()),
                 None if b is None else lib.from_numpy(b.copy()), 1e-5)
                for lib in (mindtorch, torch)]
        ours, theirs = mindtorch.native_layer_norm(*args[0]), torch.native_layer_norm(*args[1])
        for o, t in zip(ours, theirs):  # output, mean, rstd
            assert o.shape == tuple(t.shape)
            np.testing.assert_array_equal(_bits(o), _bits(t), err_msg=f"n={n}")


def test_layer_norm_module_float32_bits():
    x, _, _ = _inputs(48, 96, 7)  # (4,608 elements: from _jit.EARLY_MIN_SIZE)
    ours, theirs = mindtorch.nn.LayerNorm(96), torch.nn.LayerNorm(96)
    with torch.no_grad():
        theirs.weight.copy_(torch.linspace(-2, 2, 96))
        theirs.bias.copy_(torch.linspace(1, -1, 96))
    ours.load_state_dict({k: mindtorch.from_numpy(v.numpy().copy())
                          for k, v in theirs.state_dict().items()})
    x = x.reshape(3, 16, 96)
    y = ours(mindtorch.from_numpy(x.copy()))
    np.testing.assert_array_equal(_bits(y.detach()),
                                  _bits(theirs(torch.from_numpy(x.copy())).detach()))


@pytest.mark.parametrize("path", ["numpy", "compiled"])
@pytest.mark.parametrize("affine", ["none", "both"])
def test_native_layer_norm_float64_bits(monkeypatch, path, affine):
    _force(monkeypatch, path)
    for seed, n in enumerate(SIZES):
        x, w, b = (a.astype(np.float64) for a in _inputs(5, n, seed))
        w, b = (w, b) if affine == "both" else (None, None)
        args = [(lib.from_numpy(x.copy()), [n], None if w is None else lib.from_numpy(w.copy()),
                 None if b is None else lib.from_numpy(b.copy()), 1e-5)
                for lib in (mindtorch, torch)]
        ours, theirs = mindtorch.native_layer_norm(*args[0]), torch.native_layer_norm(*args[1])
        for o, t in zip(ours, theirs):
            np.testing.assert_array_equal(o.numpy(), t.numpy(), err_msg=f"n={n}")
