"""Inference rules, by op name.  Each rule takes the op's arguments (as the kernel
receives them) and returns (shape, dtype), or a tuple of those for several outputs."""
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._shapes import broadcast_shapes

from .rules import RULES


def infer(op_name, *args):
    """(shape, dtype) of op_name's result for these arguments (or a tuple of pairs)."""
    rule = RULES.get(op_name)
    if rule is None:
        op = OPS[op_name]
        if "pointwise" not in op.tags:
            raise NotImplementedError(f"mindtorch-meta has no inference rule for '{op_name}'")
        rule = pointwise_rule(op)
    return rule(*args)


def pointwise_rule(op):
    def rule(*args):
        operands = [a for a in args if isinstance(a, (Tensor, bool, int, float, complex))
                    and a is not None]
        shape = broadcast_shapes(*(a._shape for a in args if isinstance(a, Tensor)))
        dtype_operands = operands[1:] if op.name == "where" else operands
        return shape, op.result_dtype(*dtype_operands)
    return rule


__all__ = ["infer", "D"]
