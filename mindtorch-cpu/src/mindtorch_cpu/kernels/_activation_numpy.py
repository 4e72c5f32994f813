"""The NumPy steps of the activation loops of kernels/_compiled.py, for float32 and float64
arrays below _jit.MIN_SIZE elements (or without numba): the decompositions' steps (so the
same results) in a few ufunc calls, without the decompositions' per-op costs.  Each takes
the loop's arguments: 1-D arrays, the scalars in their dtype, and `out`.  Those through exp
run silenced (inf and NaN flow through as in PyTorch); the others warn as mindtorch's mul
does (an overflow only)."""
import functools

import numpy as np

from ._box_muller import fma


def _quiet(fn):
    @functools.wraps(fn)
    def quiet(*args):
        with np.errstate(all="ignore"):
            fn(*args)
    return quiet


def sigmoid_backward(g, y, out):  # (g (1 - y)) y
    np.subtract(1, y, out=out)
    np.multiply(g, out, out=out)
    np.multiply(out, y, out=out)


def tanh_backward(g, y, out):
    """g (1 - y^2), 1 - y^2 rounded once as PyTorch's fused multiply-add: float32's in
    float64 (y^2 exact there), float64's as two steps."""
    w = y.astype(np.float64) if y.dtype == np.float32 else y
    w = w * w
    np.subtract(1, w, out=w)
    out[...] = w
    np.multiply(g, out, out=out)


@_quiet
def softplus_backward(g, x, beta, threshold, out):  # g where x beta > threshold, g z / (z + 1)
    bx = x * beta
    z = np.exp(bx)
    np.multiply(g, z, out=out)
    z += 1
    np.divide(out, z, out=out)
    np.copyto(out, g, where=bx > threshold)


@_quiet
def elu_backward(g, x, negcoef, poscoef, negiptcoef, out):
    neg = g * negiptcoef * negcoef * np.exp(x * negiptcoef)
    np.multiply(g, poscoef, out=out)
    np.copyto(out, neg, where=~(x > 0))


@_quiet
def elu_result_backward(g, y, negcoef, poscoef, negiptcoef, out):
    neg = g * negiptcoef * (y + negcoef)
    np.multiply(g, poscoef, out=out)
    np.copyto(out, neg, where=~(y > 0))


def hardswish_backward(g, x, out):  # 0 where x <= -3, g where x >= 3, else g (x / 3 + 1/2)
    np.multiply(g, x / 3 + 0.5, out=out)
    np.copyto(out, g, where=x >= 3)
    np.copyto(out, 0, where=x <= -3)


@_quiet
def log_sigmoid_backward(g, x, out):  # g (1 - t) where x < 0, else g t; t = z / (1 + z)
    z = np.exp(-np.abs(x))
    t = z / (z + 1)
    np.copyto(t, 1 - t, where=x < 0)
    np.multiply(t, g, out=out)


@_quiet
def softplus(x, beta, threshold, out):  # x where x beta > threshold, log1p(exp(x beta)) / beta
    bx = x * beta
    np.log1p(np.exp(bx), out=out)
    if beta != 1:
        out /= beta
    np.copyto(out, x, where=bx > threshold)


@_quiet
def elu(x, negcoef, poscoef, negiptcoef, out):  # x poscoef where x >= 0
    neg = np.expm1(x * negiptcoef if negiptcoef != 1 else x) * negcoef
    np.multiply(x, poscoef, out=out)
    np.copyto(out, neg, where=~(x >= 0))


@_quiet
def log_sigmoid(x, out):  # min(x, 0) - log1p(exp(-|x|))
    np.log1p(np.exp(-np.abs(x)), out=out)
    np.subtract(np.minimum(x, 0), out, out=out)


def _exp(x):
    """exp correctly rounded (float32's through float64): PyTorch's vectorized kernels'
    (Sleef's expf) but on ~1% of inputs, where NumPy's float32 exp differs on ~40%."""
    return np.exp(x, dtype=np.float64).astype(np.float32) if x.dtype == np.float32 \
        else np.exp(x)


@_quiet
def silu(x, out):  # x / (1 + exp(0 - x))
    np.add(_exp(0 - x), 1, out=out)
    np.divide(x, out, out=out)


@_quiet
def silu_backward(g, x, out):  # (g s) fma(x, 1 - s, 1), s = 1 / (1 + exp(0 - x))
    s = np.add(_exp(0 - x), 1)
    np.divide(1, s, out=s)
    np.multiply(g, s, out=out)
    np.subtract(1, s, out=s)
    out *= fma(x, s, np.ones_like(x))  # (the compiler fuses ATen's x * (1 - s) + 1)


NUMPY = {f"{name}_f32": fn for name, fn in (
    ("sigmoid_backward", sigmoid_backward), ("tanh_backward", tanh_backward),
    ("softplus_backward", softplus_backward), ("elu_backward", elu_backward),
    ("elu_result_backward", elu_result_backward),
    ("log_sigmoid_backward", log_sigmoid_backward), ("softplus", softplus), ("elu", elu),
    ("hardswish_backward", hardswish_backward),
    ("log_sigmoid", log_sigmoid), ("silu", silu), ("silu_backward", silu_backward))}
