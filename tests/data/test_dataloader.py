"""DataLoader in the main process against torch's, and its argument errors."""
import pytest
import torch
import torch.utils.data as tud

import mindtorch as mt
import mindtorch.utils.data as mud
from test_datasets import _same


def _datasets(n=10):
    x = torch.arange(n * 2, dtype=torch.float64).reshape(n, 2)
    y = torch.arange(n) % 3
    return (mud.TensorDataset(mt.tensor(x.numpy()), mt.tensor(y.numpy())),
            tud.TensorDataset(x, y))


@pytest.mark.parametrize("kwargs", [
    {}, {"batch_size": 3}, {"batch_size": 3, "drop_last": True}, {"batch_size": 10},
    {"batch_size": 4, "sampler": [9, 1, 5, 3, 0]},
    {"batch_sampler": [[0, 1], [7], [2, 3, 4]]},
    {"batch_size": None},
    {"batch_size": 4, "collate_fn": lambda b: len(b)},
])
def test_batches_match_torch(kwargs):
    m, t = _datasets()
    ml, tl = mud.DataLoader(m, **kwargs), tud.DataLoader(t, **kwargs)
    assert len(ml) == len(tl)
    got, want = list(ml), list(tl)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        _same(a, b)


def test_python_samples_batch_like_torch():
    data = [{"x": i, "y": float(i) / 2, "name": f"s{i}", "v": [i, i + 1]} for i in range(5)]
    for a, b in zip(mud.DataLoader(data, batch_size=2), tud.DataLoader(data, batch_size=2)):
        _same(a, b)


def test_shuffle_is_a_permutation_and_reproducible():
    m, _ = _datasets(20)

    def epoch(seed):
        g = mt.Generator().manual_seed(seed)
        return [b[1].tolist() for b in mud.DataLoader(m, batch_size=6, shuffle=True,
                                                      generator=g)]
    a = epoch(0)
    assert a == epoch(0) and a != epoch(1)
    flat = [i for b in a for i in b]
    assert len(flat) == 20
    loader = mud.DataLoader(m, batch_size=6, shuffle=True, generator=mt.Generator().manual_seed(0))
    rows = [r for b in loader for r in b[0].tolist()]
    assert sorted(r[0] for r in rows) == list(range(0, 40, 2))
    # the generator advances: two epochs of one loader differ, the pair is reproducible
    g = mt.Generator().manual_seed(4)
    loader = mud.DataLoader(list(range(30)), batch_size=30, shuffle=True, generator=g)
    e1, e2 = next(iter(loader)).tolist(), next(iter(loader)).tolist()
    assert e1 != e2 and sorted(e1) == sorted(e2) == list(range(30))
    g.manual_seed(4)
    assert [next(iter(loader)).tolist(), next(iter(loader)).tolist()] == [e1, e2]
    # without a generator, mindtorch.manual_seed makes it reproducible
    mt.manual_seed(7)
    r1 = [b.tolist() for b in mud.DataLoader(list(range(12)), batch_size=5, shuffle=True)]
    mt.manual_seed(7)
    assert [b.tolist() for b in mud.DataLoader(list(range(12)), batch_size=5, shuffle=True)] == r1


class Counting(mud.IterableDataset):
    def __init__(self, n, length=None):
        self.n, self.length = n, length

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n if self.length is None else self.length


@pytest.mark.parametrize("kwargs", [{}, {"batch_size": 4}, {"batch_size": 4, "drop_last": True},
                                    {"batch_size": None}])
def test_iterable_dataset_matches_torch(kwargs):
    class T(tud.IterableDataset):
        def __iter__(self):
            return iter(range(10))

        def __len__(self):
            return 10
    ml, tl = mud.DataLoader(Counting(10), **kwargs), tud.DataLoader(T(), **kwargs)
    assert len(ml) == len(tl)
    for a, b in zip(list(ml), list(tl), strict=True):
        _same(a, b)


def test_iterable_length_warning():
    loader = mud.DataLoader(Counting(5, length=2), batch_size=None)
    assert len(loader) == 2
    with pytest.warns(UserWarning, match="was reported to be 2"):
        list(loader)


