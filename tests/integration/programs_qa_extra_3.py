"""QA programs, continued (see programs_qa_extra.py)."""
from programs_registry import program

program("qa_state_dict_repr_and_copy", r'''
import copy
import io
import torch
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    m[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    m[0].bias.fill_(0.5)
sd = m.state_dict()
print(sd)
print(type(sd).__name__, sd["0.weight"].requires_grad, sd["1.num_batches_tracked"].dtype)
m2 = copy.deepcopy(m)
m2[0].weight.data.mul_(2)
print(m[0].weight.sum().item(), m2[0].weight.sum().item(), m2[0].weight.requires_grad, type(m2[0].weight).__name__)
t = torch.tensor([1.0, 2.0], requires_grad=True)
tc = copy.deepcopy(t)
print(tc, tc.requires_grad, tc.is_leaf, copy.copy(torch.arange(3)))
buf = io.BytesIO()
a = torch.arange(6.0)
torch.save({"a": a, "view": a[2:4], "list": [a, 1, "s"], "tuple": (torch.tensor(1),), "dtype": torch.float16, "size": torch.Size([2, 3]), "dev": torch.device("cpu")}, buf)
buf.seek(0)
obj = torch.load(buf, map_location="cpu")
obj["view"][0] = -1
print(obj["a"], obj["view"], obj["list"], obj["tuple"], obj["dtype"], obj["size"], obj["dev"])
buf = io.BytesIO()
torch.save(torch.arange(4, dtype=torch.int16)[::2], buf)
buf.seek(0)
r = torch.load(buf)
print(r, r.dtype, r.is_contiguous(), r.stride())
buf = io.BytesIO()
p = nn.Parameter(torch.ones(2))
torch.save(p, buf)
buf.seek(0)
q = torch.load(buf)
print(type(q).__name__, q.requires_grad, q)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.ones(3, 2)).sum().backward()
opt.step()
osd = opt.state_dict()
buf = io.BytesIO()
torch.save(osd, buf)
buf.seek(0)
o2 = torch.optim.Adam(m.parameters(), lr=0.5)
o2.load_state_dict(torch.load(buf))
print(o2.param_groups[0]["lr"], o2.state_dict()["state"][0]["step"], sorted(o2.state_dict()["state"][0]))
print(o2)
''')

program("qa_blitz_tutorial", r'''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.empty(5, 3)
print(x.shape, x.dtype)
x = torch.zeros(5, 3, dtype=torch.long)
print(x)
x = torch.tensor([5.5, 3])
print(x)
x = x.new_ones(5, 3, dtype=torch.double)
print(x)
x = torch.randn_like(x, dtype=torch.float)
print(x.size(), x.size()[0], type(x.size()).__name__)
y = torch.ones(5, 3)
result = torch.empty(5, 3)
torch.add(torch.ones(5, 3), y, out=result)
print(result)
y.add_(torch.full((5, 3), 2.0))
print(y, y[:, 1])
x = torch.arange(16.0).reshape(4, 4)
print(x.view(16).shape, x.view(-1, 8).shape, torch.tensor([0.5]).item())
a = torch.ones(5)
b = a.numpy()
a.add_(1)
print(a, b)
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a, b)
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
print(y, y.grad_fn.__class__.__name__)
z = y * y * 3
out = z.mean()
print(z, out)
a = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn.__class__.__name__)
out.backward()
print(x.grad)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad, (x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
y = x.detach()
print(y.requires_grad, x.eq(y).all())
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
net = Net()
print(net)
params = list(net.parameters())
print(len(params), params[0].size())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + i)).reshape(p.shape) * 0.1)
inp = torch.sin(torch.arange(1024.0)).reshape(1, 1, 32, 32)
out = net(inp)
print(out)
net.zero_grad()
out.backward(torch.linspace(-1, 1, 10).reshape(1, 10))
target = torch.arange(10.0).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(net(inp), target)
print(loss, type(loss.grad_fn).__name__, type(loss.grad_fn.next_functions[0][0]).__name__, type(loss.grad_fn.next_functions[0][0].next_functions[0][0]).__name__)
net.zero_grad()
print(net.conv1.bias.grad)
loss.backward()
print(net.conv1.bias.grad.round(decimals=3))
optimizer = torch.optim.SGD(net.parameters(), lr=0.0005)
for _ in range(3):
    optimizer.zero_grad()
    loss = criterion(net(inp), target)
    loss.backward()
    optimizer.step()
    print(round(loss.item(), 3))
''')

