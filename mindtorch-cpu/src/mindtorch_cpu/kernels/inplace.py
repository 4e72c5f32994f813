"""In-place arithmetic that writes into self's memory (optimizer updates, `x += y`).

Core declares `op_` as `op` + copy_ (decls/_helpers.define_inplace), right for every dtype
and layout but a full extra pass plus a result and a copy.  These kernels take the common
case in one or two ufunc passes with `out=` (or one compiled loop, _update_loops.py, for
`lerp_`, `addcmul_`, `addcdiv_` on same-shape contiguous operands): self float32/float64
(or int32/int64 for `add_`, `sub_`, `mul_`: a step counter's `add_(1)`) with no element
written twice, tensor operands of self's dtype that share memory with self only as self
itself, and Python numbers for the scalars (int/float; ints only, in range, for an integer
self, whose arithmetic wraps as PyTorch's).  Any other call runs
the op's decomposition, so the checks, errors and promotion stay the core's.  The
arithmetic is the decomposition's, step for step, so results are bit-identical to it.
(When autograd records, the binding runs the decomposition anyway: see
autograd/_record.py.)
"""
import numpy as np
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch._ops import OPS

from .._np import arr
from . import _jit
from .pointwise import _FMA
from .pointwise import _clip_ufunc as _clip

_SCALARS = {D.float32: np.float32, D.float64: np.float64}  # the fast path's dtypes
_INTEGERS = {D.int64: (np.int64, -2 ** 63, 2 ** 63), D.int32: (np.int32, -2 ** 31, 2 ** 31)}
_INTEGER_OPS = ("add_", "sub_", "mul_")  # (exact in the dtype: no promotion to follow)
_F32_MAX = float(np.finfo(np.float32).max)
_INF = float("inf")


class _Slow(Exception):
    """Raised by a computation (before writing) to leave the call to the decomposition."""


def _operands(self, operands, integers=False):
    """numpy operands for the fast path, or None when the decomposition must run
    (integers: whether an int32/int64 self takes it)."""
    dt = self.dtype
    scalar, low, high = _SCALARS.get(dt), -2 ** 63, 2 ** 64
    if scalar is None and integers and dt in _INTEGERS:
        scalar, low, high = _INTEGERS[dt]
    if scalar is None or 0 in self._stride:
        return None
    out = [arr(self)]
    for x in operands:
        t = type(x)
        if t is Tensor or isinstance(x, Tensor):  # (nn.Parameter too)
            if x.dtype is not dt or (x._storage is self._storage and x is not self and (
                    x._offset != self._offset or x._stride != self._stride
                    or x._shape != self._shape)):
                return None
            out.append(arr(x))
        elif t is float:  # (checked_scalar's overflow test, inline: the decomposition raises)
            if scalar is np.float32 and _F32_MAX < abs(x) < _INF or high < 2 ** 64:
                return None  # (an integer self: a float makes the decomposition raise)
            out.append(scalar(x))
        elif t is int:
            if not low <= x < high:
                return None
            out.append(scalar(x))
        elif x is None:
            out.append(x)
        else:
            return None
    return out


def _fast(name, compute):
    """Kernel for in-place op `name`: compute(*numpy operands) writes into the first one,
    or raises _Slow / ValueError (operands that do not broadcast to it) before writing."""
    op, integers = OPS[name], name in _INTEGER_OPS

    def kernel(self, *args):
        ops = _operands(self, args, integers)
        if ops is not None:
            try:
                compute(*ops)
                return self
            except (_Slow, ValueError):
                pass
        from mindtorch._ops.dispatch import _decomposition
        return _decomposition(op)(self, *args)
    kernel.__name__ = name
    return kernel


def _loops(size):
    """kernels._update_loops for `size` elements, or None (see _jit.compiled)."""
    return _jit.compiled("_update_loops", size)


def _contiguous(a):
    """a, or a C-contiguous copy of it (of its shape: np.ascontiguousarray makes 0-d 1-d)."""
    return a if a.flags.c_contiguous else a.copy()


def _add(a, b, alpha):
    # (the product and the sum round separately: see pointwise._scaled on PyTorch's fmadd)
    np.add(a, b if alpha == 1 else np.multiply(b, alpha), out=a)


def _sub(a, b, alpha):
    np.subtract(a, b if alpha == 1 else np.multiply(b, alpha), out=a)


