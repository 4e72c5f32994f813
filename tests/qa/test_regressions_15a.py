"""Regression tests for QA round 15a (torch.fft, windows, stft / istft), each against torch."""
import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")

WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window"]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("periodic", [True, False])
def test_16_bit_windows_round_their_scalars_as_torch(name, dtype, periodic):
    # PyTorch's window code multiplies by Scalars rounded to the 16-bit dtype first
    for n in range(2, 70):
        ours = getattr(mindtorch, name)(n, periodic, dtype=getattr(mindtorch, dtype))
        theirs = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype))
        np.testing.assert_array_equal(ours.float().numpy(), theirs.float().numpy())
