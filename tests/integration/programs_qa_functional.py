"""QA programs on torch.nn.functional breadth (run by test_programs_qa_extra.py): fold/unfold,
grid_sample/affine_grid, interpolate, pad, embeddings, distances, every loss with its
reduction/weight/ignore_index variants, attention, convolution and pooling options,
normalisation in functional form, shuffles and activations, with gradients, float64 and
non-contiguous inputs and error messages.  Inputs are seeded torch.randn (mindtorch's cpu
generator draws PyTorch's numbers bit for bit); floats print rounded to 4 decimals."""
from programs_registry import program

# `show` prints tensors rounded to 4 decimals (-0.0 as 0.0); `err` runs a call and prints
# the error class and message.
HEAD = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
def show(*ts):
    print(*[t.detach().double().round(decimals=4) + 0.0 if isinstance(t, torch.Tensor) else t for t in ts])
def err(f, *a, **k):
    try:
        f(*a, **k)
        print("no error")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
def grad_of(f, *xs):
    xs = [x.detach().clone().requires_grad_(True) for x in xs]
    y = f(*xs)
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    show(y, *[x.grad for x in xs])
'''


def qa(name, text):
    program(name, HEAD + text)


qa("qa_fn_fold_unfold", r'''
x = torch.randn(2, 3, 5, 6, dtype=torch.float64)
for k in [dict(kernel_size=2), dict(kernel_size=(2, 3), stride=(1, 2), padding=1),
          dict(kernel_size=3, dilation=2, padding=(2, 1), stride=2)]:
    u = F.unfold(x, **k)
    print(tuple(u.shape))
    show(u.sum(1))
    f = F.fold(u, output_size=(5, 6), **k)
    show(f[0, 0])
grad_of(lambda x: F.unfold(x, 2, stride=2), x[:, :, :4, :4])
u = torch.randn(2, 12, 6, dtype=torch.float64)
grad_of(lambda u: F.fold(u, (3, 4), kernel_size=(2, 2), dilation=1), u)
show(F.unfold(x[0], 2).sum())  # unbatched 3-D input
show(F.fold(torch.randn(12, 6), (3, 4), 2).sum())
err(F.unfold, torch.randn(2, 3, 4), 5)
err(F.fold, torch.randn(2, 11, 6), (3, 4), 2)
err(F.fold, torch.randn(2, 12, 7), (3, 4), 2)
''')

qa("qa_fn_grid_sample_2d", r'''
x = torch.randn(2, 3, 4, 5)
g = torch.rand(2, 3, 6, 2) * 2.4 - 1.2
for mode in ["bilinear", "nearest", "bicubic"]:
    for pm in ["zeros", "border", "reflection"]:
        for ac in [False, True]:
            y = F.grid_sample(x, g, mode=mode, padding_mode=pm, align_corners=ac)
            print(mode, pm, ac, tuple(y.shape), round(y.sum().item(), 3))
            show(y[1, 2, 0])
x64 = x.double()
g64 = g.double()
for mode in ["bilinear", "bicubic"]:
    grad_of(lambda x, g: F.grid_sample(x, g, mode=mode, padding_mode="border", align_corners=False), x64[:1, :1], g64[:1])
grad_of(lambda x, g: F.grid_sample(x, g, mode="bilinear", padding_mode="reflection", align_corners=True), x64[:1, :2], g64[:1])
grad_of(lambda x: F.grid_sample(x, g64[:1], mode="nearest", align_corners=False), x64[:1, :1])
xt = x.transpose(2, 3)
show(F.grid_sample(xt, g, align_corners=False)[0, 0, 0])
err(F.grid_sample, x, g[..., :1])
err(F.grid_sample, x, g, mode="linear")
err(F.grid_sample, x, g, padding_mode="wrap")
''')

qa("qa_fn_grid_sample_3d_affine", r'''
x = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64)
theta = torch.tensor([[[0.9, 0.1, 0.0, 0.05], [-0.1, 1.1, 0.2, 0.0], [0.0, 0.1, 0.8, -0.1]]], dtype=torch.float64)
for ac in [False, True]:
    grid = F.affine_grid(theta, (1, 2, 2, 3, 4), align_corners=ac)
    print(tuple(grid.shape))
    show(grid[0, 1, 2])
    for mode in ["bilinear", "nearest"]:
        for pm in ["zeros", "border", "reflection"]:
            y = F.grid_sample(x, grid, mode=mode, padding_mode=pm, align_corners=ac)
            show(y[0, 1, 1])
