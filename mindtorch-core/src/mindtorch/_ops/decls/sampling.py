"""Grid sampling: F.grid_sample (ATen's grid_sampler and its 2d / 3d ops with their backward
ops) and F.affine_grid (affine_grid_generator).

Grid sampling (bilinear, nearest and bicubic; 2d and 3d) is written with mindtorch ops
(gathers and scatter_add), forward and backward, so it runs on every device and its backward
is differentiable too; no backend has kernels for these ops.
"""
import itertools
import warnings

from ... import _autocast
from ..._dtype import scalar_type_name as _type_name
from ..._shapes import numel as _count
from ..._warn_once import _user_level
from ...autograd._backward_ops import backward_op
from ..registry import OPS, define, derivative
from .pooling import check_dtype

NN = ("nn.functional",)
_NO_METHOD = {"method": False}


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def check_grid_sampler(input, grid, interpolation_mode):
    """PyTorch's checks of grid_sampler's arguments; True when the result is empty (then
    its 2d kernel checks no dtype, its 3d one the input's only)."""
    if grid.shape[0] != input.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but "
                           f"got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last "
                           f"dimension, but got grid with sizes {list(grid.shape)}")
    for i in range(2, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {i} being empty")
    # (then the 2d kernel's checks for a 4-d input, else the 3d one's)
    want = 4 if input.ndim == 4 else 5
    if input.ndim != want or grid.ndim != want:
        raise RuntimeError(f"grid_sampler(): expected {want}D input and grid with same number of "
                           f"dimensions, but got input with sizes {list(input.shape)} and grid "
                           f"with sizes {list(grid.shape)}")
    if interpolation_mode == 2 and input.ndim == 5:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.ndim == 5:
        check_dtype("grid_sampler3d_cpu", input, "f")
    if input.shape[0] * input.shape[1] * _count(grid.shape[1:-1]) == 0:
        return True
    check_dtype("grid_sampler_2d_cpu_kernel_impl", input, "f")
    if grid.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input.dtype)} but found "
                           f"{_type_name(grid.dtype)}")
    return False


def _reflect(x, twice_low, twice_high, vectorized):
    """PyTorch's reflect_coordinates, and its derivative (+-1).  Its 2d kernel (vectorized)
    folds by trunc(|x - low| / twice_span); its 3d kernel (scalar) by fmod and the parity
    of the flips: the same for ordinary values, not for huge or non-finite ones."""
    import mindtorch as M
    if twice_low == twice_high:
        return x * 0, 0
    low = twice_low / 2
    if vectorized:
        twice_span = twice_high - twice_low
        shifted = x - low
        a = shifted.abs()
        extra = _fma((a / twice_span).trunc(), -twice_span, a)
        flip = extra > twice_span - extra
        return M.where(flip, twice_span - extra, extra) + low, \
            M.where(flip ^ (shifted < 0), -1.0, 1.0).to(x.dtype)
    span = (twice_high - twice_low) / 2
    shifted = x - low
    sign = M.where(shifted < 0, -1.0, 1.0).to(x.dtype)
    shifted = shifted.abs()
    extra = M.fmod(shifted, span)
    flips = (shifted / span).floor()  # (as a C int: INT_MIN, even, where it overflows)
    even = (M.fmod(flips, 2) == 0) | (flips >= 2.0 ** 31)
    return M.where(even, extra + low, span - extra + low), M.where(even, sign, -sign)


def _fma(a, b, c):
    """a * b + c (b, c Python floats) rounded once, as the fused multiply-adds of PyTorch's
    (AVX2) vectorized kernel, float64's too: at a grid point on a pixel the twice-rounded
    coordinate can land on the other side of the integer, and the bilinear grid gradient
    takes the other pair of pixels."""
    import mindtorch as M
    if a.dtype is M.float32:  # (the product is exact in float64)
        return (a.double() * b + c).float()
    if a.dtype is not M.float64:
        return a * b + c
    r, s = fma_parts(a, b, c)
    return M.where(r.isnan(), s, r)  # (infinite or huge: the split overflowed)


def fma_parts(a, b, c):
    """(a * b + c rounded once, a * b + c rounded twice) in float64: Dekker's error-free
    product and Knuth's two-sum, their errors added last.  Arithmetic only, so for tensors
    or NumPy arrays (the cpu kernels' fma64)."""
    p = a * b
    ah, al = veltkamp_split(a)
    bh, bl = veltkamp_split(b)
    perr = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    v = s - p
    return s + (perr + ((p - (s - v)) + (c - v))), s


def veltkamp_split(a):
    """a (float64 tensor or array) as hi + lo, each of 26 bits, so hi * hi' is exact
    (Dekker's product; also the cpu kernels' float64 fma)."""
    t = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = t - (t - a)
    return hi, a - hi


