"""torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov."""
from .._tensor import Tensor
from ._fused import fused_tail, refuse_sgd, tail_fma
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

    def __setstate__(self, state):
        # (PyTorch's SGD: a group saved without "fused" loads as fused=False, not the
        # constructor's None)
        for group in state.get("param_groups", ()):
            group.setdefault("fused", False)
        super().__setstate__(state)

    _fused_check_once = True  # (fused=True: the first parameter only, once)
    _fused_refuses = staticmethod(refuse_sgd)
    _scalar_keys = ()
    _takes_sparse = True  # (a sparse momentum buffer, as PyTorch's)
    _min_tensors = 24  # the measured break-even: ~2 ops saved per tensor

    def _state_keys(self, group):
        return ("momentum_buffer",)  # (with momentum: _update)

    def _states(self, group, params):
        # the momentum buffer is the first gradient (_update_one): the registered states
        return [self.state[p] for p in params]

    def _update(self, group, params, grads):
        if group["momentum"] != 0:
            return super()._update(group, params, grads)
        # without momentum, no state (SGD leaves no empty entries) and one op per tensor
        plain = not group["maximize"] and _value(group["weight_decay"]) == 0
        for p, grad in zip(params, grads):
            _descend(p, grad if plain else self._grad(group, p, grad), group["lr"])

    def _update_one(self, group, p, grad, state):
        grad, momentum = self._grad(group, p, grad), group["momentum"]
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = state["momentum_buffer"] = grad.detach().clone()
        else:
            tail = fused_tail(group, p, grad)
            old_tail = buf.view(-1)[-tail:].clone() if tail else None
            buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            if tail:  # (the fused kernel's scalar loop: fma(buf, momentum, g * (1 - d)))
                g = grad.reshape(-1)[-tail:]
                tail_fma(buf, old_tail, momentum, g * (1 - group["dampening"]))
        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        _descend(p, grad, group["lr"])


def _descend(p, grad, lr):
    """p -= lr * grad; a tensor lr that requires grad (a learned learning rate, with
    differentiable=True) stays in the graph, as in PyTorch."""
    if isinstance(lr, Tensor) and lr.requires_grad:
        p.addcmul_(grad, lr, value=-1)
    else:
        p.add_(grad, alpha=_value(-lr))