def _div(a, b, rounding_mode):
    if rounding_mode is not None:
        raise _Slow
    np.true_divide(a, b, out=a)


def _flat(a, *operands):
    """The compiled loops, when they apply: operands of a's shape, all C-contiguous."""
    loops = _loops(a.size)
    if loops is not None and a.flags.c_contiguous and all(
            x.shape == a.shape and x.flags.c_contiguous for x in operands):
        return loops
    return None


def _addcmul(a, t1, t2, value):
    # the decomposition's: self + (value * t1) * t2, float32's product-sum rounded once
    # (PyTorch's fmadd; in float64, which holds the float32 product exactly, as the core)
    fused = a.dtype == np.float32
    loops = _flat(a, t1, t2)
    if loops is not None:
        loops.addcmul(a.ravel(), t1.ravel(), t2.ravel(), value, fused)
        return
    scaled = t1 if value == 1 else np.multiply(value, t1)
    if fused:
        np.add(np.multiply(scaled, t2, dtype=np.float64), a, out=a, casting="unsafe")
    else:
        np.add(a, np.multiply(scaled, t2), out=a)


def _addcdiv(a, t1, t2, value):
    # self + value * t1 / t2
    loops = _flat(a, t1, t2)
    if loops is not None:
        loops.addcdiv(a.ravel(), t1.ravel(), t2.ravel(), value)
        return
    np.add(a, np.divide(t1 if value == 1 else np.multiply(value, t1), t2), out=a)


def _lerp(a, end, weight):
    # the lerp kernel's formula: fmadd(small ? w : w - 1, end - self, small ? self : end)
    if type(weight) is np.ndarray:
        raise _Slow  # a tensor weight: elementwise choice (and its own promotion rules)
    small = abs(weight) < 0.5
    coeff, base = (weight, a) if small else (weight - 1, end)  # (in a's dtype)
    if a.size >= _jit.MIN_SIZE:  # the compiled loop (or fma's, for other layouts)
        loops = _flat(a, end)
        if loops is not None:
            loops.lerp(a.ravel(), end.ravel(), coeff, small)
        else:
            np.copyto(a, fma(coeff, np.subtract(end, a), base))
        return
    d = np.subtract(end, a)
    wide = _FMA.get(a.dtype)  # the product exact in a wider type, as fma's NumPy path
    if wide is None:
        np.add(np.multiply(d, coeff, out=d), base, out=a)
    else:
        np.add(np.multiply(d, coeff, dtype=wide), base, out=a, casting="unsafe")


def fma(x, y, z):
    """x * y + z rounded once per element (broadcast; one float dtype), as PyTorch's fmadd:
    compiled, else through a wider type holding the product exactly (pointwise._FMA), else
    rounded twice."""
    x, y, z = np.broadcast_arrays(x, y, z)
    loops = _loops(z.size)
    if loops is not None:
        x, y, z = map(_contiguous, (x, y, z))
        out = np.empty(z.shape, z.dtype)
        loops.fma(x.ravel(), y.ravel(), z.ravel(), out.ravel())
        return out
    wide = _FMA.get(np.result_type(x, y, z))
    if wide is None:
        return x * y + z
    return (np.multiply(x, y, dtype=wide) + z).astype(np.result_type(x, y, z))


def _clamp(a, low, high):
    # the decomposition's clip ufunc with number bounds (NaN, tensor or no bound: its path)
    if type(low) is np.ndarray or type(high) is np.ndarray or low is None is high or \
            low != low or high != high:
        raise _Slow
    _clip(a, -_INF if low is None else low, _INF if high is None else high, out=a)


_COMPUTE = {
    "clamp_": _clamp,
    "add_": _add,
    "sub_": _sub,
    "mul_": lambda a, b: np.multiply(a, b, out=a),
    "div_": _div,
    "addcmul_": _addcmul,
    "addcdiv_": _addcdiv,
    "lerp_": _lerp,
    "sqrt_": lambda a: np.sqrt(a, out=a),
    # (not np.negative(a, out=a): numpy 2.4's 4-byte negative writes a strided (n, 1)
    # column wrongly, reading it as contiguous)
    "neg_": lambda a: np.copyto(a, np.negative(a)),
}

KERNELS = {name: _fast(name, fn) for name, fn in _COMPUTE.items()}
