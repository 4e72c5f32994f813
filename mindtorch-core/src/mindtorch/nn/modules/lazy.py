"""torch.nn.modules.lazy: LazyModuleMixin, for modules whose parameter shapes come from their
first input (LazyLinear, ...): UninitializedParameters until the first forward calls
``initialize_parameters``; then the module becomes ``cls_to_become``."""
import itertools

from ..parameter import is_lazy

__all__ = []  # torch.nn does not re-export it either


class LazyModuleMixin:
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)
        # (PyTorch 2.13 no longer warns that lazy modules are a new feature)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        # uninitialized tensors are saved as they are (not detached)
        for name, t in itertools.chain(
                self._parameters.items(),
                ((n, b) for n, b in self._buffers.items()
                 if n not in self._non_persistent_buffers_set)):
            if t is not None:
                destination[prefix + name] = t if is_lazy(t) or keep_vars else t.detach()

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs):
        """A checkpoint's initialized tensors give the uninitialized ones their shapes."""
        from ...autograd.grad_mode import no_grad
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) and \
                    not is_lazy(state_dict[key]):
                with no_grad():
                    param.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{self.__class__.__name__}")

    def has_uninitialized_params(self):
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(),
                                                       self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with "
                           "`DataParallel`. Run a dummy forward pass to correctly initialize "
                           "the modules")
