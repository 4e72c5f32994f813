"""Batch norm kernels: the training forward (this batch's statistics), the inference forward
and the training backward, each a few NumPy passes over the input in its own layout
(channels first or channels last), instead of the ~10 ops of the decompositions; from
_jit.MIN_SIZE elements their last step, a per-channel affine map, is one compiled pass
(kernels/_compiled.py: NumPy's broadcast multiply-add takes three).

Per-channel sums accumulate in float64, as PyTorch's CPU kernels do; the variance is the
second pass over x - mean (no cancellation).  float32 and float64 inputs with parameters
of the same dtype; contiguous 16-bit inputs with parameters of their dtype or float32 take
ATen's 16-bit steps (_half_*); anything else (other layouts, empty inputs) runs the
decomposition, so the checks and the results stay the core's.
"""
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._runtime import get_num_threads

from .._np import arr, wrap
from ._aten_half import f32, fma32, plane_sum
from ._box_muller import fma64
from ._jit import compiled, loaded, loops

_FLOATS = (np.float32, np.float64)
_HALVES = (D.float16, D.bfloat16)
_FMA_ROWS = 4  # rows (planes) of the emulated FMAs' loops (~10 us each; more: compiled)


def _decomposed(name):
    from mindtorch._ops.dispatch import _decomposition
    return _decomposition(OPS[name])


def _channels_last_view(a):
    """np.moveaxis(a, 1, -1) (the channels last) by one transpose: moveaxis's argument
    normalization costs ~3 us, a few times per small batch norm."""
    nd = a.ndim
    return a if nd == 2 else a.transpose((0,) + tuple(range(2, nd)) + (1,))


def _channels_first_view(r):
    """The inverse: np.moveaxis(r, -1, 1)."""
    nd = r.ndim
    return r if nd == 2 else r.transpose((0, nd - 1) + tuple(range(1, nd - 1)))


def _fusable(input, *params):
    """Whether input (N, C, *) and its per-channel params (None allowed) take these kernels."""
    if input.ndim < 2 or not input.numel() or arr(input).dtype.type not in _FLOATS:
        return False
    return all(p is None or p.dtype is input.dtype for p in params)


def _vec(t):
    """A per-channel tensor as a 1-D array (PyTorch checks their number of elements only)."""
    return arr(t).reshape(-1)


def _vecdot(a, b):
    """Dot products along the last axis (numpy >= 2's vecdot; einsum before)."""
    if hasattr(np, "vecdot"):
        return np.vecdot(a, b)
    return np.einsum("...i,...i->...", a, b)


class _ByChannel:
    """x (N, C, *S) as a 3-D array with the channels on axis 1, (N, C, L), or last,
    (N, L, C), for a channels-last layout (and a 2-d input): views of the input's memory
    for both (a copy for other layouts).  Per-channel sums here are float32 sums of each
    (n, c) row of L elements, by BLAS, then float64 sums of those over the batch (the
    backward's; a float32 channels-first forward takes _contiguous_float32_moments)."""

    def __init__(self, a):
        self.shape = a.shape
        n, c = a.shape[:2]
        length = math.prod(a.shape[2:])
        last = _channels_last_view(a)
        self.last = a.ndim == 2 or last.flags.c_contiguous and not a.flags.c_contiguous
        self.x = last.reshape(n, length, c) if self.last else a.reshape(n, c, length)
        self.ones = np.ones(length, a.dtype)
        self.count = n * length

    def of(self, a):
        """Another array of the input's shape, seen the same way (copied if laid out
        otherwise)."""
        if self.last:
            return _channels_last_view(a).reshape(self.x.shape)
        return a.reshape(self.x.shape)

    def channels(self, v):
        """A per-channel vector broadcasting against the 3-D arrays."""
        return v if self.last else v[:, None]

    def back(self, r):
        """A 3-D result as an array of the input's shape (and layout)."""
        if self.last:
            return _channels_first_view(
                r.reshape((self.shape[0],) + self.shape[2:] + (self.shape[1],)))
        return r.reshape(self.shape)

    def _over_batch(self, rows):
        return np.add.reduce(rows, axis=0, dtype=np.float64)

    def sum(self, a):
        """Per channel, in float64."""
        if self.last:
            return self._over_batch(np.matmul(self.ones, a) if a.shape[1] > 1 else a[:, 0])
        return self._over_batch(np.matmul(a, self.ones))

    def dot(self, a, b):
        """Per channel sums of a * b, in float64."""
        if self.last:
            return self.sum(a * b)
        return self._over_batch(_vecdot(a, b))


