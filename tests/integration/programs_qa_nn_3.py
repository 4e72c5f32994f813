"""QA programs on models and training, continued (see programs_qa_nn.py): training
workflows (language models, seq2seq with attention, VAE, GAN, distillation, SWA,
checkpointing, functional calls, custom autograd layers) and data loading."""
from programs_qa_nn import qa

qa("qa_nn_char_gru_language_model", r'''
text = "hello world, hello mindtorch"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
class CharRNN(nn.Module):
    def __init__(self, v, h):
        super().__init__()
        self.emb = nn.Embedding(v, 8)
        self.rnn = nn.GRU(8, h, num_layers=2, batch_first=True, dropout=0.2)
        self.head = nn.Linear(h, v)
        self.head.weight = nn.Parameter(torch.zeros(v, h))  # re-assigned parameter
    def forward(self, x, h=None):
        out, h = self.rnn(self.emb(x), h)
        return self.head(out), h
model = det(CharRNN(len(chars), 16), scale=0.2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seq = 8
xs = torch.stack([data[i:i + seq] for i in range(0, len(data) - seq - 1, 4)])
ys = torch.stack([data[i + 1:i + seq + 1] for i in range(0, len(data) - seq - 1, 4)])
print(xs.shape, ys.shape)
model.eval()  # dropout off, so both libraries see the same computation
losses = []
for epoch in range(15):
    h = None
    opt.zero_grad()
    logits, h = model(xs)
    loss = F.cross_entropy(logits.reshape(-1, len(chars)), ys.reshape(-1))
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    losses.append(round(loss.item(), 4))
print(losses[0], losses[-1], losses[-1] < losses[0])
show(norm)
with torch.no_grad():
    idx = torch.tensor([[stoi["h"]]])
    h = None
    out = []
    for _ in range(10):
        logits, h = model(idx, h)
        idx = logits[:, -1].argmax(-1, keepdim=True)
        out.append(chars[idx.item()])
print(repr("".join(out)), h.shape)
probs = F.softmax(logits[:, -1] / 0.7, dim=-1)
show(probs.sum(), probs.max())
''')

qa("qa_nn_seq2seq_bahdanau_attention", r'''
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6, padding_idx=0)
        self.rnn = nn.LSTM(6, 5, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(10, 5)
    def forward(self, src, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(src), lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, c) = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        h = torch.tanh(self.bridge(torch.cat((h[0], h[1]), dim=1)))
        return out, h
class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Linear(10 + 5, 5)
        self.v = nn.Linear(5, 1, bias=False)
    def forward(self, hidden, enc, mask):
        L = enc.shape[1]
        hidden = hidden.unsqueeze(1).repeat(1, L, 1)
        energy = torch.tanh(self.W(torch.cat((hidden, enc), dim=2)))
        scores = self.v(energy).squeeze(2).masked_fill(mask == 0, -1e10)
        return F.softmax(scores, dim=1)
class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.att = Attention()
        self.rnn = nn.GRU(6 + 10, 5, batch_first=True)
        self.out = nn.Linear(5 + 10 + 6, 10)
    def forward(self, tok, hidden, enc, mask):
        e = self.emb(tok).unsqueeze(1)
        a = self.att(hidden, enc, mask).unsqueeze(1)
        ctx = torch.bmm(a, enc)
        o, h = self.rnn(torch.cat((e, ctx), dim=2), hidden.unsqueeze(0))
        pred = self.out(torch.cat((o.squeeze(1), ctx.squeeze(1), e.squeeze(1)), dim=1))
        return pred, h.squeeze(0), a.squeeze(1)
enc, dec = det(Encoder()), det(Decoder())
src = torch.tensor([[4, 5, 6, 0], [7, 8, 9, 3], [2, 3, 0, 0]])
lengths = (src != 0).sum(1)
trg = torch.tensor([[1, 4, 5, 2], [1, 7, 8, 2], [1, 2, 3, 2]])
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.SGD(params, lr=0.5, momentum=0.5)
for step in range(4):
    opt.zero_grad()
    enc_out, hidden = enc(src, lengths)
    mask = (src != 0)[:, :enc_out.shape[1]]
    tok = trg[:, 0]
    loss = 0
    for t in range(1, trg.shape[1]):
        pred, hidden, att = dec(tok, hidden, enc_out, mask)
        loss = loss + F.cross_entropy(pred, trg[:, t], ignore_index=0)
        tok = trg[:, t]  # teacher forcing
    loss.backward()
    nn.utils.clip_grad_value_(params, 0.5)
    opt.step()
    show(step, loss)
show(att)
print(enc_out.shape, mask)
''')

