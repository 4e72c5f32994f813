"""mindtorch.utils.serialization: the settings of save and load (``config``)."""
from . import config  # noqa: F401
