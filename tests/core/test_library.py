"""torch.library on mindtorch's op registry: custom_op, Library(DEF/IMPL/FRAGMENT),
register_fake / register_autograd / register_kernel, mindtorch.ops.<ns>.<name>, compared
with torch's behaviour (values, gradients, error classes and messages)."""
import itertools

import mindtorch
import numpy as np
import pytest
import torch
from mindtorch import library as mlibrary
from mindtorch._ops.registry import OPS

_ids = itertools.count()


@pytest.fixture
def ns():
    """A fresh namespace per test (both libraries' registrations are process-wide); the
    mindtorch ops are taken out afterwards so registry-wide checks do not see them."""
    name = f"mtlibtest{next(_ids)}"
    yield name
    from mindtorch.plugins._registry import KERNELS
    for q in [q for q in OPS if q.startswith(name + "::")]:
        OPS.pop(q)
        KERNELS.pop(q, None)
        mlibrary._ENTRIES.pop(q, None)


def both(fn):
    """fn(lib) for torch and mindtorch: (result, error) pairs to compare."""
    out = []
    for lib in (torch, mindtorch):
        try:
            out.append(("ok", fn(lib)))
        except Exception as e:  # noqa: BLE001 - compared by class and message
            out.append((type(e).__name__, str(e).split("  ")[0]))
    return out


def make_foo(lib, ns):
    T = lib.Tensor

    @lib.library.custom_op(f"{ns}::foo", mutates_args=())
    def foo(x: T, n: int, f: float = 2.0) -> T:
        return x * f + n
    return foo


def test_custom_op_forward_and_missing_autograd(ns):
    res = {}
    for lib in (torch, mindtorch):
        foo = make_foo(lib, ns)
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = foo(x, 1)
        assert y.requires_grad
        assert type(y.grad_fn).__name__ == f"GeneratedBackwardFor_{ns}_foo_defaultBackward"
        with pytest.raises(RuntimeError) as e:
            y.sum().backward()
        res[lib] = (y.tolist(), str(e.value))
        ops_ns = getattr(lib.ops, ns)
        assert str(ops_ns.foo) == f"{ns}.foo" and str(ops_ns.foo.default) == f"{ns}.foo.default"
        assert repr(ops_ns.foo) == f"<OpOverloadPacket(op='{ns}.foo')>"
        assert repr(ops_ns.foo.default) == f"<OpOverload(op='{ns}.foo', overload='default')>"
        assert ops_ns.foo.default(x.detach(), 2, f=0.5).tolist() == [2.5, 1.0, 3.5]
        z = foo(x.detach(), 1)
        assert not z.requires_grad and z.grad_fn is None
    assert res[torch] == res[mindtorch]


def test_custom_op_register_autograd_and_fake(ns):
    grads = {}
    for lib in (torch, mindtorch):
        T = lib.Tensor

        @lib.library.custom_op(f"{ns}::scale", mutates_args=())
        def scale(x: T, w: T, *, k: float = 1.0) -> T:
            return x * w * k

        def setup_context(ctx, inputs, keyword_only_inputs, output):
            x, w = inputs
            ctx.save_for_backward(x, w)
            ctx.k = keyword_only_inputs["k"]

        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w * ctx.k, g * x * ctx.k

        scale.register_autograd(backward, setup_context=setup_context)

        @scale.register_fake
        def _(x, w, *, k=1.0):
            return lib.empty_like(x)

        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        y = scale(x, w, k=3.0)
        (y * y).sum().backward()
        grads[lib] = (y.tolist(), x.grad.tolist(), w.grad.tolist())
        fake = scale(lib.empty(4, 2, device="meta"), lib.empty(2, device="meta"))
        assert fake.device.type == "meta" and tuple(fake.shape) == (4, 2)
        assert lib.library.opcheck(scale, (x.detach(), w.detach()), {"k": 2.0})[
            "test_faketensor"] == "SUCCESS"
    assert grads[torch] == grads[mindtorch]


