"""Pooling kernels.  Shapes and validity come from the shared rules in
mindtorch._ops.decls.pooling; these kernels only compute.

Every kernel loops over the offsets inside a window (a few), each step working on whole
strided views of the (padded) input at once, never over output positions.  16-bit floats
compute in float32 (PyTorch's opmath type) and round once at the end; sums add in the
window's row-major order, as PyTorch's CPU loops do.
"""
import functools
import itertools
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import pooling as P

from .._np import arr, wrap
from ._jit import compiled
from ._layout import keep_channels_last
from ._ordered_scatter import scatter

_WIDE = {D.float16: np.float32, D.bfloat16: np.float32}


def _work(t):
    """t's values in the dtype its kernels compute in."""
    a = arr(t)
    wide = _WIDE.get(t.dtype)
    return a.astype(wide) if wide is not None else a


def _all(masks):  # (broadcasting, unlike np.logical_and.reduce)
    return functools.reduce(np.logical_and, masks)


def _any(masks):
    return functools.reduce(np.logical_or, masks)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _padded(a, nd, padding, total, fill):
    """a with its last nd dims placed at offset `padding` in arrays of length `total`."""
    lead = a.shape[:-nd]
    out = np.full(lead + tuple(total), fill, a.dtype)
    out[(Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(padding, a.shape[-nd:]))] = a
    return out


def _along(v, i, nd):
    """A 1d array shaped to broadcast along spatial dim i of nd (trailing dims)."""
    shape = [1] * nd
    shape[i] = -1
    return np.asarray(v).reshape(shape)


def _plane_strides(sizes):
    strides, acc = [], 1
    for n in reversed(sizes):
        strides.append(acc)
        acc *= n
    return strides[::-1]


class _Argmax:
    """Running maximum over window offsets and the offset it was found at, with PyTorch's
    rules: the first valid position starts the window, a larger value or a NaN replaces the
    best (so ties keep the first, NaN propagates, the last NaN wins), positions outside the
    input never count.  `padded`: those positions read the lowest value (else they hold
    other values and are masked).  Everything is arithmetic on whole arrays: masked copies
    (np.copyto(where=), np.where) cost several times more on random masks."""

    def __init__(self, shape, spatial, dtype, count, padded):
        self.best = np.full(shape, _lowest(dtype), dtype)
        self.offset = np.zeros(shape, np.uint8 if count <= 256 else np.int32)
        self.have = np.zeros(spatial, bool)
        self.complete = False
        self.padded = padded
        self.nan = dtype.kind == "f"

    def update(self, k, values, valid):
        better = values > self.best
        if self.nan:
            better |= np.isnan(values)
        if not self.complete:  # (once every window has a value, padding never wins)
            better |= ~self.have
            better &= valid
            self.have |= valid
            self.complete = self.padded and self.have.all()
        if not self.padded:
            values = np.where(valid, values, _lowest(values.dtype))
        np.maximum(self.best, values, out=self.best)  # (NaN-propagating)
        off = self.offset
        off += better * (off.dtype.type(k) - off)

    def window_offsets(self, shape):
        """The best offset of each output, per spatial dim (shape: the window's)."""
        return np.unravel_index(self.offset, shape)


