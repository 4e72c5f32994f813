"""The C library's math functions over arrays, for kernels replaying PyTorch's scalar CPU
code (std::log, std::cos, ... of a float or a double: libm's logf / log, ...).

NumPy's ufuncs are not the C library's: on AVX-512 machines np.log / np.log1p / np.exp /
np.tan of float64 and np.log / np.cos / np.sin of float32 are NumPy's own SIMD code, which
differs from glibc in the last bit for a few percent of the inputs (one such bit flips a
sample of randn, exponential_, ...).  So, per function and dtype: NumPy where it gives the C
library's bits on this machine (a probe, once: machines without NumPy SIMD versions of the
function), else numba loops calling libm (kernels/_libm_loops.py) from _jit.EARLY_MIN_SIZE elements
or once loaded, else one element at a time: Python's math module for doubles, libm through
ctypes for floats (about 0.25 us each), else (no C library found) NumPy."""
import ctypes
import ctypes.util
import functools
import math

import numpy as np

from . import _jit

NAMES = ("log", "log1p", "exp", "cos", "sin", "tan", "lgamma", "erfc")
# (Python's math.lgamma is its own code, not the C library's)
_NOT_LIBM_IN_PYTHON = {"lgamma"}
_C_TYPES = {np.dtype(np.float64): ("", ctypes.c_double),
            np.dtype(np.float32): ("f", ctypes.c_float)}


def _c_library():
    for name in (ctypes.util.find_library("m"), ctypes.util.find_library("c"), None):
        try:
            library = ctypes.CDLL(name)
            if hasattr(library, "log1pf"):  # (CDLL(None): the process's symbols, libm's too)
                return library
        except OSError:
            continue
    return None


_LIBRARY = _c_library()


@functools.cache
def c_function(name, dtype, arity=1):
    """The C library's `name` for `dtype` through ctypes (float32: the f-suffixed one, logf,
    powf, ...) taking `arity` arguments, or None without a C library: the one place kernels
    load libm's functions from."""
    if _LIBRARY is None:
        return None
    suffix, c_type = _C_TYPES[np.dtype(dtype)]
    f = getattr(_LIBRARY, name + suffix, None)
    if f is not None:
        f.restype, f.argtypes = c_type, [c_type] * arity
    return f


def _loops(size):
    loops = _jit.early("_libm_loops", size)
    if loops is None:
        return None
    import numba
    return None if numba.config.USING_SVML else loops


def call(name, x):
    """libm's `name` (one of NAMES) of each element of x: float32 arrays through the float
    functions (logf, ...), anything else as float64 (log, ...).  Returns a new array."""
    x = np.asarray(x)
    x = x if x.dtype == np.float32 else x.astype(np.float64, copy=False)
    if _numpy_is_libm(name, x.dtype):
        return getattr(np, name)(x)
    flat = np.ascontiguousarray(x).reshape(-1)
    loops = _loops(flat.size)
    if loops is not None:
        out = np.empty_like(flat)
        loops.apply(loops.CODES[name], flat, out)
    else:
        out = _one_at_a_time(name, flat)
    return out.reshape(x.shape)


def _one_at_a_time(name, flat):
    out = _python_math(name, flat) if flat.dtype == np.float64 and \
        name not in _NOT_LIBM_IN_PYTHON else None
    if out is None:
        out = np.fromiter(map(c_function(name, flat.dtype), flat.tolist()), flat.dtype,
                          flat.size)
    return out


# inputs like the samplers': uniforms in (0, 1) and what they map them to
_PROBES = {"log": lambda u: u, "log1p": lambda u: -u, "exp": lambda u: (u - 0.5) * 40,
           "cos": lambda u: u * 6.283185307179586, "sin": lambda u: u * 6.283185307179586,
           "tan": lambda u: (u - 0.5) * 3.141592653589793}


@functools.cache
def _numpy_is_libm(name, dtype):
    """Whether NumPy's `name` gives the C library's bits for `dtype` here (probed once on
    4096 sampler-like inputs; without a C library NumPy is all there is)."""
    if _LIBRARY is None:
        return True
    if name not in _PROBES:  # (NumPy has no such function)
        return False
    u = np.random.default_rng(0).random(4096)
    probe = np.asarray(_PROBES[name](u), dtype)
    return np.array_equal(getattr(np, name)(probe), _one_at_a_time(name, probe))


def _python_math(name, flat):
    """Python's math module: the C library's double functions (about 4x faster than ctypes
    calls), or None where it raises instead of returning C's inf / NaN (log(0), exp(1000))."""
    try:
        return np.fromiter(map(getattr(math, name), flat.tolist()), np.float64, flat.size)
    except (ValueError, OverflowError):
        return None
