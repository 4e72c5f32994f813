"""kl_divergence(p, q) and register_kl.  The function for a pair of types is the most
specific registered one (ordered by subclass, p's type first; a RuntimeWarning when the
order by q's type picks another), looked up once per pair of types.  This file holds
the registry and the pairs within one family; kl_cross.py the pairs across families."""
import functools
import math
import warnings

from .bernoulli import Bernoulli
from .categorical import Categorical
from .exp_family import ExponentialFamily
from .extra import Binomial, Cauchy, Geometric
from .gamma import Beta, Dirichlet, Gamma, Poisson
from .matrix import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
    _batch_mahalanobis_sq,
)
from .more import Exponential, Independent, Laplace, MultivariateNormal
from .normal import Normal
from .transformed import OneHotCategorical, TransformedDistribution
from .transformed_families import Gumbel, HalfNormal, Pareto
from .uniform import Uniform
from .univariate import ContinuousBernoulli
from .utils import _sum_rightmost, euler_constant

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}  # (type_p, type_q) -> fn(p, q)
_KL_MEMOIZE = {}  # (type(p), type(q)) -> the function dispatched to


def register_kl(type_p, type_q):
    """Decorator registering fn(p, q) as KL(p || q) for p, q of (subclasses of) these
    types."""
    for name, t in (("type_p", type_p), ("type_q", type_q)):
        if not isinstance(t, type):  # (other classes are accepted, as by PyTorch)
            raise TypeError(f"Expected {name} to be a Distribution subclass but got {t}")

    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        _KL_MEMOIZE.clear()  # (the most specific match may have changed)
        return fn
    return decorator


@functools.total_ordering
class _Match:
    """Registered types ordered by subclass, the first type deciding first."""
    __slots__ = ("types",)

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True

    __hash__ = None


def _dispatch_kl(type_p, type_q):
    matches = [(tp, tq) for tp, tq in _KL_REGISTRY
               if issubclass(type_p, tp) and issubclass(type_q, tq)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left, right = _KL_REGISTRY[left_p, left_q], _KL_REGISTRY[right_p, right_q]
    if left is not right:
        warnings.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                      f"Please register_kl({left_p.__name__}, {right_q.__name__})",
                      RuntimeWarning, stacklevel=2)
    return left


def kl_divergence(p, q):
    """KL(p || q) = E_p[log p(x) - log q(x)], one value per batch element."""
    key = type(p), type(q)
    if key not in _KL_MEMOIZE:
        _KL_MEMOIZE[key] = _dispatch_kl(*key)
    fn = _KL_MEMOIZE[key]
    if fn is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{p.__class__.__name__} and q type {q.__class__.__name__}")
    return fn(p, q)


def _m():
    import mindtorch
    return mindtorch


def _infinite_like(tensor):
    return _m().full_like(tensor, math.inf)


def _set_inf(result, mask):
    return result.masked_fill(mask, math.inf)


