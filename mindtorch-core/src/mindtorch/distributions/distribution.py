"""Distribution: batch/event shapes, argument and sample validation (on by default, as
in PyTorch), and the shared sample/repr machinery of the families."""
import warnings

from .. import Size, Tensor
from ..autograd.grad_mode import no_grad
from . import constraints

_EMPTY = Size()  # the default sample/batch/event shape


class Distribution:
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__
    arg_constraints = {}
    support = None

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
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None),
                                                             _lazy_property):
                    continue  # not given (e.g. logits when probs were)
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}")

    batch_shape = property(lambda self: self._batch_shape)
    event_shape = property(lambda self: self._event_shape)

    @property
    def mean(self):
        raise NotImplementedError(f"{self.__class__} does not implement mean")

    @property
    def mode(self):
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError(f"{self.__class__} does not implement variance")

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
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning)
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
        if not bool(self.support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape "
                             f"{tuple(value.shape)}) to be within the support "
                             f"({self.support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}"
                         for k in names)
        return f"{type(self).__name__}({args})"


class _lazy_property:
    """A parameter computed from the other spelling (probs from logits) on first use."""

    def __init__(self, fn):
        self.fn, self.__doc__ = fn, fn.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.fn.__name__] = value
        return value


def broadcast_all(*values):
    """Tensors and numbers broadcast to one shape; numbers become tensors of the first
    tensor's dtype (else the default dtype)."""
    import mindtorch
    if not all(isinstance(v, (Tensor, int, float)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = like.dtype if like is not None else mindtorch.get_default_dtype()
    device = like.device if like is not None else None
    tensors = [v if isinstance(v, Tensor) else mindtorch.tensor(float(v), dtype=dtype,
                                                               device=device)
               for v in values]
    return mindtorch.broadcast_tensors(*tensors)


def clamp_probs(probs):
    import mindtorch
    eps = mindtorch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps = clamp_probs(probs)
    return ps.log() - (-ps).log1p() if is_binary else ps.log()


def logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else logits.softmax(-1)


__all__ = ["Distribution", "constraints"]
