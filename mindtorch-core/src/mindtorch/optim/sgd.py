"""torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov."""
from .._tensor import Tensor
from .optimizer import Optimizer, _check, _check_fused, _value

__all__ = ["SGD"]


class SGD(Optimizer):
    _complex_as_real = False  # every step is linear in the values: complex tensors as they are

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        _check(not lr < 0.0, f"Invalid learning rate: {lr}")  # SGD lets a NaN lr through
        _check(not momentum < 0.0, f"Invalid momentum value: {momentum}")
        _check(not weight_decay < 0.0, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    def _update(self, group, params, grads, states):
        lr, wd = group["lr"], _value(group["weight_decay"])
        momentum, dampening = group["momentum"], group["dampening"]
        for p, grad in zip(params, grads):
            if group["maximize"]:
                grad = -grad
            if wd != 0:
                grad = grad.add(p, alpha=wd)
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = grad.detach().clone()
                else:
                    buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
            p.add_(grad, alpha=_value(-lr))
