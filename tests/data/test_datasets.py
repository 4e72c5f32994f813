"""Datasets, samplers and random_split against torch.utils.data."""
import collections

import pytest
import torch
import torch.utils.data as tud

import mindtorch as mt
import mindtorch.utils.data as mud


def _same(a, b):
    """Nested structures of mindtorch/torch tensors and Python values compare equal."""
    if isinstance(a, mt.Tensor):
        assert isinstance(b, torch.Tensor), (a, b)
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        assert a.tolist() == b.tolist()
    elif isinstance(a, dict):
        assert type(a) is type(b) and list(a) == list(b)
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert type(a).__name__ == type(b).__name__ and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        assert a == b and type(a) is type(b), (a, b)


def _pair(n=7):
    x = torch.arange(n * 3, dtype=torch.float32).reshape(n, 3)
    y = torch.arange(n)
    return (mud.TensorDataset(mt.tensor(x.numpy()), mt.tensor(y.numpy())),
            tud.TensorDataset(x, y))


def test_tensor_dataset_items_and_len():
    m, t = _pair()
    assert len(m) == len(t) == 7
    for i in (0, 3, -1, slice(1, 4)):
        _same(m[i], t[i])
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        mud.TensorDataset(mt.zeros(3), mt.zeros(4))


def test_dataset_base_and_add():
    with pytest.raises(NotImplementedError, match="should implement __getitem__"):
        mud.Dataset()[0]
    m, _ = _pair(3)
    both = m + m
    assert isinstance(both, mud.ConcatDataset) and len(both) == 6

    class Stream(mud.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

        def __len__(self):
            return self.n

    chain = Stream(2) + Stream(3)
    assert isinstance(chain, mud.ChainDataset)
    assert list(chain) == [0, 1, 0, 1, 2] and len(chain) == 5
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(mud.ChainDataset([Stream(1), [1, 2]]))


def test_concat_dataset_matches_torch():
    parts = [list(range(3)), list(range(10, 12)), [], list(range(20, 24))]
    m, t = mud.ConcatDataset(parts), tud.ConcatDataset(parts)
    assert len(m) == len(t) and m.cumulative_sizes == t.cumulative_sizes
    for i in range(-len(t), len(t)):
        assert m[i] == t[i]
    for bad in (len(t), ):
        with pytest.raises(IndexError):
            m[bad]
    with pytest.raises(ValueError, match="absolute value of index should not exceed"):
        m[-len(t) - 1]
    with pytest.raises(AssertionError, match="should not be an empty iterable"):
        mud.ConcatDataset([])
    with pytest.raises(AssertionError, match="does not support IterableDataset"):
        mud.ConcatDataset([mud.ChainDataset([])])  # (IterableDataset itself is abstract)


def test_subset_and_getitems():
    class Batched(mud.Dataset):
        calls = []

        def __getitem__(self, i):
            return i * 10

        def __getitems__(self, idx):
            self.calls.append(list(idx))
            return [i * 100 for i in idx]

        def __len__(self):
            return 10

    s = mud.Subset(Batched(), [5, 2, 7])
    assert len(s) == 3 and s[1] == 20 and s.__getitems__([0, 2]) == [500, 700]
    assert Batched.calls == [[5, 7]]
    assert mud.Subset(list(range(10)), [4, 1]).__getitems__([1, 0]) == [1, 4]

    class Bad(mud.Subset):
        def __getitem__(self, i):
            return 0
    with pytest.raises(NotImplementedError, match="overrides __getitem__ but not __getitems__"):
        Bad([1], [0])


def test_stack_dataset():
    a, b = list(range(4)), list("abcd")
    for args, kwargs in (((a, b), {}), ((), {"x": a, "y": b})):
        m, t = mud.StackDataset(*args, **kwargs), tud.StackDataset(*args, **kwargs)
        assert len(m) == len(t) == 4
        assert m[2] == t[2] and m.__getitems__([3, 0]) == t.__getitems__([3, 0])
    for args, kwargs in (((a,), {"y": b}), ((a, b[:2]), {}), ((), {})):
        with pytest.raises(ValueError):
            mud.StackDataset(*args, **kwargs)


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.25, 0.25], [1, 2, 7],
                                     [0.33, 0.33, 0.34]])
