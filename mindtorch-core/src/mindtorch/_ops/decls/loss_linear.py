"""nn.functional.linear_cross_entropy: cross_entropy of linear(input, linear_weight,
linear_bias), the weight shaped (num_classes, *out_features, in_features) for a K-dim loss.

PyTorch's `options` (LinearCrossEntropyOptions) choose a chunked implementation that saves
memory and computes the same loss; here every call takes the reference path (the options
are validated by their class, and PyTorch's warning for configurations its chunked path
does not support is kept)."""
import math
import warnings

from ... import _dtype as D
from ..registry import OPS, define, overload
from .loss_shared import _F_ONLY


def _linear_cross_entropy(self, linear_weight, target, linear_bias, weight, reduction,
                          ignore_index, label_smoothing):
    if self.ndim < 1 or self.ndim > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {self.ndim}")
    if linear_weight.ndim < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.ndim}")
    batches, in_features = tuple(self.shape[:-1]), self.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {in_features} and {linear_weight.shape[-1]}, "
                           f"respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, (N, "
                           f"{in_features}), got unbatched input with shape "
                           f"{tuple(self.shape)}")
    logits_shape = (*batches, classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    rows = math.prod(out_features, start=classes)
    logits = OPS["linear"].call(self, linear_weight.reshape(rows, in_features),
                                None if linear_bias is None else linear_bias.reshape(rows))
    return OPS["cross_entropy"].call(logits.reshape(logits_shape), target, weight, None,
                                     -100 if ignore_index is None else ignore_index, None,
                                     reduction, label_smoothing)


def _warn_options(binding):
    """F's `options=`: PyTorch's warning where its chunked path would not apply."""
    def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                             reduction="mean", ignore_index=None, label_smoothing=0.0,
                             options=None):
        out_features = tuple(linear_weight.shape[1:-1])
        if options is not None and (out_features or reduction not in {"mean", "sum", "none"}
                                    or label_smoothing != 0.0 or target.dtype is not D.int64):
            warnings.warn(
                f"linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
                f"{{'mean','sum','none'}}, label_smoothing == 0, target.dtype == int64, "
                f"out_features == (). Got reduction={reduction!r}, "
                f"label_smoothing={label_smoothing}, target.dtype={target.dtype}, "
                f"out_features={out_features}, tracing=False, linear_bias.shape="
                f"{tuple(linear_bias.shape) if linear_bias is not None else None}.",
                stacklevel=2)
        return binding(input, linear_weight, target, linear_bias=linear_bias, weight=weight,
                       reduction=reduction, ignore_index=ignore_index,
                       label_smoothing=label_smoothing)
    linear_cross_entropy.__qualname__ = "linear_cross_entropy"  # (Python's argument errors)
    return linear_cross_entropy


define("functional_linear_cross_entropy(Tensor self, Tensor linear_weight, Tensor target, *, "
       "Tensor? linear_bias=None, Tensor? weight=None, str reduction='mean', "
       "int? ignore_index=None, float label_smoothing=0.0) -> Tensor",
       decomposition=_linear_cross_entropy, **_F_ONLY)
overload(OPS["functional_linear_cross_entropy"], _warn_options)
