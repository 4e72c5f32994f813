"""Shape rules shared by every backend: broadcasting and reduction shapes."""
import math


def numel(shape):
    return math.prod(shape)


def broadcast_shapes(*shapes):
    """torch.broadcast_shapes: the shape tensors of these shapes broadcast to."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s, ndim - len(s)):
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                   f"{list(s)}")
            cur = out[i]
            if cur == 1:
                out[i] = n
            elif n != 1 and n != cur:
                _mismatch(out, s, ndim)
    from ._tensor import Size
    return Size(out)


def broadcast_shapes_public(*shapes):
    """torch.broadcast_shapes: shapes (ints count as 1-D) checked one after another from
    their trailing dim, with PyTorch's errors."""
    for s in shapes:
        if not isinstance(s, (int, tuple, list)) or \
                not isinstance(s, int) and not all(isinstance(n, int) for n in s):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a "
                               f"list of ints, got {s}")
    shapes = [(s,) if isinstance(s, int) else s for s in shapes]
    result = [1] * max((len(s) for s in shapes), default=0)
    for k, s in enumerate(shapes):
        for i in range(-1, -len(s) - 1, -1):
            n = s[i]
            if n < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            if n == 1 or n == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {n} at {i}! "
                                   f"Mismatching argument at index {k} had {s!r}; but "
                                   f"expected shape should be broadcastable to {result}")
            result[i] = n
    from ._tensor import Size
    return Size(result)


def _mismatch(out, s, ndim):
    """Raise for the last dim where s does not broadcast against out (PyTorch checks from
    the trailing dim; out's dims past the first mismatch still hold their values before s)."""
    for i in range(ndim - 1, ndim - len(s) - 1, -1):
        cur, n = out[i], s[i - ndim + len(s)]
        if cur != 1 and n != 1 and n != cur:
            raise RuntimeError(f"The size of tensor a ({cur}) must match the size of tensor "
                               f"b ({n}) at non-singleton dimension {i}")


def reduced_shape(shape, dims, keepdim):
    """Shape after reducing `dims` (None: all) of `shape`."""
    if dims is None or dims == ():
        dims = range(len(shape))
    if keepdim:
        return tuple(1 if i in dims else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in dims)
