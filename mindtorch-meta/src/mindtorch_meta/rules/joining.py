"""cat's shape and dtype (concat, concatenate and stack decompose into cat)."""
from mindtorch._ops.decls.joining import cat_plan


def cat(tensors, dim=0):
    shape, dtype, _, _ = cat_plan(tensors, dim)
    return shape, dtype


RULES = {"cat": cat}
