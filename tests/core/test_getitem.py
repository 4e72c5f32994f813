"""Tensor.__getitem__ / __setitem__ against PyTorch: basic indices give views (same
strides and storage), advanced indices follow PyTorch's placement rules, assignment
writes through views, and bad indices raise PyTorch's error classes and messages."""
import warnings

import numpy as np
import pytest

import mindtorch
from reference import assert_same, to_torch, torch

pytestmark = pytest.mark.filterwarnings("ignore:Using a non-tuple sequence",
                                        "ignore:Casting complex values",
                                        "ignore:indexing with dtype torch.uint8")


def base(shape=(4, 5, 6), dtype="float32"):
    t = mindtorch.arange(int(np.prod(shape))).reshape(shape)
    return t.to(getattr(mindtorch, dtype))


def transposed(shape=(4, 5, 6)):
    return base(shape[::-1]).permute(tuple(range(len(shape)))[::-1])


def run_both(x, make_index):
    """x[index] in mindtorch and torch (the index built by make_index(lib))."""
    return x[make_index(mindtorch)], to_torch(x)[make_index(torch)]


# index builders: L is the library (mindtorch or torch)
BASIC = {
    "int": lambda L: 1,
    "neg int": lambda L: -1,
    "tuple ints": lambda L: (1, 2),
    "slice": lambda L: slice(1, 3),
    "slice step": lambda L: (slice(None), slice(0, None, 2)),
    "slice clamp": lambda L: slice(-100, 100),
    "slice neg": lambda L: (slice(-3, -1), slice(None, -2, 3)),
    "empty slice": lambda L: (slice(3, 1),),
    "None": lambda L: None,
    "None mid": lambda L: (1, None, slice(None), None),
    "Ellipsis": lambda L: ...,
    "Ellipsis int": lambda L: (..., 2),
    "int Ellipsis int": lambda L: (0, ..., -1),
    "Ellipsis None": lambda L: (None, ..., None),
    "0-dim tensor int": lambda L: L.tensor(2),
    "0-dim int32 tensor": lambda L: (slice(None), L.tensor(-1, dtype=L.int32)),
    "numpy int": lambda L: (np.int64(1), np.int32(2)),
    "empty tuple": lambda L: (),
    "full": lambda L: (slice(None), slice(None), slice(None)),
    "slice tensors": lambda L: slice(L.tensor(1), None, L.tensor(2)),
    "list with slice": lambda L: [0, slice(1, 3)],  # a tuple in disguise
}

ADVANCED = {
    "list": lambda L: [0, 2, 2],
    "neg list": lambda L: [-1, 0],
    "tensor": lambda L: L.tensor([3, 0]),
    "int32 tensor": lambda L: L.tensor([3, 0], dtype=L.int32),
    "2d tensor": lambda L: L.tensor([[0, 1], [3, 2]]),
    "two tensors": lambda L: (L.tensor([0, 1]), L.tensor([4, 0])),
    "broadcast": lambda L: (L.tensor([[0], [1]]), slice(None), L.tensor([5, 0, 1])),
    "separated": lambda L: (L.tensor([0, 1]), slice(None), L.tensor([2, 3])),
    "int then tensor": lambda L: (1, L.tensor([0, 4])),
    "slice int tensor": lambda L: (slice(None), 1, L.tensor([0, 5])),
    "int between": lambda L: (L.tensor([0, 1]), 1, L.tensor([0, 1])),
    "int selects first": lambda L: (slice(None), L.tensor([0, 1]), 0),  # not NumPy's rule
    "mask": lambda L: L.arange(4) > 1,
    "mask 2d": lambda L: (L.arange(20).reshape(4, 5) % 3) == 0,
    "mask then int": lambda L: ((L.arange(20).reshape(4, 5) % 3) == 0, 1),
    "mask then None": lambda L: ((L.arange(20).reshape(4, 5) % 3) == 0, None),
    "slice mask": lambda L: (slice(1, 3), L.tensor([True, False, True, True, False])),
    "bool list": lambda L: [True, False, False, True],
    "True": lambda L: True,
    "False": lambda L: False,
    "slice True": lambda L: (slice(1, 2), True),
    "True False": lambda L: (True, False),
    "0-dim bool": lambda L: L.tensor(True),
    "int 0-dim bool": lambda L: (0, L.tensor(False)),
    "byte mask": lambda L: L.tensor([1, 0, 1, 1], dtype=L.uint8),
    "empty list": lambda L: [],
    "empty long": lambda L: L.tensor([], dtype=L.int64),
    "nested list": lambda L: [[0, 1], [1, 3]],            # a tuple in disguise
    "numpy array": lambda L: np.array([0, 3]),
    "Ellipsis tensor": lambda L: (..., L.tensor([1, 0])),
    "None tensor": lambda L: (None, L.tensor([1, 0]), None),
    "float list": lambda L: [1.7],
    "nested bool list mask": lambda L: ([[True, False, True, False, True]] * 4, 1),
}


