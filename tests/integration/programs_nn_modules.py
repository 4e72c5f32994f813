"""Programs (see test_programs_ml.py):
torch.nn modules as users write them: custom modules with buffers and
submodule lists, forward/backward hooks, init calls, weight tying, reprs and printing,
state_dicts, dtype/device moves, module surgery, parametrizations, meta-device and
kwargs hooks, subclassing the library's private base classes, common user errors."""
from programs_ml_common import ml

ml("nn_custom_module", r'''
import torch.nn as nn
import torch.nn.functional as F

class Block(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.norm = nn.LayerNorm(dim)
        self.register_buffer("scale", torch.ones(dim) * 0.5)
        self.register_buffer("step", torch.zeros((), dtype=torch.long), persistent=False)

    def forward(self, x):
        self.step += 1
        return self.norm(x + self.fc2(F.relu(self.fc1(x))) * self.scale)

class Net(nn.Module):
    def __init__(self, dim=6, hidden=10, depth=3, classes=4):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim, hidden) for _ in range(depth)])
        self.head = nn.Linear(dim, classes)
        self.temperature = nn.Parameter(torch.tensor(1.5))

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.head(x) / self.temperature

model = det(Net())
print(model)
print("params", sum(p.numel() for p in model.parameters()))
print("trainable", sum(p.numel() for p in model.parameters() if p.requires_grad))
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.dtype, p.requires_grad)
print([n for n, _ in model.named_buffers()])
print(list(model.state_dict().keys()))
print([type(m).__name__ for m in model.modules()])
print([n for n, _ in model.named_children()], len(list(model.children())))
x = data(5, 6)
out = model(x)
print(out.shape, out.dtype, out.requires_grad)
print(out.detach())
print(model.blocks[0].step, model.blocks[2].step.item())
print(model.training, model.blocks[1].training)
model.eval()
print(model.training, model.blocks[1].norm.training, model.head.training)
model.train(False)
model.train()
print(all(m.training for m in model.modules()))
for p in model.blocks.parameters():
    p.requires_grad_(False)
print("trainable", sum(p.numel() for p in model.parameters() if p.requires_grad))
model.requires_grad_()
print(isinstance(model.blocks, nn.ModuleList), len(model.blocks), isinstance(model.temperature, torch.Tensor))
print(type(model.temperature).__name__, model.temperature)
print(model.get_submodule("blocks.1.fc2"), model.get_parameter("head.bias").shape)
''')


ml("nn_hooks", r'''
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)))
log = []
def pre(mod, inp):
    log.append(("pre", type(mod).__name__, tuple(inp[0].shape)))
def fwd(mod, inp, out):
    log.append(("fwd", type(mod).__name__, tuple(out.shape)))
    return out * 2
def bwd(mod, grad_in, grad_out):
    log.append(("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_in],
                [tuple(g.shape) for g in grad_out]))
h1 = model[0].register_forward_pre_hook(pre)
h2 = model[2].register_forward_hook(fwd)
h3 = model[2].register_full_backward_hook(bwd)
x = data(5, 4).requires_grad_()
out = model(x)
out.sum().backward()
for entry in log:
    print(entry)
print(out.detach())
print(x.grad)
h1.remove(); h2.remove(); h3.remove()
log.clear()
print(model(x).detach(), log)
acts = {}
def save(name):
    def hook(m, i, o):
        acts[name] = o.detach()
    return hook
for name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        m.register_forward_hook(save(name))
model(x)
print({k: tuple(v.shape) for k, v in acts.items()})
print(acts["2"])
''')


