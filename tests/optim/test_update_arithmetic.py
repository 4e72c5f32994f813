"""The arithmetic of optimizer updates on cpu: SGD against PyTorch over its options (large
and small tensors, foreach), `lerp` (Adam's first moment) bit-identical to PyTorch's (both
round its multiply-add once), and the compiled in-place loops (kernels/_update_loops.py,
taken from _jit.MIN_SIZE elements on; forced here for any size) bit-identical to the NumPy
path they replace."""
import itertools

import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")

# large tensors (per-tensor loop), small ones (the multi-tensor path with foreach), 0-dim
SHAPES = [(256, 300), (300,), (33, 70), (5,), (), (7, 7)] + [(64,)] * 20
OPTIONS = [{"momentum": m, "dampening": d, "weight_decay": wd, "nesterov": n, "maximize": mx}
           for m, d, wd, n, mx in itertools.product([0, 0.9], [0, 0.3], [0, 0.01],
                                                   [False, True], [False, True])
           if not n or (m and not d)]


def _run(lib, dtype, kwargs, steps=3):
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal(s).astype(dtype)).requires_grad_()
              for s in SHAPES]
    opt = lib.optim.SGD(params, lr=0.0123, **kwargs)
    grads = np.random.default_rng(1)
    for k in range(steps):
        for i, p in enumerate(params):
            g = grads.standard_normal(tuple(p.shape)).astype(dtype)
            p.grad = None if (k == 1 and i == 3) else lib.tensor(g)  # one step without
        opt.step()
    state = {i: {k: v.detach().numpy().copy() for k, v in s.items()}
             for i, s in opt.state_dict()["state"].items()}
    return [p.detach().numpy().copy() for p in params], state


@pytest.mark.parametrize("foreach", [None, False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", OPTIONS,
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_sgd_matches_torch(kwargs, dtype, foreach):
    # (PyTorch rounds `p + alpha * g` once, NumPy twice: an ulp apart at most per step)
    tol = {"rtol": 1e-6, "atol": 1e-6} if dtype == "float32" else {"rtol": 1e-13, "atol": 1e-14}
    mp, ms = _run(mindtorch, dtype, dict(kwargs, foreach=foreach))
    tp, ts = _run(torch, dtype, dict(kwargs, foreach=foreach))
    for m, t in zip(mp, tp):
        np.testing.assert_allclose(m, t, **tol)
    assert ms.keys() == ts.keys()  # no momentum: no state entries at all
    for i in ts:
        assert ms[i].keys() == ts[i].keys()
        for key in ts[i]:
            np.testing.assert_allclose(ms[i][key], ts[i][key], **tol)


def _operands(dtype):
    rng = np.random.default_rng(3)
    x, y, z = (rng.standard_normal((300, 70)).astype(dtype) for _ in range(3))
    return x, y, np.abs(z) + 0.5, rng.standard_normal(70).astype(dtype)


@pytest.fixture(params=["numpy", "compiled"])
def path(request, monkeypatch):
    if request.param == "compiled":
        pytest.importorskip("numba")
        monkeypatch.setattr(_jit, "MIN_SIZE", 0)
    return request.param


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lerp_bit_identical_to_torch(dtype, path):
    if dtype == "float64" and path == "numpy":
        pytest.skip("the NumPy path's long double product is not exact: ~1e-3 differ by an ulp")
    x, y, _, row = _operands(dtype)
    cases = [
        lambda L: L.tensor(x).lerp_(L.tensor(y), 0.1),
        lambda L: L.tensor(x).lerp_(L.tensor(y), -0.7),
        lambda L: L.tensor(x.T.copy()).T.lerp_(L.tensor(y), 0.001),
        lambda L: L.tensor(x).lerp_(L.tensor(y.T.copy()).T, 0.6),
        lambda L: L.tensor(x).lerp_(L.tensor(row), 0.3),
        lambda L: L.tensor(x[0, 0]).lerp_(L.tensor(y[0, 0]), 0.3),
        lambda L: L.lerp(L.tensor(x), L.tensor(y), 0.999),
        lambda L: L.lerp(L.tensor(row), L.tensor(x), 0.2),
        lambda L: L.lerp(L.tensor(x), L.tensor(y), L.tensor(np.abs(y) % 1)),  # tensor weight
    ]
    for case in cases:
        np.testing.assert_array_equal(case(mindtorch).numpy(), case(torch).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,value", [("addcmul_", 1), ("addcmul_", -0.37),
                                        ("addcdiv_", 1), ("addcdiv_", 0.001),
                                        ("lerp_", 0.2), ("lerp_", 0.8)])
def test_compiled_loops_as_numpy_path(name, value, dtype, monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setattr(_jit, "MIN_SIZE", 0)
    x, y, z, _ = _operands(dtype)
    args = (y, value) if name == "lerp_" else (y, z)
    kwargs = {} if name == "lerp_" else {"value": value}

    def run():
        return getattr(mindtorch.tensor(x), name)(*map(mindtorch.tensor, args[:1]),
                                                  *(args[1:] if name == "lerp_" else
                                                    [mindtorch.tensor(z)]), **kwargs)
    compiled = run().numpy()
    monkeypatch.setattr(_jit, "MIN_SIZE", 1 << 62)  # the NumPy path (as without numba)
    numpy_path = run().numpy()
    if name == "lerp_" and dtype == "float64":  # (long double: not always one rounding)
        np.testing.assert_allclose(compiled, numpy_path, rtol=1e-15)
    else:
        np.testing.assert_array_equal(compiled, numpy_path)
    expected = getattr(torch.tensor(x), name)(*[torch.tensor(a) if isinstance(a, np.ndarray)
                                                else a for a in args], **kwargs)
    np.testing.assert_allclose(compiled, expected.numpy(), rtol=1e-6, atol=1e-7)
