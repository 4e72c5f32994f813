"""QA programs (run by test_programs_qa_extra.py): ordinary user code whose printed
output must be identical under torch and mindtorch - reprs, indexing, promotion,
autograd, modules, data, optimisers and error messages; continued in programs_qa_extra_2.py
and programs_qa_extra_3.py (the latter ends with the known gaps, strict xfails)."""
from programs_registry import program

program("qa_repr_dtypes", r'''
import torch
print(torch.tensor([1, 2, 3]))
print(torch.tensor([1.5, -2.25, 3.0]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([True, False]))
print(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([1, 2], dtype=torch.int16), torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1.5, 2.0], dtype=torch.float16))
print(torch.tensor([1.5, 2.0], dtype=torch.bfloat16))
print(torch.tensor([1 + 2j, 3 - 4j]))
print(torch.tensor([1 + 2j], dtype=torch.complex128))
print(torch.tensor(3.5), torch.tensor(7), torch.tensor(True))
print(torch.tensor([]), torch.zeros(0, 3), torch.zeros(2, 0, dtype=torch.int64))
print(torch.tensor([1e-5, 1e5]), torch.tensor([1e-10, 1.0]), torch.tensor([123456789.0]))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0]))
print(torch.tensor([0.1, 0.25, 100.0]))
print(torch.tensor([[1.0, -1.0], [0.5, 1e3]]))
print(torch.tensor([1.0, 2.0], requires_grad=True))
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x * 2, x.sum(), (x * 2).mean())
print(x.detach(), x[0])
print(repr(torch.tensor([1, 2, 3], dtype=torch.float32).int()))
print(torch.arange(6).reshape(2, 3).float() / 3)
print(torch.ones(2, 2, 2))
print(torch.tensor([-0.0, 0.0]))
print(torch.tensor([1e20, 1.0]), torch.tensor([1e-20, 1.0]))
print(torch.tensor([1, 2], dtype=torch.float16) / 3)
print(torch.tensor([10000000000, 1]))
print(str(torch.tensor([1.0])), f"{torch.tensor(2.5)}", f"{torch.tensor(2.5):.3f}")
''')

program("qa_repr_summarise", r'''
import torch
print(torch.arange(2000))
print(torch.arange(1001.0))
print(torch.arange(1000.0).reshape(10, 100))
print(torch.arange(2000).reshape(2, 1000) * 0.5)
print(torch.arange(1200).reshape(10, 10, 12))
print(torch.linspace(0, 1, 1500))
print(torch.zeros(1001, dtype=torch.bool))
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.5]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(30.0).reshape(5, 6))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.0]))
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456, 2.5]), torch.arange(10))
torch.set_printoptions(linewidth=40)
print(torch.arange(30.0))
torch.set_printoptions(profile="full")
print(torch.arange(1005)[-3:])
torch.set_printoptions(profile="short")
print(torch.tensor([1.23456789]))
torch.set_printoptions(profile="default")
''')

program("qa_indexing_assign", r'''
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x[1, :, ::2], x[..., 1], x[:, None, 0].shape, x[0, [0, 2]], x[[0, 1], [1, 2]])
print(x[[0, 1], :, [0, 3]], x[:, [0, 2]][:, :, [1]].shape)
print(x[torch.tensor([True, False])].shape, x[x > 20])
print(x[0][torch.tensor([[0, 1], [2, 0]])])
print(x[-1, -1, -1], x[1:, 1:, 1:].shape, x[:, 1:100].shape)
y = torch.zeros(3, 4)
y[[0, 2], [1, 3]] = torch.tensor([5.0, 6.0])
y[1] = torch.tensor([1.0, 2.0, 3.0, 4.0])
y[:, 0] = 9
y[y > 5] = -1
print(y)
z = torch.zeros(5)
z[torch.tensor([0, 0, 1])] = torch.tensor([1.0, 2.0, 3.0])
print(z)
z.index_put_((torch.tensor([2, 2]),), torch.tensor([1.0, 1.0]), accumulate=True)
print(z)
w = torch.zeros(2, 3)
w[:, [True, False, True]] = 4.0
w[..., -1] += 1
print(w)
m = torch.arange(12.0).reshape(3, 4)
m[1:, 2:] = torch.tensor([[-1.0], [-2.0]])
print(m)
print(m[torch.tensor(1)], m[torch.tensor([2])], m[1, torch.tensor(2)])
idx = torch.tensor([[0, 1], [1, 2]])
print(m[idx].shape, m[:, idx].shape, m[idx, idx])
b = torch.arange(10)
b[2:8:2] = 0
print(b, b[b.nonzero().squeeze()])
print(torch.arange(6).reshape(2, 3)[:, torch.tensor([2, 0])])
e = torch.zeros(3, 3)
e[torch.arange(3), torch.arange(3)] = torch.tensor([1.0, 2.0, 3.0])
print(e)
''')

