"""Random ops: reproducibility, generators, dtypes and ranges like PyTorch, sample
statistics, errors, dropout, and shapes on the meta device."""
import math

import numpy as np
import pytest

import mindtorch
from mindtorch import _random
from reference import same_error, torch

M = mindtorch

# name -> fn(M, generator) drawing something random; each must be reproducible
DRAWS = {
    "rand": lambda m, g: m.rand(3, 4, generator=g),
    "randn": lambda m, g: m.randn(5, generator=g, dtype=m.float64),
    "randint": lambda m, g: m.randint(-5, 5, (7,), generator=g),
    "randint_high": lambda m, g: m.randint(9, (7,), generator=g),
    "randperm": lambda m, g: m.randperm(10, generator=g),
    "rand_like": lambda m, g: m.rand_like(m.zeros(2, 3), generator=g),
    "randn_like": lambda m, g: m.randn_like(m.zeros(2, 3), generator=g),
    "randint_like": lambda m, g: m.randint_like(m.zeros(4), 1, 9, generator=g),
    "uniform_": lambda m, g: m.zeros(6).uniform_(-1, 1, generator=g),
    "normal_": lambda m, g: m.zeros(6).normal_(2, 3, generator=g),
    "random_": lambda m, g: m.zeros(6, dtype=m.int32).random_(100, generator=g),
    "bernoulli_": lambda m, g: m.zeros(8).bernoulli_(0.5, generator=g),
    "exponential_": lambda m, g: m.zeros(6).exponential_(generator=g),
    "cauchy_": lambda m, g: m.zeros(6).cauchy_(generator=g),
    "log_normal_": lambda m, g: m.zeros(6).log_normal_(generator=g),
    "geometric_": lambda m, g: m.zeros(6).geometric_(0.3, generator=g),
    "bernoulli": lambda m, g: m.bernoulli(m.full((8,), 0.5), generator=g),
    "multinomial": lambda m, g: m.multinomial(m.ones(2, 6), 4, generator=g),
    "multinomial_repl": lambda m, g: m.multinomial(m.ones(6), 9, True, generator=g),
    "normal_tensor": lambda m, g: m.normal(m.zeros(5), m.ones(5), generator=g),
    "normal_float": lambda m, g: m.normal(1.0, 2.0, (5,), generator=g),
}


def _np(t):
    return t.float().numpy() if t.dtype is M.bfloat16 else np.array(t.numpy())


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_same_seed_same_values(name):
    draw = DRAWS[name]
    M.manual_seed(1234)
    a = _np(draw(M, None))
    M.manual_seed(1234)
    b = _np(draw(M, None))
    np.testing.assert_array_equal(a, b)
    g1 = M.Generator().manual_seed(77)
    g2 = M.Generator().manual_seed(77)
    np.testing.assert_array_equal(_np(draw(M, g1)), _np(draw(M, g2)))


def test_different_seeds_differ_and_draws_advance():
    M.manual_seed(0)
    a = M.rand(50).numpy().copy()
    b = M.rand(50).numpy().copy()
    M.manual_seed(1)
    c = M.rand(50).numpy().copy()
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


def test_generator_is_independent_of_global():
    M.manual_seed(5)
    expected = M.rand(10).numpy().copy()
    M.manual_seed(5)
    g = M.Generator().manual_seed(5)
    M.randn(100, generator=g)  # must not advance the global generator
    np.testing.assert_array_equal(M.rand(10).numpy(), expected)
    # and the global generator does not advance g
    g1, g2 = M.Generator().manual_seed(9), M.Generator().manual_seed(9)
    M.rand(100)
    np.testing.assert_array_equal(M.rand(4, generator=g1).numpy(), M.rand(4, generator=g2).numpy())