def _last(a):
    """Whether an (N, C, *) array is laid out channels last (C-contiguous once C moves)."""
    return a.ndim > 2 and not a.flags.c_contiguous and _channels_last_view(a).flags.c_contiguous


def _half_params(input, *params):
    """For a 16-bit (N, C, *) input, contiguous or channels last, whose given params all
    have its dtype (False) or are all float32 (True, PyTorch's mixed kernels): whether
    mixed; else None."""
    if input.dtype not in _HALVES or input.ndim < 2 or not input.numel() or \
            not (arr(input).flags.c_contiguous or _last(arr(input))):
        return None
    dts = {p.dtype for p in params if p is not None}
    return None if len(dts) > 1 else dts == {D.float32} or (None if dts - {input.dtype}
                                                            else False)


def _planes(a):
    """(N, C, L) float32 planes; a channels-last input as (N * L, C, 1): ATen's
    channels-last kernels add each channel's values in order, as planes of one value."""
    if _last(a):
        return _channels_last_view(a).reshape(-1, a.shape[1], 1).astype(f32)
    return a.reshape(a.shape[0], a.shape[1], -1).astype(f32)


def _unplanes(r, input):
    """A result of _planes' shape back in input's shape and layout."""
    a = arr(input)
    if _last(a):
        return _channels_first_view(r.reshape((a.shape[0],) + a.shape[2:] + (a.shape[1],)))
    return r.reshape(a.shape)


def _half_training(input, weight, bias, eps, mixed):
    """ATen's 16-bit training forward: float32 channel sums (plane_sum; the squares fused
    into them unless mixed), invstd from the variance in float64, mean and invstd rounded
    to the params' dtype, then x * alpha + beta rounded once, alpha = invstd * weight and
    beta = bias - mean * alpha in float32.  bfloat16 with bfloat16 params also rounds the
    sum of squares and the variances to bfloat16 (float16's kernel keeps them float32)."""
    x = _planes(arr(input))
    pd = np.dtype(f32) if mixed else arr(input).dtype
    n = x.shape[0] * x.shape[2]
    mean = plane_sum(x) / f32(n)
    # (ATen's channels-last kernel takes the mean as stored: bfloat16 params round it)
    shift = mean.astype(pd).astype(f32) if x.shape[2] == 1 and input.dtype is D.bfloat16 \
        else mean
    d = x - shift[:, None]
    # (float params' kernel over planes adds the squares rounded; one value per plane takes
    # ATen's channels-last statistics, which fuse them, as the 16-bit params' kernels)
    sq = plane_sum(d, d, (not mixed or x.shape[2] == 1,) * 2)
    with np.errstate(all="ignore"):
        if input.dtype is D.bfloat16 and not mixed:
            sq = sq.astype(pd).astype(f32)
            # (bfloat16 / count: the count is rounded to bfloat16 too)
            var, unbiased = ((sq / f32(k).astype(pd)).astype(pd).astype(f32)
                             for k in (n, max(n - 1, 0)))
        else:
            var, unbiased = sq / f32(n), sq / f32(n - 1) if n > 1 else sq / f32(0)
        invstd = (1 / np.sqrt(var.astype(np.float64) + eps)).astype(f32).astype(pd).astype(f32)
    saved = mean.astype(pd).astype(f32)  # (float16's running mean takes the float32 one)
    if input.dtype is D.bfloat16:
        mean = saved
    alpha = invstd if weight is None else invstd * _vec(weight).astype(f32)
    beta = np.zeros_like(alpha) if bias is None else _vec(bias).astype(f32)
    # (the float-param kernel's build fuses the product into the difference)
    beta = fma32(-saved, alpha, beta) if mixed else beta - saved * alpha
    out = fma32(x, alpha[:, None], beta[:, None]).astype(arr(input).dtype)
    return (wrap(_unplanes(out, input), input.dtype), wrap(mean, D.float32),
            wrap(invstd, D.float32), wrap(unbiased, D.float32))


