"""Indexing ops against PyTorch: index_select, gather, scatter(_add)(_), masked_fill(_),
masked_select, nonzero, index_put(_) and the internal `index` op; several dtypes,
non-contiguous inputs, 0-dim and empty tensors, negative and out-of-range indices, error
classes, and shapes on the meta device."""
import warnings
from functools import partial

import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_error, to_torch, torch

RNG = np.random.default_rng(0)
INDEX = mindtorch._OPS["index"].binding
DTYPES = ["bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64"]


def make(shape, dtype="float32"):
    dt = getattr(mindtorch, dtype)
    if dt is mindtorch.bool:
        data = RNG.random(shape) > 0.5
    elif dt.kind in "ui":
        data = RNG.integers(0, 50, shape)
    else:
        data = RNG.integers(-20, 20, shape).astype(np.float64) / 4
        if dt.is_complex:
            data = data + 1j * RNG.integers(-5, 5, shape)
    return mindtorch.tensor(np.asarray(data)).to(dt)


def idx(values, dtype="int64"):
    return mindtorch.tensor(np.asarray(values, dtype=np.int64)).to(getattr(mindtorch, dtype))


def mask(values):
    return mindtorch.tensor(np.asarray(values, dtype=bool))


def th(x):
    if isinstance(x, mindtorch.Tensor):
        return to_torch(x)
    if isinstance(x, (list, tuple)):
        return type(x)(th(v) for v in x)
    return x


def check(fn, *args):
    """fn(lib, *args) with mindtorch and with torch: same result, or same error class."""
    try:
        expected = fn(torch, *th(args))
    except Exception:
        same_error(lambda: fn(mindtorch, *args), lambda: fn(torch, *th(args)))
        return
    assert_same(fn(mindtorch, *args), expected)


def transposed(shape, dtype="float32"):
    """A non-contiguous tensor of `shape` (2-D: a transposed view)."""
    return make(shape[::-1], dtype).t()


def strided(shape, dtype="float32"):
    """A non-contiguous tensor of `shape` (every other element of the last dim, offset 1)."""
    base = make(shape[:-1] + (shape[-1] * 2 + 1,), dtype)
    return base.narrow(-1, 1, shape[-1] * 2).unflatten(-1, (shape[-1], 2)).select(-1, 0)


# -- index_select --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_index_select_dtypes(dtype):
    x = make((4, 5), dtype)
    for dim in (0, 1, -1):
        check(lambda L, x, i: L.index_select(x, dim, i), x, idx([3, 0, 3, 1]))


@pytest.mark.parametrize("layout", [transposed, strided])
def test_index_select_non_contiguous(layout):
    x = layout((4, 5))
    check(lambda L, x, i: x.index_select(0, i), x, idx([2, 2, 0]))
    check(lambda L, x, i: x.index_select(1, i), x, idx([4, 0], "int32"))


def test_index_select_shapes():
    check(lambda L, x, i: x.index_select(1, i), make((2, 3, 4)), idx(2))          # 0-dim index
    check(lambda L, x, i: x.index_select(0, i), make(()), idx([0]))               # 0-dim self
    check(lambda L, x, i: x.index_select(-1, i), make(()), idx(0))
    check(lambda L, x, i: x.index_select(0, i), make((0, 3)), idx([]))            # empty
    check(lambda L, x, i: x.index_select(1, i), make((2, 3)), idx([]))


@pytest.mark.parametrize("case", [
    ((3, 4), 1, [4]), ((3, 4), 1, [-1]), ((3, 4), 0, [3]), ((5,), 0, [-1]), ((5,), 0, [5]),
    ((), 0, [1]), ((), 0, [0, 0]), ((0, 3), 0, [0]), ((3, 4), 2, [0]),
])
def test_index_select_errors(case):
    shape, dim, values = case
    check(lambda L, x, i: x.index_select(dim, i), make(shape), idx(values))


def test_index_select_bad_index():
    x = make((3, 4))
    check(lambda L, x, i: x.index_select(0, i), x, idx([[1]]))
    check(lambda L, x, i: x.index_select(0, i), x, idx([1], "int16"))
    check(lambda L, x, i: x.index_select(0, i), x, idx([1], "float32"))


def test_index_select_out():
    x, i = make((3, 4)), idx([2, 0])
    out = mindtorch.empty(2, 4)
    r = mindtorch.index_select(x, 0, i, out=out)
    assert r is out
    assert_same(out, torch.index_select(th(x), 0, th(i)))


# -- gather ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_gather_dtypes(dtype):
    x = make((3, 4), dtype)
    check(lambda L, x, i: x.gather(1, i), x, idx([[0, 3], [1, 1], [2, 0]]))
    check(lambda L, x, i: L.gather(x, 0, i), x, idx([[2, 0, 1, 1]]))


@pytest.mark.parametrize("layout", [transposed, strided])
def test_gather_non_contiguous(layout):
    x = layout((4, 5))
    check(lambda L, x, i: x.gather(-1, i), x, idx([[0, 4], [1, 1], [3, 2]]))
    check(lambda L, x, i: x.gather(0, i), x, idx([[3, 0, 1], [0, 0, 2]]).t())


