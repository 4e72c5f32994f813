"""torch.nn.modules.padding: constant (and zero), reflection, replication and circular padding.

Each module stores its padding as a tuple in F.pad's order (last dim's left, right, then the
dim before, ...); an int pads every side of the module's 1, 2 or 3 last dims."""
from .. import functional as F
from ._own_init import own_forward, own_init
from .module import Module
from .utils import _ntuple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]

_SIDES = {1: _ntuple(2, "_pair"), 2: _ntuple(4, "_quadruple"), 3: _ntuple(6)}


class _PadNd(Module):
    """A padding mode over `_dims` spatial dims; the subclass names the mode."""
    __constants__ = ["padding"]
    _mode = None
    _dims = None

    def __init__(self, padding):
        super().__init__()
        self.padding = _SIDES[self._dims](padding)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def forward(self, input):
        # the module accepts only (un)batched inputs of its rank, F.pad any rank it can pad
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input "
                             f"(got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _SIDES[self._dims](padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class CircularPad1d(_CircularPadNd):
    _dims = 1


class CircularPad2d(_CircularPadNd):
    _dims = 2


class CircularPad3d(_CircularPadNd):
    _dims = 3


class ReflectionPad1d(_ReflectionPadNd):
    _dims = 1


class ReflectionPad2d(_ReflectionPadNd):
    _dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    _dims = 3


class ReplicationPad1d(_ReplicationPadNd):
    _dims = 1


class ReplicationPad2d(_ReplicationPadNd):
    _dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    _dims = 3


class ConstantPad1d(_ConstantPadNd):
    _dims = 1


class ConstantPad2d(_ConstantPadNd):
    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    _dims = 3


class _ZeroPad:
    """ZeroPad{1,2,3}d: ConstantPad with value 0.0, repr'd by the padding alone."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad, ConstantPad1d):
    pass


class ZeroPad2d(_ZeroPad, ConstantPad2d):
    pass


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    pass


own_init(CircularPad1d, CircularPad2d, CircularPad3d, ReflectionPad1d, ReflectionPad2d,
         ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ConstantPad1d,
         ConstantPad2d, ConstantPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
own_forward(_ReflectionPadNd, _ReplicationPadNd)
