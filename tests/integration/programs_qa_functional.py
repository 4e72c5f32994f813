"""QA programs on torch.nn.functional breadth (run by test_programs_qa_extra.py): fold/unfold,
grid_sample/affine_grid, interpolate, pad, embeddings, distances, every loss with its
reduction/weight/ignore_index variants, attention, convolution and pooling options,
normalisation in functional form, shuffles and activations, with gradients, float64 and
non-contiguous inputs and error messages.  Inputs are seeded torch.randn (mindtorch's cpu
generator draws PyTorch's numbers bit for bit); floats print rounded to 4 decimals."""
from programs_registry import program

# `show` prints tensors rounded to 4 decimals (-0.0 as 0.0); `err` runs a call and prints
# the error class and message.
HEAD = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
def show(*ts):
    print(*[t.detach().double().round(decimals=4) + 0.0 if isinstance(t, torch.Tensor) else t for t in ts])
def err(f, *a, **k):
    try:
        f(*a, **k)
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
def grad_of(f, *xs):
    xs = [x.detach().clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    show(y, *[x.grad for x in xs])
'''


def qa(name, text):
    program(name, HEAD + text)


qa("qa_fn_fold_unfold", r'''
x = torch.randn(2, 3, 5, 6, dtype=torch.float64)
for k in [dict(kernel_size=2), dict(kernel_size=(2, 3), stride=(1, 2), padding=1),
          dict(kernel_size=3, dilation=2, padding=(2, 1), stride=2)]:
    u = F.unfold(x, **k)
    print(tuple(u.shape))
    show(u.sum(1))
    f = F.fold(u, output_size=(5, 6), **k)
    show(f[0, 0])
grad_of(lambda x: F.unfold(x, 2, stride=2), x[:, :, :4, :4])
u = torch.randn(2, 12, 6, dtype=torch.float64)
grad_of(lambda u: F.fold(u, (3, 4), kernel_size=(2, 2), dilation=1), u)
show(F.unfold(x[0], 2).sum())  # unbatched 3-D input
show(F.fold(torch.randn(12, 6), (3, 4), 2).sum())
err(F.unfold, torch.randn(2, 3, 4), 5)
err(F.fold, torch.randn(2, 11, 6), (3, 4), 2)
err(F.fold, torch.randn(2, 12, 7), (3, 4), 2)
''')

qa("qa_fn_grid_sample_2d", r'''
x = torch.randn(2, 3, 4, 5)
g = torch.rand(2, 3, 6, 2) * 2.4 - 1.2
for mode in ["bilinear", "nearest", "bicubic"]:
    for pm in ["zeros", "border", "reflection"]:
        for ac in [False, True]:
            y = F.grid_sample(x, g, mode=mode, padding_mode=pm, align_corners=ac)
            print(mode, pm, ac, tuple(y.shape), round(y.sum().item(), 3))
            show(y[1, 2, 0])
x64 = x.double()
g64 = g.double()
for mode in ["bilinear", "bicubic"]:
    grad_of(lambda x, g: F.grid_sample(x, g, mode=mode, padding_mode="border", align_corners=False), x64[:1, :1], g64[:1])
grad_of(lambda x, g: F.grid_sample(x, g, mode="bilinear", padding_mode="reflection", align_corners=True), x64[:1, :2], g64[:1])
grad_of(lambda x: F.grid_sample(x, g64[:1], mode="nearest", align_corners=False), x64[:1, :1])
xt = x.transpose(2, 3)
show(F.grid_sample(xt, g, align_corners=False)[0, 0, 0])
err(F.grid_sample, x, g[..., :1])
err(F.grid_sample, x, g, mode="linear")
err(F.grid_sample, x, g, padding_mode="wrap")
''')

qa("qa_fn_grid_sample_3d_affine", r'''
x = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64)
theta = torch.tensor([[[0.9, 0.1, 0.0, 0.05], [-0.1, 1.1, 0.2, 0.0], [0.0, 0.1, 0.8, -0.1]]], dtype=torch.float64)
for ac in [False, True]:
    grid = F.affine_grid(theta, (1, 2, 2, 3, 4), align_corners=ac)
    print(tuple(grid.shape))
    show(grid[0, 1, 2])
    for mode in ["bilinear", "nearest"]:
        for pm in ["zeros", "border", "reflection"]:
            y = F.grid_sample(x, grid, mode=mode, padding_mode=pm, align_corners=ac)
            show(y[0, 1, 1])
grad_of(lambda x, t: F.grid_sample(x, F.affine_grid(t, (1, 2, 2, 3, 4), align_corners=False), align_corners=False), x, theta)
t2 = torch.tensor([[[1.0, 0.2, 0.1], [-0.3, 0.9, 0.0]], [[0.5, 0.0, 0.3], [0.0, 0.5, -0.2]]], dtype=torch.float64)
grad_of(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=True), t2)
err(F.affine_grid, t2, torch.Size((2, 1, 3)))
err(F.affine_grid, t2[:, :1], torch.Size((2, 1, 3, 4)))
err(F.affine_grid, t2.int(), torch.Size((2, 1, 3, 4)))
err(F.grid_sample, x, torch.rand(1, 2, 3, 4, 2, dtype=torch.float64))
err(F.grid_sample, x, torch.rand(1, 2, 3, 4, 3), mode="bicubic")
''')

qa("qa_fn_interpolate_modes", r'''
x1 = torch.randn(2, 3, 7)
x2 = torch.randn(2, 3, 5, 6)
x3 = torch.randn(1, 2, 3, 4, 5)
for mode, x in [("nearest", x1), ("nearest-exact", x1), ("linear", x1), ("area", x1),
                ("nearest", x2), ("nearest-exact", x2), ("bilinear", x2), ("bicubic", x2), ("area", x2),
                ("nearest", x3), ("nearest-exact", x3), ("trilinear", x3), ("area", x3)]:
    for kw in [dict(scale_factor=1.7), dict(scale_factor=0.6), dict(size=tuple([4] * (x.dim() - 2))),
               dict(scale_factor=1.7, recompute_scale_factor=True)]:
        if mode not in ("nearest", "nearest-exact", "area"):
            kw = dict(kw, align_corners=False)
        y = F.interpolate(x, mode=mode, **kw)
        print(mode, sorted(kw), tuple(y.shape), round(y.double().sum().item(), 3))
    if mode not in ("nearest", "nearest-exact", "area"):
        y = F.interpolate(x, scale_factor=2.3, mode=mode, align_corners=True)
        print(mode, "ac", tuple(y.shape), round(y.double().sum().item(), 3))
''')

qa("qa_fn_interpolate_grads_antialias", r'''
x = torch.randn(1, 2, 6, 7, dtype=torch.float64)
for mode in ["bilinear", "bicubic"]:
    for size in [(3, 4), (9, 5)]:
        y = F.interpolate(x, size=size, mode=mode, antialias=True, align_corners=False)
        show(y[0, 1])
    grad_of(lambda x: F.interpolate(x, size=(3, 4), mode=mode, antialias=True), x)
for mode in ["nearest", "nearest-exact", "area", "bilinear", "bicubic"]:
    kw = {} if mode in ("nearest", "nearest-exact", "area") else dict(align_corners=True)
    grad_of(lambda x: F.interpolate(x, size=(4, 9), mode=mode, **kw), x)
grad_of(lambda x: F.interpolate(x, scale_factor=(1.5, 0.75), mode="bilinear", recompute_scale_factor=False), x)
x1 = torch.randn(2, 1, 5, dtype=torch.float64)
grad_of(lambda x: F.interpolate(x, scale_factor=2.5, mode="linear"), x1)
x3 = torch.randn(1, 1, 3, 4, 4, dtype=torch.float64)
grad_of(lambda x: F.interpolate(x, size=(2, 5, 3), mode="trilinear"), x3)
xt = torch.randn(1, 2, 7, 6).transpose(2, 3)
show(F.interpolate(xt, size=(4, 5), mode="bilinear")[0, 0])
err(F.interpolate, x, size=(3, 4), mode="linear")
err(F.interpolate, x, size=(3, 4), scale_factor=2.0)
err(F.interpolate, x)
err(F.interpolate, x, size=3, mode="nearest", align_corners=True)
err(F.interpolate, x1, size=3, mode="linear", antialias=True)
err(F.interpolate, x, size=(3, 4, 5))
''')

qa("qa_fn_pad_modes", r'''
x = torch.arange(2 * 2 * 3 * 4, dtype=torch.float64).reshape(2, 2, 3, 4)
for mode in ["constant", "reflect", "replicate", "circular"]:
    for pad in [(1, 2), (2, 1, 1, 2), (1, 0, 0, 2)]:
        xx = x[0] if len(pad) == 2 else x
        y = F.pad(xx, pad, mode=mode) if mode != "constant" else F.pad(xx, pad, value=-1.5)
        print(mode, pad, tuple(y.shape))
        show(y[1])
    grad_of(lambda x: F.pad(x, (2, 1, 1, 2), mode=mode), x)
show(F.pad(x, (-1, 1, -1, 0)))
show(F.pad(x, (-1, -2)))
show(F.pad(x, (1, 1, 1, 1, 1, 1)).shape)
x5 = torch.randn(1, 2, 3, 3, 4)
for mode in ["reflect", "replicate", "circular"]:
    show(F.pad(x5, (1, 1, 2, 0, 1, 2), mode=mode).sum((0, 1, 2)))
