"""Programs (see test_programs_ml.py): torch.utils.data (datasets, DataLoader batching,
collation, samplers, random_split, workers) and torch.save/torch.load of tensors,
state_dicts and checkpoints through BytesIO and files.  Shuffled orders depend on the
random generator (which differs between the libraries), so programs print what does
not: sizes, sorted contents, coverage."""
from programs_registry import program


def io(name, text, needs=()):
    program(name, "import torch\n" + text, needs)


io("data_tensor_dataset", r'''
from torch.utils.data import DataLoader, TensorDataset
X = torch.arange(30, dtype=torch.float32).reshape(10, 3)
y = torch.arange(10) % 3
ds = TensorDataset(X, y)
print(len(ds), ds[3], ds[-1][1], type(ds[0]).__name__)
print(ds.tensors[0].shape, len(ds.tensors))
loader = DataLoader(ds, batch_size=4)
print(len(loader), loader.batch_size, loader.drop_last)
for i, (xb, yb) in enumerate(loader):
    print(i, xb.shape, yb.tolist(), xb.dtype, yb.dtype)
print([len(b[0]) for b in DataLoader(ds, batch_size=4, drop_last=True)], len(DataLoader(ds, batch_size=4, drop_last=True)))
batch = next(iter(DataLoader(ds, batch_size=3)))
print(type(batch).__name__, len(batch), batch[0])
print([b[1].tolist() for b in DataLoader(ds, batch_size=None)][:3])
single = DataLoader(ds)
print(len(single), next(iter(single)))
g = torch.Generator()
g.manual_seed(0)
sh = DataLoader(ds, batch_size=3, shuffle=True, generator=g)
for epoch in range(2):
    seen = torch.cat([yb for _, yb in sh])
    rows = torch.cat([xb for xb, _ in sh])
    print(epoch, sorted(seen.tolist()), sorted(rows[:, 0].tolist()))
try:
    TensorDataset(X, y[:5])
except Exception as e:
    print(type(e).__name__)
''')

io("data_custom_dataset", r'''
from torch.utils.data import Dataset, DataLoader
import numpy as np
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, idx):
        x = torch.tensor([idx, idx ** 2], dtype=torch.float32)
        return {"x": x, "label": idx % 2, "name": f"item{idx}", "arr": np.full(2, idx, dtype=np.float64),
                "meta": (idx, float(idx) / 2)}
ds = Squares(7)
print(len(ds), ds[2]["x"], ds[2]["name"])
loader = DataLoader(ds, batch_size=3)
for b in loader:
    print(sorted(b), b["x"].tolist(), b["label"], b["name"])
    print(b["arr"], b["arr"].dtype, b["meta"])
def collate(batch):
    xs = [item["x"] for item in batch]
    return torch.stack(xs), torch.tensor([item["label"] for item in batch])
print([tuple(x.shape) for x, _ in DataLoader(ds, batch_size=2, collate_fn=collate)])
class Seqs(Dataset):
    def __init__(self):
        self.data = [torch.arange(n) for n in [3, 1, 4, 2, 5]]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, i):
        return self.data[i], len(self.data[i])
def pad_collate(batch):
    seqs, lens = zip(*batch)
    return torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1), torch.tensor(lens)
for padded, lens in DataLoader(Seqs(), batch_size=2, collate_fn=pad_collate):
    print(padded.tolist(), lens)
from torch.utils.data import default_collate
print(default_collate([(1, 2.0, True), (3, 4.5, False)]))
print(default_collate([torch.ones(2), torch.zeros(2)]), default_collate([[1, 2], [3, 4]]))
''')

