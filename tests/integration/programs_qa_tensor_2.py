"""QA programs on tensor-level semantics, continued from programs_qa_tensor.py (whose XFAIL
lists the known gaps): shape ops, creation, math, complex, linalg; continued in
programs_qa_tensor_3.py."""
from programs_registry import program

program("qt_view_reshape_strides", r'''
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
t = x.transpose(0, 2)
print(t.shape, t.stride(), t.is_contiguous(), t.storage_offset(), x[:, 1].stride(), x[:, 1].storage_offset(), x[1, :, ::2].stride(), x[1, :, ::2].storage_offset())
try:
    t.view(-1)
except RuntimeError as e:
    print("RuntimeError", e)
print(t.reshape(-1)[:5], t.contiguous().view(4, 6).stride(), x.view(6, 4).stride(), x.view(2, 12)[1, :3], x.permute(2, 0, 1).view(4, 6).shape if x.permute(2, 0, 1).is_contiguous() else "nc")
print(x[:, :, :2].reshape(2, 6).stride(), x[:, 1:].reshape(2, 8).is_contiguous(), x.view(2, 3, 2, 2).stride(), x.unflatten(2, (2, 2)).stride())
for shape in [(5, 5), (-1, -1), (7, -1), (0, -1)]:
    try:
        x.view(*shape)
    except RuntimeError as e:
        print("RuntimeError", e)
print(x.view(torch.int32).shape, x.view(torch.float64).shape, x.view(torch.uint8).shape, x.view(torch.float32) is x)
try:
    x[:, :, :3].view(torch.float64)
except RuntimeError as e:
    print("RuntimeError", e)
print(x.expand(2, 2, 3, 4).stride(), x[:, :1].expand(2, 5, 4).stride(), torch.ones(3, 1).expand(-1, 4).is_contiguous(), torch.tensor(1.0).expand(2, 3).stride())
e = torch.zeros(3, 1).expand(3, 4)
print(e.contiguous().stride(), e.clone().stride(), e.clone(memory_format=torch.preserve_format).stride(), t.clone().stride(), t.clone(memory_format=torch.contiguous_format).stride(), torch.empty_like(t).stride(), torch.zeros_like(x[:, :, ::2]).stride())
print(x[0].t().stride(), x[0].T.is_contiguous(), x.mT.shape, x.mT.stride(), x[0].t().contiguous().stride(), x.narrow(2, 1, 2).stride(), x.narrow(2, 1, 2).storage_offset())
print(x.unfold(2, 2, 1).shape, x.unfold(2, 2, 1).stride(), x.as_strided((2, 2), (1, 2)), x.as_strided((3,), (4,), 1))
s = x.select(1, 2)
s.fill_(-1)
print(x[0], x.diagonal(0, 1, 2).stride(), x.diagonal(1, 1, 2), x.diagonal(offset=-1, dim1=1, dim2=2).storage_offset())
''')

program("qt_broadcast_expand_repeat", r'''
import torch
a = torch.tensor([[1], [2], [3]])
print(a.expand(3, 4), a.expand(2, 3, 2).shape, a.expand(-1, 2), a.expand_as(torch.zeros(3, 5)).shape, torch.broadcast_to(a, (2, 3, 3)).shape)
try:
    a.expand(4, 4)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    a.expand(3)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.broadcast_tensors(torch.ones(2, 1), torch.zeros(3))[0].shape, torch.broadcast_shapes((2, 1), (1, 3), (3,)), torch.broadcast_shapes((5,), ()))
v = torch.tensor([1, 2, 3])
print(v.repeat(2), v.repeat(2, 2), v.repeat(1, 2, 1).shape, v.repeat_interleave(2), v.repeat_interleave(torch.tensor([1, 0, 2])), torch.repeat_interleave(torch.tensor([2, 3])))
m = torch.tensor([[1, 2], [3, 4]])
print(m.repeat_interleave(2, dim=0), m.repeat_interleave(torch.tensor([1, 3]), dim=1), m.repeat_interleave(3), m.repeat(2, 1, 1).shape, m.tile((2,)), m.tile((2, 1, 2)).shape)
try:
    v.repeat()
except TypeError:
    print("TypeError")
try:
    m.repeat(2)
except RuntimeError as e:
    print("RuntimeError", e)
print(v.repeat_interleave(2, output_size=6), torch.tensor(5).repeat(3), torch.tensor(5).repeat_interleave(2), torch.zeros(0).repeat(3).shape)
w = torch.ones(2, 3, requires_grad=True)
(w.expand(4, 2, 3) * torch.arange(4.0).reshape(4, 1, 1)).sum().backward()
print(w.grad)
z = torch.tensor([1.0, 2.0], requires_grad=True)
(z.repeat_interleave(torch.tensor([2, 3])) * torch.arange(5.0)).sum().backward()
print(z.grad)
''')

program("qt_flip_roll_tri", r'''
import torch
x = torch.arange(12).reshape(3, 4)
print(x.flip(0), x.flip((0, 1)), x.flip(-1), x.fliplr(), x.flipud(), torch.flip(torch.arange(3), [0]))
print(x.roll(1), x.roll(-1, 0), x.roll((1, 2), (0, 1)), x.roll(5, 1), torch.roll(x, shifts=13), x.roll(0))
print(x.rot90(), x.rot90(2), x.rot90(-1), x.rot90(1, [1, 0]), x.rot90(4), torch.rot90(torch.arange(8).reshape(2, 2, 2), 1, [1, 2]))
try:
    x.rot90(1, [0, 0])
except RuntimeError as e:
    print("RuntimeError", e)
print(x.tril(), x.tril(1), x.tril(-2), x.triu(2), x.triu(-1), x.triu(10), torch.ones(2, 3, 3).tril(-1).sum((1, 2)))
y = torch.ones(3, 3)
y.tril_(0)
y.triu_(-1)
print(y, torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1), torch.tril_indices(2, 3, offset=-1))
d = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.diag_embed(d), torch.diag_embed(d, offset=1).shape, torch.diag_embed(d, dim1=0, dim2=2).shape, torch.diagonal(torch.diag_embed(d), dim1=-2, dim2=-1))
print(torch.diagflat(torch.tensor([1, 2])), torch.diagflat(d, 1), torch.diag(torch.tensor([1, 2]), -1), torch.diag(x, 1), torch.diag(x, -2), x.diagonal(), x.diagonal(2))
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5]]), torch.tensor([7, 8])), torch.block_diag(torch.ones(1, 2, dtype=torch.int64), torch.ones(1, 1)).dtype)
z = torch.zeros(3, 3)
z.fill_diagonal_(5)
z.diagonal().add_(1)
print(z, torch.zeros(5, 2).fill_diagonal_(1, wrap=True))
''')

