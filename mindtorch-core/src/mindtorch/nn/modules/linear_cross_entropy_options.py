"""torch.nn.modules.linear_cross_entropy_options: LinearCrossEntropyOptions, the settings of
PyTorch's chunked linear_cross_entropy.  mindtorch validates and keeps them (same fields,
defaults and errors) and always computes the reference path, which gives the same loss."""
import dataclasses

import mindtorch

__all__ = ["LinearCrossEntropyOptions"]

_POLICIES = {"auto", "accurate", "balanced", "compact"}


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None

    def __post_init__(self):
        if self.acc_policy not in _POLICIES:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            factor = factor if sep else "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if not (size is None or (isinstance(size, int) and size > 0)):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        floats = (mindtorch.float16, mindtorch.bfloat16, mindtorch.float32, mindtorch.float64)
        if self.acc_dtype is not None and self.acc_dtype not in floats:
            raise ValueError(f"acc_dtype must be one of {{None, torch.float16, torch.bfloat16, "
                             f"torch.float32, torch.float64}}, got {self.acc_dtype!r}. Pass "
                             f"acc_dtype=None to let the op pick automatically.")
