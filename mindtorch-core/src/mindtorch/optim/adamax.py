"""torch.optim.Adamax: Adam with the infinity norm."""
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_betas, _check_lr, _value

__all__ = ["Adamax"]


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, capturable=capturable))

    def _state_keys(self, group):
        return ("exp_avg", "exp_inf")

    def _update_one(self, group, p, grad, state):
        import mindtorch as M
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = self._grad(group, p, grad)
        step = count(state)
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        M.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** step)
        p.addcdiv_(exp_avg, exp_inf, value=_value(-clr))