x1 = torch.randn(2, 5)
show(F.pad(x1, (2, 2), mode="reflect"), F.pad(x1, (3, 1), mode="circular"))
show(F.pad(x.transpose(2, 3), (1, 2, 0, 1), mode="reflect")[0, 0])
show(F.pad(torch.arange(6).reshape(2, 3), (1, 1), value=7))
err(F.pad, x, (1, 1), mode="reflect")
err(F.pad, x[0], (4, 4), mode="reflect")
err(F.pad, x, (1, 2, 3))
err(F.pad, x[0], (5, 5), mode="circular")
err(F.pad, x, (1, 1), mode="wrap")
err(F.pad, x, (-3, -2))
''')

qa("qa_fn_embedding_max_norm", r'''
w = torch.randn(10, 4)
idx = torch.tensor([[1, 3, 3], [0, 9, 1]])
show(F.embedding(idx, w))
w1 = w.clone()
y = F.embedding(idx, w1, max_norm=1.0)
show(y, w1.norm(dim=1))  # rows 0, 1, 3, 9 renormalised in place
w2 = w.clone()
show(F.embedding(idx, w2, max_norm=0.5, norm_type=1.0), w2.abs().sum(1))
wg = w.clone().requires_grad_(True)
out = F.embedding(idx, wg, padding_idx=3)
(out * torch.arange(24.0).reshape(2, 3, 4)).sum().backward()
show(wg.grad)
wg.grad = None
out = F.embedding(torch.tensor([2, 2, 5, 2]), wg, scale_grad_by_freq=True)
(out * torch.arange(16.0).reshape(4, 4)).sum().backward()
show(wg.grad)
show(F.embedding(torch.tensor(4), w), F.embedding(torch.tensor([], dtype=torch.long), w).shape)
err(F.embedding, torch.tensor([1.0, 2.0]), w)
err(F.embedding, torch.tensor([10]), w)
err(F.embedding, idx, w, padding_idx=10)
''')

qa("qa_fn_embedding_bag_modes", r'''
w = torch.randn(8, 3, dtype=torch.float64)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 7])
offs = torch.tensor([0, 3, 3, 6])
for mode in ["sum", "mean", "max"]:
    show(F.embedding_bag(inp, w, offs, mode=mode))
    show(F.embedding_bag(inp, w, offs, mode=mode, include_last_offset=True))
    show(F.embedding_bag(inp.reshape(2, 4), w, mode=mode, padding_idx=4))
    grad_of(lambda w: F.embedding_bag(inp, w, offs, mode=mode), w)
psw = torch.linspace(0.5, 2.0, 8, dtype=torch.float64)
show(F.embedding_bag(inp, w, offs, mode="sum", per_sample_weights=psw))
grad_of(lambda w, p: F.embedding_bag(inp, w, offs, mode="sum", per_sample_weights=p), w, psw)
w3 = w.clone()
show(F.embedding_bag(inp, w3, offs, max_norm=0.7), w3.norm(dim=1))
err(F.embedding_bag, inp, w, offs, mode="mean", per_sample_weights=psw)
err(F.embedding_bag, inp, w)
err(F.embedding_bag, inp, w, offs, mode="median")
''')

qa("qa_fn_one_hot_normalize", r'''
print(F.one_hot(torch.tensor([0, 3, 1, 3])))
print(F.one_hot(torch.tensor([[0, 2], [1, 0]]), num_classes=4).shape, F.one_hot(torch.tensor([2, 1]), 5).dtype)
print(F.one_hot(torch.tensor([], dtype=torch.long), 3).shape)
err(F.one_hot, torch.tensor([0, 3]), 3)
err(F.one_hot, torch.tensor([-1, 0]))
err(F.one_hot, torch.tensor([0.0, 1.0]))
x = torch.randn(3, 4, 5)
for p, dim in [(2, 1), (1, -1), (float("inf"), 0), (3.5, 2), (0.5, 1)]:
    show(F.normalize(x, p=p, dim=dim)[1])
show(F.normalize(torch.zeros(2, 3)), F.normalize(torch.tensor([1e-14, 0.0]), dim=0, eps=1e-12))
x64 = torch.randn(4, 3, dtype=torch.float64)
grad_of(lambda x: F.normalize(x, dim=1), x64)
grad_of(lambda x: F.normalize(x, p=1, dim=0), x64)
grad_of(lambda x: F.normalize(x.t(), dim=0), x64)
out = torch.empty(4, 3, dtype=torch.float64)
F.normalize(x64, out=out)
show(out)
''')

qa("qa_fn_distances", r'''
a = torch.randn(5, 4, dtype=torch.float64)
b = torch.randn(5, 4, dtype=torch.float64)
for p in [2.0, 1.0, 0.0, 3.0, float("inf"), 0.5]:
    show(F.pdist(a, p=p))
    show(F.pairwise_distance(a, b, p=p), F.pairwise_distance(a, b, p=p, keepdim=True).shape)
grad_of(lambda a: F.pdist(a), a)
grad_of(lambda a: F.pdist(a, p=1), a)
grad_of(lambda a: F.pdist(a, p=float("inf")), a)
grad_of(lambda a, b: F.pairwise_distance(a, b, eps=1e-4), a, b)
show(F.pairwise_distance(a, b[0]), F.pairwise_distance(a[0], b[1]))
for dim in [1, 0, -1]:
    show(F.cosine_similarity(a, b, dim=dim))
show(F.cosine_similarity(a[:, None, :], b[None, :, :], dim=-1))
show(F.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3)))
grad_of(lambda a, b: F.cosine_similarity(a, b), a, b)
show(torch.cdist(a, b), torch.cdist(a, b, p=1))
grad_of(lambda a, b: torch.cdist(a, b), a, b)
err(F.pdist, torch.randn(2, 3, 4))
err(F.pdist, a, p=-1.0)
err(F.cosine_similarity, a, torch.randn(4, 5))
err(F.pairwise_distance, a, torch.randn(3, 4))
''')

qa("qa_fn_ctc_loss", r'''
T, N, C, S = 12, 3, 6, 4
lp = torch.randn(T, N, C, dtype=torch.float64).log_softmax(2)
targets = torch.tensor([[1, 2, 2, 3], [4, 4, 0, 0], [5, 1, 3, 0]])
il = torch.tensor([12, 10, 8])
tl = torch.tensor([4, 2, 3])
for red in ["mean", "sum", "none"]:
    show(F.ctc_loss(lp, targets, il, tl, reduction=red))
grad_of(lambda lp: F.ctc_loss(lp, targets, il, tl, reduction="sum").reshape(1), lp)
flat = torch.cat([targets[i, :tl[i]] for i in range(N)])
show(F.ctc_loss(lp, flat, il, tl), F.ctc_loss(lp, flat, tuple(il.tolist()), tuple(tl.tolist())))
lp2 = torch.randn(T, N, C, dtype=torch.float64).log_softmax(2)
bad_tl = torch.tensor([4, 2, 9])
show(F.ctc_loss(lp2, torch.randint(1, C, (N, 9)), il, bad_tl, reduction="none"))
show(F.ctc_loss(lp2, torch.randint(1, C, (N, 9)), il, bad_tl, reduction="none", zero_infinity=True))
show(F.ctc_loss(lp2.float(), targets, il, tl, blank=5))
show(F.ctc_loss(lp2[:, 0], targets[0], il[:1], tl[:1]))
err(F.ctc_loss, lp2, targets, torch.tensor([13, 10, 8]), tl)
err(F.ctc_loss, lp2, targets, il, tl, blank=6)
''')

qa("qa_fn_loss_classification", r'''
x = torch.randn(4, 5, dtype=torch.float64)
x3 = torch.randn(2, 5, 3, 2, dtype=torch.float64)
t = torch.tensor([1, 0, 4, 2])
t3 = torch.tensor([[[0, 1], [4, -100], [2, 2]], [[3, 3], [1, 0], [-100, 4]]])
w = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.25], dtype=torch.float64)
probs = torch.randn(4, 5, dtype=torch.float64).softmax(1)
for red in ["mean", "sum", "none"]:
    for kw in [{}, dict(weight=w), dict(ignore_index=2), dict(label_smoothing=0.1),
               dict(weight=w, label_smoothing=0.2, ignore_index=0)]:
        grad_of(lambda x: F.cross_entropy(x, t, reduction=red, **kw).reshape(-1), x)
    grad_of(lambda x: F.cross_entropy(x, t3, weight=w, reduction=red, label_smoothing=0.05).reshape(-1), x3)
    grad_of(lambda x: F.cross_entropy(x, probs, reduction=red, label_smoothing=0.1).reshape(-1), x)
    grad_of(lambda x: F.cross_entropy(x, probs, weight=w, reduction=red).reshape(-1), x)
    grad_of(lambda x: F.nll_loss(x.log_softmax(1), t3, weight=w, reduction=red).reshape(-1), x3)
show(F.cross_entropy(x, torch.full((4,), 3), ignore_index=3))  # nan: everything ignored
show(F.cross_entropy(x[0], t[0]), F.nll_loss(x[0], t[0]))
show(F.cross_entropy(x.float(), t))
err(F.cross_entropy, x, torch.tensor([1, 0, 5, 2]))
err(F.cross_entropy, x, t[:3])
err(F.cross_entropy, x, t.float())
err(F.nll_loss, x, t, weight=w[:3])
err(F.cross_entropy, x, probs[:, :4])
''')

qa("qa_fn_loss_binary", r'''
x = torch.randn(3, 4, dtype=torch.float64)
y = torch.rand(3, 4, dtype=torch.float64)
yb = (torch.rand(3, 4) > 0.5).double()
p = torch.sigmoid(x)
w = torch.linspace(0.5, 1.5, 4, dtype=torch.float64)
pw = torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.float64)
for red in ["mean", "sum", "none"]:
    grad_of(lambda p: F.binary_cross_entropy(p, y, reduction=red).reshape(-1), p)
    grad_of(lambda p: F.binary_cross_entropy(p, yb, weight=w, reduction=red).reshape(-1), p)
    grad_of(lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction=red).reshape(-1), x, y)
    grad_of(lambda x: F.binary_cross_entropy_with_logits(x, yb, weight=w, pos_weight=pw, reduction=red).reshape(-1), x)
    grad_of(lambda x: F.soft_margin_loss(x, yb * 2 - 1, reduction=red).reshape(-1), x)
    grad_of(lambda x: F.multilabel_soft_margin_loss(x, yb, weight=w, reduction=red).reshape(-1), x)
