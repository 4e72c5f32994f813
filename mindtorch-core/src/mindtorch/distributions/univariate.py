"""NegativeBinomial (a Gamma-Poisson mixture), FisherSnedecor (a ratio of scaled Gammas),
GeneralizedPareto (sampled through its inverse cdf) and ContinuousBernoulli (the
normalised Bernoulli density on [0, 1]), with PyTorch's parameters, formulas and op
calls, so seeded samples equal PyTorch's."""
import math

from . import constraints
from .distribution import _EMPTY, Distribution
from .exp_family import ExponentialFamily
from .gamma import Gamma
from .utils import (
    _BinaryParam,
    _one_of,
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
)

__all__ = ["ContinuousBernoulli", "FisherSnedecor", "GeneralizedPareto", "NegativeBinomial"]


def _m():
    import mindtorch
    return mindtorch


class NegativeBinomial(_BinaryParam, Distribution):
    """The number of successes before total_count failures (success probability probs)."""
    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(self._param.size(), validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))

    param_shape = property(lambda self: self._param.size())
    mean = property(lambda self: self.total_count * self.logits.exp())
    mode = property(lambda self: ((self.total_count - 1) * self.logits.exp()).floor()
                    .clamp(min=0.0))
    variance = property(lambda self: self.mean / (-self.logits).sigmoid())

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=(-self.logits).exp(),
                     validate_args=False)

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        with M.no_grad():
            return M.poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        logsigmoid, n = M.nn.functional.logsigmoid, self.total_count
        unnormalized = n * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        normalization = -M.lgamma(n + value) + M.lgamma(1.0 + value) + M.lgamma(n)
        normalization = normalization.masked_fill(n + value == 0.0, 0.0)
        return unnormalized - normalization


class FisherSnedecor(Distribution):
    """F(df1, df2): (X1 / df1) / (X2 / df2) for chi-squared X1, X2, drawn as the ratio
    of Gamma(df/2, df) variables."""
    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        super().__init__(self.df1.size(), validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)

    @property
    def mean(self):
        df2 = self.df2
        return _m().where(df2 > 2, df2 / (df2 - 2), math.nan)

    @property
    def mode(self):
        df1, df2 = self.df1, self.df2
        return _m().where(df1 > 2, (df1 - 2) / df1 * df2 / (df2 + 2), math.nan)

    @property
    def variance(self):
        df1, df2 = self.df1, self.df2
        finite = 2 * df2.pow(2) * (df1 + df2 - 2) / (df1 * (df2 - 2).pow(2) * (df2 - 4))
        return _m().where(df2 > 4, finite, math.nan)

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = _m().finfo(x2.dtype).tiny
        x2.clamp_(min=tiny)
        y = x1 / x2
        y.clamp_(min=tiny)
        return y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        half1, half2 = self.df1 * 0.5, self.df2 * 0.5
        ratio = self.df1 / self.df2
        log_beta = (half1 + half2).lgamma() - half1.lgamma() - half2.lgamma()
        return (log_beta + half1 * ratio.log() + (half1 - 1) * value.log()
                - (half1 + half2) * (ratio * value).log1p())


