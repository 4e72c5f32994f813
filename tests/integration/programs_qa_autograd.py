"""QA programs over autograd and tensor-mutation semantics: tensor / module / node hooks,
retain_grad, in-place checks and their messages, detach and .data, autograd.grad options,
higher-order gradients, custom Functions, autograd.functional, grad modes, saved-tensor
hooks, graph inspection and training-loop gradient handling (run by
test_programs_qa_extra.py): identical stdout under torch and mindtorch."""
from programs_registry import program

HEAD = r'''
import warnings
import torch
def show(*ts, d=4):
    print(*[t.detach().double().round(decimals=d) + 0.0 if isinstance(t, torch.Tensor)
            else round(t, d) if isinstance(t, float) else t for t in ts])
def err(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, "|", str(e).split("\n")[0])
'''


def qa(name, text):
    program(name, HEAD + text)


qa("qa_ag_tensor_hooks", r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
seen = []
h1 = x.register_hook(lambda g: seen.append(("h1", g.tolist())))
h2 = x.register_hook(lambda g: g * 10)
h3 = x.register_hook(lambda g: seen.append(("h3", g.tolist())))
(x * x).sum().backward()
show(x.grad)
print(seen)
h2.remove()
h2.remove()  # removing twice is harmless
x.grad = None
seen.clear()
(x * x).sum().backward()
show(x.grad)
print(seen)
y = x * 2
y.register_hook(lambda g: g + 1)
z = y.pow(2).sum()
z.backward()
show(x.grad)
print(type(h1).__name__, hasattr(h1, "id"))
''')

qa("qa_ag_hooks_nonleaf_view", r'''
a = torch.arange(6., requires_grad=True)
b = a * 1
v = b[1:4]
v.register_hook(lambda g: g * 100)
b.register_hook(lambda g: print("b grad", g.tolist()))
(v.sum() + b.sum()).backward()
show(a.grad)
leaf = torch.ones(2, 3, requires_grad=True)
lv = leaf.view(6)
lv.register_hook(lambda g: g * 2)
(lv * torch.arange(6.)).sum().backward()
show(leaf.grad)
err(lambda: torch.ones(2).register_hook(lambda g: g))
c = torch.ones(2, requires_grad=True)
c.register_hook(lambda g: None)
(c * 3).sum().backward()
show(c.grad)
d = torch.ones(2, requires_grad=True)
d.register_hook(lambda g: g.sum())
err(lambda: (d * 3).sum().backward())
''')

qa("qa_ag_retain_grad", r'''
x = torch.tensor([1., -2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
y.retain_grad()
z = y.relu()
print(y.retains_grad, z.retains_grad, x.retains_grad, x.is_leaf, y.is_leaf)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    g = z.grad
    print(g, len(w), "non-leaf" in str(w[0].message) if w else None)
z.sum().backward()
show(y.grad, x.grad)
z2 = y.relu()
z2.sum().backward()
show(y.grad, x.grad)
x.retain_grad()
print(x.retains_grad)
err(lambda: torch.ones(2).retain_grad())
y2 = x.exp()
y2.retain_grad()
y2.sum().backward(retain_graph=True)
y2.sum().backward()
show(y2.grad)
''')

qa("qa_ag_post_accumulate_hook", r'''
p = torch.tensor([1., 2.], requires_grad=True)
log = []
def hook(t):
    log.append((t is p, t.grad.tolist()))
    with torch.no_grad():
        t.sub_(0.1 * t.grad)
    t.grad = None
h = p.register_post_accumulate_grad_hook(hook)
for _ in range(3):
    (p ** 2).sum().backward()
show(p)
print(p.grad, log)
h.remove()
(p ** 2).sum().backward()
show(p, p.grad)
err(lambda: (p * 2).register_post_accumulate_grad_hook(lambda t: None))
''')

qa("qa_ag_module_backward_hooks", r'''
lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2., 3.], [-1., 0., 1.]]))
    lin.bias.copy_(torch.tensor([0.5, -0.5]))
