"""Ordinary PyTorch programs, run verbatim under torch and under mindtorch.

Each program imports `torch` itself; the runner swaps that module for
mindtorch.  A program's output is its stdout; an escaping exception is
reported by class name so error classes are compared too."""

PROGRAMS = {}


NEEDS = {}  # program -> mindtorch attributes it uses that are not implemented yet


def program(name, text, needs=()):
    PROGRAMS[name] = text
    NEEDS[name] = needs


program("basics_print", r'''
import torch
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(x)
print(x.shape, x.dtype, x.ndim, x.numel())
print(str(x.dtype), repr(x.dtype))
print(x.size(), x.size(0), x.size(-1), tuple(x.shape), list(x.shape))
y = x.float() / 3
print(y)
print(f"{y}")
print(y.double())
print(x.to(torch.int8), x.bool())
print(torch.tensor(3.5), torch.tensor(True), torch.tensor([]))
print(torch.zeros(2, 0), torch.ones(3, dtype=torch.float16))
print(torch.arange(6).reshape(2, 3).t())
print(repr(torch.tensor([1e10, 1.0])), torch.tensor([1e-5, 1.0]))
print(torch.tensor([0.1, 0.25, float('nan'), float('inf'), -float('inf')]))
print(torch.tensor([1.0, 2.0, 3.0]) * 1e6)
print(torch.tensor([123456789.0, 1.5]))
print(torch.arange(2000))
print(torch.linspace(0, 1, 5))
''')

program("format_items", r'''
import torch
t = torch.tensor([0.1234567, 2.5, -3.25])
print(f"{t.sum().item():.3f}", f"{t.mean():.4f}", f"{t[0]:.2e}")
print("%.2f" % t[1].item(), "{:8.3f}|".format(t[2].item()))
vals = [round(v.item(), 3) for v in t]
print(vals, t.tolist(), type(t[0].item()).__name__)
i = torch.tensor([3, 4])
print(int(i[0]), float(i[1]), i.sum().item(), type(i.sum().item()).__name__)
print(bool(torch.tensor([1]).all()), torch.tensor(2) + 3, 3 * torch.tensor(1.5))
for row in torch.arange(6).reshape(3, 2):
    print(row, row.tolist(), row.shape)
print(len(torch.zeros(4, 2)), [int(v) for v in torch.tensor([5, 6, 7])])
print(f"{torch.tensor(7)}", f"{torch.tensor([1.5])}", str(torch.tensor(2.0)))
print(torch.tensor(1.0).item() == 1.0, float(torch.tensor([2.5])))
print(abs(torch.tensor(-2)), -torch.tensor([1, 2]), ~torch.tensor([True, False]))
print(hash(torch.float32) == hash(torch.float32), torch.float32 == torch.float)
print(torch.int64, torch.long, torch.float64 is torch.double, torch.bool)
''')

program("masking_indexing", r'''
import torch
x = torch.arange(12).reshape(3, 4)
print(x[1], x[:, 2], x[-1, -2:], x[::2, ::3])
print(x[x > 5], x[x % 2 == 0].sum())
print(x[[0, 2]], x[[0, 2], [1, 3]], x[torch.tensor([True, False, True])])
print(x[..., 1], x[None].shape, x[:, None, :].shape)
y = x.clone().float()
y[y > 8] = 0
y[0] = torch.tensor([9.0, 8.0, 7.0, 6.0])
y[:, 1] += 100
print(y)
m = torch.tensor([[1, -2], [-3, 4]])
m[m < 0] = 0
print(m, m.nonzero(), torch.where(m > 0))
print(torch.where(x > 5, x, -x))
print(torch.where(x > 5, 1.0, 0.0))
idx = torch.tensor([2, 0, 1])
print(x[idx], x.index_select(1, torch.tensor([0, 3])), x.gather(1, torch.tensor([[0], [1], [2]])))
print(torch.masked_select(x, x > 9), x.masked_fill(x < 3, -1))
z = torch.zeros(5)
z[torch.tensor([1, 3])] = torch.tensor([1.0, 2.0])
print(z)
print(x[1:, 1:][0], x[2][3], x[2][3].item())
''')

program("broadcast_arith", r'''
import torch
a = torch.tensor([[1.0], [2.0], [3.0]])
b = torch.tensor([10.0, 20.0])
print(a + b, a * b - 1, (a / b).shape)
print(a ** 2, 2 ** a, a // 2, a % 2, b / 0)
i = torch.tensor([7, -7, 5])
print(i // 2, i % 3, i / 2, i * 1.5, i + True)
print(torch.tensor([1, 2], dtype=torch.uint8) - 3)
print(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(5), (torch.tensor([1, 2], dtype=torch.int32) * 2.5).dtype)
print(torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]), (torch.tensor([1], dtype=torch.int8) + torch.tensor(1.0, dtype=torch.float64)).dtype)
print(torch.maximum(a, torch.tensor(1.5)), torch.clamp(b, 12, 15), a.clamp(min=2))
print(torch.exp(a).round(decimals=2), torch.log(b), torch.sqrt(b), a.abs().neg())
print(torch.sigmoid(torch.tensor([0.0, 2.0])), torch.tanh(torch.tensor(0.5)))
print((a > 1) & (a < 3), (a > 1) | (a < 0), ~(a > 1), (a == 2).any(), (a == 2).all())
try:
    torch.ones(3) + torch.ones(4)
except RuntimeError as e:
    print("RuntimeError")
print(torch.ones(2, 3).T.shape, torch.ones(2, 1, 3).squeeze().shape, torch.ones(3).unsqueeze(1).shape)
x = torch.ones(3)
x += 2
x *= torch.tensor([1.0, 2.0, 3.0])
print(x, x.add(1).mul_(2), x.sub(1, alpha=2))
''')

program("reductions_stats", r'''
import torch
data = torch.tensor([[2.0, 4.0, 4.0, 4.0], [5.0, 5.0, 7.0, 9.0]])
print(data.sum(), data.sum(0), data.sum(dim=1, keepdim=True))
print(data.mean(), data.mean(1), data.std(), data.std(1), data.var(0, unbiased=False))
print(data.max(), data.min(1), data.max(dim=0).values, data.argmax(), data.argmin(1))
print(data.prod(1), data.cumsum(1), data.cumprod(0), torch.cumsum(torch.tensor([1, 2, 3]), 0))
growth = torch.tensor([1.1, 0.9, 1.2])
print(growth.cumprod(0), torch.cumprod(torch.tensor([2, 3, 4]), dim=0), (1 + torch.tensor([0.5, -0.5])).cumprod(0)[-1].item())
mx, idx = data.max(1)
print(mx, idx)
print(data.norm(), data.norm(dim=1), data.amax(1), data.amin(0))
print(torch.tensor([1, 2, 3]).sum().dtype, torch.tensor([True, True]).sum(), torch.tensor([1, 2]).float().mean())
print(data.logsumexp(1), (data > 4).sum(1), data.mean(dim=(0, 1)))
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    print(type(e).__name__)
print(torch.tensor([]).sum(), torch.tensor([]).mean(), torch.zeros(0, 3).sum(0))
''')

program("linreg_softmax", r'''
import torch
torch.manual_seed(0)
X = torch.linspace(0, 1, 20).reshape(-1, 1)
y = 3 * X + 2
Xb = torch.cat([X, torch.ones_like(X)], dim=1)
w = torch.zeros(2, 1)
lr = 0.5
for step in range(200):
    pred = Xb @ w
    grad = Xb.T @ (pred - y) * (2 / X.shape[0])
    w = w - lr * grad
    if step % 50 == 0:
        loss = ((pred - y) ** 2).mean()
        print(f"step {step} loss {loss.item():.4f}")
print(w.squeeze().tolist() == w.flatten().tolist(), [f"{v:.3f}" for v in w.flatten().tolist()])
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
exp = torch.exp(logits - logits.max(dim=1, keepdim=True).values)
probs = exp / exp.sum(dim=1, keepdim=True)
print(probs, probs.sum(1))
labels = torch.tensor([0, 1])
nll = -torch.log(probs[torch.arange(2), labels]).mean()
print(f"{nll:.5f}")
r = torch.randn(4, 3)
print(r.shape, r.dtype, torch.rand(2).shape, torch.randint(0, 10, (3,)).dtype)
print(torch.mm(logits, logits.t()), torch.matmul(logits, torch.ones(3)), logits.matmul(torch.ones(3, 1)).shape)
print(torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 1)), torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4])))
''')

