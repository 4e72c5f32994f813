"""QA programs on utilities as users write them (continued from programs_qa_io.py):
torch.utils.checkpoint, torch.testing.assert_close, print options, einsum, torch.linalg,
torch.special, complex arithmetic, distances, and searching/counting/sorting.  Values are
printed rounded where the two libraries' LAPACK/ufunc paths may differ in the last bits.
XFAIL: the known gaps (strict)."""
from programs_registry import program

# program -> why it still differs under mindtorch
XFAIL = {}

program("qm_checkpoint_grads", r'''
import warnings
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
w = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
def block(x, scale=2.0):
    return torch.tanh(x @ w) * scale
x0 = torch.linspace(0, 1, 4, dtype=torch.float64).reshape(2, 2).requires_grad_()
ref = block(x0).sum()
gx, gw = torch.autograd.grad(ref, (x0, w))
for reentrant in (False, True):
    x = x0.detach().clone().requires_grad_()
    w.grad = None
    out = checkpoint(block, x, use_reentrant=reentrant)
    print(reentrant, out.requires_grad, type(out).__name__, round(out.sum().item(), 10))
    out.sum().backward()
    print(torch.allclose(x.grad, gx), torch.allclose(w.grad, gw))
    y = checkpoint(block, x, 3.0, use_reentrant=reentrant)
    print(round(y.sum().item(), 10))
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    xr = torch.ones(2, 2, dtype=torch.float64)
    out = checkpoint(block, xr, use_reentrant=True)
    print(out.requires_grad, len(ws) > 0)
out = checkpoint(block, torch.ones(2, 2, dtype=torch.float64), use_reentrant=False)
print(out.requires_grad, out.grad_fn is not None)
def two(a, b):
    return a * b, a + b
p, q = checkpoint(two, x0, torch.full((2, 2), 2.0, dtype=torch.float64), use_reentrant=False)
(p.sum() + q.sum()).backward()
print(x0.grad)
seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1)).double()
with torch.no_grad():
    for i, prm in enumerate(seq.parameters()):
        prm.copy_(torch.linspace(-0.5, 0.5, prm.numel(), dtype=torch.float64).reshape(prm.shape) * (i + 1))
inp = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
o = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
o.sum().backward()
print(o.detach().flatten().tolist(), inp.grad.flatten().tolist(),
      round(seq[0].weight.grad.sum().item(), 10))  # (a matmul's last bits: rounded)
with torch.no_grad():
    print(checkpoint(block, x0, use_reentrant=False).requires_grad)
''')

program("qm_assert_close_messages", r'''
import torch
from torch.testing import assert_close
def show(*a, **k):
    try:
        assert_close(*a, **k)
        print("ok")
    except Exception as e:
        print(type(e).__name__, "|", str(e).replace("\n", " | "))
show(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
show(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
show(torch.tensor([1, 2]), torch.tensor([1, 3]))
show(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
show(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64), check_dtype=False)
show(torch.ones(2), torch.ones(3))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]))
show(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
show(torch.tensor([1.0, 2.0]), torch.tensor([1.1, 2.0]), rtol=0.2, atol=0)
show(torch.tensor([1.0]), torch.tensor([1.1]), rtol=0.01)
try:
    assert_close(torch.tensor([1.0]), 1.0)
except TypeError as e:
    print("TypeError", str(e).split("<class")[0])
show(1.0, 1.0 + 1e-9)
show(1, 2)
show([torch.ones(2), torch.zeros(1)], [torch.ones(2), torch.ones(1)])
show({"a": torch.ones(1)}, {"b": torch.ones(1)})
show(torch.ones(2, 2), torch.ones(2, 2).t(), check_stride=True)
show(torch.ones(2, 2).t(), torch.ones(2, 2).t().contiguous(), check_stride=True)
show(torch.tensor([1 + 1j]), torch.tensor([1 + 1.5j]))
show(torch.zeros(3, 3), torch.eye(3))
show(torch.tensor([True, False]), torch.tensor([True, True]))
show(torch.ones(2, requires_grad=True), torch.ones(2))
show(torch.tensor([1.0]), torch.tensor([2.0]), msg="custom message")
''')

program("qm_printoptions", r'''
import torch
x = torch.tensor([1.123456789, 22.5, 1e-5, 3000.0])
print(x)
torch.set_printoptions(precision=2)
print(x, torch.tensor([0.5, 1.25]))
torch.set_printoptions(sci_mode=False)
print(x, torch.tensor([1e-8, 1.0]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.0, 2.0]))
torch.set_printoptions(precision=4, sci_mode=None, linewidth=40)
print(torch.arange(20.0) / 3)
torch.set_printoptions(profile="short")
print(torch.arange(2000.0).reshape(40, 50), torch.tensor([3.14159265]))
torch.set_printoptions(profile="full")
full = str(torch.arange(1100))
print(len(full), "..." in full, full[-60:])
torch.set_printoptions(profile="default")
print(torch.arange(1100.0), torch.tensor([3.14159265]))
torch.set_printoptions(threshold=5, edgeitems=1)
print(torch.arange(10), torch.arange(30).reshape(5, 6))
torch.set_printoptions(profile="default")
torch.set_printoptions(precision=6)
print(torch.tensor([1 / 3], dtype=torch.float64), torch.tensor([1 / 3 + 1j / 7]))
torch.set_printoptions(profile="default")
print(torch.tensor([1 / 3]))
''')

program("qm_einsum_forms", r'''
import torch
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.arange(3.0)
bt = torch.arange(24.0).reshape(2, 3, 4)
print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ij,jk", a, b).shape, torch.einsum("ii", torch.arange(9.0).reshape(3, 3)), torch.einsum("ii->i", torch.arange(9.0).reshape(3, 3)))
print(torch.einsum("i,i->", v, v), torch.einsum("i,j->ij", v, v), torch.einsum("ij->ji", a), torch.einsum("ij->", a), torch.einsum("ij->j", a))
print(torch.einsum("bij,bjk->bik", bt, bt.transpose(1, 2)).shape, torch.einsum("...ij->...ji", bt).shape, torch.einsum("b...,b...->b", bt, bt))
print(torch.einsum("i j , j k -> i k", a, b).sum(), torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).sum(), torch.einsum("ij,jk,kl->il", a, b, b.t()).shape)
print(torch.einsum("bhqd,bhkd->bhqk", torch.ones(1, 2, 3, 4), torch.ones(1, 2, 5, 4)).shape, torch.einsum("i,i", torch.tensor([1, 2]), torch.tensor([3, 4])), torch.einsum("ij,ij->ij", a, a).dtype)
print(torch.einsum("ij,j->i", [a, v]), torch.einsum("i->", torch.tensor([], dtype=torch.float32)), torch.einsum("ab,ab->a", a.double(), a.double()).dtype)
for eq, ops in (("ij,jk->ik", (a, a)), ("ij->k", (a,)), ("ij,jk", (a,)), ("iij->j", (a,)), ("ij->ii", (a,))):
    try:
        torch.einsum(eq, *ops)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
y = torch.linspace(0, 2, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
torch.einsum("ij,jk->", x, y).backward()
print(x.grad, torch.round(y.grad.sum(), decimals=8) + 0.0)
''')

