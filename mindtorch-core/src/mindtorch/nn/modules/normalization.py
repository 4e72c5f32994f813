"""torch.nn.modules.normalization: LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm,
CrossMapLRN2d."""
import numbers

import mindtorch

from .. import functional as F, init
from ..parameter import Parameter
from ._own_init import own_init
from .module import Module

__all__ = ["LocalResponseNorm", "CrossMapLRN2d", "LayerNorm", "GroupNorm", "RMSNorm"]


class _LRNBase(Module):
    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LocalResponseNorm(_LRNBase):
    """Normalises each channel by the squares of its `size` neighbouring channels."""

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)


class CrossMapLRN2d(_LRNBase):
    """The legacy (Lua Torch) cross-channel LRN over 4D input, with its own window
    arithmetic and backward (see _CrossMapLRN2d)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__(size, alpha, beta, k)

    def forward(self, input):
        return _CrossMapLRN2d.apply(input, self.size, self.alpha, self.beta, self.k)


def _window_sums(values, starts, stops):
    """values summed over dim 1 between per-channel starts and stops (exclusive)."""
    zero = mindtorch.zeros_like(values.narrow(1, 0, 1))
    prefix = mindtorch.cat([zero, values.cumsum(1)], 1)
    device = values.device
    return prefix.index_select(1, mindtorch.tensor(stops, device=device)) \
        - prefix.index_select(1, mindtorch.tensor(starts, device=device))


class _CrossMapLRN2d(mindtorch.autograd.Function):
    # PyTorch's running-window forward never drops channel 0 once past it (its window for
    # channel c >= pre_pad is channel 0 plus [c - pre_pad + 1, c + pre_pad)), while its
    # backward sums a plain window of `size` channels: both reproduced as they are.
    @staticmethod
    def forward(ctx, input, size, alpha, beta, k):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             "instead.")
        if not input.is_floating_point():  # PyTorch's in-place float arithmetic on it
            from ..._dtype import scalar_type_name
            raise RuntimeError(f"result type {'Long' if input.dtype is mindtorch.bool else 'Float'}"
                               f" can't be cast to the desired output type "
                               f"{scalar_type_name(input.dtype)}")
        channels = input.size(1)
        pre_pad = int((size - 1) / 2 + 1)
        stops = [min(c + pre_pad, channels) for c in range(channels)]
        starts = [0 if c < pre_pad else c - pre_pad + 1 for c in range(channels)]
        squares = input * input
        sums = _window_sums(squares, starts, stops)
        if channels > pre_pad:  # the channel 0 that the running window keeps
            kept = mindtorch.arange(channels, device=input.device) >= pre_pad
            sums = sums + squares.narrow(1, 0, 1) * kept.to(input.dtype).reshape(channels, 1, 1)
        scale = sums * (alpha / size) + k
        output = scale.pow(-beta) * input
        ctx.save_for_backward(input, output, scale)
        ctx.size, ctx.alpha, ctx.beta = size, alpha, beta
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output, scale = ctx.saved_tensors
        size, channels = ctx.size, input.size(1)
        first = int(size - (size - 1) / 2)  # where channel 0's ratio sits in the window
        ratio = grad_output * output / scale
        starts = [min(max(c - first, 0), channels) for c in range(channels)]
        stops = [min(max(c + size - first, 0), channels) for c in range(channels)]
        grad = scale.pow(-ctx.beta) * grad_output \
            - (2 * ctx.alpha * ctx.beta / size) * input * _window_sums(ratio, starts, stops)
        return grad, None, None, None, None


def _as_shape(normalized_shape):
    if isinstance(normalized_shape, numbers.Integral):
        return (normalized_shape,)
    return tuple(normalized_shape)


def _affine(module, shape, weight, bias, factory_kwargs):
    """Registers the weight (ones) and bias (zeros) parameters, None for the absent ones."""
    for name, wanted in (("weight", weight), ("bias", bias)):
        if wanted:
            setattr(module, name, Parameter(mindtorch.empty(shape, **factory_kwargs)))
        else:
            module.register_parameter(name, None)
    module.reset_parameters()


def _reset_affine(module):
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalises over the trailing `normalized_shape` dimensions."""
    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine(self, self.normalized_shape, elementwise_affine, elementwise_affine and bias,
                {"device": device, "dtype": dtype})

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalises each of `num_groups` groups of channels."""
    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine(self, num_channels, affine, affine and bias, {"device": device, "dtype": dtype})

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    """Root-mean-square normalisation over the trailing `normalized_shape` dimensions
    (eps=None: the dtype's machine epsilon)."""
    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(mindtorch.empty(self.normalized_shape, device=device,
                                                    dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


own_init(LocalResponseNorm)