show(F.binary_cross_entropy(torch.tensor([0.0, 1.0, 1.0]), torch.tensor([0.0, 1.0, 0.0])))
err(F.binary_cross_entropy, p, y[:2])
err(F.binary_cross_entropy, p * 3, y)
err(F.binary_cross_entropy_with_logits, x, y[:, :2])
err(F.binary_cross_entropy, p.float(), y)
''')

qa("qa_fn_loss_regression", r'''
x = torch.randn(3, 4, dtype=torch.float64)
y = torch.randn(3, 4, dtype=torch.float64)
for red in ["mean", "sum", "none"]:
    grad_of(lambda x, y: F.mse_loss(x, y, reduction=red).reshape(-1), x, y)
    grad_of(lambda x, y: F.l1_loss(x, y, reduction=red).reshape(-1), x, y)
    for beta in [1.0, 0.3, 0.0]:
        grad_of(lambda x: F.smooth_l1_loss(x, y, reduction=red, beta=beta).reshape(-1), x)
    grad_of(lambda x: F.huber_loss(x, y, reduction=red, delta=0.5).reshape(-1), x)
    grad_of(lambda x: F.poisson_nll_loss(x, y.abs(), reduction=red).reshape(-1), x)
    grad_of(lambda x: F.poisson_nll_loss(x.exp(), y.abs() * 3, log_input=False, full=True, reduction=red).reshape(-1), x)
    var = torch.rand(3, 4, dtype=torch.float64) + 0.1
    grad_of(lambda x, v: F.gaussian_nll_loss(x, y, v, reduction=red).reshape(-1), x, var)
    grad_of(lambda x, v: F.gaussian_nll_loss(x, y, v, full=True, eps=0.2, reduction=red).reshape(-1), x, var[:, :1])
    grad_of(lambda x: F.kl_div(x.log_softmax(1), y.softmax(1), reduction=red).reshape(-1), x)
    grad_of(lambda x: F.kl_div(x.log_softmax(1), y.log_softmax(1), log_target=True, reduction=red).reshape(-1), x)
show(F.kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean"))
show(F.mse_loss(x, y[0]))  # broadcast warning in both
err(F.gaussian_nll_loss, x, y, torch.rand(3, 2, dtype=torch.float64))
err(F.gaussian_nll_loss, x, y, -torch.rand(3, 4, dtype=torch.float64))
err(F.mse_loss, x, y, reduction="avg")
err(F.huber_loss, x, y, delta=-1.0)
err(F.smooth_l1_loss, x, y, beta=-1.0)
''')

qa("qa_fn_loss_margin_ranking", r'''
x = torch.randn(4, 5, dtype=torch.float64)
t = torch.tensor([1, 0, 4, 2])
w = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.25], dtype=torch.float64)
mt = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, -1, 0], [0, -1, 0, 0, 0], [4, 3, 2, 1, 0]])
a, b = torch.randn(6, dtype=torch.float64), torch.randn(6, dtype=torch.float64)
ys = torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0, -1.0], dtype=torch.float64)
e1, e2 = torch.randn(4, 3, dtype=torch.float64), torch.randn(4, 3, dtype=torch.float64)
anc, pos, neg = (torch.randn(4, 3, dtype=torch.float64) for _ in range(3))
for red in ["mean", "sum", "none"]:
    for p in [1, 2]:
        grad_of(lambda x: F.multi_margin_loss(x, t, p=p, margin=0.7, weight=w, reduction=red).reshape(-1), x)
    grad_of(lambda x: F.multilabel_margin_loss(x, mt, reduction=red).reshape(-1), x)
    grad_of(lambda a, b: F.margin_ranking_loss(a, b, ys, margin=0.2, reduction=red).reshape(-1), a, b)
    grad_of(lambda a: F.hinge_embedding_loss(a, ys, margin=0.5, reduction=red).reshape(-1), a)
    grad_of(lambda u, v: F.cosine_embedding_loss(u, v, ys[:4], margin=0.1, reduction=red).reshape(-1), e1, e2)
    grad_of(lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1, swap=True, reduction=red).reshape(-1), anc, pos, neg)
    grad_of(lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.3, reduction=red).reshape(-1), anc, pos, neg)
show(F.triplet_margin_with_distance_loss(anc, pos, neg, swap=True))
err(F.multi_margin_loss, x, t, p=3)
err(F.multi_margin_loss, x, t[:3])
err(F.margin_ranking_loss, a, b[:4], ys)
err(F.cosine_embedding_loss, e1, e2, ys)
err(F.triplet_margin_loss, anc, pos, neg[:, :2])
''')

qa("qa_fn_sdpa_masks_dropout", r'''
q = torch.randn(2, 3, 4, 8, dtype=torch.float64)
k = torch.randn(2, 3, 6, 8, dtype=torch.float64)
v = torch.randn(2, 3, 6, 5, dtype=torch.float64)
bm = torch.rand(4, 6) > 0.3
fm = torch.randn(2, 1, 4, 6, dtype=torch.float64)
show(F.scaled_dot_product_attention(q, k, v)[1, 2])
show(F.scaled_dot_product_attention(q, k, v, attn_mask=bm)[0, 0])
show(F.scaled_dot_product_attention(q, k, v, attn_mask=fm, scale=0.2)[1, 1])
show(F.scaled_dot_product_attention(q, k, v, is_causal=True)[0, 1])
allmasked = torch.zeros(4, 6, dtype=torch.bool)
allmasked[:, 0] = True
allmasked[2] = False
show(F.scaled_dot_product_attention(q, k, v, attn_mask=allmasked)[0, 0])
grad_of(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=fm), q, k, v)
grad_of(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.5), q, k, v)
kg, vg = torch.randn(2, 1, 6, 8, dtype=torch.float64), torch.randn(2, 1, 6, 5, dtype=torch.float64)
show(F.scaled_dot_product_attention(q, kg, vg, enable_gqa=True)[1, 2])
torch.manual_seed(3)
y1 = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), dropout_p=0.4)
torch.manual_seed(3)
y2 = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), dropout_p=0.4)
print(torch.equal(y1, y2))
show(y1[0, 0])
err(F.scaled_dot_product_attention, q, k, v, attn_mask=fm, is_causal=True)
err(F.scaled_dot_product_attention, q, k[..., :7], v)
err(F.scaled_dot_product_attention, q, k.float(), v)
''')

qa("qa_fn_multi_head_attention_forward", r'''
E, H, L, S, N = 6, 2, 3, 4, 2
mha = nn.MultiheadAttention(E, H, dropout=0.0, bias=True, add_bias_kv=True, add_zero_attn=True)
q, k, v = torch.randn(L, N, E), torch.randn(S, N, E), torch.randn(S, N, E)
kpm = torch.tensor([[False, False, True, False], [False, True, True, False]])
am = torch.randn(L, S)
out, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, mha.bias_k, mha.bias_v,
                                        True, 0.0, mha.out_proj.weight, mha.out_proj.bias, training=False,
                                        key_padding_mask=kpm, attn_mask=am)
show(out, w)
out2, w2 = mha(q, k, v, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False)
print(torch.allclose(out, out2), tuple(w2.shape))
m2 = nn.MultiheadAttention(E, H, kdim=5, vdim=3, batch_first=True)
kk, vv = torch.randn(N, S, 5), torch.randn(N, S, 3)
o, w = m2(q.transpose(0, 1), kk, vv, key_padding_mask=kpm, need_weights=True)
show(o, w)
o, w = m2(q.transpose(0, 1), kk, vv, attn_mask=torch.ones(L, S, dtype=torch.bool).triu(1), need_weights=False)
show(o, w)
m3 = nn.MultiheadAttention(E, H, dropout=0.5)
m3.train()
torch.manual_seed(5)
o, w = m3(q, q, q, is_causal=True, attn_mask=nn.Transformer.generate_square_subsequent_mask(L))
show(o, w)
qq = q.detach().requires_grad_(True)
o, _ = mha(qq, k, v, key_padding_mask=kpm)
o.pow(2).sum().backward()
show(qq.grad, mha.in_proj_weight.grad[:3], mha.bias_k.grad)
err(mha, q, k[:, :1], v)
err(mha, q, k, v, key_padding_mask=kpm[:, :3])
err(mha, q, k, v, attn_mask=torch.randn(2, 3))
''')

qa("qa_fn_conv_options", r'''
x1 = torch.randn(2, 4, 9, dtype=torch.float64)
x2 = torch.randn(2, 4, 7, 8, dtype=torch.float64)
x3 = torch.randn(1, 4, 5, 6, 6, dtype=torch.float64)
w1 = torch.randn(6, 2, 3, dtype=torch.float64)
w2 = torch.randn(6, 2, 3, 2, dtype=torch.float64)
w3 = torch.randn(4, 1, 2, 3, 2, dtype=torch.float64)
b = torch.randn(6, dtype=torch.float64)
for pad in ["same", "valid", 1, 0]:
    for dil in [1, 2]:
        show(F.conv1d(x1, w1, b, padding=pad, dilation=dil, groups=2).sum(-1))
        show(F.conv2d(x2, w2, b, padding=pad, dilation=dil, groups=2).sum((-1, -2)))
        show(F.conv3d(x3, w3, None, padding=pad, dilation=(1, dil, 1), groups=4).sum((-1, -2, -3)))
grad_of(lambda x, w, b: F.conv2d(x, w, b, padding="same", dilation=2, groups=2), x2, w2, b)
grad_of(lambda x, w: F.conv1d(x, w, stride=2, padding=2, groups=2), x1, w1)
grad_of(lambda x, w: F.conv3d(x, w, stride=(2, 1, 2), padding=(1, 0, 1), groups=4), x3, w3)
conv = nn.Conv2d(4, 6, (3, 2), padding=(1, 2), groups=2, padding_mode="zeros").double()
for pm in ["reflect", "replicate", "circular"]:
    conv.padding_mode = pm
    show(conv(x2).sum((-1, -2)))
