"""grid_sampler_2d and its backward in NumPy: the steps of the decomposition in
mindtorch._ops.decls.sampling (PyTorch's vectorized 2d kernel: its fused multiply-adds,
reflections and clipping), each as one array expression in the same order, so the results
have the decomposition's bits without its ~100 op calls.  float32 / float64 only (the
16-bit types keep the decomposition, whose steps round to them)."""
import itertools

import numpy as np
from mindtorch._ops.decls.sampling import cubic_weights

from ._box_muller import fma as _fma  # (as AVX2's FMA)
from ._cpu_capability import capability


def fused_sums():
    """Whether PyTorch's kernels here were compiled with fused multiply-adds (AVX2 and
    AVX-512 builds; not its DEFAULT one)."""
    return capability() != "DEFAULT"


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) * ((size - 1) / 2), (size - 1) / 2
    return _fma(coord + 1, size / 2, -0.5), size / 2


def _reflect(x, twice_low, twice_high):
    if twice_low == twice_high:
        return x * 0, 0
    low, twice_span = twice_low / 2, twice_high - twice_low
    shifted = x - low
    a = np.abs(shifted)
    extra = _fma(np.trunc(a / twice_span), -twice_span, a)
    flip = extra > twice_span - extra
    return np.where(flip, twice_span - extra, extra) + low, \
        np.where(flip ^ (shifted < 0), -1.0, 1.0).astype(x.dtype)


def _pad(x, size, padding_mode, align_corners):
    mult = 1
    if padding_mode == 2:
        x, mult = _reflect(x, 0, 2 * (size - 1)) if align_corners else \
            _reflect(x, -1, 2 * size - 1)
    if padding_mode in (1, 2):  # (NaN to 0, infinities clipped)
        inside = ((x > 0) & (x < size - 1)).astype(x.dtype)
        x = np.clip(np.where(x != x, 0, x), 0, size - 1)  # noqa: PLR0124 (NaN test)
        mult = inside * mult
    return x, mult


class Taps:
    """The pixels sampling reads (decls.sampling._Taps for 2d): `points` lists, per tap,
    ((y, x) positions, weight or None, (d weight / d y, d weight / d x)); grid (n, h, w, 2)."""

    def __init__(self, shape, grid, interpolation_mode, padding_mode, align_corners):
        self.n, self.c, h, w = shape
        self._dims = {}
        self.sizes = (h, w)
        self.count = grid.shape[1] * grid.shape[2]
        grid = grid.reshape(self.n, self.count, 2)
        (iy, my), (ix, mx) = (_unnormalize(grid[..., 1 - i], s, align_corners)
                              for i, s in enumerate(self.sizes))
        if interpolation_mode == 2:
            x0, y0 = np.floor(ix), np.floor(iy)
            wx, dwx = cubic_weights(ix - x0)
            wy, dwy = cubic_weights(iy - y0)
            self.mults = [my, mx]
            ys = [_pad(y0 + (j - 1), h, padding_mode, align_corners)[0] for j in range(4)]
            xs = [_pad(x0 + (i - 1), w, padding_mode, align_corners)[0] for i in range(4)]
            self.points = [((ys[j], xs[i]), wx[i] * wy[j], (dwy[j] * wx[i], wy[j] * dwx[i]))
                           for j in range(4) for i in range(4)]
            return
        (iy, py), (ix, px) = _pad(iy, h, padding_mode, align_corners), \
            _pad(ix, w, padding_mode, align_corners)
        self.mults = [py * my, px * mx]
        if interpolation_mode == 1:
            self.points = [((np.round(iy), np.round(ix)), None, None)]
            return
        coords = (iy, ix)
        lows = [np.floor(v) for v in coords]
        corners = [(lo, lo + 1) for lo in lows]
        factors = [((lo + 1 - v, -1), (v - lo, 1)) for v, lo in zip(coords, lows)]
        self.points = []
        for a, b in itertools.product((0, 1), repeat=2):  # PyTorch's order (nw, ne, sw, se)
            (fy, sy), (fx, sx) = factors[0][a], factors[1][b]
            self.points.append(((corners[0][a], corners[1][b]), fy * fx, (sy * fx, sx * fy)))

    def index(self, pos):
        """(n, count) rows of the (n * h * w + 1, c) channels-last table that `table`
        builds (out of bounds, or NaN: its last row, zeros); in-bounds mask."""
        (y_inside, y), (x_inside, x) = (self._dim(v, size) for v, size in zip(pos, self.sizes))
        valid = y_inside & x_inside
        flat = y * self.sizes[1] + x
        pixels = self.sizes[0] * self.sizes[1]
        flat += np.arange(self.n)[:, None] * pixels
        return np.where(valid, flat, self.n * pixels), valid

    def _dim(self, v, size):
        """(in bounds, as an int clipped into the image) of positions v along one dim,
        computed once per array (taps share them)."""
        key = id(v)
        if key not in self._dims:
            # (a reflected bicubic tap may be a half-integer: truncated, as PyTorch's int)
            self._dims[key] = ((v >= 0) & (v <= size - 1),
                               np.fmin(np.fmax(v, 0), size - 1).astype(np.int64))  # (no NaN)
        return self._dims[key]

    def table(self, x):
        """x (n, c, h, w) as (n * h * w + 1, c) rows, a zero row last."""
        t = np.zeros((self.n * self.sizes[0] * self.sizes[1] + 1, self.c), x.dtype)
        t[:-1].reshape(self.n, -1, self.c)[...] = x.reshape(self.n, self.c, -1).transpose(0, 2, 1)
        return t