program("qa_broadcast_promotion", r'''
import torch
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
b = torch.tensor([True, False, True])
h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
u = torch.tensor([1, 2, 3], dtype=torch.uint8)
c = torch.tensor([1 + 1j, 2.0, 3j])
for a, name in [(i, "i"), (f, "f"), (b, "b"), (h, "h"), (d, "d"), (u, "u"), (c, "c")]:
    print(name, (a + 1).dtype, (a + 1.5).dtype, (a * True).dtype, (a / 2).dtype)
    if a is not h:  # float16 + complex is complex32 in torch, which mindtorch lacks
        print(name, (a + 2j).dtype)
    print(name, (a + i).dtype, (a + f).dtype, (a + b).dtype, (a + h).dtype, (a + d).dtype, (a + u).dtype)
print(i / 2, i // 2, i % 2, -i // 2, i ** 2, 2 ** i, i ** 0.5, i.float() ** -1)
print(torch.tensor(5) / torch.tensor(2), torch.tensor(-7) // 2, torch.tensor(-7) % 3, torch.tensor(-7.5) % 2)
print(u - 5, (u * 100), torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
print(torch.tensor(3, dtype=torch.int8) * 100, torch.tensor([1.0]) + torch.tensor(2.0, dtype=torch.float64))
print((torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(5)).dtype, (torch.tensor([1.0], dtype=torch.float16) + torch.tensor(1.0)).dtype)
print(torch.ones(3, 1) + torch.ones(1, 4), (torch.arange(3).reshape(3, 1) * torch.arange(4)).shape)
print(torch.result_type(i, 1.0), torch.result_type(h, d), torch.promote_types(torch.int8, torch.uint8), torch.can_cast(torch.float32, torch.int32))
print(b + b, b * 3, b.sum(), b.float().mean(), ~b, b & torch.tensor(True), b ^ b)
print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]), torch.tensor([1, 2]) < 1.5)
print(torch.tensor([3.7, -3.7]).int(), torch.tensor([3.7, -3.7]).long(), torch.tensor([300.0]).to(torch.uint8))
print(torch.tensor([1.0, 2.0]).bfloat16() * 3, torch.tensor([1 / 3]).half(), torch.tensor([1 / 3]).double())
print(torch.tensor([2, 3]).bool(), torch.tensor([0.0, 0.2]).bool(), torch.tensor([1 + 2j]).real, torch.tensor([1 + 2j]).abs())
x = torch.tensor([1, 2])
try:
    x += 0.5
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1, 2]).to(torch.float32).dtype, torch.tensor([1, 2]).type(torch.float64).dtype, torch.tensor([1.5]).type())
print(torch.tensor([1, 2]).float().type(), torch.tensor(1).item().__class__.__name__, torch.tensor(1.5).item().__class__.__name__)
''')

