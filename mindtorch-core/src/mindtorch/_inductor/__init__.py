"""torch._inductor's user-facing corner: the config module scripts tune before
torch.compile (nothing reads it: mindtorch compiles nothing)."""
from . import config  # noqa: F401
