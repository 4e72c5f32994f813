"""QA programs over autograd (continued from programs_qa_autograd.py): out= and in-place
errors, saved-tensor hook details, more autograd.functional, freezing, optimizer hooks,
inference tensors, checkpoint variants, gradient edges, double backward through common
ops, mutation semantics, reprs, complex gradients, hook ordering, torch.func, Parameters,
a WGAN-GP loop, allow_mutation_on_saved_tensors, gradcheck and module hooks on a reused
module."""
from programs_qa_autograd import qa

qa("qa_ag_out_and_inplace_errors", r'''
a = torch.ones(3, requires_grad=True)
b = torch.ones(3)
c = torch.empty(3)
err(lambda: torch.add(a, b, out=c))
err(lambda: torch.mul(b, 2, out=a))
with torch.no_grad():
    torch.add(a, b, out=c)
print(c, c.requires_grad)
e = torch.ones(1, 3).expand(2, 3)
err(lambda: e.add_(1))
f = torch.zeros(3, requires_grad=True).clone()
f.copy_(a * 2)
f.sum().backward()
show(a.grad)
g = torch.zeros(2, 3, requires_grad=True)
h = g * 1
h.masked_fill_(torch.tensor([[True, False, True], [False, False, True]]), 5.)
h.index_add_(0, torch.tensor([1]), a.view(1, 3) * 3)
h.scatter_(1, torch.tensor([[0], [1]]), 7.)
(h * torch.arange(6.).view(2, 3)).sum().backward()
show(g.grad, a.grad)
k = torch.ones(2, requires_grad=True)
err(lambda: k.resize_(4))
m = (k * 1)
err(lambda: m.resize_(4))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    _ = m.grad
    print(str(w[0].message).split(" (Triggered")[0])
with torch.no_grad():
    n = k * 2
    n.requires_grad_()
print(n.requires_grad, n.is_leaf)
''')

qa("qa_ag_inplace_activations", r'''
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
y = x * 1
torch.relu_(y)
y.sigmoid_()
err(lambda: y.sum().backward())
y = x * 1
y.exp_()
y.mul_(2)
err(lambda: y.sum().backward())
y = (x * 1).tanh_()
y2 = y * 1
y2.sum().backward()
show(x.grad)
x.grad = None
z = x * 2
torch.nn.functional.relu(z, inplace=True)
torch.nn.functional.leaky_relu(z, 0.1, inplace=True)
torch.nn.functional.dropout(z, 0.0, training=True, inplace=True)
print(z.grad_fn.name(), z._version)
err(lambda: z.pow(2).sum().backward())
z = x * 2
torch.nn.functional.leaky_relu(z, 0.1, inplace=True)
z.pow(2).sum().backward()
show(x.grad)
x.grad = None
w = x.exp()
w2 = w.exp_()
print(w2 is w, w.grad_fn.name())
err(lambda: w.sum().backward())
s = x.sigmoid()
t = s * 1
s.mul_(2)
err(lambda: t.sum().backward())
q = x.tanh()
r = q.relu()
q.add_(1)
err(lambda: r.sum().backward())
''')

qa("qa_ag_grad_accumulation_loop", r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = torch.linspace(-1, 1, 24).reshape(8, 3)
ys = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
accum = 4
for step in range(2):
    opt.zero_grad()
    total = 0.0
    for i in range(accum):
        xb, yb = xs[2 * i:2 * i + 2], ys[2 * i:2 * i + 2]
        loss = torch.nn.functional.cross_entropy(model(xb), yb) / accum
        loss.backward()
        total += loss.item()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    print(step, round(total, 4), round(norm.item(), 4))
full = torch.nn.functional.cross_entropy(model(xs), ys)
opt.zero_grad()
full.backward()
g_full = [p.grad.clone() for p in model.parameters()]
opt.zero_grad()
for i in range(4):
    (torch.nn.functional.cross_entropy(model(xs[2 * i:2 * i + 2]), ys[2 * i:2 * i + 2]) / 4).backward()
print(all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g_full, model.parameters())))
''')

qa("qa_ag_saved_hooks_details", r'''
x = torch.tensor([1., 2.], requires_grad=True)
seen = []
def pack(t):
    seen.append((tuple(t.shape), t.requires_grad, t.grad_fn.name() if t.grad_fn else None,
                 t.is_leaf, t is x))
    return t
def unpack(t):
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = (y * x).sum()
    w = x.pow(2)
