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
