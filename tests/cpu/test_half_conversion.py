"""A double (Python float, float64 data) becomes float16 through float32, as c10::Half is
built from a float: on ~1 in 15,000 values that double rounding differs from NumPy's direct
cast by one ulp.  Every path a double reaches a float16 tensor by is compared with PyTorch."""
import numpy as np
import pytest

import mindtorch
from reference import same_outcome

torch = pytest.importorskip("torch")


def _double_rounded(n):
    """Doubles whose float16 differs when rounded through float32."""
    x = np.random.default_rng(0).standard_normal(400_000) * 10
    bad = x[x.astype(np.float16) != x.astype(np.float32).astype(np.float16)]
    assert bad.size >= n
    return bad[:n]


VALUES = _double_rounded(12)
ARRAY = np.concatenate([VALUES, [0.1, -2.5, 65519.0, 65520.0, 1e-8, np.inf, np.nan]])


def _setitem(lib, v):
    t = lib.zeros(2, dtype=lib.float16)
    t[1] = v
    return t


PATHS = {
    "tensor_list": lambda lib, v: lib.tensor([v, 1.0], dtype=lib.float16),
    "tensor_scalar": lambda lib, v: lib.tensor(v, dtype=lib.float16),
    "as_tensor": lambda lib, v: lib.as_tensor([v], dtype=lib.float16),
    "to": lambda lib, v: lib.tensor([v], dtype=lib.float64).to(lib.float16),
    "half_strided": lambda lib, v: lib.tensor([[v, 0.0], [1.0, v]],
                                              dtype=lib.float64).t().half(),
    "copy_": lambda lib, v: lib.zeros(1, dtype=lib.float16).copy_(
        lib.tensor([v], dtype=lib.float64)),
    "fill_": lambda lib, v: lib.zeros(3, dtype=lib.float16).fill_(v),
    "full": lambda lib, v: lib.full((2,), v, dtype=lib.float16),
    "setitem": _setitem,
    "masked_fill": lambda lib, v: lib.zeros(2, dtype=lib.float16).masked_fill(
        lib.tensor([True, False]), v),
    "add": lambda lib, v: lib.zeros(3, dtype=lib.float16) + v,
    "radd": lambda lib, v: v + lib.zeros(3, dtype=lib.float16),
    "mul": lambda lib, v: lib.ones(3, dtype=lib.float16) * v,
    "clamp_min": lambda lib, v: lib.zeros(2, dtype=lib.float16).clamp(min=v),
    "clamp_max": lambda lib, v: lib.full((2,), 1e4, dtype=lib.float16).clamp(max=v),
    "linspace": lambda lib, v: lib.linspace(v, v + 3, 5, dtype=lib.float16),
    "arange": lambda lib, v: lib.arange(v, v + 3, 0.7, dtype=lib.float16),
}


@pytest.mark.parametrize("path", PATHS)
def test_double_to_half_rounds_through_float32(path):
    for v in VALUES:
        same_outcome(lambda lib: PATHS[path](lib, float(v)).tolist())


def test_float64_array_to_half():
    ours = mindtorch.tensor(ARRAY, dtype=mindtorch.float16).numpy()
    theirs = torch.tensor(ARRAY, dtype=torch.float16).numpy()
    np.testing.assert_array_equal(ours, theirs)
    ours = mindtorch.from_numpy(ARRAY).half().numpy()
    np.testing.assert_array_equal(ours, theirs)
    # complex doubles too (real part), and float32 sources round once as before
    c = ARRAY.astype(np.complex128)
    np.testing.assert_array_equal(mindtorch.from_numpy(c).to(mindtorch.float16).numpy(),
                                  torch.from_numpy(c).to(torch.float16).numpy())
    f = ARRAY.astype(np.float32)
    np.testing.assert_array_equal(mindtorch.from_numpy(f).half().numpy(),
                                  torch.from_numpy(f).half().numpy())
