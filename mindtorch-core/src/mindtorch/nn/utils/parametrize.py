"""torch.nn.utils.parametrize: a parameter or buffer computed by modules from the stored
"original" tensor(s) on every access.

As PyTorch: the module's class is swapped for a subclass ``Parametrized<Name>`` holding a
property per parametrized tensor; the originals live in ``module.parametrizations[name]``
(a ParametrizationList), so state_dict keys are ``parametrizations.<name>.original``."""
from collections import abc
from contextlib import contextmanager
from copy import deepcopy

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ..modules.container import ModuleDict, ModuleList
from ..parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Inside, each parametrized tensor is computed once (the first access) and reused."""
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, x):
    if isinstance(x, Parameter):
        module.register_parameter(name, x)
    else:
        module.register_buffer(name, x)


def _maybe_set(dest, src):
    """dest takes src's data: dest.set_(src) (a dtype change refused), or, with
    torch.__future__'s swap flag, the two tensors swapped (src made a Parameter if dest is)."""
    from ... import __future__ as future
    from ... import utils
    if future.get_swap_module_params_on_conversion():
        if isinstance(dest, Parameter) and not isinstance(src, Parameter):
            src = Parameter(src, requires_grad=dest.requires_grad)
        utils.swap_tensors(dest, src)
    else:
        dest.set_(src)


_SUBCLASS_SET_FAILED = (
    "Calling remove_parametrizations() with leave_parametrized=True for a parameter that is "
    "an instance of a tensor subclass requires set_() to be implemented correctly for the "
    "tensor subclass.Alternatively, one can opt into the swap_tensors pathEither set "
    "leave_parametrized=False or provide a working implementationfor set_() in the tensor "
    "subclass or set torch.__future__.set_swap_module_params_on_conversion(True).")


def _leave_parametrized(original, value):
    """remove_parametrizations' write of the parametrized value into the original (a
    Parameter, as any subclass, reporting a failed set_ as PyTorch words it)."""
    with no_grad():
        if type(original) is Tensor:
            _maybe_set(original, value)
            return
        try:
            _maybe_set(original, value)
        except RuntimeError as e:
            raise RuntimeError(_SUBCLASS_SET_FAILED) from e


def _check_same(kind, what_x, x, what_y, y):
    for attr in ("dtype", "shape"):
        if getattr(x, attr) != getattr(y, attr):
            raise ValueError(f"{kind} may not change the {attr} of the tensor, unless the "
                             f"`unsafe` flag is enabled.\n{what_y}.{attr}: {getattr(y, attr)}\n"
                             f"{what_x}.{attr}: {getattr(x, attr)}")


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, with its original(s): ``original`` when
    right_inverse gives one tensor, ``original0``, ``original1``, ... for a sequence."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        shape, dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, (Tensor, abc.Sequence)):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            for attr in ("dtype", "device"):
                if getattr(original, attr) != getattr(new, attr):
                    raise ValueError(f"When `right_inverse` outputs one tensor, it may not "
                                     f"change the {attr}.\noriginal.{attr}: "
                                     f"{getattr(original, attr)}\nright_inverse(original)."
                                     f"{attr}: {getattr(new, attr)}")
            with no_grad():
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, x in enumerate(new):
                if not isinstance(x, Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of "
                                     f"tensors (list, tuple...). Got element {i} of the "
                                     f"sequence with type {type(x).__name__}.")
                if isinstance(original, Parameter):
                    x = Parameter(x, original.requires_grad)
                x.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", x)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got "
                                 f"{type(z).__name__}.")
            for attr, got, want in (("dtype", z.dtype, dtype), ("shape", z.shape, shape)):
                if got != want:
                    raise ValueError(f"Registering a parametrization may not change the {attr} "
                                     f"of the tensor, unless `unsafe` flag is enabled.\n"
                                     f"unparametrized {attr}: {want}\nparametrized {attr}: "
                                     f"{got}")

    def right_inverse(self, value):
        """Sets the original(s) so that the parametrization gives ``value``."""
        with no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got "
                                     f"{type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype "
                                     f"{value.dtype} while `original` has dtype "
                                     f"{self.original.dtype}")
                _maybe_set(self.original, value)
                return
            if not isinstance(value, abc.Sequence):
                raise ValueError(f"'right_inverse' must return a sequence of tensors. Got "
                                 f"{type(value).__name__}.")
            if len(value) != self.ntensors:
                raise ValueError(f"'right_inverse' must return a sequence of tensors of length "
                                 f"{self.ntensors}. Got a sequence of length {len(value)}.")
            for i, t in enumerate(value):
                original_i = getattr(self, f"original{i}")
                if t.dtype != original_i.dtype:
                    raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype "
                                     f"{t.dtype} while `original{i}` has dtype "
                                     f"{original_i.dtype}")
                _maybe_set(original_i, t)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _inject_new_class(module):
    cls = module.__class__

    def default_deepcopy(self, memo):
        obj = memo.get(id(self))
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = deepcopy(self.__dict__, memo)
        return replica

    def getstate(self):
        raise RuntimeError("Serialization of parametrized modules is only supported through "
                           "state_dict(). See:\nhttps://pytorch.org/tutorials/beginner/"
                           "saving_loading_models.html#saving-loading-a-general-checkpoint-"
                           "for-inference-and-or-resuming-training")

    attrs = {"__getstate__": getstate}
    if not hasattr(cls, "__deepcopy__"):
        attrs["__deepcopy__"] = default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), attrs)


