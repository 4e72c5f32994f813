"""OptimizedModule: what torch.compile(module) returns, running the module eagerly."""
from ..nn.modules.module import Module

# attributes the wrapper keeps for itself; any other is the wrapped module's
_OWN = {"_orig_mod", "forward", "__dict__", "_super_module_initialized"}


def _compiled_forward(mod):
    from ..compiler import _run_compiled

    def forward(*args, **kwargs):
        return _run_compiled(mod.__call__, args, kwargs)
    return forward


class OptimizedModule(Module):
    """Holds the compiled module as its submodule `_orig_mod` (so state_dict keys get the
    `_orig_mod.` prefix, as in PyTorch) and forwards attribute reads and writes, and the
    training flag, to it."""

    def __init__(self, mod):
        object.__setattr__(self, "_orig_mod", mod)  # (read by the attribute forwarding)
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod
        self.forward = _compiled_forward(mod)

    def __len__(self):
        if hasattr(type(self._orig_mod), "__len__"):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    @property
    def training(self):
        return self._orig_mod.training

    @training.setter
    def training(self, value):
        if self._super_module_initialized:  # (Module.__init__'s default is ignored)
            self._orig_mod.training = value

    def __getattr__(self, name):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name, value):
        if hasattr(type(self), name) or name in _OWN:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name):
        if hasattr(type(self), name) or name in _OWN:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __reduce__(self):
        return (self.__class__, (self._orig_mod,))

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("forward", None)
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self.forward = self._orig_mod.__call__

    def __dir__(self):
        own = self._orig_mod.__dir__()
        return own + [a for a in super().__dir__() if a not in own]
