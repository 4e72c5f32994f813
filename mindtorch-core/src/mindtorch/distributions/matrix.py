"""Families over vectors with structured covariances and over matrices:
LowRankMultivariateNormal (covariance W Wᵀ + diag(D), computed through the small
"capacitance" matrix I + Wᵀ D⁻¹ W), Wishart (positive definite matrices, sampled by
Bartlett's decomposition) and LKJCholesky (Cholesky factors of correlation matrices,
sampled by the onion method)."""
import math
import warnings

from .. import Tensor
from . import constraints
from .distribution import _EMPTY, Distribution, _lazy_property
from .exp_family import ExponentialFamily
from .more import ScaleTrilParams, _batch_mahalanobis_sq, scale_tril_of

_LOG_2 = math.log(2)


def _m():
    import mindtorch
    return mindtorch


_batch_mahalanobis = _batch_mahalanobis_sq  # (PyTorch's name for it)


def _batch_mv(bmat, bvec):
    """Batched matrix-vector product."""
    return (bmat @ bvec.unsqueeze(-1)).squeeze(-1)


def _batch_lowrank_logdet(W, D, capacitance_tril):
    """log|W Wᵀ + D| = log|C| + log|D| (matrix determinant lemma, C the capacitance
    I + Wᵀ D⁻¹ W given by its Cholesky factor)."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _batch_lowrank_mahalanobis(W, D, x, capacitance_tril):
    """xᵀ (W Wᵀ + D)⁻¹ x by the Woodbury identity."""
    projected = _batch_mv(W.mT / D.unsqueeze(-2), x)
    return (x.pow(2) / D).sum(-1) - _batch_mahalanobis_sq(capacitance_tril, projected)


class LowRankMultivariateNormal(Distribution):
    """Normal with covariance cov_factor @ cov_factor.mT + diag(cov_diag)."""
    arg_constraints = {"loc": constraints.real_vector,
                       "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        M = _m()
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape "
                             f"{event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        loc_, factor, diag_ = M.broadcast_tensors(loc.unsqueeze(-1), cov_factor,
                                                  cov_diag.unsqueeze(-1))
        self.loc, self.cov_factor, self.cov_diag = loc_[..., 0], factor, diag_[..., 0]
        self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag = cov_factor, cov_diag
        # chol(I + Wᵀ D⁻¹ W): the Woodbury identity's inner matrix, m x m (made before the
        # arguments are validated, as PyTorch's: a bad diagonal may fail here first)
        inner = (cov_factor / cov_diag.unsqueeze(-1)).mT @ cov_factor
        eye = M.eye(cov_factor.shape[-1], dtype=inner.dtype, device=inner.device)
        self._capacitance_tril = M.linalg.cholesky(inner + eye)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        for name in ("_unbroadcasted_cov_factor", "_unbroadcasted_cov_diag",
                     "_capacitance_tril"):
            setattr(new, name, getattr(self, name))

    mean = property(lambda self: self.loc)
    mode = property(lambda self: self.loc)

    @_lazy_property
    def variance(self):
        v = self._unbroadcasted_cov_factor.pow(2).sum(-1) + self._unbroadcasted_cov_diag
        return v.expand(self._batch_shape + self._event_shape)

    def _full(self):
        W = self._unbroadcasted_cov_factor
        return W @ W.mT + self._unbroadcasted_cov_diag.diag_embed()

    @_lazy_property
    def scale_tril(self):
        # (the diagonal scaled out first: a better conditioned factorization)
        root = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        W = self._unbroadcasted_cov_factor / root
        eye = _m().eye(W.shape[-2], dtype=W.dtype, device=W.device)
        tril = root * _m().linalg.cholesky(W @ W.mT + eye)
        return tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @_lazy_property
    def covariance_matrix(self):
        return self._full().expand(self._batch_shape + self._event_shape + self._event_shape)

    @_lazy_property
    def precision_matrix(self):
        # D⁻¹ - D⁻¹ W C⁻ᵀ C⁻¹ Wᵀ D⁻¹ (Woodbury, C the capacitance factor)
        M = _m()
        inv_diag = self._unbroadcasted_cov_diag.reciprocal()
        A = M.linalg.solve_triangular(
            self._capacitance_tril, (self._unbroadcasted_cov_factor * inv_diag.unsqueeze(-1)).mT,
            upper=False)
        p = inv_diag.diag_embed() - A.mT @ A
        return p.expand(self._batch_shape + self._event_shape + self._event_shape)

    def rsample(self, sample_shape=_EMPTY):
        M = _m()
        shape = self._extended_shape(sample_shape)
        W = self._unbroadcasted_cov_factor
        eps_w = M.randn(shape[:-1] + W.shape[-1:], dtype=self.loc.dtype, device=self.loc.device)
        eps_d = M.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return (self.loc + (W @ eps_w.unsqueeze(-1)).squeeze(-1)
                + self._unbroadcasted_cov_diag.sqrt() * eps_d)

    def _log_det(self):
        return (2 * self._capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
                + self._unbroadcasted_cov_diag.log().sum(-1))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        # xᵀ Σ⁻¹ x = xᵀ D⁻¹ x - |C⁻¹ Wᵀ D⁻¹ x|²
        inv_diag = self._unbroadcasted_cov_diag.reciprocal()
        quad = (diff.pow(2) * inv_diag).sum(-1)
        projected = (self._unbroadcasted_cov_factor.mT @ (diff * inv_diag).unsqueeze(-1))
        quad = quad - _batch_mahalanobis_sq(self._capacitance_tril, projected.squeeze(-1))
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + self._log_det() + quad)

    def entropy(self):
        k = self._event_shape[0]
        h = 0.5 * (k * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return h.expand(self._batch_shape) if len(self._batch_shape) else h


def _mvdigamma(x, p):
    """Σ_{i<p} ψ(x - i/2): the derivative of log Γ_p."""
    M = _m()
    half = M.arange(p, dtype=x.dtype, device=x.device) / 2
    return M.digamma(x.unsqueeze(-1) - half).sum(-1)


class Wishart(ScaleTrilParams, ExponentialFamily):
    """Distribution of Σᵢ xᵢ xᵢᵀ over df draws x ~ N(0, Σ), df > dim - 1 (real df)."""
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def _natural_params(self):
        return -self.precision_matrix / 2, (self.df - self._event_shape[-1] - 1) / 2

    def _log_normalizer(self, x, y):
        M, p = _m(), self._event_shape[-1]
        return ((y + (p + 1) / 2) * (-M.linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p)
                + M.mvlgamma(y + (p + 1) / 2, p=p))

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        M = _m()
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or "
                                 "scale_tril may be specified.")
        (param,) = given
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if isinstance(df, Tensor):
            batch_shape = M.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        else:
            batch_shape = param.shape[:-2]
            self.df = M.tensor(df, dtype=param.dtype, device=param.device)
        event_shape = param.shape[-2:]
        p = event_shape[-1]
        if bool(self.df.le(p - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        name = ("scale_tril" if scale_tril is not None else
                "covariance_matrix" if covariance_matrix is not None else "precision_matrix")
        setattr(self, name, param.expand(batch_shape + (-1, -1)))
        if bool(self.df.lt(p).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to "
                          "occur for ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._unbroadcasted_scale_tril = scale_tril_of(scale_tril, covariance_matrix,
                                                       precision_matrix)

    def _expand_parts(self, new, batch_shape):
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril

    def _square(self, value):
        return value.expand(self._batch_shape + self._event_shape)

    def _df(self):
        return self.df.expand(self._batch_shape).reshape(self._batch_shape + (1, 1))

    @property
    def mean(self):
        return self._df() * self.covariance_matrix

    @property
    def mode(self):
        # (df - p - 1) Σ, undefined (NaN) where df <= p + 1
        factor = self._df() - self._event_shape[-1] - 1
        return _m().where(factor > 0, factor, math.nan) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        d = V.diagonal(dim1=-2, dim2=-1)
        return self._df() * (V.pow(2) + d.unsqueeze(-1) * d.unsqueeze(-2))

    def _bartlett(self, sample_shape):
        """L A Aᵀ Lᵀ with A lower triangular: √χ²(df - i) on the diagonal, N(0, 1) below
        (p(p-1)/2 normals per matrix, written row by row, as PyTorch draws them)."""
        M = _m()
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        dfs = self.df.unsqueeze(-1) - M.arange(p, dtype=L.dtype, device=L.device)
        chi2 = M.distributions.Chi2(dfs.expand(self._batch_shape + (p,)))
        root = chi2.rsample(sample_shape).sqrt()  # (df's dtype where it differs from L's)
        A = root.clamp(min=M.finfo(root.dtype).eps).diag_embed()
        i, j = M.tril_indices(p, p, offset=-1, device=L.device)
        A[..., i, j] = M.randn(tuple(sample_shape) + tuple(self._batch_shape) + (p * (p - 1) // 2,),
                               dtype=A.dtype, device=L.device)
        chol = L @ A
        return chol @ chol.mT

    def rsample(self, sample_shape=_EMPTY, max_try_correction=None):
        """Bartlett samples, then PyTorch's correction loop as it runs: it starts from the
        samples that pass the support check (PyTorch's `is_singular` holds the check's
        result), warns, and draws those again until the new ones fail it (up to
        max_try_correction times, 10 by default), so a seed gives PyTorch's samples."""
        tries = 10 if max_try_correction is None else max_try_correction
        sample = self._bartlett(tuple(sample_shape))
        batch_dims = [-(k + 1) for k in range(len(self._batch_shape))]
        redraw = self.support.check(sample)
        if batch_dims:
            redraw = redraw.amax(batch_dims)
        if bool(redraw.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(tries):
                new = self._bartlett(tuple(redraw[redraw].shape))
                sample[redraw] = new
                again = ~self.support.check(new)
                if batch_dims:
                    again = again.amax(batch_dims)
                redraw[redraw.clone()] = again
                if not bool(redraw.any()):
                    break
        return sample

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        nu, p = self.df, self._event_shape[-1]
        trace = M.cholesky_solve(value, self._unbroadcasted_scale_tril).diagonal(
            dim1=-2, dim2=-1).sum(-1)
        return (-nu * (p * _LOG_2 / 2 + self._half_log_det()) - M.mvlgamma(nu / 2, p=p)
                + (nu - p - 1) / 2 * M.linalg.slogdet(value).logabsdet - trace / 2)

    def entropy(self):
        M = _m()
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * (p * _LOG_2 / 2 + self._half_log_det()) + M.mvlgamma(nu / 2, p=p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p) + nu * p / 2)


