"""torch.nn.utils._named_member_accessor: reading, setting and swapping a module's tensors
and submodules by dotted name (what functional_call and libraries built on it use), with
PyTorch's refusals (a value that is not a tensor, a path through a non-module, an attribute
that is not a tensor, empty or dotted leaf names)."""
from ..._tensor import Tensor
from ..modules.module import Module

_MISSING = object()  # (no tensor there: swapping it in deletes the name)


def _check_module(module):
    if not isinstance(module, Module):
        raise TypeError(f"{module} is not an instance of torch.nn.Module")


def _check_leaf(name, what="tensor"):
    if "." in name:
        raise KeyError(f'{what} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{what} name can\'t be empty string ""')


def _check_tensor(value):
    if value is not _MISSING and value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{value} is not an instance of torch.Tensor")


def set_tensor(module, name, tensor):
    """module.<name> = tensor, in the parameter or buffer table that holds name, else as an
    attribute (through any property, e.g. a parametrization's)."""
    _check_module(module)
    _check_tensor(tensor)
    _check_leaf(name)
    for table in (module._parameters, module._buffers):
        if name in table:
            table[name] = tensor
            return
    setattr(module, name, tensor)


def swap_tensor(module, name, tensor, allow_missing=False):
    """Puts tensor (_MISSING: nothing) at module.<name>; returns what was there."""
    _check_module(module)
    _check_tensor(tensor)
    _check_leaf(name)
    for table in (module._parameters, module._buffers):
        if name in table:
            old = table[name]
            if tensor is _MISSING:
                del table[name]
            else:
                table[name] = tensor
            return old
    if hasattr(module, name):
        old = getattr(module, name)
    elif allow_missing:
        old = _MISSING
    else:
        raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
    if old is not _MISSING and old is not None and not isinstance(old, Tensor):
        raise TypeError(f"attribute `{name}`: {old} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return old


def swap_submodule(module, name, submodule):
    """Puts submodule at module.<name> (which must be a submodule); returns the old one."""
    _check_module(module)
    _check_module(submodule)
    _check_leaf(name, "submodule")
    if name not in module._modules:
        raise KeyError(f"submodule {name} does not exist")
    old = module._modules[name]
    if not isinstance(old, Module):
        raise TypeError(f"{name} attribute is not an instance of torch.nn.Module")
    module._modules[name] = submodule
    return old


def _same_length(names, values):
    names = names if isinstance(names, (list, tuple)) else list(names)
    values = values if isinstance(values, (list, tuple)) else list(values)
    if len(names) != len(values):
        raise AssertionError(f"names and values must have the same length, got {len(names)} "
                             f"names and {len(values)} values")
    return zip(names, values)


class NamedMemberAccessor:
    """Access to `module`'s members by dotted name, submodule lookups memoised."""

    def __init__(self, module):
        self.module = module
        self.memo = {}

    def get_submodule(self, name):
        if not name:
            return self.module
        if name in self.memo:
            return self.memo[name]
        prefix, _, attr = name.rpartition(".")
        parent = self.get_submodule(prefix)
        try:
            sub = getattr(parent, attr)
        except AttributeError as e:
            raise AttributeError(f"{parent._get_name()} has no attribute `{attr}`") from e
        if not isinstance(sub, Module):
            raise TypeError(f"submodule `{name}`: {sub} is not an instance of "
                            f"torch.nn.Module")
        self.memo[name] = sub
        return sub

    def _owner(self, name):
        prefix, _, attr = name.rpartition(".")
        return self.get_submodule(prefix), attr

    def swap_submodule(self, path, value):
        return swap_submodule(*self._owner(path), value)

    def get_tensor(self, name):
        owner, attr = self._owner(name)
        try:
            tensor = getattr(owner, attr)
        except AttributeError as e:
            raise AttributeError(f"{owner._get_name()} has no attribute `{name}`") from e
        _check_tensor(tensor)
        return tensor

    def set_tensor(self, name, value):
        set_tensor(*self._owner(name), value)

    def del_tensor(self, name):
        owner, attr = self._owner(name)
        try:
            delattr(owner, attr)
        except AttributeError as e:
            raise AttributeError(f"{owner._get_name()} has no attribute `{name}`") from e

    def swap_tensor(self, name, value, allow_missing=False):
        return swap_tensor(*self._owner(name), value, allow_missing=allow_missing)

    def get_tensors(self, names):
        return [self.get_tensor(name) for name in names]

    def set_tensors(self, names, values):
        for name, value in _same_length(names, values):
            self.set_tensor(name, value)

    def set_tensors_dict(self, named_tensors):
        for name, value in named_tensors.items():
            self.set_tensor(name, value)

    def del_tensors(self, names):
        for name in names:
            self.del_tensor(name)

    def swap_tensors(self, names, values, allow_missing=False):
        return [self.swap_tensor(name, value, allow_missing=allow_missing)
                for name, value in _same_length(names, values)]

    def swap_tensors_dict(self, named_tensors, allow_missing=False):
        """Swaps every entry in; returns (the tensors that were there, the names that had
        none). On an error, or missing names when not allowed, everything is put back."""
        originals, missing = {}, []
        try:
            for name, tensor in named_tensors.items():
                old = self.swap_tensor(name, tensor, allow_missing=True)
                if old is _MISSING:
                    missing.append(name)
                originals[name] = old
        except Exception:
            self._restore(originals)
            raise
        if missing and not allow_missing:
            self._restore(originals)
            raise RuntimeError(f"Missing key(s): {', '.join(map(repr, missing))}.")
        return originals, missing

    def _restore(self, originals):
        for name, old in originals.items():
            self.swap_tensor(name, old, allow_missing=True)

    def check_keys(self, keys):
        """(missing, unexpected) names, sorted, against the module's parameters and
        buffers (duplicates included)."""
        keys = set(keys)
        valid = {name for name, _ in self.named_tensors(remove_duplicate=False)}
        return sorted(valid - keys), sorted(keys - valid)

    def named_parameters(self, remove_duplicate=True):
        yield from self.module.named_parameters(remove_duplicate=remove_duplicate)

    def named_buffers(self, remove_duplicate=True):
        yield from self.module.named_buffers(remove_duplicate=remove_duplicate)

    def named_tensors(self, remove_duplicate=True):
        yield from self.named_parameters(remove_duplicate=remove_duplicate)
        yield from self.named_buffers(remove_duplicate=remove_duplicate)

    def named_modules(self, remove_duplicate=True):
        yield from self.module.named_modules(remove_duplicate=remove_duplicate)
