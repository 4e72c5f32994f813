"""QA programs on models and training (run by test_programs_qa_extra.py): recurrent and
attention models, parametrizations, module APIs, optimisers and schedulers; continued in
programs_qa_nn_2.py (losses, normalisation, convolution and resampling layers) and
programs_qa_nn_3.py (training workflows, data loading).  Weights and data are set
deterministically (`det`, below) since mindtorch need not reproduce torch's random streams."""
from programs_registry import program

# Prefix of every program: `det(m)` fills a module's parameters with fixed values,
# `fixed(*shape)` makes a fixed tensor, `show` prints a tensor rounded to 4 decimals (and
# -0.0 as 0.0: the sign of a rounded tiny value is float noise).
HEAD = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
def fixed(*shape, k=0.0, scale=1.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.sin(torch.arange(n, dtype=torch.float64) * 0.731 + k) * scale).float().reshape(shape)
def det(m, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(fixed(*p.shape, k=i, scale=scale).to(p.dtype))
    return m
def show(*ts):
    print(*[t.detach().double().round(decimals=4) + 0.0 if isinstance(t, torch.Tensor) else t for t in ts])
'''


def qa(name, text):
    program(name, HEAD + text)


qa("qa_nn_lstm_packed_classifier", r'''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence
torch.manual_seed(0)
class TextLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 5, padding_idx=0)
        self.lstm = nn.LSTM(5, 6, num_layers=2, batch_first=True, bidirectional=True, dropout=0.3)
        self.fc = nn.Linear(12, 3)
    def forward(self, x, lengths):
        e = self.emb(x)
        packed = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        pad, lens = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        feat = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(feat), pad, lens, h, c
m = det(TextLSTM())
m.eval()
x = torch.tensor([[3, 4, 5, 0, 0], [1, 2, 3, 4, 5], [7, 8, 0, 0, 0]])
lengths = torch.tensor([3, 5, 2])
logits, pad, lens, h, c = m(x, lengths)
show(logits)
show(pad[:, :, :3])
print(pad.shape, lens, h.shape, c.shape)
packed = pack_padded_sequence(m.emb(x), lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.shape)
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.data, ps.batch_sizes)
print(pad_sequence(seqs, batch_first=True, padding_value=-1.0))
print(pad_packed_sequence(ps, batch_first=True, padding_value=9.0))
try:
    pack_sequence(seqs)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
loss = F.cross_entropy(logits, torch.tensor([0, 2, 1]))
loss.backward()
show(loss, m.emb.weight.grad[0].abs().sum(), m.lstm.weight_hh_l1_reverse.grad.norm())
m.train()
print(m.training, m.lstm.training, m.lstm.dropout)
''')

qa("qa_nn_rnn_variants_state", r'''
lstm = det(nn.LSTM(4, 6, num_layers=2, proj_size=3))
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
x = fixed(5, 2, 4)
h0 = fixed(2, 2, 3, k=1.0, scale=0.1)
c0 = fixed(2, 2, 6, k=2.0, scale=0.1)
out, (h, c) = lstm(x, (h0, c0))
print(out.shape, h.shape, c.shape)
show(out[-1], h[-1], c[0])
gru = det(nn.GRU(4, 3, batch_first=True, bias=False))
out, h = gru(x.transpose(0, 1))
show(out[:, -1], h)
rnn = det(nn.RNN(4, 3, nonlinearity="relu", num_layers=2))
out, h = rnn(x[:, 0])  # unbatched input
print(out.shape, h.shape)
show(out[-1], h)
cell = det(nn.LSTMCell(4, 3))
hx, cx = torch.zeros(2, 3), torch.zeros(2, 3)
for t in range(5):
    hx, cx = cell(x[t], (hx, cx))
show(hx, cx)
gcell = det(nn.GRUCell(4, 3))
show(gcell(x[0]), gcell(x[0, 0]))
rcell = det(nn.RNNCell(4, 3, nonlinearity="tanh"))
show(rcell(x[0], torch.ones(2, 3)))
try:
    nn.GRU(4, 3, proj_size=2)