qa("qa_nn_vae_and_gan_steps", r'''
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(6, 8), nn.ReLU())
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 6), nn.Sigmoid())
    def forward(self, x, eps):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + eps * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar
vae = det(VAE())
x = (fixed(5, 6) > 0).float()
eps = fixed(5, 2, k=3.0)
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
for i in range(5):
    recon, mu, logvar = vae(x, eps)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = bce + kld
    opt.zero_grad()
    loss.backward()
    opt.step()
show(bce, kld, mu[0])
G = det(nn.Sequential(nn.Linear(3, 6), nn.LeakyReLU(0.2), nn.Linear(6, 4), nn.Tanh()))
D = det(nn.Sequential(nn.Linear(4, 6), nn.LeakyReLU(0.2), nn.Linear(6, 1)))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = fixed(4, 4, k=1.0)
noise = fixed(4, 3, k=2.0)
for it in range(3):
    fake = G(noise)
    optD.zero_grad()
    lossD = crit(D(real), torch.ones(4, 1)) + crit(D(fake.detach()), torch.zeros(4, 1))
    lossD.backward()
    optD.step()
    optG.zero_grad()
    lossG = crit(D(fake), torch.ones(4, 1))
    lossG.backward()
    optG.step()
    show(it, lossD, lossG)
print(all(p.grad is not None for p in D.parameters()), G[0].weight.grad.abs().sum().item() > 0)
for p in D.parameters():
    p.requires_grad_(False)
lossG = crit(D(G(noise)), torch.ones(4, 1))
lossG.backward()
print(D[0].weight.requires_grad, lossG.requires_grad)
''')

qa("qa_nn_distillation_and_metric_learning", r'''
teacher = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 3)), scale=0.5).eval()
student = det(nn.Sequential(nn.Linear(5, 3)), scale=0.1)
x = fixed(6, 5)
y = torch.tensor([0, 1, 2, 1, 0, 2])
T = 3.0
opt = torch.optim.SGD(student.parameters(), lr=0.3)
for _ in range(4):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * T * T
    hard = F.cross_entropy(s_logits, y)
    loss = 0.7 * soft + 0.3 * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
show(soft, hard, student[0].bias)
print(t_logits.requires_grad, s_logits.requires_grad)
emb = det(nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 3)))
a, p, n = emb(x[:2]), emb(x[2:4]), emb(x[4:])
dist = lambda u, v: 1.0 - F.cosine_similarity(u, v)
l1 = nn.TripletMarginWithDistanceLoss(distance_function=dist, margin=0.3)(a, p, n)
l2 = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1.5), swap=True)(a, p, n)
l3 = nn.TripletMarginLoss(margin=1.0, p=2, eps=1e-6)(a, p, n)
(l1 + l2 + l3).backward()
show(l1, l2, l3, emb[0].bias.grad)
show(F.pairwise_distance(a, p, keepdim=True), torch.cdist(a, p, p=2), torch.cdist(a, n, p=1))
show(F.normalize(a, dim=1), F.normalize(a, p=1, dim=0))
sim = F.normalize(a, dim=1) @ F.normalize(p, dim=1).T
show(F.cross_entropy(sim / 0.1, torch.arange(2)))
''')

qa("qa_nn_swa_and_ema", r'''
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)))
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
x, y = fixed(8, 3), fixed(8, 1, k=1.0)
for epoch in range(4):
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    sched.step()
    print(epoch, round(sched.get_last_lr()[0], 6), int(swa.n_averaged))
show(swa.module[0].weight[0], ema.module[3].bias)
print(sorted(swa.state_dict())[:3], swa.n_averaged.dtype)
loader = [(x[:4], y[:4]), (x[4:], y[4:])]
update_bn(loader, swa)
show(swa.module[1].running_mean, swa.module[1].running_var, swa.module[1].num_batches_tracked)
swa.eval()
show(swa(x)[:3, 0])
''')

