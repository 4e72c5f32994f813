"""Convolution kernels (any number of spatial dims): im2col as one strided view of the
padded input copied once, then one batched BLAS matmul (groups are the batch of the
matmul); col2im as a scatter-add per kernel offset (a few vectorised adds, never a loop
over output pixels).  Shapes, dtypes and errors come from the shared rules in
mindtorch._ops.decls.conv.

A transposed convolution is the input gradient of a convolution and the other way
round, so three routines serve both directions (and convolution_backward):
  _forward     out[n, o] = sum_k w[:, :, k] . x[n, :, o*s + k*d - p]
  _input_grad  col2im of W^T . grad          (= transposed convolution)
  _weight_grad grad . im2col(x)^T, over batch and positions at once

16-bit floats compute in float32 and round once; integers in int64, wrapped back to
their width (the residues torch's narrow accumulation gives).  (NumPy's floating-point
warnings are silenced for these modules by the filter in kernels/__init__.py.)
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from mindtorch import _dtype as D
from mindtorch._memory_format import conv_format, conv_weight_grad_strides
from mindtorch._memory_format import strides as format_strides
from mindtorch._ops.decls import conv as C
from mindtorch.backends import mkldnn

from .._np import arr, wrap
from ._cpu_capability import onednn_avx512_core
from .reduction import result

_COMPUTE = {D.float16: np.float32, D.bfloat16: np.float32, D.uint8: np.int64,
            D.int8: np.int64, D.int16: np.int64, D.int32: np.int64}
_ALL = (slice(None), slice(None))
_ndarray = np.ndarray


def _compute(t, dtype):
    a = arr(t)
    wide = _COMPUTE.get(dtype)
    return a if wide is None else a.astype(wide)


def _pad(x, padding):
    """x (N, C, *S) with `padding` zeros on both sides of each spatial dim (x if none)."""
    if not any(padding):
        return x
    spatial = x.shape[2:]
    xp = np.zeros(x.shape[:2] + tuple(n + 2 * p for n, p in zip(spatial, padding)), x.dtype)
    xp[_ALL + tuple(slice(p, p + n) for n, p in zip(spatial, padding))] = x
    return xp


def _crop(buf, padding, size):
    if not any(padding):
        return buf
    return np.ascontiguousarray(buf[_ALL + tuple(slice(p, p + n)
                                                 for n, p in zip(size, padding))])


def _windows(xp, kernel, stride, dilation, out):
    """The read-only view (N, C, *K, *O) of xp (N, C, *S): [n, c, k, o] = xp[n, c, o*s + k*d]."""
    st = xp.strides[2:]
    shape = xp.shape[:2] + tuple(kernel) + tuple(out)
    strides = xp.strides[:2] + tuple(d * s for d, s in zip(dilation, st)) + \
        tuple(a * s for a, s in zip(stride, st))
    if xp.flags.c_contiguous:  # (a few us cheaper than as_strided, on the hot path)
        view = _ndarray(shape, xp.dtype, xp, 0, strides)
        view.flags.writeable = False
        return view
    return as_strided(xp, shape, strides, writeable=False)


def _scatter(cols, size, kernel, stride, dilation, reverse=False):
    """col2im: cols (N, C, *K, *O) summed into zeros (N, C, *size) at o*s + k*d, kernel
    offsets in row-major order (reversed: PyTorch's channels-last order, input positions
    first)."""
    out = cols.shape[2 + len(kernel):]
    buf = np.zeros(cols.shape[:2] + tuple(size), cols.dtype)
    offsets = list(np.ndindex(*kernel))
    for k in offsets[::-1] if reverse else offsets:
        region = tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                       for i, d, o, s in zip(k, dilation, out, stride))
        buf[_ALL + region] += cols[_ALL + k]
    return buf


# bytes of im2col columns per batch chunk: columns that stay in cache for their matmul
# (copying all the batch's columns first made a depthwise convolution ~2x slower)
_COLUMN_BYTES = 1 << 20


def _forward(x, w, groups, stride, padding, dilation, out):
    """Convolution of x (N, C, *S) by w (Cout, C/g, *K): (N, Cout, *out), a few images at
    a time (the batched matmul multiplies image by image anyway: the same products)."""
    n, cout = x.shape[0], w.shape[0]
    kernel = w.shape[2:]
    ck, positions = w.shape[1] * math.prod(kernel), math.prod(out)
    xp = _pad(x, padding)
    weights = w.reshape(groups, cout // groups, ck)
    r = np.empty((n, groups, cout // groups, positions), np.result_type(x, w))
    step = max(1, _COLUMN_BYTES // max(1, groups * ck * positions * x.itemsize))
    for i in range(0, n, step):
        cols = np.ascontiguousarray(_windows(xp[i:i + step], kernel, stride, dilation, out))
        np.matmul(weights, cols.reshape(-1, groups, ck, positions), out=r[i:i + step])
    return r.reshape((n, cout) + tuple(out))


def _input_grad(go, w, groups, stride, padding, dilation, size, acc=None, reverse=False):
    """x's gradient (N, g*w.shape[1], *size) from go (N, w.shape[0], *O): col2im of W^T go.
    Also the transposed convolution of go by w.  acc: a 16-bit type the columns are rounded
    to and col2im sums in, one kernel offset after another (PyTorch's transposed 16-bit
    convolution; `reverse` the offsets' order for channels-last operands)."""
    if all(s == 1 for s in stride):
        return _input_grad_flat(go, w, groups, padding, dilation, size, acc, reverse)
    n, cout = go.shape[:2]
    out, kernel = go.shape[2:], w.shape[2:]
    ck = w.shape[1] * math.prod(kernel)
    wt = w.reshape(groups, cout // groups, ck).transpose(0, 2, 1)
    cols = np.matmul(wt, go.reshape(n, groups, cout // groups, math.prod(out)))
    cols = cols.reshape((n, groups * w.shape[1]) + tuple(kernel) + tuple(out))
    if acc is not None:
        cols = cols.astype(acc)
    padded = [s + 2 * p for s, p in zip(size, padding)]
    return _crop(_scatter(cols, padded, kernel, stride, dilation, reverse), padding, size)


def _input_grad_flat(go, w, groups, padding, dilation, size, acc=None, reverse=False):
    """_input_grad for stride 1, on the flattened padded grid (channels first): there a
    kernel offset is one shift of the flat position, so col2im is a few contiguous adds,
    and W^T go one matmul per group over the whole batch (about twice as fast as the
    scatter of strided regions, which loops over short rows)."""
    n, cout = go.shape[:2]
    out, kernel = go.shape[2:], w.shape[2:]
    cg, nk = w.shape[1], len(kernel)
    padded = tuple(s + 2 * p for s, p in zip(size, padding))
    grid = np.zeros((cout, n) + padded, go.dtype)  # go at the grid's first positions
    grid[_ALL + tuple(slice(0, o) for o in out)] = go.transpose((1, 0) + tuple(range(2, 2 + nk)))
    m = n * math.prod(padded)
    steps = [math.prod(padded[i + 1:]) for i in range(nk)]  # grid strides, in elements
    shifts = [sum(i * d * s for i, d, s in zip(k, dilation, steps)) for k in np.ndindex(*kernel)]
    column = _product_columns if cout == groups else _matmul_columns(w, grid, groups, m)
    dtype = np.result_type(w, grid) if acc is None else acc
    buf = np.zeros((groups * cg, m + max(shifts)), dtype)
    for j in range(len(shifts))[::-1] if reverse else range(len(shifts)):
        cols = column(w, grid, j)
        buf[:, shifts[j]:shifts[j] + m] += cols if acc is None else cols.astype(acc)
    grid = buf[:, :m].reshape((groups * cg, n) + padded)
    grid = grid[_ALL + tuple(slice(p, p + s) for p, s in zip(padding, size))]
    return np.ascontiguousarray(grid.transpose((1, 0) + tuple(range(2, 2 + nk))))


def _matmul_columns(w, grid, groups, m):
    """The columns of W^T go for kernel offset j (rows: input channels), from one batched
    matmul of all offsets."""
    cout, cg = w.shape[:2]
    wt = w.reshape(groups, cout // groups, cg * math.prod(w.shape[2:])).transpose(0, 2, 1)
    cols = np.matmul(wt, grid.reshape(groups, cout // groups, m))
    cols = cols.reshape(groups * cg, math.prod(w.shape[2:]), m)
    return lambda w, grid, j: cols[:, j]


def _product_columns(w, grid, j):
    """_matmul_columns for one output channel per group (depthwise): W^T go has no sums,
    each element a single product, so computed one offset at a time (the matmul's
    columns are kernel-size times the input's size).  The matmul gives +0.0 for a -0.0
    product, which col2im's sums from +0.0 make alike."""
    groups, cg = w.shape[:2]
    taps = w.reshape(groups, cg, -1)[:, :, j, None]
    return (taps * grid.reshape(groups, 1, -1)).reshape(groups * cg, -1)


def _weight_grad(x, go, groups, stride, padding, dilation, kernel):
    """w's gradient (Cout, C/g, *kernel) of the convolution of x giving go (N, Cout, *O)."""
    n, c = x.shape[:2]
    cout, out = go.shape[1], go.shape[2:]
    nk = len(kernel)
    win = _windows(_pad(x, padding), kernel, stride, dilation, out)
    # (C, *K, N, *O): a row per weight element, the batch and positions along it
    perm = (1,) + tuple(range(2, 2 + nk)) + (0,) + tuple(range(2 + nk, 2 + 2 * nk))
    m = n * math.prod(out)
    cols = np.ascontiguousarray(win.transpose(perm)).reshape(groups, -1, m)
    g = np.ascontiguousarray(go.transpose((1, 0) + tuple(range(2, 2 + nk))))
    r = np.matmul(g.reshape(groups, cout // groups, m), cols.transpose(0, 2, 1))
    return r.reshape((cout, c // groups) + tuple(kernel))


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    shape, dt, stride, padding, dilation, output_padding, empty = C.conv_plan(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    if empty:
        return wrap(np.zeros(shape, dt.np), dt)
    onednn = C.onednn(input, weight, transposed, stride, dilation, groups, output_padding)
    x, w = _compute(input, dt), _compute(weight, dt)
    if transposed:
        half = dt is D.float16 or (dt is D.bfloat16 and not _onednn_bfloat16(
            stride, output_padding))
        cl = half and conv_format(input, weight, onednn) is not None
        r = _input_grad(x, w, groups, stride, padding, dilation, shape[2:],
                        dt.np if half else None, cl)
    else:
        r = _forward(x, w, groups, stride, padding, dilation, shape[2:])
    if bias is not None:
        # (a transposed 1d/2d convolution's bias may be of another dtype: cast, as PyTorch)
        r += arr(bias).astype(r.dtype).reshape((-1,) + (1,) * (len(shape) - 2))
    return _laid_out(r, dt, input, weight, onednn)


def _onednn_bfloat16(stride, output_padding):
    """Whether PyTorch runs a bfloat16 transposed convolution through oneDNN (its
    use_mkldnn: oneDNN enabled, at avx512_core or above here, and no output_padding as
    large as its stride), which accumulates in float32 and rounds once, bias included, as
    the float32 computation here; else its native kernel rounds the columns to 16 bits."""
    if not (mkldnn.enabled and onednn_avx512_core()):
        return False
    pads = (output_padding,) * len(stride) if isinstance(output_padding, int) \
        else output_padding
    return all(p < s for p, s in zip(pads, stride))


def _laid_out(r, dt, input, weight, onednn):
    """r as a tensor, channels-last when the convolution's operands suggest it (its result
    and its input gradient, as PyTorch's kernels lay them out), with PyTorch's strides on
    size-1 dims too (NumPy's differ there; the memory is the same)."""
    fmt = conv_format(input, weight, onednn)
    if fmt is None:
        return result(r, dt)
    t = result(np.moveaxis(np.ascontiguousarray(np.moveaxis(r, 1, -1)), -1, 1), dt)
    t._stride = format_strides(t._shape, fmt)
    return t


def _weight_grad_laid_out(r, dt, input, weight, onednn):
    """A weight gradient as a tensor with PyTorch's strides (conv_weight_grad_strides)."""
    stride = conv_weight_grad_strides(input, weight, onednn)
    t = _laid_out(np.ascontiguousarray(r), dt, input, weight, onednn)
    t._stride = stride  # (the same memory order: the strides differ on size-1 dims only)
    return t


def convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                         transposed, output_padding, groups, output_mask):
    """Fused: only the gradients output_mask asks for (None for the others)."""
    stride, padding, dilation, output_padding = C.conv_params(
        weight, stride, padding, dilation, output_padding, groups)
    dt = grad_output.dtype
    mask = tuple(output_mask) + (0,) * (3 - len(output_mask))
    kernel = weight._shape[2:]
    gi = gw = gb = None
    if grad_output.numel() == 0 or input.numel() == 0:  # nothing flows
        zeros = lambda shape: wrap(np.zeros(shape, dt.np), dt)  # noqa: E731
        bias_shape = tuple(bias_sizes) if bias_sizes is not None else grad_output._shape[1:2]
        return tuple(zeros(s) if m else None for s, m in
                     zip((input._shape, weight._shape, bias_shape), mask))
    go = _compute(grad_output, dt)
    onednn = C.onednn(input, weight, transposed, stride, dilation, groups, output_padding)
    if mask[0]:
        w = _compute(weight, dt)
        if transposed:
            r = _forward(go, w, groups, stride, padding, dilation, input._shape[2:])
        else:
            r = _input_grad(go, w, groups, stride, padding, dilation, input._shape[2:])
        gi = _laid_out(r, dt, input, weight, onednn)
    if mask[1]:
        x = _compute(input, dt)
        if transposed:  # the roles of input and gradient swap
            r = _weight_grad(go, x, groups, stride, padding, dilation, kernel)
        else:
            r = _weight_grad(x, go, groups, stride, padding, dilation, kernel)
        gw = _weight_grad_laid_out(r, dt, input, weight, onednn)
    if mask[2]:
        gb = result(go.sum(axis=(0,) + tuple(range(2, go.ndim))), dt)
    return gi, gw, gb


def im2col(self, kernel_size, dilation, padding, stride):
    shape, kernel, dilation, padding, stride, blocks = C.im2col_plan(
        self, kernel_size, dilation, padding, stride)
    x = arr(self)
    if self.ndim == 3:
        x = x[None]
    # (a copy: with a 1x1 kernel the window view may already be contiguous input memory)
    cols = _windows(_pad(x, padding), kernel, stride, dilation, blocks).copy()
    return wrap(cols.reshape(shape), self.dtype)


def col2im(self, output_size, kernel_size, dilation, padding, stride):
    shape, size, kernel, dilation, padding, stride, blocks = C.col2im_plan(
        self, output_size, kernel_size, dilation, padding, stride)
    dt = self.dtype
    # (16-bit floats summed in their own type, one kernel offset after another: PyTorch's)
    cols = arr(self) if dt in (D.float16, D.bfloat16) else _compute(self, dt)
    if self.ndim == 2:
        cols = cols[None]
    cols = cols.reshape((cols.shape[0], shape[-3]) + tuple(kernel) + tuple(blocks))
    padded = [s + 2 * p for s, p in zip(size, padding)]
    r = _crop(_scatter(cols, padded, kernel, stride, dilation), padding, size)
    return result(r.reshape(shape), dt)


KERNELS = {
    "convolution": convolution,
    "convolution_backward": convolution_backward,
    "im2col": im2col,
    "col2im": col2im,
}