program("qm_linalg_solvers", r'''
import torch
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]], dtype=torch.float64)
def r(t, n=6):
    return torch.round(t, decimals=n) + 0.0  # + 0.0: no sign of a rounded-away zero
X = torch.linalg.solve(A, B)
print(r(X), torch.allclose(A @ X, B), r(torch.linalg.solve(A, B[:, 0])), torch.linalg.solve(A, B[:, 0]).shape)
print(r(torch.linalg.solve(A, B.t(), left=False)), torch.linalg.solve(A.expand(2, 3, 3), B).shape)
print(r(torch.linalg.inv(A)), r(torch.linalg.det(A)), torch.linalg.slogdet(A), torch.linalg.slogdet(-A))
print(r(torch.det(torch.eye(3) * 2)), torch.linalg.det(torch.ones(2, 2)), torch.logdet(A).dtype, torch.logdet(-A))
L = torch.linalg.cholesky(A)
print(r(L), r(torch.linalg.cholesky(A, upper=True)), torch.allclose(L @ L.T, A), r(torch.cholesky_solve(B, L)), r(torch.cholesky_inverse(L)))
Q, R = torch.linalg.qr(B)
print(Q.shape, R.shape, torch.allclose(Q @ R, B), torch.linalg.qr(B, mode="complete").Q.shape, torch.linalg.qr(B, mode="r")[0].shape, torch.linalg.qr(B, mode="r")[1].shape)
ls = torch.linalg.lstsq(B, torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64))
print(type(ls).__name__, r(ls.solution), ls.residuals.shape, ls.rank, ls.singular_values.shape)
print(r(torch.linalg.pinv(B)), torch.linalg.matrix_rank(B), torch.linalg.matrix_rank(torch.ones(3, 3)), torch.linalg.matrix_rank(torch.zeros(2, 2)), torch.linalg.matrix_rank(A, hermitian=True))
for bad in (lambda: torch.linalg.inv(torch.zeros(2, 2)), lambda: torch.linalg.cholesky(-A), lambda: torch.linalg.solve(torch.ones(2, 3), torch.ones(2)), lambda: torch.linalg.inv(torch.ones(2, 3)), lambda: torch.linalg.det(torch.ones(3))):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
info = torch.linalg.inv_ex(torch.zeros(2, 2))
print(type(info).__name__, info.info, torch.linalg.cholesky_ex(-A).info)
print(torch.linalg.inv(torch.eye(2, dtype=torch.int64).float()).dtype)
try:
    torch.linalg.inv(torch.eye(2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qm_linalg_decomp_norms", r'''
import torch
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
def r(t, n=6):
    return torch.round(t, decimals=n) + 0.0  # + 0.0: no sign of a rounded-away zero
w, V = torch.linalg.eigh(A)
print(r(w), torch.allclose(V @ torch.diag(w) @ V.T, A), r(torch.linalg.eigvalsh(A)), torch.linalg.eigh(A, UPLO="U").eigenvalues.shape)
e = torch.linalg.eigvals(torch.tensor([[0.0, -1.0], [1.0, 0.0]]))
print(e.dtype, sorted(e.tolist(), key=lambda z: z.imag))
ev, evec = torch.linalg.eig(torch.tensor([[2.0, 0.0], [0.0, 3.0]]))
print(ev, evec.dtype, evec.abs())
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
print(r(S), U.shape, Vh.shape, torch.allclose(U @ torch.diag(S) @ Vh, M), torch.linalg.svd(M).U.shape, r(torch.linalg.svdvals(M)))
u, s, v = torch.svd(M)
print(u.shape, r(s), v.shape, torch.allclose(u @ torch.diag(s) @ v.T, M))
print(r(torch.linalg.norm(M)), r(torch.linalg.norm(M, "fro")), r(torch.linalg.norm(M, "nuc")), r(torch.linalg.norm(M, 2)), r(torch.linalg.norm(M, -2)), r(torch.linalg.norm(M, 1)), r(torch.linalg.norm(M, float("inf"))), r(torch.linalg.norm(M, -float("inf"))))
v3 = torch.tensor([3.0, -4.0, 0.0])
print(torch.linalg.norm(v3), torch.linalg.norm(v3, 1), torch.linalg.norm(v3, float("inf")), torch.linalg.norm(v3, 0), torch.linalg.norm(v3, -float("inf")), torch.linalg.vector_norm(v3, 3), torch.linalg.norm(M, dim=0), torch.linalg.norm(M, dim=1, keepdim=True).shape)
print(torch.linalg.vector_norm(M), torch.linalg.vector_norm(M, dim=(0, 1)), torch.linalg.matrix_norm(M), r(torch.linalg.matrix_norm(M, ord=2)), torch.linalg.vector_norm(torch.ones(2, dtype=torch.int64).float(), dtype=torch.float64).dtype)
print(torch.norm(M), torch.norm(M, p=1), torch.norm(M, dim=1), torch.norm(v3, p=2), torch.linalg.cond(torch.eye(2) * 3), r(torch.linalg.cond(A)))
for bad in (lambda: torch.linalg.norm(M, "fro", dim=0), lambda: torch.linalg.matrix_norm(v3), lambda: torch.linalg.norm(torch.ones(2, 2, 2), 2), lambda: torch.linalg.vector_norm(torch.ones(2, dtype=torch.int64))):
    try:
        print(bad())
    except RuntimeError as e:
        print("RuntimeError", e)
P, Lw, Up = torch.linalg.lu(A)
print(P, torch.allclose(P @ Lw @ Up, A), r(torch.linalg.lu_factor(A).LU), torch.linalg.lu_factor(A).pivots)
print(r(torch.linalg.matrix_power(A, 3)), torch.linalg.matrix_power(A, 0), r(torch.linalg.matrix_power(A, -1)), r(torch.linalg.matrix_exp(torch.zeros(2, 2))))
print(torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])), torch.linalg.vecdot(M, M), torch.linalg.multi_dot([M.T, M, torch.ones(2, 1, dtype=torch.float64)]), torch.linalg.diagonal(A))
''')

program("qm_special_functions", r'''
import torch
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0], dtype=torch.float64)
p = torch.tensor([0.5, 1.0, 2.5, 10.0], dtype=torch.float64)
def r(t):
    return torch.round(t, decimals=8)
