"""QA programs: the idioms found inside libraries (Hugging Face masks, rotary embeddings,
sampling and beam bookkeeping; timm's DropPath and module surgery; Lightning-style
checkpoints), run under torch and mindtorch (see test_programs_qa_extra.py)."""
from programs_registry import program

program("qa_lib_sampling", r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
logits = torch.randn(2, 10)
def top_k(logits, k):
    v, _ = torch.topk(logits, k)
    return logits.masked_fill(logits < v[..., -1, None], float("-inf"))
def top_p(logits, p):
    sorted_logits, sorted_idx = torch.sort(logits, descending=False)
    cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    remove = cum <= (1 - p)
    remove[..., -1:] = 0
    to_remove = remove.scatter(1, sorted_idx, remove)
    return logits.masked_fill(to_remove, float("-inf"))
lk = top_k(logits, 3); print(lk)
lp = top_p(logits, 0.8); print(lp)
g = torch.Generator().manual_seed(42)
probs = F.softmax(lp, dim=-1)
print(torch.multinomial(probs, num_samples=1, generator=g).squeeze(1))
print(torch.multinomial(probs, 3, replacement=True, generator=g))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7, 0.0]), 3))
# desc sort variant
sl, si = torch.sort(logits, descending=True)
cp = torch.cumsum(F.softmax(sl, dim=-1), dim=-1)
rm = cp > 0.9
rm[..., 1:] = rm[..., :-1].clone(); rm[..., 0] = False
ir = rm.scatter(1, si, rm)
print(ir)
# repetition penalty
input_ids = torch.tensor([[1, 2, 2, 5], [0, 0, 3, 9]])
score = torch.gather(logits, 1, input_ids)
score = torch.where(score < 0, score * 1.3, score / 1.3)
print(logits.scatter(1, input_ids, score))
print(logits.scatter_(1, input_ids, score)[0])
# temperature, min_p, typical
print(F.softmax(logits / 0.7, -1).max(-1))
probs = logits.softmax(-1)
top = probs.amax(dim=-1, keepdim=True)
print(probs < 0.1 * top)
ent = -(probs * probs.log()).nansum(-1, keepdim=True)
print(ent)
# greedy
print(torch.argmax(logits, dim=-1), logits.argmax(-1, keepdim=True))
# eos handling
unfinished = torch.ones(2, dtype=torch.long)
nxt = torch.tensor([3, 7]); pad = 0
nxt = nxt * unfinished + pad * (1 - unfinished)
unfinished = unfinished & ~(nxt == 7)
print(nxt, unfinished, unfinished.max() == 0, unfinished.dtype)
print(torch.isin(torch.tensor([3, 7, 8]), torch.tensor([7, 8])))
ids = torch.cat([input_ids, nxt[:, None]], dim=-1); print(ids)
# no-repeat ngram bans
banned = [[2], []]
for i, b in enumerate(banned): logits[i, b] = -float("inf")
print(logits[0, :4])
print(torch.multinomial(torch.ones(2, 5), 2, generator=torch.Generator().manual_seed(1)))
print(torch.rand(3, generator=g), torch.randint(0, 10, (4,), generator=g))
print(torch.randperm(6, generator=torch.Generator().manual_seed(3)))
''')

program("qa_lib_beam", r'''
import torch
torch.manual_seed(0)
batch, beams, vocab = 2, 3, 7
scores = torch.randn(batch * beams, vocab).log_softmax(-1)
beam_scores = torch.zeros(batch, beams); beam_scores[:, 1:] = -1e9
beam_scores = beam_scores.view(-1)
nxt = scores + beam_scores[:, None].expand_as(scores)
nxt = nxt.view(batch, beams * vocab)
ns, nt = torch.topk(nxt, 2 * beams, dim=1, largest=True, sorted=True)
print(ns, nt)
idx = torch.div(nt, vocab, rounding_mode="floor")
tok = nt % vocab
print(idx, tok, nt // vocab, torch.floor_divide(nt, vocab), nt.fmod(vocab), torch.remainder(-nt, vocab))
print(torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.div(torch.tensor([-7., 7.]), 2, rounding_mode="floor"))
print(torch.div(torch.tensor([-7, 7]), 2))
beam_idx = (idx + torch.arange(batch)[:, None] * beams).view(-1)
print(beam_idx)
seqs = torch.arange(batch * beams * 2).view(batch * beams, 2)
print(torch.cat([seqs[beam_idx[:6]], tok.view(-1)[:6, None]], dim=-1))
lp = ns / (3 ** 1.0)
print(lp)
print(torch.topk(torch.tensor([1., 3., 3., 2.]), 2))
print(torch.topk(torch.tensor([[1, 5, 2], [4, 4, 0]]), 2, largest=False))
print(torch.kthvalue(torch.tensor([3., 1., 2.]), 2))
print(torch.sort(torch.tensor([2, 1, 2, 1]), stable=True))
print(torch.argsort(torch.tensor([3., 1., 2.]), descending=True))
print(torch.msort(torch.tensor([[3, 1], [1, 2]])))
v, i = nxt.max(dim=1); print(v, i)
print(nxt.view(batch, beams, vocab).max(-1).indices)
done = torch.zeros(batch, dtype=torch.bool); done[1] = True
print(done.all(), done.any(), done.tolist())
print(torch.stack([torch.tensor(1.), torch.tensor(2.)]))
print(torch.tensor([[1, 2], [3, 4]]).new_full((2,), 5), torch.full((2, 2), -1e9).dtype)
print(scores.view(batch, beams, -1)[:, 0].shape)
best = sorted([(1.5, 'a'), (0.2, 'b')], key=lambda x: x[0])
print(best, torch.tensor(ns.tolist()).dtype)
print(torch.gather(nt, 1, torch.tensor([[0], [1]])))
''')

program("qa_lib_droppath", r'''
import torch, torch.nn as nn
from itertools import repeat
import collections.abc
torch.manual_seed(0)
def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse
to_2tuple = _ntuple(2)
print(to_2tuple(3), to_2tuple((1, 2)), to_2tuple(torch.Size([4, 5])))
def drop_path(x, drop_prob=0., training=False, scale_by_keep=True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor
class DropPath(nn.Module):
    def __init__(self, drop_prob=0., scale_by_keep=True):
        super().__init__(); self.drop_prob = drop_prob; self.scale_by_keep = scale_by_keep
    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)
    def extra_repr(self):
        return f'drop_prob={round(self.drop_prob,3):0.3f}'
class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__(); self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))
    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma
x = torch.randn(8, 3, 4)
dp = DropPath(0.5)
print(dp, dp(x).equal(x))
dp.train(); y = dp(x); print(y[:, 0, 0])
print(dp.eval().training, dp.training)
ls = LayerScale(4); print(ls(x).abs().max(), ls.gamma.dtype, ls)
print(torch.empty(3).bernoulli_(0.3), torch.bernoulli(torch.full((5,), 0.5)))
print(torch.zeros(4, 1, 1).bernoulli_(torch.tensor(0.7)))
dpr = [v.item() for v in torch.linspace(0, 0.1, 5)]
print(dpr, torch.linspace(0, 0.1, 5).tolist())
print(torch.linspace(0, 1, steps=1), torch.linspace(-1, 1, 4, dtype=torch.float64), torch.linspace(0, 10, 5, dtype=torch.int64))
print(torch.logspace(0, 2, 3), torch.arange(0, 1, 0.25))
w = torch.empty(6, 4)
nn.init.trunc_normal_(w, std=.02); print(w.abs().max() <= 2, w[0])
nn.init.trunc_normal_(w, mean=0., std=1., a=-0.5, b=0.5); print(w.min() >= -0.5, w.max() <= 0.5, w[1])
# droppath with x.ndim=2
print(drop_path(torch.ones(4, 2), 0.25, True))
# stochastic depth on ints
print(torch.ones(3, 2, dtype=torch.float16).new_empty((3, 1)).bernoulli_(0.5).dtype)
# timm's DropBlock-ish
gamma = 0.1
mask = (torch.rand(1, 1, 5, 5) < gamma).float()
bm = 1 - torch.nn.functional.max_pool2d(mask, 3, 1, 1)
print(bm.sum(), bm.numel() / bm.sum().add(1e-7))
print(nn.Identity(3, foo=1)(x).equal(x), nn.Identity())
''')

program("qa_lib_surgery", r'''
import torch, torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.stem = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        s.blocks = nn.Sequential(*[nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Dropout(0.1)) for _ in range(2)])
        s.head = nn.Linear(8, 4)
        s.norm = nn.LayerNorm(8)
        s.cls_token = nn.Parameter(torch.zeros(1, 1, 8))
        s.pos_embed = nn.Parameter(torch.zeros(1, 5, 8))
