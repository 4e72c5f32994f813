"""torch.nn.modules.utils: the size-argument helpers the layer modules share."""
from collections.abc import Iterable
from itertools import repeat

__all__ = []


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
