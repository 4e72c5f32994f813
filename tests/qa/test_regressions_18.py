"""Coordinator's regressions of the fifteenth session on issue 5 (QA round 18), each
compared with PyTorch.  (The sums' order: tests/cpu/test_sum_order.py.)"""
import mindtorch
import numpy as np
import pytest
from reference import same_outcome
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")

_R = np.random.default_rng(18)


@pytest.mark.parametrize("everywhere", [False, True])
@pytest.mark.parametrize("shape", [(2, 4, 32, 32), (64, 100), (8, 3, 7), (5, 1), (300, 17)])
def test_float32_softmax_bits_from_the_early_size(shape, everywhere, monkeypatch):
    # the compiled softmax (PyTorch's vectorized kernel, bit for bit) serves from
    # _jit.EARLY_MIN_SIZE elements, and at any size once numba is loaded
    pytest.importorskip("numba")
    if everywhere:
        monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
    x = (_R.standard_normal(shape) * 4).astype(np.float32)
    x.reshape(-1)[::37] = -np.inf
    if x.size < _jit.EARLY_MIN_SIZE and not everywhere:
        pytest.skip("the NumPy path (PyTorch's values, not its last bits)")
    got = mindtorch.softmax(mindtorch.from_numpy(x), -1).numpy()
    expected = torch.softmax(torch.from_numpy(x), -1).numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "uint16",
                                   "uint32", "uint64"])
@pytest.mark.parametrize("call", [
    lambda L, x: x.sum(), lambda L, x: x.sum(1), lambda L, x: x.sum(dtype=L.float32),
    lambda L, x: x @ x, lambda L, x: L.mm(x, x), lambda L, x: L.addmm(x, x, x)])
def test_barebones_dtypes_sum_and_products_refuse_as_pytorch(dtype, call):
    # PyTorch's sum kernel lacks float8, its addmm kernel the unsigned types and e8m0fnu
    def program(L):
        return call(L, L.ones(3, 3).to(getattr(L, dtype))).float().tolist()
    same_outcome(program)
