"""Programs (see test_programs_ml.py):
training loops as tutorials write them: MLP, CNN, RNN, Transformer, conv,
seq2seq and DCGAN models on fixed pseudo-random data; train/eval loops with accuracy,
gradient accumulation and freezing, AMP disabled, float32 vs float64, custom autograd
functions, metrics and inference, distributions, pruning."""
from programs_ml_common import tr

tr("train_mlp_sgd_float64", r'''
torch.manual_seed(0)
X, y = blobs(64, 5, 3, dtype=torch.float64)
model = det(nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))).double()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
loss_fn = nn.CrossEntropyLoss()
for step in range(20):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step:2d} loss {loss.item():.10f}")
with torch.no_grad():
    pred = model(X).argmax(dim=1)
acc = (pred == y).float().mean().item()
print(f"accuracy {acc:.4f}", (pred == y).sum().item(), len(y))
print(model[0].bias.detach().numpy().round(8))
print(opt)
print(opt.state_dict()["param_groups"])
print(sorted(opt.state_dict()["state"][0].keys()), len(opt.state_dict()["state"]))
''')


tr("train_mlp_adamw_float32", r'''
X, y = blobs(48, 4, 2, seed=1)
model = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)), seed=1).float()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, amsgrad=True)
for epoch in range(10):
    model.train()
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
model.eval()
with torch.no_grad():
    probs = torch.softmax(model(X), dim=-1)
print(probs[:3], (probs.argmax(-1) == y).float().mean())
print(opt.state_dict()["param_groups"][0]["amsgrad"], opt.state[model[0].weight]["step"])
''')


tr("train_cnn_float64", r'''
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc = nn.Linear(6 * 1 * 1, 3)
    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        return self.fc(x)
rng = np.random.RandomState(3)
X = torch.from_numpy(rng.randn(12, 1, 8, 8))
y = torch.from_numpy(rng.randint(0, 3, 12))
model = det(CNN(), seed=3).double()
opt = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.9, 0.99))
for step in range(15):
    opt.zero_grad()
    out = model(X)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.10f}")
print(model.bn1.running_mean.numpy().round(8), model.bn1.num_batches_tracked)
model.eval()
with torch.no_grad():
    print(model(X[:4]).numpy().round(7))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
''')


tr("train_lstm_classifier", r'''
class TextRNN(nn.Module):
    def __init__(self, vocab, emb, hidden, classes):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.0)
        self.fc = nn.Linear(2 * hidden, classes)
    def forward(self, ids):
        h, (hn, cn) = self.lstm(self.embedding(ids))
        feat = torch.cat([hn[-2], hn[-1]], dim=1)
        return self.fc(self.dropout(feat))
rng = np.random.RandomState(5)
ids = torch.from_numpy(rng.randint(1, 20, (8, 7)))
labels = torch.from_numpy(rng.randint(0, 2, 8))
model = det(TextRNN(20, 6, 5, 2), seed=5).double()
print(model)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, momentum=0.5, centered=True)
for step in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids), labels)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    opt.step()
    print(step, f"{loss.item():.9f}", f"{norm.item():.9f}")
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(max(p.grad.abs().max().item() for p in model.parameters()))
''')


tr("train_gru_regression_float32", r'''
rng = np.random.RandomState(7)
t = np.linspace(0, 6, 40)
series = np.sin(t) + 0.1 * rng.randn(40)
win = 8
Xs = np.stack([series[i:i + win] for i in range(30)])[:, :, None]
ys = series[win:win + 30, None]
X = torch.tensor(Xs, dtype=torch.float32)
Y = torch.tensor(ys, dtype=torch.float32)
class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(1, 8, num_layers=2, batch_first=True)
        self.head = nn.Linear(8, 1)
    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1, :])
model = det(Forecaster(), seed=7, scale=0.2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
crit = nn.MSELoss()
for epoch in range(8):
    opt.zero_grad()
    loss = crit(model(X), Y)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.4f}")
with torch.no_grad():
    print(model(X[-3:]).squeeze(-1))
''')


