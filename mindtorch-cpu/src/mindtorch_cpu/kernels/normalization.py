"""Normalization kernels: a fused layer norm and its backward (the other norms decompose).

Both work on rows of a 2-D view (rows = the batch dims, n = the normalized elements) in
blocks of rows: the steps of the formulas reread a block while it is still cached, and the
only full-size arrays are the results (a fresh full-size temporary per step costs its
page faults too).  float32 / float64 forwards follow ATen's Welford statistics to the bit
(_layer_norm_exact); the others' row statistics are dot products (BLAS, vecdot).  The
float32 / float64 backward is ATen's bits up to _EXACT_BACKWARD_MAX elements
(_layer_norm_loops).
(64, 128, 384) float32 on a loaded 2-core machine: backward ~30 -> ~10-14 ms.)"""
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import normalization as N
from mindtorch._runtime import get_num_threads

from .._np import arr, wrap
from . import _jit, _layer_norm_exact
from ._aten_half import f32, fma32, row_sum
from ._jit import loops

_BLOCK = 1 << 18  # elements per block of rows (1 MiB of float32; smaller blocks measured
#                   slower: numpy's per-call cost)


_FORWARD_BLOCK = 1 << 20  # (the forward's steps per block cost ~15 us of calls: larger blocks)
_DOT_ROWS = 1 << 14  # rows up to this long are summed as x @ ones (BLAS: ~3x faster than
#                     add.reduce over short rows; longer ones keep numpy's pairwise sum)


def _rowdot(a, b, out):
    """The rows' dot products; numpy >= 2's vecdot costs ~20 us less per call than einsum."""
    if hasattr(np, "vecdot"):
        return np.vecdot(a, b, out=out)
    return np.einsum("ij,ij->i", a, b, out=out)


