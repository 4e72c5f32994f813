"""torch.optim.Optimizer: parameter groups, per-parameter state and its state_dict.

Subclasses give their defaults, `_state_keys(group)`, the state tensors like the parameter
(zeros on its first step, after the scalar `step`, unless `_init_state(group, p, state)` is
overridden), and `_update_one(group, p, grad, state)`, one parameter's update,
which step() runs under no_grad (grad mode = `differentiable`, as PyTorch) for the
parameters that have a gradient, small ones together through the multi-tensor path
(_multi_tensor.py), which may flatten the state `_state_keys` names. An optimizer may
take a whole group's step itself by overriding `_update(group, params, grads)` (SGD
without momentum: one `add_` per parameter, no state)."""
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
import functools
import inspect
from copy import deepcopy
from itertools import chain
import warnings

from .._layout import LayoutKey
from .._runtime import typename as _typename
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, set_grad_enabled
from ..utils.hooks import _args_kwargs_result, add_hook
from ._capturable import check_capturable
from ._fused import check_fused
from ._helpers import (  # noqa: F401 (hand-written optimizers import them from here)
    ParamsT, StateDict, _capturable_doc, _default_to_fused_or_foreach,
    _device_dtype_check_for_fused, _differentiable_doc, _disable_dynamo_if_unsupported,
    _foreach_doc, _fused_doc, _get_capturable_supported_devices,
    _get_foreach_kernels_supported_devices, _get_fused_kernels_supported_devices,
    _get_scalar_dtype, _get_value, _group_tensors_by_device_and_dtype, _maximize_doc,
    _params_doc, _stack_if_compiling, _to_scalar, _use_grad_for_differentiable, _view_as_real)
from ._multi_tensor import MIN_TENSORS, split_flat, value

__all__ = ["Optimizer", "register_optimizer_step_post_hook",
           "register_optimizer_step_pre_hook", "required"]

_global_pre_hooks = OrderedDict()
_global_post_hooks = OrderedDict()
_HOOK_TABLES = ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks")


