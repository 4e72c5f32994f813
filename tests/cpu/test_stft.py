"""torch.stft / torch.istft against PyTorch: values, gradients, windows, padding modes,
onesided and complex forms, round trips, errors (class and message) and warnings."""
import warnings

import numpy as np
import pytest

import mindtorch
from reference import assert_same, torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 20))
HANN = np.hanning(10)[1:-1]  # (no zeros at the ends: the overlap-add envelope stays > 0)


def _both(fn, *arrays, dtype="float32", grad=True, tol=1e-5):
    """fn(lib, *tensors) under mindtorch and torch: same result and input gradients."""
    ms = [mindtorch.tensor(a, dtype=getattr(mindtorch, dtype)) for a in arrays]
    ts = [torch.tensor(a, dtype=getattr(torch, dtype)) for a in arrays]
    if grad:
        for t in ms + ts:
            t.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = fn(mindtorch, *ms), fn(torch, *ts)
    assert_same(got, want, rtol=tol, atol=tol)
    if grad:
        w = RNG.standard_normal(tuple(want.shape) + (2,) * want.is_complex())
        real = lambda r, lib: lib.view_as_real(r) if r.is_complex() else r
        (real(got, mindtorch) * mindtorch.tensor(w, dtype=got.dtype.to_real()
                                                 if got.is_complex() else got.dtype)).sum() \
            .backward()
        (real(want, torch) * torch.tensor(w, dtype=want.real.dtype)).sum().backward()
        for m, t in zip(ms, ts):
            assert_same(m.grad, t.grad, rtol=tol * 10, atol=tol * 10)
    return got


STFT = {
    "default": lambda L, x: L.stft(x, 8, return_complex=True),
    "real view": lambda L, x: L.stft(x, 8, return_complex=False),
    "window shorter": lambda L, x, w: L.stft(x, 8, 3, 6, w[1:-1], return_complex=True),
    "no center, aligned": lambda L, x, w: L.stft(x, 8, 3, 6, w[1:-1], center=False,
                                                 return_complex=True, align_to_window=True),
    "1-d two-sided normalized": lambda L, x, w: L.stft(x[0], 8, 3, window=w, center=False,
                                                       return_complex=True, normalized=True,
                                                       onesided=False),
    "constant pad": lambda L, x: L.stft(x, 8, return_complex=True, pad_mode="constant"),
    "circular pad": lambda L, x: L.stft(x, 6, 2, return_complex=True, pad_mode="circular"),
    "replicate pad": lambda L, x: L.stft(x[1], 7, return_complex=True, pad_mode="replicate"),
    "complex input": lambda L, x: L.stft(x * (1 + 2j), 8, 5, return_complex=True),
    "complex window": lambda L, x, w: L.stft(x, 8, window=w * (1 - 1j), return_complex=True),
    "method, win_length": lambda L, x: x.stft(8, 4, win_length=5, return_complex=True),
    "non-contiguous": lambda L, x: L.stft(x.t().contiguous().t()[:, ::2], 4, 1,
                                          return_complex=True),
}


@pytest.mark.parametrize("name", sorted(STFT))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_stft(name, dtype):
    fn = STFT[name]
    args = (X, HANN[:8]) if fn.__code__.co_argcount == 3 else (X,)
    _both(fn, *args, dtype=dtype, tol=1e-5 if dtype == "float32" else 1e-10)


def _roundtrip(L, x, w, n_fft=8, hop=2, **kwargs):
    s = L.stft(x, n_fft, hop, window=w, return_complex=True,
               onesided=kwargs.pop("onesided", None), normalized=kwargs.get("normalized",
                                                                            False))
    return L.istft(s, n_fft, hop, window=w, **kwargs)


ISTFT = {
    "round trip": lambda L, x, w: _roundtrip(L, x, w),
    "longer length": lambda L, x, w: _roundtrip(L, x, w, length=25),
    "shorter length": lambda L, x, w: _roundtrip(L, x, w, length=15),
    "no center": lambda L, x, w: _roundtrip(L, x, w, center=False),
    "normalized": lambda L, x, w: _roundtrip(L, x, w, normalized=True),
    "two-sided complex": lambda L, x, w: _roundtrip(L, x, w, onesided=False,
                                                    return_complex=True),
    "two-sided real": lambda L, x, w: _roundtrip(L, x, w, onesided=False),
    "1-d, window shorter": lambda L, x, w: L.istft(
        L.stft(x[0], 8, 3, 6, w[1:-1], return_complex=True), 8, 3, 6, w[1:-1]),
    "rectangular": lambda L, x, w: L.istft(L.stft(x, 8, 2, return_complex=True), 8, 2),
}


