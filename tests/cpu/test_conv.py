"""Convolutions against PyTorch: conv1d/2d/3d, conv_transpose1d/2d/3d, torch.convolution,
convolution_backward, F.unfold / F.fold (values, dtypes, result strides, errors), and the
meta device's shapes."""
import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import mindtorch
import mindtorch.nn.functional as MF
from mindtorch._ops import OPS
from reference import assert_same, same_error, to_torch

RNG = np.random.default_rng(0)
TOL = {"float16": dict(rtol=2e-3, atol=2e-3), "bfloat16": dict(rtol=2e-2, atol=2e-2)}


def _data(shape, dtype):
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        return RNG.standard_normal(shape)
    if dtype == "complex64":
        return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
    if dtype == "bool":
        return RNG.standard_normal(shape) > 0
    return RNG.integers(-4, 5, shape)


def _pair(shape, dtype, layout="contiguous"):
    """(mindtorch, torch) tensors of `shape`; layout "transposed" makes them non-contiguous
    (last two dims swapped in memory), "sliced" a view of every other element."""
    if layout == "transposed" and len(shape) >= 2:
        shape = shape[:-2] + shape[:-3:-1]
    elif layout == "sliced":
        shape = shape[:-1] + (2 * shape[-1],)
    a = mindtorch.tensor(_data(shape, dtype)).to(getattr(mindtorch, dtype))
    t = to_torch(a)
    if layout == "transposed" and len(shape) >= 2:
        a, t = a.transpose(-1, -2), t.transpose(-1, -2)
    elif layout == "sliced":
        a, t = a[..., ::2], t[..., ::2]
    return a, t


def _compare(fn, *specs, dtype="float32", check_stride=True, **kwargs):
    """fn(F, *tensors, **kwargs) with mindtorch and torch: same values, dtype, shape and
    (contiguous) strides.  specs: (shape, layout) or shape, or None (an absent bias)."""
    pairs = [None if s is None else _pair(s[0], dtype, s[1]) if isinstance(s[0], tuple)
             else _pair(s, dtype) for s in specs]
    m = fn(MF, *[p and p[0] for p in pairs], **kwargs)
    t = fn(TF, *[p and p[1] for p in pairs], **kwargs)
    assert_same(m, t, check_stride=check_stride, **TOL.get(dtype, {}))


FLOATS = ["float32", "float64", "float16", "bfloat16", "complex64"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]

CONV = [
    # (id, n, input shape, weight shape, bias, kwargs)
    ("1d", 1, (2, 4, 7), (6, 2, 3), True, dict(stride=2, padding=1, groups=2)),
    ("1d_dilated", 1, (1, 3, 9), (2, 3, 2), False, dict(dilation=3, padding=(2,))),
    ("1d_unbatched", 1, (3, 6), (2, 3, 2), True, {}),
    ("2d", 2, (2, 4, 5, 6), (6, 2, 3, 2), True,
     dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)),
    ("2d_1x1", 2, (2, 3, 4, 4), (5, 3, 1, 1), True, {}),
    ("2d_depthwise", 2, (1, 3, 5, 5), (6, 1, 3, 3), True, dict(groups=3, padding=1)),
    ("2d_unbatched", 2, (3, 5, 4), (2, 3, 2, 2), False, dict(stride=2)),
    ("2d_same", 2, (2, 2, 5, 6), (3, 2, 3, 3), True, dict(padding="same")),
    ("2d_same_even", 2, (1, 2, 5, 6), (3, 2, 2, 4), False, dict(padding="same", dilation=(1, 3))),
    ("2d_same_unbatched", 2, (2, 4, 4), (3, 2, 2, 2), True, dict(padding="same")),
    ("2d_valid", 2, (2, 2, 5, 6), (3, 2, 3, 3), False, dict(padding="valid", stride=2)),
    ("2d_kernel_is_input", 2, (2, 2, 3, 4), (3, 2, 3, 4), True, {}),
    ("3d", 3, (1, 2, 4, 5, 4), (4, 1, 2, 3, 2), True, dict(padding=(1, 0, 1), groups=2)),
    ("3d_unbatched", 3, (2, 3, 3, 4), (2, 2, 2, 2, 2), False, dict(stride=(1, 2, 1))),
]


