"""Bernoulli(probs or logits)."""
from . import constraints
from .distribution import (
    _EMPTY,
    broadcast_all,
)
from .exp_family import ExponentialFamily
from .utils import _BinaryParam, _one_of


class Bernoulli(_BinaryParam, ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            shape = self.probs.size()
        else:
            (self.logits,) = broadcast_all(logits)
            shape = self.logits.size()
        super().__init__(shape, validate_args=validate_args)

    mean = property(lambda self: self.probs)
    variance = property(lambda self: self.probs * (1 - self.probs))
    param_shape = property(lambda self: self._param.size())
    _param = property(lambda self: self.__dict__.get("probs", self.__dict__.get("logits")))

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        return mode.masked_fill(self.probs == 0.5, float("nan"))

    def sample(self, sample_shape=_EMPTY):
        import mindtorch
        shape = self._extended_shape(sample_shape)
        with mindtorch.no_grad():
            return mindtorch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        import mindtorch
        if self._validate_args:
            self._validate_sample(value)
        logits, value = mindtorch.broadcast_tensors(self.logits, value)
        return -mindtorch.nn.functional.binary_cross_entropy_with_logits(logits, value,
                                                                         reduction="none")

    def entropy(self):
        import mindtorch
        return mindtorch.nn.functional.binary_cross_entropy_with_logits(
            self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        import mindtorch
        values = mindtorch.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values

    @property
    def _natural_params(self):
        return (self.probs.logit(),)

    def _log_normalizer(self, x):
        return x.exp().log1p()