io("data_splits_and_samplers", r'''
from torch.utils.data import (TensorDataset, random_split, Subset, ConcatDataset, DataLoader,
                              SequentialSampler, RandomSampler, BatchSampler, SubsetRandomSampler,
                              WeightedRandomSampler)
ds = TensorDataset(torch.arange(20).float().unsqueeze(1), torch.arange(20))
train, val = random_split(ds, [16, 4], generator=torch.Generator().manual_seed(42))
print(type(train).__name__, len(train), len(val), sorted(train.indices + val.indices) == list(range(20)))
parts = random_split(ds, [0.5, 0.3, 0.2])
print([len(p) for p in parts])
parts = random_split(range(10), [0.34, 0.33, 0.33])
print([len(p) for p in parts])
try:
    random_split(ds, [10, 5])
except ValueError as e:
    print("ValueError", e)
sub = Subset(ds, [0, 5, 7])
print(len(sub), sub[1], [int(y) for _, y in DataLoader(sub, batch_size=2) for y in _])
cat = ConcatDataset([ds, Subset(ds, range(3))])
print(len(cat), cat[20][1], cat[-1][1], cat.cumulative_sizes)
print(list(SequentialSampler(range(5))), len(RandomSampler(range(7))), sorted(RandomSampler(range(7))))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)))
print(sorted(SubsetRandomSampler([3, 9, 1])), len(RandomSampler(range(4), replacement=True, num_samples=9)))
w = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True)
print(list(w), len(w))
loader = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 6, False))
print([b[1].tolist() for b in loader])
loader = DataLoader(ds, sampler=SubsetRandomSampler(range(4)), batch_size=2)
print(sorted(torch.cat([y for _, y in loader]).tolist()))
''')

io("data_iterable_and_workers", r'''
from torch.utils.data import IterableDataset, DataLoader, TensorDataset, get_worker_info
class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield torch.tensor([i, i * 10])
print([b.tolist() for b in DataLoader(Stream(5), batch_size=2)])
print(sorted(x for b in DataLoader(Stream(9), batch_size=2, num_workers=2) for x in b[:, 0].tolist()))
ds = TensorDataset(torch.arange(12).reshape(6, 2).float(), torch.arange(6))
loader = DataLoader(ds, batch_size=2, num_workers=2, persistent_workers=False)
print([y.tolist() for _, y in loader], len(loader))
print(next(iter(DataLoader(ds, batch_size=3, num_workers=1, pin_memory=False)))[0])
''')

io("serialization_state_dict", r'''
import io, os, tempfile, math
import torch.nn as nn
def det(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.3)
    return model
model = det(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3)))
model(torch.ones(2, 1, 4, 4))
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf)
print(type(sd).__name__, list(sd), sd["1.num_batches_tracked"], sd["3.bias"])
fresh = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3))
print(fresh.load_state_dict(sd))
x = torch.cos(torch.arange(32.0)).reshape(2, 1, 4, 4)
model.eval(); fresh.eval()
print(torch.equal(model(x), fresh(x)), fresh(x))
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model.pt")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    model(x).sum().backward()
    opt.step()
    torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
                "loss": 0.25, "history": [1.0, 0.5], "name": "cnn"}, path)
    ckpt = torch.load(path, map_location="cpu")
    print(sorted(ckpt), ckpt["epoch"], ckpt["loss"], ckpt["history"], ckpt["name"])
    opt2 = torch.optim.Adam(fresh.parameters(), lr=1e-3)
    opt2.load_state_dict(ckpt["optimizer_state_dict"])
    fresh.load_state_dict(ckpt["model_state_dict"])
    print(opt2.state_dict()["param_groups"][0]["lr"], sorted(opt2.state_dict()["state"][0]))
    print(torch.equal(opt2.state_dict()["state"][3]["exp_avg"], opt.state_dict()["state"][3]["exp_avg"]))
    ckpt = torch.load(path, map_location=torch.device("cpu"), weights_only=True)
    print(ckpt["model_state_dict"]["3.weight"].shape)
    torch.save(model, os.path.join(d, "full.pt"))
    try:
        torch.load(os.path.join(d, "full.pt"))
    except Exception as e:
        print(type(e).__name__)
    whole = torch.load(os.path.join(d, "full.pt"), weights_only=False)
    print(type(whole).__name__, whole[3])
    with open(os.path.join(d, "t.pt"), "wb") as f:
        torch.save(torch.arange(5), f)
    with open(os.path.join(d, "t.pt"), "rb") as f:
        print(torch.load(f))
''')

