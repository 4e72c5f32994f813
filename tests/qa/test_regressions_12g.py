"""Regression tests for QA round 12g (float64 training parity), each against torch."""
import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _batch_norm_stats(L, x, channels_last, momentum):
    c = x.shape[1]
    X = L.tensor(x)
    if channels_last:
        X = X.contiguous(memory_format=L.channels_last)
    running_mean, running_var = L.zeros(c, dtype=L.float64), L.ones(c, dtype=L.float64)
    _, mean, invstd = L.native_batch_norm(X, None, None, running_mean, running_var, True,
                                          momentum, 1e-5)
    return tuple(t.numpy().copy() for t in (mean, invstd, running_mean, running_var))


@pytest.mark.parametrize("shape, channels_last", [((7, 5), False), ((29, 3), False),
                                                  ((64, 12), False), ((2100, 30), False),
                                                  ((9, 2, 7, 5), False), ((6, 4, 16, 1), False),
                                                  ((4, 3, 5, 3), False), ((40, 2, 3, 3), False),
                                                  ((5, 3, 4, 4), True), ((2, 6, 3, 1), True),
                                                  ((8, 16, 30, 30), True)])
def test_float64_batch_norm_statistics_bitwise(shape, channels_last):
    # the batch mean and sum of squares add each channel's values in ATen's order (one
    # after another; by thread chunk, squares fused, for 2-d and channels-last input; the
    # last square of an odd-length plane fused for contiguous input), so
    # BatchNorm's statistics stay bit-equal over training (were 1 ulp off in most
    # batches: BLAS row sums)
    x = np.random.default_rng(sum(shape)).standard_normal(shape) * 3 + 1
    ours = _batch_norm_stats(mindtorch, x, channels_last, 0.1)
    theirs = _batch_norm_stats(torch, x, channels_last, 0.1)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_float64_batch_norm_cumulative_average_training():
    def program(L):
        L.manual_seed(0)
        bn = L.nn.BatchNorm2d(3, momentum=None, dtype=L.float64)
        for _ in range(5):
            bn(L.randn(4, 3, 5, 5, dtype=L.float64) * 2 + 1)
        return bn.running_mean.numpy().copy(), int(bn.num_batches_tracked)
    ours, theirs = program(mindtorch), program(torch)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("shape", [(6, 3), (5, 3, 1), (4, 2, 9), (3, 4, 5, 5), (9, 3, 1, 1)])
def test_float64_batch_norm_affine_output_bitwise(shape):
    # beta = bias - mean * alpha and x * alpha + beta are both fused in ATen's float64
    # kernel; planes of one value (any rank) take its channels-last statistics
    g = np.random.default_rng(len(shape) * 10 + shape[0])
    x, w, b = (g.standard_normal(s) for s in (shape, shape[1], shape[1]))

    def program(L):
        t = [L.tensor(a) for a in (x, w, b)]
        rm, rv = L.zeros(shape[1], dtype=L.float64), L.ones(shape[1], dtype=L.float64)
        outs = L.native_batch_norm(*t, rm, rv, True, 0.1, 1e-5)
        return [a.numpy().copy() for a in (*outs, rm, rv)]
    for ours, theirs in zip(program(mindtorch), program(torch)):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(6, 3), (5, 3, 1), (4, 2, 9), (3, 4, 5, 5)])
def test_float64_batch_norm_eval_output_bitwise(shape, affine):
    # model.eval(): x * alpha + (bias - mean * alpha), both fused as in ATen's float64 kernel
    g = np.random.default_rng(shape[0] + len(shape))
    x, w, b, mean = (g.standard_normal(s) for s in (shape, shape[1], shape[1], shape[1]))
    var = g.random(shape[1]) + 0.5

    def program(L):
        params = (L.tensor(w), L.tensor(b)) if affine else (None, None)
        return L.nn.functional.batch_norm(L.tensor(x), L.tensor(mean), L.tensor(var),
                                          *params, training=False).numpy()
    np.testing.assert_array_equal(program(mindtorch), program(torch))
