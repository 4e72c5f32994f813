"""grid_sampler_2d's bilinear and nearest forward as one compiled pass over the grid
(kernels/_grid_numpy.py's steps, scalar by scalar, in the same order and dtype: the same
bits; no fastmath, so nothing is contracted).  Loaded through _jit.compiled."""

import numba
import numpy as np

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(inline="always")
def _round(value, like):
    """value rounded to the dtype of the one-element array `like` (a store)."""
    like[0] = value
    return like[0]


@numba.njit(inline="always")
def _coordinate(g, size, align_corners, padding_mode, one, tmp):
    """The pixel coordinate of grid value g: unnormalized, then reflected and / or
    clipped (NaN to 0) as padding_mode says; arithmetic in g's dtype."""
    if align_corners:
        x = (g + one) * _round((size - 1) / 2, tmp)
    else:  # PyTorch's fused multiply-add: exact through float64, rounded once
        x = _round(np.float64(g + one) * (size / 2) - 0.5, tmp)
    if padding_mode == 2:
        twice_low, twice_high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if twice_low == twice_high:
            x = x * _round(0.0, tmp)  # (a Python 0 would make x a float64 throughout)
        else:
            low, span = _round(twice_low / 2, tmp), _round(twice_high - twice_low, tmp)
            shifted = x - low
            a = abs(shifted)
            extra = _round(np.float64(np.trunc(a / span)) * -np.float64(span) + a, tmp)
            x = (min(extra, span - extra)) + low
    if padding_mode != 0:
        if np.isnan(x):
            x = _round(0.0, tmp)
        x = min(max(x, _round(0.0, tmp)), _round(size - 1, tmp))
    return x


@numba.njit(inline="always")
def _read(x, b, ch, y, xx, h, w, zero):
    if y >= 0 and y <= h - 1 and xx >= 0 and xx <= w - 1:
        return x[b, ch, int(y), int(xx)]
    return zero


@numba.njit(**_JIT)
def forward(x, grid, mode, padding_mode, align_corners, out):
    """out (n, c, oh, ow) of x (n, c, h, w) sampled at grid (n, oh, ow, 2): mode 0 bilinear,
    1 nearest (half to even)."""
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
                    t = t + _read(x, b, ch, y0, x1, h, w, zero) * w01
                    t = t + _read(x, b, ch, y1, x0, h, w, zero) * w10
                    out[b, ch, i, j] = t + _read(x, b, ch, y1, x1, h, w, zero) * w11
