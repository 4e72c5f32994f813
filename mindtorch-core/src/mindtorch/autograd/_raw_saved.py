"""grad_fn._raw_saved_<name>: PyTorch's handle on one value a node saved for backward;
register_hooks(pack, unpack) moves that value through a pair of hooks (the "hooks for
autograd saved tensors" tutorial), as saved_tensors_hooks does for every saved value."""
from . import graph

_FREED = ("Calling register_hooks on a saved tensor after it has been freed. Saved "
          "intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the "
          "graph a second time or if you need to access saved variables after calling "
          "backward.")


class SavedTensor:  # (PyTorch's name for this handle; the value is a graph.SavedTensor)
    __slots__ = ("_node", "_saved")

    def __init__(self, node, saved):
        self._node, self._saved = node, saved

    def register_hooks(self, pack_hook, unpack_hook):
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError("register_hooks(): incompatible function arguments. Both hooks "
                            "must be callable")
        saved = self._saved
        if self._node._saved is None:
            raise RuntimeError(_FREED)
        if saved is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if saved.hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at "
                               "a time.")
        value = saved.unpack(self._node)
        saved.hook = (pack_hook(value), unpack_hook)
        saved.tensor = None
        saved.meta = None if saved.output_nr is not None else graph._autograd_identity(value)

    def unpack(self):
        return None if self._saved is None else self._saved.unpack(self._node)


def raw_saved(node, name):
    """The handle of node's saved value `name` (None where that is not a saved tensor)."""
    saved = node._saved
    if saved is None:  # (freed by backward: the handle refuses hooks)
        return SavedTensor(node, None) if node._freed else None
    v = saved.get(name)
    if name == "result" and type(v) is list:
        v = v[0]
    return SavedTensor(node, v) if isinstance(v, graph.SavedTensor) else None
