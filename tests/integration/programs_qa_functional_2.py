"""QA programs on torch.nn.functional breadth, continued from programs_qa_functional.py:
seeded dropout, activation gradients at their kinks, resampling/padding/loss module reprs,
errors over F, low precision, attention projections, embedding modules, non-contiguous and
integer inputs, edge cases, 3-d and lazy modules."""
from programs_qa_functional import qa


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
    # (+ 0.0: a normalized output sums to ~1e-7 of either sign, printed as 0.0)
    print(name, tuple(y.shape), round(y.double().sum().item(), 3) + 0.0)
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


qa("qa_fn_errors_more", r'''
x = torch.ones(2, 3, 4, 5)
v = torch.ones(4, 5)
t = torch.zeros(4, dtype=torch.long)
calls = [
 lambda: F.embedding_bag(torch.tensor([0, 1]), v, torch.tensor([1])),
 lambda: F.embedding_bag(torch.tensor([0, 1]), v, torch.tensor([0, 3])),
 lambda: F.embedding_bag(torch.tensor([0, 9]), v, torch.tensor([0])),
 lambda: F.embedding_bag(torch.tensor([0, 1]), v, torch.tensor([0]), mode="max", per_sample_weights=torch.ones(2)),
 lambda: F.embedding_bag(torch.tensor([0, 1]), v, torch.tensor([0]), per_sample_weights=torch.ones(3)),
 lambda: F.embedding_bag(torch.tensor([0.0, 1]), v, torch.tensor([0])),
 lambda: F.embedding_bag(torch.tensor([0, 1]), v, torch.tensor([0.0])),
 lambda: F.embedding_bag(torch.tensor([[0, 1]]), v, per_sample_weights=torch.ones(2)),
 lambda: F.embedding(torch.tensor([0]), v, max_norm=-1.0),
 lambda: F.embedding(torch.tensor([0]), v[0]),
 lambda: F.one_hot(torch.tensor([1]), -2),
 lambda: F.one_hot(torch.tensor([1]), 0),
 lambda: F.fold(torch.ones(2, 12, 6), (3, 4), 2, stride=0),
 lambda: F.fold(torch.ones(2, 12, 6), (3, 4), 0),
 lambda: F.fold(torch.ones(2, 12, 6), (3,), 2),
 lambda: F.fold(torch.ones(2, 2, 12, 6), (3, 4), 2),
 lambda: F.unfold(x, 2, padding=-1),
 lambda: F.unfold(x, 2, dilation=0),
 lambda: F.unfold(torch.ones(2, 3, 4, 5, 6), 2),
 lambda: F.unfold(x, (2, 2, 2)),
 lambda: F.interpolate(x, scale_factor=-1.0),
 lambda: F.interpolate(x, size=(0, 3)),
 lambda: F.interpolate(x, size=(3, 3), mode="area", align_corners=False),
 lambda: F.interpolate(x, scale_factor=(2.0,)),
 lambda: F.interpolate(x, size=(3, 3), mode="bicubic", antialias=True, align_corners=True),
 lambda: F.interpolate(x[0, 0], size=3),
 lambda: F.interpolate(x, size=(3, 3), mode="cubic"),
 lambda: F.interpolate(x, size=(3, 3), recompute_scale_factor=True),
 lambda: F.pad(x, (1, 1, 1, 1), mode="reflect", value=1.0),
 lambda: F.pad(x, (1, 1, 1, 1, 1, 1, 1, 1, 1, 1)),
 lambda: F.pad(x[0, 0, 0], (1, 1, 1, 1), mode="replicate"),
 lambda: F.pad(x, (1.5, 1)),
 lambda: F.pad(torch.ones(0, 3, 4), (1, 1), mode="reflect"),
 lambda: F.pad(torch.ones(2, 0, 4), (1, 1), mode="reflect"),
 lambda: F.pad(torch.ones(2, 3, 0), (1, 1), mode="replicate"),
 lambda: F.grid_sample(x, torch.ones(3, 2, 2, 2)),
 lambda: F.grid_sample(x, torch.ones(2, 2, 2, 2, 2)),
 lambda: F.grid_sample(x[0], torch.ones(3, 2, 2)),
 lambda: F.grid_sample(x.int(), torch.ones(2, 2, 2, 2).int()),
 lambda: F.affine_grid(torch.ones(2, 2, 3), (3, 1, 4, 4)),
 lambda: F.affine_grid(torch.ones(2, 2, 3), torch.Size((2, 1, 0, 4))),
 lambda: F.batch_norm(x, None, None, training=False),
 lambda: F.batch_norm(x, torch.zeros(3), torch.ones(3), weight=torch.ones(4)),
 lambda: F.batch_norm(x, torch.zeros(3), torch.ones(3), bias=torch.ones(2)),
 lambda: F.batch_norm(x, torch.zeros(3).int(), torch.ones(3)),
 lambda: F.instance_norm(x, torch.zeros(2), torch.ones(3)),
 lambda: F.instance_norm(x, weight=torch.ones(4)),
 lambda: F.group_norm(x, 3, weight=torch.ones(4)),
 lambda: F.group_norm(x[0, 0, 0], 1),
 lambda: F.group_norm(x, 0),
 lambda: F.layer_norm(x, (5,), weight=torch.ones(4)),
 lambda: F.layer_norm(x, (5,), bias=torch.ones(4)),
 lambda: F.layer_norm(x, (2, 3, 4, 5, 6)),
 lambda: F.rms_norm(x, (5,), weight=torch.ones(4)),
 lambda: F.rms_norm(x, (5,), weight=torch.ones(5).double()),
 lambda: F.local_response_norm(x, 0),
 lambda: F.local_response_norm(torch.ones(2, 3), 2),
 lambda: F.normalize(x, dim=5),
 lambda: F.cosine_similarity(x, x, dim=4),
 lambda: F.pairwise_distance(x, x, p=-1),
 lambda: F.pdist(torch.ones(3, 4).int()),
 lambda: F.pdist(torch.ones(3, 4), p=float("nan")),
 lambda: F.softmax(x, 4),
 lambda: F.log_softmax(x, dim=-5),
 lambda: F.gumbel_softmax(x, tau=0.0, dim=7),
 lambda: F.glu(x, 5),
 lambda: F.linear(x, torch.ones(3)),
 lambda: F.linear(torch.ones(3), torch.ones(2, 3), torch.ones(3)),
 lambda: F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 3)),
 lambda: F.bilinear(torch.ones(2, 3), torch.ones(3, 4), torch.ones(5, 3, 4)),
 lambda: F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 4), torch.ones(4)),
 lambda: F.prelu(x, torch.ones(2)),
 lambda: F.rrelu(x, 0.5, 0.1, training=True),
 lambda: F.threshold(x, 1, 2, inplace=True) if False else F.hardtanh(x, 2.0, 1.0),
 lambda: F.softplus(x, beta=0),
 lambda: F.elu(x, alpha=-1.0, inplace=True),
 lambda: F.celu(x, alpha=0.0),
 lambda: F.leaky_relu(x.int(), 0.1),
 lambda: F.hardshrink(x, -1.0),
 lambda: F.softshrink(x, -1.0),
 lambda: F.dropout(x, p=0.5, training=True, inplace=True) if False else F.dropout1d(x, 0.5),
 lambda: F.dropout2d(torch.ones(3), 0.5),
 lambda: F.dropout3d(torch.ones(2, 3), 0.5),
 lambda: F.feature_alpha_dropout(x, 1.1),
 lambda: F.pixel_shuffle(x, 0),
 lambda: F.pixel_unshuffle(x, 0),
 lambda: F.pixel_unshuffle(x, 3),
 lambda: F.adaptive_avg_pool2d(x, (0, 2)),
 lambda: F.adaptive_max_pool1d(x[0], 2),
 lambda: F.adaptive_avg_pool3d(x, 2),
 lambda: F.adaptive_max_pool2d(x, (2, 2, 2)),
 lambda: F.lp_pool2d(x, 0, 2),
 lambda: F.lp_pool1d(x, 2, 2),
 lambda: F.max_unpool1d(torch.ones(2, 3, 2), torch.zeros(2, 3, 3, dtype=torch.long), 2),
 lambda: F.max_unpool2d(torch.ones(2, 3, 2, 2), torch.zeros(2, 3, 2, 2), 2),
 lambda: F.max_unpool2d(torch.ones(2, 3, 2, 2), torch.full((2, 3, 2, 2), 99), 2),
 lambda: F.max_unpool3d(torch.ones(2, 3, 2, 2), torch.zeros(2, 3, 2, 2, dtype=torch.long), 2),
 lambda: F.fractional_max_pool2d(x, 2),
 lambda: F.fractional_max_pool2d(x, 2, output_size=(5, 5)),
 lambda: F.fractional_max_pool2d(x, 2, output_ratio=1.5),
 lambda: F.ctc_loss(torch.ones(5, 2, 3), torch.ones(2, 2, dtype=torch.long), torch.tensor([5, 5]), torch.tensor([2])),
 lambda: F.ctc_loss(torch.ones(5, 2, 3).int(), torch.ones(2, 2, dtype=torch.long), torch.tensor([5, 5]), torch.tensor([2, 2])),
 lambda: F.ctc_loss(torch.ones(5, 2, 3), torch.ones(2, 2), torch.tensor([5, 5]), torch.tensor([2, 2])),
 lambda: F.ctc_loss(torch.ones(5, 2, 3), torch.ones(2, 2, dtype=torch.long), torch.tensor([5, 5]), torch.tensor([2, -1])),
 lambda: F.ctc_loss(torch.ones(5, 3), torch.ones(2, 2, dtype=torch.long), torch.tensor([5]), torch.tensor([2])),
 lambda: F.cross_entropy(x, t, reduction="avg"),
 lambda: F.cross_entropy(v, t, weight=torch.ones(4)),
 lambda: F.cross_entropy(v, t, label_smoothing=1.5),
 lambda: F.cross_entropy(v, torch.ones(4, 5).long()),
 lambda: F.cross_entropy(v, torch.ones(4, 5).int()),
 lambda: F.cross_entropy(v.int(), t),
 lambda: F.nll_loss(torch.ones(2, 3, 4, 5, 6), torch.zeros(2, 4, 5, 6, dtype=torch.long)),
 lambda: F.nll_loss(torch.ones(2, 3, 4), torch.zeros(2, 5, dtype=torch.long)),
 lambda: F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.long)),
 lambda: F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=torch.long), weight=torch.ones(2)),
 lambda: F.binary_cross_entropy(v.sigmoid(), v.sigmoid(), weight=torch.ones(3)),
 lambda: F.binary_cross_entropy_with_logits(v, v, pos_weight=torch.ones(3)),
 lambda: F.binary_cross_entropy_with_logits(v, v, weight=torch.ones(3)),
 lambda: F.kl_div(v, v, reduction="batch"),
 lambda: F.mse_loss(v, torch.ones(3, 5)),
 lambda: F.l1_loss(v, torch.ones(4, 5, 2)),
 lambda: F.smooth_l1_loss(v, torch.ones(3, 5)),
 lambda: F.huber_loss(v, torch.ones(3, 5)),
 lambda: F.soft_margin_loss(v, torch.ones(3, 5)),
 lambda: F.poisson_nll_loss(v, torch.ones(3, 5)),
 lambda: F.gaussian_nll_loss(v, v, torch.ones(3, 5)),
 lambda: F.gaussian_nll_loss(v, torch.ones(3, 5), v),
 lambda: F.hinge_embedding_loss(v, torch.ones(3, 5)),
 lambda: F.multilabel_soft_margin_loss(v, torch.ones(3, 5)),
 lambda: F.multilabel_margin_loss(v, torch.ones(4, 5)),
 lambda: F.multilabel_margin_loss(v, torch.ones(3, 5).long()),
 lambda: F.multi_margin_loss(v, t, weight=torch.ones(4)),
 lambda: F.multi_margin_loss(v, t.float()),
 lambda: F.multi_margin_loss(v, torch.full((4,), 7)),
 lambda: F.margin_ranking_loss(torch.ones(3), torch.ones(3), torch.ones(3, 1)),
 lambda: F.margin_ranking_loss(torch.ones(3, 2), torch.ones(3), torch.ones(3)),
 lambda: F.cosine_embedding_loss(torch.ones(3), torch.ones(3), torch.ones(1)),
 lambda: F.cosine_embedding_loss(torch.ones(3, 2, 2), torch.ones(3, 2, 2), torch.ones(3)),
 lambda: F.cosine_embedding_loss(torch.ones(3, 2), torch.ones(3, 2), torch.ones(2)),
 lambda: F.triplet_margin_loss(torch.ones(3, 2), torch.ones(3, 2), torch.ones(3, 2, 1)),
 lambda: F.triplet_margin_loss(torch.ones(3, 2), torch.ones(3, 2), torch.ones(3, 2), margin=-1.0),
 lambda: F.triplet_margin_with_distance_loss(torch.ones(3, 2), torch.ones(3, 2), torch.ones(3, 2), margin=0),
 lambda: F.triplet_margin_with_distance_loss(torch.ones(3, 2), torch.ones(3, 2), torch.ones(3, 2, 1)),
 lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=torch.ones(3, 3)),
 lambda: F.scaled_dot_product_attention(x, x, x, dropout_p=1.5),
 lambda: F.scaled_dot_product_attention(x, x, x, attn_mask=torch.ones(4, 4).int()),
 lambda: F.scaled_dot_product_attention(x, x[:, :1], x[:, :1]),
 lambda: F.scaled_dot_product_attention(x, x[:, :2], x[:, :2], enable_gqa=True),
 lambda: F.scaled_dot_product_attention(x[0, 0, 0], x[0, 0, 0], x[0, 0, 0]),
 lambda: F.multi_head_attention_forward(torch.ones(3, 2, 4), torch.ones(3, 2, 4), torch.ones(3, 2, 4), 4, 3, torch.ones(12, 4), None, None, None, False, 0.0, torch.ones(4, 4), None),
 lambda: F.conv1d(torch.ones(2, 3, 5), torch.ones(4, 3, 2), stride=0),
 lambda: F.conv1d(torch.ones(2, 3, 5), torch.ones(4, 3, 2), padding=-1),
 lambda: F.conv1d(torch.ones(2, 3, 5), torch.ones(4, 3, 2), dilation=0),
 lambda: F.conv1d(torch.ones(2, 3, 5), torch.ones(4, 3, 2), groups=0),
 lambda: F.conv1d(torch.ones(2, 3, 5), torch.ones(4, 3, 2), padding="same", dilation=2, stride=2),
 lambda: F.conv1d(torch.ones(2, 3, 1), torch.ones(4, 3, 2)),
 lambda: F.conv2d(torch.ones(2, 3, 5), torch.ones(4, 3, 2, 2)),
 lambda: F.conv2d(torch.ones(3, 5), torch.ones(4, 3, 2, 2)),
 lambda: F.conv_transpose1d(torch.ones(2, 3, 5), torch.ones(3, 4, 2), output_padding=2),
 lambda: F.conv_transpose2d(torch.ones(2, 3, 5, 5), torch.ones(3, 4, 2, 2), stride=0),
 lambda: nn.Conv2d(3, 4, 3, groups=2),
 lambda: nn.Conv2d(4, 6, 3, groups=4),
 lambda: nn.Conv2d(3, 4, 3, padding="same", stride=2),
 lambda: nn.ConvTranspose2d(3, 4, 3, padding="same"),
 lambda: nn.Conv2d(3, 4, 0),
 lambda: nn.Conv2d(0, 4, 3),
 lambda: nn.Linear(3, -1),
 lambda: nn.Embedding(-1, 3),
 lambda: nn.BatchNorm2d(0)(x),
 lambda: nn.GroupNorm(3, 4),
 lambda: nn.LayerNorm(5)(torch.ones(5, 4)),
 lambda: nn.MaxPool2d(2, padding=2)(x),
 lambda: nn.Upsample(scale_factor=2, mode="linear")(x),
 lambda: nn.Unflatten(1, (2, 2))(x),
 lambda: nn.Flatten(3, 1)(x),
 lambda: nn.PReLU(4)(x),
 lambda: nn.MultiheadAttention(5, 2),
 lambda: nn.Transformer(d_model=5, nhead=2),
 lambda: nn.Bilinear(3, 4, 5)(torch.ones(2, 4), torch.ones(2, 4)),
 lambda: nn.Softmax(dim=None)(x) if False else nn.AdaptiveAvgPool2d((2, 2, 2))(x),
 lambda: nn.ChannelShuffle(2)(x),
 lambda: nn.Fold((4, 4), 3)(torch.ones(2, 9, 3)),
 lambda: nn.LPPool2d(2, 3)(torch.ones(2, 3, 2, 2)),
 lambda: nn.EmbeddingBag(4, 3, mode="max", padding_idx=5),
 lambda: nn.RMSNorm(5)(torch.ones(5, 4)),
 lambda: nn.ZeroPad2d(-10)(x),
 lambda: nn.ReflectionPad2d(5)(x),
 lambda: nn.CircularPad2d(6)(x),
]
for i, f in enumerate(calls):
    try:
        r = f()
        print(i, "ok", tuple(r.shape) if hasattr(r, "shape") else type(r).__name__)
    except Exception as e:
        print(i, type(e).__name__, str(e).split("\n")[0])
''')

