"""pow's element-wise computation (elementwise_pow), as PyTorch's CPU kernels do it; below,
float32 powers, and float64 ones by a Python number, as PyTorch's CPU pow kernels
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
from mindtorch import _dtype as D

from ._cpu_capability import vector_bytes
from ._libm import c_function
from ._reduced_rsqrt import reduced_rsqrt
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


def elementwise_pow(a, b):
    """a ** b for NumPy operands (arrays or scalars) of the computation dtype, as PyTorch's
    CPU pow kernels compute it: integer, complex, the Python-number exponents it turns into
    products, sqrt or reciprocals, and float32 / float64 powers (below)."""
    a_, b_ = np.asarray(a), np.asarray(b)
    if a_.dtype.kind in "ui" and b_.dtype.kind == "i" and np.any(b_ < 0):
        # PyTorch's integer pow for negative tensor exponents: 1 and -1 keep their
        # magnitude, anything else truncates to 0
        neg = b_ < 0
        r = np.power(a_, np.where(neg, 0, b_))
        odd = (b_ % 2).astype(bool)
        at_neg = np.where(a_ == 1, 1, np.where(a_ == -1, np.where(odd, -1, 1), 0))
        return np.where(neg, at_neg, r).astype(r.dtype)
    if a_.dtype.kind == "c":
        return _complex_pow(a_, b_, isinstance(b, np.generic))
    if (type(b) in (int, float) or isinstance(b, np.generic)) and a_.dtype in _MULTIPLIED \
            and b in _MULTIPLIED[a_.dtype]:
        # PyTorch's pow by these Python numbers: products, sqrt and reciprocals rounded as
        # those (x ** 3 is (x * x) * x), not std::pow (also ~20x faster than NumPy's)
        return _MULTIPLIED[a_.dtype][b](a_)
    if a_.dtype == np.float32 and type(b) in (int, float):
        return float32_pow_number(a_, b)  # (as PyTorch's loops: not NumPy's float32 power)
    if np.result_type(a, b) == np.float32:
        return float32_pow(a_, b_)
    if a_.dtype == np.float64 and type(b) in (int, float):
        return float64_pow_number(a_, b)
    return np.power(a, b)


def _in_float(fn):  # (bfloat16's sqrt, rsqrt and reciprocal compute in float32)
    return lambda a: fn(a.astype(np.float32)).astype(a.dtype)


_PRODUCTS = {2: lambda a: a * a, 3: lambda a: a * a * a, -2: lambda a: 1 / (a * a)}
_ROOTS = {-1: lambda a: 1 / a, 0.5: np.sqrt, -0.5: lambda a: 1 / np.sqrt(a)}
_MULTIPLIED = {np.dtype(np.float32): {**_PRODUCTS, **_ROOTS},
               D.bfloat16.np: {**_PRODUCTS, **{e: _in_float(f) for e, f in _ROOTS.items()},
                               -0.5: lambda a: reduced_rsqrt(a, avx512_kernel=True)}}
_MULTIPLIED[np.dtype(np.float64)] = _MULTIPLIED[np.dtype(np.float32)]


def _complex_pow(a, b, scalar_exponent):
    """PyTorch's complex pow: exp(b * log(a)) (so 0 ** 0 is nan), except for the exponents
    of a Python scalar it computes by multiplication, sqrt or reciprocal."""
    if scalar_exponent:
        e = b[()]
        if e == 0:
            return np.ones_like(a)
        if e == 1:
            return a.copy()
        if e == 2:
            return a * a
        if e == 3:
            return a * a * a
        if e == 0.5:
            return np.sqrt(a)
        if e == -0.5:
            return 1 / np.sqrt(a)
        if e == -1:
            return 1 / a
        if e == -2:
            return 1 / (a * a)
    return np.exp(b * np.log(a))