def _unnormalize(coord, size, align_corners, vectorized):
    """Pixel coordinate of normalized grid values in [-1, 1], and its derivative (the 2d
    kernel's formula, vectorized, or the 3d one's)."""
    if align_corners:
        if vectorized:
            return (coord + 1) * ((size - 1) / 2), (size - 1) / 2
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2
    if vectorized:
        return _fma(coord + 1, size / 2, -0.5), size / 2
    return ((coord + 1) * size - 1) / 2, size / 2


def _pad_coordinates(x, size, padding_mode, align_corners, vectorized):
    """PyTorch's compute_coordinates (border: clipped; reflection: reflected, then clipped),
    and its derivative.  Clipping takes NaN to 0 in the 2d kernel (vectorized), to the
    last position in the 3d one (std::min(size - 1, std::max(NaN, 0)))."""
    mult = 1
    if padding_mode == 2:
        x, mult = _reflect(x, 0, 2 * (size - 1), vectorized) if align_corners else \
            _reflect(x, -1, 2 * size - 1, vectorized)
    if padding_mode in (1, 2):  # no gradient where clipped
        inside = ((x > 0) & (x < size - 1)).to(x.dtype)
        x = x.nan_to_num(0.0 if vectorized else size - 1.0, size - 1.0, 0.0)
        x, mult = x.clamp(0, size - 1), inside * mult
    return x, mult


_A = -0.75  # PyTorch's bicubic convolution coefficient


def cubic_weights(t):
    """PyTorch's cubic convolution weights of the 4 taps around t in [0, 1), and their
    derivatives with respect to t (t a tensor, or a NumPy array: the cpu kernel's)."""
    def near(x):
        return ((_A + 2) * x - (_A + 3)) * x * x + 1

    def far(x):
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A

    def d_near(x):
        return (3 * (_A + 2) * x - 2 * (_A + 3)) * x

    def d_far(x):
        return (3 * _A * x - 10 * _A) * x + 8 * _A

    weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
    grads = [d_far(t + 1), d_near(t), -d_near(1 - t), -d_far(2 - t)]
    return weights, grads


class _Taps:
    """What sampling `input` (2d or 3d) at a grid reads: for each tap (the 2**nd linear
    corners, the 16 bicubic neighbours or the nearest pixel), its pixel coordinates (one
    per spatial dim, in the input's dim order), its weight and the weight's derivatives
    with respect to the unnormalized coordinates; `mults` are the derivatives of those
    coordinates with respect to the grid (whose last dim lists x, y[, z]: reversed)."""

    def __init__(self, input, grid, interpolation_mode, padding_mode, align_corners):
        self.n, self.c = input.shape[:2]
        self.sizes = tuple(input.shape[2:])
        nd = len(self.sizes)
        self.out = tuple(grid.shape[1:-1])
        coords, self.mults = [], []
        for i, size in enumerate(self.sizes):
            x, mult = _unnormalize(grid[..., nd - 1 - i], size, align_corners, nd == 2)
            coords.append(x)
            self.mults.append(mult)
        if interpolation_mode == 2:  # bicubic (2d): padding applies to each tap
            (iy, ix), (h, w) = coords, self.sizes
            x0, y0 = ix.floor(), iy.floor()
            wx, dwx = cubic_weights(ix - x0)
            wy, dwy = cubic_weights(iy - y0)
            self.points = []
            for j in range(4):
                y, _ = _pad_coordinates(y0 + (j - 1), h, padding_mode, align_corners, True)
                for i in range(4):
                    x, _ = _pad_coordinates(x0 + (i - 1), w, padding_mode, align_corners,
                                            True)
                    self.points.append(((y, x), wx[i] * wy[j], (dwy[j] * wx[i], wy[j] * dwx[i])))
            return
        for i, size in enumerate(self.sizes):
            coords[i], mult = _pad_coordinates(coords[i], size, padding_mode, align_corners,
                                               nd == 2)
            self.mults[i] = mult * self.mults[i]
        if interpolation_mode == 1:  # nearest (rounding half to even, as nearbyint)
            self.points = [(tuple(x.round() for x in coords), None, None)]
            return
        lows = [x.floor() for x in coords]
        # per dim, the factor of the low and of the high corner, and their derivatives
        factors = [((lo + 1 - x, -1), (x - lo, 1)) for x, lo in zip(coords, lows)]
        self.points = []
        for corner in itertools.product((0, 1), repeat=nd):  # PyTorch's order (tnw, tne...)
            parts = [factors[i][k] for i, k in enumerate(corner)]
            weight = _product([f for f, _ in parts])
            grads = tuple(sign * _product([f for j, (f, _) in enumerate(parts) if j != i])
                          for i, (_, sign) in enumerate(parts))
            self.points.append((tuple(lo + k for lo, k in zip(lows, corner)), weight, grads))

    def index(self, pos):
        """(flat index into each (n, c) volume, expanded over c; in-bounds mask)."""
        valid = flat = None
        for x, size in zip(pos, self.sizes):
            inside = (x >= 0) & (x <= size - 1)
            valid = inside if valid is None else valid & inside
            # (a NaN position reads nothing; a reflected bicubic tap may be a half-integer:
            # truncated, as PyTorch converts it to an int)
            x = x.clamp(0, size - 1).nan_to_num(0.0).trunc().long()  # (16-bit floats
            flat = x if flat is None else flat * size + x  # cannot hold the flat index)
        count = _count(self.out)
        return flat.reshape(self.n, 1, count).expand(self.n, self.c, count), \
            valid.unsqueeze(1)

    def values(self, input, pos):
        index, valid = self.index(pos)
        v = input.reshape(self.n, self.c, _count(self.sizes)).gather(2, index)
        return v.reshape((self.n, self.c) + self.out).masked_fill(~valid, 0)


