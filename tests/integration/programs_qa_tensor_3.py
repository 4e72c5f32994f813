"""QA programs on tensor-level semantics, continued from programs_qa_tensor_2.py: in-place
and out= rules, low-precision and integer arithmetic, argument errors; then the known gaps
(XFAIL in programs_qa_tensor.py)."""
from programs_registry import program

program("qt_inplace_out_rules", r'''
import warnings
import torch
x = torch.zeros(2, 3)
x += torch.tensor([1.0, 2.0, 3.0])
x[:, :2] *= 2
x[0] -= x[1]
print(x)
for bad in [lambda: torch.zeros(3).add_(torch.ones(2, 3)), lambda: torch.zeros(1, 3).mul_(torch.ones(2, 3)), lambda: torch.zeros(3).copy_(torch.ones(4))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
a = torch.arange(4.0)
a[1:] += a[:-1].clone()
print(a)
e = torch.zeros(2, 1).expand(2, 3)
try:
    e.add_(1)
except RuntimeError as err:
    print("RuntimeError", err)
o = torch.zeros(5)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.add(torch.ones(3), 1, out=o)
    print(o, [str(m.message)[:60] for m in w])
o2 = torch.empty(0)
torch.mul(torch.ones(2, 2), 3, out=o2)
print(o2, o2.shape)
o3 = torch.zeros(3, dtype=torch.float64)
print(torch.sum(torch.ones(2, 3), 0, out=o3), torch.sum(torch.ones(2, 3), 0, out=o3) is o3)
vals, idx = torch.zeros(2), torch.zeros(2, dtype=torch.long)
torch.max(torch.tensor([[1.0, 5.0], [7.0, 2.0]]), 1, out=(vals, idx))
print(vals, idx)
try:
    torch.max(torch.ones(2, 2), 1, out=(torch.zeros(2), torch.zeros(2)))
except RuntimeError as err:
    print("RuntimeError", err)
b = torch.tensor([1, 2, 3])
b.mul_(2).add_(1).neg_()
print(b, b.abs_(), b.clamp_(max=5), b.sub_(1, alpha=2))
l = torch.ones(3, requires_grad=True)
v = l[:2]
try:
    v.mul_(2)
except RuntimeError as err:
    print("RuntimeError", err)
''')

program("qt_lowprec_arith", r'''
import torch
h = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)
bf = torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16)
print(h + h, h * 3, h / 3, h.sum(), h.mean(), h.cumsum(0), h.prod(), h.exp(), h.sqrt(), h ** 2, h @ h)
print(bf + bf, bf * 3, bf / 3, bf.sum(), bf.mean(), bf.cumsum(0), bf.exp(), bf.sqrt(), bf @ bf)
print(torch.tensor([2048.0], dtype=torch.float16) + 1, torch.tensor([256.0], dtype=torch.bfloat16) + 1, torch.tensor([65504.0], dtype=torch.float16) * 2, torch.tensor([1e-8], dtype=torch.float16))
print(torch.full((1000,), 0.1, dtype=torch.float16).sum(), torch.full((1000,), 0.1, dtype=torch.bfloat16).sum(), torch.full((1000,), 0.1, dtype=torch.float16).mean(), torch.ones(5000, dtype=torch.float16).cumsum(0)[-1])
print(h.float(), bf.double(), h.to(torch.bfloat16), torch.tensor([1 / 3]).half().item(), torch.tensor([1 / 3]).bfloat16().item(), torch.tensor(70000.0).half(), torch.tensor(3.0e38).bfloat16())
print((h + 1.5).dtype, (h + torch.tensor(1.5)).dtype, (h + torch.tensor([1.5])).dtype, (bf + h).dtype, (h * 2).dtype, (torch.tensor([1], dtype=torch.int8) + h).dtype, h.var(), h.std(), bf.norm(), h.max(), bf.argmax())
print(torch.softmax(h, 0), torch.log_softmax(bf.float(), 0), torch.tanh(bf), torch.sigmoid(h), torch.erf(bf), torch.round(torch.tensor([2.5, 3.5], dtype=torch.float16)))
''')

