"""Regression tests for QA round 16b (vision ops and CNN building blocks), each against
torch."""
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _fused_build():
    from mindtorch_cpu.kernels._grid_numpy import fused_sums
    return fused_sums()


# (PyTorch's AVX2 / AVX-512 builds fuse multiply-adds, which the bit-exact kernels follow;
# its DEFAULT build does not)
fused_build = pytest.mark.skipif(not _fused_build(), reason="PyTorch's DEFAULT cpu kernels")


def _same_values(program, rtol=1e-12, atol=1e-12):
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        for a, b in zip(ours[1], theirs[1], strict=True):
            assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
            np.testing.assert_allclose(np.asarray(a.detach().double().tolist()),
                                       b.detach().double().numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "int64"])
@pytest.mark.parametrize("dim", [1, 2, 3])
@pytest.mark.parametrize("groups", [1, 2])
def test_conv_zero_dilation_message_names_the_dilation(dtype, dim, groups):
    def program(L):
        dt = getattr(L, dtype)
        x = L.ones((1, 2) + (5,) * dim, dtype=dt)
        w = L.ones((2, 2 // groups) + (3,) * dim, dtype=dt)
        return getattr(L.nn.functional, f"conv{dim}d")(x, w, dilation=0, groups=groups)
    same_errors(program)


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("indices", [[0, 50, 40, 2, 1, 3, 0, 5], [0, 50, 40, 2, 1, 33, 0, 5],
                                     [0, 1, 40, 2, 35, 3, 0, 50]])
def test_max_unpool_reports_the_last_invalid_index(dim, indices):
    def program(L):
        shape = (1, 2) + (1,) * (dim - 2) + (2, 2)
        size = (2,) * (dim - 2) + (4, 4)
        return L.nn.functional.max_unpool2d(L.ones(*shape), L.tensor(indices).reshape(shape), 2,
                                            output_size=size) if dim == 2 else \
            L.nn.functional.max_unpool3d(L.ones(*shape), L.tensor(indices).reshape(shape), 2,
                                         output_size=size)
    same_errors(program)


def _layout(t):
    return tuple(t.shape), t.stride()


@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64"])
@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("shape", [(2, 3, 4, 4), (2, 1, 4, 4), (1, 3, 1, 1)])
@pytest.mark.parametrize("scale", [0.5, 1.0, (1.0, 2.0)])
def test_antialiased_interpolate_keeps_channels_last(dtype, mode, shape, scale):
    def program(L):
        x = L.tensor(np.arange(np.prod(shape)).reshape(shape) % 200).to(getattr(L, dtype))
        x = x.to(memory_format=L.channels_last)
        out = L.nn.functional.interpolate(x, scale_factor=scale, mode=mode, antialias=True)
        return _layout(out), out.double().sum().item()
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert ours[1][0] == theirs[1][0]
        assert ours[1][1] == pytest.approx(theirs[1][1], rel=1e-6)


@pytest.mark.parametrize("dtype", ["uint8", "int64", "int32", "bool", "float16"])
@pytest.mark.parametrize("name,dim", [("adaptive_avg_pool2d", 2), ("adaptive_max_pool2d", 2),
                                      ("avg_pool2d", 2), ("max_pool2d", 2), ("max_pool3d", 3),
                                      ("avg_pool3d", 3), ("adaptive_avg_pool3d", 3)])
@pytest.mark.parametrize("lead", [(2, 3), (1, 1)])
def test_pooling_dtype_errors_name_the_channels_last_kernel(dtype, name, dim, lead):
    def program(L):
        fmt = L.channels_last if dim == 2 else L.channels_last_3d
        x = L.ones(lead + (4,) * dim, dtype=getattr(L, dtype)).to(memory_format=fmt)
        out = getattr(L.nn.functional, name)(x, 2)
        return _layout(out)
    ours, theirs = same_errors(program)
    assert ours == theirs


_LINEAR_CASES = [((2, 1, 9, 8), (100, 90), False), ((2, 3, 9, 8), (100, 90), False),
                 ((2, 4, 9, 8), (20, 17), False), ((2, 12, 9, 8), (7, 3), True),
                 ((2, 19, 9, 8), (100, 90), True), ((2, 2, 9, 8), (20, 17), True),
                 ((2, 16, 5, 4, 6), (12, 10, 9), True), ((2, 3, 5, 4, 6), (3, 4, 5), False),
                 ((2, 5, 9), (20,), False), ((2, 64, 16, 16), (32, 32), False),
                 ((1, 8, 30, 40), (64, 80), True)]


@fused_build
@pytest.mark.parametrize("shape,size,channels_last", _LINEAR_CASES)
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("numba_loops", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linear_upsampling_is_bit_exact(shape, size, channels_last, align_corners,
                                        numba_loops, dtype, monkeypatch):
    """PyTorch's generic kernel (one dim at a time) and its channels-last kernel (corner
    sums: vector lanes and scalar tail) fuse multiply-adds: the same bits."""
    from mindtorch_cpu.kernels import _jit
    monkeypatch.setattr(_jit, "MIN_SIZE", 0 if numba_loops else 1 << 40)
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0 if numba_loops else 1 << 40)
    mode = {3: "linear", 4: "bilinear", 5: "trilinear"}[len(shape)]
    data = np.random.default_rng(0).standard_normal(shape).astype(dtype)

    def program(L):
        x = L.tensor(data)
        if channels_last:
            x = x.contiguous(memory_format=L.channels_last if len(shape) == 4 else
                             L.channels_last_3d)
        return L.nn.functional.interpolate(x, size=size, mode=mode,
                                           align_corners=align_corners)
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@fused_build
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("size", [(7, 3), (100, 90), (13, 50), (40, 40)])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("numba_loops", [False, True])
def test_bicubic_upsampling_is_bit_exact(dtype, size, align_corners, numba_loops, monkeypatch):
    """The cubic weights' polynomials and the per-dim sums fuse multiply-adds as PyTorch's
    compiled kernel does."""
    from mindtorch_cpu.kernels import _jit
    monkeypatch.setattr(_jit, "MIN_SIZE", 0 if numba_loops else 1 << 40)
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0 if numba_loops else 1 << 40)
    data = np.random.default_rng(1).standard_normal((2, 3, 13, 11))

    def program(L):
        x = L.tensor(data).to(getattr(L, dtype))
        return L.nn.functional.interpolate(x, size=size, mode="bicubic",
                                           align_corners=align_corners).double()
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@fused_build
@pytest.mark.parametrize("mode", ["linear", "nearest", "nearest-exact"])
@pytest.mark.parametrize("shape,kw", [((2, 3, 9, 8), {"scale_factor": 2.0}),
                                      ((2, 8, 9, 8), {"size": (50, 70)}),
                                      ((2, 5, 5, 4, 6), {"scale_factor": 0.6}),
                                      ((2, 5, 30), {"scale_factor": 3.0})])
@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("numba_loops", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_upsampling_gradient_is_bit_exact(mode, shape, kw, channels_last, numba_loops, dtype,
                                          monkeypatch):
    """The gradient adds each output point's corners (nearest: its one source) in raster
    order, with fused multiply-adds, as PyTorch's backward loops."""
    from mindtorch_cpu.kernels import _jit
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0 if numba_loops else 1 << 40)
    rng = np.random.default_rng(2)
    data = rng.standard_normal(shape).astype(dtype)
    if mode == "linear":
        mode = {3: "linear", 4: "bilinear", 5: "trilinear"}[len(shape)]

    def program(L):
        x = L.tensor(data)
        if channels_last and x.dim() > 3:
            x = x.contiguous(memory_format=L.channels_last if x.dim() == 4 else
                             L.channels_last_3d)
        x.requires_grad_(True)
        out = L.nn.functional.interpolate(x, mode=mode, **kw)
        g = L.tensor(np.random.default_rng(3).standard_normal(tuple(out.shape))).to(x.dtype)
        return L.autograd.grad(out, x, g)[0]
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape,pad", [((2, 3, 7), (3, 2)), ((2, 3, 7, 6), (3, 2, 1, 4)),
                                       ((2, 3, 4, 7, 6), (3, 2, 1, 2, 2, 1)),
                                       ((2, 5, 20, 20), (4, 4, 4, 4))])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_padding_gradient_sums_in_pytorch_order(mode, shape, pad, dtype):
    """Reflection / replication padding gradients add the output's cells into the input's
    in raster order (in the gradient's dtype), as PyTorch's backward loops."""
    rng = np.random.default_rng(4)
    data = rng.standard_normal(shape)

    def program(L):
        x = L.tensor(data).to(getattr(L, dtype)).requires_grad_(True)
        out = L.nn.functional.pad(x, pad, mode=mode)
        g = L.tensor(np.random.default_rng(5).standard_normal(tuple(out.shape)))
        return L.autograd.grad(out, x, g.to(x.dtype))[0].double()
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


