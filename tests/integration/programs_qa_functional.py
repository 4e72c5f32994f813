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


# continued in programs_qa_functional_2.py (dropout, module reprs, edge cases, ...)
import programs_qa_functional_2  # noqa: E402,F401
