"""PyTorch's |z| and sgn(z) = z / |z| (0 at 0) of complex numbers, as its two code paths
compute them (kernels/_vector_loop.py tells which elements take which).

|z|: the vector path's is SLEEF's 0.5-ulp hypot (the correctly rounded value but for
subnormal results), the scalar loop's the C library's hypot (NumPy's np.hypot); NumPy's
complex abs is neither (it differed from PyTorch on ~25% of complex64 and ~40% of
complex128 inputs).  Complex64: both are the double sqrt(re**2 + im**2) rounded to float.
abs runs its AVX2 kernel on AVX-512 machines, sgn its AVX-512 one.  sgn's vector path
divides the parts by |z|; its scalar one divides by the complex (|z|, 0) as c10::complex
does (NumPy's algorithm: a reciprocal times the parts, so (inf+0j) gives nan+nanj)."""
import numpy as np

from . import _jit
from ._vector_loop import scalar_loop_mask

_SPLIT = 134217729.0  # (2**27 + 1: Veltkamp's split of a double into two 26-bit halves)
_BIG, _SMALL = 2.0 ** 300, 2.0 ** -300  # (beyond: scaled by 2**-600 / 2**600)


def complex_abs(a):
    a = np.asarray(a)  # (a 0-dim tensor's array may be a NumPy scalar)
    if a.dtype == np.complex64:
        return _hypot_in_double(a)
    m = _correctly_rounded_hypot(a)
    scalar = scalar_loop_mask(a, avx512_kernel=False)
    if scalar.any():
        m[scalar] = np.hypot(a.real[scalar], a.imag[scalar])
    return m


def complex_sgn(a):
    a = np.asarray(a)
    if a.dtype == np.complex64:
        m = _hypot_in_double(a)
    else:
        m = _correctly_rounded_hypot(a)
    zero = m == 0
    d = np.where(zero, 1, m)
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = np.where(zero, 0, a.real / d), np.where(zero, 0, a.imag / d)
    scalar = scalar_loop_mask(a, avx512_kernel=True)
    if scalar.any():
        z = a[scalar]
        scalar_m = m[scalar] if a.dtype == np.complex64 else np.hypot(z.real, z.imag)
        out[scalar] = _divided_as_c10(z, scalar_m)
    return out


def _hypot_in_double(a):
    """|z| of complex64: exact squares summed and rooted in double, rounded to float."""
    return np.asarray(np.abs(a.astype(np.complex128)), np.float32)


def _correctly_rounded_hypot(z):
    """|z| of complex128 rounded correctly (subnormal results may round twice): the root of
    the squares (scaled by a power of 2 far from 1) corrected by its square's exact
    residual."""
    loops = _jit.loaded("_hypot_loops") or _jit.compiled("_hypot_loops", z.size)
    if loops is not None:
        out = np.empty(z.shape)
        loops.complex_hypot(np.ascontiguousarray(z).reshape(-1), out.reshape(-1))
        return out
    flat = z.reshape(-1)
    ax, ay = np.abs(flat.real), np.abs(flat.imag)
    big = np.maximum(ax, ay)
    with np.errstate(all="ignore"):
        scale = np.where(big > _BIG, 2.0 ** -600, np.where(big < _SMALL, 2.0 ** 600, 1.0))
        xs, ys = ax * scale, ay * scale
        h = np.sqrt(xs * xs + ys * ys)
        (p1, e1), (p2, e2), (p3, e3) = exact_square(xs), exact_square(ys), exact_square(h)
        s = p1 + p2
        bb = s - p1
        es = (p1 - (s - bb)) + (p2 - bb)
        r = (s - p3) + (((es + e1) + e2) - e3)
        out = (h + r / (2.0 * h)) / scale
    out[big == 0] = 0
    out[np.isnan(big)] = np.nan
    out[np.isinf(ax) | np.isinf(ay)] = np.inf  # (C's hypot(inf, nan) too)
    return np.asarray(out, np.float64).reshape(z.shape)


def exact_square(a):
    """a * a and its rounding error (Dekker's product, exact)."""
    p = a * a
    hi = a * _SPLIT
    hi = hi - (hi - a)
    lo = a - hi
    return p, ((hi * hi - p) + hi * lo + lo * hi) + lo * lo


def _divided_as_c10(z, m):
    """z / complex(m, 0) by c10::complex's division (|real| >= |imag| branch; a NaN m makes
    every part NaN on either branch), 0 where z is 0."""
    re, im = z.real, z.imag
    ratio = np.zeros((), m.dtype) / m
    scale = 1 / (m + 0 * ratio)
    out = np.empty(z.shape, z.dtype)
    out.real = (re + im * ratio) * scale
    out.imag = (im - re * ratio) * scale
    out[z == 0] = 0
    return out