c1 = nn.Conv1d(4, 6, 3, padding="same", padding_mode="circular", dilation=2, groups=2).double()
show(c1(x1).sum(-1))
xn = x2.transpose(2, 3)
show(F.conv2d(xn, w2, b, groups=2).sum((-1, -2)), F.conv2d(x2[:, ::2], w2, stride=(2, 3)).sum((-1, -2)))
err(F.conv2d, x2, w2, padding="same", stride=2)
err(F.conv2d, x2, w2)
err(F.conv2d, x2, w2, groups=3)
err(F.conv2d, x2, w2.float(), groups=2)
err(F.conv1d, x1, w1, padding="full")
''')

qa("qa_fn_conv_transpose_options", r'''
x1 = torch.randn(2, 4, 5, dtype=torch.float64)
x2 = torch.randn(2, 4, 4, 5, dtype=torch.float64)
x3 = torch.randn(1, 2, 3, 2, 3, dtype=torch.float64)
w1 = torch.randn(4, 3, 3, dtype=torch.float64)
w2 = torch.randn(4, 3, 3, 2, dtype=torch.float64)
w3 = torch.randn(2, 2, 2, 3, 2, dtype=torch.float64)
b = torch.randn(6, dtype=torch.float64)
for stride, pad, opad, dil in [(1, 0, 0, 1), (2, 1, 1, 1), (3, 2, 2, 2), (2, 0, 1, 3)]:
    show(F.conv_transpose1d(x1, w1, b, stride=stride, padding=pad, output_padding=opad, groups=2, dilation=dil).sum(-1))
    show(F.conv_transpose2d(x2, w2, b, stride=stride, padding=pad, output_padding=opad, groups=2, dilation=dil).sum((-1, -2)))
    show(F.conv_transpose3d(x3, w3, None, stride=stride, padding=pad, output_padding=opad, dilation=dil).sum((-1, -2, -3)))
grad_of(lambda x, w, b: F.conv_transpose2d(x, w, b, stride=(2, 1), padding=1, output_padding=(1, 0), groups=2), x2, w2, b)
grad_of(lambda x, w: F.conv_transpose1d(x, w, stride=2, dilation=2, groups=2), x1, w1)
grad_of(lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=(0, 1, 0)), x3, w3)
ct = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2).double()
for size in [(7, 9), (8, 10)]:
    print(tuple(ct(x2, output_size=size).shape))
err(ct, x2, output_size=(12, 12))
err(F.conv_transpose2d, x2, w2, stride=2, output_padding=2)
err(F.conv_transpose2d, x2, w2, groups=3)
err(nn.ConvTranspose2d, 4, 6, 3, padding_mode="reflect")
''')

qa("qa_fn_max_pool_unpool", r'''
x1 = torch.randn(2, 3, 11, dtype=torch.float64)
x2 = torch.randn(2, 3, 7, 9, dtype=torch.float64)
x3 = torch.randn(1, 2, 5, 6, 7, dtype=torch.float64)
for ceil in [False, True]:
    y, i = F.max_pool1d(x1, 3, stride=2, padding=1, ceil_mode=ceil, return_indices=True)
    show(y[1], i[1])
    show(F.max_unpool1d(y, i, 3, stride=2, padding=1, output_size=x1.shape[-1:])[1])
    y, i = F.max_pool2d(x2, (3, 2), stride=(2, 3), padding=(1, 0), dilation=(1, 2), ceil_mode=ceil, return_indices=True)
    show(y[0, 1], i[0, 1])
    show(F.max_unpool2d(y, i, (3, 2), stride=(2, 3), padding=(1, 0), output_size=(7, 9))[0, 1])
    y, i = F.max_pool3d(x3, 2, stride=2, ceil_mode=ceil, return_indices=True)
    show(y.sum((2, 3, 4)), i[0, 1, 0])
    show(F.max_unpool3d(y, i, 2, stride=2, output_size=x3.shape[2:]).sum((2, 3)))
grad_of(lambda x: F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True), x2)
grad_of(lambda x: F.max_pool1d(x, 2, dilation=3), x1)
y, i = F.max_pool2d(x2, 2, return_indices=True)
grad_of(lambda y: F.max_unpool2d(y, i, 2, output_size=(7, 9)), y)
show(F.max_pool2d(x2.transpose(2, 3), 3, 2)[1, 2])
ties = torch.tensor([[[1.0, 3.0, 3.0, 2.0, 2.0, 0.0]]], requires_grad=True)
y, i = F.max_pool1d(ties, 3, 1, return_indices=True)
y.sum().backward()
show(i, ties.grad)
show(F.max_pool1d(torch.tensor([[[1.0, float("nan"), 2.0, 0.0]]]), 2))
err(F.max_pool2d, x2, 3, padding=2)
err(F.max_pool2d, x2, 10)
err(F.max_unpool2d, y, i, 2, output_size=(9, 9))
err(F.max_pool1d, x1, 0)
''')

qa("qa_fn_avg_lp_pools", r'''
x1 = torch.randn(2, 3, 10, dtype=torch.float64)
x2 = torch.randn(2, 3, 7, 9, dtype=torch.float64)
x3 = torch.randn(1, 2, 5, 6, 7, dtype=torch.float64)
for ceil in [False, True]:
    for cip in [True, False]:
        show(F.avg_pool1d(x1, 3, stride=2, padding=1, ceil_mode=ceil, count_include_pad=cip)[0])
        show(F.avg_pool2d(x2, (3, 2), stride=2, padding=1, ceil_mode=ceil, count_include_pad=cip)[1, 0])
        show(F.avg_pool3d(x3, 3, stride=2, padding=1, ceil_mode=ceil, count_include_pad=cip).sum((2, 3)))
show(F.avg_pool2d(x2, 3, stride=2, padding=1, divisor_override=2)[0, 0])
grad_of(lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), x2)
grad_of(lambda x: F.avg_pool3d(x, 2, stride=(1, 2, 2), divisor_override=3), x3)
for p in [1.0, 2.0, 3.0, float("inf")]:
    show(F.lp_pool1d(x1.abs(), p, 3, stride=2)[0])
    show(F.lp_pool2d(x2.abs(), p, (2, 3), stride=2, ceil_mode=True)[1, 1])
show(F.lp_pool3d(x3.abs(), 2, 2).sum((2, 3)))
grad_of(lambda x: F.lp_pool2d(x, 2, 2), x2.abs() + 0.1)
grad_of(lambda x: F.lp_pool1d(x, 3, 3, stride=2), x1.abs() + 0.1)
err(F.avg_pool2d, x2, 3, padding=2)
err(F.avg_pool2d, x2, 3, divisor_override=0)
err(F.avg_pool1d, x1, 12)
''')

qa("qa_fn_adaptive_pools", r'''
x1 = torch.randn(2, 3, 10, dtype=torch.float64)
x2 = torch.randn(2, 3, 7, 9, dtype=torch.float64)
x3 = torch.randn(1, 2, 5, 6, 7, dtype=torch.float64)
for out in [1, 3, 4, 10, 13]:
    show(F.adaptive_avg_pool1d(x1, out)[0, 0])
    y, i = F.adaptive_max_pool1d(x1, out, return_indices=True)
    show(y[1, 2], i[1, 2])
for out in [(1, 1), (3, 4), (None, 2), (7, 9), 5]:
    show(F.adaptive_avg_pool2d(x2, out)[1, 1])
    y, i = F.adaptive_max_pool2d(x2, out, return_indices=True)
    show(y[0, 2], i[0, 2])
for out in [(2, 3, 4), 1, (None, 4, None)]:
    show(F.adaptive_avg_pool3d(x3, out).sum((2, 3)))
    y, i = F.adaptive_max_pool3d(x3, out, return_indices=True)
    show(y.sum((2, 3)), i[0, 0, 0])
grad_of(lambda x: F.adaptive_avg_pool2d(x, (3, 4)), x2)
grad_of(lambda x: F.adaptive_max_pool2d(x, (4, 5)), x2)
grad_of(lambda x: F.adaptive_avg_pool3d(x, (2, 4, 3)), x3)
grad_of(lambda x: F.adaptive_max_pool1d(x, 6), x1)
show(F.adaptive_avg_pool2d(x2[0], 2), F.adaptive_avg_pool2d(x2.transpose(2, 3), 3)[0, 0])
err(F.adaptive_avg_pool2d, x2, (3, 4, 5))
err(F.adaptive_max_pool2d, torch.randn(2, 3, 0, 4), 2)
err(F.adaptive_avg_pool1d, x1, -1)
''')

qa("qa_fn_norms_functional", r'''
x = torch.randn(4, 6, 5, 3, dtype=torch.float64)
rm, rv = torch.zeros(6, dtype=torch.float64), torch.ones(6, dtype=torch.float64)
w, b = torch.linspace(0.5, 1.5, 6, dtype=torch.float64), torch.linspace(-0.2, 0.3, 6, dtype=torch.float64)
for mom in [0.1, 0.5]:
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=mom, eps=1e-3)
    show(y[0, :, 0, 0], rm, rv)
show(F.batch_norm(x, rm, rv, w, b, training=False)[1, :, 1, 1])
show(F.batch_norm(x, None, None, training=True)[0, :, 0, 0])
grad_of(lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), x, w, b)
grad_of(lambda x, w: F.batch_norm(x, rm.clone(), rv.clone(), w, None, training=False), x, w)
irm, irv = torch.zeros(6, dtype=torch.float64), torch.ones(6, dtype=torch.float64)
show(F.instance_norm(x, irm, irv, w, b, use_input_stats=True, momentum=0.3)[0, :, 0, 0], irm, irv)
show(F.instance_norm(x, irm, irv, use_input_stats=False)[0, :, 0, 0])
grad_of(lambda x, w: F.instance_norm(x, weight=w, bias=b), x, w)
for g in [1, 2, 3, 6]:
    show(F.group_norm(x, g, w, b, eps=1e-4)[2, :, 1, 2])
grad_of(lambda x, w, b: F.group_norm(x, 3, w, b), x, w, b)
lw, lb = torch.linspace(0.5, 1.5, 15, dtype=torch.float64).reshape(5, 3), torch.linspace(-1, 1, 15, dtype=torch.float64).reshape(5, 3)
show(F.layer_norm(x, (5, 3), lw, lb)[0, 0], F.layer_norm(x, (3,), eps=0.1)[0, 0])
grad_of(lambda x, w, b: F.layer_norm(x, (5, 3), w, b), x, lw, lb)
show(F.rms_norm(x, (3,))[0, 0], F.rms_norm(x, (5, 3), lw, eps=1e-2)[0, 0])
grad_of(lambda x, w: F.rms_norm(x, (5, 3), w), x, lw)
show(F.rms_norm(x.float(), (3,))[0, 0])
for size in [2, 3, 4]:
    show(F.local_response_norm(x, size, alpha=0.01, beta=0.6, k=1.5)[0, :, 0, 0])
