"""QA programs on torch.utils.data as users write it (run by test_programs_qa_extra.py):
collation of every batch kind, samplers with generators, workers, dataset combinators and
splits; continued by programs_qa_io.py (serialization) and programs_qa_misc.py (utilities,
linalg, special, searching).  Shuffled orders come from the random generator, so programs
print invariants (sizes, sorted contents, coverage) where values are random.  XFAIL: the
known gaps (strict)."""
from programs_registry import program

# program -> why it still differs under mindtorch
XFAIL = {}

program("qd_collate_kinds", r'''
import collections
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, default_collate, default_convert
Pair = collections.namedtuple("Pair", "x y")
class Kinds(Dataset):
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return {"t": torch.full((2,), float(i)), "tup": (i, float(i)), "nt": Pair(i, torch.tensor([i, -i])),
                "s": "s%d" % i, "np": np.arange(3, dtype=np.int32) * i, "npf": np.float32(i) / 2, "b": i % 2 == 0,
                "lst": [i, i + 1], "nested": {"inner": torch.tensor(i, dtype=torch.int16)}}
for b in DataLoader(Kinds(), batch_size=2):
    print(b["t"], b["tup"], type(b["nt"]).__name__, b["nt"], b["s"])
    print(b["np"], b["np"].dtype, b["npf"], b["npf"].dtype, b["b"], b["lst"], b["nested"])
for b in DataLoader(Kinds(), batch_size=None):
    print(type(b["np"]).__name__, b["np"], type(b["npf"]).__name__, b["nt"], b["b"])
    break
print(default_convert(np.array([1.5, 2.5])), default_convert(np.array(["a"])), default_convert((np.int64(3), [np.zeros(1)])))
print(default_convert(Pair(np.ones(1), 2)), default_convert(np.float32(1.0)), type(default_convert(np.float32(1.0))).__name__)
print(default_collate([np.array([1, 2]), np.array([3, 4])]).dtype, default_collate([1.5, 2]).dtype, default_collate([1, 2]).dtype)
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 2)]), default_collate([Pair(1, "a"), Pair(2, "b")]))
for bad in ([object(), object()], [np.array(["a", "b"]), np.array(["c", "d"])], [torch.ones(2), torch.ones(3)], [{"a": 1}, {"b": 2}]):
    try:
        r = default_collate(bad)
        print("ok", type(r).__name__)
    except Exception as e:
        print(type(e).__name__, str(e)[:80])
''')

program("qd_custom_collate_and_batch_sampler", r'''
import torch
from torch.utils.data import DataLoader, BatchSampler, SequentialSampler, RandomSampler, TensorDataset
ds = TensorDataset(torch.arange(10.0), torch.arange(10) * 10)
def collate(batch):
    xs, ys = zip(*batch)
    return {"x": torch.stack(xs).sum(), "y": list(ys), "n": len(batch)}
for b in DataLoader(ds, batch_size=4, collate_fn=collate):
    print(b["x"], [int(v) for v in b["y"]], b["n"])
bs = BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)
print(list(bs), len(bs), len(BatchSampler(range(10), 3, True)), len(BatchSampler(range(9), 3, True)))
print([b[1].tolist() for b in DataLoader(ds, batch_sampler=bs)])
l = DataLoader(ds, batch_sampler=BatchSampler(range(10), 4, drop_last=True))
print(len(l), [x.tolist() for x, _ in l], l.batch_size, l.drop_last)
for kw in ({"batch_size": 2}, {"shuffle": True}, {"sampler": range(3)}, {"drop_last": True}):
    try:
        DataLoader(ds, batch_sampler=bs, **kw)
    except ValueError as e:
        print("ValueError", e)
try:
    DataLoader(ds, sampler=range(3), shuffle=True)
except ValueError as e:
    print("ValueError", e)
for bad in (0, -1, 2.5, True):
    try:
        BatchSampler(range(4), bad, False)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    BatchSampler(range(4), 2, "no")
except ValueError as e:
    print("ValueError", e)
print(list(SequentialSampler("abc")), len(SequentialSampler([1, 2])))
def by_pairs(batch):
    return batch
print(next(iter(DataLoader(list(range(5)), batch_size=2, collate_fn=by_pairs))), next(iter(DataLoader(list(range(5)), batch_size=2))))
''')

