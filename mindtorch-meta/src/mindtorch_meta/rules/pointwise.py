"""Meta inference rules: pointwise ops with checks beyond broadcasting and promotion (the
others are inferred generically, see infer.pointwise_rule)."""
from mindtorch._ops.decls import pointwise_checks as P

from ..errors import no_meta_kernel


def neg(self):
    P.check_neg(self)
    return self._shape, self.dtype


def _rounding_division(name):
    """floor_divide, div: the generic rule, then the complex refusal of a rounding mode."""
    def rule(*args):
        from mindtorch._ops import OPS

        from ..infer import pointwise_rule
        shape, dtype = pointwise_rule(OPS[name])(*args)
        mode = "floor" if name.startswith("floor_divide") else (
            args[2] if len(args) > 2 else None)
        P.check_rounding_division(dtype, mode)
        return shape, dtype
    return rule


def equal(self, other):
    raise no_meta_kernel("equal")  # (a bool of the data)


RULES = {"equal": equal, "neg": neg, "floor_divide": _rounding_division("floor_divide"),
         "div": _rounding_division("div")}