qa("qa_nn_functional_call_and_vectors", r'''
from torch.func import functional_call
from torch.nn.utils import parameters_to_vector, vector_to_parameters
m = det(nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)))
x = fixed(4, 3)
params = {k: v * 2 for k, v in m.named_parameters()}
out = functional_call(m, params, (x,))
show(out[0], m[1].running_mean)
out2 = functional_call(m, ({"0.weight": torch.zeros(2, 3)}, dict(m.named_buffers())), x, strict=False)
show(out2[0])
vec = parameters_to_vector(m.parameters())
print(vec.shape)
vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32) / 10, m.parameters())
show(m[0].weight, m[1].bias)
w = {k: v.detach().clone().requires_grad_() for k, v in m.named_parameters()}
loss = functional_call(m, w, (x,)).pow(2).sum()
g = torch.autograd.grad(loss, list(w.values()))
show(g[0], g[-1])
from torch.nn.utils import stateless
with torch.no_grad():
    o3 = stateless.functional_call(m, {"0.bias": torch.ones(2)}, (x,))
show(o3[1])
m.eval()
print(functional_call(m, {}, x).shape, m.training)
''')

qa("qa_nn_checkpoint_and_accumulation", r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 4))
    def forward(self, x):
        return x + checkpoint(self.f, x, use_reentrant=False)
net = det(nn.Sequential(Block(), Block(), nn.Linear(4, 1)))
ref = det(nn.Sequential(Block(), Block(), nn.Linear(4, 1)))
x = fixed(6, 4).requires_grad_()
net(x).sum().backward()
show(net[0].f[0].weight.grad[0], x.grad[0])
seq = det(nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh()))
xs = fixed(3, 4, k=1.0).requires_grad_()
out = checkpoint_sequential(seq, 2, xs, use_reentrant=False)
out.sum().backward()
show(out[0], seq[2].bias.grad, xs.grad[1])
model = det(nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = fixed(8, 4, k=2.0)
target = fixed(8, 2, k=3.0)
accum = 4
opt.zero_grad()
for i in range(8):
    loss = F.mse_loss(model(data[i:i + 1]), target[i:i + 1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        total = nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=2.0, foreach=True)
        opt.step()
        opt.zero_grad()
        show(i, total)
show(model.weight)
p = nn.Parameter(torch.ones(2))
p.grad = torch.tensor([float("inf"), 1.0])
try:
    nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(nn.utils.clip_grad_norm_([p], 1.0))
q = nn.Parameter(torch.ones(3))
q.grad = torch.tensor([3.0, -4.0, 0.0])
norms = nn.utils.get_total_norm([q.grad], norm_type=float("inf"))
nn.utils.clip_grads_with_norm_([q], 2.0, torch.tensor(5.0))
print(norms, q.grad)
print(nn.utils.clip_grad_norm_([], 1.0))
''')

qa("qa_nn_custom_autograd_layers", r'''
class STEQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return torch.round(x * scale) / scale
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x.abs() <= 1).to(g.dtype), None
class ClampGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g.clamp(-0.1, 0.1)
class Gated(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.mark_non_differentiable(b)
        out = a * b.float()
        ctx.save_for_backward(b)
        return out, b
    @staticmethod
    def backward(ctx, g, gb):
        (b,) = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        return g * b.float(), None
class QLinear(nn.Linear):
    def forward(self, x):
        return F.linear(STEQuant.apply(x, 4.0), STEQuant.apply(self.weight, 8.0), self.bias)
m = det(QLinear(3, 2), scale=0.8)
x = fixed(4, 3, scale=1.5).requires_grad_()
y = ClampGrad.apply(m(x))
y.pow(2).sum().backward()
show(y, x.grad, m.weight.grad)
print(type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0].__class__.__name__)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
o, mask = Gated.apply(a, torch.tensor([True, False, True]))
print(o.requires_grad, mask.requires_grad)
o.sum().backward()
print(a.grad)
class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g
z = torch.tensor([1.5, -2.0], requires_grad=True)
w = Square.apply(z)
(gz,) = torch.autograd.grad(w.sum(), z, create_graph=True)
print(w, gz)
print(torch.autograd.gradcheck(Square.apply, (torch.tensor([0.3, -0.7], dtype=torch.double, requires_grad=True),)))
''')

qa("qa_nn_pooling_unpooling", r'''
x = fixed(1, 2, 5, 6, scale=2.0)
mp = nn.MaxPool2d(2, stride=2, return_indices=True, ceil_mode=True)
y, idx = mp(x)
show(y[0, 0])
print(idx[0, 1])
un = nn.MaxUnpool2d(2, stride=2)
show(un(y, idx, output_size=x.shape)[0, 0])
y1, i1 = F.max_pool1d(x[0], 3, stride=2, padding=1, dilation=1, return_indices=True)
show(y1[0], F.max_unpool1d(y1, i1, 3, stride=2, padding=1, output_size=[6])[1])
show(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)[0, 0],
     F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, divisor_override=2)[0, 1])
