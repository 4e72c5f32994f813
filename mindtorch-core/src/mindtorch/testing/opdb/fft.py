"""Samples of the Fourier transforms (mindtorch.fft and its kernel ops)."""
import mindtorch

from ._make import t

_f64, _c64, _c128, _i64 = mindtorch.float64, mindtorch.complex64, mindtorch.complex128, \
    mindtorch.int64


def _one_dim(real_input):
    """n trimming / padding, dims, norms, non-contiguous and integer inputs; a complex
    input (refused by real-input transforms)."""
    dt, dt64 = (mindtorch.float32, _f64) if real_input else (_c64, _c128)
    return [lambda d: ((t(d, (3, 5), dt),), {}),
            lambda d: ((t(d, (4, 3), dt64, True), 3, 0, "ortho"), {}),
            lambda d: ((t(d, (2, 6), dt), 8), {"norm": "forward"}),
            lambda d: ((t(d, (5,), dt64),), {"n": 1, "norm": "backward"}),
            lambda d: ((t(d, (2, 3), _i64),), {"dim": -2}),
            lambda d: ((t(d, (4,), _c64 if real_input else mindtorch.float32),), {})]


def _n_dim(real_input, default_dims=None):
    dt, dt64 = (mindtorch.float32, _f64) if real_input else (_c64, _c128)
    return [lambda d: ((t(d, (3, 4), dt),), {}),
            lambda d: ((t(d, (2, 3, 4), dt64, True),), {"s": (4, 3), "norm": "ortho"}),
            lambda d: ((t(d, (3, 2, 5), dt),), {"s": (2, -1), "dim": (2, 0),
                                                 "norm": "forward"}),
            lambda d: ((t(d, (4, 3), _i64),), {"dim": (0, 1)})]


def _shift():
    return [lambda d: ((t(d, (5,)),), {}), lambda d: ((t(d, (4, 5), _f64, True),), {"dim": 1}),
            lambda d: ((t(d, (3, 4, 5), _c64),), {"dim": (0, -1)})]


def _freq():
    return [lambda d: ((5,), {"device": d}), lambda d: ((8, 0.3), {"device": d}),
            lambda d: ((6,), {"d": -2.0, "dtype": _f64, "device": d}),
            lambda d: ((4,), {"dtype": _i64, "device": d})]


SAMPLES = {
    **{f"fft_{n}": _one_dim(n in ("rfft", "ihfft"))
       for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft_{n}n": _n_dim(n in ("rfft", "ihfft"))
       for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft_{n}2": _n_dim(n in ("rfft", "ihfft"))
       for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    "fft_fftshift": _shift(), "fft_ifftshift": _shift(),
    "fft_fftfreq": _freq(), "fft_rfftfreq": _freq(),
    "stft": [lambda d: ((t(d, (2, 20)), 8), {"return_complex": True}),
             lambda d: ((t(d, (16,), _f64, True), 6, 2, 5),
                        {"window": t(d, (5,), _f64).abs() + 0.1, "return_complex": True,
                         "normalized": True, "pad_mode": "constant"}),
             lambda d: ((t(d, (2, 12), _c64), 4, 3), {"center": False, "onesided": False})],
    "istft": [lambda d: ((t(d, (5, 7), _c64), 8, 2), {"window": t(d, (8,)).abs() + 0.5}),
              lambda d: ((t(d, (2, 5, 6), _c128), 8, 3, 6),
                         {"window": t(d, (6,), _f64).abs() + 0.5, "length": 15}),
              lambda d: ((t(d, (8, 5), _c64), 8, 4), {"return_complex": True,
                                                      "center": False})],
    "_fft_c2c": [lambda d: ((t(d, (3, 4), _c64), (1,), 0, True), {}),
                 lambda d: ((t(d, (3, 4, 2), _c128, True), (0, 2), 1, False), {}),
                 lambda d: ((t(d, (5,), _c64), (0,), 2, False), {})],
    "_fft_r2c": [lambda d: ((t(d, (3, 5)), (1,), 0, True), {}),
                 lambda d: ((t(d, (4, 3, 2), _f64, True), (0, 1), 2, True), {}),
                 lambda d: ((t(d, (3, 4)), (0, 1), 1, False), {})],
    "_fft_c2r": [lambda d: ((t(d, (3, 3), _c64), (1,), 0, 4), {}),
                 lambda d: ((t(d, (2, 4, 3), _c128, True), (1, 2), 2, 5), {}),
                 lambda d: ((t(d, (4, 2), _c64), (0, 1), 1, 3), {})],
}
