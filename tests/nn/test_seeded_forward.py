"""Layers that draw in their forward pass, after a seed in both frameworks: the same
values bit for bit (and gradients where they follow from the draws), and the generator
left where PyTorch leaves it.  Inputs are exact (arange / linspace), so any difference is
in what is drawn, in which order, or how the draws become values."""
import mindtorch as mt
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _numpy(t):
    t = t.detach()
    return (t.float() if "bfloat16" in str(t.dtype) else t).numpy()


def same_draws(program):
    results = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        out = program(lib)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        results.append([_numpy(t) for t in out] + [_numpy(lib.rand(3))])
    want, got = results
    assert len(got) == len(want)
    for x, y in zip(want, got):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(y, x)


def _F(L):
    return L.nn.functional


def _rrelu_grad(L, dtype):
    x = L.linspace(-1, 1, 20, dtype=getattr(L, dtype)).requires_grad_()
    y = _F(L).rrelu(x, 0.1, 0.4, training=True)
    y.backward(L.ones_like(y))
    return y, x.grad


FORWARD = {
    "rrelu bfloat16": lambda L: _F(L).rrelu(L.linspace(-1, 1, 20).bfloat16(), training=True),
    "rrelu float64 bounds": lambda L: _F(L).rrelu(L.linspace(-2, 1, 17, dtype=L.float64),
                                                  0.2, 0.7, training=True),
    "rrelu_ in place": lambda L: _F(L).rrelu_(L.linspace(-1, 1, 10), training=True),
    "RReLU module": lambda L: L.nn.RReLU(0.05, 0.5)(L.linspace(-3, 3, 24).reshape(4, 6)),
    "dropout dtypes": lambda L: [_F(L).dropout(L.ones(20, dtype=getattr(L, d)), 0.3)
                                 for d in ("float32", "float64", "float16", "bfloat16")],
    "dropout 0-dim, empty, p=1": lambda L: [_F(L).dropout(L.tensor(2.0), 0.5),
                                            _F(L).dropout(L.ones(0, 3), 0.5),
                                            _F(L).dropout(L.ones(5), 1.0)],
    "dropout1d/2d/3d without batch": lambda L: [_F(L).dropout1d(L.ones(3, 4), 0.5),
                                                _F(L).dropout2d(L.ones(3, 4, 4), 0.5),
                                                _F(L).dropout3d(L.ones(3, 2, 2, 2), 0.5)],
    "alpha dropouts": lambda L: [_F(L).alpha_dropout(L.ones(30, dtype=L.float64), 0.4, True),
                                 _F(L).feature_alpha_dropout(L.ones(3, 4), 0.4, True)],
    "native_dropout": lambda L: L.native_dropout(L.ones(20), 0.3, True),
    "fractional_max_pool2d float64": lambda L: _F(L).fractional_max_pool2d(
        L.arange(2 * 3 * 7 * 7, dtype=L.float64).reshape(2, 3, 7, 7) % 11, 2,
        output_ratio=(0.5, 0.5), return_indices=True),
    "fractional_max_pool3d": lambda L: _F(L).fractional_max_pool3d(
        L.arange(2 * 125.0).reshape(1, 2, 5, 5, 5) % 7, 2, output_size=3),
    "gumbel_softmax hard": lambda L: _F(L).gumbel_softmax(
        L.linspace(0, 1, 12, dtype=L.float64).reshape(3, 4), hard=True, dim=1),
}


@pytest.mark.parametrize("name", FORWARD)
def test_forward_draws(name):
    same_draws(FORWARD[name])


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_rrelu_values_and_gradient(dtype):
    same_draws(lambda L: _rrelu_grad(L, dtype))


def _dropout_grad(L, dtype, p):
    x = L.linspace(-1, 1, 40, dtype=getattr(L, dtype)).reshape(5, 8).t().requires_grad_()
    y = _F(L).dropout(x, p)
    y.backward(L.linspace(0, 2, 40, dtype=getattr(L, dtype)).reshape(8, 5))
    return y, x.grad


@pytest.mark.parametrize("p", [0.1, 0.3, 0.7])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_dropout_values_and_gradient(dtype, p):
    """noise of the input's dtype and layout (a transposed input here), divided by 1 - p
    in that dtype, times the input: 16-bit values round as PyTorch's"""
    same_draws(lambda L: _dropout_grad(L, dtype, p))


def _layouts(L):
    x = L.linspace(-1, 1, 48).reshape(2, 3, 2, 4)
    return [x.to(memory_format=L.channels_last), x.transpose(1, 3), x[:, :1].expand(2, 3, 2, 4)]


LAYOUTS = {
    "dropout": lambda L, x: _F(L).dropout(x, 0.4),
    "alpha_dropout": lambda L, x: _F(L).alpha_dropout(x, 0.4, True),
    "feature_alpha_dropout": lambda L, x: _F(L).feature_alpha_dropout(x, 0.4, True),
    "dropout2d": lambda L, x: _F(L).dropout2d(x, 0.4),
    "bernoulli(probabilities)": lambda L, x: L.bernoulli(x.abs()),
    "Tensor.bernoulli": lambda L, x: x.abs().bernoulli(),
    "bernoulli(x, p)": lambda L, x: L.bernoulli(x, 0.3),
    "gumbel_softmax hard": lambda L, x: _F(L).gumbel_softmax(x, hard=True),
    "rand_like / randn_like / randint_like": lambda L, x: [
        L.rand_like(x), L.randn_like(x), L.randint_like(x, 10)],
    "alpha_dropout in place": lambda L, x: _F(L).alpha_dropout(
        x.clone(memory_format=L.preserve_format), 0.4, True, inplace=True),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_noise_follows_the_input_layout(name):
    """element-wise noise laid out as the input is drawn in its memory order (channels-last,
    transposed, expanded inputs); per-channel noise (N, C, 1, 1), bernoulli's and
    gumbel_softmax's results are contiguous, drawn in logical order"""
    def program(L):
        out = []
        for x in _layouts(L):
            y = LAYOUTS[name](L, x)
            out += y if isinstance(y, list) else [y]
        return out
    same_draws(program)
