"""QA programs (run by test_programs_qa_extra.py): ordinary user code whose printed
output must be identical under torch and mindtorch - reprs, indexing, promotion,
autograd, modules, data, optimisers and error messages."""
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

program("qa_state_dict_repr_and_copy", r'''
import copy
import io
import torch
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    m[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    m[0].bias.fill_(0.5)
sd = m.state_dict()
print(sd)
print(type(sd).__name__, sd["0.weight"].requires_grad, sd["1.num_batches_tracked"].dtype)
m2 = copy.deepcopy(m)
m2[0].weight.data.mul_(2)
print(m[0].weight.sum().item(), m2[0].weight.sum().item(), m2[0].weight.requires_grad, type(m2[0].weight).__name__)
t = torch.tensor([1.0, 2.0], requires_grad=True)
tc = copy.deepcopy(t)
print(tc, tc.requires_grad, tc.is_leaf, copy.copy(torch.arange(3)))
buf = io.BytesIO()
a = torch.arange(6.0)
torch.save({"a": a, "view": a[2:4], "list": [a, 1, "s"], "tuple": (torch.tensor(1),), "dtype": torch.float16, "size": torch.Size([2, 3]), "dev": torch.device("cpu")}, buf)
buf.seek(0)
obj = torch.load(buf, map_location="cpu")
obj["view"][0] = -1
print(obj["a"], obj["view"], obj["list"], obj["tuple"], obj["dtype"], obj["size"], obj["dev"])
buf = io.BytesIO()
torch.save(torch.arange(4, dtype=torch.int16)[::2], buf)
buf.seek(0)
r = torch.load(buf)
print(r, r.dtype, r.is_contiguous(), r.stride())
buf = io.BytesIO()
p = nn.Parameter(torch.ones(2))
torch.save(p, buf)
buf.seek(0)
q = torch.load(buf)
print(type(q).__name__, q.requires_grad, q)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.ones(3, 2)).sum().backward()
opt.step()
osd = opt.state_dict()
buf = io.BytesIO()
torch.save(osd, buf)
buf.seek(0)
o2 = torch.optim.Adam(m.parameters(), lr=0.5)
o2.load_state_dict(torch.load(buf))
print(o2.param_groups[0]["lr"], o2.state_dict()["state"][0]["step"], sorted(o2.state_dict()["state"][0]))
print(o2)
''')

program("qa_blitz_tutorial", r'''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.empty(5, 3)
print(x.shape, x.dtype)
x = torch.zeros(5, 3, dtype=torch.long)
print(x)
x = torch.tensor([5.5, 3])
print(x)
x = x.new_ones(5, 3, dtype=torch.double)
print(x)
x = torch.randn_like(x, dtype=torch.float)
print(x.size(), x.size()[0], type(x.size()).__name__)
y = torch.ones(5, 3)
result = torch.empty(5, 3)
torch.add(torch.ones(5, 3), y, out=result)
print(result)
y.add_(torch.full((5, 3), 2.0))
print(y, y[:, 1])
x = torch.arange(16.0).reshape(4, 4)
print(x.view(16).shape, x.view(-1, 8).shape, torch.tensor([0.5]).item())
a = torch.ones(5)
b = a.numpy()
a.add_(1)
print(a, b)
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a, b)
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
print(y, y.grad_fn.__class__.__name__)
z = y * y * 3
out = z.mean()
print(z, out)
a = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn.__class__.__name__)
out.backward()
print(x.grad)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad, (x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
y = x.detach()
print(y.requires_grad, x.eq(y).all())
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
net = Net()
print(net)
params = list(net.parameters())
print(len(params), params[0].size())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + i)).reshape(p.shape) * 0.1)
inp = torch.sin(torch.arange(1024.0)).reshape(1, 1, 32, 32)
out = net(inp)
print(out)
net.zero_grad()
out.backward(torch.linspace(-1, 1, 10).reshape(1, 10))
target = torch.arange(10.0).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(net(inp), target)
print(loss, type(loss.grad_fn).__name__, type(loss.grad_fn.next_functions[0][0]).__name__, type(loss.grad_fn.next_functions[0][0].next_functions[0][0]).__name__)
net.zero_grad()
print(net.conv1.bias.grad)
loss.backward()
print(net.conv1.bias.grad.round(decimals=3))
optimizer = torch.optim.SGD(net.parameters(), lr=0.0005)
for _ in range(3):
    optimizer.zero_grad()
    loss = criterion(net(inp), target)
    loss.backward()
    optimizer.step()
    print(round(loss.item(), 3))
''')

