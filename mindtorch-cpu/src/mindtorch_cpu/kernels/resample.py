"""Padding (reflection / replication) and upsampling kernels.  Shapes and validity come
from the shared rules in mindtorch._ops.decls.resample; these kernels only compute.

Both families are separable: along each spatial dim the output reads the input at a few
positions ("taps") per output index, with weights.  The forward kernels gather whole
slices per tap (np.take) and the backward kernels add them back (the transposed map,
see _scatter), one dim at a time.  Index and weight computations replicate PyTorch's
arithmetic (float32 scales for nearest, the opmath type -- float32 for 16-bit floats --
for linear and cubic, the weights' rounding), so results match PyTorch's to the last bit
or nearly.
"""
import numpy as np
from mindtorch import _dtype as D
from mindtorch._memory_format import is_contiguous_as
from mindtorch._ops.decls import resample as R

from .._np import arr, wrap
from . import _upsample_fma
from ._grid_numpy import fused_sums
from ._layout import keep_channels_last

_WIDE = {D.float16: np.float32, D.bfloat16: np.float32}
_CUBIC_FUSED = (D.float32, D.float64, D.float16, D.bfloat16)
_LINEAR_FUSED = (D.float32, D.float64)


def _work_dtype(dtype):
    """The dtype PyTorch computes in: float32 for 16-bit floats and uint8."""
    if dtype.kind == "f":
        return _WIDE.get(dtype, dtype.np)
    return np.dtype(np.float32)


def _scatter(g, axis, index, size):
    """The transpose of np.take(x, index, axis) for x of `size` along axis: each slice of g
    added at its index.  Positions are grouped by how many earlier positions share their
    index, so within a group the indices are distinct and fancy-indexed adds do it (strided
    views where positions and indices step evenly): as many passes as an index repeats."""
    shape = list(g.shape)
    shape[axis] = size
    out = np.zeros(shape, g.dtype)
    n = index.size
    if n == 0 or g.size == 0:
        return out
    order = np.argsort(index, kind="stable")
    sorted_index = index[order]
    new = np.r_[True, sorted_index[1:] != sorted_index[:-1]]
    rank = np.arange(n) - np.maximum.accumulate(np.where(new, np.arange(n), 0))
    lead = (slice(None),) * axis
    for k in range(int(rank.max()) + 1):
        positions = np.sort(order[rank == k])
        for src, dst in _runs(positions, index[positions]):
            out[lead + (dst,)] += g[lead + (src,)]
    return out


def _runs(positions, targets, most=8):
    """(source, target) pairs covering positions -> targets (positions ascending, targets
    distinct): slices for the stretches where both step evenly (at most `most` of them),
    else the arrays themselves."""
    n = positions.size
    dp, dt = np.diff(positions), np.diff(targets)
    runs, lo = [], 0
    while lo < n:
        if len(runs) == most:
            return [(positions, targets)]
        if lo == n - 1:
            hi = n
        else:
            off = np.flatnonzero((dp[lo:] != dp[lo]) | (dt[lo:] != dt[lo]))
            hi = lo + (off[0] if off.size else n - 1 - lo) + 1
        runs.append((_slice(positions[lo], positions[hi - 1], dp[lo] if hi - lo > 1 else 1),
                     _slice(targets[lo], targets[hi - 1], dt[lo] if hi - lo > 1 else 1)))
        lo = hi
    return runs


def _slice(first, last, step):
    """The slice from first to last (inclusive) by step (which may be negative)."""
    stop = last + (1 if step > 0 else -1)
    return slice(int(first), None if stop < 0 else int(stop), int(step))


def _apply(a, nd, taps):
    """a resampled along its last nd dims, the last dim first (PyTorch's innermost);
    taps[i] = [(index, weight or None), ...] for spatial dim i."""
    for i in reversed(range(nd)):
        axis = a.ndim - nd + i
        out = None
        for index, weight in taps[i]:
            v = np.take(a, index, axis=axis)  # (a fresh array: updated in place)
            if weight is not None:
                v *= weight.reshape((-1,) + (1,) * (nd - 1 - i))
            if out is None:
                out = v
            else:
                out += v
        a = out
    return a


def _apply_transposed(g, nd, taps, sizes):
    """The transpose of _apply: gradients added back to the input positions."""
    for i in range(nd):
        axis = g.ndim - nd + i
        out = None
        for index, weight in taps[i]:
            v = g if weight is None else g * weight.reshape((-1,) + (1,) * (nd - 1 - i))
            v = _scatter(v, axis, index, sizes[i])
            if out is None:
                out = v
            else:
                out += v
        g = out
    return g


# -- padding -----------------------------------------------------------------------------

