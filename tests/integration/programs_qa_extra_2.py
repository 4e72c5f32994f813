"""QA programs, continued (see programs_qa_extra.py)."""
from programs_registry import program

program("qa_optim_sched_clip", r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.5)
x = torch.linspace(-1, 1, 15).reshape(5, 3)
y = x.sum(1, keepdim=True) ** 2
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.4f}", f"{norm.item():.4f}", sched.get_last_lr(), opt.param_groups[0]["lr"])
opt2 = torch.optim.Adam(model.parameters(), lr=0.01)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=4)
s3 = torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(model.parameters(), lr=0.1), max_lr=1.0, total_steps=6)
lrs = []
for i in range(6):
    opt2.zero_grad()
    nn.functional.l1_loss(model(x), y).backward()
    torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
    opt2.step()
    s2.step()
    s3.optimizer.step()
    s3.step()
    lrs.append((round(s2.get_last_lr()[0], 6), round(s3.get_last_lr()[0], 6)))
print(lrs)
print([round(p.detach().sum().item(), 4) for p in model.parameters()])
plat = torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, patience=1, factor=0.5)
for v in [1.0, 0.9, 0.95, 0.97, 0.99, 1.2]:
    plat.step(v)
    print(opt2.param_groups[0]["lr"], end=" ")
print()
print(opt2.state_dict()["param_groups"][0]["lr"], sorted(opt2.state_dict()["param_groups"][0]))
print(torch.nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
lam = torch.optim.lr_scheduler.LambdaLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0), lambda e: 0.9 ** e)
for _ in range(3):
    lam.optimizer.step()
    lam.step()
print(lam.get_last_lr(), lam.last_epoch)
ms = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0), milestones=[1, 3], gamma=0.1)
out = []
for _ in range(4):
    ms.optimizer.step()
    ms.step()
    out.append(ms.get_last_lr()[0])