ml("nn_init", r'''
import torch.nn as nn
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))
print(nn.init.calculate_gain("linear"), nn.init.calculate_gain("sigmoid"), nn.init.calculate_gain("selu"))
w = torch.empty(64, 32)
torch.manual_seed(0)
for fn, kw in [(nn.init.xavier_uniform_, {}), (nn.init.xavier_normal_, {"gain": 2.0}),
               (nn.init.kaiming_uniform_, {"a": math.sqrt(5)}),
               (nn.init.kaiming_normal_, {"mode": "fan_out", "nonlinearity": "relu"}),
               (nn.init.uniform_, {"a": -0.1, "b": 0.1}), (nn.init.normal_, {"std": 0.02}),
               (nn.init.trunc_normal_, {"std": 0.02, "a": -0.04, "b": 0.04})]:
    r = fn(w, **kw)
    print(fn.__name__, r is w, tuple(r.shape), r.abs().max().item() < 3.0, r.dtype)
bound = math.sqrt(6 / (64 + 32))
print(bool(nn.init.xavier_uniform_(w).abs().max() <= bound))
print(nn.init.constant_(torch.empty(2, 3), 0.5))
print(nn.init.zeros_(torch.empty(2)), nn.init.ones_(torch.empty(3)), nn.init.eye_(torch.empty(2, 3)))
d = nn.init.dirac_(torch.empty(2, 2, 3))
print(d)
q = nn.init.orthogonal_(torch.empty(4, 6))
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-5))
lin = nn.Linear(10, 5)
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
model = nn.Sequential(lin, nn.ReLU(), nn.Linear(5, 2))
r = model.apply(init_weights)
print(r is model, model[2].weight, model[0].bias)
print(model(torch.ones(1, 10)))
bound = 1 / math.sqrt(10)
print(bool(nn.Linear(10, 3).weight.abs().max() <= bound), nn.Linear(10, 3).weight.std().item() < bound)
try:
    nn.init.xavier_uniform_(torch.empty(3))
except Exception as e:
    print(type(e).__name__)
''')


ml("nn_weight_tying", r'''
import torch.nn as nn
class LM(nn.Module):
    def __init__(self, vocab=11, dim=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.emb.weight
    def forward(self, ids):
        return self.out(torch.tanh(self.proj(self.emb(ids))))
model = det(LM())
print(len(list(model.parameters())), sum(p.numel() for p in model.parameters()))
print([n for n, _ in model.named_parameters()])
print(list(model.state_dict()))
print(model.out.weight is model.emb.weight, model.out.weight.data_ptr() == model.emb.weight.data_ptr())
ids = torch.tensor([[1, 2, 0, 4], [5, 0, 7, 10]])
logits = model(ids)
print(logits.shape)
loss = nn.functional.cross_entropy(logits.reshape(-1, 11), ids.reshape(-1))
loss.backward()
print(f"{loss.item():.5f}")
print(model.emb.weight.grad[0], model.emb.weight.grad.abs().sum(1))
sd = model.state_dict()
m2 = LM()
m2.out.weight = m2.emb.weight
print(m2.load_state_dict(sd))
print(torch.equal(m2.out.weight, model.emb.weight), m2.out.weight is m2.emb.weight)
''')


ml("nn_module_reprs", r'''
import torch.nn as nn
from collections import OrderedDict
mods = [nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False), nn.Conv1d(4, 8, 5, dilation=2, groups=2),
        nn.ConvTranspose2d(8, 4, 2, stride=2), nn.BatchNorm1d(10, momentum=None), nn.BatchNorm2d(3, affine=False),
        nn.LayerNorm([4, 5], eps=1e-6), nn.GroupNorm(2, 8), nn.InstanceNorm2d(3), nn.RMSNorm(8),
        nn.Embedding(100, 16, padding_idx=0), nn.EmbeddingBag(10, 3, mode="sum"),
        nn.Dropout(0.1), nn.Dropout2d(), nn.LeakyReLU(0.2), nn.GELU(approximate="tanh"), nn.ELU(alpha=0.5),
        nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.ReLU6(), nn.PReLU(3), nn.Hardtanh(-2, 2), nn.Softplus(beta=2),
        nn.MaxPool2d(3, stride=2, padding=1), nn.AvgPool1d(2), nn.AdaptiveMaxPool1d(4), nn.AdaptiveAvgPool2d(1),
        nn.Upsample(scale_factor=2, mode="nearest"), nn.PixelShuffle(2), nn.Flatten(0, -1), nn.Unflatten(1, (2, 5)),
        nn.Identity(), nn.Bilinear(3, 4, 5), nn.LSTM(4, 8, batch_first=True), nn.GRU(2, 3, num_layers=2, dropout=0.1),
        nn.CrossEntropyLoss(), nn.SiLU(), nn.Mish(), nn.Tanh(), nn.Sigmoid(), nn.Threshold(0.1, 20),
        nn.ZeroPad2d(1), nn.ReflectionPad1d((1, 2)), nn.CosineSimilarity(), nn.PairwiseDistance()]
for m in mods:
    print(repr(m))
seq = nn.Sequential(OrderedDict([("conv", nn.Conv2d(1, 2, 3)), ("act", nn.ReLU()), ("pool", nn.MaxPool2d(2))]))
print(seq)
print(seq.conv, seq[-1])
md = nn.ModuleDict({"enc": nn.Linear(2, 3), "dec": nn.Linear(3, 2)})
print(md, list(md.keys()))
pl = nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.ones(3, 2))])
print(pl)
pd = nn.ParameterDict({"a": nn.Parameter(torch.zeros(2, 2))})
print(pd)
print(nn.MultiheadAttention(8, 2))
print(nn.TransformerEncoderLayer(8, 2, 16))
class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))
        self.register_buffer("running", torch.zeros(1))
    def extra_repr(self):
        return "custom=True"
print(Wrapper())
''')