def test_gather_result_is_contiguous_whatever_the_index_layout():
    # an index shaped like a permuted input (zeros_like keeps its strides) once gave a
    # permuted result, so .view() of it failed where PyTorch's passes
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    for L in (torch, mindtorch):
        x = L.tensor(data).permute(0, 2, 1)
        r = x.gather(1, L.zeros_like(x, dtype=L.int64))
        assert r.is_contiguous() and r.stride() == (12, 3, 1)
        r.view(-1)


def test_gather_shapes():
    check(lambda L, x, i: x.gather(0, i), make(()), idx(0))
    check(lambda L, x, i: x.gather(0, i), make(()), idx([0, 0]))
    check(lambda L, x, i: x.gather(0, i), make((3,)), idx(1))
    check(lambda L, x, i: x.gather(1, i), make((3, 4)), idx(np.zeros((0, 7))))
    check(lambda L, x, i: x.gather(2, i), make((2, 3, 4)), idx(RNG.integers(0, 4, (2, 2, 6))))


@pytest.mark.parametrize("values,dim", [
    ([[0, 4]], 1), ([[0, -1]], 1), ([[0, 1], [2, 3], [1, 1], [0, 0]], 1),
    ([[0, 1, 2, 2, 1]], 0), ([0, 1], 1),
])
def test_gather_errors(values, dim):
    check(lambda L, x, i: x.gather(dim, i), make((3, 4)), idx(values))


def test_gather_bad_dtype():
    check(lambda L, x, i: x.gather(1, i), make((3, 4)), idx([[0]], "int16"))


# -- scatter / scatter_add -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_dtypes(dtype):
    x, src = make((3, 4), dtype), make((2, 3), dtype)
    i = idx([[0, 1, 2], [3, 2, 1]])
    check(lambda L, x, i, s: x.scatter(1, i, s), x, i, src)
    check(lambda L, x, i: L.scatter(x, 0, i.clamp(max=2), 1), x, i)


@pytest.mark.filterwarnings("ignore:The reduce argument")
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_arg(reduce):
    x, src = make((3, 4)), make((2, 2))
    i = idx([[0, 0], [3, 3]])  # duplicates accumulate
    check(lambda L, x, i, s: x.scatter(1, i, s, reduce=reduce), x, i, src)
    check(lambda L, x, i: x.scatter(1, i, 2.5, reduce=reduce), x, i)


def test_scatter_scalar_casts():
    i = idx([[0, 1]])
    check(lambda L, x, i: x.scatter(1, i, 7.5), make((3, 4), "int64"), i)
    check(lambda L, x, i: x.scatter(1, i, 300), make((3, 4), "uint8"), i)
    check(lambda L, x, i: x.scatter(1, i, 1e40), make((3, 4), "float32"), i)
    check(lambda L, x, i: x.scatter(1, i, 2j), make((3, 4), "float32"), i)


@pytest.mark.parametrize("layout", [transposed, strided])
def test_scatter_non_contiguous(layout):
    x, src = layout((4, 5)), layout((4, 5))
    i = idx([[0, 4, 2], [1, 1, 3]])
    check(lambda L, x, i, s: x.scatter(1, i, s), x, i, src)
    check(lambda L, x, i, s: x.scatter_add(0, i.clamp(max=3), s), x, i, src)


def test_scatter_shapes():
    check(lambda L, x, i: x.scatter(0, i, 1.0), make(()), idx(0))
    check(lambda L, x, i, s: x.scatter(0, i, s), make(()), idx([0]), make((1,)))
    check(lambda L, x, i, s: x.scatter(0, i, s), make((3,)), idx(1), make(()))
    check(lambda L, x, i: x.scatter(1, i, 1.0), make((3, 4)), idx(np.zeros((0, 7))))
    check(lambda L, x, i, s: x.scatter_add(0, i, s), make((0, 2)), idx(np.zeros((0, 2))),
          make((0, 2)))


@pytest.mark.parametrize("args", [
    ((3, 4), 1, [[0, 4]], (1, 2), "float32"),        # out of range
    ((3, 4), 1, [[0, -1]], (1, 2), "float32"),       # negative
    ((3, 4), 1, [[0, 1]], (1, 2), "float64"),        # dtype mismatch
    ((3, 4), 1, [[0, 1], [2, 3]], (1, 1), "float32"),  # src too small
    ((3, 4), 1, [0, 1], (2,), "float32"),            # rank mismatch
    ((3, 4), 1, [[0, 1]], (2,), "float32"),          # src rank
    ((3, 4), 0, [[0, 1, 1, 1, 1]], (1, 5), "float32"),  # index larger than self
])
def test_scatter_errors(args):
    shape, dim, values, src_shape, src_dtype = args
    x, i, s = make(shape), idx(values), make(src_shape, src_dtype)
    check(lambda L, x, i, s: x.scatter(dim, i, s), x, i, s)
    check(lambda L, x, i, s: x.scatter_add(dim, i, s), x, i, s)


def test_scatter_bad_reduce():
    check(lambda L, x, i: x.scatter(1, i, 1.0, reduce="mean"), make((3, 4)), idx([[0]]))


