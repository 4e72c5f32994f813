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

qa("qa_ag_anomaly", r'''
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    x = torch.tensor([0., 1.], requires_grad=True)
    y = x.sqrt() * 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        err(lambda: (x / x).sum().backward())
with torch.autograd.detect_anomaly(check_nan=False):
    print(torch.is_anomaly_check_nan_enabled())
    z = torch.tensor([0.], requires_grad=True)
    (z / z).sum().backward()
    print(z.grad)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
class NanBack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * float("nan")
with torch.autograd.detect_anomaly():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        err(lambda: NanBack.apply(torch.ones(1, requires_grad=True)).sum().backward())
''')

qa("qa_ag_saved_tensors_hooks", r'''
packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t * 1
def unpack(t):
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x.exp() * x).sum()
print(packed)
y.backward()
show(x.grad)
store = {}
def pack2(t):
    k = len(store)
    store[k] = t.clone()
    return k
def unpack2(k):
    return store[k] * 0 + 1
a = torch.tensor([2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack2, unpack2):
    b = a * a
b.sum().backward()
show(a.grad)
print(len(store))
with torch.autograd.graph.save_on_cpu():
    c = (a.sin() * a.cos()).sum()
a.grad = None
c.backward()
show(a.grad)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    d = a.pow(3).sum()
print(torch.autograd.grad(d, a))
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    err(lambda: torch.autograd.graph.saved_tensors_hooks(pack, unpack).__enter__())
''')

qa("qa_ag_graph_inspection", r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
print(y.grad_fn.name(), type(y.grad_fn).__name__)
nf = y.grad_fn.next_functions
print(len(nf), nf[0][0].name(), nf[0][1])
mul = nf[0][0]
print([(f.name() if f is not None else None, i) for f, i in mul.next_functions])
acc = mul.next_functions[0][0]
print(acc.variable is x, type(acc).__name__)
show(mul._saved_self, mul._saved_other)
print(mul.metadata, type(mul.metadata).__name__)
mul.metadata["tag"] = 1
print(y.grad_fn.next_functions[0][0].metadata)
p = x.pow(3)
print(p.grad_fn._saved_exponent, p.grad_fn._saved_self is not None)
s = x.sum(dim=0, keepdim=True)
print(s.grad_fn.name(), s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
t = x.unsqueeze(1).transpose(0, 1)
print(t.grad_fn.name(), t.grad_fn._saved_dim0, t.grad_fn._saved_dim1)
e = x.exp()
show(e.grad_fn._saved_result)
print(x.grad_fn, torch.ones(1).grad_fn)
y.backward()
err(lambda: mul._saved_self)
c = torch.cat([x, w])
print(c.grad_fn.name(), c.grad_fn._saved_dim)
print(isinstance(y.grad_fn, torch.autograd.graph.Node))
''')

qa("qa_ag_node_hooks", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = y.exp().sum()
log = []
def post(gin, gout):
    log.append(("post", [None if g is None else [round(v, 3) for v in g.tolist()] for g in gin],
                [[round(v, 3) for v in g.tolist()] for g in gout]))
def pre(gout):
    log.append(("pre", [[round(v, 3) for v in g.tolist()] for g in gout]))
    return (gout[0] * 0 + 1,)
h1 = y.grad_fn.register_hook(post)
h2 = y.grad_fn.register_prehook(pre)
z.backward(retain_graph=True)
for l in log: print(l)
show(x.grad)
h2.remove()
log.clear()
x.grad = None
z.backward()
for l in log: print(l)
show(x.grad)
a = torch.ones(2, requires_grad=True)
b = a * 2
b.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))
b.sum().backward()
show(a.grad)
acc_log = []
c = torch.ones(2, requires_grad=True)
d = c * 1
d.grad_fn.next_functions[0][0].register_prehook(lambda go: acc_log.append("acc pre"))
d.sum().backward()
print(acc_log)
''')

qa("qa_ag_accumulation_zero_grad", r'''
model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.5]]))
    model.bias.fill_(0.1)
xs = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])
ys = torch.tensor([[1.], [0.], [1.], [0.]])
for i in range(2):
    loss = torch.nn.functional.mse_loss(model(xs[2 * i:2 * i + 2]), ys[2 * i:2 * i + 2]) / 2
    loss.backward()
show(model.weight.grad, model.bias.grad)
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
model.zero_grad()
print(model.weight.grad, model.bias.grad)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(xs).sum().backward()
g_before = model.weight.grad
opt.zero_grad(set_to_none=False)
print(g_before is model.weight.grad, model.weight.grad)
opt.zero_grad()
print(model.weight.grad)
model.bias.requires_grad_(False)
model(xs).sum().backward()
opt.step()
show(model.weight, model.bias)
print(model.bias.grad)
extra = torch.nn.Parameter(torch.ones(2))
opt2 = torch.optim.Adam([extra, model.weight], lr=0.1)
opt2.step()
print(extra.tolist(), len(opt2.state))
''')

qa("qa_ag_clip_grad", r'''
ps = [torch.nn.Parameter(torch.tensor([3., 4.])), torch.nn.Parameter(torch.tensor([[1., 2.], [2., 1.]]))]
for p in ps:
    p.grad = p.detach() * 2
n = torch.nn.utils.clip_grad_norm_(ps, max_norm=1.0)
show(n, ps[0].grad, ps[1].grad)
for p in ps:
    p.grad = p.detach() * 2
n = torch.nn.utils.clip_grad_norm_(ps, max_norm=100.0)
show(n, ps[0].grad)
n = torch.nn.utils.clip_grad_norm_(ps, max_norm=1.0, norm_type="inf")
show(n, ps[0].grad)
for p in ps:
    p.grad = p.detach() * 2
n = torch.nn.utils.clip_grad_norm_(ps, 2.0, norm_type=1)
show(n, ps[1].grad)
torch.nn.utils.clip_grad_value_(ps, 0.5)
show(ps[0].grad, ps[1].grad)
nogr = torch.nn.Parameter(torch.ones(2))
print(torch.nn.utils.clip_grad_norm_([nogr], 1.0))
print(torch.nn.utils.clip_grad_norm_([], 1.0))
q = torch.nn.Parameter(torch.ones(2))
q.grad = torch.tensor([float("nan"), 1.])
err(lambda: torch.nn.utils.clip_grad_norm_([q], 1.0, error_if_nonfinite=True))
print(torch.nn.utils.clip_grad_norm_([q], 1.0))
print(torch.nn.utils.get_total_norm([torch.tensor([3., 4.]), torch.tensor([12.])]))
''')

qa("qa_ag_checkpoint_training", r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
block = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 4))
head = torch.nn.Linear(4, 1)
params = list(block.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.05)
x = torch.linspace(-1, 1, 12).reshape(3, 4)
t = torch.tensor([[1.], [0.], [-1.]])
counter = [0]
def run(inp):
    counter[0] += 1
    return block(inp)
