"""Stride rules shared by every backend (as _shapes.py holds the shape rules): whether a
layout is dense, ATen's TensorIterator order of dims, the strides PyTorch gives a result
laid out like its input (preserve_format) or an advanced-indexing result."""
from ._memory_format import is_contiguous_as
from ._shapes import broadcast_shapes


def _is_contiguous(shape, stride):
    if 0 in shape:
        return True
    expected = 1
    for n, s in zip(reversed(shape), reversed(stride)):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


def internal_overlap(shape, stride):
    """Whether elements share memory (an expanded dim)."""
    return 0 in stride and 0 not in shape and any(
        s == 0 and n > 1 for n, s in zip(shape, stride))


def check_no_internal_overlap(shape, stride):
    """PyTorch's refusal to write a tensor in which elements share memory (an expanded
    dim): copy_, indexed assignment, the in-place scatter / index ops and the in-place
    random samplers."""
    if internal_overlap(shape, stride):
        raise RuntimeError("unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location. Please clone() the "
                           "tensor before performing the operation.")


def warn_expanded(t, name, example="tensor[mask] = scalar"):
    """index_put_ / masked_fill_ / index_fill_ write an expanded tensor, with PyTorch's
    deprecation warning (its other in-place index ops refuse)."""
    if internal_overlap(t._shape, t._stride):
        import warnings
        from ._warn_once import _user_level
        warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the "
                      f"tensor before performing this operation. This also applies to advanced "
                      f"indexing e.g. {example}", UserWarning, stacklevel=_user_level())


def non_overlapping_and_dense(shape, stride):
    """PyTorch's is_non_overlapping_and_dense: the elements fill a block of memory exactly
    once, in some order of dimensions."""
    if _is_contiguous(shape, stride):
        return True
    perm = sorted(range(len(shape)), key=lambda d: (shape[d] < 2, stride[d]))
    expected = 1
    for d in perm:
        if shape[d] < 2:
            return True
        if stride[d] != expected:
            return False
        expected *= shape[d]
    return True


def preserve_strides(shape, stride):
    """Strides PyTorch gives a fresh tensor laid out like (shape, stride) (preserve_format):
    the same strides when those are dense, else dense strides in the same order of
    dimensions (ATen's infer_dense_strides; zero strides keep their place)."""
    if non_overlapping_and_dense(shape, stride):
        return tuple(stride)
    out, cur = [0] * len(shape), 1
    for d in stride_order(shape, stride):
        out[d] = cur
        if shape[d] > 1:
            cur *= shape[d]
    return tuple(out)


