"""Distribution: batch/event shapes, argument and sample validation (on by default, as
in PyTorch), and the shared sample/repr machinery of the families."""
import warnings

from .. import Size, Tensor
from ..autograd.grad_mode import no_grad
from . import constraints
from .utils import (  # noqa: F401  (re-exported: the families import them from here)
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

_EMPTY = Size()  # the default sample/batch/event shape


class Distribution:
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @property
    def arg_constraints(self):
        """{parameter name: the constraint it satisfies} (each family defines it)."""
        raise NotImplementedError

    @property
    def support(self):
        """The constraint samples satisfy (each family defines it)."""
        raise NotImplementedError

    @staticmethod
    def set_default_validate_args(value):
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=_EMPTY, event_shape=_EMPTY, validate_args=None):
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                              f"`arg_constraints = {{}}` or initialize the distribution with "
                              f"`validate_args=False` to turn off validation.", stacklevel=2)
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None),
                                                             lazy_property):
                    continue  # not given (e.g. logits when probs were)
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}")

    batch_shape = property(lambda self: self._batch_shape)
    event_shape = property(lambda self: self._event_shape)

    # expand: the parameters listed here (default: those of arg_constraints that were given
    # or computed) are expanded to the new batch shape, their event dims kept;
    # _expand_parts(new, batch_shape) sets what else a family holds (inner distributions,
    # unbroadcasted factors)
    _expand_params = None

    def expand(self, batch_shape, _instance=None):
        """This distribution over a larger batch (parameters expanded, not copied)."""
        new = self._get_checked_instance(_family(type(self)), _instance)
        batch_shape = Size(batch_shape)
        names = self.arg_constraints if self._expand_params is None else self._expand_params
        for name in names:
            if name in self.__dict__:
                value = self.__dict__[name]
                new.__dict__[name] = value.expand(batch_shape +
                                                  value.shape[len(self._batch_shape):])
        self._expand_parts(new, batch_shape)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _expand_parts(self, new, batch_shape):
        pass

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                f"__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    # (what a family does not define: PyTorch's NotImplementedError)
    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def sample(self, sample_shape=_EMPTY):
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=_EMPTY):
        raise NotImplementedError

    def sample_n(self, n):
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def _extended_shape(self, sample_shape=_EMPTY):
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def perplexity(self):
        return self.entropy().exp()

    def _validate_sample(self, value):
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.shape) - len(self._event_shape)
        if tuple(value.shape[event_dim_start:]) != tuple(self._event_shape):
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{value.shape} vs {self._event_shape}.")
        actual, expected = value.shape, tuple(self._batch_shape) + tuple(self._event_shape)
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual} vs {Size(expected)}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          f"validation. Please initialize the distribution with "
                          f"`validate_args=False` to turn off validation.", stacklevel=2)
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape "
                             f"{tuple(value.shape)}) to be within the support "
                             f"({support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        values = [self.__dict__[k] for k in names]
        args = ", ".join(f"{k}: {v if v.numel() == 1 else v.size()}" for k, v in zip(names, values))
        return f"{type(self).__name__}({args})"


def _family(cls):
    """The first-party class a distribution is (a user's subclass inherits its expand;
    Distribution itself has none, as in PyTorch)."""
    family = next(c for c in cls.__mro__ if c.__module__.startswith(__package__ + "."))
    if family is Distribution:
        raise NotImplementedError
    return family


_lazy_property = lazy_property  # (the name the families use)

__all__ = ["Distribution", "constraints"]
