"""torch.utils.serialization.config: ``load`` and ``save``, classes whose attributes are
the settings mindtorch.load / mindtorch.save read (``config.load.mmap = True`` maps files
by default)."""
from ..._serialization_config import load, save

__all__ = ["load", "save"]
