"""torch.optim.RAdam: rectified Adam (plain momentum steps until the variance's rectification
term is defined, rho_t > 5), weight decay coupled or decoupled."""
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_betas, _check_lr, _foreach_form, _operand, _value

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
        # the variance's rectification term is defined from rho_t > 5 on; before, momentum
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5.0 else 0
        if _foreach_form(group):
            return _foreach_update(p, exp_avg, exp_avg_sq, _value(lr), eps, rect,
                                   bias_correction1, bias_correction2)
        update = exp_avg / bias_correction1 * _operand(lr)
        if rect:
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(eps)
            update = update.mul_(adaptive_lr).mul_(rect)
        p.add_(update, alpha=-1.0)


def _foreach_update(p, exp_avg, exp_avg_sq, lr, eps, rect, bias_correction1,
                    bias_correction2):
    """PyTorch's foreach arithmetic: p += exp_avg * (1 / ((sqrt(v) + eps) / c) + u), with
    c = -sqrt(bc2) * lr * rect / bc1 and u = -lr / bc1 while unrectified (rect 0: the
    reciprocal of an infinite quotient is -0, the step is plain momentum)."""
    unrectified = 0 if rect > 0 else 1.0
    scale = (bias_correction2 ** 0.5) * (lr * rect / bias_correction1) * -1
    buffer = exp_avg_sq.sqrt().add_(eps).div_(scale).reciprocal_()
    p.addcmul_(exp_avg, buffer.add_((lr * unrectified / bias_correction1) * -1))
