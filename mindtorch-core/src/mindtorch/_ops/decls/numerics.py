"""Numerical utilities: complex construction (complex, polar), frexp, statistics of
observations (cov, corrcoef), integration (trapezoid, cumulative_trapezoid), renorm,
unravel_index, vander, fill_diagonal_, the in-place scans, and the size predicates.
All but frexp decompose into other ops."""
from ..._dtype import scalar_type_name as _type_name
from ..registry import OPS, define, derivative, route_overloads
from ._helpers import inplace_via, write_into


def _M():
    import mindtorch
    return mindtorch


def _check_parts(real, imag):
    M = _M()
    # (Half parts would make complex32, a dtype mindtorch does not have)
    if real.dtype not in (M.float32, M.float64) or imag.dtype not in (M.float32, M.float64):
        raise RuntimeError(f"Expected both inputs to be Float or Double tensors but got "
                           f"{_type_name(real.dtype)} and {_type_name(imag.dtype)}")
    if real.dtype is not imag.dtype:
        raise RuntimeError(f"Expected object of scalar type {_type_name(real.dtype)} but got "
                           f"scalar type {_type_name(imag.dtype)} for second argument")


def _complex(real, imag):
    M = _M()
    _check_parts(real, imag)
    # stacking keeps inf and nan parts intact (real + 1j * imag would turn 0 * inf into nan)
    pairs = M.stack(M.broadcast_tensors(real, imag), -1)
    return M.view_as_complex(pairs).clone()


def _polar(abs, angle):
    _check_parts(abs, angle)
    return _complex(abs * angle.cos(), abs * angle.sin())


def _frexp_check(self):
    if not self.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")


def frexp_meta(self):
    """(mantissa, exponent) shapes and dtypes, for every backend."""
    _frexp_check(self)
    M = _M()
    return (self.shape, self.dtype), (self.shape, M.int32)


def _observations(name, input):
    if input.dim() > 2:
        raise RuntimeError(f"{name}(): expected input to have two or fewer dimensions but got "
                           f"an input with {input.dim()} dimensions")
    return input if input.dim() == 2 else input.reshape(1, -1)


def _cov(input, correction=1, fweights=None, aweights=None):
    M = _M()
    x = _observations("cov", input)
    n = x.shape[1]
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.to(M.get_default_dtype())
    w = None
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is None:
            continue
        if weights.dim() > 1 or weights.numel() != n:
            raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions and "
                               f"{n} elements but got a {weights.dim()}-dimensional tensor "
                               f"of {weights.numel()} elements")
        if name == "fweights" and (weights.dtype.is_floating_point or weights.dtype.is_complex):
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got "
                               f"fweights with {_type_name(weights.dtype)} dtype")
        if name == "aweights" and not weights.dtype.is_floating_point:
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got "
                               f"aweights with {_type_name(weights.dtype)} dtype")
        w = weights if w is None else w * weights
    if w is None:
        mean = x.mean(1, keepdim=True)
        norm = n - correction
        if norm <= 0:
            import warnings

            from .reduction import _caller_level
            warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly "
                          "less than the number of observations.", UserWarning,
                          stacklevel=_caller_level())
    else:
        total = w.sum()
        mean = (x * w).sum(1, keepdim=True) / total
        norm = total - correction if aweights is None else \
            total - correction * (w * aweights).sum() / total
        norm = norm.clamp(min=0)
    centred = x - mean
    weighted = centred if w is None else centred * w
    return (centred.matmul(weighted.t().conj()) / max(norm, 0) if w is None else
            centred.matmul(weighted.t().conj()) / norm).squeeze()


def _corrcoef(input):
    M = _M()
    c = _cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = d.real.sqrt() if d.dtype.is_complex else d.sqrt()
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    if c.dtype.is_complex:
        return M.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


def _as_float(y):
    return y if y.dtype.is_floating_point or y.dtype.is_complex else y.to(
        _M().get_default_dtype())


def _spacing(y, x, dim):
    """Per-interval widths along dim: a number, or a tensor broadcastable to y's slices."""
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = x.shape[0] - 1
        return x.diff().reshape(shape)
    return x.diff(dim=dim)


def _trapezoid(y, x=None, dx=None, dim=-1):
    if y.shape[dim] == 0:  # PyTorch keeps an integer dtype here
        return y.sum(dim)
    y = _as_float(y)
    pairs = y.narrow(dim, 0, y.shape[dim] - 1) + y.narrow(dim, 1, y.shape[dim] - 1)
    if x is None:
        return pairs.sum(dim) * ((1 if dx is None else dx) / 2)
    return (pairs * _spacing(y, x, dim)).sum(dim) / 2


def _cumulative_trapezoid(y, x=None, dx=None, dim=-1):
    y = _as_float(y)
    if y.shape[dim] == 0:
        return y.narrow(dim, 0, 0)
    pairs = y.narrow(dim, 0, y.shape[dim] - 1) + y.narrow(dim, 1, y.shape[dim] - 1)
    if x is None:
        return pairs.cumsum(dim) * ((1 if dx is None else dx) / 2)
    return (pairs * _spacing(y, x, dim)).cumsum(dim) / 2


