"""Training on mindtorch follows PyTorch step by step: the same model code (written once, the
library passed in), the same initial weights and data, 20 optimizer steps.

float64: every loss and every final parameter within 1e-9.  float32: the losses within 1e-4
(float32 training through ReLU and Adam amplifies rounding differences, so a tighter float32
bound would test chaos rather than correctness)."""
import sys
from pathlib import Path

import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from train_digits import make_model as digits_cnn  # noqa: E402

STEPS, BATCH, CLASSES = 20, 16, 10


def mlp(nn):
    return nn.Sequential(nn.Linear(64, 48), nn.ReLU(), nn.Linear(48, 32), nn.Tanh(),
                         nn.Linear(32, CLASSES))


MODELS = {  # model builder and the shape of one input
    "mlp": (mlp, (64,)),
    "cnn": (digits_cnn, (1, 8, 8)),
}
OPTIMIZERS = {
    "sgd_momentum": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.9,
                                                   weight_decay=1e-3),
    "sgd_nesterov": lambda optim, params: optim.SGD(params, lr=0.05, momentum=0.9,
                                                   nesterov=True),
    "adamw": lambda optim, params: optim.AdamW(params, lr=1e-2, weight_decay=0.05),
}


def train(lib, model, optimizer_name, inputs, targets):
    """The ordinary loop; returns the loss of every step and the optimizer."""
    optimizer = OPTIMIZERS[optimizer_name](lib.optim, model.parameters())
    losses = []
    for x, y in zip(inputs, targets):
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, optimizer


def twin_models(name, dtype):
    """A torch model with PyTorch's default initialisation and a mindtorch copy of it."""
    build, _ = MODELS[name]
    torch.manual_seed(0)
    th = build(torch.nn).to(getattr(torch, dtype))
    mt = build(mindtorch.nn).to(getattr(mindtorch, dtype))
    mt.load_state_dict({k: mindtorch.tensor(v.numpy()) for k, v in th.state_dict().items()})
    return mt, th


def batches(name, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((STEPS, BATCH) + MODELS[name][1]).astype(dtype)
    y = rng.integers(0, CLASSES, (STEPS, BATCH))
    return x, y


def run_both(name, optimizer_name, dtype):
    mt, th = twin_models(name, dtype)
    x, y = batches(name, dtype)
    mt_losses, mt_opt = train(mindtorch, mt, optimizer_name,
                              [mindtorch.tensor(b) for b in x], [mindtorch.tensor(b) for b in y])
    th_losses, th_opt = train(torch, th, optimizer_name,
                              [torch.from_numpy(b) for b in x], [torch.from_numpy(b) for b in y])
    return (mt, mt_losses, mt_opt), (th, th_losses, th_opt)


@pytest.mark.parametrize("optimizer_name", list(OPTIMIZERS))
@pytest.mark.parametrize("name", list(MODELS))
def test_float64_training_matches_torch(name, optimizer_name):
    (mt, mt_losses, mt_opt), (th, th_losses, th_opt) = run_both(name, optimizer_name, "float64")
    assert th_losses[-1] < th_losses[0]  # the steps do train
    np.testing.assert_allclose(mt_losses, th_losses, rtol=0, atol=1e-9)
    th_params = dict(th.named_parameters())
    assert list(dict(mt.named_parameters())) == list(th_params)
    for key, p in mt.named_parameters():
        assert p.dtype is mindtorch.float64
        np.testing.assert_allclose(p.detach().numpy(), th_params[key].detach().numpy(),
                                   rtol=0, atol=1e-9, err_msg=key)
    # the optimizer state has PyTorch's structure (and its values)
    mt_state, th_state = mt_opt.state_dict(), th_opt.state_dict()
    assert mt_state["param_groups"][0].keys() == th_state["param_groups"][0].keys()
    for i, th_entry in th_state["state"].items():
        assert mt_state["state"][i].keys() == th_entry.keys()
        for k, v in th_entry.items():
            np.testing.assert_allclose(np.asarray(mt_state["state"][i][k]), v.numpy(),
                                       rtol=0, atol=1e-9, err_msg=f"state[{i}][{k}]")


@pytest.mark.parametrize("optimizer_name", list(OPTIMIZERS))
@pytest.mark.parametrize("name", list(MODELS))
def test_float32_training_losses_match_torch(name, optimizer_name):
    (mt, mt_losses, _), (_, th_losses, _) = run_both(name, optimizer_name, "float32")
    assert all(p.dtype is mindtorch.float32 for p in mt.parameters())
    np.testing.assert_allclose(mt_losses, th_losses, rtol=0, atol=1e-4)