print(out)
print(opt)
''')

program("qa_functional_ops", r'''
import torch
import torch.nn.functional as F
x = torch.arange(16.0).reshape(1, 1, 4, 4)
print(F.pad(x, (1, 1)).shape, F.pad(x, (1, 2, 0, 1), value=-1)[0, 0], F.pad(x, (1, 1, 1, 1), mode="reflect")[0, 0, 0], F.pad(x, (2, 0), mode="replicate")[0, 0, 0], F.pad(x, (1, 1), mode="circular")[0, 0, 0])
print(F.pad(torch.arange(3.0), (1, 1)), F.pad(torch.ones(2, 2), (0, 0, 1, 0)))
print(F.interpolate(x, scale_factor=2, mode="nearest")[0, 0, :2], F.interpolate(x, size=(2, 2), mode="bilinear", align_corners=False), F.interpolate(x, size=3, mode="bilinear", align_corners=True))
print(F.interpolate(torch.arange(4.0).reshape(1, 1, 4), scale_factor=1.5, mode="linear"), F.interpolate(x, scale_factor=0.5, mode="area"), F.interpolate(x, size=(3, 5), mode="bicubic", align_corners=False).round(decimals=4))
w = torch.arange(18.0).reshape(2, 1, 3, 3) / 10
print(F.conv2d(x, w), F.conv2d(x, w, padding=1, stride=2), F.conv2d(x, w, padding="same").shape, F.conv2d(x, w[:1], dilation=2, bias=torch.tensor([0.5])))
print(F.conv1d(torch.arange(10.0).reshape(1, 2, 5), torch.ones(3, 2, 2), groups=1), F.conv_transpose2d(x, w.transpose(0, 1), stride=2).shape)
print(F.max_pool2d(x, 2), F.avg_pool2d(x, 2, stride=1), F.max_pool2d(x, 3, stride=1, padding=1)[0, 0, 0], F.adaptive_avg_pool2d(x, 1), F.adaptive_max_pool2d(x, (2, 1)), F.max_pool2d(x, 2, return_indices=True)[1])
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), F.max_pool1d(torch.arange(6.0).reshape(1, 1, 6), 2), F.lp_pool2d(x, 2, 2))
print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [3]]), num_classes=5).shape, F.one_hot(torch.tensor([0, 2])).dtype)
emb = torch.arange(12.0).reshape(4, 3)
print(F.embedding(torch.tensor([[0, 3], [1, 1]]), emb), F.embedding(torch.tensor([1]), emb, max_norm=1.0), F.embedding_bag(torch.tensor([0, 1, 2, 3]), emb, torch.tensor([0, 2]), mode="mean"))
v = torch.tensor([[3.0, 4.0], [0.0, 0.0], [1.0, 1.0]])
print(F.normalize(v), F.normalize(v, p=1, dim=0), F.cosine_similarity(v, torch.ones(3, 2)), F.pairwise_distance(v, torch.zeros(3, 2)))
print(F.softmax(v, dim=1), F.log_softmax(v, 0), F.softmin(v, 1), F.gumbel_softmax(v, tau=1, hard=True).sum(1), F.relu6(v * 2), F.hardtanh(v - 2), F.leaky_relu(v - 2, 0.2), F.elu(v - 2), F.gelu(v - 2), F.gelu(v, approximate="tanh"), F.silu(v), F.mish(v - 1), F.softplus(v, beta=2), F.logsigmoid(v), F.glu(v, 1), F.hardswish(v - 2), F.selu(v - 2), F.celu(v - 2), F.threshold(v, 1.0, -1.0), F.softsign(v), F.tanhshrink(v))
grid = torch.tensor([[[[-1.0, -1.0], [0.0, 0.0]], [[1.0, 1.0], [0.5, -0.5]]]])
print(F.grid_sample(x, grid, align_corners=False), F.grid_sample(x, grid, mode="nearest", align_corners=True), F.grid_sample(x, grid, padding_mode="border", align_corners=False))
theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
print(F.affine_grid(theta, (1, 1, 2, 2), align_corners=False))
print(F.unfold(x, 2).shape, F.fold(F.unfold(x, 2), (4, 4), 2).equal(x * 0 + F.fold(F.unfold(x, 2), (4, 4), 2)), F.pixel_shuffle(torch.arange(8.0).reshape(1, 4, 1, 2), 2), F.dropout(v, 0.5, training=False), F.dropout(v, 0.0))
print(F.linear(v, torch.ones(1, 2), torch.tensor([1.0])), F.bilinear(v, v, torch.ones(1, 2, 2)), F.layer_norm(v, (2,)), F.batch_norm(v, torch.zeros(2), torch.ones(2)), F.group_norm(x, 1), F.instance_norm(x), F.local_response_norm(x.expand(1, 3, 4, 4), 2)[0, :, 0, 0])
''')

program("qa_losses_reduction", r'''
import torch
import torch.nn.functional as F
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]])
t = torch.tensor([0, 2, 1])
print(F.cross_entropy(logits, t), F.cross_entropy(logits, t, reduction="none"), F.cross_entropy(logits, t, reduction="sum"), F.cross_entropy(logits, t, label_smoothing=0.1), F.cross_entropy(logits, t, weight=torch.tensor([1.0, 2.0, 0.5])), F.cross_entropy(logits, torch.tensor([0, -100, 1])), F.cross_entropy(logits, t, ignore_index=2))
print(F.cross_entropy(logits, F.softmax(logits * 2, 1)), F.nll_loss(F.log_softmax(logits, 1), t), F.cross_entropy(logits.unsqueeze(2).expand(3, 3, 2), t.unsqueeze(1).expand(3, 2)))
p = torch.tensor([0.2, 0.9, 0.5])
y = torch.tensor([0.0, 1.0, 1.0])
print(F.binary_cross_entropy(p, y), F.binary_cross_entropy_with_logits(p, y, pos_weight=torch.tensor([2.0, 1.0, 1.0])), F.mse_loss(p, y), F.l1_loss(p, y, reduction="sum"), F.smooth_l1_loss(p * 3, y, beta=0.5), F.huber_loss(p * 3, y, delta=0.5), F.kl_div(p.log(), y, reduction="batchmean"), F.kl_div(p.log(), y.clamp(0.1), reduction="sum", log_target=False))
print(F.margin_ranking_loss(p, y, torch.tensor([1.0, -1.0, 1.0])), F.hinge_embedding_loss(p, torch.tensor([1.0, -1.0, 1.0])), F.soft_margin_loss(p, torch.tensor([1.0, -1.0, 1.0])), F.cosine_embedding_loss(logits, logits.flip(0), torch.tensor([1, -1, 1])), F.triplet_margin_loss(logits, logits * 0.5, logits.flip(0)), F.poisson_nll_loss(p, y), F.gaussian_nll_loss(p, y, torch.ones(3)), F.multi_margin_loss(logits, t), F.multilabel_soft_margin_loss(logits, torch.eye(3)), F.multilabel_margin_loss(logits, torch.tensor([[0, -1, 1], [2, -1, 0], [1, 0, -1]])))
try:
    F.cross_entropy(logits, torch.tensor([0, 3, 1]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.mse_loss(p, torch.ones(4))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.binary_cross_entropy(p * 2, y)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, t.float())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.nll_loss(logits, t.int())
except RuntimeError as e:
    print(type(e).__name__, e)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    F.mse_loss(torch.ones(3, 1), torch.ones(3))
    print([str(x.message) for x in w])
''')

program("qa_error_messages", r'''
import torch
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
x = torch.arange(6.0).reshape(2, 3)
attempt(lambda: x @ x)
attempt(lambda: torch.mm(x, torch.ones(2)))
attempt(lambda: x + torch.ones(3, 2))
attempt(lambda: x[2])
attempt(lambda: x[0, 5])
attempt(lambda: x[:, torch.tensor([0, 3])])
attempt(lambda: x[torch.tensor([0.0])])
attempt(lambda: x[torch.tensor([True, False, True])])
attempt(lambda: x.view(4))
attempt(lambda: x.t().view(6))
attempt(lambda: x.reshape(5, -1))
attempt(lambda: x.reshape(-1, -1))
attempt(lambda: torch.cat([x, torch.ones(2)]))
attempt(lambda: torch.cat([x, torch.ones(3, 2)]))
attempt(lambda: torch.stack([x, torch.ones(3, 2)]))
attempt(lambda: x.sum(2))
attempt(lambda: x.transpose(0, 2))
attempt(lambda: x.permute(0))
attempt(lambda: x.expand(3, 3))
attempt(lambda: x.squeeze(3))
attempt(lambda: torch.zeros(2, 3).item())
attempt(lambda: torch.ones(2).gather(0, torch.tensor([5])))
attempt(lambda: torch.ones(3).index_select(0, torch.tensor([3])))
attempt(lambda: torch.tensor([1, 2]) + torch.tensor(["a"]) if False else torch.tensor([[1, 2], [3]]))
attempt(lambda: torch.nn.Linear(3, 2)(torch.ones(4, 5)))
attempt(lambda: torch.nn.Conv2d(3, 8, 3)(torch.ones(1, 4, 8, 8)))
attempt(lambda: torch.nn.Conv2d(3, 8, 5)(torch.ones(1, 3, 2, 2)))
attempt(lambda: torch.nn.Embedding(5, 2)(torch.tensor([5])))
attempt(lambda: torch.nn.Embedding(5, 2)(torch.tensor([1.0])))
attempt(lambda: torch.nn.BatchNorm1d(3)(torch.ones(1, 3)))
attempt(lambda: torch.nn.LSTM(3, 4)(torch.ones(2, 5)))
attempt(lambda: torch.ones(2, 3).numpy() if False else torch.ones(2, requires_grad=True).numpy())
attempt(lambda: torch.tensor([1.0]).long().backward())
attempt(lambda: len(torch.tensor(3)))
attempt(lambda: iter(torch.tensor(3)))
attempt(lambda: int(torch.tensor([1, 2])))
attempt(lambda: bool(torch.tensor([1, 2])))
attempt(lambda: float(torch.ones(2)))
attempt(lambda: torch.ones(2, 3).split([1, 1], dim=1))
attempt(lambda: torch.ones(3).chunk(0))
attempt(lambda: torch.arange(0, 10, -1))
attempt(lambda: torch.ones(-1))
attempt(lambda: torch.ones(2).unsqueeze(3))
attempt(lambda: torch.ones(2, 2).masked_fill(torch.tensor([1, 0]), 0))
attempt(lambda: torch.where(torch.tensor([1, 0]), 1.0, 0.0))
attempt(lambda: torch.ones(2, 3).scatter_(1, torch.tensor([[3]]), 1.0))
attempt(lambda: torch.ones(3).view(torch.float64))
attempt(lambda: torch.nn.functional.softmax(torch.ones(2, 3)))
attempt(lambda: torch.tensor([1, 2]).float().mean(dtype=torch.int64))
attempt(lambda: torch.empty(2, 3).copy_(torch.ones(4)))
attempt(lambda: torch.full((2,), 1.5, dtype=torch.int64))
attempt(lambda: torch.tensor(1.5).to(torch.int64).item())
''')

program("qa_tensor_methods_misc", r'''
import torch
x = torch.arange(12).reshape(3, 4)
print(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndim, x.numel(), x.nelement(), x.element_size(), x.dtype, x.device, x.is_floating_point(), x.is_complex(), x.stride(), x.storage_offset(), x[1:].storage_offset())
print(x.T, x.mT.shape, x.flatten(), x.view(-1, 6), x.reshape(2, 2, 3).permute(2, 0, 1).shape, x.unsqueeze(0).shape, x.unflatten(1, (2, 2)).shape, x.movedim(0, 1).shape, x.swapaxes(0, 1).shape)
print(x.chunk(2, 1), x.split(2), x.split([1, 2]), x.unbind(1), x.tensor_split(3, dim=1), torch.hsplit(x, 2)[0], torch.vsplit(x, [1])[1])
print(torch.cat([x, x], 1).shape, torch.stack([x, x], 2).shape, torch.hstack([x, x]).shape, torch.vstack([x, x]).shape, torch.dstack([x, x]).shape, torch.column_stack([torch.arange(2), torch.arange(2)]), torch.row_stack([torch.arange(2)] * 2))
print(x.repeat(2, 1).shape, x.repeat_interleave(2, dim=0).shape, torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])), x.tile((2,)).shape, x.expand(2, 3, 4).shape, x.flip(1), x.fliplr(), x.roll(1, 1), x.roll(shifts=(1, 1), dims=(0, 1)), x.rot90())
print(x.gather(1, torch.tensor([[0], [1], [3]])), torch.zeros(3, 4).scatter(1, torch.tensor([[0], [1], [3]]), 1.0), torch.zeros(5).scatter_add(0, torch.tensor([0, 0, 4]), torch.ones(3)), torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5.0, 2.0, 1.0]), reduce="amax", include_self=False))
print(torch.zeros(3).index_add(0, torch.tensor([0, 0]), torch.ones(2)), x.index_select(1, torch.tensor([0, 2])), torch.zeros(2, 3).index_fill(1, torch.tensor([1]), 7), x.take(torch.tensor([0, 11])), x.narrow(1, 1, 2), x.select(0, 1), x.diagonal(), x.triu(1).sum())
print(x.tolist(), x[0].tolist(), x.numpy().dtype, x.float().numpy().dtype, torch.from_numpy(x.numpy()).dtype, torch.as_tensor([1, 2]), torch.as_tensor(x) is x, torch.tensor(x.numpy()).shape)
print(torch.zeros(2, 3).new_ones(2), x.new_tensor([1, 2]).dtype, x.new_zeros(1, 2).dtype, x.new_full((2,), 7), x.new_empty(3).shape, torch.zeros_like(x, dtype=torch.float32), torch.ones_like(x).dtype, torch.full_like(x, 2.7), torch.empty_like(x).shape)
print(torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.25), torch.arange(5.0).dtype, torch.arange(1, 2.5, 0.5), torch.linspace(0, 1, 5), torch.logspace(0, 2, 3), torch.full((2, 2), 3), torch.full((2,), 3.0).dtype, torch.full((2,), True).dtype, torch.eye(3).dtype, torch.zeros(2, dtype=torch.int32))
print(torch.tensor([[1, 2], [3, 4]]).T.contiguous().is_contiguous(), x.t().is_contiguous(), x.t().contiguous().stride(), x.data_ptr() == x.view(-1).data_ptr(), x.equal(x.clone()), x.clone().storage().size() if False else x.untyped_storage().nbytes())
print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")[1], torch.cartesian_prod(torch.arange(2), torch.arange(2)), torch.combinations(torch.arange(3)), torch.tril_indices(3, 3), torch.bincount(torch.tensor([0, 1, 1, 3])), torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))
print(x.float().apply_(lambda v: v * 2) if False else x.float().map_(x.float(), lambda a, b: a + b).sum(), x.sum().item(), x.max().item(), type(x.tolist()[0][0]).__name__, x.float().mean().item())
print(list(x), [r.shape for r in x], len(x), 5 in x, x[0] if x.any() else None, hash(x) == id(x) or True)
print(torch.is_tensor(x), torch.is_floating_point(x.float()), torch.numel(x), torch.get_default_dtype(), x.type(), x.cpu() is x, x.to("cpu") is x, x.to(torch.int64) is x, x.long() is x, x.detach() is x)
print(x.abs().__class__.__name__, isinstance(x, torch.Tensor), type(torch.ones(1)).__module__ if False else x.is_leaf, torch.Size([2, 3]), torch.Size([2, 3]).numel(), x.shape == (3, 4), x.shape[0] * 2, list(x.shape), tuple(x.shape))
''')

program("qa_creation_from_data", r'''
import numpy as np
import torch
print(torch.tensor([1, 2.5]), torch.tensor([True, 2]), torch.tensor([1, 2.0, 3j]), torch.tensor([[1, 2], [3, 4]], dtype=torch.float16))
print(torch.tensor(np.array([1, 2], dtype=np.int32)), torch.tensor(np.array([1.5], dtype=np.float32)).dtype, torch.tensor(np.float64(2.5)), torch.tensor(np.array(3)), torch.from_numpy(np.array([True, False])))
print(torch.tensor(np.arange(6).reshape(2, 3)[:, ::2]), torch.as_tensor(np.array([1.0, 2.0]), dtype=torch.float32))
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]), torch.tensor([[]]).shape, torch.tensor([[], []]).shape, torch.tensor(()), torch.tensor(range(4)))
print(torch.tensor([1, 2], dtype=torch.float64).numpy(), torch.tensor([1.5]).numpy().dtype, torch.zeros(2, dtype=torch.bool).numpy())
a = np.array([1.0, 2.0])
t = torch.from_numpy(a)
a[0] = 10
print(t, torch.tensor(a), torch.as_tensor(a).data_ptr() == t.data_ptr())
print(torch.tensor(2 ** 40), torch.tensor(-3).dtype, torch.tensor(1e300), torch.tensor(1e300, dtype=torch.float32), torch.tensor([1, 2**62]))
try:
    torch.tensor([1, 2 ** 64])