program("metrics_onehot", r'''
import torch
preds = torch.tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
target = torch.tensor([1, 0, 0, 0])
pl = preds.argmax(dim=1)
correct = (pl == target).sum().item()
print(f"acc={correct / len(target):.2%}", correct, (pl == target).float().mean())
tp = ((pl == 1) & (target == 1)).sum()
fp = ((pl == 1) & (target == 0)).sum()
print(tp, fp, tp / (tp + fp))
oh = torch.zeros(4, 3).scatter_(1, target.unsqueeze(1), 1.0)
print(oh)
print(torch.eye(3)[target], torch.eye(3, dtype=torch.long)[target].sum(0))
print(torch.nn.functional.one_hot(target, 3) if hasattr(torch, "nn") and False else "skip")
cm = torch.zeros(2, 2, dtype=torch.int64)
for t, p in zip(target, pl):
    cm[t, p] += 1
print(cm)
cm2 = torch.zeros(4, dtype=torch.long).index_add_(0, target * 2 + pl, torch.ones(4, dtype=torch.long))
print(cm2.reshape(2, 2), (cm == cm2.view(2, 2)).all().item())
if (pl == target).any():
    print("some correct")
if not torch.all(pl == target):
    print("not all")
counts = torch.zeros(3).index_add_(0, target, torch.ones(4))
print(counts, torch.zeros(3).scatter_add(0, target, torch.ones(4)))
''')

program("normalise_shape", r'''
import torch
x = torch.arange(1.0, 13.0).reshape(3, 4)
mu = x.mean(dim=0, keepdim=True)
sd = x.std(dim=0, keepdim=True)
z = (x - mu) / sd
print(z, z.mean(0).abs().max() < 1e-6)
mn, mxv = x.min(), x.max()
print((x - mn) / (mxv - mn))
print(x / x.norm(dim=1, keepdim=True))
print(x.view(4, 3), x.view(-1), x.flatten(), x.reshape(2, -1).shape, x.permute(1, 0).contiguous().is_contiguous())
print(torch.stack([x[0], x[1]]), torch.stack([x[0], x[1]], dim=1).shape, torch.cat([x, x], 0).shape)
print(torch.split(x, 2, dim=1), torch.chunk(x, 3)[1])
print(x.unbind(0)[2], x.flip(0), torch.roll(x, 1, 1), x.repeat(1, 2).shape, x.expand(2, 3, 4).shape)
print(torch.tril(x), torch.triu(x, 1), torch.diag(torch.tensor([1, 2])), x.diagonal())
print(x.transpose(0, 1).is_contiguous(), x.t().stride(), x.stride(), x.storage_offset(), x[1:].storage_offset())
a, b = x.unsqueeze(0), x.unsqueeze(-1)
print(a.shape, b.shape, (a + x).shape, (x.unsqueeze(0) * x.unsqueeze(1)).shape)
try:
    x.view(5, 3)
except RuntimeError:
    print("RuntimeError view")
print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")[1])
print(torch.zeros(2, 3, 4).movedim(0, -1).shape, x.narrow(1, 1, 2), x.numel(), x.dim())
''')

program("numpy_interop", r'''
import torch
import numpy as np
a = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
t = torch.from_numpy(a)
print(t, t.dtype)
t[0, 0] = 10
print(a[0, 0], t.numpy().dtype, t.numpy().shape)
print(torch.tensor(np.arange(3)), torch.as_tensor([1, 2, 3]).dtype, torch.tensor(np.float64(2.5)))
print(torch.tensor([np.int32(1), 2]).dtype if False else torch.tensor(np.array([1, 2], dtype=np.int16)).dtype)
n = (t * 2).numpy()
print(type(n).__name__, n.tolist())
print(np.asarray(torch.arange(3)).tolist(), torch.tensor([[1, 2], [3, 4]]).tolist())
print(torch.tensor([1.5, 2.5]).numpy().sum(), np.mean(t.numpy()))
print(torch.tensor(np.array(True)), torch.tensor([1, 2.0]).dtype, torch.tensor([True, 1]).dtype)
print(torch.tensor([[1, 2]], dtype=torch.float64).numpy().dtype, torch.from_numpy(np.zeros((2,), dtype=np.uint8)))
''')

program("dtype_conv_errors", r'''
import torch
x = torch.tensor([1.7, -1.7, 2.5])
print(x.int(), x.long(), x.to(torch.int16), x.type(torch.int32), x.half(), x.to(torch.bfloat16))
print(x.round(), x.floor(), x.ceil(), x.trunc(), x.frac(), torch.sign(x))
print(torch.tensor([300]).to(torch.uint8) if False else torch.tensor([1, 0, 2]).bool())
print(x.is_floating_point(), x.long().is_floating_point(), torch.is_tensor(x), x.element_size(), x.dtype.is_floating_point)
print(torch.get_default_dtype(), torch.finfo(torch.float32).eps, torch.iinfo(torch.int8).max)
print(torch.tensor([1, 2]).type(), x.type())
print(torch.zeros(2, dtype=torch.int32).dtype, torch.full((2,), 7).dtype, torch.full((2,), 7.0).dtype, torch.full((2,), True))
for bad in [lambda: torch.tensor([[1, 2], [3]]),
            lambda: torch.zeros(2, 3)[5],
            lambda: torch.zeros(2, 3) @ torch.zeros(2, 3),
            lambda: torch.tensor([1, 2]).item(),
            lambda: torch.cat([torch.zeros(2), torch.zeros(2, 2)]),
            lambda: torch.zeros(3).reshape(2, 2),
            lambda: torch.tensor([1.0]).long() + "a",
            lambda: bool(torch.tensor([1, 2])),
            lambda: torch.zeros(2).sum(dim=3),
            lambda: torch.arange(3)[torch.tensor([5])],
            lambda: torch.zeros(2, 2).view(-1, -1)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)
''')

program("cumulative_misc", r'''
import torch
sales = torch.tensor([5, 3, 8, 1, 9, 2])
running = sales.cumsum(0)
print(running, running[-1] == sales.sum(), sales[1:] - sales[:-1])
print(torch.diff(sales), sales.diff(n=2), torch.diff(sales > 4), torch.diff(sales, prepend=torch.tensor([0])))
print(torch.count_nonzero(sales > 4), torch.clip(sales, 2, 6), torch.nan_to_num(torch.tensor([float("nan"), 1.0])))
window = sales.unfold(0, 3, 1)
print(window, window.float().mean(1))
print(torch.clamp(sales, 2, 6), sales.clamp(max=4))
print(torch.isnan(torch.tensor([1.0, float("nan")])), torch.isinf(torch.tensor([1.0, float("inf")])))
print(torch.arange(0, 1, 0.25), torch.arange(5, 0, -2), torch.zeros_like(sales), torch.full_like(sales, 2.7))
print(torch.outer(torch.tensor([1, 2]), torch.tensor([1, 2, 3])), torch.kron(torch.eye(2), torch.ones(1, 2)))
print(torch.lerp(torch.zeros(2), torch.ones(2), 0.25), torch.addmm(torch.zeros(2, 2), torch.eye(2), torch.eye(2)))
print(torch.einsum("ij,j->i", torch.ones(2, 3), torch.arange(3.0)))
print(torch.tensor([1, 2, 3]) == torch.tensor([1, 5, 3]), torch.tensor([1, 2]).eq(2), torch.tensor([1, 2]).ne(1).tolist())
t = torch.tensor([[1, 2], [3, 4]])
print(t.sum() if t.numel() else 0, t.max().item(), sum(t.flatten().tolist()), max(t.flatten()).item())
print(torch.tensor(5) > 3, (torch.tensor(5) > 3).item(), 2 in torch.tensor([1, 2]))
print(sorted([torch.tensor(3), torch.tensor(1)])[0], torch.tensor(2) ** 10, pow(torch.tensor(2.0), 0.5))
''')

program("stats", r'''
import torch
data = torch.tensor([[2.0, 4.0, 4.0, 4.0], [5.0, 5.0, 7.0, 9.0]])
print(torch.median(data), torch.tensor([3, 1, 2]).median())
print(torch.count_nonzero(data > 4), torch.std_mean(data, 1))
sales = torch.tensor([5, 3, 8, 1, 9, 2])
print(sales.cummax(0).values)
print(torch.isin(sales, torch.tensor([3, 9])), torch.bincount(sales % 3, minlength=4))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))
''', needs=("median", "std_mean", "cummax", "isin", "bincount", "histc"))

program("softmax_nan_to_num", r'''
import torch
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
print(torch.softmax(logits, dim=1), torch.log_softmax(logits, 1), logits.softmax(-1).sum(1))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf")])))
''', needs=("softmax", "log_softmax", "nan_to_num"))

program("closeness_clip", r'''
import torch
a = torch.tensor([1.0, 2.0, 3.0])
b = a + 1e-7
print(torch.allclose(a, b), torch.equal(a, b), torch.equal(a, a.clone()), a.allclose(b, rtol=0, atol=0))
print(torch.isclose(a, torch.tensor([1.0, 2.1, 3.0])), torch.isclose(torch.tensor(1.0), torch.tensor(1.1), atol=0.2))
if torch.allclose(a.sum(), torch.tensor(6.0)):
    print("sum ok")
if not torch.equal(torch.zeros(2, 1), torch.zeros(1, 2)):
    print("shapes differ")
print(torch.isclose(torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0]), equal_nan=True))
print(torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])), torch.isclose(torch.tensor([3, 5]), torch.tensor([4, 5]), atol=1))
for bad in [lambda: torch.isclose(torch.tensor([1]), torch.tensor([1.0])), lambda: torch.allclose(a, torch.ones(2)),
            lambda: torch.equal(a, 1.0), lambda: torch.isclose(a, a, rtol=-1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__)
print(torch.clip(a, 1.5, 2.5), a.clip(max=2), a.clone().clip_(min=2.5), torch.clip(torch.tensor([5, -5]), -1, 1))
''')