program("qt_int_overflow_wrap", r'''
import torch
i8 = torch.tensor([127, -128, 100], dtype=torch.int8)
u8 = torch.tensor([255, 0, 200], dtype=torch.uint8)
i32 = torch.tensor([2 ** 31 - 1, -2 ** 31], dtype=torch.int32)
print(i8 + 1, i8 * 2, i8 - 1, -i8, i8.abs(), u8 + 1, u8 - 1, u8 * 2, -u8, i32 + 1, i32 * 2, -i32)
print(i8.sum(), i8.sum(dtype=torch.int8), i8.cumsum(0), i8.cumsum(0, dtype=torch.int8), u8.sum(), u8.prod(), i32.sum(), i32.cumsum(0).dtype, i8.mean(dtype=torch.float32))
print(torch.tensor([2 ** 62]) * 4, torch.tensor([2 ** 63 - 1]) + 1, torch.tensor([3]) ** 40, torch.tensor([2], dtype=torch.int8) ** 7, torch.tensor([-2 ** 63]).abs())
print(torch.tensor([200], dtype=torch.uint8).to(torch.int8), torch.tensor([-1], dtype=torch.int8).to(torch.uint8), torch.tensor([70000]).to(torch.int16), torch.tensor([2 ** 40]).int(), torch.tensor([-1]).byte(), torch.tensor([256, 257]).to(torch.uint8), torch.tensor([True]).to(torch.int8) * 200)
print(torch.arange(5, dtype=torch.uint8) - 3, torch.tensor([1], dtype=torch.uint8) - torch.tensor([2], dtype=torch.uint8), torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8), torch.tensor([100], dtype=torch.int8) + 100)
print(torch.tensor([5], dtype=torch.uint8) // 2, torch.tensor([5], dtype=torch.uint8) / 2, torch.tensor([5], dtype=torch.uint8) % 3, torch.tensor([-7], dtype=torch.int8) // 2, torch.tensor([-7], dtype=torch.int8) % 3, torch.tensor([-127], dtype=torch.int8) // -1)
print(torch.tensor([1, 2, 3], dtype=torch.int16).dot(torch.tensor([1, 2, 3], dtype=torch.int16)), torch.tensor([[100, 100]], dtype=torch.int8) @ torch.tensor([[2], [2]], dtype=torch.int8), torch.tensor([1, 2], dtype=torch.uint8).dot(torch.tensor([200, 100], dtype=torch.uint8)))
''')

program("qt_unary_int_promotion", r'''
import torch
i = torch.tensor([1, 4, 9])
b = torch.tensor([True, False])
for name in ["sqrt", "exp", "log", "sin", "cos", "tanh", "sigmoid", "rsqrt", "log1p", "expm1", "erf", "reciprocal", "atan", "asinh", "exp2", "log2", "log10", "digamma", "lgamma", "sinc", "deg2rad", "i0"]:
    fn = getattr(torch, name, None) or getattr(torch.special, name)
    print(name, fn(i).dtype, fn(b).dtype, fn(i)[0].item() == fn(i.float())[0].item())
for name in ["abs", "neg", "sign", "square", "floor", "ceil", "round", "trunc", "frac", "relu", "clamp_min", "bitwise_not", "positive"]:
    try:
        if name == "clamp_min":
            r = torch.clamp_min(i, 2)
        elif name == "relu":
            r = torch.relu(i)
        else:
            r = getattr(torch, name)(i)
        print(name, r.dtype, r)
    except RuntimeError as e:
        print(name, "RuntimeError", e)
for name in ["abs", "neg", "sign", "square", "floor", "ceil", "round", "trunc", "frac", "relu", "sqrt"]:
    try:
        print(name, getattr(torch, name)(b))
    except RuntimeError as e:
        print(name, "RuntimeError", e)
print(torch.tensor([-128], dtype=torch.int8).abs(), torch.tensor([-2, 3]).square(), torch.tensor([2, 3], dtype=torch.uint8).square(), torch.tensor([True]).square().dtype, torch.tensor([-3]).sgn(), torch.tensor([1.5, -0.0]).sgn())
try:
    torch.tensor([1, 2]).sqrt_()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]).sigmoid_()
except RuntimeError as e:
    print("RuntimeError", e)
''')