except ValueError as e:
    print("ValueError", e)
try:
    lstm(x, (h0, h0))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    gru(fixed(2, 5, 5))
except RuntimeError as e:
    print("RuntimeError", e)
out.sum().backward()
show(rnn.weight_ih_l0.grad.sum(), rnn.bias_hh_l1.grad)
''')

qa("qa_nn_seq2seq_transformer", r'''
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.1, batch_first=True)
det(model, scale=0.2)
model.eval()
src = fixed(2, 5, 8)
tgt = fixed(2, 4, 8, k=1.0)
tgt_mask = nn.Transformer.generate_square_subsequent_mask(4)
print(tgt_mask)
src_pad = torch.tensor([[False, False, False, True, True], [False] * 5])
tgt_pad = torch.tensor([[False, False, True, True], [False] * 4])
with torch.no_grad():
    out = model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_pad,
                tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad, tgt_is_causal=True)
show(out[0, :2], out[1, -1])
mem = model.encoder(src, src_key_padding_mask=src_pad)
dec = model.decoder(tgt, mem, tgt_mask=tgt_mask, memory_key_padding_mask=src_pad)
show(dec[1, 0], mem[0, 0])
layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True, activation="gelu")
det(layer, scale=0.2)
d = layer(tgt.transpose(0, 1), src.transpose(0, 1), tgt_mask=tgt_mask, tgt_is_causal=True)
show(d[-1])
enc_layer = det(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), scale=0.2)
enc = nn.TransformerEncoder(enc_layer, num_layers=2, norm=nn.LayerNorm(8), enable_nested_tensor=False)
e = enc(src, mask=nn.Transformer.generate_square_subsequent_mask(5), is_causal=True)
show(e[0, -1])
print(len(enc.layers), enc.layers[0] is enc.layers[1], type(enc.norm).__name__)
model.train()
out = model(src, tgt, tgt_mask=tgt_mask)
print(out.shape, out.requires_grad)
''')

qa("qa_nn_multihead_attention_options", r'''
mha = det(nn.MultiheadAttention(6, 2, batch_first=True), scale=0.2)
q = fixed(2, 3, 6)
k = fixed(2, 4, 6, k=1.0)
v = fixed(2, 4, 6, k=2.0)
out, w = mha(q, k, v)
print(out.shape, w.shape)
show(out[0], w[1])
out, w = mha(q, k, v, average_attn_weights=False)
print(w.shape)
show(w[0, 1])
out, w = mha(q, k, v, need_weights=False)
print(w)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(q, k, v, key_padding_mask=kpm)
show(w[0])
am = torch.tensor([[0.0, -1e9, 0.0, 0.0]] * 3)
out, w = mha(q, k, v, attn_mask=am)
show(w[1])
bm = torch.ones(3, 4, dtype=torch.bool).triu(1)
out, w = mha(q, k, v, attn_mask=bm)
show(out[1, 0], w[0])
mha2 = det(nn.MultiheadAttention(6, 3, kdim=4, vdim=5, bias=False, add_bias_kv=True, add_zero_attn=True), scale=0.2)
print(sorted(n for n, _ in mha2.named_parameters()))
o2, w2 = mha2(q.transpose(0, 1), fixed(4, 2, 4), fixed(4, 2, 5))
print(o2.shape, w2.shape)
show(o2[0], w2[0])
o3, w3 = mha(q[0], k[0], v[0])  # unbatched
print(o3.shape, w3.shape)
out.sum().backward()
show(mha.in_proj_weight.grad.norm(), mha.out_proj.bias.grad)
try:
    nn.MultiheadAttention(7, 2)
except AssertionError as e:
    print("AssertionError", e)