sp = torch.special
print(r(sp.erf(x)), r(sp.erfc(x)), r(sp.erfinv(torch.tensor([-0.9, 0.0, 0.5], dtype=torch.float64))), r(sp.erfcx(x)))
print(r(sp.expit(x)), r(sp.logit(torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64))), r(sp.logit(torch.tensor([0.0, 1.0, 0.5]), eps=0.1)), r(sp.exp2(x)), r(sp.expm1(x)), r(sp.log1p(x[2:])))
print(r(sp.gammaln(p)), r(sp.digamma(p)), r(sp.psi(p)), r(sp.polygamma(1, p)), r(sp.polygamma(2, p)), r(sp.multigammaln(p + 1, 2)))
print(r(sp.i0(x)), r(sp.i0e(x)), r(sp.i1(x)), r(sp.i1e(x)), r(sp.ndtr(x)), r(sp.ndtri(torch.tensor([0.1, 0.5, 0.975], dtype=torch.float64))), r(sp.log_ndtr(x)))
print(r(sp.sinc(x)), r(sp.entr(torch.tensor([-1.0, 0.0, 0.5, 1.0], dtype=torch.float64))), r(sp.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0]))), r(sp.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 3.0]))))
print(r(sp.logsumexp(x, 0)), r(sp.softmax(x, 0)), r(sp.log_softmax(x, 0)), r(sp.round(x)), r(sp.zeta(torch.tensor([2.0, 3.0], dtype=torch.float64), torch.tensor([1.0, 2.0], dtype=torch.float64))))
print(r(sp.gammainc(p, p)), r(sp.gammaincc(p, p)), r(sp.bessel_j0(x)), r(sp.bessel_j1(x)))
print(sp.erf(torch.tensor([1, 2])).dtype, sp.expit(torch.tensor([0])).dtype, sp.gammaln(torch.tensor([0.0, -1.0])), sp.digamma(torch.tensor([0.0, -1.0])), sp.i0(torch.tensor([1], dtype=torch.int32)).dtype)
print(torch.lgamma(torch.tensor([0.5, 100.0])), torch.mvlgamma(torch.tensor([2.5]), 3), torch.sinc(torch.tensor([0.0, 0.5])), torch.xlogy(2, torch.tensor([4.0])), torch.special.xlogy(torch.tensor([0.0]), float("nan")))
''')

program("qm_complex_arith", r'''
import torch
z = torch.tensor([1 + 2j, -3 + 0.5j, 0j, 2 - 2j])
w = torch.tensor([0.5 - 1j, 1j, 2 + 0j, -1 - 1j])
print(z, z.dtype, z + w, z * w, z / torch.tensor([1 + 1j, 2j, 1 + 0j, 1j]), z - 1, z * 2.5, 1j * z)
print(z.real, z.imag, z.abs(), z.angle(), z.conj(), torch.conj_physical(z), z.sgn(), (z ** 2), z.exp(), z.sqrt())
print(torch.view_as_real(z), torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.complex(torch.tensor([1.0]), torch.tensor([-1.0])), torch.polar(torch.tensor([2.0]), torch.tensor([0.0])))
print(z.sum(), z.mean(), z.prod(), torch.dot(z, w), torch.vdot(z, w), z @ w, z.reshape(2, 2) @ w.reshape(2, 2))
print(z.to(torch.complex128), (z + torch.tensor(1.0, dtype=torch.float64)).dtype, (torch.tensor([1], dtype=torch.int32) * z).dtype, torch.tensor(2.0) * z, (z == w), z.isfinite(), z.isnan())
print(torch.tensor([1e10 + 1e-10j, 1.5 + 0j]), torch.tensor([1.0 + 0j], dtype=torch.complex128), torch.tensor([float("inf") + 1j, complex(float("nan"), 0)]), torch.zeros(2, dtype=torch.complex64), torch.tensor(3 - 4j))
print(torch.tensor([[1 + 1j, 100.25 - 3j], [0.001j, -2]]), torch.ones(2, 2, dtype=torch.complex64) * (1 / 3 + 0.2j))
for bad in (lambda: z < w, lambda: z.max(), lambda: torch.sort(z), lambda: z.clamp(0, 1), lambda: torch.view_as_real(torch.ones(2))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
zz = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
(zz * zz.conj()).real.sum().backward()
print(zz.grad, z.abs().dtype, z.item() if z.numel() == 1 else z[0].item(), torch.linalg.norm(z), complex(z[1]))
''')

program("qm_distances", r'''
import torch
a = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]], dtype=torch.float64)
b = torch.tensor([[1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
def r(t):
    return torch.round(t, decimals=8)
print(r(torch.cdist(a, b)), r(torch.cdist(a, b, p=1)), r(torch.cdist(a, b, p=float("inf"))), r(torch.cdist(a, b, p=0)), r(torch.cdist(a, b, p=3)))
print(torch.cdist(a.unsqueeze(0).expand(2, 3, 2), b).shape, torch.cdist(a.float(), b.float(), compute_mode="use_mm_for_euclid_dist").dtype, torch.cdist(torch.zeros(0, 2), b.float()).shape)
print(r(torch.pdist(a)), r(torch.pdist(a, p=1)), torch.pdist(a[:1]).shape, r(torch.pdist(a, p=float("inf"))))
print(r(torch.cosine_similarity(a, torch.ones(3, 2, dtype=torch.float64))), r(torch.nn.functional.cosine_similarity(a, a[1:2], dim=1)), r(torch.cosine_similarity(a, a, dim=0)), r(torch.cosine_similarity(torch.zeros(2), torch.ones(2), dim=0)))
print(r(torch.nn.functional.pairwise_distance(a, torch.ones(3, 2, dtype=torch.float64))), r(torch.nn.functional.pairwise_distance(a, a, p=1, eps=0)), r(torch.dist(a, torch.zeros(3, 2, dtype=torch.float64))), r(torch.dist(a, a + 1, p=1)))
x = a.clone().requires_grad_()
torch.cdist(x, b).sum().backward()
print(r(x.grad))
y = a.clone().requires_grad_()
torch.pdist(y).sum().backward()
print(r(y.grad))
c = a.clone().requires_grad_()
torch.cosine_similarity(c, b[:1]).sum().backward()
print(r(c.grad))
for bad in (lambda: torch.cdist(a, torch.ones(2, 3, dtype=torch.float64)), lambda: torch.cdist(a, b, p=-1), lambda: torch.pdist(torch.ones(2, 2, 2)), lambda: torch.cdist(torch.ones(2), b)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
''')

program("qm_bucketize_search_hist", r'''
import torch
bnd = torch.tensor([1, 3, 5, 7, 9])
v = torch.tensor([[3, 6, 9], [0, 1, 10]])
print(torch.bucketize(v, bnd), torch.bucketize(v, bnd, right=True), torch.bucketize(v, bnd, out_int32=True).dtype, torch.bucketize(4, bnd), torch.bucketize(torch.tensor(4.5), bnd.double()))
ss = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
print(torch.searchsorted(ss, torch.tensor([[3, 6, 9], [3, 6, 9]])), torch.searchsorted(ss, torch.tensor([[3, 6, 9], [3, 6, 9]]), right=True), torch.searchsorted(bnd, 5, side="right"), torch.searchsorted(bnd, torch.tensor([5]), side="left"))
uns = torch.tensor([5, 1, 9, 3])
print(torch.searchsorted(uns, torch.tensor([4, 6]), sorter=torch.argsort(uns)), torch.searchsorted(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])))
for bad in (lambda: torch.searchsorted(bnd, 3, side="middle"), lambda: torch.searchsorted(bnd, 3, side="left", right=True), lambda: torch.searchsorted(ss, torch.tensor([1, 2])), lambda: torch.bucketize(v, ss)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
h = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0, 4.0])
print(torch.histc(h, bins=4), torch.histc(h, bins=4, min=0, max=3), torch.histc(torch.tensor([2.0, 2.0]), bins=3), torch.histc(torch.tensor([]), bins=2), torch.histc(h.double(), bins=2).dtype)
hv = torch.histogram(h, bins=3)
print(type(hv).__name__, hv.hist, hv.bin_edges, torch.histogram(h, torch.tensor([0.0, 1.0, 5.0])).hist, torch.histogram(h, bins=2, range=(0.0, 2.0), density=True).hist)
print(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.bincount(torch.tensor([0, 1, 1, 3]), minlength=6), torch.bincount(torch.tensor([1, 1]), weights=torch.tensor([0.5, 0.25])), torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([2]), weights=torch.tensor([1.0], dtype=torch.float64)).dtype)
for bad in (lambda: torch.bincount(torch.tensor([-1, 2])), lambda: torch.bincount(torch.tensor([1.0])), lambda: torch.bincount(torch.tensor([[1]])), lambda: torch.histc(torch.tensor([1, 2]), bins=2), lambda: torch.histc(h, bins=2, min=3, max=1)):
    try:
        print(bad())
    except RuntimeError as e:
        print("RuntimeError", e)
