"""Result strides of the non-elementwise ops whose PyTorch kernels (its meta kernels and
its cpu ones alike, and so mindtorch's cpu kernels) do not allocate contiguous results:
channels-last pooling and upsampling, cat / stack of channels-last tensors, sorting,
advanced indexing, the index_* updates and LAPACK's column-major matrices.

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


def _column_major(*results):
    """LAPACK's results: each matrix of the listed results column-major."""
    def layout(args, shape, i):
        if i not in results or len(shape) < 2 or 0 in shape:
            return None
        return _matrices_column_major(shape)
    return layout


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
}