show(F.local_response_norm(x[..., 0], 3)[1, :, 0], F.local_response_norm(x[:1, :, :, :, None].expand(1, 6, 5, 3, 2), 3)[0, :, 0, 0, 0])
grad_of(lambda x: F.local_response_norm(x, 3, alpha=0.5), x)
xt = x.permute(0, 3, 1, 2)
show(F.batch_norm(xt, None, None, training=True)[0, :, 0, 0], F.group_norm(xt, 1)[0, :, 0, 0])
err(F.batch_norm, x, rm[:5], rv, training=False)
err(F.batch_norm, x[:1, :, :1, :1], None, None, training=True)
err(F.group_norm, x, 4)
err(F.layer_norm, x, (5,))
err(F.instance_norm, x[:, :, :1, :1])
err(F.rms_norm, x, (4,))
err(F.local_response_norm, x[0, 0, 0], 3)
''')

qa("qa_fn_shuffles", r'''
x = torch.arange(2 * 8 * 2 * 3, dtype=torch.float64).reshape(2, 8, 2, 3)
y = F.pixel_shuffle(x, 2)
print(tuple(y.shape))
show(y[1, 1])
print(torch.equal(F.pixel_unshuffle(y, 2), x), tuple(F.pixel_unshuffle(x, 1).shape))
print(tuple(F.pixel_shuffle(torch.randn(3, 2, 9, 4, 5), 3).shape), tuple(F.pixel_unshuffle(torch.randn(4, 6, 4), 2).shape))
show(F.channel_shuffle(x, 4)[0, :, 0, 0], F.channel_shuffle(x, 2)[1, :, 1, 2])
show(nn.ChannelShuffle(2)(x[:, :, :1, 0]))
grad_of(lambda x: F.pixel_shuffle(x, 2), x)
grad_of(lambda x: F.pixel_unshuffle(x, 2), x[:, :, :, :2])
grad_of(lambda x: F.channel_shuffle(x, 4), x)
xt = x.transpose(2, 3)
show(F.pixel_shuffle(xt, 2)[0, 0], F.pixel_unshuffle(xt[:, :, :2, :2], 2)[0, :, 0, 0])
err(F.pixel_shuffle, x, 3)
err(F.pixel_unshuffle, x, 2)
err(F.pixel_shuffle, torch.randn(4, 4), 2)
err(F.channel_shuffle, x, 3)
err(F.channel_shuffle, x[0, 0], 2)
''')

qa("qa_fn_activations", r'''
x = torch.randn(3, 5, dtype=torch.float64) * 3
acts = [
    ("hardtanh", lambda x: F.hardtanh(x, -1.5, 0.7)), ("relu6", F.relu6),
    ("threshold", lambda x: F.threshold(x, 0.3, -2.0)), ("glu", lambda x: F.glu(x[:, :4], dim=1)),
    ("glu0", lambda x: F.glu(x[:2], dim=0)),
    ("gelu", F.gelu), ("gelu_tanh", lambda x: F.gelu(x, approximate="tanh")),
    ("softplus", F.softplus), ("softplus_b", lambda x: F.softplus(x, beta=2.5, threshold=3.0)),
    ("softplus_neg", lambda x: F.softplus(x, beta=-1.0)),
    ("mish", F.mish), ("silu", F.silu), ("celu", lambda x: F.celu(x, alpha=0.6)),
    ("selu", F.selu), ("elu", lambda x: F.elu(x, alpha=1.7)), ("leaky", lambda x: F.leaky_relu(x, 0.3)),
    ("hardswish", F.hardswish), ("hardsigmoid", F.hardsigmoid), ("logsigmoid", F.logsigmoid),
    ("softshrink", lambda x: F.softshrink(x, 0.8)), ("hardshrink", lambda x: F.hardshrink(x, 1.2)),
    ("tanhshrink", F.tanhshrink), ("softsign", F.softsign), ("rrelu_eval", lambda x: F.rrelu(x, 0.1, 0.3)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.1, -0.2, 0.3, 0.4, 0.5], dtype=x.dtype))),
    ("softmin", lambda x: F.softmin(x, dim=0)), ("log_softmax", lambda x: F.log_softmax(x, 1)),
]
for name, f in acts:
    print(name)
    grad_of(f, x)
    show(f(x.float().t().contiguous().t()))
for name, f in [("relu_", F.relu_), ("elu_", F.elu_), ("leaky_relu_", lambda t: F.leaky_relu_(t, 0.2)),
                ("hardtanh_", lambda t: F.hardtanh_(t, -0.5, 0.5)), ("threshold_", lambda t: F.threshold_(t, 0.1, 9.0)),
                ("celu_", lambda t: F.celu_(t, 2.0)), ("selu_", F.selu_), ("rrelu_", lambda t: F.rrelu_(t, training=False))]:
    t = x.clone()
    r = f(t)
    print(name, r is t)
    show(t)
for name, f in [("relu", F.relu), ("elu", F.elu), ("silu", F.silu), ("mish", F.mish), ("hardswish", F.hardswish),
                ("selu", F.selu), ("celu", F.celu), ("hardtanh", F.hardtanh), ("relu6", F.relu6), ("leaky_relu", F.leaky_relu),
                ("hardsigmoid", F.hardsigmoid)]:
    t = x.clone()
    r = f(t, inplace=True)
    print(name, r is t)
    show(t)
leaf = x.clone().requires_grad_(True)
err(F.relu_, leaf)
err(F.elu, leaf, inplace=True)
y = leaf * 1
F.elu(y, inplace=True).sum().backward()
show(leaf.grad)
err(F.glu, x, 1)
err(F.gelu, x, approximate="fast")
err(F.hardtanh, x, 1.0, -1.0)
err(F.relu, torch.tensor([True]))
err(F.softplus, torch.tensor([1, 2]))
err(F.silu, torch.tensor([1, 2]))
''')

qa("qa_fn_dropout_family_seeded", r'''
x = torch.randn(4, 6, 3, 5)
for name, f in [("dropout", lambda x, **k: F.dropout(x, 0.3, **k)), ("dropout1d", lambda x, **k: F.dropout1d(x[:, :, 0], 0.5, **k)),
                ("dropout2d", lambda x, **k: F.dropout2d(x, 0.5, **k)), ("dropout3d", lambda x, **k: F.dropout3d(x[None], 0.4, **k)),
                ("alpha_dropout", lambda x, **k: F.alpha_dropout(x, 0.2, **k)),
                ("feature_alpha_dropout", lambda x, **k: F.feature_alpha_dropout(x, 0.3, **k))]:
    torch.manual_seed(11)
    y = f(x, training=True)
    show(y.reshape(-1)[:12], (y == 0).sum())
    print(name, torch.equal(f(x, training=False), x if name != "dropout1d" else x[:, :, 0]))
torch.manual_seed(2)
t = x.clone()
r = F.dropout(t, 0.5, training=True, inplace=True)
print(r is t, (t == 0).sum().item())
xg = x.clone().requires_grad_(True)
torch.manual_seed(4)
F.dropout2d(xg, 0.5).sum().backward()
show(xg.grad[:, :, 0, 0])
show(F.dropout(x, 1.0).abs().sum(), F.dropout(x, 0.0).sub(x).abs().sum())
torch.manual_seed(6)
show(F.gumbel_softmax(x[0, :, 0], tau=0.5), F.gumbel_softmax(x[0, :, 0], hard=True, dim=0))
torch.manual_seed(6)
show(F.rrelu(x[0, 0], 0.1, 0.4, training=True))
err(F.dropout, x, 1.5)
err(F.dropout2d, x, -0.1)
err(F.alpha_dropout, x, 2.0)
''')

qa("qa_fn_activation_boundary_grads", r'''
pts = torch.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 6.0, 20.0, 25.0], dtype=torch.float64)
for name, f in [("relu", F.relu), ("relu6", F.relu6), ("hardtanh", lambda x: F.hardtanh(x, -1.0, 1.0)),
                ("threshold", lambda x: F.threshold(x, 0.5, -3.0)), ("leaky", lambda x: F.leaky_relu(x, -0.2)),
                ("hardshrink", lambda x: F.hardshrink(x, 0.5)), ("softshrink", lambda x: F.softshrink(x, 0.5)),
                ("hardsigmoid", F.hardsigmoid), ("hardswish", F.hardswish), ("elu", F.elu), ("celu", lambda x: F.celu(x, 0.5)),
                ("softplus20", F.softplus), ("softplus_b2_t10", lambda x: F.softplus(x, 2.0, 10.0)),
                ("abs", torch.abs), ("clamp", lambda x: x.clamp(-0.5, 1.0)), ("prelu", lambda x: F.prelu(x, torch.tensor([0.25], dtype=x.dtype)))]:
    p = pts.clone().requires_grad_(True)
    y = f(p)
    y.backward(torch.ones_like(y))
    print(name)
    show(y, p.grad)
big = torch.tensor([-100.0, -30.0, 30.0, 100.0])
show(F.softplus(big), F.logsigmoid(big), F.silu(big), F.mish(big), F.gelu(big), F.selu(big), torch.sigmoid(big))
show(F.softplus(torch.tensor([-1000.0]), beta=-1.0), F.log_softmax(torch.tensor([0.0, -1e4, 1e4]), 0))
''')

qa("qa_fn_resample_modules_repr", r'''
mods = [nn.Upsample(scale_factor=2, mode="nearest"), nn.Upsample(size=(3, 5), mode="bilinear", align_corners=True),
        nn.UpsamplingNearest2d(scale_factor=1.5), nn.UpsamplingBilinear2d(size=4), nn.Fold((4, 5), 2, stride=(1, 2)),
        nn.Unfold(2, dilation=1, padding=1), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 0, 2, 1)), nn.ReflectionPad3d(1),
        nn.ReplicationPad1d((0, 3)), nn.ReplicationPad2d(1), nn.ReplicationPad3d((1, 0, 0, 1, 1, 0)), nn.ZeroPad1d(2),
        nn.ZeroPad2d((1, 1, 0, 2)), nn.ZeroPad3d(1), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 1, 0), -1),
        nn.ConstantPad3d(1, 0.5), nn.CircularPad1d(1), nn.CircularPad2d((1, 2, 0, 1)), nn.CircularPad3d(1),
        nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.ChannelShuffle(3)]
for m in mods:
    print(m)
