"""QA programs on tensor-level semantics (run by test_programs_qa_extra.py): printing,
indexing, promotion and reductions as users write them, continued in programs_qa_tensor_2.py;
their output must be identical under torch and mindtorch.  XFAIL: the known gaps (strict)."""
from programs_registry import program

# program -> why it still differs under mindtorch
XFAIL = {
    "qt_gap_conj_view": "conj() of a complex tensor copies: no lazy conjugate bit (is_conj is "
                        "always False and the result does not alias its input)",
}

program("qt_repr_int_widths", r'''
import torch
print(torch.tensor([1, -22, 333, -4444]))
print(torch.tensor([[1, 200], [-3, 4]], dtype=torch.int16))
print(torch.tensor([255, 0, 7], dtype=torch.uint8), torch.tensor([-128, 127], dtype=torch.int8))
print(torch.tensor([2 ** 40, -1]), torch.tensor([2 ** 31 - 1], dtype=torch.int32))
print(torch.arange(12, dtype=torch.int32).reshape(3, 4), torch.arange(3, dtype=torch.int16))
print(torch.tensor([[True, False], [False, True]]), torch.zeros(2, 3, dtype=torch.bool))
print(torch.zeros(0, dtype=torch.int32), torch.zeros(0, dtype=torch.bool), torch.zeros(3, 0, dtype=torch.float64))
print(torch.tensor(5, dtype=torch.int8), torch.tensor(-1, dtype=torch.int16), torch.tensor(False), torch.tensor(7, dtype=torch.uint8))
print(repr(torch.tensor([1, 2], dtype=torch.int32)), str(torch.tensor([3], dtype=torch.int64)))
print(torch.ones(2, 1, 3, dtype=torch.int64), torch.ones(1, 1, 1))
''')

program("qt_repr_float_formats", r'''
import torch
print(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5]), torch.tensor([0.001, 1000.0]))
print(torch.tensor([1e-4, 1.0]), torch.tensor([1e-3, 1.0]), torch.tensor([0.0001234]), torch.tensor([12345.678]))
print(torch.tensor([1e8, 1.0]), torch.tensor([1e9]), torch.tensor([123456789012.0]), torch.tensor([1e-8]))
print(torch.tensor([-1.5, float("nan")]), torch.tensor([float("inf"), 1.25]), torch.tensor([float("nan")]), torch.tensor([float("-inf"), 1e10]))
print(torch.tensor([1.0, float("nan"), 1e-7]), torch.tensor([0.0, 0.0]), torch.tensor([-0.0]), torch.tensor([100.0, -100.0]))
print(torch.tensor([1 / 3, 2 / 3], dtype=torch.float64), torch.tensor([1e-300, 1e300], dtype=torch.float64))
print(torch.tensor([3.0, 4.5], dtype=torch.float16), torch.tensor([65504.0, 1e-4], dtype=torch.float16), torch.tensor([0.1], dtype=torch.bfloat16))
print(torch.tensor([[1.5, 2.0], [3.0, 1e-5]]), torch.tensor([[1e6, 2.0], [3.0, 4.0]]))
print(torch.tensor(1e-5), torch.tensor(123456.7), torch.tensor(float("nan")), torch.tensor(-float("inf")), torch.tensor(1.0, dtype=torch.float64))
print(torch.tensor([0.5, 0.25, 0.125, 0.0625]), torch.tensor([1.1, 22.22, 333.333]))
print(torch.tensor([1.0e-2, 5.0e+3]), torch.tensor([9.99999, 10.0]), torch.tensor([0.99999999]))
print(torch.full((2, 2), 7.0), torch.full((3,), -0.5, dtype=torch.float64))
''')

program("qt_repr_complex_half", r'''
import torch
print(torch.tensor([1 + 2j, -3.5 - 0.25j]), torch.tensor([0j, 1j]), torch.tensor([1.5 + 0j]))
print(torch.tensor([1e-5 + 1j, 100 + 2j]), torch.tensor([[1 + 1j, 2], [3, 4 - 4j]]))
print(torch.tensor([float("nan") + 1j]), torch.tensor(2 + 3j), torch.tensor([1 + 2j], dtype=torch.complex128))
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -0.5])), torch.zeros(2, dtype=torch.complex64))
print(torch.tensor([1.0, 2.0, 3.0]).half() / 7, torch.tensor([1.0, 2.0, 3.0]).bfloat16() / 7)
print(torch.arange(4, dtype=torch.float16).reshape(2, 2), torch.tensor([1000.0, 0.01], dtype=torch.bfloat16))
print(torch.tensor([1 + 2j, 3 + 4j]).abs(), torch.tensor([1 + 2j]).conj(), torch.tensor([1j]) * torch.tensor([1j]))
''')

