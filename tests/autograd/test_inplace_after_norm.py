"""An in-place activation right after a normalisation or max-pool layer (Conv -> BatchNorm
-> ReLU(inplace=True), as ResNet, VGG-BN and DCGAN write it) trains in PyTorch: those
layers' backward nodes keep their statistics/indices, not their main output.  The same
model must train here, with PyTorch's gradients; an op whose node does keep its output
(sigmoid, tanh, softmax) refuses the in-place write in both."""
import numpy as np
import pytest
import torch

import mindtorch


LAYERS = {
    "batchnorm_train": lambda L: L.nn.BatchNorm2d(3),
    "batchnorm_eval": lambda L: L.nn.BatchNorm2d(3).eval(),
    "layernorm": lambda L: L.nn.LayerNorm(4),
    "groupnorm": lambda L: L.nn.GroupNorm(1, 3),
    "instancenorm": lambda L: L.nn.InstanceNorm2d(3, affine=True),
    "maxpool": lambda L: L.nn.MaxPool2d(2),
    "adaptive_maxpool": lambda L: L.nn.AdaptiveMaxPool2d(2),
    "conv": lambda L: L.nn.Conv2d(3, 3, 1),
}


def run(L, name, act):
    model = L.nn.Sequential(LAYERS[name](L), act(L))
    rng = np.random.RandomState(0)
    with L.no_grad():
        for p in model.parameters():
            p.copy_(L.from_numpy(rng.uniform(-1, 1, tuple(p.shape)).astype(np.float32)))
    x = L.from_numpy(rng.randn(2, 3, 4, 4).astype(np.float32)).requires_grad_()
    (model(x) * L.from_numpy(rng.randn(*model(x).shape).astype(np.float32))).sum().backward()
    return [x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()]


ACTS = {"relu": lambda L: L.nn.ReLU(inplace=True),
        "leaky": lambda L: L.nn.LeakyReLU(0.2, inplace=True),
        "hardtanh": lambda L: L.nn.Hardtanh(inplace=True)}


@pytest.mark.parametrize("act", list(ACTS))
@pytest.mark.parametrize("name", list(LAYERS))
def test_inplace_activation_after_layer_trains_as_torch(name, act):
    want, got = run(torch, name, ACTS[act]), run(mindtorch, name, ACTS[act])
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("first", ["Sigmoid", "Tanh"])
def test_output_saving_nodes_refuse_in_both(first):
    for L in (torch, mindtorch):
        x = L.ones(2, 3, requires_grad=True)
        y = L.nn.Sequential(getattr(L.nn, first)(), L.nn.ReLU(inplace=True))(x)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()


OPS_WITH_AUX_OUTPUTS = {
    "max_dim": lambda L, x: x.max(1)[0],
    "sort": lambda L, x: x.sort(1)[0],
    "topk": lambda L, x: x.topk(2, 1)[0],
    "cummax": lambda L, x: x.cummax(1)[0],
    "max_pool1d": lambda L, x: L.nn.functional.max_pool1d(x.unsqueeze(0), 2),
    "embedding_bag_mean": lambda L, x: L.nn.functional.embedding_bag(
        L.tensor([0, 1, 2, 1]), x, L.tensor([0, 2]), mode="mean"),
    "layer_norm": lambda L, x: L.nn.functional.layer_norm(x, (4,)),
    "slogdet": lambda L, x: L.linalg.slogdet(x[:, :3])[1],
}


@pytest.mark.parametrize("name", list(OPS_WITH_AUX_OUTPUTS))
def test_writing_the_main_output_of_an_op_with_saved_indices(name):
    """PyTorch saves only the auxiliary outputs (indices, statistics, sign) these formulas
    read: writing the main output in place leaves backward valid."""
    grads = []
    for L in (torch, mindtorch):
        x = L.tensor([[1.0, 3.0, 2.0, 0.5], [4.0, -1.0, 2.5, 3.0], [0.2, 0.1, 0.3, 0.4]],
                     dtype=L.float64, requires_grad=True)
        y = OPS_WITH_AUX_OUTPUTS[name](L, x)
        y.mul_(2)
        (y * L.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-10, atol=1e-12)
