"""float32 powers, and float64 ones by a Python number, as PyTorch's CPU pow kernels
compute them (exponents other than the Python numbers it turns into products, sqrt or
reciprocals).

ATen's pow_tensor_scalar kernel (it registers an AVX-512 one) takes the exponent as a
double: its scalar loop computes std::pow(double(x), e) rounded to float, its vector loop
SLEEF's 1-ulp powf(x, float(e)).  NumPy's float32 power is neither (on AVX-512 machines
its own SIMD code: it differs from PyTorch on ~12% of inputs, and on a 0-dim tensor, which
PyTorch computes in the scalar loop, on ~0.5%).  Here: the scalar loop's elements
(kernels/_vector_loop.py says which) exactly so, the vector loop's as the double power of
float(e) rounded once, the correctly rounded powf, which agrees with SLEEF on ~99%.
float64: the scalar loop's elements by the C library's pow, the others by NumPy's."""
import math

import numpy as np

from ._cpu_capability import vector_bytes
from ._libm import c_function
from ._vector_loop import _GRAIN, scalar_loop_mask

_SHORTEST_BLOCK = 16  # (floats in two AVX2 vectors: fewer go through the scalar loop)


def float32_pow_number(a, e):
    """a (a float32 array) ** e (a Python int or float), a new float32 array."""
    wide = a.astype(np.float64)
    as_float = float(np.float32(e))
    if a.size < _SHORTEST_BLOCK or np.isnan(e):  # (all of it in the scalar loop)
        as_float = e
    out = np.power(wide, as_float, out=np.empty_like(wide))  # (an array for a 0-dim a too)
    if as_float != e:  # (the scalar loop's exponent is e itself)
        scalar = _scalar_loop(a)
        out[scalar] = np.power(wide[scalar], float(e))
    return out.astype(np.float32)


def float32_pow(a, b):
    """a ** b of a float32 result (arrays or Python numbers, each cast to float32 first, as
    TensorIterator casts them), a new float32 array: PyTorch's pow_tensor_tensor kernel
    computes std::pow(float, float) (libm's powf) in its scalar loop and SLEEF's powf in
    its vector one, both the correctly rounded power but on rare near ties: so here the
    double power rounded once.  (NumPy's float32 power on AVX-512 machines is its own code:
    1.3 ** 2 was an ulp off.)"""
    base, exponent = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b))
    return np.asarray(np.power(base, exponent)).astype(np.float32)


def float64_pow_number(a, e):
    """a (a float64 array) ** e (a Python int or float), a new float64 array: std::pow in
    PyTorch's scalar loop (NumPy's float64 power is its own SIMD code on AVX-512 machines,
    ~5% of results an ulp apart), NumPy's power on the vector loop's elements (SLEEF's pow
    there, both within an ulp)."""
    e = float(e)
    if a.size < _SHORTEST_BLOCK // 2:
        return c_pow(a, e)
    out = np.power(a, e)
    scalar = _scalar_loop(a)
    out[scalar] = c_pow(a[scalar], e)
    return out


def _scalar_loop(a):
    """Mask of the elements of a the pow_tensor_scalar kernel computes in its scalar loop
    (a C-contiguous a below the parallel grain: its last < 2 vectors, without the general
    walk of kernels/_vector_loop.py)."""
    if not (a.flags.c_contiguous and a.size < _GRAIN):
        return scalar_loop_mask(a, avx512_kernel=True)
    width = vector_bytes(True)
    mask = np.zeros(a.shape, bool)
    mask.reshape(-1)[0 if width is None else a.size - a.size % (2 * width // a.itemsize):] = 1
    return mask


_C_POW = c_function("pow", np.float64, 2)


def c_pow(x, e):
    """The C library's pow(x, e) of each pair of doubles (x and e broadcast; either may be a
    number): Python's math.pow (libm's pow), or through ctypes where math raises instead of
    returning inf / NaN."""
    x, e = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(e, np.float64))
    bases, exponents = x.reshape(-1).tolist(), e.reshape(-1).tolist()
    try:
        out = list(map(math.pow, bases, exponents))
    except (ValueError, OverflowError):
        out = list(map(_C_POW, bases, exponents)) if _C_POW is not None else \
            np.power(bases, exponents)
    return np.asarray(out, np.float64).reshape(x.shape)
