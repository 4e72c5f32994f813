"""Regression tests for QA round 15a (torch.fft, windows, stft / istft), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import outcome, same_errors

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


@pytest.mark.parametrize("n", range(-6, 4))
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_frequencies_of_negative_lengths(name, n):
    # torch sizes rfftfreq's result with C++'s n / 2 (toward zero) and refuses negative
    # sizes as empty() does
    def program(L):
        return getattr(L.fft, name)(n, -0.5)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())
        assert str(ours[1].dtype) == str(theirs[1].dtype)


def test_stft_of_float16_warns_of_complex_half_before_refusing():
    import warnings

    from mindtorch import _warn_once

    def program(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.set_warn_always(True)
            try:
                return outcome(lambda: L.stft(L.ones(40, dtype=L.float16), 16,
                                              return_complex=True)), \
                    [str(w.message).split(" (Triggered internally")[0] for w in caught]
            finally:
                L.set_warn_always(False)
    _warn_once._seen.discard("complex half")
    assert program(mindtorch) == program(torch)


@pytest.mark.parametrize("frames, length", [(5, 0), (1, None)])
def test_istft_with_an_empty_envelope_fails_in_min_as_torch(frames, length):
    def program(L):
        S = L.tensor(np.ones((9, frames)) + 1j).to(L.complex128)
        return L.istft(S, 16, window=L.hann_window(16, dtype=L.float64), length=length)
    assert same_errors(program)[0][0] == "RuntimeError"
