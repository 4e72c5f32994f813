"""grid_sampler_2d's forward (bilinear, nearest, bicubic) and its bilinear / nearest
backward as compiled passes over the grid (kernels/_grid_numpy.py's steps, scalar by
scalar, in the same order and dtype: the same bits, but for the grid gradient's sum over 8
channels or more, which NumPy pairs up; no fastmath, so nothing is contracted).  Loaded
through _jit.compiled."""

import numba
import numpy as np

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(inline="always")
def _round(value, like):
    """value rounded to the dtype of the one-element array `like` (a store)."""
    like[0] = value
    return like[0]


@numba.njit(inline="always")
def _fma(a, b, c):
    """float64 a * b + c rounded once (_box_muller.fma64's steps): PyTorch's fused
    multiply-add, float64's too; for float32 values the product is exact."""
    p = a * b
    t = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    ah = t - (t - a)
    al = a - ah
    t = b * 134217729.0
    bh = t - (t - b)
    bl = b - bh
    perr = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    v = s - p
    r = s + (perr + ((p - (s - v)) + (c - v)))
    return s if np.isnan(r) else r  # (infinite or huge: the split overflowed)


@numba.njit(inline="always")
def _unnormalize(g, size, align_corners, one, tmp):
    if align_corners:
        return (g + one) * _round((size - 1) / 2, tmp)
    return _round(_fma(np.float64(g + one), size / 2, -0.5), tmp)


@numba.njit(inline="always")
def _pad(x, size, align_corners, padding_mode, tmp):
    """x reflected and / or clipped (NaN to 0) as padding_mode says."""
    if padding_mode == 2:
        twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if twice_low == twice_high:
            x = x * _round(0.0, tmp)  # (a Python 0 would make x a float64 throughout)
        else:
            low, span = _round(twice_low / 2, tmp), _round(twice_high - twice_low, tmp)
            shifted = x - low
            a = abs(shifted)
            extra = _round(_fma(np.float64(np.trunc(a / span)), -np.float64(span),
                                 np.float64(a)), tmp)
            x = (min(extra, span - extra)) + low
    if padding_mode != 0:
        if np.isnan(x):
            x = _round(0.0, tmp)
        x = min(max(x, _round(0.0, tmp)), _round(size - 1, tmp))
    return x


@numba.njit(inline="always")
def _coordinate(g, size, align_corners, padding_mode, one, tmp):
    """The pixel coordinate of grid value g: unnormalized, then reflected and / or
    clipped (NaN to 0) as padding_mode says; arithmetic in g's dtype."""
    return _pad(_unnormalize(g, size, align_corners, one, tmp), size, align_corners,
                padding_mode, tmp)


@numba.njit(inline="always")
def _read(x, b, ch, y, xx, h, w, zero):
    if y >= 0 and y <= h - 1 and xx >= 0 and xx <= w - 1:
        return x[b, ch, int(y), int(xx)]
    return zero


@numba.njit(**_JIT)
def forward(x, grid, mode, padding_mode, align_corners, fused, out):
    """out (n, c, oh, ow) of x (n, c, h, w) sampled at grid (n, oh, ow, 2): mode 0 bilinear,
    1 nearest (half to even); fused: the bilinear terms summed by fused multiply-adds, as
    PyTorch's AVX2 / AVX-512 kernels."""
    n, c, h, w = x.shape
    tmp = np.empty(1, x.dtype)
    one = _round(1.0, tmp)
    zero = _round(0.0, tmp)
    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                ix = _coordinate(grid[b, i, j, 0], w, align_corners, padding_mode, one, tmp)
                iy = _coordinate(grid[b, i, j, 1], h, align_corners, padding_mode, one, tmp)
                if mode == 1:
                    ny, nx = np.rint(iy), np.rint(ix)
                    for ch in range(c):
                        out[b, ch, i, j] = _read(x, b, ch, ny, nx, h, w, zero)
                    continue
                y0, x0 = _round(np.floor(iy), tmp), _round(np.floor(ix), tmp)  # (float64)
                fy0, fy1 = y0 + one - iy, iy - y0
                fx0, fx1 = x0 + one - ix, ix - x0
                w00, w01, w10, w11 = fy0 * fx0, fy0 * fx1, fy1 * fx0, fy1 * fx1
                y1, x1 = y0 + one, x0 + one
                for ch in range(c):
                    t = _read(x, b, ch, y0, x0, h, w, zero) * w00
                    v01 = _read(x, b, ch, y0, x1, h, w, zero)
                    v10 = _read(x, b, ch, y1, x0, h, w, zero)
                    v11 = _read(x, b, ch, y1, x1, h, w, zero)
                    if fused:
                        t = _round(_fma(v01, w01, t), tmp)
                        t = _round(_fma(v10, w10, t), tmp)
                        out[b, ch, i, j] = _fma(v11, w11, t)
                    else:
                        t = t + v01 * w01
                        t = t + v10 * w10
                        out[b, ch, i, j] = t + v11 * w11