def stride_order(shape, *strides, reduction=False):
    """The dims from innermost to outermost by the strides of one or more operands of that
    shape (ATen's TensorIterator order: a stable insertion sort where the first operand
    whose strides tell two dims apart decides; zero strides tell nothing, equal strides
    put the longer dim outside).  reduction: the first operand is a reduction's output,
    whose zero strides (the reduced dims) go innermost."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        for k, stride in enumerate(strides):
            s0, s1 = stride[d0], stride[d1]
            if reduction and not k and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):  # ATen's stable insertion sort
        d1 = i
        for j in range(1, i + 1):
            d0 = i - j
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def index_result_strides(self_shape, self_stride, index_layouts):
    """The strides of PyTorch's self[indices] (its TensorIterator's layout over self
    restrided to the result's shape, then the index tensors).  index_layouts: per indexed
    dim, None or the (shape, strides) of its integer index (masks expanded)."""
    pos = [i for i, s in enumerate(index_layouts) if s is not None]
    dims = list(range(len(self_shape)))
    if pos and pos[-1] - pos[0] + 1 != len(pos):  # not adjacent: indexed dims go first
        dims = pos + [d for d in dims if d not in pos]
        pos = list(range(len(pos)))
        index_layouts = [index_layouts[d] if d < len(index_layouts) else None for d in dims]
    shape = [self_shape[d] for d in dims]
    stride = [self_stride[d] for d in dims]
    bshape = broadcast_shapes(*(index_layouts[i][0] for i in pos)) if pos else ()
    first, last = (pos[0], pos[-1] + 1) if pos else (0, 0)
    out = tuple(shape[:first]) + tuple(bshape) + tuple(shape[last:])
    pad = (first, len(shape) - last)
    operands = [stride[:first] + [0] * len(bshape) + stride[last:]]
    for i in pos:
        operands.append(_index_operand(*index_layouts[i], bshape, pad, out))
    strides, cur = [0] * len(out), 1
    for d in stride_order(out, *operands):
        strides[d] = cur
        cur *= out[d]
    return out, tuple(strides)


def _index_operand(shape, stride, bshape, pad, out):
    """An index tensor's strides as TensorIterator sees them: expanded to the indices'
    broadcast shape (expand_outplace), viewed with size-1 dims before and after
    (reshape_indexer: those dims' strides decide ties between the other operands' dims),
    then broadcast over the result (stride 0 where a size-1 dim meets a longer one)."""
    from ._ops.decls.views import view_strides
    from ._tensor import contiguous_strides
    if tuple(shape) != tuple(bshape):
        stride = _expanded_strides(shape, stride, bshape)
    full = (1,) * pad[0] + tuple(bshape) + (1,) * pad[1]
    viewed = view_strides(tuple(bshape), tuple(stride), full) or contiguous_strides(full)
    return [0 if n == 1 and m != 1 else st for n, m, st in zip(full, out, viewed)]


def _expanded_strides(shape, stride, target):
    """The strides of (shape, stride) expanded to target (ATen's inferExpandGeometry: a new
    leading size-1 dim steps over the dims to its right, a broadcast dim gets 0)."""
    lead = len(target) - len(shape)
    out = [0] * len(target)
    for i in range(len(target) - 1, -1, -1):
        if i >= lead:
            out[i] = stride[i - lead] if shape[i - lead] == target[i] else 0
        elif target[i] == 1 and i + 1 < len(target):
            out[i] = target[i + 1] * out[i + 1]
    return out


def iter_result_strides(shape, layouts):
    """The strides of a result TensorIterator allocates over `shape` for operands with
    these layouts, in order: (shape, strides) of each tensor, None for a number.  Its fast
    setups first, when every operand is a tensor of the result's shape: all contiguous ->
    contiguous; all channels-last-contiguous (4-d) -> fresh channels-last strides; all
    dense with the same strides -> those strides.  Else the dims ordered by the operands'
    strides (the first operand telling two dims apart decides; a broadcast dim tells
    nothing) and dense strides in that order, size-1 dims included."""
    if all(lay is not None and lay[0] == shape for lay in layouts):
        strides = [lay[1] for lay in layouts]
        if all(_is_contiguous(shape, s) for s in strides):
            return _dense(shape, range(len(shape) - 1, -1, -1))
        # (channels_last only: ATen's fast setup has no 3-d case)
        if len(shape) == 4 and all(is_contiguous_as(shape, s, "channels_last")
                                   for s in strides):
            return _dense(shape, _CHANNELS_LAST_ORDER)
        first = strides[0]
        if all(s == first for s in strides) and non_overlapping_and_dense(shape, first):
            return tuple(first)
    return _dense(shape, stride_order(shape, *[_broadcast_strides(lay, shape)
                                               for lay in layouts if lay is not None]))


_CHANNELS_LAST_ORDER = (1, 3, 2, 0)  # (innermost first)


def _dense(shape, order):
    """Dense strides laying out the dims in `order` (innermost first)."""
    out, step = [0] * len(shape), 1
    for d in order:
        out[d] = step
        step *= shape[d]
    return tuple(out)


def _broadcast_strides(layout, shape):
    """An operand's strides over the result's shape: 0 where it is broadcast, its own
    stride on a size-1 dim that stays size-1."""
    own, stride = layout
    lead = len(shape) - len(own)
    return (0,) * lead + tuple(0 if n == 1 and m != 1 else s
                               for n, m, s in zip(own, shape[lead:], stride))
