"""QA programs on serialization as users write it (continued from programs_qa_data.py):
torch.save/torch.load of containers, shared storages, map_location forms, weights_only,
mmap, optimizer/scheduler checkpoints, module state_dicts and their hooks, and files
written by the other library.  XFAIL: the known gaps (strict)."""
from programs_registry import program

# program -> why it still differs under mindtorch
XFAIL = {}

program("qi_nested_containers", r'''
import collections
import io
import torch
obj = {"a": [torch.arange(3), (torch.ones(2, dtype=torch.float64), "s", 3, 2.5, None, True)],
       "od": collections.OrderedDict(x=torch.tensor(1.5), y={"z": torch.zeros(0, 2)}), 7: {1, 2},
       "cplx": torch.tensor([1 + 2j]), "half": torch.tensor([0.5], dtype=torch.float16), "bf": torch.tensor([2.0], dtype=torch.bfloat16),
       "b": torch.tensor([True, False]), "i8": torch.tensor([-3], dtype=torch.int8), "scalar": torch.tensor(4), "bytes": b"xy"}
buf = io.BytesIO()
torch.save(obj, buf)
buf.seek(0)
back = torch.load(buf)
print(back)
print(type(back["od"]).__name__, type(back["a"][1]).__name__, back["a"][0].dtype, back["od"]["y"]["z"].shape, back["scalar"].dim())
print(sorted(k for k in back if isinstance(k, str)), back[7])
buf.seek(0)
print(torch.load(buf, weights_only=True)["a"][0])
buf.seek(0)
print(type(torch.load(buf, weights_only=False)["od"]).__name__)
t = torch.arange(6.0).reshape(2, 3).t()
b2 = io.BytesIO()
torch.save(t, b2)
b2.seek(0)
u = torch.load(b2)
print(u, u.stride(), u.is_contiguous(), u.requires_grad)
r = torch.ones(2, requires_grad=True)
b3 = io.BytesIO()
torch.save([r, r * 2], b3)
b3.seek(0)
rr = torch.load(b3)
print(rr[0].requires_grad, rr[1].requires_grad, rr[1].grad_fn, rr[0].is_leaf)
''')

program("qi_shared_storage", r'''
import io
import torch
base = torch.arange(10.0)
v1, v2 = base[2:5], base.view(2, 5)[:, 1]
buf = io.BytesIO()
torch.save({"base": base, "v1": v1, "v2": v2}, buf)
buf.seek(0)
d = torch.load(buf)
print(d["v1"], d["v2"], d["v2"].stride(), d["v1"].storage_offset(), d["v2"].storage_offset())
d["base"][3] = 100
d["base"][6] = -1
print(d["v1"], d["v2"], d["v1"].untyped_storage().data_ptr() == d["base"].untyped_storage().data_ptr())
buf = io.BytesIO()
torch.save(v1, buf)
print(len(buf.getvalue()) > 40)
buf.seek(0)
lone = torch.load(buf)
print(lone, lone.storage_offset(), lone.untyped_storage().nbytes())
x = torch.zeros(3)
buf = io.BytesIO()
torch.save([x, x], buf)
buf.seek(0)
a, b = torch.load(buf)
a += 1
print(b, a is b)
''')

program("qi_map_location_forms", r'''
import io
import torch
buf = io.BytesIO()
torch.save({"w": torch.ones(2), "n": torch.tensor([1, 2])}, buf)
for ml in ("cpu", torch.device("cpu"), {"cpu": "cpu"}, lambda storage, loc: storage, None):
    buf.seek(0)
    d = torch.load(buf, map_location=ml)
    print(type(ml).__name__, d["w"].device, d["n"].dtype, d["w"])
buf.seek(0)
seen = []
def loc_fn(storage, location):
    seen.append(location)
    return storage
torch.load(buf, map_location=loc_fn)
print(sorted(set(seen)))
buf.seek(0)
print(torch.load(buf, map_location="meta")["w"])
''')

