"""Named tuples returned by ops with several named results (max, sort, ...), made from
the op schemas on first use (mindtorch.return_types.max, ...)."""
from collections import namedtuple


def make(name, fields):
    """A named tuple class printed the way PyTorch prints torch.return_types (one class per
    name: made once)."""
    made = globals().get(name)
    if isinstance(made, type) and made._fields == tuple(fields):
        return made
    base = namedtuple(name, fields)

    def __repr__(self):
        items = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{name}(\n{items})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                               "__module__": "mindtorch.return_types"})
    globals()[name] = cls
    return cls


def __getattr__(name):
    """A class not made yet (they are made when an op first needs one): made from the
    op's schema, as PyTorch's module holds them all from import."""
    if not name.startswith("__"):
        from ._ops import OPS
        op = OPS.get(name) or OPS.get("_" + name)
        if op is not None and op.return_type is not None:
            return op.return_type
        if f"_{name}_dim" in OPS:  # median / nanmedian: their public function's
            return make(name, ["values", "indices"])
    raise AttributeError(f"module 'mindtorch.return_types' has no attribute '{name}'")
