"""Programs (see test_programs_ml.py):
gradients around nn modules: requires_grad/zero_grad bookkeeping, tensor
hooks, no_grad/inference_mode, grad_fn reprs."""
from programs_ml_common import ml

ml("nn_grad_bookkeeping", r'''
import torch.nn as nn
model = det(nn.Linear(3, 2))
x = data(4, 3)
print(model.weight.grad)
model(x).sum().backward()
g1 = model.weight.grad.clone()
model(x).sum().backward()
print(torch.allclose(model.weight.grad, 2 * g1), model.bias.grad)
model.zero_grad()
print(model.weight.grad)
model(x).pow(2).mean().backward()
model.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
with torch.no_grad():
    y = model(x)
print(y.requires_grad, y.grad_fn)
with torch.inference_mode():
    print(model(x).requires_grad)
y = model(x)
print(y.grad_fn is not None, y.is_leaf, model.weight.is_leaf)
z = model(x).detach()
print(z.requires_grad)
model.weight.requires_grad = False
model(x).sum().backward()
print(model.weight.grad, model.bias.grad)
print(nn.utils.parameters_to_vector(model.parameters()))
nn.utils.vector_to_parameters(torch.arange(8.0), model.parameters())
print(model.weight, model.bias)
''')


ml("nn_tensor_hooks_and_grad", r'''
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)))
x = data(5, 3).requires_grad_(True)
h = model[0](x)
h.retain_grad()
seen = []
handle = h.register_hook(lambda g: seen.append(g.clone()) or g * 2)
out = model[2](model[1](h)).sum()
out.backward()
print(h.grad, seen[0])
print(x.grad)
handle.remove()
x = data(4, 3).requires_grad_(True)
y = model(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
penalty.backward()
print(f"{penalty.item():.6f}", model[0].weight.grad)
model.zero_grad()
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w ** 3).sum()
grad_w, = torch.autograd.grad(loss, w, create_graph=True)
hess = torch.stack([torch.autograd.grad(grad_w[i], w, retain_graph=True)[0] for i in range(2)])
print(grad_w, hess)
@torch.no_grad()
def predict(m, inp):
    return m(inp)
print(predict(model, data(2, 3)).requires_grad)
@torch.inference_mode()
def predict2(m, inp):
    return m(inp)
r = predict2(model, data(2, 3))
print(r.requires_grad, r.is_inference() if hasattr(r, "is_inference") else True)
with torch.set_grad_enabled(False):
    print(model(data(1, 3)).requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
try:
    model(data(2, 3)).backward()
except RuntimeError as e:
    print("RuntimeError", e)
z = model(data(2, 3)).sum()
z.backward(retain_graph=True)
z.backward()
print(model[2].bias.grad)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
''')


ml("nn_grad_fn_reprs", r'''
import torch.nn as nn
import torch.nn.functional as F
x = data(2, 3, 6, 6)
mods = [nn.Linear(6, 2), nn.Conv2d(3, 2, 3), nn.BatchNorm2d(3), nn.LayerNorm(6), nn.GroupNorm(3, 3), nn.ReLU(),
        nn.MaxPool2d(2), nn.AvgPool2d(2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.0), nn.Softmax(-1),
        nn.GELU(), nn.Sigmoid(), nn.Tanh(), nn.LeakyReLU(), nn.Upsample(scale_factor=2), nn.ConvTranspose2d(3, 1, 2)]
for m in mods:
    det(m)
    x1 = x.clone().requires_grad_()
    out = m(x1)
    print(type(m).__name__, type(out.grad_fn).__name__, tuple(out.shape))
lin = det(nn.Linear(6, 2))
v = data(4, 6).requires_grad_()
print(lin(v))
print(lin(v[0]))
print(lin(data(2, 2, 6)).grad_fn.name())
emb = det(nn.Embedding(4, 3))
print(emb(torch.tensor([1, 2])))
lstm = det(nn.LSTM(3, 2, batch_first=True))
o, (h, c) = lstm(data(1, 2, 3))
print(o, h.grad_fn is not None)
t = v.sum(1).mean()
print(t, t.grad_fn.next_functions[0][0].name())
print((v * 2)[0, :2], v.view(24)[:2], v.T[0, :2], v.reshape(2, 12).sum(0)[:2])
print(F.cross_entropy(lin(v), torch.tensor([0, 1, 1, 0])), F.mse_loss(lin(v), torch.zeros(4, 2)))
print(nn.Parameter(torch.zeros(2)) * 1, nn.Parameter(torch.ones(2, 2, dtype=torch.float64)))
print(torch.cat([v[:1], v[1:2]]).grad_fn.name(), torch.stack([v[0], v[1]]).grad_fn.name(), v.max(1)[0].grad_fn.name())
''')