log = []
def full(m, gin, gout):
    log.append(("full", type(m).__name__, [None if g is None else g.tolist() for g in gin],
                [g.tolist() for g in gout]))
def pre(m, gout):
    log.append(("pre", [g.tolist() for g in gout]))
    return (gout[0] * 2,)
h1 = lin.register_full_backward_hook(full)
h2 = lin.register_full_backward_pre_hook(pre)
x = torch.tensor([[1., 1., 1.]], requires_grad=True)
lin(x).sum().backward()
for l in log: print(l)
show(x.grad, lin.weight.grad)
log.clear()
h2.remove()
x2 = torch.tensor([[1., 0., 2.]])
lin(x2).sum().backward()
for l in log: print(l)
h1.remove()
def replace(m, gin, gout):
    return (gin[0] * 0 + 1,)
lin.register_full_backward_hook(replace)
x3 = torch.tensor([[2., 2., 2.]], requires_grad=True)
lin(x3).pow(2).sum().backward()
show(x3.grad)
''')

qa("qa_ag_module_forward_hooks", r'''
class M(torch.nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
m = M()
def pre(mod, args, kwargs):
    print("pre", [a.tolist() for a in args], kwargs)
    return args, {"scale": kwargs.get("scale", 1.0) * 2}
def post(mod, args, kwargs, out):
    print("post", kwargs, out.tolist())
    return out + 1
hp = m.register_forward_pre_hook(pre, with_kwargs=True)
ho = m.register_forward_hook(post, with_kwargs=True)
print(m(torch.tensor([1., 2.]), scale=3.0).tolist())
print(m(torch.tensor([1.])).tolist())
hp.remove(); ho.remove()
m.register_forward_pre_hook(lambda mod, args: (args[0] * 10,))
m.register_forward_hook(lambda mod, args, out: None)
m.register_forward_hook(lambda mod, args, out: print("always", out.tolist()), always_call=True)
print(m(torch.tensor([1., 2.])).tolist())
first = []
m.register_forward_hook(lambda mod, a, o: first.append("prepended"), prepend=True)
m(torch.tensor([0.]))
print(first)
print(len(m._forward_hooks), len(m._forward_pre_hooks))
''')

qa("qa_ag_global_module_hooks", r'''
from torch.nn.modules.module import (register_module_forward_hook,
    register_module_forward_pre_hook, register_module_full_backward_hook)
log = []
g1 = register_module_forward_pre_hook(lambda m, a: log.append(("gpre", type(m).__name__)))
g2 = register_module_forward_hook(lambda m, a, o: log.append(("gpost", type(m).__name__, tuple(o.shape))))
g3 = register_module_full_backward_hook(lambda m, gi, go: log.append(("gback", type(m).__name__)))
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
out = net(torch.ones(4, 2))
out.sum().backward()
for l in log: print(l)
g1.remove(); g2.remove(); g3.remove()
log.clear()
net(torch.ones(1, 2)).sum().backward()
print(log)
''')

qa("qa_ag_backward_twice", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward()
err(lambda: y.backward())
y2 = (x.exp()).sum()
y2.backward(retain_graph=True)
y2.backward()
show(x.grad)
z = x + 1
(z * 2).sum().backward()
(z * 3).sum().backward()  # AddBackward saves nothing
show(x.grad)
w = torch.ones(2, requires_grad=True)
err(lambda: (w * 2).backward())
err(lambda: torch.ones(2).sum().backward())
err(lambda: (w * 2).backward(torch.ones(3)))
(w * 2).backward(torch.tensor([1., 2.]))
show(w.grad)
''')