program("qt_repr_grad_meta", r'''
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x, x * 1, x + 1, x - 1, x / 2, x ** 2, -x, x.exp(), x.sum(), x.mean(), x[0], x[:1], x.view(2, 1), x.t() if x.dim() == 2 else x.unsqueeze(0))
print(x.double(), x.to(torch.float64), x.half(), x.abs(), x.sigmoid(), x.relu(), x.clone(), x.expand(2, 2), x.reshape(1, 2))
y = torch.tensor([1, 2], dtype=torch.float64, requires_grad=True)
print(y, y * 2)
print(torch.zeros(2, dtype=torch.float16, requires_grad=True), torch.tensor(3.0, requires_grad=True))
print(torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1.0], dtype=torch.bfloat16))
print(torch.tensor([], requires_grad=True), torch.tensor([], dtype=torch.float64), torch.tensor([], dtype=torch.int32))
print(torch.empty(2, 3, device="meta"), torch.empty(0, device="meta"), torch.ones(2, dtype=torch.int64, device="meta"))
print(torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2), requires_grad=False))
print(torch.nn.Parameter(torch.arange(3.0)) * 2)
''')

program("qt_printoptions_more", r'''
import torch
x = torch.tensor([3.14159265, 2.71828182, 1e-3])
torch.set_printoptions(precision=6)
print(x, torch.tensor([1.0, 2.0]), torch.tensor([1.5], dtype=torch.float64))
torch.set_printoptions(precision=0)
print(x, torch.tensor([1.5, 2.5, -0.5]))
torch.set_printoptions(precision=3, sci_mode=False)
print(torch.tensor([1e-8, 1e8]), torch.tensor([123456789.0]))
torch.set_printoptions(sci_mode=True, precision=2)
print(torch.tensor([1.0, 2.0]), torch.tensor([0.0]), torch.tensor([1, 2]))
torch.set_printoptions(sci_mode=None, precision=4)
print(torch.tensor([1e-8, 1e8]))
torch.set_printoptions(threshold=3, edgeitems=1)
print(torch.arange(10.0), torch.arange(24).reshape(2, 3, 4), torch.tensor([1, 2, 3]))
torch.set_printoptions(threshold=1000, edgeitems=3)
torch.set_printoptions(linewidth=20)
print(torch.arange(12.0), torch.arange(6).reshape(2, 3) * 1000)
torch.set_printoptions(linewidth=200)
print(torch.arange(40.0))
torch.set_printoptions(profile="default")
print(torch.arange(40.0))
torch.set_printoptions(profile="short")
print(torch.arange(10.0) / 3, torch.arange(1000))
torch.set_printoptions(profile="default")
print(torch.arange(10.0) / 3)
''')

program("qt_repr_summarise_shapes", r'''
import torch
print(torch.arange(1001) % 7)
print(torch.ones(1001, dtype=torch.int8))
print(torch.arange(2002.0).reshape(2, 1001))
print(torch.arange(3 * 400).reshape(3, 400) - 600)
print(torch.arange(4 * 2 * 200.0).reshape(4, 2, 200) / 1000)
print(torch.arange(1100).reshape(1100, 1)[:8], torch.arange(1100).reshape(1100, 1).shape)
print(torch.arange(1100.0).reshape(1, 1100))
print((torch.arange(1500) % 2).bool())
print(torch.full((1001,), float("nan")))
print(torch.arange(1001, dtype=torch.float64) * 1e6)
print(torch.zeros(1001, 0), torch.zeros(0, 1001))
''')

program("qt_index_mixed", r'''
import torch
x = torch.arange(120).reshape(2, 3, 4, 5)
print(x[..., None, 1].shape, x[None, ..., None].shape, x[:, None, :, None].shape, x[0, ..., 0])
print(x[:, [0, 2], :, [1, 3]].shape, x[:, [0, 2], 1:3, [1, 3]].shape, x[[1], :, [2], :].shape)
print(x[0, [0, 1, 2], [1, 2, 3]], x[:, 1, [0, 3], 2], x[1, :, [[0], [3]], [1, 2]].shape)
print(x[..., [0, -1]].shape, x[-1, -1, ..., -2:], x[:, :, torch.tensor(2), 0])
print(x[torch.tensor([[0, 1]]), 0, 0], x[[0, 1], ..., [4, 4]], x[0, 0][[True, False, True, False]])
print(x[torch.tensor([True, False])].shape, x[:, torch.tensor([True, False, True])].shape, x[0][x[0] % 17 == 0])
m = x[0, 0] > 10
print(x[0, 0][m], x[0, 0][..., 2:][m[..., 2:]])
print(x[1:2, ::2, 1::2, ::3].shape, x[0, 0, 0, 0].shape, x[0, 0, 0, 0].item())
print(x[(0, 1)].shape, x[[0, 1]].shape, x[(torch.tensor(0), slice(None))].shape, x[0, 1:1].shape)
l = torch.tensor([10, 20, 30, 40])
print(l[[0, 0, 3]], l[[True, False, True, True]], l[torch.tensor([], dtype=torch.long)], l[[]], l[1:-1], l[-3:], l[5:])
print(l[None], l[None, None].shape, l[..., None].shape, l[...].shape, l[:, None] + l)
''')