program("repr_edge", r'''
import torch
print(torch.arange(1200).reshape(30, 40))
print(torch.arange(24.0).reshape(2, 3, 4) / 7)
print(torch.tensor([[1e-8, 1.0], [100.0, 1e8]]))
print(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1.5, 2.5], dtype=torch.float16), torch.tensor([1.5], dtype=torch.bfloat16))
print(torch.tensor([True, False]), torch.tensor([[-1, 100], [5, -2000]]))
print(torch.zeros(3, 0, 2), torch.empty(0, dtype=torch.int64), torch.ones(1, 1, 1))
print(torch.tensor([0.0, -0.0, 1.0]), torch.tensor([1e20, -1e-20]), torch.tensor([12345.678]))
print(torch.tensor([float("nan"), 1.0]), torch.tensor([float("inf"), 1e10]))
print(torch.tensor(-0.5), torch.tensor(1e-10), torch.tensor(123456789), torch.tensor(1e100, dtype=torch.float64))
print(torch.randn(5000).shape, torch.linspace(-1, 1, 2001))
print(torch.tensor([3+4j, 1-2j]), torch.tensor([1.0, 2.0]).to(torch.complex64))
print(torch.tensor([[1.0, 2.0]]).T, torch.tensor([1, 2]).to(torch.uint8), torch.tensor([-1], dtype=torch.int8))
print(torch.Size([2, 3]), torch.Size([2, 3]) == (2, 3), torch.Size([2, 3]).numel(), torch.zeros(2, 3).shape[1:])
print(repr(torch.zeros(2).shape), str(torch.ones(1)), f"{torch.zeros(2, 2)!r}")
print(torch.tensor(2.0).__format__(".2f"), format(torch.tensor(3), "05d"), "{:.1f}".format(torch.tensor([1.25])[0]))
''')

program("inplace_views_aliasing", r'''
import torch
x = torch.zeros(3, 4)
row = x[1]
row += 5
col = x[:, 2]
col.fill_(-1)
print(x)
v = x.view(12)
v[0] = 42
print(x[0, 0], x.data_ptr() == v.data_ptr(), x.is_contiguous(), x.t().is_contiguous())
y = x.t()
y[0, 1] = 7
print(x)
c = x.clone()
c.zero_()
print(x.sum(), c.sum())
d = x.detach()
d.add_(1)
print(x.sum().item())
e = torch.arange(6)
e[::2] *= 10
print(e, e.flip(0))
f = torch.ones(2, 3)
f.mul_(torch.tensor([1.0, 2.0, 3.0])).sub_(1).div_(2)
print(f, f.clamp_(0.2, 0.6), f.abs_(), f.neg_())
g = torch.arange(4.0)
g.copy_(torch.tensor([9, 8, 7, 6]))
print(g, g.dtype)
try:
    torch.arange(4).add_(0.5)
except RuntimeError:
    print("RuntimeError inplace cast")
h = torch.tensor([1, 2, 3])
h2 = h
h2 += 1
print(h, h is h2)
k = torch.ones(2, 2)
k[0][1] = 5
print(k, k.unsqueeze_(0).shape, k.squeeze_().shape, k.t_().shape)
''')

program("data_munging", r'''
import torch
torch.manual_seed(42)
rows = [[1.0, 20.0, 0.0], [2.0, 35.0, 1.0], [3.0, float("nan"), 1.0], [4.0, 50.0, 0.0]]
data = torch.tensor(rows)
ages = data[:, 1]
valid = ~torch.isnan(ages)
mean_age = ages[valid].mean()
ages_filled = torch.where(valid, ages, mean_age)
print(ages_filled, f"mean={mean_age:.2f}")
data[:, 1] = ages_filled
groups = data[:, 2].long()
for g in range(2):
    sel = data[groups == g]
    print(g, sel.shape[0], sel[:, 1].mean().item())
perm = torch.randperm(4)
print(perm.shape, perm.dtype, sorted(perm.tolist()))
train, test = data[:3], data[3:]
print(train.shape, test.shape, torch.cat((train, test)).shape)
feats = data[:, :2]
print((feats - feats.mean(0)) / feats.std(0))
print(torch.stack([torch.tensor(r) for r in [[1, 2], [3, 4]]]), torch.tensor(list(range(5))).view(5, 1).expand(5, 2))
batches = [data[i:i + 3] for i in range(0, len(data), 3)]
print([b.shape for b in batches], [tuple(b.shape) for b in batches])
names = ["a", "b", "c", "d"]
best = data[:, 1].argmax().item()
print(names[best], names[int(data[:, 0].argmin())])
print(dict(zip(names, data[:, 0].int().tolist())))
print(data.numpy().round(1).tolist()[0])
r = torch.rand(3, 2)
print(((r >= 0) & (r < 1)).all().item(), torch.randint(5, (2, 2)).shape, torch.normal(0.0, 1.0, (3,)).shape)
''')

program("math_ops", r'''
import torch
x = torch.linspace(-2, 2, 5)
print(torch.sin(x), torch.cos(x), torch.atan2(x, torch.ones(5)), torch.exp2(x), torch.log1p(x.abs()))
print(torch.relu(x), torch.erf(x), torch.rsqrt(x.abs() + 1), torch.reciprocal(x + 3), torch.square(x))
print(torch.fmod(torch.tensor([-3, 3]), 2), torch.remainder(torch.tensor([-3, 3]), 2), torch.tensor([-3.5]) % 2)
print(torch.floor_divide(torch.tensor([-7, 7]), 2), torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"), torch.div(torch.tensor([7]), 2, rounding_mode="floor"))
print(torch.true_divide(torch.tensor([1]), 2), torch.tensor([5]) / torch.tensor([2]))
print(torch.pow(torch.tensor([2, 3]), 2), torch.tensor([2]) ** -1.0 if True else 0, torch.tensor(0.0) ** 0)
print(torch.bitwise_and(torch.tensor([12]), 10), torch.tensor([1]) << 3, torch.tensor([16]) >> 2, torch.tensor([5]) ^ torch.tensor([3]))
print(torch.logical_and(torch.tensor([1, 0]), torch.tensor([1, 1])), torch.logical_not(torch.tensor([0, 2])))
print(torch.log2(torch.tensor([8.0])), torch.log10(torch.tensor([1000.0])))
print(torch.sqrt(torch.tensor([-1.0])), torch.log(torch.tensor([0.0, -1.0])), torch.tensor([1.0]) / 0, torch.tensor([0.0]) / 0)
print(torch.tensor([1, 2]) / torch.tensor([0, 0]), torch.max(torch.tensor([1, 5]), torch.tensor([3, 2])), torch.min(torch.tensor([[1, 5], [0, 9]]), dim=0))
try:
    torch.tensor([1]) // 0
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([2.0]).pow(torch.tensor([0.5])), torch.tensor([True]) + torch.tensor([True]), torch.tensor([True]) * 2.5)
''')

program("math_composites", r'''
import torch
angles = torch.tensor([0.0, 90.0, 180.0, 270.0])
rad = torch.deg2rad(angles)
print(rad, torch.rad2deg(rad), torch.sin(rad).round(decimals=3), angles.deg2rad().cos().abs() < 1e-6)
print(torch.addcmul(torch.zeros(2), torch.ones(2), torch.tensor([2.0, 3.0]), value=0.5), torch.addcdiv(torch.ones(2), torch.ones(2), torch.tensor([2.0, 4.0])))
m, v = torch.zeros(3), torch.ones(3)
g = torch.tensor([0.1, -0.2, 0.3])
m = m * 0.9 + 0.1 * g
v = v.mul(0.999).addcmul(g, g, value=0.001)
p = torch.tensor([1.0, 1.0, 1.0]).addcdiv(m, v.sqrt() + 1e-8, value=-0.01)
print(m, v, p)
try:
    torch.addcdiv(torch.ones(2), torch.tensor([1, 2]), torch.tensor([1, 2]))
except RuntimeError:
    print("RuntimeError")
''')

program("hypot", r'''
import torch
print(torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])))
''', needs=("hypot",))