def _pad_taps(kind, sizes, padding):
    """Per padded dim (first to last), the input position of each output position."""
    nd = len(sizes)
    taps = []
    for i in range(nd):  # the padding list starts at the last dim
        lo, hi = padding[2 * (nd - 1 - i)], padding[2 * (nd - 1 - i) + 1]
        n = sizes[i]
        j = np.arange(-lo, n + hi)
        if kind == "reflection":
            j = (n - 1) - np.abs((n - 1) - np.abs(j))
        else:
            j = np.clip(j, 0, n - 1)
        taps.append([(j, None)])
    return taps


def _pad(kind, nd):
    def kernel(self, padding):
        R.pad_plan(kind, nd, self, padding)
        taps = _pad_taps(kind, self._shape[-nd:], padding)
        return wrap(_apply(arr(self), nd, taps), self.dtype)
    return kernel


def _pad_backward(kind, nd):
    def kernel(grad_output, self, padding):
        shape = R.pad_plan(kind, nd, self, padding)
        _check_grad(grad_output, shape)
        sizes = self._shape[-nd:]
        g = arr(grad_output)
        taps = _pad_taps(kind, sizes, padding)
        if grad_output.dtype.kind == "f":  # (PyTorch's adds, in its order and dtype)
            return wrap(_upsample_fma.linear_backward(g, taps, sizes), self.dtype)
        wide = _WIDE.get(grad_output.dtype)
        g = g.astype(wide) if wide is not None else g
        out = _apply_transposed(g, nd, taps, sizes)
        return wrap(out.astype(self.dtype.np), self.dtype)
    return kernel


def _check_grad(grad, shape):
    if tuple(grad._shape) != tuple(shape):
        raise RuntimeError(f"Expected grad_output to have the same shape as output; output: "
                           f"{list(shape)}, grad_output: {list(grad._shape)}")


# -- upsampling --------------------------------------------------------------------------

def _scale(n_in, n_out, align_corners, scale, ft):
    """PyTorch's area_pixel_compute_scale in float type ft."""
    if align_corners:
        return ft(n_in - 1) / ft(n_out - 1) if n_out > 1 else ft(0)
    if scale is not None and scale > 0:
        return ft(1.0 / scale)
    return ft(n_in) / ft(n_out)


def _source_index(s, d, ft):
    """PyTorch's s * (d + 0.5) - 0.5 (align_corners=False), which its compiler fuses into
    one multiply-add: rounded once, through float64 for float32 (through the x87 long
    double for float64: rounded twice, but rarely differently)."""
    wide = np.float64 if ft == np.float32 else np.longdouble
    return (wide(s) * (d.astype(wide) + wide(0.5)) - wide(0.5)).astype(ft)


def _floorf(real, n_in):
    """PyTorch's guard_index_and_lambda index: floorf (a float64 index rounded to float32
    first), at most the last position."""
    return np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), n_in - 1)


def _nearest_taps(n_in, n_out, scale, exact, backward=False):
    # PyTorch's backward kernel (nearest_idx) copies equal sizes and halves indices for
    # doubled sizes whatever the scale, where its forward kernel uses the scale
    if backward and not exact and n_out in (n_in, 2 * n_in):
        return [(np.arange(n_out) >> (n_out != n_in), None)]
    s = _scale(n_in, n_out, False, scale, np.float32)
    d = np.arange(n_out, dtype=np.float32)
    src = np.floor((d + np.float32(0.5)) * s if exact else d * s)
    return [(np.minimum(src.astype(np.int64), n_in - 1), None)]


def _linear_taps(n_in, n_out, align_corners, scale, ft, wt):
    if n_out == n_in:  # PyTorch copies, whatever the scale: weights 1 and 0 on the same
        i = np.arange(n_out)  # position (so an inf still gives inf * 0 = NaN, as PyTorch's)
        return [(i, np.ones(n_out, ft)), (i, np.zeros(n_out, ft))]
    s = _scale(n_in, n_out, align_corners, scale, ft)
    d = np.arange(n_out, dtype=ft)
    real = s * d if align_corners else np.maximum(_source_index(s, d, ft), ft(0))
    i0 = _floorf(real, n_in)
    l1 = np.clip(real - i0.astype(ft), 0, 1)
    i1 = i0 + (i0 < n_in - 1)
    l1 = l1.astype(wt)
    return [(i0, (wt(1) - l1).astype(ft)), (i1, l1.astype(ft))]


_A = -0.75  # PyTorch's bicubic convolution coefficient


