"""torch.quasirandom.SobolEngine against PyTorch: the direction numbers of all 21201
dimensions, plain and scrambled points (scrambling drawn from a seeded generator or the
default one) bit for bit, draw / draw_base2 / fast_forward / reset / out= / dtypes, the
generator left where PyTorch leaves it, reprs and errors."""
import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def test_direction_numbers_of_every_dimension():
    want = torch.zeros(21201, 30, dtype=torch.long)
    torch._sobol_engine_initialize_state_(want, 21201)
    got = mt.zeros(21201, 30, dtype=mt.long)
    mt._sobol_engine_initialize_state_(got, 21201)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def _sobol(L):
    return L.quasirandom.SobolEngine


def _one_at_a_time(L):
    e = _sobol(L)(3)
    return [e.draw(1, dtype=L.float64), e.draw(7, dtype=L.float64), e.draw(3), e.draw(0)]


def _skips(L):
    e = _sobol(L)(6, scramble=True, seed=1)
    return [e.draw_base2(3), e.fast_forward(5).draw(4), e.reset().draw(2),
            e.fast_forward(1).draw(2), e.quasi, e.shift, e.sobolstate]


def _out(L):
    out = L.empty(1)
    return [_sobol(L)(2).draw(4, out=out), out]


PROGRAMS = {
    "plain": lambda L: [_sobol(L)(5).draw(10)],
    "one at a time, float64": _one_at_a_time,
    "scrambled, seeded": lambda L: [_sobol(L)(4, scramble=True, seed=7).draw(9)],
    "scrambled from the default generator": lambda L: [_sobol(L)(3, scramble=True).draw(6)],
    "draw_base2, fast_forward, reset": _skips,
    "fast_forward first": lambda L: [_sobol(L)(2).fast_forward(3).draw(3)],
    "many dimensions": lambda L: [_sobol(L)(1200, scramble=True, seed=3).draw(5)],
    "many points": lambda L: [_sobol(L)(3, scramble=True, seed=3).draw(3000, dtype=L.float64)],
    "out=": _out,
    "default dtype float64": lambda L: [_default_f64(L, lambda: _sobol(L)(2).draw(3))],
}


def _default_f64(L, fn):
    L.set_default_dtype(L.float64)
    try:
        return fn()
    finally:
        L.set_default_dtype(L.float32)


@pytest.mark.parametrize("name", PROGRAMS)
def test_points(name):
    results = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        results.append([t.numpy() for t in PROGRAMS[name](lib)] + [lib.rand(2).numpy()])
    want, got = results
    for x, y in zip(want, got):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(y, x)


def test_repr_and_errors():
    for args in [(2,), (2, True, 4), (2, True)]:
        assert repr(mt.quasirandom.SobolEngine(*args)) == repr(torch.quasirandom.SobolEngine(*args))
    for lib in (torch, mt):
        for dim in (0, 21202):
            with pytest.raises(ValueError, match=r"for SobolEngine is \[1, 21201\]"):
                lib.quasirandom.SobolEngine(dim)
        e = lib.quasirandom.SobolEngine(2)
        e.draw(3)
        with pytest.raises(ValueError, match=r"3 points have been previously generated, then: "
                                             r"n=3\+2\*\*2=7"):
            e.draw_base2(2)
        with pytest.raises(RuntimeError, match=r"negative dimension -1: \[-1, 2\]"):
            lib.quasirandom.SobolEngine(2).draw(0)
