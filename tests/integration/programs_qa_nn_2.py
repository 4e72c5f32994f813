"""QA programs on models and training, continued (see programs_qa_nn.py): losses,
normalisation, convolution and resampling layers."""
from programs_qa_nn import qa

qa("qa_nn_loss_option_matrix", r'''
logits = fixed(6, 4, scale=2.0).requires_grad_()
target = torch.tensor([0, 3, -100, 1, 2, 3])
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for red in ("mean", "sum", "none"):
    for kw in ({}, {"weight": w}, {"label_smoothing": 0.2}, {"weight": w, "label_smoothing": 0.1}):
        l = F.cross_entropy(logits, target, reduction=red, **kw)
        # (3 decimals: nll_loss's float32 sum order is not ATen's cascade, a last-bit
        # difference that lands on a 4-decimal rounding boundary here)
        show(red, sorted(kw), (l if red != "none" else l.sum()).detach().double().round(decimals=3))
l = F.cross_entropy(logits, target.clamp(min=0), weight=w, ignore_index=3, label_smoothing=0.3)
l.backward()
show(l, logits.grad[1], logits.grad[2])
probs = fixed(6, 4, k=1.0).softmax(1)
show(F.cross_entropy(logits, probs, label_smoothing=0.1, weight=w))
seg = fixed(2, 3, 2, 2)
st = torch.tensor([[[0, 1], [2, -1]], [[1, 1], [0, 2]]])
show(F.cross_entropy(seg, st, ignore_index=-1), F.nll_loss(seg.log_softmax(1), st, ignore_index=-1, reduction="sum"))
all_ignored = F.cross_entropy(logits[:2], torch.tensor([-100, -100]))
show(all_ignored)
x = fixed(4, 3, k=0.5)
t = (fixed(4, 3, k=1.5) > 0).float()
pw = torch.tensor([1.0, 3.0, 0.5])
show(F.binary_cross_entropy_with_logits(x, t, pos_weight=pw), F.binary_cross_entropy_with_logits(x, t, weight=torch.tensor([2.0, 1.0, 0.0]), reduction="sum"))
show(F.binary_cross_entropy(x.sigmoid(), t, weight=pw, reduction="none")[0])
lp = fixed(3, 5, k=2.0).log_softmax(1)
tp = fixed(3, 5, k=3.0).log_softmax(1)
for red in ("batchmean", "sum", "mean", "none"):
    show(red, F.kl_div(lp, tp, reduction=red, log_target=True).sum(), F.kl_div(lp, tp.exp(), reduction=red).sum())
show(F.smooth_l1_loss(x, t, beta=0.5), F.huber_loss(x, t, delta=0.3, reduction="sum"), F.l1_loss(x, t))
show(F.margin_ranking_loss(x[:, 0], x[:, 1], torch.tensor([1.0, -1.0, 1.0, -1.0]), margin=0.2))
show(F.hinge_embedding_loss(x, t * 2 - 1, margin=0.5), F.soft_margin_loss(x, t * 2 - 1))
show(F.multilabel_margin_loss(x, torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])))
show(F.multilabel_soft_margin_loss(x, t, weight=pw), F.multi_margin_loss(x, torch.tensor([0, 1, 2, 0]), p=2, margin=0.5, weight=pw))
show(F.cosine_embedding_loss(x, fixed(4, 3, k=4.0), torch.tensor([1, -1, 1, -1]), margin=0.1))
show(F.triplet_margin_loss(x, fixed(4, 3, k=4.0), fixed(4, 3, k=5.0), margin=0.5, p=1, swap=True))
show(F.poisson_nll_loss(x, t, log_input=True, full=True), F.poisson_nll_loss(x.exp(), t, log_input=False))
show(F.gaussian_nll_loss(x, t, torch.full((4, 1), 0.5), full=True, eps=1e-3))
try:
    F.cross_entropy(logits, torch.tensor([0, 1, 2, 3, 4, 0]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.nll_loss(logits, target.float())
except RuntimeError as e:
    print("RuntimeError", e)
''')

