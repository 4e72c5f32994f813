"""uint16/uint32/uint64 and the float8 types: PyTorch's storage-only dtypes (promotion
refusals, casts with c10's rounding rules, views, copies, printing, save/load)."""
import io

import mindtorch
import numpy as np
import pytest
import torch

NEW = ["uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
       "float8_e5m2fnuz", "float8_e8m0fnu"]
FLOAT8 = [n for n in NEW if n.startswith("float8")]
OLD = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
       "float64", "complex64", "complex128"]


def outcome(fn, m):
    try:
        return str(fn(m))
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        return f"{type(e).__name__}: {e}"


def bits(t):
    """The stored bytes of a tensor (float8 values compare bit for bit, NaN included)."""
    return t.reshape(-1).contiguous().view(type(t.dtype) is torch.dtype and torch.uint8
                               or mindtorch.uint8).tolist()


@pytest.mark.parametrize("a", NEW)
@pytest.mark.parametrize("b", NEW + OLD)
def test_promote_types(a, b):
    for x, y in ((a, b), (b, a)):
        want = outcome(lambda m: m.promote_types(getattr(m, x), getattr(m, y)), torch)
        assert outcome(lambda m: m.promote_types(getattr(m, x), getattr(m, y)),
                       mindtorch) == want


@pytest.mark.parametrize("name", NEW)
def test_dtype_attributes(name):
    t, m = getattr(torch, name), getattr(mindtorch, name)
    assert repr(m) == repr(t)
    for attr in ("itemsize", "is_floating_point", "is_complex", "is_signed"):
        assert getattr(m, attr) == getattr(t, attr), attr
    for info in ("finfo", "iinfo"):
        assert outcome(lambda mod: repr(getattr(mod, info)(getattr(mod, name))), mindtorch) == \
            outcome(lambda mod: repr(getattr(mod, info)(getattr(mod, name))), torch)
    assert mindtorch.zeros(2, dtype=m).type() == torch.zeros(2, dtype=t).type()


VALUES = [1.7, 300.0, -2.0, 0.3, 1e9, -1e9, 449.0, 480.0, 57344.0, 61440.0, 1e-10, 0.0, -0.0,
          3.0, 0.75, float("inf"), -float("inf"), float("nan")]
SOURCES = ["float32", "float64", "float16", "bfloat16"]


@pytest.mark.parametrize("src", SOURCES)
@pytest.mark.parametrize("name", FLOAT8)
def test_float8_cast_from_floats(name, src):
    want = torch.tensor(VALUES, dtype=getattr(torch, src)).to(getattr(torch, name))
    got = mindtorch.tensor(VALUES, dtype=getattr(mindtorch, src)).to(getattr(mindtorch, name))
    assert got.dtype is getattr(mindtorch, name)
    assert bits(got) == bits(want)


@pytest.mark.parametrize("name", FLOAT8)
def test_float8_cast_from_ints_and_bool_and_between(name):
    ints = [0, 1, -2, 7, 300, 1000, 100000, -100000]
    for src in ("int64", "int32", "uint8", "bool"):
        data = [bool(v) for v in ints] if src == "bool" else \
            [v % 256 for v in ints] if src == "uint8" else ints
        want = torch.tensor(data, dtype=getattr(torch, src)).to(getattr(torch, name))
        got = mindtorch.tensor(data, dtype=getattr(mindtorch, src)).to(getattr(mindtorch, name))
        assert bits(got) == bits(want), src
    for other in FLOAT8:  # one float8 type to another: through float32, as c10
        base = torch.tensor(VALUES).to(getattr(torch, other))
        mbase = mindtorch.tensor(VALUES).to(getattr(mindtorch, other))
        assert bits(mbase.to(getattr(mindtorch, name))) == bits(base.to(getattr(torch, name)))


@pytest.mark.parametrize("name", FLOAT8)
def test_float8_read_back_every_bit_pattern(name):
    raw = list(range(256))
    want = torch.tensor(raw, dtype=torch.uint8).view(getattr(torch, name))
    got = mindtorch.tensor(raw, dtype=mindtorch.uint8).view(getattr(mindtorch, name))
    for dst in ("float32", "float64", "float16", "bfloat16"):
        np.testing.assert_array_equal(got.to(getattr(mindtorch, dst)).float().tolist(),
                                      want.to(getattr(torch, dst)).float().tolist())
    assert got.tolist() == pytest.approx(want.tolist(), nan_ok=True)
    assert got.to(mindtorch.bool).tolist() == want.to(torch.bool).tolist()