program("qi_weights_only_errors", r'''
import io
import pickle
import torch
from fractions import Fraction as Thing
buf = io.BytesIO()
torch.save({"thing": Thing(1, 3), "t": torch.ones(1)}, buf)
for kw in ({}, {"weights_only": True}):
    buf.seek(0)
    try:
        torch.load(buf, **kw)
        print("loaded")
    except pickle.UnpicklingError as e:
        print("UnpicklingError", "Weights only load failed" in str(e), "Thing" in str(e))
buf.seek(0)
print(type(torch.load(buf, weights_only=False)["thing"]).__name__)
buf.seek(0)
with torch.serialization.safe_globals([Thing]):
    print(type(torch.load(buf)["thing"]).__name__)
torch.serialization.add_safe_globals([Thing])
buf.seek(0)
print(type(torch.load(buf)["thing"]).__name__, Thing in torch.serialization.get_safe_globals())
torch.serialization.clear_safe_globals()
buf.seek(0)
try:
    torch.load(buf)
except pickle.UnpicklingError:
    print("UnpicklingError again")
ok = io.BytesIO()
torch.save({"d": torch.float16, "sz": torch.Size([2, 3]), "dev": torch.device("cpu"), "od": __import__("collections").OrderedDict(a=1)}, ok)
ok.seek(0)
print(torch.load(ok, weights_only=True))
''')

program("qi_paths_mmap", r'''
import os
import pathlib
import tempfile
import torch
with tempfile.TemporaryDirectory() as d:
    p = pathlib.Path(d) / "t.pt"
    torch.save({"x": torch.arange(5.0), "y": torch.eye(2)}, p)
    print(p.exists(), torch.load(p)["x"])
    s = os.path.join(d, "s.pt")
    torch.save(torch.arange(4, dtype=torch.int32), s)
    print(torch.load(s), torch.load(str(s), mmap=True))
    m = torch.load(p, mmap=True)
    print(m["y"], m["x"].dtype, m["x"].is_contiguous())
    m["x"] += 1
    print(m["x"], torch.load(p)["x"])
    with open(s, "rb") as f:
        print(torch.load(f))
    with open(s, "wb") as f:
        torch.save([torch.ones(1)], f)
    print(torch.load(s))
    try:
        torch.load(os.path.join(d, "missing.pt"))
    except FileNotFoundError as e:
        print("FileNotFoundError")
''')

program("qi_optimizer_scheduler_ckpt", r'''
import io
import torch
from torch import nn
def build():
    m = nn.Linear(3, 2)
    with torch.no_grad():
        m.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10)
        m.bias.fill_(0.1)
    opt = torch.optim.Adam(m.parameters(), lr=0.1, betas=(0.8, 0.9))
    sch = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return m, opt, sch
x = torch.linspace(-1, 1, 12).reshape(4, 3)
def step(m, opt, sch):
    opt.zero_grad()
    loss = m(x).pow(2).mean()
    loss.backward()
    opt.step()
    sch.step()
    return loss.item()
m, opt, sch = build()
for _ in range(3):
    step(m, opt, sch)
buf = io.BytesIO()
torch.save({"model": m.state_dict(), "opt": opt.state_dict(), "sch": sch.state_dict(), "epoch": 3}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck["opt"]["param_groups"], sorted(ck["opt"]["state"]), sorted(ck["opt"]["state"][0]), ck["opt"]["state"][0]["step"])
print(ck["sch"])
m2, opt2, sch2 = build()
m2.load_state_dict(ck["model"])
opt2.load_state_dict(ck["opt"])
sch2.load_state_dict(ck["sch"])
print(sch2.get_last_lr(), opt2.param_groups[0]["lr"], sch2.last_epoch)
a = [round(step(m, opt, sch), 6) for _ in range(3)]
b = [round(step(m2, opt2, sch2), 6) for _ in range(3)]
print(a == b, a, torch.equal(m.weight, m2.weight), opt2.state[m2.weight]["exp_avg"].shape)
sgd = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
try:
    sgd.load_state_dict({"state": {}, "param_groups": [{"params": [0], "lr": 0.1}]})
except ValueError as e:
    print("ValueError", e)
''')