def _half_backward(grad, input, mean, invstd, weight):
    """ATen's 16-bit training backward: per channel float32 sums of g and of (x - mean) g
    (plane_sum), then (g - sum(g) / n - (x - mean) k) invstd w, k = dotp invstd^2 / n."""
    x, g = _planes(arr(input)), _planes(arr(grad))
    n = x.shape[0] * x.shape[2]
    m, r = _vec(mean).astype(f32), _vec(invstd).astype(f32)
    mixed = weight is not None and weight.dtype is D.float32
    if not mixed:  # (the saved mean, rounded)
        m = m.astype(arr(input).dtype).astype(f32)
    d = x - m[:, None]
    sum_g = plane_sum(g)
    # (with float params the scalar loop's product is fused for float16, not bfloat16; one
    # value per plane: ATen's channels-last kernel, fused)
    dotp = plane_sum(d, g, (True, not mixed or input.dtype is D.float16 or x.shape[2] == 1))
    k = dotp * r * r / f32(n)
    gx = fma32(-d, k[:, None], g - (sum_g / f32(n))[:, None]) * r[:, None]
    if weight is not None:
        gx *= _vec(weight).astype(f32)[:, None]
    pd = np.float32 if weight is None or weight.dtype is D.float32 else arr(input).dtype
    gx = _unplanes(gx.astype(arr(input).dtype).astype(f32), input)
    return (wrap(gx, D.float32), wrap((dotp * r).astype(pd).astype(f32), D.float32),
            wrap(sum_g.astype(pd).astype(f32), D.float32))


