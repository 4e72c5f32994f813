"""Programs (see test_programs_ml.py): training as tutorials write it: MLP, CNN, RNN and
Transformer classifiers on fixed pseudo-random data, every optimizer and the common
lr schedulers, train/eval loops with accuracy, gradient clipping and accumulation,
freezing, parameter groups, custom autograd functions.  Initial weights come from
numpy (the libraries' generators differ); float64 runs print many digits, float32 runs
few (float32 training drifts apart in the last bits)."""
from programs_registry import program

PRELUDE = r'''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
def det(model, seed=0, scale=0.3):
    rng = np.random.RandomState(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.uniform(-scale, scale, tuple(p.shape))))
    return model
def blobs(n, dim, classes, seed=0, dtype=torch.float32):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, classes, n)
    centers = rng.randn(classes, dim) * 2
    x = centers[y] + rng.randn(n, dim)
    return torch.tensor(x, dtype=dtype), torch.from_numpy(y)
'''


def tr(name, text, needs=()):
    program(name, PRELUDE + text, needs)


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

tr("optimizers_quadratic", r'''
A = torch.tensor([[3.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
b = torch.tensor([1.0, -2.0], dtype=torch.float64)
def run(make, steps=15):
    x = torch.tensor([2.0, 2.0], dtype=torch.float64, requires_grad=True)
    opt = make([x])
    for _ in range(steps):
        opt.zero_grad()
        loss = 0.5 * x @ A @ x - b @ x
        loss.backward()
        opt.step()
    return x.detach().numpy().round(10).tolist(), round(loss.item(), 10)
O = torch.optim
for name, make in [
    ("sgd", lambda p: O.SGD(p, lr=0.1)),
    ("sgd_momentum", lambda p: O.SGD(p, lr=0.1, momentum=0.9, dampening=0.1)),
    ("sgd_nesterov", lambda p: O.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("sgd_maximize", lambda p: O.SGD(p, lr=0.01, maximize=True)),
    ("adam", lambda p: O.Adam(p, lr=0.1)),
    ("adam_amsgrad_wd", lambda p: O.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.1)),
    ("adamw", lambda p: O.AdamW(p, lr=0.1, weight_decay=0.5)),
    ("rmsprop", lambda p: O.RMSprop(p, lr=0.01)),
    ("rmsprop_centered", lambda p: O.RMSprop(p, lr=0.01, momentum=0.9, centered=True)),
    ("adagrad", lambda p: O.Adagrad(p, lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)),
    ("adamax", lambda p: O.Adamax(p, lr=0.2)),
    ("nadam", lambda p: O.NAdam(p, lr=0.1)),
    ("nadam_decoupled", lambda p: O.NAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("radam", lambda p: O.RAdam(p, lr=0.1)),
    ("radam_decoupled", lambda p: O.RAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
]:
    print(name, *run(make))
x = torch.tensor([1.0, 1.0], dtype=torch.float64, requires_grad=True)
opt = O.LBFGS([x], lr=1, max_iter=20) if hasattr(O, "LBFGS") else None
''')

tr("optimizer_state_and_groups", r'''
model = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 1))).double()
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") or name.startswith("1.") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=0.01)
print(len(opt.param_groups), [len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])
print(sorted(opt.param_groups[0].keys()))
x = torch.from_numpy(np.linspace(-1, 1, 15).reshape(5, 3))
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["state"]), sorted(sd["state"][0]))
print(sd["state"][0]["step"], sd["state"][2]["exp_avg"].numpy().round(9))
model2 = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 1))).double()
model2.load_state_dict(model.state_dict())
params2 = list(model2.parameters())
opt2 = torch.optim.AdamW([{"params": [params2[0], params2[4]], "weight_decay": 0.1},
                          {"params": [params2[1], params2[2], params2[3], params2[5]], "weight_decay": 0.0}], lr=0.01)
opt2.load_state_dict(sd)
for o, m in [(opt, model), (opt2, model2)]:
    o.zero_grad()
    m(x).pow(2).mean().backward()
    o.step()
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
extra = nn.Parameter(torch.ones(2, dtype=torch.float64))
opt.add_param_group({"params": [extra], "lr": 0.1})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["betas"], opt.param_groups[2]["weight_decay"])
try:
    opt.add_param_group({"params": [decay[0]]})
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.Adam([], lr=0.1)
except ValueError as e:
    print("ValueError", e)
''')

