"""PyTorch's sgn of complex numbers, z / |z| (0 at 0), as its two code paths compute it.

|z| is hypot(re, im) on both (SLEEF's 0.5-ulp hypot on the vector path, the C library's on
the scalar one: NumPy's hypot is the latter, and its complex abs differs from both on ~25%
of inputs).  The vector path (sgn registers an AVX-512 kernel) divides the parts apart;
the scalar one divides by the complex number (|z|, 0) the way c10::complex does (NumPy's
algorithm: a reciprocal times the parts, so (inf+0j) gives nan+nanj and the last bit can
differ from the vector path's quotient)."""
import numpy as np

from ._vector_loop import scalar_loop_mask


def complex_sgn(a):
    re, im = a.real, a.imag
    m = np.hypot(re, im)
    zero = m == 0
    d = np.where(zero, 1, m)
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = np.where(zero, 0, re / d), np.where(zero, 0, im / d)
    scalar = scalar_loop_mask(a, avx512_kernel=True)
    if scalar.any():
        out[scalar] = _divided_as_c10(a[scalar], m[scalar])
    return out


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