qa("qa_fn_max_pool_edge_windows", r'''
# windows reaching past the input with dilation and ceil_mode (one wholly in the padding
# yields -inf, indexed where the kernel starts reading)
x = torch.randn(2, 3, 6, 1, dtype=torch.float64, requires_grad=True)
y, i = F.max_pool2d(x, (1, 2), (3, 1), (0, 1), (1, 2), True, return_indices=True)
show(y, i)
y[y > -1e9].sum().backward()
show(x.grad[0, 0, :, 0])
x3 = torch.randn(1, 2, 2, 6, 1, dtype=torch.float64)
y, i = F.max_pool3d(x3, (2, 1, 2), (3, 3, 1), (1, 0, 1), (1, 1, 2), True, return_indices=True)
show(y, i)
for k, s, p, d in [(3, 2, 1, 2), (2, 3, 1, 3), (3, 1, 1, 1), (2, 2, 1, 1)]:
    for ceil in [False, True]:
        xx = torch.randn(1, 2, 7, dtype=torch.float64, requires_grad=True)
        y, i = F.max_pool1d(xx, k, s, p, d, ceil, return_indices=True)
        y.sum().backward()
        print(k, s, p, d, ceil, i[0, 0].tolist())
        show(y[0, 0], xx.grad[0, 0])
''')


