"""RemovableHandle: what register_*hook functions return; nn.Module's hook machinery: the
global (register_module_*) hook tables, the hooked call path, BackwardHook for full backward
hooks."""
import warnings
import weakref
from collections import OrderedDict


class _StrongRef:
    """Stands for a weak reference to a plain dict (which cannot have one)."""
    __slots__ = ("table",)

    def __init__(self, table):
        self.table = table

    def __call__(self):
        return self.table


def _ref(table):
    # (PyTorch's handles keep no hook table alive: weak references where Python allows)
    try:
        return weakref.ref(table)
    except TypeError:
        return _StrongRef(table)


class RemovableHandle:
    """handle.remove() takes the hook out of the dict it was registered in (hooks are kept
    in dicts keyed by handle id, so they run in registration order) and out of the
    ``extra_dict`` ones (flags kept per hook); also a context manager that removes it on
    exit. The handle refers to those dicts weakly (``hooks_dict_ref``, ``extra_dict_ref``),
    as PyTorch's."""
    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = _ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if extra_dict is None:
            extra_dict = ()
        elif isinstance(extra_dict, dict):
            extra_dict = (extra_dict,)
        self.extra_dict_ref = tuple(_ref(d) for d in extra_dict)

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None:
                table.pop(self.id, None)

    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state):
        # (a dict that is gone comes back as an empty one no one holds: a dead reference)
        self.hooks_dict_ref = _ref(OrderedDict() if state[0] is None else state[0])
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        extra = state[2] if len(state) > 2 and state[2] is not None else ()
        self.extra_dict_ref = tuple(_ref(d) for d in extra if d is not None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def add_hook(hooks_dict, fn, prepend=False, extra=None):
    """Register fn in hooks_dict (first with prepend; `extra` are the flag dicts the
    handle also clears) and return its RemovableHandle."""
    handle = RemovableHandle(hooks_dict, extra_dict=extra)
    hooks_dict[handle.id] = fn
    if prepend:
        hooks_dict.move_to_end(handle.id, last=False)
    return handle


def unserializable_hook(f):
    """Mark f as a tensor hook that is not serialized, silencing the warning of pickling a
    tensor that has it."""
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor):
    """Warn about each of tensor's hooks (those not marked unserializable): pickling drops
    them."""
    for hook in (tensor._backward_hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(f"backward hook {hook!r} on tensor will not be serialized.  If this "
                          f"is expected, you can decorate the function with "
                          f"@torch.utils.hooks.unserializable_hook to suppress this warning",
                          stacklevel=2)


def _backward_hook_function():
    """The identity autograd Function whose nodes catch a module's input and output
    gradients (made on first use: autograd imports after this module)."""
    global _BackwardHookFunction
    if _BackwardHookFunction is None:
        from ..autograd.function import Function

        class BackwardHookFunction(Function):
            @staticmethod
            def forward(ctx, *args):
                ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
                return args

            @staticmethod
            def backward(ctx, *grads):
                return grads

        _BackwardHookFunction = BackwardHookFunction
    return _BackwardHookFunction


_BackwardHookFunction = None


class BackwardHook:
    """Runs a module's full backward (pre) hooks: the module's tensor inputs and outputs
    pass through identity nodes; the output node's hook sees grad_output (and runs the
    pre-hooks), the input node's hook sees grad_input and calls the user hooks with both.
    Non-tensor positions are None in the tuples the hooks get."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_outputs = self.n_inputs = -1
        self.output_tensors_index = self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for i, v in zip(indices, values):
            res[i] = v
        return tuple(res)

    def _apply_on_tensors(self, fn, args):
        from .._tensor import Tensor
        from ..autograd.grad_mode import is_grad_enabled
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in idx]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new = _backward_hook_function().apply(*tensors)
        fns = [t.grad_fn for t in new if t.grad_fn is not None]
        fn(fns[0])
        out = list(args)
        for i, t in zip(idx, new):
            out[i] = t
        return (tuple(out) if type(args) is tuple else type(args)(*out)), idx

    def _input_hook(self, grad_input, _):
        if self.grad_outputs is None:  # reached the inputs without passing the outputs
            return None
        res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_tensors_index)

    def _output_hook(self, _, grad_output):
        self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output,
                                                 self.n_outputs)
        for hook in self.user_pre_hooks:
            out = hook(self.module, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(self.grad_outputs):
                raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                   f"grad_output, got {len(out)}, but expected "
                                   f"{len(self.grad_outputs)}")
            self.grad_outputs = out
        local = self.grad_outputs
        if self.input_tensors_index is None:  # no input requires grad: call the hooks now
            warnings.warn("Full backward hook is firing when gradients are computed with "
                          "respect to module outputs since no inputs require gradients. See "
                          "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                          "#torch.nn.Module.register_full_backward_hook for more details.",
                          stacklevel=5)
            grad_inputs = (None,) * self.n_inputs
            for hook in self.user_hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and
                                            all(r is None for r in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        if local is not None:
            return tuple(local[i] for i in self.output_tensors_index)
        return None

    # (named as PyTorch's, for the messages about the gradients they return)
    _input_hook.__name__ = _output_hook.__name__ = "hook"

    def setup_input_hook(self, args):
        res, idx = self._apply_on_tensors(lambda fn: fn.register_hook(self._input_hook), args)
        self.n_inputs, self.input_tensors_index = len(args), idx
        return res

    def setup_output_hook(self, args):
        single = not isinstance(args, tuple)
        if single:
            args = (args,)
        res, idx = self._apply_on_tensors(lambda fn: fn.register_hook(self._output_hook),
                                          args)
        self.n_outputs, self.output_tensors_index = len(args), idx
        return res[0] if single else res


class _WeakModuleHook:
    """A hook called with the module first (state-dict hooks registered with_module),
    holding the module weakly so a hook does not keep its module alive."""

    def __init__(self, hook, module=None):
        self.hook = hook
        self.module = None if module is None else weakref.ref(module)

    def __call__(self, *args, **kwargs):
        if self.module is None:
            return self.hook(*args, **kwargs)
        module = self.module()
        if module is None:
            raise RuntimeError("You are trying to call the hook of a dead Module!")
        return self.hook(module, *args, **kwargs)

    def __getstate__(self):
        return {"hook": self.hook, "module": None if self.module is None else self.module()}

    def __setstate__(self, state):
        self.hook = state["hook"]
        self.module = None if state["module"] is None else weakref.ref(state["module"])


# global hooks (register_module_*): run for every module, before the module's own
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()


def register_module_forward_pre_hook(hook):
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    handle = add_hook(_global_forward_hooks, hook, extra=[
        _global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def _set_global_backward_kind(full):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as "
                           "a global Module hook. Please use only one of them.")
    _global_is_full_backward_hook = full


def register_module_backward_hook(hook):
    _set_global_backward_kind(False)
    return add_hook(_global_backward_hooks, hook)


def register_module_full_backward_hook(hook):
    _set_global_backward_kind(True)
    return add_hook(_global_backward_hooks, hook)


def register_module_full_backward_pre_hook(hook):
    return add_hook(_global_backward_pre_hooks, hook)


def register_module_buffer_registration_hook(hook):
    return add_hook(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    return add_hook(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    return add_hook(_global_parameter_registration_hooks, hook)


def _args_kwargs_result(out, what):
    """A with-kwargs pre-hook's result: None, or the (new_args, new_kwargs) it returns."""
    if out is not None and not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{what} must return None or a tuple of (new_args, new_kwargs), "
                           f"but got {out}.")
    return out