for s in seen: print(s)
z.backward()
show(x.grad)
def pack_detach(t):
    return t.detach().clone()
count = [0]
def unpack_count(t):
    count[0] += 1
    return t
with torch.autograd.graph.saved_tensors_hooks(pack_detach, unpack_count):
    a = x.sin()
    b = a.cos()
a.data.zero_()
b.sum().backward(retain_graph=True)
b.sum().backward()
print(count[0])
show(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: ("inner", t), lambda p: p[1] * 0):
        c = x * x
    d = x * x
g1, = torch.autograd.grad(c.sum(), x)
g2, = torch.autograd.grad(d.sum(), x)
show(g1, g2)
''')

qa("qa_ag_functional_more", r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def f(a, b):
    return a * b.sum(), (a ** 2).sum()
a, b = torch.tensor([1., 2.]), torch.tensor([3., 4., 5.])
J = jacobian(f, (a, b))
print(len(J), len(J[0]), [tuple(t.shape) for row in J for t in row])
show(J[0][0], J[0][1], J[1][0], J[1][1])
Jv = jacobian(f, (a, b), vectorize=True)
print(all(torch.allclose(p, q) for r1, r2 in zip(J, Jv) for p, q in zip(r1, r2)))
H = hessian(lambda t: (t ** 3).sum() * t[0], torch.tensor([1., 2.]), vectorize=True)
show(H)
H2 = hessian(lambda t: (t ** 3).sum() * t[0], torch.tensor([1., 2.]), create_graph=True)
print(H2.requires_grad)
err(lambda: hessian(lambda t: t * 2, torch.ones(2)))
err(lambda: hessian(lambda t: t.sum() * 2, torch.ones(2), strict=True))
out, g = hvp(lambda p, q: (p * q * q).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.])),
             (torch.tensor([1., 0.]), torch.tensor([0., 1.])))
show(out, *g)
out, g = jvp(lambda t: (t.sin(), t.cos().sum()), torch.tensor([0., 1.]), torch.tensor([1., 1.]))
show(*out, *g)
err(lambda: jvp(lambda t: t * 2, torch.ones(2), torch.ones(3)))
err(lambda: vjp(lambda t: t * 2, torch.ones(2), torch.ones(3)))
err(lambda: jacobian(lambda t: 3.0, torch.ones(2)))
err(lambda: jacobian(lambda t: t, [1.0, 2.0]))
''')

qa("qa_ag_freeze_and_zero_grad", r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
net[0].requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad])
opt = torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)
x = torch.tensor([[1., -1.], [0.5, 2.]])
before = net[0].weight.clone()
for _ in range(2):
    opt.zero_grad()
    net(x).pow(2).mean().backward()
    opt.step()
print(torch.equal(before, net[0].weight), net[0].weight.grad)
p = torch.nn.Parameter(torch.tensor([1., 2.]))
loss = (p ** 3).sum()
loss.backward(create_graph=True)
print(p.grad.requires_grad, p.grad.grad_fn is not None)
m = torch.nn.Module()
m.p = p
m.zero_grad(set_to_none=False)
print(p.grad, p.grad.requires_grad, p.grad.grad_fn)
q = torch.nn.Parameter(torch.ones(2))
(q * 2).sum().backward()
g = q.grad
m.q = q
m.zero_grad()
print(q.grad, g)
''')

qa("qa_ag_optimizer_hooks_closure", r'''
w = torch.nn.Parameter(torch.tensor([1., -2.]))
opt = torch.optim.SGD([w], lr=0.5)
log = []
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", [round(v, 4) for v in w.tolist()])))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", [round(v, 4) for v in w.tolist()])))
def closure():
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    return loss
for _ in range(2):
    l = opt.step(closure)
    print(round(l.item(), 4))
print(log)
h1.remove(); h2.remove()
opt.step(closure)
print(len(log))
lb = torch.optim.LBFGS([w], lr=1, max_iter=5)
print(round(lb.step(closure).item(), 6), [round(v, 4) for v in w.tolist()])
opt2 = torch.optim.Adam([w], lr=0.1)
sd = opt2.state_dict()
print(sd["state"], sd["param_groups"][0]["params"])
opt2.zero_grad()
opt2.step()
print(opt2.state_dict()["state"])
''')

qa("qa_ag_inference_tensor_errors", r'''
with torch.inference_mode():
    t = torch.ones(2)