program("qa_inplace_version", r'''
import torch
x = torch.ones(3)
print(x._version)
x.add_(1)
x[0] = 5
x.mul_(2)
print(x._version, x)
v = x[1:]
v.zero_()
print(x._version, v._version, x)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a * 2
z = y.sigmoid()
z.sum().backward()
print(a.grad)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = b.exp()
s.add_(1)
try:
    s.sum().backward()
    print(b.grad)
except RuntimeError as e:
    print("RuntimeError", "modified by an inplace operation" in str(e))
l = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    l.add_(1)
except RuntimeError as e:
    print("RuntimeError", e)
w = l.clone()
w.add_(1)
w.sum().backward()
print(l.grad, w.grad_fn.__class__.__name__, w.is_leaf)
with torch.no_grad():
    l.add_(1)
print(l, l.requires_grad, l.is_leaf)
p = torch.zeros(2, 2)
q = p.t_()
print(q is p, p.unsqueeze_(0).shape)
k = torch.tensor([1.0, 4.0])
print(k.sqrt_(), k.clamp_(min=1.5), k.pow_(2), k.fill_(3), k.zero_())
''')

program("qa_reductions", r'''
import torch
x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum(), x.sum(0), x.sum(1, keepdim=True), x.sum((0, 1)), x.sum(dim=-1))
print(x.mean(0), x.std(1), x.var(0, unbiased=False), x.std(correction=0), x.var(1, keepdim=True))
print(x.max(), x.max(1), x.min(0, keepdim=True), x.argmax(), x.argmax(1), x.argmin(0, keepdim=True))
v, i = x.max(dim=1)
print(v, i, x.amax(1), x.amin((0, 1)), x.aminmax())
print(x.prod(1), x.prod(), x.cumsum(1), x.logsumexp(1), x.norm(), x.norm(dim=1), x.norm(p=1, dim=0))
print(x.median(), x.median(1), x.mode(1), x.kthvalue(2, 1), x.quantile(0.5), x.quantile(torch.tensor([0.25, 0.75]), dim=1))
print(x.all(), (x > 1).all(1), (x > 5).any(0), x.count_nonzero(), x.count_nonzero(0))
print(torch.tensor([1, 2, 3]).sum().dtype, torch.tensor([True, True]).sum(), torch.tensor([1, 2], dtype=torch.int8).sum().dtype, torch.tensor([1, 2], dtype=torch.uint8).prod().dtype)
print(torch.tensor([1, 2, 4]).float().mean(), torch.tensor([2, 3]).sum(dtype=torch.float64))
try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.var_mean(x, 1), torch.std_mean(x, 0, keepdim=True))
print(torch.zeros(0).sum(), torch.zeros(0).prod(), torch.zeros(0, 3).sum(0), torch.zeros(0).mean())
try:
    torch.zeros(0).max()
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
print(x.nansum(), torch.tensor([1.0, float("nan")]).nanmean(), torch.tensor([1.0, float("nan")]).sum(), torch.tensor([1.0, float("nan"), 3.0]).max())
print(x.sum(dim=(0,), keepdim=True).shape, x.mean(dim=[-1, -2]), x.max(dim=0).values, x.max(dim=0).indices)
r = x.max(1)
print(type(r).__name__, r[0], len(r), isinstance(r, tuple))
print(torch.sum(x, 1), torch.mean(x, dim=0, keepdim=True), torch.max(x, torch.ones(2, 3) * 3))
''')

