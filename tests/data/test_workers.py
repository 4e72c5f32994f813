"""DataLoader with worker processes: order, seeds, sharding, errors, timeouts (every test
runs under a time limit so a hang fails instead of stalling the suite)."""
import os
import signal
import time

import pytest

import mindtorch as mt
import mindtorch.utils.data as mud

pytestmark = pytest.mark.filterwarnings("ignore:This DataLoader will create")


@pytest.fixture(autouse=True)
def _time_limit():
    def expire(*_):
        raise TimeoutError("DataLoader test hung")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


class Squares(mud.Dataset):
    """Slow for some items, so results arrive out of order."""

    def __init__(self, n=23):
        self.n = n

    def __getitem__(self, i):
        if i % 5 == 0:
            time.sleep(0.02)
        return mt.tensor([i, i * i]), os.getpid()

    def __len__(self):
        return self.n


def _rows(loader):
    return [r for x, _ in loader for r in x.tolist()]


@pytest.mark.parametrize("workers,batch", [(1, 4), (2, 3), (3, 1)])
def test_order_preserved_and_work_spread(workers, batch):
    ds = Squares()
    want = _rows(mud.DataLoader(ds, batch_size=batch))
    loader = mud.DataLoader(ds, batch_size=batch, num_workers=workers)
    batches = list(loader)
    assert [r for x, _ in batches for r in x.tolist()] == want
    pids = {p for _, ps in batches for p in ps.tolist()}
    assert os.getpid() not in pids and len(pids) == workers
    assert len(loader) == len(batches)


def test_shuffle_with_workers_is_reproducible():
    def epoch():
        g = mt.Generator().manual_seed(3)
        return _rows(mud.DataLoader(Squares(), batch_size=4, shuffle=True, generator=g,
                                    num_workers=2))
    a = epoch()
    assert a == epoch() and sorted(r[0] for r in a) == list(range(23))
    g = mt.Generator().manual_seed(3)
    assert _rows(mud.DataLoader(Squares(), batch_size=4, shuffle=True, generator=g)) == a


def test_dtypes_and_structures_cross_processes():
    class Mixed(mud.Dataset):
        def __getitem__(self, i):
            return {"f": mt.arange(3, dtype=mt.bfloat16) + i, "b": mt.tensor([i % 2 == 0]),
                    "t": mt.arange(6.).reshape(2, 3).t() * i, "s": f"s{i}", "n": i}

        def __len__(self):
            return 4
    (a,), (b,) = [list(mud.DataLoader(Mixed(), batch_size=4, num_workers=w)) for w in (0, 1)]
    assert a.keys() == b.keys()
    for k in ("f", "b", "t", "n"):
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape
        assert a[k].tolist() == b[k].tolist()
    assert a["s"] == b["s"] == ["s0", "s1", "s2", "s3"]


class Info(mud.Dataset):
    def __getitem__(self, i):
        info = mud.get_worker_info()
        return (info.id, info.num_workers, info.seed, mt.randint(0, 1 << 30, ()).item(),
                os.environ.get("MT_INIT"))

    def __len__(self):
        return 6


def _init(worker_id):
    os.environ["MT_INIT"] = f"w{worker_id}"


def test_worker_info_seeds_and_init_fn():
    g = mt.Generator().manual_seed(9)
    rows = list(mud.DataLoader(Info(), batch_size=None, num_workers=2, worker_init_fn=_init,
                               generator=g))
    ids = [r[0] for r in rows]
    assert ids == [0, 1, 0, 1, 0, 1]  # tasks go round-robin
    assert {r[1] for r in rows} == {2}
    assert all(r[4] == f"w{r[0]}" for r in rows)
    seeds = {r[0]: r[2] for r in rows}
    assert seeds[1] == seeds[0] + 1  # base seed + worker id
    g = mt.Generator().manual_seed(9)
    again = list(mud.DataLoader(Info(), batch_size=None, num_workers=2, worker_init_fn=_init,
                                generator=g))
    assert again == rows  # worker random streams follow the loader's generator
    # the worker info is frozen
    class Frozen(mud.Dataset):
        def __getitem__(self, i):
            info = mud.get_worker_info()
            try:
                info.id = 5
            except AttributeError as e:  # dataclasses.FrozenInstanceError, as PyTorch 2.13
                return str(e), info.worker_method, info.rng
            return "assigned"

        def __len__(self):
            return 1
    assert list(mud.DataLoader(Frozen(), batch_size=None, num_workers=1)) == \
        [["cannot assign to field 'id'", "multiprocessing", None]]  # (collated)