except (RuntimeError, OverflowError) as e:
    print(type(e).__name__, e)
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print("ValueError", e)
try:
    torch.tensor("abc")
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    torch.tensor([1, None])
except (TypeError, RuntimeError) as e:
    print(type(e).__name__, e)
x = torch.tensor([1.0, 2.0], requires_grad=True)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y = torch.tensor(x)
    print(y.requires_grad, len(w), "clone().detach()" in str(w[0].message) if w else None)
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).tiny, torch.iinfo(torch.int8).min, torch.iinfo(torch.int32).max, torch.finfo().bits, torch.iinfo(torch.uint8))
print(torch.finfo(torch.float64))
print(torch.float32.is_floating_point, torch.int64.is_signed, torch.complex64.is_complex, torch.float16.itemsize, str(torch.bfloat16), repr(torch.float), torch.float is torch.float32, torch.long, torch.double, torch.half, torch.cfloat)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, torch.ones(1).dtype, torch.arange(1.0).dtype, torch.tensor([1]).dtype, torch.tensor(1 + 1j).dtype, torch.get_default_dtype())
print(torch.tensor([1.5]))
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]).dtype, torch.tensor(2j).dtype)
''')

program("qa_integer_bitwise", r'''
import torch
a = torch.tensor([12, -7, 5, 0])
b = torch.tensor([5, 3, -2, 7])
print(a // b, a % b, torch.fmod(a, b), torch.remainder(a, b), torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"), torch.div(a, b), a.true_divide(b))
print(a & b, a | b, a ^ b, ~a, a << 2, a >> 1, torch.bitwise_and(a, 6), torch.bitwise_left_shift(a, 1), a.abs(), a.neg(), a.sign(), a.pow(2), torch.tensor(2) ** torch.tensor([0, 3, 10]))
print(torch.tensor([100], dtype=torch.int8) + 100, torch.tensor([250], dtype=torch.uint8) + 10, torch.tensor([2 ** 62]) * 4, torch.tensor([-128], dtype=torch.int8).abs(), torch.tensor([5], dtype=torch.uint8) - 10)
try:
    torch.tensor([1]) // torch.tensor([0])
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1.0]) / 0, torch.tensor([-1.0]) / 0, torch.tensor([0.0]) / 0, torch.tensor([5]) / 0, torch.tensor([5.0]) // 0, torch.tensor([5.0]) % 0)
print(torch.tensor([7, 8]).float() / torch.tensor([2, 3]), torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27])), torch.lcm(torch.tensor([4]), torch.tensor([6])))
print(torch.tensor([3, 1, 2]).max(), torch.tensor([3, 1, 2]).float().mean(), torch.tensor([True, False]).int(), torch.tensor([1, 0]).bool().logical_not(), torch.logical_and(torch.tensor([1, 0]), torch.tensor([2, 2])), torch.logical_xor(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1.0])))
print(torch.tensor([1, 2, 3]) * 1.5, torch.tensor([1, 2, 3]) + True, torch.tensor([True]) + True, torch.tensor([1, 2], dtype=torch.int16) * torch.tensor(3.5), torch.tensor([7]) ** -1.0)
try:
    torch.tensor([2]) ** -1
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([5, 6]).float().floor_divide(torch.tensor([2.0, -4.0])), torch.tensor([-5, 5]) % 3, torch.tensor([-5.5, 5.5]) % 3, torch.tensor(-5) // 3)
print(torch.tensor([1, 2, 3]).sum(dtype=torch.int8).dtype, torch.tensor([100, 100], dtype=torch.int8).sum(), torch.tensor([1, 2], dtype=torch.int32).cumsum(0).dtype, torch.tensor([3, 4], dtype=torch.int16).prod().dtype)
print(torch.clamp(torch.tensor([1, 5, 9]), 2, 6), torch.clamp(torch.tensor([1, 5, 9]), 2.5).dtype, torch.tensor([1, 2]).clamp(max=torch.tensor([0, 5])), torch.tensor([1, 2]).float().clamp(min=1.5))
''')

program("qa_complex_special", r'''
import torch
torch.set_printoptions(precision=4)
z = torch.tensor([1 + 2j, -3 + 0.5j, 0j])
print(z, z.real, z.imag, z.abs(), z.angle(), z.conj(), z * z, z / (1 + 1j), z.exp(), torch.view_as_real(z), torch.complex(torch.tensor([1.0]), torch.tensor([2.0])), torch.polar(torch.tensor([2.0]), torch.tensor([0.0])))
print(z.dtype, z.real.dtype, z.abs().dtype, (z + 1).dtype, z.sum(), z.mean(), z.conj().resolve_conj())
x = torch.tensor([0.5, 1.0, 2.0])
print(torch.erf(x), torch.erfc(x), torch.erfinv(torch.tensor([0.0, 0.5])), torch.lgamma(x), torch.digamma(x), torch.special.expit(x), torch.special.logit(torch.tensor([0.25])), torch.special.xlogy(x, x), torch.special.entr(x), torch.special.i0(x), torch.special.ndtr(x), torch.special.log_ndtr(x), torch.sinc(x), torch.special.gammaln(x), torch.special.softmax(x, 0), torch.special.bessel_j0(x))
print(torch.log1p(x), torch.expm1(x), torch.log2(x), torch.log10(x), torch.exp2(x), torch.sigmoid(x), torch.logit(torch.tensor([0.3])), torch.atan2(x, -x), torch.hypot(x, x), torch.sinh(x), torch.asinh(x), torch.acosh(x + 1), torch.atanh(x / 3), torch.deg2rad(x), torch.rad2deg(x), torch.logaddexp(x, x), torch.xlogy(x, 2.0), torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1, torch.frexp(x), torch.ldexp(x, torch.tensor([2])), torch.copysign(x, -1.0), torch.float_power(x, 2), torch.fmax(x, torch.tensor([1.0, float("nan"), 0.0])), torch.nan_to_num(torch.tensor([float("nan"), float("inf")]), posinf=9.0))
''')

program("qa_nn_misc", r'''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.drop = nn.Dropout(0.5)
        self.extra = nn.Parameter(torch.ones(d))
        self.register_buffer("running", torch.zeros(d), persistent=False)
    def forward(self, x):
        return self.drop(self.norm(self.lin(x))) * self.extra