program("qa_sort_topk_unique", r'''
import torch
x = torch.tensor([3, 1, 2, 3, 1, 5, 0, 2])
print(torch.sort(x), x.sort(descending=True), x.sort(stable=True), torch.sort(x, stable=True, descending=True))
print(x.argsort(), x.argsort(descending=True, stable=True), torch.argsort(x, stable=True))
print(x.topk(3), x.topk(2, largest=False), x.float().topk(3, sorted=True))
print(torch.unique(x), torch.unique(x, return_counts=True), torch.unique(x, return_inverse=True))
print(torch.unique(x, sorted=True, return_inverse=True, return_counts=True))
print(torch.unique_consecutive(x), torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]), return_counts=True))
m = torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.5, 9.0]])
print(m.sort(1), m.sort(0), m.topk(2, dim=1), m.topk(1, dim=0), m.argsort(dim=0))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 4]]), dim=0), torch.unique(m))
print(m.msort(), torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([0, 3, 6, 9])), torch.bucketize(torch.tensor([0.5, 3.0, 8.0]), torch.tensor([1.0, 3.0, 5.0]), right=True))
f = torch.tensor([2.0, float("nan"), 1.0, float("nan"), -1.0])
print(f.sort(), f.argsort(), f.topk(2), f.max(), f.argmax(), torch.unique(f).shape)
print(torch.tensor([True, False, True]).sort(), torch.tensor([1, 2, 2, 3]).unique().dtype)
print(x.kthvalue(3), x.float().median(), torch.tensor([1.0, 2.0, 3.0, 4.0]).median())
v, i = torch.sort(torch.tensor([[2, 1], [1, 2]]), dim=0, descending=True)
print(v, i, v.dtype, i.dtype)
print(torch.topk(torch.arange(10.0), k=3).indices, torch.tensor([]).sort())
''')

program("qa_cumulative_where", r'''
import torch
x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
print(x.cumsum(0), x.cumsum(dim=1), x.cumprod(1), x.cummax(1), x.cummin(0), x.logcumsumexp(1))
print(torch.tensor([1, 2, 3]).cumsum(0).dtype, torch.tensor([True, True]).cumsum(0), torch.tensor([1, 2], dtype=torch.int8).cumsum(0).dtype)
print(torch.cumsum(x, 1, dtype=torch.float64), x.diff(), x.diff(dim=0), torch.tensor([1, 4, 9]).diff(prepend=torch.tensor([0])))
print(torch.where(x > 0, x, torch.zeros_like(x)), torch.where(x > 0, x, 0.0), torch.where(x > 0, 1, -1), torch.where(x > 0))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([1.5, 2.5])))
print(torch.where(x > 0, 1.0, 0).dtype, torch.where(x < 0, x, torch.tensor(7, dtype=torch.int64)).dtype)
print(x.masked_fill(x < 0, 0), x.masked_fill(torch.tensor([True, False, True]), float("-inf")), x.masked_select(x > 2), x.masked_scatter(x > 0, torch.arange(10.0)))
print(x.clamp(-1, 1), x.clamp(min=0), x.clamp(max=torch.tensor([0.0, 1.0, 2.0])), x.clip(-3, 3), torch.nonzero(x > 0), torch.nonzero(x > 0, as_tuple=True), torch.argwhere(x < 0))
print(x.sign(), x.abs().sqrt().round(decimals=2), x.round(), torch.tensor([0.5, 1.5, 2.5, -0.5]).round(), x.trunc(), x.frac(), x.floor(), x.ceil())
print(torch.tensor([1.0, 2.0]).lerp(torch.tensor([3.0, 6.0]), 0.25), torch.tensor([4.0, 9.0]).rsqrt(), x.relu(), torch.heaviside(x, torch.tensor(0.5)))
print(torch.tril(torch.ones(3, 3)), torch.triu(torch.arange(9).reshape(3, 3), diagonal=1), torch.eye(2, 3), torch.diag(torch.tensor([1, 2])), torch.diag(torch.arange(9).reshape(3, 3)))
print(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])), torch.isclose(torch.tensor([1.0, 1.0001]), torch.tensor([1.0, 1.0])), torch.allclose(x, x + 1e-9))
''')