program("qa_module_hooks_and_norms", r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_printoptions(precision=5)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.05, -0.05]))
log = []
h1 = lin.register_forward_pre_hook(lambda m, inp: log.append(("pre", tuple(inp[0].shape))))
h2 = lin.register_forward_hook(lambda m, inp, out: out * 2)
h3 = lin.register_full_backward_hook(lambda m, gin, gout: log.append(("bwd", tuple(gin[0].shape), tuple(gout[0].shape))))
x = torch.ones(4, 3, requires_grad=True)
y = lin(x)
y.sum().backward()
print(y, log, x.grad)
h1.remove(); h2.remove(); h3.remove()
print(lin(torch.ones(1, 3)))
def kw_hook(m, args, kwargs):
    return args, kwargs
lin.register_forward_pre_hook(kw_hook, with_kwargs=True)
print(lin(input=torch.ones(1, 3)) if False else lin(torch.ones(1, 3)))
bn = nn.BatchNorm1d(3)
data = torch.arange(12.0).reshape(4, 3)
bn(data)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(data))
bn2 = nn.BatchNorm1d(3, momentum=None)
bn2(data); bn2(data * 2)
print(bn2.running_mean, bn2.running_var)
bn3 = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
print(bn3(data), bn3.running_mean)
ln = nn.LayerNorm([3], elementwise_affine=False)
print(ln(data), nn.RMSNorm(3)(data) if hasattr(nn, "RMSNorm") else "")
q = torch.linspace(-1, 1, 2 * 2 * 3 * 4).reshape(2, 2, 3, 4)
print(F.scaled_dot_product_attention(q, q, q), F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 0])
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=mask)[1, 1])
wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
print(sorted(n for n, _ in wn.named_parameters()))
sn = nn.utils.parametrizations.spectral_norm(nn.Linear(3, 3))
print(sorted(n for n, _ in sn.named_parameters()), type(sn.parametrizations.weight[0]).__name__)
''')

program("qa_dataloader_workers", r'''
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info
class DS(Dataset):
    def __len__(self):
        return 10
    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([i, i * i]), (info is not None)
if __name__ == "__main__":
    dl = DataLoader(DS(), batch_size=4, num_workers=2)
    out = list(dl)
    print(len(out), out[0][0], out[-1][0], [b[1].tolist() for b in out])
    dl2 = DataLoader(DS(), batch_size=3, num_workers=2, persistent_workers=True, prefetch_factor=2)
    for epoch in range(2):
        print(epoch, [b[0][:, 0].tolist() for b in dl2])
    print(get_worker_info())
