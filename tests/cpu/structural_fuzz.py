"""The harness of the structural fuzz tests (test_fuzz_<topic>.py): seeded differential
cases against PyTorch, each built from numpy data with a fixed seed and run in both
libraries: results must agree in dtype, shape and values (strides and offsets too for
views), or both must raise exceptions of the same builtin class.
MINDTORCH_FUZZ_SCALE=<n> runs n times as many cases (for bug hunting; the default keeps
the files fast).
"""
import os
import warnings

import numpy as np
import pytest

import mindtorch
from reference import to_torch, torch

M = mindtorch
SCALE = int(os.environ.get("MINDTORCH_FUZZ_SCALE", "1"))

pytestmark = pytest.mark.filterwarnings("ignore")


REAL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
        "float32", "float64"]
ALL = REAL + ["complex64", "complex128"]


# -- harness --------------------------------------------------------------------------

class Raised:
    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        return f"Raised({type(self.exc).__name__}: {self.exc})"


def _call(fn, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(lib)
        except Exception as e:  # noqa: BLE001  (the class is what we compare)
            return Raised(e)


def _builtin(cls):
    return next(c for c in cls.__mro__ if c.__module__ == "builtins")


def compare(m, t, meta=False, what="result", exact=True):
    """m (mindtorch) matches t (torch): same type of outcome, dtype, shape, values (exactly,
    or with torch's default tolerances); with meta=True also strides and storage offset."""
    if isinstance(t, Raised):
        assert isinstance(m, Raised), f"{what}: torch raised {t!r}, mindtorch gave {_show(m)}"
        assert issubclass(type(m.exc), _builtin(type(t.exc))), \
            f"{what}: torch raised {t!r}, mindtorch raised {m!r}"
        return
    if isinstance(m, Raised):
        raise AssertionError(f"{what}: mindtorch raised {m!r}, torch gave {_show(t)}") \
            from m.exc
    if isinstance(t, (tuple, list)):
        assert isinstance(m, (tuple, list)), (what, type(m))
        assert len(m) == len(t), (what, len(m), len(t))
        for i, (a, b) in enumerate(zip(m, t)):
            compare(a, b, meta, f"{what}[{i}]", exact)
        return
    if isinstance(t, torch.Tensor):
        assert isinstance(m, M.Tensor), (what, type(m))
        assert str(m.dtype) == str(t.dtype), (what, m.dtype, t.dtype)
        assert tuple(m.shape) == tuple(t.shape), (what, m.shape, t.shape)
        assert m.device.type == t.device.type, (what, m.device, t.device)
        if meta and (t.numel() or meta != "nonempty"):
            assert m.stride() == t.stride(), (what, m.stride(), t.stride())
            assert m.storage_offset() == t.storage_offset(), (what, m.storage_offset(),
                                                             t.storage_offset())
        if t.device.type != "meta":
            # (16-bit products: PyTorch's accumulation order and rounding depend on layout)
            tol = {"rtol": 0, "atol": 0} if exact else {"rtol": 0.03, "atol": 0.25} if \
                t.dtype in (torch.float16, torch.bfloat16) else {}
            torch.testing.assert_close(to_torch(m), t, equal_nan=True,
                                       msg=lambda s: f"{what}: {s}", **tol)
        return
    if isinstance(t, torch.Size):
        assert tuple(m) == tuple(t), (what, m, t)
        return
    if isinstance(t, float) and t != t:
        assert m != m, (what, m, t)
        return
    assert m == t and type(m) is type(t), (what, m, t)


def _show(x):
    if isinstance(x, (M.Tensor, torch.Tensor)):
        return f"tensor(shape={tuple(x.shape)}, dtype={x.dtype})"
    return repr(x)[:200]


def check(fn, meta=False):
    """fn(lib) agrees in mindtorch and torch; returns both results."""
    t = _call(fn, torch)
    m = _call(fn, M)
    compare(m, t, meta)
    return m, t


def data(rng, shape, dtype, low=-9, high=10):
    """Exactly representable random values of dtype (as float64/int64/bool numpy)."""
    shape = tuple(shape)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "uint8":
        return rng.integers(0, high, shape)
    if dtype.startswith("int"):
        return rng.integers(low, high, shape)
    v = rng.integers(low * 4, high * 4, shape) / 4.0
    if dtype.startswith("complex"):
        v = v + 1j * (rng.integers(low * 4, high * 4, shape) / 4.0)
    return v


LAYOUTS = ["contig", "T", "step", "offset", "expand"]


def mk(L, values, dtype, layout="contig"):
    """values (numpy) as a tensor of dtype in library L, laid out as `layout`: contiguous,
    dims reversed (T), every other element of a wider last dim (step), a storage offset,
    or broadcast from a size-1 dim (expand, values taken from its first row)."""
    dt = getattr(L, dtype)
    v = np.asarray(values)
    nd = v.ndim
    if nd == 0 or layout == "contig":
        return L.tensor(v).to(dt)
    if layout == "T":
        rev = tuple(range(nd))[::-1]
        return L.tensor(np.ascontiguousarray(v.transpose(rev))).to(dt).permute(rev)
    if layout == "step":
        big = np.zeros(v.shape[:-1] + (2 * v.shape[-1] + 1,), v.dtype)
        big[..., 1::2] = v
        return L.tensor(big).to(dt)[..., 1::2]
    if layout == "offset":
        big = np.concatenate([np.zeros((1,) + v.shape[1:], v.dtype), v, np.zeros((2,) + v.shape[
            1:], v.dtype)])
        return L.tensor(big).to(dt)[1:1 + v.shape[0]]
    if layout == "expand":
        return L.tensor(np.ascontiguousarray(v[:1])).to(dt).expand(v.shape) \
            if v.shape[0] else L.tensor(v).to(dt)
    raise ValueError(layout)


def rand_shape(rng, max_rank=4, max_size=4, empty=0.1):
    rank = int(rng.integers(0, max_rank + 1))
    shape = [int(rng.integers(1, max_size + 1)) for _ in range(rank)]
    if shape and rng.random() < empty:
        shape[int(rng.integers(rank))] = 0
    return tuple(shape)


def lib(x):
    return M if isinstance(x, M.Tensor) else torch


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def rdim(rng, ndim, extra=0, bad=0.08):
    """A dim for a tensor of ndim dims (negative half the time, sometimes out of range)."""
    n = max(ndim + extra, 1)
    if rng.random() < bad:
        return pick(rng, [n, -n - 1, n + 1])
    d = int(rng.integers(0, n))
    return d - n if rng.random() < 0.5 else d


def seeds(n):
    return [int(s) for s in range(n * SCALE)]
