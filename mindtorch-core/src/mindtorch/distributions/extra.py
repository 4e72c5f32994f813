"""Cauchy, StudentT, Chi2, Geometric, Binomial and Multinomial, with PyTorch's
parameters, formulas (log_prob, cdf/icdf, entropy, moments), supports and reprs (samples
from mindtorch's generator)."""
import math

from . import constraints
from .distribution import (
    _EMPTY,
    Distribution,
    broadcast_all,
)
from .gamma import Gamma
from .utils import _BinaryParam, _one_of


def _m():
    import mindtorch
    return mindtorch


def _full(like, value, shape=None):
    return _m().full(shape if shape is not None else like.shape, value, dtype=like.dtype,
                     device=like.device)


class Cauchy(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.size(), validate_args=validate_args)

    mean = property(lambda self: _full(self.loc, math.nan, self._extended_shape()))
    mode = property(lambda self: self.loc)
    variance = property(lambda self: _full(self.loc, math.inf, self._extended_shape()))

    def rsample(self, sample_shape=_EMPTY):
        eps = self.loc.new_empty(self._extended_shape(sample_shape)).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (-math.log(math.pi) - self.scale.log()
                - (((value - self.loc) / self.scale) ** 2).log1p())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _m().atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return _m().tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class Chi2(Gamma):
    arg_constraints = {"df": constraints.positive}
    _expand_params = ("concentration", "rate")

    def __init__(self, df, validate_args=None):
        concentration = 0.5 * broadcast_all(df)[0]  # (an integer df: floats, as PyTorch)
        super().__init__(concentration, _full(concentration, 0.5), validate_args=validate_args)

    df = property(lambda self: self.concentration * 2)


class StudentT(Distribution):
    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._chi2 = self._chi2.expand(batch_shape)

    @property
    def mean(self):
        return _m().where(self.df > 1, self.loc, math.nan)

    mode = property(lambda self: self.loc)

    @property
    def variance(self):
        M = _m()
        finite = self.scale.pow(2) * self.df / (self.df - 2)
        return M.where(self.df > 2, finite, M.where(self.df > 1, math.inf, math.nan))

    def rsample(self, sample_shape=_EMPTY):
        M = _m()
        shape = self._extended_shape(sample_shape)
        x = M.randn(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * (z / self.df).rsqrt())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + M.lgamma(0.5 * self.df) - M.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * (y ** 2.0 / self.df).log1p() - z

    def entropy(self):
        M = _m()
        lbeta = M.lgamma(0.5 * self.df) + math.lgamma(0.5) - M.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (M.digamma(0.5 * (self.df + 1))
                                                          - M.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)


class Geometric(_BinaryParam, Distribution):
    """The number of failures before the first success."""
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        super().__init__(self.probs.size() if probs is not None else self.logits.size(),
                         validate_args=validate_args)
        if self._validate_args and probs is not None:  # (PyTorch's check beyond [0, 1])
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(f"Expected parameter probs ({type(self.probs).__name__} of "
                                 f"shape {tuple(self.probs.shape)}) of distribution {self!r} "
                                 f"to be positive but found invalid values:\n"
                                 f"{self.probs.detach()[~valid]}")

    mean = property(lambda self: 1.0 / self.probs - 1.0)
    mode = property(lambda self: _m().zeros_like(self.probs))
    variance = property(lambda self: (1.0 / self.probs - 1.0) / self.probs)

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        # probs (lazily derived from logits) is first computed outside no_grad, as in
        # PyTorch, so that the cached value keeps its graph for log_prob
        tiny = M.finfo(self.probs.dtype).tiny
        with M.no_grad():
            u = self.probs.new_empty(self._extended_shape(sample_shape)).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = _m().where((probs == 1) & (value == 0), 0.0, probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        bce = _m().nn.functional.binary_cross_entropy_with_logits
        return bce(self.logits, self.probs, reduction="none") / self.probs


class Binomial(_BinaryParam, Distribution):
    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
            shape = self.probs.size()
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
            shape = self.logits.size()
        super().__init__(shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    mean = property(lambda self: self.total_count * self.probs)
    variance = property(lambda self: self.total_count * self.probs * (1 - self.probs))
    # (the parameter given: probs, else logits)
    _param = property(lambda self: self.__dict__.get("probs", self.__dict__.get("logits")))
    param_shape = property(lambda self: self._param.size())

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        with M.no_grad():
            shape = self._extended_shape(sample_shape)
            return M.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        logits = self.logits
        n = self.total_count
        clamped = (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
        normalize = n * clamped + n * (-logits.abs()).exp().log1p() - M.lgamma(n + 1)
        return value * logits - M.lgamma(value + 1) - M.lgamma(n - value + 1) - normalize

    def entropy(self):
        n = int(self.total_count.max().item())
        if not bool((self.total_count == n).all()):
            raise NotImplementedError("Inhomogeneous total count not supported by "
                                      "`entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        M = _m()
        n = int(self.total_count.max().item())
        if not bool((self.total_count == n).all()):
            raise NotImplementedError("Inhomogeneous total count not supported by "
                                      "`enumerate_support`.")
        values = M.arange(1 + n, dtype=self.probs.dtype if "probs" in self.__dict__
                          else self.logits.dtype, device=self.total_count.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values


class Multinomial(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        from .categorical import Categorical
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    probs = property(lambda self: self._categorical.probs)
    logits = property(lambda self: self._categorical.logits)
    param_shape = property(lambda self: self._categorical.param_shape)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    def _expand_parts(self, new, batch_shape):
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        new._binomial = self._binomial.expand(batch_shape + self._event_shape)
    mean = property(lambda self: self.probs * self.total_count)
    variance = property(lambda self: self.total_count * self.probs * (1 - self.probs))

    def sample(self, sample_shape=_EMPTY):
        from .. import Size
        M = _m()
        with M.no_grad():
            draws = self._categorical.sample(Size((self.total_count,) + tuple(sample_shape)))
            draws = draws.permute(tuple(range(1, draws.dim())) + (0,))
            counts = M.zeros(self._extended_shape(sample_shape), dtype=M.int64,
                             device=draws.device)
            counts.scatter_add_(-1, draws, M.ones_like(draws))
            return counts.to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        logits, value = broadcast_all(self.logits, value)
        logits = M.where((value == 0) & (logits == -math.inf), 0.0, logits)
        return (M.lgamma(value.sum(-1) + 1) - M.lgamma(value + 1).sum(-1)
                + (logits * value).sum(-1))

    def entropy(self):
        M = _m()
        n = M.tensor(self.total_count)  # (integer: lgamma(n + 1) in float32, as PyTorch)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = self._binomial.log_prob(support).exp()
        weights = M.lgamma(support + 1)
        return (n * self._categorical.entropy() - M.lgamma(n + 1)
                + (binomial_probs * weights).sum([0, -1]))