def register_optimizer_step_pre_hook(hook):
    """A step pre-hook for every optimizer: hook(optimizer, args, kwargs), run before the
    instances' own."""
    return add_hook(_global_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    return add_hook(_global_post_hooks, hook)


def _hooked_step(step):
    """step() running the global and instance step hooks around it (PyTorch patches the
    step of each optimizer class once, at its first instance)."""
    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        self = args[0]  # the hooks see step's arguments with self, as PyTorch's
        pre = self._optimizer_step_pre_hooks
        if pre or _global_pre_hooks:  # (the common case has none: no chain to build)
            for hook in chain(_global_pre_hooks.values(), pre.values()):
                result = _args_kwargs_result(hook(self, args, kwargs), step)
                if result is not None:
                    args, kwargs = result
        out = step(*args, **kwargs)
        post = self._optimizer_step_post_hooks  # (read after the step, which may add some)
        if post or _global_post_hooks:
            for hook in chain(post.values(), _global_post_hooks.values()):
                hook(self, args, kwargs)
        return out
    wrapper.hooked = True
    return wrapper


class _RequiredParameter:
    """Marks a default that every parameter group must give (PyTorch's `required`)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _scalar_dtype():
    """The dtype of `step` and other scalar state: float64 when that is the default dtype."""
    import mindtorch as M
    return M.float64 if M.get_default_dtype() is M.float64 else M.float32


def _step_tensor(value, p, where):
    """A 0-dim scalar state tensor (`step`, NAdam's `mu_product`). PyTorch keeps it on the
    CPU, read back with .item() (so parameters on any device, meta included, step alike),
    unless capturable/fused (`where`, see _where)."""
    import mindtorch as M
    if where:
        dtype = M.float32 if where == "fused" else _scalar_dtype()
        return M.full((), value, dtype=dtype, device=p.device)
    return M.tensor(value, dtype=_scalar_dtype(), device="cpu")  # (even in a device context)


def _where(group):
    """Where a group's `step` lives: "fused" (float32 on the parameter's device), True
    (capturable: on the parameter's device) or False (a CPU tensor)."""
    return "fused" if group.get("fused") else bool(group.get("capturable", False))


def _value(x):
    """A Python number from a hyperparameter that may be a (1-element) tensor."""
    return x.item() if isinstance(x, Tensor) else x


def _operand(x):
    """A hyperparameter as an update uses it: a tensor that requires grad (a learned lr,
    with differentiable=True) stays one, in the graph as in PyTorch; else _value(x)."""
    return x if isinstance(x, Tensor) and x.requires_grad else _value(x)


def _foreach_form(group):
    """Whether the group asked for foreach=True: PyTorch then runs its multi-tensor
    functions, whose arithmetic some optimizers order differently (NAdam, RAdam, ASGD);
    the default (None) on the CPU is its single-tensor arithmetic."""
    return bool(group.get("foreach")) and not group.get("differentiable")


def _check(ok, message):
    if not ok:
        raise ValueError(message)


def _check_lr(lr):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    _check(0.0 <= lr, f"Invalid learning rate: {lr}")


def _check_betas(betas):
    for i in (0, 1):
        _check(0.0 <= betas[i] < 1.0, f"Invalid beta parameter at index {i}: {betas[i]}")


def _check_fused(fused, foreach, differentiable):
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _as_real(t):
    import mindtorch as M
    return M.view_as_real(t) if isinstance(t, Tensor) and t.is_complex() else t


class Optimizer:
    # complex parameters are updated through their real views (all but SGD, as PyTorch)
    _complex_as_real = True

    def __init__(self, params, defaults):
        self.defaults = defaults
        for table in _HOOK_TABLES:
            setattr(self, table, OrderedDict())
        self._patch_step_function()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for table in _HOOK_TABLES:
            if table not in self.__dict__:
                setattr(self, table, OrderedDict())
        self._patch_step_function()
        # states of older versions may lack newer options or keep `step` as a number
        # ("differentiable" only where the constructor takes it: the setdefault below
        # adds it to LBFGS's / SparseAdam's defaults, never to their groups)
        own = inspect.signature(type(self).__init__).parameters
        for group in self.param_groups:
            for name, default in self.defaults.items():
                if default is not required and (name != "differentiable" or name in own):
                    group.setdefault(name, default)
            for p in group["params"]:
                st = self.state.get(p)
                if st and "step" in st and not isinstance(st["step"], Tensor):
                    st["step"] = _step_tensor(float(st["step"]), p, _where(group))
        # (after the groups: an optimizer without the option does not get it in its groups)
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {k}: {group[k]}\n" for k in sorted(group) if k != "params")
        return text + ")"

    _group_tensors_by_device_and_dtype = staticmethod(_group_tensors_by_device_and_dtype)

    # ---------------------------------------------------------------------------- hooks
    def _patch_step_function(self):
        cls = type(self)
        if not getattr(cls.step, "hooked", False):
            cls.step = _hooked_step(cls.step)

    def register_step_pre_hook(self, hook):
        """hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs), before step."""
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """hook(optimizer, args, kwargs), after step."""
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """hook(optimizer), before state_dict() builds the dict."""
        return add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """hook(optimizer, state_dict) -> None or the state_dict to return."""
        return add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """hook(optimizer, state_dict) -> None or the state_dict to load."""
        return add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """hook(optimizer), after load_state_dict()."""
        return add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ----------------------------------------------------------------- parameter groups
    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. "
                                 "Some param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not seen.isdisjoint(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    # ----------------------------------------------------------------------------- step
    def step(self, closure=None):
        if type(self)._update_one is Optimizer._update_one:
            raise NotImplementedError
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with set_grad_enabled(bool(self.defaults.get("differentiable", False))):
            for group in self.param_groups:
                params, grads = [], []
                self._sparse_step = False
                for p in group["params"]:
                    grad = p.grad
                    if grad is not None:
                        params.append(p)
                        grads.append(grad)
                        if type(grad._device) is LayoutKey:
                            self._sparse_grad(group)
                if params:
                    if group.get("fused"):
                        check_fused(self, params)
                    if group.get("capturable"):
                        check_capturable(self, group, params)
                    self._update(group, params, grads)
        return loss

    def _state_of(self, group, p):
        """p's state, initialised on first use (an optimizer with nothing to initialise,
        SGD, leaves no empty entry behind, as PyTorch)."""
        state = self.state.get(p)
        if not state:
            state = {}
            self._init_state(group, p, state)
            if state:
                self.state[p] = state
        return state

    def _init_state(self, group, p, state):
        """The usual first state: the scalars (`step`...), then zeros like p for each of
        _state_keys."""
        keys = self._state_keys(group)
        if keys is not None:
            import mindtorch as M
            for key in self._scalar_keys:
                state[key] = _step_tensor(self._scalar_starts.get(key, 0.0), p, _where(group))
            for key in keys:
                state[key] = M.zeros_like(p)

    # the multi-tensor path (_multi_tensor): the state tensors and scalars that may live
    # in flat buffers (None: the optimizer has none), from how many small tensors on
    _scalar_keys = ("step",)
    _scalar_starts = {}  # their first values other than 0
    _min_tensors = MIN_TENSORS

    def _state_keys(self, group):
        return None

    def _states(self, group, params):
        """The parameters' states for this step (_state_of each)."""
        return [self._state_of(group, p) for p in params]

    def _update(self, group, params, grads):
        """One step for a group's parameters that have a gradient: the small ones together
        (split_flat), the others one by one, complex ones through their real views."""
        states = self._states(group, params)
        if self._complex_as_real and any(p.is_complex() for p in params):
            states = [{k: _as_real(v) for k, v in s.items()} if p.is_complex() else s
                      for p, s in zip(params, states)]
            params, grads = [_as_real(p) for p in params], [_as_real(g) for g in grads]
        keys = self._state_keys(group)
        items = zip(params, grads, states) if keys is None or self._sparse_step else \
            split_flat(self, group, params, grads, states, keys, self._scalar_keys,
                       self._min_tensors)
        for p, grad, state in items:
            self._update_one(group, p, grad, state)

    def _update_one(self, group, p, grad, state):
        """One step for p (a tensor, or the flat tensors' FlatParams) and its state."""
        raise NotImplementedError

    _fused_check_once = False  # fused=True: each new state's parameter checked (_fused)
    _fused_refuses = None  # fused=True: what else the kernel refuses, at every step
    _takes_sparse = False  # whether sparse gradients are followed (then per tensor)
    _sparse_step = False

    def _sparse_grad(self, group):
        if not self._takes_sparse:
            name = type(self).__name__
            raise RuntimeError("Adam does not support sparse gradients, please consider "
                               "SparseAdam instead" if name in ("Adam", "AdamW") else
                               f"{name} does not support sparse gradients")
        self._sparse_step = True

    @staticmethod
    def _grad(group, p, grad, decoupled=False):
        """The gradient the update follows: negated to maximize, plus the weight decay
        coupled to it (a `decoupled` one shrinks p instead)."""
        if group["maximize"]:
            grad = -grad
        wd = _value(group["weight_decay"])
        if wd != 0:
            if decoupled:
                p.mul_(_operand(1 - group["lr"] * wd))
            else:
                grad = grad.add(value(p), alpha=wd)
        return grad

    # ------------------------------------------------------------------------ state_dict
    def state_dict(self):
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        index = {}
        start = 0

        def pack(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        groups = [pack(g) for g in self.param_groups]
        state = {(index[id(k)] if isinstance(k, Tensor) else k): v
                 for k, v in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict):
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def on_device(param, value, owner, key=None):
            """A copy of value with its tensors on param's device (floating state in
            param's dtype; `step` as it is unless capturable/fused)."""
            if isinstance(value, Tensor):
                if key == "step":
                    if owner.get("capturable", False) or owner.get("fused", False):
                        import mindtorch as M
                        return value.to(dtype=M.float32, device=param.device)
                    return value
                if param.is_floating_point():
                    return value.to(dtype=param.dtype, device=param.device)
                return value.to(device=param.device)
            if isinstance(value, dict):
                return {k: on_device(param, v, owner, k) for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(on_device(param, v, owner) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                owner = next((g for g in state_dict["param_groups"] if k in g["params"]), {})
                state[id_map[k]] = on_device(id_map[k], v, owner)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        groups = [update_group(g, s) for g, s in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)