program("qi_module_state_dict_buffers", r'''
import io
import torch
from torch import nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)
        self.register_buffer("keep", torch.tensor([1.0, 2.0]))
        self.register_buffer("tmp", torch.zeros(2), persistent=False)
        self.register_buffer("none_buf", None)
        self.register_parameter("none_param", None)
n = Net()
sd = n.state_dict()
print(list(sd), type(sd).__name__, sd["bn.num_batches_tracked"], sd._metadata[""] if hasattr(sd, "_metadata") else None)
print([k for k, _ in n.named_buffers()], [k for k, _ in n.named_parameters()])
sd2 = dict(sd)
sd2["extra"] = torch.ones(1)
del sd2["keep"]
r = n.load_state_dict(sd2, strict=False)
print(type(r).__name__, r.missing_keys, r.unexpected_keys, r)
try:
    n.load_state_dict(sd2)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0], "Missing key(s)" in str(e), "Unexpected key(s)" in str(e))
bad = dict(sd)
bad["fc.weight"] = torch.ones(3, 3)
try:
    n.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", "size mismatch for fc.weight" in str(e))
print(n.load_state_dict(sd), n.load_state_dict(sd, strict=True).missing_keys)
sd3 = n.state_dict(prefix="model.", keep_vars=True)
print(list(sd3)[:3], sd3["model.fc.weight"].requires_grad, n.state_dict()["fc.weight"].requires_grad)
buf = io.BytesIO()
torch.save(n.state_dict(), buf)
buf.seek(0)
n2 = Net()
print(n2.load_state_dict(torch.load(buf)))
print(torch.equal(n2.fc.weight, n.fc.weight), n2.tmp)
n.fc.weight.data.fill_(3)
print(n.state_dict()["fc.weight"][0], sd["fc.weight"][0])
''')

program("qi_state_dict_hooks", r'''
import torch
from torch import nn
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
calls = []
def post(module, incompatible):
    calls.append((type(module).__name__, list(incompatible.missing_keys), list(incompatible.unexpected_keys)))
h = m.register_load_state_dict_post_hook(post)
sd = m.state_dict()
print(m.load_state_dict(sd), calls)
sd = dict(sd)
sd.pop("2.bias")
sd["junk"] = torch.zeros(1)
print(m.load_state_dict(sd, strict=False), calls[-1])
def clear(module, incompatible):
    incompatible.missing_keys.clear()
    incompatible.unexpected_keys.clear()
h2 = m.register_load_state_dict_post_hook(clear)
print(m.load_state_dict(sd))
h.remove()
h2.remove()
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
pre = []
def pre_hook(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    pre.append(prefix)
m[0].register_load_state_dict_pre_hook(pre_hook)
m.load_state_dict(m.state_dict())
print(pre)
def sd_post(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "extra"] = torch.tensor(7)
m[2].register_state_dict_post_hook(sd_post)
print(list(m.state_dict()))
sub = nn.Linear(2, 2)
def sd_pre(module, prefix, keep_vars):
    pre.append(("pre", prefix, keep_vars))
sub.register_state_dict_pre_hook(sd_pre)
nn.Sequential(sub).state_dict()
print(pre[-1])
''')

program("qi_cross_library_files", r'''
import importlib
import io
import sys
import tempfile
import os
import numpy as np
import torch
other = importlib.import_module("mindtorch" if torch.__name__ == "torch" else "torch")
def roundtrip(saver, loader, obj):
    buf = io.BytesIO()
    saver.save(obj, buf)
    buf.seek(0)
    return loader.load(buf)
def make(lib):
    base = lib.arange(12, dtype=lib.float32).reshape(3, 4)
    return {"base": base, "view": base[1:, ::2], "i": lib.tensor([1, -2], dtype=lib.int16), "h": lib.tensor([0.1], dtype=lib.float16),
            "bf": lib.tensor([1.5], dtype=lib.bfloat16), "b": lib.tensor(True), "c": lib.tensor([1 - 1j], dtype=lib.complex64),
            "e": lib.zeros(0, 3, dtype=lib.float64), "l": [lib.ones(1), (2, "x")]}
def show(d):
    return {k: (v.dtype.__str__().split(".")[-1], tuple(v.shape), tuple(v.stride()), np.asarray(v.float() if v.dtype.__str__().endswith("bfloat16") else v).tolist()) if hasattr(v, "dtype") else repr(v)[:30] for k, v in d.items()}
for i, (saver, loader) in enumerate(((torch, other), (other, torch))):
    d = roundtrip(saver, loader, make(saver))
    print(i, show(d))
    d["base"][2, 0] = -5
    print(d["view"][1].tolist())
m = torch.nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(6.0).reshape(2, 3))
sd = roundtrip(torch, other, m.state_dict())
om = other.nn.Linear(3, 2)
print(om.load_state_dict(sd), om.weight.tolist(), type(sd).__name__)
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "x.pt")
    other.save({"t": other.arange(3)}, p)
    print(torch.load(p)["t"], torch.load(p, mmap=True)["t"])
''')