for step in range(3):
    opt.zero_grad()
    h = checkpoint(run, x, use_reentrant=False)
    loss = torch.nn.functional.mse_loss(head(h), t)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), counter[0])
xr = x.clone().requires_grad_()
out = checkpoint(run, xr, use_reentrant=True)
out.sum().backward()
show(xr.grad.sum())
seq = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(4)])
o = checkpoint_sequential(seq, 2, xr, use_reentrant=False)
o.sum().backward()
print(o.shape, seq[0].weight.grad is not None)
''')

qa("qa_ag_backward_inputs", r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = (a * b).sum()
y.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
y.backward(inputs=b)
print(a.grad, b.grad)
err(lambda: (a * 2).sum().backward(inputs=[]))
c = a * 3
d = (c * c).sum()
d.backward(inputs=[c], retain_graph=True)
print(c.grad, a.grad)
torch.autograd.backward([(a * 2).sum(), (b * 3).sum()])
print(a.grad, b.grad)
torch.autograd.backward(a * b, grad_tensors=torch.tensor([1., -1.]))
print(a.grad, b.grad)
err(lambda: torch.autograd.backward([a * 2], [torch.ones(2), torch.ones(2)]))
err(lambda: torch.autograd.backward(a * 2, torch.ones(3)))
err(lambda: torch.autograd.backward((a * 2).sum(), 5))
''')