@pytest.mark.parametrize("n,xs,ws,bias,kwargs", [c[1:] for c in CONV], ids=[c[0] for c in CONV])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.filterwarnings("ignore:Using padding='same'")
def test_conv(n, xs, ws, bias, kwargs, dtype):
    conv = f"conv{n}d"
    _compare(lambda F, x, w, b: getattr(F, conv)(x, w, b, **kwargs), xs, ws,
             (ws[0],) if bias else None, dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS[2:] + INTS)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_dtypes(n, dtype):
    xs, ws = (2, 4) + (5, 4, 3)[:n], (4, 2) + (2, 3, 1)[:n]
    _compare(lambda F, x, w, b: getattr(F, f"conv{n}d")(x, w, b, padding=1, groups=2), xs, ws,
             (4,), dtype=dtype)


def test_conv_integers_wrap_as_torch():
    """Integer convolutions wrap around in the input's width, as torch's."""
    for dtype in (torch.int16, torch.uint8, torch.int32):
        x = (torch.arange(2 * 4 * 6 * 6).reshape(2, 4, 6, 6) * 1000).to(dtype)
        w = torch.full((3, 4, 3, 3), 77, dtype=dtype)
        m = MF.conv2d(mindtorch.from_numpy(x.numpy()), mindtorch.from_numpy(w.numpy()))
        assert_same(m, TF.conv2d(x, w))


@pytest.mark.parametrize("layout", ["transposed", "sliced"])
def test_conv_noncontiguous(layout):
    """(Results are contiguous: torch's channels-last results of channels-last-like inputs
    are not reproduced.)"""
    _compare(lambda F, x, w, b: F.conv2d(x, w, b, padding=1, stride=(1, 2)),
             ((2, 3, 5, 6), layout), ((4, 3, 3, 2), layout), ((4,), "sliced"),
             check_stride=False)
    _compare(lambda F, x, w: F.conv_transpose1d(x, w, stride=2), ((2, 3, 5), layout),
             ((3, 2, 3), layout), check_stride=False)


CONV_T = [
    # (id, n, input shape, weight shape, bias, kwargs)
    ("1d", 1, (2, 4, 5), (4, 3, 3), True,
     dict(stride=2, padding=1, output_padding=1, groups=2)),
    ("1d_dilation_output_padding", 1, (1, 2, 4), (2, 1, 2), False,
     dict(stride=1, dilation=3, output_padding=2)),
    ("1d_unbatched", 1, (2, 5), (2, 3, 2), True, {}),
    ("2d", 2, (2, 4, 3, 4), (4, 3, 3, 2), True,
     dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2, dilation=(1, 2))),
    ("2d_stride1_padding", 2, (1, 3, 4, 4), (3, 2, 3, 3), True, dict(padding=1)),
    ("2d_unbatched", 2, (2, 3, 3), (2, 2, 2, 2), False, dict(stride=2)),
    ("3d", 3, (1, 2, 2, 3, 3), (2, 2, 2, 2, 1), True, dict(stride=2, padding=(0, 1, 0))),
]


@pytest.mark.parametrize("n,xs,ws,bias,kwargs", [c[1:] for c in CONV_T],
                         ids=[c[0] for c in CONV_T])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv_transpose(n, xs, ws, bias, kwargs, dtype):
    conv = f"conv_transpose{n}d"
    cout = ws[1] * kwargs.get("groups", 1)
    _compare(lambda F, x, w, b: getattr(F, conv)(x, w, b, **kwargs), xs, ws,
             (cout,) if bias else None, dtype=dtype)


