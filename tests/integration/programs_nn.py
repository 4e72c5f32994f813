"""Programs (see test_programs_ml.py): torch.nn as users write it: custom modules with
buffers and submodule lists, reprs, parameter counting, state_dicts, hooks, init calls,
weight tying, layers (conv, norm, recurrent, attention, transformer), losses and the
functional API.  Weights and data come from deterministic formulas (the two libraries'
random generators differ), so values can be compared."""
from programs_registry import program

# Every program starts with this: `det(model)` gives each parameter values from a fixed
# formula; `data(*shape)` is a fixed pseudo-random float tensor.
DET = r'''
import math
def det(model, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            v = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_((torch.sin(v * 0.731 + i) * scale).reshape(p.shape))
    return model
def data(*shape, k=1.0):
    n = math.prod(shape)
    return (torch.sin(torch.arange(n, dtype=torch.float64) * 1.37 * k) * 1.5).reshape(shape).float()
'''


def ml(name, text, needs=()):
    program(name, "import torch\n" + DET + text, needs)


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

ml("nn_cnn_forward", r'''
import torch.nn as nn
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.BatchNorm2d(4),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 8, 3, stride=1, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Dropout(0.25),
    nn.Linear(8, 3),
)
det(model)
print(model)
print(sum(p.numel() for p in model.parameters()), len(list(model.buffers())))
x = data(2, 1, 8, 8)
model.train()
y = model(x)
print(y.shape)
print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)
model.eval()
with torch.no_grad():
    y = model(x)
print(y, y.requires_grad)
print(y.argmax(dim=1), torch.softmax(y, dim=1).sum(1))
print(model[0].weight.shape, model[4].bias, model[0].weight.grad)
feats = model[:4](x)
print(feats.shape, type(model[:4]).__name__, len(model[:4]))
print(list(model.state_dict().keys())[:8])
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

ml("nn_recurrent", r'''
import torch.nn as nn
lstm = det(nn.LSTM(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True))
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:5])
x = data(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[:, -1].detach())
print(h.detach())
h0 = torch.zeros(4, 2, 4)
out2, _ = lstm(x, (h0, h0))
print(torch.allclose(out, out2))
gru = det(nn.GRU(3, 5, batch_first=False))
y, hn = gru(x.transpose(0, 1))
print(y.shape, hn.shape, torch.allclose(y[-1], hn[0]))
print(hn.detach())
rnn = det(nn.RNN(3, 2, nonlinearity="relu", bias=False))
print(rnn, rnn(x[0])[0].detach())
cell = det(nn.LSTMCell(3, 4))
hx = cx = torch.zeros(2, 4)
for t in range(x.shape[1]):
    hx, cx = cell(x[:, t], (hx, cx))
print(hx.detach())
gcell = det(nn.GRUCell(3, 2))
print(gcell(x[:, 0]).detach())
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
print(padded)
(out.sum() + h.sum()).backward()
print(lstm.weight_hh_l1_reverse.grad.abs().sum().item() > 0, lstm.bias_ih_l0.grad.shape)
''')

ml("nn_packed_sequence", r'''
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
seqs = [data(4, 3), data(2, 3, k=2.0), data(3, 3, k=3.0)]
lengths = torch.tensor([4, 2, 3])
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.data.shape)
gru = det(nn.GRU(3, 2, batch_first=True))
out, h = gru(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print(unpacked.detach())
print(h.detach())
''', needs=())

ml("nn_transformer", r'''
import torch.nn as nn
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
det(enc, 0.2)
print(enc)
print(sum(p.numel() for p in enc.parameters()))
x = data(2, 5, 8)
out = enc(x)
print(out.shape)
print(out[0, :2].detach())
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
out = enc(x, mask=mask, is_causal=True)
print(out[1, -1].detach())
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
out = enc(x, src_key_padding_mask=pad)
print(out[0, 0].detach())
enc.eval()
with torch.no_grad():
    print(enc(x)[1, 2])
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
det(dec_layer, 0.2)
y = dec_layer(data(2, 3, 8, k=2.0), x, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
print(y.shape, y[0, 0].detach())
''')

ml("nn_attention", r'''
import torch.nn as nn
import torch.nn.functional as F
mha = det(nn.MultiheadAttention(embed_dim=6, num_heads=2, batch_first=True), 0.25)
print(mha)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
q = data(2, 3, 6)
kv = data(2, 4, 6, k=0.5)
out, w = mha(q, kv, kv)
print(out.shape, w.shape)
print(w.detach())
out, w = mha(q, kv, kv, need_weights=True, average_attn_weights=False)
print(w.shape)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(q, kv, kv, key_padding_mask=kpm)
print(w[0].detach())
out, w = mha(q, q, q, attn_mask=torch.triu(torch.ones(3, 3, dtype=torch.bool), 1), need_weights=False)
print(w, out[1].detach())
qs, ks, vs = data(1, 2, 4, 3), data(1, 2, 4, 3, k=2.0), data(1, 2, 4, 3, k=3.0)
print(F.scaled_dot_product_attention(qs, ks, vs, is_causal=True)[0, 1])
scores = (qs @ ks.transpose(-2, -1)) / math.sqrt(3)
print(torch.allclose(F.scaled_dot_product_attention(qs, ks, vs), scores.softmax(-1) @ vs, atol=1e-6))
''')

ml("nn_losses", r'''
import torch.nn as nn
import torch.nn.functional as F
logits = data(6, 4).requires_grad_()
target = torch.tensor([0, 3, 1, 1, 2, 0])
for crit in [nn.CrossEntropyLoss(), nn.CrossEntropyLoss(label_smoothing=0.1),
             nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0]), ignore_index=1),
             nn.CrossEntropyLoss(reduction="sum")]:
    loss = crit(logits, target)
    print(crit, f"{loss.item():.5f}")