show(F.lp_pool2d(x.abs(), 2.0, (2, 3))[0, 0], F.lp_pool1d(x[0].abs(), 3.0, 2)[1])
ap, ai = F.adaptive_max_pool2d(x, (2, 4), return_indices=True)
show(ap[0, 0], F.adaptive_avg_pool2d(x, (3, None))[0, 1])
print(ai[0, 0])
show(F.adaptive_avg_pool1d(x[0], 4)[0], F.adaptive_max_pool1d(x[0], 1).squeeze(-1))
x3 = fixed(1, 1, 4, 4, 4)
show(F.max_pool3d(x3, 2)[0, 0, 1], F.avg_pool3d(x3, (2, 1, 2), stride=(2, 2, 1)).shape, F.adaptive_avg_pool3d(x3, 1).flatten())
xr = x.clone().requires_grad_()
(F.max_pool2d(xr, 2) + 0).sum().backward()
show(xr.grad[0, 0])
try:
    F.max_pool2d(x, 7)
except RuntimeError as e:
    print("RuntimeError", e)
print(nn.MaxPool2d(3, 2, 1, dilation=2, ceil_mode=True), nn.AvgPool1d(2, count_include_pad=False), nn.AdaptiveMaxPool2d((None, 3), return_indices=True))
''')

qa("qa_nn_profiled_training_and_parallel_checkpoint", r'''
import io
from torch.profiler import profile, record_function, schedule, ProfilerActivity
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = fixed(6, 4), torch.tensor([0, 1, 1, 0, 1, 0])
traces = []
def ready(prof):
    traces.append(sorted((e.key, e.count) for e in prof.key_averages() if e.key in ("forward", "backward", "step")))
with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
             on_trace_ready=ready) as prof:
    for it in range(5):
        with record_function("forward"):
            loss = F.cross_entropy(model(x), y)
        with record_function("backward"):
            opt.zero_grad()
            loss.backward()
        with record_function("step"):
            opt.step()
        prof.step()