program("qt_argument_errors", r'''
import torch
x = torch.ones(2, 3)
cases = [
    lambda: torch.add(x, "a"), lambda: torch.sum(x, dim="a"), lambda: x.view("a"), lambda: torch.zeros("a"), lambda: x.sum(dim=1.5),
    lambda: torch.cat(x, x), lambda: torch.ones(2, 3, dtype="float32"), lambda: x.to("cpu:x"), lambda: x.permute(0), lambda: x.reshape(2, 2),
    lambda: x.transpose(0, 2), lambda: x.unsqueeze(3), lambda: x.expand(2), lambda: torch.matmul(x, "a"), lambda: x + None,
    lambda: x[None, None, None, 5], lambda: torch.tensor([1, 2]) @ torch.tensor([1.0, 2.0]), lambda: x.softmax(), lambda: torch.mean(x, 2), lambda: torch.ones(2).view(3),
    lambda: x.topk(4), lambda: x.repeat(2), lambda: x.narrow(1, 2, 3), lambda: x.select(2, 0), lambda: x.flatten(1, 0),
]
for c in cases:
    try:
        r = c()
        print("ok", r.shape if hasattr(r, "shape") else r)
    except TypeError:  # (the argument parser's messages are PyTorch's own prose)
        print("TypeError")
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:150])
''')


program("qt_operator_deferral_numpy", r"""
import warnings
import numpy as np
import torch
warnings.simplefilter("ignore", DeprecationWarning)
class Meters:
    def __init__(self, v):
        self.v = v
    def __radd__(self, other):
        return f"Meters({other.sum().item()} + {self.v})"
    def __rmul__(self, other):
        return f"scaled {other.tolist()} by {self.v}"
    def __rmatmul__(self, other):
        return "rmatmul"
x = torch.tensor([1.0, 2.0])
print(x + Meters(3), x * Meters(2), x @ Meters(1))
y = torch.tensor([1.0])
y += 1
print(y)
for bad in [lambda: x + None, lambda: x * "a", lambda: "a" - x, lambda: None @ x, lambda: x < "b", lambda: x ** [1], lambda: x & None]:
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
print(x == None, x != "a", x == "a")
print(type(np.sin(x)).__name__, np.sin(x), np.add(x, 1), np.greater(x, 1.5), np.sqrt(torch.tensor([4])), type(x + np.ones(2)).__name__, (x + np.ones(2)).dtype, np.float64(2) * x)
print(np.asarray(x).dtype, np.array(torch.tensor([[1, 2]])).shape, np.concatenate([x, x]), np.mean(np.asarray(x)))
""")


program("qt_buffers_layout_dim_order", r"""
import array
import warnings
import torch
buf = bytearray(range(1, 13))
t = torch.frombuffer(buf, dtype=torch.int32)
buf[0] = 100
print(t, torch.frombuffer(buf, dtype=torch.int16, count=3, offset=2), torch.frombuffer(array.array("d", [0.5, 1.5]), dtype=torch.float64), torch.frombuffer(buf, dtype=torch.uint8, requires_grad=False)[-2:])
t[1] = -1
print(list(buf[4:8]))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(torch.frombuffer(b"\x01\x00\x02\x00", dtype=torch.int16), len(w))
for kw in [dict(dtype=torch.int64), dict(dtype=torch.int32, offset=12), dict(dtype=torch.int32, count=4), dict(dtype=torch.int32, count=0)]:
    try:
        torch.frombuffer(buf, **kw)
    except ValueError as e:
        print("ValueError", e)
x = torch.zeros(2, 3, 4)
print(x.layout, [x.layout], x.layout == torch.strided, torch.strided, type(torch.strided).__name__, x.dim_order(), x.transpose(0, 2).dim_order(), x.permute(1, 2, 0).dim_order(), x[:, :1].expand(2, 5, 4).dim_order())
print(torch.zeros(2).new(3).shape, torch.tensor([1.5]).new([1, 2]), torch.tensor([1]).new(2, 2).dtype, torch.range(0, 4, 2), torch.range(1, 2, 0.5, dtype=torch.float64))
src = torch.arange(3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    copied, aliased = torch.tensor(src), torch.Tensor(src)
    print(copied, aliased, aliased.data_ptr() == src.data_ptr(), copied.data_ptr() == src.data_ptr(), [str(m.message)[:45] for m in w])
print(torch.finfo(torch.float16), torch.iinfo(torch.int16), torch.finfo(torch.bfloat16).eps)
try:
    torch.iinfo(torch.bool)
except TypeError as e:
    print("TypeError", e)
""")