def test_scatter_add_duplicates():
    x, s = make((3, 4), "float64"), make((3, 5), "float64")
    i = idx(RNG.integers(0, 4, (3, 5)))
    check(lambda L, x, i, s: x.scatter_add(1, i, s), x, i, s)
    check(lambda L, x, i, s: L.scatter_add(x, 0, i.clamp(max=2), s), x, i, s)


@pytest.mark.filterwarnings("ignore:The reduce argument")
def test_scatter_inplace_writes_through_views():
    base = make((4, 6))
    expected = th(base)
    view = base.t()[1:5]                        # non-contiguous view (4 x 4)
    i, s = idx([[0, 3, 1, 2]]), make((1, 4))
    v0 = base._version
    r = view.scatter_(0, i, s)
    assert r is view and base._version == v0 + 1
    expected.t()[1:5].scatter_(0, th(i), th(s))
    assert_same(base, expected)
    view.scatter_add_(1, i, s)
    expected.t()[1:5].scatter_add_(1, th(i), th(s))
    assert_same(base, expected)
    view.scatter_(0, i, s, reduce="add")  # (warns once per process: tests/qa/)
    expected.t()[1:5].scatter_(0, th(i), th(s), reduce="add")
    view.scatter_(1, i, 9.0, reduce="multiply")
    expected.t()[1:5].scatter_(1, th(i), 9.0, reduce="multiply")
    assert_same(base, expected)
    with pytest.raises(RuntimeError):
        view.scatter_(1, i, make((1, 4), "float64"))


# -- masked_fill / masked_select / nonzero -------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_fill_dtypes(dtype):
    x, m = make((3, 4), dtype), make((3, 4), "bool")
    check(lambda L, x, m: x.masked_fill(m, 1), x, m)
    check(lambda L, x, m: L.masked_fill(x, m, True), x, m)
    check(lambda L, x, m, v: x.masked_fill(m, v), x, m, make((), dtype))


def test_masked_fill_broadcast_and_values():
    x = make((3, 4))
    check(lambda L, x, m: x.masked_fill(m, -1.5), x, make((4,), "bool"))
    check(lambda L, x, m: x.masked_fill(m, 0), x[0], make((3, 4), "bool"))  # result grows
    check(lambda L, x, m, v: x.masked_fill(m, v), x, make((3, 1), "bool"), make((), "float64"))
    check(lambda L, x, m, v: x.masked_fill(m, v), make((3, 4), "int64"), make((3, 4), "bool"),
          mindtorch.tensor(1.75))
    check(lambda L, x, m: x.masked_fill(m, float("inf")), x, make((3, 4), "bool"))
    check(lambda L, x, m: x.masked_fill(m, 2), make((), "float32"), make((), "bool"))
    check(lambda L, x, m: x.masked_fill(m, 2), make((0, 4)), make((4,), "bool"))


@pytest.mark.parametrize("dtype,value", [
    ("float32", 1e40), ("float32", 1 + 1j), ("float16", 70000.0), ("int32", 2 ** 40),
    ("uint8", 300), ("uint8", -1), ("uint8", 255.5), ("int64", float("nan")),
    ("bool", 7), ("complex64", 1e40), ("int8", -1.0),
])
def test_masked_fill_overflow(dtype, value):
    check(lambda L, x, m: x.masked_fill(m, value), make((2, 3), dtype), make((2, 3), "bool"))


def test_masked_fill_errors():
    x = make((3, 4))
    check(lambda L, x, m: x.masked_fill(m, 0), x, make((3, 4), "int64"))
    check(lambda L, x, m: x.masked_fill(m, 0), x, make((3, 4), "uint8"))
    check(lambda L, x, m, v: x.masked_fill(m, v), x, make((3, 4), "bool"), make((1,)))
    check(lambda L, x, m: x.masked_fill(m, 0), x, make((2, 4), "bool"))
    check(lambda L, x, m: x.clone().masked_fill_(m, 0), x[0], make((3, 4), "bool"))


@pytest.mark.parametrize("layout", [transposed, strided])
def test_masked_fill_inplace_non_contiguous(layout):
    x, m = layout((4, 5)), make((5,), "bool")
    expected = th(x).masked_fill_(th(m), 3.0)
    assert x.masked_fill_(m, 3.0) is x
    assert_same(x, expected)


@pytest.mark.parametrize("dtype", ["bool", "int32", "bfloat16", "float64", "complex64"])
def test_masked_select(dtype):
    x = make((3, 4), dtype)
    check(lambda L, x, m: L.masked_select(x, m), x, make((3, 4), "bool"))
    check(lambda L, x, m: x.masked_select(m), x.t(), make((3,), "bool"))
    check(lambda L, x, m: L.masked_select(x, m), x[0], make((2, 4), "bool"))
    check(lambda L, x, m: L.masked_select(x, m), make((), dtype), make((), "bool"))
    check(lambda L, x, m: L.masked_select(x, m), x, make((3, 4), "int64"))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "bfloat16", "float32",
                                   "complex128"])
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 2)])
def test_nonzero(dtype, shape):
    x = make(shape, dtype)
    check(lambda L, x: L.nonzero(x), x)
    check(lambda L, x: x.nonzero(as_tuple=True), x)
    if len(shape) == 2:
        check(lambda L, x: L.nonzero(x.t()), x)