def test_generator_api():
    g = M.Generator()
    assert g.device == M.device("cpu")
    assert g.manual_seed(3) is g and g.initial_seed() == 3
    assert M.Generator().manual_seed(-5).initial_seed() == torch.Generator().manual_seed(
        -5).initial_seed()
    for bad in (2 ** 64, -2 ** 63 - 1):
        same_error(lambda: M.Generator().manual_seed(bad),
                   lambda: torch.Generator().manual_seed(bad))
        same_error(lambda: M.manual_seed(bad), lambda: torch.manual_seed(bad))
    assert M.manual_seed(11) is M.default_generator and M.initial_seed() == 11
    s = M.seed()
    assert M.initial_seed() == s


def test_get_set_state_replays():
    g = M.Generator().manual_seed(21)
    M.rand(3, generator=g)
    state = g.get_state()
    assert state.dtype is M.uint8 and state.ndim == 1
    a = M.randn(6, generator=g).numpy().copy()
    g.set_state(state)
    np.testing.assert_array_equal(M.randn(6, generator=g).numpy(), a)
    M.manual_seed(2)
    st = M.get_rng_state()
    x = M.rand(4).numpy().copy()
    M.set_rng_state(st)
    np.testing.assert_array_equal(M.rand(4).numpy(), x)


def test_manual_seed_reaches_generators_created_later(monkeypatch):
    meta = M._device.canonical("meta")
    monkeypatch.delitem(_random._defaults, meta, raising=False)
    M.manual_seed(4242)
    assert _random._default_for("meta").initial_seed() == 4242
    assert _random.generator_for(None, "cpu") is M.default_generator
    g = M.Generator()
    assert _random.generator_for(g, "cpu") is g


def test_generator_of_other_device_rejected():
    # (as PyTorch's CPU build: no generator for meta, nor for CUDA without it)
    with pytest.raises(RuntimeError, match="META device type not an accelerator"):
        M.Generator("meta")
    with pytest.raises(RuntimeError, match="Cannot get CUDA generator"):
        M.Generator("cuda")
    with pytest.raises(TypeError):
        M.rand(2, generator=5)


# -- dtypes and shapes like PyTorch ----------------------------------------------------------

SAME_META = [  # (call with module m) -> tensor; dtype/shape compared with torch
    lambda m: m.rand(2, 3),
    lambda m: m.rand((2, 3), dtype=m.float64),
    lambda m: m.rand(3, dtype=m.complex64),
    lambda m: m.rand(()),
    lambda m: m.rand(0, 4),
    lambda m: m.randn(4, dtype=m.float16),
    lambda m: m.randn(4, dtype=m.bfloat16),
    lambda m: m.randn([2, 2], dtype=m.complex128),
    lambda m: m.randint(10, (3,)),
    lambda m: m.randint(-3, 10, (3, 2)),
    lambda m: m.randint(0, 2, (3,), dtype=m.bool),
    lambda m: m.randint(0, 100, (3,), dtype=m.uint8),
    lambda m: m.randint(0, 100, (3,), dtype=m.float32),
    lambda m: m.randint(high=4, size=(2,)),
    lambda m: m.randint(low=1, high=4, size=(2,)),
    lambda m: m.randperm(7),
    lambda m: m.randperm(7, dtype=m.float32),
    lambda m: m.randperm(0),
    lambda m: m.rand_like(m.zeros(2, 3, dtype=m.float64)),
    lambda m: m.randn_like(m.zeros(2, 3), dtype=m.float16),
    lambda m: m.randint_like(m.zeros(3), 5),
    lambda m: m.randint_like(m.zeros(3, dtype=m.int32), 2, 5),
    lambda m: m.bernoulli(m.full((2, 3), 0.5, dtype=m.float64)),
    lambda m: m.bernoulli(m.zeros(3, dtype=m.float16), 0.3),
    lambda m: m.zeros(3).bernoulli(),
    lambda m: m.multinomial(m.ones(5), 3),
    lambda m: m.multinomial(m.ones(2, 5), 8, True),
    lambda m: m.multinomial(m.ones(0, 5), 2),
    lambda m: m.ones(2, 5).multinomial(2),
    lambda m: m.normal(m.zeros(2, 3), m.ones(3)),
    lambda m: m.normal(m.zeros(2), m.ones(2, dtype=m.float64)),
    lambda m: m.normal(0.0, m.ones(2, dtype=m.float64)),
    lambda m: m.normal(m.zeros(2, dtype=m.complex64), 1.0),
    lambda m: m.normal(m.zeros(3)),
    lambda m: m.normal(0, 1, (2,)),
    lambda m: m.normal(0.0, 1.0, size=(2, 3), dtype=m.float64),
    lambda m: m.zeros(2, 3).uniform_(),
    lambda m: m.zeros(3, dtype=m.int8).random_(),
    lambda m: m.zeros(3, dtype=m.int64).geometric_(0.5),
    lambda m: m.zeros(3, dtype=m.float16).exponential_(),
    lambda m: m.dropout(m.ones(3, 4), 0.5, True),
    lambda m: m.native_dropout(m.ones(3, dtype=m.float16), 0.2, True),
]


