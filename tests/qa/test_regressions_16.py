"""Coordinator's regressions of the sixteenth session, each compared with PyTorch."""
import itertools

import mindtorch
import numpy as np
import pytest
from reference import outcome

torch = pytest.importorskip("torch")


def _running_stats(lib, cls, shape, momentum, dtype):
    """Three training forwards of a batch norm: its running statistics and their versions
    (ATen's kernels write them in place without a version bump)."""
    rng = np.random.default_rng(len(shape))
    m = getattr(lib.nn, cls)(shape[1], momentum=momentum).to(getattr(lib, dtype))
    x = lib.tensor(rng.standard_normal(shape)).to(getattr(lib, dtype))
    for _ in range(3):
        m(x)
    return [(t.double().tolist(), t._version) for t in (m.running_mean, m.running_var,
                                                         m.num_batches_tracked)]


@pytest.mark.parametrize("cls, shape", [("BatchNorm1d", (16, 6)), ("BatchNorm1d", (4, 6, 5)),
                                        ("BatchNorm2d", (3, 6, 4, 4))])
@pytest.mark.parametrize("momentum", [0.1, 0.3, None])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batch_norm_running_stats_in_place_without_version_bump(cls, shape, momentum, dtype):
    ours = _running_stats(mindtorch, cls, shape, momentum, dtype)
    theirs = _running_stats(torch, cls, shape, momentum, dtype)
    assert [v for _, v in ours] == [v for _, v in theirs]
    for (a, _), (b, _) in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6 if dtype == "float32" else 1e-13)


def _integer_update(op, dtype, other, alpha):
    def program(lib):
        t = lib.tensor([5, -7, 2 ** 30, 3], dtype=getattr(lib, dtype))
        if isinstance(other, tuple):
            other_ = lib.tensor(other[1], dtype=getattr(lib, other[0]))
        else:
            other_ = other
        r = getattr(t, op)(other_, **({} if alpha is None else {"alpha": alpha}))
        return r is t, str(t.dtype), t.tolist(), t._version
    return program


_OTHERS = (1, -3, 2 ** 31, 2 ** 40, 3 * 2 ** 62, 1.5, ("int64", [1, 2, 3, 4]),
           ("int32", [1, 2, 3, 4]), ("int64", [7]), ("float32", [1, 2, 3, 4]),
           ("int64", [2 ** 62, 2 ** 62, 1, 1]))


@pytest.mark.parametrize("op, dtype, other, alpha", [
    case for case in itertools.product(("add_", "sub_", "mul_"), ("int64", "int32"), _OTHERS,
                                       (None, 2, 2 ** 40, 0.5))
    if case[0] != "mul_" or case[3] is None])
def test_integer_in_place_arithmetic(op, dtype, other, alpha):
    # int32 / int64 add_, sub_, mul_ take the in-place kernels' one-pass path (a step
    # counter's add_(1)): wrapping on overflow, and every other case's error, as PyTorch's
    program = _integer_update(op, dtype, other, alpha)
    ours, theirs = outcome(lambda: program(mindtorch)), outcome(lambda: program(torch))
    assert str(ours).replace("mindtorch", "torch") == str(theirs)


_TARGET_LAYOUTS = {
    "channels_last": lambda t: t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
    "transposed": lambda t: t.transpose(2, 3).contiguous().transpose(2, 3),
    "sliced": lambda t: t[:, :, ::2],
    "contiguous": lambda t: t,
}