''')

program("qm_unique_sort_topk", r'''
import torch
x = torch.tensor([3, 1, 2, 3, 1, 3, 0])
print(torch.unique(x), torch.unique(x, return_counts=True), torch.unique(x, return_inverse=True), torch.unique(x, sorted=True, return_inverse=True, return_counts=True))
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 5]])
print(torch.unique(m, dim=0), torch.unique(m, dim=0, return_counts=True, return_inverse=True), torch.unique(m, dim=1), torch.unique(torch.tensor([[2, 1, 2], [4, 3, 4]]), dim=1, return_inverse=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1])), torch.unique_consecutive(torch.tensor([1, 1, 2, 1]), return_counts=True, return_inverse=True), torch.unique(torch.tensor([float("nan"), 1.0, float("nan")])), torch.unique(torch.tensor([], dtype=torch.long), return_counts=True))
print(x.unique(return_counts=True)[1].dtype, torch.unique(torch.tensor([True, False, True])), torch.unique(torch.tensor([2.5, -0.0, 0.0])))
s = torch.tensor([2, 1, 2, 1, 0, 2, 1])
print(torch.sort(s, stable=True), torch.sort(s, descending=True, stable=True), torch.argsort(s, stable=True), torch.sort(torch.tensor([[3, 1], [1, 1]]), dim=0, stable=True))
f = torch.tensor([1.0, float("nan"), -1.0, float("inf"), -float("inf"), 0.0, -0.0])
print(torch.sort(f), torch.sort(f, descending=True).values, torch.argsort(f, stable=True), torch.sort(torch.tensor([True, False, True]), stable=True))
t = torch.tensor([5, 1, 5, 3, 5, 1])
print(torch.topk(t, 2), torch.topk(t, 3, largest=False), torch.topk(t, 6).values, torch.topk(torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]), 1, dim=1), torch.topk(t, 0), torch.topk(f[[0, 2, 5]], 2).values)
print(torch.kthvalue(t, 2), torch.kthvalue(torch.tensor([[3.0, 1.0], [2.0, 2.0]]), 1, dim=1, keepdim=True), torch.msort(torch.tensor([[2, 1], [1, 3]])))
for bad in (lambda: torch.topk(t, 7), lambda: torch.kthvalue(t, 0), lambda: torch.unique(m, dim=2), lambda: torch.topk(t, 1, dim=1)):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
''')

program("qm_checkpoint_options", r'''
import warnings
import torch
from torch.utils.checkpoint import checkpoint
lin = torch.nn.Linear(3, 3).double()
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-1, 1, 9, dtype=torch.float64).reshape(3, 3))
    lin.bias.zero_()
x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
def f(t, scale=1.0):
    return torch.relu(lin(t)) * scale
try:
    checkpoint(f, x, scale=2.0, use_reentrant=True)
except ValueError as e:
    print("ValueError", e)
out = checkpoint(f, x, scale=2.0, use_reentrant=False)
out.sum().backward()
print(x.grad, lin.weight.grad.sum().item())
try:
    checkpoint(f, x)
except Exception as e:
    print(type(e).__name__, str(e)[:90])
drop = torch.nn.Dropout(0.5)
def g(t):
    return drop(t * 1.0)
y = torch.ones(200, dtype=torch.float64, requires_grad=True)
for reentrant in (False, True):
    y.grad = None
    o = checkpoint(g, y, use_reentrant=reentrant, preserve_rng_state=True)
    o.sum().backward()
    print(reentrant, torch.equal(y.grad, (o != 0).double() * 2), 40 < int((o == 0).sum()) < 160)
calls = []
def counted(t):
    calls.append(1)
    return t.sin()
z = torch.ones(2, requires_grad=True)
checkpoint(counted, z, use_reentrant=False).sum().backward()
print(len(calls))
calls.clear()
with torch.no_grad():
    r = checkpoint(counted, z, use_reentrant=False)
print(len(calls), r.requires_grad)
def nested(t):
    return checkpoint(torch.cos, t, use_reentrant=False) * 2