program("qt_split_chunk_unbind", r'''
import torch
x = torch.arange(10)
print(x.chunk(3), x.chunk(4), x.chunk(6), x.chunk(20), torch.arange(0).chunk(2))
print(x.split(3), x.split([2, 3, 5]), x.split(10), x.split(20), torch.split(torch.arange(6).reshape(2, 3), 1, dim=1))
try:
    x.split([2, 3])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.chunk(0)
except RuntimeError as e:
    print("RuntimeError", e)
print(x.tensor_split(3), x.tensor_split([2, 5]), x.tensor_split((1, 1, 20)), x.tensor_split(torch.tensor([4, 7])), x.tensor_split(torch.tensor(4)), x.tensor_split(11))
m = torch.arange(12).reshape(3, 4)
print(m.unbind(), m.unbind(1), torch.unbind(m, dim=-1)[0], m.hsplit(2), m.vsplit([1]), torch.arange(8).reshape(2, 2, 2).dsplit(2)[1].shape)
try:
    m.hsplit(3)
except RuntimeError as e:
    print("RuntimeError", e)
parts = m.split(2, dim=1)
print([p.stride() for p in parts], [p.storage_offset() for p in parts], [p.is_contiguous() for p in m.chunk(2)])
print(m.movedim(0, 1).shape, torch.arange(24).reshape(2, 3, 4).movedim((0, 1), (2, 0)).shape, torch.moveaxis(torch.zeros(2, 3, 4), -1, 0).shape, torch.zeros(2, 3, 4).permute(-1, 0, 1).shape, torch.zeros(2, 3, 4).swapaxes(0, 2).shape, torch.zeros(2, 3).swapdims(0, 1).shape)
for bad in [(0, 0, 1), (0, 1), (0, 1, 3)]:
    try:
        torch.zeros(2, 3, 4).permute(*bad)
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
s = torch.zeros(1, 2, 1, 3, 1)
print(s.squeeze().shape, s.squeeze(0).shape, s.squeeze(1).shape, s.squeeze((0, 2)).shape, s.squeeze((-1, 1)).shape, s.unsqueeze(-1).shape, s.unsqueeze(0).shape, torch.zeros(()).unsqueeze(0).shape, torch.zeros(()).squeeze().shape)
try:
    s.unsqueeze(7)
except IndexError as e:
    print("IndexError", e)
try:
    s.squeeze(5)
except IndexError as e:
    print("IndexError", e)
''')

program("qt_ranges_rounding", r'''
import torch
torch.set_printoptions(precision=8)
print(torch.arange(0, 1, 0.1), torch.arange(0, 1, 0.1).shape, torch.arange(1, 2.5, 0.5), torch.arange(-1, 1, 0.3), torch.arange(0.0, 0.9, 0.3).shape)
print(torch.arange(5).dtype, torch.arange(5.0).dtype, torch.arange(0, 5, 2).dtype, torch.arange(0, 5, 0.5).dtype, torch.arange(torch.tensor(3)).dtype, torch.arange(1, 4, dtype=torch.float64))
print(torch.arange(10, 0, -3), torch.arange(0, -1, -0.25), torch.arange(3, dtype=torch.uint8), torch.arange(0, 1, 1 / 3), torch.arange(0, 10, 2.5, dtype=torch.int64))
for bad in [(0, 5, 0), (5, 0, 1), (0, float("inf"))]:
    try:
        torch.arange(*bad)
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.arange(5, 5), torch.linspace(0, 1, 5), torch.linspace(-1, 1, 4), torch.linspace(0, 1, 1), torch.linspace(0, 1, 0), torch.linspace(3, 3, 3))
print(torch.linspace(0, 10, 4, dtype=torch.int64), torch.linspace(0, 1, 3, dtype=torch.float64), torch.linspace(torch.tensor(0.0), torch.tensor(2.0), 3), torch.linspace(1, 0, 6))
print(torch.linspace(0, 1, 7)[3].item(), torch.linspace(-5, 5, 11), torch.linspace(0, 1, 11).sum().item() == 5.5)
print(torch.logspace(0, 2, 3), torch.logspace(0, 1, 3, base=2), torch.logspace(-2, 2, 5, dtype=torch.float64), torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(1, 1, 1))
try:
    torch.linspace(0, 1, -1)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.range(0, 3), torch.range(0, 1, 0.25), torch.range(1, 3, dtype=torch.int64))
''')

program("qt_factories_dtype_inference", r'''
import torch
print(torch.full((2,), 3).dtype, torch.full((2,), 3.0).dtype, torch.full((2,), True).dtype, torch.full((2,), 1j).dtype, torch.full((2,), 3, dtype=torch.float16), torch.full((), 7))
print(torch.full_like(torch.zeros(2, dtype=torch.int32), 2.7), torch.full_like(torch.zeros(2), 5), torch.full((1, 2), float("nan")), torch.full([2], -1, dtype=torch.uint8))
print(torch.zeros_like(torch.ones(2, 3, dtype=torch.int8)), torch.ones_like(torch.ones(2), dtype=torch.bool), torch.empty_like(torch.zeros(2, 2)).shape, torch.rand_like(torch.zeros(2)).dtype, torch.zeros_like(torch.tensor(3.0)))
try:
    torch.rand_like(torch.zeros(2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.randn(2, dtype=torch.int32)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.eye(3), torch.eye(2, 4, dtype=torch.int64), torch.eye(0), torch.eye(1, 3, dtype=torch.bool), torch.ones(2, 3, dtype=torch.complex64))
print(torch.zeros(2, 3).shape, torch.zeros((2, 3)).shape, torch.zeros([2, 3]).shape, torch.zeros(torch.Size([2])).shape, torch.ones(()).shape, torch.zeros(size=(1, 2)).shape, torch.empty(0).shape)
print(torch.tensor([[1, 2], [3, 4]]).new_zeros(3), torch.tensor([1.5]).new_ones((2, 2)), torch.tensor([1], dtype=torch.int8).new_full((2,), 3.9), torch.tensor([1.0]).new_tensor([1, 2]), torch.tensor([1.0]).new_empty(3).shape, torch.tensor([1]).new_tensor([1.5]).dtype)
a, b = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
c, d = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(a, b, c, d, torch.meshgrid(torch.arange(2), indexing="ij"), [t.shape for t in torch.meshgrid(torch.arange(2), torch.arange(3), torch.arange(4), indexing="xy")])
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])), torch.combinations(torch.tensor([1, 2, 3]), r=2, with_replacement=True))
print(torch.zeros(2, 3, dtype=torch.float64).dtype, torch.empty(2, dtype=torch.bool).shape, torch.scalar_tensor(3), torch.scalar_tensor(3, dtype=torch.int64), torch.as_tensor([1, 2]), torch.as_tensor(3.5), torch.asarray([True]))
for bad in [(-1,), (2, -3)]:
    try:
        torch.ones(*bad)
    except RuntimeError as e:
        print("RuntimeError", e)
try:
    torch.zeros(2.5)
except TypeError:
    print("TypeError")
''')