program("qa_module_hooks_and_norms", r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_printoptions(precision=5)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.05, -0.05]))
log = []
h1 = lin.register_forward_pre_hook(lambda m, inp: log.append(("pre", tuple(inp[0].shape))))
h2 = lin.register_forward_hook(lambda m, inp, out: out * 2)
h3 = lin.register_full_backward_hook(lambda m, gin, gout: log.append(("bwd", tuple(gin[0].shape), tuple(gout[0].shape))))
x = torch.ones(4, 3, requires_grad=True)
y = lin(x)
y.sum().backward()
print(y, log, x.grad)
h1.remove(); h2.remove(); h3.remove()
print(lin(torch.ones(1, 3)))
def kw_hook(m, args, kwargs):
    return args, kwargs
lin.register_forward_pre_hook(kw_hook, with_kwargs=True)
print(lin(input=torch.ones(1, 3)) if False else lin(torch.ones(1, 3)))
bn = nn.BatchNorm1d(3)
data = torch.arange(12.0).reshape(4, 3)
bn(data)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(data))
bn2 = nn.BatchNorm1d(3, momentum=None)
bn2(data); bn2(data * 2)
print(bn2.running_mean, bn2.running_var)
bn3 = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
print(bn3(data), bn3.running_mean)
ln = nn.LayerNorm([3], elementwise_affine=False)
print(ln(data), nn.RMSNorm(3)(data) if hasattr(nn, "RMSNorm") else "")
q = torch.linspace(-1, 1, 2 * 2 * 3 * 4).reshape(2, 2, 3, 4)
print(F.scaled_dot_product_attention(q, q, q), F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 0])
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=mask)[1, 1])
wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
print(sorted(n for n, _ in wn.named_parameters()))
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3))
print(sorted(n for n, _ in sn.named_parameters()), type(sn.parametrizations.weight[0]).__name__)
''')

program("qa_dataloader_workers", r'''
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info
class DS(Dataset):
    def __len__(self):
        return 10
    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([i, i * i]), (info is not None)
if __name__ == "__main__":
    dl = DataLoader(DS(), batch_size=4, num_workers=2)
    out = list(dl)
    print(len(out), out[0][0], out[-1][0], [b[1].tolist() for b in out])
    dl2 = DataLoader(DS(), batch_size=3, num_workers=2, persistent_workers=True, prefetch_factor=2)
    for epoch in range(2):
        print(epoch, [b[0][:, 0].tolist() for b in dl2])
    print(get_worker_info())
''')

program("qa_autograd_errors", r'''
import torch
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
w = torch.ones(3, requires_grad=True)
attempt(lambda: w[0].add_(1))
attempt(lambda: w.view(3).mul_(2))
attempt(lambda: w.t_())
attempt(lambda: w.resize_(4))
attempt(lambda: setattr(w, "grad", torch.ones(2)))
attempt(lambda: setattr(w, "grad", torch.ones(3, dtype=torch.float64)))
attempt(lambda: setattr(w, "requires_grad", False) or w.requires_grad)
v = torch.ones(3, requires_grad=True) * 1
attempt(lambda: setattr(v, "requires_grad", False))
attempt(lambda: v.detach_().requires_grad)
x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y.sum()
y.mul_(2)
attempt(lambda: z.backward())
a = torch.ones(2, requires_grad=True)
b = a * 2
b.sum().backward()
attempt(lambda: b.sum().backward())
c = a.sigmoid()
c.sum().backward()
attempt(lambda: c.sum().backward())
attempt(lambda: torch.autograd.grad(torch.ones(2).sum(), torch.ones(2)))
attempt(lambda: torch.autograd.backward([a * 2], [torch.ones(3)]))
attempt(lambda: (a * 2).backward(torch.ones(2, 1)))
attempt(lambda: torch.ones(2, requires_grad=True).numpy())
attempt(lambda: torch.ones(2, requires_grad=True).tolist())
attempt(lambda: torch.ones(2, requires_grad=True).item())
attempt(lambda: float(torch.ones(1, requires_grad=True)))
with torch.no_grad():
    w2 = torch.ones(2, requires_grad=True)
    w2.add_(1)
print(w2, w2.grad_fn)
p = torch.nn.Parameter(torch.ones(2))
attempt(lambda: p.add_(1))
with torch.no_grad():
    p.add_(1)
