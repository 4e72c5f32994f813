"""Structural fuzz (see structural_fuzz.py): the random ops, everything but the values
(which differ by design).
"""
import numpy as np
import pytest

from reference import to_torch, torch
from structural_fuzz import M, Raised, _call, compare, data, mk, pick, rand_shape, seeds
pytestmark = pytest.mark.filterwarnings("ignore")


# -- random ops: everything but the values (which differ by design) --------------------------

def compare_random(m, t, what):
    """Same outcome class, dtype, shape, device (values are the generators' own)."""
    if isinstance(t, Raised) or isinstance(m, Raised):
        compare(m, t, what=what)
        return
    if isinstance(t, (tuple, list)):
        assert len(m) == len(t), what
        for a, b in zip(m, t):
            compare_random(a, b, what)
        return
    assert isinstance(m, M.Tensor), (what, type(m))
    assert str(m.dtype) == str(t.dtype), (what, m.dtype, t.dtype)
    assert tuple(m.shape) == tuple(t.shape), (what, m.shape, t.shape)
    assert m.device.type == t.device.type and m.requires_grad == t.requires_grad, what
    assert m.is_contiguous() == t.is_contiguous(), what


def _size_args(rng, shape):
    """A size as varargs, a tuple, a list or a torch.Size; sometimes bad."""
    r = rng.random()
    if r < 0.04:
        return pick(rng, [(-1, 2), (2.5,), ("a",), ((2, -3),)])
    form = rng.integers(3)
    if form == 0 and shape:
        return tuple(shape)
    return (list(shape),) if form == 1 else (tuple(shape),)


_RANDOM_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int8",
                  "uint8", "bool", "complex64", None]


