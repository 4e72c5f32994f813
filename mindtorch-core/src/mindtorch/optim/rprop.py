"""torch.optim.Rprop: resilient backpropagation (per-element step sizes grown or shrunk by
the sign agreement of successive gradients)."""
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_lr, _step_tensor, _value

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 < etas[0] < 1.0 < etas[1], f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _init_state(self, group, p, state):
        import mindtorch as M
        lr = _value(group["lr"])
        state["step"] = _step_tensor(0.0, p, bool(group["capturable"]))
        state["prev"] = M.zeros_like(p)
        # a complex number's two parts step as independent reals
        state["step_size"] = M.full_like(p.grad, complex(lr, lr) if p.is_complex() else lr)

    def _state_keys(self, group):
        return ("prev", "step_size")

    def _update_one(self, group, p, grad, state):
        (etaminus, etaplus), (lo, hi) = group["etas"], group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        count(state)
        prev, step_size = state["prev"], state["step_size"]
        sign = grad.mul(prev).sign()
        # masks rather than where(): a NaN sign stays NaN, as PyTorch's
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(lo, hi)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0  # after a sign change: no step, and no memory of it
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