@pytest.mark.parametrize("name", BASIC)
@pytest.mark.parametrize("layout", [base, transposed])
def test_basic_indexing_is_a_view(name, layout):
    x = layout()
    got, want = run_both(x, BASIC[name])
    assert_same(got, want)
    assert got.stride() == want.stride()
    assert got._storage is x._storage
    assert got._base is (x if x._base is None else x._base)
    if got.numel():  # writes through the view reach x
        got.fill_(-7)
        assert (x == -7).sum().item() == got.numel()


@pytest.mark.parametrize("name", ADVANCED)
@pytest.mark.parametrize("layout", [base, transposed])
def test_advanced_indexing(name, layout):
    x = layout()
    got, want = run_both(x, ADVANCED[name])
    assert_same(got, want)
    if got.numel():
        assert got._storage is not x._storage  # a copy


def test_full_index_returns_alias():
    x = base()
    for index in (slice(None), ..., ()):
        r = x[index]
        assert r is not x and r._storage is x._storage and r.shape == x.shape


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "bfloat16", "float16",
                                   "complex64"])
def test_dtypes(dtype):
    x = base((3, 4), dtype)
    for make_index in (lambda L: (1, slice(None, None, 2)), lambda L: L.tensor([2, 0]),
                       lambda L: to_mask(L)):
        assert_same(*run_both(x, make_index))


def to_mask(L):
    return L.tensor([[True, False, True, False]] * 3)


def test_zero_dim_and_empty():
    s = mindtorch.tensor(3.5)
    ts = torch.tensor(3.5)
    for make_index in (lambda L: ..., lambda L: None, lambda L: True, lambda L: False,
                       lambda L: (None, None), lambda L: L.tensor(True)):
        assert_same(s[make_index(mindtorch)], ts[make_index(torch)])
    e = mindtorch.empty(0, 3)
    te = torch.empty(0, 3)
    for make_index in (lambda L: (slice(None), 1), lambda L: slice(0, 5),
                       lambda L: (..., L.tensor([2, 0])), lambda L: L.tensor([], dtype=L.int64),
                       lambda L: L.zeros(0, 3, dtype=L.bool)):
        assert_same(e[make_index(mindtorch)], te[make_index(torch)])