''')

program("qa_autograd_errors", r'''
import torch
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
w = torch.ones(3, requires_grad=True)
attempt(lambda: w[0].add_(1))
attempt(lambda: w.view(3).mul_(2))
attempt(lambda: w.t_())
attempt(lambda: w.resize_(4))
attempt(lambda: setattr(w, "grad", torch.ones(2)))
attempt(lambda: setattr(w, "grad", torch.ones(3, dtype=torch.float64)))
attempt(lambda: setattr(w, "requires_grad", False) or w.requires_grad)
v = torch.ones(3, requires_grad=True) * 1
attempt(lambda: setattr(v, "requires_grad", False))
attempt(lambda: v.detach_().requires_grad)
x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y.sum()
y.mul_(2)
attempt(lambda: z.backward())
a = torch.ones(2, requires_grad=True)
b = a * 2
b.sum().backward()
attempt(lambda: b.sum().backward())
c = a.sigmoid()
c.sum().backward()
attempt(lambda: c.sum().backward())
attempt(lambda: torch.autograd.grad(torch.ones(2).sum(), torch.ones(2)))
attempt(lambda: torch.autograd.backward([a * 2], [torch.ones(3)]))
attempt(lambda: (a * 2).backward(torch.ones(2, 1)))
attempt(lambda: torch.ones(2, requires_grad=True).numpy())
attempt(lambda: torch.ones(2, requires_grad=True).tolist())
attempt(lambda: torch.ones(2, requires_grad=True).item())
attempt(lambda: float(torch.ones(1, requires_grad=True)))
with torch.no_grad():
    w2 = torch.ones(2, requires_grad=True)
    w2.add_(1)
print(w2, w2.grad_fn)
p = torch.nn.Parameter(torch.ones(2))
attempt(lambda: p.add_(1))
with torch.no_grad():
    p.add_(1)
print(p)
q = torch.ones(2, requires_grad=True)
r = q[0]
attempt(lambda: r.backward())
print(q.grad)
s = torch.tensor([1.0, 2.0], requires_grad=True) * 1
out = s.unbind()
attempt(lambda: out[0].mul_(2))
''')

program("qa_python_protocols_misc", r'''
import pickle, copy
import torch as T
x = T.arange(6.0).reshape(2, 3)
r = []
r.append([x.device == "cpu", str(x.device), x.device.type, x.device.index, T.device("cpu", 0) if False else T.device("cpu"), T.device("cuda:1").index, T.device("cuda", 2), repr(T.device("cuda:0")), T.device("meta")])
r.append([T.float32 == T.float, hash(T.float32) == hash(T.float), str(T.int64), T.float32.to_complex(), T.complex64.to_real(), T.float16.is_signed, T.bool.itemsize, T.uint8.is_signed])
r.append([x.shape == T.Size([2, 3]), x.shape + (1,), x.shape[1:], T.Size([2, 3]) == [2, 3], T.Size((2, 3)).numel(), len(T.Size([])), x.size(dim=1), x.shape.count(3), x.shape.index(3)])
r.append([pickle.loads(pickle.dumps(x)), pickle.loads(pickle.dumps(T.float64)), pickle.loads(pickle.dumps(T.Size([1, 2]))), pickle.loads(pickle.dumps(T.device("cpu")))])
r.append([copy.deepcopy(T.nn.Linear(2, 2).weight).shape, x.__array__().dtype if hasattr(x, "__array__") else None, sorted(x.flatten().tolist(), reverse=True)[:2], max(x.flatten()).item(), sum(x.flatten()).item(), abs(-x)[0], -x[0], +x[0], x[0] ** 2, 2 - x[0], 1 / (x[0] + 1), x[0] // 2, divmod(7, 2)])
r.append([x @ x.T, x.T @ x, (x > 2).sum().item(), x.__len__(), x[0].__contains__(1.0), list(reversed(x[0])), x.argmax(1).tolist(), x.numpy().sum(), float(x[0, 1]), int(x[1, 2]), complex(x[0, 0]), bool(x[0, 1]), x[0, 1].__index__() if False else "", round(x[0, 1].item() / 3, 3)])
r.append(["%.2f" % x[0, 1], "{:.1f}".format(x[1, 1].item()), "{}".format(x[0, 0]), f"{x[1, 0]!r}", x[0].__format__(""), [f"{v:.1f}" for v in x[0]]])
r.append([x.int() & 3, x.long() | 8, x.bool() ^ True, x.int() >> 1, 5 & x.int(), x.int().__invert__(), x.__eq__(None) if False else x == x.clone(), x != 2, x.__hash__ is not None, id(x) == id(x.data)])
import numpy as np
r.append([np.float32(2.0) * x[0], (np.array([1.0, 2.0, 3.0]) + x[0].numpy()), x[0] * np.float64(2), T.tensor(np.int64(3)) + 1, T.tensor([np.float32(1.5), np.float32(2.5)]).dtype, T.as_tensor(np.array([True])).dtype, x[0] + np.array(1.0) if False else ""])
for line in r:
    print(line)
''')

program("qa_init_and_gains", r'''
import torch
import torch.nn as nn
print([round(nn.init.calculate_gain(n), 6) for n in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]], round(nn.init.calculate_gain("leaky_relu", 0.2), 6))
w = torch.empty(3, 4)
print(nn.init.constant_(w, 0.5), nn.init.ones_(w).sum(), nn.init.zeros_(w).sum(), nn.init.eye_(w))
d = torch.empty(2, 2, 3)
print(nn.init.dirac_(d))
torch.manual_seed(0)
expected = {"xavier_uniform_": (2 / 288) ** 0.5, "xavier_normal_": (2 / 288) ** 0.5, "kaiming_uniform_": (2 / 32) ** 0.5, "kaiming_normal_": (2 / 32) ** 0.5, "trunc_normal_": 0.88, "uniform_": (1 / 12) ** 0.5, "normal_": 1.0}
for fn in [nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_, nn.init.kaiming_normal_, nn.init.trunc_normal_, nn.init.uniform_, nn.init.normal_]:
    t = fn(torch.empty(256, 32))
    print(fn.__name__, tuple(t.shape), t.dtype, bool(t.abs().max() < 10), abs(t.std().item() / expected[fn.__name__] - 1) < 0.1)
q = nn.init.orthogonal_(torch.empty(4, 4))
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-5))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError", e)
lin = nn.Linear(100, 50)
bound = 1 / 100 ** 0.5
print(bool(lin.weight.abs().max() <= bound), bool(lin.bias.abs().max() <= bound), lin.weight.requires_grad)
''')


program("qa_optimizer_scheduler_state", r'''
import torch as T
nn = T.nn
m = nn.Linear(2, 1)
with T.no_grad():
    m.weight.fill_(0.5); m.bias.fill_(0.1)