program("qt_grad_edges_ties", r"""
import torch
torch.set_printoptions(precision=5)
def g(f, *vals):
    xs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in vals]
    out = f(*xs)
    out.sum().backward()
    return [x.grad for x in xs]
print(g(lambda a: a.max(1).values, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]), g(lambda a: a.min(0).values, [[1.0, 1.0], [1.0, 2.0]]), g(lambda a: a.amin(1), [[1.0, 1.0, 5.0]]))
print(g(lambda a: a.topk(2).values, [1.0, 3.0, 3.0, 2.0]), g(lambda a: a.kthvalue(2).values, [3.0, 1.0, 1.0]), g(lambda a: a.sort(stable=True).values * torch.arange(3.0, dtype=torch.float64), [2.0, 1.0, 2.0]))
print(g(lambda a: a.norm(), [0.0, 0.0]), g(lambda a: a.norm(p=1), [0.0, -1.0]), g(lambda a: torch.linalg.vector_norm(a, ord=float("inf")), [1.0, -3.0, 3.0]), g(lambda a, b: torch.dist(a, b), [1.0, 2.0], [1.0, 2.0]))
print(g(lambda a: a.prod(), [2.0, 0.0, 3.0]), g(lambda a: a.prod(), [0.0, 0.0, 3.0]), g(lambda a: a.prod(0), [[2.0, 0.0], [4.0, 5.0]]), g(lambda a, b: a ** b, [0.0, 0.0, 2.0], [0.0, 2.0, 0.5]))
print(g(lambda a: a.std(), [3.0]), g(lambda a: a.var(correction=0), [1.0, 1.0]), g(lambda a: a.logsumexp(0), [float("-inf"), float("-inf")]), g(lambda a: a.logsumexp(0), [float("-inf"), 0.0]))
print(g(lambda a, b: torch.maximum(a, b), [1.0, 2.0, 3.0], [1.0, 0.0, 5.0]), g(lambda a, b: torch.fmin(a, b), [1.0, float("nan")], [1.0, 2.0]), g(lambda a: a.clamp(min=torch.tensor([1.0, 0.0], dtype=torch.float64)), [1.0, -1.0]), g(lambda a: a.clamp(0.0, 0.0), [0.0, 1.0]))
print(g(lambda a, b: torch.atan2(a, b), [0.0, 1.0], [0.0, 1.0]), g(lambda a, b: torch.hypot(a, b), [0.0, 3.0], [0.0, 4.0]), g(lambda a: a.abs(), [0.0, -2.0]), g(lambda a: a.sign(), [1.0]), g(lambda a: a.round(), [1.4]), g(lambda a: a.frac(), [1.5]))
print(g(lambda a: a.cummax(0).values, [1.0, 1.0, 0.5, 2.0]), g(lambda a: a.cummin(0).values, [3.0, 1.0, 1.0]), g(lambda a: a.median(), [1.0, 2.0, 2.0, 3.0]), g(lambda a: a.nanmedian(), [float("nan"), 1.0, 2.0]), g(lambda a: a.nansum(), [float("nan"), 2.0]), g(lambda a: a.nanmean(), [float("nan"), 2.0, 4.0]))
print(g(lambda a: a.index_select(0, torch.tensor([0, 0, 1])), [1.0, 2.0]), g(lambda a: a.masked_fill(torch.tensor([True, False]), 5.0), [1.0, 2.0]), g(lambda a: a.unfold(0, 2, 1), [1.0, 2.0, 3.0]), g(lambda a: a.as_strided((2, 2), (1, 1)), [1.0, 2.0, 3.0]))
print(g(lambda a: torch.trace(a) + torch.diag(a).sum() + a.tril(-1).sum(), [[1.0, 2.0], [3.0, 4.0]]), g(lambda a: a.flip(0) * torch.arange(3.0, dtype=torch.float64), [1.0, 2.0, 3.0]), g(lambda a: a.roll(1) * torch.arange(3.0, dtype=torch.float64), [1.0, 2.0, 3.0]))
print(g(lambda a: torch.where(a > 0, a.sqrt(), torch.zeros(1, dtype=torch.float64)), [-1.0, 4.0]), g(lambda a: torch.where(a > 0, a.log(), a), [-1.0, 1.0]), g(lambda a: a.log_softmax(0)[0], [1.0, 2.0]), g(lambda a: torch.special.xlogy(a, a), [0.0, 2.0]))
print(g(lambda a: a.renorm(2, 0, 1.0), [[3.0, 4.0], [0.3, 0.4]]), g(lambda a: torch.nn.functional.normalize(a, dim=0), [0.0, 0.0]), g(lambda a: a.cumsum(0).flip(0).cumprod(0), [1.0, 2.0]))
""")