program("qi_whole_module_and_params", r'''
import io
import torch
from torch import nn
m = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
buf = io.BytesIO()
torch.save(m, buf)
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__)
buf.seek(0)
m2 = torch.load(buf, weights_only=False)
print(m2, type(m2[0]).__name__, m2(torch.ones(1, 2)).detach(), m2.training, m2[0].weight.requires_grad, type(m2[0].weight).__name__)
p = nn.Parameter(torch.arange(3.0))
q = nn.Parameter(torch.ones(2), requires_grad=False)
b = io.BytesIO()
torch.save({"p": p, "q": q, "plist": nn.ParameterList([nn.Parameter(torch.zeros(1))]).state_dict()}, b)
b.seek(0)
d = torch.load(b)
print(type(d["p"]).__name__, d["p"].requires_grad, d["q"].requires_grad, d["p"], d["plist"])
b.seek(0)
print(type(torch.load(b, weights_only=False)["p"]).__name__)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1)), "b": nn.Parameter(torch.zeros(2))})
ml = nn.ModuleList([nn.Linear(1, 1, bias=False), nn.BatchNorm1d(1, affine=False)])
print(list(pd.state_dict()), list(ml.state_dict()), list(nn.ModuleDict({"x": nn.Linear(1, 2)}).state_dict()))
tgt = nn.Linear(2, 2)
src = {"weight": torch.ones(2, 2, dtype=torch.float64), "bias": torch.zeros(2, dtype=torch.float64)}
print(tgt.load_state_dict(src), tgt.weight.dtype)
print(tgt.load_state_dict(src, assign=True), tgt.weight.dtype, type(tgt.weight).__name__, tgt.weight.requires_grad)
class Extra(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
        self.count = 0
    def get_extra_state(self):
        return {"count": self.count}
    def set_extra_state(self, state):
        self.count = state["count"] + 100
e = Extra()
e.count = 5
sd = e.state_dict()
print(list(sd), sd["_extra_state"])
e2 = Extra()
print(e2.load_state_dict(sd), e2.count)
sd.pop("_extra_state")
print(Extra().load_state_dict(sd, strict=False))
''')

program("qi_scheduler_and_optim_states", r'''
import io
import torch
from torch import nn
def params():
    return [nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1))]
p = params()
opt = torch.optim.SGD([{"params": p[:1], "lr": 0.1}, {"params": p[1:], "lr": 0.01, "momentum": 0.5}], lr=1.0, momentum=0.9, nesterov=True)
for _ in range(2):
    opt.zero_grad()
    (p[0].sum() * 2 + p[1].sum()).backward()
    opt.step()
sd = opt.state_dict()
print(sd["param_groups"], {k: {n: (v.tolist() if hasattr(v, "tolist") else v) for n, v in s.items()} for k, s in sd["state"].items()})
p2 = params()
opt2 = torch.optim.SGD([{"params": p2[:1]}, {"params": p2[1:]}], lr=1.0)
opt2.load_state_dict(sd)
print([g["lr"] for g in opt2.param_groups], [g["momentum"] for g in opt2.param_groups], opt2.param_groups[0]["nesterov"])
print(opt2.state[p2[0]]["momentum_buffer"], opt2.state[p2[0]]["momentum_buffer"] is sd["state"][0]["momentum_buffer"])
o = torch.optim.AdamW(params(), lr=1e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=10)
for _ in range(3):
    o.step()
    sched.step()
s = sched.state_dict()
print(sorted(s), round(s["_last_lr"][0], 8), s["total_steps"], s["last_epoch"])
o3 = torch.optim.SGD(params(), lr=0.5)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(o3, patience=0, factor=0.5)
for v in (1.0, 2.0, 3.0):
    plateau.step(v)
ps = plateau.state_dict()
print(sorted(ps), ps["best"], ps["num_bad_epochs"], o3.param_groups[0]["lr"], ps["_last_lr"])
o4 = torch.optim.SGD(params(), lr=1.0)
seq = torch.optim.lr_scheduler.SequentialLR(o4, [torch.optim.lr_scheduler.ConstantLR(o4, factor=0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(o4, gamma=0.9)], milestones=[2])
lrs = []
for _ in range(4):
    o4.step()
    seq.step()
    lrs.append(round(seq.get_last_lr()[0], 6))
ss = seq.state_dict()
print(lrs, sorted(ss), [sorted(x) for x in ss["_schedulers"]])
buf = io.BytesIO()
torch.save({"opt": sd, "sched": s, "plateau": ps, "seq": ss}, buf)
buf.seek(0)
back = torch.load(buf)
print(back["plateau"]["best"], back["seq"]["_milestones"], back["opt"]["param_groups"][1]["momentum"])
''')