x4 = torch.randn(2, 12, 4, 4)
for m in mods:
    if isinstance(m, nn.Fold):
        y = m(torch.randn(2, 12, 6))
    elif isinstance(m, (nn.ReflectionPad1d, nn.ReplicationPad1d, nn.ZeroPad1d, nn.ConstantPad1d, nn.CircularPad1d)):
        y = m(x4[:, :, 0])
    elif isinstance(m, (nn.ReflectionPad3d, nn.ReplicationPad3d, nn.ZeroPad3d, nn.ConstantPad3d, nn.CircularPad3d)):
        y = m(x4[:, :3, None].expand(2, 3, 2, 4, 4))
    else:
        y = m(x4)
    print(type(m).__name__, tuple(y.shape), round(y.double().sum().item(), 3))
''')

qa("qa_fn_loss_modules", r'''
x = torch.randn(4, 5, dtype=torch.float64)
t = torch.tensor([1, 0, 4, 2])
w = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.25], dtype=torch.float64)
mods = [nn.CrossEntropyLoss(weight=w, ignore_index=2, label_smoothing=0.1), nn.NLLLoss(weight=w, reduction="sum"),
        nn.MultiMarginLoss(p=2, margin=0.5, weight=w), nn.BCEWithLogitsLoss(pos_weight=torch.ones(5, dtype=torch.float64) * 2),
        nn.BCELoss(weight=w), nn.KLDivLoss(reduction="batchmean", log_target=True), nn.HuberLoss(delta=0.3),
        nn.SmoothL1Loss(beta=0.5), nn.PoissonNLLLoss(log_input=False, full=True), nn.GaussianNLLLoss(eps=1e-3),
        nn.MultiLabelSoftMarginLoss(weight=w), nn.CTCLoss(blank=1, zero_infinity=True), nn.MarginRankingLoss(0.3),
        nn.TripletMarginLoss(margin=0.5, p=3, swap=True), nn.CosineEmbeddingLoss(0.2), nn.HingeEmbeddingLoss(2.0),
        nn.SoftMarginLoss(), nn.L1Loss(reduction="none"), nn.MSELoss(), nn.MultiLabelMarginLoss(),
        nn.TripletMarginWithDistanceLoss(margin=0.4)]
for m in mods:
    print(m, sorted(m.state_dict().keys()), m.reduction)
print(nn.CrossEntropyLoss(weight=w).weight.dtype, list(nn.NLLLoss(weight=w).buffers())[0].shape)
ce = mods[0]
xg = x.clone().requires_grad_(True)
l = ce(xg, t)
l.backward()
show(l, xg.grad)
print(nn.CrossEntropyLoss(size_average=False).reduction, nn.MSELoss(reduce=False).reduction, nn.L1Loss(size_average=True, reduce=True).reduction)
show(mods[1](x.log_softmax(1), t), mods[3](x, (x > 0).double()), mods[6](x, x.flip(0)))
''')

qa("qa_fn_errors_shapes_dtypes", r'''
x = torch.randn(2, 3, 4, 5)
calls = [
    (F.linear, (x, torch.randn(6, 4))), (F.linear, (x, torch.randn(6, 5).double())), (F.bilinear, (x[0, 0], x[0, 0], torch.randn(2, 4, 4))),
    (F.conv1d, (x, torch.randn(2, 3, 2))), (F.conv3d, (x, torch.randn(2, 3, 2, 2, 2))), (F.conv2d, (x, torch.randn(2, 3, 9, 2))),
    (F.conv2d, (x, torch.randn(2, 3, 2, 2), torch.randn(3))), (F.conv2d, (x.int(), torch.randn(2, 3, 2, 2).int())),
    (F.conv_transpose2d, (x, torch.randn(4, 2, 2, 2))), (F.max_pool2d, (x.int(), 2)), (F.avg_pool2d, (x.int(), 2)),
    (F.adaptive_avg_pool2d, (x.int(), 2)), (F.adaptive_max_pool2d, (x.long(), 2)), (F.interpolate, (x.int(), None, 2.0)),
    (F.interpolate, (x, None, 2.0, "bilinear", False, None, False)), (F.grid_sample, (x, torch.rand(2, 3, 4, 2).double())),
    (F.layer_norm, (x.int(), (5,))), (F.group_norm, (x, 2)), (F.batch_norm, (x, torch.zeros(4), torch.ones(4))),
    (F.instance_norm, (x.long(),)), (F.softmax, (x.int(), 1)), (F.log_softmax, (x.long(), 1)),
    (F.embedding, (torch.tensor([[0, 1]]), torch.randn(3))), (F.embedding_bag, (torch.tensor([0, 1]), x, torch.tensor([0]))),
    (F.one_hot, (torch.tensor([[0, 1]]).int(), 3)), (F.pixel_shuffle, (x[0, 0], 2)), (F.unfold, (x[0, 0], 2)),
    (F.cross_entropy, (x, torch.zeros(2, 4, 5).long())), (F.cross_entropy, (x, torch.zeros(2, 3, 5).long())),
    (F.nll_loss, (x[0, 0], torch.tensor([0, 1, 2, 3]).int())), (F.mse_loss, (x, x.int())), (F.l1_loss, (x, x.double())),
    (F.binary_cross_entropy_with_logits, (x, x.int())), (F.kl_div, (x, x.double())),
    (F.cosine_similarity, (x, x.int())), (F.pairwise_distance, (x.int(), x.int())), (F.pdist, (x[0, 0].int(),)),
    (F.normalize, (x.int(),)), (F.glu, (x.int(),)), (F.gelu, (x.int(),)), (F.hardtanh, (x.bool(),)),
    (F.prelu, (x, torch.ones(4))), (F.rms_norm, (x.int(), (5,))), (F.local_response_norm, (x.int(), 2)),
    (F.scaled_dot_product_attention, (x, x.int(), x)), (F.scaled_dot_product_attention, (x[0, 0], x[0, 0, :, :3], x[0, 0])),
]
for f, a in calls:
    print(f.__name__, end=": ")
    err(f, *a)
''')

qa("qa_fn_low_precision", r'''
x = torch.randn(2, 3, 6, 7)
for dt in [torch.float16, torch.bfloat16]:
    xh = x.to(dt)
    print(dt)
    for name, y in [("relu", F.relu(xh)), ("gelu", F.gelu(xh)), ("silu", F.silu(xh)), ("softplus", F.softplus(xh)),
                    ("elu", F.elu(xh)), ("hardswish", F.hardswish(xh)), ("mish", F.mish(xh)), ("sigmoid", torch.sigmoid(xh)),
                    ("softmax", F.softmax(xh, -1)), ("max_pool", F.max_pool2d(xh, 2)), ("avg_pool", F.avg_pool2d(xh, 2)),
                    ("adaptive_avg", F.adaptive_avg_pool2d(xh, 3)), ("nearest", F.interpolate(xh, scale_factor=2)),
                    ("bilinear", F.interpolate(xh, size=(4, 9), mode="bilinear")), ("pad", F.pad(xh, (1, 1, 2, 0), mode="reflect")),
                    ("layer_norm", F.layer_norm(xh, (7,))), ("group_norm", F.group_norm(xh, 3)),
                    ("conv", F.conv2d(xh, torch.linspace(-1, 1, 54).reshape(2, 3, 3, 3).to(dt))),
                    ("linear", F.linear(xh, torch.linspace(-1, 1, 21).reshape(3, 7).to(dt))),
                    ("mse", F.mse_loss(xh, xh.flip(-1)))]:  # (no half log_softmax: a known gap)
        print(name, y.dtype, y.float().sum().item().__round__(1), y.reshape(-1)[:4].float().tolist())
''')

qa("qa_fn_mha_separate_proj", r'''
E, H, L, S, N = 4, 2, 3, 5, 2
q, k, v = torch.randn(L, N, E), torch.randn(S, N, 3), torch.randn(S, N, 2)
qw, kw, vw = torch.randn(E, E), torch.randn(E, 3), torch.randn(E, 2)
b = torch.randn(3 * E)
ow, ob = torch.randn(E, E), torch.randn(E)
out, w = F.multi_head_attention_forward(q, k, v, E, H, None, b, None, None, False, 0.0, ow, ob, training=False,
                                        use_separate_proj_weight=True, q_proj_weight=qw, k_proj_weight=kw, v_proj_weight=vw,
                                        average_attn_weights=False)
show(out, w)
sk, sv = torch.randn(N * H, S, E // H), torch.randn(N * H, S, E // H)
kk, vv = torch.randn(S, N, E), torch.randn(S, N, E)
out, w = F.multi_head_attention_forward(q, kk, vv, E, H, torch.randn(3 * E, E), b, None, None, False, 0.0, ow, ob,
                                        training=False, static_k=sk, static_v=sv, need_weights=True)
show(out, w)
m = nn.MultiheadAttention(E, H, batch_first=True, bias=False)
print(m, m.in_proj_bias, m.out_proj.bias)
out, w = m(q.transpose(0, 1), kk.transpose(0, 1), vv.transpose(0, 1), key_padding_mask=torch.tensor([[0.0, -1e9, 0, 0, 0], [0, 0, 0, 0, -1e9]]))
print(tuple(out.shape), tuple(w.shape))
u, _ = m(q[:, 0], kk[:, 0], vv[:, 0])
print(tuple(u.shape))
err(F.multi_head_attention_forward, q, k, v, E, H, None, b, None, None, False, 0.0, ow, ob, training=False)
err(m, q.transpose(0, 1), kk.transpose(0, 1), vv.transpose(0, 1), key_padding_mask=torch.ones(2, 5, dtype=torch.bool), attn_mask=torch.ones(3, 5))
''')

qa("qa_fn_embedding_modules", r'''
w = torch.randn(6, 3)
e = nn.Embedding.from_pretrained(w.clone(), freeze=False, padding_idx=2, max_norm=1.0, scale_grad_by_freq=True)
print(e, e.weight.requires_grad)
out = e(torch.tensor([[0, 2, 5], [5, 5, 1]]))
show(out, e.weight.norm(dim=1))
(out * torch.arange(18.0).reshape(2, 3, 3)).sum().backward()
show(e.weight.grad)
eb = nn.EmbeddingBag.from_pretrained(w.clone(), mode="max", freeze=True)
print(eb, eb.weight.requires_grad)
show(eb(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 1])))
eb2 = nn.EmbeddingBag(6, 3, mode="sum", padding_idx=0, include_last_offset=True)
with torch.no_grad():
    eb2.weight.copy_(w)
