"""Regression tests for the AVX-512 round (misc group): results that must follow PyTorch on
AVX2 and AVX-512 machines alike, each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import pair

torch = pytest.importorskip("torch")


def _log_inputs():
    rng = np.random.default_rng(0)
    return np.concatenate([rng.uniform(0, 10, 20_000), 10.0 ** rng.uniform(-38, 38, 20_000),
                           10.0 ** np.arange(-37, 38), [0, -0.0, -1, np.inf, np.nan, 1e-45]])


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
@pytest.mark.parametrize("name", ["log10", "log2"])
def test_float32_log10_log2_as_pytorch(name, dtype):
    # PyTorch's float32 log10 / log2 are nearly correctly rounded; NumPy's float32 loops
    # are not (log10(1e-6) was -6.0000005, so benchmark's select_unit(1e-6) said 'ns')
    m, t = pair(_log_inputs(), dtype)
    got, want = getattr(m, name)(), getattr(t, name)()
    assert str(got.dtype) == str(want.dtype)
    got, want = got.float().numpy(), want.float().numpy()
    differ = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    # (PyTorch's SLEEF functions are off the correctly rounded value on ~0.02% of inputs)
    assert differ.mean() < 1e-3, got[differ][:5]


@pytest.mark.parametrize("v", [3e-10, 1e-9, 2.5e-7, 1e-6, 1e-3, 4e-3, 0.5, 12.])
def test_benchmark_select_unit(v):
    from mindtorch.utils.benchmark.utils import common as ours
    from torch.utils.benchmark.utils import common as theirs
    assert ours.select_unit(v) == theirs.select_unit(v)


@pytest.mark.parametrize("n", [0, 1, 5, 15])
@pytest.mark.parametrize("exponent", [0.75, 0.1, -1.3, 7, float("nan")])
def test_float32_pow_number_scalar_loop(exponent, n):
    # PyTorch's scalar loop (a 0-dim tensor, rows shorter than 2 vectors, the rest of each
    # row) computes std::pow(double(x), exponent) rounded to float: exactly that, not
    # NumPy's float32 power (an ASGD step with a tensor lr: (1 + 6e-6) ** 0.75 was an ulp
    # off, a near tie)
    rng = np.random.default_rng(n)
    data = np.concatenate([rng.uniform(0, 4, 80 * n), 1 + rng.uniform(-1e-4, 1e-4, 80 * n)])
    m, t = pair(data.reshape(80, 2 * n), "float32")  # (rows of n: each one the scalar loop's)
    got, want = m[:, :n] ** exponent, t[:, :n] ** exponent
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    ours, theirs = (np.float32((lib.tensor(1.0000059604644775) ** exponent).item())
                    for lib in (mindtorch, torch))
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("base", ["tensor", "0-dim", "number"])
def test_float32_pow_tensor_exponent(base):
    # float32 ** a tensor: std::pow(float, float) in PyTorch's scalar loop (rows shorter
    # than 2 vectors here), the correctly rounded power but for near ties; NumPy's float32
    # power on AVX-512 put 1.3 ** 2 an ulp off (torch.tensor(1.3).pow(arange(n) % 3))
    rng = np.random.default_rng(1)
    bases = rng.uniform(0, 4, (50, 20)).astype(np.float32)
    exponents = np.concatenate([rng.uniform(-3, 3, (50, 10)), np.arange(500).reshape(50, 10) % 3],
                               axis=1)

    def program(lib):
        e = lib.tensor(exponents.astype("int64" if base == "0-dim" else "float32"))
        b = {"tensor": lib.tensor(bases)[:, :15], "0-dim": lib.tensor(1.3),
             "number": 1.3}[base]
        out = b ** e[:, :15]  # (rows of 15: each one the scalar loop's)
        return str(out.dtype), out.numpy().tolist()
    assert program(mindtorch) == program(torch)


@pytest.mark.parametrize("n", [1, 5, 7])  # (rows shorter than 2 AVX2 vectors)
@pytest.mark.parametrize("exponent", [0.75, 0.1, -1.3, 7, 1e10, float("nan")])
def test_float64_pow_number_scalar_loop(exponent, n):
    # float64 ** a Python number: std::pow in PyTorch's scalar loop (rows shorter than 2
    # vectors, the rest of a dense tensor); NumPy's float64 power is its own SIMD code on
    # AVX-512 machines (~5% of results an ulp apart)
    rng = np.random.default_rng(n)
    data = np.concatenate([rng.uniform(0, 4, (40, 2 * n)), [[0, -0.0, -1, -8, np.inf, -np.inf,
                                                              np.nan, 1, 1e300, 1e-300][:2 * n]
                                                             + [2.0] * (2 * n - min(10, 2 * n))]])

    def program(lib):
        t = lib.tensor(data)
        return [str(v) for v in (t[:, :n] ** exponent).reshape(-1).tolist()
                + (t[0, :7] ** exponent).tolist() + [(t[0, 0] ** exponent).item()]]
    assert program(mindtorch) == program(torch)