@pytest.mark.parametrize("i", range(len(SAME_META)))
def test_dtype_and_shape_like_torch(i):
    fn = SAME_META[i]
    got, want = fn(M), fn(torch)
    for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
        assert str(g.dtype) == str(w.dtype) and tuple(g.shape) == tuple(w.shape)


@pytest.mark.parametrize("i", range(len(SAME_META)))
def test_meta_device_shapes(i):
    cpu = SAME_META[i](M)
    with M.device("meta"):
        meta = SAME_META[i](M)
    for c, m in zip(*((cpu, meta) if isinstance(cpu, tuple) else ((cpu,), (meta,)))):
        assert m.device.type == "meta"
        assert (m.shape, m.dtype) == (c.shape, c.dtype)


def test_default_dtype_respected():
    prev = M.get_default_dtype()
    try:
        M.set_default_dtype(M.float64)
        assert M.rand(2).dtype is M.float64 and M.randn(2).dtype is M.float64
        assert M.normal(0.0, 1.0, (2,)).dtype is M.float64
        assert M.randint(3, (2,)).dtype is M.int64
    finally:
        M.set_default_dtype(prev)


def test_factories_are_fresh_and_in_place_bumps_version():
    assert M.rand(3)._version == 0 and M.randint(3, (3,))._version == 0
    x = M.zeros(3)
    x.uniform_()
    assert x._version == 1
    x.normal_().random_(4)
    assert x._version == 3


def test_out_and_requires_grad():
    out = M.empty(2, 3, dtype=M.float64)
    r = M.rand(2, 3, out=out)
    assert r is out and ((_np(out) >= 0) & (_np(out) < 1)).all()
    p = M.empty(5)
    M.randperm(5, out=p)
    assert sorted(p.tolist()) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert M.rand(2, requires_grad=True).requires_grad
    same_error(lambda: M.randint(3, (2,), requires_grad=True),
               lambda: torch.randint(3, (2,), requires_grad=True))


# -- value ranges ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_rand_in_unit_interval(dtype):
    M.manual_seed(0)
    a = _np(M.rand(4000, dtype=getattr(M, dtype)))
    assert a.min() >= 0 and a.max() < 1
    assert len(np.unique(a)) > 20
    b = _np(M.empty(1000, dtype=getattr(M, dtype)).uniform_(-2, 3))
    assert b.min() >= -2 and b.max() <= 3 and b.min() < -1.5 and b.max() > 2.5


@pytest.mark.parametrize("dtype,low,high", [
    ("int64", -10, 10), ("int32", 0, 3), ("uint8", 250, 256), ("int8", -128, 128),
    ("bool", 0, 2), ("float32", -4, 4), ("float64", 0, 2 ** 40), ("int64", -2 ** 63, 2 ** 63 - 1),
])
def test_randint_range(dtype, low, high):
    t = M.randint(low, high, (3000,), dtype=getattr(M, dtype))
    a = t.numpy().astype(np.float64) if dtype != "int64" else t.numpy()
    assert a.min() >= low and a.max() <= high - 1
    if high - low <= 256:  # every value shows up
        assert len(np.unique(a)) == high - low


