"""Datasets (torch.utils.data.dataset): map-style and iterable datasets, their
combinations, and random_split."""
import bisect
import itertools
import math
import warnings
from typing import Generic, Iterable, TypeVar  # noqa: UP035 - see IterableDataset

from ..._random import default_generator
from ..._tensor import Tensor

# PyTorch's type parameters: Dataset[int], DataLoader[Tensor]... in annotations
_T_co = TypeVar("_T_co", covariant=True)
_T_stack = TypeVar("_T_stack", tuple, dict)


class Dataset(Generic[_T_co]):
    """A map-style dataset: subclasses define __getitem__ (and usually __len__)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


# (typing's Iterable alias, not collections.abc's: the MRO puts Iterable before Generic, as
# PyTorch's, so that every subclass takes a type argument)
class IterableDataset(Dataset[_T_co], Iterable[_T_co]):
    """A dataset that is a stream of samples: subclasses define __iter__ (abstract, as in
    PyTorch: a subclass without one cannot be instantiated)."""

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset[tuple[Tensor, ...]]):
    """Samples are the rows of tensors sharing their first dimension."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class StackDataset(Dataset[_T_stack]):
    """Samples of several datasets side by side: a tuple (positional datasets) or a
    dict (keyword datasets)."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        parts = args or list(kwargs.values())
        self._length = len(parts[0])
        if any(self._length != len(d) for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def _items(self):
        if isinstance(self.datasets, dict):
            return self.datasets.items()
        return enumerate(self.datasets)

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices):
        columns = {}
        for key, d in self._items():
            if callable(getattr(d, "__getitems__", None)):
                items = d.__getitems__(indices)
                if len(items) != len(indices):
                    raise ValueError(f"Nested dataset's output size mismatch. Expected "
                                     f"{len(indices)}, got {len(items)}")
            else:
                items = [d[i] for i in indices]
            columns[key] = items
        if isinstance(self.datasets, dict):
            return [{k: columns[k][j] for k in columns} for j in range(len(indices))]
        return [tuple(col[j] for col in columns.values()) for j in range(len(indices))]

    def __len__(self):
        return self._length


class ConcatDataset(Dataset[_T_co]):
    """Map-style datasets one after the other."""

    @staticmethod
    def cumsum(sequence):
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]

    @property
    def cummulative_sizes(self):  # PyTorch's deprecated spelling
        warnings.warn("`cummulative_sizes` attribute is renamed to `cumulative_sizes`",
                      FutureWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets one after the other, chained lazily."""

    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def _checked(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield d

    def __iter__(self):
        for d in self._checked():
            yield from d

    def __len__(self):
        return sum(len(d) for d in self._checked())


class Subset(Dataset[_T_co]):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        cls = type(self)
        if cls.__getitem__ is not Subset.__getitem__ and cls.__getitems__ is Subset.__getitems__:
            raise NotImplementedError(
                f"{cls.__name__} overrides __getitem__ but not __getitems__. When subclassing "
                "Subset and overriding __getitem__, you must also override __getitems__ to "
                "ensure DataLoader works correctly with your custom logic. A simple "
                "implementation:\n\ndef __getitems__(self, indices):\n"
                "    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self):
        return len(self.indices)


def _fraction_lengths(n, fractions):
    """floor(n * f) per fraction, the remainder handed out one by one from the first."""
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(n * frac))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          f"dataset.", stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=default_generator):
    """Split `dataset` into non-overlapping random Subsets of the given lengths (or
    fractions summing to 1), drawn from one randperm of `generator`."""
    from ... import randperm
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _fraction_lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths)]