print(p)
q = torch.ones(2, requires_grad=True)
r = q[0]
attempt(lambda: r.backward())
print(q.grad)
s = torch.tensor([1.0, 2.0], requires_grad=True) * 1
out = s.unbind()
attempt(lambda: out[0].mul_(2))
''')

program("qa_python_protocols_misc", r'''
import pickle, copy
import torch as T
x = T.arange(6.0).reshape(2, 3)
r = []
r.append([x.device == "cpu", str(x.device), x.device.type, x.device.index, T.device("cpu", 0) if False else T.device("cpu"), T.device("cuda:1").index, T.device("cuda", 2), repr(T.device("cuda:0")), T.device("meta")])
r.append([T.float32 == T.float, hash(T.float32) == hash(T.float), str(T.int64), T.float32.to_complex(), T.complex64.to_real(), T.float16.is_signed, T.bool.itemsize, T.uint8.is_signed])
r.append([x.shape == T.Size([2, 3]), x.shape + (1,), x.shape[1:], T.Size([2, 3]) == [2, 3], T.Size((2, 3)).numel(), len(T.Size([])), x.size(dim=1), x.shape.count(3), x.shape.index(3)])
r.append([pickle.loads(pickle.dumps(x)), pickle.loads(pickle.dumps(T.float64)), pickle.loads(pickle.dumps(T.Size([1, 2]))), pickle.loads(pickle.dumps(T.device("cpu")))])
r.append([copy.deepcopy(T.nn.Linear(2, 2).weight).shape, x.__array__().dtype if hasattr(x, "__array__") else None, sorted(x.flatten().tolist(), reverse=True)[:2], max(x.flatten()).item(), sum(x.flatten()).item(), abs(-x)[0], -x[0], +x[0], x[0] ** 2, 2 - x[0], 1 / (x[0] + 1), x[0] // 2, divmod(7, 2)])
r.append([x @ x.T, x.T @ x, (x > 2).sum().item(), x.__len__(), x[0].__contains__(1.0), list(reversed(x[0])), x.argmax(1).tolist(), x.numpy().sum(), float(x[0, 1]), int(x[1, 2]), complex(x[0, 0]), bool(x[0, 1]), x[0, 1].__index__() if False else "", round(x[0, 1].item() / 3, 3)])
r.append(["%.2f" % x[0, 1], "{:.1f}".format(x[1, 1].item()), "{}".format(x[0, 0]), f"{x[1, 0]!r}", x[0].__format__(""), [f"{v:.1f}" for v in x[0]]])
r.append([x.int() & 3, x.long() | 8, x.bool() ^ True, x.int() >> 1, 5 & x.int(), x.int().__invert__(), x.__eq__(None) if False else x == x.clone(), x != 2, x.__hash__ is not None, id(x) == id(x.data)])
import numpy as np
r.append([np.float32(2.0) * x[0], (np.array([1.0, 2.0, 3.0]) + x[0].numpy()), x[0] * np.float64(2), T.tensor(np.int64(3)) + 1, T.tensor([np.float32(1.5), np.float32(2.5)]).dtype, T.as_tensor(np.array([True])).dtype, x[0] + np.array(1.0) if False else ""])
for line in r:
    print(line)
''')

program("qa_init_and_gains", r'''
import torch
import torch.nn as nn
print([round(nn.init.calculate_gain(n), 6) for n in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]], round(nn.init.calculate_gain("leaky_relu", 0.2), 6))
w = torch.empty(3, 4)
print(nn.init.constant_(w, 0.5), nn.init.ones_(w).sum(), nn.init.zeros_(w).sum(), nn.init.eye_(w))
d = torch.empty(2, 2, 3)
print(nn.init.dirac_(d))
torch.manual_seed(0)
expected = {"xavier_uniform_": (2 / 288) ** 0.5, "xavier_normal_": (2 / 288) ** 0.5, "kaiming_uniform_": (2 / 32) ** 0.5, "kaiming_normal_": (2 / 32) ** 0.5, "trunc_normal_": 0.88, "uniform_": (1 / 12) ** 0.5, "normal_": 1.0}
for fn in [nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.trunc_normal_, nn.init.uniform_, nn.init.normal_]:
    t = fn(torch.empty(256, 32))
    print(fn.__name__, tuple(t.shape), t.dtype, bool(t.abs().max() < 10), abs(t.std().item() / expected[fn.__name__] - 1) < 0.1)
q = nn.init.orthogonal_(torch.empty(4, 4))
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-5))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError", e)
lin = nn.Linear(100, 50)
bound = 1 / 100 ** 0.5
print(bool(lin.weight.abs().max() <= bound), bool(lin.bias.abs().max() <= bound), lin.weight.requires_grad)
''')


program("qa_optimizer_scheduler_state", r'''
import torch as T
nn = T.nn
m = nn.Linear(2, 1)
with T.no_grad():
    m.weight.fill_(0.5); m.bias.fill_(0.1)
