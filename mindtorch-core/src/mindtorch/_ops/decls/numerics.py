"""Numerical utilities: complex construction (complex, polar), frexp, statistics of
observations (cov, corrcoef), integration (trapezoid, cumulative_trapezoid), renorm,
unravel_index, vander, fill_diagonal_, the in-place scans, and the size predicates.
All but frexp decompose into other ops."""
from ..._dtype import scalar_type_name as _type_name
from ..registry import OPS, define, derivative, overload, route_overloads
from ._helpers import inplace_via, write_into


def _M():
    import mindtorch
    return mindtorch


def _check_parts(real, imag, name):
    M = _M()
    parts = (M.float16, M.float32, M.float64)
    if real.dtype not in parts or imag.dtype not in parts:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_type_name(real.dtype)} and {_type_name(imag.dtype)}")
    if real.dtype is not imag.dtype:
        raise RuntimeError(f"Expected object of scalar type {_type_name(real.dtype)} but got "
                           f"scalar type {_type_name(imag.dtype)} for second argument")
    if real.dtype is M.float16:  # (complex32, a dtype mindtorch does not have)
        if name == "polar":
            raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
        raise RuntimeError("complex: complex32 (ComplexHalf) tensors are not supported by "
                           "mindtorch")


def _complex(real, imag, check=True):
    M = _M()
    if check:
        _check_parts(real, imag, "complex")
    real, imag = M.broadcast_tensors(real, imag)
    # the result keeps the inputs' layout, as PyTorch's elementwise kernels (its dims
    # ordered by the first input telling them apart)
    from ..._strides import stride_order
    perm = stride_order(real._shape, real._stride, imag._stride)[::-1]  # outermost first
    if perm != sorted(perm):
        real, imag = real.permute(perm), imag.permute(perm)
    # stacking keeps inf and nan parts intact (real + 1j * imag would turn 0 * inf into nan)
    result = M.view_as_complex(M.stack((real, imag), -1)).clone()
    if perm != sorted(perm):
        result = result.permute(sorted(range(len(perm)), key=perm.__getitem__))
    return result


def _polar(abs, angle):
    _check_parts(abs, angle, "polar")
    return _complex(abs * angle.cos(), abs * angle.sin(), check=False)


def _frexp_check(self):
    if not self.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")


def frexp_meta(self):
    """(mantissa, exponent) shapes and dtypes, for every backend."""
    _frexp_check(self)
    M = _M()
    return (self.shape, self.dtype), (self.shape, M.int32)


def _frexp_public(binding):
    """frexp(input, *, out=(mantissa, exponent)) with PyTorch's dtype checks of out."""
    def frexp(*args, out=None, **kwargs):
        if out is None:
            return binding(*args, **kwargs)
        from ..dispatch import write_out
        from .sorting import _tuple_out
        ret = _tuple_out("frexp", ["mantissa", "exponent"], out, args, kwargs)
        mantissa, exponent = binding(*args, **kwargs)
        if out[0].dtype is not mantissa.dtype:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype "
                               f"{_type_name(mantissa.dtype).lower()} but got "
                               f"{_type_name(out[0].dtype).lower()}")
        if out[1].dtype is not _M().int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got "
                               f"{_type_name(out[1].dtype).lower()}")
        op = OPS["frexp"]
        return ret(write_out(op, out[0], mantissa), write_out(op, out[1], exponent))
    return frexp


def _holds(t):
    """A 0-dim bool tensor's value, for PyTorch's data-dependent checks (not made on
    devices without data: meta)."""
    return t.device.type == "meta" or bool(t.item())


def _check_weights(name, w, n, integral):
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.dim()} dimensions")
    if integral and (w.dtype.is_floating_point or w.dtype.is_complex or
                     w.dtype is _M().bool) or not integral and not w.dtype.is_floating_point:
        kind = "integral" if integral else "floating point"
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_type_name(w.dtype)} dtype")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if n and not _holds(w.min() >= 0):  # (a NaN weight too)
        raise RuntimeError(f"cov(): {name} cannot be negative")


