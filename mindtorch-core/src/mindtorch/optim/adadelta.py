"""torch.optim.Adadelta."""
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_lr, _value

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= rho <= 1.0, f"Invalid rho value: {rho}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, capturable=capturable,
                                      foreach=foreach, differentiable=differentiable))

    def _state_keys(self, group):
        return ("square_avg", "acc_delta")

    def _update_one(self, group, p, grad, state):
        rho, eps = group["rho"], group["eps"]
        count(state)
        grad = self._grad(group, p, grad)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if group["differentiable"]:  # (sqrt_ saved its result for backward)
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        p.add_(delta, alpha=_value(-group["lr"]))