program("error_classes", r'''
import torch
cases = {
    "iter0d": lambda: list(torch.tensor(3)),
    "len0d": lambda: len(torch.tensor(3)),
    "fmt_multi": lambda: f"{torch.tensor([1.0, 2.0]):.2f}",
    "float_multi": lambda: float(torch.tensor([1.0, 2.0])),
    "int_empty": lambda: int(torch.tensor([])),
    "float_index": lambda: torch.arange(3)[torch.tensor([1.0])],
    "neg_oob": lambda: torch.arange(3)[-4],
    "too_many_idx": lambda: torch.zeros(2)[0, 0],
    "neg_step": lambda: torch.arange(5)[::-1],
    "expand_bad": lambda: torch.zeros(2, 3).expand(4, 3),
    "view_noncontig": lambda: torch.zeros(2, 3).t().view(6),
    "stack_mismatch": lambda: torch.stack([torch.zeros(2), torch.zeros(3)]),
    "mask_shape": lambda: torch.zeros(3)[torch.tensor([True, False])],
    "setitem_shape": lambda: torch.zeros(3).__setitem__(slice(None), torch.ones(2)),
    "matmul_1d": lambda: torch.ones(3) @ torch.ones(4),
    "bad_dtype_arg": lambda: torch.zeros(2, dtype="float32"),
    "tensor_str": lambda: torch.tensor("abc"),
    "randint_bad": lambda: torch.randint(5, 2, (3,)),
    "arange_bad": lambda: torch.arange(0, 5, 0),
    "squeeze_dim": lambda: torch.zeros(2).squeeze(3),
    "permute_bad": lambda: torch.zeros(2, 3).permute(0),
    "reshape_neg": lambda: torch.zeros(6).reshape(-1, -1),
    "cat_empty": lambda: torch.cat([]),
    "item_multi": lambda: torch.zeros(2, 2).item(),
    "bool_amb": lambda: 1 if torch.tensor([0, 1]) else 0,
    "index_select_float": lambda: torch.zeros(3).index_select(0, torch.tensor([0.0])),
    "gather_dim": lambda: torch.zeros(2, 2).gather(2, torch.zeros(2, 2, dtype=torch.long)),
    "sum_str": lambda: torch.zeros(2).sum(dim="x"),
    "add_none": lambda: torch.zeros(2) + None,
    "bitwise_float": lambda: torch.tensor([1.5]) & 1,
    "full_bad": lambda: torch.full(2, 1.0),
    "eye_neg": lambda: torch.eye(-1),
    "mean_int_dim": lambda: torch.arange(4).mean(0),
}
for name, fn in cases.items():
    try:
        r = fn()
        print(name, "ok", r)
    except Exception as e:
        print(name, type(e).__name__)
''')

program("promotion_and_reductions_dtypes", r'''
import torch
for dt in [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    t = torch.tensor([1, 0, 1], dtype=dt)
    print(str(dt), t.sum().dtype, t.prod().dtype, t.cumsum(0).dtype, (t + 1).dtype, (t * 1.0).dtype, (t / 2).dtype, t.max().dtype, t.abs().dtype if dt != torch.bool else "-")
    print(" ", t.float().mean().item(), t.sum(dtype=torch.float64).item(), (t == 1).dtype, t.to(torch.float32).sum().item())
print(torch.tensor([1, 2]) + torch.tensor([1.5], dtype=torch.float64), torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8))
print(torch.cat([torch.tensor([1]), torch.tensor([2.5])]), torch.stack([torch.tensor(1), torch.tensor(2)]).dtype)
print(torch.tensor([1, 2]).float().dtype, torch.tensor(5, dtype=torch.int32) * torch.tensor([1.0], dtype=torch.float16))
print(torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8), torch.tensor([127], dtype=torch.int8) + 1)
print(torch.tensor([2 ** 40]), torch.tensor([2 ** 40]).int() if False else torch.tensor([1.0e10]).long())
print(torch.tensor([[1, 2], [3, 4]]).mean(dtype=torch.float32), torch.tensor([1, 2]).sum(0, keepdim=True))
print(torch.tensor([1.5, 2.5]).half().sum(), torch.tensor([0.5] * 10).sum(), torch.tensor([0.1] * 10, dtype=torch.float64).sum())
print(torch.tensor([1, 2, 3]) > 1.5, torch.tensor([1, 2, 3]) == 2.0, torch.tensor([1.0, 2.0]) < torch.tensor([2]))
print(torch.tensor(3) * torch.tensor([1.5]), (torch.tensor(3.0, dtype=torch.float64) * torch.tensor([1], dtype=torch.int32)).dtype)
print(torch.tensor([torch.tensor(1.5).item(), 2]), torch.tensor(torch.tensor([1, 2]).tolist()))
''')

program("python_protocols", r'''
import math
import numpy as np
import torch
t = torch.tensor([3.0, 1.0, 2.0])
print(sum(t), max(t), min(t), sorted(t, key=lambda v: v.item()), list(reversed(t.tolist())))
print(math.sqrt(t[0]), round(t[1].item()), round(torch.tensor(2.567).item(), 1), math.floor(torch.tensor(2.5)))
print([x for x in t if x > 1.5], list(map(float, t)), enumerate(t).__next__()[1])
print(np.float64(2.0) * t, type(np.float64(2.0) * t).__name__, t * np.float32(2.0))
print(t + np.int64(1), (t + np.int64(1)).dtype, torch.tensor(np.float32(1.5)).dtype)
print([torch.tensor(1), torch.tensor([2.0])], (torch.tensor(1), torch.zeros(2)), {"w": torch.ones(2)})
r = t.max(0)
v, i = r
print(r.values, r.indices, v, i, r[0], len(r), type(r).__name__)
print(t.min(dim=0, keepdim=True))
d = {}
a = torch.tensor(1)
d[a] = "x"
print(d[a], a in d, torch.tensor(1) in d)
print(str(t.dtype).split(".")[-1], t.dtype.itemsize, t.shape == torch.Size([3]), t.shape[0] * 2, t.size() == (3,))
print(isinstance(t, torch.Tensor), type(t).__name__, torch.is_tensor(5), torch.numel(t))
print(bool(torch.tensor(0.0)), bool(torch.tensor([2])), not torch.tensor(False), int(torch.tensor(True)))
x = torch.arange(4)
print(x.tolist() == [0, 1, 2, 3], (x == torch.arange(4)).all(), torch.tensor(2) == 2, 2.0 == torch.tensor(2))
print(float("%.3f" % torch.tensor(1 / 3)), "%d items" % torch.tensor(4), "{}".format(torch.tensor([1, 2])))
print(x[torch.tensor(2)], x[np.int64(1)], x[[True, False, True, False]], x[np.array([0, 3])])
print(range(5)[torch.tensor(2)], [10, 20, 30][torch.tensor(1)], torch.zeros(torch.tensor(3)).shape)
print(torch.tensor([1, 2]).__array__().tolist(), np.array(torch.tensor([[1.5]])).shape, np.sum(torch.tensor([1, 2]).numpy()))
''')

program("printoptions_and_slices", r'''
import torch
x = torch.arange(20.0).reshape(4, 5) / 3
print(x.t(), x[:, 1::2], x[::-1] if False else x.flip(1)[1:3])
torch.set_printoptions(precision=2)
print(x[:2])
torch.set_printoptions(sci_mode=True)
print(x[0])
torch.set_printoptions(profile="default")
print(x[0])
torch.set_printoptions(threshold=5, edgeitems=1)
print(torch.arange(10), x)
torch.set_printoptions(profile="default")
print(torch.arange(10), torch.tensor([1e-3, 1e3]), torch.tensor([1e-4, 1e4]), torch.tensor([0.001, 0.01]))
print(torch.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]), torch.tensor([1e5, 1e-5]))
print(torch.tensor([[0.5]] * 3).expand(3, 4), torch.zeros(2, 3)[:, 1:1])
print(torch.arange(-5, 5).reshape(2, 5) * 1000, torch.tensor([-1.5, 22.25, 333.125]))
print(torch.tensor([2.0 ** 24, 1.0]), torch.tensor([1.0, 2.0]) / 3 * 1e-3)
''')

program("scatter_gather_onehot", r'''
import torch
labels = torch.tensor([2, 0, 1, 2])
n = labels.numel()
onehot = torch.zeros(n, 3, dtype=torch.long)
onehot[torch.arange(n), labels] = 1
print(onehot, (onehot.argmax(1) == labels).all())
print(torch.zeros(n, 3).scatter(1, labels.view(-1, 1), 2.5))
print(torch.zeros(3, 3).scatter_(0, torch.tensor([[0, 1, 2]]), torch.ones(1, 3)))
probs = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
picked = probs.gather(1, labels.unsqueeze(1)).squeeze(1)
print(picked, -picked.log().mean(), probs[range(4), labels])
hist = torch.zeros(3).index_add(0, labels, torch.ones(n))
print(hist, hist / hist.sum())
emb = torch.arange(12.0).reshape(4, 3)
print(emb[torch.tensor([[0, 1], [3, 3]])].shape, emb[labels].sum(0), torch.embedding(emb, labels) if False else "")
x = torch.zeros(5)
x.index_fill_(0, torch.tensor([1, 3]), 9.0)
x[torch.tensor([0, 0])] += 1
print(x, x.index_put((torch.tensor([4]),), torch.tensor(5.0)), torch.take(emb, torch.tensor([0, 11])))
m = torch.zeros(2, 3)
m.masked_fill_(torch.tensor([[True, False, True], [False, False, True]]), -1)
print(m, m.masked_scatter(m < 0, torch.tensor([7.0, 8.0, 9.0])) if hasattr(m, "masked_scatter") else "")
''')