class LKJCholesky(Distribution):
    """Cholesky factors L of dim x dim correlation matrices with density ∝ det(L Lᵀ)^(c - 1)
    for concentration c (c = 1: uniform over correlation matrices)."""
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        M = _m()
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        if not isinstance(concentration, Tensor):
            concentration = M.tensor(float(concentration))
        self.concentration = concentration
        # onion method: row i's squared length among its first i entries is
        # Beta(i / 2, c + (dim - 2 - i) / 2), its direction uniform on the sphere
        offset = M.arange(dim - 1, dtype=concentration.dtype, device=concentration.device)
        offset = M.cat([offset.new_zeros(1), offset])
        marginal = concentration + 0.5 * (dim - 2)
        self._beta = M.distributions.Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(concentration.shape, (dim, dim), validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new.dim = self.dim
        new._beta = self._beta.expand(batch_shape + (self.dim,))

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        with M.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            c = self.concentration
            u = M.randn(self._extended_shape(sample_shape), dtype=c.dtype,
                        device=c.device).tril(-1)
            u = u / u.norm(dim=-1, keepdim=True)
            # (row 0 has no entries below the diagonal: zeros, its 1 comes with the diagonal)
            u = M.cat([M.zeros_like(u[..., :1, :]), u[..., 1:, :]], -2)
            w = y.sqrt() * u
            tiny = M.finfo(w.dtype).tiny
            diag = (1 - w.pow(2).sum(-1)).clamp(min=tiny).sqrt()
            return w + diag.diag_embed()

    def log_prob(self, value):
        """Σ_{i≥1} (2(c - 1) + dim - 1 - i) log L_ii minus the log normalizer (Lewandowski,
        Kurowicka and Joe 2009, over the Cholesky factor)."""
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        c, d = self.concentration, self.dim
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        power = 2 * (c - 1).unsqueeze(-1) + d - M.arange(2, d + 1, dtype=c.dtype,
                                                         device=c.device)
        unnormalized = (power * diag.log()).sum(-1)
        alpha = c + 0.5 * (d - 1)
        log_norm = (0.5 * (d - 1) * math.log(math.pi) + M.mvlgamma(alpha - 0.5, p=d - 1)
                    - M.lgamma(alpha) * (d - 1))
        return unnormalized - log_norm