tr("train_transformer_classifier", r'''
class TinyTransformer(nn.Module):
    def __init__(self, vocab=16, d=8, heads=2, classes=3, max_len=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d))
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=16, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.cls = nn.Linear(d, classes)
    def forward(self, ids, pad_mask=None):
        h = self.tok(ids) + self.pos[:, : ids.shape[1]]
        h = self.encoder(h, src_key_padding_mask=pad_mask)
        return self.cls(self.norm(h.mean(dim=1)))
rng = np.random.RandomState(11)
ids = torch.from_numpy(rng.randint(1, 16, (6, 6)))
labels = torch.from_numpy(rng.randint(0, 3, 6))
model = det(TinyTransformer(), seed=11, scale=0.2).double()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(8):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(ids), labels)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.9f}", sched.get_last_lr())
model.eval()
with torch.no_grad():
    logits = model(ids)
print(logits.numpy().round(6), logits.argmax(1))
''')


tr("train_eval_loop", r'''
from torch.utils.data import DataLoader, TensorDataset, random_split
import copy
torch.manual_seed(42)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X, y = blobs(80, 6, 4, seed=2, dtype=torch.float64)
train_ds = TensorDataset(X[:60], y[:60])
val_ds = TensorDataset(X[60:], y[60:])
train_loader = DataLoader(train_ds, batch_size=16, shuffle=False)
val_loader = DataLoader(val_ds, batch_size=8)
model = det(nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Dropout(0.0), nn.Linear(12, 4)), seed=2)
model = model.double().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=5)
best_acc, best_state = 0.0, None
for epoch in range(5):
    model.train()
    running, seen = 0.0, 0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * xb.size(0)
        seen += xb.size(0)
    scheduler.step()
    model.eval()
    correct = total = 0
    val_loss = 0.0
    with torch.no_grad():
        for xb, yb in val_loader:
            out = model(xb)
            val_loss += criterion(out, yb).item() * len(yb)
            _, predicted = torch.max(out, 1)
            total += yb.size(0)
            correct += (predicted == yb).sum().item()
    acc = 100.0 * correct / total
    print(f"epoch {epoch} train_loss {running / seen:.8f} val_loss {val_loss / total:.8f} acc {acc:.2f}% lr {scheduler.get_last_lr()[0]:.6f}")
    if acc >= best_acc:
        best_acc, best_state = acc, copy.deepcopy(model.state_dict())
model.load_state_dict(best_state)
print(best_acc, list(best_state)[:3], len(train_loader), len(val_loader))
''')


tr("grad_accumulation_and_freeze", r'''
backbone = det(nn.Sequential(nn.Linear(4, 6), nn.GELU()), seed=4).double()
head = det(nn.Linear(6, 2), seed=5).double()
for p in backbone.parameters():
    p.requires_grad = False
frozen = [p.clone() for p in backbone.parameters()]
model = nn.Sequential(backbone, head)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.2)
print(len(opt.param_groups[0]["params"]), sum(p.numel() for p in model.parameters() if p.requires_grad))
X, y = blobs(16, 4, 2, seed=4, dtype=torch.float64)
accum = 4
opt.zero_grad()
for i in range(16):
    loss = F.cross_entropy(model(X[i:i + 1]), y[i:i + 1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        print(i, f"{loss.item() * accum:.10f}")
print(all(torch.equal(a, b) for a, b in zip(frozen, backbone.parameters())), backbone[0].weight.grad)
print(head.weight.detach().numpy().round(9))
''')