def test_nonzero_scalar_values():
    check(lambda L, x: L.nonzero(x), mindtorch.tensor(0))
    check(lambda L, x: L.nonzero(x, as_tuple=True), mindtorch.tensor(0.0))
    check(lambda L, x: L.nonzero(x, as_tuple=True), mindtorch.tensor(2))
    out = mindtorch.empty(0, dtype=mindtorch.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert mindtorch.nonzero(mindtorch.tensor([0, 3, 3]), out=out) is out
    assert out.tolist() == [[1], [2]]


# -- index / index_put -----------------------------------------------------------------------

INDEX_CASES = [
    ("[i]", lambda i, j, m: [i]),
    ("[None, i]", lambda i, j, m: [None, i]),
    ("[i, j]", lambda i, j, m: [i, j]),
    ("[i, None, j]", lambda i, j, m: [i, None, j]),      # separated: advanced dims first
    ("[None, i, j]", lambda i, j, m: [None, i, j]),
    ("[i2d, None, j]", lambda i, j, m: [i.reshape(2, 1), None, j]),  # broadcasting
    ("[m]", lambda i, j, m: [m]),
    ("[None, m]", lambda i, j, m: [None, m[0]]),
    ("[m, i]", lambda i, j, m: [m, i[:1]]),
    ("[i0d]", lambda i, j, m: [i[0]]),
    ("[empty]", lambda i, j, m: [i[:0]]),
]


@pytest.mark.parametrize("name,make_indices", INDEX_CASES, ids=[c[0] for c in INDEX_CASES])
@pytest.mark.parametrize("layout", [make, strided])
def test_index_op(name, make_indices, layout):
    x = layout((3, 4, 5))
    i, j, m = idx([2, -1]), idx([0, 4], "int32"), make((3, 4), "bool")
    check(lambda L, x, ind: INDEX(x, ind) if L is mindtorch else torch.ops.aten.index(x, ind),
          x, make_indices(i, j, m))


@pytest.mark.parametrize("indices", [
    [idx([3])], [idx([-4])], [None, idx([4])], [idx([0]), idx([0]), idx([0]), idx([0])],
    [idx([0, 1]), idx([0, 1, 2])], [idx([1], "int16")], [idx([1], "float32")],
    [mask([True, False])], [None, mask([True, False, True])],
])
def test_index_op_errors(indices):
    x = make((3, 4, 5))
    check(lambda L, x, ind: INDEX(x, ind) if L is mindtorch else torch.ops.aten.index(x, ind),
          x, indices)


def test_index_op_byte_mask_warns():
    x = make((3, 4))
    with pytest.warns(UserWarning, match="uint8"):
        r = INDEX(x, [idx([1, 0, 1], "uint8")])
    assert_same(r, th(x)[th(mask([True, False, True]))])


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "complex64"])
def test_index_put(dtype):
    x, v = make((3, 4), dtype), make((2, 4), dtype)
    check(lambda L, x, i, v: x.index_put((i,), v), x, idx([2, 0]), v)
    check(lambda L, x, i, v: L.index_put(x, (i,), v[0]), x, idx([-1, 0]), v)
    check(lambda L, x, i, j, v: x.index_put((i, j), v[0, :2]), x, idx([2, 0]), idx([1, 3]), v)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "bfloat16"])
def test_index_put_accumulate(dtype):
    x = make((4, 3), dtype)
    i = idx([0, 2, 0, 0, 3])
    check(lambda L, x, i, v: x.index_put((i,), v, accumulate=True), x, i, make((5, 3), dtype))
    check(lambda L, x, i, v: x.index_put((i, i.clamp(max=2)), v, True), x, i, make((), dtype))
    check(lambda L, x, m, v: x.index_put((m,), v, accumulate=True), x,
          make((4, 3), "bool"), make((), dtype))


def test_index_put_masks():
    x = make((3, 4))
    m = make((3, 4), "bool")
    check(lambda L, x, m, v: x.index_put((m,), v), x, m, mindtorch.tensor(7))  # masked_fill path
    check(lambda L, x, m, v: x.index_put((m,), v), x, m, mindtorch.tensor([7]))
    check(lambda L, x, m, v: x.index_put((m,), v), x, make((3,), "bool"), make((4,)))
    check(lambda L, x, m, v: x.index_put((m,), v), x, m, make((int(m.numpy().sum()),)))
    check(lambda L, x, m, v: x.index_put((m,), v), x, make((4,), "bool"), mindtorch.tensor(1))
    check(lambda L, x, m, v: x.index_put((m,), v), x, make((3,), "uint8"), mindtorch.tensor(1.))


@pytest.mark.parametrize("values", [(3,), (1, 2, 4), (2, 3)])
def test_index_put_shape_mismatch(values):
    check(lambda L, x, i, v: x.index_put((i,), v), make((3, 4)), idx([2, 0]), make(values))


def test_index_put_errors():
    x = make((3, 4))
    check(lambda L, x, i, v: x.index_put((i,), v), x, idx([3]), make(()))
    check(lambda L, x, i, v: x.index_put((i,), v), x, idx([1]), make((), "float64"))
    check(lambda L, x, i, v: x.index_put((i,), v), x, idx([1]), make((4,), "int64"))
    check(lambda L, x, i, v: x.index_put((i, i, i), v), x, idx([1]), make(()))
    check(lambda L, x, i, v: x.index_put((i,), v), x, idx([1], "int16"), make(()))


