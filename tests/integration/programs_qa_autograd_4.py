"""QA programs over autograd (continued from programs_qa_autograd.py): grad_output and
custom backward validation, graphs sharing a prefix, hooks on views with CopySlices,
GradScaler with clipping and the legacy Variable."""
from programs_qa_autograd import qa

qa("qa_ag_grad_output_validation", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
err(lambda: y.backward(torch.ones(2, dtype=torch.float64), retain_graph=True))
err(lambda: y.backward(torch.ones(2, dtype=torch.int64), retain_graph=True))
err(lambda: y.backward(torch.ones(1, 2), retain_graph=True))
err(lambda: y.backward(torch.ones(1), retain_graph=True))
err(lambda: torch.autograd.grad(y, x, torch.ones(2, dtype=torch.complex64), retain_graph=True))
print(x.grad)
class Cast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).double()
r = Cast.apply(x)
r.sum().backward()
print(x.grad, x.grad.dtype)
class Shape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.sum()
    @staticmethod
    def backward(ctx, g):
        return g.reshape(1, 1).expand(1, 2)
x.grad = None
Shape.apply(x).backward()
print(x.grad)
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.sum()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
err(lambda: Wrong.apply(x).backward())
class IntGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 1
    @staticmethod
    def backward(ctx, g):
        return g.long()
x.grad = None
IntGrad.apply(x).sum().backward()
print(x.grad)
''')

qa("qa_ag_shared_prefix_graphs", r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
h = x.exp()
y1 = (h * 2).sum()
y2 = (h ** 2).sum()
y1.backward()
err(lambda: y2.backward())
h2 = x.sin()
a, b = (h2 * 3).sum(), h2.cos().sum()
torch.autograd.backward([a, b])
show(x.grad)
h3 = x * x
y = (h3 * h3).sum()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y.backward(inputs=[h3])
    print(h3.grad, h3.is_leaf, len(w))
x.grad = None
z = (x * 2).sum() + (x * 3).sum()
z.backward(inputs=[x])
print(x.grad)
s = x * 1
t = s.clone()
t.backward(torch.ones(2), inputs=[s])
print(s.grad)
''')

qa("qa_ag_view_hooks_copyslices", r'''
a = torch.arange(4.).requires_grad_()
b = a * 1
v = b[:2]
v.register_hook(lambda g: print("view hook", g.tolist()) or g * 2)
b.register_hook(lambda g: print("base hook", g.tolist()))
b.mul_(3)
print(b.grad_fn.name(), v.grad_fn.name())
(b * torch.tensor([1., 2., 3., 4.])).sum().backward()
show(a.grad)
a.grad = None
c = a * 1
w = c[1:3]
w.add_(10)
print(c.grad_fn.name(), w.grad_fn.name())
c.sum().backward()
show(a.grad)
a.grad = None
d = a.clone()
dv = d.view(2, 2)
dv.retain_grad()
d.retain_grad()
dv[0, 1] = 7
(d * d).sum().backward()
print(dv.grad, d.grad)
show(a.grad)
''')

qa("qa_ag_grad_scaler_clip", r'''
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=256.0)
x = torch.linspace(-1, 1, 12).reshape(4, 3)
y = torch.tensor([[1.], [0.], [1.], [0.]])
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    print(round(model.bias.grad.item(), 4))
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 4), round(norm.item(), 4), scaler.get_scale())
err(lambda: scaler.unscale_(opt) or scaler.unscale_(opt))
model.weight.grad.fill_(float("inf"))
scaler.step(opt)
scaler.update()
print(scaler.get_scale())
''')

qa("qa_ag_variable_legacy", r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(type(v).__name__, v.requires_grad, v.is_leaf, isinstance(v, torch.Tensor))
w = Variable(torch.tensor([3., 4.]))
print(w.requires_grad)
(v * w).sum().backward()
print(v.grad, w.grad)
err(lambda: Variable([1., 2.]))
print(Variable().shape)
x = torch.ones(2, requires_grad=True)
print(Variable(x) is x)
print(torch.is_tensor(v), torch.autograd.Variable is not None)
''')

qa("qa_ag_function_node_api", r'''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, k):
        ctx.k = k
        ctx.save_for_backward(y)
        return x * y * k
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y * ctx.k, None, None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
out = Scale.apply(x * 1, y, 2.0)
fn = out.grad_fn
print(fn.name(), type(fn).__name__, isinstance(fn, torch.autograd.graph.Node))
print([(None if f is None else f.name(), i) for f, i in fn.next_functions])
print(fn.needs_input_grad, fn.k, len(fn.saved_tensors))
log = []
fn.register_prehook(lambda go: log.append(("pre", go[0].tolist())))
fn.register_hook(lambda gi, go: log.append(("post", [None if g is None else g.tolist() for g in gi])))
out.sum().backward()
print(log)
show(x.grad)
print(fn.metadata, isinstance(fn, torch.autograd.function.BackwardCFunction))
print(issubclass(Scale, torch.autograd.Function), Scale.__name__)
''')

qa("qa_ag_grad_misc_errors", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
z = torch.ones(()).sum()
err(lambda: torch.autograd.grad([y, z], x, retain_graph=True))
err(lambda: torch.autograd.grad([], x))
err(lambda: torch.autograd.grad(y, [], retain_graph=True))
err(lambda: torch.autograd.grad(y, [x, 3], retain_graph=True))
err(lambda: torch.autograd.grad(y, x, grad_outputs=[1.0], retain_graph=True))
err(lambda: torch.autograd.grad(y, x, grad_outputs=torch.ones(2), retain_graph=True))
print(torch.autograd.grad(y, x, grad_outputs=torch.tensor(3.), retain_graph=True))
print(torch.autograd.grad(y, x, grad_outputs=[None], retain_graph=True))
err(lambda: torch.autograd.grad(x * 2, x, grad_outputs=[None]))
err(lambda: (x * 2).long().sum().backward())
err(lambda: torch.autograd.backward(y, inputs=[torch.ones(2)]))
err(lambda: y.backward(gradient=torch.ones(1)))
err(lambda: torch.autograd.grad((torch.ones(1, dtype=torch.complex64, requires_grad=True) * 2).sum(), x))
''')

