"""torch.optim.NAdam: Adam with Nesterov momentum (momentum decay schedule), weight decay
coupled or decoupled. `mu_product` is a scalar state tensor, multiplied in its own dtype
as PyTorch does (float32 unless the default dtype is float64)."""
from .._tensor import Tensor
from ._multi_tensor import count, first
from .optimizer import (
    Optimizer,
    _check,
    _check_betas,
    _check_lr,
    _foreach_form,
    _step_tensor,
    _value,
)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_lr(lr)
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(0.0 <= momentum_decay, f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach,
                                      capturable=capturable, differentiable=differentiable))

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for p in group["params"]:
                st = self.state.get(p)
                if st and not isinstance(st.get("mu_product"), Tensor):
                    st["mu_product"] = _step_tensor(st["mu_product"], p, group["capturable"])

    _scalar_keys = ("step", "mu_product")
    _scalar_starts = {"mu_product": 1.0}

    def _state_keys(self, group):
        return ("exp_avg", "exp_avg_sq")

    def _update_one(self, group, p, grad, state):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        momentum_decay = group["momentum_decay"]
        grad = self._grad(group, p, grad, group["decoupled_weight_decay"])
        step = count(state)
        bias_correction2 = 1 - beta2 ** step
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product = state["mu_product"]
        mu_product *= mu  # in its own dtype, as PyTorch
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        mu_product_value = first(mu_product)
        mu_product_next = mu_product_value * mu_next
        if group["differentiable"]:
            # PyTorch's form: the factors as tensors of mu_product's dtype, out of place
            # where autograd saved a value
            denom = exp_avg_sq.div(bias_correction2).sqrt() + eps
            p.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            p.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - mu_product * mu_next)), denom)
            return
        if _foreach_form(group):  # (PyTorch's foreach: sqrt, then divided by sqrt(bc2))
            denom = exp_avg_sq.sqrt().div_(_value(bias_correction2 ** 0.5)).add_(eps)
        else:
            denom = exp_avg_sq.div(bias_correction2).sqrt_().add_(eps)
        p.addcdiv_(grad, denom, value=_value(-lr * (1.0 - mu) / (1.0 - mu_product_value)))
        p.addcdiv_(exp_avg, denom, value=_value((-lr * mu_next) / (1.0 - mu_product_next)))