program("qt_index_errors", r'''
import torch
x = torch.arange(12).reshape(3, 4)
for key in [3, -4, (0, 4), (slice(None), 5), [0, 3], (0, 0, 0)]:
    try:
        x[key]
    except IndexError as e:
        print("IndexError", e)
try:
    x[torch.tensor([0, 5])]
except IndexError as e:
    print("IndexError", e)
try:
    x[::-1]
except ValueError as e:
    print("ValueError", e)
try:
    x[torch.tensor([True, False])]
except IndexError as e:
    print("IndexError", e)
try:
    x[torch.tensor([0.0, 1.0])]
except IndexError as e:
    print("IndexError", e)
try:
    x["a"]
except (IndexError, TypeError) as e:
    print(type(e).__name__)
try:
    x[[0, 1], [0, 1, 2]]
except IndexError as e:
    print("IndexError", e)
try:
    torch.tensor(5)[0]
except IndexError as e:
    print("IndexError", e)
try:
    x[0] = torch.ones(5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x[:, 0] = torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError", e)
print(x[None].shape, x[True].shape, x[False].shape)
''')

program("qt_setitem_broadcast_cast", r'''
import torch
x = torch.zeros(3, 4, dtype=torch.int64)
x[0] = 2.7
x[1, :] = torch.tensor([1.9, -1.9, 2.5, -2.5])
x[2, 1:3] = True
print(x)
f = torch.zeros(2, 3)
f[:] = torch.tensor([1, 2, 3])
f[0, [0, 2]] = torch.tensor(9.0)
f[1][f[1] > 1] = torch.tensor([7.5, 8.5])
print(f, f.dtype)
b = torch.zeros(4, dtype=torch.bool)
b[1] = 5
b[2:] = torch.tensor([0.0, 0.5])
try:
    b[[0, 1]] = torch.tensor([0.0, 0.5])
except RuntimeError as e:
    print("RuntimeError", e)
print(b)
u = torch.zeros(3, dtype=torch.uint8)
u[0] = 255
u[1] = torch.tensor(3.9)
print(u)
c = torch.zeros(2, dtype=torch.complex64)
c[0] = 1 + 2j
c[1] = 3
print(c)
y = torch.arange(24.0).reshape(2, 3, 4)
y[..., 0] = torch.tensor([100.0, 200.0, 300.0])
y[:, None, 1] = -1
y[1, [0, 2], 1:3] = torch.tensor([[5.0], [6.0]])
print(y)
z = torch.zeros(5)
z[torch.tensor([4, 0])] += torch.tensor([1.0, 2.0])
z[torch.tensor([1, 1, 1])] += 1
z[2:] *= 3
z[z == 0] = float("nan")
print(z)
m = torch.zeros(3, 3)
m[torch.eye(3, dtype=torch.bool)] = torch.tensor([1.0, 2.0, 3.0])
m[torch.tensor([0, 2])[:, None], torch.tensor([1, 2])] = 7.0
print(m)
h = torch.zeros(2, dtype=torch.float16)
h[0] = 1 / 3
h[1] = 70000
print(h)
''')

program("qt_index_put_accumulate", r'''
import torch
x = torch.zeros(3, 4)
idx = (torch.tensor([0, 0, 2, 0]), torch.tensor([1, 1, 3, 1]))
print(x.index_put(idx, torch.tensor(1.0), accumulate=True))
print(x.index_put(idx, torch.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True))
print(x.index_put((torch.tensor([1]),), torch.tensor([5.0, 6.0, 7.0, 8.0])))
x.index_put_((torch.tensor([2, 2]),), torch.tensor([[1.0, 1.0, 1.0, 1.0]]), accumulate=True)
print(x)
i = torch.zeros(5, dtype=torch.int64)
i.index_put_((torch.tensor([0, 0, 4]),), torch.tensor([3, 4, 5]), accumulate=True)
print(i)
b = torch.zeros(3, dtype=torch.bool)
print(b.index_put((torch.tensor([True, False, True]),), torch.tensor(True)))
print(torch.index_put(torch.ones(2, 2), (torch.tensor([0]), torch.tensor([1])), torch.tensor(0.0)))
try:
    torch.zeros(3).index_put_((torch.tensor([0, 1]),), torch.tensor([1.0, 2.0, 3.0]))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.zeros(3).index_put_((torch.tensor([0]),), torch.tensor([1], dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError", e)
w = torch.zeros(4, requires_grad=True)
out = w.index_put((torch.tensor([1, 1]),), torch.tensor([2.0, 3.0]), accumulate=True)
(out * torch.arange(4.0)).sum().backward()
print(out, w.grad, type(out.grad_fn).__name__)
v = torch.tensor([1.0, 2.0], requires_grad=True)
out = torch.zeros(3).index_put((torch.tensor([0, 2]),), v)
(out * torch.tensor([5.0, 6.0, 7.0])).sum().backward()
print(v.grad)
''')

