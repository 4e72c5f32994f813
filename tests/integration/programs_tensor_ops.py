"""Programs (see programs.py): views and aliasing, data munging, math ops, error classes,
promotion, Python protocols, print options, scatter/gather, NaN and ties, batched linear
algebra, one-liners, the legacy cuda API."""
from programs_registry import program


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
