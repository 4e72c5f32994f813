"""torch.optim.ASGD: averaged SGD. Its scalar state (step, eta, mu) lives on the
parameter's device, as PyTorch's."""
from ._multi_tensor import count, first, value
from .optimizer import Optimizer, _check, _check_lr, _foreach_form, _scalar_dtype, _value

__all__ = ["ASGD"]


class ASGD(Optimizer):
    _scalar_keys = ("step", "eta", "mu")

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _init_state(self, group, p, state):
        import mindtorch as M
        dt = _scalar_dtype()
        state["step"] = M.zeros((), dtype=dt, device=p.device)
        state["eta"] = M.full((), _value(group["lr"]), dtype=dt, device=p.device)
        state["mu"] = M.ones((), dtype=dt, device=p.device)
        state["ax"] = M.zeros_like(p)

    def _state_keys(self, group):
        return ("ax",)

    def _update_one(self, group, p, grad, state):
        import mindtorch as M
        # (a tensor lr stays one: PyTorch computes the next eta with it in its dtype)
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        grad = self._grad(group, p, grad)
        step = count(state)
        if _foreach_form(group):
            return _foreach_update(group, p, grad, state, step)
        eta = first(state["eta"])
        p.mul_(1 - lambd * eta)  # decay
        p.add_(grad, alpha=-eta)
        ax = state["ax"]
        if first(state["mu"]) != 1:
            ax.add_(value(p).sub(ax).mul_(first(state["mu"])))
        else:
            ax.copy_(value(p))
        # through a tensor of the default dtype, as PyTorch (rounded to float32 by default,
        # whatever eta's dtype: loading a state casts it to the parameter's)
        state["eta"].copy_(M.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        state["mu"].copy_(M.as_tensor(1 / max(1, step - t0)))


def _foreach_update(group, p, grad, state, step):
    """PyTorch's foreach arithmetic: p -= eta * (grad + lambd * p) and ax += mu * (p - ax)
    with the eta and mu tensors, then the next eta in the step tensor's dtype."""
    lr, lambd, alpha, t0 = _value(group["lr"]), group["lambd"], group["alpha"], group["t0"]
    eta, mu, step_t = (state[k] if state[k].ndim == 0 else state[k][0]
                       for k in ("eta", "mu", "step"))  # (flat: one per tensor, all equal)
    if grad.dtype.itemsize > eta.dtype.itemsize:  # (exact: the in-place kernels' fast path)
        eta, mu = eta.to(grad.dtype), mu.to(grad.dtype)
    p.addcmul_(grad.add(value(p), alpha=lambd), eta, value=-1)
    ax = state["ax"]
    ax.addcmul_(value(p).sub(ax), mu)
    state["eta"].copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
    state["mu"].copy_(1 / max(1, step - t0))
