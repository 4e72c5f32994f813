"""torch.signal."""
from . import windows  # noqa: F401
