"""Group norm's forward (native_group_norm) and backward (_group_norm_backward) as one
kernel each, for float32 / float64 inputs in the contiguous layout with parameters of their
dtype (anything else decomposes).  Every step rounds as the decomposition's ops do, so
results are its bits: from _jit.MIN_SIZE float32 elements compiled loops per (batch, group)
row (_group_norm_loops.py, whose means are the mean kernel's loop), below that (and for
float64) the same NumPy calls and sums (reduction.row_sums, _cascade.cascade_sum) as the
ops, without their per-op costs.
The reductions whose kernel depends on the gradient's layout (its sum per channel; its row
means without a weight) are the reduction ops themselves."""
import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import normalization as N

from .._np import arr, wrap
from ._cascade import cascade_sum
from ._jit import compiled
from .reduction import row_sums

_FUSED = (D.float32, D.float64)


def _fusable(input, *others):
    """Whether the kernels serve: a non-empty contiguous float32 / float64 input, the other
    tensors (None or) of its dtype."""
    return (input.dtype in _FUSED and input.numel() and arr(input).flags.c_contiguous and
            all(t is None or t.dtype is input.dtype for t in others))


def _plain(grad):
    """A gradient laid out contiguously, or a broadcast number (the layouts whose
    products with contiguous tensors are contiguous, as the decomposition's)."""
    a = arr(grad)
    return a.flags.c_contiguous or not any(a.strides)


def _loops(x):
    """_group_norm_loops for float32 x where the mean kernel takes its compiled loop (from
    _jit.MIN_SIZE elements; the loops are the same sums below that, but numba's load is
    what the threshold saves), else None."""
    if x.dtype != np.float32 or compiled("_reduce_loops", x.size) is None:
        return None
    return compiled("_group_norm_loops", x.size)


def _per_channel(t, C, dtype):
    return np.zeros(C, dtype) if t is None else np.ascontiguousarray(arr(t)).reshape(C)


def native_group_norm(input, weight, bias, N_, C, HxW, group, eps):
    N.group_norm_plan(input, weight, bias, N_, C, HxW, group)
    if not _fusable(input, weight, bias):
        return N._native_group_norm(input, weight, bias, N_, C, HxW, group, eps)
    rows, n = N_ * group, C // group * HxW
    x = arr(input).reshape(rows, n)
    jit = _loops(x)
    with np.errstate(all="ignore"):
        if jit is not None:
            mean, var = row_sums(x) / n, np.empty(rows, x.dtype)
            y = np.empty_like(x)
            jit.centered_rows(x, mean, y, var)
            rstd = np.reciprocal(np.sqrt(var + x.dtype.type(eps)))
            if weight is None and bias is None:
                jit.scale_rows(y, rstd)
            elif weight is None or bias is None:  # (y * 1 and y + 0 may not keep y's bits)
                _affine_numpy(y * rstd[:, None], weight, bias, N_, C, HxW, out=y)
            else:
                jit.affine_rows(y, rstd, _per_channel(weight, C, x.dtype),
                                _per_channel(bias, C, x.dtype), group, HxW)
        else:
            mean = row_sums(x)[:, None] / n
            y = x - mean
            rstd = np.reciprocal(np.sqrt(row_sums(y * y)[:, None] / n + x.dtype.type(eps)))
            y *= rstd
            _affine_numpy(y, weight, bias, N_, C, HxW, out=y)
    dt = input.dtype
    return (N._gn_laid_out(wrap(y.reshape(input._shape), dt), input),
            wrap(mean.reshape(N_, group), dt), wrap(rstd.reshape(N_, group), dt))


def _affine_numpy(y, weight, bias, N_, C, HxW, out):
    """out = y * weight[c] + bias[c] (either may be None), y and out (rows, n)."""
    y3, o3 = y.reshape(N_, C, HxW), out.reshape(N_, C, HxW)
    if weight is not None:
        np.multiply(y3, arr(weight).reshape(C, 1), out=o3)
        y3 = o3
    if bias is not None:
        np.add(y3, arr(bias).reshape(C, 1), out=o3)
    elif y3 is not o3:
        o3[...] = y3


def _group_norm_backward(grad, input, mean, rstd, weight, grad_mean, grad_rstd, N_, C, HxW,
                         group):
    if not (_fusable(input, grad, mean, rstd, weight, grad_mean, grad_rstd) and
            (grad_mean is None) == (grad_rstd is None) and _plain(grad)):
        return N._group_norm_backward(grad, input, mean, rstd, weight, grad_mean, grad_rstd,
                                      N_, C, HxW, group)
    rows, n = N_ * group, C // group * HxW
    x = arr(input).reshape(rows, n)
    ct = x.dtype
    g = arr(grad)
    # (the loops' C-contiguous form: a broadcast number filled, which beats its copy)
    g = g.reshape(rows, n) if g.flags.c_contiguous else np.full((rows, n), g[(0,) * g.ndim])
    m, r = (np.ascontiguousarray(arr(t)).reshape(rows) for t in (mean, rstd))
    extra = grad_mean is not None
    gm, gr = ((np.ascontiguousarray(arr(t)).reshape(rows) for t in (grad_mean, grad_rstd))
              if extra else (m, r))
    # without a weight the row means of grad itself: the mean op, whose kernel depends on
    # grad's layout
    c1 = None if weight is not None else \
        arr(grad.reshape(N_, group, n).mean(-1)).reshape(rows)
    jit = _loops(x)
    with np.errstate(all="ignore"):
        if jit is not None:
            gx, prod = np.empty_like(x), np.empty_like(x)
            jit.backward_rows(g, x, m, r, _per_channel(weight, C, ct), weight is not None,
                              m if c1 is None else c1, gm, gr, extra, group, HxW, gx, prod)
        else:
            gx, prod = _backward_numpy(g, x, m[:, None], r[:, None], weight, c1, gm, gr,
                                       extra, N_, C, HxW)
    gw = cascade_sum(prod.reshape(N_, C, HxW), (0, 2), row_sums)
    gb = grad.reshape(N_, C, HxW).sum((0, 2))  # (the op: its kernel depends on the layout)
    return (N._gn_laid_out(wrap(gx.reshape(input._shape), input.dtype), input),
            wrap(gw, input.dtype), gb)


def _backward_numpy(g, x, m, r, weight, c1, gm, gr, extra, N_, C, HxW):
    """The decomposition's steps as NumPy calls: (input's gradient, grad * xhat)."""
    rows, n = x.shape
    xhat = (x - m) * r
    prod = g * xhat
    if weight is not None:
        wg = (g.reshape(N_, C, HxW) * arr(weight).reshape(C, 1)).reshape(rows, n)
        c1 = row_sums(wg)[:, None] / n
        c2 = row_sums(wg * xhat)[:, None] / n
    else:
        wg, c1 = g, c1[:, None]
        c2 = row_sums(prod)[:, None] / n
    gx = r * ((wg - c1) - xhat * c2)
    if extra:
        gx = gx + (gm[:, None] - gr[:, None] * r * r * r * (x - m)) / n
    return gx, prod


KERNELS = {"native_group_norm": native_group_norm,
           "_group_norm_backward": _group_norm_backward}