qa("qa_ag_grad_assignment", r'''
p = torch.ones(2, 2, requires_grad=True)
err(lambda: setattr(p, "grad", torch.ones(3)))
err(lambda: setattr(p, "grad", torch.ones(2, 2, dtype=torch.float64)))
err(lambda: setattr(p, "grad", [1.0]))
p.grad = torch.full((2, 2), 2.)
(p * 3).sum().backward()
print(p.grad)
g = p.grad
(p * 1).sum().backward()
print(g is p.grad, p.grad)
q = torch.ones(3, requires_grad=True)
q.grad = torch.arange(6.)[::2]
(q * 1).sum().backward()
print(q.grad, q.grad.is_contiguous())
r = torch.ones(2, 3, requires_grad=True)
(r.t() * torch.arange(6.).reshape(3, 2)).sum().backward()
print(r.grad.stride(), r.grad)
r.grad = None
print(r.grad)
del r.grad
print(r.grad)
s = torch.ones(2, requires_grad=True)
with torch.no_grad():
    s.grad = torch.zeros(2)
print(s.grad)
''')

qa("qa_ag_leaf_hook_accumulated", r'''
w = torch.tensor([1., 2.], requires_grad=True)
calls = []
w.register_hook(lambda g: calls.append(g.tolist()))
y = (w * 2).sum() + (w * 3).sum() + (w ** 2).sum()
y.backward()
print(calls, w.grad)
lin = torch.nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 0.], [2., 1.]]))
seen = []
lin.weight.register_hook(lambda g: seen.append(g.sum().item()) or g * 0.5)
x = torch.tensor([[1., 1.]])
out = lin(lin(x))
out.sum().backward()
print(seen, lin.weight.grad)
''')

qa("qa_ag_module_backward_hook_cases", r'''
class Two(torch.nn.Module):
    def forward(self, a, b):
        return a * b, a + b
m = Two()
log = []
m.register_full_backward_hook(lambda mod, gi, go: log.append(
    ([None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go])))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
p, s = m(a, b)
(p.sum() * 2).backward()
print(log)
log.clear()
p, s = m(a, b)
(p + s).sum().backward()
print(log)
relu_after = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(inplace=True))
relu_after[0].register_full_backward_hook(lambda mod, gi, go: None)
err(lambda: relu_after(torch.ones(1, 2)))
lin = torch.nn.Linear(2, 1)
lin.register_full_backward_hook(lambda mod, gi, go: print("gi", gi))
lin(torch.ones(1, 2)).sum().backward()
''')

qa("qa_ag_inplace_versions", r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
print(y._version)
y.add_(1); y.mul_(2); y.clamp_(max=5)
print(y._version)
v = y[1:]
v.sub_(1)
print(y._version, v._version)
z = y.clone()
print(z._version)
y.data.fill_(0)
print(y._version)
with torch.no_grad():
    y.fill_(1)
print(y._version)
w = y.view(3)
w.relu_()
print(y._version, w._version)
a = x.exp()
b = a.view(3)
c = a * 3
b.add_(1)
err(lambda: torch.autograd.grad(c.sum(), x))
d = x.sin()
e = d.cos()
d[0] = 0
err(lambda: e.sum().backward())
f = torch.ones(2, 2, requires_grad=True).clone()
g = f.t()
h = g.exp()
f.mul_(2)
err(lambda: h.sum().backward())
''')

qa("qa_ag_view_inplace_grad_fn", r'''
x = torch.arange(4.).requires_grad_()
y = x * 1
v = y[:2]
print(v.grad_fn.name(), v._base is y)
v.mul_(3)
print(y.grad_fn.name(), v.grad_fn.name())
u = y.unbind(0)
err(lambda: u[0].add_(1))
parts = y.split(2)
err(lambda: parts[1].mul_(2))
y.sum().backward()
show(x.grad)
z = x.detach().clone()
z2 = z[1:3]
z2.add_(x[:2])
print(z.requires_grad, z.grad_fn.name(), z2.grad_fn.name())
z.sum().backward()
show(x.grad)
t = torch.zeros(3, 3)
t[0] = x[:3]
t.diagonal().add_(x[1:])
t.sum().backward()
show(x.grad)
''')

qa("qa_ag_checkpoint_dropout_kwargs", r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
lin = torch.nn.Linear(4, 4)
drop = torch.nn.Dropout(0.5)
def f(x, scale, bias=None):
    h = drop(lin(x)) * scale
    return h + bias if bias is not None else h
x = torch.linspace(-2, 2, 8).reshape(2, 4).requires_grad_()
torch.manual_seed(1)
out = checkpoint(f, x, 2.0, bias=torch.ones(4), use_reentrant=False)
out.sum().backward()
g1 = x.grad.clone()
x.grad = None
torch.manual_seed(1)
out2 = f(x, 2.0, bias=torch.ones(4))
out2.sum().backward()
print(torch.equal(out, out2), torch.allclose(g1, x.grad))
show(out.sum(), g1.sum())
x.grad = None
torch.manual_seed(1)
o3 = checkpoint(f, x, 2.0, use_reentrant=False, preserve_rng_state=True)
o3.sum().backward()
show(o3.sum(), x.grad.sum())
err(lambda: checkpoint(f, x, 2.0, bias=torch.ones(4), use_reentrant=True))
with torch.no_grad():
    o4 = checkpoint(f, x, 1.0, use_reentrant=False)
print(o4.requires_grad)
''')