tr("lr_schedulers", r'''
def lrs(make_sched, steps=12, lr=0.1, opt_cls=torch.optim.SGD, **kw):
    p = nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=lr, **kw)
    sched = make_sched(opt)
    out = []
    for _ in range(steps):
        opt.step()
        out.append(round(opt.param_groups[0]["lr"], 8))
        sched.step()
    return out
S = torch.optim.lr_scheduler
print(lrs(lambda o: S.StepLR(o, step_size=4, gamma=0.1)))
print(lrs(lambda o: S.MultiStepLR(o, milestones=[2, 5, 9], gamma=0.5)))
print(lrs(lambda o: S.ExponentialLR(o, gamma=0.9)))
print(lrs(lambda o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001)))
print(lrs(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2)))
print(lrs(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4)))
print(lrs(lambda o: S.LambdaLR(o, lr_lambda=lambda e: 1.0 / (1 + e))))
print(lrs(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=12), opt_cls=torch.optim.SGD, momentum=0.9))
print(lrs(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=8)], milestones=[3])))
print(lrs(lambda o: S.PolynomialLR(o, total_iters=8, power=2.0)))
print(lrs(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), momentum=0.9))
p = nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([p], lr=0.1)
plateau = S.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]:
    plateau.step(val)
    print(opt.param_groups[0]["lr"], end=" ")
print()
opt = torch.optim.SGD([p], lr=1.0)
sched = S.StepLR(opt, 2)
for _ in range(3):
    opt.step()
    sched.step()
print(sched.state_dict(), sched.get_last_lr(), sched.last_epoch)
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

tr("custom_optimizer_and_closure", r'''
class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum))
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
                state = self.state[p]
                if len(state) == 0:
                    state["buf"] = torch.zeros_like(p)
                    state["step"] = 0
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                state["step"] += 1
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss
model = det(nn.Linear(3, 1), seed=12).double()
X = torch.from_numpy(np.random.RandomState(12).randn(20, 3))
Y = X @ torch.tensor([[1.0], [-2.0], [0.5]], dtype=torch.float64)
opt = SignSGD(model.parameters(), lr=0.05, momentum=0.5)
def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    return loss
for step in range(8):
    loss = opt.step(closure)
    print(step, f"{loss.item():.10f}")
print(opt)
print(opt.state_dict()["state"][0]["step"], sorted(opt.state_dict()["state"][1]))
print(opt.defaults, type(opt.param_groups).__name__)
class WarmupLinear(torch.optim.lr_scheduler.LambdaLR):
    def __init__(self, optimizer, warmup, total):
        super().__init__(optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / (total - warmup))))
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = WarmupLinear(opt, 3, 10)
lrs = []
for _ in range(10):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
class Halving(torch.optim.lr_scheduler.LRScheduler):
    def get_lr(self):
        return [base / (2 ** self.last_epoch) for base in self.base_lrs]
opt = torch.optim.SGD(model.parameters(), lr=1.0)
h = Halving(opt)
for _ in range(3):
    opt.step()
    h.step()
print(h.get_last_lr(), opt.param_groups[0]["initial_lr"])
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