def _random_case(rng):
    """(description, fn(L, generator) -> result or tuple, check(values) on mindtorch's)."""
    shape = rand_shape(rng, 3, empty=0.1)
    dtype = pick(rng, _RANDOM_DTYPES)
    kw = {} if dtype is None else {"dtype": dtype}
    name = pick(rng, ["rand", "randn", "randint", "randint_high", "randperm", "normal_tt",
                      "normal_tf", "normal_ft", "normal_ff", "bernoulli", "bernoulli_p",
                      "bernoulli_", "multinomial", "dropout", "uniform_", "normal_",
                      "random_", "random_to", "random_from_to", "rand_like", "randn_like",
                      "randint_like", "exponential_", "geometric_", "poisson"])

    def dt(L, d=dtype):
        return {} if d is None else {"dtype": getattr(L, d)}

    size = _size_args(rng, shape)
    if name in ("rand", "randn"):
        rg = bool(rng.random() < 0.1)
        return f"{name}{size}, {kw}, requires_grad={rg}", \
            lambda L, g: getattr(L, name)(*size, generator=g, requires_grad=rg, **dt(L)), None
    if name.startswith("randint"):
        low, high = sorted(int(v) for v in rng.integers(-5, 10, 2))
        if rng.random() < 0.1:
            low, high = pick(rng, [(3, 3), (5, 2), (0, 300), (-2 ** 63, 2 ** 63 - 1),
                                   (0, 2 ** 63), (-1, 1)])
        sz = size[0] if len(size) == 1 else tuple(size)
        if name == "randint":
            return f"randint({low}, {high}, {sz}, {kw})", \
                lambda L, g: L.randint(low, high, sz, generator=g, **dt(L)), \
                lambda v: (v >= low).all() and (v < high).all()
        if name == "randint_high":
            return f"randint({high}, {sz}, {kw})", \
                lambda L, g: L.randint(high, sz, generator=g, **dt(L)), \
                lambda v: (v >= 0).all() and (v < high).all()
        x = data(rng, shape, "float32")
        return f"randint_like({shape}, {low}, {high}, {kw})", \
            lambda L, g: L.randint_like(L.tensor(x), low, high, generator=g, **dt(L)), \
            lambda v: (v >= low).all() and (v < high).all()
    if name == "randperm":
        n = int(rng.integers(-1, 8)) if rng.random() < 0.95 else 300
        return f"randperm({n}, {kw})", lambda L, g: L.randperm(n, generator=g, **dt(L)), \
            lambda v: sorted(v.tolist()) == list(range(len(v)))
    if name.startswith("normal_") and name != "normal_":
        mshape = shape if rng.random() < 0.7 else shape[1:]
        md = pick(rng, ["float32", "float64", "float16", "int64", "complex64"]) \
            if rng.random() < 0.3 else "float32"
        mean = data(rng, mshape, md)
        std = np.abs(data(rng, shape, "float32")) if rng.random() < 0.95 else \
            -np.ones(shape)
        sm, ss = float(rng.integers(-3, 4)), float(abs(rng.integers(0, 3)))
        if name == "normal_tt":
            return f"normal(tensor{mshape}:{md}, tensor{shape})", \
                lambda L, g: L.normal(L.tensor(mean).to(getattr(L, md)), L.tensor(std),
                                      generator=g), None
        if name == "normal_tf":
            return f"normal(tensor{mshape}:{md}, {ss})", \
                lambda L, g: L.normal(L.tensor(mean).to(getattr(L, md)), ss, generator=g), None
        if name == "normal_ft":
            return f"normal({sm}, tensor{shape})", \
                lambda L, g: L.normal(sm, L.tensor(std), generator=g), None
        return f"normal({sm}, {ss}, {size}, {kw})", \
            lambda L, g: L.normal(sm, ss, *size, generator=g, **dt(L)), None
    if name in ("bernoulli", "bernoulli_p", "bernoulli_"):
        xd = pick(rng, ["float32", "float64", "float16", "int64", "bool"]) \
            if rng.random() < 0.3 else "float32"
        x = rng.random(shape) if rng.random() < 0.95 else rng.random(shape) * 3 - 1
        p = pick(rng, [0.0, 0.3, 1.0, 1.5])
        if name == "bernoulli":
            return f"bernoulli(tensor{shape}:{xd})", \
                lambda L, g: L.bernoulli(L.tensor(x).to(getattr(L, xd)), generator=g), \
                lambda v: ((v == 0) | (v == 1)).all()
        if name == "bernoulli_p":
            return f"bernoulli(tensor{shape}:{xd}, p={p})", \
                lambda L, g: L.bernoulli(L.tensor(x).to(getattr(L, xd)), p, generator=g), None
        ptensor = rng.random() < 0.5
        return f"tensor{shape}:{xd}.bernoulli_({'tensor' if ptensor else p})", \
            lambda L, g: L.tensor(x).to(getattr(L, xd)).bernoulli_(
                L.tensor(x) if ptensor else p, generator=g), None
    if name == "multinomial":
        k = int(rng.integers(1, 5))
        pshape = pick(rng, [(k,), (int(rng.integers(1, 3)), k), (), (1, 2, k)])
        probs = rng.random(pshape)
        if rng.random() < 0.1:
            probs = -probs
        pd = "float32" if rng.random() < 0.85 else pick(rng, ["float64", "int64", "float16"])
        n = int(rng.integers(0 if rng.random() < 0.05 else 1, k + 3))
        repl = bool(rng.random() < 0.5)
        return f"multinomial(tensor{pshape}:{pd}, {n}, {repl})", \
            lambda L, g: L.multinomial(L.tensor(probs).to(getattr(L, pd)), n, repl,
                                       generator=g), None
    if name == "poisson":
        xd = pick(rng, ["float32", "float64", "bfloat16", "int64"]) \
            if rng.random() < 0.3 else "float32"
        rates = rng.random(shape) * 5 * (1 if rng.random() < 0.95 else -1)
        return f"poisson(tensor{shape}:{xd})", \
            lambda L, g: L.poisson(L.tensor(rates).to(getattr(L, xd)), generator=g), \
            lambda v: (v >= 0).all() and (v == np.round(v)).all()
    if name == "dropout":
        xd = pick(rng, ["float32", "float64", "bfloat16", "int64"]) \
            if rng.random() < 0.3 else "float32"
        x = data(rng, shape, "float32")
        p = pick(rng, [0.0, 0.5, 1.0, 0.25, 1.5, -0.1])
        train = bool(rng.random() < 0.8)
        def dropout(L, g):  # (takes no generator: reproducible through manual_seed)
            return L.dropout(L.tensor(x).to(getattr(L, xd)), p, train)
        dropout.no_generator = True
        return f"dropout(tensor{shape}:{xd}, {p}, {train})", dropout, None
    if name in ("rand_like", "randn_like"):
        xd = pick(rng, ["float32", "float64", "int64", "complex64"])
        x = data(rng, shape, xd)
        return f"{name}(tensor{shape}:{xd}, {kw})", \
            lambda L, g: getattr(L, name)(mk(L, x, xd), generator=g, **dt(L)), None
    # in-place samplers
    xd = dtype or "float32"
    x = data(rng, shape, xd)
    layout = pick(rng, ["contig", "T", "step"]) if shape else "contig"
    if name == "uniform_":
        a, b = sorted(float(v) for v in rng.integers(-3, 4, 2))
        if rng.random() < 0.1:
            a, b = b + 1, a
        elif rng.random() < 0.1:
            a, b = pick(rng, [(-6e4, 6e4), (-3e38, 3e38), (float("nan"), 1.0), (0.0, 1e39),
                              (-1e308, 1e308), (float("-inf"), 0.0)])
        return f"{xd}{shape}:{layout}.uniform_({a}, {b})", \
            lambda L, g: mk(L, x, xd, layout).uniform_(a, b, generator=g), None
    if name == "normal_":
        mean, std = float(rng.integers(-3, 4)), float(rng.integers(-1, 3))
        return f"{xd}{shape}.normal_({mean}, {std})", \
            lambda L, g: mk(L, x, xd, layout).normal_(mean, std, generator=g), None
    if name == "random_":
        return f"{xd}{shape}.random_()", \
            lambda L, g: mk(L, x, xd, layout).random_(generator=g), None
    if name == "random_to":
        to = int(rng.integers(-1, 400))
        return f"{xd}{shape}.random_({to})", \
            lambda L, g: mk(L, x, xd, layout).random_(to, generator=g), None
    if name == "random_from_to":
        a, b = int(rng.integers(-200, 10)), int(rng.integers(-5, 300))
        return f"{xd}{shape}.random_({a}, {b})", \
            lambda L, g: mk(L, x, xd, layout).random_(a, b, generator=g), None
    if name == "exponential_":
        lam = pick(rng, [1.0, 0.5, 0.0, -1.0])
        return f"{xd}{shape}.exponential_({lam})", \
            lambda L, g: mk(L, x, xd, layout).exponential_(lam, generator=g), None
    p = pick(rng, [0.3, 0.0, 1.0, 0.9])
    return f"{xd}{shape}.geometric_({p})", \
        lambda L, g: mk(L, x, xd, layout).geometric_(p, generator=g), None


@pytest.mark.parametrize("seed", seeds(250))
def test_random_ops(seed):
    rng = np.random.default_rng(seed + 50_000)
    desc, run, valid = _random_case(rng)
    use_gen = rng.random() < 0.5 and not getattr(run, "no_generator", False)
    gen = {M: M.Generator().manual_seed(seed) if use_gen else None,
           torch: torch.Generator().manual_seed(seed) if use_gen else None}
    m, t = _call(lambda L: run(L, gen[L]), M), _call(lambda L: run(L, gen[L]), torch)
    compare_random(m, t, desc)
    if isinstance(m, Raised):
        return
    if valid is not None and m.numel():
        assert valid(m.detach().float().numpy() if m.dtype is M.bfloat16 else
                     m.detach().numpy()), desc
    # reproducible: the same seed draws the same values
    if use_gen:
        again = run(M, M.Generator().manual_seed(seed))
    else:
        M.manual_seed(seed)
        m = run(M, None)
        M.manual_seed(seed)
        again = run(M, None)
    compare(again.detach(), to_torch(m.detach()), what=desc + " (same seed)")