program("qi_archive_layout", r'''
import io
import os
import pickle
import tempfile
import zipfile
import torch
buf = io.BytesIO()
torch.save({"a": torch.arange(3), "b": torch.ones(2, dtype=torch.float64)}, buf)
z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
print(sorted(n for n in z.namelist() if "serialization_id" not in n))
print(z.read("archive/byteorder"), z.read("archive/version").strip(), z.read("archive/data/0"), len(z.read("archive/data/1")))
print(buf.getvalue()[:2], [i.compress_type for i in z.infolist()][:3])
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "my.ckpt")
    torch.save(torch.zeros(1), p)
    print(sorted(n for n in zipfile.ZipFile(p).namelist() if "serialization_id" not in n)[:2])
class TextFile(io.StringIO):
    pass
try:
    torch.save(torch.ones(1), TextFile())
except Exception as e:
    print(type(e).__name__)
for kw in ({"pickle_protocol": 2}, {"pickle_protocol": 4}):
    b = io.BytesIO()
    torch.save([torch.ones(1)], b, **kw)
    b.seek(0)
    print(torch.load(b))
try:
    torch.load(io.BytesIO(b""))
except Exception as e:
    print(type(e).__name__)
raw = io.BytesIO()
pickle.dump({"x": 1}, raw)
raw.seek(0)
try:
    print(torch.load(raw, weights_only=False))
except Exception as e:
    print(type(e).__name__)
''')

program("qi_load_state_dict_edges", r'''
import collections
import torch
from torch import nn
bn = nn.BatchNorm1d(3)
sd = bn.state_dict()
old = collections.OrderedDict((k, v) for k, v in sd.items() if k != "num_batches_tracked")
print(nn.BatchNorm1d(3).load_state_dict(old))
old._metadata = collections.OrderedDict({"": {"version": 2}})
try:
    nn.BatchNorm1d(3).load_state_dict(old)
except RuntimeError as e:
    print("RuntimeError", str(e).replace("\n", " | "))
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight
t = Tied()
print(list(t.state_dict()), len(list(t.parameters())), [n for n, _ in t.named_parameters()], [n for n, _ in t.named_parameters(remove_duplicate=False)])
sd = t.state_dict()
sd["a.weight"] = torch.ones(2, 2)
sd["b.weight"] = torch.zeros(2, 2)
t.load_state_dict(sd)
print(t.a.weight, t.a.weight is t.b.weight)
lin = nn.Linear(2, 2)
for bad in ({"weight": 3, "bias": torch.zeros(2)}, {"weight": torch.ones(2, 2, dtype=torch.int64), "bias": torch.zeros(2)}, {"weight": torch.ones(4), "bias": torch.zeros(2)}):
    try:
        print(lin.load_state_dict(bad), lin.weight.dtype, lin.weight[0])
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, str(e).replace("\n", " | ")[:200])
try:
    lin.load_state_dict([("weight", torch.ones(2, 2))])
except TypeError as e:
    print("TypeError", e)
p = nn.utils.parametrizations.weight_norm(nn.Linear(2, 3))
print(list(p.state_dict()))
class Sym(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
q = nn.Linear(3, 3)
nn.utils.parametrize.register_parametrization(q, "weight", Sym())
print(list(q.state_dict()), type(q).__name__, q.parametrizations.weight.original.shape)
r = nn.Linear(3, 3)
nn.utils.parametrize.register_parametrization(r, "weight", Sym())
print(r.load_state_dict(q.state_dict()), torch.equal(r.weight, q.weight))
m = nn.Sequential(nn.Linear(1, 1))
print(m.load_state_dict({"0.weight": torch.ones(1, 1)}, strict=False))
m.register_module("extra", nn.Linear(1, 2))
del m[0]
print(list(m.state_dict()), list(dict(m.named_children())))
''')

