"""torch.optim.Adam (and the update AdamW shares): Adam with amsgrad, maximize, weight
decay coupled to the gradient or decoupled."""
from .._tensor import Tensor
from ._fused import fused_tail, tail_fma
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_betas, _check_fused, _check_lr, _value

__all__ = ["Adam"]


def _to_scalar(x):
    """A 1-element tensor hyperparameter as a 0-dim tensor; numbers as they are."""
    return x.reshape(()) if isinstance(x, Tensor) else x


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and "
                                 "foreach=True")
        _check_lr(lr)
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(all(isinstance(b, float) for b in betas[:2])
               or all(isinstance(b, Tensor) for b in betas[:2]),
               "betas must be either both floats or both Tensors")
        for i, b in enumerate(betas[:2]):
            if isinstance(b, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for "
                                     "capturable=False and foreach=True")
                _check(b.numel() == 1, f"Tensor betas[{i}] must be 1-element")
        defaults = dict(lr=lr, betas=tuple(map(_to_scalar, betas)), eps=eps,
                        weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    def _state_keys(self, group):
        return ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if group["amsgrad"] else ())

    def _update_one(self, group, p, grad, state):
        import mindtorch as M
        # a tensor lr or beta is computed with as such and read at the end, as PyTorch
        lr, eps, (beta1, beta2) = group["lr"], group["eps"], group["betas"]
        grad = self._grad(group, p, grad, group["decoupled_weight_decay"])
        step = count(state)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, _value(1 - beta1))
        tail = fused_tail(group, p, grad)
        old_tail = exp_avg_sq.view(-1)[-tail:].clone() if tail else None
        exp_avg_sq.mul_(_value(beta2)).addcmul_(grad, grad, value=_value(1 - beta2))
        if tail:  # (the fused kernel's scalar loop: fma(v, beta2, (c * g) * g))
            g = grad.reshape(-1)[-tail:]
            tail_fma(exp_avg_sq, old_tail, _value(beta2), g * _value(1 - beta2) * g)
        step_size = _value(lr / (1 - beta1 ** step))
        bias_correction2_sqrt = _value((1 - beta2 ** step) ** 0.5)
        if group["amsgrad"]:
            second = state["max_exp_avg_sq"]
            M.maximum(second, exp_avg_sq, out=second)
        else:
            second = exp_avg_sq
        if group["differentiable"]:
            # PyTorch's form: the bias corrections as tensors of the step's dtype (a tensor
            # lr or betas stay in the graph), out of place where autograd saved a value
            step_t = state["step"]
            neg = -(lr / (1 - beta1 ** step_t))
            denom = second.sqrt() / ((1 - beta2 ** step_t).sqrt() * neg) + eps / neg
            p.addcdiv_(exp_avg.clone(), denom)
        else:
            denom = second.sqrt().div_(bias_correction2_sqrt).add_(eps)  # (no temporary)
            p.addcdiv_(exp_avg, denom, value=-step_size)