def test_random_overloads():
    assert set(M.zeros(2000).random_(5).numpy().tolist()) == {0, 1, 2, 3, 4}
    assert set(M.zeros(2000).random_(3, 6).numpy().tolist()) == {3, 4, 5}
    assert set(M.zeros(2000).random_(to=2).numpy().tolist()) == {0, 1}
    assert set(M.zeros(100, dtype=M.bool).random_().numpy().tolist()) == {False, True}
    a = M.zeros(3000, dtype=M.int8).random_().numpy()
    assert a.min() >= 0 and a.max() <= 127 and a.max() > 120
    f = M.zeros(3000).random_().numpy()
    assert f.min() >= 0 and f.max() <= 2 ** 24 and f.max() > 2 ** 23
    assert (f == np.round(f)).all()
    h = M.zeros(3000).random_(2, None).numpy()
    assert h.min() >= 2


def test_randperm_is_permutation():
    for n in (0, 1, 2, 50):
        assert sorted(M.randperm(n).tolist()) == list(range(n))
    assert sorted(M.randperm(300, dtype=M.int16).tolist()) == list(range(300))


def test_in_place_on_non_contiguous_fills_every_element():
    base = M.full((6, 4), float("nan"))
    view = base.as_strided((4, 3), (1, 8))  # rows 0, 2, 4, transposed
    assert not view.is_contiguous()
    view.uniform_()
    a = base.numpy()
    assert not np.isnan(a[::2]).any() and np.isnan(a[1::2]).all()
    z = M.full((4, 5), 7, dtype=M.int64)
    z.select(1, 1).random_(2)
    assert set(z.numpy()[:, 1].tolist()) <= {0, 1} and (z.numpy()[:, 0] == 7).all()
    e = M.zeros(0, 3).normal_()  # empty tensors are fine
    assert e.shape == (0, 3)
    s = M.zeros(()).bernoulli_(1.0)
    assert s.item() == 1.0


# -- statistics --------------------------------------------------------------------------------

N = 20000


def _stats(t):
    a = _np(t).astype(np.float64)
    return a.mean(), a.std()


@pytest.mark.parametrize("make,mean,std", [
    (lambda: M.rand(N), 0.5, 1 / math.sqrt(12)),
    (lambda: M.randn(N), 0.0, 1.0),
    (lambda: M.randn(N, dtype=M.float64), 0.0, 1.0),
    (lambda: M.randn(N, dtype=M.bfloat16), 0.0, 1.0),
    (lambda: M.empty(N).uniform_(-2, 4), 1.0, 6 / math.sqrt(12)),
    (lambda: M.empty(N).normal_(2, 3), 2.0, 3.0),
    (lambda: M.normal(2.0, 0.5, (N,)), 2.0, 0.5),
    (lambda: M.normal(M.full((N,), -1.0), M.full((N,), 2.0)), -1.0, 2.0),
    (lambda: M.empty(N).exponential_(2.0), 0.5, 0.5),
    (lambda: M.empty(N).geometric_(0.25), 4.0, math.sqrt(0.75) / 0.25),
    (lambda: M.empty(N).log_normal_(0.0, 0.5), math.exp(0.125),
     math.sqrt((math.exp(0.25) - 1) * math.exp(0.25))),
    (lambda: M.randint(0, 10, (N,)), 4.5, math.sqrt(99 / 12)),
])
def test_sample_statistics(make, mean, std):
    M.manual_seed(3)
    m, s = _stats(make())
    assert abs(m - mean) < 0.05 * max(1.0, std) and abs(s - std) < 0.05 * std


def test_complex_parts():
    M.manual_seed(3)
    z = M.randn(N, dtype=M.complex128).numpy()
    assert abs(z.real.std() - math.sqrt(0.5)) < 0.03 and abs(z.imag.std() - math.sqrt(0.5)) < 0.03
    u = M.rand(N, dtype=M.complex64).numpy()
    assert 0 <= u.real.min() and u.real.max() < 1 and 0 <= u.imag.min() and u.imag.max() < 1
    w = M.zeros(N, dtype=M.complex128).normal_(2, 3).numpy()
    assert abs(w.imag.mean() - 2) < 0.1 and abs(w.imag.std() - 3 / math.sqrt(2)) < 0.1