loss = nn.CrossEntropyLoss()(logits, target)
loss.backward()
print(logits.grad)
probs = torch.softmax(data(6, 4, k=2.0), dim=1)
print(f"{nn.CrossEntropyLoss()(logits, probs).item():.5f}")
print(f"{nn.NLLLoss()(F.log_softmax(logits, 1), target).item():.5f}")
pred = data(8).sigmoid()
y = (data(8, k=3.0) > 0).float()
print(nn.BCELoss()(pred, y), nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))(data(8), y))
a, b = data(3, 5), data(3, 5, k=0.7)
for crit in [nn.MSELoss(), nn.L1Loss(reduction="sum"), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=0.3),
             nn.KLDivLoss(reduction="batchmean"), nn.KLDivLoss(reduction="batchmean", log_target=True)]:
    print(type(crit).__name__, crit(F.log_softmax(a, 1), F.softmax(b, 1)) if "KL" in type(crit).__name__ else crit(a, b))
print(nn.MSELoss(reduction="none")(a, b).shape)
print(nn.CosineEmbeddingLoss(margin=0.1)(a, b, torch.tensor([1, -1, 1])))
print(nn.TripletMarginLoss(margin=1.0)(a, b, data(3, 5, k=0.3)))
print(nn.MarginRankingLoss()(data(4), data(4, k=2.0), torch.tensor([1.0, -1.0, 1.0, -1.0])))
print(nn.HingeEmbeddingLoss()(a, torch.ones(3, 5)), nn.SoftMarginLoss()(a, torch.ones(3, 5)))
print(nn.MultiLabelSoftMarginLoss()(a, (b > 0).float()), nn.PoissonNLLLoss()(a, b.abs()))
print(nn.GaussianNLLLoss()(a, b, torch.ones(3, 5)), nn.MultiMarginLoss()(a, torch.tensor([0, 4, 2])))
seg = data(2, 3, 4, 4)
print(nn.CrossEntropyLoss()(seg, torch.tensor([0, 1, 2, 1] * 8).reshape(2, 4, 4)))
try:
    nn.CrossEntropyLoss()(logits, target.float()[:5])
except Exception as e:
    print(type(e).__name__)
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