@pytest.mark.parametrize("dtype", FLOATS[2:] + ["int64"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_transpose_dtypes(n, dtype):
    xs, ws = (2, 2) + (3, 3, 2)[:n], (2, 3) + (2, 2, 2)[:n]
    _compare(lambda F, x, w, b: getattr(F, f"conv_transpose{n}d")(x, w, b, stride=2), xs, ws,
             (3,), dtype=dtype)


def test_convolution_function():
    """torch.convolution, the primitive the public convolutions decompose into."""
    x, tx = _pair((2, 4, 5, 6), "float64")
    w, tw = _pair((6, 2, 3, 3), "float64")
    b, tb = _pair((6,), "float64")
    args = ([2, 1], [1, 1], [1, 2], False, [0, 0], 2)
    assert_same(mindtorch.convolution(x, w, b, *args), torch.convolution(tx, tw, tb, *args))
    args = ([2], [1], [1], True, [1], 1)
    wt, twt = _pair((4, 3, 2, 2), "float64")
    assert_same(mindtorch.convolution(x, wt, None, *args),
                torch.convolution(tx, twt, None, *args))
    assert not hasattr(mindtorch.Tensor, "convolution")


def test_public_names():
    for name in ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                 "conv_transpose3d", "convolution"):
        assert callable(getattr(mindtorch, name)) == callable(getattr(torch, name))
    for name in ("unfold", "fold", "conv1d", "conv_transpose3d"):
        assert callable(getattr(MF, name))
    x = mindtorch.ones(1, 1, 3, 3)
    assert not hasattr(mindtorch, "im2col") and not hasattr(mindtorch.Tensor, "im2col")
    assert x.unfold(2, 2, 1).shape == (1, 1, 2, 3, 2)  # Tensor.unfold: another op
    assert MF.conv2d(input=x, weight=mindtorch.ones(1, 1, 2, 2)).shape == (1, 1, 2, 2)


def test_conv_empty():
    """Empty batches and channels: PyTorch's shapes (no channels out of no channels in)."""
    for fn, xs, ws in [
            (lambda F, x, w, b: F.conv2d(x, w, b, stride=2), (0, 4, 6, 6), (3, 4, 3, 3)),
            (lambda F, x, w, b: F.conv2d(x, w, b), (2, 0, 6, 6), (3, 0, 3, 3)),
            (lambda F, x, w, b: F.conv1d(x, w, b, padding="same"), (0, 2, 5), (3, 2, 3)),
            (lambda F, x, w, b: F.conv_transpose2d(x, w, b, stride=2), (0, 3, 4, 4),
             (3, 3, 3, 3))]:
        _compare(fn, xs, ws, (3,))
    # empty inputs skip the dtype check, as PyTorch's empty path
    assert MF.conv2d(mindtorch.ones(0, 2, 3, 3), mindtorch.ones(1, 2, 2, 2,
                                                                 dtype=mindtorch.float64)
                     ).dtype is mindtorch.float32


X4, W4 = (2, 4, 6, 6), (6, 2, 3, 3)
ERRORS = [
    # (id, fn(F, module), message or None: the same exception class only)
    ("rank", lambda F, m: F.conv2d(m.ones(6, 6), m.ones(*W4)),
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [6, 6]"),
    ("rank_1d", lambda F, m: F.conv1d(m.ones(*X4), m.ones(3, 4, 3)),
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: "
     "[2, 4, 6, 6]"),
    ("rank_transposed", lambda F, m: F.conv_transpose2d(m.ones(6, 6), m.ones(4, 3, 3, 3)),
     "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of "
     "size: [6, 6]"),
    ("channels", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4)),
     "Given groups=1, weight of size [6, 2, 3, 3], expected input[2, 4, 6, 6] to have 2 "
     "channels, but got 4 channels instead"),
    ("channels_transposed", lambda F, m: F.conv_transpose2d(m.ones(*X4), m.ones(3, 3, 3, 3)),
     "Given transposed=1, weight of size [3, 3, 3, 3], expected input[2, 4, 6, 6] to have 3 "
     "channels, but got 4 channels instead"),
    ("groups_divisible", lambda F, m: F.conv2d(m.ones(*X4), m.ones(5, 2, 3, 3), groups=2),
     "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of "
     "size [[5, 2, 3, 3]] instead"),
    ("groups_at_least", lambda F, m: F.conv2d(m.ones(*X4), m.ones(0, 2, 3, 3), groups=2),
     "Given groups=2, expected weight to be at least 2 at dimension 0, but got weight of size "
     "[0, 2, 3, 3] instead"),
    ("groups_zero", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), groups=0),
     "non-positive groups is not supported"),
    ("bias", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), m.ones(5), groups=2),
     "Given weight of size [6, 2, 3, 3], expected bias to be 1-dimensional with 6 elements, "
     "but got bias of size [5] instead"),
    ("bias_transposed", lambda F, m: F.conv_transpose2d(m.ones(*X4), m.ones(4, 3, 3, 3),
                                                        m.ones(4)),
     "Given transposed=1, weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with "
     "3 elements, but got bias of size [4] instead"),
    ("kernel_too_large", lambda F, m: F.conv2d(m.ones(2, 4, 2, 6), m.ones(6, 4, 3, 3)),
     "Calculated padded input size per channel: (2 x 6). Kernel size: (3 x 3). Kernel size "
     "can't be greater than actual input size"),
    ("dilated_kernel_too_large", lambda F, m: F.conv1d(m.ones(1, 1, 5), m.ones(1, 1, 3),
                                                       dilation=3),
     "Calculated padded input size per channel: (5). Kernel size: (7). Kernel size can't be "
     "greater than actual input size"),
    ("stride_zero", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), stride=0, groups=2),
     "non-positive stride is not supported"),
    ("padding_negative", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), padding=-1, groups=2),
     "negative padding is not supported"),
    ("dilation_negative", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), dilation=-1,
                                                groups=2), "dilation should be greater than zero"),
    ("dilation_zero", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), dilation=0, groups=2),
     "non-positive dilation is not supported"),
    ("stride_length", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), stride=(1, 2, 3),
                                            groups=2),
     "expected stride to be a single integer value or a list of 2 values to match the "
     "convolution dimensions, but got stride=[1, 2, 3]"),
    ("output_padding_negative", lambda F, m: F.conv_transpose2d(
        m.ones(*X4), m.ones(4, 3, 3, 3), output_padding=-1), "negative output_padding is not "
     "supported"),
    ("output_padding_large", lambda F, m: F.conv_transpose2d(
        m.ones(*X4), m.ones(4, 3, 3, 3), stride=2, output_padding=(1, 2)),
     "output padding must be smaller than either stride or dilation, but got "
     "output_padding_height: 1 output_padding_width: 2 stride_height: 2 stride_width: 2 "
     "dilation_height: 1 dilation_width: 1"),
    ("output_too_small", lambda F, m: F.conv_transpose2d(
        m.ones(*X4, dtype=m.float64), m.ones(4, 3, 3, 3, dtype=m.float64), padding=5),
     "Given input size per channel: (6 x 6). Calculated output size per channel: (-2 x -2). "
     "Output size is too small"),
    ("empty_spatial", lambda F, m: F.conv2d(m.ones(2, 4, 0, 5), m.ones(3, 4, 1, 1), padding=1),
     "Only zero batch or zero channel inputs are supported, but got input shape: [2, 4, 0, 5]"),
    ("padding_string", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), padding="foo",
                                             groups=2), "Invalid padding string: 'foo'"),
    ("same_strided", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), padding="same", stride=2,
                                           groups=2),
     "padding='same' is not supported for strided convolutions"),
    ("same_stride_length", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), padding="same",
                                                 stride=(1, 1, 1), groups=2),
     "stride cannot broadcast to 2 dimensions"),
    ("same_rank", lambda F, m: F.conv2d(m.ones(6, 6), m.ones(*W4), padding="same"),
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [6, 6]"),
    ("weight_dtype", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4, dtype=m.float64), groups=2),
     None),
    ("bias_dtype", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), m.ones(6, dtype=m.float64),
                                         groups=2), "Input type (float) and bias type (double) "
     "should be the same"),
    ("bool", lambda F, m: F.conv2d(m.ones(*X4, dtype=m.bool), m.ones(*W4, dtype=m.bool),
                                   groups=2),
     "\"slow_conv2d_cpu\" not implemented for 'Bool'"),
    ("int_transposed", lambda F, m: F.conv_transpose2d(
        m.ones(*X4, dtype=m.int32), m.ones(4, 3, 3, 3, dtype=m.int32)),
     "\"slow_conv_transpose2d_out_cpu\" not implemented for 'Int'"),
    ("padding_type", lambda F, m: F.conv_transpose2d(m.ones(*X4), m.ones(4, 3, 3, 3),
                                                     padding="same"), None),
    ("stride_float", lambda F, m: F.conv2d(m.ones(*X4), m.ones(*W4), stride=2.0), None),
    ("weight_rank", lambda F, m: m.convolution(m.ones(2, 3), m.ones(3, 4), None, [1], [0], [1],
                                               False, [0], 1),
     "weight should have at least three dimensions"),
    ("weight_input_rank", lambda F, m: m.convolution(m.ones(4, 6, 6), m.ones(3, 4, 3, 3), None,
                                                     [1], [0], [1], False, [0], 1),
     "Expected 4-dimensional input for 4-dimensional weight [3, 4, 3, 3], but got "
     "3-dimensional input of size [4, 6, 6] instead"),
    # empty kernels: the kernels' own checks
    ("empty_kernel_1d", lambda F, m: F.conv1d(m.ones(1, 2, 3), m.ones(2, 2, 0)),
     "kernel size should be greater than zero, but got kernel_height: 1 kernel_width: 0"),
    ("empty_kernel_2d", lambda F, m: F.conv2d(m.ones(1, 2, 3, 3), m.ones(2, 2, 0, 2)),
     "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 2"),
    ("empty_kernel_3d", lambda F, m: F.conv3d(m.ones(1, 2, 3, 3, 3), m.ones(2, 2, 2, 2, 0)),
     "kernel size should be greater than zero, but got: 2 x 2 x 0 (TxHxW)"),
    ("empty_kernel_t2d", lambda F, m: F.conv_transpose2d(m.ones(1, 2, 3, 3),
                                                         m.ones(2, 2, 2, 0)),
     "kernel size should be greater than zero, but got kernel_height: 2 kernel_width: 0"),
    ("empty_weight_t1d", lambda F, m: F.conv_transpose1d(m.ones(1, 2, 3), m.ones(2, 0, 2)),
     "non-empty 2D or 4D weight tensor expected, but got: [2, 0, 1, 2]"),
    ("empty_weight_t2d", lambda F, m: F.conv_transpose2d(m.ones(1, 2, 3, 3),
                                                         m.ones(2, 0, 2, 2)),
     "non-empty 2D or 4D weight tensor expected, but got: [2, 0, 2, 2]"),
    ("empty_weight_t3d", lambda F, m: F.conv_transpose3d(m.ones(1, 2, 3, 3, 3),
                                                         m.ones(2, 0, 2, 2, 2)),
     "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
     "kernel_width) tensor expected for weight, but got: [2, 0, 2, 2, 2]"),
    ("bias_cast_t2d", lambda F, m: F.conv_transpose2d(m.ones(1, 2, 3, 3, dtype=m.int64),
                                                      m.ones(2, 2, 2, 2, dtype=m.int64),
                                                      m.ones(2)),
     "result type Float can't be cast to the desired output type Long"),
    ("bias_type_t3d", lambda F, m: F.conv_transpose3d(m.ones(1, 2, 3, 3, 3),
                                                      m.ones(2, 2, 2, 2, 2),
                                                      m.ones(2, dtype=m.bool)), None),
]