@pytest.mark.parametrize("layout", [transposed, strided])
def test_index_put_inplace_non_contiguous(layout):
    x = layout((4, 5))
    expected = th(x)
    i, v = idx([3, 0, 3]), make((3, 5))
    v0 = x._version
    assert x.index_put_((i,), v, accumulate=True) is x
    assert x._version == v0 + 1
    expected.index_put_((th(i),), th(v), accumulate=True)
    assert_same(x, expected)
    j, w = idx([1, 4]), make(())
    mindtorch._OPS["index_put_"].call(x, (None, j), w, False)  # None: __setitem__'s slices
    expected[:, th(j)] = th(w)
    assert_same(x, expected)
    # the public function, like torch's, takes tensors only
    check(lambda L, x, j, w: x.index_put_((None, j), w), x, j, w)


# -- meta ------------------------------------------------------------------------------------

def meta(t):
    return mindtorch.empty(t.shape, dtype=t.dtype, device="meta")


def th_meta(t):
    return torch.empty(tuple(t.shape), dtype=getattr(torch, t.dtype.name), device="meta")


META_CASES = [
    ("index_select", lambda L, x, i: x.index_select(1, i), ((3, 4), [0, 3, 3])),
    ("index_select0", lambda L, x, i: x.index_select(0, i), ((), 0)),
    ("gather", lambda L, x, i: x.gather(1, i), ((3, 4), [[0, 1, 1]])),
    ("scatter", lambda L, x, i: x.scatter(1, i, 1.0), ((3, 4), [[0, 1, 1]])),
    ("scatter_", lambda L, x, i: x.scatter_(1, i, 1.0), ((3, 4), [[0, 1, 1]])),
    ("scatter_add", lambda L, x, i: x.scatter_add(0, i, x), ((3, 4), [[0, 1]])),
    ("index", lambda L, x, i: (INDEX(x, [None, i]) if L is mindtorch else
                               torch.ops.aten.index(x, [None, i])), ((3, 4, 2), [[0, 1]])),
    ("index_sep", lambda L, x, i: (INDEX(x, [i, None, i]) if L is mindtorch else
                                   torch.ops.aten.index(x, [i, None, i])), ((3, 4, 2), [1])),
    ("index_put", lambda L, x, i: x.index_put((i,), L.ones(4, device="meta")),
     ((3, 4), [0, 2])),
    ("index_put_", lambda L, x, i: (partial(mindtorch._OPS["index_put_"].call, x)
                                    if L is mindtorch else
                                    partial(torch.ops.aten.index_put_, x))(
        (None, i), L.ones((), device="meta"), False),
     ((3, 4), [0, 2])),
]


@pytest.mark.parametrize("name,fn,spec", META_CASES, ids=[c[0] for c in META_CASES])
def test_meta_shapes(name, fn, spec):
    shape, values = spec
    x, i = make(shape), idx(values)
    got = fn(mindtorch, meta(x), meta(i))
    want = fn(torch, th_meta(x), th_meta(i))
    assert got.device.type == "meta"
    assert tuple(got.shape) == tuple(want.shape) and str(got.dtype) == str(want.dtype)


def test_meta_masked_fill_and_checks():
    x, m = mindtorch.empty(3, 4, device="meta"), mindtorch.empty(4, dtype=mindtorch.bool,
                                                                   device="meta")
    assert x.masked_fill(m, 1).shape == (3, 4)
    assert x[0].masked_fill(mindtorch.empty(2, 1, dtype=mindtorch.bool, device="meta"),
                            1).shape == (2, 4)
    assert x.masked_fill_(m, 2.0) is x
    with pytest.raises(RuntimeError):
        x.masked_fill(m.long(), 1)
    with pytest.raises(RuntimeError):
        x.masked_fill(m, 1e40)
    with pytest.raises(RuntimeError):
        x.gather(1, mindtorch.empty(4, 2, dtype=mindtorch.int64, device="meta"))
    with pytest.raises(RuntimeError):
        x.scatter(1, mindtorch.empty(1, 2, dtype=mindtorch.int64, device="meta"),
                  mindtorch.empty(1, 2, dtype=mindtorch.float64, device="meta"))
    with pytest.raises(IndexError):
        INDEX(x, [mindtorch.empty(2, dtype=mindtorch.float32, device="meta")])
    with pytest.raises(IndexError):
        INDEX(x, [mindtorch.empty(2, dtype=mindtorch.int64, device="meta")] * 3)
    with pytest.raises(RuntimeError):
        x.index_put((mindtorch.empty(2, dtype=mindtorch.int64, device="meta"),),
                    mindtorch.empty(3, device="meta"))


@pytest.mark.parametrize("fn", [
    lambda x, m: mindtorch.nonzero(x), lambda x, m: x.nonzero(as_tuple=True),
    lambda x, m: mindtorch.masked_select(x, m), lambda x, m: INDEX(x, [m]),
])
def test_meta_data_dependent(fn):
    x = mindtorch.empty(3, 4, device="meta")
    m = mindtorch.empty(3, 4, dtype=mindtorch.bool, device="meta")
    with pytest.raises(NotImplementedError):
        fn(x, m)