tr("optimizer_reprs_and_kwargs", r'''
model = det(nn.Linear(2, 1)).double()
O = torch.optim
for opt in [O.SGD(model.parameters(), lr=0.1), O.Adam(model.parameters()), O.AdamW(model.parameters(), lr=1e-3),
            O.RMSprop(model.parameters()), O.Adagrad(model.parameters()), O.Adamax(model.parameters()),
            O.NAdam(model.parameters()), O.RAdam(model.parameters()),
            O.Adam(model.parameters(), lr=1e-3, foreach=False, capturable=False, differentiable=False, fused=None)]:
    print(opt)
    print(sorted(opt.defaults))
opt = O.Adam(model.parameters(), lr=0.01)
x = torch.ones(3, 2, dtype=torch.float64)
for _ in range(2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
print(opt.state_dict())
print(model.weight.grad is not None)
opt.zero_grad()
print(model.weight.grad)
named = O.SGD(model.named_parameters(), lr=0.1, momentum=0.9)
model(x).sum().backward()
named.step()
print(named.state_dict()["param_groups"])
t = O.Adam(model.parameters(), lr=torch.tensor(0.01))
print(type(t.param_groups[0]["lr"]).__name__)
try:
    O.Adam(model.parameters(), betas=(1.5, 0.9))
except ValueError as e:
    print("ValueError", e)
try:
    O.SGD(model.parameters(), lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError", e)
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

tr("tutorial_nn_really", r'''
import math
rng = np.random.RandomState(60)
x_train = torch.tensor(rng.rand(64, 784), dtype=torch.float32)
y_train = torch.tensor(rng.randint(0, 10, 64))
x_valid, y_valid = x_train[:16] * 0.9, y_train[:16]
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max())
weights = torch.tensor(rng.randn(784, 10), dtype=torch.float32) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
bs = 16
preds = model(x_train[0:bs])
print(preds[0, :4], preds.shape)
print(f"{nll(preds, y_train[0:bs]).item():.4f}", accuracy(preds, y_train[0:bs]))
lr = 0.5
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb, yb = x_train[i * bs: i * bs + bs], y_train[i * bs: i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{nll(model(x_train[:bs]), y_train[:bs]).item():.4f}", accuracy(model(x_train[:bs]), y_train[:bs]))
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)
    def forward(self, xb):
        return self.lin(xb)
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 28, 28)
from torch.utils.data import TensorDataset, DataLoader
def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.4f}")
train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=bs)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
for net in [Mnist_Logistic(),
            nn.Sequential(Lambda(preprocess), nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.Conv2d(4, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.Conv2d(4, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))]:
    det(net, seed=61, scale=0.1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    fit(2, net, F.cross_entropy, opt, train_dl, valid_dl)
''')

tr("tutorial_polynomial", r'''
import math, random
x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.float64)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape, xx.dtype)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).double()
det(model, seed=70, scale=0.1)
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(150):  # (RMSprop's oscillation amplifies rounding differences after ~200 steps)
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f"{loss.item():.8f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item():.6f} + {linear_layer.weight[:, 0].item():.6f} x + "
      f"{linear_layer.weight[:, 1].item():.6f} x^2 + {linear_layer.weight[:, 2].item():.6f} x^3")
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
a = torch.full((), 0.0, dtype=torch.float64, requires_grad=True)
b = torch.full((), -1.0, dtype=torch.float64, requires_grad=True)
c = torch.full((), 0.1, dtype=torch.float64, requires_grad=True)
d = torch.full((), 0.3, dtype=torch.float64, requires_grad=True)
for t in range(200):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for prm in (a, b, c, d):
            prm -= 5e-6 * 10 * prm.grad
            prm.grad = None
r6 = lambda v: round(v.item(), 6) + 0.0  # (a parameter that converges to 0 may print -0)
print(f"{loss.item():.8f}", f"y = {r6(a):.6f} + {r6(b):.6f} * P3({r6(c):.6f} + {r6(d):.6f} x)")
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1, dtype=torch.float64))
        self.b = torch.nn.Parameter(torch.tensor(0.2, dtype=torch.float64))
        self.c = torch.nn.Parameter(torch.tensor(-0.1, dtype=torch.float64))
        self.d = torch.nn.Parameter(torch.tensor(0.05, dtype=torch.float64))
        self.e = torch.nn.Parameter(torch.tensor(0.01, dtype=torch.float64))
    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f"y = {self.a.item():.6f} + {self.b.item():.6f} x + {self.c.item():.6f} x^2 + {self.d.item():.6f} x^3 + {self.e.item():.6f} x^4 ? + {self.e.item():.6f} x^5 ?"
random.seed(0)
net = DynamicNet()
optimizer = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9)
for t in range(100):
    loss = torch.nn.functional.mse_loss(net(x), y, reduction="sum")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"{loss.item():.8f}", net.string())
''')

tr("tutorial_quickstart", r'''
import os, tempfile
from torch.utils.data import DataLoader, Dataset
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
class FakeImages(Dataset):
    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.x = rng.rand(n, 1, 28, 28).astype(np.float32)
        self.y = rng.randint(0, 10, n)
    def __len__(self):
        return len(self.y)
    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])
train_dataloader = DataLoader(FakeImages(96, 0), batch_size=32)
test_dataloader = DataLoader(FakeImages(40, 1), batch_size=32)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits
model = det(NeuralNetwork(), seed=80, scale=0.05).to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(2):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")
with tempfile.TemporaryDirectory() as d:
    torch.save(model.state_dict(), os.path.join(d, "model.pth"))
    model = NeuralNetwork().to(device)
    model.load_state_dict(torch.load(os.path.join(d, "model.pth"), weights_only=True))
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
model.eval()
x, y = test_dataloader.dataset[0][0], test_dataloader.dataset[0][1]
with torch.no_grad():
    x = x.to(device)
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
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