def test_cauchy_median():
    M.manual_seed(3)
    a = M.empty(N).cauchy_(1.5, 2.0).numpy()
    assert abs(np.median(a) - 1.5) < 0.1
    assert abs(np.percentile(a, 75) - 3.5) < 0.2  # median + sigma


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_bernoulli_probability(p):
    M.manual_seed(7)
    a = M.empty(N).bernoulli_(p).numpy()
    assert set(np.unique(a)) <= {0.0, 1.0} and abs(a.mean() - p) < 0.02
    b = M.bernoulli(M.full((N,), p)).numpy()
    assert abs(b.mean() - p) < 0.02
    c = M.bernoulli(M.zeros(N, dtype=M.float64), p).numpy()
    assert abs(c.mean() - p) < 0.02


def test_bernoulli_tensor_p_broadcasts():
    probs = M.tensor([0.0, 1.0, 0.5])
    x = M.zeros(4000, 3).bernoulli_(probs).numpy()
    assert (x[:, 0] == 0).all() and (x[:, 1] == 1).all() and abs(x[:, 2].mean() - 0.5) < 0.05
    y = M.zeros(5, dtype=M.bool).bernoulli_(0.5)
    assert y.dtype is M.bool
    i = M.zeros(3000, dtype=M.int64).bernoulli_(M.tensor(0.25, dtype=M.float16)).numpy()
    assert set(np.unique(i)) <= {0, 1} and abs(i.mean() - 0.25) < 0.05


def test_multinomial_without_replacement_distinct():
    M.manual_seed(1)
    probs = M.tensor([[0.1, 0.2, 0.3, 0.4, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0]])
    for _ in range(20):
        s = M.multinomial(probs, 4).numpy()
        assert s.dtype == np.int64
        for row in s:
            assert len(set(row.tolist())) == 4
        assert 4 not in s[0]  # zero-probability category never drawn while others remain
    full = M.multinomial(probs, 5).numpy()
    assert sorted(full[0].tolist()) == [0, 1, 2, 3, 4] and full[0, 4] == 4
    assert M.multinomial(M.tensor([0.0, 0.0, 5.0]), 1).item() == 2


def test_multinomial_frequencies():
    M.manual_seed(2)
    p = np.array([0.1, 0.0, 0.6, 0.3])
    s = M.multinomial(M.tensor(p), N, True).numpy()
    counts = np.bincount(s, minlength=4) / N
    np.testing.assert_allclose(counts, p, atol=0.02)
    assert counts[1] == 0
    first = np.array([M.multinomial(M.tensor(p, dtype=M.float32), 1).item() for _ in range(400)])
    assert abs((first == 2).mean() - 0.6) < 0.1


# -- errors ------------------------------------------------------------------------------------

