"""Programs (see test_programs_ml.py):
learning-rate schedulers: the common schedulers' lr curves,
ReduceLROnPlateau, and scheduler details (state, chaining, last_epoch)."""
from programs_ml_common import tr

tr("lr_schedulers", r'''
def lrs(make_sched, steps=12, lr=0.1, opt_cls=torch.optim.SGD, **kw):
    p = nn.Parameter(torch.zeros(1))
    opt = opt_cls([p], lr=lr, **kw)
    sched = make_sched(opt)
    out = []
    for _ in range(steps):
        opt.step()
        out.append(round(opt.param_groups[0]["lr"], 8))
        sched.step()
    return out
S = torch.optim.lr_scheduler
print(lrs(lambda o: S.StepLR(o, step_size=4, gamma=0.1)))
print(lrs(lambda o: S.MultiStepLR(o, milestones=[2, 5, 9], gamma=0.5)))
print(lrs(lambda o: S.ExponentialLR(o, gamma=0.9)))
print(lrs(lambda o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001)))
print(lrs(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2)))
print(lrs(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4)))
print(lrs(lambda o: S.LambdaLR(o, lr_lambda=lambda e: 1.0 / (1 + e))))
print(lrs(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=12), opt_cls=torch.optim.SGD, momentum=0.9))
print(lrs(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=8)], milestones=[3])))
print(lrs(lambda o: S.PolynomialLR(o, total_iters=8, power=2.0)))
print(lrs(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), momentum=0.9))
p = nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([p], lr=0.1)
plateau = S.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]:
    plateau.step(val)
    print(opt.param_groups[0]["lr"], end=" ")
print()
opt = torch.optim.SGD([p], lr=1.0)
sched = S.StepLR(opt, 2)
for _ in range(3):
    opt.step()
    sched.step()
print(sched.state_dict(), sched.get_last_lr(), sched.last_epoch)
''')


tr("lr_scheduler_details", r'''
import warnings
warnings.simplefilter("ignore")
S = torch.optim.lr_scheduler
p = nn.Parameter(torch.zeros(1))
def opt(lr=0.1, **kw):
    return torch.optim.SGD([p], lr=lr, momentum=0.9, **kw)
o = opt()
r = S.ReduceLROnPlateau(o, mode="max", factor=0.1, patience=0, threshold=0.05, threshold_mode="abs", cooldown=1, min_lr=1e-3)
for metric in [0.5, 0.52, 0.6, 0.6, 0.61, 0.59, 0.58, 0.57, 0.7, 0.7]:
    r.step(metric)
    print(round(o.param_groups[0]["lr"], 6), r.num_bad_epochs, r.cooldown_counter, end=" | ")
print()
print(sorted(r.state_dict()), r.best, r.get_last_lr())
o = opt()
s = S.StepLR(o, step_size=2)
print(s.get_last_lr(), s.last_epoch, s.optimizer is o, s.base_lrs)
for epoch in range(5):
    o.step()
    s.step()
print(s.get_last_lr(), s.last_epoch, s.state_dict())
o = opt()
s = S.MultiStepLR(o, milestones=[3, 1], gamma=0.5)
print(s.milestones, s.state_dict()["milestones"])
o = opt()
s = S.ExponentialLR(o, gamma=0.5, last_epoch=-1)
o.step(); s.step(); o.step(); s.step()
s2 = S.ExponentialLR(opt(), gamma=0.5)
s2.load_state_dict(s.state_dict())
print(s2.last_epoch, s2.get_last_lr(), s2.optimizer.param_groups[0]["lr"])
o = opt()
c = S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)])
out = []
for _ in range(5):
    o.step()
    c.step()
    out.append(round(c.get_last_lr()[0], 8))
print(out)
o = opt()
oc = S.OneCycleLR(o, max_lr=0.5, epochs=2, steps_per_epoch=3, pct_start=0.4, anneal_strategy="linear", three_phase=True)
out = []
for _ in range(6):
    o.step()
    out.append((round(o.param_groups[0]["lr"], 8), round(o.param_groups[0]["momentum"], 6)))
    oc.step()
print(out)
o = torch.optim.Adam([p], lr=0.1)
oc = S.OneCycleLR(o, max_lr=0.5, total_steps=4)
print(o.param_groups[0]["betas"], o.param_groups[0]["initial_lr"], o.param_groups[0]["max_lr"], o.param_groups[0]["min_lr"])
o = opt()
w = S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=1, eta_min=0.01)
out = []
for i in range(7):
    o.step()
    w.step(i + 0.5)
    out.append(round(o.param_groups[0]["lr"], 8))
print(out)
try:
    S.StepLR(opt(), step_size=2, last_epoch=3)
except KeyError as e:
    print("KeyError", e)
try:
    S.OneCycleLR(opt(), max_lr=0.1)
except ValueError as e:
    print("ValueError", e)
''')