''')

qa("qa_nn_sdpa_variants", r'''
q = fixed(2, 2, 4, 8)
k = fixed(2, 2, 5, 8, k=1.0)
v = fixed(2, 2, 5, 8, k=2.0)
show(F.scaled_dot_product_attention(q, k, v)[0, 0])
show(F.scaled_dot_product_attention(q, k, v, scale=0.5)[1, 1])
mask = torch.ones(4, 5, dtype=torch.bool).tril()
show(F.scaled_dot_product_attention(q, k, v, attn_mask=mask)[0, 1])
fm = torch.zeros(2, 1, 4, 5)
fm[..., -1] = float("-inf")
show(F.scaled_dot_product_attention(q, k, v, attn_mask=fm)[1, 0])
qs = fixed(2, 2, 5, 8, k=3.3)
show(F.scaled_dot_product_attention(qs, k, v, is_causal=True)[0, 0])
show(F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=True)[1, 1, 0])
show(F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)[0, 1])
try:
    F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=mask, is_causal=True)
except RuntimeError as e:
    print("RuntimeError", e)
qg = fixed(1, 4, 3, 8).requires_grad_()
kg = fixed(1, 2, 3, 8, k=1.0).requires_grad_()
vg = fixed(1, 2, 3, 8, k=2.0).requires_grad_()
o = F.scaled_dot_product_attention(qg, kg, vg, enable_gqa=True)
print(o.shape)
o.pow(2).sum().backward()
show(qg.grad[0, 0, 0], kg.grad[0, 1].sum(), vg.grad.norm())
print(F.scaled_dot_product_attention(q, k, v, dropout_p=0.0).shape)
''')

qa("qa_nn_parametrizations", r'''
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm, spectral_norm, orthogonal
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
class Scale(nn.Module):
    def forward(self, X):
        return X * 2
    def right_inverse(self, X):
        return X / 2
lin = det(nn.Linear(3, 3))
parametrize.register_parametrization(lin, "weight", Symmetric())
show(lin.weight)
print(parametrize.is_parametrized(lin), parametrize.is_parametrized(lin, "bias"))
print(type(lin.parametrizations).__name__, list(lin.parametrizations.weight.keys() if hasattr(lin.parametrizations.weight, "keys") else []))
print(sorted(lin.state_dict()))
try:
    lin.weight = torch.eye(3)
except RuntimeError as e:
    print("RuntimeError", e)
parametrize.remove_parametrizations(lin, "weight", leave_parametrized=False)
show(lin.weight)
parametrize.register_parametrization(lin, "weight", Scale())
show(lin.weight, lin.parametrizations.weight.original)
with torch.no_grad():
    lin.weight = torch.eye(3)
show(lin.parametrizations.weight.original)
with parametrize.cached():
    a = lin.weight
    b = lin.weight
    print(a is b)
