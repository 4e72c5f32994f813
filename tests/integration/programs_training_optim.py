"""Programs (see test_programs_ml.py):
optimizers: every optimizer on a quadratic, state_dicts and parameter groups,
a custom Optimizer with a closure, reprs and constructor kwargs, LBFGS, lazy modules
and SWA."""
from programs_ml_common import tr

tr("optimizers_quadratic", r'''
A = torch.tensor([[3.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
b = torch.tensor([1.0, -2.0], dtype=torch.float64)
def run(make, steps=15):
    x = torch.tensor([2.0, 2.0], dtype=torch.float64, requires_grad=True)
    opt = make([x])
    for _ in range(steps):
        opt.zero_grad()
        loss = 0.5 * x @ A @ x - b @ x
        loss.backward()
        opt.step()
    return x.detach().numpy().round(10).tolist(), round(loss.item(), 10)
O = torch.optim
for name, make in [
    ("sgd", lambda p: O.SGD(p, lr=0.1)),
    ("sgd_momentum", lambda p: O.SGD(p, lr=0.1, momentum=0.9, dampening=0.1)),
    ("sgd_nesterov", lambda p: O.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("sgd_maximize", lambda p: O.SGD(p, lr=0.01, maximize=True)),
    ("adam", lambda p: O.Adam(p, lr=0.1)),
    ("adam_amsgrad_wd", lambda p: O.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.1)),
    ("adamw", lambda p: O.AdamW(p, lr=0.1, weight_decay=0.5)),
    ("rmsprop", lambda p: O.RMSprop(p, lr=0.01)),
    ("rmsprop_centered", lambda p: O.RMSprop(p, lr=0.01, momentum=0.9, centered=True)),
    ("adagrad", lambda p: O.Adagrad(p, lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)),
    ("adamax", lambda p: O.Adamax(p, lr=0.2)),
    ("nadam", lambda p: O.NAdam(p, lr=0.1)),
    ("nadam_decoupled", lambda p: O.NAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("radam", lambda p: O.RAdam(p, lr=0.1)),
    ("radam_decoupled", lambda p: O.RAdam(p, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
]:
    print(name, *run(make))
x = torch.tensor([1.0, 1.0], dtype=torch.float64, requires_grad=True)
opt = O.LBFGS([x], lr=1, max_iter=20) if hasattr(O, "LBFGS") else None
''')


tr("optimizer_state_and_groups", r'''
model = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 1))).double()
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") or name.startswith("1.") else decay).append(p)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=0.01)
print(len(opt.param_groups), [len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])
print(sorted(opt.param_groups[0].keys()))
x = torch.from_numpy(np.linspace(-1, 1, 15).reshape(5, 3))
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["state"]), sorted(sd["state"][0]))
print(sd["state"][0]["step"], sd["state"][2]["exp_avg"].numpy().round(9))
model2 = det(nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 1))).double()
model2.load_state_dict(model.state_dict())
params2 = list(model2.parameters())
opt2 = torch.optim.AdamW([{"params": [params2[0], params2[4]], "weight_decay": 0.1},
                          {"params": [params2[1], params2[2], params2[3], params2[5]], "weight_decay": 0.0}], lr=0.01)
opt2.load_state_dict(sd)
for o, m in [(opt, model), (opt2, model2)]:
    o.zero_grad()
    m(x).pow(2).mean().backward()
    o.step()
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
extra = nn.Parameter(torch.ones(2, dtype=torch.float64))
opt.add_param_group({"params": [extra], "lr": 0.1})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["betas"], opt.param_groups[2]["weight_decay"])
try:
    opt.add_param_group({"params": [decay[0]]})
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.Adam([], lr=0.1)
except ValueError as e:
    print("ValueError", e)
''')


