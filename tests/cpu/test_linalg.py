"""Matrix products (mm, bmm, mv, dot, matmul, addmm, @) against PyTorch: dtypes, every
rank combination of matmul with broadcasting, non-contiguous and empty operands, error
classes, and the meta device's shapes/dtypes."""
import numpy as np
import pytest

import mindtorch
from reference import torch
from test_reduction import check, check_meta, make

torch.set_num_threads(1)

PRODUCT_DTYPES = ["uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32",
                  "float64", "complex64", "bool"]
TOL = {"float16": dict(rtol=2e-3, atol=2e-3), "bfloat16": dict(rtol=2e-2, atol=5e-2)}


def _pair(shape1, shape2, dtype, low=-3, high=4):
    return make(shape1, dtype, low, high), make(shape2, dtype, low, high)


def _check_both(fn, *ts, dtype="float32"):
    check(fn, *ts, **TOL.get(dtype, {}))
    check_meta(fn, *ts)


SIMPLE = {
    "mm": ((3, 4), (4, 5)),
    "bmm": ((2, 3, 4), (2, 4, 5)),
    "mv": ((3, 4), (4,)),
    "dot": ((4,), (4,)),
}


@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
@pytest.mark.parametrize("name", sorted(SIMPLE))
def test_products(name, dtype):
    a, b = _pair(*SIMPLE[name], dtype)
    _check_both(lambda L, x, y: getattr(L, name)(x, y), a, b, dtype=dtype)
    _check_both(lambda L, x, y: getattr(x, name)(y), a, b, dtype=dtype)


MATMUL_SHAPES = [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)),
    ((2, 3, 4), (4,)), ((2, 3, 4), (4, 5)), ((2, 2, 3, 4), (4, 5)),
    ((4,), (2, 4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 1, 4, 5)), ((4,), (2, 2, 4, 5)),
    # empty batch, rows, inner and output dims
    ((0, 3, 4), (4, 5)), ((3, 0), (0, 5)), ((2, 3, 0), (0,)), ((0,), (0,)),
    ((2, 0, 4), (2, 4, 5)), ((0, 3, 4), (1, 4, 2)), ((3, 4), (4, 0)),
]


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex64", "float16"])
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_shapes(shapes, dtype):
    a, b = _pair(*shapes, dtype)
    _check_both(lambda L, x, y: L.matmul(x, y), a, b, dtype=dtype)
    _check_both(lambda L, x, y: x @ y, a, b, dtype=dtype)


def test_non_contiguous_operands():
    a = make((5, 3), "float32").transpose(0, 1)           # (3, 5), column-major
    b = make((4, 10), "float32").as_strided((5, 4), (1, 10), 0)   # (5, 4), strided
    check(lambda L, x, y: L.mm(x, y), a, b)
    check(lambda L, x, y: L.matmul(x, y), a, b)
    v = make((10,), "float32").as_strided((5,), (2,), 1)
    check(lambda L, x, y: L.mv(x, y), a, v)
    check(lambda L, x, y: L.dot(x, y), v, v)
    batch = make((4, 2, 3), "float32").transpose(0, 2)   # (3, 2, 4)
    check(lambda L, x, y: L.bmm(x, y), batch, make((3, 4, 2), "float32"))
    wide = mindtorch.tensor([[1.0, 2.0, 3.0]]).expand(4, 3)   # stride 0
    check(lambda L, x, y: L.matmul(x, y), wide, make((3, 2), "float32"))


def test_results_are_fresh():
    a = make((3, 3), "float32")
    eye = mindtorch.eye(3)
    r = mindtorch.mm(a, eye)
    r.fill_(0)
    assert a.abs().sum().item() > 0


