"""torch.types: the aliases typed code imports (`from torch.types import Number, Device`)."""
import builtins
import os
from typing import IO

from ._device import device as _device
from ._dtype import dtype as _dtype  # noqa: F401
from ._layout import layout as _layout  # noqa: F401
from ._tensor import Tensor

_int, _float, _bool, _complex, _str, _bytes = (builtins.int, builtins.float, builtins.bool,
                                               builtins.complex, builtins.str, builtins.bytes)
Number = int | float | bool
_Number = (int, float, bool)
Device = _device | str | int | None
FileLike = str | os.PathLike | IO[bytes]
_TensorOrTensors = Tensor | tuple[Tensor, ...]
_size = tuple[int, ...]
IntLikeType, FloatLikeType, BoolLikeType = int, float, bool
__all__ = ["Device", "FileLike", "Number", "Tensor"]
del builtins, IO