ERRORS = [
    lambda m: m.randint(5, 5, (2,)),
    lambda m: m.randint(6, 5, (2,)),
    lambda m: m.randint(0, 300, (2,), dtype=m.uint8),
    lambda m: m.randint(-1, 3, (2,), dtype=m.uint8),
    lambda m: m.randint(0, 3, (2,), dtype=m.bool),
    lambda m: m.randint(0, 2 ** 64, (2,)),
    lambda m: m.randint(0, 2.5, (2,)),
    lambda m: m.randint(3),
    lambda m: m.randint(3, 2, 3),
    lambda m: m.randint(0, 3, (2,), dtype=m.complex64),
    lambda m: m.rand(2, dtype=m.int64),
    lambda m: m.rand(2, dtype=m.bool),
    lambda m: m.randn(2, dtype=m.int32),
    lambda m: m.rand(-1),
    lambda m: m.randperm(-1),
    lambda m: m.randperm(3, dtype=m.bool),
    lambda m: m.randperm(300, dtype=m.uint8),
    lambda m: m.randperm(3000, dtype=m.float16),
    lambda m: m.rand_like(m.zeros(2, dtype=m.int64)),
    lambda m: m.randint_like(m.zeros(2), 5, 5),
    lambda m: m.zeros(3).uniform_(2, 1),
    lambda m: m.zeros(3, dtype=m.int64).uniform_(),
    lambda m: m.zeros(3, dtype=m.int64).normal_(),
    lambda m: m.zeros(3).normal_(0, -1),
    lambda m: m.zeros(3).random_(5, 3),
    lambda m: m.zeros(3, dtype=m.uint8).random_(300),
    lambda m: m.zeros(3, dtype=m.int32).random_(0, 2 ** 40),
    lambda m: m.zeros(3, dtype=m.complex64).random_(),
    lambda m: m.zeros(3).random_(1.5),
    lambda m: m.zeros(3).bernoulli_(1.5),
    lambda m: m.zeros(3).bernoulli_(m.tensor([0.0, 1.0])),
    lambda m: m.zeros(3).bernoulli_(m.tensor([0.0, 1.5, 1.0])),
    lambda m: m.zeros(3).bernoulli_(m.tensor([0, 1, 1])),
    lambda m: m.zeros(3, dtype=m.complex64).bernoulli_(0.5),
    lambda m: m.bernoulli(m.tensor([0.5, 2.0])),
    lambda m: m.bernoulli(m.tensor([1, 0])),
    lambda m: m.bernoulli(m.ones(3), 2.0),
    lambda m: m.zeros(3).exponential_(0),
    lambda m: m.zeros(3, dtype=m.int64).exponential_(),
    lambda m: m.zeros(3).cauchy_(0, -1),
    lambda m: m.zeros(3, dtype=m.int64).cauchy_(),
    lambda m: m.zeros(3).log_normal_(1, 0),
    lambda m: m.zeros(3, dtype=m.int64).log_normal_(),
    lambda m: m.zeros(3).geometric_(1),
    lambda m: m.zeros(3, dtype=m.bool).geometric_(0.5),
    lambda m: m.multinomial(m.ones(3), 4),
    lambda m: m.multinomial(m.ones(3, dtype=m.int64), 2),
    lambda m: m.multinomial(m.ones(3), 0),
    lambda m: m.multinomial(m.tensor([1.0, -1.0, 0.0]), 1),
    lambda m: m.multinomial(m.tensor([1.0, float("nan")]), 1),
    lambda m: m.multinomial(m.tensor([1.0, float("inf")]), 1),
    lambda m: m.multinomial(m.zeros(3), 1),
    lambda m: m.multinomial(m.ones(2, 2, 2), 1),
    lambda m: m.multinomial(m.tensor(1.0), 1),
    lambda m: m.normal(2.0, 3.0),
    lambda m: m.normal(m.zeros(2), -1.0),
    lambda m: m.normal(m.zeros(2), -m.ones(2)),
    lambda m: m.normal(m.zeros(2, 3), m.ones(4)),
    lambda m: m.normal(m.zeros(2, dtype=m.int64), m.ones(2)),
    lambda m: m.normal(m.zeros(2), m.ones(2, dtype=m.complex64)),
    lambda m: m.normal(0.0, -1.0, (2,)),
    lambda m: m.dropout(m.ones(3), 1.5, True),
    lambda m: m.dropout(m.ones(3), -0.5, False),
    lambda m: m.dropout(m.ones(3, dtype=m.int64), 0.5, True),
    lambda m: m.native_dropout(m.ones(3), 1.5, True),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_error_class_like_torch(i):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_error(lambda: ERRORS[i](M), lambda: ERRORS[i](torch))


@pytest.mark.parametrize("fn", [
    lambda m: m.randint(5, 5, (2,), device="meta"),
    lambda m: m.rand(2, dtype=m.int64, device="meta"),
    lambda m: m.empty(3, device="meta").uniform_(2, 1),
    lambda m: m.empty(3, device="meta").bernoulli_(1.5),
    lambda m: m.multinomial(m.ones(2, 2, 2, device="meta"), 1),
    lambda m: m.normal(m.zeros(2, device="meta"), -1.0),
])
def test_meta_rejects_like_cpu(fn):
    with pytest.raises((RuntimeError, NotImplementedError)):
        fn(M)


# -- dropout -----------------------------------------------------------------------------------

def test_dropout_identity_when_not_training():
    x = M.randn(4, 5)
    assert M.dropout(x, 0.5, False) is x
    assert M.dropout(x, 0.0, True) is x
    assert M.dropout(x) is not x  # defaults: p=0.5, train=True
    out, mask = M.native_dropout(x, 0.5, False)
    assert out is not x and np.array_equal(out.numpy(), x.numpy())
    assert mask.dtype is M.bool and mask.numpy().all()


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_dropout_scaling(p):
    M.manual_seed(0)
    x = M.full((N,), 2.0, dtype=M.float64)
    y = M.dropout(x, p, True).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 2.0 / (1 - p))
    assert abs(kept.mean() - (1 - p)) < 0.02
    assert abs(y.mean() - 2.0) < 0.1  # expectation preserved