ml("nn_state_dict", r'''
import torch.nn as nn
def make():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
src = det(make())
src.train()
src(data(6, 3))
sd = src.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd["1.num_batches_tracked"], sd["1.running_mean"])
print(all(not v.requires_grad for v in sd.values()))
dst = make()
res = dst.load_state_dict(sd)
print(res, res.missing_keys, res.unexpected_keys)
dst.eval(); src.eval()
x = data(4, 3, k=2.0)
print(torch.equal(dst(x), src(x)))
partial = {k: v for k, v in sd.items() if not k.startswith("3.")}
partial["extra.weight"] = torch.zeros(1)
res = dst.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    dst.load_state_dict(partial)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
bad = dict(sd)
bad["0.weight"] = torch.zeros(5, 3)
try:
    dst.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
sd["0.bias"].add_(1)
print(torch.equal(src[0].bias, sd["0.bias"]))
sd2 = src.state_dict(keep_vars=True)
print(type(sd2["0.weight"]).__name__, sd2["0.weight"].requires_grad)
print(list(src[1].state_dict().keys()))
print(list(src.state_dict(prefix="model.").keys())[:2])
''')


ml("nn_dtype_device", r'''
import torch.nn as nn
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type)
model = det(nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))).to(device)
print(next(model.parameters()).device, next(model.parameters()).is_cuda)
x = data(2, 3).to(device)
print(model(x).device)
m64 = model.double()
print(m64 is model, model[0].weight.dtype, model(x.double()).dtype)
model.float()
print(model[2].bias.dtype)
model.to(torch.float64)
print(model[0].weight.dtype)
model.to(device="cpu", dtype=torch.float32)
print(model[0].weight.dtype)
h = model.half()
print(h[0].weight.dtype)
b = nn.Linear(2, 2).bfloat16()
print(b.weight.dtype, b(torch.ones(1, 2, dtype=torch.bfloat16)).dtype)
print(model.cpu() is model)
t = torch.ones(2, device=device)
print(t.to("cpu").device, t.cpu().device, t.is_cuda, t.device == torch.device("cpu"))
print(torch.zeros(2).to(x), torch.zeros(2, dtype=torch.int64).to(x).dtype)
''')