w = torch.tensor([0.5, 1.0], requires_grad=True)
checkpoint(nested, w, use_reentrant=False).sum().backward()
print(w.grad)
def returns_tuple(t):
    return t * 2, 5, None
a, n, none = checkpoint(returns_tuple, w, use_reentrant=False)
print(a, n, none)
''')

program("qm_assert_close_more", r'''
import numpy as np
import torch
from torch.testing import assert_close, make_tensor
def show(*a, **k):
    try:
        assert_close(*a, **k)
        print("ok")
    except Exception as e:
        print(type(e).__name__, "|", str(e).replace("\n", " | "))
show(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
show(np.array([1.0, 2.0]), np.array([1.0, 3.0]))
try:
    assert_close(torch.tensor([1.0]), np.array([1.0]))
except TypeError as e:
    print("TypeError", str(e).split("<class")[0])
show(torch.tensor(1.0), torch.tensor([1.0]))
show(torch.tensor([1.0, 2.0]).half(), torch.tensor([1.0, 2.001]).half())
show(torch.tensor([1.0, 2.0]).bfloat16(), torch.tensor([1.0, 2.01]).bfloat16())
show(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1, 2], dtype=torch.int16), check_dtype=False)
show(torch.tensor([100000.0]), torch.tensor([100001.0]))
show(torch.tensor([float("inf")]), torch.tensor([float("inf")]))
show(torch.tensor([float("inf")]), torch.tensor([-float("inf")]))
show(torch.tensor([1e-8]), torch.tensor([0.0]))
show(torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0]), torch.tensor([0.1, 1.2, 2.0, 3.5, 4.0]))
show(torch.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4) + torch.eye(3, 4) * 1e-3)
show((1.0, 2.0), [1.0, 2.0])
show([1, 2], [1, 2, 3])
show("a", "a")
show(None, None)
show(torch.tensor([1.0]), torch.tensor([1.0]), atol=1e-3, rtol=0)
show(torch.tensor([1.0]), torch.tensor([1.5]), msg=lambda m: "wrapped: " + m.splitlines()[0])
show(torch.ones(2), torch.ones(2), check_device=False, check_layout=False)
t = make_tensor((2, 3), dtype=torch.float32, device="cpu", low=-1, high=1)
print(t.shape, t.dtype, bool((t >= -1).all() and (t < 1).all()), make_tensor((4,), dtype=torch.int64, device="cpu", low=0, high=3).dtype, make_tensor((), dtype=torch.bool, device="cpu").dtype)
print(make_tensor((2, 2), dtype=torch.float64, device="cpu", requires_grad=True).requires_grad, make_tensor((3, 4), dtype=torch.float32, device="cpu", noncontiguous=True).is_contiguous())
''')

program("qm_linalg_batched_empty_grads", r'''
import torch
def r(t, n=6):
    return torch.round(t, decimals=n) + 0.0
A = torch.tensor([[[2.0, 1.0], [1.0, 3.0]], [[4.0, -1.0], [0.5, 1.0]]], dtype=torch.float64)
b = torch.tensor([[1.0], [2.0]], dtype=torch.float64)
print(r(torch.linalg.solve(A, b)), torch.linalg.solve(A, b).shape, r(torch.linalg.det(A)), r(torch.linalg.inv(A)).shape)
print(torch.linalg.det(torch.zeros(0, 0)), torch.linalg.inv(torch.zeros(0, 0)).shape, torch.linalg.det(torch.zeros(3, 0, 0)), torch.linalg.slogdet(torch.zeros(0, 0)))
print(torch.linalg.svdvals(torch.zeros(0, 3)).shape, torch.linalg.svd(torch.zeros(2, 0)).U.shape, torch.linalg.eigh(torch.zeros(0, 0)).eigenvalues.shape, torch.linalg.qr(torch.zeros(3, 0)).Q.shape, torch.linalg.norm(torch.zeros(0)))
print(torch.linalg.matrix_rank(torch.zeros(0, 3)), torch.linalg.pinv(torch.zeros(0, 2)).shape, torch.linalg.cholesky(torch.zeros(0, 0)).shape, torch.linalg.solve(torch.zeros(0, 0), torch.zeros(0, 2)).shape)
print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(torch.tensor([[1.0, 0.0], [0.0, 1e-10]]), atol=1e-5), torch.linalg.matrix_rank(torch.tensor([[1.0, 0.0], [0.0, 1e-3]]), rtol=0.01), torch.linalg.matrix_rank(torch.diag(torch.tensor([1.0, 1e-9])), tol=1e-6))
print(r(torch.linalg.pinv(torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64))), r(torch.linalg.pinv(torch.tensor([[2.0, 1.0], [1.0, 2.0]], dtype=torch.float64), hermitian=True)))
T = torch.tensor([[2.0, 0.0], [1.0, 4.0]], dtype=torch.float64)
print(r(torch.linalg.solve_triangular(T, b, upper=False)), r(torch.linalg.solve_triangular(T.t(), b, upper=True)), r(torch.linalg.solve_triangular(T, b.t(), upper=False, left=False)), r(torch.linalg.solve_triangular(T, b, upper=False, unitriangular=True)))
sol = torch.triangular_solve(b, T, upper=False)
print(type(sol).__name__, r(sol.solution), torch.equal(sol.cloned_coefficient, T))
ls = torch.linalg.lstsq(torch.tensor([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]), torch.tensor([1.0, 2.0, 2.0]).unsqueeze(1), driver="gelsd")
print(r(ls.solution, 4), r(ls.residuals, 4), ls.rank, r(ls.singular_values, 4))
M = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
for name, fn in (("det", torch.linalg.det), ("inv", lambda m: torch.linalg.inv(m).sum()), ("slogdet", lambda m: torch.linalg.slogdet(m).logabsdet), ("solve", lambda m: torch.linalg.solve(m, b).sum()), ("eigvalsh", lambda m: torch.linalg.eigvalsh(m).pow(2).sum()), ("cholesky", lambda m: torch.linalg.cholesky(m).sum()), ("norm_nuc", lambda m: torch.linalg.matrix_norm(m, "nuc")), ("svdvals", lambda m: torch.linalg.svdvals(m).sum()), ("pinv", lambda m: torch.linalg.pinv(m).sum()), ("qr", lambda m: torch.linalg.qr(m).R.sum()), ("matrix_exp", lambda m: torch.linalg.matrix_exp(m).sum())):
    g, = torch.autograd.grad(fn(M), M)
    print(name, r(g).tolist())