parametrize.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(type(lin.weight).__name__, parametrize.is_parametrized(lin))
show(lin.weight)
conv = det(nn.Conv1d(2, 3, 2))
conv = weight_norm(conv, name="weight", dim=0)
print(sorted(n for n, _ in conv.named_parameters()))
show(conv.parametrizations.weight.original0.flatten(), conv.weight.sum())
y = conv(fixed(1, 2, 4))
y.sum().backward()
show(conv.parametrizations.weight.original1.grad.flatten())
sn = spectral_norm(det(nn.Linear(4, 3)), n_power_iterations=3)
sn.eval()
print(sorted(sn.state_dict()))
print(torch.linalg.matrix_norm(sn.weight, 2).item() < 1.01)
o = orthogonal(nn.Linear(3, 3))
w = o.weight
show((w @ w.T - torch.eye(3)).abs().max() < 1e-5)
''')

qa("qa_nn_legacy_weight_norm_prune", r'''
import torch.nn.utils.prune as prune
lin = det(nn.Linear(4, 3))
lin = nn.utils.weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()))
show(lin.weight_g.flatten(), lin.weight_v.sum())
out = lin(fixed(2, 4))
out.sum().backward()
show(lin.weight_g.grad.flatten())
nn.utils.remove_weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()))
conv = det(nn.Conv2d(2, 4, 3))
prune.l1_unstructured(conv, name="weight", amount=0.3)
print(sorted(n for n, _ in conv.named_parameters()), sorted(n for n, _ in conv.named_buffers()))
print(int((conv.weight == 0).sum()), int(conv.weight_mask.sum()))
prune.ln_structured(conv, name="weight", amount=0.5, n=2, dim=0)
print(int((conv.weight == 0).sum()), conv.weight_mask.sum(dim=(1, 2, 3)))
print(prune.is_pruned(conv), type(conv._forward_pre_hooks[list(conv._forward_pre_hooks)[0]]).__name__)
prune.remove(conv, "weight")
print(prune.is_pruned(conv), sorted(n for n, _ in conv.named_parameters()))
print(int((conv.weight == 0).sum()))
net = nn.Sequential(det(nn.Linear(4, 4)), nn.ReLU(), det(nn.Linear(4, 2)))
params = [(net[0], "weight"), (net[2], "weight")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=10)
print(int((net[0].weight == 0).sum()) + int((net[2].weight == 0).sum()))
prune.random_unstructured(net[2], name="bias", amount=0)
print(net[2].bias_mask)
bias = net[2].bias_orig.clone()
prune.custom_from_mask(net[0], name="bias", mask=torch.tensor([1.0, 0.0, 1.0, 0.0]))
show(net[0].bias)
''')

qa("qa_nn_module_introspection", r'''
class Block(nn.Module):
    def __init__(self, shared):
        super().__init__()
        self.shared = shared
        self.fc = nn.Linear(3, 3)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(3), persistent=False)
    def forward(self, x):
        return self.shared(self.fc(x)) * self.scale + self.cache
shared = nn.Linear(3, 3)
net = nn.Sequential(Block(shared), Block(shared), nn.ReLU())
det(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_modules(prefix="net")])
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_children()])
print(sorted(net.state_dict()), len(list(net.parameters())))
print(net.get_submodule("1.fc"), net.get_parameter("0.fc.bias").shape, net.get_buffer("1.scale"))
for bad in ("1.nope", "2.weight"):
    try:
        net.get_submodule(bad) if bad == "1.nope" else net.get_parameter(bad)
    except AttributeError as e:
        print("AttributeError", e)
net[0].register_buffer("extra", None)
print("extra" in dict(net.named_buffers()), sorted(net[0].state_dict()))
sd = {k: v.clone() for k, v in net.state_dict().items()}
sd["0.unexpected"] = torch.ones(1)
del sd["1.fc.bias"]
r = net.load_state_dict(sd, strict=False)
print(r.missing_keys, r.unexpected_keys, type(r).__name__)
try:
    net.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
sd2 = dict(net.state_dict())
sd2["0.fc.weight"] = torch.ones(2, 2)
try:
    net.load_state_dict(sd2)
except RuntimeError as e:
    print("RuntimeError", str(e).replace("\t", " "))
show(net(fixed(2, 3)))
net.apply(lambda m: print(type(m).__name__, end=" "))
print()
print(net.extra_repr() == "", net[0].fc.extra_repr())
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
print(sum(p.numel() for p in net.parameters()), sum(p.numel() for p in net.parameters() if p.requires_grad))
del net[2]
print(len(net), net[-1].fc is net[1].fc)
''')

qa("qa_nn_hooks_kwargs_and_state_dict_hooks", r'''
calls = []
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    def forward(self, x, scale=1.0):
        return self.fc(x) * scale