ml("nn_module_surgery", r'''
import copy, pickle, io
import torch.nn as nn
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
        self.fc = nn.Linear(8, 10)
    def forward(self, x):
        return self.fc(self.features(x))
model = det(Backbone())
print(model.fc)
model.fc = nn.Linear(model.fc.in_features, 3)
det(model.fc)
print(model.fc, [n for n, _ in model.named_parameters()][-2:])
model.features[2] = nn.Identity()
print(model.features)
model.features.append(nn.Dropout(0.5))
model.features.insert(0, nn.Flatten())
del model.features[-1]
print(len(model.features), model.features)
model.add_module("extra", nn.Tanh())
model.register_parameter("alpha", nn.Parameter(torch.tensor(0.5)))
model.register_parameter("unused", None)
model.register_buffer("mask", None)
print([n for n, _ in model.named_parameters()], model.unused, list(model.state_dict())[-2:])
shared = nn.Linear(2, 2)
twin = nn.Sequential(shared, nn.ReLU(), shared)
print(len(list(twin.modules())), len(list(twin.parameters())), [n for n, _ in twin.named_modules()])
print(len(list(twin.named_modules(remove_duplicate=False))), len(list(twin.named_parameters(remove_duplicate=False))))
clone = copy.deepcopy(model)
x = data(3, 4)
print(torch.equal(clone(x), model(x)), clone.fc.weight is model.fc.weight, clone.fc.weight.requires_grad)
buf = io.BytesIO()
pickle.dump(model.fc, buf)
buf.seek(0)
back = pickle.load(buf)
print(type(back).__name__, torch.equal(back.weight, model.fc.weight))
del model.extra
print(hasattr(model, "extra"), [n for n, _ in model.named_children()])
try:
    model.fc = "not a module"
except TypeError as e:
    print("TypeError")
try:
    model.alpha = torch.ones(1)
except TypeError as e:
    print("TypeError", e)
model.alpha = nn.Parameter(torch.tensor(2.0))
model.alpha = None
print(model.alpha, "alpha" in dict(model.named_parameters()))
try:
    model.register_buffer("fc", torch.ones(1))
except KeyError as e:
    print("KeyError", e)
try:
    getattr(model, "missing")
except AttributeError as e:
    print("AttributeError", e)
print(model.forward.__name__, callable(model), isinstance(model, nn.Module))
sd = {"module." + k: v for k, v in model.state_dict().items()}
fixed = {k.replace("module.", "", 1): v for k, v in sd.items()}
print(model.load_state_dict(fixed))
''')


ml("nn_parametrizations", r'''
import torch.nn as nn
from torch.nn.utils import parametrize
lin = det(nn.Linear(4, 3))
wn = nn.utils.weight_norm(det(nn.Linear(4, 3)))
print(sorted(n for n, _ in wn.named_parameters()), wn.weight_g.shape)
print(wn(data(2, 4)).detach())
wn2 = nn.utils.parametrizations.weight_norm(det(nn.Linear(4, 3)))
print(sorted(n for n, _ in wn2.named_parameters()), type(wn2).__name__)
print(wn2(data(2, 4)).detach())
print(list(wn2.state_dict()))
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
m = det(nn.Linear(3, 3))
parametrize.register_parametrization(m, "weight", Symmetric())
print(torch.equal(m.weight, m.weight.T), parametrize.is_parametrized(m), m)
out = m(data(2, 3)).sum()
out.backward()
print(m.parametrizations.weight.original.grad)
parametrize.remove_parametrizations(m, "weight")
print(parametrize.is_parametrized(m), type(m.weight).__name__)
orth = nn.utils.parametrizations.orthogonal(det(nn.Linear(3, 3)))
print(torch.allclose(orth.weight @ orth.weight.T, torch.eye(3), atol=1e-5))
''')


ml("nn_printing", r'''
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1)))
print(model.state_dict())
print(list(model.parameters())[:2])
print(dict(model.named_buffers()))
out = model(data(4, 2))
loss = out.pow(2).mean()
print(f"loss: {loss:.4f} | {loss.item():.3e} | {loss:8.3f}|")
acc = (out > 0).float().mean()
print(f"acc {acc:.2%} {acc.item():.1%}", "{:.3f}".format(loss))
torch.set_printoptions(precision=2)
print(out, model[0].weight)
torch.set_printoptions(precision=6, sci_mode=False)
print(out * 1e-5, model[0].weight * 1e4)
torch.set_printoptions(profile="default")
print(out * 1e6, torch.tensor([1e-8, 1.0, 123456.0]))
print(model[1].running_var.dtype, model[1].num_batches_tracked.dtype, out.detach().numpy().dtype)
print(repr(model[0].weight.data), model[0].weight.data.requires_grad)
print(model[0].weight.T.shape, model[0].weight.mT.shape, model[0].bias.shape, out.squeeze().shape)
print(torch.tensor(3.0), torch.tensor([2], dtype=torch.int32), torch.tensor([True]), torch.zeros(2, 0))
print(nn.Parameter(torch.tensor(1.5)), nn.Parameter(torch.ones(2), requires_grad=False))
''')