for opt in [T.optim.Adam(m.parameters(), lr=0.01), T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9), T.optim.AdamW(m.parameters()), T.optim.RMSprop(m.parameters()), T.optim.Adagrad(m.parameters())]:
    m(T.ones(3, 2)).sum().backward()
    opt.step()
    print(opt.state_dict())
    print(dict(opt.state[m.weight]) if len(opt.state) else {})
    opt.zero_grad()
s = T.optim.lr_scheduler.StepLR(T.optim.SGD(m.parameters(), lr=0.1), 2)
print(s.state_dict())
s2 = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(T.optim.SGD(m.parameters(), lr=0.1), T_0=3)
for _ in range(4): s2.optimizer.step(); s2.step()
print(s2.state_dict(), s2.get_last_lr())
s3 = T.optim.lr_scheduler.SequentialLR(T.optim.SGD(m.parameters(), lr=0.1), [T.optim.lr_scheduler.LinearLR(T.optim.SGD(m.parameters(), lr=0.1), 0.5, total_iters=2)], milestones=[]) if False else None
o = T.optim.SGD(m.parameters(), lr=0.1)
w = T.optim.lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=3)
c = T.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2)
ch = T.optim.lr_scheduler.ChainedScheduler([w, c])
lrs = []
for _ in range(5):
    o.step(); ch.step(); lrs.append(round(o.param_groups[0]["lr"], 6))