qa("qa_ag_inplace_saved", r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
c = b * 2
b.add_(1)
err(lambda: c.sum().backward())
d = a * 1
e = d.exp()
d.mul_(2)
err(lambda: e.sum().backward())
f = a * 1
print(f._version)
f.add_(1); f[0] = 5
print(f._version)
g = a.tanh()
h = g.pow(2)
g.zero_()
err(lambda: h.sum().backward())
k = a * 1
l = k * k
k += 1
err(lambda: l.sum().backward())
# modifying an input not saved is fine
m = a * 1
n = m + 3
m.mul_(4)
n.sum().backward()
show(a.grad)
''')

qa("qa_ag_inplace_leaf", r'''
x = torch.ones(3, requires_grad=True)
err(lambda: x.add_(1))
err(lambda: x.zero_())
def setitem(): x[0] = 2
err(setitem)
err(lambda: x.view(3).mul_(2))
with torch.no_grad():
    x.mul_(3)
print(x, x.requires_grad, x.is_leaf, x._version)
x.data.add_(1)
print(x.tolist(), x._version)
y = torch.ones(3)
y.add_(torch.ones(3, requires_grad=True))
print(y.requires_grad, y.is_leaf, y.grad_fn.name())
''')

qa("qa_ag_inplace_view_of_leaf", r'''
base = torch.arange(6.).requires_grad_()
z = base * 1
v = z[2:4]
v.mul_(10)
print(z.grad_fn.name(), v.grad_fn.name())
z.sum().backward()
show(base.grad)
w = torch.zeros(2, 3, requires_grad=True)
u = w.clone()
u[0].add_(torch.tensor([1., 2., 3.]) * w[1])
u.pow(2).sum().backward()
show(w.grad)
q = torch.ones(4, requires_grad=True)
r = q * 2
s = r.view(2, 2)
s[1, 1] = 100
print(r.tolist(), r.grad_fn.name())
r.sum().backward()
show(q.grad)
with torch.no_grad():
    t = q[:2]
err(lambda: t.mul_(2))
print(t.requires_grad)
''')

qa("qa_ag_int_requires_grad", r'''
err(lambda: torch.tensor([1, 2], requires_grad=True))
err(lambda: torch.arange(3).requires_grad_())
err(lambda: torch.ones(2, dtype=torch.long, requires_grad=True))
err(lambda: torch.zeros(2, dtype=torch.bool).requires_grad_())
x = torch.arange(3)
x.requires_grad_(False)
print(x.requires_grad)
c = torch.tensor([1 + 1j], requires_grad=True)
print(c.requires_grad, c.dtype)
f = torch.tensor([1., 2.], requires_grad=True)
i = f.long()
print(i.requires_grad, i.grad_fn)
am = f.argmax()
print(am.requires_grad, (f > 1).requires_grad)
h = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
print(h.requires_grad)
err(lambda: setattr(torch.arange(2), "requires_grad", True))
''')

qa("qa_ag_detach_data", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
d = y.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn, d._version)
d[0] = 10
print(y.tolist())
err(lambda: y.sum().backward())
y2 = x * 3
y2.detach_()
print(y2.requires_grad, y2.is_leaf, y2.grad_fn)
v = (x * 1)[:1]
err(lambda: v.detach_())
z = x * 4
dd = z.data
print(dd.requires_grad, dd.is_leaf)
dd.mul_(0)
w = z.exp()
w.sum().backward()
show(x.grad)
p = torch.ones(2, requires_grad=True)
p.data = torch.tensor([5., 6., 7.])
print(p.shape, p.requires_grad, p.is_leaf)
err(lambda: setattr(p, "data", [1, 2]))
print(x.detach().data_ptr() == x.data_ptr(), x.data.data_ptr() == x.data_ptr())
''')

qa("qa_ag_grad_allow_unused", r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor(5., requires_grad=True)
y = (a * a).sum()
err(lambda: torch.autograd.grad(y, [a, b], retain_graph=True))
print(torch.autograd.grad(y, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [a, b, c], materialize_grads=True, retain_graph=True))
err(lambda: torch.autograd.grad(y, [a, b], allow_unused=False, materialize_grads=True))
out = torch.autograd.grad([y, (b * 2).sum()], [a, b])
print(out)
err(lambda: torch.autograd.grad(torch.ones(2) * 2, a))
z = a * b
err(lambda: torch.autograd.grad(z, a))
print(torch.autograd.grad(z, a, grad_outputs=torch.tensor([1., -1.])))
print(torch.autograd.grad(z.sum(), (a,), retain_graph=False)[0].requires_grad)
e = torch.ones(2, requires_grad=True)
print(torch.autograd.grad((e * 2).sum(), e, only_inputs=True))
''')

qa("qa_ag_grad_create_graph", r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
show(g)
g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
show(g2)
g3, = torch.autograd.grad(g2.sum(), x)
show(g3)
w = torch.tensor(2., requires_grad=True)
f = torch.sin(w) * w
d1, = torch.autograd.grad(f, w, create_graph=True)
d2, = torch.autograd.grad(d1, w, create_graph=True)
d3, = torch.autograd.grad(d2, w)
show(d1, d2, d3)
v = torch.tensor([1., 2.], requires_grad=True)
loss = (v.exp() * v).sum()
loss.backward(create_graph=True)
gn = v.grad.norm()
print(v.grad.requires_grad)
v.grad = None
gn.backward()
show(v.grad)
''')