program("qt_tensor_from_python", r'''
import torch
print(torch.tensor([1, 2.5, True]), torch.tensor([True, 1]), torch.tensor([[1, 2], [3.0, 4]]), torch.tensor([1, 2 + 0j]), torch.tensor([[True], [False]]).dtype)
print(torch.tensor([]).dtype, torch.tensor([[]]).shape, torch.tensor([[], []]).shape, torch.tensor(((1, 2), (3, 4))), torch.tensor([torch.tensor(1.5), 2]), torch.tensor([torch.tensor([1, 2]).sum(), 7]))
print(torch.tensor([1, 2], dtype=torch.float16), torch.tensor(2 ** 63 - 1), torch.tensor([-(2 ** 63)]), torch.tensor(3.0, dtype=torch.int32), torch.tensor([1.9, -1.9], dtype=torch.int64), torch.tensor(range(4)))
for bad in [[[1, 2], [3]], [1, [2]], [[1], 2], "abc", [1, "a"], [None], 2 ** 64]:
    try:
        torch.tensor(bad)
        print("ok", bad)
    except (ValueError, TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
try:
    torch.tensor([300], dtype=torch.uint8)
    print("no overflow error")
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([[torch.ones(2)], [torch.ones(2)]])
except (ValueError, TypeError, RuntimeError) as e:
    print(type(e).__name__)
t = torch.arange(3.0)
print(t.clone().detach(), torch.tensor([t[0], t[1]]), torch.stack([t, t]).shape, torch.as_tensor(t) is t, torch.as_tensor(t, dtype=torch.float64) is t)
x = torch.tensor([[1, 2], [3, 4]])
print(x.tolist(), x[0].tolist(), torch.tensor(1.5).tolist(), torch.tensor([True]).tolist(), torch.tensor([1 + 2j]).tolist(), torch.tensor([0.1], dtype=torch.float16).tolist(), torch.tensor([0.1]).tolist())
print(torch.tensor([7]).item(), torch.tensor([[2.5]]).item(), torch.tensor(True).item(), torch.tensor(1j).item(), type(torch.tensor(3, dtype=torch.uint8).item()).__name__)
try:
    torch.tensor([1, 2]).item()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([]).item()
except RuntimeError as e:
    print("RuntimeError", e)
print(int(torch.tensor([3.7])), float(torch.tensor(2)), bool(torch.tensor([0.0])), complex(torch.tensor(1.5)), torch.tensor(5).__index__(), [10, 20, 30][torch.tensor(1)])
for f in [int, float, bool]:
    try:
        f(torch.tensor([1, 2]))
    except (RuntimeError, ValueError, TypeError) as e:
        print(f.__name__, type(e).__name__, e)
try:
    [1, 2][torch.tensor(1.0)]
except TypeError as e:
    print("TypeError", e)
''')

program("qt_numpy_bridge_dtypes", r'''
import numpy as np
import torch
for dt in [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_, np.complex64, np.complex128]:  # (no uint16/32/64: qa_gap_dtypes)
    a = np.array([1, 0, 2], dtype=dt)
    t = torch.tensor(a)
    f = torch.from_numpy(a)
    print(dt.__name__, t.dtype, f.dtype, torch.as_tensor(a).dtype, t.numpy().dtype, t.tolist())
a = np.arange(6, dtype=np.float32).reshape(2, 3)
f = torch.from_numpy(a)
a[0, 0] = 100
f[1, 1] = -5
print(f, a, torch.tensor(a)[0, 0].item())
t = torch.ones(3)
n = t.numpy()
n[0] = 7
t[1] = 9
print(t, n, type(n).__name__)
print(torch.from_numpy(a[:, ::2]).stride(), torch.from_numpy(a.T).stride(), torch.from_numpy(np.array(5.0)).shape, torch.from_numpy(np.zeros((0, 2))).shape)
print(torch.tensor(np.float64(1.5)).dtype, torch.tensor(np.int32(3)).dtype, torch.tensor([np.float32(1), np.float32(2)]).dtype, torch.tensor(np.array([1.5, 2.5])).dtype, torch.tensor(np.bool_(True)).dtype)
print(torch.ones(2) + np.float64(1.5), (torch.ones(2, dtype=torch.float32) * np.float64(2.0)).dtype, (torch.ones(2, dtype=torch.int32) + np.int64(1)).dtype)
print(torch.tensor([1, 2]).numpy().dtype, torch.tensor([1.0]).double().numpy().dtype, torch.arange(4).reshape(2, 2).t().numpy().flags["C_CONTIGUOUS"], np.asarray(torch.tensor([1.0, 2.0])), np.array(torch.tensor([[1, 2]])).shape)
try:
    torch.ones(2, requires_grad=True).numpy()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.ones(2, requires_grad=True).detach().numpy(), torch.ones(2, requires_grad=True).numpy(force=True))
try:
    torch.from_numpy([1, 2])
except TypeError as e:
    print("TypeError", e)
neg = np.arange(4)[::-1]
try:
    torch.from_numpy(neg)
except ValueError as e:
    print("ValueError", e)
print(torch.tensor(neg), torch.as_tensor(np.array([1, 2], dtype=np.int64)).dtype)
''')