@pytest.mark.parametrize("name", sorted(ISTFT))
def test_istft(name):
    _both(ISTFT[name], X, HANN[:8], dtype="float64", tol=1e-10)
    _both(ISTFT[name], X, HANN[:8], dtype="float32", grad=False)


def test_integer_and_half_windows():
    spec = RNG.standard_normal((5, 7)) + 1j * RNG.standard_normal((5, 7))
    for dtype in ("int64", "bool", "float16", "float64"):
        got, want = (lib.istft(lib.tensor(spec, dtype=lib.complex64), 8, 2,
                               window=lib.ones(8, dtype=getattr(lib, dtype)))
                     for lib in (mindtorch, torch))
        assert_same(got, want)


def test_istft_inverts_stft():
    x = mindtorch.tensor(X)
    w = mindtorch.tensor(HANN[:8])
    y = mindtorch.istft(mindtorch.stft(x, 8, 2, window=w, return_complex=True), 8, 2,
                        window=w, length=20)
    assert_same(y, torch.tensor(X), rtol=1e-12, atol=1e-12)


def _errors(L):
    x, c = L.ones(2, 20), L.ones(5, 3, dtype=L.complex64)
    return [
        lambda: L.stft(x, 8),
        lambda: L.stft(x.long(), 8, return_complex=True),
        lambda: L.stft(L.ones(2, 2, 10), 8, return_complex=True),
        lambda: L.stft(x, 30, return_complex=True, center=False),
        lambda: L.stft(x, 8, hop_length=0, return_complex=True),
        lambda: L.stft(x, 8, win_length=9, return_complex=True),
        lambda: L.stft(x, 8, window=L.ones(5), return_complex=True),
        lambda: L.stft(x, 8, return_complex=True, align_to_window=True),
        lambda: L.stft(x * 1j, 8, return_complex=True, onesided=True),
        lambda: L.stft(L.ones(7), 8, 2, 6, return_complex=True, center=False,
                       align_to_window=True),
        lambda: L.istft(x, 8),
        lambda: L.istft(L.ones(2, 2, 5, 3, dtype=L.complex64), 8),
        lambda: L.istft(L.ones(5, dtype=L.complex64), 8),
        lambda: L.istft(L.ones(5, 0, dtype=L.complex64), 8),
        lambda: L.istft(c, 8, 9),
        lambda: L.istft(c, 8, 2, 9),
        lambda: L.istft(c, 7, 2),
        lambda: L.istft(c, 8, 2, window=L.ones(3)),
        lambda: L.istft(c, 8, 2, window=L.ones(8, dtype=L.complex64)),
        lambda: L.istft(c, 8, 2, window=L.ones(8), onesided=False, return_complex=True),
        lambda: L.istft(c, 8, 2, window=L.ones(8), return_complex=True),
        lambda: L.istft(c, 8, 2, window=L.zeros(8), center=False),
    ]


def test_errors():
    for m, t in zip(_errors(mindtorch), _errors(torch)):
        with pytest.raises(Exception) as expected:
            t()
        with pytest.raises(type(expected.value)) as got:
            m()
        assert str(got.value) == str(expected.value)


def test_warnings():
    from mindtorch import _warn_once
    _warn_once._seen.difference_update({"stft window", "stft real"})
    with pytest.warns(UserWarning, match="A window was not provided"):
        mindtorch.stft(mindtorch.ones(20), 8, return_complex=True)
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        mindtorch.stft(mindtorch.ones(20), 8, window=mindtorch.ones(8), return_complex=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process, as torch's
        mindtorch.stft(mindtorch.ones(20), 8, return_complex=True)


def test_meta():
    x = mindtorch.ones(2, 20, device="meta", requires_grad=True)
    w = mindtorch.ones(8, device="meta")
    s = mindtorch.stft(x, 8, 2, window=w, return_complex=True)
    assert s.shape == (2, 5, 11) and s.dtype is mindtorch.complex64
    y = mindtorch.istft(s, 8, 2, window=w, length=20)
    assert y.shape == (2, 20) and y.device.type == "meta"
    y.sum().backward()
    assert x.grad.shape == (2, 20)
