"""QA programs over the functional view copies, the unsafe splits, nonzero_static /
histogramdd / segment_reduce, optimizers' capturable check, utils.benchmark and the
matrix distributions (run by test_programs_qa_extra.py): identical stdout under torch and
mindtorch."""
from programs_registry import program

HEAD = r'''
import torch
def show(*ts, d=6):
    print(*[t.detach().double().round(decimals=d) + 0.0 if isinstance(t, torch.Tensor)
            else round(t, d) if isinstance(t, float) else t for t in ts])
'''


def qa(name, text):
    program(name, HEAD + text)


qa("qa_compat_view_copies", r'''
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
outs = [torch.view_copy(x, (6, 4)), torch.permute_copy(x, (2, 0, 1)), torch.transpose_copy(x, 0, 2),
        torch.t_copy(x[0]), torch.expand_copy(x[:, :1], (2, 5, 4)), torch.squeeze_copy(x[:1]),
        torch.unsqueeze_copy(x, -1), torch.select_copy(x, 1, -1), torch.slice_copy(x, 2, 1, 4, 2),
        torch.diagonal_copy(x, 1, 1, 2), torch.as_strided_copy(x, (3, 3), (2, 5), 1),
        torch.unfold_copy(x, 2, 2, 1), torch.alias_copy(x)]
for o in outs:
    print(o.shape, o.stride(), o.is_contiguous(), o.grad_fn.name())
loss = sum((o * torch.linspace(-1, 1, o.numel()).reshape(o.shape)).sum() for o in outs)
loss.backward()
show(x.grad)
pieces = torch.unbind_copy(x, 1) + torch.split_copy(x, 3, 2) + torch.split_with_sizes_copy(x, [1, 2], 1)
print([(p.shape, p.grad_fn.name()) for p in pieces])
y = torch.arange(10.)
parts = torch.unsafe_split(y, 4)
parts[0].mul_(-1)
show(y)
print([p.shape for p in torch.unsafe_chunk(y, 3)], [p.tolist() for p in y.unsafe_split_with_sizes([7, 3])])
z = torch.arange(6., requires_grad=True)
a, b = z.unsafe_split(3)
(a * 2 + b.pow(2)).sum().backward()
show(z.grad)
print(a.grad_fn.name())
out = [torch.empty(3), torch.empty(3)]
print(torch.split_copy(torch.arange(6.), 3, out=out), out)
print(torch.view_copy(torch.ones(2, 2), torch.int32))
''')

qa("qa_compat_static_shapes", r'''
m = torch.tensor([[0, 1, 0], [2, 0, 3]])
print(torch.nonzero_static(m, size=5), m.nonzero_static(size=2, fill_value=9))
g = torch.Generator().manual_seed(0)
pts = torch.tensor([[0.1, 0.2], [0.5, 0.5], [0.9, 0.1], [0.5, 1.0], [0.25, 0.75], [1.0, 0.0]])
h = torch.histogramdd(pts, bins=[2, 4])
print(h.hist, h.bin_edges)
h = torch.histogramdd(pts, bins=3, range=[0., 1., 0., 1.], weight=torch.arange(6.), density=True)
show(h.hist)
h = torch.histogramdd(pts, [torch.tensor([0., 0.5, 1.]), torch.tensor([0., 1.])])
print(h.hist)
data = torch.tensor([1., 5., 2., 7., 3., 3., 0.5], requires_grad=True)
for reduce in ["sum", "mean", "max", "min", "prod"]:
    r = torch.segment_reduce(data, reduce, lengths=torch.tensor([2, 0, 3, 2]), initial=None)
    g, = torch.autograd.grad(r.nan_to_num(0).sum(), data)
    show(r.nan_to_num(0), g)
print(torch.segment_reduce(torch.arange(12.).reshape(2, 6), "sum", lengths=torch.tensor([[2, 4], [3, 3]]), axis=1))
''')

qa("qa_compat_optim_capturable", r'''
import warnings
warnings.simplefilter("ignore")
for name in ["Adam", "AdamW", "NAdam", "RAdam", "RMSprop", "Rprop", "Adadelta", "Adamax", "ASGD"]:
    for foreach in (None, True):
        p = torch.nn.Parameter(torch.ones(3))
        opt = getattr(torch.optim, name)([p], capturable=True, foreach=foreach)
        p.grad = torch.ones(3)
        try:
            opt.step()
        except AssertionError as e:
            print(name, foreach, e)
''')

qa("qa_compat_benchmark", r'''
from torch.utils import benchmark
from torch.utils.benchmark import Compare, Measurement, TaskSpec
results = []
for label in ["matmul", "add"]:
    for sub in ["small", "large"]:
        for i, desc in enumerate(["float32", "float64"]):
            for threads in (1, 2):
                base = (3 if label == "matmul" else 1) * (1 if sub == "small" else 40) * (1 + i) / threads
                raw = [base * 1e-6 * (1 + 0.02 * k * (1 + 10 * (threads == 2 and i == 1))) for k in range(9)]
                results.append(Measurement(100, raw, TaskSpec("f(x)", "pass", label=label, sub_label=sub,
                                                              description=desc, num_threads=threads)))
c = Compare(results)
c.print()
c.trim_significant_figures()
c.highlight_warnings()
c.print()
m = results[5]
print(repr(m).split("\n", 1)[1])
print(m.median, m.iqr, m.significant_figures, m.has_warnings, benchmark.select_unit(m.median))
t = benchmark.Timer("torch.ones(4) + x", setup="x = 1.5", label="ones", description="add",
                    num_threads=1)
m = t.timeit(20)
print(m.number_per_run, len(m.times), m.title, m.description)
m = t.blocked_autorange(min_run_time=0.01)
print(sum(m.raw_times) >= 0.01, m.number_per_run >= 1)
''')

qa("qa_compat_matrix_distributions", r'''
D = torch.distributions
loc = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
W = torch.tensor([[1.0, 0.5], [0.0, -1.0], [0.3, 0.2]], dtype=torch.float64, requires_grad=True)
diag = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
d = D.LowRankMultivariateNormal(loc, W, diag)
x = torch.tensor([[0.0, 0.0, 0.0], [1.0, -2.0, 2.5]], dtype=torch.float64)
lp = d.log_prob(x)
show(lp, d.entropy(), d.variance, d.covariance_matrix, d.precision_matrix)
show(torch.autograd.grad(lp.sum(), W)[0])
print(d, d.batch_shape, d.event_shape)
S = torch.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=torch.float64)
w = D.Wishart(torch.tensor([3.0, 5.5], dtype=torch.float64), covariance_matrix=S)
X = torch.tensor([[1.0, 0.2], [0.2, 2.0]], dtype=torch.float64)
show(w.log_prob(X), w.entropy(), w.mean, w.variance, w.mode)
print(w)
l = D.LKJCholesky(3, torch.tensor([0.5, 2.0], dtype=torch.float64))
L = torch.linalg.cholesky(torch.tensor([[1.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.0]], dtype=torch.float64))
show(l.log_prob(L))
print(l, l.support, l.sample((4,)).shape, D.constraints.corr_cholesky.check(l.sample((3,))))
''')
