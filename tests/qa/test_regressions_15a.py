"""Regression tests for QA round 15a (torch.fft, windows, stft / istft), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import same_errors

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


@pytest.mark.parametrize("window", [None, "hann"])
def test_istft_overlap_add_error_prints_the_callers_window(window):
    # a win_length shorter than the hop leaves gaps: the error names the window as given
    def program(L):
        S = L.stft(L.arange(40, dtype=L.float64), 16, 4, 6, window=None if window is None
                   else L.hann_window(6, dtype=L.float64), center=False,
                   return_complex=True)
        return L.istft(S, 16, 4, 6, window=None if window is None
                       else L.hann_window(6, dtype=L.float64), center=False)
    assert same_errors(program)[0][0] == "RuntimeError"