m = nn.Sequential(Block(4), nn.ReLU(), Block(4))
print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.requires_grad))
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_buffers()], list(m.state_dict().keys())[:4])
print([n for n, _ in m.named_modules()], [type(c).__name__ for c in m.children()])
m[0].lin.requires_grad_(False)
print([n for n, p in m.named_parameters() if p.requires_grad])
m.eval()
print(m.training, m[0].training, m[0].drop.training)
x = torch.ones(2, 4)
print(torch.equal(m(x), m(x)))
m.train()
print(m.training, m[0].drop.p)
print(m)
print(m[0], m[-1].lin, len(m), m[1:])
m.apply(lambda mod: nn.init.zeros_(mod.weight) if isinstance(mod, nn.Linear) else None)
print(m[0].lin.weight.sum().item(), m[0].lin.weight.requires_grad)
m.half()
print(m[0].lin.weight.dtype, m[0].running.dtype)
m.float()
m.to(torch.float64)
print(m[0].extra.dtype)
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
md = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
pl = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])
print(len(ml), list(md.keys()), md["b"], len(list(pl.parameters())), pl)
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]
padded = pad_sequence(seqs, batch_first=True)
print(padded, pad_sequence(seqs, padding_value=-1).shape)
packed = pack_padded_sequence(padded, torch.tensor([3, 2, 1]), batch_first=True)
print(packed.data, packed.batch_sizes)
out, lens = pad_packed_sequence(packed, batch_first=True)
print(out, lens)
p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p, repr(p), isinstance(p, torch.Tensor), p.requires_grad, nn.Parameter(torch.ones(1), requires_grad=False))
print(nn.Flatten()(torch.ones(2, 3, 4)).shape, nn.Unflatten(1, (2, 6))(torch.ones(2, 12)).shape, nn.Identity()(x).shape, nn.Softmax(dim=1)(torch.tensor([[1.0, 2.0]])))
''')

program("qa_repr_stress", r'''
import math
import torch
vals = [0.0, 1.0, -1.0, 0.5, 1e-4, 1e-5, 123.456, 1e4, 99999.0, 1e5, 1e8, 1e9, 1e10, 1e16, 3.14159265, 2.0 / 3, -0.001, 7e-9, float("inf"), float("nan")]
for i in range(0, len(vals) - 1):
    t = torch.tensor(vals[i:i + 3])
    print(t, t.double(), t.half(), t.bfloat16())
