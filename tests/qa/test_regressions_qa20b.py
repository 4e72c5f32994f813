"""QA round qa20b's regressions, each compared with PyTorch to the bit: nll_loss's 'sum' and
'mean' add the rows in ATen's order (its 8-level cascade: runs of 16 rows, row 0 on the
top level, ignored rows moving nothing), in every float dtype and input rank; the mean's
gradient is ATen's w * -(grad / total weight); cross_entropy's label smoothing divides by
the counted targets' weights only; a loss of zero is +0."""
import mindtorch
import numpy as np
import pytest
from mindtorch_cpu.kernels import _jit

torch = pytest.importorskip("torch")

_R = np.random.default_rng(2020)
_SIZES = [1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 255, 256, 257, 300, 1000, 4097, 5000]


def _targets(shape, classes, ignored):
    t = _R.integers(0, classes, shape)
    flat = t.reshape(-1)
    if ignored == "random":
        flat[_R.random(flat.size) < 0.25] = -100
    elif ignored == "every 16th":  # (the rows where ATen's levels move up)
        flat[::16] = -100
    elif ignored == "runs":  # (padded sequences)
        for start in range(0, flat.size, 37):
            flat[start + 20:start + 37] = -100
    elif ignored == "all":
        flat[:] = -100
    return t


def _bits(a):
    a = a.detach()
    return (a.float() if a.dtype in (mindtorch.bfloat16, torch.bfloat16) else a).numpy().tobytes()


def _compare(fn, x, t, w, dtype, **kw):
    """fn's loss and its input's gradient under both libraries, bit for bit."""
    results = []
    for lib in (mindtorch, torch):
        xt = lib.from_numpy(x).to(getattr(lib, dtype)).requires_grad_()
        wt = None if w is None else lib.from_numpy(w).to(getattr(lib, dtype))
        loss = getattr(lib.nn.functional, fn)(xt, lib.from_numpy(t), wt, **kw)
        (loss if loss.ndim == 0 else loss.sum()).backward()
        results.append((_bits(loss), _bits(xt.grad)))
    assert results[0] == results[1]


def _log_probs(shape):
    x = torch.from_numpy(_R.standard_normal(shape) * 3)
    return torch.log_softmax(x, 1 if len(shape) > 1 else 0).numpy()


@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows", _SIZES)
def test_nll_loss_adds_rows_in_aten_order(rows, dtype, reduction):
    x = _log_probs((rows, 10))
    _compare("nll_loss", x, _targets(rows, 10, None), None, dtype, reduction=reduction)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignored", [None, "random", "every 16th", "runs", "all"])
@pytest.mark.parametrize("rows", [9, 17, 64, 257, 1000, 4500])
def test_nll_loss_order_with_ignored_rows_and_weights(rows, ignored, weighted):
    x = _log_probs((rows, 7))
    w = _R.random(7) if weighted else None
    t = _targets(rows, 7, ignored)
    for dtype in ("float32", "float64"):
        for reduction in ("sum", "mean"):
            _compare("nll_loss", x, t, w, dtype, reduction=reduction, ignore_index=-100)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(2, 3, 5), (4, 5, 17), (3, 4, 33, 9), (2, 3, 16, 16),
                                   (1, 6, 4, 5, 6), (8, 4, 1, 300)])
def test_nll_loss_order_over_spatial_inputs(shape, dtype):
    x = _log_probs(shape)
    w = _R.random(shape[1])
    for ignored in (None, "random", "every 16th"):
        t = _targets(shape[:1] + shape[2:], shape[1], ignored)
        for reduction in ("sum", "mean"):
            _compare("nll_loss", x, t, None, dtype, reduction=reduction)
            _compare("nll_loss", x, t, w, dtype, reduction=reduction)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("rows", [8, 17, 64, 300])
def test_nll_loss_16_bit_rows(rows, dtype):
    x = _log_probs((rows, 5))
    for ignored, w in ((None, None), ("random", _R.random(5))):
        _compare("nll_loss", x, _targets(rows, 5, ignored), w, dtype, reduction="mean")


@pytest.mark.parametrize("rows", [1, 4, 9, 64, 200, 300, 3000])
def test_float32_cross_entropy_loss_bits(rows, monkeypatch):
    # (with log_softmax's compiled loop, PyTorch's float32 bits, at any size)
    pytest.importorskip("numba")
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
    x = (_R.standard_normal((rows, 10)) * 3).astype(np.float32)
    for ignored in (None, "random"):
        t = _targets(rows, 10, ignored)
        for reduction in ("sum", "mean"):
            results = [_bits(lib.nn.functional.cross_entropy(
                lib.from_numpy(x), lib.from_numpy(t), reduction=reduction))
                for lib in (mindtorch, torch)]
            assert results[0] == results[1]


@pytest.mark.parametrize("rows", [17, 257, 3000])
def test_label_smoothing_mean_divides_by_counted_weights(rows, monkeypatch):
    # ATen gathers the weights of the targets not ignored and sums those: a different
    # order from a sum with zeros in the ignored targets' places
    pytest.importorskip("numba")
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0)
    x = (_R.standard_normal((rows, 7)) * 3).astype(np.float32)
    w = _R.random(7).astype(np.float32)
    t = _targets(rows, 7, "random")
    results = [_bits(lib.nn.functional.cross_entropy(
        lib.from_numpy(x), lib.from_numpy(t), lib.from_numpy(w), label_smoothing=0.1))
        for lib in (mindtorch, torch)]
    assert results[0] == results[1]


def test_label_smoothing_with_weights_on_meta():
    x = mindtorch.empty(5, 3, device="meta")
    t = mindtorch.empty(5, dtype=mindtorch.int64, device="meta")
    loss = mindtorch.nn.functional.cross_entropy(x, t, mindtorch.ones(3, device="meta"),
                                                 label_smoothing=0.1)
    assert loss.shape == () and loss.device.type == "meta"


@pytest.mark.parametrize("reduction", ["sum", "mean", "none"])
@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 3, 2, 2)])
def test_zero_loss_is_positive_zero(shape, reduction):
    # log-probabilities of exactly 0 (a certain prediction): ATen's sums start from +0
    x = np.zeros(shape)
    x[(slice(None), 1) if len(shape) > 1 else 1] = -np.inf
    t = np.zeros(shape[:1] + shape[2:] if len(shape) > 1 else (), np.int64)
    for dtype in ("float32", "float64"):
        _compare("nll_loss", x, t, None, dtype, reduction=reduction)