@pytest.mark.parametrize("fn, shapes, dtypes", [
    (lambda L, x, y: L.mm(x, y), ((2, 3), (2, 3)), ("float32", "float32")),
    (lambda L, x, y: L.mm(x, y), ((2, 3), (3,)), ("float32", "float32")),
    (lambda L, x, y: L.mm(x, y), ((3,), (3, 2)), ("float32", "float32")),
    (lambda L, x, y: L.mm(x, y), ((2, 3), (3, 2)), ("float32", "float64")),
    (lambda L, x, y: L.mm(x, y), ((2, 3), (3, 2)), ("int64", "int32")),
    (lambda L, x, y: L.mm(x, y), ((2, 3), (2, 3)), ("float32", "float64")),
    (lambda L, x, y: L.bmm(x, y), ((2, 3), (2, 3, 3)), ("float32", "float32")),
    (lambda L, x, y: L.bmm(x, y), ((2, 2, 3), (2, 4, 3)), ("float32", "float32")),
    (lambda L, x, y: L.bmm(x, y), ((2, 2, 3), (3, 3, 3)), ("float32", "float32")),
    (lambda L, x, y: L.bmm(x, y), ((2, 2, 3), (2, 3, 3)), ("float32", "float64")),
    (lambda L, x, y: L.mv(x, y), ((2, 3), (2,)), ("float32", "float32")),
    (lambda L, x, y: L.mv(x, y), ((2, 3), (3, 1)), ("float32", "float32")),
    (lambda L, x, y: L.mv(x, y), ((3,), (3,)), ("float32", "float32")),
    (lambda L, x, y: L.mv(x, y), ((2, 3), (3,)), ("float64", "float32")),
    (lambda L, x, y: L.dot(x, y), ((3,), (4,)), ("float32", "float32")),
    (lambda L, x, y: L.dot(x, y), ((3,), (3,)), ("float32", "float64")),
    (lambda L, x, y: L.dot(x, y), ((3,), (4,)), ("float32", "float64")),
    (lambda L, x, y: L.dot(x, y), ((2, 3), (2, 3)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((), (2, 3)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((3,), ()), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((3,), (4,)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 3), (2,)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 3), (2, 3)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 2, 3), (4, 3, 2)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 2, 3), (2, 2)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((5, 2, 3), (4,)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((4,), (5, 2, 3)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 3), (5, 4, 4)), ("float32", "float32")),
    (lambda L, x, y: L.matmul(x, y), ((2, 3), (3, 2)), ("float32", "float64")),
    (lambda L, x, y: L.matmul(x, y), ((3,), (3,)), ("float32", "float64")),
    (lambda L, x, y: L.matmul(x, y), ((2, 2, 3), (2, 3, 2)), ("float32", "float64")),
    (lambda L, x, y: L.matmul(x, y), ((3,), (3,)), ("bool", "bool")),
    (lambda L, x, y: L.matmul(x, y), ((2, 3), (3, 2)), ("bool", "bool")),
    (lambda L, x, y: L.matmul(x, y), ((2, 2, 3), (2, 3, 2)), ("bool", "bool")),
    (lambda L, x, y: L.mm(x, y), ((2, 0), (0, 2)), ("bool", "bool")),
])
def test_errors(fn, shapes, dtypes):
    a, b = make(shapes[0], dtypes[0]), make(shapes[1], dtypes[1])
    check(fn, a, b)
    check_meta(fn, a, b)


def test_matmul_rejects_non_tensors():
    a = make((2, 2), "float32")
    check(lambda L, x: L.matmul(x, 2), a)
    check(lambda L, x: L.mm(x, [[1.0, 2.0], [3.0, 4.0]]), a)


@pytest.mark.parametrize("dtype", ["int64", "int32", "float16", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("self_shape", [(3, 5), (5,), (1, 5), (3, 1), ()])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1), (2.7, 1.9), (-2.7, -1.9),
                                         (True, False)])
def test_addmm(self_shape, beta, alpha, dtype):
    s = make(self_shape, dtype)
    a, b = make((3, 4), dtype), make((4, 5), dtype)
    fn = lambda L, x, y, z: L.addmm(x, y, z, beta=beta, alpha=alpha)  # noqa: E731
    check(fn, s, a, b, **TOL.get(dtype, {}))
    check_meta(fn, s, a, b)


def test_addmm_beta_zero_ignores_nan():
    s = mindtorch.full((2, 2), float("nan"))
    a = make((2, 3), "float32")
    check(lambda L, x, y: L.addmm(x, y, y.T, beta=0), s, a)
    check(lambda L, x, y: x.addmm(y, y.T, beta=0, alpha=3), s, a)