program("qt_int_division_signs", r'''
import torch
a = torch.tensor([7, -7, 7, -7, 0, 5])
b = torch.tensor([2, 2, -2, -2, 3, 5])
print(a / b, a // b, a % b, torch.fmod(a, b), torch.remainder(a, b), torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"))
print(a // 2, a % 3, a % -3, -7 // b, -7 % b, 7.5 // b, 7.5 % b, a // 2.5, a % 2.5)
print(torch.true_divide(a, 2), torch.floor_divide(a, b), (a / b).dtype, (a // b).dtype, (a // 2.0).dtype)
f = torch.tensor([7.5, -7.5, 7.5, -7.5, -0.0])
g = torch.tensor([2.0, 2.0, -2.0, -2.0, 1.0])
print(f // g, f % g, torch.fmod(f, g), torch.remainder(f, g), torch.div(f, g, rounding_mode="trunc"), torch.div(f, g, rounding_mode="floor"))
print(torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor([1.0, -1.0, 0.0]) // 0, torch.tensor([1.0, -1.0]) % 0, torch.fmod(torch.tensor([5.0]), 0))
try:
    torch.tensor([1, 2]) // 0
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]) % torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1, 2]) / 0, torch.tensor(5, dtype=torch.int8) // torch.tensor(2, dtype=torch.int8))
u = torch.tensor([250, 5], dtype=torch.uint8)
print(u // 3, u % 7, u / 2, u * 2, u + 10, u - 6, -u, u.neg())
i8 = torch.tensor([-128, 127], dtype=torch.int8)
print(i8 * -1, i8 + 1, i8.abs(), i8 - 1)
print(torch.tensor(2 ** 62) * 4, torch.tensor([-9, 9]) // torch.tensor([4, -4]), torch.tensor([-9, 9]).fmod(4), torch.tensor([-9, 9]).remainder(-4))
print(torch.tensor([5, -5]).div(2, rounding_mode=None), torch.tensor([5.0, -5.0]).div_(2, rounding_mode="floor"))
x = torch.tensor([5, -5])
try:
    x.div_(2)
except RuntimeError as e:
    print("RuntimeError", e)
x.floor_divide_(2)
print(x, x.remainder_(3), torch.tensor([5, -5]).div_(2, rounding_mode="trunc"))
''')

program("qt_promotion_scalars", r'''
import torch
dts = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]
for d in dts:
    t = torch.ones(2, dtype=d)
    z = torch.ones((), dtype=d)
    row = [(t + 1).dtype, (t + 1.0).dtype, (t + True).dtype, (t + z).dtype, (t + torch.tensor(1.0, dtype=torch.float64)).dtype, (t + torch.tensor(1)).dtype]
    if d not in (torch.float16, torch.bfloat16):
        row.append((t + 1j).dtype)
    print(d, row)
print(torch.result_type(torch.ones(2, dtype=torch.int32), 5), torch.result_type(torch.ones(2, dtype=torch.uint8), -1), torch.result_type(2, 3.0), torch.result_type(torch.tensor(1), torch.ones(2, dtype=torch.int8)))
print(torch.result_type(torch.tensor(1.0, dtype=torch.float64), torch.ones(2, dtype=torch.float16)), torch.result_type(torch.tensor(True), torch.tensor(1)), torch.result_type(torch.ones(2, dtype=torch.bool), 2.5))
for a in [torch.bool, torch.uint8, torch.int8, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.complex64]:
    print(a, [torch.promote_types(a, b) for b in [torch.bool, torch.uint8, torch.int8, torch.int16, torch.float16, torch.bfloat16, torch.float64, torch.complex128]])
print([torch.can_cast(a, b) for a, b in [(torch.int64, torch.int8), (torch.float32, torch.int64), (torch.bool, torch.uint8), (torch.complex64, torch.float64), (torch.float64, torch.float16), (torch.int8, torch.bool), (torch.uint8, torch.int8), (torch.float16, torch.complex64)]])
print((torch.ones(2, dtype=torch.uint8) * -1), (torch.ones(2, dtype=torch.int8) + 100), torch.ones(2, dtype=torch.float16) * 1e5)
print(torch.tensor([1, 2], dtype=torch.int16) * torch.tensor(2.5), (torch.tensor([1, 2], dtype=torch.int16) * torch.tensor(2.5)).dtype)
print(torch.ones(2, dtype=torch.uint8) + torch.ones(2, dtype=torch.int8), torch.ones(2, dtype=torch.bfloat16) + torch.ones(2, dtype=torch.float16))
print(torch.get_default_dtype(), torch.tensor(1.5).dtype, torch.tensor([1, 2.5]).dtype, torch.tensor([True, 2]).dtype, torch.tensor([1, 2j]).dtype)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.ones(2).dtype, (torch.ones(2, dtype=torch.int32) + 1.5).dtype, torch.tensor([1j]).dtype, torch.arange(3.0).dtype, torch.tensor([1, 2]).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1j]).dtype, torch.ones(2).dtype)
''')