for opt in [T.optim.Adam(m.parameters(), lr=0.01), T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9), T.optim.AdamW(m.parameters()), T.optim.RMSprop(m.parameters()), T.optim.Adagrad(m.parameters())]:
    m(T.ones(3, 2)).sum().backward()
    opt.step()
    print(opt.state_dict())
    print(dict(opt.state[m.weight]) if len(opt.state) else {})
    opt.zero_grad()
s = T.optim.lr_scheduler.StepLR(T.optim.SGD(m.parameters(), lr=0.1), 2)
print(s.state_dict())
s2 = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(T.optim.SGD(m.parameters(), lr=0.1), T_0=3)
for _ in range(4): s2.optimizer.step(); s2.step()
print(s2.state_dict(), s2.get_last_lr())
s3 = T.optim.lr_scheduler.SequentialLR(T.optim.SGD(m.parameters(), lr=0.1), [T.optim.lr_scheduler.LinearLR(T.optim.SGD(m.parameters(), lr=0.1), 0.5, total_iters=2)], milestones=[]) if False else None
o = T.optim.SGD(m.parameters(), lr=0.1)
w = T.optim.lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=3)
c = T.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2)
ch = T.optim.lr_scheduler.ChainedScheduler([w, c])
lrs = []
for _ in range(5):
    o.step(); ch.step(); lrs.append(round(o.param_groups[0]["lr"], 6))
print(lrs)
o2 = T.optim.SGD(m.parameters(), lr=0.1)
seq = T.optim.lr_scheduler.SequentialLR(o2, [T.optim.lr_scheduler.LinearLR(o2, 0.1, total_iters=2), T.optim.lr_scheduler.ExponentialLR(o2, 0.9)], milestones=[2])
lrs = []
for _ in range(5):
    o2.step(); seq.step(); lrs.append(round(o2.param_groups[0]["lr"], 6))
print(lrs)
o3 = T.optim.SGD(m.parameters(), lr=0.1)
cyc = T.optim.lr_scheduler.CyclicLR(o3, 0.01, 0.1, step_size_up=2)
lrs = []
for _ in range(6):
    o3.step(); cyc.step(); lrs.append(round(o3.param_groups[0]["lr"], 6))
print(lrs, o3.param_groups[0].get("momentum"))
o4 = T.optim.SGD(m.parameters(), lr=0.1)
poly = T.optim.lr_scheduler.PolynomialLR(o4, total_iters=4, power=2.0)
lrs = []
for _ in range(5):
    o4.step(); poly.step(); lrs.append(round(o4.param_groups[0]["lr"], 6))