program("qa_einsum_matmul", r'''
import torch
a = torch.arange(24.0).reshape(2, 3, 4)
b = torch.arange(40.0).reshape(2, 4, 5) / 10
print(torch.einsum("bij,bjk->bik", a, b), torch.einsum("ii", torch.eye(3) * 2), torch.einsum("ij->ji", a[0]), torch.einsum("i,j->ij", torch.arange(2.0), torch.arange(3.0)))
print(torch.einsum("bij->b", a), torch.einsum("...ij,...jk", a, b).shape, torch.einsum("ij,ij->", a[0], a[0]), torch.einsum(a[0], [0, 1], [1]))
print(a @ b, torch.matmul(a, b[0]).shape, torch.matmul(a[0, 0], b[0]), torch.matmul(a[0, 0], a[0, 0]), torch.bmm(a, b).shape)
print((a[0] @ torch.arange(4.0)), torch.mm(a[0], b[0]), torch.mv(a[0], torch.ones(4)), torch.dot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.outer(torch.arange(3), torch.arange(2)), torch.kron(torch.eye(2), torch.ones(2, 2)), torch.tensordot(a, b, dims=([1, 2], [2, 1])).shape if False else torch.tensordot(a[0], b[0], dims=1).shape)
print(torch.arange(6).reshape(2, 3) @ torch.arange(3), torch.cross(torch.tensor([1.0, 0, 0]), torch.tensor([0.0, 1, 0]), dim=0), torch.baddbmm(torch.zeros(2, 3, 5), a, b).shape, torch.addmm(torch.ones(3), a[0], b[0][:, :3]))
x = torch.randn(4, 3, 2, 5)
y = torch.randn(5, 6)
print((x @ y).shape, torch.matmul(torch.randn(3), torch.randn(2, 3, 4)).shape, torch.matmul(torch.randn(1, 2, 3), torch.randn(5, 3, 4)).shape)
for s1, s2 in [((2, 3), (4, 5)), ((3,), (4,)), ((2, 2, 3), (2, 4, 5)), ((2, 3), (2,))]:
    try:
        torch.matmul(torch.ones(s1), torch.ones(s2))
    except RuntimeError as e:
        print("RuntimeError", e)
try:
    torch.mm(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(4, 5))
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qa_linalg", r'''
import torch
torch.set_printoptions(precision=4)
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
print(torch.linalg.norm(A), torch.linalg.norm(A, ord=1), torch.linalg.norm(A, ord="fro"), torch.linalg.norm(A, ord=2), torch.linalg.norm(A, dim=1), torch.linalg.vector_norm(A, ord=float("inf")), torch.linalg.matrix_norm(A, ord="nuc"))
print(torch.linalg.inv(A), torch.allclose(torch.inverse(A) @ A, torch.eye(3, dtype=torch.float64)), torch.linalg.det(A), torch.det(A), torch.linalg.slogdet(A), torch.logdet(A))
print(torch.linalg.solve(A, B), torch.linalg.lstsq(B, A[:, :1]).solution, torch.linalg.matrix_rank(B), torch.linalg.pinv(B))
L, Q = torch.linalg.eigh(A)
print(L, (Q @ torch.diag(L) @ Q.T - A).abs().max() < 1e-10, torch.linalg.eigvalsh(A))
U, S, Vh = torch.linalg.svd(B, full_matrices=False)
print(S, U.shape, Vh.shape, (U @ torch.diag(S) @ Vh - B).abs().max() < 1e-10, torch.linalg.svdvals(B), torch.svd(B).S)
q, r = torch.linalg.qr(B)
print(q.shape, r.shape, (q @ r - B).abs().max() < 1e-10, r.diagonal().abs(), torch.linalg.qr(B, mode="complete").Q.shape)
print(torch.linalg.cholesky(A), torch.linalg.matrix_power(A, 2), torch.linalg.matrix_exp(torch.zeros(2, 2)), torch.trace(A), torch.linalg.cond(A))
print(torch.linalg.eigvals(A).dtype, torch.linalg.eig(torch.diag(torch.tensor([1.0, 2.0]))).eigenvalues, torch.linalg.cross(torch.eye(3), torch.ones(3, 3)))
print(torch.linalg.inv(torch.eye(2).expand(3, 2, 2) * 2), torch.linalg.det(torch.randn(4, 3, 3)).shape)
try:
    torch.linalg.inv(torch.zeros(2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.inv(torch.ones(2, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.cholesky(-torch.eye(2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.solve(torch.eye(3), torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.linalg.norm(torch.tensor([3.0, 4.0])), torch.norm(torch.tensor([[3.0, 4.0]]), dim=1), torch.dist(torch.zeros(2), torch.tensor([3.0, 4.0])), torch.cdist(torch.zeros(1, 2), torch.tensor([[3.0, 4.0]])))
''')

program("qa_random_self_consistent", r'''
import torch
def draw():
    return [torch.rand(3), torch.randn(2, 2), torch.randint(0, 10, (5,)), torch.randperm(6), torch.multinomial(torch.tensor([0.1, 0.5, 0.4]), 4, replacement=True), torch.empty(3).normal_(0, 2), torch.empty(2).uniform_(-1, 1), torch.bernoulli(torch.full((4,), 0.5)), torch.normal(torch.zeros(2), torch.ones(2)), torch.randint_like(torch.zeros(3), 5), torch.rand_like(torch.zeros(2)), torch.empty(3).exponential_(), torch.empty(3).random_(0, 100)]
torch.manual_seed(123)
a = draw()
torch.manual_seed(123)
b = draw()
print(all(torch.equal(x, y) for x, y in zip(a, b)))
print([(t.dtype, tuple(t.shape)) for t in a])
print(a[2].min() >= 0, a[2].max() < 10, sorted(a[3].tolist()), a[4].max() <= 2, set(a[7].tolist()) <= {0.0, 1.0})
g = torch.Generator().manual_seed(7)
r1 = torch.rand(4, generator=g)
g.manual_seed(7)
r2 = torch.rand(4, generator=g)
print(torch.equal(r1, r2), g.initial_seed(), torch.initial_seed())
state = torch.get_rng_state()
x1 = torch.randn(5)
torch.set_rng_state(state)
x2 = torch.randn(5)
print(torch.equal(x1, x2), state.dtype, state.dim())
torch.manual_seed(0)
big = torch.randn(20000)
print(abs(big.mean().item()) < 0.05, round(big.std().item(), 1), torch.rand(10000).max() < 1, torch.randint(3, (1000,)).bincount().shape)
print(torch.randint(5, (3,)).dtype, torch.randint(5, (3,), dtype=torch.int32).dtype, torch.rand(2, dtype=torch.float64).dtype, torch.randn(2, 3).requires_grad, torch.randn(2, requires_grad=True).requires_grad)
print(torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, replacement=True), torch.multinomial(torch.tensor([[0.0, 1.0], [1.0, 0.0]]), 1))
try:
    torch.multinomial(torch.tensor([0.5, 0.5]), 3)
except RuntimeError as e:
    print("RuntimeError", e)
with torch.random.fork_rng():
    torch.manual_seed(99)
    torch.rand(3)
print(torch.equal(torch.rand(1), torch.rand(1)))
''')

program("qa_grad_modes", r'''
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
with torch.no_grad():
    with torch.enable_grad():
        z = x * 2
print(z.requires_grad, z.grad_fn.name() if hasattr(z.grad_fn, "name") else None, type(z.grad_fn).__name__)
with torch.inference_mode():
    w = x * 2
print(w.requires_grad, torch.is_inference_mode_enabled())
torch.set_grad_enabled(False)
print((x * 3).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
@torch.no_grad()
def f(t):
    return t * 5
print(f(x).requires_grad, f.__name__)
@torch.inference_mode()
def g(t):
    return t + 1
print(g(x).requires_grad)
try:
    (x * 2).backward()
except RuntimeError as e:
    print("RuntimeError", e)
a = torch.ones(2)
try:
    a.sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.ones(2).requires_grad_().is_leaf, torch.ones(2, requires_grad=True).sum().is_leaf)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError", e)
q = torch.tensor([1.0, 2.0], requires_grad=True)
q2 = q * q
q2.retain_grad()
q2.sum().backward(retain_graph=True)
print(q.grad, q2.grad)
q2.sum().backward()
print(q.grad)
q.grad.zero_()
print(q.grad, q.grad_fn, q2.grad_fn.next_functions[0][0].__class__.__name__)
try:
    s = (q * 2).sum()
    s.backward()
    s.backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split(".")[0])
''')

program("qa_higher_order", r'''
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn is not None)
(h,) = torch.autograd.grad(g.sum(), x)
print(h)
z = torch.tensor(2.0, requires_grad=True)
f = z.sin() * z ** 2
d1 = torch.autograd.grad(f, z, create_graph=True)[0]
d2 = torch.autograd.grad(d1, z, create_graph=True)[0]
d3 = torch.autograd.grad(d2, z)[0]
print(round(d1.item(), 6), round(d2.item(), 6), round(d3.item(), 6))
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * b).sum()
ga, gb = torch.autograd.grad(out, (a, b))
print(ga, gb)
out2 = a * b
print(torch.autograd.grad(out2, a, grad_outputs=torch.tensor([1.0, 0.5])))
print(torch.autograd.grad((a ** 2).sum(), [a, b], allow_unused=True))
try:
    torch.autograd.grad((a ** 2).sum(), [a, b])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.autograd.grad(a * 2, a)
except RuntimeError as e:
    print("RuntimeError", e)
from torch.autograd.functional import jacobian, hessian
print(jacobian(lambda t: t ** 2, torch.tensor([1.0, 2.0])))
print(hessian(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0])))
w = torch.tensor([0.5, -1.0], requires_grad=True)
loss = (w ** 2).sum()
grads = torch.autograd.grad(loss, w, create_graph=True)[0]
penalty = grads.pow(2).sum()
penalty.backward()
print(w.grad)
x2 = torch.tensor([2.0], requires_grad=True)
y2 = x2 * x2
y2.backward(create_graph=True)
print(x2.grad.detach(), x2.grad.requires_grad)
''')

program("qa_custom_function", r'''
import torch
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        (inp,) = ctx.saved_tensors
        g = grad_output.clone()
        g[inp < 0] = 0
        return g
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = MyReLU.apply(x)
print(y, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
x.grad = None
Scale.apply(x, 4.0).sum().backward()
print(x.grad)
x.grad = None
a, b = TwoOut.apply(x)
(a.sum() + b.sum()).backward()
print(x.grad, a.requires_grad)
with torch.no_grad():
    print(MyReLU.apply(x).requires_grad)
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g
print(torch.autograd.gradcheck(Sq.apply, (torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True),)))
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g, g
try:
    Bad.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
class NoGradIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
    @staticmethod
    def backward(ctx, g):
        return g
print(NoGradIn.apply(torch.ones(2)).requires_grad)
class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)
    @staticmethod
    def backward(ctx, g):
        return g * 2