def _inject_property(module, name):
    if hasattr(module, name):
        raise AssertionError(f"Module already has an attribute named '{name}'")

    def get_parametrized(self):
        parametrization = self.parametrizations[name]
        if not _cache_enabled:
            return parametrization()
        key = (id(module), name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = _cache[key] = parametrization()
        return tensor

    def set_original(self, value):
        self.parametrizations[name].right_inverse(value)

    setattr(module.__class__, name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Makes ``module.<tensor_name>`` the output of ``parametrization`` applied to the
    stored original (chained after earlier parametrizations of the same tensor)."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            y = getattr(module, tensor_name)
            x = parametrization(y)
            if not isinstance(x, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got "
                                 f"{type(x).__name__}.")
            _check_same("Registering a parametrization", f"parametrization(module."
                        f"{tensor_name})", x, f"module.{tensor_name}", y)
            if hasattr(parametrization, "right_inverse"):
                try:
                    z = parametrization.right_inverse(x)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(z, Tensor):
                        raise ValueError(f"parametrization.right_inverse must return a tensor. "
                                         f"Got: {type(z).__name__}")
                    for attr in ("dtype", "shape"):
                        if getattr(z, attr) != getattr(y, attr):
                            raise ValueError(
                                f"The tensor returned by parametrization.right_inverse must "
                                f"have the same {attr} as module.{tensor_name}, unless the "
                                f"`unsafe` flag is enabled.\nmodule.{tensor_name}.{attr}: "
                                f"{getattr(y, attr)}\nreturned {attr}: {getattr(z, attr)}")
        plist = module.parametrizations[tensor_name]
        plist.append(parametrization)
        plist.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def is_parametrized(module, tensor_name=None):
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Back to a plain parameter/buffer: holding the parametrized value
    (``leave_parametrized``) or the original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with no_grad():
                value = getattr(module, tensor_name)
            _leave_parametrized(original, value)
    elif leave_parametrized:
        t = getattr(module, tensor_name)
        original = Parameter(t) if t.requires_grad else t
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                         "that is parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Registers from_module's parametrizations (all, or tensor_name's) on to_module,
    sharing the originals."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for fn in source:
            register_parametrization(to_module, name, fn)
        target = to_module.parametrizations[name]
        if hasattr(source, "original"):
            target.original = source.original
        else:
            for i in range(source.ntensors):
                setattr(target, f"original{i}", getattr(source, f"original{i}"))
    return to_module