print(torch.linalg.norm(torch.tensor([[1.0, 2.0]]), ord=None, dim=(0, 1)), torch.linalg.norm(torch.tensor([3.0, 4.0]), 2.5), torch.linalg.vector_norm(torch.tensor([[3.0, 4.0]]), ord=1, dim=-1, keepdim=True), torch.linalg.norm(torch.tensor([1 + 1j, 1 - 1j])))
''')

program("qm_complex_views_grads_print", r'''
import torch
z = torch.tensor([1 + 2j, 3 - 1j])
r = z.real
r[0] = 10
print(z, z.imag._base is z if hasattr(z.imag, "_base") else None, z.real.stride(), z.imag.storage_offset())
z.imag.mul_(2)
print(z)
try:
    torch.ones(2).imag
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.ones(2).real, torch.tensor([1 + 0j]).abs().dtype, torch.tensor([0j]).angle(), torch.tensor([-1 + 0j]).angle(), torch.tensor([-1.0]).angle(), torch.tensor([1, -2]).angle())
print(torch.tensor([1 + 1j]) / 0, torch.tensor([0j]) / 0, torch.tensor([1 + 0j]) ** 0.5, torch.tensor([-4 + 0j]).sqrt(), torch.tensor([-1.0]).sqrt(), torch.tensor([1j]) ** 2, torch.tensor([2 + 0j]) ** torch.tensor([1j]))
print(torch.tensor([-0.0 - 0.0j]), torch.tensor([1e-5 + 1e5j]), torch.tensor([1.5 - 0.25j], dtype=torch.complex128), torch.randn(0, dtype=torch.complex64), torch.tensor([[1 + 1j]]).t(), torch.eye(2, dtype=torch.complex64))
w = torch.tensor([3 + 4j, 1 - 1j], requires_grad=True)
w.abs().sum().backward()
print(w.grad)
w.grad = None
(w * w).real.sum().backward()
print(w.grad)
w.grad = None
torch.view_as_real(w * 1j).sum().backward()
print(w.grad)
w.grad = None
w.angle().sum().backward()
print(torch.round(torch.view_as_real(w.grad), decimals=6))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.complex(x, x * 2)
(y * y.conj()).real.sum().backward()
print(x.grad, y.dtype, torch.tensor(1 + 1j).item(), complex(torch.tensor(2.5 + 0j)), torch.tensor([1 + 1j]).tolist(), torch.tensor(1j).dtype)
print(torch.tensor([1.0, 2.0]) + 1j, (torch.tensor([1, 2]) * 1j).dtype, torch.tensor([1.0], dtype=torch.float64) * 1j, torch.full((2,), 1j), torch.zeros(1) + torch.tensor(1j, dtype=torch.complex128))
print(torch.fft.fft(torch.tensor([1.0, 0.0, 0.0, 0.0])) if hasattr(torch, "fft") else None)
''')

program("qm_unique_search_more", r'''
import torch
x = torch.tensor([3, 1, 2, 3, 1, 3, 0])
u, inv, cnt = torch.unique(x, sorted=False, return_inverse=True, return_counts=True)
print(sorted(u.tolist()), torch.equal(u[inv], x), dict(zip(u.tolist(), cnt.tolist())) == {0: 1, 1: 2, 2: 1, 3: 3})
f = torch.tensor([[1.0, float("nan")], [1.0, float("nan")]])
print(torch.unique(f), torch.unique(f, dim=0), torch.unique(torch.tensor([[1, 2], [1, 2]]), dim=0, return_inverse=True, return_counts=True))
print(torch.unique(torch.zeros(0, 3), dim=0), torch.unique(torch.zeros(2, 0), dim=1), torch.unique(torch.tensor(5)), torch.unique(torch.tensor(5), return_inverse=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 2]]), dim=0, return_counts=True), torch.unique_consecutive(torch.tensor([]), return_inverse=True))
print(torch.searchsorted(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([[0.5, 2.0], [3.5, 2.5]])), torch.searchsorted(torch.tensor([1, 2, 3]), torch.tensor([2.5])), torch.searchsorted(torch.tensor([1, 2, 3]), 2, out_int32=True))
print(torch.bucketize(torch.tensor([1.0, 2.0]), torch.tensor([])), torch.searchsorted(torch.tensor([[]]), torch.tensor([[1.0]])), torch.bucketize(torch.tensor([[5]]), torch.tensor([1, 5, 5, 9]), right=True))
print(torch.histc(torch.tensor([0.0, 1.0, 1.0, 2.0]), bins=2, min=0, max=0), torch.histc(torch.tensor([-5.0, 5.0, 0.5]), bins=2, min=0, max=1), torch.histc(torch.tensor([float("nan"), 1.0]), bins=2, min=0, max=2))
hw = torch.histogram(torch.tensor([0.5, 1.5, 1.5]), bins=2, range=(0.0, 2.0), weight=torch.tensor([1.0, 2.0, 0.5]))
print(hw.hist, hw.bin_edges, torch.histogram(torch.tensor([1.0, 2.0], dtype=torch.float64), bins=2).hist.dtype)
hd = torch.histogramdd(torch.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, 0.9]]), bins=[2, 2])
print(hd.hist, hd.bin_edges)
print(torch.bincount(torch.tensor([1, 1, 2]), weights=torch.tensor([0.5, 0.5, 1.0])).dtype, torch.bincount(torch.tensor([0, 0]), weights=torch.tensor([1, 2])), torch.bincount(torch.tensor([3], dtype=torch.int8)), torch.bincount(torch.tensor([0, 1]), weights=torch.tensor([1.0, 2.0], dtype=torch.float16)).dtype)
t = torch.tensor([[1, 1, 1, 1], [2, 2, 1, 1]])
print(torch.topk(t, 2, dim=1), torch.topk(torch.ones(6), 3).indices, torch.topk(torch.tensor([float("nan"), 1.0, float("nan")]), 2), torch.topk(torch.tensor([1, 2, 3]), 2, sorted=False).values.sort().values)
print(torch.sort(torch.tensor([[2, 1, 2], [1, 1, 0]]), dim=-1, descending=True, stable=True), torch.sort(torch.ones(5), stable=True).indices, torch.sort(torch.tensor([3, 3, 1, 1]), descending=True).indices)
print(torch.argsort(torch.tensor([0.0, -0.0, 0.0]), stable=True), torch.sort(torch.tensor([1, 2], dtype=torch.uint8), descending=True), torch.sort(torch.tensor(3)), torch.sort(torch.tensor([]), descending=True))
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.median(torch.tensor([1.0, 2.0, 3.0, 4.0])), torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0])), torch.median(torch.tensor([[1, 5], [3, 3]]), dim=1))
''')

program("qm_einsum_special_more", r'''
import torch
a = torch.arange(6.0).reshape(2, 3)
print(torch.einsum("...", torch.tensor(3.0)), torch.einsum("i...->...", a), torch.einsum("...j,j", a, torch.ones(3)), torch.einsum("ij,ij->", a, a), torch.einsum("ijk->kji", torch.arange(8.0).reshape(2, 2, 2)).shape)
print(torch.einsum("i,j,k->ijk", torch.ones(2), torch.ones(3), torch.arange(2.0)).sum(), torch.einsum("bn,anm,bm->ba", torch.ones(2, 3), torch.ones(4, 3, 5), torch.ones(2, 5)), torch.einsum("ii->", torch.ones(0, 0)))
print(torch.einsum("ij,jk->ik", torch.ones(2, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)), torch.einsum("i,i->i", torch.tensor([1 + 1j]), torch.tensor([1 - 1j])), torch.einsum("Ab,bC->AC", a, a.t()))
print(torch.einsum("ij,jk", torch.ones(2, 1), torch.ones(3, 2)) if False else torch.einsum("ij,jk", torch.ones(2, 1), torch.ones(1, 2)), torch.einsum("ii->i", torch.ones(2, 2, dtype=torch.bool)))
for eq, ops in (("ij,jk->ik", (a, torch.ones(3, 2, dtype=torch.float64))), ("i->i", (torch.ones(2), torch.ones(2))), ("i?->i", (a,)), ("ij->i->j", (a,)), ("...ij,...jk", (torch.ones(2, 2, 3), torch.ones(3, 3, 2)))):
    try:
        print(torch.einsum(eq, *ops).shape)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
