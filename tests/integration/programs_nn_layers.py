"""Programs (see test_programs_ml.py):
torch.nn layers, losses and the functional API: conv, recurrent and packed
sequences, attention, transformer, embeddings, norm layers, losses (CTC included),
torch.nn.functional."""
from programs_ml_common import ml

ml("nn_cnn_forward", r'''
import torch.nn as nn
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.BatchNorm2d(4),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 8, 3, stride=1, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Dropout(0.25),
    nn.Linear(8, 3),
)
det(model)
print(model)
print(sum(p.numel() for p in model.parameters()), len(list(model.buffers())))
x = data(2, 1, 8, 8)
model.train()
y = model(x)
print(y.shape)
print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)
model.eval()
with torch.no_grad():
    y = model(x)
print(y, y.requires_grad)
print(y.argmax(dim=1), torch.softmax(y, dim=1).sum(1))
print(model[0].weight.shape, model[4].bias, model[0].weight.grad)
feats = model[:4](x)
print(feats.shape, type(model[:4]).__name__, len(model[:4]))
print(list(model.state_dict().keys())[:8])
''')


ml("nn_recurrent", r'''
import torch.nn as nn
lstm = det(nn.LSTM(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True))
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:5])
x = data(2, 5, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[:, -1].detach())
print(h.detach())
h0 = torch.zeros(4, 2, 4)
out2, _ = lstm(x, (h0, h0))
print(torch.allclose(out, out2))
gru = det(nn.GRU(3, 5, batch_first=False))
y, hn = gru(x.transpose(0, 1))
print(y.shape, hn.shape, torch.allclose(y[-1], hn[0]))
print(hn.detach())
rnn = det(nn.RNN(3, 2, nonlinearity="relu", bias=False))
print(rnn, rnn(x[0])[0].detach())
cell = det(nn.LSTMCell(3, 4))
hx = cx = torch.zeros(2, 4)
for t in range(x.shape[1]):
    hx, cx = cell(x[:, t], (hx, cx))
print(hx.detach())
gcell = det(nn.GRUCell(3, 2))
print(gcell(x[:, 0]).detach())
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
print(padded)
(out.sum() + h.sum()).backward()
print(lstm.weight_hh_l1_reverse.grad.abs().sum().item() > 0, lstm.bias_ih_l0.grad.shape)
''')


ml("nn_packed_sequence", r'''
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
seqs = [data(4, 3), data(2, 3, k=2.0), data(3, 3, k=3.0)]
lengths = torch.tensor([4, 2, 3])
padded = pad_sequence(seqs, batch_first=True)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.data.shape)
gru = det(nn.GRU(3, 2, batch_first=True))
out, h = gru(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print(unpacked.detach())
print(h.detach())
''', needs=())


ml("nn_transformer", r'''
import torch.nn as nn
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
det(enc, 0.2)
print(enc)
print(sum(p.numel() for p in enc.parameters()))
x = data(2, 5, 8)
out = enc(x)
print(out.shape)
print(out[0, :2].detach())
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
out = enc(x, mask=mask, is_causal=True)
print(out[1, -1].detach())
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
out = enc(x, src_key_padding_mask=pad)
print(out[0, 0].detach())
enc.eval()
with torch.no_grad():
    print(enc(x)[1, 2])
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
det(dec_layer, 0.2)
y = dec_layer(data(2, 3, 8, k=2.0), x, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
print(y.shape, y[0, 0].detach())
''')


ml("nn_attention", r'''
import torch.nn as nn
import torch.nn.functional as F
mha = det(nn.MultiheadAttention(embed_dim=6, num_heads=2, batch_first=True), 0.25)
print(mha)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()])
q = data(2, 3, 6)
kv = data(2, 4, 6, k=0.5)
out, w = mha(q, kv, kv)
print(out.shape, w.shape)
print(w.detach())
out, w = mha(q, kv, kv, need_weights=True, average_attn_weights=False)
print(w.shape)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(q, kv, kv, key_padding_mask=kpm)
print(w[0].detach())
out, w = mha(q, q, q, attn_mask=torch.triu(torch.ones(3, 3, dtype=torch.bool), 1), need_weights=False)
print(w, out[1].detach())
qs, ks, vs = data(1, 2, 4, 3), data(1, 2, 4, 3, k=2.0), data(1, 2, 4, 3, k=3.0)
print(F.scaled_dot_product_attention(qs, ks, vs, is_causal=True)[0, 1])
scores = (qs @ ks.transpose(-2, -1)) / math.sqrt(3)
print(torch.allclose(F.scaled_dot_product_attention(qs, ks, vs), scores.softmax(-1) @ vs, atol=1e-6))
''')