grad_of(lambda x, t: F.grid_sample(x, F.affine_grid(t, (1, 2, 2, 3, 4), align_corners=False), align_corners=False), x, theta)
t2 = torch.tensor([[[1.0, 0.2, 0.1], [-0.3, 0.9, 0.0]], [[0.5, 0.0, 0.3], [0.0, 0.5, -0.2]]], dtype=torch.float64)
grad_of(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=True), t2)
err(F.affine_grid, t2, torch.Size((2, 1, 3)))
err(F.affine_grid, t2[:, :1], torch.Size((2, 1, 3, 4)))
err(F.affine_grid, t2.int(), torch.Size((2, 1, 3, 4)))
err(F.grid_sample, x, torch.rand(1, 2, 3, 4, 2, dtype=torch.float64))
err(F.grid_sample, x, torch.rand(1, 2, 3, 4, 3), mode="bicubic")
''')

qa("qa_fn_interpolate_modes", r'''
x1 = torch.randn(2, 3, 7)
x2 = torch.randn(2, 3, 5, 6)
x3 = torch.randn(1, 2, 3, 4, 5)
for mode, x in [("nearest", x1), ("nearest-exact", x1), ("linear", x1), ("area", x1),
                ("nearest", x2), ("nearest-exact", x2), ("bilinear", x2), ("bicubic", x2), ("area", x2),
                ("nearest", x3), ("nearest-exact", x3), ("trilinear", x3), ("area", x3)]:
    for kw in [dict(scale_factor=1.7), dict(scale_factor=0.6), dict(size=tuple([4] * (x.dim() - 2))),
               dict(scale_factor=1.7, recompute_scale_factor=True)]:
        if mode not in ("nearest", "nearest-exact", "area"):
            kw = dict(kw, align_corners=False)
        y = F.interpolate(x, **kw)
        print(mode, sorted(kw), tuple(y.shape), round(y.double().sum().item(), 3))
    if mode not in ("nearest", "nearest-exact", "area"):
        y = F.interpolate(x, scale_factor=2.3, mode=mode, align_corners=True)
        print(mode, "ac", tuple(y.shape), round(y.double().sum().item(), 3))
''')

qa("qa_fn_interpolate_grads_antialias", r'''
x = torch.randn(1, 2, 6, 7, dtype=torch.float64)
for mode in ["bilinear", "bicubic"]:
    for size in [(3, 4), (9, 5)]:
        y = F.interpolate(x, size=size, mode=mode, antialias=True, align_corners=False)
        show(y[0, 1])
    grad_of(lambda x: F.interpolate(x, size=(3, 4), mode=mode, antialias=True), x)
for mode in ["nearest", "nearest-exact", "area", "bilinear", "bicubic"]:
    kw = {} if mode in ("nearest", "nearest-exact", "area") else dict(align_corners=True)
    grad_of(lambda x: F.interpolate(x, size=(4, 9), mode=mode, **kw), x)
grad_of(lambda x: F.interpolate(x, scale_factor=(1.5, 0.75), mode="bilinear", recompute_scale_factor=False), x)
x1 = torch.randn(2, 1, 5, dtype=torch.float64)
grad_of(lambda x: F.interpolate(x, scale_factor=2.5, mode="linear"), x1)
x3 = torch.randn(1, 1, 3, 4, 4, dtype=torch.float64)
grad_of(lambda x: F.interpolate(x, size=(2, 5, 3), mode="trilinear"), x3)
xt = torch.randn(1, 2, 7, 6).transpose(2, 3)
show(F.interpolate(xt, size=(4, 5), mode="bilinear")[0, 0])
err(F.interpolate, x, size=(3, 4), mode="linear")
err(F.interpolate, x, size=(3, 4), scale_factor=2.0)
err(F.interpolate, x)
err(F.interpolate, x, size=3, mode="nearest", align_corners=True)
err(F.interpolate, x1, size=3, mode="linear", antialias=True)
err(F.interpolate, x, size=(3, 4, 5))
''')

qa("qa_fn_pad_modes", r'''
x = torch.arange(2 * 2 * 3 * 4, dtype=torch.float64).reshape(2, 2, 3, 4)
for mode in ["constant", "reflect", "replicate", "circular"]:
    for pad in [(1, 2), (2, 1, 1, 2), (1, 0, 0, 2)]:
        xx = x[0] if len(pad) == 2 else x
        y = F.pad(xx, pad, mode=mode) if mode != "constant" else F.pad(xx, pad, value=-1.5)
        print(mode, pad, tuple(y.shape))
        show(y[1])
    grad_of(lambda x: F.pad(x, (2, 1, 1, 2), mode=mode), x)
show(F.pad(x, (-1, 1, -1, 0)))
show(F.pad(x, (-1, -2)))
show(F.pad(x, (1, 1, 1, 1, 1, 1)).shape)
x5 = torch.randn(1, 2, 3, 3, 4)
for mode in ["reflect", "replicate", "circular"]:
    show(F.pad(x5, (1, 1, 2, 0, 1, 2), mode=mode).sum((0, 1, 2)))
x1 = torch.randn(2, 5)
show(F.pad(x1, (2, 2), mode="reflect"), F.pad(x1, (3, 1), mode="circular"))
show(F.pad(x.transpose(2, 3), (1, 2, 0, 1), mode="reflect")[0, 0])
show(F.pad(torch.arange(6).reshape(2, 3), (1, 1), value=7))
err(F.pad, x, (1, 1), mode="reflect")
err(F.pad, x[0], (4, 4), mode="reflect")
err(F.pad, x, (1, 2, 3))
err(F.pad, x[0], (5, 5), mode="circular")
err(F.pad, x, (1, 1), mode="wrap")
err(F.pad, x, (-3, -2))
''')
