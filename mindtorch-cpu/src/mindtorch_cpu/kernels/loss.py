"""CPU kernels: loss ops (the others decompose into pointwise and reduction ops).

nll_loss (cross_entropy's second half) and its backward are fused: their decompositions
take ~15 small ops each, which is most of a small classifier's loss time.  The arithmetic
is the decompositions' (same operations in the same dtype), checks and errors the core's.
binary_cross_entropy_with_logits is fused for its common case (no weights, input and
target of one float dtype and shape); any other call runs its decomposition.
"""
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._ops.decls import loss as L

from .._np import arr, wrap
from . import ctc, reduction
from ._iter_layout import iter_wrap
from ._nll_order import PLAIN_ROWS, cascade_every_row, nll_sums, plain_total, target_positions
from .pointwise import log1p


def _parts(target, weight, ignore_index, np_dtype, n_classes):
    """(valid, safe targets with ignored ones at 0, each target's weight, 0 if ignored)."""
    t = arr(target)
    valid = t != ignore_index
    safe = np.where(valid, t, 0).astype(np.int64, copy=False)
    if weight is None or not n_classes:
        w = valid.astype(np_dtype)
    else:
        w = np.where(valid, arr(weight)[safe], np_dtype.type(0))
    return valid, safe, w


def _class_positions(shape, safe):
    """Flat positions, in a C-contiguous array of `shape` (N, C, *S), of each target's class
    (safe: (N, *S)): one np.take / assignment, where take_along_axis / put_along_axis
    build broadcast index grids (~10x the time on segmentation maps)."""
    n, c = shape[:2]
    spatial = math.prod(shape[2:])
    rows = np.arange(n).reshape(n, 1) * (c * spatial)
    pos = safe.reshape(n, spatial) * spatial
    pos += rows
    if spatial > 1:
        pos += np.arange(spatial)
    return pos.reshape(safe.shape)


def _plain(x, t, weight, ignore_index, n_classes):
    """The common case, (N, C) input without weight and every target a class: the same
    arithmetic (a weight of 1 per row) with plain row indexing."""
    if not (weight is None and x.ndim == 2 and x.dtype.kind == "f" and x.dtype.itemsize >= 4
            and t.size and ignore_index < 0):
        return False
    if t.dtype == np.int64:  # one reduction: negative targets read as unsigned are huge
        return np.maximum.reduce(t.view(np.uint64)) < n_classes  # (ndarray.max: +0.2 us)
    return t.min() >= 0 and t.max() < n_classes


def _nll_loss(self, target, weight, reduction, ignore_index):
    n_classes = L._nll_checks(self, target, weight)
    t = arr(target)
    x = arr(self)
    if _plain(x, t, weight, ignore_index, n_classes):
        if reduction == 0:
            loss = np.negative(x[np.arange(t.size), t])
        elif t.size <= PLAIN_ROWS and x.flags.c_contiguous:
            loss = plain_total(x, t)
        else:
            loss = cascade_every_row(np.negative(x[np.arange(t.size), t]))
        if reduction == 1:
            loss = loss / x.dtype.type(t.size)
        return wrap(loss, self.dtype)  # (x's dtype: a scalar or an array of it)
    bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
    if bad.any():
        raise IndexError(f"Target {t[bad].reshape(-1)[0]} is out of bounds.")
    valid, safe, w = _parts(target, weight, ignore_index, x.dtype, n_classes)
    if not n_classes:
        picked = np.zeros(t.shape, x.dtype)
    elif x.ndim == 1:
        picked = x[safe.reshape(-1)].reshape(())
        valid, w = valid.reshape(()), w.reshape(())
    elif x.flags.c_contiguous:  # (N, C) or (N, C, H, W): the target's class of each row
        picked = x.reshape(-1).take(_class_positions(x.shape, safe))
    else:
        picked = np.take_along_axis(x, safe[:, None], 1)[:, 0]
    loss = np.where(valid, -picked * w, x.dtype.type(0))
    if reduction == 0:  # (a 1-dim input's loss is its sum of one row: never -0)
        return wrap(loss + x.dtype.type(0) if x.ndim == 1 else loss, self.dtype)
    total, count = nll_sums(loss, valid, None if weight is None else w)
    if reduction == 1:  # a zero weight sum (every target ignored) divides as PyTorch's, quietly
        with np.errstate(divide="ignore", invalid="ignore"):
            total = total / count
    return wrap(np.asarray(total, x.dtype), self.dtype)


