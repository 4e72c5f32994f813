"""QA programs on models and training, continued (see programs_qa_nn.py): data pipelines,
higher-order gradients in training (gradient penalty, physics-informed losses), model
surgery, optimiser hooks, message passing, text CNNs; the known gaps at the end."""
from programs_qa_nn import qa

qa("qa_nn_data_pipeline_samplers", r'''
from collections import namedtuple
from torch.utils.data import (Dataset, IterableDataset, DataLoader, Sampler, BatchSampler, TensorDataset,
                              ConcatDataset, Subset, StackDataset, ChainDataset, random_split,
                              WeightedRandomSampler, RandomSampler, get_worker_info, default_collate)
Item = namedtuple("Item", ["x", "y", "meta"])
class Toy(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return Item(torch.full((2,), float(i)), i % 3, {"id": i, "name": f"s{i}"})
class LengthBucketSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.lengths, self.batch_size = lengths, batch_size
    def __iter__(self):
        order = sorted(range(len(self.lengths)), key=lambda i: (self.lengths[i], i))
        for s in range(0, len(order), self.batch_size):
            yield order[s:s + self.batch_size]
    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size
ds = Toy(7)
for b in DataLoader(ds, batch_sampler=LengthBucketSampler([5, 1, 4, 1, 3, 2, 6], 3)):
    print(type(b).__name__, b.x[:, 0], b.y, b.meta["id"], b.meta["name"])
loader = DataLoader(ds, batch_size=3, drop_last=True)
print(len(loader), [len(b.y) for b in loader])
print(default_collate([{"a": torch.tensor(1), "b": [1.0, 2.0]}, {"a": torch.tensor(2), "b": [3.0, 4.0]}]))
g1, g2 = torch.Generator().manual_seed(7), torch.Generator().manual_seed(7)
w = [0.1, 0.0, 5.0, 1.0]
s1 = list(WeightedRandomSampler(w, 20, replacement=True, generator=g1))
s2 = list(WeightedRandomSampler(w, 20, replacement=True, generator=g2))
print(s1 == s2, 1 not in s1, len(s1))
s3 = list(WeightedRandomSampler(w, 3, replacement=False, generator=torch.Generator().manual_seed(1)))
print(sorted(s3), len(set(s3)))
parts = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts], sorted(sum((list(p) for p in parts), [])))
try:
    random_split(range(10), [5, 6])
except ValueError as e:
    print("ValueError", e)
a = TensorDataset(torch.arange(4), torch.arange(4) * 10)
c = ConcatDataset([a, a])
print(len(c), c[5], c.cumulative_sizes, Subset(Subset(c, [1, 5, 6]), [2, 0])[0])
st = StackDataset(a, torch.arange(4) * 100)
print(len(st), st[2])
stk = StackDataset(x=a, y=list("abcd"))
print(stk[1])
class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        info = get_worker_info()
        lo, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(lo, self.n, step))
print(sorted(int(v) for b in DataLoader(Stream(9), batch_size=2, num_workers=2) for v in b))
print([b.tolist() for b in DataLoader(ChainDataset([Stream(3), Stream(2)]), batch_size=2)])
rs = RandomSampler(range(5), generator=torch.Generator().manual_seed(3))
print(sorted(rs), len(rs), len(list(BatchSampler(rs, 2, False))))
def seeded(worker_id):
    info = get_worker_info()
    assert info.id == worker_id
dl = DataLoader(TensorDataset(torch.arange(6.0)), batch_size=2, num_workers=2, worker_init_fn=seeded,
                persistent_workers=True, collate_fn=lambda b: torch.stack([t[0] for t in b]))
for epoch in range(2):
    print(epoch, [b.tolist() for b in dl])
''')

