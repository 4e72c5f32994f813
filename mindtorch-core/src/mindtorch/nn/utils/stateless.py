"""torch.nn.utils.stateless.functional_call: call a module with some of its parameters and
buffers replaced by given tensors (the module's own are put back afterwards)."""
import contextlib
import warnings

from ._named_member_accessor import NamedMemberAccessor

__all__ = ["functional_call"]


def _untie_named_tensors_map(module, tensors):
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


@contextlib.contextmanager
def _reparametrize_module(module, parameters_and_buffers, tie_weights=False, strict=False,
                          stack_weights=False):  # (always stacked: see below)
    tensors = _untie_named_tensors_map(module, parameters_and_buffers) if tie_weights \
        else parameters_and_buffers
    accessor = NamedMemberAccessor(module)
    if strict:
        missing, unexpected = accessor.check_keys(tensors)
        errors = ([f"Unexpected key(s): {', '.join(map(repr, unexpected))}."] if unexpected
                  else []) + ([f"Missing key(s): {', '.join(map(repr, missing))}."] if missing
                              else [])
        if errors:
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(
                module._get_name(), "\n\t".join(errors)))
    originals = {}
    try:
        originals, _ = accessor.swap_tensors_dict(tensors, allow_missing=True)
        yield
    finally:
        # put back last in, first out (PyTorch does so only with stack_weights; in order,
        # a module reachable under two names gets the given tensor back for its own)
        current, _ = accessor.swap_tensors_dict(dict(reversed(originals.items())),
                                                allow_missing=True)
        # tensors the call rebound (e.g. a buffer reassigned in forward) reach the caller's dict
        parameters_and_buffers.update({k: current[k] for k in parameters_and_buffers
                                       if k in current})


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