def _nll_loss_backward(grad, target, weight, self_size, reduction, ignore_index):
    shape = tuple(self_size)
    dt = arr(grad).dtype
    out = np.zeros(shape, dt)
    n_classes = shape[0 if len(shape) == 1 else 1]
    if not n_classes:
        return wrap(out, grad.dtype)
    t = arr(target)
    if _plain(out, t, weight, ignore_index, n_classes):
        coef = np.negative(arr(grad))
        if reduction == 1:
            coef = coef / dt.type(t.size)
        if t.size <= PLAIN_ROWS:
            out.ravel()[target_positions(shape, t)] = coef
        else:
            out[np.arange(t.size), t] = coef
        return wrap(out, grad.dtype)
    valid, safe, w = _parts(target, weight, ignore_index, dt, n_classes)
    if len(shape) == 1:
        valid, w, safe = valid.reshape(()), w.reshape(()), safe.reshape(1)
    g = np.negative(arr(grad))
    if reduction == 1:  # ATen's steps: grad / the forward's total weight, negated, times w
        count = (dt.type(np.count_nonzero(valid)) if weight is None
                 else nll_sums(w, valid, None)[0])  # (the weights' sum in ATen's order)
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.negative(arr(grad) / count)
    coef = w * g
    coef = np.where(valid, coef, dt.type(0))
    if len(shape) == 1:
        out[safe] = coef.reshape(1)
    else:
        out.reshape(-1)[_class_positions(shape, safe)] = coef
    return wrap(out, grad.dtype)


def _bce_with_logits(self, target, weight=None, pos_weight=None, reduction=0):
    """(1 - t) x - log_sigmoid(x), log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)) (the
    decomposition's _log_sigmoid evaluates both of its branches over every element; log1p
    is the compiled float32 loop from _jit.MIN_SIZE elements, see pointwise.log1p).  The
    loss is laid out as target (PyTorch computes it in place into 1 - target)."""
    if not (weight is None and pos_weight is None and self.dtype is target.dtype
            and self.dtype in (D.float32, D.float64) and self._shape == target._shape):
        from mindtorch._ops.dispatch import _decomposition
        return _decomposition(OPS["binary_cross_entropy_with_logits"])(
            self, target, weight, pos_weight, reduction)
    x, t = arr(self), arr(target)
    with np.errstate(all="ignore"):
        r = np.abs(x, out=np.empty(x.shape, x.dtype))  # (an array for a 0-dim x too)
        np.negative(r, out=r)
        np.exp(r, out=r)
        r = log1p(r)  # -log_sigmoid(x) - max(-x, 0)
        r -= np.minimum(x, 0)
        r += (1 - t) * x
    return L._reduce(iter_wrap(r, self.dtype, t), reduction)


_MSE_DTYPES = (D.float32, D.float64)
_REDUCTIONS = {1: reduction.mean, 2: reduction.KERNELS["sum"]}


def _mse_loss(self, target, reduction):
    """The mean or sum of (self - target)^2 for contiguous operands of one float dtype and
    shape: the decomposition's sub and mul as NumPy calls, then its reduction kernel on the
    contiguous squares (so its bits), without three ops' per-call costs; else the
    decomposition."""
    if not (reduction in (1, 2) and self.dtype is target.dtype and self.dtype in _MSE_DTYPES
            and self._shape == target._shape and self.numel() and self.ndim):
        return L._mse_loss(self, target, reduction)
    a, b = arr(self), arr(target)
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        return L._mse_loss(self, target, reduction)
    d = a - b
    np.multiply(d, d, out=d)
    reduce = _REDUCTIONS[reduction]
    return reduce(wrap(d, self.dtype), None, False, None)


KERNELS = {"_nll_loss": _nll_loss, "_nll_loss_backward": _nll_loss_backward,
           "_mse_loss": _mse_loss,
           "binary_cross_entropy_with_logits": _bce_with_logits, **ctc.KERNELS}