program("nan_ties_edge", r'''
import torch
x = torch.tensor([1.0, float("nan"), 3.0])
print(x.max(), x.min(), x.sum(), x.mean(), x.argmax(), torch.maximum(x, torch.zeros(3)), x.clamp(0, 2))
print(x == x, x != x, x > 0, torch.isfinite(x), x.nan_to_num(0.0).sum() if hasattr(x, "nan_to_num") else torch.where(x.isnan(), 0.0, x).sum(), x.isnan().any().item())
t = torch.tensor([[3, 7, 7], [1, 1, 0]])
print(t.argmax(), t.argmax(1), t.argmax(0, keepdim=True), t.max(1), t.argmin(1))
print(torch.tensor([True, False]).sum(), torch.tensor([True, True]).cumsum(0), torch.tensor([False, True]).max(), torch.tensor([False, True]).float().mean())
print(torch.tensor([-2 ** 63]).abs(), torch.tensor([-128], dtype=torch.int8).abs(), torch.tensor([5]) // -2, torch.tensor([-5]) % 3)
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).var(1, correction=0), torch.tensor([1.0]).std(), torch.tensor([2.0, 4.0]).var(unbiased=True))
print(torch.zeros(0).max() if False else torch.zeros(0, 2).amax(1), torch.zeros(0).prod(), torch.zeros(0, dtype=torch.long).sum().dtype)
print(torch.tensor(float("inf")) - torch.tensor(float("inf")), torch.tensor([1e38]) * 10, torch.tensor([1e-45]) / 2)
print(torch.tensor([0.5, 1.5, 2.5, -0.5]).round(), torch.tensor([1.25, 1.35]).round(decimals=1), torch.tensor([7]).round())
try:
    torch.zeros(0).max()
except (RuntimeError, IndexError) as e:
    print(type(e).__name__)
try:
    torch.zeros(0).argmax()
except (RuntimeError, IndexError) as e:
    print(type(e).__name__)
print(torch.tensor([3, 1, 2]).max(dim=0)[1].item(), torch.tensor([[1, 2], [3, 4]]).sum(-1).tolist(), torch.tensor([[1.0, 2.0], [3.0, 4.0]]).mean(-2))
''')

program("batched_linear_algebra_ops", r'''
import torch
A = torch.arange(8.0).reshape(2, 2, 2)
B = torch.ones(2, 2, 3)
print(A @ B, torch.matmul(A, torch.ones(2)), (A @ B).shape, torch.einsum("bij,bjk->bik", A, B).shape)
v = torch.tensor([1.0, 2.0])
print(v @ v, torch.tensor([[1.0, 2.0]]) @ torch.tensor([[3.0], [4.0]]), torch.mv(torch.eye(2), v), torch.inner(v, v) if hasattr(torch, "inner") else "")
print(torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0) if hasattr(torch, "cross") else "", torch.trace(torch.eye(3)))
print(torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), dims=1) if hasattr(torch, "tensordot") else "", torch.baddbmm(torch.zeros(2, 2, 3), A, B).sum())
I = torch.eye(3)
print(I * 2 + torch.ones(3, 3).triu(), torch.diag_embed(torch.tensor([1, 2])) if hasattr(torch, "diag_embed") else "", torch.diagflat(torch.tensor([1, 2])) if hasattr(torch, "diagflat") else "")
print(torch.tensor([[1, 2], [3, 4]]) @ torch.tensor([[1], [1]]), torch.tensor([1, 2], dtype=torch.int32) @ torch.tensor([1, 2], dtype=torch.int32))
try:
    torch.tensor([1, 2]) @ torch.tensor([1.0, 2.0])
except RuntimeError:
    print("RuntimeError dtype mismatch")
W = torch.full((3, 2), 0.5)
b = torch.tensor([0.1, -0.1])
X = torch.arange(6.0).view(2, 3)
h = torch.relu(X @ W + b)
print(h, h.shape, torch.addmm(b, X, W), torch.nn.functional.relu(h) if hasattr(torch, "nn") and False else "")
''')

program("one_liners", r'''
import torch
x = torch.arange(12).reshape(3, 4)
f = x.float() / 4
exprs = """
f"{torch.tensor(5):>4}|{torch.tensor(5):d}|{torch.tensor(1234567):,}|{torch.tensor(0.5):%}"
f"{torch.tensor(True)}|{torch.tensor([True])}|{torch.tensor(2.5):g}|{torch.tensor(1e-7):e}"
format(torch.tensor(3.14159), ".2f"), format(torch.tensor(3.14159)), format(torch.tensor([1, 2]))
x.sum(1).tolist(), x.t().reshape(-1).tolist(), x.flatten(1).shape, x.flatten(0, 1).shape
x.view(2, -1, 2).shape, x.unflatten(1, (2, 2)).shape, x[:, :, None].expand(-1, -1, 2).shape
x.split([1, 3], dim=1)[1], x.tensor_split(3, dim=1)[0] if hasattr(x, "tensor_split") else 0
x.chunk(2, 1)[0], x.new_zeros(2), x.new_ones((1, 2)).dtype, x.new_tensor([1.5]).dtype, x.new_full((2,), 3)
f.round(decimals=1), f.floor_divide(0.3), f.remainder(0.3), f.fmod(-0.3)
x.bitwise_not(), x & 5, x | 1, x ^ x, x.logical_and(x > 3)
torch.zeros(2, 3, dtype=torch.bool).any(), torch.ones(2, 0).all(), torch.zeros(0).any(), x.any(1), x.all(0)
x.sum(dim=[0, 1]), x.mean(dtype=torch.float64) if False else x.float().mean((0, 1), keepdim=True), x.amax((0, 1))
x.max(1).values.tolist(), x.min(), x.abs().sum().item() / x.numel()
torch.arange(5)[torch.arange(5) > 2].tolist(), torch.arange(5)[-2:], torch.arange(5)[1:-1:2]
torch.full((2, 2), float("nan")), torch.empty(2, 3).shape, torch.zeros([2, 2]).dtype, torch.ones((2,)).shape
torch.tensor([[1, 2], [3, 4]])[:, [1, 0]], torch.tensor([[1, 2], [3, 4]])[[1, 0]][:, 0]
torch.arange(10).view(2, 5)[:, ::2].contiguous().stride(), torch.arange(10).view(2, 5).T.stride()
torch.arange(3.0).expand(2, 3).sum(0), torch.arange(3).repeat(2), torch.arange(3).repeat_interleave(2)
torch.tensor([1, 2, 3]).flip(0).cumsum(0).flip(0), torch.tensor([3., 4.]).norm(p=1), torch.tensor([3., 4.]).norm(p=float("inf"))
torch.where(torch.tensor([1, 0, 2]) > 0)[0], torch.tensor([0, 1, 0, 2]).nonzero().squeeze(1), torch.nonzero(torch.tensor([1, 0]), as_tuple=True)
torch.tensor(3).expand(2), torch.tensor([5]).expand(3).clone(), torch.tensor([[1], [2]]).expand(-1, 3)
torch.tensor([1, 2, 3]).to(dtype=torch.float64), torch.tensor([1, 2]).to("cpu").device, str(torch.zeros(1).device), torch.device("cpu")
torch.tensor([[1, 2], [3, 4]]).sum(0) / torch.tensor([[1, 2], [3, 4]]).sum(), torch.tensor([7, 8]) * torch.tensor([[1], [2]])
torch.zeros(3).uniform_().shape, torch.empty(4).normal_().shape, torch.manual_seed(1) is not None
torch.tensor([[1.0, -1.0], [2.0, 0.0]]).sign(), torch.tensor([-1.5, 1.5]).trunc(), torch.tensor([9.0]).sqrt().int()
torch.tensor([1, 2, 3]).float().mean().item(), torch.tensor([1, 2, 3, 4]).view(2, 2).float().std().item()
torch.concat([torch.ones(1), torch.zeros(1)]) if hasattr(torch, "concat") else 0, torch.hstack([torch.ones(1), torch.zeros(2)]), torch.vstack([torch.ones(2), torch.zeros(2)])
torch.column_stack([torch.ones(2), torch.zeros(2)]) if hasattr(torch, "column_stack") else 0, torch.dstack([torch.ones(2)]).shape if hasattr(torch, "dstack") else 0
torch.atleast_2d(torch.tensor(1.0)) if hasattr(torch, "atleast_2d") else 0, torch.squeeze(torch.zeros(1, 2, 1), (0, 2)).shape
torch.swapaxes(torch.zeros(1, 2, 3), 0, 2).shape, torch.zeros(2, 3, 4).transpose(-1, -2).shape, torch.zeros(2, 3, 4).mT.shape
torch.eye(2, 3), torch.eye(3)[1:].t(), torch.linspace(0, 10, steps=3), torch.zeros(2, device="cpu").device.type, torch.zeros(1).is_cuda
torch.tensor([1, 2]).type(torch.float32), torch.tensor([1, 2]).type("torch.DoubleTensor")
torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.tensor([]).shape, torch.tensor([[]]).shape
torch.zeros(2).new_empty(3).shape, torch.zeros(2, 2).numel(), torch.zeros(2, 2).nelement() if hasattr(torch.zeros(1), "nelement") else 4
"""
for line in exprs.strip().splitlines():
    try:
        r = eval(line)
        print(r)
    except Exception as e:
        print("!", type(e).__name__)
''')

