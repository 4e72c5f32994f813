"""DataLoader and datasets at their edges, against torch.utils.data: batch_size=None, drop_last
both ways, empty datasets, option conflicts (error class), IterableDataset with __len__, and the
default collate of dicts, tuples, namedtuples, strings, numbers, NumPy arrays and nesting."""
import collections

import numpy as np
import pytest

import mindtorch
import mindtorch.utils.data as mdata
from reference import same_error

torch = pytest.importorskip("torch")
import torch.utils.data as tdata  # noqa: E402

BOTH = ((mindtorch, mdata), (torch, tdata))
Pair = collections.namedtuple("Pair", "a b")


def _plain(x):
    """A batch as plain Python data (tensors as ('T', dtype, shape, values))."""
    if isinstance(x, (mindtorch.Tensor, torch.Tensor)):
        return ("T", str(x.dtype).split(".")[-1], tuple(x.shape), x.tolist())
    if isinstance(x, np.ndarray):
        return ("N", x.dtype.str, x.tolist())
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return (type(x).__name__,) + tuple(_plain(v) for v in x)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_plain(v) for v in x])
    return (type(x).__name__, x)


def _batches(loader):
    return [_plain(b) for b in loader]


class Items:  # a map-style dataset over a fixed list (the same class for both libraries)
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self):
        return len(self.items)


SAMPLES = {
    "ints": [i for i in range(7)],
    "floats": [float(i) / 3 for i in range(5)],
    "bools": [True, False, True],
    "strings": ["a", "bb", "ccc", "d"],
    "numpy": [np.arange(3, dtype=np.float32) + i for i in range(5)],
    "numpy_scalars": [np.float64(i) for i in range(4)],
    "numpy_int_scalars": [np.int32(i) for i in range(4)],
    "tuples": [(i, float(i), "s%d" % i) for i in range(5)],
    "dicts": [{"x": np.ones(2) * i, "y": i, "name": "n%d" % i} for i in range(5)],
    "nested": [{"pair": (np.arange(2) + i, [i, i + 1]), "meta": {"id": i}} for i in range(5)],
    "namedtuples": [Pair(i, np.float32(i)) for i in range(4)],
    "lists": [[i, 2 * i] for i in range(5)],
    "bytes": [b"x", b"yy", b"z"],
    "none": [None, None, None],
}


def _tensor_samples(L):
    return [L.arange(3) + i for i in range(5)]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("batch_size,drop_last", [(2, False), (2, True), (None, False), (10, True),
                                                  (1, False)])
def test_default_collate(kind, batch_size, drop_last):
    out = []
    for L, data in BOTH:
        ds = Items(SAMPLES[kind])
        try:
            out.append(_batches(data.DataLoader(ds, batch_size=batch_size, drop_last=drop_last)))
        except Exception as e:
            out.append(next(c for c in type(e).__mro__ if c.__module__ == "builtins").__name__)
    assert out[0] == out[1]


@pytest.mark.parametrize("batch_size,drop_last", [(2, False), (2, True), (None, False), (3, True)])
def test_tensor_samples_and_lengths(batch_size, drop_last):
    out = []
    for L, data in BOTH:
        loader = data.DataLoader(Items(_tensor_samples(L)), batch_size=batch_size, drop_last=drop_last)
        out.append((len(loader), _batches(loader)))
        ds = data.TensorDataset(L.arange(10.0).reshape(5, 2), L.arange(5))
        loader = data.DataLoader(ds, batch_size=batch_size, drop_last=drop_last)
        out.append((len(loader), _batches(loader)))
    assert out[:2] == out[2:]


def test_empty_dataset():
    out = []
    for L, data in BOTH:
        for kw in (dict(batch_size=2), dict(batch_size=None), dict(batch_size=2, drop_last=True)):
            loader = data.DataLoader(Items([]), **kw)
            out.append((len(loader), list(loader)))
        ds = data.TensorDataset(L.zeros(0, 3))
        out.append((len(ds), len(data.DataLoader(ds, batch_size=4)), list(data.DataLoader(ds))))
    assert out[:4] == out[4:]
    # shuffling an empty dataset: RandomSampler refuses num_samples=0
    same_error(lambda: mdata.DataLoader(Items([]), shuffle=True), lambda: tdata.DataLoader(Items([]), shuffle=True))