ml("nn_functional", r'''
import torch.nn.functional as F
labels = torch.tensor([0, 2, 1, 2])
oh = F.one_hot(labels, num_classes=4)
print(oh, oh.dtype, F.one_hot(torch.tensor([[1, 0], [2, 1]])).shape)
x = data(2, 3, 4)
print(F.softmax(x, dim=-1)[0], F.log_softmax(x, dim=1)[1, :, 0])
print(F.relu(x).sum(), F.gelu(x).sum(), F.gelu(x, approximate="tanh").sum(), F.silu(x).mean())
print(F.leaky_relu(x, 0.1)[0, 0], F.elu(x)[0, 1], F.hardswish(x)[1, 2], F.softplus(x)[0, 0])
print(F.normalize(x, dim=-1)[0, 0], F.normalize(x, p=1, dim=0)[1, 1])
print(F.pad(x, (1, 2)).shape, F.pad(x, (1, 1, 2, 0), value=-1.0)[0, :3], F.pad(x, (2, 2), mode="reflect")[0, 0])
img = data(1, 2, 4, 4)
print(F.interpolate(img, scale_factor=2, mode="nearest").shape)
print(F.interpolate(img, size=(3, 5), mode="bilinear", align_corners=False)[0, 0])
print(F.interpolate(img, scale_factor=0.5, mode="bilinear", align_corners=True)[0, 1])
print(F.avg_pool2d(img, 2), F.max_pool2d(img, 3, stride=1, padding=1)[0, 0, 0])
print(F.adaptive_avg_pool2d(img, (2, 1)).squeeze(), F.dropout(x, p=0.5, training=False).equal(x))
w = data(3, 2, 3, 3, k=0.3)
print(F.conv2d(img, w, padding=1)[0, 2, 1], F.conv2d(img, w, stride=2).shape)
print(F.linear(x, data(5, 4, k=0.2), torch.ones(5))[1, 0])
print(F.cosine_similarity(x[0], x[1]), F.pairwise_distance(x[0], x[1]))
print(F.embedding(torch.tensor([[0, 2]]), data(3, 2)))
print(F.layer_norm(x, (4,))[0, 0], F.group_norm(img, 1)[0, 1, 0])
print(F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False)[0, 0])
print(F.cross_entropy(x[0], torch.tensor([1, 0, 3])), F.mse_loss(x[0], x[1]), F.l1_loss(x, x * 2))
print(F.binary_cross_entropy_with_logits(x, (x > 0).float()), F.nll_loss(x[0], torch.tensor([1, 0, 3])))
print(F.unfold(img, 2, stride=2).shape, F.fold(F.unfold(img, 2, stride=2), (4, 4), 2, stride=2).equal(img))
print(F.glu(x, dim=-1)[0], F.logsigmoid(x)[0, 0], F.softmin(x, 0)[0, 0], F.tanhshrink(x)[0, 0])
print(F.kl_div(F.log_softmax(x, -1), F.softmax(x * 2, -1), reduction="batchmean"))
print(F.pixel_shuffle(data(1, 4, 2, 2), 2)[0, 0], F.grid_sample(img, torch.zeros(1, 2, 2, 2), align_corners=False)[0, 0])
''')

ml("nn_embeddings", r'''
import torch.nn as nn
emb = det(nn.Embedding(6, 3, padding_idx=2))
print(emb.weight[2])
ids = torch.tensor([[0, 2, 5], [2, 2, 1]])
out = emb(ids)
out.sum().backward()
print(out.shape, emb.weight.grad)
pre = nn.Embedding.from_pretrained(data(4, 2))
print(pre.weight.requires_grad, pre(torch.tensor([3, 0])))
pre2 = nn.Embedding.from_pretrained(data(4, 2), freeze=False, padding_idx=1)
print(pre2.weight.requires_grad, pre2.padding_idx, pre2)
maxn = nn.Embedding(5, 2, max_norm=1.0)
det(maxn, 2.0)
print(maxn(torch.tensor([1, 3])), maxn.weight[1:4])
bag = det(nn.EmbeddingBag(6, 3, mode="mean"))
print(bag(torch.tensor([1, 2, 4, 5, 4, 3, 2]), torch.tensor([0, 3])))
print(bag(torch.tensor([[1, 2], [4, 5]])))
bag_sum = det(nn.EmbeddingBag(6, 3, mode="sum"))
print(bag_sum(torch.tensor([0, 1, 2]), torch.tensor([0, 1]), per_sample_weights=torch.tensor([1.0, 2.0, 0.5])))
try:
    emb(torch.tensor([6]))
except Exception as e:
    print(type(e).__name__)
''')

ml("nn_grad_bookkeeping", r'''
import torch.nn as nn
model = det(nn.Linear(3, 2))
x = data(4, 3)
print(model.weight.grad)
model(x).sum().backward()
g1 = model.weight.grad.clone()
model(x).sum().backward()
print(torch.allclose(model.weight.grad, 2 * g1), model.bias.grad)
model.zero_grad()
print(model.weight.grad)
model(x).pow(2).mean().backward()
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
with torch.no_grad():
    y = model(x)
print(y.requires_grad, y.grad_fn)
with torch.inference_mode():
    print(model(x).requires_grad)
y = model(x)
print(y.grad_fn is not None, y.is_leaf, model.weight.is_leaf)
z = model(x).detach()
print(z.requires_grad)
model.weight.requires_grad = False
model(x).sum().backward()
print(model.weight.grad, model.bias.grad)
print(nn.utils.parameters_to_vector(model.parameters()))
nn.utils.vector_to_parameters(torch.arange(8.0), model.parameters())
print(model.weight, model.bias)
''')

ml("nn_ctc_loss", r'''
import torch.nn as nn
import torch.nn.functional as F
log_probs = F.log_softmax(data(7, 2, 5), 2).requires_grad_()
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
loss = ctc(log_probs, torch.tensor([[1, 2], [3, 3]]), torch.tensor([7, 6]), torch.tensor([2, 2]))
loss.backward()
print(ctc, loss, log_probs.grad[0])
print(F.ctc_loss(log_probs, torch.tensor([1, 2, 3, 3]), (7, 6), (2, 2), reduction="sum"))
''')