program("legacy_cuda", r'''
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.ones(2, 2, device=device).fill_diagonal_(0)
print(device, x, torch.logspace(0, 2, 3), torch.tensor([1.0, 2.0]).dist(torch.tensor([4.0, 6.0])))
print(torch.FloatTensor([1, 2]), torch.LongTensor([[1]]).dtype, torch.tensor([1.7]).type(torch.LongTensor))
''', needs=("cuda", "logspace", "dist", "FloatTensor", "LongTensor"))

program("kmeans_knn", r'''
import torch
pts = torch.tensor([[0.0, 0.0], [0.1, 0.2], [5.0, 5.0], [5.2, 4.9], [0.2, 0.1], [4.8, 5.1]])
centers = pts[[0, 2]].clone()
for it in range(5):
    d = ((pts[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    assign = d.argmin(1)
    new = torch.stack([pts[assign == k].mean(0) for k in range(2)])
    shift = (new - centers).abs().max()
    centers = new
    print(it, assign.tolist(), f"{shift.item():.4f}")
    if shift < 1e-6:
        break
print(centers)
q = torch.tensor([[4.0, 4.0], [0.5, 0.5]])
dist = torch.sqrt(((q.unsqueeze(1) - pts.unsqueeze(0)) ** 2).sum(dim=2))
print(dist.shape, dist.argmin(dim=1), dist.min(dim=1).values)
cos = (q @ pts.T) / (q.norm(dim=1, keepdim=True) * pts.norm(dim=1).clamp(min=1e-8))
print(cos)
''')

program("logreg_images", r'''
import torch
torch.manual_seed(0)
X = torch.tensor([[0.5, 1.0], [1.5, 2.0], [3.0, 3.5], [4.0, 5.0], [1.0, 0.5], [3.5, 4.5]])
y = torch.tensor([0.0, 0.0, 1.0, 1.0, 0.0, 1.0])
w = torch.zeros(2)
b = torch.tensor(0.0)
best = float("inf")
for epoch in range(300):
    z = X @ w + b
    p = 1 / (1 + torch.exp(-z))
    loss = -(y * torch.log(p + 1e-9) + (1 - y) * torch.log(1 - p + 1e-9)).mean()
    gw = X.T @ (p - y) / len(y)
    gb = (p - y).mean()
    w -= 0.1 * gw
    b -= 0.1 * gb
    if loss < best:
        best = loss.item()
    if epoch % 100 == 0:
        print(f"epoch {epoch:3d} loss={loss:.4f} w={[round(v, 4) for v in w.tolist()]}")
pred = (torch.sigmoid(X @ w + b) > 0.5).float()
print("acc", (pred == y).float().mean().item(), f"best {best:.4f}", b)
imgs = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4) / 95
mean = imgs.mean(dim=(0, 2, 3))
std = imgs.std(dim=(0, 2, 3))
norm = (imgs - mean[None, :, None, None]) / std.view(1, 3, 1, 1)
print(mean, std, norm.mean().abs() < 1e-5, norm[0, 0, :2, :2])
print(imgs.permute(0, 2, 3, 1).shape, imgs.flatten(1).shape, imgs[:, 0].max(), imgs.amax(dim=(2, 3)))
print((imgs * 255).to(torch.uint8)[1, 2, -1], imgs.clamp(0.2, 0.8).sum().round())
pooled = imgs.reshape(2, 3, 2, 2, 2, 2).amax(dim=(3, 5))
print(pooled.shape, pooled[0, 0])
''')

program("timeseries_poly", r'''
import torch
ts = torch.tensor([10.0, 12.0, 11.0, 15.0, 18.0, 17.0, 21.0, 25.0])
k = 3
ma = torch.stack([ts[i:i + k].mean() for i in range(len(ts) - k + 1)])
cs = torch.cat([torch.zeros(1), ts.cumsum(0)])
ma2 = (cs[k:] - cs[:-k]) / k
print(ma, bool(((ma - ma2).abs() < 1e-5).all()))
ret = ts[1:] / ts[:-1] - 1
print(ret, f"{ret.mean():.3%}", ret.std().item() > 0)
ewm = [ts[0]]
for v in ts[1:]:
    ewm.append(0.5 * v + 0.5 * ewm[-1])
print(torch.stack(ewm))
x = torch.linspace(-1, 1, 5)
feats = torch.stack([x ** p for p in range(4)], dim=1)
print(feats)
coef = torch.tensor([1.0, -2.0, 0.5, 3.0])
print(feats @ coef, (feats * coef).sum(1))
up = (ts[1:] > ts[:-1]).int()
print(up, up.sum(), "streak", max(len(s) for s in "".join(map(str, up.tolist())).split("0")))
z = (ts - ts.mean()) / ts.std()
print(z.abs() > 1, ts[z.abs() > 1], torch.where(z > 0, torch.ones_like(ts), -torch.ones_like(ts)))
''')

program("advanced_indexing", r'''
import torch
x = torch.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
i = torch.tensor([0, 2])
j = torch.tensor([1, 3])
print(x[:, i, j].shape, x[:, i, :, j].shape, x[0, :, j].shape, x[..., i].shape, x[1, ..., 0])
print(x[i[:, None], :, j].shape if False else x[:, i[:, None], j].shape, x[[[0], [1]], [[1, 2]]].shape)
print(x[x > 110].shape, x[0][x[0] % 7 == 0], x[:, torch.tensor([True, False, True])].shape)
print(x[0, -1, torch.tensor([-1, -2])], x[torch.tensor(1), 0, 0], x[0, 0, 0, torch.tensor([[0, 1], [2, 3]])])
print(x[None, ..., None].shape, x[:, None, 1].shape, x[1:, ..., 2:3].shape, x[[1]].shape, x[[1, 1, 0]][:, 0, 0, 0])
y = torch.zeros(4, 3, dtype=torch.int64)
y[1:3] = torch.tensor([7, 8, 9])
y[:, 0] = 2.9
y[torch.tensor([0, 0, 3]), torch.tensor([1, 1, 2])] = torch.tensor([5, 6, 7])
y[y == 0] = -1
y[..., -1] += 100
print(y)
z = torch.zeros(5)
z[torch.tensor([1, 1, 2])] += 1
print(z)
w = torch.arange(10.0)
w[w > 5] = w[w > 5] * 10
w[[0, -1]] = torch.tensor(-3.0)
w[2:4] = 0
print(w)
m = torch.zeros(3, 3)
m[torch.eye(3).bool()] = torch.tensor([1.0, 2.0, 3.0])
m[0, :] = torch.tensor([[4.0, 5.0, 6.0]])[0]
print(m, m[m.diag() > 1], m[:, m[0] > 4])
b = torch.tensor([[True, False], [False, True]])
print(torch.tensor([[1, 2], [3, 4]])[b], torch.tensor([[1, 2], [3, 4]])[b.any(1)], torch.tensor([[1, 2], [3, 4]])[:, [True, False]])
print(x.reshape(-1)[torch.tensor([], dtype=torch.long)], x[torch.zeros(2, 0, dtype=torch.long)].shape, x[0, 0][torch.tensor([False] * 4)].shape)
try:
    x[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]
except IndexError:
    print("IndexError broadcast")
try:
    y[torch.tensor([9])] = 1
except IndexError:
    print("IndexError oob set")
''')

program("random_and_defaults", r'''
import torch
torch.manual_seed(123)
a = torch.rand(3, 2)
torch.manual_seed(123)
b = torch.rand(3, 2)
print(torch.equal(a, b) if hasattr(torch, "equal") else bool((a == b).all()), a.shape, a.dtype)
g = torch.Generator().manual_seed(7)
r1 = torch.randn(4, generator=g)
print(r1.shape, torch.randn_like(a).shape, torch.rand_like(a).dtype, torch.randint_like(a, 10).dtype)
mask = torch.rand(100) < 0.5
print(mask.dtype, mask.shape, 0 < mask.sum().item() < 100)
drop = torch.ones(10) * (torch.rand(10) > 0.3).float() / 0.7
print(drop.shape, ((drop == 0) | ((drop - 1 / 0.7).abs() < 1e-6)).all().item())
print(torch.bernoulli(torch.full((5,), 0.5)).shape, torch.randint(3, 7, (2, 2)).min() >= 3, torch.randperm(5).sum())
print(torch.normal(torch.zeros(3), torch.ones(3)).shape, torch.empty(3).uniform_(-1, 1).abs().max() <= 1)
print(torch.initial_seed() if hasattr(torch, "initial_seed") else 123, torch.get_rng_state().dtype if hasattr(torch, "get_rng_state") else torch.uint8)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.zeros(2).dtype, torch.arange(3.0).dtype, torch.tensor(2).dtype, torch.rand(1).dtype)
print(torch.tensor([1]) * 0.5, torch.get_default_dtype(), torch.tensor([1.0]).float().dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype, (torch.tensor([1]) * 0.5).dtype, torch.tensor(1.5, dtype=torch.float64) + 1)
x = torch.tensor([1.0, 2.0])
y = torch.tensor(x) if False else x.clone().detach()
print(y, y is x, torch.as_tensor(x) is x, torch.as_tensor(x, dtype=torch.float64).dtype, torch.tensor(x.tolist()).dtype)
''')