CONFLICTS = [
    lambda d, ds: d.DataLoader(ds, sampler=d.SequentialSampler(ds), shuffle=True),
    lambda d, ds: d.DataLoader(ds, batch_sampler=d.BatchSampler(d.SequentialSampler(ds), 2, False), batch_size=3),
    lambda d, ds: d.DataLoader(ds, batch_sampler=d.BatchSampler(d.SequentialSampler(ds), 2, False), shuffle=True),
    lambda d, ds: d.DataLoader(ds, batch_sampler=d.BatchSampler(d.SequentialSampler(ds), 2, False), drop_last=True),
    lambda d, ds: d.DataLoader(ds, batch_sampler=d.BatchSampler(d.SequentialSampler(ds), 2, False),
                               sampler=d.SequentialSampler(ds)),
    lambda d, ds: d.DataLoader(ds, batch_size=None, drop_last=True),
    lambda d, ds: d.DataLoader(ds, batch_size=0),
    lambda d, ds: d.DataLoader(ds, batch_size=-1),
    lambda d, ds: d.DataLoader(ds, batch_size=2.5),
    lambda d, ds: d.DataLoader(ds, num_workers=-1),
    lambda d, ds: d.DataLoader(ds, timeout=-1),
    lambda d, ds: d.DataLoader(ds, prefetch_factor=2),
    lambda d, ds: d.DataLoader(ds, persistent_workers=True),
    lambda d, ds: d.BatchSampler(d.SequentialSampler(ds), 0, False),
    lambda d, ds: d.BatchSampler(d.SequentialSampler(ds), 2, "no"),
    lambda d, ds: d.RandomSampler(ds, num_samples=0),
    lambda d, ds: d.RandomSampler(ds, replacement="yes"),
    lambda d, ds: d.random_split(ds, [3, 3]),
    lambda d, ds: d.random_split(ds, [0.5, 0.6]),
    lambda d, ds: d.random_split(ds, [-1, 6]),
    lambda d, ds: d.Subset(ds, [0, 9])[1],
    lambda d, ds: d.ConcatDataset([]),
    lambda d, ds: d.ConcatDataset([ds, ds])[-11],
    lambda d, ds: d.ConcatDataset([ds, ds])[10],
    lambda d, ds: d.WeightedRandomSampler([0.1, 0.2], 0),
    lambda d, ds: d.WeightedRandomSampler([[0.1, 0.2]], 2),
    lambda d, ds: d.SubsetRandomSampler([1, 2]),
]


@pytest.mark.parametrize("i", range(len(CONFLICTS)))
def test_option_errors(i):
    make = CONFLICTS[i]
    same_error(lambda: make(mdata, Items(list(range(5)))), lambda: make(tdata, Items(list(range(5)))))


def test_tensor_dataset_size_mismatch():
    same_error(lambda: mdata.TensorDataset(mindtorch.zeros(3), mindtorch.zeros(4)),
               lambda: tdata.TensorDataset(torch.zeros(3), torch.zeros(4)))


def _iterable(data, n, with_len):
    class Stream(data.IterableDataset):
        def __iter__(self):
            return iter(range(n))
    if with_len:
        Stream.__len__ = lambda self: n
    return Stream()


@pytest.mark.parametrize("with_len", [False, True])
@pytest.mark.parametrize("batch_size,drop_last", [(2, False), (2, True), (None, False), (4, False)])
def test_iterable_dataset(with_len, batch_size, drop_last):
    out = []
    for L, data in BOTH:
        loader = data.DataLoader(_iterable(data, 5, with_len), batch_size=batch_size, drop_last=drop_last)
        try:
            n = len(loader)
        except TypeError:
            n = "TypeError"
        out.append((n, _batches(loader)))
    assert out[0] == out[1]


def test_iterable_dataset_refuses_sampler_and_shuffle():
    for make in (lambda d: d.DataLoader(_iterable(d, 3, False), shuffle=True),
                 lambda d: d.DataLoader(_iterable(d, 3, False), sampler=[0, 1]),
                 lambda d: d.DataLoader(_iterable(d, 3, False),
                                        batch_sampler=d.BatchSampler(range(3), 2, False))):
        same_error(lambda: make(mdata), lambda: make(tdata))


def test_shuffle_with_generator_is_reproducible():
    orders = []
    for L, data in BOTH:
        g = L.Generator().manual_seed(5)
        loader = data.DataLoader(Items(list(range(9))), batch_size=4, shuffle=True, generator=g)
        first = [b.tolist() for b in loader]
        g.manual_seed(5)
        assert [b.tolist() for b in loader] == first
        orders.append(sorted(sum(first, [])))
    assert orders[0] == orders[1] == list(range(9))


def test_random_split_fractions_and_lengths():
    out = []
    for L, data in BOTH:
        for lengths in ([0.5, 0.5], [0.3, 0.3, 0.4], [2, 3], [1.0, 0.0], [0.1, 0.9]):
            parts = data.random_split(Items(list(range(5))), lengths, generator=L.Generator().manual_seed(0))
            out.append([len(p) for p in parts])
    assert out[:5] == out[5:]
