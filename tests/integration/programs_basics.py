"""Programs (see programs.py): printing and formatting, masking and indexing, broadcasting,
reductions, small models by hand, NumPy interop, dtype conversions and their errors,
repr edge cases."""
from programs_registry import program


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