ERRORS = [
    (lambda L: 4, IndexError, "index 4 is out of bounds for dimension 0 with size 4"),
    (lambda L: (0, 5), IndexError, "index 5 is out of bounds for dimension 1 with size 5"),
    (lambda L: (None, 0, -6), IndexError, "index -6 is out of bounds for dimension 2 with size 5"),
    (lambda L: (..., 6), IndexError, "index 6 is out of bounds for dimension 1 with size 6"),
    (lambda L: (0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    (lambda L: slice(None, None, -1), ValueError, "step must be greater than zero"),
    (lambda L: slice(None, None, 0), ValueError, "slice step cannot be zero"),
    (lambda L: 1.0, IndexError, "only integers, slices"),
    (lambda L: "a", TypeError, None),
    (lambda L: L.tensor([4]), IndexError, "index 4 is out of bounds for dimension 0 with size 4"),
    (lambda L: (0, L.tensor([-6])), IndexError, "index -6 is out of bounds"),
    # an index tensor's dim is its position among the index tensors, as in PyTorch's kernel
    (lambda L: (slice(None), L.tensor([0, 5])), IndexError,
     "index 5 is out of bounds for dimension 0 with size 5"),
    (lambda L: (L.tensor([0]), slice(None), L.tensor([6])), IndexError,
     "index 6 is out of bounds for dimension 1 with size 6"),
    (lambda L: (slice(None), slice(None), [9]), IndexError,
     "index 9 is out of bounds for dimension 0 with size 6"),
    (lambda L: L.tensor([1.0]), IndexError,
     "tensors used as indices must be long, int, byte or bool tensors"),
    (lambda L: L.tensor([1], dtype=L.int16), IndexError, "tensors used as indices"),
    (lambda L: L.tensor(1.0), IndexError, "tensors used as indices"),
    (lambda L: L.tensor(7), IndexError, "index 7 is out of bounds for dimension 0 with size 4"),
    (lambda L: L.tensor([True, False]), IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
     "[4, 5, 6] at index 0"),
    (lambda L: (slice(None), L.ones(4, dtype=L.bool)), IndexError, "The shape of the mask"),
    (lambda L: (L.tensor([0, 1]), L.tensor([0, 1, 2])), IndexError,
     "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
    (lambda L: ([0], [0], [0], [0]), IndexError, "too many indices"),
    (lambda L: (L.ones(4, 5, dtype=L.bool), 0, 0), IndexError, "too many indices"),
    (lambda L: ([[True] * 5] * 4, 0, 0), IndexError, None),
]


@pytest.mark.parametrize("make_index,error,message", ERRORS)
def test_getitem_errors(make_index, error, message):
    x = base()
    with pytest.raises(error) as theirs:
        to_torch(x)[make_index(torch)]
    with pytest.raises(error) as ours:
        x[make_index(mindtorch)]
    if message:
        assert message in str(ours.value) and message in str(theirs.value)


def test_zero_dim_errors():
    s, ts = mindtorch.tensor(1.0), torch.tensor(1.0)
    for index in (0, (0,), slice(None), [0]):
        with pytest.raises(IndexError) as theirs:
            ts[index]
        with pytest.raises(IndexError) as ours:
            s[index]
        assert str(ours.value) == str(theirs.value).split("\n")[0]


def test_sequence_warning():
    x = base()
    with pytest.warns(UserWarning, match="non-tuple sequence") as rec:
        x[[0, slice(None)]]
    assert rec[0].filename == __file__  # the user's line, as PyTorch's (one per line)
    with pytest.warns(UserWarning, match="non-tuple sequence") as rec:
        x[[0, slice(None)]] = 1
    assert rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x[[0, 1]]  # a plain list of ints is a tensor index: no warning


# -- __setitem__ ---------------------------------------------------------------------------

SETS = [
    ("int scalar", lambda L: 1, lambda L: 5),
    ("int tensor", lambda L: 1, lambda L: L.arange(6.0)),
    ("leading ones", lambda L: 1, lambda L: L.ones(1, 1, 5, 6)),
    ("int64 into float", lambda L: (0, 1), lambda L: L.arange(6)),
    ("complex drops imag", lambda L: (0, 1), lambda L: L.tensor(2 + 3j)),
    ("slice", lambda L: slice(1, 3), lambda L: L.arange(6.0)),
    ("step", lambda L: (slice(None), slice(None, None, 2)), lambda L: -1.5),
    ("None", lambda L: None, lambda L: 3),
    ("Ellipsis", lambda L: ..., lambda L: L.arange(6.0)),
    ("Ellipsis int", lambda L: (..., 0), lambda L: L.arange(4.0).reshape(4, 1)),
    ("0-dim tensor value", lambda L: 2, lambda L: L.tensor(2.5, dtype=L.float64)),
    ("bool value", lambda L: 2, lambda L: True),
    ("numpy value", lambda L: 2, lambda L: np.float64(4.0)),
    ("list index", lambda L: [0, 2], lambda L: 9),
    ("list dup", lambda L: [0, 0], lambda L: L.arange(60.0).reshape(2, 5, 6)),
    ("tensor index", lambda L: (slice(None), L.tensor([4, 0])), lambda L: L.arange(6.0)),
    ("separated", lambda L: (L.tensor([0, 1]), slice(None), L.tensor([2, 3])),
     lambda L: L.arange(10.0).reshape(2, 5)),
    ("mask scalar", lambda L: L.arange(120).reshape(4, 5, 6) % 7 == 0, lambda L: -1),
    ("mask int tensor", lambda L: L.arange(120).reshape(4, 5, 6) % 7 == 0,
     lambda L: L.tensor(4)),
    ("mask values", lambda L: L.arange(120).reshape(4, 5, 6) % 40 == 0,
     lambda L: L.tensor([1.0, 2.0, 3.0])),
    ("mask 1d", lambda L: L.tensor([True, False, True, False]), lambda L: L.arange(6.0)),
    ("adv leading ones", lambda L: [1, 2], lambda L: L.ones(1, 1, 5, 6)),
    ("True", lambda L: True, lambda L: 3),
    ("False", lambda L: False, lambda L: 3),
    ("int then tensor", lambda L: (1, L.tensor([0, 4])), lambda L: L.arange(6.0)),
]


@pytest.mark.parametrize("name,make_index,make_value", SETS, ids=[s[0] for s in SETS])
@pytest.mark.parametrize("layout", [base, transposed])
def test_setitem(name, make_index, make_value, layout):
    x = layout()
    t = to_torch(x)
    version = x._version
    x[make_index(mindtorch)] = make_value(mindtorch)
    t[make_index(torch)] = make_value(torch)
    assert_same(x, t)
    assert x._version - version == t._version  # x[False] = v writes nothing, as in torch


SET_ERRORS = [
    (lambda L: 0, lambda L: L.ones(2, 5, 6)),                   # expand: too many dims
    (lambda L: 0, lambda L: L.ones(3)),                         # expand: size mismatch
    (lambda L: [0, 1], lambda L: L.arange(6)),                  # index_put dtype
    (lambda L: [0, 1], lambda L: L.ones(4)),                    # index_put shape
    (lambda L: [0, 1], lambda L: L.tensor(2.5, dtype=L.float64)),
    (lambda L: 0, lambda L: [1, 2]),                            # not a tensor or number
    (lambda L: 0, lambda L: "a"),
    (lambda L: 0, lambda L: None),
    (lambda L: 0, lambda L: 1e40),                              # overflow for float32
    (lambda L: 0, lambda L: 1 + 2j),
    (lambda L: [0], lambda L: 1e40),
    (lambda L: 4, lambda L: 1),
    (lambda L: [4], lambda L: 1),
    (lambda L: slice(None, None, -1), lambda L: 1),
]


@pytest.mark.parametrize("make_index,make_value", SET_ERRORS)
def test_setitem_errors(make_index, make_value):
    x = base()
    t = to_torch(x)
    with pytest.raises(Exception) as theirs:
        t[make_index(torch)] = make_value(torch)
    error = next(c for c in type(theirs.value).__mro__ if c.__module__ == "builtins")
    with pytest.raises(error) as ours:
        x[make_index(mindtorch)] = make_value(mindtorch)
    if error is RuntimeError and "Index put" in str(theirs.value) or error is TypeError:
        assert str(ours.value) == str(theirs.value).split("\n")[0]


@pytest.mark.parametrize("dtype,value", [
    ("int32", 2.7), ("uint8", -1), ("uint8", -255), ("uint8", -256), ("uint8", 255.5),
    ("int32", 2 ** 40), ("int64", -2 ** 63), ("float32", 2 ** 63), ("bool", 5),
    ("float16", 70000.0), ("bfloat16", 1e40), ("float16", 1 + 2j), ("float32", 1e40),
    ("float64", 1e40), ("int8", float("nan")), ("complex64", 1 + 2j), ("complex64", 1e40),
])
def test_setitem_scalar_casts(dtype, value):
    x = base((3, 4), dtype)
    t = to_torch(x)
    try:
        t[0] = value
    except Exception as e:
        with pytest.raises(type(e)):
            x[0] = value
        with pytest.raises(type(e)):
            x[[0]] = value
        return
    x[0] = value
    assert_same(x, t)
    t[[1, 2]] = value
    x[[1, 2]] = value
    assert_same(x, t)


def test_setitem_overlapping():
    x = base((3, 4))
    t = to_torch(x)
    x[:, 0] = x[0, :3]
    t[:, 0] = t[0, :3]
    assert_same(x, t)
    x[[0, 1]] = x[[1, 0]]
    t[[0, 1]] = t[[1, 0]]
    assert_same(x, t)


def test_setitem_zero_dim():
    s = mindtorch.tensor(1.0)
    s[...] = 5
    s[None] = s + 1
    s[True] = 9
    assert s.item() == 9.0
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        s[0] = 1


# -- the meta device -----------------------------------------------------------------------

META_INDICES = [
    lambda L: (1, slice(None, None, 2)), lambda L: (None, ..., 0),
    lambda L: L.tensor([0, 3, 1]), lambda L: (L.tensor([0, 1]), slice(None), L.tensor([2, 3])),
    lambda L: (slice(None), L.tensor([0, 1]), 0), lambda L: True,
    lambda L: [[0, 1], [2, 3]],
]


@pytest.mark.parametrize("make_index", META_INDICES)
def test_meta_getitem(make_index):
    x = mindtorch.empty(4, 5, 6, device="meta")
    t = torch.empty(4, 5, 6, device="meta")
    got, want = x[make_index(mindtorch)], t[make_index(torch)]
    assert got.device.type == "meta" and tuple(got.shape) == tuple(want.shape)
    assert got.stride() == want.stride() or got._storage is not x._storage


def test_meta_setitem_and_masks():
    x = mindtorch.empty(4, 5, device="meta")
    x[1] = 3.0
    x[:, [0, 2]] = mindtorch.empty(4, 2, device="meta")
    x[mindtorch.empty(4, 5, dtype=mindtorch.bool, device="meta")] = 1.0  # masked_fill path
    with pytest.raises(RuntimeError):
        x[[0, 1]] = mindtorch.empty(3, device="meta")
    with pytest.raises(NotImplementedError):
        x[mindtorch.empty(4, dtype=mindtorch.bool, device="meta")]
    # a cpu mask has data: it can index a meta tensor
    got = x[mindtorch.tensor([True, False, True, True])]
    assert got.device.type == "meta" and got.shape == (3, 5)


class _Index:
    """An object that is not an int but has __index__ (a user's int-like)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


@pytest.mark.parametrize("make_index", [
    lambda L: _Index(1), lambda L: (slice(None), _Index(-2)), lambda L: (_Index(1), [0, 2]),
    lambda L: (Ellipsis, _Index(0), None), lambda L: slice(_Index(1), _Index(3))])
def test_objects_with_index_are_ints(make_index):
    x = base()
    assert_same(*run_both(x, make_index))
    y, ty = base(), to_torch(base())
    y[make_index(mindtorch)] = -1
    ty[make_index(torch)] = -1
    assert_same(y, ty)


def test_slice_bound_errors():
    for index in (slice(1.5, 3), slice(None, None, 2.0), slice(None, "a"),
                  slice(mindtorch.tensor(1.5), 3)):
        th_index = slice(*(torch.tensor(1.5) if isinstance(v, mindtorch.Tensor) else v
                           for v in (index.start, index.stop, index.step)))
        with pytest.raises(TypeError) as theirs:
            torch.arange(10)[th_index]
        with pytest.raises(TypeError) as ours:
            mindtorch.arange(10)[index]
        assert str(ours.value) == str(theirs.value)
