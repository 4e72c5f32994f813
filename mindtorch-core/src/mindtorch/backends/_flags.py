"""The set_flags / flags pattern of torch.backends' modules over a module's globals."""
import contextlib


def set_flags(namespace, names, values):
    """Sets each name whose value is not None; returns every named flag's old value, in
    order (what set_flags returns in PyTorch, and flags() restores)."""
    old = tuple(namespace[n] for n in names)
    namespace.update({n: v for n, v in zip(names, values) if v is not None})
    return old


@contextlib.contextmanager
def flags_context(setter, values):
    """Sets the flags for the block and restores them after, as PyTorch's `flags()`."""
    old = setter(*values)
    try:
        yield
    finally:
        setter(*old)