def forward(x, grid, interpolation_mode, padding_mode, align_corners):
    """x (n, c, h, w) and grid (n, oh, ow, 2) of one float dtype -> (n, c, oh, ow)."""
    taps = Taps(x.shape, grid, interpolation_mode, padding_mode, align_corners)
    # every tap's values (taps, n, count, c), weighted, summed tap after tap (the reduction
    # over the outer axis adds one slice after another, as the decomposition's terms)
    v = np.take(taps.table(x), np.stack([taps.index(pos)[0] for pos, _, _ in taps.points]),
                axis=0)
    if interpolation_mode == 0 and fused_sums():
        out = v[0] * taps.points[0][1][..., None]
        for k in range(1, len(v)):  # (its compiler fuses each further term's multiply-add)
            out = _fma(v[k], taps.points[k][1][..., None], out)
    else:
        if taps.points[0][1] is not None:
            v *= np.stack([weight for _, weight, _ in taps.points])[..., None]
        out = np.add.reduce(v, axis=0)
    return np.ascontiguousarray(out.transpose(0, 2, 1)).reshape(x.shape[:2] + grid.shape[1:3])


def backward(grad_output, x, grid, interpolation_mode, padding_mode, align_corners):
    """(grad_input, grad_grid) as the decomposition's, but for grad_input's sums: grad_output
    spread back to each tap summed by bincount (in float64, rounded once; the decomposition's
    scatter_add rounds each float32 step, PyTorch's kernel in yet another order)."""
    taps = Taps(x.shape, grid, interpolation_mode, padding_mode, align_corners)
    n, c = x.shape[:2]
    g = np.ascontiguousarray(np.asarray(grad_output).reshape(n, c, taps.count).transpose(0, 2, 1))
    table = taps.table(x) if interpolation_mode != 1 else None
    rows, spread, grads = [], [], [0, 0]
    for pos, weight, dweight in taps.points:
        index = taps.index(pos)[0]
        rows.append(index)
        spread.append(g if weight is None else g * weight[:, :, None])
        if weight is not None:
            v = np.take(table, index, axis=0) * g
            grads = [a + v * d[:, :, None] for a, d in zip(grads, dweight)]
    # every (row, channel) target numbered row * c + channel, in one bincount
    target = (np.stack(rows)[..., None] * c + np.arange(c)).reshape(-1)
    sums = np.bincount(target, np.stack(spread).reshape(-1), (n * taps.sizes[0] *
                                                              taps.sizes[1] + 1) * c)
    grad_input = np.ascontiguousarray(sums[:-c].reshape(n, -1, c).transpose(0, 2, 1)) \
        .reshape(x.shape).astype(grad_output.dtype)
    if interpolation_mode == 1:
        return grad_input, np.zeros(grid.shape, grid.dtype)
    per_dim = [a.sum(2) * m for a, m in zip(grads, taps.mults)]
    return grad_input, np.stack(per_dim[::-1], -1).reshape(grid.shape)