print(lrs)
''')


program("qa_module_reprs_wide", r'''
import warnings
warnings.simplefilter("ignore")
import torch as T
nn = T.nn
mods = [nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=1, bias=False, padding_mode="reflect"), nn.Conv1d(4, 4, 3, groups=4, padding="same"), nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1),
 nn.LSTM(10, 20, num_layers=2, dropout=0.1, bidirectional=True, batch_first=True), nn.GRU(5, 5, bias=False), nn.RNN(3, 4, nonlinearity="relu"), nn.LSTMCell(3, 4), nn.GRUCell(2, 2),
 nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True), nn.Upsample(size=(4, 4)), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool1d(2), nn.AdaptiveAvgPool2d((None, 3)), nn.MaxPool2d(2, return_indices=True),
 nn.Dropout(p=0.3, inplace=True), nn.Dropout1d(), nn.AlphaDropout(0.2), nn.LeakyReLU(0.1, inplace=True), nn.ELU(alpha=0.5), nn.Softplus(beta=2, threshold=10), nn.Hardtanh(-2, 2), nn.PReLU(3), nn.GELU(approximate="tanh"), nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.Threshold(0.1, 20), nn.CELU(), nn.SiLU(), nn.Mish(), nn.Hardswish(), nn.ReLU6(), nn.Tanhshrink(), nn.Softsign(), nn.GLU(), nn.Softmin(0), nn.RReLU(),
 nn.BatchNorm1d(4, eps=1e-3, momentum=None, affine=False), nn.LayerNorm((4, 5), elementwise_affine=False, bias=False), nn.GroupNorm(2, 4, affine=False), nn.InstanceNorm1d(3, affine=True, track_running_stats=True), nn.LocalResponseNorm(3), nn.RMSNorm(4, eps=1e-5),
 nn.Embedding(10, 3, padding_idx=1, max_norm=2.0, scale_grad_by_freq=True), nn.EmbeddingBag(5, 2, mode="max"), nn.Linear(3, 2, bias=False), nn.Bilinear(2, 3, 4), nn.Identity(3, unused=1), nn.Flatten(0, 2), nn.Unflatten(1, (2, 3)),
 nn.CrossEntropyLoss(weight=T.ones(3), ignore_index=0, label_smoothing=0.1), nn.MSELoss(reduction="sum"), nn.BCEWithLogitsLoss(pos_weight=T.ones(2)), nn.NLLLoss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0), nn.KLDivLoss(reduction="batchmean", log_target=True), nn.CTCLoss(blank=1), nn.TripletMarginLoss(margin=2.0, p=1),
 nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True), nn.MultiheadAttention(8, 2, dropout=0.1, bias=False, kdim=4, vdim=4), nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16),
 nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.ZeroPad2d((1, 2, 0, 1)), nn.ConstantPad1d(2, 3.5), nn.ReflectionPad1d(1), nn.ReplicationPad2d(1), nn.CircularPad2d(1), nn.Fold((4, 4), 2), nn.Unfold(2, stride=2), nn.ChannelShuffle(2), nn.CosineSimilarity(dim=0), nn.PairwiseDistance(p=1.0), nn.Sequential(), nn.ModuleList(), nn.ParameterDict({"a": nn.Parameter(T.ones(2))})]
for m in mods:
    print(repr(m))