t = torch.ones(2, requires_grad=True).clone()
out = Once.apply(t)
print(out is t, out)
''')

program("qa_hooks_detach_clone", r'''
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
h = x.register_hook(lambda g: seen.append(g.clone()) or g * 2)
(x * x).sum().backward()
print(x.grad, seen)
h.remove()
x.grad = None
(x * x).sum().backward()
print(x.grad)
y = x * 2
y.register_hook(lambda g: print("hook y", g))
y.sum().backward()
d = x.detach()
print(d.requires_grad, d.data_ptr() == x.data_ptr(), d.is_leaf, d.grad_fn)
d[0] = 100
print(x)
c = x.clone()
print(c.requires_grad, c.is_leaf, type(c.grad_fn).__name__, c.data_ptr() == x.data_ptr())
c2 = x.detach().clone()
c2[1] = -5
print(x, c2)
print(x.data.requires_grad, x.data.data_ptr() == x.data_ptr())
xx = x.detach().requires_grad_(True)
print(xx.is_leaf, xx.requires_grad)
m = torch.nn.Linear(2, 1)
calls = []
m.weight.register_hook(lambda g: calls.append(tuple(g.shape)))
m(torch.ones(3, 2)).sum().backward()
print(calls)
acc = []
p = torch.tensor([1.0, 2.0], requires_grad=True)
p.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.sum().item()))
(p * 3).sum().backward()
print(acc)
''')

program("qa_module_save_load", r'''
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, padding=1)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Linear(2 * 4 * 4, 3)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
    def forward(self, x):
        self.steps += 1
        x = F.relu(self.bn(self.conv(x)))
        return self.fc(x.flatten(1))
