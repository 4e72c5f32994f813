"""Running the same optimizer in mindtorch and PyTorch on the same parameters and losses."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")

SHAPES = [(3, 4), (5,), (), (2, 1, 3)]


def initial(dtype, seed=0, shapes=SHAPES, complex_=False):
    rng = np.random.default_rng(seed)
    out = [rng.standard_normal(s) for s in shapes]
    if complex_:
        out = [a + 1j * rng.standard_normal(a.shape) for a in out]
    return [np.asarray(a, dtype=dtype) for a in out]


def leaves(lib, arrays):
    return [lib.tensor(a.copy()).requires_grad_() for a in arrays]


def loss_of(lib, params, k):
    """A loss whose gradients change with the parameters and the step k: quartic and
    quadratic terms with fixed coefficients, so trajectories are not trivial."""
    total = 0
    for i, p in enumerate(params):
        c = 0.3 + 0.1 * ((i + k) % 3)
        x = p.abs() ** 2 if p.is_complex() else p * p
        linear = (p.real if p.is_complex() else p).sum() * (0.2 * (k % 2) - 0.1)
        total = total + (c * x + 0.05 * x * x).sum() + linear
    return total


def backward(lib, params, k, skip=None, sign=1):
    for p in params:
        p.grad = None
    (sign * loss_of(lib, params, k)).backward()
    if skip is not None:  # a parameter that gets no gradient this step
        params[skip].grad = None


def to_mt(value):
    """A torch state (nested dicts/lists/tuples of tensors) with mindtorch tensors."""
    if isinstance(value, torch.Tensor):
        return mindtorch.tensor(value.detach().numpy().copy())
    if isinstance(value, dict):
        return {k: to_mt(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_mt(v) for v in value)
    return value


def structure(value):
    """Keys, nesting, types (tensors by dtype and shape) and plain values of a state_dict."""
    if isinstance(value, (torch.Tensor, mindtorch.Tensor)):
        return ("Tensor", str(value.dtype).replace("mindtorch.", "torch."), tuple(value.shape))
    if isinstance(value, dict):
        return {k: structure(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [structure(v) for v in value])
    return (type(value).__name__, value)


def tolerance(dtype):
    return 1e-12 if np.dtype(dtype) in (np.float64, np.complex128) else 1e-6


def assert_params(mt_params, th_params, dtype):
    tol = tolerance(dtype)
    for m, t in zip(mt_params, th_params):
        assert str(m.dtype) == str(t.dtype)
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def assert_states(mt_opt, th_opt, dtype):
    ms, ts = mt_opt.state_dict(), th_opt.state_dict()
    assert structure(ms) == structure(ts)
    # float32 buffers may differ by an ulp per step where PyTorch's kernels fuse a
    # multiply-add; centered RMSprop's cancellation magnifies that in its state
    tol = tolerance(dtype) * (1 if tolerance(dtype) < 1e-9 else 10)
    for k, st in ts["state"].items():
        for name, v in st.items():
            if isinstance(v, torch.Tensor):
                np.testing.assert_allclose(ms["state"][k][name].numpy(), v.numpy(), rtol=tol,
                                           atol=tol)


def run_both(name, kwargs, dtype="float64", steps=10, skip_at=None, complex_=False, groups=None):
    """Both libraries' optimizers after `steps` steps (parameters compared after each)."""
    arrays = initial(dtype, complex_=complex_)
    mp, tp = leaves(mindtorch, arrays), leaves(torch, arrays)
    if groups:  # split the parameters into groups with their own options
        mparams = [dict(params=[mp[i] for i in idx], **opts) for idx, opts in groups]
        tparams = [dict(params=[tp[i] for i in idx], **opts) for idx, opts in groups]
    else:
        mparams, tparams = mp, tp
    mo = getattr(mindtorch.optim, name)(mparams, **kwargs)
    to = getattr(torch.optim, name)(tparams, **kwargs)
    for k in range(steps):
        skip = 1 if skip_at is not None and k in skip_at else None
        sign = -1 if kwargs.get("maximize") else 1  # maximize climbs: a concave objective
        backward(mindtorch, mp, k, skip, sign)
        backward(torch, tp, k, skip, sign)
        mo.step()
        to.step()
        assert_params(mp, tp, dtype)
    return mo, to, mp, tp
