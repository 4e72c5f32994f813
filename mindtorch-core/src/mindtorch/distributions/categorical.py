"""Categorical(probs or logits) over {0, ..., K-1} (the last dimension)."""
from .. import Size
from . import constraints
from .distribution import _EMPTY, Distribution, _lazy_property, logits_to_probs, probs_to_logits
from .utils import _one_of


class Categorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch = self._param.size()[:-1] if self._param.ndim > 1 else Size()
        super().__init__(batch, validate_args=validate_args)

    def _expand_parts(self, new, batch_shape):
        new._num_events = self._num_events
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @_lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @_lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    param_shape = property(lambda self: self._param.size())

    @property
    def mean(self):
        import mindtorch
        return mindtorch.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype,
                              device=self.probs.device)

    mode = property(lambda self: self.probs.argmax(dim=-1))

    @property
    def variance(self):
        return self.mean

    def sample(self, sample_shape=_EMPTY):
        import mindtorch
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        with mindtorch.no_grad():
            draws = mindtorch.multinomial(probs_2d, sample_shape.numel(), True).T
        return draws.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        import mindtorch
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = mindtorch.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def enumerate_support(self, expand=True):
        import mindtorch
        values = mindtorch.arange(self._num_events, dtype=mindtorch.long,
                                  device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values

    def entropy(self):
        import mindtorch
        logits = self.logits.clamp(min=mindtorch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)