w = torch.ones(2, requires_grad=True)
err(lambda: (t * w).sum().backward())
y = t + w
print(y.requires_grad, y.is_inference())
err(lambda: (w * t.exp()).sum().backward())
err(lambda: t.requires_grad_())
err(lambda: torch.ones(2).requires_grad_().add_(1))
with torch.no_grad():
    n = torch.ones(2) * 2
err(lambda: n.sum().backward())
c = t.clone()
c.requires_grad_()
(c * 2).sum().backward()
print(c.grad, c.is_inference())
with torch.inference_mode():
    v = w * 2
print(v.requires_grad, v.is_inference(), v.grad_fn)
err(lambda: w.view(2).mul_(t))
''')

qa("qa_ag_checkpoint_variants", r'''
from torch.utils.checkpoint import checkpoint
lin = torch.nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.).reshape(3, 3) / 10)
    lin.bias.fill_(0.1)
x = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    err(lambda: checkpoint(lin, x).sum().backward())
    print([str(m.message)[:80] for m in w])
x.grad = None
def two(a, b):
    return lin(a).tanh() * b, a.sum()
o1, o2 = checkpoint(two, x, torch.tensor(2.), use_reentrant=False)
(o1.sum() + o2).backward()
show(x.grad, lin.bias.grad)
def noisy(a):
    return torch.nn.functional.dropout(lin(a), 0.5, training=True)
torch.manual_seed(3)
a1 = checkpoint(noisy, x, use_reentrant=False, preserve_rng_state=False)
a1.sum().backward()
print(tuple(a1.shape))
y = x.detach().requires_grad_()
out = checkpoint(lambda t: (t ** 2).sum(), y, use_reentrant=False)
g, = torch.autograd.grad(out, y, create_graph=True)
g2, = torch.autograd.grad(g.sum(), y)
show(g, g2)
def bad(a):
    return a.detach()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = checkpoint(bad, x, use_reentrant=True)
    print(r.requires_grad, [str(m.message)[:60] for m in w])
''')

qa("qa_ag_gradient_edge", r'''
from torch.autograd.graph import get_gradient_edge, GradientEdge
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 3
y = h.exp().sum()
e = get_gradient_edge(h)
print(type(e).__name__, e.node.name(), e.output_nr, isinstance(e, tuple))
show(*torch.autograd.grad(y, e, retain_graph=True))
show(*torch.autograd.grad(y, [get_gradient_edge(x), h], retain_graph=True))
g, = torch.autograd.grad(y, h, retain_graph=True)
show(*torch.autograd.grad(get_gradient_edge(h), x, grad_outputs=g))
err(lambda: get_gradient_edge(torch.ones(2)))
print(get_gradient_edge(x).node.name(), get_gradient_edge(x).node.variable is x)
''')

qa("qa_ag_double_backward_ops", r'''
import torch.nn.functional as F
def xin(*shape):
    n = 1
    for s in shape: n *= s
    return (torch.linspace(-1.5, 1.7, n).reshape(shape) * torch.tensor(1.3).pow(torch.arange(n) % 3).reshape(shape)).double().requires_grad_()
w4 = torch.linspace(-0.5, 0.6, 2 * 2 * 3 * 3).reshape(2, 2, 3, 3).double()
cases = {
    "softmax": lambda x: F.softmax(x, -1),
    "log_softmax": lambda x: F.log_softmax(x, 1),
    "gelu": F.gelu, "silu": F.silu, "elu": F.elu, "softplus": F.softplus,
    "tanh": torch.tanh, "sigmoid": torch.sigmoid, "mish": F.mish,
    "layer_norm": lambda x: F.layer_norm(x, x.shape[-1:]),
    "normalize": lambda x: F.normalize(x, dim=-1),
    "mse": lambda x: F.mse_loss(x, torch.zeros_like(x)),
    "smooth_l1": lambda x: F.smooth_l1_loss(x, torch.zeros_like(x) + 0.1),
    "cross_entropy": lambda x: F.cross_entropy(x.reshape(4, -1), torch.tensor([0, 1, 2, 1])),
    "norm": lambda x: x.norm(),
    "logsumexp": lambda x: x.logsumexp(-1),
    "matmul": lambda x: x @ x.transpose(-1, -2),
    "cumprod": lambda x: x.cumprod(-1),
    "prod": lambda x: x.prod(-1),
    "var": lambda x: x.var(-1),
    "atan2": lambda x: torch.atan2(x, x.flip(-1) + 2),
    "pow": lambda x: (x.abs() + 0.5) ** x,
}
for name, f in cases.items():
    x = xin(4, 3)
    y = f(x)
    g, = torch.autograd.grad((y * torch.linspace(0.5, 1.5, y.numel()).reshape(y.shape).double()).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g ** 2).sum(), x)
    print(name, round(g.sum().item(), 6) + 0.0, round(gg.sum().item(), 6) + 0.0,
          round(gg.abs().sum().item(), 6))