sp = torch.special
x = torch.tensor([0.5, 1.0, 4.0], dtype=torch.float32)
print(sp.softmax(torch.tensor([1, 2, 3]), 0, dtype=torch.float64), sp.log_softmax(x, 0, dtype=torch.float64).dtype, sp.logsumexp(torch.tensor([[0.0, -float("inf")]]), 1), sp.logsumexp(torch.tensor([-float("inf"), -float("inf")]), 0))
print(sp.xlogy(torch.tensor([0.0, 1.0]), torch.tensor([float("nan"), 0.0])), sp.xlog1py(0.0, torch.tensor([-1.0])), sp.entr(torch.tensor([0.0])), sp.logit(torch.tensor([0.25], dtype=torch.float64)), sp.erfinv(torch.tensor([1.0, -1.0, 2.0])))
print(sp.polygamma(0, torch.tensor([1.0])), sp.polygamma(3, torch.tensor([1.0, 2.0], dtype=torch.float64)), sp.multigammaln(torch.tensor([3.0]), 3), sp.zeta(2.0, torch.tensor([1.0])), sp.zeta(torch.tensor([2.0]), 1.0))
try:
    sp.multigammaln(torch.tensor([0.5]), 3)
except RuntimeError as e:
    print("RuntimeError", e)
print(sp.i0(torch.tensor([0.0, 10.0, -10.0])), sp.i1(torch.tensor([100.0])), sp.i0e(torch.tensor([1000.0])), sp.ndtri(torch.tensor([0.0, 1.0])), sp.log_ndtr(torch.tensor([-40.0, 40.0], dtype=torch.float64)))
print(sp.gammaln(torch.tensor([1e-30, 1e30])), sp.digamma(torch.tensor([1e-8, -0.5])), sp.erfcx(torch.tensor([-30.0, 30.0, 1e5])), sp.sinc(torch.tensor([1e-20, 3.0])), sp.expm1(torch.tensor([1e-10])), sp.log1p(torch.tensor([-1.0, -2.0])))
g = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
for name in ("erf", "erfc", "erfinv", "gammaln", "digamma", "i0", "i0e", "i1", "i1e", "ndtr", "log_ndtr", "expit", "logit", "sinc", "entr", "erfcx", "ndtri"):
    try:
        v = getattr(sp, name)(g if name not in ("erfinv", "logit", "ndtri") else g / 4)
        gr, = torch.autograd.grad(v.sum(), g)
        print(name, torch.round(gr, decimals=8).tolist())
    except Exception as e:
        print(name, type(e).__name__)
''')

program("qm_printoptions_more", r'''
import torch
torch.set_printoptions(linewidth=30)
print(torch.arange(12).reshape(2, 6) * 1000, torch.tensor([True, False] * 8), torch.arange(-5, 5, dtype=torch.int8))
print(torch.linspace(-1, 1, 8, requires_grad=True) * 2)
torch.set_printoptions(profile="default")
torch.set_printoptions(precision=1, sci_mode=False)
print(torch.tensor([[1e6, 1e-6], [float("nan"), -float("inf")]]), torch.tensor([0.05, 0.15, 0.25, 2.55]), torch.tensor([123456789.0]))
torch.set_printoptions(precision=8)
print(torch.tensor([1 / 3]), torch.tensor([1 / 3], dtype=torch.float64), torch.tensor([1 / 3], dtype=torch.float16), torch.tensor([0.1, 100.0]))
torch.set_printoptions(profile="default")
torch.set_printoptions(threshold=3, edgeitems=2)
print(torch.arange(5.0), torch.zeros(2, 2, 5), torch.arange(4))
torch.set_printoptions(profile="default")
torch.set_printoptions(sci_mode=True, precision=3)
print(torch.tensor([0.0, 1.0]), torch.tensor([1 + 2j]), torch.tensor(5.0), torch.tensor([1, 2]))
torch.set_printoptions(profile="default")
for v in ([1e-4, 1.0], [1e-5, 1.0], [1e8, 1.0], [1e7, 1.0], [0.0001, 0.0002], [1e16], [123.456, 0.001], [-0.0, 0.0], [1e-10, 1e10]):
    print(torch.tensor(v), torch.tensor(v, dtype=torch.float64))
print(torch.tensor([2.0 ** 60]), torch.tensor([10 ** 12]), torch.tensor([float("nan"), 1.5]), torch.tensor([float("inf"), -float("inf"), 3.0]), torch.tensor([1e-320], dtype=torch.float64))
''')

program("qm_linalg_extras", r'''
import torch
def r(t, n=6):
    return torch.round(t, decimals=n) + 0.0
