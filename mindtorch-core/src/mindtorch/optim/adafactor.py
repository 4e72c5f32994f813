"""torch.optim.Adafactor: second moments factored into row and column statistics for
matrices (a full one for vectors), relative step sizes, update clipping."""
from .._tensor import Tensor
from .optimizer import Optimizer, _check, _step_tensor

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    _complex_as_real = False

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        _check(0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}")
        _check(0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}")
        _check(eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}")
        _check(0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}")
        _check(1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}")
        _check(0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    def _init_state(self, group, p, state):
        import mindtorch as M
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        grad = p.grad
        state["step"] = _step_tensor(0.0, p, False)
        if grad.dim() > 1:
            row, col = list(grad.shape), list(grad.shape)
            row[-1], col[-2] = 1, 1
            state["row_var"] = M.zeros(row, dtype=grad.dtype, device=grad.device)
            state["col_var"] = M.zeros(col, dtype=grad.dtype, device=grad.device)
        else:
            state["variance"] = M.zeros_like(grad)

    def _update(self, group, params, grads):
        import mindtorch as M
        states = self._states(group, params)
        if any(p.is_complex() for p in params):
            raise RuntimeError("Adafactor does not support complex parameters")
        # eps1 None: the first parameter's machine epsilon, kept for the others (PyTorch's)
        eps1 = group["eps"][0]
        if eps1 is None and params:
            eps1 = M.finfo(params[0].dtype).eps
        for p, grad, state in zip(params, grads, states):
            self._update_one(group, p, grad, state, eps1)

    def _update_one(self, group, p, grad, state, eps1):
        import mindtorch as M
        lr, eps2, wd = group["lr"], group["eps"][1], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        step_t = state["step"]
        step_t += 1
        step = step_t.item()
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho  # relative step size
        if wd != 0:
            p.mul_(1 - lr * wd)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(M.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1)),
                          one_minus_beta2)
            col_var.lerp_(M.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2)),
                          one_minus_beta2)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(grad * grad, one_minus_beta2)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_().mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        p.add_(update, alpha=-alpha / denom)
