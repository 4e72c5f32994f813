"""Memory formats: torch.contiguous_format, channels_last, channels_last_3d,
preserve_format, and the stride rules that go with them (ATen's get_channels_last_strides,
is_channels_last_contiguous, is_channels_last_strides / suggest_memory_format).

A format is a TorchName (see _layout.py): a str holding its name ("channels_last")."""
from ._layout import TorchName


class memory_format(TorchName):
    __module__ = "mindtorch"
    __slots__ = ()


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")

_RANK = {"channels_last": 4, "channels_last_3d": 5}


def _order(ndim):
    """Dims from fastest to slowest in a channels-last layout: C, spatial dims from the
    last, then N."""
    return (1, *range(ndim - 1, 1, -1), 0)


def strides(shape, fmt):
    """The strides of a fresh tensor of `shape` in format `fmt` (not preserve_format)."""
    rank = _RANK.get(fmt)
    if rank is None:
        if fmt == "preserve_format":
            raise RuntimeError("unsupported memory format Preserve")
        from ._tensor import contiguous_strides
        return contiguous_strides(shape)
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {str.__str__(fmt)} format")
    out, acc = [0] * rank, 1
    for d in _order(rank):  # (plain products: a zero size zeroes the slower strides)
        out[d] = acc
        acc *= shape[d]
    return tuple(out)


def is_contiguous_as(shape, stride, fmt):
    """Tensor.is_contiguous(memory_format=fmt) for a channels-last format."""
    rank = _RANK[fmt]
    if len(shape) != rank:
        return False
    expected = 1
    for d in _order(rank):
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def _strides_like(shape, stride, rank):
    """Whether the strides order dims as channels-last does (ATen's
    is_channels_last_strides_2d/3d): what suggest_memory_format goes by."""
    if len(shape) != rank or stride[1] == 0:
        return False
    low = 0
    for d in _order(rank):
        if shape[d] == 0 or stride[d] < low:
            return False
        if d == 0 and low == stride[1]:  # N and C ambiguous: not channels-last
            return False
        low = stride[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def suggest(t):
    """The format t's strides suggest (Tensor.suggest_memory_format / to()'s aliasing)."""
    shape, stride = t._shape, t._stride
    if len(shape) not in (4, 5) or (stride[-1] == 1 and shape[-1] > 1 and shape[1] > 1):
        return contiguous_format  # (the common case, at once: a unit stride on the last dim)
    if _strides_like(t._shape, t._stride, 4):
        return channels_last
    if _strides_like(t._shape, t._stride, 5):
        return channels_last_3d
    return contiguous_format


def conv_format(input, weight, onednn):
    """The layout of a convolution's result (PyTorch's cpu convolutions): channels-last
    when the input's or the weight's strides suggest it, else None (contiguous).  (3-d:
    only the convolutions PyTorch gives oneDNN keep channels_last_3d.)"""
    for fmt in (channels_last, channels_last_3d):
        if suggest(input) == fmt or suggest(weight) == fmt:
            if fmt is channels_last_3d and not onednn:
                return None
            return fmt
    return None


def conv_weight_grad_strides(input, weight, onednn):
    """The strides of PyTorch's cpu convolution weight gradient: oneDNN's are fresh ones in
    the convolution's format; the native kernels' are those of the weight made contiguous
    in that format (its own strides when it already is: a 1x1 kernel's may be either)."""
    from ._strides import _is_contiguous
    fmt = conv_format(input, weight, onednn) or contiguous_format
    shape, stride = weight._shape, weight._stride
    if not onednn:
        ok = is_contiguous_as(shape, stride, fmt) if fmt in _RANK else \
            _is_contiguous(shape, stride)
        if ok:
            return tuple(stride)
    return strides(shape, fmt)


def restrided(t, stride):
    """t with these strides (a result laid out as PyTorch's kernel lays it out): a view
    when only size-1 dims' strides differ (the same memory order), else a copy."""
    if t._stride == stride:
        return t
    if all(a == b for n, a, b in zip(t._shape, t._stride, stride) if n != 1):
        return t.as_strided(t._shape, stride)
    from ._ops.registry import OPS
    fresh = OPS["empty_strided"].binding(t._shape, stride, dtype=t.dtype, device=t._device)
    return fresh.copy_(t)


def dense_in(t, fmt):
    """t dense in format fmt with the strides a fresh tensor of that format has, size-1
    dims included (t.contiguous(memory_format=fmt) keeps t when it already is: NCHW
    strides pass for channels-last where C = 1 or H = W = 1)."""
    return restrided(t, strides(t._shape, fmt))


def common_format(tensors):
    """The format all tensors' strides suggest, else contiguous_format (cat's result)."""
    formats = {suggest(t) for t in tensors}
    return formats.pop() if len(formats) == 1 else contiguous_format


_AMBIGUOUS = "The tensor does not have unique dim order"


def dim_order(t, ambiguity_check=False):
    """Tensor.dim_order: dims from outermost to innermost.  ambiguity_check (True or a list
    of memory formats) raises when size-1 dims or equal strides allow several orders and the
    tensor matches not exactly one of the listed formats, or when the strides tie."""
    from itertools import pairwise

    from ._strides import stride_order
    bad = not isinstance(ambiguity_check, (bool, list)) or (
        isinstance(ambiguity_check, list)
        and not all(isinstance(f, memory_format) for f in ambiguity_check))
    if bad:
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    shape, stride = t._shape, t._stride
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    several = 1 in shape or any(a == b for a, b in pairwise(stride))
    if ambiguity_check is not False and several and \
            sum(t.is_contiguous(memory_format=f) for f in formats) != 1:
        raise RuntimeError(_AMBIGUOUS + ", or cannot map to exact one of the given memory formats.")
    if t.ndim < 2:
        return tuple(range(t.ndim))
    dense = t.is_contiguous()
    if dense != is_contiguous_as(shape, stride, "channels_last"):
        return tuple(range(t.ndim)) if dense else (0, *range(2, t.ndim), 1)
    perm = stride_order(shape, stride)  # innermost first
    inner_out = [stride[d] for d in perm]
    if ambiguity_check and (0 in inner_out or any(a >= b for a, b in pairwise(inner_out))):
        raise RuntimeError(_AMBIGUOUS + ".")
    return tuple(reversed(perm))


def iter_laid_out(result, *operands):
    """An elementwise decomposition's result laid out as PyTorch's kernel, a TensorIterator
    over these operands in its order (tensors or numbers), lays its result out."""
    from ._strides import iter_result_strides
    shape = result._shape
    if len(shape) < 2 or 0 in shape:
        return result
    layouts = [(t._shape, t._stride) if getattr(t, "_shape", None) else None
               for t in operands]
    return restrided(result, iter_result_strides(shape, layouts))
