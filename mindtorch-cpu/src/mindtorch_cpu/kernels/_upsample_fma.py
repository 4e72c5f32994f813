"""float32 / float64 linear and cubic upsampling (linear 1d, bilinear 2d, trilinear 3d,
bicubic 2d) summed as PyTorch's kernels sum it, to the bit.  Its compiler fuses the weighted sums into
multiply-adds (fma: one rounding), so the order and grouping of the terms decide the last
bit:

- the generic kernel interpolates one dim at a time, the last dim innermost, each as
  t0 * w0 + t1 * w1 + ... = fma(..., fma(t2, w2, fma(t0, w0, t1 * w1)));
- the channels-last kernel (bilinear / trilinear, picked by `channels_last_kernel`) sums
  the 2**nd corners of each output point with weights multiplied out per corner: over the
  channels its vector loop covers (32-byte vectors: 8 floats, 4 doubles), t0*w0 + (t1*w1 + ... + (t6*w6 + t7*w7)),
  innermost fma(t7, w7, t6 * w6); over the remaining channels, left to right from
  fma(t0, w0, t1 * w1);
- the cubic weights' polynomials fuse all but their last step (`cubic_weights`).

float32 fma is exact through float64: the product of two float32 is exact there, the sum
rounds once more (a double rounding that differs from one rounding about once in 2**29);
float64's is _box_muller's error-free one.
From _jit.MIN_SIZE elements numba's loops (_upsample_loops) compute the same steps; the
gradients' ordered sums are _ordered_scatter's.
"""
import itertools

import numpy as np
from mindtorch._runtime import get_num_threads

from ._box_muller import fma as _fma64
from ._jit import compiled
from ._ordered_scatter import scatter

_VECTOR_BYTES = 32  # PyTorch's vectorized channels-last loop: AVX2-wide vectors


def fma(a, w, c):
    if np.asarray(a).dtype == np.float64:
        return _fma64(*np.broadcast_arrays(a, w, c))
    out = a.astype(np.float64)
    out *= w.astype(np.float64)
    out += c
    return out.astype(np.float32)


def channels_last_kernel(nd, input_shape, output_size, channels_last):
    """Whether PyTorch's cpu kernel for this upsampling is its channels-last one: for
    channels-last inputs of more than 3 channels, small 2d outputs, and, on one thread,
    3-channel (RGB) 2d inputs."""
    channels = input_shape[1]
    if nd == 1:
        return False
    if channels > 3 and channels_last:
        return True
    return nd == 2 and (sum(output_size) <= 128 or
                        get_num_threads() == 1 and channels == 3)


def separable(a, taps):
    """The generic kernel: one dim at a time, the last one first."""
    nd = len(taps)
    for i in reversed(range(nd)):
        axis = a.ndim - nd + i
        jit = compiled("_upsample_loops", a.size)
        if jit is not None:
            index = np.stack([idx for idx, _ in taps[i]])
            weight = np.stack([w for _, w in taps[i]]).astype(a.dtype)
            a = np.ascontiguousarray(a)
            out = np.empty(a.shape[:axis] + (index.shape[1],) + a.shape[axis + 1:], a.dtype)
            jit.taps_pass(_around(a, axis), index, weight, _around(out, axis))
            a = out
            continue
        shape = (-1,) + (1,) * (nd - 1 - i)
        a = _chained([(np.take(a, idx, axis=axis), w.reshape(shape)) for idx, w in taps[i]])
    return a


def _around(a, axis):
    """A C-contiguous array as (before axis, axis, after axis)."""
    return a.reshape(int(np.prod(a.shape[:axis])), a.shape[axis], -1)