x = xin(1, 2, 5, 5)
for name, f in {"conv2d": lambda t: F.conv2d(t, w4, padding=1),
                "max_pool": lambda t: F.max_pool2d(t, 2),
                "avg_pool": lambda t: F.avg_pool2d(t, 2),
                "interp": lambda t: F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False),
                "batch_norm": lambda t: F.batch_norm(t, None, None, training=True),
                "group_norm": lambda t: F.group_norm(t, 1)}.items():
    y = f(x)
    g, = torch.autograd.grad((y * y.detach().sin()).sum(), x, create_graph=True)
    gg, = torch.autograd.grad((g ** 2).sum(), x)
    print(name, round(g.sum().item(), 6) + 0.0, round(gg.abs().sum().item(), 6))
''')

qa("qa_ag_mutation_semantics", r'''
i = torch.tensor([1, 2, 3])
err(lambda: i.add_(1.5))
err(lambda: torch.ones(3).add_(torch.ones(2, 3)))
i.add_(torch.tensor(2))
print(i, i._version)
x = torch.zeros(5)
idx = torch.tensor([0, 0, 2])
x[idx] += 1
print(x)
x.index_put_((idx,), torch.tensor([1., 2., 3.]), accumulate=True)
print(x)
m = torch.arange(6.).reshape(2, 3)
mt = m.T
mt.add_(100)
print(m, mt.is_contiguous(), m.T.contiguous().is_contiguous())
r = m.reshape(3, 2)
print(r.data_ptr() == m.data_ptr(), m.T.reshape(6).data_ptr() == m.data_ptr())
f = m.flatten()
f[0] = -1
print(m[0, 0].item(), m.contiguous() is m)
a = torch.arange(6.).reshape(2, 3).requires_grad_()
b = a * 1
b.t_()
print(b.shape, b.grad_fn.name())
b.unsqueeze_(0)
print(b.shape, b.grad_fn.name())
b.squeeze_()
b.transpose_(0, 1)
print(b.shape, b.grad_fn.name())
(b * torch.arange(6.).reshape(2, 3)).sum().backward()
show(a.grad)
c = torch.ones(2, 3)
c.copy_(torch.tensor([1, 2, 3]))
print(c, c.dtype)
d = torch.empty(0)
d.resize_(2, 2).fill_(3)
print(d.shape, d.sum().item())
s = torch.arange(4.)
v = s.view(2, 2)
s.set_(torch.tensor([9., 8.]))
print(s, v)
cl = m.clone(memory_format=torch.contiguous_format)
print(cl.data_ptr() != m.data_ptr(), cl.stride())
''')

qa("qa_ag_repr_autograd", r'''
x = torch.tensor([1., 2.], requires_grad=True)
print(x)
print(x * 2)
print((x * 2).sum())
y = x * 1
y[0] = 5
print(y)
print(x.double())
print(x.detach())
print(torch.nn.Parameter(torch.ones(2)))
print(torch.nn.Parameter(torch.ones(2), requires_grad=False))
with torch.inference_mode():
    print(torch.ones(2) * x)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(F.apply(x))