io("serialization_tensors", r'''
import io
def roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)
for t in [torch.tensor(3.5), torch.arange(6, dtype=torch.int16).reshape(2, 3), torch.tensor([True, False]),
          torch.linspace(0, 1, 4, dtype=torch.float64), torch.tensor([1.5, -2.0], dtype=torch.float16),
          torch.tensor([1.5, -2.0], dtype=torch.bfloat16), torch.tensor([1 + 2j]), torch.zeros(0, 3),
          torch.tensor([255], dtype=torch.uint8), torch.arange(12.0).reshape(3, 4).t()]:
    r = roundtrip(t)
    print(r.dtype, tuple(r.shape), r.tolist() == t.tolist(), r.is_contiguous() == t.is_contiguous())
base = torch.arange(10.0)
views = roundtrip({"base": base, "view": base[2:5], "again": base})
views["view"][0] = 100
print(views["base"], views["again"] is views["base"])
nested = roundtrip([{"a": (torch.ones(2), 3)}, [torch.zeros(1), "s", None, 1.5, True]])
print(nested)
from collections import OrderedDict
od = roundtrip(OrderedDict([("w", torch.ones(1)), ("b", torch.zeros(1))]))
print(type(od).__name__, list(od))
p = roundtrip(torch.nn.Parameter(torch.ones(2)))
print(type(p).__name__, p.requires_grad)
g = roundtrip(torch.ones(2, requires_grad=True))
print(g.requires_grad)
print(roundtrip(torch.Size([2, 3])), roundtrip(torch.float32), roundtrip(torch.device("cpu")))
import argparse
buf = io.BytesIO()
torch.save({"args": argparse.Namespace(lr=0.1, epochs=3), "w": torch.ones(2)}, buf)
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__)
buf.seek(0)
print(torch.load(buf, weights_only=False))
''')

io("data_loader_options", r'''
from torch.utils.data import DataLoader, TensorDataset, Dataset
import numpy as np
ds = TensorDataset(torch.arange(10.0).unsqueeze(1), torch.arange(10))
def init_fn(worker_id):
    np.random.seed(worker_id)
loader = DataLoader(ds, batch_size=4, shuffle=False, num_workers=0, pin_memory=True, worker_init_fn=init_fn,
                    drop_last=False, collate_fn=None, timeout=0, prefetch_factor=None, persistent_workers=False)
print([b[1].tolist() for b in loader], len(loader.dataset), loader.num_workers)
print(type(loader.sampler).__name__, type(loader.batch_sampler).__name__)
shuffled = DataLoader(ds, batch_size=4, shuffle=True)
print(type(shuffled.sampler).__name__, sorted(torch.cat([b[1] for b in shuffled]).tolist()))
it = iter(loader)
print(next(it)[1], next(it)[1], len(it) if hasattr(it, "__len__") else 3)
class Pairs(Dataset):
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return torch.full((2,), float(i)), torch.tensor(i % 2, dtype=torch.float32)
xb, yb = next(iter(DataLoader(Pairs(), batch_size=5)))
print(xb, yb, yb.dtype)
print(DataLoader(Pairs(), batch_size=2, collate_fn=lambda b: len(b)).__iter__().__next__())
for (xb, yb) in DataLoader(ds, batch_size=3, num_workers=2, worker_init_fn=init_fn):
    print(yb.tolist(), end=" ")
print()
try:
    DataLoader(ds, batch_size=2, shuffle=True, sampler=range(10))
except ValueError as e:
    print("ValueError", e)
try:
    len(DataLoader(torch.utils.data.IterableDataset()))
except Exception as e:
    print(type(e).__name__)
''')

io("data_worker_errors_and_persistence", r'''
from torch.utils.data import DataLoader, Dataset, TensorDataset
class Flaky(Dataset):
    def __len__(self):
        return 6
    def __getitem__(self, i):
        if i == 4:
            raise ValueError(f"bad sample {i}")
        return torch.tensor([float(i)])
for workers in (0, 2):
    got = []
    try:
        for b in DataLoader(Flaky(), batch_size=2, num_workers=workers):
            got.append(b.flatten().tolist())
    except ValueError as e:
        print(workers, "ValueError", got, "bad sample 4" in str(e))
ds = TensorDataset(torch.arange(8.0))
loader = DataLoader(ds, batch_size=3, num_workers=2, persistent_workers=True)
for epoch in range(2):
    print(epoch, [b[0].tolist() for b in loader])
class Dicts(Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        import numpy as np
        return {"img": np.full((2, 2), i, dtype=np.float32), "label": i, "tags": [i, i + 1]}
for b in DataLoader(Dicts(), batch_size=2, num_workers=2):
    print(b["img"].shape, b["img"].dtype, b["label"], b["tags"])
''')