def _run_registration_hooks(hooks, module, name, value):
    for hook in hooks.values():
        out = hook(module, name, value)
        if out is not None:
            value = out
    return value


def call_with_hooks(self, args, kwargs):
    """Module.__call__ when some hook is registered: forward pre-hooks, the backward
    hooks' identity nodes around forward, forward hooks (always_call ones also when
    forward raises)."""
    from .._tensor import Tensor
    result = None
    called_always = set()
    try:
        full, non_full = self._get_backward_hooks()
        pre_bw = self._get_backward_pre_hooks()
        for hook_id, hook in (*_global_forward_pre_hooks.items(),
                              *self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                out = _args_kwargs_result(hook(self, args, kwargs), "forward pre-hook")
                if out is not None:
                    args, kwargs = out
            else:
                out = hook(self, args)
                if out is not None:
                    args = out if isinstance(out, tuple) else (out,)
        bw_hook = None
        if full or pre_bw:
            bw_hook = BackwardHook(self, full, pre_bw)
            args = bw_hook.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook_id, hook in (*_global_forward_hooks.items(),
                              *self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called or \
                    hook_id in _global_forward_hooks_always_called:
                called_always.add(hook_id)
            if hook_id in self._forward_hooks_with_kwargs or \
                    hook_id in _global_forward_hooks_with_kwargs:
                out = hook(self, args, kwargs, result)
            else:
                out = hook(self, args, result)
            if out is not None:
                result = out
        if bw_hook:
            if not isinstance(result, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a "
                              "Tensor or a tuple of Tensors but received "
                              f"{type(result)}", stacklevel=2)
            result = bw_hook.setup_output_hook(result)
        if non_full:
            var = result
            while not isinstance(var, Tensor):
                var = next(v for v in var.values() if isinstance(v, Tensor)) \
                    if isinstance(var, dict) else var[0]
            if var.grad_fn is not None:
                _warn_non_full(args, result, var.grad_fn)
                for hook in non_full:
                    var.grad_fn.register_hook(_WeakModuleHook(hook, self))
        return result
    except Exception:
        for hooks, global_ in ((_global_forward_hooks, True), (self._forward_hooks, False)):
            for hook_id, hook in list(hooks.items()):
                always = (_global_forward_hooks_always_called if global_
                          else self._forward_hooks_always_called)
                if hook_id not in always or hook_id in called_always:
                    continue
                try:
                    kw = hook_id in (_global_forward_hooks_with_kwargs if global_
                                     else self._forward_hooks_with_kwargs)
                    out = hook(self, args, kwargs, result) if kw else \
                        hook(self, args, result)
                    if out is not None:
                        result = out
                except Exception as e:
                    warnings.warn(f"{'global ' if global_ else ''}module forward hook "
                                  f"with ``always_call=True`` raised an exception that "
                                  f"was silenced as another error was raised in forward: "
                                  f"{e}", stacklevel=2)
        raise


_NON_FULL = ("Using non-full backward hooks on a Module that does not {} is deprecated and "
             "will be removed in future versions. This hook will be missing some of the "
             "grad_{}. Please use register_full_backward_hook to get the documented behavior.")
_NON_FULL_GRAPH = ("Using a non-full backward hook when {} is deprecated and will be removed in "
                   "future versions. This hook will be missing some grad_{}.{}")
_USE_FULL = " Please use register_full_backward_hook to get the documented behavior."


def _warn_non_full(inputs, result, grad_fn):
    """PyTorch's FutureWarnings where a non-full backward hook sees only part of the
    gradients: the module's inputs or outputs are not tensors, or forward is not one node."""
    from .._tensor import Tensor
    result = (result,) if isinstance(result, Tensor) else result
    inputs = (inputs,) if isinstance(inputs, Tensor) else inputs
    for values, what, kind in ((result, "return a single Tensor or a tuple of Tensors",
                                "output"),
                               (inputs, "take as input a single Tensor or a tuple of Tensors",
                                "input")):
        if not (isinstance(values, tuple) and all(isinstance(v, Tensor) for v in values)):
            return warnings.warn(_NON_FULL.format(what, kind), FutureWarning, stacklevel=3)
    out_fns = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_fns or (len(out_fns) == 1 and grad_fn not in out_fns):
        msg = _NON_FULL_GRAPH.format("outputs are nested in python data structure", "output",
                                     "")
    elif len(out_fns) > 1:
        msg = _NON_FULL_GRAPH.format("outputs are generated by different autograd Nodes",
                                     "output", _USE_FULL)
    elif {i.grad_fn for i in inputs if i.grad_fn is not None} != \
            {n[0] for n in grad_fn.next_functions}:
        msg = _NON_FULL_GRAPH.format("the forward contains multiple autograd Nodes", "input",
                                     _USE_FULL)
    else:
        return
    warnings.warn(msg, FutureWarning, stacklevel=3)


def backward_hooks(self):
    """(full, non-full) backward hooks of a module, the global ones first."""
    full, non_full = [], []
    for kind, hooks in ((_global_is_full_backward_hook, _global_backward_hooks),
                        (self._is_full_backward_hook, self._backward_hooks)):
        if kind is True:
            full += hooks.values()
        elif kind is False:
            non_full += hooks.values()
    return full, non_full


def backward_pre_hooks(self):
    return [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