program("qt_special_functions", r'''
import torch
torch.set_printoptions(precision=8)
x = torch.tensor([-2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 10.0], dtype=torch.float64)
p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], dtype=torch.float64)
print(torch.erf(x), torch.erfc(x), torch.special.erfcx(x[5:]), torch.erfinv(p * 2 - 1), torch.special.ndtri(p), torch.special.ndtr(x), torch.special.log_ndtr(x))
print(torch.lgamma(x), torch.digamma(x), torch.polygamma(1, x[4:]), torch.polygamma(2, x[4:]), torch.special.multigammaln(x[6:], 2), torch.mvlgamma(x[6:], p=3))
print(torch.i0(x), torch.special.i0e(x), torch.special.i1(x), torch.special.i1e(x), torch.special.bessel_j0(x) if hasattr(torch.special, "bessel_j0") else None)
print(torch.xlogy(x, x.abs()), torch.xlogy(torch.zeros(2), torch.tensor([0.0, float("nan")])), torch.special.xlog1py(p, p), torch.special.entr(p), torch.sinc(x), torch.special.sinc(torch.tensor(0.0)))
print(torch.logit(p), torch.logit(p, eps=0.05), torch.special.logit(p, 1e-6), torch.special.expit(x), torch.expm1(x * 1e-10), torch.log1p(x[3:] * 1e-10), torch.special.exp2(x), torch.special.expm1(x[:2]))
print(torch.special.zeta(x[6:], torch.tensor([1.0, 2.0], dtype=torch.float64)), torch.special.gammaln(x[4:]), torch.special.psi(x[4:]), torch.special.log_softmax(x, 0)[:2], torch.special.softmax(x, 0).sum())
print(torch.special.gammainc(x[4:], x[4:]), torch.special.gammaincc(x[4:], x[4:] + 1))
print(torch.special.round(x), torch.special.logsumexp(x, 0), torch.lgamma(torch.tensor([0.0, -1.0, float("inf")])), torch.digamma(torch.tensor([0.0, -1.0, -0.0])))
torch.set_printoptions(precision=5)  # float32: 5 digits (kernels differ in the last ulp)
f = torch.tensor([0.1, 0.5, 2.0])
print(torch.igamma(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])), f.erf(), f.lgamma(), (f + 1).digamma(), torch.tensor([0.1, 0.5, -0.9]).erfinv(), f.i0(), f.sinc(), f.logit(), f.polygamma(1))
print(torch.erf(torch.tensor([1, 2])), torch.lgamma(torch.tensor([3])).dtype, torch.special.expit(torch.tensor([0])).dtype, torch.erf(torch.tensor([0.5], dtype=torch.float16)))
''')

program("qt_clamp_lerp_atan2", r'''
import torch
x = torch.tensor([-3.0, -1.0, 0.0, 2.0, 5.0])
lo = torch.tensor([-2.0, 0.0, 1.0, 1.0, 1.0])
hi = torch.tensor([2.0, 2.0, 0.5, 1.5, 10.0])
print(x.clamp(lo, hi), x.clamp(min=lo), x.clamp(max=hi), torch.clamp(x, -1, torch.tensor(1.0)), x.clamp(2, 1), x.clamp(min=float("nan")), torch.tensor([float("nan"), 1.0]).clamp(0, 0.5))
print(torch.tensor([1, 5, 9]).clamp(2, 7), torch.tensor([1, 5, 9]).clamp(2.5, 7.5), torch.tensor([1, 5, 9]).clamp(min=torch.tensor(4.5)), torch.tensor([1, 5], dtype=torch.uint8).clamp(-1, 3), x.clamp_min(0), x.clamp_max(0))
try:
    x.clamp()
except RuntimeError as e:
    print("RuntimeError", e)
y = x.clone()
y.clamp_(lo, hi)
print(y, torch.clip(x, max=1), x.clamp(torch.tensor(0.0), None))
a = torch.tensor([0.0, 10.0])
print(torch.lerp(a, torch.tensor([10.0, 0.0]), 0.3), torch.lerp(a, torch.tensor([10.0, 0.0]), torch.tensor([0.0, 0.75])), a.lerp(torch.tensor(5.0), 1.5), torch.lerp(a.double(), a.double() + 1, 0.5))
print(torch.hypot(torch.tensor([3.0, 5.0, 0.0]), torch.tensor([4.0, 12.0, 0.0])), torch.hypot(torch.tensor([float("inf")]), torch.tensor([float("nan")])))
yy = torch.tensor([1.0, 1.0, -1.0, -1.0, 0.0, 0.0, -0.0, 0.0])
xx = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 0.0])
print(torch.atan2(yy, xx), yy.arctan2(xx), torch.atan2(torch.tensor([1, 2]), torch.tensor([1, 1])), torch.atan2(torch.tensor([1.0]), torch.tensor([float("inf")])))
print(torch.copysign(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([-0.0, 0.0, -5.0])), torch.copysign(torch.tensor([1, 2]), -1), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])), torch.sgn(torch.tensor([3 + 4j, 0j])), torch.sign(torch.tensor([-0.0, float("nan")])))
print(torch.fmod(torch.tensor([-5.5, 5.5]), torch.tensor([2.0, -2.0])), torch.remainder(torch.tensor([-5.5, 5.5]), torch.tensor([2.0, -2.0])), torch.fmod(torch.tensor([-5, 5]), 3), torch.remainder(torch.tensor([-5, 5]), -3), torch.remainder(-5, torch.tensor([3])))
print(torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(torch.tensor([2.0]), torch.tensor([0.5])).dtype, torch.pow(2, torch.tensor([0.5, 3.0])), torch.pow(torch.tensor([2, -2]), 3), torch.tensor([0.0, -8.0]) ** (1 / 3), torch.tensor([4]) ** 0.5)
try:
    torch.tensor([2]) ** -1
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([2.0]) ** -1, torch.tensor([0]) ** 0, torch.tensor([-1.0]) ** 0.5, torch.tensor(2) ** torch.tensor(10), torch.tensor([1, 2, 3]).pow(torch.tensor([0, 1, 2])), torch.tensor([True]) ** 2)
''')