qa("qa_nn_ctc_and_embedding_bag", r'''
T, N, C = 6, 2, 4
lp = fixed(T, N, C, scale=2.0).log_softmax(2).requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
il = torch.tensor([6, 5])
tl = torch.tensor([3, 2])
for red in ("mean", "sum", "none"):
    show(red, F.ctc_loss(lp, targets, il, tl, reduction=red))
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
l = ctc(lp, targets, il, tl)
l.backward()
show(l, lp.grad[0], lp.grad[5, 1])
flat = torch.tensor([1, 2, 2, 3, 1])
show(F.ctc_loss(lp, flat, il, tl), F.ctc_loss(lp, targets, (6, 5), (3, 2)))
show(F.ctc_loss(lp, torch.tensor([[1, 1, 1], [2, 2, 2]]), torch.tensor([3, 6]), tl, zero_infinity=False, reduction="none"))
show(nn.CTCLoss(blank=3)(lp, torch.tensor([[0, 1, 1], [2, 0, 0]]), il, tl))
w = fixed(10, 3, scale=0.5).requires_grad_()
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 4, 4])
for mode in ("sum", "mean", "max"):
    show(mode, F.embedding_bag(inp, w, off, mode=mode))
psw = torch.linspace(0.5, 2.0, 8)
out = F.embedding_bag(inp, w, off, mode="sum", per_sample_weights=psw)
show(out)
out.sum().backward()
show(w.grad[4], w.grad[0])
show(F.embedding_bag(inp, w, torch.tensor([0, 4, 4, 8]), mode="mean", include_last_offset=True))
show(F.embedding_bag(torch.tensor([[1, 2], [4, 5]]), w, mode="max"))
eb = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2)
with torch.no_grad():
    eb.weight.copy_(fixed(10, 3, k=1.0))
show(eb(inp, off), eb.weight[2])
eb2 = nn.EmbeddingBag.from_pretrained(fixed(10, 3, k=2.0), mode="mean", max_norm=0.5)
show(eb2(torch.tensor([[0, 1, 2]])), eb2.weight[:3].norm(dim=1))
print(eb, eb2)
try:
    F.embedding_bag(inp, w, off, mode="mean", per_sample_weights=psw)
except (NotImplementedError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
emb = nn.Embedding(10, 3, max_norm=1.0, norm_type=2.0, scale_grad_by_freq=True)
with torch.no_grad():
    emb.weight.copy_(fixed(10, 3, k=3.0, scale=2.0))
o = emb(torch.tensor([1, 1, 2]))
o.sum().backward()
show(o, emb.weight.grad[1], emb.weight[5].norm())
''')

qa("qa_nn_norm_layers_modes", r'''
x = fixed(4, 3, 5, scale=2.0) + 1.0
bn = det(nn.BatchNorm1d(3, momentum=0.3))
bn.train()
y = bn(x)
show(y[0, :, 0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
show(bn(x)[1, :, 1])
bn.train()
bn.momentum = None
bn(x); bn(x * 2)
show(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.reset_running_stats()
show(bn.running_mean, bn.num_batches_tracked)
nt = nn.BatchNorm1d(3, track_running_stats=False, affine=False)
print(nt.running_mean, nt.state_dict())
nt.eval()
show(nt(x)[0, :, 0])
b2 = det(nn.BatchNorm2d(3))
x4 = fixed(2, 3, 2, 2, k=1.0)
y4 = b2(x4)
y4.sum().backward()
show(y4[0, 0], b2.weight.grad, b2.bias.grad)
try:
    nn.BatchNorm1d(3)(fixed(1, 3))
except ValueError as e:
    print("ValueError", e)
gn = det(nn.GroupNorm(2, 4, eps=1e-3))
x2 = fixed(2, 4, 3, k=2.0)
show(gn(x2)[1], nn.GroupNorm(4, 4, affine=False)(x2)[0, 0])
for cls, shape in ((nn.InstanceNorm1d, (2, 3, 5)), (nn.InstanceNorm2d, (2, 3, 2, 3))):
    xin = fixed(*shape, k=3.0)
    a = det(cls(3, affine=True, track_running_stats=True))
    ya = a(xin)
    show(cls.__name__, ya.flatten()[:4], a.running_mean, a.running_var)
    a.eval()
    show(a(xin).flatten()[:4])
    show(cls(3)(xin).flatten()[-3:])
    print(a, sorted(a.state_dict()))
ln = det(nn.LayerNorm([3, 5], elementwise_affine=True, bias=False))
show(ln(x)[0, 0], sorted(n for n, _ in ln.named_parameters()))
show(F.layer_norm(x, (5,), eps=1e-2)[0, 0], F.group_norm(x2, 2)[0, 0], F.instance_norm(x2)[0, 0])
rms = det(nn.RMSNorm(5, eps=1e-6))
show(rms(x)[0, 0], F.rms_norm(x, (5,))[1, 1])
lrn = nn.LocalResponseNorm(2, alpha=0.1, beta=0.5, k=2.0)
show(lrn(x4)[0, :, 0, 0])
sync = nn.SyncBatchNorm(3)
print(type(sync).__name__, sync.momentum)
''')