print(eb2)
show(eb2(torch.tensor([0, 1, 2, 0, 3]), torch.tensor([0, 2, 5]), per_sample_weights=torch.tensor([1.0, 2.0, 0.5, 3.0, -1.0])))
print(nn.Embedding(4, 2, sparse=True), nn.Embedding(4, 2, norm_type=1.0, max_norm=2.0))
err(nn.Embedding.from_pretrained, torch.randn(3))
err(nn.Embedding, 4, 2, padding_idx=-5)
err(eb2, torch.tensor([0, 1]), torch.tensor([0, 1]), per_sample_weights=torch.tensor([1.0]))
''')

qa("qa_fn_unfold_patches_pipeline", r'''
img = torch.randn(2, 3, 8, 8, dtype=torch.float64).requires_grad_(True)
patches = F.unfold(img, kernel_size=4, stride=4)                     # (2, 48, 4)
tokens = patches.transpose(1, 2)                                       # ViT-style patch tokens
proj = torch.linspace(-0.5, 0.5, 48 * 5, dtype=torch.float64).reshape(48, 5)
emb = tokens @ proj
attn = F.scaled_dot_product_attention(emb[:, None], emb[:, None], emb[:, None])[:, 0]
back = attn @ proj.t()
rec = F.fold(back.transpose(1, 2), (8, 8), kernel_size=4, stride=4)
show(rec[0, 0, :2])
rec.pow(2).mean().backward()
show(img.grad[1, 2, :2])
ones = torch.ones(1, 1, 6, 6, dtype=torch.float64)
cnt = F.fold(F.unfold(ones, 3, padding=1), (6, 6), 3, padding=1)
show(cnt[0, 0])
x = torch.randn(1, 2, 6, 6, dtype=torch.float64)
avg = F.fold(F.unfold(x, 3, padding=1), (6, 6), 3, padding=1) / cnt
show(avg[0, 1, 0], (F.avg_pool2d(x, 3, 1, 1, count_include_pad=False) - avg).abs().max())
''')

qa("qa_fn_pad_interp_noncontig_grads", r'''
base = torch.randn(2, 5, 4, 3, dtype=torch.float64)
x = base.permute(0, 3, 2, 1)  # (2, 3, 4, 5) non-contiguous
print(x.is_contiguous())
for mode in ["reflect", "replicate", "circular"]:
    grad_of(lambda x: F.pad(x, (2, 1, 1, 2), mode=mode), x)
grad_of(lambda x: F.pad(x, (1, -1, -2, 1), value=0.5), x)
for mode, kw in [("bilinear", dict(align_corners=False)), ("bicubic", dict(align_corners=True)), ("nearest", {}),
                 ("area", {}), ("nearest-exact", {})]:
    grad_of(lambda x: F.interpolate(x, size=(6, 4), mode=mode, **kw), x)
cl = torch.randn(2, 3, 4, 5, dtype=torch.float64).contiguous(memory_format=torch.channels_last)
y = F.interpolate(cl, scale_factor=2, mode="bilinear")
print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
y = F.pad(cl, (1, 1, 1, 1), mode="reflect")
print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
y = F.max_pool2d(cl, 2)
print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
y = F.conv2d(cl, torch.randn(4, 3, 3, 3, dtype=torch.float64))
print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
y = F.adaptive_avg_pool2d(cl, 2)
print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last))
''')

qa("qa_fn_loss_edge_cases", r'''
e = torch.randn(0, 5)
te = torch.zeros(0, dtype=torch.long)
for red in ["mean", "sum", "none"]:
    show(F.cross_entropy(e, te, reduction=red), F.nll_loss(e, te, reduction=red), F.mse_loss(e, e, reduction=red),
         F.l1_loss(e, e, reduction=red), F.binary_cross_entropy_with_logits(e, e, reduction=red),
         F.smooth_l1_loss(e, e, reduction=red), F.kl_div(e, e, reduction=red))
x = torch.randn(5, dtype=torch.float64)
grad_of(lambda x: F.cross_entropy(x, torch.tensor(3)).reshape(1), x)
grad_of(lambda x: F.cross_entropy(x, x.detach().softmax(0).flip(0), label_smoothing=0.3).reshape(1), x)
grad_of(lambda x: F.nll_loss(x[None], torch.tensor([2]), weight=torch.arange(1.0, 6.0, dtype=torch.float64)).reshape(1), x)
grad_of(lambda x: F.multilabel_margin_loss(x, torch.tensor([4, 0, -1, 2, 1])).reshape(1), x)
grad_of(lambda x: F.multi_margin_loss(x[None], torch.tensor([1])).reshape(1), x)
xx = torch.randn(3, 4, dtype=torch.float64)
tt = torch.tensor([1, -100, 2])
grad_of(lambda x: F.cross_entropy(x, tt, reduction="mean", label_smoothing=0.2).reshape(1), xx)
grad_of(lambda x: F.cross_entropy(x, torch.tensor([1, 1, 1]), ignore_index=1, reduction="sum").reshape(1), xx)
show(F.cross_entropy(xx, torch.tensor([1, 1, 1]), ignore_index=1, reduction="mean"))
show(F.binary_cross_entropy(torch.tensor([1e-20, 1.0 - 1e-8, 0.5]), torch.tensor([1.0, 0.0, 1.0])))
pi = torch.tensor([0.0, 1.0, 0.3], requires_grad=True)
F.binary_cross_entropy(pi, torch.tensor([0.0, 1.0, 1.0])).backward()
show(pi.grad)
show(F.poisson_nll_loss(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 1.0]), log_input=False), F.poisson_nll_loss(torch.tensor([0.5, 2.0]), torch.tensor([0.0, 1.0]), full=True))
show(F.gaussian_nll_loss(torch.zeros(3, 2), torch.ones(3, 2), torch.ones(3)), F.gaussian_nll_loss(torch.zeros(2), torch.ones(2), torch.ones(2) * 1e-9))
show(F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.0, 0.5])), F.kl_div(torch.tensor([-1.0, -2.0]), torch.tensor([0.0, 0.5]), reduction="none"))
show(F.huber_loss(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0]), delta=1.0), F.smooth_l1_loss(torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0]), beta=0.0))
lp = torch.randn(6, 2, 4, dtype=torch.float64).log_softmax(2)
grad_of(lambda lp: F.ctc_loss(lp, torch.tensor([[1, 2], [0, 0]]), torch.tensor([6, 4], dtype=torch.int32), torch.tensor([2, 0], dtype=torch.int32), reduction="none"), lp)
show(F.ctc_loss(lp.float(), torch.tensor([[1, 1, 1], [3, 3, 3]]), torch.tensor([6, 4]), torch.tensor([3, 3]), reduction="none"))
err(F.cross_entropy, xx, xx.softmax(1), ignore_index=1)
err(F.nll_loss, xx, torch.tensor([1, 5, 2]))
err(F.nll_loss, xx, torch.tensor([1, -1, 2]))
err(F.multilabel_margin_loss, xx, torch.tensor([1, 2, 3]))
err(F.ctc_loss, lp, torch.tensor([[1, 2], [0, 0]]), torch.tensor([6, 4]), torch.tensor([2, 3]))
''')

qa("qa_fn_grid_sample_edges", r'''
x = torch.arange(1.0, 13.0).reshape(1, 1, 3, 4)
g = torch.tensor([[[[-1.0, -1.0], [1.0, 1.0], [0.0, 0.0], [1.5, -2.0], [-3.0, 0.4], [float("nan"), 0.0], [0.9999, 1.0001]]]])
for mode in ["bilinear", "nearest", "bicubic"]:
    for pm in ["zeros", "border", "reflection"]:
        for ac in [False, True]:
            print(mode, pm, ac)
            show(F.grid_sample(x, g, mode=mode, padding_mode=pm, align_corners=ac).flatten())
err(F.grid_sample, torch.randn(2, 3, 0, 4), torch.zeros(2, 1, 1, 2), align_corners=False)
print(F.grid_sample(x, torch.zeros(1, 0, 3, 2), align_corners=False).shape)
print(F.affine_grid(torch.eye(2, 3)[None], (1, 1, 1, 3), align_corners=False)[0, 0].tolist())
print(F.affine_grid(torch.eye(2, 3)[None], (1, 1, 2, 1), align_corners=True)[0, :, 0].tolist())
g64 = torch.tensor([[[[0.25, -0.5], [1.2, 0.3]]]], dtype=torch.float64, requires_grad=True)
x64 = x.double().requires_grad_(True)
for mode in ["bilinear", "bicubic", "nearest"]:
    for pm in ["zeros", "border", "reflection"]:
        g64.grad = x64.grad = None
        F.grid_sample(x64, g64, mode=mode, padding_mode=pm, align_corners=False).sum().backward()
        show(g64.grad.flatten(), x64.grad.flatten())
''')

qa("qa_fn_pool_norm_modules_3d", r'''
x3 = torch.randn(2, 3, 6, 5, 7)
mods = [nn.MaxPool3d(2, stride=(1, 2, 2), padding=1, ceil_mode=True), nn.AvgPool3d((2, 3, 2), stride=2, count_include_pad=False),
        nn.AdaptiveAvgPool3d((2, None, 3)), nn.AdaptiveMaxPool3d(2), nn.LPPool3d(2, 2), nn.BatchNorm3d(3, momentum=None),
        nn.InstanceNorm3d(3, affine=True, track_running_stats=True), nn.AdaptiveAvgPool1d(4), nn.LPPool1d(3, 2, stride=1),
        nn.LPPool2d(1.5, (2, 3), ceil_mode=True), nn.CrossMapLRN2d(3, alpha=1e-2, beta=0.5, k=2.0), nn.Softmax2d(),
        nn.Hardshrink(0.3), nn.Softshrink(0.7), nn.Hardsigmoid(), nn.LogSigmoid(), nn.SELU(inplace=True)]
for m in mods:
    print(m)