program("qt_rounding_float_bits", r'''
import torch
x = torch.tensor([2.5, 3.5, -2.5, -0.5, 0.5, 1.2345, -1.2355, 1234.5678])
print(x.round(), x.round(decimals=1), x.round(decimals=2), x.round(decimals=-1), x.round(decimals=-2), torch.round(x, decimals=3))
print(torch.tensor([15, 25, -35]).round(), torch.tensor([1.5], dtype=torch.float16).round(), torch.tensor([0.125, 0.375], dtype=torch.float64).round(decimals=2))
m, e = torch.frexp(torch.tensor([0.0, 1.0, -3.0, 8.5, 1e-40, float("inf")]))
print(m, e, e.dtype, torch.ldexp(torch.tensor([1.0, 0.75]), torch.tensor([3, -1])), torch.ldexp(torch.tensor([1.0]), torch.tensor([200])), torch.frexp(torch.tensor([0.3], dtype=torch.float64)))
print(torch.nextafter(torch.tensor([1.0, 1.0, 0.0]), torch.tensor([2.0, 0.0, 1.0])) - torch.tensor([1.0, 1.0, 0.0]), torch.nextafter(torch.tensor([0.0], dtype=torch.float64), torch.tensor([1.0], dtype=torch.float64)) > 0)
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.finfo(torch.bfloat16).tiny, torch.finfo(torch.float64).resolution, torch.finfo().dtype, torch.iinfo(torch.int8).min, torch.iinfo(torch.uint8).max, torch.iinfo(torch.int64).bits)
print(torch.finfo(torch.float32), torch.iinfo(torch.int32))
print(torch.trunc(torch.tensor([-1.7, 1.7])), torch.fix(torch.tensor([-1.7])), torch.frac(torch.tensor([-1.75, 2.25])), torch.ceil(torch.tensor([-0.5, 0.5])), torch.floor(torch.tensor([-0.5])), torch.floor(torch.tensor([3])))
a = torch.tensor([1.0, float("nan"), 1.0, float("inf"), 1e-9])
b = torch.tensor([1.0 + 1e-6, float("nan"), 1.1, float("inf"), 0.0])
print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), torch.isclose(a, b, rtol=0.2), torch.isclose(a, b, atol=1e-8, rtol=0), torch.allclose(a, b, equal_nan=True, rtol=0.2), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
print(torch.isclose(torch.tensor([1 + 1j]), torch.tensor([1 + 1.000001j])), torch.isfinite(a), torch.isinf(a), torch.isposinf(a), torch.isneginf(-a), torch.isreal(torch.tensor([1 + 0j, 1j])), torch.isnan(torch.tensor([1, 2])))
try:
    torch.isclose(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.allclose(a, b, rtol=-1)
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qt_complex_ops", r'''
import math
import torch
z = torch.tensor([1 + 1j, -2 + 0j, 0 - 3j, 0j])
print(z.real, z.imag, z.angle(), z.abs(), torch.angle(torch.tensor([-1.0, 0.0, 2.0])), z.conj(), z.conj_physical())
print(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, math.pi / 2])).real.round(decimals=5), torch.complex(torch.tensor(1.0), torch.tensor(-1.0)), z.dtype, z.real.dtype, z.to(torch.complex128).imag.dtype)
r = torch.view_as_real(z)
print(r, r.shape, r.stride(), torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.view_as_complex(r).equal(z))
r[0, 1] = 100
print(z[0], z * 1j, z / (1 + 1j), z ** 2, z.exp()[:2].real.round(decimals=4), (z + 1).log()[:1], z.sqrt()[1], z.reciprocal()[0])
try:
    torch.view_as_real(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.view_as_complex(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.view_as_complex(torch.ones(2, 2).t())
except RuntimeError as e:
    print("RuntimeError", e)
try:
    z < z
except RuntimeError as e:
    print("RuntimeError", e)
try:
    z.max()
except RuntimeError as e:
    print("RuntimeError", e)
print(z == z.conj(), z.sum(), z.mean(), z.prod(), z.cumsum(0), torch.vdot(z, z), torch.dot(z, z), z.sgn(), z.isreal(), torch.is_complex(z), z.is_complex(), z.is_floating_point())
z.real[1] = 7
z.imag.zero_()
print(z, torch.real(torch.tensor([1.0, 2.0])))
try:
    torch.tensor([1.0, 2.0]).imag
except RuntimeError as e:
    print("RuntimeError", e)
c = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
(c.abs() ** 2).sum().backward()
print(c.grad, torch.tensor([1.5 + 2j]).real.to(torch.int64))
''')

program("qt_linalg_more", r'''
import torch
torch.set_printoptions(precision=6)
A = torch.tensor([[3.0, 1.0, 0.5], [1.0, 4.0, 1.0], [0.5, 1.0, 5.0]], dtype=torch.float64)
b = torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64)
print(torch.linalg.solve(A, b), torch.linalg.solve(A, b.squeeze(1)), torch.linalg.solve(A.expand(2, 3, 3), b.expand(2, 3, 1)).shape)
X = torch.tensor([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0], [1.0, 4.0]], dtype=torch.float64)
y = torch.tensor([[6.0], [5.0], [7.0], [10.0]], dtype=torch.float64)
sol = torch.linalg.lstsq(X, y)
print(sol.solution, type(sol).__name__, sol.rank, sol.residuals.shape, torch.linalg.lstsq(X, y, driver="gelsd").solution.round(decimals=8), torch.linalg.pinv(X) @ y)
w, V = torch.linalg.eigh(A)
print(w, (A @ V - V * w).abs().max() < 1e-12, torch.linalg.eigh(A, UPLO="U").eigenvalues, torch.linalg.eigvalsh(A.expand(2, 3, 3)).shape)
ev = torch.linalg.eigvals(torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64))
print(ev.dtype, sorted(ev.imag.tolist()), torch.linalg.eig(torch.diag(torch.tensor([3.0, 1.0, 2.0]))).eigenvalues)
S = torch.linalg.svdvals(X)
print(S, torch.linalg.matrix_norm(A), torch.linalg.matrix_norm(A, ord=1), torch.linalg.matrix_norm(A, ord=-2), torch.linalg.matrix_norm(A, ord=float("inf")), torch.linalg.matrix_norm(X, ord="nuc"))
print(torch.linalg.cond(A), torch.linalg.cond(A, p="fro"), torch.linalg.cond(A, p=1), torch.linalg.matrix_rank(X), torch.linalg.matrix_rank(torch.ones(3, 3)), torch.linalg.matrix_rank(A, hermitian=True))
print(torch.linalg.matrix_power(A, 3), torch.linalg.matrix_power(A, 0), (torch.linalg.matrix_power(A, -1) @ A - torch.eye(3, dtype=torch.float64)).abs().max() < 1e-12, torch.matrix_power(torch.tensor([[1, 1], [0, 1]]), 5))
Q, R = torch.linalg.qr(X)
print(Q.shape, R, torch.linalg.qr(X, mode="r").Q.shape, torch.linalg.qr(X, mode="complete").R.shape, (Q.T @ Q - torch.eye(2, dtype=torch.float64)).abs().max() < 1e-12)
u = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([4.0, 5.0, 6.0])
print(torch.linalg.cross(u, v), torch.cross(u.expand(2, 3), v.expand(2, 3), dim=1), torch.linalg.vecdot(u, v), torch.linalg.vecdot(u.expand(2, 3), v, dim=-1), torch.linalg.vecdot(torch.tensor([1j, 1.0]), torch.tensor([1j, 1.0])))
print(torch.linalg.multi_dot([A, A, b]), torch.linalg.householder_product(X, torch.tensor([1.5, 0.5], dtype=torch.float64)).shape, torch.linalg.inv_ex(A).info, torch.linalg.cholesky_ex(A).info, torch.linalg.solve_triangular(torch.triu(A), b, upper=True))
print(torch.linalg.det(torch.tensor([[1.0, 2.0], [2.0, 4.0]])), torch.linalg.slogdet(torch.tensor([[0.0, 1.0], [1.0, 0.0]])), torch.linalg.tensorsolve(torch.eye(4).reshape(2, 2, 2, 2), torch.ones(2, 2)), torch.linalg.diagonal(A))
for f in [lambda: torch.linalg.solve(torch.ones(2, 3), torch.ones(2)), lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)), lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2), lambda: torch.linalg.vecdot(torch.ones(2), torch.ones(3)), lambda: torch.linalg.eigh(torch.ones(2, 3)), lambda: torch.linalg.lstsq(torch.ones(3, 2), torch.ones(2, 1))]:
    try:
        f()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