tr("custom_autograd_function", r'''
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x > 0).to(grad.dtype)
class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(3, 5), nn.Linear(5, 1)
    def forward(self, x):
        return self.l2(ScaleGrad.apply(MyReLU.apply(self.l1(x)), 0.5))
net = det(Net(), seed=8).double()
X = torch.from_numpy(np.random.RandomState(8).randn(10, 3))
Y = X.sum(1, keepdim=True)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(6):
    opt.zero_grad()
    loss = F.mse_loss(net(X), Y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.10f}")
out = net(X[:2])
print(out.grad_fn.name(), net.l1.weight.grad.numpy().round(9))
x = torch.tensor([-1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(MyReLU.apply, (x,)))
''')


tr("train_float32_mixed", r'''
torch.manual_seed(0)
torch.set_num_threads(1)
torch.backends.cudnn.benchmark = True
print(torch.get_num_threads())
X, y = blobs(32, 8, 4, seed=9)
model = det(nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.LayerNorm(32), nn.Linear(32, 4)), seed=9)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=10)
losses = []
for step in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y, label_smoothing=0.05)
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
print([round(l, 3) for l in losses])
print(losses[-1] < losses[0], f"{opt.param_groups[0]['lr']:.3e}")
logits = model(X)
acc = (logits.argmax(-1) == y).float().mean()
print(acc, acc.dtype, logits.dtype)
print(torch.stack([p.grad.norm() for p in model.parameters()]).norm() > 0)
''')


tr("metrics_and_inference", r'''
rng = np.random.RandomState(21)
logits = torch.from_numpy(rng.randn(12, 5))
labels = torch.from_numpy(rng.randint(0, 5, 12))
pred = logits.argmax(dim=1)
print("acc", (pred == labels).sum().item() / len(labels), (pred == labels).float().mean())
top3 = logits.topk(3, dim=1).indices
print("top3", (top3 == labels.unsqueeze(1)).any(dim=1).float().mean().item())
conf = torch.bincount(labels * 5 + pred, minlength=25).reshape(5, 5)
print(conf)
tp = conf.diag().float()
precision = tp / conf.sum(0).clamp(min=1)
recall = tp / conf.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-12)
print(precision, recall, f1.mean())
probs = F.softmax(logits, dim=-1)
conf_vals, conf_idx = probs.max(dim=-1)
print(conf_vals.numpy().round(6), torch.equal(conf_idx, pred))
print(F.one_hot(labels, 5).float().mul(probs).sum(1).log().neg().mean(), F.cross_entropy(logits, labels))
outs = []
model = det(nn.Sequential(nn.Linear(5, 3), nn.Softmax(dim=1)), seed=21).double().eval()
with torch.no_grad():
    for chunk in torch.split(logits, 5):
        outs.append(model(chunk))
allp = torch.cat(outs)
print(allp.shape, allp.sum(1).numpy().round(10), torch.stack(outs[:2]).shape)
print(torch.unique(pred, return_counts=True), torch.sort(conf_vals, descending=True).indices[:4])
print(logits.mean().item() == logits.mean().item(), round(logits.std().item(), 8), logits.max().item())
emb = F.normalize(logits, dim=1)
sim = emb @ emb.T
print(sim.diag().numpy().round(10), sim.fill_diagonal_(-1).argmax(1))
print(torch.where(probs > 0.3, 1, 0).sum(1), torch.nonzero(probs > 0.4).shape)
''')


tr("amp_disabled_loop", r'''
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), seed=30).double().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
X, y = blobs(16, 4, 2, seed=30, dtype=torch.float64)
for step in range(4):
    opt.zero_grad(set_to_none=True)
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=use_amp):
        loss = F.cross_entropy(model(X), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print(step, f"{loss.item():.10f}", scaler.is_enabled())
''')


