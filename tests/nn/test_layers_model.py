"""The layer modules together: a small CNN loads a PyTorch state_dict and computes the same
outputs and gradients; its repr is PyTorch's."""
import pytest

import mindtorch
from layers_helpers import check_module, inputs, torch


def cnn(nn):
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(4, 8, 3, padding="same", padding_mode="reflect", bias=False),
        nn.ReLU(), nn.AvgPool2d(2, ceil_mode=True), nn.Flatten(),
        nn.Linear(8 * 2 * 2, 10))


def test_cnn_from_torch_state_dict():
    th, mt = cnn(torch.nn).double(), cnn(mindtorch.nn).double()
    assert repr(mt) == repr(th)
    state = {k: mindtorch.tensor(v.numpy()) for k, v in th.state_dict().items()}
    assert list(state) == list(mt.state_dict())
    result = mt.load_state_dict(state)
    assert not result.missing_keys and not result.unexpected_keys
    check_module(th, mt, *inputs((3, 1, 8, 8)))


def test_embedding_bag_model_and_meta():
    def model(nn):
        return nn.Sequential(nn.Embedding(20, 6, padding_idx=0), nn.Flatten(),
                             nn.Linear(18, 4), nn.Unflatten(1, (2, 2)))
    th, mt = model(torch.nn).double(), model(mindtorch.nn).double()
    assert repr(mt) == repr(th)
    mt.load_state_dict({k: mindtorch.tensor(v.numpy()) for k, v in th.state_dict().items()})
    index = [[0, 3, 19], [5, 5, 1]]
    check_module(th, mt, (mindtorch.tensor(index), torch.tensor(index)))
    with mindtorch.device("meta"):
        m = model(mindtorch.nn)
        out = m(mindtorch.zeros(7, 3, dtype=mindtorch.int64))
    assert out.device.type == "meta" and tuple(out.shape) == (7, 2, 2)


@pytest.mark.parametrize("dtype", ["float32"])
def test_cnn_float32(dtype):
    th, mt = cnn(torch.nn), cnn(mindtorch.nn)
    mt.load_state_dict({k: mindtorch.tensor(v.numpy()) for k, v in th.state_dict().items()})
    check_module(th, mt, *inputs((2, 1, 8, 8), dtype=dtype), dtype=dtype)