program("keyword_spellings", r'''
import torch
x = torch.arange(6.0).reshape(2, 3)
exprs = """
torch.sum(x, dim=(0,)), torch.mean(x, 1, True), torch.max(x, 1, keepdim=True), torch.max(x, dim=1)[0]
torch.cat(tensors=[x, x], dim=1).shape, torch.stack((x, x), dim=-1).shape, torch.cat([x, x], axis=0).shape
torch.argmax(x, dim=None, keepdim=True) if True else 0, x.std(dim=0, unbiased=False, keepdim=True), torch.var(x, correction=2)
x.norm(2, dim=1), x.sum(axis=0), x.mean(axis=1), x.size(dim=1), x.transpose(dim0=0, dim1=1).shape
torch.clamp(x, min=torch.tensor(1.0), max=4), x.reshape((3, 2)).shape, x.permute((1, 0)).shape, x.permute(dims=(1, 0)).shape
x.repeat((2, 1)).shape, x.expand((2, 2, 3)).shape, x.view((-1,)).shape, x.view(torch.Size([3, 2])).shape
torch.zeros((2, 3)).shape, torch.ones([2]), torch.full(size=(2,), fill_value=1.0), torch.arange(start=1, end=5), torch.arange(end=3)
torch.randn(size=(2,)).shape, torch.tensor(data=[1]), torch.zeros(size=[1, 2]).shape, torch.empty((0,)).shape
torch.where(x > 2, x, other=torch.zeros(1)), torch.add(x, other=1, alpha=2), torch.sub(x, other=x)
x.sum(keepdim=True, dim=1), x.squeeze(dim=0).shape, x.unsqueeze(dim=-1).shape, x.flatten(start_dim=0).shape
torch.mul(x, 2, out=torch.empty(2, 3)), torch.matmul(x, other=x.t()), torch.pow(x, exponent=2), torch.pow(2, x)
x.max(), x.max(0), torch.max(x, torch.ones(3)), x.min(dim=-1).indices, torch.min(x, 0, True).values
x.to(torch.float64).dtype, x.to(dtype=torch.int32).dtype, x.to("cpu", torch.int8).dtype, x.to(torch.zeros(1, dtype=torch.int16)).dtype
x.type(dtype=torch.int64).dtype, x.long().float().double().half().bfloat16().float().dtype
torch.split(x, split_size_or_sections=1, dim=0)[0], x.split(2, 1)[1].shape, torch.chunk(x, chunks=2, dim=1)[1].shape
torch.index_select(x, dim=1, index=torch.tensor([2])), torch.gather(x, 1, index=torch.tensor([[0], [2]]))
torch.eq(x, 2), x.eq(other=2), x.gt(2).sum(), x.le(torch.tensor([0.0, 5.0, 5.0])), x.lt(1).any()
torch.softmax if False else 0, torch.cumsum(x, dim=1), x.cumsum(dim=0), torch.cumsum(x, 1, dtype=torch.float64).dtype
torch.tril(x, diagonal=-1), torch.triu(x), torch.flip(x, dims=[0, 1]), torch.roll(x, shifts=1), torch.roll(x, shifts=(1, 1), dims=(0, 1))
torch.linspace(start=0, end=1, steps=3), torch.eye(n=2, m=3), torch.full((1,), 5, dtype=torch.float32), torch.zeros_like(x, dtype=torch.int32)
torch.abs(-x), torch.neg(x).abs_(), torch.exp(x).log().round(), torch.round(x / 4, decimals=1)
"""
for line in exprs.strip().splitlines():
    try:
        print(eval(line))
    except Exception as e:
        print("!", type(e).__name__)
''')

program("more_mistakes", r'''
import torch
cases = [
    lambda: torch.zeros(1).expand(3).add_(1),
    lambda: torch.arange(10).view(3, -1),
    lambda: torch.arange(4).__itruediv__(2),
    lambda: torch.zeros(4).__setitem__(torch.tensor([True, False, True, True]), torch.ones(2)),
    lambda: torch.stack([]),
    lambda: torch.zeros(2, 3).T.T.reshape(3, 2).view(-1),
    lambda: torch.zeros(2, 3, 4).T.shape,
    lambda: torch.tensor([1, 2]) + torch.tensor([True, False]),
    lambda: torch.arange(4.0).view(torch.int32),
    lambda: torch.zeros(3).unsqueeze(2),
    lambda: torch.zeros(3, 4).transpose(0, 2),
    lambda: torch.zeros(2, 2).sum(1, 2),
    lambda: torch.ones(2, 2).max(dim=(0, 1)),
    lambda: torch.cat((torch.zeros(2, 3), torch.zeros(2, 4)), dim=0),
    lambda: torch.tensor([[1, 2], [3, 4]]).flatten()[4],
    lambda: torch.empty(2, 3).copy_(torch.ones(3, 2)),
    lambda: torch.zeros(3).masked_fill(torch.tensor([1, 0, 1]), 2.0),
    lambda: torch.where(torch.tensor([1, 0]), 1.0, 0.0),
    lambda: torch.arange(3).float().long().bool().int().sum().item(),
    lambda: torch.full((2,), 3).add_(1.5),
    lambda: torch.tensor([1.0]).item() + torch.tensor([1, 2]),
    lambda: torch.tensor(2) @ torch.tensor(3),
    lambda: torch.tensor([1.0, 2.0]).dot(torch.tensor([1, 2])),
    lambda: torch.zeros(3).index_select(0, torch.tensor([[0]])),
    lambda: torch.zeros(2, 2).gather(1, torch.tensor([[0, 3]])),
    lambda: torch.zeros(3).scatter_(0, torch.tensor([4]), 1.0),
    lambda: torch.ones(3).reshape(1, 3).squeeze(0).unsqueeze(-3),
    lambda: torch.linspace(0, 1, -1),
    lambda: torch.zeros(-1),
    lambda: torch.zeros(2).sum(keepdim=True),
    lambda: torch.randint(0, 5, 3),
    lambda: torch.rand(2, 3)[:, 3],
    lambda: list(torch.zeros(2, 2))[2],
    lambda: torch.zeros(2, 3).split(0),
    lambda: torch.tensor([[1, 2], [3]]),
    lambda: torch.tensor([1, "a"]),
    lambda: torch.tensor([None]),
    lambda: torch.tensor(3).tolist() + 1,
]
for i, fn in enumerate(cases):
    try:
        print(i, fn())
    except Exception as e:
        print(i, type(e).__name__)
''')

program("classification_report", r'''
import torch
torch.manual_seed(0)
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 1.5, 0.2], [0.3, 0.2, 2.2], [1.2, 1.1, 0.9],
                       [-0.5, 2.0, 0.1], [0.0, 0.1, 0.05], [3.0, -1.0, 0.0], [0.2, 0.1, 1.9]])
target = torch.tensor([0, 1, 2, 1, 1, 2, 0, 2])
probs = torch.softmax(logits, dim=1)
pred = probs.argmax(dim=1)
onehot = torch.eye(3)[target]
ce = -(onehot * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
print(f"cross-entropy: {ce:.4f}  accuracy: {(pred == target).float().mean():.3f}")
print("class  prec   rec    f1   support")
for c in range(3):
    tp = ((pred == c) & (target == c)).sum().item()
    fp = ((pred == c) & (target != c)).sum().item()
    fn = ((pred != c) & (target == c)).sum().item()
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    print(f"{c:>5}  {prec:.2f}   {rec:.2f}  {f1:.2f}  {int((target == c).sum()):>4}")
conf = torch.zeros(3, 3, dtype=torch.long)
conf.index_put_((target, pred), torch.ones(8, dtype=torch.long), accumulate=True)
print(conf, conf.diag().sum() / conf.sum(), conf.sum(0), conf.sum(1))
top_conf = probs.max(dim=1)
print([f"{v:.2f}" for v in top_conf.values.tolist()], top_conf.indices.equal(pred))
uncertain = (probs.max(1).values < 0.5).nonzero().flatten()
print("uncertain rows:", uncertain.tolist(), probs[uncertain].round(decimals=2))
entropy = -(probs * probs.log()).sum(1)
print(entropy, entropy.argmax().item(), torch.isclose(probs.sum(1), torch.ones(8)).all().item())
margin = probs.gather(1, target[:, None]).squeeze(1) - probs.masked_fill(onehot.bool(), 0).amax(1)
print(margin > 0, (margin > 0).equal(pred == target))
''')