qa("qa_nn_gradient_penalty_and_pinn", r'''
D = det(nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1)))
real, fake = fixed(4, 3), fixed(4, 3, k=2.0)
alpha = torch.tensor([[0.2], [0.5], [0.7], [0.9]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out),
                            create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = D(fake).mean() - D(real).mean() + 10 * gp
loss.backward()
show(gp, loss, D[0].weight.grad[0], D[4].bias.grad)
u = det(nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Softplus(), nn.Linear(8, 1)))
xt = fixed(5, 2, k=1.0).requires_grad_()
y = u(xt)
dy = torch.autograd.grad(y.sum(), xt, create_graph=True)[0]
dyy = torch.autograd.grad(dy[:, 0].sum(), xt, create_graph=True)[0]
residual = dy[:, 1] - 0.1 * dyy[:, 0]
pde = residual.pow(2).mean()
pde.backward()
show(dy[0], dyy[0], pde, u[0].weight.grad[1])
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp
f = lambda inp: u(inp).squeeze(-1)
J = jacobian(f, fixed(3, 2))
print(J.shape)
show(J[1, 1])
H = hessian(lambda v: u(v.unsqueeze(0)).sum(), fixed(2, k=2.0))
show(H)
show(vjp(f, fixed(3, 2), torch.ones(3))[1][0], jvp(f, fixed(3, 2), torch.ones(3, 2))[1], hvp(lambda v: u(v.unsqueeze(0)).sum(), fixed(2), torch.ones(2))[1])
show(torch.autograd.functional.jacobian(lambda a, b: a * b + b, (torch.ones(2), torch.arange(2.0)), vectorize=False)[1])
''')

qa("qa_nn_model_surgery_and_freezing", r'''
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(4, 10)
    def forward(self, x):
        return self.classifier(self.features(x))
pre = det(Backbone())
model = Backbone()
model.load_state_dict(pre.state_dict())
model.classifier = nn.Linear(4, 3)
det(model.classifier, scale=0.5)
for name, p in model.named_parameters():
    p.requires_grad = name.startswith("classifier")
print([n for n, p in model.named_parameters() if p.requires_grad])
model.features[2] = nn.LeakyReLU(0.1)
setattr(model.features, "1", nn.Identity())
print(model.features)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]["params"]))
x = fixed(2, 1, 5, 5)
loss = F.cross_entropy(model(x), torch.tensor([0, 2]))
loss.backward()
opt.step()
print(model.features[0].weight.grad, model.classifier.weight.grad.shape)
show(loss, model.classifier.bias)
partial = {k: v for k, v in pre.state_dict().items() if not k.startswith("classifier")}
r = model.load_state_dict(partial, strict=False)
print(r.missing_keys, r.unexpected_keys)
big = Backbone()
try:
    big.load_state_dict(model.state_dict())
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0])
m2 = Backbone()
res = m2.load_state_dict(pre.state_dict(), assign=True)
print(m2.classifier.weight is pre.state_dict()["classifier.weight"], type(m2.classifier.weight).__name__, m2.classifier.weight.requires_grad)
sd = pre.state_dict(keep_vars=True)
print(type(sd["classifier.weight"]).__name__, sd["classifier.weight"].requires_grad, sd._metadata[""]["version"] if "" in sd._metadata else None)
print(sorted(sd._metadata)[:3], sd._metadata["features.1"])
pre.eval()
for m in pre.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.train()
print([m.training for m in pre.modules()])
pre.zero_grad()
print(all(p.grad is None for p in pre.parameters()))
''')

qa("qa_nn_optimizer_hooks_and_closures", r'''
m = det(nn.Linear(3, 1))
opt = torch.optim.Adam(m.parameters(), lr=0.1)
log = []
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", len(o.state))))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", len(o.state))))
x, y = fixed(4, 3), fixed(4, 1, k=1.0)
def closure():
    opt.zero_grad()
    l = F.mse_loss(m(x), y)
    l.backward()
    return l
l0 = opt.step(closure)
l1 = opt.step(closure)
show(l0, l1)
print(log)
h1.remove(); h2.remove()
opt.step(closure)
print(len(log))
def sd_post(o, sd):
    sd["extra"] = 1
    return sd
opt.register_state_dict_post_hook(sd_post)
print(sorted(opt.state_dict()))
def load_pre(o, sd):
    sd = dict(sd)
    sd.pop("extra", None)
    log.append("load_pre")
    return sd
opt.register_load_state_dict_pre_hook(load_pre)
opt.register_load_state_dict_post_hook(lambda o: log.append("load_post"))
opt.load_state_dict(opt.state_dict())
print(log[-2:])
fresh = det(nn.Linear(3, 1))
o2 = torch.optim.SGD([{"params": [fresh.weight]}, {"params": [fresh.bias], "lr": 0.0}], lr=0.2, momentum=0.9)
for _ in range(3):
    o2.zero_grad()
    F.mse_loss(fresh(x), y).backward()
    o2.step()
show(fresh.weight, fresh.bias)
print(sorted(o2.state_dict()["state"]), o2.state_dict()["param_groups"][1]["lr"])
frozen = nn.Parameter(torch.ones(2))
o3 = torch.optim.Adam([frozen, nn.Parameter(torch.zeros(2))], lr=0.1)
o3.step()
print(len(o3.state), frozen.tolist())
try:
    torch.optim.SGD([frozen, frozen], lr=0.1)
except Exception as e:
    print(type(e).__name__)
print(torch.optim.Optimizer.__name__, isinstance(opt, torch.optim.Optimizer), opt.__class__.__name__)
''')

