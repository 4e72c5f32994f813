"""DistributedSampler (torch.utils.data.distributed): the share of a dataset one of
`num_replicas` processes reads. mindtorch has no process groups, so num_replicas and
rank must be given."""
import math

from .sampler import Sampler, _T_co


class DistributedSampler(Sampler[_T_co]):
    """Every rank pads (or, with drop_last, trims) the same order to a multiple of
    num_replicas and takes every num_replicas-th index from its rank on; with shuffle the
    order is a permutation seeded by seed + epoch (set_epoch)."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None or rank is None:
            # PyTorch asks the default group: without init_process_group its ValueError
            from ... import distributed
            num_replicas = distributed.get_world_size() if num_replicas is None else num_replicas
            rank = distributed.get_rank() if rank is None else rank
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.drop_last, self.shuffle, self.seed = 0, drop_last, shuffle, seed
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            from ... import Generator, randperm
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            pad = self.total_size - len(indices)
            indices += (indices * math.ceil(pad / len(indices)))[:pad] if pad else []
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        self.epoch = epoch