program("qt_inplace_cast_errors", r'''
import torch
cases = [
    (torch.int64, 1.5), (torch.int64, torch.tensor(1.5)), (torch.int32, torch.ones(2)), (torch.bool, 2), (torch.uint8, torch.ones(2, dtype=torch.int16)),
    (torch.float32, 1j), (torch.float32, torch.ones(2, dtype=torch.float64)), (torch.float16, torch.ones(2)), (torch.int8, torch.tensor(3)), (torch.bool, torch.ones(2)),
]
for dt, other in cases:
    x = torch.ones(2, dtype=dt)
    for name in ["add_", "mul_", "sub_"]:
        try:
            getattr(x, name)(other)
            print(name, dt, "ok", x)
        except RuntimeError as e:
            print(name, dt, "RuntimeError", e)
x = torch.ones(2, dtype=torch.int64)
for op in ["__iadd__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__"]:
    try:
        getattr(x, op)(2)
        print(op, x, x.dtype)
    except RuntimeError as e:
        print(op, "RuntimeError", e)
b = torch.tensor([True, False])
for op in ["__iand__", "__ior__", "__ixor__"]:
    getattr(b, op)(torch.tensor([True, True]))
    print(op, b)
try:
    b -= torch.tensor([True, True])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    -torch.tensor([True])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([True]) - torch.tensor([False])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(2).bitwise_and(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError", e)
f = torch.ones(3)
f.copy_(torch.tensor([1, 2, 3]))
f[0] = 5
f.fill_(2)
print(f, f.dtype)
i = torch.zeros(3, dtype=torch.int32)
i.copy_(torch.tensor([1.9, -1.9, 2.5]))
print(i, torch.zeros(2, dtype=torch.int64).fill_(3.7), torch.zeros(2).fill_(torch.tensor(3)))
try:
    torch.zeros(2).fill_(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.add(torch.ones(2), torch.ones(2), out=torch.zeros(2, dtype=torch.int64))
except RuntimeError as e:
    print("RuntimeError", e)
o = torch.zeros(2, dtype=torch.float64)
torch.add(torch.ones(2), 1, out=o)
print(o)
''')

program("qt_bitwise_shift", r'''
import torch
a = torch.tensor([12, -7, 0, 255])
b = torch.tensor([10, 3, 1, 15])
print(a & b, a | b, a ^ b, ~a, a.bitwise_not(), torch.bitwise_and(a, 6), a | 1, 3 ^ a)
print(a << 2, a >> 1, torch.tensor([1]) << torch.tensor([62]), torch.tensor([-16]) >> 2, a.bitwise_left_shift(1), torch.bitwise_right_shift(a, b % 4))
u = torch.tensor([1, 128, 255], dtype=torch.uint8)
print(u << 1, u >> 1, ~u, u ^ 255, u & torch.tensor(15, dtype=torch.uint8), (u << 1).dtype)
i8 = torch.tensor([1, 64, -1], dtype=torch.int8)
print(i8 << 1, i8 >> 3, ~i8, i8 | torch.tensor([2, 2, 2], dtype=torch.int16))
bo = torch.tensor([True, False, True])
print(bo & torch.tensor([True, True, False]), bo | False, bo ^ True, ~bo, bo & 1, (bo | 2).dtype, bo.logical_not())
print(torch.logical_and(a, b), torch.logical_or(a, 0), torch.logical_xor(a, b), torch.logical_not(a), torch.logical_and(torch.tensor([1.5, 0.0]), torch.tensor([0.0, 2.0])))
try:
    torch.tensor([1.5]) & torch.tensor([1.5])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1.5]) << 1
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1, 2]).__and__(3), torch.tensor([6]).__rand__(3), 5 & torch.tensor([3]), 1 << torch.tensor([1, 2, 3]), 256 >> torch.tensor([4]))
x = torch.tensor([5, 6])
x &= 4
x |= torch.tensor([1, 0])
x ^= 3
x <<= 1
x >>= torch.tensor([1, 2])
print(x, torch.gcd(torch.tensor([12, -18, 0]), torch.tensor([8, 12, 5])), torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 4, 3])))
''')