program("qd_random_samplers_generator", r'''
import torch
from torch.utils.data import RandomSampler, SubsetRandomSampler, WeightedRandomSampler, DataLoader, TensorDataset
g = torch.Generator().manual_seed(3)
idx = [5, 7, 9, 11]
s = SubsetRandomSampler(idx, generator=g)
a = list(s)
print(len(s), sorted(a), all(type(i) is int for i in a), s.indices)
w = WeightedRandomSampler([0.1, 0.0, 0.9, 0.0], num_samples=20, replacement=True, generator=g)
d = list(w)
print(len(w), len(d), set(d) <= {0, 2}, all(type(i) is int for i in d))
nw = WeightedRandomSampler([1.0, 2.0, 3.0, 4.0], num_samples=4, replacement=False)
print(sorted(nw), nw.weights.dtype, nw.weights, nw.num_samples, nw.replacement)
for bad in ({"weights": [1.0], "num_samples": 0}, {"weights": [1.0], "num_samples": 2.0}, {"weights": [1.0, 2.0], "num_samples": 1, "replacement": 1}, {"weights": [[1.0, 2.0]], "num_samples": 1}):
    try:
        WeightedRandomSampler(**bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    list(WeightedRandomSampler([1.0, 1.0], num_samples=3, replacement=False))
except RuntimeError as e:
    print("RuntimeError")
r1 = list(RandomSampler(range(8), generator=torch.Generator().manual_seed(1)))
r2 = list(RandomSampler(range(8), generator=torch.Generator().manual_seed(1)))
print(r1 == r2, sorted(r1), len(RandomSampler(range(8), num_samples=3, replacement=True)))
rs = list(RandomSampler(range(3), replacement=True, num_samples=50, generator=g))
print(len(rs), set(rs) <= {0, 1, 2})
rn = list(RandomSampler(range(3), num_samples=7))
print(len(rn), sorted(set(rn)), all(rn.count(i) >= 2 for i in range(3)))
for bad in ({"num_samples": 0}, {"replacement": "x"}):
    try:
        RandomSampler(range(3), **bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
ds = TensorDataset(torch.arange(12))
seen = sorted(v for (b,) in DataLoader(ds, batch_size=5, shuffle=True, generator=torch.Generator().manual_seed(0)) for v in b.tolist())
print(seen, len(DataLoader(ds, batch_size=5, shuffle=True)))
gs = torch.Generator().manual_seed(9)
o1 = [b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(9))]
o2 = [b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(9))]
print(o1 == o2)
''')

program("qd_workers_info_init", r'''
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info
class Tagged(Dataset):
    def __len__(self):
        return 8
    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([i, -1 if info is None else info.id, -1 if info is None else info.num_workers])
def init(wid):
    info = get_worker_info()
    info.dataset.offset = 100 * (wid + 1)
    assert info.id == wid
print(get_worker_info())
for nw in (0, 2):
    rows = torch.cat(list(DataLoader(Tagged(), batch_size=2, num_workers=nw, worker_init_fn=init if nw else None)))
    print(nw, rows[:, 0].tolist(), sorted(set(rows[:, 1].tolist())), sorted(set(rows[:, 2].tolist())))
    ids = rows[:, 1].tolist()
    print(ids[::2] == ids[1::2])
class Shard(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        per = -(-self.n // info.num_workers)
        return iter(range(info.id * per, min(self.n, (info.id + 1) * per)))
out = [b.tolist() for b in DataLoader(Shard(10), batch_size=3, num_workers=2)]
print(sorted(v for b in out for v in b), len(out), sorted(len(b) for b in out))
print([b.tolist() for b in DataLoader(Shard(7), batch_size=3)])
print(sorted(v for b in DataLoader(Shard(10), batch_size=3, num_workers=2, drop_last=True) for v in b.tolist()))
class Dup(IterableDataset):
    def __iter__(self):
        return iter(range(4))
print(sorted((type(v).__name__, v) for v in DataLoader(Dup(), batch_size=None, num_workers=2)))
try:
    len(DataLoader(Dup(), batch_size=2))
except TypeError as e:
    print("TypeError", e)
class Sized(IterableDataset):
    def __iter__(self):
        return iter(range(5))
    def __len__(self):
        return 5
print(len(DataLoader(Sized(), batch_size=2)), len(DataLoader(Sized(), batch_size=2, drop_last=True)), len(DataLoader(Sized())))
for kw in ({"shuffle": True}, {"sampler": [0, 1]}, {"batch_sampler": [[0]]}):
    try:
        DataLoader(Dup(), **kw)
    except ValueError as e:
        print("ValueError", e)
''')