def _cubic_taps(n_in, n_out, align_corners, scale, ft, wt):
    s = _scale(n_in, n_out, align_corners, scale, ft)
    d = np.arange(n_out, dtype=ft)
    real = s * d if align_corners else _source_index(s, d, ft)
    i = _floorf(real, n_in)
    t = np.clip(real - i.astype(ft), 0, 1)
    if fused_sums():
        weights = _upsample_fma.cubic_weights(t)
    else:
        a = ft(_A)

        def near(x):  # |x| <= 1
            return ((a + 2) * x - (a + 3)) * x * x + 1

        def far(x):  # 1 < |x| < 2
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

        weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
    return [(np.clip(i - 1 + j, 0, n_in - 1), w.astype(wt).astype(ft))
            for j, w in enumerate(weights)]


def _taps(name, sizes_in, sizes_out, align_corners, scales, dtype, backward=False):
    _, mode, _ = R.UPSAMPLE[name]
    ft = np.dtype(np.float64) if dtype is D.float64 else np.dtype(np.float32)
    # PyTorch stores the weights in the input's dtype (16-bit floats rounded), except in
    # its bilinear 2d kernel, which keeps them in float32
    wt = dtype.np if dtype.kind == "f" and name != "upsample_bilinear2d" else ft
    taps = []
    for n_in, n_out, scale in zip(sizes_in, sizes_out, scales):
        if mode.startswith("nearest"):
            taps.append(_nearest_taps(n_in, n_out, scale, mode == "nearest-exact", backward))
        elif mode == "linear":
            taps.append(_linear_taps(n_in, n_out, align_corners, scale, ft.type, wt.type))
        else:
            taps.append(_cubic_taps(n_in, n_out, align_corners, scale, ft.type, wt.type))
    return taps


def _split(name, rest):
    """(align_corners, per-dim scales) from an upsample op's trailing arguments."""
    if R.UPSAMPLE[name][2]:
        return rest[0], rest[1:]
    return False, rest


# -- uint8 bilinear / bicubic: PyTorch's fixed-point separable path ----------------------
# PyTorch resamples uint8 images one dim at a time (the last dim first, dims whose size is
# unchanged skipped), each pass rounding back to uint8: weights computed in double,
# scaled to int16 by a per-dim power of two, products summed in integers, then
# (sum + half) >> precision saturated to [0, 255].