net = det(Net())
def pre(mod, args, kwargs):
    calls.append(("pre", len(args), sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 10
    return args, kwargs
def post(mod, args, kwargs, out):
    calls.append(("post", sorted(kwargs)))
    return out + 1
h1 = net.register_forward_pre_hook(pre, with_kwargs=True)
h2 = net.register_forward_hook(post, with_kwargs=True)
x = fixed(1, 2)
show(net(x, scale=0.5), net(x))
print(calls)
h1.remove(); h2.remove()
show(net(x, scale=0.5))
h3 = net.register_forward_hook(lambda m, i, o: o * 0, prepend=True)
h4 = net.register_forward_hook(lambda m, i, o: o + 5)
show(net(x))
h3.remove(); h4.remove()
h5 = net.register_forward_hook(lambda m, i, o: calls.append("always"), always_call=True)
try:
    net("bad")
except Exception as e:
    print(type(e).__name__)
print(calls[-1])
h5.remove()
def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "note"] = torch.tensor(7)
    return state_dict
net.fc._register_state_dict_hook(sd_hook)
print(sorted(net.state_dict()))
def pre_load(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    state_dict.pop(prefix + "note", None)
    if prefix + "w" in state_dict:
        state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")
net.fc._register_load_state_dict_pre_hook(pre_load)
sd = net.state_dict()
sd["fc.w"] = sd.pop("fc.weight") * 2
print(net.load_state_dict(sd))
show(net.fc.weight)
def post_load(module, keys):
    calls.append(("post_load", list(keys.missing_keys), list(keys.unexpected_keys)))
net.register_load_state_dict_post_hook(post_load)
net.load_state_dict({"fc.weight": torch.zeros(2, 2), "fc.bias": torch.zeros(2)}, strict=False)
print(calls[-1])
g = []
net.fc.register_full_backward_pre_hook(lambda m, go: g.append(("bpre", go[0].shape)))
net.fc.register_full_backward_hook(lambda m, gi, go: g.append(("bwd", gi[0] is None, go[0].shape)))
xr = x.clone().requires_grad_()
net(xr).sum().backward()
print(g)
p = net.fc.weight
p.register_post_accumulate_grad_hook(lambda t: g.append(("acc", t.grad.shape)))
net(xr).sum().backward()
print(g[-1])
''')

qa("qa_nn_dtype_conversion_and_copy", r'''
import copy
import io
m = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)))
m.half()
print({n: str(t.dtype) for n, t in m.state_dict().items()})
m.double()
print(m[0].weight.dtype, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype)
m.float()
print(m[2].bias.dtype, m[0].weight.requires_grad, type(m[0].weight).__name__)
m.to(torch.bfloat16)
print(m[0].weight.dtype)
m.to(dtype=torch.float32)
m2 = copy.deepcopy(m)
print(m2[0].weight is m[0].weight, torch.equal(m2[0].weight, m[0].weight))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
x = fixed(5, 3)
m(x).pow(2).mean().backward()
opt.step()
o2 = copy.deepcopy(opt)
print(len(o2.state), o2.param_groups[0]["momentum"], o2.param_groups[0]["params"][0] is m[0].weight)
show(m[0].weight.grad.sum(), o2.state[o2.param_groups[0]["params"][0]]["momentum_buffer"].sum())
buf = io.BytesIO()
ckpt = {"epoch": 3, "model": m.state_dict(), "opt": opt.state_dict(), "loss": 0.25,
        "rng": torch.tensor([1, 2, 3], dtype=torch.uint8)}
