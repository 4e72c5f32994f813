"""mindtorch.nn.functional (torch.nn.functional): the ops declared with
modules=("nn.functional",)."""
from .._ops.namespaces import install as _install
from ..overrides import (  # noqa: F401 - as PyTorch's module exposes them
    handle_torch_function, has_torch_function, has_torch_function_unary,
    has_torch_function_variadic,
)

_install(globals(), "nn.functional")


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """torch.nn.functional.triplet_margin_with_distance_loss: a Python function, as in
    PyTorch (distance_function is any callable, so no op schema can hold it)."""
    from .._ops.decls import loss_margin
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    loss_margin.check_triplet_margin(margin)
    loss_margin.check_triplet_dims(anchor, positive, negative)
    if distance_function is None:  # as PyTorch: pairwise_distance with its defaults
        from .. import pairwise_distance as distance_function
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance_function(positive, negative))
    result = (margin + dist_pos - dist_neg).clamp_min(0)
    return result.sum() if reduction == "sum" else result.mean() if reduction == "mean" \
        else result


# Python-level functions of sequence models (multi-head attention lives in its own file)
from ._functional_attention import (  # noqa: E402,F401
    _canonical_mask, _in_projection, _in_projection_packed, _mha_shape_check, _none_or_dtype,
    multi_head_attention_forward,
)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """torch.nn.functional.gumbel_softmax: softmax of (logits + Gumbel noise) / tau; hard=True
    returns one-hot samples with the soft sample's gradient (straight-through)."""
    if eps != 1e-10:
        import warnings
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    from .. import contiguous_format, empty_like, zeros_like
    # (contiguous noise, as PyTorch's: drawn in logical order whatever the logits' layout)
    gumbels = -empty_like(logits, memory_format=contiguous_format).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits, memory_format=contiguous_format).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


from . import grad  # noqa: E402,F401 - torch.nn.functional.grad is the torch.nn.grad module