program("qd_persistent_workers", r'''
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(9.0))
l = DataLoader(ds, batch_size=4, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print(epoch, [b[0].tolist() for b in l])
it1 = iter(l)
print(next(it1)[0].tolist())
it2 = iter(l)
print([b[0].tolist() for b in it2])
for kw in ({"persistent_workers": True}, {"prefetch_factor": 2}, {"num_workers": -1}, {"timeout": -1}):
    try:
        DataLoader(ds, **kw)
        print("ok", kw)
    except ValueError as e:
        print("ValueError", e)
l2 = DataLoader(ds, batch_size=4, num_workers=2, prefetch_factor=1)
print(l2.prefetch_factor, DataLoader(ds, num_workers=2).prefetch_factor, DataLoader(ds).prefetch_factor, [b[0].tolist() for b in l2])
try:
    l.batch_size = 3
except ValueError as e:
    print("ValueError", e)
''')

program("qd_dataset_combinators", r'''
import torch
from torch.utils.data import (ConcatDataset, ChainDataset, StackDataset, Subset, TensorDataset, IterableDataset,
                              DataLoader, Dataset)
a = TensorDataset(torch.arange(3))
b = TensorDataset(torch.arange(10, 15))
c = ConcatDataset([a, b, a])
print(len(c), c.cumulative_sizes, c[0], c[3], c[7], c[-1], c[-11])
for i in (11, -12):
    try:
        c[i]
    except (IndexError, ValueError) as e:
        print(type(e).__name__, e)
try:
    ConcatDataset([])
except (AssertionError, ValueError) as e:
    print(type(e).__name__)
s = a + b
print(type(s).__name__, len(s), s[4], len(s + a))
class It(IterableDataset):
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi
    def __iter__(self):
        return iter(range(self.lo, self.hi))
ch = ChainDataset([It(0, 3), It(7, 9)])
print(list(ch), [t.tolist() for t in DataLoader(ch, batch_size=2)])
print(type(It(0, 1) + It(2, 3)).__name__, list(It(0, 1) + It(2, 3)))
try:
    ConcatDataset([a, It(0, 2)])
except AssertionError:
    print("AssertionError")
sd = StackDataset(a, TensorDataset(torch.arange(3.0) / 2))
print(len(sd), sd[1], [x for x in DataLoader(sd, batch_size=2)])
sk = StackDataset(x=a, y=list("abc"))
print(sk[2], next(iter(DataLoader(sk, batch_size=3))))
print(sk.__getitems__([0, 2]), sd.__getitems__([1]))
for bad in (lambda: StackDataset(a, TensorDataset(torch.arange(4))), lambda: StackDataset(a, x=a), lambda: StackDataset()):
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
sub = Subset(b, [4, 0, 2])
print(len(sub), sub[0], sub[-1], sub.indices, sub.__getitems__([0, 1]))
class Plain(Dataset):
    def __getitem__(self, i):
        return i
try:
    len(Plain())
except TypeError as e:
    print("TypeError")
try:
    Plain() + 1
except TypeError as e:
    print("TypeError")
''')

program("qd_random_split_fractions", r'''
import torch
import warnings
from torch.utils.data import random_split, TensorDataset, Subset
ds = TensorDataset(torch.arange(10))
for lengths in ([0.5, 0.5], [0.7, 0.2, 0.1], [0.33, 0.33, 0.34], [1.0], [0.25, 0.25, 0.25, 0.25], [0.1] * 10, [0.0, 1.0]):
    parts = random_split(ds, lengths, generator=torch.Generator().manual_seed(0))
    print(lengths[:3], [len(p) for p in parts], sorted(i for p in parts for i in p.indices), all(type(p) is Subset for p in parts))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    parts = random_split(range(5), [0.1, 0.9])
    print([len(p) for p in parts], [str(m.message)[:70] for m in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    parts = random_split(range(7), [0.3, 0.3, 0.4])
    print([len(p) for p in parts], len(w))
p1 = random_split(range(20), [5, 15], generator=torch.Generator().manual_seed(4))
p2 = random_split(range(20), [5, 15], generator=torch.Generator().manual_seed(4))
print(p1[0].indices == p2[0].indices, sorted(p1[0].indices + p1[1].indices) == list(range(20)), type(p1[0].indices[0]).__name__)
for bad in ([0.5, 0.6], [0.5, 0.4], [-0.5, 1.5], [3, 3], [11]):
    try:
        random_split(range(10), bad)
    except ValueError as e:
        print("ValueError", e)
print([list(p) for p in random_split(range(4), [4, 0])][1], [len(p) for p in random_split([], [0, 0])])
''')