def _row_chunks(rows):
    """ATen's parallel_for(0, rows, grain 1) split: one chunk of ceil(rows / threads) rows
    per thread."""
    size = -(-rows // max(1, min(get_num_threads(), rows)))
    return [slice(b, b + size) for b in range(0, rows, size)]


def _float64_moments(v):
    """Per channel (sum / n, sum of (x - mean)^2) of a float64 input as ATen's float64
    kernels add them, one value after another (np.cumsum's order), products unfused: the
    contiguous kernel walks each channel's planes in turn; the channels-last (and 2-d) one
    a thread's chunk of rows into a buffer per thread, the buffers then added in order."""
    rows = v.x.reshape(-1, v.x.shape[-1]) if v.last else \
        v.x.transpose(0, 2, 1).reshape(-1, v.x.shape[1])  # (values in order, C)
    # (planes of one value take the channels-last kernel, whatever the rank)
    by_rows = v.last or v.x.shape[2] == 1
    chunks = _row_chunks(len(rows)) if by_rows else [slice(None)]
    total = np.zeros(rows.shape[1])
    for c in chunks:
        total += np.cumsum(rows[c], axis=0)[-1]
    mean = total / len(rows)
    sq = np.zeros(rows.shape[1])
    for c in chunks:
        d = rows[c] - mean
        sq += _fused_square_sum(d) if by_rows else _plane_square_sum(d, v.x.shape[2])
    return mean, sq


def _contiguous_float32_moments(v):
    """(mean, sum of squares, a scratch array) of a float32 input laid out channels first
    with planes of more than one value, as ATen's contiguous kernel takes them: per channel
    a double sum of the values, mean = sum / n rounded to float32, then a double sum of the
    float32 squares (x - mean)^2, stored in float32 (its var_sum buffer has the input's
    dtype): the sum of squares divided by n or n - 1 is then a float32 division."""
    jit = loops(v.x.size)
    if jit is not None:  # (one compiled pass per statistic, in ATen's order)
        mean, sq = np.empty(v.x.shape[1], np.float32), np.empty(v.x.shape[1], np.float32)
        jit.contiguous_moments_f32(v.x, mean, sq)
        return mean, sq, np.empty_like(v.x)
    mean = np.add.reduce(v.x, axis=(0, 2), dtype=np.float64) / v.count
    d = v.x - v.channels(mean.astype(np.float32))
    sq = np.add.reduce(np.multiply(d, d, out=d), axis=(0, 2), dtype=np.float64)
    return mean, sq.astype(np.float32), d


def _compiled_for(rows, size):
    """kernels._compiled if loaded, or for more than _FMA_ROWS rows (None without numba)."""
    return loaded("_compiled") or (compiled("_compiled", size, 0) if rows > _FMA_ROWS
                                   else None)


def _plane_square_sum(d, length):
    """Per column sum of d^2 over the rows (planes of `length` in turn) as ATen's contiguous
    float64 kernel adds them: the products rounded, but the last of a plane of odd length
    fused (its loop is unrolled by two; the compiler contracts the remainder's step)."""
    if length % 2 == 0:
        return np.cumsum(d * d, axis=0)[-1]
    planes = d.reshape(-1, length, d.shape[1])
    acc = np.zeros(d.shape[1])
    jit = _compiled_for(len(planes), d.size)
    if jit is not None:
        jit.odd_plane_square_sums(np.ascontiguousarray(planes), acc)
        return acc
    for p in planes:
        acc = np.cumsum(np.concatenate([acc[None], p[:-1] * p[:-1]]), axis=0)[-1]
        acc = fma64(p[-1], p[-1], acc)
    return acc


def _fused_square_sum(d):
    """Per column sum of d^2 over the rows in order, each step acc + d * d rounded once (the
    channels-last kernel's vector loop, which PyTorch's build contracts into FMAs): NumPy's
    FMA emulation row by row over a few rows (a batch of BatchNorm1d), a compiled loop over
    more, else (no numba) d * d rounded before it is added."""
    acc = np.zeros(d.shape[1])
    jit = _compiled_for(len(d), d.size)
    if jit is not None:
        jit.fused_square_sums(np.ascontiguousarray(d), acc)
    elif len(d) <= _FMA_ROWS:
        for row in d:
            acc = fma64(row, row, acc)
    else:
        acc = np.cumsum(d * d, axis=0)[-1]
    return acc


def _batch_norm_training(input, weight, bias, eps):
    """(output, mean, invstd, unbiased variance) from this batch's statistics."""
    mixed = _half_params(input, weight, bias)
    if mixed is not None:
        return _half_training(input, weight, bias, eps, mixed)
    if not _fusable(input, weight, bias):
        return _decomposed("_batch_norm_training")(input, weight, bias, eps)
    v = _ByChannel(arr(input))
    ct, n = v.x.dtype, v.count
    jit = loops(v.x.size)
    if jit is not None and v.last and ct == np.float32:  # (one pass, no temporaries)
        mean, sq = np.zeros(v.x.shape[2]), np.zeros(v.x.shape[2])
        jit.channels_last_moments(v.x, mean, sq)
        d = np.empty_like(v.x)
    elif ct == np.float64:
        mean, sq = _float64_moments(v)
        d = np.empty_like(v.x)
    elif not v.last and v.x.shape[2] > 1:
        mean, sq, d = _contiguous_float32_moments(v)
    else:
        mean = v.sum(v.x) / n
        d = v.x - v.channels(mean.astype(ct))
        sq = v.dot(d, d)
    with np.errstate(all="ignore"):  # (one element per channel: 0 / 0, as the decomposition)
        # (a float32 sq, ATen's float32 var_sum, divides in float32; eps is added in double)
        invstd = (1 / np.sqrt(np.asarray(sq / n, np.float64) + eps)).astype(ct)
        var = sq / (n - 1) if n > 1 else sq / 0.0
    mean = mean.astype(ct)
    # PyTorch's steps: x * alpha + beta rounded once (a fused multiply-add), alpha =
    # invstd * weight and beta = bias - mean * alpha in the dtype
    alpha = invstd if weight is None else invstd * _vec(weight)
    # (beta's product fused too, as ATen's build contracts it: float32's exactly in float64)
    beta = -(mean * alpha) if bias is None else fma64(-mean, alpha, _vec(bias)) \
        if ct == np.float64 else (_vec(bias) - np.multiply(mean, alpha, dtype=np.float64)
                                  ).astype(np.float32)
    if jit is not None:  # (one pass into d)
        jit.channel_affine(v.x, alpha, beta, d, v.last)
    elif ct == np.float64:
        d[...] = fma64(v.x, v.channels(alpha), v.channels(beta))
    else:  # (in float64: the float32 product is exact there, so one rounding, as an FMA)
        wide = np.multiply(v.x, v.channels(alpha), dtype=np.float64)
        wide += v.channels(beta)
        d[...] = wide
    dt = input.dtype
    return (wrap(v.back(d), dt), wrap(mean, dt), wrap(invstd, dt), wrap(var.astype(ct), dt))


def _batch_norm_inference(input, weight, bias, running_mean, running_var, eps):
    """x * scale + shift per channel, scale = weight / sqrt(var + eps), shift = bias -
    mean * scale, in the parameters' dtype (the decomposition's steps)."""
    if not _fusable(input, weight, bias, running_mean, running_var):
        return _decomposed("_batch_norm_inference")(input, weight, bias, running_mean,
                                                    running_var, eps)
    v = _ByChannel(arr(input))
    ct = v.x.dtype.type
    with np.errstate(all="ignore"):
        scale = 1 / np.sqrt(_vec(running_var) + ct(eps))
        if weight is not None:
            scale *= _vec(weight)
        shift = -_vec(running_mean) * scale
        if bias is not None:  # (fused, as ATen's build contracts it: float32's in float64)
            shift = fma64(-_vec(running_mean), scale, _vec(bias)) if ct is np.float64 \
                else (_vec(bias) - np.multiply(_vec(running_mean), scale, dtype=np.float64)
                      ).astype(ct)
        out = np.empty_like(v.x)
        jit = loops(v.x.size)
        if jit is not None:
            jit.channel_affine(v.x, scale, shift, out, v.last)
        elif ct is np.float64:
            out[...] = fma64(v.x, v.channels(scale), v.channels(shift))
        else:  # (one rounding, as PyTorch's fused multiply-add: see _batch_norm_training)
            wide = np.multiply(v.x, v.channels(scale), dtype=np.float64)
            wide += v.channels(shift)
            out[...] = wide
    return wrap(v.back(out), input.dtype)


def _batch_norm_backward(grad, input, mean, invstd, weight):
    """The decomposition's gradients: with xhat = (x - mean) invstd and k = invstd weight,
    the input's k (g - sum(g) / n - xhat sum(g xhat) / n), and per channel sum(g xhat),
    sum(g)."""
    if grad.dtype is input.dtype and _half_params(input, weight) is not None and \
            _last(arr(grad)) == _last(arr(input)) and _half_params(grad) is not None:
        return _half_backward(grad, input, mean, invstd, weight)
    if not _fusable(input, weight, mean, invstd) or grad.dtype is not input.dtype:
        return _decomposed("_batch_norm_backward")(grad, input, mean, invstd, weight)
    v = _ByChannel(arr(input))
    g = v.of(arr(grad))
    ct, n = v.x.dtype, v.count
    m, r = _vec(mean).astype(np.float64), _vec(invstd).astype(np.float64)
    d = v.x - v.channels(m.astype(ct))
    sum_g = v.sum(g)
    sum_gxhat = v.dot(g, d) * r
    k = r if weight is None else r * _vec(weight)
    with np.errstate(all="ignore"):
        c = k * r * sum_gxhat / n  # (d * c: xhat * k * sum(g xhat) / n)
        gmean = sum_g / n
        jit = loops(d.size)
        if jit is not None:  # (g - mean(g)) k - (x - mean) c, one pass into d
            jit.batch_norm_input_grad(g, v.x, gmean.astype(ct), k.astype(ct), m.astype(ct),
                                      c.astype(ct), d, v.last)
            gx = d
        else:  # (g - mean(g)) first: a constant gradient (sum()'s) cancels exactly
            gx = g - v.channels(gmean.astype(ct))
            gx *= v.channels(k.astype(ct))
            d *= v.channels(c.astype(ct))
            gx -= d
    dt = input.dtype
    return (wrap(v.back(gx), dt), wrap(sum_gxhat.astype(ct), dt), wrap(sum_g.astype(ct), dt))


def _batch_norm_inference_backward(grad, input, weight, running_mean, running_var, eps):
    """The decomposition's gradients, in one compiled pass from _jit.MIN_SIZE elements:
    grad * invstd * weight, and per channel sum(grad (x - mean)) * invstd and sum(grad)."""
    if not _fusable(input, weight, running_mean, running_var) or grad.dtype is not input.dtype:
        return _decomposed("_batch_norm_inference_backward")(grad, input, weight, running_mean,
                                                             running_var, eps)
    v = _ByChannel(arr(input))
    g, ct = v.of(arr(grad)), v.x.dtype
    invstd = (1 / np.sqrt(_vec(running_var).astype(np.float64) + eps)).astype(ct)
    mean = _vec(running_mean)
    gx = np.empty_like(v.x)
    jit = loops(v.x.size)
    if jit is not None:
        w = np.ones_like(invstd) if weight is None else _vec(weight)
        sum_g, sum_gd = np.zeros(invstd.size), np.zeros(invstd.size)
        jit.batch_norm_eval_backward(g, v.x, mean, invstd, w, gx, sum_g, sum_gd, v.last)
    else:
        sum_g, sum_gd = v.sum(g), v.dot(g, v.x - v.channels(mean))
        np.multiply(g, v.channels(invstd), out=gx)
        if weight is not None:
            gx *= v.channels(_vec(weight))
    dt = input.dtype
    return (wrap(v.back(gx), dt), wrap((sum_gd * invstd).astype(ct), dt),
            wrap(sum_g.astype(ct), dt))


KERNELS = {"_batch_norm_training": _batch_norm_training,
           "_batch_norm_inference_backward": _batch_norm_inference_backward,
           "_batch_norm_inference": _batch_norm_inference,
           "_batch_norm_backward": _batch_norm_backward}