def test_custom_op_mutation_and_device_types(ns):
    for lib in (torch, mindtorch):
        T = lib.Tensor

        @lib.library.custom_op(f"{ns}::add_", mutates_args={"x"})
        def add_(x: T, v: float) -> None:
            x.add_(v)

        t = lib.zeros(3)
        assert add_(t, 2.5) is None
        assert t.tolist() == [2.5, 2.5, 2.5]

        @lib.library.custom_op(f"{ns}::pair", mutates_args=(), device_types="cpu")
        def pair(x: T) -> tuple[T, T]:
            return x.clone(), x * 2

        a, b = pair(lib.arange(3.0))
        assert a.tolist() == [0.0, 1.0, 2.0] and b.tolist() == [0.0, 2.0, 4.0]
        with pytest.raises(Exception):
            pair(lib.ones(2, device="meta"))  # no meta/fake kernel registered


def test_register_autograd_refused_for_mutable_ops(ns):
    def go(lib):
        @lib.library.custom_op(f"{ns}::m_", mutates_args={"x"})
        def m_(x: lib.Tensor) -> None:
            x.mul_(2)
        lib.library.register_autograd(f"{ns}::m_", lambda ctx, g: g)
    a, b = both(go)
    assert a[0] == b[0] == "RuntimeError"


def test_library_def_impl_fragment(ns):
    out = {}
    for lib in (torch, mindtorch):
        L = lib.library.Library(ns, "DEF")
        assert L.define("mul2(Tensor x, *, float s=2.0) -> Tensor") == "mul2"
        L.impl("mul2", lambda x, *, s=2.0: x * s, "CPU")
        L.define("comp(Tensor x) -> Tensor")
        L.impl("comp", lambda x: x.sin() * 2, "CompositeImplicitAutograd")
        ops = getattr(lib.ops, ns)
        z = lib.tensor([0.5, 1.0, -2.0], dtype=lib.float64, requires_grad=True)
        w = ops.comp(z)
        w.sum().backward()
        frag = lib.library.Library(ns, "FRAGMENT")
        frag.define("neg(Tensor x) -> Tensor")
        lib.library.impl(f"{ns}::neg", "cpu", lambda x: -x)
        out[lib] = (ops.mul2(lib.ones(2), s=4.0).tolist(), w.tolist(), z.grad.tolist(),
                    ops.neg(lib.ones(1)).tolist())
        with pytest.raises(RuntimeError, match="Only a single TORCH_LIBRARY"):
            lib.library.Library(ns, "DEF")
        with pytest.raises(ValueError, match="Unsupported kind: BAD"):
            lib.library.Library(ns, "BAD")
        L._destroy()
        frag._destroy()
        assert not hasattr(getattr(lib.ops, ns), "mul2")
    assert out[torch] == out[mindtorch]


def test_define_register_kernel_and_fake_functions(ns):
    out = {}
    for lib in (torch, mindtorch):
        lib.library.define(f"{ns}::sq", "(Tensor x) -> Tensor")
        lib.library.register_kernel(f"{ns}::sq", "cpu", lambda x: x * x)
        lib.library.register_fake(f"{ns}::sq", lambda x: lib.empty_like(x))
        ops = getattr(lib.ops, ns)
        m = ops.sq(lib.empty(2, 5, device="meta"))
        out[lib] = (ops.sq(lib.tensor([3.0, -2.0])).tolist(), tuple(m.shape), m.device.type)
    assert out[torch] == out[mindtorch]


