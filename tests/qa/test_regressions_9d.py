"""QA round 9d (vision models): regressions, each compared with PyTorch."""
import pytest
from reference import same_errors


@pytest.mark.parametrize("n", [2, 3])
def test_fractional_max_pool_indices_plain_tuple(n):
    # F.fractional_max_pool{n}d(return_indices=True) is a plain tuple in PyTorch
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(1, 2, *(7,) * n, dtype=lib.float64)
        pool = getattr(lib.nn.functional, f"fractional_max_pool{n}d")
        r = pool(x, 2, output_size=3, return_indices=True)
        return type(r).__name__, [t.tolist() for t in r]
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("op,arg,shape", [("pixel_shuffle", 2, (2, 8, 3, 4)),
                                          ("pixel_unshuffle", 2, (2, 2, 4, 6)),
                                          ("channel_shuffle", 2, (2, 6, 3, 4)),
                                          ("pixel_shuffle", 2, (2, 8, 1, 1))])
@pytest.mark.parametrize("channels_last", [False, True])
def test_shuffles_keep_channels_last(op, arg, shape, channels_last):
    # PyTorch's pixel / channel shuffles return channels_last results for such inputs
    def program(lib):
        x = lib.arange(float(lib.Size(shape).numel()), dtype=lib.float64).reshape(shape)
        if channels_last:
            x = x.to(memory_format=lib.channels_last)
        x.requires_grad_(True)
        y = getattr(lib.nn.functional, op)(x, arg)
        (y * y).sum().backward()
        return (y.stride(), y.is_contiguous(memory_format=lib.channels_last), y.tolist(),
                x.grad.tolist())
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("pad", [(1, 1, 1, 1), (1, -1, 2, 1), (-1, -1, -2, -1), (1,) * 8, (2, 0)])
@pytest.mark.parametrize("fmt", ["channels_last", "contiguous_format", "channels_last_3d"])
def test_constant_pad_keeps_memory_format(pad, fmt):
    # F.pad(mode="constant") allocates in the layout its input suggests, as ATen's
    def program(lib):
        shape = (2, 3, 4, 5, 3) if fmt == "channels_last_3d" else (2, 3, 4, 5)
        x = lib.arange(float(lib.Size(shape).numel()), dtype=lib.float64).reshape(shape)
        x = x.to(memory_format=getattr(lib, fmt)).requires_grad_(True)
        y = lib.nn.functional.pad(x, pad, value=-1.5)
        (y * y).sum().backward()
        return y.stride(), y.tolist(), x.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("channels_last", [False, True])
def test_max_unpool2d_keeps_channels_last(channels_last):
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(2, 3, 6, 4, dtype=lib.float64)
        if channels_last:
            x = x.to(memory_format=lib.channels_last)
        y, i = lib.nn.functional.max_pool2d(x, 2, return_indices=True)
        y.requires_grad_(True)
        out = lib.nn.functional.max_unpool2d(y, i, 2, output_size=(7, 5))
        (out * out).sum().backward()
        return out.stride(), out.tolist(), y.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("case", range(4))
def test_conv_nd_repeats_single_params_before_rank_check(case):
    # conv{n}d's int[n] arguments: one value is repeated to n before `convolution` checks
    # them against the weight's rank (a weight of the wrong rank names the stride first)
    def program(lib):
        F = lib.nn.functional
        x = lib.ones(2, 4, 7, 6, dtype=lib.float64)
        return [lambda: F.conv2d(x, lib.ones(2, 3, 3)),
                lambda: F.conv_transpose2d(x, lib.ones(4, 3, 3)),
                lambda: F.conv1d(x[0], lib.ones(2, 3, 3, 3)),
                lambda: F.conv2d(x, lib.ones(2, 4, 3, 3), stride=[2], padding=(1,)).tolist()
                ][case]()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
def test_addcmul_layout_follows_self(dtype, op):
    # a contiguous self with channels_last tensors: PyTorch's result is contiguous
    def program(lib):
        lib.manual_seed(0)
        t = lib.randn(2, 3, 4, 5).to(getattr(lib, dtype))
        cl = t.to(memory_format=lib.channels_last)
        r = getattr(lib, op)(t, cl, cl.abs() + 1, value=0.5)
        r2 = getattr(lib, op)(cl, t, t.abs() + 1, value=0.5)
        return r.stride(), r2.stride(), r.float().tolist(), r2.float().tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


_FRACTIONAL_BAD = [  # (n, input shape, kernel, output size, samples shape, samples float64)
    (2, (1, 1, 2, 2), (1, 1), (3, 3), (1, 1, 2), True),
    (2, (1, 1, 2, 2), (1, 1), (3, 3), (1, 1), False),
    (2, (1, 1, 0, 2), (1, 1), (1, 1), (1, 1, 2), True),
    (2, (1, 1, 2, 2, 2), (1, 1), (1, 1), (1, 3, 2), False),
    (2, (1, 1, 2, 2), (1, 1), (1, 1), (1, 3, 2), False),
    (3, (1, 1, 2, 2, 2), (1, 1, 1), (3, 3, 3), (1, 1), False),
    (3, (1, 1, 2, 2, 0), (1, 1, 1), (1, 1, 1), (1, 1, 3), True),
    (3, (1, 1, 2, 2, 2, 2), (1, 1, 1), (1, 1, 1), (1, 1, 3), False),
]


