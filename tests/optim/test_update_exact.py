"""The update arithmetic bit-identical to PyTorch's: `add`/`sub` with an alpha (SGD's update)
and `lerp` (Adam's first moment), which PyTorch's cpu kernels round once per element (a
fused multiply-add); mindtorch's cpu kernels do the same (kernels/_fmadd.py). SGD's
parameters and momentum buffers then match to the bit, not only within a tolerance."""
import itertools

import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")
pytest.importorskip("numba")  # (without numba the kernels round twice: within an ulp)

# large tensors (per-tensor loop), small ones (the multi-tensor path with foreach), 0-dim
SHAPES = [(256, 300), (300,), (33, 70), (5,), (), (7, 7)] + [(64,)] * 20
OPTIONS = [dict(momentum=m, dampening=d, weight_decay=wd, nesterov=n, maximize=mx)
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
@pytest.mark.parametrize("kwargs", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_sgd_bit_identical_to_torch(kwargs, dtype, foreach):
    mp, ms = _run(mindtorch, dtype, dict(kwargs, foreach=foreach))
    tp, ts = _run(torch, dtype, dict(kwargs, foreach=foreach))
    for m, t in zip(mp, tp):
        np.testing.assert_array_equal(m, t)
    assert ms.keys() == ts.keys()  # no momentum: no state entries at all
    for i in ts:
        assert ms[i].keys() == ts[i].keys()
        for key in ts[i]:
            np.testing.assert_array_equal(ms[i][key], ts[i][key])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_add_sub_with_alpha_and_lerp_bit_identical_to_torch(dtype):
    # in place and out of place, contiguous, transposed, broadcast and 0-dim operands (not
    # a Python number with an alpha: PyTorch's scalar loop for the last elements of a row
    # rounds alpha * number first, its vectorized loop does not)
    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal((300, 70)).astype(dtype) for _ in range(2))
    row, scalar = rng.standard_normal(70).astype(dtype), rng.standard_normal(()).astype(dtype)
    cases = [
        lambda L: L.tensor(x).add_(L.tensor(y), alpha=-0.0123),
        lambda L: L.tensor(x).sub_(L.tensor(y), alpha=0.37),
        lambda L: L.tensor(x.T.copy()).T.add_(L.tensor(y), alpha=0.9),
        lambda L: L.tensor(x).add_(L.tensor(y.T.copy()).T, alpha=1.7),
        lambda L: L.tensor(x).add_(L.tensor(row), alpha=-3),
        lambda L: L.tensor(x).add_(L.tensor(scalar), alpha=0.3),
        lambda L: L.tensor(scalar).add_(L.tensor(scalar), alpha=0.3),
        lambda L: L.add(L.tensor(x), L.tensor(y), alpha=0.013),
        lambda L: L.sub(L.tensor(x), L.tensor(y), alpha=0.7),
        lambda L: L.add(L.tensor(row), L.tensor(x), alpha=-0.2),  # broadcast self
        lambda L: L.tensor(x).add(L.tensor(y.T.copy()).T, alpha=2.5),
        lambda L: L.tensor(x)[::2].add_(L.tensor(y)[1::2], alpha=0.45),
        lambda L: L.tensor(x).lerp_(L.tensor(y), 0.1),
        lambda L: L.tensor(x).lerp_(L.tensor(y), -0.7),
        lambda L: L.tensor(x.T.copy()).T.lerp_(L.tensor(y), 0.001),
        lambda L: L.tensor(x).lerp_(L.tensor(row), 0.3),
        lambda L: L.lerp(L.tensor(x), L.tensor(y), 0.999),
        lambda L: L.lerp(L.tensor(row), L.tensor(x), 0.2),
        lambda L: L.lerp(L.tensor(x), L.tensor(y), L.tensor(np.abs(y) % 1)),  # tensor weight
    ]
    for case in cases:
        np.testing.assert_array_equal(case(mindtorch).numpy(), case(torch).numpy())