qa("qa_ag_grad_batched", r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
eye = torch.eye(3)
jac, = torch.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True)
show(jac)
W = torch.arange(6.).reshape(2, 3).requires_grad_()
out = W @ x
jw, jx = torch.autograd.grad(out, (W, x), torch.eye(2), is_grads_batched=True)
print(jw.shape, jx.shape)
show(jw, jx)
z = x.sin().sum()
gb, = torch.autograd.grad(z, x, torch.tensor([1., 2.]), is_grads_batched=True)
show(gb)
''')

qa("qa_ag_function_setup_context", r'''
class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(x, y, alpha):
        return x * y + alpha
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, alpha = inputs
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        return g * y if ctx.needs_input_grad[0] else None, g * x if ctx.needs_input_grad[1] else None, None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
out = MulAdd.apply(x, y, 0.5)
print(out, out.grad_fn.name(), type(out.grad_fn).__name__)
out.sum().backward()
show(x.grad)
y.requires_grad_()
MulAdd.apply(x, y, 1.0).sum().backward()
show(x.grad, y.grad)
with torch.no_grad():
    r = MulAdd.apply(x, y, 1.0)
print(r.requires_grad, r.grad_fn)
''')

qa("qa_ag_function_ctx_features", r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * x
        ctx.save_for_backward(x, y)
        return y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return 2 * x * g
class AddOne_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.add_(1)
    @staticmethod
    def backward(ctx, g):
        return g
class SortIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print("gi", gi)
        return torch.zeros_like(gv).scatter(0, i, gv)
x = torch.tensor([3., 1., 2.], requires_grad=True)
s = Square.apply(x)
s.sum().backward()
show(x.grad)
a = x * 1
b = AddOne_.apply(a)
print(b is a, a._version, b.grad_fn.name())
(b * b).sum().backward()
show(x.grad)
v, i = SortIdx.apply(x)
print(v.requires_grad, i.requires_grad, i)
(v * torch.tensor([1., 10., 100.])).sum().backward()
show(x.grad)
err(lambda: AddOne_.apply(torch.ones(2, requires_grad=True)))
''')

qa("qa_ag_function_materialize", r'''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, flag):
        ctx.set_materialize_grads(flag)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("g1", None if g1 is None else g1.tolist(), "g2", None if g2 is None else g2.tolist())
        out = 0
        if g1 is not None: out = out + 2 * g1
        if g2 is not None: out = out + 3 * g2
        return out, None
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Two.apply(x, True)
a.sum().backward()
show(x.grad)
x.grad = None
a, b = Two.apply(x, False)
a.sum().backward()
show(x.grad)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g, g
err(lambda: Bad.apply(torch.ones(2, requires_grad=True)).sum().backward())
class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g.expand(3)
err(lambda: BadShape.apply(torch.ones(2, requires_grad=True)).backward())
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
err(lambda: NoBackward.apply(torch.ones(2, requires_grad=True)).sum().backward())
''')

qa("qa_ag_function_once_diff", r'''
from torch.autograd.function import once_differentiable
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print("grad enabled in backward:", torch.is_grad_enabled(), g.requires_grad)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
show(g)
print(g.requires_grad)
err(lambda: g.sum().backward())
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
z = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(Twice.apply(z).sum(), z, create_graph=True)
g2, = torch.autograd.grad(g.sum(), z)
show(g, g2)
''')