def _route_integration(name):
    """trapezoid(y, x) / trapezoid(y, dx=...): a number in x's place is PyTorch's error."""
    def route(args, kwargs):
        x = args[1] if len(args) > 1 else kwargs.get("x")
        if x is not None and not isinstance(x, _M().Tensor):
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"(Tensor, {type(x).__name__}), but expected one of:\n"
                            f" * (Tensor y, Tensor x, *, int dim = -1)\n"
                            f" * (Tensor y, *, Number dx = 1, int dim = -1)\n")
        if x is not None and kwargs.get("dx") is not None:
            raise TypeError(f"{name}() received an invalid combination of arguments: "
                            f"x and dx are exclusive")
        return args, kwargs
    return route


def _renorm(self, p, dim, maxnorm):
    M = _M()
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(self.dtype)}")
    others = tuple(d for d in range(self.dim()) if d != dim)
    norm = self.abs().pow(p).sum(others, keepdim=True).pow(1.0 / p) if others else \
        self.abs()
    factor = M.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return self * factor.to(self.dtype)


def _unravel_index(indices, shape):
    M = _M()
    if not isinstance(indices, M.Tensor):
        indices = M.as_tensor(indices)
    if indices.dtype.is_floating_point or indices.dtype.is_complex or \
            indices.dtype is M.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coords, stride = [], 1
    for size in reversed(shape):  # innermost coordinate first
        coords.append(M.remainder(M.floor_divide(indices, stride), size) if size else
                      M.zeros_like(indices))
        stride *= size
    return tuple(reversed(coords))


def _vander(x, N=None, increasing=False):
    M = _M()
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    base = x if x.dtype.is_floating_point or x.dtype.is_complex else x.to(M.int64)
    powers = M.arange(n, device=x.device)
    if not increasing:
        powers = powers.flip(0)
    if n == 0:
        return base.new_ones((x.shape[0], 0))
    # cumulative products, as PyTorch computes it: exact for integers, no 0 ** 0 question
    columns = M.cat([base.new_ones((x.shape[0], 1)),
                     base.unsqueeze(1).expand(x.shape[0], n - 1)], 1).cumprod(1)
    return columns if increasing else columns.flip(1)


def _fill_diagonal_(self, fill_value, wrap=False):
    M = _M()
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = self.shape
    if self.dim() > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(shape)
    if self.dim() == 2 and wrap and shape[0] > shape[1] + 1:
        # the diagonal restarts after each (cols + 1)-row block, as in NumPy
        flat = [k * (shape[1] + 1) for k in range(-(-shape[0] * shape[1] // (shape[1] + 1)))]
        rows = [i // shape[1] for i in flat]
        cols = [i % shape[1] for i in flat]
        index = (M.tensor(rows, device=self.device), M.tensor(cols, device=self.device))
    else:
        index = (M.arange(n, device=self.device),) * self.dim()
    return self.index_put_(index, M.as_tensor(fill_value, dtype=self.dtype, device=self.device))


def _inplace_scan(name):
    def scan(self, dim, dtype=None):
        if dtype is not None and dtype is not self.dtype:
            raise RuntimeError(f"Bad in-place call: input tensor dtype "
                               f"{_type_name(self.dtype).lower()} and output tensor dtype "
                               f"{_type_name(dtype).lower()} should match")
        return write_into(self, OPS[name], (dim, dtype))
    return scan


def _is_nonzero(self):
    n = self.numel()
    if n != 1:
        raise RuntimeError("Boolean value of Tensor with "
                           f"{'no values' if n == 0 else 'more than one value'} is ambiguous")
    return bool(self.item())


def _declare():
    define("complex(Tensor real, Tensor imag) -> Tensor", method=False, out=True,
           decomposition=_complex)
    define("polar(Tensor abs, Tensor angle) -> Tensor", method=False, out=True,
           decomposition=_polar)
    define("frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)", out=True)
    define("cov(Tensor self, *, int correction=1, Tensor? fweights=None, "
           "Tensor? aweights=None) -> Tensor", decomposition=_cov)
    define("corrcoef(Tensor self) -> Tensor", decomposition=_corrcoef)
    for name, fn in (("trapezoid", _trapezoid), ("cumulative_trapezoid", _cumulative_trapezoid)):
        route_overloads(define(f"{name}(Tensor y, Tensor? x=None, *, Scalar? dx=None, "
                               "int dim=-1) -> Tensor", method=False, decomposition=fn),
                        _route_integration(name))
    define("trapz(Tensor y, Tensor? x=None, *, Scalar? dx=None, int dim=-1) -> Tensor",
           method=False, decomposition=_trapezoid)
    define("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", out=True,
           decomposition=_renorm)
    define("renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) -> Tensor(a!)",
           function=False, tags=("inplace",), decomposition=inplace_via("renorm"))
    define("vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", method=False,
           decomposition=_vander)
    define("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)",
           function=False, tags=("inplace",), decomposition=_fill_diagonal_)
    for name in ("cumsum", "cumprod"):
        define(f"{name}_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
               function=False, tags=("inplace",), decomposition=_inplace_scan(name))


_declare()


def _unravel_public(indices, shape):
    return _unravel_index(indices, tuple(shape) if not isinstance(shape, int) else (shape,))


def _derivatives():
    # mantissa = self / 2 ** exponent, the exponent piecewise constant
    derivative(OPS["frexp"], self=lambda grad, results: grad / results[1].exp2())


_derivatives()
# functions that are not ops: they compute on metadata or return Python values
unravel_index = _unravel_public
is_nonzero = _is_nonzero


def is_same_size(self, other):
    return self.shape == other.shape


__all__ = ["OPS", "frexp_meta", "is_nonzero", "is_same_size", "unravel_index"]
