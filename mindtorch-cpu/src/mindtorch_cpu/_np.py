"""Bridging tensors and numpy arrays inside CPU kernels (the hot path of every op)."""
import warnings

import numpy as np
from mindtorch import Tensor, plugins
from mindtorch import _float8 as float8
from mindtorch._device import canonical
from mindtorch._dtype import _FP8
from mindtorch._storage import UntypedStorage
from mindtorch._tensor import contiguous_strides

from . import _quiet

CPU = canonical("cpu")
_new = object.__new__
_ndarray = np.ndarray
_CONTIGUOUS = {}  # shape -> contiguous strides


def arr(t):
    """The numpy view of a cpu tensor (cached on the tensor: metadata never changes
    in place without clearing it)."""
    filters = warnings.filters  # (_quiet: its filter must stay first; one identity test)
    if not filters or filters[0] is not _quiet.FILTER:
        _quiet.install()
    a = t._cache
    if a is None:
        if t._device is not CPU:
            return np.asarray(plugins.host_array(t))
        isz = t.dtype.itemsize
        # an empty view may sit past the end of its storage: numpy wants offset 0 then
        offset = 0 if 0 in t._shape else t._offset * isz
        a = t._cache = _ndarray(t._shape, t.dtype.np, t._storage._handle, offset,
                                tuple([s * isz for s in t._stride]))
    return a


_HALF, _SINGLE, _DOUBLE = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_BYTE = np.dtype(np.uint8)


def cast(a, np_dtype):
    """a (array or scalar) as np_dtype, as c10 converts: a double becomes a float16 through
    float32 (c10::Half is built from a float), rounding twice where NumPy rounds once."""
    a = np.asarray(a)
    if np_dtype == _HALF and a.dtype.itemsize > 4 and a.dtype.kind in "fc":
        a = (a.real if a.dtype.kind == "c" else a).astype(_SINGLE)
    elif np_dtype == _BYTE and a.dtype == _DOUBLE:  # (PyTorch's double -> uint8 goes through
        a = a.astype(np.int64)                       # int64: out-of-range values wrap alike)
    return a.astype(np_dtype)


def wrap(a, dtype):
    """A tensor adopting `a` (a fresh result array, or numpy scalar) as its storage."""
    if type(a) is not _ndarray:
        a = np.asarray(a)
    if a.dtype is not dtype.np and a.dtype != dtype.np:
        a = cast(a, dtype.np) if dtype._limited != _FP8 else float8.cast(a, dtype)
    isz = a.itemsize
    handle = a
    if not a.flags.c_contiguous:  # (a matrix: its transpose, without argsort's ~2 us)
        handle = a.T if a.ndim == 2 else a.transpose(
            np.argsort([-s for s in a.strides], kind="stable"))
        if not handle.flags.c_contiguous:
            a = handle = np.ascontiguousarray(a)
    s = _new(UntypedStorage)
    s._handle = handle
    s._nbytes = a.nbytes
    s.device = CPU
    t = _new(Tensor)
    t._storage = s
    shape = t._shape = a.shape
    if handle is a:  # C-contiguous: canonical strides, cached per shape
        stride = _CONTIGUOUS.get(shape)
        if stride is None:
            stride = _CONTIGUOUS[shape] = contiguous_strides(shape)
        t._stride = stride
    else:
        t._stride = tuple([st // isz for st in a.strides])
    t._offset = 0
    t.dtype = dtype
    t._device = CPU
    t._version_counter = [0]
    t._cache = a
    t._base = t._grad_fn = t._grad = t._autograd_meta = None  # (as Tensor._make: no history)
    t._requires_grad = False
    t._output_nr = t._grad_version = 0
    return t


