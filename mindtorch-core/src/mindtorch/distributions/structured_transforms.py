"""The transforms that act on whole events (vectors, matrices, slices): softmax and
stick-breaking onto the simplex, the maps onto Cholesky factors, positive definite and
correlation matrices, reshaping, and the combinators (IndependentTransform, CatTransform,
StackTransform) plus the cdf of a distribution as a transform.  Exported through
torch.distributions.transforms."""
import math

from .. import Size
from . import constraints
from .transforms import Transform
from .utils import _sum_rightmost, tril_matrix_to_vec, vec_to_tril_matrix


def _m():
    import mindtorch
    return mindtorch


def _at_least_vector(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


class _Stateless(Transform):
    """A transform without parameters: instances of one class are equal."""

    def __eq__(self, other):
        return isinstance(other, type(self))


class SoftmaxTransform(_Stateless):
    """x -> softmax(x) on the last dim (not bijective; the inverse is log)."""
    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        _at_least_vector(shape)
        return shape

    inverse_shape = forward_shape


def _clipped_sigmoid(x):
    fi = _m().finfo(x.dtype)
    return x.sigmoid().clamp(min=fi.tiny, max=1.0 - fi.eps)


def _stick_offset(x, k):
    """log of k, k-1, ..., (k - n + 1) for the n = x.shape[-1] stick pieces (centres the
    breaks at the uniform simplex point)."""
    return (k - x.new_ones(x.shape[-1]).cumsum(-1)).log()


class StickBreakingTransform(_Stateless):
    """R^n -> the simplex in R^(n+1): each coordinate breaks off a sigmoid fraction of
    the stick left."""
    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        F = _m().nn.functional
        z = _clipped_sigmoid(x - _stick_offset(x, x.shape[-1] + 1))
        remaining = (1 - z).cumprod(-1)
        return F.pad(z, [0, 1], value=1) * F.pad(remaining, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        left = (1 - y_crop.cumsum(-1)).clamp(min=_m().finfo(y.dtype).tiny)
        return y_crop.log() - left.log() + _stick_offset(y_crop, y.shape[-1])

    def log_abs_det_jacobian(self, x, y):
        x = x - _stick_offset(x, x.shape[-1] + 1)
        return (-x + _m().nn.functional.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        _at_least_vector(shape)
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        _at_least_vector(shape)
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(_Stateless):
    """An unconstrained square matrix -> lower triangular with a positive (exp) diagonal."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(_Stateless):
    """An unconstrained square matrix -> L Lᵀ for L its LowerCholeskyTransform."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        L = LowerCholeskyTransform()(x)
        return L @ L.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(_m().linalg.cholesky(y))


class CorrCholeskyTransform(Transform):
    """R^(D(D-1)/2) -> Cholesky factors of D x D correlation matrices: tanh gives partial
    correlations in (-1, 1), placed below the diagonal, and each row is completed to unit
    norm by stick-breaking over squared lengths."""
    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        M = _m()
        eps = M.finfo(x.dtype).eps
        r = vec_to_tril_matrix(x.tanh().clamp(min=-1 + eps, max=1 - eps), diag=-1)
        left = (1 - r ** 2).sqrt().cumprod(-1)  # the row's length still unassigned
        r = r + M.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * M.nn.functional.pad(left[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        F = _m().nn.functional
        left = F.pad((1 - (y * y).cumsum(-1))[..., :-1], [1, 0], value=1)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(left, diag=-1).sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        F = _m().nn.functional
        left = tril_matrix_to_vec(1 - (y * y).cumsum(-1), diag=-2)
        stick_breaking = 0.5 * left.log().sum(-1)
        tanh = -2 * (x + F.softplus(-2 * x) - math.log(2.0)).sum(-1)
        return stick_breaking + tanh

    def forward_shape(self, shape):
        _at_least_vector(shape)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (d, d)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)


class ReshapeTransform(Transform):
    """Reshapes the rightmost in_shape dims of an event to out_shape."""
    bijective = True

    def __init__(self, in_shape, out_shape, cache_size=0):
        self.in_shape, self.out_shape = Size(in_shape), Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    domain = property(lambda self: constraints.independent(constraints.real,
                                                           len(self.in_shape)))
    codomain = property(lambda self: constraints.independent(constraints.real,
                                                             len(self.out_shape)))

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else \
            ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        return x.reshape(x.shape[:x.dim() - len(self.in_shape)] + self.out_shape)

    def _inverse(self, y):
        return y.reshape(y.shape[:y.dim() - len(self.out_shape)] + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(x.shape[:x.dim() - len(self.in_shape)])

    @staticmethod
    def _swap(shape, old, new):
        if len(shape) < len(old):
            raise ValueError("Too few dimensions on input")
        cut = len(shape) - len(old)
        if tuple(shape[cut:]) != tuple(old):
            raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {old}")
        return shape[:cut] + new

    def forward_shape(self, shape):
        return self._swap(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return self._swap(shape, self.out_shape, self.in_shape)


class IndependentTransform(Transform):
    """base_transform with reinterpreted_batch_ndims more dims in its events (their
    log-determinants summed)."""

    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size)

    domain = property(lambda self: constraints.independent(self.base_transform.domain,
                                                           self.reinterpreted_batch_ndims))
    codomain = property(lambda self: constraints.independent(
        self.base_transform.codomain, self.reinterpreted_batch_ndims))
    bijective = property(lambda self: self.base_transform.bijective)
    sign = property(lambda self: self.base_transform.sign)

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return _sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y),
                              self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)


class CatTransform(Transform):
    """Each transform of tseq on its slice (of `lengths`, default 1) along dim."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("tseq must be a sequence of Transforms")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError("lengths must match the transforms")
        self.dim = dim

    event_dim = property(lambda self: max(t.event_dim for t in self.transforms))
    length = property(lambda self: sum(self.lengths))
    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = property(lambda self: constraints.cat([t.domain for t in self.transforms],
                                                   self.dim, self.lengths))
    codomain = property(lambda self: constraints.cat([t.codomain for t in self.transforms],
                                                     self.dim, self.lengths))

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else \
            CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _slices(self, *values):
        if not -values[0].dim() <= self.dim < values[0].dim():
            raise AssertionError("dim out of range")
        if values[0].size(self.dim) != self.length:
            raise AssertionError("the input's size along dim must be the sum of lengths")
        start = 0
        for transform, length in zip(self.transforms, self.lengths):
            yield (transform,) + tuple(v.narrow(self.dim, start, length) for v in values)
            start += length

    def _call(self, x):
        return _m().cat([t(part) for t, part in self._slices(x)], dim=self.dim)

    def _inverse(self, y):
        return _m().cat([t.inv(part) for t, part in self._slices(y)], dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        parts = []
        for t, xs, ys in self._slices(x, y):
            lad = t.log_abs_det_jacobian(xs, ys)
            parts.append(_sum_rightmost(lad, self.event_dim - t.event_dim))
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        # the slices' determinants side by side, or summed when dim is inside the event
        return _m().cat(parts, dim=dim) if dim < 0 else sum(parts)


class StackTransform(Transform):
    """Each transform of tseq on its index along dim."""

    def __init__(self, tseq, dim=0, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("tseq must be a sequence of Transforms")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms, self.dim = list(tseq), dim

    bijective = property(lambda self: all(t.bijective for t in self.transforms))
    domain = property(lambda self: constraints.stack([t.domain for t in self.transforms],
                                                     self.dim))
    codomain = property(lambda self: constraints.stack([t.codomain for t in self.transforms],
                                                       self.dim))

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else \
            StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _check(self, z):
        if not -z.dim() <= self.dim < z.dim():
            raise AssertionError("dim out of range")
        if z.size(self.dim) != len(self.transforms):
            raise AssertionError("the input's size along dim must be the number of transforms")

    def _call(self, x):
        self._check(x)
        return _m().stack([t(part) for part, t in zip(self._slice(x), self.transforms)],
                          dim=self.dim)

    def _inverse(self, y):
        self._check(y)
        return _m().stack([t.inv(part) for part, t in zip(self._slice(y), self.transforms)],
                          dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x)
        self._check(y)
        return _m().stack([t.log_abs_det_jacobian(a, b) for a, b, t in
                           zip(self._slice(x), self._slice(y), self.transforms)], dim=self.dim)


class CumulativeDistributionTransform(Transform):
    """x -> distribution.cdf(x) (onto the unit interval; its log-derivative is the
    distribution's log_prob)."""
    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    domain = property(lambda self: self.distribution.support)

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else \
            CumulativeDistributionTransform(self.distribution, cache_size=cache_size)

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)
