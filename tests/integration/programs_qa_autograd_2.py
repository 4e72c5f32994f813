"""QA programs over autograd (continued from programs_qa_autograd.py): anomaly mode,
saved-tensor hooks, graph inspection, node hooks, gradient accumulation and clipping,
checkpointing, backward(inputs=), .grad assignment, module hooks, version counters, views
written in place, optimizers with None grads, grad-mode decorators, multi-grad hooks and
custom Function ctx errors."""
from programs_qa_autograd import qa

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
