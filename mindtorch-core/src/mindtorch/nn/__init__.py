"""mindtorch.nn (torch.nn)."""
from . import functional  # noqa: F401
