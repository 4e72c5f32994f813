"""Regression tests (AVX-512 round): float32 activations as PyTorch computes them on the machine
the tests run on, bit for bit where mindtorch replays the kernel PyTorch picks: GELU through
oneDNN's avx512_core kernel (piecewise minimax erf; NaN at +-inf) or the A&S erf below it;
the elements ATen's vectorized loops leave to their scalar code (32 floats a chunk on
AVX-512, 16 on AVX2); float32 expm1 / log1p within PyTorch's ulp on the NumPy path."""
import mindtorch
import numpy as np
import pytest
from mindtorch._ops.registry import OPS
from mindtorch_cpu.kernels import _jit
from mindtorch_cpu.kernels._cpu_capability import onednn_avx512_core
from reference import assert_same, pair

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(12)
SPECIAL = [np.inf, -np.inf, np.nan, 3.4e38, -3.4e38, 0.0, -0.0, 1e-45, 5.5419, -5.5420, -4.0,
           -3.999, 0.109375, 0.1094]


def _bits_equal(m, t):
    a, b = m.detach().numpy(), t.detach().numpy()
    same = (a.view(np.int32) == b.view(np.int32)) | (np.isnan(a) & np.isnan(b))
    assert same.all(), (np.flatnonzero(~same)[:5], a[~same][:5], b[~same][:5])


@pytest.fixture(params=["compiled", "numpy"])
def path(request, monkeypatch):
    if request.param == "numpy":
        monkeypatch.setitem(_jit._modules, "_compiled", False)
    else:
        monkeypatch.setattr(_jit, "MIN_SIZE", 0)
    return request.param


@pytest.mark.parametrize("n", [2, 17, 1000, 70_001])
def test_gelu_float32_bits_and_special_values(path, n):
    x = np.concatenate([SPECIAL, RNG.standard_normal(n) * 4])[:max(n, len(SPECIAL))]
    m, t = pair(x)
    got, ref = mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t)
    if not onednn_avx512_core():  # (the A&S erf: mostly the bits of oneDNN's AVX2 code)
        assert_same(got, ref, rtol=1.3e-6, atol=5e-7)
    else:
        _bits_equal(got, ref)


def test_gelu_bfloat16_and_views(path):
    m, t = pair(RNG.standard_normal((40, 33)) * 3, "bfloat16")
    assert_same(mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t), rtol=0, atol=0)
    m, t = pair(RNG.standard_normal((40, 33)) * 3)
    assert_same(mindtorch.nn.functional.gelu(m.T), torch.nn.functional.gelu(t.T),
                rtol=1.3e-6, atol=5e-7)


@pytest.mark.parametrize("n", [12054, 70_001, 100_003])
@pytest.mark.parametrize("op", ["elu", "elu_result", "softplus", "hardswish"])
def test_backward_scalar_tails(op, n):
    """NaN and large / small inputs at every position of the last elements (the scalar
    code's): bit-identical on the compiled loops (over _jit.MIN_SIZE elements)."""
    x = (RNG.standard_normal(n) * 20).astype(np.float32)
    x[RNG.integers(0, n, n // 40)] = np.nan
    x[-40:] = np.resize([np.nan, -17.5, -88.0, 3.0, -3.0, 20.0, -1e-8], 40)
    (mg, tg), (mx, tx) = pair(RNG.standard_normal(n)), pair(x)
    calls = {"elu": ("elu_backward", lambda g, x: (g, 1.0, 1.0, 1.0, False, x)),
             "elu_result": ("elu_backward", lambda g, x: (g, 1.3, 1.0, 1.0, True, x)),
             "softplus": ("softplus_backward", lambda g, x: (g, x, 1.0, 20.0)),
             "hardswish": ("hardswish_backward", lambda g, x: (g, x))}
    name, args = calls[op]
    got = OPS[name].binding(*args(mg, mx))
    ref = getattr(torch.ops.aten, name)(*args(tg, tx))
    if n >= _jit.MIN_SIZE:
        _bits_equal(got, ref)
    else:  # (the NumPy steps: NumPy's exp, within float32 rounding; NaN where PyTorch's is)
        assert_same(got, ref, rtol=3e-6, atol=1e-38)


@pytest.mark.parametrize("name", ["expm1", "log1p"])
def test_expm1_log1p_float32_small_within_an_ulp(name):
    x = np.concatenate([RNG.standard_normal(3000) * 10, np.linspace(-0.99, 2, 3001)])
    m, t = pair(x)
    a = getattr(mindtorch, name)(m).numpy().view(np.int32).astype(np.int64)
    b = getattr(torch, name)(t).numpy().view(np.int32).astype(np.int64)
    a, b = (np.where(i < 0, -(i & 0x7FFFFFFF), i) for i in (a, b))
    nan = np.isnan(getattr(torch, name)(t).numpy())
    assert (np.abs(a - b) <= 1)[~nan].all() and np.isnan(getattr(mindtorch, name)(m).numpy()[nan]).all()


def test_gelu_with_onednn_disabled_takes_atens_kernel():
    """torch.backends.mkldnn disabled: ATen's GeluKernel (the A&S erf) on both sides."""
    m, t = pair(np.concatenate([[np.inf, -3.999, -4.0], RNG.standard_normal(200) * 4]))
    with mindtorch.backends.mkldnn.flags(enabled=False), torch.backends.mkldnn.flags(enabled=False):
        got, ref = mindtorch.nn.functional.gelu(m), torch.nn.functional.gelu(t)
    assert got[0].item() == np.inf and ref[0].item() == np.inf
    assert_same(got, ref, rtol=1.3e-6, atol=5e-7)
