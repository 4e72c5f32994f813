"""The scalar code of ATen's activation kernels, for the elements its vectorized loop leaves
to it: at the end of each parallel chunk (grain 32768 elements, ceil(n / threads) each) of a
dense operand, the fewer than two vectors left (16 / 32 floats on AVX2 / AVX-512: these ops
register AVX-512 kernels).  The scalar code differs from the vector code the loops of
_compiled.py and _activation_numpy.py replay: `x <= 0 ? ...` where the vector blends on
x > 0 (a NaN x takes the other branch; hardswish' x < 3 likewise), and libm's exp instead
of Sleef's (the last bit).  Each fix takes the loop's arguments (1-D slices, its scalars)
and returns the slice's result."""
import numpy as np

from . import _libm
from ._box_muller import fma
from ._cpu_capability import vector_bytes
from ._vector_loop import thread_chunk


def scalar_ranges(n, itemsize):
    """(start, stop) of the runs of a dense n-element operand that the scalar code computes
    (in an op with an AVX-512 kernel); DEFAULT: all of it."""
    width = vector_bytes(True)
    if width is None:
        return [(0, n)]
    block = 2 * width // itemsize
    chunk = thread_chunk(n)
    ranges = []
    for start in range(0, n, max(chunk, 1)):
        stop = min(start + chunk, n)
        tail = stop - (stop - start) % block
        if tail < stop:
            ranges.append((tail, stop))
    return ranges


def _exp(x):
    return _libm.call("exp", x)


def _quiet(fn):
    def quiet(*args):
        with np.errstate(all="ignore"):
            return fn(*args)
    return quiet


@_quiet
def _softplus_backward(g, x, beta, threshold):  # z = exp(x beta); x beta > threshold ? g : g z / (z + 1)
    bx = x * beta
    z = _exp(bx)
    return np.where(bx > threshold, g, g * z / (z + 1))


@_quiet
def _elu_backward(g, x, negcoef, poscoef, negiptcoef):
    return np.where(x <= 0, g * negiptcoef * negcoef * _exp(x * negiptcoef), g * poscoef)


@_quiet
def _elu_result_backward(g, y, negcoef, poscoef, negiptcoef):
    return np.where(y <= 0, g * negiptcoef * (y + negcoef), g * poscoef)


@_quiet
def _hardswish_backward(g, x):  # (a NaN x: g)
    return np.where(x <= -3, 0, np.where(x < 3, g * (x / 3 + 0.5), g)).astype(g.dtype)


@_quiet
def _silu(x):  # x / (1 + exp(-x))
    return x / (1 + _exp(-x))


@_quiet
def _silu_backward(g, x):  # (g s) (1 + x (1 - s)), s = 1 / (1 + exp(-x)); the compiler's FMA
    s = 1 / (1 + _exp(-x))
    return (g * s) * fma(x, 1 - s, np.ones_like(x))


SCALAR = {"softplus_backward_f32": _softplus_backward, "elu_backward_f32": _elu_backward,
          "elu_result_backward_f32": _elu_result_backward,
          "hardswish_backward_f32": _hardswish_backward,
          "silu_f32": _silu, "silu_backward_f32": _silu_backward}


def apply(loop, flat, scalars, out):
    """Overwrite the scalar code's elements of `out` (1-D, dense operands `flat`) for `loop`."""
    fix = SCALAR.get(loop)
    if fix is None:
        return
    for start, stop in scalar_ranges(out.size, out.itemsize):
        out[start:stop] = fix(*(f[start:stop] for f in flat), *scalars)
