"""ExponentialFamily: densities p(x) = h(x) exp(<θ, t(x)> - F(θ)).  A family gives its
natural parameters θ (`_natural_params`), the log normalizer F (`_log_normalizer`) and
E[log h(x)] (`_mean_carrier_measure`); the entropy then follows as the Bregman
divergence of F: H = F(θ) - <θ, ∇F(θ)> - E[log h(x)] (and kl_divergence between two
members of one family likewise)."""
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        import mindtorch
        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_norm = self._log_normalizer(*params)
        grads = mindtorch.autograd.grad(log_norm.sum(), params, create_graph=True)
        result = result + log_norm
        for param, grad in zip(params, grads):
            result = result - (param * grad).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
