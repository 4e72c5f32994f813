"""Helpers that backward formulas share.  Written with mindtorch ops only (no data access,
no device branches), so they run on every device and are differentiable themselves."""
import math


def _ops():
    import mindtorch
    return mindtorch


def sum_to(grad, shape):
    """grad summed over the dims along which an input of `shape` was broadcast."""
    shape = tuple(shape)
    have = grad._shape
    if have == shape:
        return grad
    lead = len(have) - len(shape)
    if lead < 0:
        return grad.reshape(shape)
    inner = [lead + i for i, n in enumerate(shape) if n == 1 and have[lead + i] != 1]
    total = _sum_op()  # (the op itself: torch.sum's public overload wrapper costs more)
    if not shape:  # (a 0-dim input: PyTorch's full sum, SumBackward0 under create_graph)
        return total(grad, None, False, None)
    if not inner:  # only leading dims (a bias): the sum has the shape already
        return total(grad, tuple(range(lead)), False, None) if lead else grad.reshape(shape)
    r = total(grad, tuple(range(lead)) + tuple(inner), True, None)
    return r.reshape(shape) if lead else r  # (kept dims only: the sum has the shape)


def _sum_op():
    global _sum
    if _sum is None:  # (looked up once: a function-level import per call costs ~1 us)
        from .._ops import OPS
        _sum = OPS["sum"].call
    return _sum


_sum = None


def zeros(grad):
    """A zero gradient shaped like grad: for inputs the output does not vary with (floor,
    sign, samplers, what an in-place write overwrote), where PyTorch gives zeros, not None:
    its zeros_like(grad), laid out as grad."""
    import mindtorch
    return mindtorch.zeros_like(grad)


def sgn(x):
    """x's sign, x / |x| for complex (0 at 0): the derivative of |x|."""
    if not x.dtype.is_complex:
        return x.sign()
    return x.sgn()  # (the op: its own backward, 0 at 0, where x / |x| would give nan)


def scaled(grad, c):
    """grad times a Python number c (conjugated, as PyTorch's formulas take it), skipped for
    c == 1 (PyTorch's maybe_multiply)."""
    if type(c) is not bool and c == 1:
        return grad
    return grad * (c.conjugate() if type(c) is complex else c)


def unreduce(grad, shape, dim, keepdim):
    """A reduction's grad (over `dim`: an int, a list, or None / () for all dims)
    broadcast back to the input `shape`."""
    return restore_reduced_dims(grad, len(shape), dim, keepdim).expand(shape)


def restore_reduced_dims(grad, nd, dim, keepdim):
    """A reduction's grad with its reduced dims back as size-1 dims (of an input of `nd`
    dims), not expanded: formulas broadcasting it against the input get the input's
    layout, as PyTorch's (which unsqueeze only)."""
    dims = () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims:
        dims = range(nd)
    if not keepdim and nd:
        for d in sorted(d % nd for d in dims):
            grad = grad.unsqueeze(d)
    return grad


def component_geometries(base, view):
    """(base geometry, view geometry, which side is complex: "base", "view" or None): where
    one of a view and its base is complex and the other real (.real, .imag, view_as_real,
    view_as_complex), the complex one's geometry counts its real components."""
    def geometry(t, widen):
        if not widen:
            return t._shape, t._stride, t._offset
        return t._shape + (2,), tuple(2 * s for s in t._stride) + (1,), 2 * t._offset
    side = None
    if base.dtype.is_complex != view.dtype.is_complex:
        side = "base" if base.dtype.is_complex else "view"
    return geometry(base, side == "base"), geometry(view, side == "view"), side


def view_index(base_geometry, view_geometry, device):
    """int64 tensor shaped like the view: each element's row-major position in the base
    (both given as (shape, stride, storage offset) over one storage)."""
    M = _ops()
    bshape, bstride, boffset = base_geometry
    shape, stride, offset = view_geometry
    n = math.prod(bshape)
    from .._tensor import contiguous_strides
    if tuple(bstride) == contiguous_strides(bshape) or n <= 1:
        flat = M.arange(max(n, 1), device=device)
        return flat.as_strided(shape, stride, offset - boffset)
    extent = 1 + max(_last(bshape, bstride, boffset), _last(shape, stride, offset))
    positions = M.arange(extent, device=device).as_strided(bshape, bstride, boffset)
    inverse = M.zeros(extent, dtype=M.int64, device=device)
    inverse[positions.reshape(-1)] = M.arange(n, device=device)
    return inverse.as_strided(shape, stride, offset)


def _last(shape, stride, offset):
    return offset + sum((n - 1) * s for n, s in zip(shape, stride) if n)


def view_scatter(grad, base_geometry, view_geometry):
    """Gradient of a view's base from the view's gradient: summed where view elements
    alias one base element (as expanded views do)."""
    M = _ops()
    bshape = base_geometry[0]
    index = view_index(base_geometry, view_geometry, grad.device)
    flat = M.zeros(math.prod(bshape), dtype=grad.dtype, device=grad.device)
    flat = flat.index_add(0, index.reshape(-1), grad.reshape(-1))
    return flat.reshape(bshape)