torch.manual_seed(0)
net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
x = torch.linspace(-1, 1, 32).reshape(2, 1, 4, 4)
out = net(x)
print(out)
sd = net.state_dict()
print(list(sd.keys()))
print({k: tuple(v.shape) for k, v in sd.items()})
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf)
print(type(loaded).__name__, list(loaded) == list(sd), loaded["steps"], loaded["bn.num_batches_tracked"])
net2 = Net()
print(net2.load_state_dict(loaded))
net.eval(); net2.eval()
print(torch.equal(net(x), net2(x)))
buf2 = io.BytesIO()
torch.save({"model": net.state_dict(), "epoch": 3, "lr": 0.1, "names": ["a", "b"], "t": torch.arange(3)}, buf2)
buf2.seek(0)
ck = torch.load(buf2, weights_only=True)
print(ck["epoch"], ck["lr"], ck["names"], ck["t"], sorted(ck))
bad = dict(loaded)
bad.pop("fc.bias")
bad["extra"] = torch.zeros(1)
print(net2.load_state_dict(bad, strict=False))
try:
    net2.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", e)
wrong = dict(loaded)
wrong["fc.weight"] = torch.zeros(5, 5)
try:
    net2.load_state_dict(wrong)
except RuntimeError as e:
    print("RuntimeError", e)