print(x.unbind()[0], x.split(1)[1])
print(torch.cat([x, x]).view(2, 2).T)
print(x.to(torch.float16) * 3)
z = torch.complex(x, x)
print(z * 1j)
print(torch.zeros(0, requires_grad=True) * 2)
print(torch.tensor(3., requires_grad=True) ** 2)
''')

qa("qa_ag_complex_grads", r'''
z = torch.tensor([1 + 2j, -0.5 + 1j], requires_grad=True)
(z.abs() ** 2).sum().backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
z.grad = None
err(lambda: (z * 2).sum().backward())
w = torch.tensor([0.5, -1.0], requires_grad=True)
c = torch.polar(torch.ones(2), w)
(c.real * 2 + c.imag).sum().backward()
show(w.grad)
v = torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True))
print(v.grad_fn.name())
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.complex(a, a * 2)
g, = torch.autograd.grad(b.abs().sum(), a)
show(g)
f = torch.fft.fft(a)
(f.abs() ** 2).sum().backward()
show(a.grad)
''')

qa("qa_ag_hook_ordering", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
z = (y * 3).sum()
z.backward()
print(y.grad, x.grad)
order = []
a = torch.ones(2, requires_grad=True)
b = a * 1
b.register_hook(lambda g: order.append("tensor hook") or None)
b.grad_fn.register_prehook(lambda go: order.append("node prehook") or None)
b.grad_fn.register_hook(lambda gi, go: order.append("node hook") or None)
a.register_hook(lambda g: order.append("leaf hook") or None)
a.register_post_accumulate_grad_hook(lambda t: order.append("post acc"))
b.sum().backward()
print(order)
handles = []
c = torch.ones(2, requires_grad=True)
d = c * 2
def remover(g):
    handles[1].remove()
    return g * 2
handles.append(d.register_hook(remover))
handles.append(d.register_hook(lambda g: g * 100))
d.sum().backward()
print(c.grad)
e = torch.tensor([1., 3.], requires_grad=True)
f = e ** 2
f.register_hook(lambda g: g * e)
gr, = torch.autograd.grad(f.sum(), e, create_graph=True)
show(gr)
print(gr.requires_grad)
gg, = torch.autograd.grad(gr.sum(), e)
show(gg)
''')

qa("qa_ag_func_per_sample_grads", r'''
from torch.func import functional_call, vmap, grad, jacrev, hessian
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
data = torch.linspace(-1, 1, 15).reshape(5, 3)
targets = torch.tensor([0, 1, 1, 0, 1])
def loss_fn(p, x, t):
    out = functional_call(model, p, (x.unsqueeze(0),))
    return torch.nn.functional.cross_entropy(out, t.unsqueeze(0))
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, data, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
manual = []
for i in range(5):
    model.zero_grad()
    torch.nn.functional.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]).backward()
    manual.append(model[0].weight.grad.clone())
print(torch.allclose(per_sample["0.weight"], torch.stack(manual), atol=1e-6))
show(per_sample["2.bias"].sum(0))
f = lambda x: (x.sin() * x).sum()
x = torch.tensor([0.5, 1.0, 2.0])
show(grad(f)(x), jacrev(torch.sin)(x).diagonal(), hessian(f)(x).diagonal())
g_and_v = torch.func.grad_and_value(f)(x)
show(g_and_v[0], g_and_v[1])
''')

qa("qa_ag_backward_under_modes", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
with torch.no_grad():
    y.backward(retain_graph=True)
print(x.grad)
x.grad = None
with torch.no_grad():
    y.backward(create_graph=True, retain_graph=True)
print(x.grad.requires_grad, x.grad)
x.grad = None
with torch.inference_mode():
    err(lambda: y.backward(retain_graph=True))
print(x.grad)
with torch.no_grad():
    g, = torch.autograd.grad(y, x, create_graph=True, retain_graph=True)
print(g.requires_grad)
h = x.exp()
def hook(grad):
    print("grad mode in hook:", torch.is_grad_enabled(), grad.requires_grad)
    return grad
h.register_hook(hook)
h.sum().backward(retain_graph=True)
torch.autograd.grad(h.sum(), x, create_graph=True)
class Peek(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        print("forward grad mode:", torch.is_grad_enabled())
        return a * 1
    @staticmethod
    def backward(ctx, g):
        print("backward grad mode:", torch.is_grad_enabled())
        return g
Peek.apply(x).sum().backward()
torch.autograd.grad(Peek.apply(x).sum(), x, create_graph=True)
''')

qa("qa_ag_parameter_semantics", r'''
x = torch.tensor([1., 2.], requires_grad=True)
p = torch.nn.Parameter(x * 2)
print(p.is_leaf, p.grad_fn, p.requires_grad, type(p).__name__)
err(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
q = torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(q.dtype, q.requires_grad)
m = torch.nn.Linear(2, 2)
m.register_buffer("scale", torch.ones(2))
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()], m.scale.requires_grad)
out = (m(torch.ones(1, 2)) * m.scale).sum()
out.backward()
print(m.scale.grad, m.weight.grad.shape)
with torch.no_grad():
    m.weight.mul_(0)
print(m.weight.requires_grad, m.weight.is_leaf, m.weight._version)
m.weight = torch.nn.Parameter(torch.eye(2))
err(lambda: setattr(m, "weight", torch.eye(2)))
m.weight.data = torch.zeros(2, 2)
print(type(m.weight).__name__, m.weight)
d = m.weight.detach()
print(type(d).__name__, d.requires_grad)
c = m.weight.clone()
print(type(c).__name__, c.grad_fn.name())
print(type(m.weight * 1).__name__, type(m.weight[0]).__name__)
import copy
p2 = copy.deepcopy(m.weight)
print(type(p2).__name__, p2.requires_grad, p2 is m.weight)
''')

qa("qa_ag_wgan_gp_loop", r'''
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.LeakyReLU(0.2), torch.nn.Linear(8, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.LeakyReLU(0.2), torch.nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
real = torch.linspace(-1, 1, 16).reshape(8, 2)
noise = torch.linspace(0.3, -0.7, 16).reshape(8, 2)
alpha = torch.linspace(0, 1, 8).reshape(8, 1)
for step in range(3):
    for p in D.parameters():
        p.requires_grad_(True)
    fake = G(noise).detach()
    opt_d.zero_grad()
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_inter = D(inter)
    grads, = torch.autograd.grad(d_inter, inter, torch.ones_like(d_inter), create_graph=True)
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    d_loss = D(fake).mean() - D(real).mean() + 10 * gp
    d_loss.backward()
    opt_d.step()
    for p in D.parameters():
        p.requires_grad_(False)
    opt_g.zero_grad()
    g_loss = -D(G(noise)).mean()
    g_loss.backward()
    opt_g.step()
    print(step, round(d_loss.item(), 4), round(gp.item(), 4), round(g_loss.item(), 4),
          all(p.grad is None for p in D.parameters()) if step == 0 else None)
show(sum(p.sum() for p in G.parameters()))
''')

qa("qa_ag_allow_mutation_saved", r'''
from torch.autograd.graph import allow_mutation_on_saved_tensors
with allow_mutation_on_saved_tensors():
    a = torch.tensor([[0.5, 1.0, 2.0]], requires_grad=True)
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()
    show(a.grad, b)
    c = a * 1
    d = c.exp()
    c.mul_(0)
    a.grad = None
    (d * 2).sum().backward()
    show(a.grad)
    err(lambda: allow_mutation_on_saved_tensors().__enter__())
with allow_mutation_on_saved_tensors():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * 1).pow(3)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x)
    show(g, g2)
    z = x.sin()
    w = z * z