class Sharded(mud.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = mud.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


@pytest.mark.parametrize("batch,drop", [(None, False), (2, False), (3, True)])
def test_iterable_dataset_sharded_by_worker_info(batch, drop):
    loader = mud.DataLoader(Sharded(11), batch_size=batch, drop_last=drop, num_workers=3)
    got = list(loader)
    flat = [int(x) for x in got] if batch is None else [v for b in got for v in b.tolist()]
    if not drop:
        assert sorted(flat) == list(range(11))
    else:
        assert all(len(b) == batch for b in got)
        assert len(set(flat)) == len(flat)
    # unsharded copies: each worker yields the whole stream
    dup = list(mud.DataLoader(mud.ChainDataset([Sharded(0)]), num_workers=2))
    assert dup == []


class Failing(mud.Dataset):
    def __getitem__(self, i):
        if i == 5:
            raise ValueError(f"bad item {i}")
        return i

    def __len__(self):
        return 10


def test_worker_exception_reraised_with_traceback():
    loader = mud.DataLoader(Failing(), batch_size=2, num_workers=2)
    it = iter(loader)
    assert next(it).tolist() == [0, 1] and next(it).tolist() == [2, 3]
    with pytest.raises(ValueError) as e:
        next(it)
    msg = str(e.value)
    assert "Caught ValueError in DataLoader worker process 0" in msg
    assert "Traceback (most recent call last)" in msg and "bad item 5" in msg
    assert "__getitem__" in msg
    assert all(not w.is_alive() for w in it._workers)  # shut down


def test_worker_errors_of_other_kinds():
    class KeyErr(mud.Dataset):
        def __getitem__(self, i):
            raise KeyError("missing")

        def __len__(self):
            return 2
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process"):
        list(mud.DataLoader(KeyErr(), num_workers=1))

    def bad_init(worker_id):
        raise OSError("init failed")
    with pytest.raises(OSError, match="init failed"):
        list(mud.DataLoader(list(range(4)), num_workers=2, worker_init_fn=bad_init))
    # an unpicklable batch becomes an error, not a lost batch and a hang
    with pytest.raises(Exception, match="DataLoader worker process 0"):
        list(mud.DataLoader(list(range(2)), num_workers=1, collate_fn=lambda b: (lambda: b)))


def test_timeout_and_dead_worker():
    class Slow(mud.Dataset):
        def __getitem__(self, i):
            time.sleep(2)
            return i

        def __len__(self):
            return 2
    start = time.time()
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0\.5 seconds"):
        list(mud.DataLoader(Slow(), num_workers=1, timeout=0.5))
    assert time.time() - start < 10

    class Dies(mud.Dataset):
        def __getitem__(self, i):
            os._exit(3)

        def __len__(self):
            return 2
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited "
                                           r"unexpectedly"):
        list(mud.DataLoader(Dies(), num_workers=1))


def test_persistent_workers_and_prefetch():
    loader = mud.DataLoader(Squares(9), batch_size=2, num_workers=2, persistent_workers=True,
                            prefetch_factor=1)
    first = list(loader)
    it = loader._iterator
    pids = {w.pid for w in it._workers}
    assert _rows(loader) == [r for x, _ in first for r in x.tolist()]
    assert loader._iterator is it and {w.pid for w in it._workers} == pids
    assert all(w.is_alive() for w in it._workers)
    # an epoch left half-way, then a full one
    partial = iter(loader)
    next(partial)
    assert len(list(loader)) == 5
    it._shutdown_workers()
    assert not any(w.is_alive() for w in it._workers)


def test_breaking_early_shuts_workers_down():
    it = iter(mud.DataLoader(Squares(), batch_size=2, num_workers=2))
    next(it)
    workers = it._workers
    del it
    import gc
    gc.collect()
    for w in workers:
        w.join(timeout=10)
        assert not w.is_alive()


def test_spawn_start_method():
    loader = mud.DataLoader(Squares(7), batch_size=3, num_workers=1,
                            multiprocessing_context="spawn")
    assert _rows(loader) == [[i, i * i] for i in range(7)]


class SlowFirst(mud.Dataset):
    def __getitem__(self, i):
        if i == 0:
            time.sleep(1.0)
        return i

    def __len__(self):
        return 8


def test_in_order_false_hands_out_batches_as_they_arrive():
    got = [b.tolist() for b in mud.DataLoader(SlowFirst(), batch_size=2, num_workers=2,
                                              in_order=False)]
    assert sorted(got) == [[0, 1], [2, 3], [4, 5], [6, 7]] and got[0] != [0, 1]
    ordered = [b.tolist() for b in mud.DataLoader(SlowFirst(), batch_size=2, num_workers=2)]
    assert ordered == [[0, 1], [2, 3], [4, 5], [6, 7]]


def test_worker_info_fields_and_thread_safe_generator():
    torch = pytest.importorskip("torch")
    from torch.utils.data._utils.worker import WorkerInfo as TorchInfo

    from mindtorch.utils.data._utils.worker import WorkerInfo
    args = dict(id=1, num_workers=2, seed=7, dataset=[1, 2])
    assert repr(WorkerInfo(**args)) == repr(TorchInfo(**args))
    assert WorkerInfo(**args) == WorkerInfo(**args)
    with pytest.raises(TypeError):
        WorkerInfo(id=1, num_workers=2, seed=7)
    # no thread workers: the default generator is used, in the main process and in workers
    assert mt.random.thread_safe_generator() is None is torch.random.thread_safe_generator()

    class Gen(mud.Dataset):
        def __getitem__(self, i):
            return mt.random.thread_safe_generator() is None

        def __len__(self):
            return 2
    assert list(mud.DataLoader(Gen(), batch_size=None, num_workers=1)) == [True, True]
