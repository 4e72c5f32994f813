"""torch.optim.Adagrad: with lr decay and an initial accumulator value. Its state exists for
every parameter from construction on, as PyTorch's."""
from .._layout import LayoutKey
from ._fused import refuse_adagrad
from ._multi_tensor import count
from .optimizer import Optimizer, _check, _check_fused, _check_lr, _step_tensor, _value, _where

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        _check(0.0 <= lr_decay, f"Invalid lr_decay value: {lr_decay}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(0.0 <= initial_accumulator_value,
               f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, fused=fused))
        _check_fused(fused, foreach, differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(group, p, self.state[p])

    def _init_state(self, group, p, state):
        import mindtorch as M
        state["step"] = _step_tensor(0.0, p, "fused" if _where(group) == "fused" else False)
        init = self.defaults["initial_accumulator_value"]  # PyTorch reads the default here
        state["sum"] = M.full_like(p, complex(init, init) if p.is_complex() else init)

    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def _state_keys(self, group):
        return ("sum",)

    _fused_check_once = True  # (fused=True: the first parameter only, once)
    _fused_refuses = staticmethod(refuse_adagrad)
    _takes_sparse = True

    def _update_one(self, group, p, grad, state):
        lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
        step = count(state)
        if type(grad._device) is LayoutKey:
            return _sparse_update(group, p, grad, state["sum"], lr / (1 + (step - 1) * lr_decay))
        grad = self._grad(group, p, grad)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum = state["sum"]
        state_sum.addcmul_(grad, grad, value=1)
        # (differentiable: out of place, so that the root autograd saved stays as it was)
        std = state_sum.sqrt() + eps if group["differentiable"] else state_sum.sqrt().add_(eps)
        p.addcdiv_(grad, std, value=_value(-clr))


def _sparse_update(group, p, grad, state_sum, clr):
    """PyTorch's sparse Adagrad step: the accumulator and p change at grad's entries only."""
    from ..sparse import sparse_coo_tensor
    if _value(group["weight_decay"]) != 0:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    grad = (-grad if group["maximize"] else grad).coalesce()
    indices, values = grad._indices(), grad._values()
    state_sum.add_(sparse_coo_tensor(indices, values.pow(2), grad.shape))
    std = state_sum.sparse_mask(grad)._values().sqrt_().add_(group["eps"])
    p.add_(sparse_coo_tensor(indices, values / std, grad.shape), alpha=_value(-clr))