ml("nn_losses", r'''
import torch.nn as nn
import torch.nn.functional as F
logits = data(6, 4).requires_grad_()
target = torch.tensor([0, 3, 1, 1, 2, 0])
for crit in [nn.CrossEntropyLoss(), nn.CrossEntropyLoss(label_smoothing=0.1),
             nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0]), ignore_index=1),
             nn.CrossEntropyLoss(reduction="sum")]:
    loss = crit(logits, target)
    print(crit, f"{loss.item():.5f}")
loss = nn.CrossEntropyLoss()(logits, target)
loss.backward()
print(logits.grad)
probs = torch.softmax(data(6, 4, k=2.0), dim=1)
print(f"{nn.CrossEntropyLoss()(logits, probs).item():.5f}")
print(f"{nn.NLLLoss()(F.log_softmax(logits, 1), target).item():.5f}")
pred = data(8).sigmoid()
y = (data(8, k=3.0) > 0).float()
print(nn.BCELoss()(pred, y), nn.BCEWithLogitsLoss(pos_weight=torch.tensor(2.0))(data(8), y))
a, b = data(3, 5), data(3, 5, k=0.7)
for crit in [nn.MSELoss(), nn.L1Loss(reduction="sum"), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=0.3),
             nn.KLDivLoss(reduction="batchmean"), nn.KLDivLoss(reduction="batchmean", log_target=True)]:
    print(type(crit).__name__, crit(F.log_softmax(a, 1), F.softmax(b, 1)) if "KL" in type(crit).__name__ else crit(a, b))
print(nn.MSELoss(reduction="none")(a, b).shape)
print(nn.CosineEmbeddingLoss(margin=0.1)(a, b, torch.tensor([1, -1, 1])))
print(nn.TripletMarginLoss(margin=1.0)(a, b, data(3, 5, k=0.3)))
print(nn.MarginRankingLoss()(data(4), data(4, k=2.0), torch.tensor([1.0, -1.0, 1.0, -1.0])))
print(nn.HingeEmbeddingLoss()(a, torch.ones(3, 5)), nn.SoftMarginLoss()(a, torch.ones(3, 5)))
print(nn.MultiLabelSoftMarginLoss()(a, (b > 0).float()), nn.PoissonNLLLoss()(a, b.abs()))
print(nn.GaussianNLLLoss()(a, b, torch.ones(3, 5)), nn.MultiMarginLoss()(a, torch.tensor([0, 4, 2])))
seg = data(2, 3, 4, 4)
print(nn.CrossEntropyLoss()(seg, torch.tensor([0, 1, 2, 1] * 8).reshape(2, 4, 4)))
try:
    nn.CrossEntropyLoss()(logits, target.float()[:5])
except Exception as e:
    print(type(e).__name__)
''')


ml("nn_functional", r'''
import torch.nn.functional as F
labels = torch.tensor([0, 2, 1, 2])
oh = F.one_hot(labels, num_classes=4)
print(oh, oh.dtype, F.one_hot(torch.tensor([[1, 0], [2, 1]])).shape)
x = data(2, 3, 4)
print(F.softmax(x, dim=-1)[0], F.log_softmax(x, dim=1)[1, :, 0])
print(F.relu(x).sum(), F.gelu(x).sum(), F.gelu(x, approximate="tanh").sum(), F.silu(x).mean())
print(F.leaky_relu(x, 0.1)[0, 0], F.elu(x)[0, 1], F.hardswish(x)[1, 2], F.softplus(x)[0, 0])
print(F.normalize(x, dim=-1)[0, 0], F.normalize(x, p=1, dim=0)[1, 1])
print(F.pad(x, (1, 2)).shape, F.pad(x, (1, 1, 2, 0), value=-1.0)[0, :3], F.pad(x, (2, 2), mode="reflect")[0, 0])
img = data(1, 2, 4, 4)
print(F.interpolate(img, scale_factor=2, mode="nearest").shape)
print(F.interpolate(img, size=(3, 5), mode="bilinear", align_corners=False)[0, 0])
print(F.interpolate(img, scale_factor=0.5, mode="bilinear", align_corners=True)[0, 1])
print(F.avg_pool2d(img, 2), F.max_pool2d(img, 3, stride=1, padding=1)[0, 0, 0])
print(F.adaptive_avg_pool2d(img, (2, 1)).squeeze(), F.dropout(x, p=0.5, training=False).equal(x))
w = data(3, 2, 3, 3, k=0.3)
print(F.conv2d(img, w, padding=1)[0, 2, 1], F.conv2d(img, w, stride=2).shape)
print(F.linear(x, data(5, 4, k=0.2), torch.ones(5))[1, 0])
print(F.cosine_similarity(x[0], x[1]), F.pairwise_distance(x[0], x[1]))
print(F.embedding(torch.tensor([[0, 2]]), data(3, 2)))
print(F.layer_norm(x, (4,))[0, 0], F.group_norm(img, 1)[0, 1, 0])
print(F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False)[0, 0])
print(F.cross_entropy(x[0], torch.tensor([1, 0, 3])), F.mse_loss(x[0], x[1]), F.l1_loss(x, x * 2))
print(F.binary_cross_entropy_with_logits(x, (x > 0).float()), F.nll_loss(x[0], torch.tensor([1, 0, 3])))
print(F.unfold(img, 2, stride=2).shape, F.fold(F.unfold(img, 2, stride=2), (4, 4), 2, stride=2).equal(img))
print(F.glu(x, dim=-1)[0], F.logsigmoid(x)[0, 0], F.softmin(x, 0)[0, 0], F.tanhshrink(x)[0, 0])
print(F.kl_div(F.log_softmax(x, -1), F.softmax(x * 2, -1), reduction="batchmean"))
print(F.pixel_shuffle(data(1, 4, 2, 2), 2)[0, 0], F.grid_sample(img, torch.zeros(1, 2, 2, 2), align_corners=False)[0, 0])
''')


