"""Regression tests for QA round qa16d (the meta device against PyTorch's meta device):
results' shapes, dtypes, strides and offsets, and errors, each against torch (and, where
PyTorch's cpu agrees with its meta, against mindtorch's cpu)."""
import mindtorch
import pytest

torch = pytest.importorskip("torch")


def _geometry(r):
    if isinstance(r, (tuple, list)):
        return tuple(_geometry(x) for x in r)
    return (tuple(r.shape), str(r.dtype).removeprefix("torch."), r.stride(),
            r.storage_offset())


def _same_on_meta(program, cpu_too=True):
    """program(lib, device) -> tensor(s): the same geometry on mindtorch's and torch's meta
    devices (and on mindtorch's cpu)."""
    ours, theirs = _geometry(program(mindtorch, "meta")), _geometry(program(torch, "meta"))
    assert ours == theirs
    if cpu_too:
        assert _geometry(program(mindtorch, "cpu")) == ours


def _cl(L, dev, shape=(2, 3, 4, 5)):
    return L.ones(shape, device=dev).contiguous(memory_format=L.channels_last)


def _t(L, dev, shape=(4, 3)):
    return L.ones(shape, device=dev).t()


@pytest.mark.parametrize("fn", [
    lambda L, x: x + 1, lambda L, x: 1 - x, lambda L, x: x.sin(), lambda L, x: x * x,
    lambda L, x: x > 0, lambda L, x: x.clamp(0, 1), lambda L, x: L.nn.functional.relu(x),
    lambda L, x: L.nn.functional.gelu(x), lambda L, x: L.where(x > 0, x, 1.0),
    lambda L, x: x.to(L.float64), lambda L, x: x.transpose(0, 1).exp(),
    lambda L, x: x + L.ones(3, 1, 5, device=x.device), lambda L, x: L.ones(3, 1, 5, device=x.device) * x,
    lambda L, x: x[:, :, :, 1:4].neg(), lambda L, x: L.frexp(x),
], ids=lambda f: "")
def test_elementwise_results_keep_tensor_iterator_layout(fn):
    _same_on_meta(lambda L, dev: fn(L, _cl(L, dev)))


@pytest.mark.parametrize("fn", [
    lambda L, x: x.abs(), lambda L, x: x + x, lambda L, x: L.lerp(x, x.contiguous(), 0.5),
    lambda L, x: L.addcmul(x, x, x), lambda L, x: x.pow(2),
])
def test_elementwise_results_of_transposed_inputs(fn):
    _same_on_meta(lambda L, dev: fn(L, _t(L, dev)))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_results_are_contiguous_on_meta(name):
    _same_on_meta(lambda L, dev: getattr(L, name)(_t(L, dev), 1))
    _same_on_meta(lambda L, dev: getattr(L, name)(_cl(L, dev), 1))