@pytest.mark.parametrize("name", NEW)
def test_factories_fills_and_copies(name):
    cases = [
        lambda m, d: m.zeros(2, 3, dtype=d), lambda m, d: m.ones(4, dtype=d),
        lambda m, d: m.full((2,), 3, dtype=d), lambda m, d: m.full((1,), -1, dtype=d),
        lambda m, d: m.tensor([1, 2, 3], dtype=d), lambda m, d: m.tensor(5, dtype=d),
        lambda m, d: m.zeros_like(m.tensor([1.0, 2.0]), dtype=d),
        lambda m, d: m.ones_like(m.tensor([1.0, 2.0]), dtype=d),
        lambda m, d: m.zeros_like(m.ones(3, 2).t(), dtype=d),
        lambda m, d: m.empty(3, dtype=d).fill_(7),
        lambda m, d: m.zeros(3, dtype=d).copy_(m.tensor([1.0, 500.0, -3.0])),
        lambda m, d: m.zeros(2, 2, dtype=d).copy_(m.tensor([[1, 2], [3, 4]]).t()),
        lambda m, d: m.tensor([[1, 2], [3, 4]], dtype=d).t().contiguous(),
        lambda m, d: m.cat([m.tensor([1, 2], dtype=d), m.tensor([4], dtype=d)]),
        lambda m, d: m.stack([m.tensor([1, 2], dtype=d)] * 2)[:, 1:],
        lambda m, d: m.tensor([1, 2, 4], dtype=d)[[0, 2]],
        lambda m, d: m.tensor([1, 2, 4], dtype=d).clone().to(m.float64),
        lambda m, d: m.tensor([1, 0, 4], dtype=d).to(m.int64),
        lambda m, d: m.tensor([1, 0, 4], dtype=d).bool(),
        lambda m, d: m.where(m.tensor([True, False]), m.tensor([1, 2], dtype=d),
                             m.tensor([3, 4], dtype=d)),
        lambda m, d: m.tensor([1, 2, 4, 8], dtype=d) == m.tensor([1, 3, 4, 9], dtype=d),
    ]
    for i, case in enumerate(cases):
        want = case(torch, getattr(torch, name))
        got = case(mindtorch, getattr(mindtorch, name))
        assert str(got.dtype) == str(want.dtype), i
        assert tuple(got.shape) == tuple(want.shape), i
        if want.dtype in (torch.bool, torch.int64, torch.float64):
            assert got.tolist() == pytest.approx(want.tolist(), nan_ok=True), i
        else:
            assert bits(got) == bits(want), i


@pytest.mark.parametrize("name", NEW)
def test_views_between_dtypes(name):
    raw = list(range(1, 17))
    for other in ("uint8", "int16", "int32", "int64", "float32", name):
        want = outcome(lambda m: bits(m.tensor(raw, dtype=m.uint8).view(getattr(m, name))
                                      .view(getattr(m, other))), torch)
        got = outcome(lambda m: bits(m.tensor(raw, dtype=m.uint8).view(getattr(m, name))
                                     .view(getattr(m, other))), mindtorch)
        assert got == want, other
    odd = lambda m: m.tensor([1, 2, 3], dtype=m.uint8).view(getattr(m, name)).view(m.int16)
    assert outcome(odd, mindtorch) == outcome(odd, torch)


@pytest.mark.parametrize("name", NEW)
def test_printing_and_scalars(name):
    for data in ([1, 2, 4], 2, [[1, 0], [8, 16]]):
        want = torch.tensor(data, dtype=getattr(torch, name))
        got = mindtorch.tensor(data, dtype=getattr(mindtorch, name))
        assert repr(got) == repr(want)
        assert got.tolist() == want.tolist()
    assert mindtorch.tensor([3], dtype=getattr(mindtorch, name)).item() == \
        torch.tensor([3], dtype=getattr(torch, name)).item()


@pytest.mark.parametrize("name", NEW)
def test_requires_grad_rule(name):
    fn = lambda m: m.ones(2, dtype=getattr(m, name), requires_grad=True).requires_grad
    assert outcome(fn, mindtorch) == outcome(fn, torch)


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_unsigned_overflow_checks_and_numpy(name):
    for value in (1e300, -1, 2 ** 70, 70000, 2 ** 33):
        fn = lambda m: m.full((1,), value, dtype=getattr(m, name)).tolist()  # noqa
        assert outcome(fn, mindtorch) == outcome(fn, torch)
    a = np.array([1, 2, 60000], dtype=name)
    assert mindtorch.from_numpy(a).dtype is getattr(mindtorch, name)
    assert mindtorch.from_numpy(a).numpy().dtype == a.dtype
    assert mindtorch.tensor(a).tolist() == torch.tensor(a).tolist()


