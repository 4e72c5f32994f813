"""Group norm's float32 loops (kernels/group_norm.py), compiled by numba, imported through
_jit.compiled() from _jit.MIN_SIZE elements.  Each works on rows = (batch, group) of n =
C / group * HxW elements, a row's steps while it is in cache, and rounds every step to
float32 as the decomposition's ops do (no fused multiply-adds: no `contract`).  The row
means are _reduce_loops.sum_rows over a row buffer: the mean kernel's own loop, so the
same sums."""
import numba
import numpy as np

from ._cascade import VECTOR_BYTES
from ._reduce_loops import sum_rows

_VECTOR = VECTOR_BYTES // 4  # float32 elements

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(**_JIT)
def _row_mean(buf, n, out):
    """out[0] = the mean of the C-contiguous buf (1, n) as the mean kernel gives it (the
    loop compiled for C-contiguous arrays, the kernel's)."""
    sum_rows(buf, out, _VECTOR)
    return out[0] / np.float32(n)


@numba.njit(**_JIT)
def centered_rows(x, mean, y, var):
    """y = x - mean per row, var = the mean of y * y per row (x, y: (rows, n))."""
    rows, n = x.shape
    buf = np.empty((1, n), np.float32)
    sq, out = buf[0], np.empty(1, np.float32)
    for i in range(rows):
        m, xr, yr = mean[i], x[i], y[i]
        for j in range(n):
            d = xr[j] - m
            yr[j] = d
            sq[j] = d * d
        var[i] = _row_mean(buf, n, out)


@numba.njit(**_JIT)
def affine_rows(y, rstd, w, b, group, HxW):
    """y = (y * rstd) * w[c] + b[c] in place, channel c of each row's group."""
    rows, n = y.shape
    cg = n // HxW
    for i in range(rows):
        r, yr = rstd[i], y[i]
        first = i % group * cg
        for k in range(cg):
            wc, bc = w[first + k], b[first + k]
            seg = yr[k * HxW:(k + 1) * HxW]  # (a slice per channel: the loop vectorizes)
            for h in range(HxW):
                seg[h] = seg[h] * r * wc + bc


@numba.njit(**_JIT)
def scale_rows(y, rstd):
    """y = y * rstd in place (no weight, no bias)."""
    for i in range(y.shape[0]):
        r, yr = rstd[i], y[i]
        for h in range(yr.size):
            yr[h] = yr[h] * r


@numba.njit(**_JIT)
def _weighted_row(xr, grow, m, r, w, HxW, pr, wg, wgx):
    """pr = g xhat, wg = g w[c], wgx = wg xhat over one row (w: its group's channels)."""
    for k in range(w.size):
        wc = w[k]
        lo, hi = k * HxW, (k + 1) * HxW  # (slices per channel: the loop vectorizes)
        xs, gs, ps, ws, wxs = xr[lo:hi], grow[lo:hi], pr[lo:hi], wg[lo:hi], wgx[lo:hi]
        for h in range(HxW):
            xh = (xs[h] - m) * r
            gv = gs[h]
            ps[h] = gv * xh
            v = gv * wc
            ws[h] = v
            wxs[h] = v * xh


@numba.njit(**_JIT)
def _plain_row(xr, grow, m, r, pr):
    """pr = g xhat over one row."""
    for h in range(xr.size):
        pr[h] = grow[h] * ((xr[h] - m) * r)


@numba.njit(**_JIT)
def _input_grad_row(xr, wg, m, r, a, c, add, gxr):
    """gxr = rstd ((wg - a) - xhat c) + add over one row (add: +0 or -0 ... a number)."""
    for h in range(xr.size):
        gxr[h] = r * ((wg[h] - a) - ((xr[h] - m) * r) * c) + add


@numba.njit(**_JIT)
def _input_grad_row_plain(xr, wg, m, r, a, c, gxr):
    for h in range(xr.size):
        gxr[h] = r * ((wg[h] - a) - ((xr[h] - m) * r) * c)


@numba.njit(**_JIT)
def _input_grad_row_extra(xr, wg, m, r, a, c, gm, t, nf, gxr):
    for h in range(xr.size):
        xc = xr[h] - m
        gxr[h] = r * ((wg[h] - a) - (xc * r) * c) + (gm - t * xc) / nf


@numba.njit(**_JIT)
def backward_rows(g, x, mean, rstd, w, has_w, c1, gm, gr, has_extra, group, HxW, gx, prod):
    """The input's gradient per row: with xhat = (x - mean) rstd and wg = g w[c] (g itself
    without a weight; then c1, its row means, is given), rstd ((wg - mean(wg)) -
    xhat mean(wg xhat)), plus (gm - gr rstd^3 (x - mean)) / n when has_extra; prod = g xhat
    (for the weight's gradient)."""
    rows, n = x.shape
    cg = n // HxW
    nf = np.float32(n)
    zero = np.float32(0)
    b1, b2 = np.empty((1, n), np.float32), np.empty((1, n), np.float32)
    out = np.empty(1, np.float32)
    for i in range(rows):
        m, r = mean[i], rstd[i]
        xr, grow, pr, gxr = x[i], g[i], prod[i], gx[i]
        if has_w:
            first = i % group * cg
            _weighted_row(xr, grow, m, r, w[first:first + cg], HxW, pr, b1[0], b2[0])
            wg = b1[0]
            a = _row_mean(b1, n, out)
            c = _row_mean(b2, n, out)
        else:
            _plain_row(xr, grow, m, r, pr)
            wg = grow
            a = c1[i]
            c = _row_mean(pr.reshape(1, n), n, out)
        if not has_extra:
            _input_grad_row_plain(xr, wg, m, r, a, c, gxr)
            continue
        t = gr[i] * r * r * r
        if gm[i] == zero and t == zero:  # (the term is +0 where the result is a number)
            _input_grad_row(xr, wg, m, r, a, c, zero, gxr)
        else:
            _input_grad_row_extra(xr, wg, m, r, a, c, gm[i], t, nf, gxr)
