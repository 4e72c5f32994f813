"""Regression tests for round qa18a (speed of cross_entropy / nll_loss, softmax over short
rows and small batch norms, results unchanged), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import assert_same, pair, same_errors

torch = pytest.importorskip("torch")

_EXACT = {"rtol": 0, "atol": 0}


def _logits(shape, seed=0):
    return (np.random.default_rng(seed).standard_normal(shape) * 3).astype(np.float64)


def _targets(shape, n_classes, ignored=0.0, seed=1):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, n_classes, shape)
    t[rng.random(shape) < ignored] = -100
    return t


def _laid_out(lib, x, layout):
    if layout == "channels_last":
        return x.contiguous(memory_format=lib.channels_last)
    if layout == "strided":  # (a view with the batch dim's stride)
        return x.transpose(0, 1).contiguous().transpose(0, 1)
    return x


def _segmentation_losses(fn, reduction, kw, layout, **tolerance):
    shape = (4, 5, 6, 7)
    x_m, x_t = pair(_logits(shape), "float64")
    t = _targets((4, 6, 7), 5, ignored=0.25)
    t[t == -100] = kw.get("ignore_index", -100)
    extra_m, extra_t = dict(kw), dict(kw)
    if kw.get("weight"):
        w = np.linspace(0.5, 2, 5)
        extra_m["weight"], extra_t["weight"] = mindtorch.tensor(w), torch.tensor(w)
    results = []
    for lib, x, extra in ((mindtorch, x_m, extra_m), (torch, x_t, extra_t)):
        x = _laid_out(lib, x, layout).requires_grad_()
        loss = getattr(lib.nn.functional, fn)(x, lib.tensor(t), reduction=reduction, **extra)
        loss.sum().backward()
        results.append((loss, x.grad))
    assert_same(*results, **tolerance)


_KWARGS = [{}, {"ignore_index": 2}, {"weight": True}]
_LAYOUTS = ["contiguous", "channels_last", "strided"]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kw", _KWARGS)
def test_nll_loss_segmentation_maps_float64(reduction, kw):
    # nll_loss picks and scatters each target's class by flat positions (was
    # take_along_axis / put_along_axis): the same losses and gradient, to the bit in float64
    # (the mean and sum: PyTorch's nll_loss2d adds in another order), ignored targets
    # included.  (Contiguous only: PyTorch's backward refuses other layouts, "grad_input
    # must be contiguous", where mindtorch computes.)
    tolerance = _EXACT if reduction == "none" else {"rtol": 1e-13, "atol": 0}
    _segmentation_losses("nll_loss", reduction, kw, "contiguous", **tolerance)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kw", _KWARGS + [{"label_smoothing": 0.1}])
@pytest.mark.parametrize("layout", _LAYOUTS)
def test_cross_entropy_segmentation_maps(reduction, kw, layout):
    # (log_softmax's exp is NumPy's: within an ulp or two of PyTorch's)
    _segmentation_losses("cross_entropy", reduction, kw, layout, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("shape", [(6, 4), (3, 4, 5), (2, 3, 4, 5, 2), (5,)])
def test_nll_loss_ranks_float64_bits(shape):
    x_m, x_t = pair(_logits(shape), "float64")
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    t = _targets(tshape, shape[0] if len(shape) == 1 else shape[1], ignored=0.3 if tshape
                 else 0.0)
    results = []
    for lib, x in ((mindtorch, x_m), (torch, x_t)):
        x = x.detach().requires_grad_()
        loss = lib.nn.functional.nll_loss(x, lib.tensor(t), reduction="none")
        loss.sum().backward()
        results.append((loss, x.grad))
    assert_same(*results, **_EXACT)


def test_nll_loss_segmentation_target_out_of_bounds():
    def program(lib):
        t = _targets((2, 3, 4), 5)
        t[1, 2, 3] = 7
        return lib.nn.functional.nll_loss(lib.tensor(_logits((2, 5, 3, 4))), lib.tensor(t))
    ours, _ = same_errors(program)
    assert ours[0] == "IndexError" and "Target 7 is out of bounds" in str(ours[1])


def _rows(n):
    """Rows of n values with a max of both zero signs, -inf, inf and NaN among them."""
    a = _logits((64, n), seed=n)
    a[0, :] = -np.inf
    a[1, 0], a[2, -1], a[3, n // 2] = np.inf, np.nan, -np.inf
    a[4, :] = 0.0
    a[4, ::2] = -0.0
    a[5, :] = -0.0
    return a


@pytest.mark.parametrize("n", [1, 3, 10, 63])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_softmax_short_rows(name, n, dtype):
    # the row max of many short rows is a reduction across a transposed copy: each row's
    # result is the same as when its batch is small (the plain reduction), and PyTorch's
    x_m, x_t = pair(_rows(n), dtype)
    ours = getattr(mindtorch.nn.functional, name)(x_m, -1)
    alone = mindtorch.cat([getattr(mindtorch.nn.functional, name)(x_m[i:i + 4], -1)
                           for i in range(0, 64, 4)])
    assert_same(ours, getattr(torch.nn.functional, name)(x_t, -1))
    a, b = ours.float().numpy(), alone.float().numpy()
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("shape", [(64, 256), (4, 3, 7), (8, 64, 8, 8)])
@pytest.mark.parametrize("channels_last", [False, True])
def test_batch_norm_training_layouts(shape, channels_last):
    # the batch norm kernels see a channels-last input through one transpose (was
    # np.moveaxis): same values, layout and running statistics as PyTorch's
    if channels_last and len(shape) != 4:
        pytest.skip("channels_last is 4-d")
    x_m, x_t = pair(_logits(shape), "float64")
    g = _logits(shape, seed=2)
    results = []
    for lib, x in ((mindtorch, x_m), (torch, x_t)):
        if channels_last:
            x = x.contiguous(memory_format=lib.channels_last)
        x = x.detach().requires_grad_()
        bn = (lib.nn.BatchNorm1d if len(shape) < 4 else lib.nn.BatchNorm2d)(
            shape[1], dtype=lib.float64)
        y = bn(x)
        y.backward(_laid_out(lib, lib.tensor(g), "channels_last" if channels_last
                             else "contiguous"))
        results.append((y, x.grad, bn.running_mean, bn.running_var, bn.weight.grad))
    assert_same(*results, rtol=1e-12, atol=1e-12, check_stride=True)