def _max_pool(nd, with_indices):
    def kernel(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
        k, s, p, d, out = P.max_pool_plan(nd, self, kernel_size, stride, padding, dilation,
                                          ceil_mode)
        a = _work(self)
        lead, sizes = a.shape[:-nd], a.shape[-nd:]
        views = _window_views(a, nd, k, s, p, d, out, _lowest(a.dtype))
        if not with_indices:  # np.maximum propagates NaN, as PyTorch's max pooling does
            best = np.full(lead + out, _lowest(a.dtype), a.dtype)
            for _, view in views:
                np.maximum(best, view, out=best)
            return wrap(best.astype(self.dtype.np), self.dtype)
        acc = _Argmax(lead + out, out, a.dtype, int(np.prod(k)), padded=True)
        base = [_along(np.arange(out[i]) * s[i] - p[i], i, nd) for i in range(nd)]
        for n, (offs, view) in enumerate(views):
            valid = _all([(b + o * dd >= 0) & (b + o * dd < size)
                          for b, o, dd, size in zip(base, offs, d, sizes)])
            acc.update(n, view, valid)
        # a window wholly in the padding points where PyTorch's kernel starts reading:
        # each dim's first position not before the input (which may lie past its end)
        pos = [np.where(acc.have, b + o * dd, b + -(-np.maximum(-b, 0) // dd) * dd)
               for b, o, dd in zip(base, acc.window_offsets(k), d)]
        flat = sum(q * st for q, st in zip(pos, _plane_strides(sizes)))
        return (wrap(acc.best.astype(self.dtype.np), self.dtype),
                wrap(np.asarray(flat, np.int64), D.int64))
    return kernel


def _window(offs, stride, dilation, out):
    """The strided view (index) of each window's element at offsets `offs`."""
    return (Ellipsis,) + tuple(slice(o * d, o * d + (n - 1) * s + 1, s)
                               for o, s, d, n in zip(offs, stride, dilation, out))


def _window_views(a, nd, k, s, p, d, out, fill):
    """For each offset inside the window (row-major), the view of every window's element
    at that offset, over `a` padded with `fill`.  With strides > 1 the padded input is
    first split into its stride phases (one copy), so each view steps by one element:
    reading strided views once per offset costs far more."""
    sizes = a.shape[-nd:]
    total = [max(p[i] + sizes[i], (((k[i] - 1) * d[i]) // s[i] + out[i]) * s[i])
             for i in range(nd)]
    total = [-(-n // st) * st for n, st in zip(total, s)]  # whole phases
    padded = _padded(a, nd, p, total, fill)
    offsets = itertools.product(*map(range, k))
    if all(st == 1 for st in s):
        for offs in offsets:
            yield offs, padded[_window(offs, s, d, out)]
        return
    lead = padded.shape[:-nd]
    split = padded.reshape(lead + sum(((n // st, st) for n, st in zip(total, s)), ()))
    m = len(lead)
    phases = np.ascontiguousarray(split.transpose(
        [m + 2 * i + 1 for i in range(nd)] + list(range(m)) + [m + 2 * i for i in range(nd)]))
    for offs in offsets:
        starts = [o * dd for o, dd in zip(offs, d)]
        view = phases[tuple(b % st for b, st in zip(starts, s))]
        yield offs, view[(Ellipsis,) + tuple(slice(b // st, b // st + n)
                                             for b, st, n in zip(starts, s, out))]


def _avg_divisor(sizes, k, s, p, out, count_include_pad, divisor_override, dtype):
    """Each output's divisor (broadcast over the spatial dims) and where its window lies
    entirely outside the input (output 0), as PyTorch's avg pooling."""
    pools, counts = [], []
    for i, (n, kk, ss, pp, o) in enumerate(zip(sizes, k, s, p, out)):
        start = np.arange(o) * ss - pp
        end = np.minimum(start + kk, n + pp)
        pools.append(_along(end - start, i, len(sizes)))
        counts.append(_along(np.minimum(end, n) - np.maximum(start, 0), i, len(sizes)))
    empty = _any([c <= 0 for c in counts])
    if divisor_override is not None:
        div = np.full(out, divisor_override)
    else:
        div = np.prod(np.broadcast_arrays(*(pools if count_include_pad else counts)), axis=0)
    div = np.where(empty, 1, div).astype(dtype)
    return div, empty


def _divide(acc, div, empty):
    if acc.dtype.kind == "i":  # C++ integer division: truncation toward zero (the floor
        # division corrected, so that the wrapped sums' extremes divide right too)
        q = acc // div + ((acc % div != 0) & ((acc < 0) != (div < 0)))
    else:
        q = acc / div
    return np.where(empty, 0, q)


def _avg_pool(nd):
    def kernel(self, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
        k, s, p, out = P.avg_pool_plan(nd, self, kernel_size, stride, padding, ceil_mode,
                                       divisor_override)
        a = _work(self)
        lead, sizes = a.shape[:-nd], a.shape[-nd:]
        acc = np.zeros(lead + out, a.dtype)
        for _, view in _window_views(a, nd, k, s, p, (1,) * nd, out, 0):
            acc += view
        div, empty = _avg_divisor(sizes, k, s, p, out, count_include_pad, divisor_override,
                                  a.dtype)
        return wrap(_divide(acc, div, empty).astype(self.dtype.np), self.dtype)
    return kernel


def _avg_pool_backward(nd):
    def kernel(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override):
        k, s, p, out = P.avg_pool_plan(nd, self, kernel_size, stride, padding, ceil_mode,
                                       divisor_override)
        _check_grad_shape(grad_output, self._shape[:-nd] + out)
        g = _work(grad_output)
        sizes = self._shape[-nd:]
        div, empty = _avg_divisor(sizes, k, s, p, out, count_include_pad, divisor_override,
                                  g.dtype)
        delta = np.where(empty, 0, g / div).astype(g.dtype)
        total = [max(p[i] + sizes[i], (out[i] - 1) * s[i] + k[i]) for i in range(nd)]
        buf = np.zeros(g.shape[:-nd] + tuple(total), g.dtype)
        # (one offset: distinct cells.  The offsets from the last: a cell then gets the
        # windows covering it in output raster order, as PyTorch adds them)
        for offs in reversed(list(itertools.product(*map(range, k)))):
            buf[_window(offs, s, (1,) * nd, out)] += delta
        grad = buf[(Ellipsis,) + tuple(slice(pp, pp + n) for pp, n in zip(p, sizes))]
        return wrap(grad.astype(self.dtype.np), self.dtype)
    return kernel


def _check_grad_shape(grad, shape):
    if tuple(grad._shape) != tuple(shape):
        raise RuntimeError(f"Expected grad_output to have the same shape as output; output: "
                           f"{list(shape)}, grad_output: {list(grad._shape)}")


def _adaptive_offsets(sizes, out):
    """Per dim: window starts, ends and the largest window (adaptive pooling)."""
    starts, ends = [], []
    for n, o in zip(sizes, out):
        w = np.array(P.adaptive_windows(n, o), dtype=np.int64).reshape(o, 2)
        starts.append(w[:, 0])
        ends.append(w[:, 1])
    widths = [int((e - b).max()) if len(b) else 0 for b, e in zip(starts, ends)]
    return starts, ends, widths


def _adaptive_steps(sizes, out):
    """For each offset inside the windows: the gathered positions (one index array per
    spatial dim, broadcasting to the output) and where they lie inside their window."""
    nd = len(sizes)
    starts, ends, widths = _adaptive_offsets(sizes, out)
    for offs in itertools.product(*map(range, widths)):
        pos = [starts[i] + offs[i] for i in range(nd)]
        valid = _all([_along(q < e, i, nd)
                                       for i, (q, e) in enumerate(zip(pos, ends))])
        index = tuple(_along(np.minimum(q, n - 1), i, nd)
                      for i, (q, n) in enumerate(zip(pos, sizes)))
        yield index, valid


def _adaptive_terms(a, sizes, out, fill, offsets_last=False):
    """Every window's elements at once, shaped a's leading dims + (window offset,) + out
    (offsets_last: + out + (window offset,)): the i-th offset (row-major inside the
    windows) of each window, `fill` past a window's end (one gather, not one per
    offset)."""
    nd = len(sizes)
    starts, ends, widths = _adaptive_offsets(sizes, out)
    offsets = np.array(list(itertools.product(*map(range, widths))), np.int64)
    flat, valid = 0, True
    for i, stride in enumerate(_plane_strides(sizes)):
        pos = _along(starts[i], i, nd) + offsets[:, i].reshape((-1,) + (1,) * nd)
        valid = valid & (pos < _along(ends[i], i, nd))
        flat = flat + np.minimum(pos, sizes[i] - 1) * stride
    if offsets_last:
        flat, valid = np.moveaxis(flat, 0, -1), np.moveaxis(valid, 0, -1)
    terms = np.take(a.reshape(a.shape[:-nd] + (-1,)), flat, axis=-1)
    np.copyto(terms, fill, where=~valid)
    return terms


def _adaptive_avg(nd):
    def kernel(self, output_size):
        shape = P.adaptive_plan(f"adaptive_avg_pool{nd}d", self, nd, output_size)
        if 0 in shape:
            return wrap(np.zeros(shape, self.dtype.np), self.dtype)
        # (PyTorch's 3d kernel sums 16-bit floats in their own type, rounding each step)
        a = _work(self) if nd == 2 else arr(self)
        sizes, out = a.shape[-nd:], tuple(output_size)
        jit = compiled("_pool_loops", a.size) if nd == 2 and a.dtype in _LOOP_DTYPES else None
        if jit is not None:
            return wrap(_adaptive_avg_2d(jit, a, sizes, out).astype(self.dtype.np), self.dtype)
        terms = _adaptive_terms(a, sizes, out, -0.0)  # (x + -0.0 is x, -0.0 included)
        # summed in window order from 0, one rounding a term: a reduction over an axis that
        # is not the last adds whole rows in turn (NumPy's pairwise sums are along the last)
        acc = np.add.reduce(terms, axis=-nd - 1, initial=0)
        starts, ends, _ = _adaptive_offsets(sizes, out)
        for i in range(nd):  # PyTorch divides by each window extent in turn
            acc /= _along(ends[i] - starts[i], i, nd).astype(a.dtype)
        return wrap(acc.astype(self.dtype.np), self.dtype)
    return kernel


_LOOP_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _adaptive_avg_2d(jit, a, sizes, out):
    """The 2-d window averages by _pool_loops (planes contiguous: a copy otherwise)."""
    starts, ends, _ = _adaptive_offsets(sizes, out)
    planes = np.ascontiguousarray(a).reshape((-1,) + tuple(sizes))
    r = np.zeros((planes.shape[0],) + out, a.dtype)
    extents = [(e - b).astype(a.dtype) for b, e in zip(starts, ends)]
    jit.adaptive_avg_2d(planes, starts[0], ends[0], starts[1], ends[1], *extents, r)
    return r.reshape(a.shape[:-2] + out)


def _adaptive_avg_backward(nd):
    """The transpose of the averaging, one dim at a time: each output's gradient spread
    over its window, divided by the window's extent.  32/64-bit floats as PyTorch's loop:
    each output's gradient divided by the extents in turn, then added to its window's
    cells, outputs in raster order."""
    def kernel(grad_output, self):
        g = _work(grad_output)
        sizes, out = self._shape[-nd:], grad_output._shape[-nd:]
        if g.dtype.itemsize >= 4 and g.dtype.kind == "f" and 0 not in g.shape:
            return wrap(_adaptive_avg_grad_ordered(g, sizes, out).astype(self.dtype.np),
                        self.dtype)
        starts, ends, _ = _adaptive_offsets(sizes, out)
        for i in range(nd):
            j = np.arange(sizes[i])
            spread = ((j >= starts[i][:, None]) & (j < ends[i][:, None])) / \
                (ends[i] - starts[i])[:, None]
            axis = g.ndim - nd + i
            g = np.moveaxis(np.moveaxis(g, axis, -1) @ spread.astype(g.dtype), -1, axis)
        return wrap(np.ascontiguousarray(g).astype(self.dtype.np), self.dtype)
    return kernel


def _adaptive_avg_grad_ordered(g, sizes, out):
    nd = len(sizes)
    starts, ends, widths = _adaptive_offsets(sizes, out)
    delta = g
    for i in range(nd):
        delta = delta / _along(ends[i] - starts[i], i, nd).astype(g.dtype)
    # each output's window cells (row-major), -1 past the window's end
    flat, valid = 0, True
    for i, stride in enumerate(_plane_strides(sizes)):
        shape = [1] * (2 * nd)
        shape[i], shape[nd + i] = len(starts[i]), widths[i]
        pos = (starts[i][:, None] + np.arange(widths[i])).reshape(
            [len(starts[i]) if d == i else widths[i] if d == nd + i else 1
             for d in range(2 * nd)])
        valid = valid & (pos < ends[i].reshape([-1 if d == i else 1 for d in range(2 * nd)]))
        flat = flat + pos * stride
    targets = np.where(valid, flat, -1).reshape(int(np.prod(out)), -1)
    lead = g.shape[:-nd]
    grad = scatter(delta.reshape(-1, targets.shape[0]), targets, None, int(np.prod(sizes)))
    return grad.reshape(lead + tuple(sizes))


def _adaptive_max(nd):
    def kernel(self, output_size):
        shape = P.adaptive_plan(f"adaptive_max_pool{nd}d", self, nd, output_size)
        a = _work(self)
        sizes, out = a.shape[-nd:], tuple(output_size)
        starts, _, widths = _adaptive_offsets(sizes, out)
        if math.prod(widths) >= _GATHERED_MAX_MIN and 0 not in shape:
            best, offset = _gathered_max(_adaptive_terms(a, sizes, out, _lowest(a.dtype), True))
            return _adaptive_max_result(self, best, offset, starts, widths, sizes)
        even = all(o and n % o == 0 for n, o in zip(sizes, out))
        acc = _Argmax(shape, out, a.dtype, int(np.prod(widths)), padded=even)
        if even:  # equal windows side by side: strided views, nothing to mask
            for n, offs in enumerate(itertools.product(*map(range, widths))):
                acc.update(n, a[(Ellipsis,) + tuple(slice(o, None, w)
                                                    for o, w in zip(offs, widths))], True)
        for n, (index, valid) in enumerate(() if even else _adaptive_steps(sizes, out)):
            acc.update(n, a[(Ellipsis,) + index], valid)
        return _adaptive_max_result(self, acc.best, acc.offset, starts, widths, sizes)
    return kernel


def _adaptive_max_result(self, best, offset, starts, widths, sizes):
    """The values and flat input positions of adaptive max pooling, from each window's
    maximum and its offset inside the window (row-major)."""
    nd = len(sizes)
    pos = [_along(b, i, nd) + o for i, (b, o) in
           enumerate(zip(starts, np.unravel_index(offset, widths)))]
    flat = sum(q * st for q, st in zip(pos, _plane_strides(sizes)))
    return (wrap(best.astype(self.dtype.np), self.dtype),
            wrap(np.asarray(flat, np.int64), D.int64))


# windows of this many offsets or more: _gathered_max (whole-array passes over all the
# windows' elements) rather than _Argmax's steps per offset (a dozen NumPy calls each)
_GATHERED_MAX_MIN = 16


def _gathered_max(t):
    """_Argmax's results over every window at once, t (lead + out + (offset,)) holding each
    window's elements in offset order (the lowest value past a window's end): the offset
    of the first strict maximum, or of the last NaN; the value np.maximum's running
    maximum leaves (the first NaN; on equal values the later one, which shows only in the
    sign of a zero)."""
    last = t.shape[-1] - 1
    offset = np.argmax(t, axis=-1)  # (the first NaN where there is one)
    best = np.take_along_axis(t, offset[..., None], -1)[..., 0]
    if t.dtype.kind != "f":
        return best, offset
    nan = np.isnan(best)
    if nan.any():  # (rare: only those windows looked at again)
        offset[nan] = last - np.argmax(np.isnan(t[nan])[:, ::-1], axis=-1)
    zero = best == 0
    if zero.any():
        rows = t[zero]
        tie = last - np.argmax((rows == 0)[:, ::-1], axis=-1)
        best[zero] = rows[np.arange(len(rows)), tie]
    return best, offset


def _max_unpool(nd):
    def kernel(self, indices, output_size, stride=None, padding=None):
        shape = P.max_unpool_plan(nd, self, indices, output_size, stride, padding)
        if 0 in shape:  # (PyTorch checks no index then)
            return wrap(np.zeros(shape, self.dtype.np), self.dtype)
        lead, plane = shape[:-nd], int(np.prod(output_size))
        values = arr(self).reshape(lead + (-1,))
        index = arr(indices).reshape(lead + (-1,))
        bad = (index < 0) | (index >= plane)
        if bad.any():  # (PyTorch's loop keeps the last bad index it met, on one thread)
            last = index[bad].flat[-1]
            raise RuntimeError(f"Found an invalid max index: {last} (output volumes "
                               f"are of size {'x'.join(map(str, output_size))})")
        out = np.zeros(lead + (plane,), self.dtype.np)
        np.put_along_axis(out, index, values, axis=-1)
        return wrap(out.reshape(shape), self.dtype)
    return kernel


def _max_pool_backward(nd):
    """Windows that cannot overlap (stride >= the dilated kernel) have distinct argmax
    positions: the gradient is put at them (one pass, exact), not scatter-added (the
    decomposition, np.add.at: several times slower); overlapping windows decompose."""
    name = f"max_pool{nd}d_with_indices_backward"

    def per_dim(v, default):
        v = default if v is None or v == () else (v,) if isinstance(v, int) else tuple(v)
        return v * nd if len(v) == 1 else v

    def kernel(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
        k = per_dim(kernel_size, None)
        s, d = per_dim(stride, k), per_dim(dilation, (1,))
        if len(k) != nd or len(s) != nd or len(d) != nd or \
                any(si < (ki - 1) * di + 1 for ki, si, di in zip(k, s, d)) or \
                grad_output._shape != indices._shape or grad_output.dtype is not self.dtype:
            from mindtorch._ops import OPS
            from mindtorch._ops.dispatch import _decomposition
            return _decomposition(OPS[name])(grad_output, self, kernel_size, stride, padding,
                                             dilation, ceil_mode, indices)
        return _put_at_argmax(grad_output, self, indices, nd)
    return kernel


def _put_at_argmax(grad_output, self, indices, nd):
    """The gradient of a pooling whose windows have distinct argmax positions: grad_output
    put at them."""
    shape = self._shape
    lead = shape[:-nd]
    out = np.zeros(lead + (int(np.prod(shape[-nd:])),), self.dtype.np)
    if not out.size or not grad_output.numel():
        return wrap(out.reshape(shape), self.dtype)
    # one flat assignment at each plane's offset (np.put_along_axis builds an index
    # array per leading dim: ~4x slower)
    plane = out.shape[-1]
    index = arr(indices).reshape(lead + (-1,))
    at = index + np.arange(0, out.size, plane, dtype=np.int64).reshape(lead + (1,))
    # (a window wholly in the padding points outside its plane: its gradient reaches no
    # input; PyTorch's kernel writes it past the plane)
    keep = (index >= 0) & (index < plane)
    out.reshape(-1)[at[keep]] = arr(grad_output).reshape(lead + (-1,))[keep]
    return wrap(out.reshape(shape), self.dtype)


def _adaptive_max_backward(nd):
    """Windows side by side (each size a multiple of the output's) do not overlap: their
    gradients are put, not scatter-added (the decomposition)."""
    name = f"adaptive_max_pool{nd}d_backward"

    def kernel(grad_output, self, indices):
        sizes, out = self._shape[-nd:], grad_output._shape[-nd:]
        if len(out) != nd or grad_output._shape != indices._shape or \
                grad_output.dtype is not self.dtype or \
                not all(o and n % o == 0 for n, o in zip(sizes, out)):
            from mindtorch._ops import OPS
            from mindtorch._ops.dispatch import _decomposition
            return _decomposition(OPS[name])(grad_output, self, indices)
        return _put_at_argmax(grad_output, self, indices, nd)
    return kernel


KERNELS = {}
for _nd in (2, 3):
    KERNELS.update({
        f"max_pool{_nd}d_with_indices_backward": _max_pool_backward(_nd),
        f"max_pool{_nd}d_with_indices": _max_pool(_nd, True),
        f"max_pool{_nd}d": _max_pool(_nd, False),
        f"avg_pool{_nd}d": _avg_pool(_nd),
        f"avg_pool{_nd}d_backward": _avg_pool_backward(_nd),
        f"_adaptive_avg_pool{_nd}d": _adaptive_avg(_nd),
        f"_adaptive_avg_pool{_nd}d_backward": _adaptive_avg_backward(_nd),
        f"adaptive_max_pool{_nd}d": _adaptive_max(_nd),
        f"adaptive_max_pool{_nd}d_backward": _adaptive_max_backward(_nd),
        f"max_unpool{_nd}d": _max_unpool(_nd),
    })
keep_channels_last(KERNELS, ("max_pool2d", "max_pool2d_with_indices", "avg_pool2d",
                             "_adaptive_avg_pool2d", "adaptive_max_pool2d", "max_pool3d",
                             "max_pool3d_with_indices"))
# (their input gradients too: laid out as the input, whatever grad_output's layout)
keep_channels_last(KERNELS, ("max_pool2d_with_indices_backward", "avg_pool2d_backward",
                             "_adaptive_avg_pool2d_backward", "adaptive_max_pool2d_backward",
                             "max_pool3d_with_indices_backward"), input_at=1)