torch.save(ckpt, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
fresh = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
fresh.load_state_dict(ck["model"])
fo = torch.optim.SGD(fresh.parameters(), lr=0.5, momentum=0.5)
fo.load_state_dict(ck["opt"])
print(ck["epoch"], ck["loss"], fo.param_groups[0]["lr"], fo.param_groups[0]["momentum"])
for mod, o in ((m, opt), (fresh, fo)):
    o.zero_grad()
    mod(x).pow(2).mean().backward()
    o.step()
show(m[0].weight - fresh[0].weight)
buf = io.BytesIO()
torch.save(m, buf)
buf.seek(0)
whole = torch.load(buf, weights_only=False)
print(type(whole).__name__, whole[1].num_batches_tracked, whole.training)
show(whole.eval()(x)[0])
c = copy.copy(m)
print(c[0] is m[0], c._modules is m._modules)
''')

qa("qa_nn_optimizer_param_groups", r'''
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)))
opt = torch.optim.SGD([
    {"params": model[0].parameters(), "lr": 0.05, "weight_decay": 0.01},
    {"params": model[2].parameters(), "momentum": 0.9, "nesterov": True, "dampening": 0.0},
], lr=0.1)
print(opt)
x, y = fixed(8, 3), fixed(8, 1, k=2.0)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
show(loss, model[0].weight[0], model[2].bias)
sd = opt.state_dict()
print([sorted(g) for g in sd["param_groups"]])
print([g["params"] for g in sd["param_groups"]], sorted(sd["state"]))
opt.add_param_group({"params": [nn.Parameter(torch.ones(2))], "lr": 1.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["nesterov"])
try:
    opt.add_param_group({"params": model[0].weight})
except ValueError as e:
    print("ValueError", e)
opt.zero_grad(set_to_none=False)
print(model[0].weight.grad.abs().sum().item(), opt.param_groups[2]["params"][0].grad)
opt.zero_grad()
print(model[0].weight.grad)
adam = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.8, 0.9), amsgrad=True, weight_decay=0.1, foreach=False)
adamw = torch.optim.AdamW(model.parameters(), lr=0.01, maximize=True, foreach=True)
for o in (adam, adamw):
    for _ in range(2):
        o.zero_grad()
        F.mse_loss(model(x), y).backward()
        o.step()
    show(model[2].weight)
print(sorted(adam.state[model[0].weight]), adam.state[model[0].weight]["step"])
print(adam.defaults["amsgrad"], adamw.defaults["maximize"], adamw.defaults["weight_decay"])
for cls, kw in [(torch.optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True)),
                (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)),
                (torch.optim.Adadelta, dict(rho=0.8)), (torch.optim.Adamax, dict(lr=0.01)),
                (torch.optim.NAdam, dict(lr=0.01, momentum_decay=0.004)), (torch.optim.RAdam, dict(lr=0.01)),
                (torch.optim.Rprop, dict(lr=0.01, etas=(0.4, 1.3)))]:
    m = det(nn.Linear(3, 1))
    o = cls(m.parameters(), **kw)
    for _ in range(3):
        o.zero_grad()
        F.mse_loss(m(x), y).backward()
        o.step()
    show(cls.__name__, m.weight, m.bias)
try:
    torch.optim.SGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.Adam([])
except ValueError as e:
    print("ValueError", e)
''')

qa("qa_nn_optimizer_state_reload", r'''
import io
def make():
    m = det(nn.Linear(4, 2))
    return m, torch.optim.Adam(m.parameters(), lr=0.05, betas=(0.9, 0.99))
x, y = fixed(6, 4), fixed(6, 2, k=1.0)
def train(m, o, n):
    for _ in range(n):
        o.zero_grad()
        F.mse_loss(m(x), y).backward()
        o.step()