def by_corners(a, taps):
    """The channels-last kernel: each output point a weighted sum of its corners."""
    nd = len(taps)
    channels = a.shape[1]
    vector = channels - channels % (_VECTOR_BYTES // a.itemsize)
    jit = compiled("_upsample_loops", a.size) if nd == 2 else None
    if jit is not None:
        (h0, hw0), (h1, hw1) = taps[0]
        (c0, cw0), (c1, cw1) = taps[1]
        out = np.empty(a.shape[:2] + (h0.size, c0.size), a.dtype)
        jit.corners_2d(a, h0, hw0, h1, hw1, c0, cw0, c1, cw1, vector, out)
        return out
    terms = [_corner(a, taps, choice) for choice in itertools.product((0, 1), repeat=nd)]
    out = np.empty(terms[0][0].shape, a.dtype)
    if vector:
        out[:, :vector] = _nested([(t[:, :vector], w) for t, w in terms])
    if vector < channels:
        out[:, vector:] = _chained([(t[:, vector:], w) for t, w in terms])
    return out


def _corner(a, taps, choice):
    """The input values at one corner (per dim, tap 0 or 1) of every output point, and their
    weights (the per-dim weights multiplied in dim order, rounded at each step)."""
    nd = len(taps)
    weight = None
    for i, c in enumerate(choice):
        idx, w = taps[i][c]
        a = np.take(a, idx, axis=a.ndim - nd + i)
        w = w.reshape((-1,) + (1,) * (nd - 1 - i))
        weight = w if weight is None else (weight * w).astype(w.dtype)
    return a, weight


def _nested(terms):
    (t6, w6), (t7, w7) = terms[-2:]
    acc = fma(t7, w7, t6 * w6)
    for t, w in reversed(terms[:-2]):
        acc = fma(t, w, acc)
    return acc


def _chained(terms):
    (t0, w0), (t1, w1) = terms[:2]
    acc = fma(t0, w0, t1 * w1)
    for t, w in terms[2:]:
        acc = fma(t, w, acc)
    return acc


def cubic_weights(t):
    """The four bicubic weights of offsets t (PyTorch's get_cubic_upsample_coefficients,
    A = -0.75, its multiply-adds fused as compiled), in t's float type."""
    a, one = t.dtype.type(-0.75), t.dtype.type(1)

    def near(x):  # |x| <= 1: ((a + 2) x - (a + 3)) x x + 1
        return fma(a + 2, x, -(a + 3)) * x * x + one

    def far(x):  # 1 < |x| < 2: ((a x - 5a) x + 8a) x - 4a
        return fma(fma(a, x, -5 * a), x, 8 * a) * x - 4 * a

    opposite = one - t
    return [far(t + one), near(t), near(opposite), far(opposite + one)]


def linear_backward(g, taps, sizes_in):
    """The linear, nearest and padding kernels' gradient: output points in raster order,
    each adding its corners (in corner order) into the input's gradient, grad_in =
    fma(w, g, grad_in) with the corner weight w multiplied out per dim (float32); taps
    without weights (nearest, padding: one corner) a plain sum, in g's dtype.
    g: (planes..., *out)."""
    nd = len(taps)
    weighted = any(w is not None for tap in taps for _, w in tap)
    lead = g.shape[:-nd]
    go = np.ascontiguousarray(g.reshape((-1, int(np.prod(g.shape[-nd:])))))
    targets, weights = _corner_table(taps, sizes_in, go.dtype)  # (points, corners) each
    grad = scatter(go, targets, weights if weighted else None, int(np.prod(sizes_in)))
    return grad.reshape(lead + tuple(sizes_in))


def _corner_table(taps, sizes_in, dtype):
    """Per output point (raster order), its corners' flat input positions and weights."""
    nd = len(taps)
    strides = np.cumprod((1,) + tuple(sizes_in[:0:-1]))[::-1]
    targets, weights = [], []
    for choice in itertools.product(*(range(len(t)) for t in taps)):
        flat, weight = None, None
        for i, c in enumerate(choice):
            idx, w = taps[i][c]
            shape = [1] * nd
            shape[i] = -1
            part = (idx * strides[i]).reshape(shape)
            w = np.ones(1, dtype) if w is None else w.astype(dtype).reshape(shape)
            flat = part if flat is None else flat + part
            weight = w if weight is None else (weight * w).astype(dtype)
        out_shape = tuple(len(t[0][0]) for t in taps)
        targets.append(np.broadcast_to(flat, out_shape).ravel())
        weights.append(np.broadcast_to(weight, out_shape).ravel())
    return np.stack(targets, 1), np.stack(weights, 1)