def _product(factors):
    out = factors[0] if factors else 1
    for f in factors[1:]:
        out = out * f
    return out


def _grid_sampler_nd(input, grid, interpolation_mode, padding_mode, align_corners):
    if check_grid_sampler(input, grid, interpolation_mode):
        return input.new_zeros(tuple(input.shape[:2]) + tuple(grid.shape[1:-1]))
    taps = _Taps(input, grid, interpolation_mode, padding_mode, align_corners)
    out = None
    for pos, weight, _ in taps.points:
        v = taps.values(input, pos)
        term = v if weight is None else v * weight.unsqueeze(1)
        if weight is not None and input.ndim == 5:
            # PyTorch's 3d kernel skips the corners outside (even with a NaN weight)
            term = term.masked_fill(~taps.index(pos)[1], 0)
        out = term if out is None else out + term
    return out


def _grid_sampler_nd_backward(grad_output, input, grid, interpolation_mode, padding_mode,
                              align_corners):
    """(grad_input, grad_grid): grad_output spread back to the taps each output read
    (scatter_add), and the weights' derivatives with respect to the grid."""
    import mindtorch as M
    taps = _Taps(input, grid, interpolation_mode, padding_mode, align_corners)
    n, c = input.shape[:2]
    count = _count(taps.out)
    grad_input = M.zeros((n, c, _count(taps.sizes)), dtype=grad_output.dtype,
                         device=grad_output.device)
    grads = [0] * len(taps.sizes)
    for pos, weight, dweight in taps.points:
        index, valid = taps.index(pos)
        spread = grad_output if weight is None else grad_output * weight.unsqueeze(1)
        spread = spread.masked_fill(~valid, 0).reshape(n, c, count)
        grad_input = grad_input.scatter_add(2, index, spread)
        if weight is not None:
            v = taps.values(input, pos) * grad_output
            grads = [g + v * d.unsqueeze(1) for g, d in zip(grads, dweight)]
    grad_input = grad_input.reshape(input.shape)
    if interpolation_mode == 1:
        return grad_input, M.zeros_like(grid)
    per_dim = [g.sum(1) * m for g, m in zip(grads, taps.mults)]
    return grad_input, M.stack(per_dim[::-1], -1)


def _grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    name = "grid_sampler_3d" if input.ndim == 5 else "grid_sampler_2d"
    return OPS[name].call(input, grid, interpolation_mode, padding_mode, align_corners)


_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the old "
                  "behavior is desired. See the documentation of grid_sample for details.")


def _grid_sample(self, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in _GRID_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _GRID_PADDING:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=_user_level())
        align_corners = False
    return _grid_sampler(self, grid, _GRID_MODES[mode], _GRID_PADDING[padding_mode],
                         align_corners)


def _base_grid(like, size, align_corners):
    """PyTorch's base grid of an affine grid: (x, y[, z], 1) at each output pixel, the
    coordinates spaced in [-1, 1] (pixel centers unless align_corners)."""
    import mindtorch as M

    def steps(n):
        if n <= 1:
            if like.dtype in (M.float16, M.bfloat16):  # (PyTorch's at::tensor(0, ...))
                raise NotImplementedError(f'"tensor_cpu" not implemented for '
                                          f'\'{_type_name(like.dtype)}\'')
            return M.zeros(1, dtype=like.dtype, device=like.device)
        r = M.linspace(-1, 1, n, dtype=like.dtype, device=like.device)
        # (PyTorch copies the scaled steps into the grid: truncated for integer dtypes)
        return r if align_corners else (r * (n - 1) / n).to(like.dtype)

    spatial = tuple(size[2:])
    nd = len(spatial)
    coords = []
    for i in range(nd):  # x varies along the last dim, y along the one before, ...
        shape = [1] * nd
        shape[nd - 1 - i] = spatial[nd - 1 - i]
        coords.append(steps(spatial[nd - 1 - i]).reshape(shape).expand(spatial))
    coords.append(M.ones(spatial, dtype=like.dtype, device=like.device))
    return M.stack(coords, -1).reshape(-1, nd + 1)


