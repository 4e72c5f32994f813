"""Writing Python scalars into tensors: PyTorch's overflow checks (c10's checked_convert).
Shared by every backend's fill/setitem/masked_fill so they all raise the same error; and a
Python number rounded to float32, as PyTorch's float kernels take a Scalar."""
import math
import struct

from . import _dtype as D

_CAST_NAMES = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t",
               "uint8": "uint8_t", "float32": "float", "float64": "double",
               "float16": "c10::Half", "bfloat16": "c10::BFloat16",
               "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
               "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t"}


def checked_scalar(value, dtype):
    """A Python scalar written into a tensor of `dtype`, checked for overflow as PyTorch
    does when it converts a Scalar (c10's checked_convert): the value itself is returned,
    the cast is left to the kernel."""
    if isinstance(value, int) and not isinstance(value, bool):  # (Python int -> Scalar)
        if value >= 2 ** 64:
            raise OverflowError("int too big to convert")
        if value < -2 ** 63:
            raise OverflowError("can't convert negative int to unsigned")
    if dtype is D.bool or dtype._limited == D._FP8:  # (c10 checks no float8 range)
        return value
    x = value
    if isinstance(x, complex):
        if x.imag != 0 and dtype.kind != "c":
            raise _overflow(dtype)
        x = x.real
    lo, hi = _range(dtype)
    if dtype.kind in "ui":
        bad = x != x or abs(x) == float("inf")
        if not bad:
            if isinstance(x, float):
                bad = x < lo or x > hi
            elif dtype.kind == "u":  # c10 lets negative ints wrap into unsigned types
                bad = abs(x) > hi
            else:
                bad = x < lo or x > hi
    else:
        bad = x == x and abs(x) != float("inf") and abs(float(x)) > hi
    if bad:
        raise _overflow(dtype)
    return value


_RANGES = {}


def _range(dtype):
    r = _RANGES.get(dtype)
    if r is None:
        if dtype.kind in "ui":
            info = D.iinfo(dtype)
            r = (info.min, info.max)
        else:
            big = D.finfo(dtype.to_real()).max
            r = (-big, big)
        _RANGES[dtype] = r
    return r


def _overflow(dtype):
    name = _CAST_NAMES.get(dtype.name) or D.CPP_NAMES[dtype.name]
    return RuntimeError(f"value cannot be converted to type {name} without overflow")


def checked_float8_fill(value, dtype):
    """c10's check of a Scalar filling a float8 tensor of more than one element (one element
    is written unchecked): beyond the finite range is an overflow, and so is an infinity
    for the types without one; a complex value must be real (any complex, for e8m0fnu)."""
    x = value
    if isinstance(x, complex):
        if x.imag != 0 or dtype is D.float8_e8m0fnu:
            raise _overflow(dtype)
        x = x.real
    if isinstance(x, bool) or math.isnan(x):
        return value
    if dtype is D.float8_e8m0fnu and isinstance(x, float) and x < 2.0 ** -127:
        raise _overflow(dtype)  # (below its lowest, 0.0 and negatives too; ints are not)
    if abs(x) == float("inf"):
        if dtype is not D.float8_e5m2:
            raise _overflow(dtype)
    elif abs(x) > D.finfo(dtype).max:
        raise _overflow(dtype)
    return value


def float32_value(v):
    """A Python number rounded to float32, as a Python float (PyTorch's float32 math takes
    a Scalar that way)."""
    return struct.unpack("f", struct.pack("f", v))[0]