tr("lr_scheduler_details", r'''
import warnings
warnings.simplefilter("ignore")
S = torch.optim.lr_scheduler
p = nn.Parameter(torch.zeros(1))
def opt(lr=0.1, **kw):
    return torch.optim.SGD([p], lr=lr, momentum=0.9, **kw)
o = opt()
r = S.ReduceLROnPlateau(o, mode="max", factor=0.1, patience=0, threshold=0.05, threshold_mode="abs", cooldown=1, min_lr=1e-3)
for metric in [0.5, 0.52, 0.6, 0.6, 0.61, 0.59, 0.58, 0.57, 0.7, 0.7]:
    r.step(metric)
    print(round(o.param_groups[0]["lr"], 6), r.num_bad_epochs, r.cooldown_counter, end=" | ")
print()
print(sorted(r.state_dict()), r.best, r.get_last_lr())
o = opt()
s = S.StepLR(o, step_size=2)
print(s.get_last_lr(), s.last_epoch, s.optimizer is o, s.base_lrs)
for epoch in range(5):
    o.step()
    s.step()
print(s.get_last_lr(), s.last_epoch, s.state_dict())
o = opt()
s = S.MultiStepLR(o, milestones=[3, 1], gamma=0.5)
print(s.milestones, s.state_dict()["milestones"])
o = opt()
s = S.ExponentialLR(o, gamma=0.5, last_epoch=-1)
o.step(); s.step(); o.step(); s.step()
s2 = S.ExponentialLR(opt(), gamma=0.5)
s2.load_state_dict(s.state_dict())
print(s2.last_epoch, s2.get_last_lr(), s2.optimizer.param_groups[0]["lr"])
o = opt()
c = S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)])
out = []
for _ in range(5):
    o.step()
    c.step()
    out.append(round(c.get_last_lr()[0], 8))
print(out)
o = opt()
oc = S.OneCycleLR(o, max_lr=0.5, epochs=2, steps_per_epoch=3, pct_start=0.4, anneal_strategy="linear", three_phase=True)
out = []
for _ in range(6):
    o.step()
    out.append((round(o.param_groups[0]["lr"], 8), round(o.param_groups[0]["momentum"], 6)))
    oc.step()
print(out)
o = torch.optim.Adam([p], lr=0.1)
oc = S.OneCycleLR(o, max_lr=0.5, total_steps=4)
print(o.param_groups[0]["betas"], o.param_groups[0]["initial_lr"], o.param_groups[0]["max_lr"], o.param_groups[0]["min_lr"])
o = opt()
w = S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=1, eta_min=0.01)
out = []
for i in range(7):
    o.step()
    w.step(i + 0.5)
    out.append(round(o.param_groups[0]["lr"], 8))
print(out)
try:
    S.StepLR(opt(), step_size=2, last_epoch=3)
except KeyError as e:
    print("KeyError", e)
try:
    S.OneCycleLR(opt(), max_lr=0.1)
except ValueError as e:
    print("ValueError", e)
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

tr("lbfgs_lazy_swa", r'''
x = torch.from_numpy(np.linspace(-1, 1, 20)).unsqueeze(1)
y = 3 * x ** 2 - x + 0.5
model = det(nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1)), seed=120).double()
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=5, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss
for step in range(3):
    loss = opt.step(closure)
    print(step, f"{loss.item():.10f}")
print(sorted(opt.state_dict()["state"][0].keys()) if opt.state_dict()["state"] else None)
lazy = nn.Sequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(2))
print(lazy)
lazy(torch.ones(3, 7))
print(lazy, [tuple(p.shape) for p in lazy.parameters()])
from torch.optim.swa_utils import AveragedModel, SWALR
base = det(nn.Linear(3, 1), seed=121).double()
swa = AveragedModel(base)
o = torch.optim.SGD(base.parameters(), lr=0.1)
s = SWALR(o, swa_lr=0.05, anneal_epochs=2)
X = torch.from_numpy(np.random.RandomState(121).randn(8, 3))
for epoch in range(4):
    o.zero_grad()
    F.mse_loss(base(X), X.sum(1, keepdim=True)).backward()
    o.step()
    swa.update_parameters(base)
    s.step()
    print(epoch, round(o.param_groups[0]["lr"], 8), swa.n_averaged.item())
print(swa.module.weight.detach().numpy().round(10), list(swa.state_dict())[:3])
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