''')


program("qa_grad_fn_names", r'''
import warnings
warnings.simplefilter("ignore")
import torch as T
F = T.nn.functional
x = T.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
i = T.tensor([0, 2])
ops = {
 "add_s": lambda: x + 1, "radd": lambda: 1 + x, "sub_s": lambda: x - 1, "rsub": lambda: 1 - x, "mul_s": lambda: x * 2, "div_s": lambda: x / 2, "rdiv": lambda: 2 / x, "pow_s": lambda: x ** 2, "rpow": lambda: 2 ** x, "pow_t": lambda: x ** x, "neg": lambda: -x,
 "matmul": lambda: x @ x.T, "mm": lambda: x.mm(x.T), "mv": lambda: x.mv(x[0]), "dot": lambda: x[0].dot(x[1]), "bmm": lambda: x.unsqueeze(0).bmm(x.T.unsqueeze(0)), "matmul_1d": lambda: x @ x[0], "matmul_3d": lambda: x.unsqueeze(0) @ x.T,
 "t": lambda: x.t(), "T": lambda: x.T, "mT": lambda: x.mT, "transpose": lambda: x.transpose(0, 1), "permute": lambda: x.permute(1, 0), "view": lambda: x.view(12), "reshape": lambda: x.reshape(12), "reshape_copy": lambda: x.t().reshape(12), "flatten": lambda: x.flatten(), "squeeze": lambda: x.unsqueeze(0).squeeze(0), "squeeze_dim": lambda: x.unsqueeze(0).squeeze(), "unsqueeze": lambda: x.unsqueeze(1), "expand": lambda: x[:1].expand(3, 4), "expand_as": lambda: x[:1].expand_as(x), "repeat": lambda: x.repeat(2, 1), "contiguous": lambda: x.t().contiguous(), "clone": lambda: x.clone(), "detach_mul": lambda: x.detach() * x,
 "index_int": lambda: x[0], "index_slice": lambda: x[1:], "index_step": lambda: x[:, ::2], "index_tensor": lambda: x[i], "index_bool": lambda: x[x > 0], "index_none": lambda: x[None], "index_ellipsis": lambda: x[..., 0], "index_2": lambda: x[0, 1], "index_adv2": lambda: x[i, i],
 "sum": lambda: x.sum(), "sum_dim": lambda: x.sum(0), "mean": lambda: x.mean(), "mean_dim": lambda: x.mean(1), "max": lambda: x.max(), "max_dim": lambda: x.max(0)[0], "amax": lambda: x.amax(0), "min": lambda: x.min(), "std": lambda: x.std(), "var": lambda: x.var(0), "norm": lambda: x.norm(), "norm_dim": lambda: x.norm(dim=1), "prod": lambda: x.prod(), "logsumexp": lambda: x.logsumexp(1), "cumsum": lambda: x.cumsum(0), "median": lambda: x.median(), "sort": lambda: x.sort()[0], "topk": lambda: x.topk(2)[0], "kth": lambda: x.kthvalue(2)[0],
 "relu": lambda: x.relu(), "F.relu": lambda: F.relu(x), "sigmoid": lambda: x.sigmoid(), "tanh": lambda: x.tanh(), "exp": lambda: x.exp(), "log": lambda: x.abs().log(), "sqrt": lambda: x.abs().sqrt(), "abs": lambda: x.abs(), "clamp": lambda: x.clamp(0, 1), "clamp_min": lambda: x.clamp(min=0), "where": lambda: T.where(x > 0, x, 0.0), "masked_fill": lambda: x.masked_fill(x > 0, 0),
 "softmax": lambda: x.softmax(1), "log_softmax": lambda: x.log_softmax(1), "F.gelu": lambda: F.gelu(x), "F.silu": lambda: F.silu(x), "F.leaky": lambda: F.leaky_relu(x), "F.elu": lambda: F.elu(x), "F.softplus": lambda: F.softplus(x), "F.dropout_eval": lambda: F.dropout(x, 0.5, False), "F.hardtanh": lambda: F.hardtanh(x), "F.relu6": lambda: F.relu6(x), "F.mish": lambda: F.mish(x),
 "F.linear": lambda: F.linear(x, x), "F.linear_b": lambda: F.linear(x, x, x[:, 0]), "F.mse": lambda: F.mse_loss(x, x.detach() * 2), "F.l1": lambda: F.l1_loss(x, x.detach()), "F.ce": lambda: F.cross_entropy(x, T.tensor([0, 1, 2])), "F.nll": lambda: F.nll_loss(x, T.tensor([0, 1, 2])), "F.bce": lambda: F.binary_cross_entropy(x.sigmoid(), T.ones(3, 4)), "F.bcel": lambda: F.binary_cross_entropy_with_logits(x, T.ones(3, 4)), "F.smoothl1": lambda: F.smooth_l1_loss(x, T.ones(3, 4)), "F.kl": lambda: F.kl_div(x, T.ones(3, 4), reduction="batchmean"),
 "F.layer_norm": lambda: F.layer_norm(x, (4,)), "F.batch_norm": lambda: F.batch_norm(x, None, None, training=True), "F.normalize": lambda: F.normalize(x), "F.pad": lambda: F.pad(x, (1, 1)), "F.embedding": lambda: F.embedding(T.tensor([0, 1]), x), "F.one_hot_mul": lambda: F.one_hot(T.tensor([0, 1]), 4) * x[:2], "F.conv1d": lambda: F.conv1d(x.unsqueeze(0), x.unsqueeze(2)[:, :, :]), "F.max_pool1d": lambda: F.max_pool1d(x.unsqueeze(0), 2), "F.avg_pool1d": lambda: F.avg_pool1d(x.unsqueeze(0), 2), "F.interp": lambda: F.interpolate(x.unsqueeze(0), scale_factor=2), "F.cos": lambda: F.cosine_similarity(x, x), "F.sdpa": lambda: F.scaled_dot_product_attention(x, x, x),
 "cat": lambda: T.cat([x, x]), "stack": lambda: T.stack([x, x]), "chunk": lambda: x.chunk(2)[0], "split": lambda: x.split(2)[0], "unbind": lambda: x.unbind()[0], "gather": lambda: x.gather(1, T.tensor([[0], [1], [2]])), "scatter": lambda: x.scatter(1, T.tensor([[0], [1], [2]]), 0.0), "index_select": lambda: x.index_select(0, i), "flip": lambda: x.flip(0), "roll": lambda: x.roll(1), "tril": lambda: x.tril(), "diag": lambda: x.diagonal(), "trace": lambda: x[:, :3].trace(), "einsum": lambda: T.einsum("ij,ij->i", x, x), "outer": lambda: T.outer(x[0], x[1]), "cross": lambda: T.linalg.cross(x[:, :3], x[:, 1:]),
 "to_double": lambda: x.double(), "to_same": lambda: x.float() * 1, "type_as": lambda: x.type_as(T.ones(1, dtype=T.float64)), "lerp": lambda: x.lerp(x * 2, 0.5), "addmm": lambda: T.addmm(x[:, :3], x, x.T[:, :3]), "addcmul": lambda: T.addcmul(x, x, x), "erf": lambda: x.erf(), "atan2": lambda: T.atan2(x, x + 2), "maximum": lambda: T.maximum(x, x * 2), "sign_mul": lambda: x.sign() * x, "round": lambda: x.round(), "floor": lambda: x.floor(), "frac": lambda: x.frac(), "rsqrt": lambda: (x.abs() + 1).rsqrt(), "reciprocal": lambda: (x + 2).reciprocal(),
 "det": lambda: T.linalg.det(x[:, :3]), "inv": lambda: T.linalg.inv(x[:, :3] + T.eye(3) * 3), "svd": lambda: T.linalg.svdvals(x), "cholesky": lambda: T.linalg.cholesky(x @ x.T + T.eye(3)), "solve": lambda: T.linalg.solve(x[:, :3] + T.eye(3) * 3, x[:, 0]), "vector_norm": lambda: T.linalg.vector_norm(x), "matrix_norm": lambda: T.linalg.matrix_norm(x),
 "inplace_add": lambda: x.clone().add_(1), "inplace_mul": lambda: x.clone().mul_(x), "inplace_relu": lambda: x.clone().relu_(), "setitem": lambda: (lambda y: (y.__setitem__(0, 5.0), y)[1])(x.clone()), "setitem_t": lambda: (lambda y: (y.__setitem__(i, x[:2]), y)[1])(x.clone()), "copy_": lambda: T.zeros(3, 4).copy_(x), "zero_": lambda: x.clone().zero_(), "fill_": lambda: x.clone().fill_(2), "masked_fill_": lambda: x.clone().masked_fill_(x > 0, 1.0), "clamp_": lambda: x.clone().clamp_(0, 1), "index_add_": lambda: x.clone().index_add_(0, i, x[:2]), "index_fill_": lambda: x.clone().index_fill_(0, i, 2.0), "scatter_add": lambda: x.scatter_add(1, T.tensor([[0], [1], [2]]), x[:, :1]),
}
for k, f in ops.items():
    try:
        out = f()
        print(k, type(out.grad_fn).__name__)
    except Exception as e:
        print(k, "!!", type(e).__name__)