def _cov(input, correction=1, fweights=None, aweights=None):
    """PyTorch's cov (Correlation.cpp), corner cases included."""
    M = _M()
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.dim()} dimensions")
    if input.dtype is M.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, n, True)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, n, False)
        w = aweights if w is None else w * aweights
    total = w.sum() if w is not None else M.tensor(n, device=x.device)
    if w is not None and not _holds(total != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / total
    if w is None:
        norm = M.tensor(n - correction, device=x.device)
    elif correction == 0:
        norm = total
    elif aweights is None:
        norm = total - correction
    elif fweights is None and n == 1 and correction == 1:
        norm = M.tensor(0, device=x.device)
    else:
        norm = total - correction * (w * aweights).sum() / total
    if norm.device.type != "meta" and bool((norm <= 0).item()):
        import warnings

        from .reduction import _caller_level
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the number of observations.", UserWarning,
                      stacklevel=_caller_level())
        norm = M.zeros_like(norm)
    if n == 1 and (fweights is None) != (aweights is None):
        # one observation, one kind of weights: input - avg is exactly zero
        x = M.zeros_like(x if x.dtype.is_floating_point or x.dtype.is_complex else
                         x.to(M.float32))
    else:
        x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t().conj())
    if c.dtype.is_complex:  # a Hermitian product: its diagonal is real (PyTorch's BLAS
        # gives exact zeros there; a fused multiply-add can leave rounding)
        c = M.complex(c.real, c.imag.tril(-1) + c.imag.triu(1))
    return M.true_divide(c, norm).squeeze()


def _corrcoef(input):
    M = _M()
    if input.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {input.dim()} dimensions")
    c = _cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = d.real.sqrt() if d.dtype.is_complex else d.sqrt()
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    if c.dtype.is_complex:
        return M.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


def _integration_checks(name, y, x, dx):
    """PyTorch's refusals of bool samples and of a bool/complex dx."""
    M = _M()
    if x is None and y.dtype is M.bool:
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if x is not None and M.bool in (y.dtype, x.dtype):
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not "
                           f"supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


def _pairs(t, dim):
    """(t[:-1], t[1:]) along dim (both empty when dim is)."""
    n = t.shape[dim]
    return t.narrow(dim, 0, max(n - 1, 0)), t.narrow(dim, min(1, n), max(n - 1, 0))


def _spacing(name, y, x, dim):
    """x's differences along dim: a 1-d x lies along dim, a shorter x is padded in front
    (broadcast with y's pairs only after the differences, as NumPy and PyTorch do)."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.shape[0]
        x = x.view(shape)
    elif x.dim() < y.dim():
        x = x.view((1,) * (y.dim() - x.dim()) + tuple(x.shape))
    left, right = _pairs(x, dim)
    return right - left


# PyTorch's arithmetic (and so its dtypes and integer wrap-around): the samples are summed
# in their own dtype; a number dx uses sum(y) - (y[0] + y[-1]) / 2
def _trapezoid(y, x=None, dx=None, dim=-1):
    if y.shape[dim] == 0:  # zeros of y's dtype, as NumPy's empty integral
        shape = list(y.shape)
        del shape[dim]
        return y.new_zeros(shape)
    _integration_checks("trapezoid", y, x, dx)
    if x is None:
        ends = y.select(dim, 0) + y.select(dim, -1)
        return (y.sum(dim) - ends * 0.5) * float(1 if dx is None else dx)
    left, right = _pairs(y, dim)
    return ((left + right) * _spacing("trapezoid", y, x, dim)).sum(dim) / 2.0


def _cumulative_trapezoid(y, x=None, dx=None, dim=-1):
    _integration_checks("cumulative_trapezoid", y, x, dx)
    left, right = _pairs(y, dim)
    if x is None:
        return (float(1 if dx is None else dx) / 2.0 * (left + right)).cumsum(dim)
    return ((left + right) * _spacing("cumulative_trapezoid", y, x, dim)).cumsum(dim) / 2.0


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
        y = args[0] if args else kwargs.get("y")
        if name == "cumulative_trapezoid" and x is None and getattr(y, "dtype", None) is \
                _M().bool:  # (PyTorch checks this before dim)
            _integration_checks(name, y, None, None)
        return args, kwargs
    return route


def _check_renorm(self, p, maxnorm):
    """renorm's checks, in PyTorch's order (all before dim is wrapped)."""
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if not maxnorm >= 0:  # (NaN too)
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    if self.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.dim()} "
                           f"dimensions")


def _renorm_route(args, kwargs):
    """renorm's checks before the binding wraps dim (PyTorch checks them first)."""
    import numbers
    names = ("self", "p", "dim", "maxnorm")
    values = dict(zip(names, args))
    values.update((k, v) for k, v in kwargs.items() if k in names)
    self = values.get("self", kwargs.get("input"))
    p, maxnorm = values.get("p"), values.get("maxnorm")
    if isinstance(self, _M().Tensor) and all(isinstance(v, numbers.Number)
                                             for v in (p, maxnorm)):
        _check_renorm(self, p, maxnorm)
    return args, kwargs


