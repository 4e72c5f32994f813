"""cat's and stack's shape and dtype (concat and concatenate decompose into cat)."""
from mindtorch._ops.decls.joining import cat_plan, stack_plan


def cat(tensors, dim=0):
    shape, dtype, _, _ = cat_plan(tensors, dim)
    return shape, dtype


def stack(tensors, dim=0):
    shape, dtype, _ = stack_plan(tensors, dim)
    return shape, dtype


RULES = {"cat": cat, "stack": stack}
