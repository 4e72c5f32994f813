"""KL(p || q) for p and q of different families (registered with kl.register_kl):
closed forms where q's support covers p's, infinity where it cannot (q's support is
bounded or one-sided and p's is not)."""
import math

from .bernoulli import Bernoulli
from .extra import Binomial
from .gamma import Beta, Gamma, Poisson
from .kl import register_kl
from .more import Exponential, Laplace
from .normal import Normal
from .transformed_families import Gumbel, Pareto
from .uniform import Uniform
from .univariate import ContinuousBernoulli
from .utils import euler_constant


def _m():
    import mindtorch
    return mindtorch


def _x_log_x(x):
    return _m().special.xlogy(x, x)  # (0 at x = 0)


def _register_infinite(p_type, param, q_types):
    """KL(p || q) = inf: q gives zero density where p has mass."""
    def infinite(p, q):
        return _m().full_like(getattr(p, param), math.inf)
    for q_type in q_types:
        register_kl(p_type, q_type)(infinite)


_BOUNDED = (Beta, ContinuousBernoulli, Pareto, Uniform)  # supports inside an interval
_register_infinite(Beta, "concentration1", (Pareto,))
_register_infinite(ContinuousBernoulli, "probs", (Pareto,))
_register_infinite(Exponential, "rate", (Beta, ContinuousBernoulli, Pareto, Uniform))
_register_infinite(Gamma, "concentration", _BOUNDED)
_register_infinite(Gumbel, "loc", _BOUNDED + (Exponential, Gamma))
_register_infinite(Laplace, "loc", _BOUNDED + (Exponential, Gamma))
_register_infinite(Normal, "loc", _BOUNDED + (Exponential, Gamma))
_register_infinite(Pareto, "scale", (Beta, ContinuousBernoulli, Uniform))
_register_infinite(Poisson, "rate", (Bernoulli, Binomial))


def _outside(result, mask):
    return result.masked_fill(mask, math.inf)


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


def _minus_entropy_cb(p, q):
    """-H(p) - E_p[log q] for q continuous Bernoulli."""
    return -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return _minus_entropy_cb(p, q)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    a, b = p.concentration1, p.concentration0
    return -p.entropy() - q.rate.log() + q.rate * (a / (a + b))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    a, b, c = p.concentration1, p.concentration0, q.concentration
    return (-p.entropy() + c.lgamma() - c * q.rate.log()
            - (c - 1) * (a.digamma() - (a + b).digamma()) + q.rate * a / (a + b))


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    a, b = p.concentration1, p.concentration0
    mean = a / (a + b)
    var = q.scale.pow(2)
    second = (mean * (1 - mean) / (a + b + 1) + mean.pow(2)) * 0.5
    return (-p.entropy() + 0.5 * (var * 2 * math.pi).log()
            + (second - q.loc * mean + q.loc.pow(2) * 0.5) / var)


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    support = p.support
    return _outside(result, (q.low > support.lower_bound) | (q.high < support.upper_bound))


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t2 = 0.5 * (math.log(2.0 * math.pi) + (q.loc / q.scale).square()) + q.scale.log()
    t3 = (p.variance + p.mean.square() - 2.0 * q.loc * p.mean) / (2.0 * q.scale.square())
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    support = p.support
    return _outside(result, (q.low >= support.lower_bound) | (q.high <= support.upper_bound))


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    c = q.concentration
    return (-c * ratio.log() + ratio + c.lgamma() + c * euler_constant
            - (1 + euler_constant))


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    return prod.log() - 1 - ratio + ratio.exp() * prod / (prod + 1) + prod.reciprocal()


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var = q.scale.pow(2)
    rate_sq = p.rate.pow(2)
    return (0.5 * (rate_sq * var * 2 * math.pi).log() - 1
            + (rate_sq.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5) / var)


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    c = p.concentration
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    t1 = (c - 1) * c.digamma() - c.lgamma() - c
    t2 = prod.log() + c / prod
    t3 = ratio.exp() * (1 + prod.reciprocal()).pow(-c) - ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    c = p.concentration
    var = q.scale.pow(2)
    rate_sq = p.rate.pow(2)
    t1 = 0.5 * (rate_sq * var * 2 * math.pi).log() - c - c.lgamma()
    t2 = 0.5 * (c.pow(2) + c) / rate_sq
    return t1 + (c - 1) * c.digamma() + (t2 - q.loc * c / p.rate + 0.5 * q.loc.pow(2)) / var


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    ratio = p.scale / q.scale
    t1 = (ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * euler_constant - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var = q.scale.pow(2)
    ratio = p.scale.pow(2) / var
    t1 = 0.5 * (2 * ratio / math.pi).log()
    return (-t1 + ratio + (0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)) / var
            - 1)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_ratio = p.loc / q.scale
    var_ratio = (p.scale / q.scale).pow(2)
    loc_ratio = q.loc / q.scale
    t3 = (-mean_ratio + 0.5 * var_ratio + loc_ratio).exp()
    return (-var_ratio.log() * 0.5 + mean_ratio - loc_ratio + t3
            - (0.5 * (1 + math.log(2 * math.pi))))


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    diff = p.loc - q.loc
    scaled = diff / p.scale
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * scaled.pow(2)).exp()
    t3 = diff * (math.sqrt(0.5) * scaled).erf()
    return (-(p.scale / q.scale).log() + (t2 + t3) / q.scale
            - (0.5 * (1 + math.log(0.5 * math.pi))))


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    prod = p.scale * q.rate
    a = p.alpha
    result = (a / prod).log() - a.reciprocal() + a * prod / (a - 1) - 1
    return _outside(result, a <= 1)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    a, c = p.alpha, q.concentration
    common = p.scale.log() + a.reciprocal()
    result = (a.log() - common + c.lgamma() - c * q.rate.log() + (1 - c) * common
              + q.rate * a * p.scale / (a - 1) - 1)
    return _outside(result, a <= 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    a = p.alpha
    var2 = 2 * q.scale.pow(2)
    common = p.scale / (a - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * a / p.scale).log()
    t3 = a * common.pow(2) / (a - 2)
    t4 = (a * common - q.loc).pow(2)
    return _outside(t1 - a.reciprocal() + (t3 + t4) / var2 - 1, a <= 2)


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    width = p.high - p.low
    a, b = q.concentration1, q.concentration0
    t2 = (a - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (b - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = a.lgamma() + b.lgamma() - (a + b).lgamma()
    support = q.support
    return _outside(t3 + t4 - width.log() - t2,
                    (p.high > support.upper_bound) | (p.low < support.lower_bound))


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    support = q.support
    return _outside(_minus_entropy_cb(p, q),
                    (p.high >= support.upper_bound) | (p.low <= support.lower_bound))


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    return _outside(result, p.low < q.support.lower_bound)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    width = p.high - p.low
    c = q.concentration
    t3 = (1 - c) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = (-width.log() + c.lgamma() - c * q.rate.log() + t3
              + q.rate * (p.high + p.low) / 2)
    return _outside(result, p.low < q.support.lower_bound)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    common = q.scale / (p.high - p.low)
    high = (p.high - q.loc) / q.scale
    low = (p.low - q.loc) / q.scale
    return common.log() + 0.5 * (high + low) - common * ((-high).exp() - (-low).exp())


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (width.pow(2) / 12 + t3) / q.scale.pow(2)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    return _outside(t2 * (q.alpha + 1) - t1, p.low < q.support.lower_bound)