m1, o1 = make()
train(m1, o1, 5)
m2, o2 = make()
train(m2, o2, 2)
buf = io.BytesIO()
torch.save({"m": m2.state_dict(), "o": o2.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
m3, o3 = make()
m3.load_state_dict(ck["m"])
o3.load_state_dict(ck["o"])
print(o3.state[m3.weight]["step"], o3.state[m3.weight]["exp_avg"].shape, o3.state[m3.weight]["step"].dtype)
train(m3, o3, 3)
show(m1.weight - m3.weight, m1.bias)
sd = o3.state_dict()
print(sd["param_groups"])
sd["param_groups"][0]["lr"] = 0.5
o3.load_state_dict(sd)
print(o3.param_groups[0]["lr"], o3.state_dict()["param_groups"][0]["lr"])
bad = o3.state_dict()
bad["param_groups"][0]["params"] = [0]
try:
    o3.load_state_dict(bad)
except ValueError as e:
    print("ValueError", e)
s = torch.optim.SGD(m3.parameters(), lr=0.1, momentum=0.9)
print(s.state_dict()["state"])
train(m3, s, 1)
print(sorted(s.state_dict()["state"][0]))
# (in float64: the strong Wolfe line search turns float32's last-bit differences, e.g. of
# BLAS products, into the 4th digit)
lb = det(nn.Linear(4, 2)).double()
lbfgs = torch.optim.LBFGS(lb.parameters(), lr=1, max_iter=10, history_size=5, line_search_fn="strong_wolfe")
def closure():
    lbfgs.zero_grad()
    loss = F.mse_loss(lb(x.double()), y.double()) + 0.01 * lb.weight.pow(2).sum()
    loss.backward()
    return loss
for _ in range(3):
    loss = lbfgs.step(closure)
show(loss, lb.weight, lb.bias)
print(sorted(lbfgs.state_dict()["state"][0])[:4], lbfgs.state[lb.weight]["n_iter"] if lb.weight in lbfgs.state else lbfgs.state[lbfgs._params[0]]["n_iter"])
''')

qa("qa_nn_lr_scheduler_chains", r'''
from torch.optim import lr_scheduler as S
def opt():
    return torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
def run(o, s, n, metric=None):
    out = []
    for e in range(n):
        o.step()
        s.step() if metric is None else s.step(metric[e])
        out.append(round(s.get_last_lr()[0], 6))
    return out
o = opt()
s = S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=5, eta_min=0.001)], milestones=[3])
print(run(o, s, 9))
o = opt()
s = S.ChainedScheduler([S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=2, gamma=0.5)])
print(run(o, s, 6), [type(x).__name__ for x in s._schedulers])
o = opt()
print(run(o, S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), 10))
o = opt()
s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
print(run(o, s, 9), round(o.param_groups[0]["momentum"], 4))
o = opt()
s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9, cycle_momentum=False)
print(run(o, s, 7))
o = opt()
print(run(o, S.PolynomialLR(o, total_iters=4, power=2.0), 6))
o = opt()
s = S.OneCycleLR(o, max_lr=1.0, total_steps=8, pct_start=0.25, anneal_strategy="linear", three_phase=True)
print(run(o, s, 8), round(o.param_groups[0]["momentum"], 4))
o = opt()
s = S.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.02)
print(run(o, s, 8, metric=[1.0, 1.05, 1.0, 0.9, 0.8, 2.0, 1.0, 1.0]))
o = opt()
s = S.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1))
s2 = S.MultiplicativeLR(o, lr_lambda=lambda e: 0.9)
print(run(o, s2, 3), s.get_last_lr())
o = opt()
s = S.MultiStepLR(o, milestones=[2, 4], gamma=0.1)
run(o, s, 3)
sd = s.state_dict()
print(sorted(sd), sd["last_epoch"], sd["_step_count"], dict(sd["milestones"]))
o2 = opt()
s2 = S.MultiStepLR(o2, milestones=[1], gamma=0.5)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.get_last_lr(), run(o2, s2, 2))
o = torch.optim.SGD([{"params": [nn.Parameter(torch.zeros(1))], "lr": 0.1}, {"params": [nn.Parameter(torch.zeros(1))], "lr": 0.01}])
s = S.LambdaLR(o, [lambda e: 0.5 ** e, lambda e: e + 1])
o.step(); s.step(); o.step(); s.step()
print([round(v, 6) for v in s.get_last_lr()], [g["initial_lr"] for g in o.param_groups])
o = opt()
s = S.ConstantLR(o, factor=0.5, total_iters=2)
print(run(o, s, 4), s.get_last_lr())
try:
    S.SequentialLR(o, [S.StepLR(o, 1)], milestones=[1, 2])
except ValueError as e:
    print("ValueError", e)
''')