qa("qa_nn_graph_message_passing", r'''
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 4]])
num_nodes = 5
x = fixed(num_nodes, 3)
class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.bias = nn.Parameter(torch.zeros(o))
    def forward(self, x, edge_index):
        loops = torch.arange(x.shape[0]).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        src, dst = ei
        deg = torch.zeros(x.shape[0]).index_add_(0, dst, torch.ones(ei.shape[1]))
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        out = torch.zeros(x.shape[0], h.shape[1]).index_add_(0, dst, h[src] * norm.unsqueeze(1))
        return out + self.bias
class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Linear(3, 4, bias=False)
        self.a = nn.Parameter(torch.ones(8) * 0.1)
    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.W(x)
        e = F.leaky_relu(torch.cat([h[src], h[dst]], 1) @ self.a, 0.2)
        e = e - torch.zeros(num_nodes).scatter_reduce(0, dst, e, "amax", include_self=False)[dst]
        w = e.exp()
        denom = torch.zeros(num_nodes).scatter_add(0, dst, w)
        alpha = w / denom[dst]
        return torch.zeros(num_nodes, 4).index_add(0, dst, alpha.unsqueeze(1) * h[src]), alpha
g1 = det(GCNLayer(3, 4))
gat = det(GAT())
h = F.relu(g1(x, edge_index))
o, alpha = gat(x, edge_index)
show(h, o[2], alpha)
pool = torch.zeros(2, 4).index_reduce(0, torch.tensor([0, 0, 1, 1, 1]), h, "mean", include_self=False)
show(pool)
loss = F.cross_entropy(pool, torch.tensor([1, 0])) + o.pow(2).mean()
loss.backward()
show(g1.lin.weight.grad, gat.a.grad)
adj = torch.zeros(num_nodes, num_nodes)
adj[edge_index[0], edge_index[1]] = 1.0
show(adj.sum(0), torch.linalg.matrix_power(adj, 3).diagonal())
seg = torch.tensor([0, 0, 1, 1, 1])
show(torch.zeros(2).scatter_reduce(0, seg, h[:, 0], "amax", include_self=False), torch.zeros(2, 4).index_reduce(0, seg, h, "prod"))
''')

qa("qa_nn_text_cnn_classifier", r'''
class TextCNN(nn.Module):
    def __init__(self, vocab, dim, n_filters, sizes, classes):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(dim, n_filters, k) for k in sizes])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(len(sizes) * n_filters, classes)
    def forward(self, text):
        e = self.embedding(text).permute(0, 2, 1)
        conved = [F.relu(c(e)) for c in self.convs]
        pooled = [F.max_pool1d(c, c.shape[2]).squeeze(2) for c in conved]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))
model = det(TextCNN(20, 6, 3, [2, 3, 4], 2))
text = torch.tensor([[3, 5, 7, 9, 2, 0, 0], [11, 4, 6, 8, 10, 12, 1], [1, 2, 3, 0, 0, 0, 0]])
labels = torch.tensor([1, 0, 1])
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
model.eval()
for epoch in range(5):
    opt.zero_grad()
    logits = model(text)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
acc = (logits.argmax(1) == labels).float().mean()
show(loss, acc, logits)
print(model.embedding.weight.grad[0].abs().sum().item())
probs = torch.sigmoid(logits[:, 1] - logits[:, 0])
preds = (probs > 0.5).long()
tp = ((preds == 1) & (labels == 1)).sum()
print(tp.item(), torch.bincount(preds * 2 + labels, minlength=4).reshape(2, 2))
top = logits.topk(1, dim=1)
print(top.indices.flatten().tolist(), type(top).__name__)
model.train()
print(model.dropout.training, model(text).shape)
''')