print(torch.tensor([[1e-3, 1e3], [1.0, 2.0]]), torch.tensor([1.0, 2.0, 3.0]) * 1e-8, torch.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0]))
for n in (1, 3, 6, 7, 1000, 1001):
    print(torch.arange(n).float().mul(0.37).sin()[-3:], torch.arange(n).sum())
print(torch.tensor([-1, 10, -100]), torch.tensor([[1, -2], [300, 4]]), torch.tensor([1, 2, 3], dtype=torch.int8) * -1)
print(torch.tensor([1 + 0j, 1e-5j, -2.5 + 3j]), torch.tensor([1e10 + 1j]), torch.tensor([[1j, 2], [3, 4 - 1j]]), torch.tensor([float("nan") + 1j]))
print(torch.full((2, 3), 1e-9), torch.full((2, 2), -0.5).to(torch.float16), torch.tensor([1 / 3, 2 / 3]).to(torch.bfloat16))
print(torch.arange(24).reshape(2, 3, 4).float() / 7)
print(torch.zeros(2, 0, 3), torch.zeros(0, dtype=torch.int32), torch.ones(1, 1, 1), torch.tensor([[[]]]))
print(torch.randn(3, 4).shape, torch.tensor(0.1 + 0.2), torch.tensor(1 / 3, dtype=torch.float64), torch.tensor(100.0), torch.tensor(1e-7), torch.tensor(-0.0))
x = torch.linspace(-3, 3, 7, requires_grad=True)
print(x, x * 2, x.relu(), x.sum(), x[2:], x.view(7, 1)[0], x.mean(0, keepdim=True))
y = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(y ** 2, y.to(torch.float32), y.exp().log(), y.unsqueeze(0).expand(2, 2))
print(torch.tensor(2.5, requires_grad=True) * 2, torch.nn.Parameter(torch.tensor([1, 2], dtype=torch.float16)))
torch.set_printoptions(precision=6)
print(torch.tensor([math.pi, math.e]), torch.tensor([math.pi], dtype=torch.float64))
torch.set_printoptions(precision=1, sci_mode=False)
print(torch.tensor([1e-8, 12345.678]), torch.tensor([0.05, 0.15, 0.25]))
torch.set_printoptions(profile="default")
print(str(torch.tensor([1.0, 2.0]).numpy()), repr(torch.tensor([1.0]).tolist()), f"{torch.tensor(3.14159):.2f}", "{:>8}".format(str(torch.tensor(5))), format(torch.tensor(2.5), ".1e"))
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
print(torch.tensor([1.0, 2.0]).__repr__() == str(torch.tensor([1.0, 2.0])), torch.Size([2, 3]), repr(torch.Size([])), torch.device("cpu"), repr(torch.device("cpu")), torch.float32, torch.tensor([1]).device.type)
''')

program("qa_autograd_ops_grads", r'''
import torch
torch.set_printoptions(precision=5)
def grads(f, *shapes, dtype=torch.float64):
    xs = [torch.linspace(-0.9, 1.3, int(torch.tensor(s).prod())).reshape(s).to(dtype).requires_grad_() for s in shapes]
    out = f(*xs)
    out.backward(torch.ones_like(out) * 0.5 if out.dim() else None)
    return [x.grad for x in xs]