def test_random_split_lengths(lengths):
    m = mud.random_split(range(10), lengths, generator=mt.Generator().manual_seed(1))
    t = tud.random_split(range(10), lengths, generator=torch.Generator().manual_seed(1))
    assert [len(s) for s in m] == [len(s) for s in t]
    items = sorted(i for s in m for i in s)
    assert items == list(range(10))  # a partition
    again = mud.random_split(range(10), lengths, generator=mt.Generator().manual_seed(1))
    assert [list(s) for s in again] == [list(s) for s in m]  # reproducible
    assert all(isinstance(s, mud.Subset) for s in m)


def test_random_split_errors_and_default_generator():
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        mud.random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
        mud.random_split(range(10), [1.5, -0.5])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        mud.random_split(range(2), [0.9, 0.05, 0.05])
    mt.manual_seed(3)
    first = [list(s) for s in mud.random_split(range(6), [3, 3])]
    mt.manual_seed(3)
    assert [list(s) for s in mud.random_split(range(6), [3, 3])] == first


def test_sampler_base():
    with pytest.raises(NotImplementedError):
        iter(mud.Sampler())
    with pytest.raises(TypeError):
        mud.Sampler([1, 2])

    class Evens(mud.Sampler):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(0, self.n, 2))
    assert list(mud.BatchSampler(Evens(7), 3, False)) == [[0, 2, 4], [6]]


def test_sequential_and_batch_sampler_match_torch():
    for n, bs, drop in ((10, 3, False), (10, 3, True), (9, 3, True), (0, 2, False), (5, 7, True)):
        m = mud.BatchSampler(mud.SequentialSampler(range(n)), bs, drop)
        t = tud.BatchSampler(tud.SequentialSampler(range(n)), bs, drop)
        assert list(m) == list(t) and len(m) == len(t)
    for bad in (0, -1, 2.0, True, None):
        with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
            mud.BatchSampler(range(3), bad, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        mud.BatchSampler(range(3), 2, 1)


def test_random_sampler():
    g = mt.Generator().manual_seed(5)
    order = list(mud.RandomSampler(range(10), generator=g))
    assert sorted(order) == list(range(10))
    assert list(mud.RandomSampler(range(10), generator=mt.Generator().manual_seed(5))) == order
    # num_samples beyond the length: whole permutations, then part of one
    s = list(mud.RandomSampler(range(4), num_samples=10, generator=g))
    assert len(s) == 10 and sorted(s[:4]) == sorted(s[4:8]) == [0, 1, 2, 3]
    assert len(set(s[8:])) == 2
    r = mud.RandomSampler(range(3), replacement=True, num_samples=70, generator=g)
    drawn = list(r)
    assert len(r) == 70 and len(drawn) == 70 and set(drawn) <= {0, 1, 2}
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        mud.RandomSampler(range(3), replacement=1)
    for bad in (0, -2, 1.5):
        with pytest.raises(ValueError, match="num_samples should be a positive integer"):
            mud.RandomSampler(range(3), num_samples=bad)
    # without a generator: seeded from the default generator
    mt.manual_seed(11)
    a = list(mud.RandomSampler(range(20)))
    mt.manual_seed(11)
    assert list(mud.RandomSampler(range(20))) == a


def test_subset_random_and_weighted_sampler():
    idx = [10, 20, 30, 40]
    s = mud.SubsetRandomSampler(idx, generator=mt.Generator().manual_seed(2))
    assert sorted(s) == idx and len(s) == 4
    w = mud.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 50, generator=mt.Generator().manual_seed(0))
    drawn = list(w)
    assert len(w) == 50 and set(drawn) <= {1, 3} and drawn.count(3) > drawn.count(1)
    w = mud.WeightedRandomSampler([1, 1, 1, 1], 4, replacement=False)
    assert sorted(w) == [0, 1, 2, 3]
    assert w.weights.dtype == mt.float64
    with pytest.raises(ValueError, match="weights should be a 1d sequence"):
        mud.WeightedRandomSampler([[1.0, 2.0]], 2)
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        mud.WeightedRandomSampler([1.0], True)
    with pytest.raises(ValueError, match="replacement should be a boolean value"):
        mud.WeightedRandomSampler([1.0], 1, replacement=0)


