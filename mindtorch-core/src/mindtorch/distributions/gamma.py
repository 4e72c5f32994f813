"""Gamma, Beta, Dirichlet and Poisson with PyTorch's parameters, formulas and
reprs.  Samples come from the same ops as PyTorch's (_standard_gamma, _sample_dirichlet,
poisson), so a seed gives PyTorch's values, with PyTorch's reparameterised gradients."""
from ..autograd.function import Function, once_differentiable
from . import constraints
from .distribution import _EMPTY, broadcast_all
from .exp_family import ExponentialFamily


def _m():
    import mindtorch
    return mindtorch




class _Dirichlet(Function):
    """_sample_dirichlet with PyTorch's reparameterised gradient (through _dirichlet_grad,
    each coordinate as a Beta(alpha_i, total - alpha_i) sample)."""

    @staticmethod
    def forward(ctx, concentration):
        x = _m()._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        grad = _m()._dirichlet_grad(x, concentration, total)
        return grad * (grad_output - (x * grad_output).sum(-1, True))


class Gamma(ExponentialFamily):
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.concentration - 1, -self.rate))

    def _log_normalizer(self, x, y):
        return _m().lgamma(x + 1) + (x + 1) * (-y.reciprocal()).log()

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(self.concentration.size(), validate_args=validate_args)

    mean = property(lambda self: self.concentration / self.rate)
    mode = property(lambda self: ((self.concentration - 1) / self.rate).clamp(min=0))
    variance = property(lambda self: self.concentration / self.rate.pow(2))

    def rsample(self, sample_shape=_EMPTY):
        M = _m()
        shape = self._extended_shape(sample_shape)
        value = M._standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=M.finfo(value.dtype).tiny)  # (not recorded by autograd)
        return value

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        c, r = self.concentration, self.rate
        return M.xlogy(c, r) + M.xlogy(c - 1, value) - r * value - M.lgamma(c)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _m().special.gammainc(self.concentration, self.rate * value)

    def entropy(self):
        M = _m()
        c = self.concentration
        return c - self.rate.log() + M.lgamma(c) + (1.0 - c) * M.digamma(c)


class Dirichlet(ExponentialFamily):
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)

    _natural_params = property(lambda self: (self.concentration,))

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - x.sum(-1).lgamma()

    mean = property(lambda self: self.concentration / self.concentration.sum(-1, True))
    variance = property(lambda self: _dirichlet_variance(self.concentration))

    @property
    def mode(self):
        c = self.concentration
        return ((c - 1).clamp(min=0) / (c - 1).clamp(min=0).sum(-1, True))

    def rsample(self, sample_shape=_EMPTY):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        c = self.concentration
        return M.xlogy(c - 1.0, value).sum(-1) + M.lgamma(c.sum(-1)) - M.lgamma(c).sum(-1)

    def entropy(self):
        M = _m()
        c = self.concentration
        k = c.size(-1)
        a0 = c.sum(-1)
        return (M.lgamma(c).sum(-1) - M.lgamma(a0) - (k - a0) * M.digamma(a0) -
                ((c - 1.0) * M.digamma(c)).sum(-1))


def _dirichlet_variance(c):
    c0 = c.sum(-1, True)
    return c * (c0 - c) / (c0.pow(2) * (c0 + 1))


class Beta(ExponentialFamily):
    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        M = _m()
        c1, c0 = broadcast_all(concentration1, concentration0)
        self._dirichlet = Dirichlet(M.stack([c1, c0], -1), validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._dirichlet = self._dirichlet.expand(batch_shape)

    _natural_params = property(lambda self: (self.concentration1, self.concentration0))

    def _log_normalizer(self, x, y):
        return x.lgamma() + y.lgamma() - (x + y).lgamma()

    concentration1 = property(lambda self: self._dirichlet.concentration[..., 0])
    concentration0 = property(lambda self: self._dirichlet.concentration[..., 1])
    mean = property(lambda self: self.concentration1 / (self.concentration1 +
                                                       self.concentration0))
    mode = property(lambda self: self._dirichlet.mode[..., 0])

    @property
    def variance(self):  # (PyTorch's own formula, not the Dirichlet's component)
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=_EMPTY):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        return self._dirichlet.log_prob(M.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()


class Poisson(ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.size(), validate_args=validate_args)

    mean = property(lambda self: self.rate)
    mode = property(lambda self: self.rate.floor())
    _natural_params = property(lambda self: (self.rate.log(),))

    def _log_normalizer(self, x):
        return x.exp()

    variance = property(lambda self: self.rate)

    def sample(self, sample_shape=_EMPTY):
        M = _m()
        with M.no_grad():
            return M.poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _m()
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - M.lgamma(value + 1)