print(grads(lambda a, b: (a @ b).sum(), (2, 3), (3, 4)))
print(grads(lambda a: a.softmax(-1)[..., 0].sum(), (2, 3)))
print(grads(lambda a: a.norm(), (3, 2)))
print(grads(lambda a: a.max(), (5,)), grads(lambda a: a.abs(), (4,)), grads(lambda a: a.clamp(-0.5, 0.5), (4,)))
print(grads(lambda a: a.sort()[0] * torch.arange(4.0, dtype=torch.float64), (4,)))
print(grads(lambda a: a[[0, 0, 2]].sum(), (3, 2)), grads(lambda a: a.expand(3, 2).sum(), (1, 2)))
print(grads(lambda a, b: torch.where(a > 0, a, b).sum(), (4,), (4,)))
print(grads(lambda a: torch.linalg.det(a + torch.eye(2, dtype=torch.float64)), (2, 2)))
print(grads(lambda a: torch.cat([a, a * 2]).prod(), (3,)))
print(grads(lambda a: a.var(), (5,)), grads(lambda a: a.std(0).sum(), (3, 2)))
print(grads(lambda a: torch.nn.functional.cross_entropy(a, torch.tensor([0, 2])), (2, 3)))
print(grads(lambda a: a.cumsum(0).sum(), (4,)), grads(lambda a: a.cumprod(0).sum(), (4,)))
print(grads(lambda a: torch.sqrt(a.abs() + 1).sum() + a.sigmoid().sum() + a.tanh().sum() + a.exp().sum(), (3,)))
print(grads(lambda a: a.relu().sum(), (5,)), grads(lambda a: torch.nn.functional.gelu(a).sum(), (3,)), grads(lambda a: a.pow(3).sum(), (3,)))
print(grads(lambda a: a.mean(1).sum(), (2, 3), dtype=torch.float32))
print(grads(lambda a: torch.stack([a, a]).logsumexp(0).sum(), (3,)))
x = torch.tensor([0.0], requires_grad=True)
(x.abs() + x.relu() + x.clamp(min=0) + torch.sqrt(x + 1)).sum().backward()
print(x.grad)
y = torch.tensor([0.0, 1.0], requires_grad=True)
torch.sqrt(y).sum().backward()
print(y.grad)
z = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
z.max().backward()
print(z.grad)
w = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
w.amax().backward()
print(w.grad)
v = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
v.median().backward()
print(v.grad)
''')

program("qa_runtime_apis", r'''
import torch
import torch.nn as nn
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
torch.set_num_threads(1)
print(torch.get_num_threads(), isinstance(torch.__version__, str), torch.version.cuda)
model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.fill_(0.5)
    model.bias.fill_(-0.25)
compiled = torch.compile(model)
x = torch.ones(2, 3)
print(compiled(x).detach())
scripted = torch.jit.script(model) if hasattr(torch.jit, "script") else model
print(scripted(x))
with torch.autocast("cpu", enabled=False):
    print(model(x).dtype)
scaler = torch.amp.GradScaler("cpu", enabled=False) if hasattr(torch, "amp") else None
loss = model(x).sum()
scaler.scale(loss).backward()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler.step(opt)
scaler.update()
print(model.weight)
torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
try:
    torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