tr("train_conv_variety_float64", r'''
class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(2, 4, 3, stride=2, padding=1), nn.PReLU(4), nn.BatchNorm2d(4),
                                 nn.Conv2d(4, 6, 3, stride=2, padding=1, padding_mode="reflect"), nn.ELU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(6, 4, 2, stride=2), nn.LeakyReLU(0.1),
                                 nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
                                 nn.Conv2d(4, 2, 3, padding="same"), nn.Sigmoid())
    def forward(self, x):
        return self.dec(self.enc(x))
class TextCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(12, 4, mode="mean")
        self.tok = nn.Embedding(12, 4)
        self.convs = nn.ModuleList([nn.Conv1d(4, 3, k, padding=k // 2) for k in (2, 3)])
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.out = nn.Linear(6 + 4, 2)
    def forward(self, ids):
        e = self.tok(ids).transpose(1, 2)
        feats = [self.pool(F.relu(c(e))).squeeze(-1) for c in self.convs]
        return self.out(torch.cat(feats + [self.emb(ids)], dim=1))
rng = np.random.RandomState(40)
imgs = torch.from_numpy(rng.rand(4, 2, 8, 8))
ae = det(AutoEncoder(), seed=40, scale=0.4).double()
opt = torch.optim.Adam(ae.parameters(), lr=0.01)
for step in range(6):
    opt.zero_grad()
    recon = ae(imgs)
    loss = F.binary_cross_entropy(recon, imgs)
    loss.backward()
    opt.step()
    print("ae", step, recon.shape, f"{loss.item():.10f}")
ids = torch.from_numpy(rng.randint(0, 12, (5, 7)))
lab = torch.from_numpy(rng.randint(0, 2, 5))
tc = det(TextCNN(), seed=41).double()
opt = torch.optim.SGD(tc.parameters(), lr=0.3, momentum=0.8)
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(tc(ids), lab)
    loss.backward()
    opt.step()
    print("textcnn", step, f"{loss.item():.10f}")
pool = nn.MaxPool2d(2, return_indices=True)
unpool = nn.MaxUnpool2d(2)
o, idx = pool(imgs[:1, :1, :4, :4])
print(unpool(o, idx).numpy().round(6), idx)
''')


tr("train_seq2seq_transformer", r'''
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16,
                       dropout=0.0, batch_first=True)
det(model, seed=50, scale=0.25)
model.double()
src_emb = det(nn.Embedding(10, 8), seed=51).double()
gen = det(nn.Linear(8, 10), seed=52).double()
rng = np.random.RandomState(50)
src = torch.from_numpy(rng.randint(1, 10, (3, 5)))
tgt = torch.from_numpy(rng.randint(1, 10, (3, 4)))
params = list(model.parameters()) + list(src_emb.parameters()) + list(gen.parameters())
opt = torch.optim.AdamW(params, lr=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 3))
tgt_mask = model.generate_square_subsequent_mask(3, dtype=torch.float64)
print(tgt_mask)
for step in range(6):
    opt.zero_grad()
    out = model(src_emb(src), src_emb(tgt[:, :-1]), tgt_mask=tgt_mask,
                src_key_padding_mask=(src == 0), tgt_is_causal=True)
    logits = gen(out)
    loss = F.cross_entropy(logits.reshape(-1, 10), tgt[:, 1:].reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    sched.step()
    print(step, f"{loss.item():.10f}", round(sched.get_last_lr()[0], 6))
mha = det(nn.MultiheadAttention(6, 3, kdim=4, vdim=5, batch_first=True), seed=53).double()
q = torch.from_numpy(rng.randn(2, 3, 6))
k = torch.from_numpy(rng.randn(2, 4, 4))
v = torch.from_numpy(rng.randn(2, 4, 5))
o, w = mha(q, k, v)
o.sum().backward()
print(o.detach().numpy().round(8), mha.q_proj_weight.grad.numpy().round(8))
print(sorted(n for n, _ in mha.named_parameters()))
''')


