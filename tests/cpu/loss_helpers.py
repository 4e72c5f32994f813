"""What the loss tests share: tensor makers by shape (values fitting each loss's domain),
PyTorch's base error class, and the differential check."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, to_torch, torch

MF = mindtorch.nn.functional
RNG = np.random.default_rng(0)
REDUCTIONS = ("none", "mean", "sum")
FLOATS = ("float32", "float64")
HALVES = ("float16", "bfloat16")


def _dt(name):
    return getattr(mindtorch, name)


def _tensor(data, dtype, nc):
    """data as a mindtorch tensor of `dtype`; nc: transposed storage (non-contiguous)."""
    data = np.asarray(data)
    if nc and data.ndim >= 2:
        t = mindtorch.tensor(np.ascontiguousarray(np.swapaxes(data, 0, -1))).transpose(0, -1)
        assert not t.is_contiguous() or 1 in data.shape
    else:
        t = mindtorch.tensor(data)
    return t.to(dtype)


def X(*shape):
    return lambda d, nc=False: _tensor(RNG.standard_normal(shape), _dt(d), nc)


def P(*shape):
    """Values in (0, 1): probabilities, BCE inputs and targets."""
    return lambda d, nc=False: _tensor(RNG.uniform(0.05, 0.95, shape), _dt(d), nc)


def POS(*shape):
    return lambda d, nc=False: _tensor(RNG.uniform(0.2, 3.0, shape), _dt(d), nc)


def SIGN(*shape):
    return lambda d, nc=False: _tensor(RNG.choice([-1.0, 1.0], shape), _dt(d), nc)


def IDX(values, dtype="int64"):
    """Class indices (kept integer whatever the case's dtype)."""
    return lambda d, nc=False: mindtorch.tensor(np.asarray(values)).to(_dt(dtype))


def _base_error(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def check(fn, *mts, rtol=None, atol=None):
    """fn(lib, *tensors) agrees with PyTorch: same dtype, shape and values, or both raise
    errors of the same builtin class."""
    ths = [to_torch(m) for m in mts]
    try:
        expected = fn(torch, *ths)
    except Exception as e:  # noqa: BLE001 - torch's error class must be matched
        with pytest.raises(_base_error(e)):
            fn(mindtorch, *mts)
        return None
    got = fn(mindtorch, *mts)
    assert_same(got, expected, rtol=rtol, atol=atol)
    return got


def _F(lib):
    return lib.nn.functional


W4 = lambda d, nc=False: _tensor([0.5, 1.0, 2.0, 1.5], _dt(d), nc)  # noqa: E731