# -- take / take_along_dim / argwhere ----------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int32", "bfloat16", "float64", "complex64"])
def test_take(dtype):
    x = make((3, 4), dtype)
    check(lambda L, x, i: L.take(x, i), x, idx([[0, 11], [-1, 5]]))
    check(lambda L, x, i: x.take(i), x.t(), idx([3, 7, -12]))
    check(lambda L, x, i: L.take(x, i), make((), dtype), idx([0, -1]))
    check(lambda L, x, i: L.take(x, i), x, idx([]))


@pytest.mark.parametrize("values,dtype", [([12], "int64"), ([-13], "int64"), ([1], "int32"),
                                          ([1], "float32")])
def test_take_errors(values, dtype):
    check(lambda L, x, i: L.take(x, i), make((3, 4)), idx(values, dtype))


def test_take_along_dim():
    x = make((3, 4))
    check(lambda L, x, i: L.take_along_dim(x, i, 1), x, idx([[0], [3], [-1]]))
    check(lambda L, x, i: L.take_along_dim(x, i, 1), x, idx([[0, 2]]))       # broadcasts
    check(lambda L, x, i: L.take_along_dim(x, i, -2), x.t(), idx([[2, 0, 1]]))
    check(lambda L, x, i: L.take_along_dim(x, i), x, idx([5, 0, -1]))         # flattened
    check(lambda L, x, i: x.take_along_dim(i, 0), make((3,), "int64"), idx([2, 2]))
    for bad in (idx([[0.0]], "float32"), idx([[0]], "int32"), idx([0]), idx([[[0]]])):
        check(lambda L, x, i: L.take_along_dim(x, i, 1), x, bad)
    # PyTorch takes indices along dim modulo the size (see test_take_along_dim_takes_...)
    check(lambda L, x, i: L.take_along_dim(x, i, 1), x, idx([[4], [9], [-7]]))


def test_argwhere():
    check(lambda L, x: L.argwhere(x), make((3, 4), "bool"))
    check(lambda L, x: x.argwhere(), make((), "int64"))
    check(lambda L, x: L.argwhere(x), make((2, 0, 3)))


# -- index_fill / index_add / index_copy -------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float16", "float32", "complex64"])
def test_index_fill_add_copy(dtype):
    x = make((4, 5), dtype)
    i = idx([3, 0, 3])
    j = idx([4, 1])
    check(lambda L, x, i: x.index_fill(1, i, 1), x, j)
    check(lambda L, x, i: L.index_fill(x, 0, i, True), x, idx([-1]))
    check(lambda L, x, i, v: x.index_fill(-1, i, v), x, j, make((), "float64"))
    check(lambda L, x, i, s: x.index_add(0, i, s), x, i, make((3, 5), dtype))
    check(lambda L, x, i, s: L.index_add(x, 1, i, s, alpha=2), x, j, make((4, 2), dtype))
    check(lambda L, x, i, s: x.index_copy(1, i, s), x, j, make((4, 2), dtype))
    check(lambda L, x, i, s: L.index_copy(x, 0, i, s), x, idx([2, 0]), make((2, 5), dtype))


@pytest.mark.parametrize("layout", [transposed, strided])
def test_index_fill_add_copy_inplace_non_contiguous(layout):
    x = layout((4, 5))
    t = th(x)
    i, s = idx([0, 2, 0]), make((4, 3))
    v0 = x._version
    assert x.index_add_(1, i, s, alpha=0.5) is x and x._version == v0 + 1
    t.index_add_(1, th(i), th(s), alpha=0.5)
    assert_same(x, t)
    x.index_fill_(0, idx([1]), -2.0)
    t.index_fill_(0, th(idx([1])), -2.0)
    assert_same(x, t)
    x.index_copy_(1, idx([4, 3, 1]), s)
    t.index_copy_(1, th(idx([4, 3, 1])), th(s))
    assert_same(x, t)


def test_index_fill_add_copy_zero_dim():
    check(lambda L, x, i: x.index_fill(0, i, 2.0), make(()), idx(0))
    check(lambda L, x, i, s: x.index_add(0, i, s), make(()), idx([0]), make(()))
    check(lambda L, x, i, s: x.index_copy(0, i, s), make(()), idx(0), make((1,)))
    check(lambda L, x, i, s: x.index_add(0, i, s), make(()), idx([0, 0]), make((2,)))