qa("qa_ag_checkpoint_options", r'''
import contextlib
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
calls = []
def ctx_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()
def f(t):
    calls.append(torch.is_grad_enabled())
    return (t.sin() * t).sum()
out = checkpoint(f, x, use_reentrant=False, context_fn=ctx_fn)
out.backward()
show(x.grad)
print(calls)
err(lambda: checkpoint(f, x, use_reentrant=True, context_fn=ctx_fn))
with set_checkpoint_early_stop(False):
    out = checkpoint(f, x, use_reentrant=False)
out.backward()
show(x.grad)
out = checkpoint(f, x, use_reentrant=False, determinism_check="none")
out.backward()
err(lambda: checkpoint(f, x, use_reentrant=False, determinism_check="bogus"))
def g(t, flag):
    return t * 2 if flag else t * 3
print(checkpoint(g, x, False, use_reentrant=False))
err(lambda: checkpoint(g, x, False, use_reentrant=False, unknown_kw=1))
''')

qa("qa_ag_training_with_hooks", r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
class Block(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = torch.nn.LayerNorm(d)
        self.ff = torch.nn.Sequential(torch.nn.Linear(d, 2 * d), torch.nn.GELU(), torch.nn.Linear(2 * d, d))
    def forward(self, x):
        return x + self.ff(self.norm(x))
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block(4) for _ in range(2)])
        self.head = torch.nn.Linear(4, 3)
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False)
        return self.head(x.mean(1))
net = Net()
acts, grad_norms = {}, {}
for name, mod in net.named_modules():
    if isinstance(mod, torch.nn.Linear):
        mod.register_forward_hook(lambda m, a, o, name=name: acts.__setitem__(name, round(o.abs().mean().item(), 4)))
for name, p in net.named_parameters():
    p.register_hook(lambda g, name=name: grad_norms.__setitem__(name, round(g.norm().item(), 4)))
opt = torch.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = torch.linspace(-1, 1, 2 * 5 * 4).reshape(2, 5, 4)
y = torch.tensor([0, 2])
for step in range(4):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    sched.step()
    print(step, round(loss.item(), 4), round(total.item(), 4), sched.get_last_lr())
print(sorted(acts.items())[:3])
print(sorted(grad_norms.items())[:4])
''')

qa("qa_ag_manual_sgd_styles", r'''
w = torch.tensor([[0.5, -0.5]], requires_grad=True)
b = torch.tensor([0.1], requires_grad=True)
x = torch.tensor([[1., 2.], [3., -1.]])
y = torch.tensor([[1.], [0.]])
lr = 0.1
for step in range(3):
    loss = ((x @ w.t() + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b.sub_(lr * b.grad)
    w.grad.zero_()
    b.grad = None
    print(step, round(loss.item(), 5), w.is_leaf, w.requires_grad, w._version)
for step in range(2):
    loss = ((x @ w.t() + b - y) ** 2).mean()
    loss.backward()
    w.data.sub_(lr * w.grad.data)
    b.data = b.data - lr * b.grad.data
    w.grad.data.zero_()
    b.grad.data.zero_()
    print(step, round(loss.item(), 5), w._version, b.grad)
w.data.add_(torch.ones_like(w), alpha=-lr)
show(w, b)
err(lambda: w.sub_(1))
def inplace_in_graph():
    w2 = w * 1
    w2 -= 1
    return w2.grad_fn.name()
print(inplace_in_graph())
''')

qa("qa_ag_mode_combinations", r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        y = x * 2
        print(y.requires_grad, y.is_inference())
with torch.no_grad():
    with torch.inference_mode():
        z = x * 2
    print(z.is_inference(), torch.is_grad_enabled())
with torch.inference_mode():
    with torch.no_grad():
        print(torch.is_inference_mode_enabled())
    with torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    t = torch.ones(2)
    v = t.view(2)
    t.add_(1)
print(v, v.is_inference())
err(lambda: t._version)
n = torch.ones(2)
with torch.inference_mode():
    err(lambda: n.add_(1))
    m = n * 2
print(n, m.is_inference())
''')

qa("qa_ag_batched_hessian", r'''
x = torch.tensor([0.5, 1.0, -1.5], dtype=torch.float64, requires_grad=True)
f = (x.sin() * x.pow(2)).sum()
g, = torch.autograd.grad(f, x, create_graph=True)
H, = torch.autograd.grad(g, x, torch.eye(3, dtype=torch.float64), is_grads_batched=True)
show(H)
print(torch.allclose(H, torch.autograd.functional.hessian(lambda t: (t.sin() * t.pow(2)).sum(), x)))
y = x * 2
y.retain_grad()
(y ** 3).sum().backward(create_graph=True)
print(y.grad.requires_grad, x.grad.requires_grad)
show(y.grad, x.grad)
a = torch.tensor([1., 2.], requires_grad=True)
out = a.exp()
J, = torch.autograd.grad(out, a, torch.eye(2), is_grads_batched=True, create_graph=True)
print(J.requires_grad)
(J.sum()).backward()
show(a.grad)
''')
