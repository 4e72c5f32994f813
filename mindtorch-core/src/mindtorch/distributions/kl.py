"""kl_divergence(p, q) for pairs of families, and register_kl for new pairs."""
_KL = {}


def register_kl(type_p, type_q):
    def decorator(fn):
        _KL[(type_p, type_q)] = fn
        return fn
    return decorator


def kl_divergence(p, q):
    for (tp, tq), fn in _KL.items():
        if type(p) is tp and type(q) is tq:
            return fn(p, q)
    for (tp, tq), fn in _KL.items():
        if isinstance(p, tp) and isinstance(q, tq):
            return fn(p, q)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} "
                              f"and q type {type(q).__name__}")


def _register_builtin():
    import math

    from ..nn.functional import softplus
    from .bernoulli import Bernoulli
    from .categorical import Categorical
    from .normal import Normal
    from .uniform import Uniform

    @register_kl(Normal, Normal)
    def _normal(p, q):
        var_ratio = (p.scale / q.scale).pow(2)
        t1 = ((p.loc - q.loc) / q.scale).pow(2)
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())

    @register_kl(Categorical, Categorical)
    def _categorical(p, q):
        t = p.probs * (p.logits - q.logits)
        t = t.masked_fill((q.probs == 0).expand_as(t), math.inf)
        t = t.masked_fill((p.probs == 0).expand_as(t), 0)
        return t.sum(-1)

    @register_kl(Bernoulli, Bernoulli)
    def _bernoulli(p, q):
        t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
        t1 = t1.masked_fill(q.probs == 0, math.inf).masked_fill(p.probs == 0, 0)
        t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
        t2 = t2.masked_fill(q.probs == 1, math.inf).masked_fill(p.probs == 1, 0)
        return t1 + t2

    @register_kl(Uniform, Uniform)
    def _uniform(p, q):
        result = ((q.high - q.low) / (p.high - p.low)).log()
        return result.masked_fill((q.low > p.low) | (q.high < p.high), math.inf)


_register_builtin()