qa("qa_nn_conv_variants", r'''
x = fixed(2, 4, 7, 6)
c = det(nn.Conv2d(4, 6, 3, groups=2, dilation=2, padding="same", padding_mode="reflect"))
y = c(x)
show(y.shape, y[0, 0, 0], y[1, 5, :, 2])
y.sum().backward()
show(c.weight.grad[0, 0], c.bias.grad)
for mode in ("zeros", "reflect", "replicate", "circular"):
    cm = det(nn.Conv2d(4, 2, (3, 2), stride=(2, 1), padding=(1, 2), padding_mode=mode))
    show(mode, cm(x).shape, cm(x)[0, 1, 0])
dw = det(nn.Conv1d(4, 8, 3, groups=4, padding="same", bias=False))
show(dw(x[:, :, 0])[1, :, 0])
cv = det(nn.Conv1d(4, 2, 4, padding="valid", stride=2))
show(cv(x[:, :, 1]))
try:
    nn.Conv1d(4, 2, 3, padding="same", stride=2)
except ValueError as e:
    print("ValueError", e)
try:
    nn.Conv2d(4, 6, 3, groups=3)
except ValueError as e:
    print("ValueError", e)
ct = det(nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1, groups=1, dilation=1))
yt = ct(x)
show(yt.shape, yt[0, 0, 0, :4])
print(ct(x, output_size=[13, 11]).shape)
ctg = det(nn.ConvTranspose1d(4, 4, 3, stride=3, groups=2, dilation=2, output_padding=1))
show(ctg(x[:, :, 0]).shape, ctg(x[:, :, 0])[0, 3])
try:
    nn.ConvTranspose2d(4, 3, 3, stride=1, output_padding=1)(x)
except (ValueError, RuntimeError) as e:
    print(type(e).__name__)
c3 = det(nn.Conv3d(2, 2, (1, 2, 2), padding=(0, 1, 1), padding_mode="circular"))
show(c3(fixed(1, 2, 2, 3, 3)).flatten()[:5])
show(F.conv2d(x, fixed(2, 4, 1, 1), stride=3)[0, 1], F.conv_transpose2d(x[:, :2], fixed(2, 1, 2, 2), stride=2, groups=2).shape)
unf = nn.Unfold(kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
cols = unf(x)
print(cols.shape)
fold = nn.Fold(output_size=(7, 6), kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
show(fold(cols)[0, 0], fold(unf(torch.ones(1, 1, 7, 6)))[0, 0])
show(F.unfold(x[0], 3).shape, F.fold(F.unfold(x[:1], 2, stride=2), (6, 6), 2, stride=2)[0, 0, :2])
lazy = nn.LazyConv2d(5, 3)
print(lazy(x).shape, lazy.weight.shape, type(lazy).__name__)
''')

qa("qa_nn_interpolate_and_sampling", r'''
x = fixed(1, 2, 4, 5)
for mode, ac in (("nearest", None), ("nearest-exact", None), ("bilinear", False), ("bilinear", True),
                 ("bicubic", False), ("bicubic", True), ("area", None)):
    y = F.interpolate(x, size=(6, 3), mode=mode, align_corners=ac)
    show(mode, ac, y[0, 1, 2], y.sum())
for mode in ("bilinear", "bicubic"):
    y = F.interpolate(x, scale_factor=0.5, mode=mode, antialias=True)
    show(mode, "aa", y.shape, y[0, 0])
img = (fixed(1, 3, 9, 11, scale=100.0) + 120).to(torch.uint8)
print(F.interpolate(img, size=(4, 5), mode="bilinear", antialias=True)[0, 1])
print(F.interpolate(img, size=(13, 6), mode="bicubic", antialias=True)[0, 0, :3])
show(F.interpolate(x, scale_factor=(1.5, 0.7), mode="bilinear", recompute_scale_factor=True)[0, 0, 1])
show(F.interpolate(x, scale_factor=(1.5, 0.7), mode="nearest")[0, 0, -1])
x1 = fixed(1, 2, 5)
show(F.interpolate(x1, size=8, mode="linear", align_corners=True)[0, 0], F.interpolate(x1, scale_factor=2.5, mode="nearest-exact")[0, 1])
x3 = fixed(1, 1, 2, 3, 4)
show(F.interpolate(x3, size=(3, 3, 3), mode="trilinear")[0, 0, 1, 1], F.interpolate(x3, scale_factor=2, mode="nearest").shape)
up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
xr = x.clone().requires_grad_()
up(xr).pow(2).sum().backward()
show(xr.grad[0, 0, 0])
print(up, nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=(3, 3)))
try:
    F.interpolate(x, size=(2, 2), mode="linear")
except (ValueError, NotImplementedError) as e:
    print(type(e).__name__, str(e)[:70])
try:
    F.interpolate(x, size=(2, 2), scale_factor=2.0)
except ValueError as e:
    print("ValueError", e)
theta = torch.tensor([[[0.8, -0.3, 0.1], [0.2, 0.9, -0.2]]])
for ac in (False, True):
    grid = F.affine_grid(theta, (1, 2, 3, 4), align_corners=ac)
    show(grid[0, 1], grid.shape)
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            s = F.grid_sample(x, grid * 1.3, mode=mode, padding_mode=pm, align_corners=ac)
            show(ac, mode, pm, s[0, 1, 1], s.sum())
g = F.affine_grid(theta, (1, 2, 3, 4), align_corners=False).requires_grad_()
xs = x.clone().requires_grad_()
F.grid_sample(xs, g, align_corners=False).sum().backward()
show(g.grad[0, 0], xs.grad[0, 0, 1])
t3 = torch.tensor([[[1.0, 0.1, 0.0, 0.1], [0.0, 0.9, 0.1, 0.0], [0.1, 0.0, 1.1, -0.1]]])
g3 = F.affine_grid(t3, (1, 1, 2, 3, 4), align_corners=False)
show(g3[0, 1, 2], F.grid_sample(x3, g3, align_corners=False)[0, 0, 1])
show(F.pixel_shuffle(fixed(1, 8, 2, 2), 2)[0, 1], F.pixel_unshuffle(x[:, :, :4, :4], 2).shape)
''')