m = Net()
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_children()])
print([type(x).__name__ for x in m.modules()][:6])
for name, mod in list(m.named_modules()):
    if isinstance(mod, nn.ReLU):
        parent_name, _, child = name.rpartition('.')
        parent = m.get_submodule(parent_name) if parent_name else m
        setattr(parent, child, nn.SiLU(inplace=True))
    if isinstance(mod, nn.Dropout):
        parent_name, _, child = name.rpartition('.')
        setattr(m.get_submodule(parent_name), child, nn.Identity())
print(m.stem, m.blocks[0])
m.head = nn.Identity(); print(m.head)
print(m.get_submodule("blocks.1.0"))
try: m.get_submodule("blocks.5")
except Exception as e: print(type(e).__name__, e)
try: m.get_submodule("nope.x")
except Exception as e: print(type(e).__name__, e)
if hasattr(m, "set_submodule"):
    m.set_submodule("blocks.0.1", nn.Tanh()); print(m.blocks[0])
print(m.get_parameter("blocks.0.0.weight").shape)
try: m.get_parameter("blocks.0.0.nope")
except Exception as e: print(type(e).__name__, e)
print(m.get_buffer("stem.1.running_mean").shape)
for p in m.stem.parameters(): p.requires_grad_(False)
print([n for n, p in m.named_parameters() if p.requires_grad])
m.stem.requires_grad_(True); print(all(p.requires_grad for p in m.stem.parameters()))
decay, no_decay = [], []
for n, p in m.named_parameters():
    if p.ndim <= 1 or n.endswith(".bias") or n in {"cls_token", "pos_embed"}:
        no_decay.append(n)
    else:
        decay.append(n)
print(decay); print(no_decay)
groups = [{"params": [p for n, p in m.named_parameters() if n in decay], "weight_decay": 0.05},
          {"params": [p for n, p in m.named_parameters() if n in no_decay], "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=1e-3)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups], sorted(opt.param_groups[0].keys()))
print(opt)
del m.blocks[1]; print(len(m.blocks))
m.blocks.append(nn.ReLU()); m.blocks.insert(0, nn.Tanh()); print(m.blocks)
print(m.blocks[-1], m.blocks[1:].__class__.__name__, len(m.blocks[1:]))
ml = nn.ModuleList([nn.ReLU()]); ml.extend([nn.Tanh()]); ml += [nn.GELU()]; print(ml)
md = nn.ModuleDict({"a": nn.ReLU()}); md["b"] = nn.Tanh(); md.update({"c": nn.SiLU()}); print(md, list(md.keys()), "a" in md, md.pop("a"))
pl = nn.ParameterList([nn.Parameter(torch.ones(2))]); print(pl)
pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2))}); print(pd)
print(m.stem[0].weight.requires_grad, m.training, m.eval().training, m.stem[1].training)
print(m.zero_grad(), m.cls_token.grad)
m.register_module("extra", nn.Linear(2, 2)); m.add_module("extra2", None); print(m.extra2, "extra" in dict(m.named_children()))
''')

program("qa_lib_checkpoints", r'''
import io, torch, torch.nn as nn, collections
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
m(torch.randn(5, 3))
sd = m.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd["1.num_batches_tracked"], sd["1.running_mean"])
buf = io.BytesIO(); torch.save(sd, buf); buf.seek(0)
sd2 = torch.load(buf, weights_only=True)
print(type(sd2).__name__, all(torch.equal(sd[k], sd2[k]) for k in sd))
buf.seek(0); sd3 = torch.load(buf, map_location="cpu", weights_only=True); print(sd3["0.weight"].device)
buf.seek(0); sd4 = torch.load(buf, map_location=torch.device("cpu")); print(sd4["2.bias"])
buf.seek(0); sd5 = torch.load(buf, map_location=lambda storage, loc: storage); print(sd5["2.bias"].dtype)
buf.seek(0); sd6 = torch.load(buf, map_location={"cpu": "cpu"}); print(len(sd6))
obj = {"epoch": 3, "model": sd, "lst": [torch.tensor(1), 2.5, "x"], "t": (torch.ones(2, dtype=torch.int8),), "none": None}
b2 = io.BytesIO(); torch.save(obj, b2); b2.seek(0)
o = torch.load(b2, weights_only=False); print(o["epoch"], o["lst"], o["t"], o["none"])
b3 = io.BytesIO(); torch.save({"c": __import__("fractions").Fraction(1, 3)}, b3); b3.seek(0)
try:
    torch.load(b3, weights_only=True)