program("qt_reduce_dims_dtypes", r'''
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
print(x.sum((0, 2)), x.sum((-1, 0), keepdim=True).shape, x.mean((1, 2)), x.amax((0, 1)), x.amin(dim=(2,), keepdim=True).shape, x.prod(1).shape)
print(x.sum(()), x.mean(()), x.std((0, 2)), x.var(dim=(0, 1), correction=2), x.std(1, correction=0, keepdim=True).shape, x.logsumexp((0, 2)))
print(x.norm(dim=(1, 2)), x.norm(p=1, dim=(0, 2)), torch.linalg.vector_norm(x, dim=(0, 1), ord=3), x.count_nonzero((0, 1)))
b = torch.tensor([[True, False, True], [True, True, True]])
print(b.sum(), b.sum(0), b.sum(1).dtype, b.prod(), b.prod(1).dtype, b.any(1), b.all(0), b.cumsum(1), b.float().mean())
i8 = torch.tensor([100, 100, 100], dtype=torch.int8)
u8 = torch.tensor([200, 200], dtype=torch.uint8)
print(i8.sum(), i8.sum().dtype, i8.sum(dtype=torch.int8), u8.sum(), u8.prod(), u8.cumsum(0), i8.cumprod(0), i8.max(), i8.min().dtype)
print(torch.tensor([1, 2, 3], dtype=torch.int32).sum(dtype=torch.float32), torch.tensor([1.5, 2.5]).sum(dtype=torch.float64), torch.tensor([1.5, 2.5]).mean(dtype=torch.float64))
for f in ["mean", "std", "var"]:
    try:
        getattr(torch.tensor([1, 2, 3]), f)()
    except RuntimeError as e:
        print(f, "RuntimeError", e)
try:
    torch.tensor([1.5]).mean(dtype=torch.int64)
except RuntimeError as e:
    print("RuntimeError", e)
h = torch.tensor([60000.0, 60000.0], dtype=torch.float16)
print(h.sum(), h.mean(), h.sum(dtype=torch.float32), torch.tensor([0.1] * 10, dtype=torch.bfloat16).sum())
print(torch.tensor([1.0, 2.0]).std(correction=2), torch.tensor([5.0]).std(), torch.tensor([5.0]).var(correction=0), torch.tensor([]).mean(), torch.tensor([]).std(), torch.tensor([]).var())
try:
    x.sum(3)
except IndexError as e:
    print("IndexError", e)
try:
    x.sum((0, 0))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.zeros(0, 3).amax(0)
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
print(torch.zeros(0, 3).amax(1), torch.zeros(0, 3).max(1), torch.zeros(2, 0).sum(1), torch.zeros(2, 0).prod(1), torch.zeros(2, 0).all(1), torch.zeros(2, 0).any(1))
''')

program("qt_nan_reductions", r'''
import torch
n = float("nan")
x = torch.tensor([[1.0, n, 3.0], [n, n, n], [2.0, 5.0, -1.0]])
print(x.nansum(), x.nansum(1), x.nanmean(1), x.nanmedian(), x.nanmedian(1), x.nanquantile(0.5, dim=1), x.nanquantile(torch.tensor([0.1, 0.9]), dim=1))
print(x.sum(1), x.mean(1), x.max(1), x.min(0), x.argmax(1), x.amax(1), x.median(1), x.median(), x.quantile(0.5, dim=1))
print(x.max(), x.argmin(), x.argmax(), x.logsumexp(1), x.cumsum(1), x.cummax(1), x.cummin(1), x.sort(1), x.topk(1, dim=1))
print(torch.fmax(x[0], x[2]), torch.fmin(x[0], x[2]), torch.maximum(x[0], x[2]), torch.minimum(x[0], x[2]), torch.max(x[0], x[2]))
print(torch.nan_to_num(x), torch.nan_to_num(torch.tensor([n, float("inf"), -float("inf")]), nan=0.5, posinf=9.0, neginf=-9.0), x.isnan().sum(1))
print(torch.tensor([n, n]).nanmean(), torch.tensor([n]).nansum(), torch.tensor([1, 2]).nansum(), torch.tensor([n, 1.0]).nanmedian(), torch.tensor([n]).nanmedian())
print(x.std(1), x.var(0), x.prod(1), x.norm(dim=1), x.aminmax(dim=1), x.unique(), x.mode(1).values)
print(torch.tensor([1.0, n]).allclose(torch.tensor([1.0, n]), equal_nan=True), torch.tensor([1.0, n]).equal(torch.tensor([1.0, n])), torch.isclose(torch.tensor([n, 1.0]), torch.tensor([n, 1.0 + 1e-9]), equal_nan=True))
''')