''')


program("qt_gather_scatter_family", r'''
import torch
x = torch.arange(12.0).reshape(3, 4)
idx = torch.tensor([[0, 3], [1, 1], [2, 0]])
print(x.gather(1, idx), torch.gather(x, 0, torch.tensor([[2, 1, 0, 0]])), torch.take_along_dim(x, idx, dim=1), torch.take_along_dim(x, torch.tensor([[5]])), x.take(torch.tensor([0, 11, -1])))
z = torch.zeros(3, 4)
print(z.scatter(1, idx, 1.0), z.scatter(1, idx, torch.full((3, 2), 2.0)), z.scatter_add(1, idx, torch.ones(3, 2)), z.scatter(1, idx, 5.0, reduce="add"), torch.ones(3, 4).scatter(1, idx, 3.0, reduce="multiply"))
src = torch.tensor([[5.0, 1.0], [2.0, 7.0], [3.0, 3.0]])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    print(red, z.scatter_reduce(1, idx, src, reduce=red), torch.ones(3, 4).scatter_reduce(1, idx, src, reduce=red, include_self=False))
print(torch.zeros(5).index_copy(0, torch.tensor([4, 0]), torch.tensor([1.0, 2.0])), torch.zeros(2, 3).index_copy(1, torch.tensor([2]), torch.ones(2, 1)), torch.zeros(4).index_fill(0, torch.tensor([1, 3]), -1))
print(torch.ones(5).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "prod"), torch.zeros(4).index_reduce(0, torch.tensor([1, 1]), torch.tensor([5.0, 1.0]), "amax", include_self=False), torch.zeros(3).index_reduce(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0]), "mean"))
p = torch.zeros(2, 3)
p.put_(torch.tensor([0, 5, 5]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(p, torch.zeros(4).put(torch.tensor([-1]), torch.tensor([9.0])), torch.zeros(2, 2).masked_scatter(torch.tensor([[True, False], [True, True]]), torch.arange(1.0, 5.0)))
for bad in [lambda: x.gather(1, torch.tensor([[4]])), lambda: x.gather(1, torch.tensor([[0.0]])), lambda: x.gather(2, idx), lambda: z.scatter(1, idx, src.int()), lambda: x.take(torch.tensor([12])), lambda: z.scatter_reduce(1, idx, src, reduce="max"), lambda: x.gather(1, torch.tensor([0, 1]))]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(2).scatter_add(0, torch.tensor([1, 1, 0]), w)
(out * torch.tensor([10.0, 100.0])).sum().backward()
print(out, w.grad, type(out.grad_fn).__name__)
v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
g = v.gather(1, torch.tensor([[1, 1], [0, 1]]))
g.sum().backward()
print(v.grad, type(g.grad_fn).__name__)
''')

program("qt_cat_stack_family", r'''
import torch
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5.5, 6.5]])
print(torch.cat([a, b]), torch.cat([a, b]).dtype, torch.cat((a, a), dim=1), torch.cat([a, torch.tensor([])]), torch.cat([torch.zeros(0, 2), a]).shape, torch.cat([a], -1) is a, torch.concat([a, a]).shape, torch.concatenate([a, a], axis=1).shape)
print(torch.stack([a, a]).shape, torch.stack([a, a], dim=-1).shape, torch.stack([torch.tensor(1), torch.tensor(2.5)]), torch.hstack([torch.tensor([1]), torch.tensor([2, 3])]), torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])]), torch.dstack([a, a]).shape, torch.column_stack([torch.tensor([1, 2]), a]), torch.row_stack([a, a]).shape)
print(torch.atleast_1d(torch.tensor(1)), torch.atleast_2d(torch.tensor([1, 2])), torch.atleast_3d(a).shape, torch.atleast_1d(torch.tensor(1), torch.tensor([2, 3])), torch.atleast_3d(torch.tensor(5)).shape)
print(torch.cat([torch.tensor([True]), torch.tensor([2], dtype=torch.uint8)]), torch.cat([torch.tensor([1], dtype=torch.int8), torch.tensor([1], dtype=torch.uint8)]).dtype, torch.stack([torch.tensor([1.0], dtype=torch.float16), torch.tensor([2.0])]).dtype)
for bad in [lambda: torch.cat([a, torch.ones(2, 3)]), lambda: torch.stack([a, torch.ones(3, 2)]), lambda: torch.cat([]), lambda: torch.cat([a, torch.ones(2)]), lambda: torch.cat([a], dim=2), lambda: torch.stack([a], dim=4), lambda: torch.cat(a)]:
    try:
        bad()
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
o = torch.empty(0)
torch.cat([torch.ones(2), torch.zeros(1)], out=o)
print(o, torch.cat([torch.ones(2, 1), torch.zeros(2, 1)], 1).is_contiguous(), torch.stack([a.t(), a.t()]).stride(), torch.cat([a.t(), a.t()], 0).stride())
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
c = torch.cat([x, y, torch.tensor([4.0])])
(c * torch.arange(1.0, 5.0)).sum().backward()
print(c, x.grad, y.grad, type(c.grad_fn).__name__, type(torch.stack([x, x]).grad_fn).__name__)
''')

program("qt_python_protocols", r'''
import copy
import pickle
import torch
x = torch.tensor([[1, 2], [3, 4]])
print(len(x), [r.tolist() for r in x], list(torch.tensor([1.5, 2.5])), 3 in x, 9 in x, torch.tensor([1, 2]) in x, 2.0 in torch.tensor([2.0]))
try:
    len(torch.tensor(1))
except TypeError as e:
    print("TypeError", e)
try:
    iter(torch.tensor(1))