print(traces, prof.step_num)
show(loss)
dp = nn.DataParallel(model)
show(dp(x)[0])
buf = io.BytesIO()
torch.save({"model": dp.state_dict()}, buf)
buf.seek(0)
sd = torch.load(buf)["model"]
print(list(sd)[:2])
consume_prefix_in_state_dict_if_present(sd, "module.")
fresh = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(fresh.load_state_dict(sd), list(sd)[:2])
show(fresh(x)[0])
''')

qa("qa_nn_torch_func_per_sample_grads", r'''
from torch.func import functional_call, vmap, grad, grad_and_value, jacrev, jacfwd, hessian, vjp, jvp
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    out = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.cross_entropy(out, target.unsqueeze(0))
data, targets = fixed(5, 3), torch.tensor([0, 1, 1, 0, 1])
per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
show(per_sample["2.bias"], per_sample["0.weight"][3, 1])
model.zero_grad()
F.cross_entropy(model(data), targets, reduction="sum").backward()
show((per_sample["0.weight"].sum(0) - model[0].weight.grad).abs().max() < 1e-6)
g, value = grad_and_value(compute_loss)(params, buffers, data[0], targets[0])
show(value, g["2.weight"][0])
ntk = jacrev(lambda p, x: functional_call(model, p, (x,)))(params, data[:2])
print({k: tuple(v.shape) for k, v in ntk.items()})
show(ntk["2.bias"][1])
J = vmap(jacrev(model))(data)
print(J.shape, J.requires_grad)
penalty = J.pow(2).sum()
model.zero_grad()
penalty.backward()
show(penalty, model[0].bias.grad)
f = lambda x: (x.sin() * x).sum()
x = fixed(3, k=1.0)
show(hessian(f)(x), jacfwd(jacrev(f))(x).diagonal())
out, vjp_fn = vjp(torch.tanh, x)
show(out, vjp_fn(torch.ones(3))[0])
show(*jvp(torch.exp, (x,), (torch.ones(3),)))
print(grad(grad(lambda t: t ** 3))(torch.tensor(2.0)))
''')

qa("qa_nn_rl_policies_and_mixture_density", r'''
from torch.distributions import (Categorical, Normal, TransformedDistribution, TanhTransform,
                                 MixtureSameFamily, Independent, OneHotCategorical, kl_divergence)
policy = det(nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3)))
value = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)))
opt = torch.optim.Adam(list(policy.parameters()) + list(value.parameters()), lr=0.01)
states, actions = fixed(6, 4), torch.tensor([0, 2, 1, 1, 0, 2])
rewards = torch.tensor([1.0, 0.0, 0.5, -1.0, 2.0, 0.3])
returns, R = [], 0.0
for rw in reversed(rewards.tolist()):
    R = rw + 0.99 * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
for it in range(3):
    dist = Categorical(logits=policy(states))
    v = value(states).squeeze(-1)
    adv = returns - v.detach()
    loss = -(dist.log_prob(actions) * adv).mean() + F.smooth_l1_loss(v, returns) - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(it, loss, dist.probs[0])
actor = det(nn.Linear(4, 4)).double()  # (float64: float32 atanh/exp differ by an ulp)
mu, log_std = actor(states.double()).chunk(2, dim=-1)
pi = TransformedDistribution(Normal(mu, log_std.clamp(-5, 2).exp()), [TanhTransform(cache_size=1)])
a = torch.tanh(fixed(6, 2, k=1.0).double())
logp = pi.log_prob(a).sum(-1)
logp.mean().backward()
show(logp, actor.weight.grad[0])
print(pi.batch_shape, pi.event_shape, pi.support, pi.has_rsample)
sampled = pi.rsample()
print(sampled.shape, bool((sampled.abs() <= 1).all()), bool(pi.log_prob(sampled).isfinite().all()))
show(kl_divergence(Normal(mu, log_std.exp()), Normal(torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64))).sum(-1))
mdn = det(nn.Linear(1, 9))
x = torch.linspace(-1, 1, 5).unsqueeze(1)
y = torch.sin(3 * x)
params = mdn(x)
logits, means, log_scales = params[:, :3], params[:, 3:6], params[:, 6:]
gmm = MixtureSameFamily(Categorical(logits=logits), Normal(means, log_scales.exp()))
nll = -gmm.log_prob(y.squeeze(1)).mean()
nll.backward()
show(nll, gmm.mean, gmm.variance, mdn.bias.grad)
print(gmm.batch_shape, gmm.event_shape, gmm.sample((2,)).shape)
oh = OneHotCategorical(logits=logits)
show(oh.log_prob(torch.eye(3)[[0, 1, 2, 0, 1]]), oh.entropy(), oh.mode[0])
iv = MixtureSameFamily(Categorical(logits=torch.tensor([0.2, -0.4])),
                       Independent(Normal(torch.tensor([[0.0, 1.0], [2.0, -1.0]]), torch.tensor([[1.0, 0.5], [0.7, 0.9]])), 1))
show(iv.log_prob(torch.tensor([[0.5, 0.5], [1.0, -1.0]])), iv.mean)
''')
