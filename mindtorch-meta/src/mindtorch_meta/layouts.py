"""Result strides of the non-elementwise ops whose PyTorch kernels (its meta kernels and
its cpu ones alike, and so mindtorch's cpu kernels) do not allocate contiguous results:
channels-last pooling and upsampling, cat / stack of channels-last tensors, sorting,
advanced indexing, the index_* updates kept in self's layout, LAPACK's column-major
matrices and the Fourier transforms' layouts.

LAYOUTS: op name -> layout(args, shape, i) giving the strides of result i (of that
shape), or None for contiguous ones.  Elementwise ops are laid out by plugin.py."""
from mindtorch._memory_format import common_format, suggest
from mindtorch._memory_format import strides as format_strides
from mindtorch._strides import index_result_strides, preserve_strides

_FORMATS = {4: "channels_last", 5: "channels_last_3d"}


def _channels_last_of(position, rank):
    """Channels-last results when the input at `position` suggests it (its layout kept,
    as the pooling and upsampling kernels do), for batched inputs (of that rank) only."""
    fmt = _FORMATS[rank]

    def layout(args, shape, i):
        if len(shape) != rank or suggest(args[position]) == "contiguous_format":
            return None
        return format_strides(shape, fmt)
    return layout


def _rank(name):
    return 5 if "3d" in name else 4


def _like_self(args, shape, i):
    """A copy of self, updated (preserve_format)."""
    self = args[0]
    return preserve_strides(self._shape, self._stride) if self._shape == tuple(shape) else None


def _cat(args, shape, i):
    from mindtorch._ops.decls.joining import cat_plan
    fmt = _FORMATS.get(len(shape))
    parts = cat_plan(*args)[3] if fmt is not None else ()
    if not parts or common_format(parts) == "contiguous_format":
        return None
    return format_strides(shape, fmt)


def _stack(args, shape, i):
    """Channels-last inputs stacked along an existing dim: their cat there, split in two
    by a view."""
    tensors = args[0]
    dim = args[1] if len(args) > 1 else 0
    dim = dim + len(shape) if dim < 0 else dim
    fmt = _FORMATS.get(len(shape) - 1)
    if fmt is None or dim >= len(shape) - 1 or common_format(tensors) == "contiguous_format":
        return None
    merged = shape[:dim] + (shape[dim] * shape[dim + 1],) + shape[dim + 2:]
    st = format_strides(merged, fmt)
    return st[:dim] + (st[dim] * shape[dim + 1],) + st[dim:]


def _index(args, shape, i):
    """self[indices]: ATen's TensorIterator over self restrided and the index tensors."""
    self, indices = args[0], args[1]
    tensors = [t for t in indices if t is not None]
    if not tensors or self.is_contiguous() and all(t.is_contiguous() for t in tensors):
        return None
    layouts = [None if t is None else (t._shape, t._stride) for t in indices]
    out, strides = index_result_strides(self._shape, self._stride, layouts)
    return strides if out == tuple(shape) else None


def _column_major(*results, left_at=None):
    """LAPACK's results: each matrix of the listed results column-major (for a solver with
    left=False, at args[left_at], row-major: PyTorch solves the transposed system)."""
    def layout(args, shape, i):
        if i not in results or len(shape) < 2 or 0 in shape:
            return None
        if left_at is not None and len(args) > left_at and not args[left_at]:
            return None
        return _matrices_column_major(shape)
    return layout


def _fft(kind):
    """The Fourier kernels' results (cpu's fft kernels lay them out so too): the batch dims
    in the input's stride order outside, the transformed dims inside in the order the
    transform runs them (mindtorch._ops.decls.fft.result_order)."""
    def layout(args, shape, i):
        from mindtorch._ops.decls.fft import by_stride, result_order
        self, dim = args[0], list(args[1])
        if not dim:
            return None
        stride = self._stride
        if kind == "c2c":
            dims = by_stride(stride, dim)
        elif kind == "r2c":
            dims = by_stride(stride, dim[:-1]) + [dim[-1]]
        else:  # c2r: a c2c transform of the other dims first, then the last one
            if len(dim) > 1:
                stride = _dense(self._shape, result_order(stride, by_stride(stride, dim[:-1])))
            dims = [dim[-1]]
        return _dense(shape, result_order(stride, dims))
    return layout


def _dense(shape, order):
    """Dense strides laying out the dims in `order` (outermost first)."""
    strides, step = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def _matrices_column_major(shape):
    strides, step = [0] * len(shape), 1
    for d in [len(shape) - 2, len(shape) - 1, *range(len(shape) - 3, -1, -1)]:
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


LAYOUTS = {
    **{name: _channels_last_of(0, _rank(name)) for name in (
        "max_pool2d", "max_pool2d_with_indices", "avg_pool2d", "_adaptive_avg_pool2d",
        "adaptive_max_pool2d", "max_pool3d", "max_pool3d_with_indices",
        "upsample_nearest2d", "upsample_bilinear2d", "upsample_bicubic2d",
        "_upsample_nearest_exact2d", "upsample_nearest3d", "_upsample_nearest_exact3d",
        "upsample_trilinear3d",
        # (upsampling gradients follow grad_output's layout)
        "upsample_nearest2d_backward", "upsample_bilinear2d_backward",
        "_upsample_nearest_exact2d_backward")},
    # (pooling gradients are laid out as the input, whatever grad_output's layout)
    **{name: _channels_last_of(1, _rank(name)) for name in (
        "max_pool2d_with_indices_backward", "avg_pool2d_backward",
        "_adaptive_avg_pool2d_backward", "adaptive_max_pool2d_backward",
        "max_pool3d_with_indices_backward")},
    "cat": _cat, "stack": _stack, "index": _index,
    **{name: _like_self for name in ("sort", "argsort", "index_fill", "index_put")},
    # (svd: U only, as PyTorch's meta kernel: it calls Vh row-major; eig's vectors contiguous)
    **{name: _column_major(0) for name in (
        "linalg_inv_ex", "linalg_solve_triangular", "linalg_cholesky_ex",
        "linalg_lu_factor_ex", "linalg_ldl_factor_ex", "linalg_ldl_solve", "geqrf",
        "linalg_svd")},
    "linalg_qr": _column_major(0, 1), "linalg_eigh": _column_major(1),
    "linalg_solve_ex": _column_major(0, left_at=2), "linalg_lu_solve": _column_major(0, left_at=3),
    "_fft_c2c": _fft("c2c"), "_fft_r2c": _fft("r2c"), "_fft_c2r": _fft("c2r"),
}