qa("qa_nn_transformer_classifier_training", r'''
import math
class PositionalEncoding(nn.Module):
    def __init__(self, d, max_len=32):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, 1, d)
        pe[:, 0, 0::2] = torch.sin(pos * div)
        pe[:, 0, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
    def forward(self, x):
        return x + self.pe[:x.size(0)]
class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(16, 8, padding_idx=0)
        self.pos = PositionalEncoding(8)
        layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=F.gelu)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(8, 2)
    def forward(self, tokens):
        pad = tokens == 0
        h = self.pos(self.emb(tokens).transpose(0, 1) * math.sqrt(8))
        h = self.enc(h, src_key_padding_mask=pad).transpose(0, 1)
        keep = (~pad).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))
model = det(Classifier(), scale=0.2)
print(sorted(model.state_dict())[-4:], model.pos.pe.shape)
tokens = torch.tensor([[5, 6, 7, 0], [8, 9, 10, 11], [12, 13, 0, 0]])
labels = torch.tensor([0, 1, 0])
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(model(tokens), labels, label_smoothing=0.1)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    show(step, loss, sched.get_last_lr()[0])
model.eval()
with torch.inference_mode():
    show(model(tokens).softmax(-1))
''')

qa("qa_nn_meta_learning_and_sam", r'''
from torch.func import functional_call
net = det(nn.Sequential(nn.Conv1d(1, 3, 3, padding=1, bias=False), nn.BatchNorm1d(3), nn.ReLU(), nn.Flatten(),
                        nn.LayerNorm(15), nn.Linear(15, 2)))
meta = torch.optim.Adam(net.parameters(), lr=0.01)
xs, ys = fixed(4, 1, 5), torch.tensor([0, 1, 0, 1])
xq, yq = fixed(4, 1, 5, k=1.0), torch.tensor([1, 0, 1, 0])
for it in range(2):
    params = dict(net.named_parameters())
    loss = F.cross_entropy(functional_call(net, params, (xs,)), ys)
    grads = torch.autograd.grad(loss, params.values(), create_graph=True)
    fast = {k: v - 0.4 * g for (k, v), g in zip(params.items(), grads)}
    qloss = F.cross_entropy(functional_call(net, fast, (xq,)), yq)
    meta.zero_grad()
    qloss.backward()
    meta.step()
    show(qloss, net[0].weight.grad.flatten(), net[4].weight.grad[:4], net[1].running_mean)
print(net[1].num_batches_tracked, grads[0].requires_grad, fast["5.bias"].grad_fn.__class__.__name__)
log_lr = torch.tensor(-2.0, requires_grad=True)
hyper = torch.optim.Adam([log_lr], lr=0.05)
for outer in range(3):
    w = fixed(3, k=2.0).double().requires_grad_().clone()
    inner = torch.optim.SGD([w], lr=log_lr.exp(), differentiable=True)
    for _ in range(2):
        (w.grad,) = torch.autograd.grad((w - 1).pow(2).sum(), w, create_graph=True)
        inner.step()
    val = (w - 1).pow(2).sum()
    hyper.zero_grad()
    val.backward()
    hyper.step()
    show(val, log_lr.grad, log_lr)
for name in ("Adam", "NAdam", "Adagrad"):
    w0 = fixed(3, k=3.0).double().requires_grad_()
    w = w0.clone()
    inner = getattr(torch.optim, name)([w], lr=0.1, differentiable=True)
    for _ in range(2):
        (w.grad,) = torch.autograd.grad((w * 1.0).pow(4).sum(), w, create_graph=True)
        inner.step()
    w.sum().backward()
    show(name, w, w0.grad)
m = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)))
base = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = fixed(6, 3), fixed(6, 1, k=2.0)
for step in range(2):
    F.mse_loss(m(x), y).backward()
    norm = torch.norm(torch.stack([p.grad.norm(2) for p in m.parameters()]), 2)
    eps = []
    with torch.no_grad():
        for p in m.parameters():
            e = p.grad * 0.05 / (norm + 1e-12)
            p.add_(e)
            eps.append(e)
    base.zero_grad()
    l2 = F.mse_loss(m(x), y)
    l2.backward()
    with torch.no_grad():
        for p, e in zip(m.parameters(), eps):
            p.sub_(e)
    base.step()
    base.zero_grad()
    show(norm, l2, m[0].weight[0])
''')