program("qi_optimizer_hooks_and_param_groups", r'''
import torch
from torch import nn
w = nn.Parameter(torch.tensor([1.0, -1.0]))
b = nn.Parameter(torch.tensor([0.5]))
opt = torch.optim.Adam([{"params": [w]}, {"params": [b], "lr": 0.01, "weight_decay": 0.1}], lr=0.1)
opt.add_param_group({"params": nn.Parameter(torch.zeros(1)), "betas": (0.5, 0.5)})
print([sorted(g) == sorted(opt.param_groups[0]) for g in opt.param_groups], [g["lr"] for g in opt.param_groups], opt.param_groups[2]["betas"])
try:
    opt.add_param_group({"params": [w]})
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD([w, w], lr=0.1)
except Exception as e:
    print(type(e).__name__)
seen = []
opt.register_step_pre_hook(lambda o, args, kwargs: seen.append("pre"))
opt.register_step_post_hook(lambda o, args, kwargs: seen.append("post"))
opt.register_state_dict_pre_hook(lambda o: seen.append("sd_pre"))
def sd_post(o, sd):
    sd["note"] = "x"
    return sd
opt.register_state_dict_post_hook(sd_post)
def load_pre(o, sd):
    seen.append("load_pre")
    sd = dict(sd)
    sd.pop("note", None)
    return sd
opt.register_load_state_dict_pre_hook(load_pre)
opt.register_load_state_dict_post_hook(lambda o: seen.append("load_post"))
(w.sum() + b.sum()).backward()
opt.step()
sd = opt.state_dict()
print(seen, sd["note"], sorted(sd["state"]), [g["params"] for g in sd["param_groups"]])
opt.load_state_dict(sd)
print(seen[-2:], opt.state[w]["step"], torch.round(w.detach(), decimals=6))
opt.zero_grad()
print(w.grad, b.grad)
opt2 = torch.optim.SGD([w], lr=0.1)
(w * 2).sum().backward()
opt2.zero_grad(set_to_none=False)
print(w.grad)
print(repr(torch.optim.SGD([w], lr=0.1, momentum=0.9)).splitlines()[:4])
''')

program("qi_numpy_and_safe_globals", r'''
import io
import pickle
import numpy as np
import torch
buf = io.BytesIO()
torch.save({"arr": np.arange(3, dtype=np.int16), "f": np.float64(2.5), "t": torch.ones(2)}, buf)
buf.seek(0)
try:
    torch.load(buf)
except pickle.UnpicklingError as e:
    msg = str(e)
    print("UnpicklingError", "numpy" in msg, "add_safe_globals" in msg, "weights_only" in msg)
buf.seek(0)
d = torch.load(buf, weights_only=False)
print(d["arr"], d["arr"].dtype, type(d["f"]).__name__, d["t"])
buf.seek(0)
with torch.serialization.safe_globals([np.core.multiarray._reconstruct, np.ndarray, np.dtype, np.dtypes.Int16DType, np.dtypes.Float64DType, np.core.multiarray.scalar]):
    try:
        print(torch.load(buf)["arr"])
    except pickle.UnpicklingError as e:
        print("UnpicklingError", str(e).split("WeightsUnpickler error: ")[-1][:70])
print(sorted(torch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(buf.getvalue()))))
b2 = io.BytesIO()
torch.save({"t": torch.ones(1), "n": None, "tup": (1, "a"), "big": 2 ** 70, "neg": -5, "fl": float("inf")}, b2)
print(sorted(torch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b2.getvalue()))))
b2.seek(0)
print(torch.load(b2))
''')

program("qi_serialization_settings", r'''
import io
import mmap
import os
import tempfile
import torch
s = torch.serialization
print(s.get_default_load_endianness(), s.get_default_mmap_options() == mmap.MAP_PRIVATE, s.get_crc32_options(), s.location_tag(torch.ones(1).untyped_storage()))
buf = io.BytesIO()
torch.save({"w": torch.arange(3.0)}, buf)
buf.seek(0)
print(torch.load(buf, map_location=lambda st, loc: s.default_restore_location(st, "cpu")))
try:
    s.default_restore_location(torch.ones(1).untyped_storage(), "nowhere")
except RuntimeError as e:
    print("RuntimeError", e)
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "m.pt")
    torch.save({"w": torch.zeros(3)}, p)
    with s.set_default_mmap_options(mmap.MAP_SHARED):
        torch.load(p, mmap=True)["w"].fill_(7)
    print(torch.load(p)["w"], s.get_default_mmap_options() == mmap.MAP_PRIVATE)
try:
    s.set_default_mmap_options(0)
except ValueError as e:
    print("ValueError", e)
''')
