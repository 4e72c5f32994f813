"""Gradients of the Fourier transforms against PyTorch (values, gradcheck, meta shapes):
real inputs, and complex ones built with complex(re, im) so both parts are checked."""
import pytest

from gradutil import check_gradgrad, check_grads, nc, randn


def _c(m, re, im):
    return m.complex(re, im)


CASES = {
    "fft_fft": (lambda m, a: m.fft.fft(a, 6, norm="ortho"), nc(randn(2, 5))),
    "fft_fft complex": (lambda m, a, b: m.fft.fft(_c(m, a, b), 3, 0), randn(4, 2), randn(4, 2)),
    "fft_ifft": (lambda m, a: m.fft.ifft(a, dim=0), randn(3, 2)),
    "fft_ifft complex": (lambda m, a, b: m.fft.ifft(_c(m, a, b), norm="forward"), randn(5),
                         randn(5)),
    "fft_rfft": (lambda m, a: m.fft.rfft(a, 7), nc(randn(2, 5))),
    "fft_irfft": (lambda m, a, b: m.fft.irfft(_c(m, a, b), 6, norm="ortho"), randn(2, 4),
                  randn(2, 4)),
    "fft_irfft odd": (lambda m, a, b: m.fft.irfft(_c(m, a, b), 5, dim=0), randn(3, 2),
                      randn(3, 2)),
    "fft_hfft": (lambda m, a, b: m.fft.hfft(_c(m, a, b)), randn(4), randn(4)),
    "fft_ihfft": (lambda m, a: m.fft.ihfft(a, 4, norm="forward"), randn(2, 6)),
    "fft_fft2": (lambda m, a: m.fft.fft2(a, s=(4, 2)), randn(2, 3, 3)),
    "fft_ifft2": (lambda m, a, b: m.fft.ifft2(_c(m, a, b), dim=(0, 2)), randn(2, 3, 2),
                  randn(2, 3, 2)),
    "fft_rfft2": (lambda m, a: m.fft.rfft2(a, norm="ortho"), nc(randn(3, 4))),
    "fft_irfft2": (lambda m, a, b: m.fft.irfft2(_c(m, a, b), s=(3, 4)), randn(3, 3),
                   randn(3, 3)),
    "fft_hfft2": (lambda m, a, b: m.fft.hfft2(_c(m, a, b)), randn(2, 3), randn(2, 3)),
    "fft_ihfft2": (lambda m, a: m.fft.ihfft2(a), randn(3, 4)),
    "fft_fftn": (lambda m, a: m.fft.fftn(a), randn(2, 3, 2)),
    "fft_ifftn": (lambda m, a, b: m.fft.ifftn(_c(m, a, b), s=(3, -1), dim=(2, 0)),
                  randn(2, 2, 4), randn(2, 2, 4)),
    "fft_rfftn": (lambda m, a: m.fft.rfftn(a, dim=(0, 1), norm="forward"), randn(4, 3, 2)),
    "fft_irfftn": (lambda m, a, b: m.fft.irfftn(_c(m, a, b), dim=(1, 0)), randn(3, 3),
                   randn(3, 3)),
    "fft_hfftn": (lambda m, a, b: m.fft.hfftn(_c(m, a, b), s=(2, 5)), randn(3, 3),
                  randn(3, 3)),
    "fft_ihfftn": (lambda m, a: m.fft.ihfftn(a, norm="ortho"), randn(2, 3, 4)),
    "fft_fftshift": (lambda m, a: m.fft.fftshift(a, dim=(0, -1)), randn(3, 2, 4)),
    "fft_ifftshift": (lambda m, a: m.fft.ifftshift(a), nc(randn(3, 5))),
    "stft": (lambda m, a, w: m.stft(a, 6, 2, window=w, return_complex=True), randn(2, 14),
             randn(6)),
    "istft": (lambda m, a, b, w: m.istft(_c(m, a, b), 8, 3, 6, window=w + 3), randn(5, 4),
              randn(5, 4), randn(6)),
    # the kernel ops themselves
    "_fft_c2c": (lambda m, a, b: m._fft_c2c(_c(m, a, b), [0, 1], 1, False), randn(3, 4),
                 randn(3, 4)),
    "_fft_r2c": (lambda m, a: m._fft_r2c(a, [1], 2, False), randn(3, 4)),
    "_fft_c2r": (lambda m, a, b: m._fft_c2r(_c(m, a, b), [0, 1], 0, 4), randn(2, 3),
                 randn(2, 3)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fft_grad(name):
    fn, *specs = CASES[name]
    check_grads(fn, *specs)


def test_second_derivatives():
    check_gradgrad(lambda m, a: m.fft.rfft(a).abs(), randn(5) + 3)
    check_gradgrad(lambda m, a, b: m.fft.irfft2(_c(m, a, b)).sin(), randn(2, 3), randn(2, 3))
