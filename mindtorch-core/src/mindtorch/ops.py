"""The operator table: mindtorch.ops.add is the OpDef of add; custom ops defined by
plugins as "ns::name" are reachable as mindtorch.ops.ns.name (the op's binding)."""
from types import SimpleNamespace

from ._ops.registry import OPS


def __getattr__(name):
    if name in OPS:
        return OPS[name]
    prefix = name + "::"
    members = {k[len(prefix):]: op.binding for k, op in OPS.items() if k.startswith(prefix)}
    if members:
        return SimpleNamespace(**members)
    raise AttributeError(f"no operator or namespace named {name!r}")


def names():
    return sorted(OPS)
