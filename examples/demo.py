"""A short tour of mindtorch: the same code PyTorch users write, on cpu and meta.

    python examples/demo.py
"""
import mindtorch as torch
from mindtorch.backends import format_table

print("Installed backends:")
print(format_table(torch.backends.list()))
print()

torch.manual_seed(0)

# Tensors, dtypes and PyTorch's type promotion
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print("x =", x, "dtype:", x.dtype)
print("x * 2.5 ->", (x * 2.5).dtype, "| int32 + 2.5 ->",
      (x.to(torch.int32) + 2.5).dtype, "| uint8 + int8 ->",
      (x.to(torch.uint8) + x.to(torch.int8)).dtype)

# Views share storage: writing through a transposed view changes x
xt = x.t()
xt[0, 1] = 40
print("after xt[0, 1] = 40, x =", x.tolist(), "| shares storage:",
      xt.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("x.t().reshape(6) =", x.t().reshape(6).tolist())

# A tiny least-squares fit with ops, broadcasting and reductions
features = torch.randn(64, 3)
true_w = torch.tensor([[2.0], [-1.0], [0.5]])
targets = features @ true_w + 0.01 * torch.randn(64, 1)
w = torch.zeros(3, 1, requires_grad=True)
for step in range(200):
    loss = ((features @ w - targets) ** 2).mean()
    loss.backward()                      # autograd: d loss / d w into w.grad
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
print("fitted w =", [round(v, 3) for v in w.detach().flatten().tolist()],
      "| loss =", round(loss.item(), 6), "| graph:", loss.grad_fn.name())

# Higher derivatives: d/dx, d2/dx2 of x^3 at x = 2 (12, 12)
x3 = torch.tensor(2.0, requires_grad=True)
(d1,) = torch.autograd.grad(x3 ** 3, x3, create_graph=True)
(d2,) = torch.autograd.grad(d1, x3)
print("d/dx x^3 =", d1.item(), "| d2/dx2 =", d2.item())

# The meta device: the same program, shapes and dtypes only, no memory for data
with torch.device("meta"):
    big = torch.randn(100_000, 4096)
    weight = torch.randn(4096, 1024, requires_grad=True)
    out = (big @ weight).relu().sum(dim=0)
    out.sum().backward()                 # gradients on meta too: shapes and dtypes
print("meta result:", out.shape, out.dtype, out.device, "| weight.grad:",
      weight.grad.shape, weight.grad.device)