@numba.njit(inline="always")
def _cubic(t, k, one, tmp):
    """PyTorch's cubic convolution weight of tap k (0..3) around t in [0, 1)."""
    a = _round(-0.75, tmp)
    if k == 1 or k == 2:
        x = t if k == 1 else one - t
        return ((a + _round(2.0, tmp)) * x - (a + _round(3.0, tmp))) * x * x + one
    x = t + one if k == 0 else _round(2.0, tmp) - t
    return ((a * x - _round(5 * -0.75, tmp)) * x + _round(8 * -0.75, tmp)) * x \
        - _round(4 * -0.75, tmp)


@numba.njit(**_JIT)
def forward_bicubic(x, grid, padding_mode, align_corners, out):
    """Bicubic sampling: the 16 taps (rows outer) padded one by one, weighted
    wx[i] * wy[j], summed in order (the NumPy steps, scalar by scalar)."""
    n, c, h, w = x.shape
    tmp = np.empty(1, x.dtype)
    one, zero = _round(1.0, tmp), _round(0.0, tmp)
    ys, xs = np.empty(4, np.int64), np.empty(4, np.int64)
    wy, wx = np.empty(4, x.dtype), np.empty(4, x.dtype)
    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                ix = _unnormalize(grid[b, i, j, 0], w, align_corners, one, tmp)
                iy = _unnormalize(grid[b, i, j, 1], h, align_corners, one, tmp)
                x0, y0 = _round(np.floor(ix), tmp), _round(np.floor(iy), tmp)
                for k in range(4):
                    wx[k], wy[k] = _cubic(ix - x0, k, one, tmp), _cubic(iy - y0, k, one, tmp)
                    off = _round(k - 1, tmp)
                    py = _pad(y0 + off, h, align_corners, padding_mode, tmp)
                    px = _pad(x0 + off, w, align_corners, padding_mode, tmp)
                    # (a reflected tap may be a half-integer: truncated, as PyTorch's int)
                    ys[k] = int(py) if py >= 0 and py <= h - 1 else -1
                    xs[k] = int(px) if px >= 0 and px <= w - 1 else -1
                for ch in range(c):
                    t = zero
                    for q in range(16):
                        r, s = ys[q // 4], xs[q % 4]
                        v = x[b, ch, r, s] if r >= 0 and s >= 0 else zero
                        term = v * (wx[q % 4] * wy[q // 4])
                        t = term if q == 0 else t + term
                    out[b, ch, i, j] = t


@numba.njit(inline="always")
def _coordinate_grad(g, size, align_corners, padding_mode, one, tmp):
    """_coordinate's value and its derivative with respect to g (the NumPy steps' mults:
    the unnormalizing scale times the reflection's sign times `inside` the clip)."""
    x = _coordinate(g, size, align_corners, 0, one, tmp)
    scale = _round((size - 1) / 2 if align_corners else size / 2, tmp)
    if padding_mode == 0:
        return x, scale
    mult = one
    if padding_mode == 2:
        twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if twice_low == twice_high:
            x, mult = x * _round(0.0, tmp), _round(0.0, tmp)
        else:
            low, span = _round(twice_low / 2, tmp), _round(twice_high - twice_low, tmp)
            shifted = x - low
            a = abs(shifted)
            extra = _round(_fma(np.float64(np.trunc(a / span)), -np.float64(span),
                                 np.float64(a)), tmp)
            flip = extra > span - extra
            x = (span - extra if flip else extra) + low
            mult = -one if flip ^ (shifted < 0) else one
    inside = one if x > 0 and x < size - 1 else _round(0.0, tmp)
    if np.isnan(x):
        x = _round(0.0, tmp)
    x = min(max(x, _round(0.0, tmp)), _round(size - 1, tmp))
    return x, inside * mult * scale


@numba.njit(inline="always")
def _tap(k, iy, ix, mode, one, tmp):
    """Tap k's (y, x), weight and the weight's derivatives (d / dy, d / dx): the nearest
    pixel (mode 1), or corner k of the bilinear square (nw, ne, sw, se)."""
    if mode == 1:
        return _round(np.rint(iy), tmp), _round(np.rint(ix), tmp), one, one, one
    y0, x0 = _round(np.floor(iy), tmp), _round(np.floor(ix), tmp)
    fy = (y0 + one - iy) if k < 2 else (iy - y0)
    fx = (x0 + one - ix) if k % 2 == 0 else (ix - x0)
    y, xx = (y0 if k < 2 else y0 + one), (x0 if k % 2 == 0 else x0 + one)
    return y, xx, fy * fx, -fx if k < 2 else fx, -fy if k % 2 == 0 else fy


@numba.njit(inline="always")
def _inside(y, xx, h, w):
    return y >= 0 and y <= h - 1 and xx >= 0 and xx <= w - 1


@numba.njit(**_JIT)
def backward(gout, x, grid, mode, padding_mode, align_corners, grad_input, grad_grid):
    """grad_input (float64, (n, c, h, w) zeros) += gout spread to each tap, tap after tap
    (the NumPy path's bincount order, summed in float64); grad_grid (zeros; bilinear) the
    weights' derivatives summed over the taps, then over the channels (in order: NumPy's
    pairwise sums differ by an ulp from 8 channels), times the coordinates' derivatives."""
    n, c, h, w = x.shape
    tmp = np.empty(1, x.dtype)
    one, zero = _round(1.0, tmp), _round(0.0, tmp)
    oh, ow = grid.shape[1], grid.shape[2]
    taps = 1 if mode == 1 else 4
    # every point's taps once: (y, x, weight, d / dy, d / dx), and the coordinates' mults
    tap = np.empty((taps, n, oh, ow, 5), x.dtype)
    mult = np.empty((n, oh, ow, 2), x.dtype)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                ix, mult[b, i, j, 0] = _coordinate_grad(grid[b, i, j, 0], w, align_corners,
                                                        padding_mode, one, tmp)
                iy, mult[b, i, j, 1] = _coordinate_grad(grid[b, i, j, 1], h, align_corners,
                                                        padding_mode, one, tmp)
                for k in range(taps):
                    t = _tap(k, iy, ix, mode, one, tmp)
                    for q in range(5):
                        tap[k, b, i, j, q] = t[q]
    for k in range(taps):
        for b in range(n):
            for i in range(oh):
                for j in range(ow):
                    py, px, weight = tap[k, b, i, j, 0], tap[k, b, i, j, 1], tap[k, b, i, j, 2]
                    if _inside(py, px, h, w):
                        for ch in range(c):
                            g = gout[b, ch, i, j]
                            grad_input[b, ch, int(py), int(px)] += \
                                np.float64(g if mode == 1 else g * weight)
    if mode == 1:
        return
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                sx, sy = zero, zero
                for ch in range(c):
                    ax, ay = zero, zero
                    for k in range(4):
                        py, px = tap[k, b, i, j, 0], tap[k, b, i, j, 1]
                        val = x[b, ch, int(py), int(px)] if _inside(py, px, h, w) else zero
                        v = val * gout[b, ch, i, j]
                        ax, ay = ax + v * tap[k, b, i, j, 4], ay + v * tap[k, b, i, j, 3]
                    sx, sy = (ax, ay) if ch == 0 else (sx + ax, sy + ay)
                grad_grid[b, i, j, 0] = sx * mult[b, i, j, 0]
                grad_grid[b, i, j, 1] = sy * mult[b, i, j, 1]