program("qd_loader_lengths_and_iter", r'''
import torch
from torch.utils.data import DataLoader, TensorDataset, Sampler, SequentialSampler
ds = TensorDataset(torch.arange(10))
for bs in (1, 3, 4, 10, 11):
    print(bs, len(DataLoader(ds, batch_size=bs)), len(DataLoader(ds, batch_size=bs, drop_last=True)))
class Evens(Sampler):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return iter(range(0, self.n, 2))
    def __len__(self):
        return (self.n + 1) // 2
l = DataLoader(ds, batch_size=2, sampler=Evens(10))
print(len(l), [b[0].tolist() for b in l])
class NoLen(Sampler):
    def __iter__(self):
        return iter([1, 2, 3])
l2 = DataLoader(ds, batch_size=2, sampler=NoLen())
print([b[0].tolist() for b in l2])
try:
    len(l2)
except TypeError as e:
    print("TypeError", e)
it = iter(DataLoader(ds, batch_size=4))
print(len(it), next(it)[0].tolist(), len(it))
print(sum(1 for _ in it))
try:
    next(it)
except StopIteration:
    print("StopIteration")
loader = DataLoader(ds, batch_size=3)
print(type(loader.sampler).__name__, type(loader.batch_sampler).__name__, loader.num_workers, loader.collate_fn.__name__, loader.timeout, loader.pin_memory, loader.generator)
print(type(DataLoader(ds, shuffle=True).sampler).__name__, DataLoader(ds, batch_size=None).batch_sampler, type(DataLoader(ds, batch_size=None).sampler).__name__, DataLoader(ds, batch_size=None).collate_fn.__name__)
print(list(SequentialSampler(ds))[:3], isinstance(loader.sampler, Sampler))
''')


program("qd_collate_edge_types", r'''
import collections
import numpy as np
import torch
from torch.utils.data import default_collate, default_convert, DataLoader
class MyList(list):
    pass
print(default_collate([np.bool_(True), np.bool_(False)]), default_collate([np.float16(1.5), np.float16(2)]).dtype, default_collate([np.uint8(3), np.uint8(4)]).dtype)
print(default_collate([np.str_("a"), np.str_("b")]), default_collate([np.array(3), np.array(4)]), default_collate([np.zeros((2, 0)), np.zeros((2, 0))]).shape)
print(default_collate([torch.tensor([1, 2], dtype=torch.int8), torch.tensor([3, 4], dtype=torch.int8)]).dtype)
print(default_collate([collections.OrderedDict(b=1, a=2), collections.OrderedDict(b=3, a=4)]), type(default_collate([collections.OrderedDict(b=1)])).__name__)
print(type(default_collate([MyList([1, 2]), MyList([3, 4])])).__name__, default_collate([MyList([1, 2]), MyList([3, 4])]))
print(default_collate([collections.defaultdict(int, {"k": 1}), collections.defaultdict(int, {"k": 2})]))
print(default_collate([(1, "a"), (2, "b")]), type(default_collate([(1, "a"), (2, "b")])).__name__, type(default_collate([[1, 2]])).__name__)
print(default_convert([np.array([1, 2]), (np.float64(2.5),)]), default_convert(MyList([np.ones(1)])), default_convert(collections.OrderedDict(a=np.zeros(1))))
print(default_convert(np.array(b"x")), default_convert(np.array([object()], dtype=object)).__class__.__name__)
print(default_collate([torch.ones(2, 3).t(), torch.zeros(2, 3).t()]).shape, default_collate([torch.ones(2, 3).t(), torch.zeros(2, 3).t()]).is_contiguous())
print(default_collate([torch.tensor(1.5, requires_grad=True), torch.tensor(2.0)]).requires_grad, default_collate([np.ones(2, dtype=np.float32)]).dtype)
try:
    default_collate([])
except Exception as e:
    print(type(e).__name__)
try:
    default_collate([(1, 2), (3,)])
except RuntimeError as e:
    print("RuntimeError", e)
print(next(iter(DataLoader([{"a": i, "b": [i, i]} for i in range(4)], batch_size=4))))
print(next(iter(DataLoader(range(6), batch_size=4))), next(iter(DataLoader(np.arange(6.0).reshape(3, 2), batch_size=2))).dtype)
''')