print(lrs)
o2 = T.optim.SGD(m.parameters(), lr=0.1)
seq = T.optim.lr_scheduler.SequentialLR(o2, [T.optim.lr_scheduler.LinearLR(o2, 0.1, total_iters=2), T.optim.lr_scheduler.ExponentialLR(o2, 0.9)], milestones=[2])
lrs = []
for _ in range(5):
    o2.step(); seq.step(); lrs.append(round(o2.param_groups[0]["lr"], 6))
print(lrs)
o3 = T.optim.SGD(m.parameters(), lr=0.1)
cyc = T.optim.lr_scheduler.CyclicLR(o3, 0.01, 0.1, step_size_up=2)
lrs = []
for _ in range(6):
    o3.step(); cyc.step(); lrs.append(round(o3.param_groups[0]["lr"], 6))
print(lrs, o3.param_groups[0].get("momentum"))
o4 = T.optim.SGD(m.parameters(), lr=0.1)
poly = T.optim.lr_scheduler.PolynomialLR(o4, total_iters=4, power=2.0)
lrs = []
for _ in range(5):
    o4.step(); poly.step(); lrs.append(round(o4.param_groups[0]["lr"], 6))
print(lrs)
''')


program("qa_module_reprs_wide", r'''
import warnings
warnings.simplefilter("ignore")
import torch as T
nn = T.nn
mods = [nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=1, bias=False, padding_mode="reflect"), nn.Conv1d(4, 4, 3, groups=4, padding="same"), nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1),
 nn.LSTM(10, 20, num_layers=2, dropout=0.1, bidirectional=True, batch_first=True), nn.GRU(5, 5, bias=False), nn.RNN(3, 4, nonlinearity="relu"), nn.LSTMCell(3, 4), nn.GRUCell(2, 2),
 nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True), nn.Upsample(size=(4, 4)), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool1d(2), nn.AdaptiveAvgPool2d((None, 3)), nn.MaxPool2d(2, return_indices=True),
 nn.Dropout(p=0.3, inplace=True), nn.Dropout1d(), nn.AlphaDropout(0.2), nn.LeakyReLU(0.1, inplace=True), nn.ELU(alpha=0.5), nn.Softplus(beta=2, threshold=10), nn.Hardtanh(-2, 2), nn.PReLU(3), nn.GELU(approximate="tanh"), nn.Softmax(dim=-1), nn.LogSoftmax(1), nn.Threshold(0.1, 20), nn.CELU(), nn.SiLU(), nn.Mish(), nn.Hardswish(), nn.ReLU6(), nn.Tanhshrink(), nn.Softsign(), nn.GLU(), nn.Softmin(0), nn.RReLU(),
 nn.BatchNorm1d(4, eps=1e-3, momentum=None, affine=False), nn.LayerNorm((4, 5), elementwise_affine=False, bias=False), nn.GroupNorm(2, 4, affine=False), nn.InstanceNorm1d(3, affine=True, track_running_stats=True), nn.LocalResponseNorm(3), nn.RMSNorm(4, eps=1e-5),
 nn.Embedding(10, 3, padding_idx=1, max_norm=2.0, scale_grad_by_freq=True), nn.EmbeddingBag(5, 2, mode="max"), nn.Linear(3, 2, bias=False), nn.Bilinear(2, 3, 4), nn.Identity(3, unused=1), nn.Flatten(0, 2), nn.Unflatten(1, (2, 3)),
 nn.CrossEntropyLoss(weight=T.ones(3), ignore_index=0, label_smoothing=0.1), nn.MSELoss(reduction="sum"), nn.BCEWithLogitsLoss(pos_weight=T.ones(2)), nn.NLLLoss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0), nn.KLDivLoss(reduction="batchmean", log_target=True), nn.CTCLoss(blank=1), nn.TripletMarginLoss(margin=2.0, p=1),
 nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True), nn.MultiheadAttention(8, 2, dropout=0.1, bias=False, kdim=4, vdim=4), nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16),
 nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.ZeroPad2d((1, 2, 0, 1)), nn.ConstantPad1d(2, 3.5), nn.ReflectionPad1d(1), nn.ReplicationPad2d(1), nn.CircularPad2d(1), nn.Fold((4, 4), 2), nn.Unfold(2, stride=2), nn.ChannelShuffle(2), nn.CosineSimilarity(dim=0), nn.PairwiseDistance(p=1.0), nn.Sequential(), nn.ModuleList(), nn.ParameterDict({"a": nn.Parameter(T.ones(2))})]
