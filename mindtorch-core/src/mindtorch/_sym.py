"""torch.sym_* helpers and the SymInt/SymFloat/SymBool names. Without symbolic tracing
every size is a plain Python number, so these are the number operations PyTorch falls
back to (with its type rules: sym_max/sym_min give a float when either side is one)."""
import builtins
import math


class SymInt:
    """A symbolic int of traced programs; none exist in eager mindtorch."""


class SymFloat:
    """A symbolic float of traced programs; none exist in eager mindtorch."""


class SymBool:
    """A symbolic bool of traced programs; none exist in eager mindtorch."""


def _numbers():
    import numpy as np
    return (np.integer, np.floating, builtins.int, builtins.float), (np.floating, builtins.float)


def _extreme(pick, a, b):
    all_types, float_types = _numbers()
    for x in (a, b):
        if not isinstance(x, all_types):
            raise AssertionError(f"expected {all_types}, got {type(x)}")
    if isinstance(a, float_types) or isinstance(b, float_types):
        return builtins.float(pick(a, b))
    return pick(a, b)


def sym_max(a, b):
    return _extreme(builtins.max, a, b)


def sym_min(a, b):
    return _extreme(builtins.min, a, b)


def sym_int(a):
    return math.trunc(a) if isinstance(a, builtins.float) else builtins.int(a)


def sym_float(a):
    return builtins.float(a)


def sym_not(a):
    return not a


def sym_sqrt(a):
    return math.sqrt(a)


def sym_sum(args):
    return builtins.sum(args)


def sym_ite(b, t, f):
    if not isinstance(b, builtins.bool):
        raise AssertionError(f"expected SymBool or bool, got {type(b)}")
    return t if b else f