program("qd_getitems_and_map_style", r'''
import torch
from torch.utils.data import Dataset, DataLoader, Subset, Sampler
class Batched(Dataset):
    calls = []
    def __len__(self):
        return 7
    def __getitem__(self, i):
        return torch.tensor(i)
    def __getitems__(self, idxs):
        self.calls.append(list(idxs))
        return [torch.tensor(i * 10) for i in idxs]
d = Batched()
print([b.tolist() for b in DataLoader(d, batch_size=3)], d.calls)
print([b.tolist() for b in DataLoader(d, batch_size=None)][:3])
sub = Subset(d, [6, 5, 4])
print([b.tolist() for b in DataLoader(sub, batch_size=2)], d.calls[-2:])
class Chunks(Sampler):
    def __iter__(self):
        return iter([[0, 1], [5], [2, 3, 4]])
    def __len__(self):
        return 3
class Plain(Dataset):
    def __len__(self):
        return 6
    def __getitem__(self, i):
        return i * 2
print([b.tolist() for b in DataLoader(Plain(), batch_sampler=Chunks())])
print([b for b in DataLoader(Plain(), batch_size=None, sampler=[3, 1])])
print([b.tolist() for b in DataLoader(Plain(), sampler=range(5, -1, -2), batch_size=2)])
print([b.tolist() for b in DataLoader(Subset(Plain(), torch.tensor([4, 2])), batch_size=2)])
class Generic(Dataset[int]):
    def __len__(self):
        return 2
    def __getitem__(self, i):
        return i
print(list(DataLoader(Generic())), isinstance(Generic(), Dataset), Sampler[int] is not None)
class KeyErr(Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        if i == 2:
            raise KeyError("missing-" + str(i))
        return i
for nw in (0, 2):
    try:
        list(DataLoader(KeyErr(), batch_size=1, num_workers=nw))
    except KeyError as e:
        print(nw, "KeyError", "missing-2" in str(e))
''')


program("qd_distributed_sampler_and_seeds", r'''
import torch
from torch.utils.data import DataLoader, TensorDataset, get_worker_info
from torch.utils.data.distributed import DistributedSampler
ds = TensorDataset(torch.arange(10))
for rank in (0, 1, 2):
    s = DistributedSampler(ds, num_replicas=3, rank=rank, shuffle=False)
    print(rank, list(s), len(s), s.num_samples, s.total_size)
s = DistributedSampler(ds, num_replicas=3, rank=1, shuffle=False, drop_last=True)
print(list(s), len(s))
parts = []
for rank in range(4):
    s = DistributedSampler(ds, num_replicas=4, rank=rank, shuffle=True, seed=7)
    s.set_epoch(3)
    parts.append(list(s))
print([len(p) for p in parts], sorted(set(i for p in parts for i in p)), sum(len(p) for p in parts))
a = DistributedSampler(ds, num_replicas=2, rank=0, seed=1)
b = DistributedSampler(ds, num_replicas=2, rank=0, seed=1)
print(list(a) == list(b), a.epoch, a.shuffle, a.seed)
for bad in ({"rank": 2}, {"rank": -1}):
    try:
        DistributedSampler(ds, num_replicas=2, **bad)
    except ValueError as e:
        print("ValueError", e)
l = DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds, num_replicas=2, rank=1, shuffle=False))
print([b[0].tolist() for b in l], len(l))
class Seeds(torch.utils.data.Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([info.id, int(torch.initial_seed() == info.seed)]), info.seed
rows = list(DataLoader(Seeds(), batch_size=2, num_workers=2))
print(sorted(r[0][:, 0].tolist()[0] for r in rows), all(r[0][:, 1].all() for r in rows), len({int(r[1][0]) for r in rows}))
g1 = [int(r[1][0]) for r in DataLoader(Seeds(), batch_size=2, num_workers=2, generator=torch.Generator().manual_seed(5))]
g2 = [int(r[1][0]) for r in DataLoader(Seeds(), batch_size=2, num_workers=2, generator=torch.Generator().manual_seed(5))]
print(g1 == g2, g1[1] - g1[0])
''')