''')


# -- known gaps (strict xfails in test_programs_qa_extra.py) -------------------------------

program("qa_gap_fft", r'''
import torch
x = torch.tensor([1.0, 2.0, 0.0, -1.0])
print(torch.fft.fft(x), torch.fft.rfft(x), torch.fft.irfft(torch.fft.rfft(x), n=4), torch.fft.fftfreq(4))
''')

program("qa_gap_inference_tensors", r'''
import torch
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.is_inference(), x.is_inference())
''')

program("qa_gap_autocast_cpu", r'''
import torch
lin = torch.nn.Linear(3, 2)
with torch.autocast("cpu", dtype=torch.bfloat16):
    print(lin(torch.ones(1, 3)).dtype)
''')

program("qa_more_distributions", r'''
import torch
from torch.distributions import Beta, Gamma, Dirichlet, Poisson, LogNormal
print(Beta(torch.tensor(2.0), torch.tensor(3.0)).log_prob(torch.tensor(0.4)), Gamma(2.0, 1.0).mean, Dirichlet(torch.ones(3)).log_prob(torch.tensor([0.2, 0.3, 0.5])), Poisson(3.0).log_prob(torch.tensor(2.0)), LogNormal(0.0, 1.0).log_prob(torch.tensor(1.5)))
''')

program("qa_gap_dtypes", r'''
import torch
print(torch.tensor([1.0], dtype=torch.float16) + 2j, torch.tensor([1, 2], dtype=torch.uint16))
''')

program("qa_gap_half_log_softmax", r'''
import torch
print(torch.linspace(-3, 3, 7, dtype=torch.float16).log_softmax(0))
''')

program("qa_gap_channels_last", r'''
import torch
x = torch.ones(1, 3, 4, 4).to(memory_format=torch.channels_last)
print(x.stride(), x.is_contiguous(memory_format=torch.channels_last))
''')