def _batch_trace_XXT(x):  # (PyTorch's name)
    """trace(X Xᵀ) over the last two dims."""
    return x.pow(2).sum((-2, -1))


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    softplus = _m().nn.functional.softplus
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = t1.masked_fill(q.probs == 0, math.inf).masked_fill(p.probs == 0, 0)
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = t2.masked_fill(q.probs == 1, math.inf).masked_fill(p.probs == 1, 0)
    return t1 + t2


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    M = _m()
    a1, b1, a2, b2 = p.concentration1, p.concentration0, q.concentration1, q.concentration0
    s1, s2 = a1 + b1, a2 + b2
    return (a2.lgamma() + b2.lgamma() + s1.lgamma() - (a1.lgamma() + b1.lgamma() + s2.lgamma())
            + (a1 - a2) * M.digamma(a1) + (b1 - b2) * M.digamma(b1)
            + (s2 - s1) * M.digamma(s1))


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > "
                                  "p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p()
                          - (-q.probs).log1p())
    return _set_inf(kl, p.total_count > q.total_count)


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = t.masked_fill((q.probs == 0).expand_as(t), math.inf)
    t = t.masked_fill((p.probs == 0).expand_as(t), 0)
    return t.sum(-1)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    return (p.mean * (p.logits - q.logits) + p._cont_bern_log_norm() + (-p.probs).log1p()
            - q._cont_bern_log_norm() - (-q.probs).log1p())


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p, sum_q = p.concentration.sum(-1), q.concentration.sum(-1)
    t1 = sum_p.lgamma() - sum_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    ratio = q.rate / p.rate
    return -ratio.log() + ratio - 1


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log normalizer between the natural parameters."""
    if type(p) is not type(q):
        # PyTorch's message keeps the indentation of its backslash-continued source line
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot" + " " * 29
                                  + "be computed using Bregman divergences")
    p_params = [param.detach().requires_grad_() for param in p._natural_params]
    q_params = q._natural_params
    log_norm = p._log_normalizer(*p_params)
    grads = _m().autograd.grad(log_norm.sum(), p_params, create_graph=True)
    result = q._log_normalizer(*q_params) - log_norm
    for pp, qp, g in zip(p_params, q_params, grads):
        result = result - _sum_rightmost((qp - pp) * g, len(q.event_shape))
    return result


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    M = _m()
    return (q.concentration * (p.rate / q.rate).log()
            + M.lgamma(q.concentration) - M.lgamma(p.concentration)
            + (p.concentration - q.concentration) * M.digamma(p.concentration)
            + (q.rate - p.rate) * (p.concentration / p.rate))


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1, ct2, ct3 = p.scale / q.scale, q.loc / q.scale, p.loc / q.scale
    t3 = (ct2 + (1 + ct1).lgamma() - ct3).exp()
    return -ct1.log() - ct2 + ct3 + ct1 * euler_constant + t3 - (1 + euler_constant)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    ratio = p.scale / q.scale
    diff = (p.loc - q.loc).abs()
    return -ratio.log() + diff / q.scale + ratio * (-diff / p.scale).exp() - 1


def _lowrank_logdet(d):
    return _batch_lowrank_logdet(d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag,
                                 d._capacitance_tril)


def _lowrank_mahalanobis(d, x):
    return _batch_lowrank_mahalanobis(d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag,
                                      x, d._capacitance_tril)


def _check_events(p, q, kind):
    if p.event_shape != q.event_shape:
        raise ValueError(f"KL-divergence between two {kind} with{' ' * 26}different event "
                         f"shapes cannot be computed")  # (PyTorch's line continuation)


def _lowrank_inner(q):
    """C⁻¹ Wᵀ D⁻¹ of q (so Σ_q⁻¹ = D⁻¹ - Aᵀ A)."""
    W, D = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    return _m().linalg.solve_triangular(q._capacitance_tril, W.mT / D.unsqueeze(-2),
                                        upper=False)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p, q):
    _check_events(p, q, "Low Rank Multivariate Normals")
    A = _lowrank_inner(q)
    pW, pD, qD = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag
    trace = ((pD / qD).sum(-1) + _batch_trace_XXT(pW * qD.rsqrt().unsqueeze(-1))
             - _batch_trace_XXT(A * pD.sqrt().unsqueeze(-2)) - _batch_trace_XXT(A @ pW))
    return 0.5 * (_lowrank_logdet(q) - _lowrank_logdet(p) + trace
                  + _lowrank_mahalanobis(q, q.loc - p.loc) - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_mvn_lowrank(p, q):
    _check_events(p, q, "(Low Rank) Multivariate Normals")
    A = _lowrank_inner(q)
    L = p._unbroadcasted_scale_tril
    trace = (_batch_trace_XXT(L * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
             - _batch_trace_XXT(A @ L))
    log_det_p = 2 * L.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    return 0.5 * (_lowrank_logdet(q) - log_det_p + trace
                  + _lowrank_mahalanobis(q, q.loc - p.loc) - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_mvn(p, q):
    _check_events(p, q, "(Low Rank) Multivariate Normals")
    M = _m()
    Lq = q._unbroadcasted_scale_tril
    W, D = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag
    batch = M.broadcast_shapes(Lq.shape[:-2], W.shape[:-2])
    n = p.event_shape[0]
    Lq = Lq.expand(batch + (n, n))
    trace = (_batch_trace_XXT(M.linalg.solve_triangular(Lq, W.expand(batch + W.shape[-2:]),
                                                  upper=False))
             + _batch_trace_XXT(M.linalg.solve_triangular(
                 Lq, D.sqrt().diag_embed().expand(batch + (n, n)), upper=False)))
    log_det_q = 2 * q._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    return 0.5 * (log_det_q - _lowrank_logdet(p) + trace
                  + _batch_mahalanobis_sq(q._unbroadcasted_scale_tril, q.loc - p.loc) - n)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p, q):
    _check_events(p, q, "Multivariate Normals")
    M = _m()
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_log_det = (Lq.diagonal(dim1=-2, dim2=-1).log().sum(-1)
                    - Lp.diagonal(dim1=-2, dim2=-1).log().sum(-1))
    batch = M.broadcast_shapes(Lq.shape[:-2], Lp.shape[:-2])
    n = p.event_shape[0]
    trace = _batch_trace_XXT(M.linalg.solve_triangular(Lq.expand(batch + (n, n)),
                                                 Lp.expand(batch + (n, n)), upper=False))
    return half_log_det + 0.5 * (trace + _batch_mahalanobis_sq(Lq, q.loc - p.loc) - n)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * (p.scale / q.scale).log() - alpha_ratio.log() + alpha_ratio - 1
    return _set_inf(result, p.support.lower_bound < q.support.lower_bound)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return _set_inf(result, (q.low > p.low) | (q.high < p.high))


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist),
                          p.reinterpreted_batch_ndims)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    return (((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
            - (4 * p.scale * q.scale).log())


from . import kl_cross  # noqa: F401  (registers the pairs across families)