ml("nn_meta_and_advanced_hooks", r'''
import torch.nn as nn
with torch.device("meta"):
    big = nn.Sequential(nn.Linear(1000, 1000), nn.ReLU(), nn.Linear(1000, 10))
print(big[0].weight.device, big[0].weight.is_meta, sum(p.numel() for p in big.parameters()))
print(big(torch.empty(3, 1000, device="meta")).shape)
meta_lin = nn.Linear(4, 2, device="meta")
print(meta_lin.weight.device, meta_lin)
real = meta_lin.to_empty(device="cpu")
print(real is meta_lin, real.weight.device, real.weight.shape)
det(real)
print(real(data(1, 4)).detach())
src = det(nn.Linear(4, 2))
tgt = nn.Linear(4, 2, device="meta")
tgt.load_state_dict(src.state_dict(), assign=True)
print(tgt.weight.device, torch.equal(tgt.weight, src.weight), type(tgt.weight).__name__, tgt.weight.requires_grad)
m = det(nn.Linear(3, 3))
calls = []
def pre(mod, args, kwargs):
    calls.append(("pre", sorted(kwargs)))
    return (args[0] * 2,), kwargs
def post(mod, args, kwargs, out):
    calls.append(("post", len(args)))
    return out + 1
def first(mod, inp, out):
    calls.append("first")
m.register_forward_pre_hook(pre, with_kwargs=True)
m.register_forward_hook(post, with_kwargs=True)
m.register_forward_hook(first, prepend=True)
x = data(2, 3)
print(m(x).detach(), calls)
class KW(nn.Module):
    def forward(self, x, scale=1.0, *, shift=0.0):
        return x * scale + shift
kw = KW()
kw.register_forward_pre_hook(lambda mod, a, k: (a, {**k, "shift": 10.0}), with_kwargs=True)
print(kw(torch.ones(2), scale=3.0), kw(torch.ones(1), 2.0))
bp = []
lin = det(nn.Linear(2, 2))
lin.register_full_backward_pre_hook(lambda mod, gout: bp.append(tuple(gout[0].shape)) or (gout[0] * 0.5,))
lin(data(3, 2)).sum().backward()
print(bp, lin.weight.grad)
glob = []
h = nn.modules.module.register_module_forward_hook(lambda mod, i, o: glob.append(type(mod).__name__))
nn.Sequential(nn.ReLU(), nn.Tanh())(torch.ones(1))
h.remove()
nn.ReLU()(torch.ones(1))
print(glob)
sd_calls = []
lin.register_state_dict_post_hook(lambda mod, sd, prefix, local: sd_calls.append(sorted(sd)))
lin.state_dict()
print(sd_calls)
''')