@pytest.mark.parametrize("op,args", [
    ("index_fill", ([4], 1.0)), ("index_fill", ([0], 1e40)), ("index_fill", ([[0]], 1.0)),
    ("index_fill", ([0], "int32")), ("index_fill", ([0], "vector")),
    ("index_add", ([3], (1, 5))), ("index_add", ([-1], (1, 5))), ("index_add", ([0, 1], (1, 5))),
    ("index_add", ([0], (1, 4))), ("index_add", ([[0]], (1, 5))), ("index_add", ([0], "f64")),
    ("index_add", ([0], (5,))),
    ("index_copy", ([3], (1, 5))), ("index_copy", ([-1], (1, 5))),
    ("index_copy", ([0, 1], (1, 5))), ("index_copy", ([0], (1, 4))),
    ("index_copy", ([[0]], (1, 5))), ("index_copy", ([0], "f64")), ("index_copy", ([0], (5,))),
    ("index_copy", ([0], "int32")),
])
def test_index_fill_add_copy_errors(op, args):
    values, extra = args
    x = make((3, 5))
    i = idx(values, "int32" if extra == "int32" else "int64")
    if op == "index_fill":
        v = make((1,)) if extra == "vector" else 1.0 if extra == "int32" else extra
        check(lambda L, x, i, v: getattr(x, op)(0, i, v), x, i, v)
        return
    s = make((1, 5), "float64") if extra == "f64" else make((1, 5)) if extra == "int32" else \
        make(extra)
    check(lambda L, x, i, s: getattr(x, op)(0, i, s), x, i, s)


# -- scatter_reduce ------------------------------------------------------------------------------

@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_scatter_reduce(reduce, include_self, dtype):
    x, s = make((3, 4), dtype), make((3, 5), dtype)
    i = idx(RNG.integers(0, 4, (3, 5)))
    check(lambda L, x, i, s: x.scatter_reduce(1, i, s, reduce, include_self=include_self),
          x, i, s)
    check(lambda L, x, i, s: L.scatter_reduce(x, 0, i.clamp(max=2)[:, :4], s,
                                              reduce, include_self=include_self), x.t(), i, s)


def test_scatter_reduce_inplace_and_special():
    x = make((3, 4))
    t = th(x)
    i, s = idx([[0, 0, 3]]), make((1, 3))
    assert x.scatter_reduce_(1, i, s, "amax", include_self=False) is x
    t.scatter_reduce_(1, th(i), th(s), "amax", include_self=False)
    assert_same(x, t)
    check(lambda L, x, i, s: x.scatter_reduce(1, i, s, "max"), make((3, 4)), i, s)
    check(lambda L, x, i, s: x.scatter_reduce(1, i, s, "sum"), make((3, 4), "bool"), i,
          make((1, 3), "bool"))
    check(lambda L, x, i, s: x.scatter_reduce(0, i, s, "prod"), make(()), idx(0), make(()))
    for bad in ((make((3, 4)), i, s, "foo"), (make((3, 4)), idx([[4]]), s, "sum"),
                (make((3, 4)), i, make((1, 3), "float64"), "sum"),
                (make((3, 4), "bool"), i, make((1, 3), "bool"), "mean")):
        check(lambda L, x, i, s, r: x.scatter_reduce(1, i, s, r), *bad)


def test_meta_composites():
    x = mindtorch.empty(3, 4, device="meta")
    i = mindtorch.empty(2, dtype=mindtorch.int64, device="meta")
    assert x.index_fill(1, i, 2.0).shape == (3, 4)
    assert x.index_add(0, i, mindtorch.empty(2, 4, device="meta")).shape == (3, 4)
    assert x.index_copy_(1, i, mindtorch.empty(3, 2, device="meta")) is x
    assert mindtorch.take(x, i.reshape(1, 2)).shape == (1, 2)
    assert mindtorch.take_along_dim(x, i.reshape(1, 2), 1).shape == (3, 2)
    assert x.scatter_reduce(1, i.reshape(1, 2), x, "mean").shape == (3, 4)
    with pytest.raises(RuntimeError):
        x.index_add(0, i, mindtorch.empty(3, 4, device="meta"))
    with pytest.raises(NotImplementedError):
        mindtorch.argwhere(x)


# -- check order (fuzzer findings): the error PyTorch reports first, on both devices ------

def _agree(fn, device="cpu"):
    """fn(module) with mindtorch and with torch: the same result or the same error class
    (torch on the cpu: mindtorch's meta device refuses what its cpu refuses)."""
    try:
        expected = fn(torch, "cpu")
    except Exception:
        same_error(lambda: fn(mindtorch, device), lambda: fn(torch, "cpu"))
        return
    result = fn(mindtorch, device)
    if device == "cpu":
        assert_same(result, expected)
    else:
        assert tuple(result.shape) == tuple(expected.shape)


def _t(m, dev, shape, dtype="float32", fill=1):
    return m.full(shape, fill, dtype=getattr(m, dtype), device=dev)


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("op", ["scatter_add", "scatter", "scatter_reduce"])
@pytest.mark.parametrize("self_shape,index_shape,src_shape,dim", [
    ((3, 4), (2, 3), (2,), 0),     # src read past its rank: IndexError
    ((3, 4), (2, 3), (1,), 0),     # too small a src, then its rank: rank first
    ((3, 4), (2, 5), (2,), 0),     # larger than self: src never read
    ((3, 4), (2, 3), (), 1),       # a 0-dim src
    ((3, 4), (1, 1), (), -1),
    ((3,), (2,), (2, 3), 0),
    ((3, 4), (2, 3), (2, 3, 1), 1),
    ((3, 4), (2, 3), (4, 4), 1)])
