"""Gradients of "functional_linear_cross_entropy" (input, linear weight and bias, class
probabilities as targets) against PyTorch's, finite differences and meta; second
derivatives."""
import numpy as np

from gradutil import check_gradgrad, check_grads, const, randn


def test_grads_like_torch():
    target = const(np.array([0, 3, 1], dtype=np.int64))
    check_grads(lambda m, x, w, b, t: m.nn.functional.linear_cross_entropy(
        x, w, t, linear_bias=b, label_smoothing=0.2), randn(3, 4), randn(5, 4), randn(5),
        target)
    check_grads(lambda m, x, w, p: m.nn.functional.linear_cross_entropy(
        x, w, p.softmax(1), reduction="none"), randn(3, 4), randn(5, 4), randn(3, 5))


def test_second_derivatives():
    target = const(np.array([2, 0], dtype=np.int64))
    check_gradgrad(lambda m, x, w, t: m.nn.functional.linear_cross_entropy(x, w, t),
                   randn(2, 3), randn(4, 3), target)