@pytest.mark.parametrize("bias", ["bool", "float64", "int64", "float16", "uint8"])
@pytest.mark.parametrize("n", [1, 2])
def test_conv_transpose_bias_of_another_dtype(n, bias):
    # PyTorch's slow transposed 1d/2d kernels add the bias in place, cast to the result
    x = RNG.integers(-3, 4, (1, 2) + (3,) * n)
    w = RNG.integers(-3, 4, (2, 2) + (2,) * n)
    b = np.array([1, 0])
    got, expected = (getattr(lib.nn.functional, f"conv_transpose{n}d")(
        lib.tensor(x, dtype=lib.float32), lib.tensor(w, dtype=lib.float32),
        lib.tensor(b).to(getattr(lib, bias))) for lib in (mindtorch, torch))
    assert_same(got, expected)


# (transposed, input shape, weight shape, stride, padding, dilation, groups, dtypes of
# input / weight / bias): PyTorch's backend choice (oneDNN for some float32 shapes, else
# the slow kernels) decides which dtype checks run, in which order, and what an empty
# input gives
BACKENDS = [
    (True, (2, 4, 5), (4, 3, 5), 2, 1, 1, 2, "float32", "float32", "bfloat16"),  # oneDNN
    (True, (1, 2, 3, 3), (2, 2, 2, 2), 1, 0, 1, 1, "float32", "float32", "bool"),  # slow
    (True, (2, 4, 2, 2), (4, 2, 3, 1), 1, 1, 1, 1, "float32", "float32", None),  # 2 x 0
    (True, (1, 4, 2, 2), (4, 2, 3, 1), 1, 1, 1, 1, "float32", "float32", None),
    (True, (2, 4, 2, 1), (4, 2, 3, 1), 1, 1, 1, 1, "float32", "float32", None),  # 2 x -1
    (True, (2, 2, 2, 2, 2), (2, 2, 3, 3, 1), 1, 1, 1, 1, "float32", "float32", None),
    (True, (1, 2, 2, 3), (2, 2, 2, 2), 1, 0, 1, 1, "bool", "float16", "float32"),
    (True, (1, 2, 5, 5, 4), (2, 2, 1, 1, 4), 2, 1, 2, 2, "int16", "int16", "float32"),
    (False, (2, 4, 4, 4), (4, 2, 4, 4), 1, 1, 1, 2, "bool", "int64", "float32"),
    (False, (1, 1, 4, 2), (1, 1, 3, 2), 2, 1, 2, 1, "int16", "float32", "int16"),
    (False, (1, 2, 5), (2, 2, 2), 1, 0, 2, 1, "int32", "int32", None),  # dilated
    (False, (1, 2, 5), (2, 2, 2), 1, 0, 2, 1, "int64", "int64", None),
    (False, (0, 2, 5), (2, 2, 2), 1, 0, 1, 1, "int16", "float32", None),  # empty input
    (False, (0, 2, 5, 5), (2, 2, 2, 2), 1, 0, 1, 1, "float32", "float64", None),
    (False, (2, 0, 5, 5), (2, 0, 2, 2), 1, 0, 1, 1, "float32", "float64", None),
    (False, (0, 2, 5, 5), (2, 2, 2, 2), 1, 0, 1, 1, "bool", "int16", None),
    (False, (0, 2, 5, 5), (2, 2, 2, 2), 1, 0, 1, 1, "float32", "float32", "float64"),
    (True, (0, 2, 5, 5), (2, 2, 2, 2), 1, 0, 1, 1, "int16", "float32", "float32"),
]