def _pool_gradient(name, shape, dtype, channels_last, **kw):
    def program(L):
        x = L.tensor(np.random.default_rng(6).standard_normal(shape)).to(getattr(L, dtype))
        if channels_last:
            x = x.contiguous(memory_format=L.channels_last if len(shape) == 4 else
                             L.channels_last_3d)
        x.requires_grad_(True)
        out = getattr(L.nn.functional, name)(x, **kw)
        g = L.tensor(np.random.default_rng(7).standard_normal(tuple(out.shape)))
        return L.autograd.grad(out, x, g.to(x.dtype))[0]
    return program


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 17), (2, 8, 11, 10), (2, 3, 7, 6, 5)])
@pytest.mark.parametrize("kw", [{"kernel_size": 3, "stride": 1, "padding": 1},
                                {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
                                {"kernel_size": 4, "stride": 3, "padding": 2,
                                 "count_include_pad": False, "ceil_mode": True}])
@pytest.mark.parametrize("channels_last", [False, True])
def test_avg_pool_gradient_adds_overlapping_windows_in_output_order(dtype, shape, kw,
                                                                    channels_last):
    name = f"avg_pool{len(shape) - 2}d"
    ours, theirs = same_errors(_pool_gradient(name, shape, dtype, channels_last and
                                              len(shape) > 3, **kw))
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 3, 17), (2, 8, 11, 10), (2, 3, 7, 6, 5)])
@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("numba_loops", [False, True])
def test_adaptive_avg_pool_gradient_divides_then_adds_in_output_order(dtype, shape, size,
                                                                      numba_loops, monkeypatch):
    from mindtorch_cpu.kernels import _jit
    monkeypatch.setattr(_jit, "EARLY_MIN_SIZE", 0 if numba_loops else 1 << 40)
    name = f"adaptive_avg_pool{len(shape) - 2}d"
    ours, theirs = same_errors(_pool_gradient(name, shape, dtype, False, output_size=size))
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@fused_build
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [((2, 3, 5, 6), (2, 4, 7, 2)), ((2, 8, 30, 40), (2, 33, 37, 2))])
def test_bilinear_grid_sample_sums_with_fused_multiply_adds(dtype, padding_mode, align_corners,
                                                            size):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(size[0]).astype(dtype)
    g = rng.uniform(-1.3, 1.3, size[1]).astype(dtype)

    def program(L):
        return L.nn.functional.grid_sample(L.tensor(x), L.tensor(g), padding_mode=padding_mode,
                                           align_corners=align_corners)
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())


@fused_build
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,kw", [((2, 3, 5, 4, 6), {"size": (50, 70, 30)}),
                                      ((2, 3, 5, 4, 6),
                                       {"size": (100, 90, 30), "align_corners": True}),
                                      ((2, 3, 9), {"scale_factor": 2.0})])
def test_16_bit_linear_upsampling_sums_in_float32_with_fused_multiply_adds(dtype, shape, kw):
    data = np.random.default_rng(9).standard_normal(shape)

    def program(L):
        x = L.tensor(data).to(getattr(L, dtype))
        mode = {3: "linear", 5: "trilinear"}[len(shape)]
        return L.nn.functional.interpolate(x, mode=mode, **kw).double()
    ours, theirs = same_errors(program)
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())