tr("custom_optimizer_and_closure", r'''
class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum))
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["buf"] = torch.zeros_like(p)
                    state["step"] = 0
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                state["step"] += 1
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss
model = det(nn.Linear(3, 1), seed=12).double()
X = torch.from_numpy(np.random.RandomState(12).randn(20, 3))
Y = X @ torch.tensor([[1.0], [-2.0], [0.5]], dtype=torch.float64)
opt = SignSGD(model.parameters(), lr=0.05, momentum=0.5)
def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    return loss
for step in range(8):
    loss = opt.step(closure)
    print(step, f"{loss.item():.10f}")
print(opt)
print(opt.state_dict()["state"][0]["step"], sorted(opt.state_dict()["state"][1]))
print(opt.defaults, type(opt.param_groups).__name__)
class WarmupLinear(torch.optim.lr_scheduler.LambdaLR):
    def __init__(self, optimizer, warmup, total):
        super().__init__(optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / (total - warmup))))
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = WarmupLinear(opt, 3, 10)
lrs = []
for _ in range(10):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
class Halving(torch.optim.lr_scheduler.LRScheduler):
    def get_lr(self):
        return [base / (2 ** self.last_epoch) for base in self.base_lrs]
opt = torch.optim.SGD(model.parameters(), lr=1.0)
h = Halving(opt)
for _ in range(3):
    opt.step()
    h.step()
print(h.get_last_lr(), opt.param_groups[0]["initial_lr"])
''')


tr("optimizer_reprs_and_kwargs", r'''
model = det(nn.Linear(2, 1)).double()
O = torch.optim
for opt in [O.SGD(model.parameters(), lr=0.1), O.Adam(model.parameters()), O.AdamW(model.parameters(), lr=1e-3),
            O.RMSprop(model.parameters()), O.Adagrad(model.parameters()), O.Adamax(model.parameters()),
            O.NAdam(model.parameters()), O.RAdam(model.parameters()),
            O.Adam(model.parameters(), lr=1e-3, foreach=False, capturable=False, differentiable=False, fused=None)]:
    print(opt)
    print(sorted(opt.defaults))
opt = O.Adam(model.parameters(), lr=0.01)
x = torch.ones(3, 2, dtype=torch.float64)
for _ in range(2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
print(opt.state_dict())
print(model.weight.grad is not None)
opt.zero_grad()
print(model.weight.grad)
named = O.SGD(model.named_parameters(), lr=0.1, momentum=0.9)
model(x).sum().backward()
named.step()
print(named.state_dict()["param_groups"])
t = O.Adam(model.parameters(), lr=torch.tensor(0.01))
print(type(t.param_groups[0]["lr"]).__name__)
try:
    O.Adam(model.parameters(), betas=(1.5, 0.9))
except ValueError as e:
    print("ValueError", e)
try:
    O.SGD(model.parameters(), lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError", e)
''')


tr("lbfgs_lazy_swa", r'''
x = torch.from_numpy(np.linspace(-1, 1, 20)).unsqueeze(1)
y = 3 * x ** 2 - x + 0.5
model = det(nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1)), seed=120).double()
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=5, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss
for step in range(3):
    loss = opt.step(closure)
    print(step, f"{loss.item():.10f}")
print(sorted(opt.state_dict()["state"][0].keys()) if opt.state_dict()["state"] else None)
lazy = nn.Sequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(2))
print(lazy)
lazy(torch.ones(3, 7))
print(lazy, [tuple(p.shape) for p in lazy.parameters()])
from torch.optim.swa_utils import AveragedModel, SWALR
base = det(nn.Linear(3, 1), seed=121).double()
swa = AveragedModel(base)
o = torch.optim.SGD(base.parameters(), lr=0.1)
s = SWALR(o, swa_lr=0.05, anneal_epochs=2)
X = torch.from_numpy(np.random.RandomState(121).randn(8, 3))
for epoch in range(4):
    o.zero_grad()
    F.mse_loss(base(X), X.sum(1, keepdim=True)).backward()
    o.step()
    swa.update_parameters(base)
    s.step()
    print(epoch, round(o.param_groups[0]["lr"], 8), swa.n_averaged.item())
print(swa.module.weight.detach().numpy().round(10), list(swa.state_dict())[:3])
''')