qa("qa_fn_module_reprs", r'''
ms = [
 lambda: nn.Conv1d(2, 4, 3, stride=2, padding="valid", dilation=2, groups=2, bias=False, padding_mode="reflect"),
 lambda: nn.Conv2d(2, 4, (3, 1), padding="same", padding_mode="circular"),
 lambda: nn.Conv3d(2, 4, 3, stride=(1, 2, 1), padding=(0, 1, 0)),
 lambda: nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1, groups=2, dilation=2),
 lambda: nn.ConvTranspose1d(2, 4, 3, bias=False),
 lambda: nn.MaxPool2d(3, stride=1, padding=1, dilation=2, return_indices=True, ceil_mode=True),
 lambda: nn.MaxPool1d(3), lambda: nn.MaxPool3d((2, 1, 2)),
 lambda: nn.AvgPool1d(3, ceil_mode=True, count_include_pad=False), lambda: nn.AvgPool2d(2, divisor_override=3),
 lambda: nn.AvgPool3d(2, stride=1), lambda: nn.MaxUnpool2d(2, stride=1, padding=1), lambda: nn.MaxUnpool1d(3),
 lambda: nn.AdaptiveMaxPool2d((3, None), return_indices=True), lambda: nn.AdaptiveAvgPool2d(3),
 lambda: nn.LPPool1d(2, 3, stride=2), lambda: nn.FractionalMaxPool2d(2, output_size=3),
 lambda: nn.FractionalMaxPool2d((2, 3), output_ratio=(0.5, 0.6)),
 lambda: nn.BatchNorm1d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False),
 lambda: nn.InstanceNorm2d(3, affine=True), lambda: nn.GroupNorm(2, 4, eps=1e-4, affine=False),
 lambda: nn.LayerNorm((3, 4), elementwise_affine=False), lambda: nn.LayerNorm(3, bias=False),
 lambda: nn.RMSNorm([3], eps=1e-5), lambda: nn.RMSNorm(4, elementwise_affine=False), lambda: nn.LocalResponseNorm(3, k=2.0),
 lambda: nn.Embedding(5, 3, padding_idx=-1, max_norm=1.0, norm_type=3.0, scale_grad_by_freq=True),
 lambda: nn.EmbeddingBag(5, 3, mode="max", padding_idx=1, max_norm=2.0), lambda: nn.EmbeddingBag(5, 3, include_last_offset=True),
 lambda: nn.Dropout(0.3, inplace=True), lambda: nn.Dropout2d(), lambda: nn.AlphaDropout(0.1),
 lambda: nn.Hardtanh(-2, 3, inplace=True), lambda: nn.Threshold(0.1, 20), lambda: nn.Softplus(2, 10), lambda: nn.ELU(0.5, True),
 lambda: nn.CELU(2.0), lambda: nn.LeakyReLU(0.3, True), lambda: nn.RReLU(0.1, 0.2), lambda: nn.GELU("tanh"), lambda: nn.GLU(0),
 lambda: nn.Softmax(1), lambda: nn.LogSoftmax(), lambda: nn.Softmin(dim=-1), lambda: nn.PReLU(3, init=0.1), lambda: nn.Hardshrink(0.2),
 lambda: nn.Upsample(scale_factor=(2.0, 1.5), mode="bicubic", align_corners=False, recompute_scale_factor=True),
 lambda: nn.Unfold((2, 3), dilation=2, padding=(1, 0), stride=2), lambda: nn.Flatten(0, -2), lambda: nn.Unflatten(-1, (2, 3)),
 lambda: nn.Identity(3, foo=1), lambda: nn.Bilinear(2, 3, 4, bias=False), lambda: nn.Linear(2, 3, bias=False),
 lambda: nn.CosineSimilarity(0, 1e-6), lambda: nn.PairwiseDistance(1.0, 1e-3, True), lambda: nn.MultiheadAttention(4, 2, kdim=3, vdim=5, dropout=0.1),
 lambda: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation="gelu", norm_first=True),
]
for f in ms:
    try:
        m = f()
        print(repr(m), sorted(m.state_dict().keys()))
    except Exception as e:
        print("ERR", type(e).__name__, e)
''')