except TypeError as e:
    print("TypeError", e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", e)
print(bool(torch.tensor([0])), bool(torch.tensor(2.5)), not torch.tensor(0), torch.tensor(3) and 5, torch.tensor([]).numel())
try:
    bool(torch.tensor([]))
except RuntimeError as e:
    print("RuntimeError", e)
print(hash(x) == hash(x), hash(x) != hash(x.clone()), {x: 1}[x], x.__hash__ is not None, x[...] is x)
print(f"{torch.tensor(3.14159):.2f}", f"{torch.tensor(7):03d}", f"{torch.tensor(2.5)}", "{:>8}".format(str(torch.tensor(1))), format(torch.tensor(1.5), ".1e"), "%.3f" % torch.tensor(2.0), "%d" % torch.tensor(4))
try:
    f"{torch.tensor([1.0, 2.0]):.2f}"
except TypeError as e:
    print("TypeError", e)
d = copy.deepcopy(x)
d[0, 0] = 100
s = copy.copy(x)
print(x[0, 0].item(), d.equal(x), pickle.loads(pickle.dumps(torch.tensor([1.5, float("nan")]))), pickle.loads(pickle.dumps(x[:, 1])))
g = torch.tensor([1.0, 2.0], requires_grad=True)
h = g * 2
print(copy.deepcopy(g).requires_grad, copy.deepcopy(g).is_leaf)
try:
    copy.deepcopy(h)
except RuntimeError as e:
    print("RuntimeError", e)
print(sorted([torch.tensor(3), torch.tensor(1), torch.tensor(2)]), max(torch.tensor([4, 9, 2])), sum(torch.tensor([1, 2, 3])), min([torch.tensor(2.5), torch.tensor(-1.0)]), abs(torch.tensor(-3)))
try:
    round(torch.tensor(2.567), 2)
except TypeError as e:
    print("TypeError", e)
import math
import operator
print(math.floor(torch.tensor(2.7)), math.isclose(torch.tensor(1.0), 1.0), operator.index(torch.tensor(3)), range(10)[torch.tensor(2):torch.tensor(5)], pow(torch.tensor(2), 3), ~torch.tensor(True), +torch.tensor([1]))
try:
    operator.index(torch.tensor(3.0))
except TypeError as e:
    print("TypeError", e)
try:
    operator.index(torch.tensor([1, 2]))
except TypeError as e:
    print("TypeError", e)
''')

program("qt_tensor_attributes", r'''
import torch
for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int8, torch.uint8, torch.bool, torch.complex64, torch.complex128]:
    t = torch.zeros(2, 3, dtype=d)
    print(d, t.element_size(), t.itemsize, t.nbytes, t.dtype.itemsize, d.is_floating_point, d.is_complex, d.is_signed, t.is_floating_point(), t.is_signed(), torch.is_floating_point(t), d.to_real() if d.is_complex else None, d.to_complex() if d.is_floating_point and d not in (torch.float16, torch.bfloat16) else None)
x = torch.arange(24).reshape(2, 3, 4)
print(x.dim(), x.ndim, x.ndimension(), x.numel(), x.nelement(), x.size(), x.size(1), x.size(-1), x.shape[0], x.shape[-2:], x.stride(0), x.stride(-1), x.is_leaf, x.device, x.is_cpu, x.is_cuda, x.layout, x.is_sparse, x.is_quantized, x.is_meta)
try:
    x.size(3)
except IndexError as e:
    print("IndexError", e)
