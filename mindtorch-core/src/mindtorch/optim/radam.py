"""torch.optim.RAdam: rectified Adam (plain momentum steps until the variance's rectification
term is defined, rho_t > 5), weight decay coupled or decoupled."""
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_betas, _check_lr, _value

__all__ = ["RAdam"]


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, foreach=foreach,
                                      capturable=capturable,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      differentiable=differentiable))

    def _state_keys(self, group):
        return ("exp_avg", "exp_avg_sq")

    def _update_one(self, group, p, grad, state):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = self._grad(group, p, grad, group["decoupled_weight_decay"])
        step = count(state)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        update = (exp_avg / bias_correction1).mul_(_value(lr))
        # the variance's rectification term is defined from rho_t > 5 on; before, momentum
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(eps)
            update = update.mul_(adaptive_lr).mul_(rect)
        p.add_(update, alpha=-1.0)
