"""Special functions and the remaining pointwise math: broadcast shape and promotion-kind
dtype (as every pointwise op), after the dtype checks the cpu kernels make too
(mindtorch._ops.decls.special.check)."""
from mindtorch._ops import OPS
from mindtorch._ops.decls import special as S


def _checked(name):
    base = None

    def rule(*args):
        nonlocal base
        if base is None:
            from ..infer import pointwise_rule  # (infer imports the rules)
            base = pointwise_rule(OPS[name])
        S.check(name, *args)
        return base(*args)
    return rule


def angle(self):
    S.check("angle", self)
    return self._shape, S.angle_dtype(self.dtype)


def polygamma(n, self):
    S.check("polygamma", n, self)
    return self._shape, OPS["polygamma"].result_dtype(self)


def logit(self, eps=None):
    S.check("logit", self)
    return self._shape, OPS["logit"].result_dtype(self)


RULES = {name: _checked(name) for name in list(S.UNARY) + list(S.BINARY)}
RULES.update(angle=angle, polygamma=polygamma, logit=logit)