except Exception as e:
    print(type(e).__name__)
b3.seek(0); print(type(torch.load(b3, weights_only=False)["c"]).__name__)
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
sd_partial = {k: v for k, v in sd.items() if not k.startswith("2.")}
sd_partial["extra.w"] = torch.zeros(1)
r = m2.load_state_dict(sd_partial, strict=False)
print(r); print(r.missing_keys, r.unexpected_keys); mk, uk = r; print(mk, uk)
try: m2.load_state_dict(sd_partial)
except RuntimeError as e: print(str(e))
bad = dict(sd); bad["0.weight"] = torch.zeros(5, 3)
try: m2.load_state_dict(bad)
except RuntimeError as e: print(str(e))
print(m2.load_state_dict(sd, strict=True))
# views shared in save
t = torch.arange(10.); v = t[2:5]
b4 = io.BytesIO(); torch.save([t, v], b4); b4.seek(0); a, bb = torch.load(b4)
a[3] = 100; print(bb, bb.storage_offset() if hasattr(bb, 'storage_offset') else None)
# optimizer round trip
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.randn(5, 3)).sum().backward(); opt.step()
osd = opt.state_dict()
print(list(osd.keys()), sorted(osd["state"].keys()), sorted(osd["state"][0].keys()), osd["param_groups"][0]["params"])
print({k: v for k, v in osd["param_groups"][0].items() if k != "params"})
print(osd["state"][0]["step"], osd["state"][0]["exp_avg"].shape)
b5 = io.BytesIO(); torch.save(osd, b5); b5.seek(0)
opt2 = torch.optim.Adam(m.parameters(), lr=0.5); opt2.load_state_dict(torch.load(b5, weights_only=True))
print(opt2.param_groups[0]["lr"], opt2.state[m[0].weight]["step"])
sched = torch.optim.lr_scheduler.StepLR(opt, 2); print(sched.state_dict())
sd_ordered = collections.OrderedDict(sd); print(type(sd_ordered).__name__, hasattr(sd, "_metadata"))
print(sd._metadata if hasattr(sd, "_metadata") else None)
# save to file path
import tempfile, os
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "x.pt"); torch.save({"a": torch.ones(2)}, p); print(torch.load(p))
print(torch.serialization.DEFAULT_PROTOCOL if hasattr(torch.serialization, 'DEFAULT_PROTOCOL') else None)
''')

program("qa_lib_size_new_meshgrid", r'''
import torch
t = torch.arange(6.).view(2, 3)
print(torch.is_tensor(t), torch.is_tensor([1]), torch.is_floating_point(t), torch.is_complex(t), torch.is_complex(t.to(torch.complex64)))
print(t.is_floating_point(), t.is_complex(), torch.numel(t), t.numel(), t.nelement(), t.dim(), t.ndimension(), t.element_size(), t.nbytes, t.itemsize)
print(torch.is_nonzero(torch.tensor([1])), torch.is_storage(t) if hasattr(torch, 'is_storage') else None)
try: torch.is_nonzero(torch.tensor([1, 2]))
except RuntimeError as e: print("RuntimeError", e)
s = t.shape
print(s, type(s).__name__, s + (4,), (1,) + s, s + torch.Size([5]), s.numel(), s[1:], type(s[1:]).__name__, s[-1], s == (2, 3), s == [2, 3], s != (2, 3))
print(torch.Size([2, 3]) == torch.Size((2, 3)), len(s), list(s), tuple(s), s.index(3), s.count(2), torch.Size([]), torch.Size([]).numel())
print(repr(torch.Size([1])), str(torch.Size([1, 2])), hash(torch.Size([1,2])) == hash((1,2)), isinstance(s, tuple))
print(s * 2, type(s * 2).__name__, type(s + (4,)).__name__, type((4,) + s).__name__)
print(torch.Size([torch.tensor(3), 2]) if True else None)
a, b = s; print(a, b)
print(t.new_zeros(2), t.new_ones((1, 2)), t.new_full((2,), 7), t.new_empty(3).shape, t.new_tensor([1, 2]), t.new_tensor([1, 2]).dtype, t.int().new_tensor([1.5]).dtype)
print(t.new_zeros(2, dtype=torch.int32).dtype, t.new_ones(2, 2, requires_grad=True).requires_grad, t.new_empty((0,)).shape, t.new_zeros(torch.Size([2])).shape)
print(torch.tensor([1, 2]).type_as(t), torch.tensor([1, 2]).to(t), t.to(torch.tensor([1])).dtype, t.type(torch.int64), t.type(), t.int().type(), t.double().type())
print(t.type("torch.IntTensor").dtype, t.type(torch.float16).dtype)
print(t.to("cpu", torch.float64).dtype, t.to(dtype=torch.int8).dtype, t.to(device="cpu") is t, t.to(torch.float32) is t, t.to(torch.float32, copy=True) is t)
print(t.cpu() is t, t.device, str(t.device), t.device.type, t.device.index, t.is_cuda, t.is_cpu if hasattr(t, 'is_cpu') else None, t.is_meta, t.is_sparse, t.is_quantized, t.layout)
x, y = torch.broadcast_tensors(torch.ones(3, 1), torch.zeros(4)); print(x.shape, y.shape, y.stride())
print(torch.broadcast_shapes((3, 1), (4,), (2, 1, 1)), torch.broadcast_shapes(5, (1,)))
try: torch.broadcast_shapes((3,), (4,))
except RuntimeError as e: print("RuntimeError", e)
print(torch.broadcast_to(torch.tensor([1, 2]), (2, 2)))
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij"); print(gx, gy)
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy"); print(gx.shape, gy)
print(torch.stack(torch.meshgrid([torch.arange(2), torch.arange(2)], indexing="ij"), -1).flatten(0, 1))
print(torch.cdist(torch.tensor([[0., 0.], [1., 1.]]), torch.tensor([[1., 0.], [2., 2.], [0., 3.]])))
print(torch.cdist(torch.tensor([[[0., 0.], [1., 1.]]]), torch.tensor([[[1., 0.]]]), p=1))
print(torch.cdist(torch.tensor([[0., 0.], [1., 3.]]), torch.tensor([[1., 0.]]), p=float("inf")))
a = torch.arange(24.).view(2, 3, 4)
print(torch.einsum("...ij,...jk->...ik", a, a.transpose(-1, -2)).shape, torch.einsum("b...d,d->b...", a, torch.ones(4)))
print(torch.einsum("ii", torch.eye(3)), torch.einsum("i,i", torch.ones(3), torch.ones(3)), torch.einsum("bij->bji", a).shape, torch.einsum("ij,jk", [torch.ones(2, 3), torch.ones(3, 2)]))
print(torch.einsum("...i,...i->...", torch.ones(2, 3), torch.ones(3)), torch.einsum("i j , j -> i", torch.ones(2, 3), torch.ones(3)))
print(torch.einsum(a, [0, 1, 2], [0, 2]))
print(torch.nn.functional.one_hot(torch.tensor([0, 3, 1])), torch.nn.functional.one_hot(torch.tensor([[1], [0]]), num_classes=4).shape)
try: torch.nn.functional.one_hot(torch.tensor([0, 5]), 3)
except RuntimeError as e: print("RuntimeError", e)
try: torch.nn.functional.one_hot(torch.tensor([0., 1.]))
except RuntimeError as e: print("RuntimeError", e)
print(torch.nn.functional.one_hot(torch.tensor([], dtype=torch.long), 3).shape)
''')

program("qa_lib_split_where_kron", r'''
import torch
c = torch.tensor([[0, 1, 0], [2, 0, 3]])
print(torch.where(c > 0), torch.where(c), torch.nonzero(c), torch.nonzero(c, as_tuple=True), c.nonzero(as_tuple=False).shape, torch.argwhere(c))
print(torch.where(torch.tensor(True)), torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(0), as_tuple=True), torch.count_nonzero(c, dim=0), torch.count_nonzero(c))
print(torch.where(c > 0, c, 0.5), torch.where(c > 0, 1.0, 0.0).dtype, torch.where(c > 0, c, torch.tensor(2.)).dtype)
x = torch.arange(10)
print(torch.chunk(x, 3), torch.chunk(x, 4), torch.chunk(torch.arange(5), 6), x.chunk(2, 0))
print(torch.split(x, 3), torch.split(x, [2, 8]), x.split([1, 2, 7], dim=0))
print(torch.tensor_split(x, 3), torch.tensor_split(x, [1, 5]), torch.tensor_split(x, torch.tensor([2, 7])), torch.tensor_split(x, torch.tensor(4)))
print(torch.hsplit(torch.arange(12).view(3, 4), 2), torch.vsplit(torch.arange(12).view(3, 4), [1]), torch.dsplit(torch.arange(8).view(1, 2, 4), 2)[0].shape)
try: torch.split(x, [2, 3])
except RuntimeError as e: print("RuntimeError", e)
print(torch.unbind(torch.arange(6).view(2, 3), 1), x.view(2, 5).unbind())
y = torch.arange(24).view(2, 3, 4)
print(torch.flatten(y).shape, torch.flatten(y, 1).shape, y.flatten(0, 1).shape, torch.flatten(torch.tensor(3)).shape, y.flatten(-2, -1).shape)
print(y.unflatten(2, (2, 2)).shape, torch.unflatten(y, 1, (-1, 1)).shape, y.flatten(1).unflatten(1, torch.Size([3, 4])).shape)
try: y.unflatten(2, (3, 2))
except RuntimeError as e: print("RuntimeError", e)
print(torch.atleast_1d(torch.tensor(1.)), torch.atleast_2d(torch.tensor([1, 2])).shape, torch.atleast_3d(torch.ones(2, 3)).shape, torch.atleast_3d(torch.tensor(1)).shape, torch.atleast_1d(torch.tensor(1), torch.tensor([2, 3])), torch.atleast_2d((torch.tensor(1),)))
print(torch.atleast_3d(torch.ones(4)).shape)
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[3]]), torch.tensor([4, 5])))
print(torch.block_diag(torch.ones(1, 2, dtype=torch.int32), torch.ones(1, 1)).dtype, torch.block_diag())
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])), torch.cartesian_prod(torch.tensor([1, 2])))
print(torch.combinations(torch.tensor([1, 2, 3])), torch.combinations(torch.tensor([1, 2, 3]), r=3), torch.combinations(torch.tensor([1, 2]), with_replacement=True), torch.combinations(torch.tensor([1.,2.]), r=0))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1), torch.tril_indices(4, 3, -1), torch.triu_indices(2, 2, offset=-1, dtype=torch.int32).dtype)
print(torch.diff(torch.tensor([1, 3, 6, 10])), torch.diff(torch.tensor([1, 3, 6, 10]), n=2), torch.diff(torch.arange(6).view(2, 3), dim=0), torch.diff(torch.tensor([1., 2.]), prepend=torch.tensor([0.]), append=torch.tensor([5.])))
print(torch.diff(torch.tensor([True, False, False])))
print(torch.roll(x, 2), torch.roll(x, -1), torch.roll(y, (1, 1), (0, 2))[0, 0], torch.roll(y.view(6, 4), 1, 0)[0], torch.roll(torch.arange(4).view(2, 2), 1))
print(torch.flip(y, [0, 2])[0, 0], torch.fliplr(torch.arange(4).view(2, 2)), torch.flipud(torch.arange(4).view(2, 2)), y.flip(-1).is_contiguous())
print(torch.rot90(torch.arange(4).view(2, 2)), torch.rot90(torch.arange(4).view(2, 2), 2), torch.rot90(torch.arange(4).view(2, 2), -1, [0, 1]), torch.rot90(torch.arange(6).view(2, 3), 3).shape)
print(torch.kron(torch.eye(2), torch.tensor([[1, 2], [3, 4]])), torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])), torch.kron(torch.ones(2, 1, 2), torch.ones(3, 3)).shape)
print(torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([1., 2.]), N=4, increasing=True), torch.linalg.vander(torch.tensor([1, 2, 3])))
''')

program("qa_lib_hf_attention", r'''
import math, torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
class Attn(nn.Module):
    def __init__(s, d=16, h=4, kvh=2):
        super().__init__()
        s.h, s.kvh, s.hd = h, kvh, d // h
        s.q_proj = nn.Linear(d, h * s.hd, bias=False)
        s.k_proj = nn.Linear(d, kvh * s.hd, bias=False)
        s.v_proj = nn.Linear(d, kvh * s.hd, bias=False)
        s.o_proj = nn.Linear(h * s.hd, d, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, s.hd, 2).float() / s.hd))
        s.register_buffer("inv_freq", inv, persistent=False)
    def forward(s, x, mask=None, past=None, use_sdpa=False):
        b, q_len, _ = x.size()
        q = s.q_proj(x).view(b, q_len, s.h, s.hd).transpose(1, 2)
        k = s.k_proj(x).view(b, q_len, s.kvh, s.hd).transpose(1, 2)
        v = s.v_proj(x).view(b, q_len, s.kvh, s.hd).transpose(1, 2)
        start = 0 if past is None else past[0].shape[-2]
        pos = torch.arange(start, start + q_len, device=x.device)
        fr = torch.outer(pos.float(), s.inv_freq); emb = torch.cat([fr, fr], -1)
        cos, sin = emb.cos()[None, None].to(x.dtype), emb.sin()[None, None].to(x.dtype)
        rh = lambda t: torch.cat((-t[..., s.hd // 2:], t[..., :s.hd // 2]), -1)
        q, k = q * cos + rh(q) * sin, k * cos + rh(k) * sin
        if past is not None:
            k = torch.cat([past[0], k], dim=2); v = torch.cat([past[1], v], dim=2)
        present = (k, v)
        k = k.repeat_interleave(s.h // s.kvh, dim=1); v = v.repeat_interleave(s.h // s.kvh, dim=1)
        if use_sdpa:
            o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None and q_len > 1)
        else:
            w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(s.hd)
            if mask is not None: w = w + mask
            w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
            o = torch.matmul(w, v)
        o = o.transpose(1, 2).contiguous().reshape(b, q_len, -1)
        return s.o_proj(o), present
a = Attn()
x = torch.randn(2, 5, 16)
L = 5
causal = torch.full((L, L), torch.finfo(x.dtype).min).triu(1)[None, None]
o1, pr = a(x, causal); o2, _ = a(x, None, use_sdpa=True)
print(o1[0, :2, :4], (o1 - o2).abs().max() < 1e-5, pr[0].shape)
bool_mask = torch.ones(L, L, dtype=torch.bool).tril()
o3, _ = a(x, bool_mask, use_sdpa=True); print((o3 - o1).abs().max() < 1e-5)
# incremental decoding equals full
o_a, past = a(x[:, :3], causal[..., :3, :3])
o_b, past = a(x[:, 3:4], None, past=past)
print((o_b[:, 0] - o1[:, 3]).abs().max() < 1e-5, past[0].shape)
loss = o1.pow(2).mean(); loss.backward()
print(a.q_proj.weight.grad.norm(), a.inv_freq.grad, [n for n, _ in a.named_buffers()], list(a.state_dict().keys()))
print(F.scaled_dot_product_attention(torch.ones(1, 2, 3), torch.ones(1, 4, 3), torch.arange(8.).view(1, 4, 2), scale=0.1))
xh = x.half(); print(a.half()(xh, causal.half())[0].dtype)
print(torch.finfo(torch.float16).min, causal.half().min())
q = torch.randn(1, 2, 3, 4); print(F.scaled_dot_product_attention(q, q, q, dropout_p=0.0, is_causal=True).sum())
print(F.scaled_dot_product_attention(q, q, q, enable_gqa=False).shape)
''')