def _renorm(self, p, dim, maxnorm):
    M = _M()
    _check_renorm(self, p, maxnorm)
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(self.dtype)}")
    others = tuple(d for d in range(self.dim()) if d != dim)

    def norm(x):  # (PyTorch's vector norm: p = inf / -inf / 0 too)
        return M.linalg.vector_norm(x, p, others, keepdim=True) if others else x.abs()
    big = norm(self.detach()) > maxnorm
    # (the norm of the slices left alone is not differentiated: PyTorch's formula passes
    # their gradient through, where a zero slice's norm would give NaN)
    factor = M.where(big, maxnorm / (norm(M.where(big, self, 1.0)) + 1e-7), 1.0)
    return self * factor.to(self.dtype)


def _unravel_index(indices, shape):
    M = _M()
    if not isinstance(indices, M.Tensor):
        indices = M.as_tensor(indices)
    if indices.dtype.is_floating_point or indices.dtype.is_complex or \
            indices.dtype is M.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    indices = indices.to(M.int64)  # (PyTorch computes, and answers, in int64)
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
        if self.dtype is _M().bool and self.dim() and self.numel():  # (no bool kernels)
            raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
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
    overload(define("frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)", out=True),
             _frexp_public)
    define("cov(Tensor self, *, int correction=1, Tensor? fweights=None, "
           "Tensor? aweights=None) -> Tensor", decomposition=_cov)
    define("corrcoef(Tensor self) -> Tensor", decomposition=_corrcoef)
    for name, fn in (("trapezoid", _trapezoid), ("cumulative_trapezoid", _cumulative_trapezoid)):
        route_overloads(define(f"{name}(Tensor y, Tensor? x=None, *, Scalar? dx=None, "
                               "int dim=-1) -> Tensor", method=False, decomposition=fn),
                        _route_integration(name))
    define("trapz(Tensor y, Tensor? x=None, *, float? dx=None, int dim=-1) -> Tensor",
           method=False, decomposition=_trapezoid)
    route_overloads(define("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor",
                           out=True, decomposition=_renorm), _renorm_route)
    route_overloads(define("renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) -> "
                           "Tensor(a!)", function=False, tags=("inplace",),
                           decomposition=inplace_via("renorm")), _renorm_route)
    define("vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", method=False,
           decomposition=_vander)
    define("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)",
           function=False, tags=("inplace",), decomposition=_fill_diagonal_)
    for name in ("cumsum", "cumprod"):
        define(f"{name}_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
               function=False, tags=("inplace",), decomposition=_inplace_scan(name))


_declare()


def _unravel_public(indices, shape):
    if isinstance(shape, int):
        shape = (shape,)
    elif isinstance(shape, (list, tuple)):  # (torch.Size is a tuple; tensors are refused)
        bad = next((s for s in shape if not isinstance(s, int)), None)
        if bad is not None:
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                            f"{type(bad)}".replace("mindtorch", "torch"))
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got "
                        f"{type(shape)}".replace("mindtorch", "torch"))
    return _unravel_index(indices, tuple(shape))


def _derivatives():
    # mantissa = self / 2 ** exponent, the exponent piecewise constant
    derivative(OPS["frexp"], self=lambda grad, results: grad / results[1].exp2())
    # one node each (ComplexBackward0 / PolarBackward0, not their decompositions' last op);
    # real inputs of a complex output: the real part of grad * conj(d out / d input)
    derivative(OPS["complex"], real=lambda grad: grad.real, imag=lambda grad: grad.imag)
    # (PyTorch's: sgn(result) for exp(i angle), so abs's gradient is 0 where abs is 0)
    derivative(OPS["polar"], abs=lambda grad, result: (grad * result.sgn().conj()).real,
               angle=lambda grad, result: (grad * (result * 1j).conj()).real)


_derivatives()
# functions that are not ops: they compute on metadata or return Python values
unravel_index = _unravel_public
is_nonzero = _is_nonzero


def is_same_size(input, other):
    if not isinstance(other, _M().Tensor):
        raise TypeError(f"is_same_size(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    return input.shape == other.shape


__all__ = ["OPS", "frexp_meta", "is_nonzero", "is_same_size", "unravel_index"]
