"""torch.optim.swa_utils: weight averaging (SWA, EMA) of a model, BatchNorm statistics
recomputed for the averaged weights, and the SWA learning-rate schedule."""
import itertools
import math
import warnings
from copy import deepcopy

from ..autograd.grad_mode import no_grad
from ..nn import Module
from .lr_scheduler import LRScheduler, _per_group

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """In-place exponential moving average over lists of tensors."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_params, current_params, _):
        if ema_params[0].is_floating_point() or ema_params[0].is_complex():
            for e, c in zip(ema_params, current_params):
                e.lerp_(c, 1 - decay)
        else:
            for e, c in zip(ema_params, current_params):
                e.copy_(e * decay + c * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """In-place running mean over lists of tensors."""
    @no_grad()
    def swa_update(averaged_params, current_params, num_averaged):
        from .._tensor import Tensor
        if averaged_params[0].is_floating_point() or averaged_params[0].is_complex():
            weight = 1 / (num_averaged + 1)
            weight = weight.item() if isinstance(weight, Tensor) else weight
            for a, c in zip(averaged_params, current_params):
                a.lerp_(c, weight)
        else:
            for a, c in zip(averaged_params, current_params):
                diff = c - a
                if isinstance(num_averaged, Tensor):
                    a.addcdiv_(diff, num_averaged + 1)
                else:
                    a.add_(diff, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay=0.999):
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    @no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters (and buffers with use_buffers=True) are the
    average of the models passed to update_parameters (the running mean by default)."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        import mindtorch as M
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", M.tensor(0, dtype=M.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        def tensors(m, own):
            if self.use_buffers:
                return itertools.chain(m.parameters(), m.buffers())
            return self.parameters() if own else m.parameters()
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for a, c in zip(tensors(self.module, True), tensors(model, False)):
            c = c.detach().to(a.device)
            averaged.append(a.detach())
            current.append(c)
            if first:
                a.detach().copy_(c)
        if self.n_averaged > 0:
            with no_grad():
                if self.avg_fn is None:
                    self._average_groups(averaged, current)
                else:
                    for a, c in zip(averaged, current):
                        a.copy_(self.avg_fn(a, c, self.n_averaged.to(a.device)))
        if not self.use_buffers:  # buffers follow the model's (e.g. BatchNorm statistics)
            for b_avg, b_model in zip(self.module.buffers(), model.buffers()):
                b_avg.detach().copy_(b_model.detach().to(b_avg.device))
        self.n_averaged += 1

    def _average_groups(self, averaged, current):
        """multi_avg_fn (or the running mean) per (device, dtype) group, as PyTorch."""
        groups = {}
        for a, c in zip(averaged, current):
            groups.setdefault((a.device, a.dtype), ([], []))
            groups[(a.device, a.dtype)][0].append(a)
            groups[(a.device, a.dtype)][1].append(c)
        for (device, _), (avg, cur) in groups.items():
            n = self.n_averaged.to(device)
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(avg, cur, n)
            else:  # PyTorch's path off its foreach devices (cpu)
                swa = get_swa_avg_fn()
                for a, c in zip(avg, cur):
                    a.copy_(swa(a, c, n))


@no_grad()
def update_bn(loader, model, device=None):
    """Recompute the BatchNorm running statistics of `model` with one pass over `loader`
    (a cumulative average: momentum None meanwhile)."""
    from ..nn.modules.batchnorm import _BatchNorm
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to its swa_lr over anneal_epochs (cos or linear), then holds."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        """The lr the annealing started from, recovered from the current one."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        span = max(1, self.anneal_epochs)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / span)))
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha)
                    for g in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / span)))
        return [g["swa_lr"] * alpha + lr * (1 - alpha)
                for g, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