qa("qa_ag_optimizer_none_grads", r'''
a = torch.nn.Parameter(torch.tensor([1., 2.]))
b = torch.nn.Parameter(torch.tensor([3., 4.]))
for name, opt in [("sgd", torch.optim.SGD([a, b], lr=0.1, momentum=0.9, weight_decay=0.1)),
                  ("adam", torch.optim.Adam([a, b], lr=0.1)),
                  ("adamw", torch.optim.AdamW([a, b], lr=0.1)),
                  ("rmsprop", torch.optim.RMSprop([a, b], lr=0.1)),
                  ("adagrad", torch.optim.Adagrad([a, b], lr=0.1))]:
    opt.zero_grad()
    (a ** 2).sum().backward()
    opt.step()
    opt.step()
    print(name, b.grad, [round(v, 4) for v in a.tolist()], b.tolist(),
          sorted(len(opt.state[p]) for p in (a, b)))
opt = torch.optim.SGD([a], lr=1.0)
a.grad = torch.tensor([1., 1.])
opt.zero_grad(set_to_none=False)
print(a.grad)
opt.step()
print(a.tolist())
''')

qa("qa_ag_grad_mode_decorators", r'''
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2))
    @torch.no_grad()
    def predict(self, x):
        return self.w * x
    @torch.inference_mode()
    def infer(self, x):
        return self.w * x
    @torch.enable_grad()
    def train_step(self, x):
        return (self.w * x).sum()
n = Net()
x = torch.tensor([1., 2.])
p = n.predict(x)
print(p.requires_grad, p.is_inference())
q = n.infer(x)
print(q.requires_grad, q.is_inference())
with torch.no_grad():
    l = n.train_step(x)
print(l.requires_grad)
print(n.predict.__name__, n.infer.__name__)
@torch.set_grad_enabled(False)
def off(t):
    return torch.is_grad_enabled()
print(off(x), torch.is_grad_enabled())
with torch.no_grad(), torch.enable_grad():
    print(torch.is_grad_enabled())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled())
err(lambda: q.requires_grad_())
err(lambda: torch.tensor([1.]).requires_grad_().add_(q))
print((q + 1).is_inference(), torch.is_inference(q))
k = q.clone()
print(k.is_inference())
''')

