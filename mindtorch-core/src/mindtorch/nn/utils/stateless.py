"""torch.nn.utils.stateless.functional_call: call a module with some of its parameters and
buffers replaced by given tensors (the module's own are put back afterwards)."""
import contextlib
import warnings

from ..._tensor import Tensor
from ..modules.module import Module

__all__ = ["functional_call"]

_MISSING = object()


def _untie(module, tensors):
    """Names sharing one tensor in the module all get the value given for any of them."""
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    groups = {}
    for name, t in named.items():
        groups.setdefault(id(t), set()).add(name)
    out = dict(tensors)
    for names in groups.values():
        given = [n for n in names if n in tensors]
        if len(names) < 2 or not given:
            continue
        if len({id(tensors[n]) for n in given}) > 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, "
                             "which are tied. Consider using tie_weights=False")
        for n in names:
            out[n] = tensors[given[0]]
    return out


def _submodule(module, path):
    """The submodule at the dotted path, refused as PyTorch's member accessor refuses."""
    for i, attr in enumerate(path.split(".") if path else ()):
        try:
            sub = getattr(module, attr)
        except AttributeError as e:
            raise AttributeError(f"{module._get_name()} has no attribute `{attr}`") from e
        if not isinstance(sub, Module):
            raise TypeError(f"submodule `{'.'.join(path.split('.')[:i + 1])}`: {sub} is not "
                            f"an instance of torch.nn.Module")
        module = sub
    return module


def _swap(module, name, value):
    """Puts value under the dotted name (in the table it lives in, else as an attribute,
    through any parametrization's setter); returns what was there (_MISSING when nothing)."""
    if value is not _MISSING and value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{value} is not an instance of torch.Tensor")
    path, _, leaf = name.rpartition(".")
    owner = _submodule(module, path)
    if leaf == "":
        raise KeyError('tensor name can\'t be empty string ""')
    for table in (owner._parameters, owner._buffers):
        if leaf in table:
            old = table[leaf]
            if value is _MISSING:
                del table[leaf]
            else:
                table[leaf] = value
            return old
    old = getattr(owner, leaf, _MISSING)
    if old is not _MISSING and old is not None and not isinstance(old, Tensor):
        raise TypeError(f"attribute `{leaf}`: {old} is not an instance of torch.Tensor")
    if value is not _MISSING:
        setattr(owner, leaf, value)
    elif hasattr(owner, leaf):
        delattr(owner, leaf)
    return old


@contextlib.contextmanager
def _reparametrize_module(module, parameters_and_buffers, tie_weights=False, strict=False):
    tensors = _untie(module, parameters_and_buffers) if tie_weights \
        else parameters_and_buffers
    if strict:
        valid = {n for n, _ in module.named_parameters(remove_duplicate=False)}
        valid |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
        unexpected, missing = sorted(set(tensors) - valid), sorted(valid - set(tensors))
        errors = ([f"Unexpected key(s): {', '.join(map(repr, unexpected))}."] if unexpected
                  else []) + ([f"Missing key(s): {', '.join(map(repr, missing))}."] if missing
                              else [])
        if errors:
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(
                module._get_name(), "\n\t".join(errors)))
    originals = {}
    try:
        for name, value in tensors.items():
            originals[name] = _swap(module, name, value)
        yield
    finally:
        for name, old in reversed(originals.items()):
            _swap(module, name, old)


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                     tie_weights=True, strict=False):
    kwargs = {} if kwargs is None else kwargs
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _reparametrize_module(module, parameters_and_buffers, tie_weights, strict):
        return module(*args, **kwargs)


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)