def test_scatter_shape_check_order(device, op, self_shape, index_shape, src_shape, dim):
    extra = ("sum",) if op == "scatter_reduce" else ()
    _agree(lambda m, dev: getattr(m, op)(_t(m, dev, self_shape, fill=0), dim,
                                         _t(m, dev, index_shape, "int64", 0),
                                         _t(m, dev, src_shape), *extra), device)


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
@pytest.mark.parametrize("index_shape", [(), (2,), (2, 2)])
@pytest.mark.parametrize("value", ["scalar", (), (1,)])
@pytest.mark.parametrize("dim", [0, -1, 2, -3])
def test_index_fill_check_order(device, index_dtype, index_shape, value, dim):
    # PyTorch: the value's rank, the index dtype, then dim, then the index's rank
    def fn(m, dev):
        v = 2.5 if value == "scalar" else _t(m, dev, value)
        return _t(m, dev, (3, 4), fill=0).index_fill(dim, _t(m, dev, index_shape, index_dtype,
                                                             0), v)
    _agree(fn, device)


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("reduce", ["prod", "amax", "bad"])
@pytest.mark.parametrize("self_shape,index_shape,src_shape,dim", [
    ((3, 6), (3,), (3, 4), 0),     # a source of another shape: refused
    ((3, 4), (2,), (2, 0), 0),
    ((3, 4), (), (), 1),           # dim past the source's rank
    ((3, 4), (2,), (2,), 1),
    ((3, 4), (2,), (2, 4), 2),     # the reduction is checked before dim
    ((3, 4), (2, 2), (2, 4), 0),
    ((3, 4), (2,), (2, 4), 0)])
def test_index_reduce_checks(device, reduce, self_shape, index_shape, src_shape, dim):
    _agree(lambda m, dev: _t(m, dev, self_shape).index_reduce(
        dim, _t(m, dev, index_shape, "int64", 0), _t(m, dev, src_shape, fill=2), reduce),
        device)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("shape,dim,src", [((0, 4), 0, (2, 4)), ((4, 0), 1, (4, 2)),
                                           ((0,), 0, (2,))])
def test_index_reduce_into_empty_dim(include_self, shape, dim, src):
    _agree(lambda m, dev: m.zeros(shape).index_reduce_(
        dim, m.tensor([0, 1]), m.ones(src), "prod", include_self=include_self))


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("shape", [(5, 4), (3,), ()])
@pytest.mark.parametrize("dim", [0, -1, 1, 2, -3])
@pytest.mark.parametrize("start,length", [(0, 2), (-1, 1), (4, -1), (9, 1), (-6, 0), (1, 7)])
def test_narrow_copy_check_order(device, shape, dim, start, length):
    _agree(lambda m, dev: m.narrow_copy(_t(m, dev, shape), dim, start, length), device)


@pytest.mark.parametrize("value", [5, -5, 3, -1, 2 ** 31, -2 ** 62, 2 ** 63 - 1, -2 ** 63])
def test_take_along_dim_takes_indices_modulo(value):
    # PyTorch takes the index modulo the size along dim (no bounds check there); without
    # dim it gathers from the flattened input, bounds-checked
    x = np.arange(12.0).reshape(3, 4)
    for dim in (0, 1, -1, None):
        _agree(lambda m, dev: m.take_along_dim(m.tensor(x), m.tensor([[value]]), dim))
    _agree(lambda m, dev: m.take_along_dim(m.zeros(0, 4), m.tensor([[value]]), 0))
    _agree(lambda m, dev: m.gather(m.tensor(x), 0, m.tensor([[value]])))
    _agree(lambda m, dev: m.take(m.tensor(x), m.tensor([value])))


def same_complex_autograd(fn, make):
    """fn(L, *make(L)) in mindtorch and PyTorch: both record, or both refuse at the call
    with the same message (PyTorch's autograd has no complex formula for some ops)."""
    import re
    try:
        expected = fn(torch, *make(torch))
    except RuntimeError as e:
        with pytest.raises(RuntimeError, match=re.escape(str(e))):
            fn(mindtorch, *make(mindtorch))
        return
    got = fn(mindtorch, *make(mindtorch))
    assert got.requires_grad == expected.requires_grad
    assert_same(got, expected)


def _c(L, *shape, grad=True, seed=0):
    g = np.random.default_rng(seed)
    data = g.standard_normal(shape) + 1j * g.standard_normal(shape)
    return L.tensor(data, dtype=L.complex64, requires_grad=grad)


@pytest.mark.parametrize("reduce", ["prod", "mean"])
@pytest.mark.parametrize("self_grad, source_grad, dtype", [
    (True, True, "complex64"), (False, True, "complex64"), (True, False, "complex64"),
    (True, True, "float32")])
def test_index_reduce_refuses_complex_autograd(reduce, self_grad, source_grad, dtype):
    def make(L):
        x, s = _c(L, 5, 3, grad=self_grad), _c(L, 2, 3, grad=source_grad, seed=1)
        if dtype == "float32":
            x, s = x.real.detach().requires_grad_(), s.real.detach().requires_grad_()
        return x, L.tensor([0, 3]), s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_complex_autograd(lambda L, x, i, s: x.index_reduce(0, i, s, reduce), make)
        # the in-place op records (as PyTorch's)
        same_complex_autograd(lambda L, x, i, s: x.clone().index_reduce_(0, i, s, reduce), make)
