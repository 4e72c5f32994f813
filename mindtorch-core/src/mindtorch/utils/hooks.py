"""RemovableHandle: what register_*hook functions return; BackwardHook: nn.Module's full
backward hooks."""
import itertools
import warnings
import weakref

_ids = itertools.count()


class RemovableHandle:
    """handle.remove() takes the hook out of the dict it was registered in (hooks are kept
    in dicts keyed by handle id, so they run in registration order) and out of the
    ``extra_dict`` ones (flags kept per hook); also a context manager that removes it on
    exit."""

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict = hooks_dict
        if extra_dict is None:
            extra_dict = ()
        elif isinstance(extra_dict, dict):
            extra_dict = (extra_dict,)
        self.extra_dicts = tuple(extra_dict)
        self.id = next(_ids)

    def remove(self):
        for d in (self.hooks_dict, *self.extra_dicts):
            d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def add_hook(hooks_dict, fn):
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = fn
    return handle


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