def _uint8_weights(n_in, n_out, align_corners, scale, size):
    """(first index, int16-scaled weights (n_out, size), precision) of one dim."""
    s = _scale(n_in, n_out, align_corners, scale, np.float64)
    d = np.arange(n_out, dtype=np.float64)
    cubic = size == 4
    real = s * d if align_corners else _source_index(s, d, np.float64)
    if not cubic and not align_corners:
        real = np.maximum(real, 0.0)
    index = _floorf(real, n_in)
    lam = np.clip(real - index, 0.0, 1.0)
    support = size // 2
    lo = index - support + 1  # unbounded first index
    first = np.maximum(lo, 0)
    count = np.clip(np.minimum(index + support + 1, n_in) - first, 0, size)
    w = np.zeros((n_out, size))
    slot = np.zeros(n_out, np.int64)
    rows = np.arange(n_out)
    for j in range(size):  # out-of-range taps accumulate on the edge ones
        x = np.abs((j + 1 - support) - lam)
        if cubic:
            a = _A
            f = np.where(x < 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                         np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0.0))
        else:
            f = np.where(x < 1, 1 - x, 0.0)
        slot = np.where(lo + j <= 0, 0, np.where(lo + j >= n_in - 1, count - 1, slot))
        w[rows, slot] += f
        slot = slot + 1
    wmax = w.max(initial=0.0)
    precision = 0
    while precision < 22 and int(0.5 + wmax * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    v = w * (1 << precision)
    wi = np.where(v < 0, np.trunc(v - 0.5), np.trunc(v + 0.5)).astype(np.int64)
    wi[np.arange(size) >= count[:, None]] = 0
    return first, wi, precision


def _upsample_uint8(a, output_size, align_corners, scales, size):
    nd = len(output_size)
    for i in reversed(range(nd)):
        axis = a.ndim - nd + i
        n_in, n_out = a.shape[axis], output_size[i]
        if n_in == n_out:
            continue
        first, w, precision = _uint8_weights(n_in, n_out, align_corners, scales[i], size)
        acc = np.full(a.shape[:axis] + (n_out,) + a.shape[axis + 1:], 1 << (precision - 1),
                      np.int64)
        shape = (-1,) + (1,) * (a.ndim - 1 - axis)
        for k in range(size):
            taps = np.take(a, np.minimum(first + k, n_in - 1), axis=axis).astype(np.int64)
            acc += taps * w[:, k].reshape(shape)
        a = np.clip(acc >> precision, 0, 255).astype(np.uint8)
    return a.copy()


def _channels_last(t):
    """Whether a 4-d or 5-d tensor is laid out channels last (PyTorch's is_contiguous
    test)."""
    fmt = {4: "channels_last", 5: "channels_last_3d"}.get(t.ndim)
    return fmt is not None and is_contiguous_as(t._shape, t.stride(), fmt)


def _linear_fused(self, a, output_size, taps):
    if _upsample_fma.channels_last_kernel(len(taps), self._shape, output_size,
                                        _channels_last(self)):
        return _upsample_fma.by_corners(a, taps)
    return _upsample_fma.separable(a, taps)


def _upsample(name):
    nd, mode, _ = R.UPSAMPLE[name]

    def kernel(self, output_size, *rest):
        R.upsample_plan(name, self, output_size)
        align_corners, scales = _split(name, rest)
        if self.dtype.kind == "u" and not mode.startswith("nearest"):
            size = 4 if mode == "cubic" else 2
            out = _upsample_uint8(arr(self), output_size, align_corners, scales, size)
            return wrap(out, self.dtype)
        # PyTorch's nearest 2d kernel for channels-last inputs of more than 3 channels or
        # small outputs (its nearest_idx) copies equal sizes and halves indices for doubled
        # ones, whatever the scale, as its backward kernels
        shortcut = name == "upsample_nearest2d" and (
            sum(output_size) <= 128 or self._shape[1] > 3 and _channels_last(self))
        taps = _taps(name, self._shape[2:], output_size, align_corners, scales, self.dtype,
                     backward=shortcut)
        a = arr(self)
        fused = fused_sums()
        if mode == "linear" and self.dtype in _CUBIC_FUSED and fused:  # (16-bit: float32)
            out = _linear_fused(self, a.astype(_work_dtype(self.dtype), copy=False),
                                output_size, taps)
            return wrap(out.astype(self.dtype.np, copy=False), self.dtype)
        if mode == "cubic" and self.dtype in _CUBIC_FUSED and fused:  # (16-bit: float32)
            out = _upsample_fma.separable(a.astype(_work_dtype(self.dtype), copy=False), taps)
            return wrap(out.astype(self.dtype.np, copy=False), self.dtype)
        if not mode.startswith("nearest"):
            a = a.astype(_work_dtype(self.dtype))
        out = _apply(a, nd, taps)
        return wrap(out.astype(self.dtype.np), self.dtype)
    return kernel


def _upsample_backward(name):
    nd = R.UPSAMPLE[name][0]

    def kernel(grad_output, output_size, input_size, *rest):
        sizes_in, sizes_out = R.upsample_sizes(name, input_size, output_size)
        _check_grad(grad_output, tuple(input_size[:2]) + sizes_out)
        align_corners, scales = _split(name, rest)
        dtype = grad_output.dtype
        taps = _taps(name, sizes_in, sizes_out, align_corners, scales, dtype, backward=True)
        g = arr(grad_output).astype(_work_dtype(dtype))
        mode = R.UPSAMPLE[name][1]
        if mode == "linear" and dtype in _LINEAR_FUSED and fused_sums() or \
                mode.startswith("nearest") and dtype in (D.float32, D.float64):
            out = _upsample_fma.linear_backward(g, taps, sizes_in)
            return wrap(out, dtype)
        out = _apply_transposed(g, nd, taps, sizes_in)
        return wrap(out.astype(dtype.np), dtype)
    return kernel


KERNELS = {}
for _kind in ("reflection", "replication"):
    for _nd in (1, 2, 3):
        KERNELS[f"{_kind}_pad{_nd}d"] = _pad(_kind, _nd)
        KERNELS[f"{_kind}_pad{_nd}d_backward"] = _pad_backward(_kind, _nd)
for _name in R.UPSAMPLE:
    KERNELS[_name] = _upsample(_name)
    KERNELS[_name + "_backward"] = _upsample_backward(_name)
keep_channels_last(KERNELS, [n for n, (nd, _, _) in R.UPSAMPLE.items() if nd > 1] +
                   [f"{k}_pad{nd}d" for k in ("reflection", "replication") for nd in (2, 3)])
keep_channels_last(KERNELS, [f"{k}_pad{nd}d_backward" for k in ("reflection", "replication")
                             for nd in (2, 3)], input_at=1)
# (PyTorch's upsampling gradients follow grad_output's layout; bicubic's and 3-d nearest's
# are contiguous)
keep_channels_last(KERNELS, [n + "_backward" for n in ("upsample_nearest2d", "upsample_bilinear2d",
                                                     "_upsample_nearest_exact2d",
                                                     "upsample_trilinear3d")])