program("autograd_training_by_hand", r'''
import torch
torch.manual_seed(0)
X = torch.linspace(-1, 1, 40).reshape(20, 2)
y = (X[:, :1] * 2 - X[:, 1:] > 0).float()
w1 = (torch.arange(16.0).reshape(2, 8) / 10 - 0.7).requires_grad_()
b1 = torch.zeros(8, requires_grad=True)
w2 = (torch.arange(8.0).reshape(8, 1) / 8 - 0.4).requires_grad_()
b2 = torch.zeros(1, requires_grad=True)
print(w1.is_leaf, w1.requires_grad, w1.grad)
for step in range(25):
    h = torch.relu(X @ w1 + b1)
    p = torch.sigmoid(h @ w2 + b2)
    loss = -(y * torch.log(p + 1e-7) + (1 - y) * torch.log(1 - p + 1e-7)).mean()
    if step == 0:
        print(loss.grad_fn.name(), h.grad_fn.name(), h.requires_grad, h.is_leaf)
    loss.backward()
    with torch.no_grad():
        for t in (w1, b1, w2, b2):
            t -= 0.5 * t.grad
            t.grad.zero_()
    if step % 8 == 0:
        print(step, round(loss.item(), 4))
print([round(v, 4) for v in b2.tolist()], b1.grad.abs().sum().item())
''')

program("autograd_semantics", r'''
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
h = y.register_hook(lambda g: g * 3)
z = (y ** 2).sum()
z.backward(retain_graph=True)
print(x.grad, y.grad)
h.remove()
x.grad = None
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:40])
try:
    (x * 2).backward()
except RuntimeError as e:
    print("RuntimeError", str(e))
try:
    x.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e))
a = x.detach().clone().requires_grad_()
b = a * 1
b[0] = 10.0
b.mul_(a)
print(b.grad_fn.name(), b)
b.sum().backward()
print(a.grad)
g, = torch.autograd.grad((a.sin() * a).sum(), a, create_graph=True)
g2, = torch.autograd.grad(g.sum(), a)
print([round(v, 4) for v in g.tolist()], [round(v, 4) for v in g2.tolist()])
u, v = torch.tensor([1.0], requires_grad=True), torch.tensor([2.0], requires_grad=True)
print(torch.autograd.grad((u * 3).sum(), [u, v], allow_unused=True))
with torch.no_grad():
    print((u * 2).requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled(), (u * 2).requires_grad)
w = u.double()
print(w.grad_fn.name(), w.dtype)
w.sum().backward()
print(u.grad, u.grad.dtype)

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return 2 * t * g

q = torch.tensor([3.0, -1.0], requires_grad=True)
r = Square.apply(q)
print(r.grad_fn.name())
r.sum().backward()
print(q.grad)
print(torch.autograd.gradcheck(Square.apply, (q.detach().double().requires_grad_(),)))
''')


program("cnn_by_functional", r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.linspace(-1, 1, 2 * 1 * 8 * 8).reshape(2, 1, 8, 8)
w1 = (torch.arange(4 * 9, dtype=torch.float32).reshape(4, 1, 3, 3) % 5 - 2) / 10
w1.requires_grad_()
w2 = (torch.arange(3 * 64, dtype=torch.float32).reshape(3, 64) % 7 - 3) / 20
w2.requires_grad_()
h = F.relu(F.conv2d(x, w1, padding=1))
h = F.max_pool2d(h, 2)
print(h.shape, h.grad_fn.name())
logits = F.linear(h.flatten(1), w2)
loss = F.cross_entropy(logits, torch.tensor([0, 2]), label_smoothing=0.1)
print(f"{loss.item():.5f}", loss.grad_fn.name())
loss.backward()
print(f"{w1.grad.abs().sum().item():.5f} {w2.grad.abs().sum().item():.5f}")
print(F.avg_pool2d(x, 4).squeeze(), F.adaptive_avg_pool2d(x, 1).flatten())
print(F.interpolate(x[:1, :, :2, :2], scale_factor=2, mode="bilinear", align_corners=False))
print(F.pad(torch.arange(4.0).reshape(1, 2, 2), (1, 1), mode="reflect"))
''')

program("sorting_and_stats", r'''
import torch
scores = torch.tensor([[0.2, 0.9, 0.4, 0.9], [0.5, 0.1, 0.7, 0.3]])
print(scores.topk(2, dim=1))
print(torch.sort(scores, dim=1, descending=True, stable=True))
print(scores.argsort(dim=0), torch.msort(scores))
words = torch.tensor([3, 1, 3, 2, 1, 3])
print(torch.unique(words, return_counts=True, return_inverse=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1])))
edges = torch.tensor([0.0, 0.25, 0.5, 0.75])
print(torch.searchsorted(edges, scores), torch.bucketize(scores, edges, right=True))
print(torch.quantile(scores, torch.tensor([0.25, 0.5]), dim=1))
print(scores.median(dim=1), scores.kthvalue(2, 1).values, words.mode())
print(torch.cummax(words, 0), torch.logcumsumexp(scores, 1))
print(torch.var_mean(scores, dim=1), torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])))
print(torch.histc(scores, bins=4, min=0, max=1), torch.aminmax(scores))
''')

program("linear_algebra", r'''
import torch
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
b = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
x = torch.linalg.solve(A, b)
print(x, torch.allclose(A @ x, b))
print(f"{torch.linalg.det(A).item():.10f}", torch.logdet(A), torch.linalg.slogdet(A))
print(torch.allclose(torch.linalg.inv(A) @ A, torch.eye(3, dtype=torch.float64)))
L = torch.linalg.cholesky(A)
print(L, torch.dist(L @ L.T, A) < 1e-12)
print(torch.linalg.eigvalsh(A), torch.linalg.svdvals(A))
Q, R = torch.linalg.qr(A)
print(R.diagonal().sign(), torch.dist(Q @ R, A) < 1e-12)
print(torch.linalg.norm(A), torch.linalg.matrix_norm(A, ord=2), torch.linalg.vector_norm(b, 1))
print(torch.linalg.matrix_rank(A), torch.linalg.pinv(A[:2]).shape, torch.linalg.cond(A))
M = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
print(torch.linalg.lstsq(M, torch.tensor([[1.0], [2.0], [3.0]])).solution)
try:
    torch.linalg.inv(torch.zeros(2, 2))
except torch.linalg.LinAlgError as e:
    print("LinAlgError", isinstance(e, RuntimeError))
print(torch.cdist(M, M[:2]), torch.matrix_power(A[:2, :2], -1))
''')

program("attention_block", r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
tokens = torch.arange(2 * 4 * 6, dtype=torch.float32).reshape(2, 4, 6).sin()
h = F.layer_norm(tokens, (6,), eps=1e-5)
q = k = v = h.reshape(2, 4, 2, 3).transpose(1, 2)
att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(att.shape, f"{att.abs().sum().item():.4f}")
out = F.gelu(att.transpose(1, 2).reshape(2, 4, 6)) + tokens
print(F.dropout(out, p=0.5, training=False).equal(out))
print(F.softmax(out[0, 0], dim=0), F.log_softmax(out[0, 0], dim=-1).exp().sum())
emb = F.embedding(torch.tensor([[0, 2], [1, 0]]), torch.eye(3) * 2, padding_idx=0)
print(emb, F.one_hot(torch.tensor([2, 0]), 3))
print(F.normalize(tokens[0], dim=-1).norm(dim=-1))
print(F.cosine_similarity(tokens[0], tokens[1]), F.group_norm(tokens, 2).std(-1, False).shape)
''')

program("losses", r'''
import torch
import torch.nn.functional as F
pred = torch.tensor([[0.2, -1.0, 0.5], [1.5, 0.3, -0.2]])
target = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
for name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "soft_margin_loss",
             "binary_cross_entropy_with_logits", "multilabel_soft_margin_loss"):
    print(name, f"{getattr(F, name)(pred, target).item():.6f}")
print(F.binary_cross_entropy(pred.sigmoid(), target, reduction="none"))
print(F.nll_loss(F.log_softmax(pred, 1), torch.tensor([2, 0]), ignore_index=0))
print(F.cross_entropy(pred, torch.tensor([1, 2]), reduction="sum", weight=torch.tensor([1.0, 2.0, 0.5])))
print(F.kl_div(F.log_softmax(pred, 1), F.softmax(target, 1), reduction="batchmean"))
print(F.margin_ranking_loss(pred[0], pred[1], torch.tensor([1.0, -1.0, 1.0])))
print(F.triplet_margin_loss(pred, target, pred.flip(0)), F.hinge_embedding_loss(pred, target * 2 - 1))
print(F.multi_margin_loss(pred, torch.tensor([2, 0])), F.poisson_nll_loss(pred, target))
try:
    F.cross_entropy(pred, torch.tensor([1, 2, 0]))
except ValueError as e:
    print("ValueError", e)
''')