@pytest.mark.parametrize("case", _FRACTIONAL_BAD)
def test_fractional_max_pool_checks_samples_last(case):
    # ATen checks the input's rank, sizes and the pool sizes before the random samples
    n, shape, kernel, out, samples, f64 = case

    def program(lib):
        x = lib.ones(shape)
        s = lib.rand(samples, dtype=lib.float64 if f64 else lib.float32)
        return getattr(lib.nn.functional, f"fractional_max_pool{n}d")(
            x, kernel, output_size=out, _random_samples=s)
    same_errors(program)


def test_fractional_max_pool_module_rank_error():
    same_errors(lambda lib: lib.nn.FractionalMaxPool2d(1, output_size=1)(lib.ones(1, 1, 2, 2, 2, 2)))


@pytest.mark.parametrize("op,shape", [("avg_pool2d", (1, 2, 2, 2, 2)), ("avg_pool2d", (2, 2)),
                                      ("avg_pool2d", (1, 0, 2, 2)), ("avg_pool3d", (1,) * 6),
                                      ("max_pool2d", (1, 2, 2, 2, 2)), ("lp_pool2d", (1,) * 5),
                                      ("adaptive_max_pool2d", (2,)),
                                      ("adaptive_max_pool2d", (1, 2, 2, 2, 2)),
                                      ("adaptive_max_pool3d", (2, 2, 2)),
                                      ("adaptive_avg_pool2d", (2, 2))])
def test_pooling_rank_messages(op, shape):
    def program(lib):
        f = getattr(lib.nn.functional, op)
        x = lib.ones(shape)
        return f(x, 2, 1) if op == "lp_pool2d" else f(x, 1)
    same_errors(program)


_NORM_DTYPES = ["float32", "float64", "float16", "int64", None]


def _norm_call(F, op, x, w, b):
    if op == "layer_norm":
        return F.layer_norm(x, (2,), w, b)
    if op == "group_norm":
        return F.group_norm(x, 1, w, b)
    if op == "batch_norm":
        return F.batch_norm(x, b, w, w, b, training=False)
    return F.instance_norm(x, None, None, w, b)


@pytest.mark.parametrize("op", ["layer_norm", "group_norm", "batch_norm", "instance_norm"])
@pytest.mark.parametrize("input_dtype", _NORM_DTYPES[:-1])
def test_norm_mixed_dtype_rule(op, input_dtype):
    if op == "batch_norm" and input_dtype == "int64":
        pytest.skip("integer input with no running stats in eval mode: check order differs")
    # PyTorch's CPU rule: the first parameter's dtype decides whether the call is mixed
    # (then all float32 and a 16-bit input); otherwise, after the kernel's dtype dispatch,
    # every parameter must have the input's dtype ("expected scalar type ... but found")
    def program(lib):
        F, out = lib.nn.functional, []
        x = lib.ones(2, 2, 2, dtype=getattr(lib, input_dtype))
        for w_dt in _NORM_DTYPES:
            for b_dt in _NORM_DTYPES:
                w = None if w_dt is None else lib.ones(2, dtype=getattr(lib, w_dt))
                b = None if b_dt is None else lib.zeros(2, dtype=getattr(lib, b_dt))
                try:
                    out.append(str(_norm_call(F, op, x, w, b).dtype))
                except Exception as e:  # noqa: BLE001 (the error is what is compared)
                    out.append(f"{type(e).__name__}: {e}")
        return out
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("x_dt", ["complex64", "complex128", "float64", "int64", "float16"])
@pytest.mark.parametrize("w_dt", ["float32", "complex64"])
@pytest.mark.parametrize("op", ["conv2d", "conv_transpose2d", "conv1d"])
def test_conv_complex_type_mismatch(x_dt, w_dt, op):
    # a complex input with other-typed parameters: PyTorch's complex path names both types
    def program(lib):
        n = 1 if op == "conv1d" else 2
        x = lib.ones((1, 2) + (2,) * n, dtype=getattr(lib, x_dt))
        w = lib.ones((2, 2) + (1,) * n, dtype=getattr(lib, w_dt))
        return getattr(lib.nn.functional, op)(x, w).tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["complex64", "bfloat16", "bool", "uint8", "float16"])
def test_embedding_index_type_names(dtype):
    # Tensor::toString(): torch.<X>Tensor for the legacy types, CPU<X>Type for the others
    same_errors(lambda lib: lib.nn.functional.embedding(
        lib.ones(2).to(getattr(lib, dtype)), lib.ones(3, 2)))