qa("qa_nn_gradient_reversal_and_compile", r'''
import io
from torch.utils.checkpoint import checkpoint
class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)
    @staticmethod
    def backward(ctx, grad):
        return grad.neg() * ctx.lambd, None
feat, cls, dom = det(nn.Linear(3, 4)), det(nn.Linear(4, 2)), det(nn.Linear(4, 2))
x = fixed(5, 3)
f = feat(x)
r = GradReverse.apply(f, 0.5)
print(type(r.grad_fn).__name__, r._base is f, r.requires_grad)
loss = F.cross_entropy(cls(f), torch.tensor([0, 1, 0, 1, 1])) + F.cross_entropy(dom(r), torch.tensor([0, 0, 1, 1, 1]))
loss.backward()
show(feat.weight.grad, dom.bias.grad)
h = feat(x)
h.relu_()
r2 = GradReverse.apply(h, 1.0)
r2.sum().backward()
print(type(r2.grad_fn).__name__, r2._version)
show(feat.bias.grad)
seq = det(nn.Sequential(nn.Linear(3, 3), nn.ReLU(inplace=True)))
seq.register_full_backward_hook(lambda m, gi, go: show("hook", gi[0].sum(), go[0].sum()))
xin = x.clone().requires_grad_()
o = seq(xin)
print(type(o.grad_fn).__name__)
o.sum().backward()
show(xin.grad.sum())
y = checkpoint(feat, x.requires_grad_(), use_reentrant=True)
print(type(y.grad_fn).__name__, checkpoint(feat, fixed(2, 3), use_reentrant=True).requires_grad)
model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
compiled = torch.compile(model)
print(compiled)
print(type(compiled).__name__, compiled._orig_mod is model, list(compiled.state_dict())[:2])
opt = torch.optim.SGD(compiled.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    F.cross_entropy(compiled(x), torch.tensor([0, 1, 0, 1, 1])).backward()
    opt.step()
show(model[0].bias)
compiled.eval()
print(model.training, compiled.training)
buf = io.BytesIO()
torch.save(compiled.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(fresh.load_state_dict({k.removeprefix("_orig_mod."): v for k, v in sd.items()}))
@torch.compile(mode="reduce-overhead", fullgraph=True)
def step(a):
    return a.sin() + 1
show(step(fixed(3)))
print(step.__name__)
''')

qa("qa_nn_custom_optimizer_scheduler_and_ema", r'''
import copy
import math
class Lion(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        if lr <= 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.mul_(1 - group["lr"] * group["weight_decay"])
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                exp_avg = state["exp_avg"]
                b1, b2 = group["betas"]
                update = exp_avg * b1 + p.grad * (1 - b1)
                p.add_(torch.sign(update), alpha=-group["lr"])
                exp_avg.mul_(b2).add_(p.grad, alpha=1 - b2)
        return loss
class WarmupCosine(torch.optim.lr_scheduler.LRScheduler):
    def __init__(self, optimizer, warmup, total, last_epoch=-1):
        self.warmup, self.total = warmup, total
        super().__init__(optimizer, last_epoch)
    def get_lr(self):
        e = self.last_epoch
        if e < self.warmup:
            return [b * (e + 1) / self.warmup for b in self.base_lrs]
        t = (e - self.warmup) / max(1, self.total - self.warmup)
        return [b * 0.5 * (1 + math.cos(math.pi * t)) for b in self.base_lrs]
model = det(nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 1)))
ema = copy.deepcopy(model).requires_grad_(False)
opt = Lion(model.parameters(), lr=0.05, weight_decay=0.1)
sched = WarmupCosine(opt, warmup=2, total=6)
print(opt)
x, y = fixed(8, 3), fixed(8, 1, k=1.0)
for step in range(6):
    loss = opt.step(lambda: (opt.zero_grad(), F.mse_loss(model(x), y))[1].backward() or F.mse_loss(model(x), y))
    sched.step()
    with torch.no_grad():
        ema_p, model_p = list(ema.parameters()), list(model.parameters())
        torch._foreach_lerp_(ema_p, model_p, 0.2)
        norms = torch._foreach_norm([p.grad for p in model.parameters()])
    show(step, loss, sched.get_last_lr()[0], torch.stack(norms).sum())
show(model[0].weight[0], ema[2].bias, ema(x)[:3, 0])
print(sorted(opt.state_dict()["state"][0]), sorted(sched.state_dict()))
with torch.no_grad():
    params = list(model.parameters())
    torch._foreach_mul_(params, 0.5)
    torch._foreach_add_(params, [torch.ones_like(p) for p in params], alpha=0.1)
    scaled = torch._foreach_div(params, 2.0)
show(params[1], scaled[1], torch._foreach_max(params)[0])
try:
    Lion(model.parameters(), lr=0)
except ValueError as e:
    print("ValueError", e)
''')