ADD_PRODUCTS = {  # name: (shapes of self and the two factors)
    "addmm": ((2, 2), (2, 3), (3, 2)), "addmv": ((2,), (2, 3), (3,)),
    "addr": ((2, 3), (2,), (3,)), "baddbmm": ((2, 2, 2), (2, 2, 3), (2, 3, 2)),
    "addbmm": ((2, 2), (2, 2, 3), (2, 3, 2))}


@pytest.mark.parametrize("beta", [0, 1, 0.5])
@pytest.mark.parametrize("alpha", [0, 0.0, 1, -2.0])
@pytest.mark.parametrize("name", sorted(ADD_PRODUCTS))
def test_add_products_with_non_finite_terms(name, alpha, beta):
    """alpha = 0 skips the product (addmm, addmv, addbmm; not addr, baddbmm: PyTorch
    propagates there), beta = 0 ignores self, NaNs and infs included."""
    s, x, y = (make(shape, "float32") for shape in ADD_PRODUCTS[name])
    x.view(-1)[0], x.view(-1)[-1] = float("nan"), float("inf")
    s.view(-1)[0] = float("nan")
    fn = lambda L, *ts: getattr(L, name)(*ts, alpha=alpha, beta=beta)  # noqa: E731
    check(fn, s, x, y)
    check(lambda L, *ts: getattr(ts[0].clone(), name + "_")(*ts[1:], alpha=alpha,
                                                           beta=beta), s, x, y)


@pytest.mark.parametrize("name", sorted(ADD_PRODUCTS))
def test_add_products_in_place_refuse_complex_results(name):
    """A real self can't hold a complex result (addr promotes: RuntimeError, not a cast;
    the others refuse the dtypes first)."""
    shapes = ADD_PRODUCTS[name]
    s, x, y = make(shapes[0], "float32"), make(shapes[1], "complex64"), \
        make(shapes[2], "complex64")
    check(lambda L, a, b, c: getattr(a, name + "_")(b, c), s, x, y)
    check(lambda L, a, b, c: getattr(a, name + "_")(b, c.real), s, x, y)
    check(lambda L, a, b, c: getattr(a, name + "_")(b.real, c.real, alpha=1j), s, x, y)
    with pytest.raises(RuntimeError):
        getattr(s, name + "_")(x, y)


def test_addbmm_in_place_resizes_a_broadcast_self():
    # ((2, 1) is not compared: PyTorch overwrites self while it reads it, expanded)
    for shape in ((), (2,), (1, 2)):
        check(lambda L, a, b, c: a.clone().addbmm_(b, c), make(shape, "float32"),
              make((3, 2, 4), "float32"), make((3, 4, 2), "float32"))


@pytest.mark.parametrize("ranks", [(3, 2), (3, 1), (3, 0), (2, 2), (2, 3), (1, 3), (0, 3),
                                   (4, 3), (4, 2), (3, 4)], ids=str)
@pytest.mark.parametrize("name", ["addbmm", "baddbmm", "addbmm_", "baddbmm_"])
def test_batched_add_products_check_order(name, ranks):
    """PyTorch reads the factors' sizes (IndexError), expands self, then checks ranks."""
    b1, b2 = (make((2,) * r, "float32") for r in ranks)
    s = make((2, 2, 2) if name.startswith("b") else (2, 2), "float32")
    check(lambda L, a, b, c: getattr(L, name)(a, b, c) if hasattr(L, name) else
          getattr(a, name)(b, c), s, b1, b2)
    check_meta(lambda L, a, b, c: getattr(a, name)(b, c), s, b1, b2)


@pytest.mark.parametrize("fn, shapes, dtypes", [
    (lambda L, s, x, y: L.addmm(s, x, y), ((3,), (3,), (2, 3)), ("float32",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y), ((3,), (2, 3), (3,)), ("float32",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y), ((3,), (2, 3), (2, 3)), ("float32",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y), ((3,), (2, 3), (3, 2)), ("float64", "float32",
                                                                    "float32")),
    (lambda L, s, x, y: L.addmm(s, x, y), ((4,), (2, 3), (3, 2)), ("float32",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y), ((2, 2, 2), (2, 3), (3, 2)), ("float32",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y), ((2, 2), (2, 3), (3, 2)), ("bool",) * 3),
    (lambda L, s, x, y: L.addmm(s, x, y, alpha=1j), ((2, 2), (2, 3), (3, 2)),
     ("float32",) * 3),
])
def test_addmm_errors(fn, shapes, dtypes):
    ts = [make(s, d) for s, d in zip(shapes, dtypes)]
    check(fn, *ts)
    check_meta(fn, *ts)


