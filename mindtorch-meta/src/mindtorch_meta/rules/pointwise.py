"""Meta inference rules: pointwise ops with checks beyond broadcasting and promotion (the
others are inferred generically, see infer.pointwise_rule)."""
from mindtorch._ops.decls import pointwise as P


def neg(self):
    P.check_neg(self)
    return self._shape, self.dtype


RULES = {"neg": neg}
