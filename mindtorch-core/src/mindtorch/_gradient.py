"""torch.gradient: central differences inside, one-sided (edge_order 1 or 2) at the
ends, for uniform spacings (scalars) or coordinates (1-D tensors), per dim, through
mindtorch ops only."""
import numbers


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    import mindtorch as M
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(input.ndim)) if dim is None else \
        [dim] if isinstance(dim, int) else list(dim)
    dims = [d % input.ndim if input.ndim else d for d in dims]
    spacings = _spacings(spacing, dims, input.ndim, dim is None)
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
    f = input if input.dtype.is_floating_point or input.dtype.is_complex else \
        input.to(M.get_default_dtype())
    return tuple(_along(f, d, h, edge_order) for d, h in zip(dims, spacings))


def _spacings(spacing, dims, ndim, all_dims):
    if isinstance(spacing, (numbers.Number,)) or getattr(spacing, "ndim", None) == 0:
        return [spacing] * len(dims)
    spacing = list(spacing)
    if len(spacing) == 1 and len(dims) > 1 and not hasattr(spacing[0], "ndim"):
        return spacing * len(dims)
    if len(spacing) != len(dims):
        if all_dims:
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, "
                               f"or a list of length equal to 'self.dim() = {ndim}', since "
                               f"dim argument was not given, but got a list of length "
                               f"{len(spacing)}")
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                           f"it's spacing and dim arguments to have the same length, but got "
                           f"a spacing argument of length {len(spacing)} and a dim argument of "
                           f"length {len(dims)}.")
    return spacing


def _shape_for(x, d, ndim):
    """Coordinate differences shaped to broadcast along dim d."""
    shape = [1] * ndim
    shape[d] = -1
    return x.reshape(shape)


def _along(f, d, h, edge_order):
    import mindtorch as M
    n = f.shape[d]

    def part(start, stop):
        return f.narrow(d, start, stop - start)
    if getattr(h, "ndim", 0) == 1:  # coordinates: non-uniform steps
        x = h.to(f.dtype) if not h.dtype.is_floating_point else h
        dx = _shape_for(x[1:] - x[:-1], d, f.ndim)
        hl, hr = dx.narrow(d, 0, n - 2), dx.narrow(d, 1, n - 2)
        inner = (hl * hl * part(2, n) - hr * hr * part(0, n - 2) +
                 (hr * hr - hl * hl) * part(1, n - 1)) / (hl * hr * (hl + hr))
        d0, d1 = dx.narrow(d, 0, 1), dx.narrow(d, 1, 1) if n > 2 else None
        e0, e1 = dx.narrow(d, n - 2, 1), dx.narrow(d, n - 3, 1) if n > 2 else None
        if edge_order == 1:
            first = (part(1, 2) - part(0, 1)) / d0
            last = (part(n - 1, n) - part(n - 2, n - 1)) / e0
        else:
            first = (-(2 * d0 + d1) / (d0 * (d0 + d1)) * part(0, 1) +
                     (d0 + d1) / (d0 * d1) * part(1, 2) - d0 / (d1 * (d0 + d1)) * part(2, 3))
            last = (e0 / (e1 * (e1 + e0)) * part(n - 3, n - 2) -
                    (e0 + e1) / (e1 * e0) * part(n - 2, n - 1) +
                    (2 * e0 + e1) / (e0 * (e1 + e0)) * part(n - 1, n))
    else:
        inner = (part(2, n) - part(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (part(1, 2) - part(0, 1)) / h
            last = (part(n - 1, n) - part(n - 2, n - 1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2 * part(1, 2) - 0.5 * part(2, 3)) / h
            last = (0.5 * part(n - 3, n - 2) - 2 * part(n - 2, n - 1) + 1.5 * part(n - 1, n)) / h
    return M.cat([first, inner, last], d)
