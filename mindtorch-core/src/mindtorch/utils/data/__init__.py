"""mindtorch.utils.data (torch.utils.data): datasets, samplers, collation and the
DataLoader."""
from ._utils.collate import default_collate, default_convert  # noqa: F401
from ._utils.worker import get_worker_info  # noqa: F401
from .dataloader import DataLoader, _DatasetKind  # noqa: F401
from .distributed import DistributedSampler  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
    random_split,
)
from .sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
    WeightedRandomSampler,
)