def test_infer_schema():
    def h(x: torch.Tensor, z: torch.Tensor | None, a: list[int], b: int | None = None,
          c: float = 1.5, s: str = "a", *, flag: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
        pass

    def hm(x: mindtorch.Tensor, z: mindtorch.Tensor | None, a: list[int],
           b: int | None = None, c: float = 1.5, s: str = "a", *, flag: bool = True
           ) -> tuple[mindtorch.Tensor, mindtorch.Tensor]:
        pass

    for mutates in ((), {"x"}):
        assert mlibrary.infer_schema(hm, mutates_args=mutates) == \
            torch.library.infer_schema(h, mutates_args=mutates)
    assert mlibrary.infer_schema(hm, mutates_args=(), op_name="hh") == \
        torch.library.infer_schema(h, mutates_args=(), op_name="hh")

    def none_ret(x: mindtorch.Tensor) -> None:
        pass
    assert mlibrary.infer_schema(none_ret, mutates_args=()) == "(Tensor x) -> ()"
    with pytest.raises(ValueError):
        mlibrary.infer_schema(lambda x: x, mutates_args=())


def test_bad_names_and_unknown_ops(ns):
    for lib in (torch, mindtorch):
        with pytest.raises(ValueError):
            lib.library.custom_op("noNamespace", mutates_args=())(lambda x: x)
        with pytest.raises(TypeError):
            lib.library.custom_op(f"{ns}::nomut")(lambda x: x)  # mutates_args is required
        with pytest.raises(AttributeError):
            lib.ops.aten.no_such_op_anywhere


def test_aten_namespace_calls_builtins():
    x = [[1.0, -2.0], [3.0, 0.5]]
    for name, overload, args in (("relu", "default", ()), ("add", "Tensor", ([2.0, 1.0],)),
                                 ("sum", "default", ())):
        want = getattr(getattr(torch.ops.aten, name), overload)(
            torch.tensor(x), *map(torch.tensor, args))
        got = getattr(getattr(mindtorch.ops.aten, name), overload)(
            mindtorch.tensor(x), *map(mindtorch.tensor, args))
        assert got.tolist() == want.tolist()
    assert mindtorch.ops.aten.threshold_backward(
        mindtorch.ones(3), mindtorch.tensor([-1.0, 0.5, 2.0]), 0.25).tolist() == \
        torch.ops.aten.threshold_backward(torch.ones(3), torch.tensor([-1.0, 0.5, 2.0]),
                                          0.25).tolist()


def test_library_impl_overrides_an_aten_kernel_until_destroyed():
    lib = mindtorch.library.Library("aten", "IMPL")
    lib.impl("neg", lambda x: x * 10, "CPU")
    try:
        assert mindtorch.neg(mindtorch.tensor([1.0])).tolist() == [10.0]
    finally:
        lib._destroy()
    assert mindtorch.neg(mindtorch.tensor([1.0])).tolist() == [-1.0]


def test_tags(ns):
    for name, member in torch.Tag.__members__.items():
        mine = getattr(mindtorch.Tag, name)
        assert (repr(mine), str(mine), mine.value) == (repr(member), str(member), member.value)
    for lib in (torch, mindtorch):
        @lib.library.custom_op(f"{ns}::tagged", mutates_args=(),
                               tags=(lib.Tag.pt2_compliant_tag,))
        def tagged(x: lib.Tensor) -> lib.Tensor:
            return x + 1
        assert tagged(lib.ones(1)).tolist() == [2.0]
        L = lib.library.Library(ns, "FRAGMENT")
        L.define("g(Tensor x) -> Tensor", tags=lib.Tag.needs_fixed_stride_order)
    assert "pt2_compliant_tag" in OPS[f"{ns}::tagged"].tags


def test_tutorial_ops_numpy_kernel_and_crop(ns):
    """PyTorch's custom-op tutorial: a NumPy kernel with a fake and autograd, and an op
    taking a Sequence[int] whose backward writes into zeros."""
    from collections.abc import Sequence
    out = []
    for lib in (torch, mindtorch):
        T = lib.Tensor

        @lib.library.custom_op(f"{ns}::numpy_sin", mutates_args=())
        def numpy_sin(x: T) -> T:
            return lib.from_numpy(np.sin(x.cpu().numpy())).to(device=x.device)

        numpy_sin.register_fake(lambda x: lib.empty_like(x))

        def setup(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        numpy_sin.register_autograd(lambda ctx, g: g * ctx.saved_tensors[0].cos(),
                                    setup_context=setup)
        x = lib.tensor([0.1, 0.5, 1.0], dtype=lib.float64, requires_grad=True)
        y = numpy_sin(x)
        y.sum().backward()
        assert lib.autograd.gradcheck(numpy_sin, (x,))

        @lib.library.custom_op(f"{ns}::crop", mutates_args=())
        def crop(pic: T, box: Sequence[int]) -> T:
            x0, y0, x1, y1 = box
            return pic[:, y0:y1, x0:x1].clone()

        @crop.register_fake
        def _(pic, box):
            x0, y0, x1, y1 = box
            return pic.new_empty(y1 - y0, x1 - x0, pic.shape[0]).permute(2, 0, 1)

        def setup_crop(ctx, inputs, output):
            ctx.box, ctx.pic_shape = inputs[1], inputs[0].shape

        def backward_crop(ctx, grad_output):
            grad_input = grad_output.new_zeros(ctx.pic_shape)
            x0, y0, x1, y1 = ctx.box
            grad_input[:, y0:y1, x0:x1] = grad_output
            return grad_input, None

        crop.register_autograd(backward_crop, setup_context=setup_crop)
        leaf = lib.arange(48.0).view(3, 4, 4).requires_grad_()
        c = crop(leaf, (1, 1, 3, 4))
        (c * 2).sum().backward()
        fake = crop(lib.empty(3, 8, 8, device="meta"), [0, 0, 5, 2])
        out.append((y.tolist(), x.grad.tolist(), tuple(c.shape), leaf.grad.tolist(),
                    tuple(fake.shape), lib.library.infer_schema(crop._init_fn,
                                                                mutates_args=())))
    assert out[0] == out[1]


def test_impl_with_a_library_object(ns):
    out = []
    for lib in (torch, mindtorch):
        L = lib.library.Library(ns, "FRAGMENT")
        L.define("twice(Tensor x) -> Tensor")

        @lib.library.impl(L, "twice", "CPU")
        def twice(x):
            return x * 2

        out.append(getattr(lib.ops, ns).twice(lib.tensor([1.0, 3.0])).tolist())
        assert twice(lib.ones(1)).tolist() == [2.0]  # the decorator returns the function
    assert out[0] == out[1] == [2.0, 6.0]


def test_mutating_ops_with_inputs_requiring_grad(ns):
    """A mutating op returning nothing runs below autograd, as PyTorch's: its writes are
    not recorded (even into a leaf requiring grad)."""
    out = []
    for lib in (torch, mindtorch):
        T = lib.Tensor

        @lib.library.custom_op(f"{ns}::add_out", mutates_args=["out"])
        def add_out(a: T, b: T, out: T) -> None:
            out.copy_(a + b)

        @lib.library.custom_op(f"{ns}::scale_", mutates_args={"x"})
        def scale_(x: T, s: float) -> None:
            x.mul_(s)

        a, o = lib.ones(2, requires_grad=True), lib.zeros(2)
        assert add_out(a, lib.ones(2), o) is None
        leaf = lib.ones(2, requires_grad=True)
        scale_(leaf, 2.0)
        mid = lib.ones(2, requires_grad=True) * 1
        scale_(mid, 3.0)
        out.append((o.tolist(), o.requires_grad, leaf.tolist(), leaf.requires_grad,
                    mid.tolist(), type(mid.grad_fn).__name__))
    assert out[0] == out[1]


def test_overload_attributes(ns):
    out = []
    for lib in (torch, mindtorch):
        @lib.library.custom_op(f"{ns}::attrs", mutates_args=(),
                               tags=(lib.Tag.pt2_compliant_tag,))
        def attrs(x: lib.Tensor) -> lib.Tensor:
            return x + 1
        packet = getattr(lib.ops, ns).attrs
        o = packet.default
        out.append((o.name(), o.namespace, [t.name for t in o.tags], str(o.overloadpacket),
                    o._opname, packet.overloads(), packet._qualified_op_name))
    assert out[0] == out[1]