def test_dropout_all_dropped_and_mask():
    assert (M.dropout(M.ones(10), 1.0, True).numpy() == 0).all()
    M.manual_seed(1)
    x = M.randn(50)
    out, mask = M.native_dropout(x, 0.3, True)
    assert mask.dtype is M.bool and out.dtype is M.float32
    np.testing.assert_allclose(out.numpy(), x.numpy() * mask.numpy() / 0.7, rtol=1e-6)
    h = M.native_dropout(M.ones(8, dtype=M.float16), 0.5, True)[0]
    assert h.dtype is M.float16 and set(np.unique(h.numpy())) <= {0.0, 2.0}


def test_dropout_reproducible_given_seed():
    x = M.ones(100)
    M.manual_seed(12)
    a = M.dropout(x, 0.5, True).numpy().copy()
    M.manual_seed(12)
    b = M.dropout(x, 0.5, True).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, M.dropout(x, 0.5, True).numpy())


@pytest.mark.parametrize("call", [
    lambda L: L.normal(L.zeros(3), math.nan), lambda L: L.normal(0.0, math.nan, (2,)),
    lambda L: L.normal(L.zeros(3), L.tensor([1.0, math.nan, 1.0])),
    lambda L: L.zeros(3).normal_(0, math.nan), lambda L: L.normal(L.zeros(3), -1.0),
])
def test_normal_refuses_nan_std(call):
    same_error(lambda: call(mindtorch), lambda: call(torch))


def test_bernoulli_out_only_without_p():
    same_error(lambda: mindtorch.bernoulli(mindtorch.ones(3), 0.5, out=mindtorch.empty(3)),
               lambda: torch.bernoulli(torch.ones(3), 0.5, out=torch.empty(3)))
    out = mindtorch.empty(3)
    assert mindtorch.bernoulli(mindtorch.ones(3), out=out) is out
    assert out.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("train", [True, False, None])
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_native_dropout_of_an_empty_input(train, dtype):
    # PyTorch returns before any check: the mask has the input's dtype
    out, mask = mindtorch.native_dropout(mindtorch.ones(0, 4, dtype=getattr(mindtorch, dtype)),
                                         0.3, train)
    tout, tmask = torch.native_dropout(torch.ones(0, 4, dtype=getattr(torch, dtype)), 0.3, train)
    assert (str(out.dtype), str(mask.dtype), tuple(mask.shape)) == \
        (str(tout.dtype), str(tmask.dtype), tuple(tmask.shape))


@pytest.mark.parametrize("call", [lambda L: L.randn(2, layout=L.strided),
                                  lambda L: L.rand(2, 3, layout=L.strided),
                                  lambda L: L.randint(3, (2,), layout=L.strided),
                                  lambda L: L.randperm(3, layout=L.strided)])
def test_factories_take_the_strided_layout(call):
    got, want = call(M), call(torch)
    assert (tuple(got.shape), str(got.dtype), repr(got.layout)) == \
        (tuple(want.shape), str(want.dtype), repr(want.layout))