import __main__
__main__.Net = Net  # (pickle finds the class there)
buf3 = io.BytesIO()
torch.save(net, buf3)
buf3.seek(0)
whole = torch.load(buf3, weights_only=False)
print(type(whole).__name__, whole.training)
print(net)
''')

program("qa_dataloader", r'''
import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, Subset
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), float(i) ** 2]), "y": i % 3, "name": f"item{i}"}
ds = Squares(10)
dl = DataLoader(ds, batch_size=4)
for b in dl:
    print(b["x"].shape, b["y"], b["name"])
print(len(dl), len(DataLoader(ds, batch_size=4, drop_last=True)))
def collate(items):
    xs = torch.stack([it["x"] for it in items])
    return xs.sum(0), len(items)
for s, n in DataLoader(ds, batch_size=3, collate_fn=collate):
    print(s, n)
tds = TensorDataset(torch.arange(12.0).reshape(6, 2), torch.arange(6))
for xb, yb in DataLoader(tds, batch_size=4):
    print(xb, yb)
print(tds[2], len(tds))
g = torch.Generator().manual_seed(0)
tr, te = random_split(range(10), [7, 3], generator=g)
print(len(tr), len(te), sorted(list(tr) + list(te)) == list(range(10)))
tr2, te2 = random_split(range(10), [0.8, 0.2], generator=torch.Generator().manual_seed(1))
print(len(tr2), len(te2))
torch.manual_seed(0)
order = [b.tolist() for b in DataLoader(torch.arange(8), batch_size=3, shuffle=True)]
print([len(o) for o in order], sorted(sum(order, [])))
print(list(DataLoader(Subset(torch.arange(10) * 10, [1, 3, 5]), batch_size=2)))
print(next(iter(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))))
print(next(iter(DataLoader([[1, 2], [3, 4]], batch_size=2))))
print(next(iter(DataLoader([torch.ones(2)] * 3, batch_size=None))))
print(next(iter(DataLoader(list(range(5)), batch_size=5))).dtype, next(iter(DataLoader([0.5, 1.5], batch_size=2))).dtype)
''')
