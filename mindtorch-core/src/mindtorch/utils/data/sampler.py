"""Samplers (torch.utils.data.sampler): iterables of dataset indices (or of index
batches) for the DataLoader.

Random samplers draw from mindtorch generators with PyTorch's call pattern (randperm per
epoch, randint in chunks of 32, multinomial), so a seeded generator gives the same order
on every run -- PyTorch's order, since the cpu generator draws PyTorch's numbers."""
import itertools
from typing import Generic, TypeVar

_T_co = TypeVar("_T_co", covariant=True)


class Sampler(Generic[_T_co]):
    """Base class: subclasses define __iter__ (and __len__ where it is known). It takes
    no constructor arguments, as PyTorch's (whose data_source argument is gone)."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _seeded_generator(generator):
    """The generator to draw from: a fresh one seeded from the default generator when
    none is given (PyTorch's way, so each iteration differs)."""
    if generator is not None:
        return generator
    from ... import Generator, empty, int64
    g = Generator()
    g.manual_seed(int(empty((), dtype=int64).random_().item()))
    return g


class RandomSampler(Sampler[int]):
    """Random order without replacement (a fresh permutation per pass), or num_samples
    draws with replacement."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        from ... import int64, randint, randperm
        n = len(self.data_source)
        g = _seeded_generator(self.generator)
        k = self.num_samples
        if self.replacement:
            for size in [32] * (k // 32) + [k % 32]:
                yield from randint(0, n, (size,), dtype=int64, generator=g).tolist()
        else:
            for _ in range(k // n):
                yield from randperm(n, generator=g).tolist()
            yield from randperm(n, generator=g).tolist()[:k % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        from ... import randperm
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


def _check_positive_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise ValueError(f"{name} should be a boolean value, but got {name}={value}")


class WeightedRandomSampler(Sampler[int]):
    """num_samples indices drawn with probabilities proportional to `weights`."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        from ... import as_tensor, float64
        _check_positive_int("num_samples", num_samples)
        _check_bool("replacement", replacement)
        weights = as_tensor(weights, dtype=float64)
        if weights.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        from ... import multinomial
        drawn = multinomial(self.weights, self.num_samples, self.replacement,
                            generator=self.generator)
        yield from drawn.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Lists of batch_size indices from `sampler` (the last one shorter unless
    drop_last)."""

    def __init__(self, sampler, batch_size, drop_last):
        _check_positive_int("batch_size", batch_size)
        _check_bool("drop_last", drop_last)
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
