"""Named tuples returned by ops with several named results (max, sort, ...), made from
the op schemas at import (mindtorch.return_types.max, ...)."""
from collections import namedtuple


def make(name, fields):
    """A named tuple class printed the way PyTorch prints torch.return_types."""
    base = namedtuple(name, fields)

    def __repr__(self):
        items = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{name}(\n{items})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                               "__module__": "mindtorch.return_types"})
    globals()[name] = cls
    return cls
