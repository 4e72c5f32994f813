"""Programs (see programs.py): whole workflows (k-means, logistic regression, time series,
classification reports, training by hand), advanced indexing, random defaults, keyword
spellings, common mistakes, autograd, a functional CNN, sorting, linear algebra,
attention, losses."""
from programs_registry import program


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
