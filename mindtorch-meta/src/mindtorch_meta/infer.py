"""Inference rules, by op name.  Each rule takes the op's arguments (as the kernel
receives them) and returns (shape, dtype), or a tuple of those for several outputs."""
from mindtorch import Tensor
from mindtorch._ops import OPS
from mindtorch._ops.decls import pointwise_checks as P
from mindtorch._shapes import broadcast_shapes

RULES = {}  # op name -> rule (rules/), imported on first use: not at `import mindtorch`


def _load_rules():
    global RULES
    from .rules import RULES
    return RULES


def infer(op_name, *args):
    """(shape, dtype) of op_name's result for these arguments (or a tuple of pairs).

    Ops without a rule of their own are inferred generically: pointwise ops by
    broadcasting and their promotion kind, composite ops by running their decomposition
    on meta tensors (so every op that decomposes has inference too)."""
    rule = (RULES or _load_rules()).get(op_name)
    if rule is not None:
        return rule(*args)
    op = OPS[op_name]
    if "pointwise" in op.tags and op.decomposition is None:
        return pointwise_rule(op)(*args)
    if op.decomposition is not None or op.core_impl is not None:
        return _describe(op.call(*(_to_meta(a) for a in args)))
    raise NotImplementedError(f"mindtorch-meta has no inference rule for '{op_name}'")


def _clamp(self, min=None, max=None):
    _, _, dtype, _ = P.clamp_plan(self, min, max)
    return broadcast_shapes(*(a._shape for a in (self, min, max) if isinstance(a, Tensor))), \
        dtype


def _where(condition, self, other):
    dtype = P.where_plan(condition, self, other)
    return broadcast_shapes(*(a._shape for a in (condition, self, other)
                              if isinstance(a, Tensor))), dtype


# pointwise ops whose result dtype is not their promotion kind's
_SPECIAL = {"clamp": _clamp, "where": _where}


def pointwise_rule(op):
    special = _SPECIAL.get(op.name)
    if special is not None:
        return special
    # keyword-only arguments (alpha, decimals, rounding_mode...) are not operands
    positional = [i for i, a in enumerate(op.schema.args) if not a.kwarg_only]
    rounding = op.name == "div"  # div with a rounding mode keeps integer dtypes

    def rule(*args):
        operands = [args[i] for i in positional if i < len(args)
                    and isinstance(args[i], (Tensor, bool, int, float, complex))]
        shape = broadcast_shapes(*(a._shape for a in args if isinstance(a, Tensor)))
        dtype_operands = operands[1:] if op.name == "where" else operands
        if rounding and len(args) > 2 and args[2] is not None:
            from mindtorch._promotion import result_type
            return shape, result_type(*dtype_operands)
        return shape, op.result_dtype(*dtype_operands)
    return rule


def by_decomposition(op_name, *args):
    """(shape, dtype) of op_name's result from running its decomposition itself (for the
    meta kernel of an op that decomposes: infer's op.call would come back to it)."""
    return _describe(OPS[op_name].decomposition(*args))


def contiguous_decomposition(name):
    """A rule for an op whose result PyTorch allocates contiguous though its decomposition
    is elementwise (which would lay the result out like the input): shape and dtype (and
    errors) from running the decomposition."""
    return lambda *args: by_decomposition(name, *args)


def _to_meta(x):
    if isinstance(x, Tensor):
        return x if x.device.type == "meta" else x.to("meta")
    if isinstance(x, (list, tuple)):
        return type(x)(_to_meta(v) for v in x)
    return x


def _describe(result):
    if isinstance(result, Tensor):
        return tuple(result.shape), result.dtype
    return tuple(_describe(r) for r in result)


__all__ = ["infer"]