program("qt_namedtuple_returns", r'''
import torch
x = torch.tensor([[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]])
for r in [x.max(1), x.min(dim=0), x.sort(), x.topk(2), x.kthvalue(1, 1), x.median(0), x.mode(1), x.cummax(1), x.aminmax(), torch.var_mean(x, 1), torch.std_mean(x), x.nanmedian(1), torch.frexp(x), torch.linalg.slogdet(torch.eye(2)), torch.linalg.eigh(torch.eye(2)), torch.linalg.qr(torch.eye(2)), torch.linalg.svd(torch.eye(2)), torch.linalg.lu_factor(torch.eye(2)), torch.unique(torch.tensor([1, 1]), return_counts=True)]:
    print(type(r).__name__, len(r), isinstance(r, tuple))
r = x.max(1)
print(r, r.values, r.indices, r[0] is r.values, repr(r).startswith("torch.return_types.max("))
v, i = x.sort(1, descending=True)
print(v, i)
print(x.argmax(1), x.argmax(0), x.argmin(1), torch.tensor([1, 3, 3, 2]).argmax(), torch.tensor([2.0, 0.0, 0.0]).argmin(), torch.tensor([[1, 1], [1, 1]]).argmax(), torch.tensor([[1, 1], [1, 1]]).argmax(1))
print(x.max(1, keepdim=True), x.min(dim=-1, keepdim=True).indices.shape)
print(torch.max(x, 1).values, torch.max(x, dim=0)[1], torch.min(x, 0, True)[0].shape)
m = torch.max(torch.tensor([1.0, 5.0, 5.0]), 0)
print(m, m.indices.item())
''')

program("qt_scans", r'''
import torch
x = torch.tensor([[1.0, 2.0, -3.0, 4.0], [0.5, -0.5, 2.0, 0.0]])
print(x.cumsum(-1), x.cumprod(0), x.cumsum(dim=0, dtype=torch.float64), torch.cumsum(x.int(), 1), torch.cumprod(x.long(), 1).dtype)
print(x.logcumsumexp(1), torch.logcumsumexp(torch.tensor([-float("inf"), 0.0, -float("inf")]), 0), torch.logcumsumexp(torch.tensor([1000.0, 1000.0]), 0))
print(x.cummax(1), x.cummin(dim=1), torch.tensor([1, 3, 3, 2, 3]).cummax(0), torch.tensor([2.0, 2.0, 1.0, 1.0]).cummin(0))
print(torch.tensor([1, 2, 3]).cumsum(0), torch.tensor([True, False, True]).cumsum(0), torch.tensor([True, False]).cumprod(0), torch.tensor([200, 100], dtype=torch.uint8).cumsum(0))
print(torch.zeros(0).cumsum(0), torch.tensor(5.0).cumsum(0), torch.tensor(3).cumprod(0), torch.zeros(2, 0).cummax(1))
y = x.clone()
y.cumsum_(1)
print(y, torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0])), torch.trapezoid(torch.tensor([1.0, 2.0, 3.0]), dx=0.5), torch.trapz(torch.tensor([1.0, 4.0]), torch.tensor([0.0, 2.0])))
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a.cumprod(0).sum().backward()
print(a.grad)
b = torch.tensor([1.0, 0.0, 3.0], requires_grad=True)
b.cumprod(0).sum().backward()
print(b.grad)
c = torch.tensor([0.5, 2.0, 1.0], requires_grad=True)
c.cummax(0).values.sum().backward()
print(c.grad)
d = torch.tensor([0.5, 2.0, 1.0], requires_grad=True)
d.logcumsumexp(0).sum().backward()
print(d.grad)
''')

program("qt_quantile_median_mode", r'''
import torch
torch.set_printoptions(precision=6)
x = torch.tensor([[4.0, 1.0, 3.0, 2.0], [10.0, 10.0, 0.0, 5.0]])
for how in ["linear", "lower", "higher", "nearest", "midpoint"]:
    print(how, x.quantile(0.4, dim=1, interpolation=how), x.quantile(torch.tensor([0.0, 0.5, 1.0]), dim=1, keepdim=True, interpolation=how).shape, torch.quantile(x, 0.25, interpolation=how))
print(torch.tensor([1.0, 2.0, 3.0, 4.0]).quantile(torch.tensor([0.125, 0.375, 0.625, 0.875]), interpolation="nearest"))
print(x.median(1), x.median(0), torch.tensor([1.0, 2.0, 3.0, 4.0]).median(), torch.tensor([3, 1, 2, 4]).median(), torch.tensor([5, 5, 1, 1]).median(0))
print(x.mode(1), torch.tensor([1, 2, 2, 3, 3]).mode(), torch.tensor([[1, 1, 2], [3, 2, 2]]).mode(0), torch.tensor([2.0, 1.0, 1.0, 2.0]).mode())
try:
    x.quantile(1.5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]).quantile(0.5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.quantile(0.5, interpolation="cubic")
except RuntimeError as e:
    print("RuntimeError", e)
print(x.quantile(0.5, dim=0, keepdim=True), x.double().quantile(torch.tensor([0.3], dtype=torch.float64)), torch.tensor([7.0]).quantile(0.9))
print(x.kthvalue(1, 1), x.kthvalue(4, dim=1, keepdim=True), torch.tensor([3, 3, 1, 3]).kthvalue(2))
try:
    x.kthvalue(5, 1)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
''')