@pytest.mark.parametrize("case", BACKENDS)
def test_backend_dependent_checks(case):
    tr, xs, ws, stride, padding, dilation, groups, xd, wd, bd = case
    n = len(xs) - 2

    def run(lib):
        f = getattr(lib.nn.functional, f"conv_transpose{n}d" if tr else f"conv{n}d")
        x, w = lib.ones(xs, dtype=getattr(lib, xd)), lib.ones(ws, dtype=getattr(lib, wd))
        b = None if bd is None else lib.ones(ws[1] * groups if tr else ws[0],
                                             dtype=getattr(lib, bd))
        if tr:
            return f(x, w, b, stride, padding, 0, groups, dilation)
        return f(x, w, b, stride, padding, dilation, groups)
    same_error(lambda: run(mindtorch), lambda: run(torch))
    try:
        expected = run(torch)
    except Exception:  # noqa: BLE001 - the class is compared above
        return
    assert_same(run(mindtorch), expected)


@pytest.mark.parametrize("xs,ws,tr", [((2, 4, 7, 8), (6, 4, 3, 2), False),  # oneDNN
                                     ((1, 4, 7, 8), (6, 4, 1, 1), False),  # slow
                                     ((2, 4, 7), (6, 4, 3), False),
                                     ((2, 4, 7, 8), (4, 6, 3, 2), True),
                                     ((1, 4, 7, 8), (4, 6, 1, 1), True)])