def _affine_grid_generator(theta, size, align_corners):
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    # (PyTorch's checks are its batched product's, of the base grid and theta^T)
    theta.transpose(1, 2)  # (its IndexError for fewer dims, as there)
    if theta.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if (theta.shape[0], theta.shape[2]) != (size[0], len(size) - 1):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {len(size) - 1}] but got: [{theta.shape[0]}, "
                           f"{theta.shape[2]}].")
    import mindtorch as M
    base = _base_grid(theta, size, align_corners)
    low = _autocast.lower_dtype(theta)
    if low is not None:  # (PyTorch's product is a bmm: on autocast's lower-precision list)
        base, theta = base.to(low), theta.to(low)
    if theta.dtype in (M.float32, M.float64):
        # PyTorch's batched product sums the terms in order, each rounded; BLAS's fused
        # multiply-adds land an ulp off at some points (grid_sample's gradient jumps at
        # pixels, so an ulp can move it)
        out = None
        for k in range(base.shape[1]):
            term = base[:, k].reshape(1, -1, 1) * theta[:, None, :, k]
            out = term if out is None else out + term
    else:
        out = base @ theta.transpose(1, 2)
    return out.reshape((size[0],) + tuple(size[2:]) + (len(size) - 2,))


def _affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=_user_level())
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    rows = {4: 2, 5: 3}.get(len(size))
    if rows is None:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size "
                                  f"torch.Size({list(size)}).")
    if theta.ndim != 3 or tuple(theta.shape[-2:]) != (rows, rows + 1):
        kind = "2D" if rows == 2 else "3D"
        raise ValueError(f"Expected a batch of {kind} affine matrices of shape Nx{rows}x{rows + 1} "
                         f"for size torch.Size({list(size)}). Got {theta.shape}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                      "when align_corners=True. This is not an intended use case of affine_grid. "
                      "See the documentation of affine_grid for details.",
                      stacklevel=_user_level())
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got "
                         f"torch.Size({list(size)})")
    return OPS["affine_grid_generator"].call(theta, size, align_corners)



# -- declarations ------------------------------------------------------------------------

def _declare():
    define("grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
           "bool align_corners) -> Tensor", decomposition=_grid_sampler, **_NO_METHOD)
    for nd in (2, 3):
        define(f"grid_sampler_{nd}d(Tensor input, Tensor grid, int interpolation_mode, "
               f"int padding_mode, bool align_corners) -> Tensor",
               decomposition=_grid_sampler_nd, **_NO_METHOD)
        define(f"grid_sampler_{nd}d_backward(Tensor grad_output, Tensor input, Tensor grid, "
               f"int interpolation_mode, int padding_mode, bool align_corners) -> "
               f"(Tensor, Tensor)", decomposition=_grid_sampler_nd_backward, function=False,
               **_NO_METHOD)
    define("grid_sample(Tensor input, Tensor grid, str mode=\"bilinear\", "
           "str padding_mode=\"zeros\", bool? align_corners=None) -> Tensor",
           decomposition=_grid_sample, modules=NN, function=False, **_NO_METHOD)
    define("affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor",
           decomposition=_affine_grid_generator, **_NO_METHOD)
    define("affine_grid(Tensor theta, int[] size, bool? align_corners=None) -> Tensor",
           decomposition=_affine_grid, modules=NN, function=False, **_NO_METHOD)


# -- backward formulas -------------------------------------------------------------------

def _derivatives():
    for nd in (2, 3):
        derivative(OPS[f"grid_sampler_{nd}d"],
                   # (PyTorch's double backward gives grid zeros, input nothing)
                   {"input, grid": backward_op(_grid_sampler_grad(nd), zeros=("grid",))},
                   name=f"GridSampler{nd}DBackward0")
    derivative(OPS["affine_grid_generator"], theta=_affine_grid_grad,
               name="AffineGridGeneratorBackward0")


def _grid_sampler_grad(nd):
    backward = OPS[f"grid_sampler_{nd}d_backward"]

    def grad_input_grid(grad, input, grid, interpolation_mode, padding_mode, align_corners):
        return backward.call(grad, input, grid, interpolation_mode, padding_mode,
                             align_corners)
    return grad_input_grid


def _affine_grid_grad(grad, size, align_corners):
    base = _base_grid(grad, size, align_corners)
    g = grad.reshape(size[0], -1, len(size) - 2)
    return (base.t() @ g).transpose(1, 2)


_declare()
_derivatives()
