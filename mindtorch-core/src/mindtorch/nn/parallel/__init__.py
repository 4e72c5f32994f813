"""torch.nn.parallel. mindtorch has no accelerators to spread a batch over and no process
groups, so these behave as PyTorch's do on a machine without them: DataParallel calls its
module, DistributedDataParallel reports the missing process group, and the per-device
helpers refuse."""
from .data_parallel import (
    DataParallel,
    data_parallel,
    gather,
    parallel_apply,
    replicate,
    scatter,
)
from .distributed import DistributedDataParallel

# torch's order
__all__ = [  # noqa: RUF022
    "replicate", "scatter", "parallel_apply", "gather", "data_parallel", "DataParallel",
    "DistributedDataParallel",
]