@pytest.mark.parametrize("name", FLOAT8)
def test_float8_scalar_writes_are_not_range_checked(name):
    for value in (1e300, -1, 500, float("inf")):
        fn = lambda m: bits(m.full((1,), value, dtype=getattr(m, name)))  # noqa
        assert outcome(fn, mindtorch) == outcome(fn, torch)


@pytest.mark.parametrize("name", NEW)
def test_save_load_both_ways(name):
    t = torch.tensor([0, 1, 2, 8], dtype=torch.uint8).view(getattr(torch, name)) \
        if getattr(torch, name).itemsize == 1 else torch.tensor([0, 1, 2, 60], dtype=getattr(
            torch, name))
    buf = io.BytesIO()
    torch.save({"w": t, "v": t[1:]}, buf)
    loaded = mindtorch.load(io.BytesIO(buf.getvalue()))
    assert loaded["w"].dtype is getattr(mindtorch, name)
    assert bits(loaded["w"]) == bits(t) and bits(loaded["v"]) == bits(t[1:])
    assert loaded["v"].untyped_storage().data_ptr() == loaded["w"].untyped_storage().data_ptr()
    buf = io.BytesIO()
    mindtorch.save({"w": loaded["w"], "v": loaded["v"]}, buf)
    back = torch.load(io.BytesIO(buf.getvalue()))
    assert back["w"].dtype == t.dtype and bits(back["w"]) == bits(t)
    assert bits(back["v"]) == bits(t[1:])


def test_meta_tensors_of_new_dtypes():
    for name in NEW:
        x = mindtorch.zeros(2, 3, dtype=getattr(mindtorch, name), device="meta")
        assert x.dtype is getattr(mindtorch, name) and x.shape == (2, 3)
        assert x.to(mindtorch.float32).dtype is mindtorch.float32


@pytest.mark.parametrize(("name", "low", "high"), [
    ("uint16", 0, 5), ("uint16", 3, 60000), ("uint32", 0, 70000), ("uint32", 0, 2 ** 32),
    ("uint64", 0, 2 ** 33), ("uint64", 5, 2 ** 40), ("uint16", -1, 5), ("uint16", 0, 70000),
    ("uint32", 0, 2 ** 33), ("uint64", -1, 3)])
def test_unsigned_random_draws_and_bounds(name, low, high):
    def draw(m):
        m.manual_seed(1)
        a = m.randint(low, high, (7,), dtype=getattr(m, name))
        return a.tolist(), m.empty(5, dtype=getattr(m, name)).random_(low, high).tolist()
    assert outcome(draw, mindtorch) == outcome(draw, torch)
    fn = lambda m: m.empty(3, dtype=getattr(m, name)).random_()  # noqa: E731
    assert outcome(fn, mindtorch) == outcome(fn, torch)


@pytest.mark.parametrize("make", [
    lambda m: m.tensor(2 ** 63, dtype=m.uint64),
    lambda m: m.tensor([2 ** 64 - 1, 5], dtype=m.uint64),
    lambda m: m.tensor([[2 ** 63, 1], [2, 3]], dtype=m.uint64),
    lambda m: m.tensor([2 ** 64], dtype=m.uint64),
    lambda m: m.tensor([1, -3], dtype=m.uint64),
    lambda m: m.tensor([2 ** 63, 1.5], dtype=m.uint64),
    lambda m: m.tensor([1.0], dtype=m.uint64),
    lambda m: m.tensor([-1], dtype=m.uint32),
    lambda m: m.full((2,), 2 ** 63 + 5, dtype=m.uint64),
    lambda m: m.full((1,), -1, dtype=m.uint64),
    lambda m: m.full((1,), 2 ** 64, dtype=m.uint64),
    lambda m: m.zeros(2, dtype=m.uint64).fill_(2 ** 64 - 1),
    lambda m: m.tensor([2 ** 64 - 1], dtype=m.uint64).to(m.float64),
    lambda m: m.tensor([2 ** 64 - 1], dtype=m.uint64).item(),
])
def test_uint64_values_above_int64(make):
    want, got = outcome(make, torch), outcome(make, mindtorch)
    assert got == want


@pytest.mark.parametrize("name", NEW)
def test_testing_make_tensor(name):
    def make(m):
        m.manual_seed(0)
        return bits(m.testing.make_tensor((6,), dtype=getattr(m, name), device="cpu"))
    assert outcome(make, mindtorch) == outcome(make, torch)