def test_argument_errors_match_torch():
    m, t = _datasets()
    s = list(range(10))
    bad = [
        dict(num_workers=-1), dict(timeout=-1), dict(prefetch_factor=2),
        dict(num_workers=1, prefetch_factor=-1), dict(persistent_workers=True),
        dict(sampler=s, shuffle=True), dict(batch_sampler=[[0]], batch_size=2),
        dict(batch_sampler=[[0]], shuffle=True), dict(batch_sampler=[[0]], sampler=s),
        dict(batch_sampler=[[0]], drop_last=True), dict(batch_size=None, drop_last=True),
        dict(multiprocessing_context="spawn"), dict(num_workers=1, multiprocessing_context="x"),
        dict(batch_size=0), dict(batch_size=-1),
    ]
    for kwargs in bad:
        with pytest.raises(ValueError) as want:
            tud.DataLoader(t, **kwargs)
        with pytest.raises(ValueError) as got:
            mud.DataLoader(m, **kwargs)
        assert str(got.value) == str(want.value), kwargs
    with pytest.raises(TypeError, match="multiprocessing_context option should be a valid"):
        mud.DataLoader(m, num_workers=1, multiprocessing_context=3)
    for kwargs in (dict(shuffle=True), dict(sampler=s), dict(batch_sampler=[[0]])):
        with pytest.raises(ValueError, match="DataLoader with IterableDataset: expected "
                                             "unspecified"):
            mud.DataLoader(Counting(3), **kwargs)
    loader = mud.DataLoader(m)
    for attr in ("batch_size", "sampler", "dataset", "drop_last"):
        with pytest.raises(ValueError, match=f"{attr} attribute should not be set after "
                                             f"DataLoader is initialized"):
            setattr(loader, attr, None)
    loader.num_workers = 0  # others stay settable
    with pytest.raises(AssertionError, match="requires timeout == 0"):
        iter(mud.DataLoader(m, timeout=2))


def test_attributes_and_pin_memory():
    m, _ = _datasets()
    loader = mud.DataLoader(m, batch_size=4, shuffle=True)
    assert isinstance(loader.sampler, mud.RandomSampler)
    assert isinstance(loader.batch_sampler, mud.BatchSampler)
    assert loader.collate_fn is mud.default_collate
    assert mud.DataLoader(m, batch_size=None).collate_fn is mud.default_convert
    assert isinstance(mud.DataLoader(m).sampler, mud.SequentialSampler)
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true"):
        batches = list(mud.DataLoader(m, batch_size=5, pin_memory=True))
    assert len(batches) == 2


def test_exception_in_dataset_propagates_in_main_process():
    class Broken(mud.Dataset):
        def __getitem__(self, i):
            raise KeyError(i)

        def __len__(self):
            return 3
    with pytest.raises(KeyError):
        next(iter(mud.DataLoader(Broken())))


def test_tensor_dataset_batches_gathered_like_stacked_rows():
    m, t = _datasets()

    class Sub(mud.TensorDataset):  # a subclass goes row by row
        pass
    sub = Sub(*m.tensors)
    for sampler in ([-1, 0, 3, -10], [9, 9, 2]):
        want = list(tud.DataLoader(t, batch_size=3, sampler=sampler))
        for ds in (m, sub):
            got = list(mud.DataLoader(ds, batch_size=3, sampler=sampler))
            for a, b in zip(got, want, strict=True):
                _same(a, b)
                assert all(x.is_contiguous() for x in a)
    for ds in (m, sub):
        with pytest.raises(IndexError):
            list(mud.DataLoader(ds, batch_size=2, sampler=[0, 10]))


def test_meta_tensors_batch_to_meta_batches():
    x = mt.empty(10, 3, device="meta")
    y = mt.empty(10, dtype=mt.int64, device="meta")

    class Sub(mud.TensorDataset):
        pass
    for ds in (mud.TensorDataset(x, y), Sub(x, y)):
        batches = list(mud.DataLoader(ds, batch_size=4, shuffle=True))
        assert [tuple(a.shape) for a, _ in batches] == [(4, 3), (4, 3), (2, 3)]
        assert all(a.device.type == b.device.type == "meta" for a, b in batches)
        assert all(b.dtype == mt.int64 for _, b in batches)


def test_shuffle_order_is_the_same_in_every_process():
    import subprocess
    import sys
    script = ("import mindtorch as mt\n"
              "from mindtorch.utils.data import DataLoader, random_split\n"
              "g = mt.Generator().manual_seed(123)\n"
              "print([b.tolist() for b in DataLoader(list(range(10)), batch_size=4, "
              "shuffle=True, generator=g)])\n"
              "mt.manual_seed(5)\n"
              "print([list(s) for s in random_split(range(6), [2, 4])])\n")
    outs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=120) for _ in range(2)]
    assert all(o.returncode == 0 for o in outs), outs[0].stderr
    assert outs[0].stdout == outs[1].stdout and outs[0].stdout.count("[") > 3