qa("qa_ag_double_backward_nets", r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
x = torch.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
y = net(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
penalty = (gx.norm(2, dim=1) - 1).pow(2).mean()
penalty.backward()
show(penalty)
print([tuple(p.grad.shape) for p in net.parameters()])
show(net[0].weight.grad.sum(), net[2].bias.grad)
u = torch.tensor(0.7, requires_grad=True)
f = torch.sigmoid(u) * u.exp()
grads = [f]
for _ in range(3):
    grads.append(torch.autograd.grad(grads[-1], u, create_graph=True)[0])
show(*grads)
s = torch.tensor([1., 2.], requires_grad=True)
h = torch.autograd.functional.hessian(lambda t: (t.prod() * t.sum()), s, create_graph=True)
print(h.requires_grad)
h.sum().backward()
show(s.grad)
''')

qa("qa_ag_hooks_and_inplace", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.add_(1)
(y * y).sum().backward()
print("retain after inplace", y.grad, x.grad)
x.grad = None
y = x * 2
y.register_hook(lambda g: print("hook before inplace", g))
y.mul_(3)
y.register_hook(lambda g: print("hook after inplace", g))
y.sum().backward()
print(x.grad)
h = x.exp()
out = (h * 3).sum()
print(torch.autograd.grad(out, h))
print(torch.autograd.grad(x, x, torch.ones(2)))
err(lambda: torch.autograd.grad(x.sum(), x.detach()))
z = x * torch.tensor([3., 4.])
print(z.grad_fn(torch.ones(2)))
print(x.sum().grad_fn.next_functions[0][0].next_functions)
k = torch.ones(2)
torch.autograd.graph.increment_version(k)
torch.autograd.graph.increment_version([k, k])
print(k._version)
err(lambda: (x * 2).requires_grad_(False))
print((x * 2).requires_grad_(True).requires_grad, torch.ones(2).requires_grad_(True).is_leaf)
''')

qa("qa_ag_multi_grad_hook", r'''
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
res = []
hh = torch.autograd.graph.register_multi_grad_hook(
    (a, b), lambda gs: res.append([None if g is None else g.tolist() for g in gs]))
(a * 2).sum().backward()
(a * 2 + b * 3).sum().backward()
c = a * b
d = a * b
(c * 4).sum().backward(inputs=(a,))
print(res)
hh.remove()
(a * 2).sum().backward()
print(len(res))
res2 = []
h2 = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: res2.append(g.tolist()), mode="any")
(a * 5 + b * 7).sum().backward()
(b * 6).sum().backward()
print(res2)
err(lambda: torch.autograd.graph.register_multi_grad_hook((a,), print, mode="some"))
''')

qa("qa_ag_module_hook_misc", r'''
from torch.nn.modules.module import (register_module_full_backward_pre_hook,
                                     register_module_backward_hook)
lin = torch.nn.Linear(2, 2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    lin.register_backward_hook(lambda m, gi, go: print("old hook", len(gi), len(go)))
    lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
    print([(x.category.__name__, str(x.message)) for x in w])
err(lambda: lin.register_full_backward_hook(lambda m, gi, go: None))
hp = register_module_full_backward_pre_hook(lambda m, go: print("global pre", type(m).__name__))
torch.nn.Tanh()(torch.ones(2, requires_grad=True)).sum().backward()
hp.remove()
class Boom(torch.nn.Module):
    def forward(self, x):
        raise ValueError("boom")
bm = Boom()
bm.register_forward_hook(lambda m, a, o: print("always called", o), always_call=True)
bm.register_forward_hook(lambda m, a, o: print("not called"))
err(lambda: bm(torch.ones(1)))
t = torch.nn.Tanh()
t.register_full_backward_hook(lambda m, gi, go: print("no input grad", gi, [g.tolist() for g in go]))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    p = torch.nn.Parameter(torch.ones(2))
    (t(torch.ones(2)) * p).sum().backward()
    print([str(x.message)[:60] for x in w])
''')

qa("qa_ag_function_ctx_errors", r'''
class SaveInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
err(lambda: SaveInt.apply(torch.ones(2, requires_grad=True)))
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        tmp = x.exp()
        ctx.save_for_backward(x, tmp, None)
        return tmp * 2
    @staticmethod
    def backward(ctx, g):
        x, tmp, nothing = ctx.saved_tensors
        again = ctx.saved_tensors
        print("none saved:", nothing, len(again))
        return g * 2 * tmp
x = torch.tensor([0., 1.], requires_grad=True)
y = Keep.apply(x)
y.sum().backward()
show(x.grad)
err(lambda: y.grad_fn.saved_tensors)
z = Keep.apply(x)
print(len(z.grad_fn.saved_tensors), z.grad_fn.needs_input_grad)
class KW(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale=2.0):
        return x * scale
    @staticmethod
    def backward(ctx, g):
        return g * 2.0, None
print(KW.apply(torch.ones(1)))
err(lambda: KW.apply(torch.ones(1), scale=3.0))
class NonDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        a, b = x * 2, x * 3
        ctx.mark_non_differentiable(b)
        return a, b
    @staticmethod
    def backward(ctx, ga, gb):
        print("gb", gb)
        return ga * 2
a, b = NonDiff.apply(x)
print(b.requires_grad, b.grad_fn)
err(lambda: b.sum().backward())
(a.sum() + b.sum()).backward()
show(x.grad)
class Nested(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return Keep.apply(x) * g
x.grad = None
w = Nested.apply(x)
gw, = torch.autograd.grad(w.sum(), x, create_graph=True)
show(gw)
print(gw.grad_fn.name())
gw.sum().backward()
show(x.grad)
''')

qa("qa_ag_anomaly_warning", r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y * 2
y.add_(1)
with torch.autograd.detect_anomaly():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        err(lambda: z.sum().backward())
        msgs = [str(m.message).split("\n")[0] for m in w]
        print([m for m in msgs if "anomaly" not in m.lower()][:1])
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_check_nan_enabled())
@torch.autograd.detect_anomaly()
def f():
    return torch.is_anomaly_enabled()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(f())
''')

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