Point = collections.namedtuple("Point", "x y")


@pytest.mark.parametrize("batch", [
    [1, 2, 3],
    [1.5, 2.0],
    [True, False],
    ["a", "b"],
    [b"a", b"b"],
    [{"a": 1, "b": [1.0, 2.0]}, {"a": 2, "b": [3.0, 4.0]}],
    [(1, "x"), (2, "y")],
    [[1, 2], [3, 4]],
    [Point(1, 2.0), Point(3, 4.0)],
    [collections.OrderedDict(k=1), collections.OrderedDict(k=2)],
])
def test_default_collate_python_values(batch):
    _same(mud.default_collate(batch), tud.default_collate(batch))
    _same(mud.default_convert(batch), tud.default_convert(batch))


def test_default_collate_tensors_and_numpy():
    import numpy as np
    cases = [
        [np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)],
        [np.float32(1.5), np.float32(2.5)],
        [np.float64(1.5), np.float64(2.5)],
        [np.int16(3), np.int16(4)],
        [np.array(True), np.array(False)],
        [{"img": np.ones((2, 2), dtype=np.float32), "label": 3}] * 3,
    ]
    for batch in cases:
        _same(mud.default_collate(batch), tud.default_collate(batch))
        _same(mud.default_convert(batch), tud.default_convert(batch))
    ts = [torch.randn(2, 3).t(), torch.randn(2, 3).t()]  # non-contiguous
    _same(mud.default_collate([mt.tensor(t.numpy()) for t in ts]), tud.default_collate(ts))
    with pytest.raises(TypeError, match="batch must contain tensors, numpy arrays, numbers"):
        mud.default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(TypeError, match="batch must contain tensors"):
        mud.default_collate([object(), object()])
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal"):
        mud.default_collate([[1, 2], [3]])
    strs = np.array(["a", "b"])
    assert mud.default_convert(strs) is strs


def test_worker_info_outside_workers():
    assert mud.get_worker_info() is None


@pytest.mark.parametrize("n,replicas,drop", [(10, 3, False), (10, 3, True), (9, 3, False),
                                             (2, 4, False), (7, 2, True)])
def test_distributed_sampler(n, replicas, drop):
    shards = []
    for rank in range(replicas):
        m = mud.DistributedSampler(range(n), replicas, rank, shuffle=False, drop_last=drop)
        t = tud.DistributedSampler(range(n), replicas, rank, shuffle=False, drop_last=drop)
        assert list(m) == list(t) and len(m) == len(t)
        s = mud.DistributedSampler(range(n), replicas, rank, seed=3, drop_last=drop)
        s.set_epoch(1)
        shards.append(list(s))
        assert len(shards[-1]) == len(t)
    flat = [i for sh in shards for i in sh]
    assert set(flat) <= set(range(n)) and (drop or set(flat) == set(range(n)))
    again = mud.DistributedSampler(range(n), replicas, 0, seed=3, drop_last=drop)
    again.set_epoch(1)
    assert list(again) == shards[0]


def test_distributed_sampler_errors():
    with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval "
                                         r"\[0, 2\]"):
        mud.DistributedSampler(range(4), 3, 3)
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        mud.DistributedSampler(range(4))


def test_iterable_dataset_is_an_abstract_iterable():
    """PyTorch's IterableDataset is a collections.abc.Iterable: a subclass without __iter__
    cannot be instantiated (TypeError), one with it is an Iterable."""
    import collections.abc

    def run(lib):
        base = lib.utils.data.IterableDataset

        class NoIter(base):
            pass

        class Stream(base):
            def __iter__(self):
                return iter(range(3))
        with pytest.raises(TypeError, match="Can't instantiate abstract class NoIter"):
            NoIter()
        s = Stream()
        return [isinstance(s, collections.abc.Iterable), list(s), list(s + Stream()),
                isinstance(s, lib.utils.data.Dataset)]
    assert run(mt) == run(torch)