for m in mods:
    name = type(m).__name__
    if name in ("AdaptiveAvgPool1d", "LPPool1d"):
        inp = x3[:, :, 0, 0]
    elif name in ("LPPool2d", "CrossMapLRN2d", "Softmax2d"):
        inp = x3[:, :, 0].abs() if name == "LPPool2d" else x3[:, :, 0]
    elif name in ("Hardshrink", "Softshrink", "Hardsigmoid", "LogSigmoid", "SELU"):
        inp = x3[0, 0].clone()
    else:
        inp = x3.abs() if name == "LPPool3d" else x3
    m.train()
    y = m(inp)
    print(name, tuple(y.shape), round(y.double().sum().item(), 3))
bn, inn = mods[5], mods[6]
for _ in range(2):
    bn(x3 * 2 + 1)
    inn(x3 - 1)
show(bn.running_mean, bn.running_var, bn.num_batches_tracked, inn.running_mean, inn.running_var)
bn.eval()
show(bn(x3)[0, :, 0, 0, 0])
y, i = nn.MaxPool1d(2, return_indices=True)(x3[:, :, 0, 0])
show(nn.MaxUnpool1d(2)(y, i)[0])
y, i = nn.MaxPool3d(2, return_indices=True)(x3)
u = nn.MaxUnpool3d(2)(y, i, output_size=x3.shape)
print(tuple(u.shape), round(u.sum().item(), 3))
torch.manual_seed(3)
fm = nn.FractionalMaxPool3d(2, output_ratio=0.5, return_indices=True)
y, i = fm(x3)
print(fm, tuple(y.shape), i.flatten()[:6].tolist())
err(nn.MaxPool3d(2), x3[0, 0, 0])
err(nn.BatchNorm3d(3), x3[0])
err(nn.Softmax2d(), x3[0, 0, 0])
''')

qa("qa_fn_lazy_modules", r'''
mods = [nn.LazyConv1d(4, 3), nn.LazyConv3d(2, 2, padding=1), nn.LazyConvTranspose1d(3, 2, stride=2), nn.LazyConvTranspose2d(2, 3),
        nn.LazyConvTranspose3d(2, 1), nn.LazyBatchNorm1d(), nn.LazyBatchNorm2d(momentum=0.2), nn.LazyBatchNorm3d(affine=False),
        nn.LazyInstanceNorm1d(affine=True), nn.LazyInstanceNorm2d(track_running_stats=True), nn.LazyInstanceNorm3d()]
for m in mods:
    print(m, m.has_uninitialized_params())
ins = [torch.randn(2, 3, 8), torch.randn(1, 2, 3, 4, 4), torch.randn(2, 5, 4), torch.randn(1, 3, 4, 4), torch.randn(1, 2, 2, 2, 2),
       torch.randn(4, 6), torch.randn(2, 3, 2, 2), torch.randn(2, 2, 2, 2, 2), torch.randn(2, 3, 5), torch.randn(2, 3, 4, 4), torch.randn(1, 2, 3, 3, 3)]
for m, x in zip(mods, ins):
    torch.manual_seed(0)
    y = m(x)
    print(type(m).__name__, tuple(y.shape), [tuple(p.shape) for p in m.parameters()], [tuple(b.shape) for b in m.buffers()])
    print(m)
p = nn.UninitializedParameter()
print(type(p).__name__, p.requires_grad, isinstance(p, nn.Parameter))
err(lambda: p.shape)
b = nn.Buffer(torch.ones(2), persistent=False)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = b
        self.c = nn.Buffer(torch.zeros(1))
m = M()
print(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()], type(m.b).__name__)
''')

qa("qa_fn_adaptive_logsoftmax_transformer_decoder", r'''
torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[5, 12], div_value=2.0, head_bias=True)
x = torch.randn(6, 8)
t = torch.tensor([0, 4, 5, 11, 12, 19])
out = asm(x, t)
show(out.output, out.loss)
show(asm.log_prob(x)[:, :6], asm.predict(x))
out.loss.backward()
show(asm.head.weight.grad[:2], asm.tail[1][1].weight.grad[:2])
print(asm)
err(asm, x, torch.tensor([0, 1, 2, 3, 4, 20]))
err(nn.AdaptiveLogSoftmaxWithLoss, 8, 20, cutoffs=[5, 5])
torch.manual_seed(1)
layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
dec = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(8))
tgt, mem = torch.randn(2, 4, 8), torch.randn(2, 5, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
y = dec(tgt, mem, tgt_mask=mask, memory_key_padding_mask=torch.tensor([[False] * 5, [False, False, False, True, True]]))
show(y[0])
y2 = dec(tgt, mem, tgt_is_causal=True, tgt_mask=mask)
show(y2[1, 0])
y2.sum().backward()
show(dec.layers[0].multihead_attn.in_proj_weight.grad[:2])
print(len(list(dec.parameters())), sum(p.numel() for p in dec.parameters()))
''')

qa("qa_fn_integer_inputs", r'''
xu = (torch.arange(2 * 3 * 5 * 6) * 37 % 256).to(torch.uint8).reshape(2, 3, 5, 6)
for mode, kw in [("nearest", {}), ("nearest-exact", {}), ("bilinear", dict(align_corners=False)), ("bilinear", dict(align_corners=True)),
                 ("bicubic", dict(align_corners=False)), ("bilinear", dict(antialias=True)), ("bicubic", dict(antialias=True))]:
    for size in [(8, 9), (3, 4)]:
        y = F.interpolate(xu, size=size, mode=mode, **kw)
        print(mode, kw, size, y.dtype, y[1, 2].tolist())
xl = torch.arange(2 * 3 * 6 * 6).reshape(2, 3, 6, 6) % 7 - 3
print(F.max_pool2d(xl, 2, stride=2, padding=1)[0, 0].tolist())
err(F.max_pool1d, xl[0], 3)
print(F.avg_pool2d(xl, 3, stride=2, padding=1)[1, 1].tolist())
print(F.avg_pool2d(xl, 2, divisor_override=3)[1, 1].tolist())
def out(f):
    try:
        r = f()
        print(r.dtype, r.tolist() if r.numel() < 40 else r.shape)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
for f in [lambda: F.adaptive_max_pool2d(xl, 4)[0, 0], lambda: F.adaptive_avg_pool2d(xl, 4)[0, 0], lambda: F.max_pool2d(xl.to(torch.int8), 2),
          lambda: F.max_pool2d(xu, 2), lambda: F.max_pool3d(xl[None], 2), lambda: F.avg_pool1d(xl[0], 2), lambda: F.avg_pool3d(xl[None], 2),
          lambda: F.pad(xl[0, 0], (1, 1), value=9), lambda: F.pad(xl.bool(), (1, 0)), lambda: F.pad(xu, (1, 1, 2, 0), mode="reflect"),
          lambda: F.pad(xl, (1, 1, 0, 1), mode="replicate"), lambda: F.pad(xl, (1, 1, 1, 0), mode="circular"),
          lambda: F.pixel_shuffle(xl[:, :, :2, :2].repeat(1, 4, 1, 1), 2), lambda: F.one_hot(xl[0, 0, 0] + 3),
          lambda: F.relu(xl[0, 0]), lambda: F.relu6(xl[0, 0] * 3), lambda: F.hardtanh(xl[0, 0], -2, 2), lambda: F.leaky_relu(xl[0, 0]),
          lambda: F.threshold(xl[0, 0], 1, 100), lambda: F.embedding(xl[0, 0, 0] + 3, torch.arange(14.0).reshape(7, 2)),
          lambda: F.unfold(xl.float(), 2), lambda: F.unfold(xl, 2), lambda: F.fold(xl[:, :, :4, :4].reshape(2, 12, 4), (3, 3), 2),
          lambda: F.conv2d(xl, torch.ones(1, 3, 2, 2, dtype=torch.long)), lambda: F.linear(xl[0, 0], xl[0, 1]),
          lambda: F.glu(xl), lambda: F.softmax(xl, 1), lambda: F.normalize(xl.float())[0, 0], lambda: F.interpolate(xl, scale_factor=2),
          lambda: F.interpolate(xu.to(torch.int8), scale_factor=2), lambda: F.grid_sample(xl, torch.zeros(2, 1, 1, 2), align_corners=False),
          lambda: F.channel_shuffle(xl, 3), lambda: F.pixel_unshuffle(xu, 1), lambda: F.local_response_norm(xl, 2)]:
    out(f)
err(F.pad, xl, (1, 1), value=0.5)
err(F.max_pool2d, xl.bool(), 2)
err(F.avg_pool2d, xl.int(), 2)
err(F.interpolate, xl, size=(3, 3), mode="bicubic")
err(F.one_hot, torch.tensor([], dtype=torch.long))
err(F.embedding, torch.tensor([-1]), torch.randn(3, 2))
''')

qa("qa_fn_sdpa_grads_dropout_masks", r'''
q = torch.randn(2, 2, 3, 4, dtype=torch.float64)
k = torch.randn(2, 2, 5, 4, dtype=torch.float64)
v = torch.randn(2, 2, 5, 3, dtype=torch.float64)
m_head = torch.randn(2, 1, 3, 5, dtype=torch.float64)
grad_of(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=m_head), q, k, v)
bmask = torch.tensor([[True, False, True, True, False]])
grad_of(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=bmask), q, k, v)
inf_mask = torch.zeros(3, 5, dtype=torch.float64)
inf_mask[1] = float("-inf")
show(F.scaled_dot_product_attention(q, k, v, attn_mask=inf_mask)[0, 0])
qf, kf, vf = (t.float().requires_grad_(True) for t in (q, k, v))
torch.manual_seed(9)
y = F.scaled_dot_product_attention(qf, kf, vf, dropout_p=0.5, is_causal=True)
y.sum().backward()
show(y[1, 1], qf.grad[0, 0], vf.grad[1, 0])
L, S = 3, 5
attn = torch.softmax(q @ k.transpose(-2, -1) / 2.0 + m_head, -1)
show((attn @ v - F.scaled_dot_product_attention(q, k, v, attn_mask=m_head)).abs().max() < 1e-12)
show(F.scaled_dot_product_attention(q[0, 0], k[0, 0], v[0, 0]), F.scaled_dot_product_attention(q[:, :, :0], k, v).shape)
''')
