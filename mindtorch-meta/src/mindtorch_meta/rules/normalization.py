"""Normalization: the fused native_layer_norm (the other norms run their decompositions)."""
from mindtorch._ops.decls import normalization as N


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    axis = N.layer_norm_plan(input, normalized_shape, weight, bias)
    stats = input._shape[:axis] + (1,) * (input.ndim - axis)
    sdt = N.stat_dtype(input, weight, bias)
    return (input._shape, input.dtype), (stats, sdt), (stats, sdt)


RULES = {"native_layer_norm": native_layer_norm}