for m in mods:
    print(repr(m))
''')


program("qa_grad_fn_names", r'''
import warnings
warnings.simplefilter("ignore")
import torch as T
F = T.nn.functional
x = T.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
i = T.tensor([0, 2])
ops = {
 "add_s": lambda: x + 1, "radd": lambda: 1 + x, "sub_s": lambda: x - 1, "rsub": lambda: 1 - x, "mul_s": lambda: x * 2, "div_s": lambda: x / 2, "rdiv": lambda: 2 / x, "pow_s": lambda: x ** 2, "rpow": lambda: 2 ** x, "pow_t": lambda: x ** x, "neg": lambda: -x,
 "matmul": lambda: x @ x.T, "mm": lambda: x.mm(x.T), "mv": lambda: x.mv(x[0]), "dot": lambda: x[0].dot(x[1]), "bmm": lambda: x.unsqueeze(0).bmm(x.T.unsqueeze(0)), "matmul_1d": lambda: x @ x[0], "matmul_3d": lambda: x.unsqueeze(0) @ x.T,
 "t": lambda: x.t(), "T": lambda: x.T, "mT": lambda: x.mT, "transpose": lambda: x.transpose(0, 1), "permute": lambda: x.permute(1, 0), "view": lambda: x.view(12), "reshape": lambda: x.reshape(12), "reshape_copy": lambda: x.t().reshape(12), "flatten": lambda: x.flatten(), "squeeze": lambda: x.unsqueeze(0).squeeze(0), "squeeze_dim": lambda: x.unsqueeze(0).squeeze(), "unsqueeze": lambda: x.unsqueeze(1), "expand": lambda: x[:1].expand(3, 4), "expand_as": lambda: x[:1].expand_as(x), "repeat": lambda: x.repeat(2, 1), "contiguous": lambda: x.t().contiguous(), "clone": lambda: x.clone(), "detach_mul": lambda: x.detach() * x,
 "index_int": lambda: x[0], "index_slice": lambda: x[1:], "index_step": lambda: x[:, ::2], "index_tensor": lambda: x[i], "index_bool": lambda: x[x > 0], "index_none": lambda: x[None], "index_ellipsis": lambda: x[..., 0], "index_2": lambda: x[0, 1], "index_adv2": lambda: x[i, i],
 "sum": lambda: x.sum(), "sum_dim": lambda: x.sum(0), "mean": lambda: x.mean(), "mean_dim": lambda: x.mean(1), "max": lambda: x.max(), "max_dim": lambda: x.max(0)[0], "amax": lambda: x.amax(0), "min": lambda: x.min(), "std": lambda: x.std(), "var": lambda: x.var(0), "norm": lambda: x.norm(), "norm_dim": lambda: x.norm(dim=1), "prod": lambda: x.prod(), "logsumexp": lambda: x.logsumexp(1), "cumsum": lambda: x.cumsum(0), "median": lambda: x.median(), "sort": lambda: x.sort()[0], "topk": lambda: x.topk(2)[0], "kth": lambda: x.kthvalue(2)[0],
 "relu": lambda: x.relu(), "F.relu": lambda: F.relu(x), "sigmoid": lambda: x.sigmoid(), "tanh": lambda: x.tanh(), "exp": lambda: x.exp(), "log": lambda: x.abs().log(), "sqrt": lambda: x.abs().sqrt(), "abs": lambda: x.abs(), "clamp": lambda: x.clamp(0, 1), "clamp_min": lambda: x.clamp(min=0), "where": lambda: T.where(x > 0, x, 0.0), "masked_fill": lambda: x.masked_fill(x > 0, 0),
 "softmax": lambda: x.softmax(1), "log_softmax": lambda: x.log_softmax(1), "F.gelu": lambda: F.gelu(x), "F.silu": lambda: F.silu(x), "F.leaky": lambda: F.leaky_relu(x), "F.elu": lambda: F.elu(x), "F.softplus": lambda: F.softplus(x), "F.dropout_eval": lambda: F.dropout(x, 0.5, False), "F.hardtanh": lambda: F.hardtanh(x), "F.relu6": lambda: F.relu6(x), "F.mish": lambda: F.mish(x),
 "F.linear": lambda: F.linear(x, x), "F.linear_b": lambda: F.linear(x, x, x[:, 0]), "F.mse": lambda: F.mse_loss(x, x.detach() * 2), "F.l1": lambda: F.l1_loss(x, x.detach()), "F.ce": lambda: F.cross_entropy(x, T.tensor([0, 1, 2])), "F.nll": lambda: F.nll_loss(x, T.tensor([0, 1, 2])), "F.bce": lambda: F.binary_cross_entropy(x.sigmoid(), T.ones(3, 4)), "F.bcel": lambda: F.binary_cross_entropy_with_logits(x, T.ones(3, 4)), "F.smoothl1": lambda: F.smooth_l1_loss(x, T.ones(3, 4)), "F.kl": lambda: F.kl_div(x, T.ones(3, 4), reduction="batchmean"),
 "F.layer_norm": lambda: F.layer_norm(x, (4,)), "F.batch_norm": lambda: F.batch_norm(x, None, None, training=True), "F.normalize": lambda: F.normalize(x), "F.pad": lambda: F.pad(x, (1, 1)), "F.embedding": lambda: F.embedding(T.tensor([0, 1]), x), "F.one_hot_mul": lambda: F.one_hot(T.tensor([0, 1]), 4) * x[:2], "F.conv1d": lambda: F.conv1d(x.unsqueeze(0), x.unsqueeze(2)[:, :, :]), "F.max_pool1d": lambda: F.max_pool1d(x.unsqueeze(0), 2), "F.avg_pool1d": lambda: F.avg_pool1d(x.unsqueeze(0), 2), "F.interp": lambda: F.interpolate(x.unsqueeze(0), scale_factor=2), "F.cos": lambda: F.cosine_similarity(x, x), "F.sdpa": lambda: F.scaled_dot_product_attention(x, x, x),
 "cat": lambda: T.cat([x, x]), "stack": lambda: T.stack([x, x]), "chunk": lambda: x.chunk(2)[0], "split": lambda: x.split(2)[0], "unbind": lambda: x.unbind()[0], "gather": lambda: x.gather(1, T.tensor([[0], [1], [2]])), "scatter": lambda: x.scatter(1, T.tensor([[0], [1], [2]]), 0.0), "index_select": lambda: x.index_select(0, i), "flip": lambda: x.flip(0), "roll": lambda: x.roll(1), "tril": lambda: x.tril(), "diag": lambda: x.diagonal(), "trace": lambda: x[:, :3].trace(), "einsum": lambda: T.einsum("ij,ij->i", x, x), "outer": lambda: T.outer(x[0], x[1]), "cross": lambda: T.linalg.cross(x[:, :3], x[:, 1:]),
 "to_double": lambda: x.double(), "to_same": lambda: x.float() * 1, "type_as": lambda: x.type_as(T.ones(1, dtype=T.float64)), "lerp": lambda: x.lerp(x * 2, 0.5), "addmm": lambda: T.addmm(x[:, :3], x, x.T[:, :3]), "addcmul": lambda: T.addcmul(x, x, x), "erf": lambda: x.erf(), "atan2": lambda: T.atan2(x, x + 2), "maximum": lambda: T.maximum(x, x * 2), "sign_mul": lambda: x.sign() * x, "round": lambda: x.round(), "floor": lambda: x.floor(), "frac": lambda: x.frac(), "rsqrt": lambda: (x.abs() + 1).rsqrt(), "reciprocal": lambda: (x + 2).reciprocal(),
 "det": lambda: T.linalg.det(x[:, :3]), "inv": lambda: T.linalg.inv(x[:, :3] + T.eye(3) * 3), "svd": lambda: T.linalg.svdvals(x), "cholesky": lambda: T.linalg.cholesky(x @ x.T + T.eye(3)), "solve": lambda: T.linalg.solve(x[:, :3] + T.eye(3) * 3, x[:, 0]), "vector_norm": lambda: T.linalg.vector_norm(x), "matrix_norm": lambda: T.linalg.matrix_norm(x),
 "inplace_add": lambda: x.clone().add_(1), "inplace_mul": lambda: x.clone().mul_(x), "inplace_relu": lambda: x.clone().relu_(), "setitem": lambda: (lambda y: (y.__setitem__(0, 5.0), y)[1])(x.clone()), "setitem_t": lambda: (lambda y: (y.__setitem__(i, x[:2]), y)[1])(x.clone()), "copy_": lambda: T.zeros(3, 4).copy_(x), "zero_": lambda: x.clone().zero_(), "fill_": lambda: x.clone().fill_(2), "masked_fill_": lambda: x.clone().masked_fill_(x > 0, 1.0), "clamp_": lambda: x.clone().clamp_(0, 1), "index_add_": lambda: x.clone().index_add_(0, i, x[:2]), "index_fill_": lambda: x.clone().index_fill_(0, i, 2.0), "scatter_add": lambda: x.scatter_add(1, T.tensor([[0], [1], [2]]), x[:, :1]),
}
for k, f in ops.items():
    try:
        out = f()
        print(k, type(out.grad_fn).__name__)
    except Exception as e:
        print(k, "!!", type(e).__name__)