print(x.type_as(torch.tensor(1.0)).dtype, x.to(torch.tensor(1.0, dtype=torch.float64)).dtype, x.to(torch.float16).dtype, x.to("cpu") is x, x.to(torch.int64) is x, x.to(torch.int64, copy=True) is x, x.to(dtype=torch.int64).data_ptr() == x.data_ptr(), x.cpu() is x, x.float().type(torch.int32).dtype)
print(torch.tensor([float("inf"), -1.5, 3.99, 1e10]).int(), torch.tensor([255.9, 0.2]).to(torch.uint8), torch.tensor([1e10]).long(), torch.tensor([2.5, -2.5]).short(), torch.tensor([1.7]).char(), torch.tensor([1, 0, 2]).bool().byte(), torch.tensor([1 + 2j]).abs().half())
print(torch.Size([2, 3]), torch.Size([2, 3]).numel(), torch.Size([]), torch.Size([2]) + torch.Size([3]), torch.Size([2, 3])[1:], type(torch.Size([2, 3])[1:]).__name__, torch.Size([2, 3]) == (2, 3), isinstance(x.shape, tuple), repr(torch.zeros(0).shape))
print(x.is_contiguous(), x.mT.is_contiguous(), x.data_ptr() == x.view(-1).data_ptr(), x.untyped_storage().nbytes() if hasattr(x, "untyped_storage") else None, x.get_device(), x.dtype == torch.long, torch.int == torch.int32, torch.float == torch.float32, torch.double, torch.half, torch.cfloat, torch.long)
''')


program("qt_stats_cov_vander", r'''
import torch
torch.set_printoptions(precision=6)
obs = torch.tensor([[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.0, -1.0], [0.5, 0.5, 0.5, 0.5]], dtype=torch.float64)
print(torch.cov(obs), torch.cov(obs, correction=0), torch.cov(obs[0]), torch.cov(obs, fweights=torch.tensor([1, 2, 1, 1])), torch.cov(obs, aweights=torch.tensor([0.5, 1.0, 1.0, 2.0], dtype=torch.float64)))
print(torch.corrcoef(obs[:2]), torch.corrcoef(obs), torch.corrcoef(obs[0]))
print(torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([1.0, 2.0]), N=4, increasing=True), torch.linalg.vander(torch.tensor([2, 3]), N=3))
print(torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, dim=0, maxnorm=1.0), torch.tensor([[1.0, 1.0], [10.0, 0.0]]).renorm(1, 1, 5))
print(torch.diff(torch.tensor([1, 4, 9, 16]), n=2), torch.diff(torch.tensor([[1, 2], [4, 8]]), dim=0, append=torch.tensor([[0, 0]])), torch.diff(torch.tensor([True, False, False])), torch.diff(torch.tensor([1.0]), n=3))
print(torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0])), torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]), spacing=2.0, edge_order=2), torch.gradient(torch.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0]]), dim=1))
print(torch.logaddexp(torch.tensor([0.0, -1000.0, 1000.0]), torch.tensor([0.0, -1000.0, 1000.0])), torch.logaddexp2(torch.tensor([1.0]), torch.tensor([1.0])), torch.tensor([1, 2, 3]).float().std(unbiased=True), torch.tensor([[1.0, 2.0], [3.0, 5.0]]).var(0, unbiased=False))
a = torch.tensor([1.0, 2.0, 3.0])
print(torch.addcmul(a, a, a, value=0.5), torch.addcdiv(a, a, torch.tensor([2.0, 4.0, 0.0]), value=2), torch.rsub(a, 1), torch.sub(a, a, alpha=2), torch.add(a, 1, alpha=3), torch.tensor([1, 2]).add(torch.tensor([1, 1]), alpha=2))
try:
    torch.add(torch.tensor([1, 2]), torch.tensor([1, 1]), alpha=0.5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.cov(torch.ones(2, 2, 2))
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qt_comparisons_minmax", r'''
import torch
i = torch.tensor([1, 5, 3])
f = torch.tensor([1.0, 4.5, float("nan")])
print(i == f, i < f, i >= 3, i.eq(3.0), i.ne(torch.tensor(5)), f.gt(i), torch.lt(i, 2.5), torch.tensor([True, False]) == 1, torch.tensor([1 + 1j]) == torch.tensor([1 + 1j]))
print(torch.maximum(i, f), torch.minimum(i, f), torch.max(i, f.nan_to_num()).dtype, torch.fmax(i, f), torch.maximum(torch.tensor([1], dtype=torch.uint8), torch.tensor([-1], dtype=torch.int8)), torch.maximum(i, torch.tensor(2.5)))
try:
    torch.maximum(i, 2)
except TypeError as e:
    print("TypeError", e)
try:
    torch.tensor([1 + 1j]).maximum(torch.tensor([1j]))
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.equal(i, i.float()), torch.equal(i, i.clone()), torch.equal(torch.zeros(2), torch.zeros(3)), torch.equal(torch.tensor([float("nan")]), torch.tensor([float("nan")])), torch.equal(torch.tensor(1), torch.tensor([1])))
print(i.max(), i.float().min(), torch.tensor([True, False]).max(), torch.tensor([True, False]).sum(), torch.tensor([3, 3, 1]).argmax(), torch.tensor([[2, 9], [9, 2]]).argmax(dim=0), torch.tensor([float("nan"), 1.0]).argmin(), torch.tensor([-0.0, 0.0]).max())
print(i.clamp(min=torch.tensor([2, 2, 2])), torch.eq(torch.tensor([[1, 2]]), torch.tensor([[1], [2]])), torch.tensor([1, 2]) != torch.tensor([1.0, 2.5]), (torch.tensor([1, 2]) < torch.tensor([2, 1])).dtype, torch.ge(torch.tensor([1.0]), torch.tensor([1], dtype=torch.int64)))
s = torch.tensor([3.0, 1.0, 2.0])
s.clamp_(max=2.5)
print(s, torch.isin(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2, 3])), torch.isin(torch.tensor([1, 2]), 2), torch.isin(torch.tensor([1, 2]), torch.tensor([2]), invert=True), torch.isin(3, torch.tensor([1, 3])))
print(torch.sort(torch.tensor([2, 1, 2]), descending=True).indices, torch.tensor([1.0, -1.0]).abs().eq(1).all(), torch.tensor([]).all(), torch.tensor([]).any(), torch.all(torch.tensor([1, 2])), torch.any(torch.tensor([0.0, -0.0])), torch.tensor([[1, 0], [1, 1]]).all(dim=1), torch.tensor([1, 0], dtype=torch.uint8).all().dtype)
''')

program("qt_einsum_tensordot_more", r'''
import torch
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
m = torch.arange(9.0).reshape(3, 3)
print(torch.einsum("ij,jk", a, b), torch.einsum("ii->i", m), torch.einsum("ii", m), torch.einsum("ij->", a), torch.einsum("i,i", a[0], a[1]), torch.einsum("ij,ij->ij", a, a))
print(torch.einsum("...j,jk->...k", a, b), torch.einsum("b...->...", torch.ones(2, 3, 4)).shape, torch.einsum("ij...,jk->ik...", torch.ones(2, 3, 5), torch.ones(3, 4)).shape, torch.einsum("i...i", torch.ones(3, 2, 3)).shape)
print(torch.einsum("i j, j k -> i k", a, b).shape, torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(1, 3, 4)).shape, torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), torch.einsum("ij->ji", torch.tensor([[1, 2]])))
print(torch.einsum("i,j,k->ijk", torch.ones(2), torch.ones(3), torch.ones(4)).shape, torch.einsum("ab,ab,ab->a", a, a, a), torch.einsum("ii->", torch.tensor([[1, 2], [3, 4]])))
for bad in [lambda: torch.einsum("ij,jk", a, a), lambda: torch.einsum("ij", a, a), lambda: torch.einsum("ijk", a), lambda: torch.einsum("ij->ik", a), lambda: torch.einsum("ij->jj", a)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
print(torch.tensordot(a, b, dims=1), torch.tensordot(a, a, dims=([0, 1], [0, 1])), torch.tensordot(a, a, dims=0).shape, torch.tensordot(torch.ones(2, 3, 4), torch.ones(4, 3, 5), dims=([1, 2], [1, 0])).shape, torch.tensordot(a, b, dims=[[1], [0]]))
print(torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 1], [1, 0]])), torch.kron(torch.ones(2), torch.ones(3, 1)).shape, torch.outer(torch.tensor([1, 2]), torch.tensor([1.5, 0.5])), torch.inner(a, a), torch.inner(torch.tensor([1.0, 2.0]), torch.tensor(3.0)))
try:
    torch.tensordot(a, b, dims=2)
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qt_legacy_constructors", r'''
import torch
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor().shape, torch.Tensor(torch.Size([2])).shape, torch.FloatTensor([1, 2]), torch.LongTensor([1.7, 2]), torch.DoubleTensor(2).dtype, torch.BoolTensor([1, 0]), torch.IntTensor([3]).dtype, torch.ByteTensor([255]))
print(torch.tensor([1.0]).new(2).shape, torch.tensor([1.0]).new([3, 4]), torch.tensor([1]).new_tensor([3.5]).dtype, torch.tensor([1.0]).new().shape, torch.HalfTensor([1.5]), torch.ShortTensor([2]).dtype, torch.CharTensor([-1]).dtype)
print(torch.FloatTensor([1]).type(), torch.tensor([1]).type(torch.FloatTensor).dtype, torch.tensor([1.5]).type("torch.LongTensor"), isinstance(torch.ones(1), torch.FloatTensor), isinstance(torch.ones(1, dtype=torch.int64), torch.FloatTensor), isinstance(torch.ones(1), torch.Tensor))
try:
    torch.Tensor([1, 2], dtype=torch.int64)
except TypeError:
    print("TypeError")
try:
    torch.FloatTensor("a")
except TypeError:
    print("TypeError")
x = torch.Tensor([[1, 2], [3, 4]])
print(x.dtype, x.requires_grad, torch.Tensor([True]).dtype, torch.Tensor(3).fill_(2), torch.empty(2).new_ones(1))
''')


import programs_qa_tensor_3  # noqa: F401 - the programs continue there