qa("qa_ag_function_nontensor_views", r'''
class Stats(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.n = x.numel()
        return x.mean(), x.numel(), "tag"
    @staticmethod
    def backward(ctx, g, g_n, g_tag):
        print("extra grads", g_n, g_tag)
        return g.expand(ctx.n) / ctx.n
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
m, n, tag = Stats.apply(x)
print(type(n).__name__, n, tag, m.requires_grad)
m.backward()
show(x.grad)
class Alias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g * 5
a = x * 1
v = Alias.apply(a)
print(v._base is a, v.is_leaf, v.grad_fn.name())
v.sum().backward()
show(x.grad)
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
z = torch.tensor([0., 1.], requires_grad=True)
e = SaveOut.apply(z)
e.sum().backward(retain_graph=True)
show(z.grad)
with torch.no_grad():
    e.mul_(2)
err(lambda: e.sum().backward())
''')

qa("qa_ag_functional_jacobian_hessian", r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.sum() ** 2])
x = torch.tensor([1., 2.])
show(jacobian(f, x))
show(jacobian(f, x, vectorize=True))
show(jacobian(f, x, strategy="forward-mode", vectorize=True))
def g(a, b):
    return (a * b).sum() + (a ** 3).sum()
a, b = torch.tensor([1., 2.]), torch.tensor([3., -1.])
ja = jacobian(g, (a, b))
print(type(ja).__name__, len(ja))
show(*ja)
h = hessian(g, (a, b))
show(h[0][0], h[0][1], h[1][0], h[1][1])
j = jacobian(lambda t: t.exp(), torch.tensor([0., 1.]), create_graph=True)
print(j.requires_grad)
err(lambda: jacobian(lambda t: torch.ones(2), torch.ones(2), strict=True))
show(jacobian(lambda t: torch.ones(2), torch.ones(2)))
err(lambda: jacobian(f, x, strategy="bad"))
''')

qa("qa_ag_functional_products", r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
def f(x):
    return x ** 2 * x.flip(0)
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., -1.])
out, g = vjp(f, x, v)
show(out, g)
out, g = jvp(f, x, v)
show(out, g)
def s(x):
    return (x.sin() * x).sum()
out, g = hvp(s, x, v)
show(out, g)
out, g = vhp(s, x, v)
show(out, g)
out, g = vjp(s, x)
show(out, g)
err(lambda: vjp(f, x))
out, g = vjp(f, x, v, create_graph=True)
print(out.requires_grad, g.requires_grad)
xs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
out, gs = vjp(lambda a, b: a * b, xs, torch.ones(2))
show(out, *gs)
err(lambda: vjp(lambda a: a.detach(), torch.ones(2), torch.ones(2), strict=True))
''')

qa("qa_ag_grad_modes", r'''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    print(torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
        with torch.set_grad_enabled(False):
            print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
prev = torch.set_grad_enabled(False)
print(type(prev).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
@torch.no_grad()
def f(t):
    return t * 2
@torch.enable_grad()
def g(t):
    return t * 2
print(f(x).requires_grad)
with torch.no_grad():
    print(g(x).requires_grad)
@torch.no_grad
def f2(t):
    return t * 3
print(f2(x).requires_grad, f2.__name__)
@torch.inference_mode()
def inf(t):
    return t * 2
r = inf(x)
print(r.requires_grad, r.is_inference(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        y = x * 2
    print(y.requires_grad, y.is_inference())
    i = torch.ones(2)
print(i.is_inference(), x.is_inference())
err(lambda: i.add_(1))
err(lambda: (i * x).sum().backward())
def gen():
    for k in range(2):
        yield torch.is_grad_enabled()
print(list(torch.no_grad()(gen)()))
print(torch.set_grad_enabled(False).__class__.__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
''')

# the rest, registered with these (test_programs_qa_extra imports this module only)
import programs_qa_autograd_2  # noqa: F401
import programs_qa_autograd_3  # noqa: F401
import programs_qa_autograd_4  # noqa: F401