ml("nn_embeddings", r'''
import torch.nn as nn
emb = det(nn.Embedding(6, 3, padding_idx=2))
print(emb.weight[2])
ids = torch.tensor([[0, 2, 5], [2, 2, 1]])
out = emb(ids)
out.sum().backward()
print(out.shape, emb.weight.grad)
pre = nn.Embedding.from_pretrained(data(4, 2))
print(pre.weight.requires_grad, pre(torch.tensor([3, 0])))
pre2 = nn.Embedding.from_pretrained(data(4, 2), freeze=False, padding_idx=1)
print(pre2.weight.requires_grad, pre2.padding_idx, pre2)
maxn = nn.Embedding(5, 2, max_norm=1.0)
det(maxn, 2.0)
print(maxn(torch.tensor([1, 3])), maxn.weight[1:4])
bag = det(nn.EmbeddingBag(6, 3, mode="mean"))
print(bag(torch.tensor([1, 2, 4, 5, 4, 3, 2]), torch.tensor([0, 3])))
print(bag(torch.tensor([[1, 2], [4, 5]])))
bag_sum = det(nn.EmbeddingBag(6, 3, mode="sum"))
print(bag_sum(torch.tensor([0, 1, 2]), torch.tensor([0, 1]), per_sample_weights=torch.tensor([1.0, 2.0, 0.5])))
try:
    emb(torch.tensor([6]))
except Exception as e:
    print(type(e).__name__)
''')


ml("nn_ctc_loss", r'''
import torch.nn as nn
import torch.nn.functional as F
log_probs = F.log_softmax(data(7, 2, 5), 2).requires_grad_()
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
loss = ctc(log_probs, torch.tensor([[1, 2], [3, 3]]), torch.tensor([7, 6]), torch.tensor([2, 2]))
loss.backward()
print(ctc, loss, log_probs.grad[0])
print(F.ctc_loss(log_probs, torch.tensor([1, 2, 3, 3]), (7, 6), (2, 2), reduction="sum"))
''')


ml("nn_norm_layers", r'''
import torch.nn as nn
x = data(4, 3, 5)
bn = det(nn.BatchNorm1d(3, momentum=None))
for _ in range(3):
    bn(x * (1 + _))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0])
bn2 = nn.BatchNorm1d(3, track_running_stats=False)
bn2.eval()
print(bn2(x)[1, 1], bn2.running_mean)
ln = det(nn.LayerNorm(5))
print(ln(x)[2], ln(x).mean(-1).abs().max() < 1e-5)
gn = det(nn.GroupNorm(1, 3))
print(gn(x)[0, 0])
inorm = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
det(inorm)
print(inorm(x + 1)[0, 2], inorm.running_mean)
rms = det(nn.RMSNorm(5, eps=1e-6))
print(rms(x)[1])
bn2d = det(nn.BatchNorm2d(2))
img = data(3, 2, 2, 2)
out = bn2d(img)
(out * data(3, 2, 2, 2, k=0.4)).sum().backward()
print(out[0, 1], bn2d.weight.grad, bn2d.running_var)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print("ValueError", e)
''')