program("qt_views_inplace_autograd", r"""
import torch
a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
b = a * 1
v = b[1:3]
v.mul_(10)
print(b, type(b.grad_fn).__name__, type(v.grad_fn).__name__, v._base is b, b._base, v.is_view() if hasattr(v, "is_view") else None)
b.sum().backward()
print(a.grad)
c = torch.zeros(3, 2, requires_grad=True).clone()
c[:, 0] = torch.tensor([1.0, 2.0, 3.0])
c.t()[1].add_(5)
print(c, type(c.grad_fn).__name__, c._version)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y[0:1]
y.add_(1)
try:
    z.sum().backward()
    print(x.grad)
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w[0] = 5
    w.mul_(2)
print(w, w.requires_grad, w.grad_fn, w.is_leaf, w._version)
try:
    w[0] = 1
except RuntimeError as e:
    print("RuntimeError", e)
try:
    w.view(2)[0] = 3
except RuntimeError as e:
    print("RuntimeError", e)
d = w.detach()
d.zero_()
print(w, d._version, w._version)
w.data.fill_(7)
print(w, w.requires_grad)
p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = p.view(3, 1).expand(3, 2)
try:
    q.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])
r = p * 2
s1, s2 = r.split(2)
try:
    s1.mul_(2)
except RuntimeError as e:
    print("RuntimeError", str(e)[:120])
u = r.unbind(0)
try:
    u[0].add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:120])
m = torch.ones(2, 2, requires_grad=True)
n = m.clone()
n.diagonal().mul_(3)
n.sum().backward()
print(m.grad, type(n.grad_fn).__name__)
""")


program("qt_result_layouts_view", r"""
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
t = x.transpose(0, 2)
for name, r in [("x[:, idx]", x[:, [2, 0]]), ("x[..., idx]", x[..., [1, 3]]), ("x[0, :, idx]", x[0, :, [1, 3]]), ("t[:, idx]", t[:, [0, 2]]), ("x[mask]", x[:, x[0] > 5]),
                ("sum", t.sum(1)), ("mean", t.mean(0)), ("amax", t.amax(2)), ("std", t.std(1)), ("cumsum", t.cumsum(0)), ("cummax", t.cummax(1).values), ("softmax", t.softmax(1)),
                ("masked_fill", t.masked_fill(t > 5, 0)), ("tril", t.tril()), ("where", torch.where(t > 5, t, 0.0)), ("exp", t.exp()), ("add", t + 1), ("clone", t.clone()), ("sort", t.sort(0).values)]:
    print(name, tuple(r.shape), r.stride(), r.is_contiguous())
print(x[:, [2, 0]].view(-1)[:6], t.sum(1).view(-1), t.softmax(1).view(4, 6)[0], x.permute(2, 0, 1).mean(1).view(-1)[:4])
emb = torch.arange(20.0).reshape(5, 4)
idx = torch.tensor([[0, 2], [4, 1]])
print(emb[idx].view(4, 4)[1], emb[:, [3, 1]].view(10)[:4], emb.t()[[1, 2]].stride())
""")


# -- known gaps (XFAIL in programs_qa_tensor.py) -------------------------------------------

program("qt_gap_conj_view", r'''
import torch
z = torch.tensor([1 + 1j, 2 - 1j])
c = z.conj()
z[0] = 5 + 5j
print(c, c.is_conj(), torch.is_conj(c), c.resolve_conj().is_conj(), c.data_ptr() == z.data_ptr())
''')

program("qt_pickle_views", r'''
import copy
import pickle
import torch
x = torch.tensor([[1, 2], [3, 4]])
s = copy.copy(x)
s[0, 0] = 100
v = pickle.loads(pickle.dumps(x[:, 1]))
print(x[0, 0].item(), v, v.stride(), v.storage_offset(), v.is_contiguous())
''')