A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], dtype=torch.float64)
b = torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64)
LU, piv = torch.linalg.lu_factor(A)
print(r(torch.linalg.lu_solve(LU, piv, b)), r(torch.linalg.lu_solve(LU, piv, b, adjoint=True)), r(torch.lu_solve(b, LU, piv)))
Pm, Lm, Um = torch.lu_unpack(LU, piv)
print(torch.allclose(Pm @ Lm @ Um, A), r(Lm), Pm.dtype)
ld, pv = torch.linalg.ldl_factor(A)
print(r(torch.linalg.ldl_solve(ld, pv, b)), pv.dtype)
h = torch.linalg.householder_product(torch.tensor([[1.0, 0.0], [0.5, 1.0], [0.2, 0.3]], dtype=torch.float64), torch.tensor([1.2, 0.4], dtype=torch.float64))
print(r(h))
T = torch.arange(1.0, 17.0, dtype=torch.float64).reshape(4, 2, 2) + torch.eye(4, dtype=torch.float64).reshape(4, 2, 2)
print(torch.linalg.tensorinv(T, ind=1).shape, r(torch.linalg.tensorsolve(torch.eye(6, dtype=torch.float64).reshape(2, 3, 6), torch.ones(2, 3, dtype=torch.float64))))
print(torch.linalg.vander(torch.tensor([1, 2, 3])), torch.linalg.vander(torch.tensor([1.0, 2.0]), N=4), torch.vander(torch.tensor([1, 2, 3]), N=2, increasing=True))
ev = torch.linalg.eigvals(torch.tensor([[1.0, 2.0], [-2.0, 1.0]], dtype=torch.complex128))
print(sorted([(round(z.real, 6), round(z.imag, 6)) for z in ev.tolist()]), torch.linalg.eigvalsh(torch.tensor([[2.0, 1j], [-1j, 2.0]])).dtype)
H = torch.tensor([[2.0, 1 - 1j], [1 + 1j, 3.0]], dtype=torch.complex128)
print(r(torch.linalg.eigvalsh(H)), r(torch.view_as_real(torch.linalg.cholesky(H))), r(torch.view_as_real(torch.linalg.inv(H))), r(torch.view_as_real(torch.linalg.det(H))))
print(torch.linalg.matrix_norm(torch.ones(2, 3, 3), ord="fro"), r(torch.linalg.matrix_norm(torch.arange(18.0).reshape(2, 3, 3), ord=2), 3), torch.linalg.norm(torch.ones(2, 2, 2), dim=(1, 2)))
print(torch.linalg.solve_ex(A, b).info, torch.linalg.lu_factor_ex(A).info, torch.linalg.ldl_factor_ex(A).info, torch.linalg.inv_ex(A).inverse.shape)
print(torch.linalg.cross(torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[4.0, 5.0, 6.0], [1.0, 0.0, 0.0]])), torch.cross(torch.eye(3), torch.ones(3, 3), dim=1))
for bad in (lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)), lambda: torch.linalg.lu_solve(LU, piv, torch.ones(2, 1, dtype=torch.float64)), lambda: torch.linalg.tensorinv(T, ind=0), lambda: torch.linalg.vander(torch.tensor(1.0))):
    try:
        print(bad())
    except RuntimeError as e:
        print("RuntimeError", e)
''')

program("qm_sort_topk_dtypes", r'''
import torch
for dt in (torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.float64, torch.bool):
    x = torch.tensor([3, 1, 2, 3, 0, 1], dtype=dt)
    print(dt, torch.sort(x, stable=True).indices.tolist(), torch.sort(x, descending=True, stable=True).indices.tolist(), torch.argsort(x, stable=True).tolist(), x.unique().tolist(), torch.unique(x, return_counts=True)[1].tolist())
    if dt is not torch.bool:
        print(torch.topk(x, 3).values.tolist(), torch.topk(x, 2, largest=False).indices.tolist(), torch.kthvalue(x, 3).values.item(), torch.msort(x).tolist(), torch.searchsorted(torch.sort(x).values, torch.tensor([2], dtype=dt)).tolist(), x.max().item(), x.argmax().item(), x.argmin().item())
h = torch.tensor([1.0, float("nan"), -1.0, float("nan")], dtype=torch.float16)
print(torch.sort(h), torch.topk(h, 2), torch.sort(h, descending=True).indices, h.argmax(), h.argmin(), h.max(), torch.unique(h))
m = torch.tensor([[3.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
print(torch.sort(m, dim=0, descending=True), torch.topk(m, 2, dim=0), torch.argsort(m.t(), dim=1, stable=True), torch.sort(m.t(), dim=0).indices.stride())
''')

program("qm_special_polynomials_bessel", r'''
import torch
sp = torch.special
x = torch.tensor([-1.5, -0.5, 0.0, 0.3, 1.0, 2.5, 7.0], dtype=torch.float64)
def r(t):
    return torch.round(t, decimals=7) + 0.0
for name in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"):
    print(name, r(getattr(sp, name)(x)).tolist())
n = torch.tensor([0, 1, 2, 3, 5], dtype=torch.float64)
u = torch.tensor([0.5], dtype=torch.float64)
for name in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u"):
    print(name, r(getattr(sp, name)(u, n)).tolist(), r(getattr(sp, name)(torch.tensor([2.0, -0.3], dtype=torch.float64), 3)).tolist(), getattr(sp, name)(torch.tensor([1, 2]), torch.tensor([2])).dtype)
print(sp.bessel_j0(torch.tensor([1.0])).dtype, sp.airy_ai(torch.tensor([1])).dtype, sp.chebyshev_polynomial_t(0.5, torch.tensor([2])).dtype, sp.hermite_polynomial_h(torch.tensor([1.0], dtype=torch.float64), -1))
''')

program("qm_lowrank_and_deprecated_testing", r'''
import warnings
import numpy as np
import torch
rng = np.random.default_rng(0)
A = torch.tensor(rng.standard_normal((8, 3)) @ rng.standard_normal((3, 5)))
U, S, V = torch.svd_lowrank(A, q=4)
print(type((U, S, V)).__name__, U.shape, S.shape, V.shape, torch.round(S[:3], decimals=6), torch.allclose(U @ torch.diag(S) @ V.T, A))
U, S, V = torch.pca_lowrank(A)
C = A - A.mean(0)
print(U.shape, V.shape, torch.round(S[:3], decimals=6), torch.round(S[:3] ** 2 / 7, decimals=6), torch.allclose(U @ torch.diag(S) @ V.T, C))
try:
    torch.pca_lowrank(A, q=6)
except ValueError as e:
    print("ValueError", e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.00001])
    print([m.category.__name__ for m in w])
    try:
        torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1], dtype=torch.float64))
    except AssertionError as e:
        print(str(e).splitlines()[0], str(e).splitlines()[-1])
ld, piv = torch.linalg.ldl_factor(torch.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=torch.float64))
print(ld, piv, torch.linalg.ldl_solve(ld, piv, torch.tensor([[1.0], [2.0]], dtype=torch.float64)))
''')