class GeneralizedPareto(Distribution):
    """Exceedances over loc: survival (1 + c z)^(-1/c), z = (x - loc) / scale (the
    exponential tail exp(-z) at c = 0)."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(self.loc.size(), validate_args=validate_args)

    def _safe_concentration(self):
        """(c == 0 where c is close to 0, c elsewhere with the zeros replaced by 1)"""
        M = _m()
        c = self.concentration
        zero = M.isclose(c, M.zeros_like(c))
        return zero, M.where(zero, M.ones_like(c), c)

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        return self.icdf(_m().rand(shape, dtype=self.loc.dtype, device=self.loc.device))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        z = (value - self.loc) / self.scale
        zero, c = self._safe_concentration()
        y = 1 / c + M.ones_like(z)
        nonzero = M.where(y == 0, y, y * (c * z).log1p())
        return -self.scale.log() - M.where(zero, z, nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        zero, c = self._safe_concentration()
        return _m().where(zero, -z, -(c * z).log1p() / c)

    def log_cdf(self, value):
        return (-self.log_survival_function(value).exp()).log1p()

    def cdf(self, value):
        return self.log_cdf(value).exp()

    def icdf(self, value):
        zero, c = self._safe_concentration()
        log_u = (-value).log1p()
        return _m().where(zero, self.loc - self.scale * log_u,
                          self.loc + self.scale / c * (-c * log_u).expm1())

    @property
    def mean(self):
        c = self.concentration
        valid = c < 1
        result = self.loc + self.scale / (1 - _m().where(valid, c, 0.5))
        return _m().where(valid, result, math.nan)

    mode = property(lambda self: self.loc)

    @property
    def variance(self):
        c = self.concentration
        valid = c < 0.5
        c = _m().where(valid, c, 0.25)
        return _m().where(valid, self.scale ** 2 / ((1 - c) ** 2 * (1 - 2 * c)), math.nan)

    def entropy(self):
        return (self.scale.log() + self.concentration + 1).broadcast_to(self._batch_shape)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = _m().where(self.concentration < 0, lower - self.scale / self.concentration,
                           math.inf)
        return constraints.interval(lower, upper)


class ContinuousBernoulli(_BinaryParam, ExponentialFamily):
    """Density ∝ p^x (1 - p)^(1 - x) on [0, 1] (Loaiza-Ganem & Cunningham 2019); near
    p = 1/2, inside `lims`, Taylor expansions replace the formulas that divide by
    2p - 1."""
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            if validate_args is not None and \
                    not bool(self.arg_constraints["probs"].check(self.probs).all()):
                raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        self._lims = lims
        super().__init__(self._param.size(), validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._lims = self._lims
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))

    @lazy_property
    def probs(self):  # (clamped away from 0 and 1, unlike _BinaryParam's)
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    param_shape = property(lambda self: self._param.size())

    def _outside_unstable_region(self):
        return (self.probs <= self._lims[0]) | (self.probs > self._lims[1])

    def _cut_probs(self):
        return _m().where(self._outside_unstable_region(), self.probs,
                          self._lims[0] * _m().ones_like(self.probs))

    def _cont_bern_log_norm(self):
        """log C(p), C(p) = 2 atanh(1 - 2p) / (1 - 2p)."""
        M = _m()
        p = self._cut_probs()
        below = M.where(p <= 0.5, p, M.zeros_like(p))
        above = M.where(p >= 0.5, p, M.ones_like(p))
        log_norm = ((-p).log1p() - p.log()).abs().log() - M.where(
            p <= 0.5, (-2.0 * below).log1p(), (2.0 * above - 1.0).log())
        x = (self.probs - 0.5).pow(2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return M.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        exact = p / (2.0 * p - 1.0) + 1.0 / ((-p).log1p() - p.log())
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x.pow(2)) * x
        return _m().where(self._outside_unstable_region(), exact, taylor)

    stddev = property(lambda self: self.variance.sqrt())

    @property
    def variance(self):
        p = self._cut_probs()
        exact = (p * (p - 1.0) / (1.0 - 2.0 * p).pow(2)
                 + 1.0 / ((-p).log1p() - p.log()).pow(2))
        x = (self.probs - 0.5).pow(2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _m().where(self._outside_unstable_region(), exact, taylor)

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        u = M.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype,
                   device=self.probs.device)
        with M.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=_EMPTY):
        M = _m()
        u = M.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype,
                   device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = _m().nn.functional.binary_cross_entropy_with_logits
        return -bce(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        p = self._cut_probs()
        cdfs = (p.pow(value) * (1.0 - p).pow(1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        unbounded = M.where(self._outside_unstable_region(), cdfs, value)
        return M.where(value <= 0.0, M.zeros_like(value),
                       M.where(value >= 1.0, M.ones_like(value), unbounded))

    def icdf(self, value):
        p = self._cut_probs()
        exact = (((-p + value * (2.0 * p - 1.0)).log1p() - (-p).log1p())
                 / (p.log() - (-p).log1p()))
        return _m().where(self._outside_unstable_region(), exact, value)

    def entropy(self):
        log_q, log_p = (-self.probs).log1p(), self.probs.log()
        return self.mean * (log_q - log_p) - self._cont_bern_log_norm() - log_q

    _natural_params = property(lambda self: (self.logits,))

    def _log_normalizer(self, x):
        """log C as a function of the natural parameter (the logit)."""
        M = _m()
        lo, hi = self._lims[0] - 0.5, self._lims[1] - 0.5
        outside = (x <= lo) | (x > hi)
        cut = M.where(outside, x, lo * M.ones_like(x))
        log_norm = cut.expm1().abs().log() - cut.abs().log()
        taylor = 0.5 * x + x.pow(2) / 24.0 - x.pow(4) / 2880.0
        return M.where(outside, log_norm, taylor)