program("qd_collate_fn_map", r'''
import collections
import torch
from torch.utils.data import DataLoader
from torch.utils.data._utils.collate import collate, default_collate_fn_map, collate_tensor_fn
class Box:
    def __init__(self, v):
        self.v = v
def collate_box(batch, *, collate_fn_map=None):
    return Box(sum(b.v for b in batch))
fn_map = dict(default_collate_fn_map)
fn_map[Box] = collate_box
out = collate([(Box(1), torch.ones(2)), (Box(2), torch.zeros(2))], collate_fn_map=fn_map)
print(type(out).__name__, out[0].v, out[1])
print(sorted(getattr(k, "__name__", str(k)) for k in default_collate_fn_map))
print(collate_tensor_fn([torch.ones(1), torch.ones(1)]), collate([1.5, 2.5], collate_fn_map=default_collate_fn_map))
try:
    collate([Box(1), Box(2)], collate_fn_map=default_collate_fn_map)
except TypeError as e:
    print("TypeError", str(e)[:60])
def my_collate(batch):
    return collate(batch, collate_fn_map={**default_collate_fn_map, Box: collate_box})
print([b[0].v for b in DataLoader([(Box(i), i) for i in range(5)], batch_size=2, collate_fn=my_collate)])
''')


program("qd_train_checkpoint_resume_workflow", r'''
import io
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split
from torch.utils.checkpoint import checkpoint
X = torch.linspace(-2, 2, 64, dtype=torch.float64).reshape(32, 2)
y = (X[:, :1] * 1.5 - X[:, 1:] * 0.5 + 0.25).sin()
ds = TensorDataset(X, y)
train, val = random_split(ds, [24, 8], generator=torch.Generator().manual_seed(0))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(2, 8), nn.Linear(8, 1)
        self.drop = nn.Dropout(0.0)
    def forward(self, x):
        h = checkpoint(lambda t: torch.tanh(self.a(t)), x, use_reentrant=False)
        return self.b(self.drop(h))
def build():
    net = Net().double()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-0.6, 0.6, p.numel(), dtype=torch.float64).reshape(p.shape) * (1 + 0.1 * i))
    opt = torch.optim.AdamW(net.parameters(), lr=0.05, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
    return net, opt, sched
def epoch(net, opt, sched, workers):
    net.train()
    total = 0.0
    for xb, yb in DataLoader(train, batch_size=8, shuffle=False, num_workers=workers):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    sched.step()
    return round(total / len(train), 8)
def evaluate(net):
    net.eval()
    with torch.no_grad():
        return round(sum(nn.functional.mse_loss(net(xb), yb, reduction="sum").item() for xb, yb in DataLoader(val, batch_size=4)) / len(val), 8)
net, opt, sched = build()
straight = [epoch(net, opt, sched, 0) for _ in range(4)]
print(straight, evaluate(net))
net, opt, sched = build()
first = [epoch(net, opt, sched, 2) for _ in range(2)]
buf = io.BytesIO()
torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2}, buf)
buf.seek(0)
ck = torch.load(buf)
net2, opt2, sched2 = build()
net2.load_state_dict(ck["model"])
opt2.load_state_dict(ck["opt"])
sched2.load_state_dict(ck["sched"])
resumed = first + [epoch(net2, opt2, sched2, 0) for _ in range(2)]
print(resumed == straight, evaluate(net2), sched2.last_epoch, [round(v, 8) for v in sched2.get_last_lr()])
''')


import programs_qa_io  # the programs continue there, then in programs_qa_misc
import programs_qa_misc

XFAIL.update(programs_qa_io.XFAIL)
XFAIL.update(programs_qa_misc.XFAIL)