@pytest.mark.parametrize("xd,wd,bd", [("float64", "float32", None), ("float32", "float64", None),
                                      ("float32", "bfloat16", None), ("int32", "float32", None),
                                      ("float32", "float64", "float64"),
                                      ("float32", "float32", "float64"),
                                      ("float16", "float16", "float32"),
                                      ("float32", "bool", None)])
def test_dtype_mismatch_messages(xs, ws, tr, xd, wd, bd):
    # oneDNN names legacy tensor types (torch.FloatTensor, CPUBFloat16Type); the slow
    # kernels say "expected scalar type"; a non-transposed conv checks its bias first
    def run(lib):
        f = getattr(lib.nn.functional, f"conv_transpose{len(xs) - 2}d" if tr else
                    f"conv{len(xs) - 2}d")
        b = None if bd is None else lib.ones(ws[1] if tr else ws[0], dtype=getattr(lib, bd))
        return f(lib.ones(xs, dtype=getattr(lib, xd)), lib.ones(ws, dtype=getattr(lib, wd)), b)
    try:
        run(torch)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as got:
            run(mindtorch)
        assert str(got.value) == str(e)
    else:
        run(mindtorch)


@pytest.mark.parametrize("fn,message", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_errors(fn, message):
    same_error(lambda: fn(MF, mindtorch), lambda: fn(TF, torch))
    if message is not None:
        with pytest.raises(Exception) as mt_error:
            fn(MF, mindtorch)
        with pytest.raises(Exception) as th_error:
            fn(TF, torch)
        assert str(mt_error.value) == message
        assert str(th_error.value).startswith(message)


@pytest.mark.parametrize("fn,message", [c[1:] for c in ERRORS[:12]],
                         ids=[c[0] for c in ERRORS[:12]])
def test_errors_on_meta(fn, message):
    """The meta device raises the cpu's errors (shared rules)."""
    with pytest.raises(Exception) as cpu_error:
        fn(MF, mindtorch)
    with mindtorch.device("meta"):
        with pytest.raises(type(cpu_error.value)) as meta_error:
            fn(MF, mindtorch)
    assert str(meta_error.value) == str(cpu_error.value)


# -- convolution_backward ---------------------------------------------------------------

BACKWARD = [
    # (id, input shape, weight shape, stride, padding, dilation, transposed, output_padding,
    #  groups)
    ("2d", (2, 4, 5, 6), (6, 2, 3, 2), [2, 1], [1, 0], [1, 2], False, [0], 2),
    ("2d_stride1", (2, 3, 5, 5), (4, 3, 3, 3), [1], [1], [1], False, [0], 1),
    ("1d_dilated", (1, 2, 9), (2, 1, 3), [1], [2], [3], False, [0], 2),
    ("3d", (1, 2, 3, 4, 4), (2, 2, 2, 2, 2), [1, 2, 1], [1], [1], False, [0], 1),
    ("2d_transposed", (2, 4, 3, 4), (4, 3, 3, 2), [2, 3], [1, 0], [1, 2], True, [1, 2], 2),
    ("1d_transposed_stride1", (2, 3, 5), (3, 2, 3), [1], [1], [2], True, [1], 1),
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation,transposed,output_padding,groups",
                         [c[1:] for c in BACKWARD], ids=[c[0] for c in BACKWARD])
@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
def test_convolution_backward(xs, ws, stride, padding, dilation, transposed, output_padding,
                              groups, dtype):
    """The fused cpu kernel and the decomposition (meta, double backward) against aten's."""
    x, tx = _pair(xs, dtype)
    w, tw = _pair(ws, dtype, "transposed")
    args = (stride, padding, dilation, transposed, output_padding, groups)
    y = torch.convolution(tx, tw, None, *args)
    go, tgo = _pair(tuple(y.shape), dtype)
    bias = [y.shape[1]]
    expected = torch.ops.aten.convolution_backward(tgo, tx, tw, bias, *args, [True] * 3)
    kernel = OPS["convolution_backward"].call(go, x, w, bias, *args, [1, 1, 1])
    from mindtorch._ops.decls.conv import _convolution_backward
    decomposed = _convolution_backward(go, x, w, bias, *args, [1, 1, 1])
    # (bfloat16: the decomposition rounds each convolution, the kernel once)
    tol = {"float32": dict(rtol=1e-4, atol=1e-4), "bfloat16": dict(rtol=2e-2, atol=0.1)}.get(
        dtype, {})
    assert_same(list(kernel), list(expected), **tol)
    assert_same(list(decomposed), list(expected), **tol)
    masked = OPS["convolution_backward"].call(go, x, w, None, *args, [0, 1, 0])
    assert masked[0] is None and masked[2] is None
    assert_same(masked[1], expected[1], **tol)


# -- unfold / fold ----------------------------------------------------------------------

UNFOLD = [
    ("basic", (2, 3, 5, 6), dict(kernel_size=3)),
    ("params", (2, 2, 6, 7), dict(kernel_size=(2, 3), dilation=2, padding=1, stride=(2, 1))),
    ("unbatched", (3, 4, 5), dict(kernel_size=(1, 2), stride=2)),
    ("empty_batch", (0, 2, 4, 4), dict(kernel_size=2, padding=1)),
    ("whole", (1, 2, 3, 3), dict(kernel_size=3)),
    ("1x1", (1, 2, 3, 3), dict(kernel_size=1)),
]


@pytest.mark.parametrize("shape,kwargs", [c[1:] for c in UNFOLD], ids=[c[0] for c in UNFOLD])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "bool"])
def test_unfold(shape, kwargs, dtype):
    _compare(lambda F, x: F.unfold(x, **kwargs), shape, dtype=dtype)