io("serialization_map_location_and_legacy", r'''
import io, os, tempfile
import torch.nn as nn
model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    model.bias.fill_(0.5)
buf = io.BytesIO()
torch.save({"state_dict": model.state_dict(), "best_acc1": torch.tensor(71.5), "arch": "linear"}, buf)
for loc in [lambda storage, loc: storage, {"cuda:0": "cpu"}, "cpu", torch.device("cpu"), None]:
    buf.seek(0)
    ck = torch.load(buf, map_location=loc)
    print(ck["state_dict"]["weight"].device, ck["best_acc1"], ck["arch"])
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "list.pt")
    torch.save([torch.ones(2), torch.zeros(1, dtype=torch.int64)], path)
    print(torch.load(path, mmap=True))
    from pathlib import Path
    torch.save({"k": torch.arange(3)}, Path(d) / "p.pt")
    print(torch.load(Path(d) / "p.pt")["k"], os.path.getsize(path) > 0)
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])
''')

io("serialization_corrupt_input", r'''
import io
for raw in [b"not a checkpoint", b""]:
    for kw in [{}, {"weights_only": False}]:
        try:
            torch.load(io.BytesIO(raw), **kw)
        except Exception as e:
            print(len(raw), kw, type(e).__name__)
''')

io("serialization_legacy_format_save", r'''
import io
buf = io.BytesIO()
torch.save({"w": torch.arange(4.0).reshape(2, 2), "n": 3}, buf, _use_new_zipfile_serialization=False)
buf.seek(0)
print(torch.load(buf))
''')

io("data_collate_details", r'''
import collections
import numpy as np
from torch.utils.data import default_collate, default_convert, TensorDataset, Subset, DataLoader
Point = collections.namedtuple("Point", ["x", "y"])
print(default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([np.float32(1.5), np.float32(2.5)]), default_collate([np.float64(1.5), np.float64(2)]).dtype)
print(default_collate([np.int64(1), np.int32(2)]), default_collate([np.array(1.0), np.array(2.0)]))
print(default_collate([True, False]), default_collate([b"a", b"b"]), default_collate(["x", "y"]))
print(default_collate([torch.tensor(1, dtype=torch.int16), torch.tensor(2, dtype=torch.int16)]))
print(default_collate([{"a": [1, 2], "b": (torch.ones(1), "s")}, {"a": [3, 4], "b": (torch.zeros(1), "t")}]))
print(default_convert(np.arange(3)), default_convert([np.float64(1.0), "s"]), default_convert({"k": np.ones(2)}))
try:
    default_collate([None, None])
except TypeError as e:
    print("TypeError", str(e)[:60])
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    default_collate([np.array(["a"]), np.array(["b"])])
except TypeError as e:
    print("TypeError", str(e)[:70])
ds = TensorDataset(torch.arange(6))
print(ds[2], type(ds[2]).__name__, len(ds + ds), (ds + ds)[7])
sub = Subset(Subset(ds, [5, 4, 3, 2]), [0, 2])
print(len(sub), sub[1], sub[[0, 1]] if hasattr(sub, "__getitems__") else None)
print([b for b in DataLoader(ds, batch_size=4, drop_last=False)])
print([b for b in DataLoader(list(range(5)), batch_size=2)], [b for b in DataLoader(np.arange(4.0), batch_size=3)])
print([b for b in DataLoader([{"a": 1}, {"a": 2}], batch_size=None)])
''')

io("serialization_safe_globals", r'''
import io, argparse
import numpy as np
for obj in [{"arr": np.ones(2)}, {"ns": argparse.Namespace(a=1)}, {"f": np.float64(1.5)}, {"s": {1, 2}},
            {"c": complex(1, 2)}, {"b": b"x", "t": (1, None)}]:
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    try:
        print(torch.load(buf))
    except Exception as e:
        print(type(e).__name__)
buf = io.BytesIO()
torch.save({"args": argparse.Namespace(lr=0.1), "w": torch.ones(1)}, buf)
with torch.serialization.safe_globals([argparse.Namespace]):
    buf.seek(0)
    print(torch.load(buf))
torch.serialization.add_safe_globals([argparse.Namespace])
buf.seek(0)
print(torch.load(buf)["args"].lr, argparse.Namespace in torch.serialization.get_safe_globals())
torch.serialization.clear_safe_globals()
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__)
''')