@pytest.mark.parametrize("layout", sorted(_TARGET_LAYOUTS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_loss_laid_out_as_target(layout, dtype):
    # PyTorch computes the loss in place into 1 - target: reduction='none' gives target's
    # layout (the cpu kernel gave a contiguous result)
    rng = np.random.default_rng(0)
    x, t = rng.standard_normal((2, 3, 4, 5)), rng.random((2, 3, 4, 5))

    def program(lib):
        target = _TARGET_LAYOUTS[layout](lib.tensor(t, dtype=getattr(lib, dtype)))
        input = lib.tensor(x, dtype=getattr(lib, dtype))[:, :, :target.shape[2]]
        return lib.nn.functional.binary_cross_entropy_with_logits(input, target,
                                                                  reduction="none")
    ours, theirs = program(mindtorch), program(torch)
    assert ours.stride() == theirs.stride()
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-7)


def _linear_operands(dtype, x_shape, bias_kind, transposed):
    rng = np.random.default_rng(len(x_shape))
    dt = getattr(mindtorch, dtype)
    x = mindtorch.tensor(rng.standard_normal(x_shape)).to(dt)
    w = mindtorch.tensor(rng.standard_normal((5, 4))).to(dt)
    if transposed:  # (an input and a weight laid out column-major: tied / transposed weights)
        x = x.transpose(-1, -2).contiguous().transpose(-1, -2) if x.ndim >= 2 else x
        w = w.t().contiguous().t()
    b = {"none": None, "1d": mindtorch.tensor(rng.standard_normal(5)).to(dt),
         "row": mindtorch.tensor(rng.standard_normal((1, 5))).to(dt),
         "strided": mindtorch.tensor(rng.standard_normal(10)).to(dt)[::2]}[bias_kind]
    return x, w, b


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("x_shape", [(4,), (3, 4), (2, 3, 4), (2, 1, 3, 4), (0, 4)])
@pytest.mark.parametrize("bias_kind", ["none", "1d", "row", "strided"])
@pytest.mark.parametrize("transposed", [False, True])
def test_no_grad_linear_kernel_is_the_decomposition(dtype, x_shape, bias_kind, transposed):
    # without autograd the cpu backend's linear kernel runs (the decomposition's NumPy calls
    # without its t() view and addmm dispatch): the same bits, dtype and strides as the
    # decomposition, and PyTorch's values
    from mindtorch._ops import OPS
    from mindtorch._ops.dispatch import _decomposition
    x, w, b = _linear_operands(dtype, x_shape, bias_kind, transposed)
    with mindtorch.no_grad():
        ours = mindtorch.nn.functional.linear(x, w, b)
        decomposed = _decomposition(OPS["linear"])(x, w, b)
    assert (ours.dtype, ours.shape, ours.stride()) == \
        (decomposed.dtype, decomposed.shape, decomposed.stride())
    assert ours.float().numpy().tobytes() == decomposed.float().numpy().tobytes()
    theirs = torch.nn.functional.linear(*(None if t is None else torch.from_numpy(
        t.float().numpy()).to(getattr(torch, dtype)) for t in (x, w, b)))
    half = dtype == "bfloat16"  # (a few bfloat16 ulps: PyTorch's bf16 gemm rounds its own way)
    np.testing.assert_allclose(ours.float().numpy(), theirs.float().numpy(),
                               rtol=2e-2 if half else 1e-5, atol=2e-2 if half else 1e-5)


@pytest.mark.parametrize("shape", [(2, 5, 3, 3), (8, 16, 8, 8), (32, 64, 16, 16), (4, 6, 10),
                                   (2, 3, 2, 3, 4), (3, 7, 33, 2)])
def test_batch_norm_float32_training_forward_to_the_bit(shape):
    # a float32 input laid out channels first (planes of more than one value): ATen's
    # contiguous kernel's statistics (float64 sums, the sum of squares stored in float32)
    # and its fused affine steps; the kernel's float32 row sums gave 10-40% of the outputs
    # and up to 80% of the means an ulp off
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)

    def run(lib):
        lib.set_num_threads(1)
        c = shape[1]
        out = lib.native_batch_norm(lib.tensor(x), lib.linspace(0.5, 2, c),
                                    lib.linspace(-1, 1, c), None, None, True, 0.1, 1e-5)
        return [t.numpy().tobytes() for t in out]
    threads = [(lib, lib.get_num_threads()) for lib in (mindtorch, torch)]
    try:
        assert run(mindtorch) == run(torch)
    finally:
        for lib, n in threads:
            lib.set_num_threads(n)


@pytest.mark.parametrize("shape, channels_last", [((8, 16, 8, 8), False), ((32, 64, 16, 16), False),
                                                  ((8, 16, 8, 8), True), ((64, 256), False),
                                                  ((4, 6, 10), False)])
def test_batch_norm_float32_evaluation_to_the_bit(shape, channels_last):
    # evaluation mode: shift = bias - mean * scale fused, as ATen's build contracts it (was
    # rounded twice: 10-20% of the outputs an ulp off)
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    mean, var = rng.standard_normal(shape[1]), rng.uniform(0.5, 2, shape[1])

    def run(lib):
        t = lib.tensor(x)
        if channels_last:
            t = t.contiguous(memory_format=lib.channels_last)
        c = shape[1]
        out = lib.nn.functional.batch_norm(t, lib.tensor(mean, dtype=lib.float32),
                                           lib.tensor(var, dtype=lib.float32),
                                           lib.linspace(0.5, 2, c), lib.linspace(-1, 1, c))
        return out.contiguous().numpy().tobytes()
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("shape, momentum", [((4, 6, 3, 3), 0.1), ((8, 16, 5, 7), 0.3),
                                             ((3, 5, 11), 0.05), ((2, 33, 4, 4), None)])
def test_batch_norm_float32_running_statistics_to_the_bit(shape, momentum):
    # ATen's float32 update: momentum and 1 - momentum rounded to float32, the products and
    # the mean's sum in float32, the variance's momentum * unbiased_var and sum in double
    rng = np.random.default_rng(sum(shape))
    batches = [(rng.standard_normal(shape) * 2 + 1).astype(np.float32) for _ in range(3)]

    def run(lib):
        m = getattr(lib.nn, "BatchNorm2d" if len(shape) == 4 else "BatchNorm1d")(
            shape[1], momentum=momentum)
        for x in batches:
            m(lib.tensor(x))
        return m.running_mean.numpy().tobytes(), m.running_var.numpy().tobytes()
    threads = [(lib, lib.get_num_threads()) for lib in (mindtorch, torch)]
    try:
        for lib, _ in threads:
            lib.set_num_threads(1)
        assert run(mindtorch) == run(torch)
    finally:
        for lib, n in threads:
            lib.set_num_threads(n)