try:
    torch.testing.assert_close(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
except AssertionError as e:
    print("AssertionError", str(e).splitlines()[0])
vec = torch.nn.utils.parameters_to_vector(model.parameters())
print(vec)
torch.nn.utils.vector_to_parameters(vec * 0 + 1, model.parameters())
print(model.bias)
from torch.func import vmap, grad
print(vmap(lambda r: (r ** 2).sum())(torch.arange(6.0).reshape(2, 3)), grad(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0])))
print(torch.vmap(torch.dot)(torch.ones(2, 3), torch.arange(6.0).reshape(2, 3)))
from torch.utils.checkpoint import checkpoint
a = torch.tensor([1.0, 2.0], requires_grad=True)
out = checkpoint(lambda t: (t.sin() * 2).sum(), a, use_reentrant=False)
out.backward()
print(a.grad)
print(torch.get_default_device() if hasattr(torch, "get_default_device") else "cpu")
gen = torch.Generator(device="cpu")
print(gen.device, type(gen.seed()).__name__)
print(torch.typename(torch.ones(1)), torch.is_storage(torch.ones(1)), torch.is_nonzero(torch.tensor([1])), torch.numel(torch.ones(2, 3)))
''')

program("qa_distributions", r'''
import torch
from torch.distributions import Normal, Categorical, Bernoulli, Uniform, MultivariateNormal, kl_divergence, Independent, Exponential, Laplace
torch.distributions.Distribution.set_default_validate_args(True)  # (torch.compile, run before, turns it off)
torch.set_printoptions(precision=5)
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n, n.mean, n.stddev, n.variance, n.log_prob(torch.tensor([0.5, 0.5])), n.entropy(), n.cdf(torch.tensor([0.0, 1.0])), n.icdf(torch.tensor([0.5, 0.975])))
print(n.sample().shape, n.sample((3,)).shape, n.rsample((2,)).requires_grad, n.batch_shape, n.event_shape)
c = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(c, c.log_prob(torch.tensor([0, 2])), c.entropy(), c.probs, Categorical(logits=torch.tensor([0.0, 1.0])).probs, c.sample((4,)).shape, c.param_shape if hasattr(c, "param_shape") else None)
b = Bernoulli(probs=torch.tensor([0.3]))
print(b.log_prob(torch.tensor([1.0])), b.mean, b.entropy())
u = Uniform(0.0, 2.0)
print(u.log_prob(torch.tensor(1.0)), u.mean, u.sample((5,)).max() < 2)
mvn = MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mvn.log_prob(torch.tensor([0.5, -0.5])), mvn.entropy(), mvn.covariance_matrix, mvn.scale_tril)
print(Exponential(torch.tensor(2.0)).log_prob(torch.tensor(1.0)), Laplace(0.0, 2.0).log_prob(torch.tensor(1.0)))
print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)), kl_divergence(c, Categorical(probs=torch.ones(3) / 3)))
ind = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3)))
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError", str(e)[:60])
mu = torch.tensor([0.5], requires_grad=True)
Normal(mu, 1.0).log_prob(torch.tensor([2.0])).sum().backward()
print(mu.grad)
''')

program("qa_training_classifier", r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
n = 60
x = torch.stack([torch.linspace(-2, 2, n), torch.cos(torch.linspace(0, 6, n))], 1)
y = ((x[:, 0] * x[:, 1]) > 0).long()
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Dropout(0.0), nn.Linear(8, 2))
    def forward(self, inp):
        return self.net(inp)
model = MLP().double()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).reshape(p.shape) * 0.6)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
dl = DataLoader(TensorDataset(x.double(), y), batch_size=20)
for epoch in range(4):
    model.train()
    total, correct = 0.0, 0
    for xb, yb in dl:
        opt.zero_grad(set_to_none=True)
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        correct += (logits.argmax(1) == yb).sum().item()
    sched.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x.double()).argmax(dim=1) == y).float().mean()
    print(f"epoch {epoch} loss {total / n:.6f} train_acc {correct / n:.4f} acc {acc.item():.4f} lr {sched.get_last_lr()[0]:.5f}")
probs = F.softmax(model(x.double()[:3]), dim=1)
print(probs.detach().numpy().round(4).tolist(), probs.sum(1))
print({k: v.shape for k, v in opt.state_dict()["state"][0].items()}, opt.state_dict()["param_groups"][0]["betas"])
''')

program("qa_views_and_memory", r'''
import torch
x = torch.arange(12.0).reshape(3, 4)
t = x.t()
print(t.is_contiguous(), t.stride(), t.contiguous().stride(), x.view(4, 3).stride(), x[:, 1].stride(), x[::2, ::2].shape, x[::2, ::2].stride())
try:
    t.view(12)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(t.reshape(12), t.flatten().is_contiguous(), x.unsqueeze(1).stride(), x.expand(2, 3, 4).stride(), x.narrow(0, 1, 2).storage_offset())
s = x.as_strided((2, 2), (1, 4))
print(s, x.unfold(1, 2, 2).shape, x.unfold(1, 2, 2)[0])
e = torch.zeros(3).expand(2, 3)
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError", str(err)[:70])
a = torch.arange(6.0)
b = a.view(2, 3)
b[0, 0] = 100
c = a[1:4]
c.mul_(-1)
print(a, b, a._version, b._version, c._base is a, b._base is a, a._base)
d = a.reshape(3, 2)
print(d.data_ptr() == a.data_ptr(), a.clone().data_ptr() == a.data_ptr(), a.contiguous() is a, t.contiguous() is t)
chunks = torch.arange(10).chunk(3)
chunks[0][0] = -1
print(chunks, torch.arange(10).split(4)[-1])
u = torch.arange(4.0)
v = u.view(torch.int32)
print(v.dtype, v.shape, torch.arange(4, dtype=torch.int16).view(torch.int8).shape)
w = torch.ones(2, 3)
w.resize_(3, 2)
print(w.shape, torch.empty(0).resize_(2, 2).shape, torch.ones(5).set_(torch.zeros(2).untyped_storage()).shape if False else "")
y = torch.arange(8).reshape(2, 4)
y[:, ::2] = torch.tensor([[10, 20], [30, 40]])
y[1].fill_(7)
y.T[0] = -5
print(y)
z = torch.zeros(2, 2)
z.diagonal().fill_(3)
z.tril_(-0) if False else None
print(z, z.diagonal().is_contiguous(), z.diagonal().stride())
''')