ml("nn_common_errors", r'''
import numpy as np
import torch.nn as nn
import torch.nn.functional as F
cases = [
    ("float64 batch into float32 Linear", lambda: nn.Linear(2, 2)(torch.from_numpy(np.ones((1, 2))))),
    ("wrong in_features", lambda: nn.Linear(3, 2)(torch.ones(4, 2))),
    ("int32 targets", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32))),
    ("float targets of class shape", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0]))),
    ("target out of range", lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))),
    ("bce input > 1", lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))),
    ("conv channels", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 5, 5))),
    ("conv too small", lambda: nn.Conv2d(1, 1, 3)(torch.ones(1, 1, 2, 2))),
    ("float indices", lambda: nn.Embedding(3, 2)(torch.tensor([1.0]))),
    ("inplace on saved", lambda: (lambda y: (y.add_(1), y.sum().backward()))(torch.ones(2, requires_grad=True).sigmoid())),
    ("inplace on leaf", lambda: torch.ones(2, requires_grad=True).add_(1)),
    ("bn features", lambda: nn.BatchNorm1d(3)(torch.ones(4, 2))),
    ("layernorm shape", lambda: nn.LayerNorm(4)(torch.ones(2, 3))),
    ("lstm input size", lambda: nn.LSTM(3, 4)(torch.ones(2, 5, 4))),
    ("mha heads", lambda: nn.MultiheadAttention(6, 4)),
    ("view of transposed", lambda: torch.ones(2, 3).t().view(6)),
    ("backward without grad", lambda: torch.ones(2).sum().backward()),
    ("numpy of grad tensor", lambda: torch.ones(2, requires_grad=True).numpy()),
    ("item of many", lambda: torch.ones(2).item()),
    ("state_dict shape", lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(3, 2), "bias": torch.ones(2)})),
    ("params not iterable", lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)),
    ("non-leaf param", lambda: torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1)),
    ("batch_size 0", lambda: torch.utils.data.DataLoader([1, 2], batch_size=0)),
    ("ragged batch", lambda: next(iter(torch.utils.data.DataLoader([torch.ones(2), torch.ones(3)], batch_size=2)))),
    ("sequential index", lambda: nn.Sequential(nn.ReLU())[3]),
    ("module without forward", lambda: nn.Module()(torch.ones(1))),
]
for name, fn in cases:
    try:
        fn()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0][:100])
''')


ml("nn_subclassing_internals", r'''
from typing import Optional
import torch.nn as nn
from torch.nn.common_types import _size_2_t
from torch.nn.modules.loss import _Loss, _WeightedLoss
from torch.nn.modules.batchnorm import _BatchNorm
from torch.nn.modules.conv import _ConvNd
from torch.nn.modules.utils import _pair
from torch.optim.lr_scheduler import _LRScheduler
from torch.optim.optimizer import Optimizer
class FocalLoss(_WeightedLoss):
    def __init__(self, gamma=2.0, weight=None, reduction="mean"):
        super().__init__(weight=weight, reduction=reduction)
        self.gamma = gamma
    def forward(self, input, target):
        logp = nn.functional.log_softmax(input, dim=-1)
        ce = nn.functional.nll_loss(logp, target, weight=self.weight, reduction="none")
        p = torch.exp(-ce)
        loss = (1 - p) ** self.gamma * ce
        return loss.mean() if self.reduction == "mean" else loss.sum()
crit = FocalLoss(weight=torch.tensor([1.0, 2.0, 0.5]))
print(crit, crit.reduction, list(crit.state_dict()))
print(crit(data(4, 3), torch.tensor([0, 2, 1, 1])))
class Scaled(_Loss):
    def forward(self, a, b):
        return ((a - b) ** 2).sum() if self.reduction == "sum" else ((a - b) ** 2).mean()
print(Scaled(reduction="sum")(data(3), torch.zeros(3)), Scaled()(data(3), torch.zeros(3)))
class MyConv(nn.Module):
    def __init__(self, cin: int, cout: int, kernel_size: _size_2_t, padding: Optional[_size_2_t] = None):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size, padding=_pair(padding or 0))
    def forward(self, x):
        return self.conv(x)
net = nn.Sequential(MyConv(1, 2, 3, 1), nn.BatchNorm2d(2), nn.ReLU(), nn.Conv1d(2, 2, 1))
decay, no_decay = [], []
for mod in net.modules():
    for name, p in mod.named_parameters(recurse=False):
        (no_decay if isinstance(mod, _BatchNorm) or name == "bias" else decay).append(p)
print(len(decay), len(no_decay), [isinstance(m, _ConvNd) for m in net.modules()])
class Warmup(_LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        return [base * min(1.0, (self.last_epoch + 1) / self.warmup) for base in self.base_lrs]
opt = torch.optim.SGD(decay, lr=0.4)
w = Warmup(opt, 4)
lrs = []
for _ in range(5):
    opt.step()
    w.step()
    lrs.append(round(w.get_last_lr()[0], 6))
print(lrs, isinstance(opt, Optimizer))
''')
