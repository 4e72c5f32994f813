"""The compiled random loops (kernels/_random_loops.py, used from _jit.MIN_SIZE elements)
draw PyTorch's values as the NumPy paths do: normal_ on float32 and randperm."""
import numpy as np
import pytest

import mindtorch as mt
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")
N = _jit.MIN_SIZE


@pytest.mark.parametrize("n", [N, N + 7, N + 16 * 3 + 1])
def test_large_normal_and_randperm_match_pytorch(n):
    for lib in (torch, mt):
        lib.manual_seed(n)
    for draw in (lambda L: L.randn(n), lambda L: L.empty(n).normal_(0.3, 2.7),
                 lambda L: L.randperm(n)):
        np.testing.assert_array_equal(draw(mt).numpy(), draw(torch).numpy())


class _Draws:
    """An engine handing out given 32-bit draws (for unit_uniform)."""

    def __init__(self, draws):
        self.draws = draws

    def random(self, n):
        out, self.draws = self.draws[:n], self.draws[n:]
        return out


@pytest.mark.parametrize("n", [16, 17, 31, 48, 4095, 4097, 16 * 1024 * 2 + 9])
@pytest.mark.parametrize("mean, std", [(0.0, 1.0), (-3.0, 1.0), (0.3, 2.7)])
def test_normal_loop_gives_the_numpy_paths_bits(monkeypatch, n, mean, std):
    """The vectorized loop against fill_avx2's NumPy steps, on uniforms including the
    grid's ends (0: radius -0 before the fused mean) and ragged tails across chunks."""
    from mindtorch_cpu.kernels import _box_muller as B
    L = pytest.importorskip("mindtorch_cpu.kernels._random_loops")
    draws = np.random.default_rng(n).integers(0, 1 << 24, n + 16, dtype=np.uint64)
    draws[::7], draws[3::11] = 0, (1 << 24) - 1
    u = B.unit_uniform(_Draws(draws), n + (16 if n % 16 else 0), 24)
    loop = np.empty(n, np.float32)
    L.normal_avx2(u, loop, np.float32(mean), np.float32(std))
    monkeypatch.setattr(_jit, "loaded", lambda name: None)
    monkeypatch.setattr(_jit, "compiled", lambda *args: None)
    steps = B.fill_avx2(_Draws(draws), n, mean, std)
    np.testing.assert_array_equal(loop.view(np.uint32), steps.view(np.uint32))