tr("default_dtype_float64_training", r'''
torch.set_default_dtype(torch.float64)
try:
    print(torch.get_default_dtype(), torch.tensor([1.0]).dtype, torch.zeros(1).dtype, torch.arange(3.0).dtype)
    model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.GELU(), nn.Linear(4, 1))
    print([p.dtype for p in model.parameters()][:2], nn.Embedding(2, 2).weight.dtype, nn.LSTM(2, 2).weight_ih_l0.dtype)
    det(model, seed=90)
    X = torch.tensor(np.random.RandomState(90).randn(10, 3))
    Y = torch.tensor(np.random.RandomState(91).randn(10, 1))
    opt = torch.optim.NAdam(model.parameters(), lr=0.05)
    for step in range(5):
        opt.zero_grad()
        loss = F.smooth_l1_loss(model(X), Y)
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.12f}")
    print(torch.nn.functional.softmax(torch.tensor([1.0, 2.0]), 0).dtype, (torch.ones(1) * 2.5).dtype)
finally:
    torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]).dtype)
''')


tr("distributions_policy_and_vae", r'''
from torch.distributions import Categorical, Normal, Bernoulli, kl_divergence
policy = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)), seed=100).double()
opt = torch.optim.Adam(policy.parameters(), lr=0.01)
rng = np.random.RandomState(100)
states = torch.from_numpy(rng.randn(6, 4))
actions = torch.from_numpy(rng.randint(0, 3, 6))
rewards = torch.from_numpy(rng.rand(6))
gamma, R, returns = 0.99, 0.0, []
for r in reversed(rewards.tolist()):
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns, dtype=torch.float64)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
for step in range(4):
    dist = Categorical(logits=policy(states))
    loss = -(dist.log_prob(actions) * returns).sum() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.10f}", dist.probs[0].detach().numpy().round(8))
print(dist, dist.batch_shape, dist.sample().shape, dist.sample((5,)).shape)
enc = det(nn.Linear(5, 4), seed=101).double()
x = torch.from_numpy(rng.rand(3, 5))
h = enc(x)
mu, logvar = h[:, :2], h[:, 2:]
q = Normal(mu, torch.exp(0.5 * logvar))
kl = kl_divergence(q, Normal(torch.zeros_like(mu), torch.ones_like(mu))).sum(-1).mean()
kl_closed = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1).mean()
print(f"{kl.item():.10f}", torch.allclose(kl, kl_closed), q.rsample().shape, q.rsample().requires_grad)
kl.backward()
print(enc.weight.grad.numpy().round(8))
b = Bernoulli(logits=torch.tensor([0.2, -1.0], dtype=torch.float64))
print(b, b.probs, b.log_prob(torch.tensor([1.0, 0.0], dtype=torch.float64)), b.entropy())
''')


tr("train_dcgan_step", r'''
nz, ngf, ndf = 4, 4, 4
netG = nn.Sequential(nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
                     nn.ConvTranspose2d(ngf * 2, 1, 4, 2, 1, bias=False), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(1, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                     nn.Conv2d(ndf, 1, 4, 1, 0, bias=False), nn.Sigmoid())
det(netG, seed=110, scale=0.2).double()
det(netD, seed=111, scale=0.2).double()
criterion = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
rng = np.random.RandomState(110)
real_label, fake_label = 1.0, 0.0
for i in range(3):
    real = torch.from_numpy(rng.rand(4, 1, 8, 8) * 2 - 1)
    noise = torch.from_numpy(rng.randn(4, nz, 1, 1))
    netD.zero_grad()
    label = torch.full((4,), real_label, dtype=torch.float64)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optG.step()
    print("[%d/3] Loss_D: %.8f Loss_G: %.8f D(x): %.8f D(G(z)): %.8f / %.8f" % (i, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
print(fake.shape, netG[1].running_mean.numpy().round(8))
''')


tr("nn_utils_prune", r'''
import torch.nn.utils.prune as prune
lin = det(nn.Linear(4, 3), seed=122)
prune.l1_unstructured(lin, name="weight", amount=0.5)
print(sorted(n for n, _ in lin.named_parameters()), sorted(n for n, _ in lin.named_buffers()))
print(lin.weight, int((lin.weight == 0).sum()))
prune.remove(lin, "weight")
print(sorted(n for n, _ in lin.named_parameters()), type(lin.weight).__name__)
''')
