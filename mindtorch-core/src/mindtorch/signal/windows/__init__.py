"""torch.signal.windows: window functions (SciPy's definitions), each a linspace of the
window's phase transformed by mindtorch ops in the window's dtype, in PyTorch's order of
operations, so values round alike."""
import math
from collections.abc import Iterable

from ..._layout import strided as _strided

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _M():
    import mindtorch
    return mindtorch


def _start(name, M, dtype, layout):
    """The checks every window makes; returns the window's dtype."""
    T = _M()
    dtype = dtype or T.get_default_dtype()
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not T.strided:  # (an explicit None too, as torch)
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (T.float32, T.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _empty(M, dtype, device, requires_grad, ones_for_one=False):
    T = _M()
    if M == 0:
        return T.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if M == 1 and ones_for_one:
        return T.ones((1,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def _linspace(start, end, M, dtype, device, requires_grad):
    return _M().linspace(start, end, M, dtype=dtype, device=device,
                         requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=_strided, device=None,
                requires_grad=False):
    dtype = _start("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    trivial = _empty(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / tau
    k = _linspace(-center * scale, (-center + (M - 1)) * scale, M, dtype, device, requires_grad)
    return _M().exp(-_M().abs(k))


def cosine(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    dtype = _start("cosine", M, dtype, layout)
    trivial = _empty(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _linspace(0.5 * step, (0.5 + (M - 1)) * step, M, dtype, device, requires_grad)
    return _M().sin(k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=_strided, device=None,
             requires_grad=False):
    dtype = _start("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    trivial = _empty(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    first = -(M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / (std * math.sqrt(2))
    k = _linspace(first * scale, (first + (M - 1)) * scale, M, dtype, device, requires_grad)
    return _M().exp(-(k ** 2))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=_strided, device=None,
           requires_grad=False):
    T = _M()
    dtype = _start("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _empty(M, dtype, device, requires_grad, ones_for_one=True)
    if trivial is not None:
        return trivial
    beta = T.tensor(beta, dtype=dtype, device=device)  # (in the window's dtype: no NaN)
    step = 2.0 * beta / (M if not sym else M - 1)
    end = T.minimum(beta, -beta + (M - 1) * step)
    k = _linspace(-beta, end, M, dtype, device, requires_grad)
    return T.i0(T.sqrt(beta * beta - T.pow(k, 2))) / T.i0(beta)


def bartlett(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    dtype = _start("bartlett", M, dtype, layout)
    trivial = _empty(M, dtype, device, requires_grad, ones_for_one=True)
    if trivial is not None:
        return trivial
    step = 2 / (M if not sym else M - 1)
    k = _linspace(-1, -1 + (M - 1) * step, M, dtype, device, requires_grad)
    return 1 - _M().abs(k)


def general_cosine(M, *, a, sym=True, dtype=None, layout=_strided, device=None,
                   requires_grad=False):
    """sum_i (-1)^i a_i cos(2 pi i n / (M - 1)) (M instead of M - 1 when not sym)."""
    T = _M()
    dtype = _start("general_cosine", M, dtype, layout)
    trivial = _empty(M, dtype, device, requires_grad, ones_for_one=True)
    if trivial is not None:
        return trivial
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    step = 2 * math.pi / (M if not sym else M - 1)
    k = _linspace(0, (M - 1) * step, M, dtype, device, requires_grad)
    a_i = T.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, device=device,
                   requires_grad=requires_grad)
    i = T.arange(a_i.shape[0], dtype=a_i.dtype, device=a_i.device,
                 requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * T.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=_strided, device=None,
                    requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    _start("blackman", M, dtype, layout)  # (checked under its own name first, as torch)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=_strided, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)
