"""The layout of an elementwise result as PyTorch's TensorIterator allocates it
(mindtorch._strides.iter_result_strides), for the kernels whose NumPy results are laid out
otherwise: NumPy falls back to C order when its operands' layouts differ, and places
size-1 dims its own way."""
import numpy as np
from mindtorch._strides import iter_result_strides

from .._np import _ndarray, wrap


def iter_strides(shape, *operands):
    """The result's strides (elements) for these operands (arrays, or numbers)."""
    return iter_result_strides(shape, [_layout(x) for x in operands])


def _layout(x):
    if type(x) is not _ndarray or not x.ndim:  # (a 0-dim tensor counts as a number)
        return None
    isz = x.itemsize
    return x.shape, tuple([s // isz for s in x.strides])


def iter_wrap(r, dtype, *operands):
    """The tensor of r (a fresh result array) with the strides TensorIterator would give it
    for these operands: r's memory when laid out so, else a copy."""
    if r.size == 0:
        return wrap(r, dtype)
    if _same_layout(r, operands):
        return wrap(r, dtype)
    return wrap_strided(r, dtype, iter_strides(r.shape, *operands))


def iter_result(r, dtype, *operands):
    """The tensor of r (a fresh elementwise result array of these operands: arrays or
    numbers) laid out as TensorIterator would lay it out; no cost when every operand is a
    number or a C-contiguous array (NumPy's C-ordered result is then PyTorch's)."""
    r = np.asarray(r)
    if r.ndim > 1 and any(type(x) is _ndarray and not x.flags.c_contiguous for x in operands):
        return iter_wrap(r, dtype, *operands)
    return wrap(r if r.flags.c_contiguous or r.ndim < 2 else np.ascontiguousarray(r), dtype)


def _same_layout(r, operands):
    """Whether every operand is an array laid out as NumPy laid r out: then dense with
    equal strides, TensorIterator's fast setup keeps them too (a channels-last one's fresh
    strides differ only where its size-1 dims' strides are odd, and NumPy's then differ)."""
    shape, strides = r.shape, r.strides
    for x in operands:
        if type(x) is not _ndarray or x.strides != strides or x.shape != shape:
            return False
    return True


def wrap_strided(r, dtype, strides):
    """The tensor of r with these strides (elements): r's memory when laid out so (size-1
    dims aside), else a copy."""
    isz = r.itemsize
    if tuple([s // isz for s in r.strides]) != strides:
        out = empty_strided(r.shape, r.dtype, strides)
        out[...] = r
        r = out
    t = wrap(r, dtype)
    t._stride = strides  # (wrap gives a C-contiguous array canonical strides on size-1 dims)
    return t


def empty_strided(shape, dtype, strides):
    """An array with these (dense) strides, in elements."""
    n = 1
    for s in shape:
        n *= s
    isz = np.dtype(dtype).itemsize
    return np.ndarray(shape, dtype, np.empty(n, dtype), 0, [s * isz for s in strides])
