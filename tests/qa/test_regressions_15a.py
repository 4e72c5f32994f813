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


WINDOW_CALLS = [
    ("kaiser_window", (5,), {"beta": 3.0}),  # periodic missing: no overload takes it
    ("kaiser_window", (5,), {"beta": 3.0, "periodic": False}),
    ("kaiser_window", (5, True, 3, 4), {}),
    ("kaiser_window", (5, True, True), {}),  # (a bool is a float to the parser)
    ("hamming_window", (5, True), {"beta": 0.3}),
    ("hamming_window", (5,), {"requires_grad": True, "alpha": 0.3}),
    ("hamming_window", (5, False, 0.3), {"beta": 0.2, "dtype": "float64"}),
    ("hamming_window", (5, True), {"beta": 0.1, "alpha": 0.2}),
    ("hann_window", (5, True, True), {}),
    ("hann_window", (5, True), {"periodic": True}),
    ("hann_window", (5, 1), {}),
    ("hann_window", (5,), {"foo": 1}),
    ("blackman_window", (), {"window_length": 5, "periodic": False}),
]


@pytest.mark.parametrize("name, args, kwargs", WINDOW_CALLS)
def test_window_overload_resolution_as_torch(name, args, kwargs):
    def program(L):
        kw = {k: getattr(L, v) if k == "dtype" else v for k, v in kwargs.items()}
        return getattr(L, name)(*args, **kw)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1].detach().numpy(), theirs[1].detach().numpy(),
                                   rtol=1e-6)  # (kaiser's i0 may differ in the last bit)
        assert ours[1].requires_grad == theirs[1].requires_grad


STFT_BAD_TYPES = [{"hop_length": 4.0}, {"n_fft": 16.0}, {"win_length": 8.0},
                  {"window": [1.0] * 16}, {"return_complex": 1}, {"onesided": 1},
                  {"normalized": None}, {"n_fft": True}, {"hop_length": np.int64(4)}]


@pytest.mark.parametrize("method", [False, True])
@pytest.mark.parametrize("kwargs", STFT_BAD_TYPES)
def test_stft_argument_types_fail_overload_resolution_as_torch(kwargs, method):
    # e.g. hop_length=n_fft / 4: torch.stft reports its ATen overloads
    def program(L):
        x = L.tensor(np.arange(40.0))
        kw = dict({"n_fft": 16, "return_complex": True, "window": L.ones(16)}, **kwargs)
        return x.stft(**kw) if method else L.stft(x, **kw)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-5, atol=1e-5)


SIGNAL_WINDOWS = ["bartlett", "blackman", "cosine", "exponential", "gaussian",
                  "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


@pytest.mark.parametrize("name", SIGNAL_WINDOWS)
@pytest.mark.parametrize("kwargs", [{"layout": None}, {"dtype": "float16"}, {}])
def test_signal_windows_check_layout_and_dtype_as_torch(name, kwargs):
    # torch's default layout is strided (an explicit None fails); blackman checks first
    # under its own name
    def program(L):
        kw = {k: getattr(L, v) if k == "dtype" else v for k, v in kwargs.items()}
        return getattr(L.signal.windows, name)(5, **kw)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-6)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("signal", ["list", "ndarray", "none"])
def test_stft_of_a_non_tensor_as_torch(signal, center):
    # centred: torch.stft's input.dim() fails first (AttributeError); else the overloads
    def program(L):
        x = {"list": [1.0] * 40, "ndarray": np.ones(40), "none": None}[signal]
        return L.stft(x, 16, return_complex=True, center=center)
    same_errors(program)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("pad_mode", [3, None, "zeros"])
def test_stft_reads_pad_mode_only_to_pad(pad_mode, center):
    def program(L):
        x = L.tensor(np.sin(np.arange(40.0)))
        return L.stft(x, 16, window=L.ones(16, dtype=L.float64), center=center,
                      pad_mode=pad_mode, return_complex=True)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-9, atol=1e-12)