def test_unfold_noncontiguous_and_fresh():
    _compare(lambda F, x: F.unfold(x, 2, stride=2), ((2, 3, 4, 6), "transposed"),
             check_stride=False)
    x = mindtorch.ones(1, 2, 3, 3)
    cols = MF.unfold(x, 1)  # a 1x1 kernel: the columns are the input's values, not its memory
    cols.zero_()
    assert x.sum().item() == 18


FOLD = [
    ("basic", (2, 18, 8), dict(output_size=(4, 5), kernel_size=(3, 2))),
    ("params", (2, 12, 12), dict(output_size=(5, 6), kernel_size=(2, 3), dilation=(1, 2),
                                 padding=1, stride=(2, 1))),
    ("unbatched", (8, 25), dict(output_size=4, kernel_size=2, padding=1, stride=(1, 1))),
    ("empty_batch", (0, 8, 9), dict(output_size=4, kernel_size=2)),
    ("overlapping", (1, 4, 16), dict(output_size=(3, 3), kernel_size=2, padding=1, stride=1)),
]


@pytest.mark.parametrize("shape,kwargs", [c[1:] for c in FOLD], ids=[c[0] for c in FOLD])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "bool"])
def test_fold(shape, kwargs, dtype):
    _compare(lambda F, c: F.fold(c, **kwargs), shape, dtype=dtype)


def test_fold_noncontiguous():
    _compare(lambda F, c: F.fold(c, (3, 4), 2), ((2, 8, 6), "sliced"), check_stride=False)