def _blocks(rows, n, block=_BLOCK):
    step = max(1, block // max(n, 1))
    return [(i, min(i + step, rows)) for i in range(0, rows, step)]


def _vector(t, ct, n):
    return None if t is None else arr(t).astype(ct, copy=False).reshape(n)


_COMPILED = (np.dtype(np.float32), np.dtype(np.float64))  # the compiled loops' dtypes
_EXACT_BACKWARD_MAX = 1 << 20  # elements: above, the backward's exact loop streams
#   its inputs from memory ~1.6-1.9x slower than the two-pass loop (1-2 ulp from PyTorch's):
#   (8192, 384) ~1.8 against ~1.0 ms; up to here ~0.3-1.2x its time (round qa20a)


def _dense(v, n, ct, fill):
    """A weight or bias for the compiled loops: contiguous, `fill` for a missing one."""
    return np.full(n, fill, ct) if v is None else np.ascontiguousarray(v)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    axis = N.layer_norm_plan(input, normalized_shape, weight, bias)
    ct = N.compute_dtype(input, weight, bias).np
    shape = input._shape
    rows = math.prod(shape[:axis])
    n = math.prod(shape[axis:])
    x = arr(input).reshape(rows, n)
    w, b = _vector(weight, ct, n), _vector(bias, ct, n)
    y = np.empty((rows, n), ct)
    mean = np.zeros((rows, 1), ct)  # PyTorch: 0 over no elements (and rstd nan)
    rstd = np.empty((rows, 1), ct)
    exact = n and x.dtype == ct and ct in _COMPILED
    # ATen's Welford statistics, to the bit: by the compiled loops from _jit.EARLY_MIN_SIZE
    # elements (or any size once numba is loaded), without numba by their NumPy replica
    # from that size (~1/20 of the loops' speed); below it the blocks' two-pass statistics,
    # ~7-12x faster than the replica and 1-2 ulp from PyTorch's
    jit = _jit.early("_layer_norm_loops", rows * n) if exact else None
    if jit is not None:
        v = _layer_norm_exact.lanes(ct)
        jit.layer_norm_rows_exact(np.ascontiguousarray(x), _dense(w, n, ct, 1), _dense(b, n, ct, 0),
                                  w is not None, b is not None, ct.type(eps), v,
                                  v * ct.itemsize == 32, _layer_norm_exact.reciprocals(ct.type),
                                  y, mean.reshape(rows), rstd.reshape(rows))
    elif exact and rows * n >= _jit.EARLY_MIN_SIZE:
        _layer_norm_exact.layer_norm(x, w, b, eps, y, mean, rstd)
    else:
        _layer_norm_blocks(x, w, b, eps, y, mean, rstd)
    dt, sdt = input.dtype, N.stat_dtype(input, weight, bias)
    stats = shape[:axis] + (1,) * (len(shape) - axis)
    return (wrap(y.reshape(shape).astype(dt.np, copy=False), dt),
            wrap(mean.reshape(stats).astype(sdt.np, copy=False), sdt),
            wrap(rstd.reshape(stats).astype(sdt.np, copy=False), sdt))


def _layer_norm_blocks(x, w, b, eps, y, mean, rstd):
    """The forward in NumPy, blocks of rows at a time, into y, mean and rstd."""
    (rows, n), ct = y.shape, y.dtype
    ones = np.ones(n, ct) if 0 < n <= _DOT_ROWS else None
    with np.errstate(all="ignore"):
        for i, j in _blocks(rows, n, _FORWARD_BLOCK):
            xb, yb = x[i:j].astype(ct, copy=False), y[i:j]
            mb, rb = mean[i:j, 0], rstd[i:j, 0]
            if ones is not None:
                np.matmul(xb, ones, out=mb)
                mb /= ct.type(n)
            elif n:
                np.add.reduce(xb, axis=1, out=mb)
                mb /= ct.type(n)
            np.subtract(xb, mean[i:j], out=yb)
            _rowdot(yb, yb, out=rb)
            rb /= ct.type(n)
            rb += ct.type(eps)
            np.sqrt(rb, out=rb)
            np.divide(1, rb, out=rb)
            yb *= rstd[i:j]
            if w is not None:
                yb *= w
            if b is not None:
                yb += b


def _layer_norm_backward(grad, input, mean, rstd, weight, normalized_shape):
    """The decomposition's formulas: xhat = (x - mean) * rstd; the input's gradient
    rstd * (wg - mean(wg) - xhat * mean(wg * xhat)) with wg = grad * weight, and the sums
    of grad * xhat and of grad over the rows."""
    shape = input._shape
    axis = len(shape) - len(normalized_shape)
    ct = np.dtype(np.float32) if input.dtype in N._HALVES else arr(input).dtype
    rows, n = math.prod(shape[:axis]), math.prod(shape[axis:])
    g, x = arr(grad).reshape(rows, n), arr(input).reshape(rows, n)
    m = arr(mean).astype(ct, copy=False).reshape(rows, 1)
    r = arr(rstd).astype(ct, copy=False).reshape(rows, 1)
    w = _vector(weight, ct, n)
    if input.dtype in N._HALVES:
        gx, gw, gb = _layer_norm_backward_half(g, x, m, r, w, weight is not None and
                                               weight.dtype is D.float32)
        return (wrap(gx.reshape(shape), D.float32), wrap(gw.reshape(normalized_shape), D.float32),
                wrap(gb.reshape(normalized_shape), D.float32))
    gx = np.empty((rows, n), ct)
    same = n and rows and g.dtype == x.dtype == ct
    exact = _jit.early("_layer_norm_loops", rows * n) \
        if same and ct in _COMPILED and rows * n <= _EXACT_BACKWARD_MAX else None
    jit = loops(rows * n) if same and ct in _COMPILED and exact is None else None
    if exact is not None:  # (ATen's rounding: from _jit.EARLY_MIN_SIZE elements)
        gw, gb = _layer_norm_backward_exact(exact, g, x, m, r, w, gx)
    elif jit is not None:  # (two compiled passes per row: ~4x faster)
        sums = np.zeros((2, n))
        g, x, m, r = (np.ascontiguousarray(a) for a in (g, x, m.reshape(rows), r.reshape(rows)))
        jit.layer_norm_backward_rows(g, x, m, r, _dense(w, n, ct, 1), gx, sums[0], sums[1])
        gw, gb = sums.astype(ct)
    else:
        gw, gb = _layer_norm_backward_blocks(g, x, m, r, w, gx)
    dt = input.dtype
    return (wrap(gx.reshape(shape), dt), wrap(gw.reshape(normalized_shape), dt),
            wrap(gb.reshape(normalized_shape), dt))


def _layer_norm_backward_exact(jit, g, x, m, r, w, gx):
    """The float32 / float64 backward by the compiled loop in ATen's rounding, gx in place, and
    (gw, gb): the weight's and bias' sums in a buffer per thread's chunk of rows (ATen's
    parallel_for split), the buffers then added in order."""
    rows, n = gx.shape
    chunk = -(-rows // max(1, min(get_num_threads(), rows)))
    buffers = np.zeros((-(-rows // chunk), 2 * n), gx.dtype)
    g, x, m, r = (np.ascontiguousarray(a) for a in (g, x, m.reshape(rows), r.reshape(rows)))
    v = _layer_norm_exact.lanes(gx.dtype)
    jit.layer_norm_backward_rows_exact(g, x, m, r, _dense(w, n, gx.dtype, 1), w is not None, v,
                                       v * gx.dtype.itemsize == 32, chunk, gx, buffers)
    sums = np.zeros(2 * n, gx.dtype)
    for buffer in buffers:
        sums += buffer
    sums = sums.reshape(2, n)
    return sums[0], sums[1]


def _layer_norm_backward_half(g, x, m, r, w, mixed):
    """The 16-bit backward as ATen's CPU kernel rounds it (float32 results holding 16-bit
    values): per row in float32, ds = sum(g * x * w) and db = sum(g * w) in its vector
    order, gx = a g w + b x + c with a = rstd, b = (db mean - ds) a^3 / n and
    c = -b mean - db a / n; the weight's and bias' sums accumulate row after row in a
    16-bit buffer (rounded at every row, also when the weight is float32: `mixed`)."""
    hd = g.dtype
    rows, n = g.shape
    if not g.size:
        return np.zeros((rows, n), f32), np.zeros(n, f32), np.zeros(n, f32)
    g, x = g.astype(f32), x.astype(f32)
    a, mean = r.astype(f32), m.astype(f32)  # (rows, 1)
    if w is None:
        ds, db = row_sum(g, x), row_sum(g)
        ag = a * g
    elif mixed:  # (the float-weight kernel multiplies x by g w)
        gw = g * w
        ds, db = row_sum(x, gw, short_tree=True), row_sum(gw, short_tree=True)
        ag = a * g * w
    else:
        ds, db = row_sum(g * x, w), row_sum(g, w)
        ag = a * g * w
    ds, db = ds[:, None], db[:, None]
    scale = f32(1) / f32(n)
    with np.errstate(all="ignore"):
        b = fma32(db, mean, -ds) * a * a * a * scale
        c = fma32(-b, mean, -(db * a * scale))
        gx = (fma32(b, x, ag) + c).astype(hd).astype(f32)
        # g * xhat is exact in float64: each row's fused multiply-add is one float64 sum
        # rounded to float32, then to 16 bits (the weight's buffer; the bias' likewise)
        prods = np.multiply(g, fma32(a, x, -a * mean), dtype=np.float64)
        sw, sb = np.zeros(n), np.zeros(n, f32)
        for i in range(rows):
            sw = (sw + prods[i]).astype(f32).astype(hd).astype(np.float64)
            sb = (sb + g[i]).astype(hd).astype(f32)
    return gx, sw.astype(f32), sb


def _layer_norm_backward_blocks(g, x, m, r, w, gx):
    """The backward in NumPy, blocks of rows at a time: gx in place, and (gw, gb)."""
    (rows, n), ct = gx.shape, gx.dtype
    gw, gb = np.zeros(n, ct), np.zeros(n, ct)
    with np.errstate(all="ignore"):  # (no elements per row: 0 / 0, as the decomposition)
        for i, j in _blocks(rows, n):
            gblk = g[i:j].astype(ct, copy=False)
            xhat = np.subtract(x[i:j].astype(ct, copy=False), m[i:j])
            xhat *= r[i:j]
            gw += np.einsum("ij,ij->j", gblk, xhat)
            gb += np.add.reduce(gblk, axis=0)
            wg = gx[i:j]
            if w is None:
                wg[...] = gblk
            else:
                np.multiply(gblk, w, out=wg)
            c1 = np.add.reduce(wg, axis=1, keepdims=True) / ct.type(n)
            c2 = _rowdot(wg, xhat, None)[:, None] / ct.type(n)
            wg -= c1
            xhat *= c2
            wg -= xhat
            wg *= r[i:j]
    return gw, gb


KERNELS = {"native_layer_norm": native_layer_norm, "_layer_norm_backward": _layer_norm_backward}