err(lambda: w.sum().backward())
''')

qa("qa_ag_gradcheck", r'''
from torch.autograd import gradcheck, gradgradcheck
x = torch.tensor([0.3, -0.7, 1.2], dtype=torch.float64, requires_grad=True)
y = torch.tensor([[0.5, 1.5], [2.0, -1.0]], dtype=torch.float64, requires_grad=True)
print(gradcheck(lambda t: (t.sin() * t).sum(), (x,)))
print(gradcheck(lambda a, b: (a[:2] @ b).exp(), (x, y)))
print(gradgradcheck(lambda t: (t ** 3).prod(), (x,)))
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
err(lambda: gradcheck(Wrong.apply, (x,)))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    xf = torch.tensor([0.3, 0.7], requires_grad=True)
    print(gradcheck(lambda t: t * 2, (xf,), eps=1e-3, atol=1e-2, raise_exception=False))
    print(len(w) > 0)
print(gradcheck(lambda t: t.sum(), (x,), fast_mode=True))
err(lambda: gradcheck(lambda t: t.sum(), (x.detach(),)))
''')

qa("qa_ag_module_hooks_reuse", r'''
lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2.], [0., -1.]]))
    lin.bias.zero_()
log = []
lin.register_full_backward_hook(lambda m, gi, go: log.append(("full", [g.tolist() for g in go])))
lin.register_full_backward_pre_hook(lambda m, go: log.append(("pre", [g.tolist() for g in go])))
lin.register_forward_hook(lambda m, a, o: log.append(("fwd", o.tolist())))
x = torch.tensor([[1., 1.]], requires_grad=True)
out = lin(lin(x))
out.sum().backward()
for l in log: print(l)
show(x.grad)
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
order = []
h1 = register_module_forward_hook(lambda m, a, o: order.append("global post " + type(m).__name__))
h2 = register_module_forward_pre_hook(lambda m, a: order.append("global pre " + type(m).__name__))
seq = torch.nn.Sequential(torch.nn.Identity(), torch.nn.ReLU())
seq.register_forward_pre_hook(lambda m, a: order.append("local pre Sequential"))
seq.register_forward_hook(lambda m, a, o: order.append("local post Sequential"))
seq(torch.ones(1))
h1.remove(); h2.remove()
for o in order: print(o)
''')