program("qa_nn_layers_shapes", r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.linspace(-1, 1, 2 * 3 * 8 * 8).reshape(2, 3, 8, 8)
for layer in [nn.Conv2d(3, 4, 3), nn.Conv2d(3, 4, 3, stride=2, padding=1), nn.Conv2d(3, 6, (3, 1), groups=3, dilation=2), nn.ConvTranspose2d(3, 2, 4, stride=2, padding=1), nn.MaxPool2d(2), nn.MaxPool2d(3, 2, 1), nn.AvgPool2d(3, stride=1, padding=1), nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveMaxPool2d(3), nn.Upsample(scale_factor=2), nn.BatchNorm2d(3), nn.InstanceNorm2d(3), nn.GroupNorm(3, 3), nn.Dropout2d(0.5), nn.Flatten(), nn.PixelShuffle(1), nn.ZeroPad2d(1), nn.ReflectionPad2d(2), nn.LocalResponseNorm(2), nn.Conv2d(3, 4, 3, padding="same", bias=False)]:
    print(type(layer).__name__, tuple(layer(x).shape))
seq = torch.linspace(-1, 1, 2 * 5 * 4).reshape(2, 5, 4)
for layer in [nn.LSTM(4, 6, batch_first=True), nn.GRU(4, 6, num_layers=2, batch_first=True, bidirectional=True), nn.RNN(4, 3, batch_first=True, nonlinearity="relu")]:
    out, h = layer(seq)
    print(type(layer).__name__, tuple(out.shape), tuple(h[0].shape) if isinstance(h, tuple) else tuple(h.shape))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, batch_first=True), num_layers=2, enable_nested_tensor=False)
print(tuple(enc(seq).shape), tuple(nn.MultiheadAttention(4, 2, batch_first=True)(seq, seq, seq)[1].shape))
print(tuple(nn.Embedding(10, 3, padding_idx=0)(torch.tensor([[0, 5], [9, 1]])).shape), tuple(nn.EmbeddingBag(10, 3)(torch.tensor([[1, 2], [3, 4]])).shape), tuple(nn.Bilinear(4, 4, 2)(seq, seq).shape))
print(tuple(nn.Conv1d(5, 2, 3)(seq).shape), tuple(nn.MaxPool1d(2)(seq).shape), tuple(nn.LayerNorm(4)(seq).shape), tuple(nn.BatchNorm1d(5)(seq).shape), tuple(nn.Conv3d(1, 2, 2)(torch.ones(1, 1, 3, 3, 3)).shape))
print(nn.Conv2d(3, 4, 3), nn.LSTM(4, 6, batch_first=True), nn.TransformerEncoderLayer(4, 2, 8), nn.BatchNorm2d(3, momentum=0.2), nn.Embedding(10, 3, padding_idx=0), nn.MultiheadAttention(4, 2))
''')

program("qa_warnings_and_misuse", r'''
import io
import warnings
import torch
import torch.nn as nn
def caught(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
        except Exception as e:
            r = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return r, [f"{x.category.__name__}: {str(x.message).splitlines()[0][:90]}" for x in w]
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(caught(lambda: y.grad))
print(caught(lambda: x.numpy()))
print(caught(lambda: torch.stack([])))
print(caught(lambda: torch.cat([])))
print(caught(lambda: y.backward(torch.ones(3))))
print(caught(lambda: nn.Linear(2, 2).register_parameter("w", torch.ones(2))))
m = nn.Module()
print(caught(lambda: setattr(m, "p", nn.Parameter(torch.ones(1))) or list(m.state_dict())))
print(caught(lambda: m.register_buffer("p", torch.ones(1))))
print(caught(lambda: nn.Sequential(nn.Linear(2, 2))[3]))
print(caught(lambda: nn.functional.softmax(torch.ones(2, 2))))
print(caught(lambda: torch.nn.functional.dropout(torch.ones(2), p=1.5)))
print(caught(lambda: torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=-1)))
print(caught(lambda: torch.optim.Adam([], lr=0.1)))
print(caught(lambda: torch.optim.SGD(nn.Linear(2, 2).parameters())))
opt = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
print(caught(lambda: sched.step()))
print(caught(lambda: torch.tensor([1.0, 2.0]).item()))
print(caught(lambda: torch.arange(10).view(3, -1)))
print(caught(lambda: torch.ones(2, 2)[torch.tensor([[True, False]])]))
print(caught(lambda: torch.ones(3).index_put_((torch.tensor([0]),), torch.tensor([1.0, 2.0]))))
print(caught(lambda: torch.load(io.BytesIO(b"not a checkpoint"))))
print(caught(lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)})))
print(caught(lambda: torch.nn.utils.clip_grad_norm_([torch.ones(2, requires_grad=True)], 1.0)))
print(caught(lambda: torch.randint(5, 2, (3,))))
print(caught(lambda: torch.randn(2, 3, dtype=torch.int64)))
print(caught(lambda: torch.ones(2).type(torch.FloatTensor).type()))
print(caught(lambda: torch.FloatTensor([1, 2])))
print(caught(lambda: torch.LongTensor(2, 3).shape))
print(caught(lambda: torch.Tensor([1, 2]).dtype))
print(caught(lambda: torch.Tensor(2, 3).shape))
print(caught(lambda: torch.empty(2, 3).normal_(std=-1)))
print(caught(lambda: torch.nn.init.kaiming_uniform_(torch.empty(0))))
print(caught(lambda: torch.tensor([1, 2, 3])[torch.tensor([True, False])]))
''')