qa("qa_nn_probabilistic_heads", r'''
from torch.distributions import (StudentT, Gumbel, HalfNormal, Cauchy, Binomial, Multinomial, Geometric,
                                 RelaxedOneHotCategorical, RelaxedBernoulli, Chi2, HalfCauchy)
x = torch.linspace(-2, 2, 8).unsqueeze(1).double()
y = (0.7 * x + 0.2 + 0.3 * torch.sin(5 * x)).squeeze(1)
head = det(nn.Linear(1, 3)).double()
opt = torch.optim.Adam(head.parameters(), lr=0.05)
for step in range(5):
    loc, log_scale, log_df = head(x).unbind(-1)
    dist = StudentT(F.softplus(log_df) + 1.0, loc, log_scale.exp())
    nll = -dist.log_prob(y).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    show(step, nll)
show(dist.mean[:3], dist.variance[:3], dist.entropy()[:3])
print(dist, dist.support, dist.batch_shape)
logits = det(nn.Linear(2, 3)).double()(fixed(4, 2).double())
temp = torch.tensor(0.7, dtype=torch.float64)
g = RelaxedOneHotCategorical(temp, logits=logits)
soft = torch.softmax(logits, -1)
show(g.log_prob(soft), g.probs[0])
print(g.rsample().shape, g.support, g.has_rsample)
rb = RelaxedBernoulli(temp, logits=logits[:, 0])
show(rb.log_prob(torch.sigmoid(logits[:, 1])))
v = torch.tensor([0.5, 1.5, 3.0], dtype=torch.float64)
for d in (Gumbel(v, v), HalfNormal(v), Cauchy(v, v), HalfCauchy(v), Chi2(v)):
    show(type(d).__name__, d.log_prob(v), d.cdf(v), d.entropy() if not isinstance(d, Chi2) else d.mean)
counts = torch.tensor([[1.0, 2.0, 2.0], [0.0, 0.0, 5.0]], dtype=torch.float64)
mn = Multinomial(5, logits=logits[:2])
show(mn.log_prob(counts), mn.mean, mn.entropy())
bn = Binomial(torch.tensor([3.0, 10.0]), logits=logits[:2, 0])
show(bn.log_prob(torch.tensor([1.0, 7.0])), bn.mean, bn.variance, bn.mode)
geo = Geometric(torch.tensor([0.3, 0.8]))
show(geo.log_prob(torch.tensor([2.0, 0.0])), geo.mean, geo.entropy())
try:
    StudentT(torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError", str(e)[:60])
''')

qa("qa_nn_sparse_embedding", r'''
emb = nn.Embedding(6, 2, sparse=True)
det(emb)
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
out = emb(torch.tensor([[1, 2], [2, 4]]))
out.sum().backward()
g = emb.weight.grad
print(g.layout, g.is_sparse, g.coalesce().indices(), g.coalesce().values())
opt.step()
show(emb.weight)
''')

# -- known gaps (strict xfails in test_programs_qa_extra.py) --------------------------------

# program -> why it still differs under mindtorch (read by test_programs_qa_extra.py)
XFAIL = {}
