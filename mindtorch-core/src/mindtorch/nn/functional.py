"""mindtorch.nn.functional (torch.nn.functional): the ops declared with
modules=("nn.functional",)."""
from .._ops.namespaces import install as _install

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