ml("nn_norm_layers", r'''
import torch.nn as nn
x = data(4, 3, 5)
bn = det(nn.BatchNorm1d(3, momentum=None))
for _ in range(3):
    bn(x * (1 + _))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0])
bn2 = nn.BatchNorm1d(3, track_running_stats=False)
bn2.eval()
print(bn2(x)[1, 1], bn2.running_mean)
ln = det(nn.LayerNorm(5))
print(ln(x)[2], ln(x).mean(-1).abs().max() < 1e-5)
gn = det(nn.GroupNorm(1, 3))
print(gn(x)[0, 0])
inorm = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
det(inorm)
print(inorm(x + 1)[0, 2], inorm.running_mean)
rms = det(nn.RMSNorm(5, eps=1e-6))
print(rms(x)[1])
bn2d = det(nn.BatchNorm2d(2))
img = data(3, 2, 2, 2)
out = bn2d(img)
(out * data(3, 2, 2, 2, k=0.4)).sum().backward()
print(out[0, 1], bn2d.weight.grad, bn2d.running_var)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print("ValueError", e)
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

ml("nn_tensor_hooks_and_grad", r'''
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)))
x = data(5, 3).requires_grad_(True)
h = model[0](x)
h.retain_grad()
seen = []
handle = h.register_hook(lambda g: seen.append(g.clone()) or g * 2)
out = model[2](model[1](h)).sum()
out.backward()
print(h.grad, seen[0])
print(x.grad)
handle.remove()
x = data(4, 3).requires_grad_(True)
y = model(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
print(f"{penalty.item():.6f}", model[0].weight.grad)
model.zero_grad()
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 3).sum()
grad_w, = torch.autograd.grad(loss, w, create_graph=True)
hess = torch.stack([torch.autograd.grad(grad_w[i], w, retain_graph=True)[0] for i in range(2)])
print(grad_w, hess)
@torch.no_grad()
def predict(m, inp):
    return m(inp)
print(predict(model, data(2, 3)).requires_grad)
@torch.inference_mode()
def predict2(m, inp):
    return m(inp)
r = predict2(model, data(2, 3))
print(r.requires_grad, r.is_inference() if hasattr(r, "is_inference") else True)
with torch.set_grad_enabled(False):
    print(model(data(1, 3)).requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    model(data(2, 3)).backward()
except RuntimeError as e:
    print("RuntimeError", e)
z = model(data(2, 3)).sum()
z.backward(retain_graph=True)
z.backward()
print(model[2].bias.grad)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
''')

ml("nn_grad_fn_reprs", r'''
import torch.nn as nn
import torch.nn.functional as F
x = data(2, 3, 6, 6)
mods = [nn.Linear(6, 2), nn.Conv2d(3, 2, 3), nn.BatchNorm2d(3), nn.LayerNorm(6), nn.GroupNorm(3, 3), nn.ReLU(),
        nn.MaxPool2d(2), nn.AvgPool2d(2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.0), nn.Softmax(-1),
        nn.GELU(), nn.Sigmoid(), nn.Tanh(), nn.LeakyReLU(), nn.Upsample(scale_factor=2), nn.ConvTranspose2d(3, 1, 2)]
for m in mods:
    det(m)
    x1 = x.clone().requires_grad_()
    out = m(x1)
    print(type(m).__name__, type(out.grad_fn).__name__, tuple(out.shape))
lin = det(nn.Linear(6, 2))
v = data(4, 6).requires_grad_()
print(lin(v))
print(lin(v[0]))
print(lin(data(2, 2, 6)).grad_fn.name())
emb = det(nn.Embedding(4, 3))
print(emb(torch.tensor([1, 2])))
lstm = det(nn.LSTM(3, 2, batch_first=True))
o, (h, c) = lstm(data(1, 2, 3))
print(o, h.grad_fn is not None)
t = v.sum(1).mean()
print(t, t.grad_fn.next_functions[0][0].name())
print((v * 2)[0, :2], v.view(24)[:2], v.T[0, :2], v.reshape(2, 12).sum(0)[:2])
print(F.cross_entropy(lin(v), torch.tensor([0, 1, 1, 0])), F.mse_loss(lin(v), torch.zeros(4, 2)))
print(nn.Parameter(torch.zeros(2)) * 1, nn.Parameter(torch.ones(2, 2, dtype=torch.float64)))
print(torch.cat([v[:1], v[1:2]]).grad_fn.name(), torch.stack([v[0], v[1]]).grad_fn.name(), v.max(1)[0].grad_fn.name())
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
