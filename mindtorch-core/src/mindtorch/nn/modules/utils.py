"""torch.nn.modules.utils: the size-argument helpers the layer modules share, and
consume_prefix_in_state_dict_if_present (loading DataParallel / DDP checkpoints)."""
from collections.abc import Iterable
from itertools import repeat

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n, name="parse"):
    """A converter giving an iterable as a tuple (length unchecked, as PyTorch) and a
    single value repeated n times."""
    def parse(x):
        return tuple(x) if isinstance(x, Iterable) else tuple(repeat(x, n))
    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    """(a, b) -> (b, b, a, a) for n = 2: per-dim conv padding in F.pad's last-dim-first order."""
    return tuple(x for x in reversed(t) for _ in range(n))


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strips `prefix` (e.g. "module.") from the keys of state_dict that have it, in place,
    and from its _metadata's keys (whose "module" entry becomes the root "")."""
    for key in list(state_dict):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in list(metadata):
            if key and (key == prefix.replace(".", "") or key.startswith(prefix)):
                metadata[key[len(prefix):]] = metadata.pop(key)