FOLD_ERRORS = [
    ("unfold_rank", lambda F, m: F.unfold(m.ones(1, 2, 1, 3, 3), 2),
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [1, 2, 1, 3, 3]"),
    ("unfold_2d", lambda F, m: F.unfold(m.ones(3, 3), 2),
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("unfold_empty_channels", lambda F, m: F.unfold(m.ones(2, 0, 3, 3), 2), None),
    ("unfold_blocks", lambda F, m: F.unfold(m.ones(2, 4, 6, 7), 8),
     "Given input with spatial size (6, 7), kernel_size=(8, 8), dilation=(1, 1), padding=(0, 0),"
     " calculated shape of the array of sliding blocks as (-1, 0), but its components must be "
     "at least one."),
    ("unfold_kernel", lambda F, m: F.unfold(m.ones(1, 1, 3, 3), 0),
     "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0"),
    ("unfold_stride", lambda F, m: F.unfold(m.ones(1, 1, 3, 3), 2, stride=0),
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    ("unfold_padding", lambda F, m: F.unfold(m.ones(1, 1, 3, 3), 2, padding=-1),
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    ("unfold_dilation", lambda F, m: F.unfold(m.ones(1, 1, 3, 3), 2, dilation=0),
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    ("unfold_sizes", lambda F, m: F.unfold(m.ones(1, 1, 3, 3), (2, 2, 2)),
     "It is expected kernel_size equals to 2, but got size 3"),
    ("unfold_int", lambda F, m: F.unfold(m.ones(1, 1, 3, 3, dtype=m.int64), 2),
     "\"im2col_out_cpu\" not implemented for 'Long'"),
    ("fold_rank", lambda F, m: F.fold(m.ones(20), (6, 7), 3),
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
     "dimensions for input, but got: [20]"),
    ("fold_blocks", lambda F, m: F.fold(m.ones(2, 36, 20), (6, 8), 3),
     "Given output_size=(6, 8), kernel_size=(3, 3), dilation=(1, 1), padding=(0, 0), "
     "stride=(1, 1), expected size of input's dimension 2 to match the calculated number of "
     "sliding blocks 4 * 6 = 24, but got input.size(2)=20."),
    ("fold_divisible", lambda F, m: F.fold(m.ones(2, 35, 20), (6, 7), 3),
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
     "got input.size(1)=35 and kernel_size=(3, 3)."),
    ("fold_divisible_unbatched", lambda F, m: F.fold(m.ones(35, 20), (6, 7), 3),
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
     "got input.size(1)=35 and kernel_size=(3, 3)."),
    ("fold_too_small", lambda F, m: F.fold(m.ones(2, 36, 20), (2, 2), 3), None),
    ("fold_output_size", lambda F, m: F.fold(m.ones(2, 36, 20), (6, 7, 3), 3),
     "It is expected output_size equals to 2, but got size 3"),
    ("fold_stride", lambda F, m: F.fold(m.ones(2, 36, 20), (6, 7), 3, stride=0),
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    ("fold_empty", lambda F, m: F.fold(m.ones(2, 36, 0), (6, 7), 3), None),
    ("fold_int", lambda F, m: F.fold(m.ones(2, 36, 20, dtype=m.uint8), (6, 7), 3),
     "\"col2im_out_cpu\" not implemented for 'Byte'"),
]


@pytest.mark.parametrize("fn,message", [c[1:] for c in FOLD_ERRORS],
                         ids=[c[0] for c in FOLD_ERRORS])
def test_fold_errors(fn, message):
    test_errors(fn, message)


# -- meta -------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:Using padding='same'")
def test_meta_shapes():
    cases = [
        lambda F, m, d: F.conv2d(m.ones(2, 4, 5, 6, device=d), m.ones(6, 2, 3, 2, device=d),
                                 stride=(2, 1), padding=1, groups=2),
        lambda F, m, d: F.conv2d(m.ones(2, 5, 6, device=d), m.ones(3, 2, 2, 4, device=d),
                                 padding="same", dilation=(1, 3)),
        lambda F, m, d: F.conv_transpose3d(m.ones(1, 2, 2, 3, 3, device=d),
                                           m.ones(2, 2, 2, 2, 1, device=d), stride=2),
        lambda F, m, d: F.conv1d(m.ones(0, 2, 5, device=d), m.ones(3, 2, 2, device=d)),
        lambda F, m, d: F.unfold(m.ones(2, 2, 6, 7, device=d), (2, 3), dilation=2, padding=1),
        lambda F, m, d: F.fold(m.ones(12, 12, device=d), (5, 6), (2, 3), dilation=(1, 2),
                               padding=1, stride=(2, 1)),
    ]
    for fn in cases:
        meta = fn(MF, mindtorch, "meta")
        expected = fn(TF, torch, "cpu")
        assert meta.device.type == "meta"
        assert tuple(meta.shape) == tuple(expected.shape) and str(meta.dtype) == str(
            expected.dtype)
