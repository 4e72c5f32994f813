"""Exponential, Laplace, Independent and MultivariateNormal, with PyTorch's parameters,
shapes, formulas and reprs (samples from mindtorch's generator)."""
import math

from . import constraints
from .distribution import _EMPTY, Distribution, _lazy_property, broadcast_all
from .exp_family import ExponentialFamily


def _m():
    import mindtorch
    return mindtorch


class Exponential(ExponentialFamily):
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (-self.rate,))

    def _log_normalizer(self, x):
        return -(-x).log()

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.size(), validate_args=validate_args)

    mean = property(lambda self: self.rate.reciprocal())
    mode = property(lambda self: _m().zeros_like(self.rate))
    stddev = property(lambda self: self.rate.reciprocal())
    variance = property(lambda self: self.rate.pow(-2))

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        return self.rate.new_empty(shape).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()


class Laplace(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.size(), validate_args=validate_args)

    mean = property(lambda self: self.loc)
    mode = property(lambda self: self.loc)
    variance = property(lambda self: 2 * self.scale.pow(2))
    stddev = property(lambda self: (2 ** 0.5) * self.scale)

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        eps = _m().finfo(self.loc.dtype).eps
        u = self.loc.new_empty(shape).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * \
            (-(value - self.loc).abs() / self.scale).expm1()

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()


def scale_tril_of(scale_tril, covariance_matrix, precision_matrix):
    """The Cholesky factor of a covariance given by one of its three spellings (the
    precision's through its inverse), as MultivariateNormal and Wishart keep it."""
    M = _m()
    if scale_tril is not None:
        return scale_tril
    if covariance_matrix is not None:
        return M.linalg.cholesky(covariance_matrix)
    return M.linalg.cholesky(M.cholesky_inverse(M.linalg.cholesky(precision_matrix)))


class ScaleTrilParams:
    """Mixin of MultivariateNormal and Wishart: the covariance's spellings not given,
    computed on first use from `_unbroadcasted_scale_tril` and expanded by `_square`."""

    @_lazy_property
    def scale_tril(self):
        return self._square(self._unbroadcasted_scale_tril)

    @_lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return self._square(L @ L.mT)

    @_lazy_property
    def precision_matrix(self):
        return self._square(_m().cholesky_inverse(self._unbroadcasted_scale_tril))


def _sum_rightmost(value, dim):
    return value.reshape(value.shape[:value.dim() - dim] + (-1,)).sum(-1) if dim else value


class Independent(Distribution):
    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        n = reinterpreted_batch_ndims
        if n > len(base_distribution.batch_shape):
            raise ValueError(f"Expected reinterpreted_batch_ndims <= "
                             f"len(base_distribution.batch_shape), actual {n} vs "
                             f"{len(base_distribution.batch_shape)}")
        self.base_dist, self.reinterpreted_batch_ndims = base_distribution, n
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = n + len(base_distribution.event_shape)
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:],
                         validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        n = self.reinterpreted_batch_ndims
        new.base_dist = self.base_dist.expand(batch_shape + self._event_shape[:n])
        new.reinterpreted_batch_ndims = n

    has_rsample = property(lambda self: self.base_dist.has_rsample)
    # (enumerating a product of several batch entries is not supported)
    has_enumerate_support = property(lambda self: self.reinterpreted_batch_ndims == 0 and
                                      self.base_dist.has_enumerate_support)

    def enumerate_support(self, expand=True):
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    @constraints.dependent_property
    def support(self):
        support, n = self.base_dist.support, self.reinterpreted_batch_ndims
        return constraints.independent(support, n) if n else support
    mean = property(lambda self: self.base_dist.mean)
    mode = property(lambda self: self.base_dist.mode)
    variance = property(lambda self: self.base_dist.variance)

    def sample(self, sample_shape=_EMPTY):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=_EMPTY):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


def _batch_mahalanobis_sq(L, x):
    """|L⁻¹ x|² for a lower-triangular L, both broadcast over their batch dims.  As
    PyTorch does, x's points are grouped by the factor they use, so that one triangular
    solve per factor takes all its points as columns (no copy of L per point); the
    result has PyTorch's layout (the transposed grouping, seen in its strides)."""
    M = _m()
    n = x.size(-1)
    shape = M.broadcast_shapes(L.shape[:-2], x.shape[:-1])
    if tuple(x.shape[:-1]) != tuple(shape):  # (L has batch dims x lacks)
        x = x.expand(tuple(shape) + (n,))
    n_outer = x.dim() - L.dim() + 1  # x's leading batch dims that L does not have
    n_inner = L.dim() - 2
    split = list(x.shape[:n_outer])
    for size_l, size_x in zip(L.shape[:-2], x.shape[n_outer:-1]):
        split += [size_x // size_l, size_l]  # (points sharing a factor, factor index)
    grouped_dims = list(range(n_outer, n_outer + 2 * n_inner))
    order = list(range(n_outer)) + grouped_dims[0::2] + grouped_dims[1::2]
    grouped = x.reshape(split + [n]).permute(order + [n_outer + 2 * n_inner])
    flat_L = L.reshape(-1, n, n)
    columns = grouped.reshape(-1, flat_L.size(0), n).permute(1, 2, 0)
    sq = M.linalg.solve_triangular(flat_L, columns, upper=False).pow(2).sum(-2).t()
    back = list(range(n_outer))
    for i in range(n_inner):
        back += [n_outer + i, n_outer + n_inner + i]
    return sq.reshape(grouped.shape[:-1]).permute(back).reshape(x.shape[:-1])


class MultivariateNormal(ScaleTrilParams, Distribution):
    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        M = _m()
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or "
                             "scale_tril may be specified.")
        (matrix,) = given
        if matrix.dim() < 2:
            name = "scale_tril matrix" if scale_tril is not None else (
                "covariance_matrix" if covariance_matrix is not None else "precision_matrix")
            raise ValueError(f"{name} must be at least two-dimensional, with optional "
                             f"leading batch dimensions")
        batch = M.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        square = batch + matrix.shape[-2:]
        if scale_tril is not None:
            self.scale_tril = scale_tril.expand(square)
        elif covariance_matrix is not None:
            self.covariance_matrix = covariance_matrix.expand(square)
        else:
            self.precision_matrix = precision_matrix.expand(square)
        self.loc = loc.expand(batch + (-1,))
        super().__init__(batch, self.loc.shape[-1:], validate_args=validate_args)
        self._unbroadcasted_scale_tril = scale_tril_of(scale_tril, covariance_matrix,
                                                       precision_matrix)

    def _expand_parts(self, new, batch_shape):
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril

    def _square(self, value):
        return value.expand(self._batch_shape + self._event_shape + self._event_shape)

    mean = property(lambda self: self.loc)
    mode = property(lambda self: self.loc)
    variance = property(lambda self: self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(
        self._batch_shape + self._event_shape))

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        eps = _m().randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        maha = _batch_mahalanobis_sq(self._unbroadcasted_scale_tril, value - self.loc)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + maha) - self._half_log_det()

    def entropy(self):
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h.expand(self._batch_shape) if len(self._batch_shape) else h
