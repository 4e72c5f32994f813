"""Gradients of the fractional max pooling ops ("fractional_max_pool2d",
"fractional_max_pool3d" as ATen's, "functional_fractional_max_pool2d",
"functional_fractional_max_pool2d_with_indices", "functional_fractional_max_pool3d",
"functional_fractional_max_pool3d_with_indices") against PyTorch's, finite differences and
meta; second derivatives.  The samples are fixed (and not differentiated, as PyTorch)."""
import numpy as np
import pytest

import mindtorch
from gradutil import check_gradgrad, check_grads, const, randn
from mindtorch._ops import OPS


def samples(*shape):
    return const(np.random.default_rng(7).random(shape))


CASES = [
    ("functional_fractional_max_pool2d", lambda m, x, s: m.nn.functional.fractional_max_pool2d(
        x, 2, output_size=3, _random_samples=s), (1, 2, 6, 5), (1, 2, 2)),
    ("functional_fractional_max_pool2d_with_indices",
     lambda m, x, s: m.nn.functional.fractional_max_pool2d_with_indices(
         x, (2, 3), None, (0.5, 0.5), _random_samples=s)[0], (2, 7, 8), (1, 2, 2)),
    ("functional_fractional_max_pool3d", lambda m, x, s: m.nn.functional.fractional_max_pool3d(
        x, 2, output_size=(2, 2, 3), _random_samples=s), (1, 1, 4, 4, 5), (1, 1, 3)),
    ("functional_fractional_max_pool3d_with_indices",
     lambda m, x, s: m.nn.functional.fractional_max_pool3d_with_indices(
         x, 2, output_ratio=0.5, _random_samples=s)[0], (2, 5, 4, 5), (1, 2, 3)),
]


@pytest.mark.parametrize("name,fn,shape,sample_shape", CASES, ids=[c[0] for c in CASES])
def test_grads_like_torch(name, fn, shape, sample_shape):
    check_grads(fn, randn(*shape), samples(*sample_shape))


@pytest.mark.parametrize("n", [2, 3])
def test_aten_ops_like_torch(n):
    import torch
    shape, out = ((2, 3, 7, 6), (3, 4)) if n == 2 else ((2, 2, 5, 6, 5), (2, 3, 3))
    x = randn(*shape)
    s = np.random.default_rng(1).random((2, shape[1], n))
    xm = mindtorch.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    ym, im = OPS[f"fractional_max_pool{n}d"].call(xm, (2,) * n, out, mindtorch.tensor(s))
    yt, it = getattr(torch._C._nn, f"fractional_max_pool{n}d")(xt, (2,) * n, out,
                                                              torch.tensor(s))
    go = randn(*yt.shape)
    ym.backward(mindtorch.tensor(go))
    yt.backward(torch.tensor(go))
    np.testing.assert_array_equal(ym.detach().numpy(), yt.detach().numpy())
    np.testing.assert_array_equal(im.numpy(), it.numpy())
    np.testing.assert_array_equal(xm.grad.numpy(), xt.grad.numpy())


def test_second_derivatives():
    check_gradgrad(lambda m, x, s: m.nn.functional.fractional_max_pool2d(
        x, 2, output_size=3, _random_samples=s), randn(1, 2, 6, 5), samples(1, 2, 2))