program("qt_unique_counting", r'''
import torch
x = torch.tensor([[1, 2, 1], [3, 1, 2], [1, 2, 1]])
print(torch.unique(x, dim=0, return_inverse=True, return_counts=True), torch.unique(x, dim=1, return_counts=True))
print(torch.unique(x, sorted=False, return_inverse=True)[1].shape, x.unique(return_inverse=True)[1], torch.unique(torch.tensor([3.5, -1.0, 3.5, 0.0])))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True), torch.unique_consecutive(x, dim=0), torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 2]]), dim=0, return_counts=True))
print(torch.unique(torch.tensor([True, False, True])), torch.unique(torch.tensor([], dtype=torch.long), return_counts=True), torch.unique(torch.tensor(5)))
print(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.bincount(torch.tensor([0, 1, 1, 3]), minlength=6), torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1.0, 2.0])), torch.bincount(torch.tensor([], dtype=torch.long)), torch.bincount(torch.tensor([2, 2]), weights=torch.tensor([1, 2])).dtype)
print(torch.bincount(torch.tensor([1, 1]), weights=torch.tensor([1.5, 1.5], dtype=torch.float64)).dtype, torch.tensor([2, 0, 2], dtype=torch.uint8).bincount())
for bad in [torch.tensor([-1, 2]), torch.tensor([1.0, 2.0]), torch.tensor([[1, 2]])]:
    try:
        torch.bincount(bad)
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=4), torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3), torch.histc(torch.tensor([5.0, 5.0]), bins=3), torch.histc(torch.tensor([0.0, 10.0, 11.0, -1.0]), bins=2, min=0, max=10))
h = torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3)
print(h, h.hist, h.bin_edges, torch.histogram(torch.tensor([1.0, 2.0, 2.5]), bins=torch.tensor([0.0, 1.0, 2.0, 3.0]), density=True))
print(torch.histogram(torch.tensor([1.0, 2.0, 3.0]), bins=2, range=(0.0, 4.0), weight=torch.tensor([1.0, 2.0, 3.0])))
try:
    torch.histc(torch.tensor([1, 2]), bins=2)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1, 2, 2, 5]).count_nonzero(), torch.tensor([[0, 1], [2, 0]]).count_nonzero(dim=1), torch.tensor([True, False]).count_nonzero())
''')

program("qt_search_sort_stable", r'''
import torch
s = torch.tensor([1, 3, 3, 5, 7])
v = torch.tensor([[3, 6], [0, 9]])
print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True), torch.searchsorted(s, v, side="right"), torch.searchsorted(s, 3), torch.searchsorted(s, torch.tensor(4)), torch.searchsorted(s, v, out_int32=True).dtype)
uns = torch.tensor([5, 1, 7, 3, 3])
print(torch.searchsorted(uns, torch.tensor([3, 6]), sorter=uns.argsort()), torch.searchsorted(torch.tensor([[1.0, 2.0], [0.0, 10.0]]), torch.tensor([[1.5], [5.0]])))
print(torch.searchsorted(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])), torch.searchsorted(torch.tensor([0.5, 1.5]), torch.tensor([1, 2])))
print(torch.bucketize(torch.tensor([[1, 3], [5, 8]]), s), torch.bucketize(torch.tensor(3), s, right=True), torch.bucketize(torch.tensor([1.0]), torch.tensor([1.0]), out_int32=True))
try:
    torch.searchsorted(s, v, side="left", right=True)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.searchsorted(torch.tensor([[1, 2]]), torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", e)
t = torch.tensor([2, 1, 2, 1, 2, 0])
print(t.sort(stable=True), t.sort(descending=True, stable=True), t.argsort(stable=True, descending=True), torch.sort(t, dim=0, stable=True).indices)
print(torch.tensor([0.0, -0.0, 0.0, -0.0]).sort(stable=True), torch.tensor([float("inf"), float("nan"), -float("inf"), 1.0]).sort(descending=True))
print(t.topk(3), t.topk(3, largest=False), t.topk(0), t.float().topk(2, sorted=True), torch.tensor([[1, 5, 5], [2, 2, 2]]).topk(2, dim=1))
try:
    t.topk(7)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([True, False, True, False]).argsort(stable=True), torch.tensor([3, 1, 2], dtype=torch.uint8).sort(descending=True), torch.tensor([1.5, 0.5], dtype=torch.float16).sort())
print(t.msort(), torch.tensor([[3, 1], [2, 4]]).msort(), torch.argsort(torch.tensor([[3, 1], [2, 4]]), dim=0, descending=True))
''')


import programs_qa_tensor_2  # noqa: F401 - the programs continue there
