"""Dropout modules (dropout.py) against PyTorch: signature, repr, argument checks, identity
in eval mode, and the training-mode masks (element/channel structure, scaling, gradients,
in-place) checked statistically, since the random streams differ."""
import inspect
import warnings

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from layers_helpers import check_module, close, inputs, pair_modules, torch

tnn = torch.nn
NAMES = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
         "FeatureAlphaDropout"]
SHAPES = {"Dropout": (40, 50), "Dropout1d": (8, 30, 4), "Dropout2d": (8, 30, 2, 2),
          "Dropout3d": (4, 40, 2, 2, 2), "AlphaDropout": (40, 50),
          "FeatureAlphaDropout": (8, 30, 2, 2)}
FEATURE = {"Dropout1d", "Dropout2d", "Dropout3d", "FeatureAlphaDropout"}


def test_every_dropout_is_exported():
    assert sorted(nn.modules.dropout.__all__) == sorted(tnn.modules.dropout.__all__)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("args", [(), (0.2,), (0.0, True), (1.0,)])
def test_signature_and_repr(name, args):
    def parameters(cls):
        return [(p.name, p.kind, p.default) for p in inspect.signature(cls).parameters.values()]
    assert parameters(getattr(nn, name)) == parameters(getattr(tnn, name))
    assert repr(getattr(nn, name)(*args)) == repr(getattr(tnn, name)(*args))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_probability_out_of_range(name, p):
    with pytest.raises(ValueError) as th_err:
        getattr(tnn, name)(p)
    with pytest.raises(ValueError) as mt_err:
        getattr(nn, name)(p)
    assert str(mt_err.value) == str(th_err.value)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", NAMES)
def test_eval_is_identity(name, dtype):
    th, mt = pair_modules(getattr(tnn, name), getattr(nn, name), 0.7, dtype=dtype)
    th.eval()
    mt.eval()
    (x,) = inputs(SHAPES[name][:3] if name == "Dropout" else SHAPES[name], dtype=dtype,
                  noncontiguous=True)
    mt_out, _ = check_module(th, mt, x, dtype=dtype)
    close(mt_out[0], x[1], dtype)


def _mask(name, out, x, p):
    """Where the training output kept the input (for alpha dropout: where it is not the
    constant that dropped elements take), after checking the scaling of what was kept."""
    if name in ("AlphaDropout", "FeatureAlphaDropout"):
        alpha = 1.7580993408473766  # SELU's scale * alpha
        a = ((1 - p) * (1 + p * alpha ** 2)) ** -0.5
        kept = ~np.isclose(out, -alpha * a * (1 - p), rtol=1e-12, atol=0)  # dropped: that value
        np.testing.assert_allclose(out[kept], a * (x[kept] + alpha * p), rtol=1e-12)
    else:
        kept = out != 0
        np.testing.assert_allclose(out[kept], x[kept] / (1 - p), rtol=1e-12)
    return kept


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("p", [0.2, 0.5])
def test_training_masks(name, p):
    mindtorch.manual_seed(0)
    shape = SHAPES[name]
    x = mindtorch.tensor(np.random.default_rng(0).uniform(0.5, 1.5, shape)).requires_grad_()
    out = getattr(nn, name)(p)(x)
    kept = _mask(name, out.detach().numpy(), x.detach().numpy(), p)
    assert abs(kept.mean() - (1 - p)) < 0.08
    if name in FEATURE:  # whole channels go: the mask is constant past dim 1
        flat = kept.reshape(shape[0], shape[1], -1)
        assert np.all(flat == flat[..., :1])
    out.backward(mindtorch.ones_like(out))
    scale = 1 / (1 - p) if name.startswith("Dropout") else \
        ((1 - p) * (1 + p * 1.7580993408473766 ** 2)) ** -0.5
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, scale, 0.0), rtol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_training_extremes(name):
    x = mindtorch.tensor(np.random.default_rng(1).standard_normal(SHAPES[name]))
    close(getattr(nn, name)(0.0)(x), torch.from_numpy(x.numpy()), "float64")
    th_out = getattr(tnn, name)(1.0)(torch.from_numpy(x.numpy()))
    close(getattr(nn, name)(1.0)(x), th_out, "float64")


def test_same_seed_same_mask():
    x = mindtorch.ones(20, 20)
    mindtorch.manual_seed(3)
    first = nn.Dropout()(x)
    mindtorch.manual_seed(3)
    assert np.array_equal(nn.Dropout()(x).numpy(), first.numpy())


@pytest.mark.parametrize("name", ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"])
def test_inplace(name):
    a = mindtorch.ones(SHAPES[name], dtype=mindtorch.float64, requires_grad=True)
    x = a * 1
    out = getattr(nn, name)(0.5, inplace=True)(x)
    assert out is x
    assert set(np.unique(x.detach().numpy())) <= {0.0, 2.0}
    out.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), x.detach().numpy())


@pytest.mark.parametrize("name", ["AlphaDropout", "FeatureAlphaDropout"])
def test_alpha_dropout_ignores_inplace(name):
    x = mindtorch.ones(SHAPES[name], dtype=mindtorch.float64)
    out = getattr(nn, name)(0.5, inplace=True)(x)
    assert out is not x and np.all(x.numpy() == 1.0)


@pytest.mark.parametrize("name,rank", [("Dropout1d", 4), ("Dropout1d", 1), ("Dropout2d", 3),
                                       ("Dropout2d", 5), ("Dropout3d", 3), ("Dropout3d", 6)])
def test_unexpected_rank(name, rank):
    """Dropout1d refuses it; Dropout2d/3d warn (deprecated) and go on, as PyTorch's."""
    data = np.ones((2,) * rank)
    with warnings.catch_warnings(record=True) as th_warnings:
        warnings.simplefilter("always")
        try:
            getattr(tnn, name)()(torch.from_numpy(data))
        except RuntimeError as e:
            th_error = str(e)
        else:
            th_error = None
    with warnings.catch_warnings(record=True) as mt_warnings:
        warnings.simplefilter("always")
        if th_error is None:
            assert getattr(nn, name)()(mindtorch.tensor(data)).shape == data.shape
        else:
            with pytest.raises(RuntimeError) as mt_err:
                getattr(nn, name)()(mindtorch.tensor(data))
            assert str(mt_err.value) == th_error
    assert [str(w.message) for w in mt_warnings] == [str(w.message) for w in th_warnings]


def test_unbatched_feature_dropout_masks_channels():
    mindtorch.manual_seed(1)
    out = nn.Dropout1d(0.5)(mindtorch.ones(40, 6)).numpy()  # (C, L)
    assert np.all(out == out[:, :1]) and 0 < (out[:, 0] == 0).sum() < 40


def test_meta_device():
    for name in NAMES:
        x = mindtorch.empty(SHAPES[name], device="meta")
        out = getattr(nn, name)()(x)
        assert out.shape == SHAPES[name] and out.device.type == "meta"