def test_out():
    a, b = make((3, 4), "float32"), make((4, 2), "float32")
    out = mindtorch.empty(0)
    assert mindtorch.matmul(a, b, out=out) is out
    np.testing.assert_allclose(out.numpy(), a.numpy() @ b.numpy(), rtol=1e-6)
    out = mindtorch.empty(3, 2)
    assert mindtorch.mm(a, b, out=out) is out
    np.testing.assert_allclose(out.numpy(), a.numpy() @ b.numpy(), rtol=1e-6)


def test_integer_products_wrap_like_torch():
    a = mindtorch.full((3,), 100, dtype=mindtorch.int8)
    check(lambda L, x: L.dot(x, x), a)
    check(lambda L, x: L.mm(x.reshape(1, 3), x.reshape(3, 1)), a)
    u = mindtorch.full((2, 2), 200, dtype=mindtorch.uint8)
    check(lambda L, x: L.matmul(x, x), u)


def test_chain_matmul_and_kron_layouts():
    """chain_matmul multiplies in multi_dot's order (where infs meet); kron takes any
    layout (PyTorch's own view of its product fails for some transposed inputs)."""
    a, b, c = make((2, 3), "float32"), make((3, 4), "float32"), make((4, 2), "float32")
    a[0, 0], c[1, 1] = float("inf"), -float("inf")
    check(lambda L, *ts: L.chain_matmul(*ts), a, b, c)
    check(lambda L, *ts: L.linalg.multi_dot(ts), a, b, c)
    x, y = make((3, 2), "float32").mT, make((2, 2), "float32")
    got = mindtorch.kron(x, y)
    np.testing.assert_allclose(got.numpy(), np.kron(x.numpy(), y.numpy()))
    check(lambda L, s, t: L.kron(s, t), x, y.mT)
    check(lambda L, s, t: L.kron(s, t), make((4, 3), "float32")[::2], y)


@pytest.mark.parametrize("eq, shapes", [
    ("bi,oij,bj->bo", [(0, 3), (5, 3, 4), (0, 4)]), ("bi,bi->b", [(0, 3), (0, 3)]),
    ("ij,jk->ik", [(2, 0), (0, 3)]), ("bij,bjk->bik", [(2, 3, 0), (2, 0, 4)]),
    ("i,i->", [(0,), (0,)]), ("bi,bj->bij", [(0, 2), (0, 3)])])
def test_einsum_with_empty_dims(eq, shapes):
    # a size-0 dim is one the operand has, not a broadcast one (size 1)
    ts = [mindtorch.ones(s) for s in shapes]
    _check_both(lambda L, *xs: L.einsum(eq, *xs), *ts)


@pytest.mark.parametrize("eq, shapes", [
    ("...ij,...jk", [(2, 2, 3), (3, 3, 2)]), ("...ij,...jk", [(5, 2, 2, 3), (5, 3, 3, 2)]),
    ("...ij,...jk", [(2, 2, 3), (4, 3, 3, 2)]), ("...ij,...jk", [(4, 2, 2, 3), (3, 3, 2)]),
    ("ij,jk", [(2, 3), (2, 2)])])
def test_einsum_broadcast_error_message(eq, shapes):
    def message(L):
        with pytest.raises(RuntimeError) as e:
            L.einsum(eq, *[L.ones(s) for s in shapes])
        return str(e.value)
    assert message(mindtorch) == message(torch)


@pytest.mark.parametrize("alpha, beta", [(1, 1), (2 + 1j, 0.5), (-0.5j, 0)])
def test_addr_complex_grads(alpha, beta):
    # vec2's gradient is grad.mT @ vec1.conj() (times conj(alpha)), as PyTorch's
    from test_reduction import _complex_grads
    _complex_grads(lambda L, s, a, b: L.addr(s, a, b, alpha=alpha, beta=beta),
                   (3, 4), (3,), (4,))
    _complex_grads(lambda L, s, a, b: L.addr(s, a, b, alpha=alpha, beta=beta),
                   (4,), (3,), (4,), dtype="complex64")
