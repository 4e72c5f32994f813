"""torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov."""
from .._tensor import Tensor
from ._multi_tensor import split_flat
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
        rest = zip(params, grads, states)
        if group["momentum"] != 0:  # (without momentum a step is one op per tensor anyway)
            states = [self.state[p] for p in params]
            flat, flat_grads, rest = split_flat(self, group, params, grads, states,
                                                ("momentum_buffer",), with_step=False,
                                                min_tensors=24)
            if flat is not None:
                self._update_flat(group, flat, flat_grads)
        for p, grad, state in rest:
            grad = self._direction(group, grad, p, state)
            p.add_(grad, alpha=_value(-group["lr"]))

    def _update_flat(self, group, flat, grads):
        """The same arithmetic on the flat momentum buffer (see _multi_tensor)."""
        params = flat.flat_params() if group["weight_decay"] != 0 else None
        direction = self._direction(group, flat.grad(grads), params, flat.buffers)
        if direction is flat.buffers["momentum_buffer"]:
            views = flat.views["momentum_buffer"]
        else:  # Nesterov: a new flat tensor
            views = flat.scratch_views
            flat.scratch.copy_(direction)
        flat.apply(views, alpha=_value(-group["lr"]))

    @staticmethod
    def _direction(group, grad, p, state):
        """The step's direction from the gradient (momentum buffer in `state` updated)."""
        if group["maximize"]:
            grad = -grad
        wd, momentum = _value(group["weight_decay"]), group["momentum"]
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.detach().clone()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        return grad