''')


# -- known gaps (strict xfails in test_programs_qa_extra.py) -------------------------------

program("qa_gap_fft", r'''
import torch
x = torch.tensor([1.0, 2.0, 0.0, -1.0])
print(torch.fft.fft(x), torch.fft.rfft(x), torch.fft.irfft(torch.fft.rfft(x), n=4), torch.fft.fftfreq(4))
''')

program("qa_gap_inference_tensors", r'''
import torch
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.is_inference(), x.is_inference())
''')

program("qa_gap_autocast_cpu", r'''
import torch
lin = torch.nn.Linear(3, 2)
with torch.autocast("cpu", dtype=torch.bfloat16):
    print(lin(torch.ones(1, 3)).dtype)
''')

program("qa_more_distributions", r'''
import torch
from torch.distributions import Beta, Gamma, Dirichlet, Poisson, LogNormal
print(Beta(torch.tensor(2.0), torch.tensor(3.0)).log_prob(torch.tensor(0.4)), Gamma(2.0, 1.0).mean, Dirichlet(torch.ones(3)).log_prob(torch.tensor([0.2, 0.3, 0.5])), Poisson(3.0).log_prob(torch.tensor(2.0)), LogNormal(0.0, 1.0).log_prob(torch.tensor(1.5)))
''')

program("qa_gap_dtypes", r'''
import torch
print(torch.tensor([1.0], dtype=torch.float16) + 2j, torch.tensor([1, 2], dtype=torch.uint16))
''')

program("qa_gap_half_log_softmax", r'''
import torch
print(torch.linspace(-3, 3, 7, dtype=torch.float16).log_softmax(0))
''')

program("qa_gap_channels_last", r'''
import torch
x = torch.ones(1, 3, 4, 4).to(memory_format=torch.channels_last)
print(x.stride(), x.is_contiguous(memory_format=torch.channels_last))
''')
