"""nn.Conv{1,2,3}d and nn.ConvTranspose{1,2,3}d against PyTorch."""
import math

import pytest

import mindtorch
import mindtorch.nn as mnn
from layers_helpers import assert_same_repr, check_module, inputs, pair_modules, torch

tnn = torch.nn

# (dims, constructor kwargs) for the forward/backward comparisons
CONV_CASES = [
    (1, dict()),
    (1, dict(stride=2, padding=1, dilation=2)),
    (1, dict(padding="same", dilation=3, groups=2)),
    (1, dict(padding=2, padding_mode="circular", bias=False)),
    (2, dict()),
    (2, dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2))),
    (2, dict(padding="same", kernel_size=(2, 3))),
    (2, dict(padding="valid", groups=2)),
    (2, dict(padding=1, padding_mode="reflect")),
    (2, dict(padding=(2, 1), padding_mode="replicate", stride=2)),
    (2, dict(padding=(1, 2), padding_mode="circular", groups=2, bias=False)),
    (2, dict(padding="same", padding_mode="reflect", dilation=2)),
    (3, dict()),
    (3, dict(stride=2, padding=(1, 0, 1), groups=2)),
    (3, dict(padding=1, padding_mode="replicate")),
    (3, dict(padding="same", kernel_size=2)),
]
SPATIAL = {1: (9,), 2: (7, 8), 3: (5, 6, 5)}


def _conv_pair(dims, kwargs, dtype, transposed=False):
    kwargs = dict(kwargs)
    kernel = kwargs.pop("kernel_size", 3)
    name = f"ConvTranspose{dims}d" if transposed else f"Conv{dims}d"
    return pair_modules(getattr(tnn, name), getattr(mnn, name), 4, 6, kernel, dtype=dtype,
                        **kwargs)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("dims,kwargs", CONV_CASES)
def test_conv_matches_torch(dims, kwargs, dtype):
    th, mt = _conv_pair(dims, kwargs, dtype)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs((2, 4, *SPATIAL[dims]), dtype=dtype), dtype=dtype)


@pytest.mark.parametrize("dims,kwargs", CONV_CASES[::3])
def test_conv_unbatched_and_noncontiguous(dims, kwargs):
    th, mt = _conv_pair(dims, kwargs, "float64")
    check_module(th, mt, *inputs((4, *SPATIAL[dims])))
    th, mt = _conv_pair(dims, kwargs, "float64")
    check_module(th, mt, *inputs((2, 4, *SPATIAL[dims]), noncontiguous=True))


TRANSPOSED_CASES = [
    (1, dict()),
    (1, dict(stride=2, padding=1, output_padding=1)),
    (1, dict(dilation=2, groups=2, bias=False)),
    (2, dict()),
    (2, dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2))),
    (2, dict(stride=2, dilation=2, groups=2, output_padding=1)),
    (3, dict()),
    (3, dict(stride=2, padding=1, output_padding=(1, 0, 1), groups=2)),
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("dims,kwargs", TRANSPOSED_CASES)
def test_conv_transpose_matches_torch(dims, kwargs, dtype):
    th, mt = _conv_pair(dims, kwargs, dtype, transposed=True)
    assert_same_repr(mt, th)
    check_module(th, mt, *inputs((2, 4, *SPATIAL[dims]), dtype=dtype), dtype=dtype)
    th, mt = _conv_pair(dims, kwargs, dtype, transposed=True)
    check_module(th, mt, *inputs((4, *SPATIAL[dims]), dtype=dtype, noncontiguous=True),
                 dtype=dtype)


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("full", [True, False])
def test_conv_transpose_output_size(batched, full):
    th, mt = _conv_pair(2, dict(stride=3, padding=1), "float64", transposed=True)
    shape = (2, 4, 5, 6) if batched else (4, 5, 6)
    (x, tx), = inputs(shape)
    for size in [(13, 16), (15, 17), (14, 18)]:
        size = (*shape[:-3], 6, *size) if full else size
        out = mt(x, output_size=size)
        ref = th(tx, output_size=size)
        assert tuple(out.shape) == tuple(ref.shape)
        torch.testing.assert_close(torch.from_numpy(out.detach().numpy()), ref.detach())
    for size in [(12, 16), (16, 16), (13,), (2, 4, 6, 13, 16, 1)]:
        with pytest.raises(ValueError):
            th(tx, output_size=size)
        with pytest.raises(ValueError):
            mt(x, output_size=size)


def test_conv_transpose_output_size_message():
    m = mnn.ConvTranspose1d(2, 2, 3, stride=2)
    with pytest.raises(ValueError, match=r"requested an output size of \[20\], but valid sizes "
                                         r"range from \[11\] to \[12\]"):
        m(mindtorch.randn(1, 2, 5), output_size=[20])
    with pytest.raises(ValueError, match="ConvTranspose1D: for 3D input, output_size must have "
                                         r"1 or 3 elements \(got 2\)"):
        m(mindtorch.randn(1, 2, 5), output_size=[11, 11])
    # the requested size prints as given (a tuple stays a tuple), as PyTorch's
    with pytest.raises(ValueError, match=r"output size of \(20,\), but"):
        m(mindtorch.randn(1, 2, 5), output_size=(1, 2, 20))
    with pytest.raises(ValueError, match=r"output size of \(20,\), but"):
        m(mindtorch.randn(1, 2, 5), output_size=(20,))


@pytest.mark.parametrize("args,kwargs", [
    ((4, 6, 3), dict(groups=0)),
    ((4, 6, 3), dict(groups=3)),
    ((4, 6, 3), dict(groups=4)),
    ((4, 6, 3), dict(padding="full")),
    ((4, 6, 3), dict(padding="same", stride=2)),
    ((4, 6, 3), dict(padding_mode="mirror")),
])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_conv_constructor_errors(dims, args, kwargs):
    with pytest.raises(ValueError):
        getattr(tnn, f"Conv{dims}d")(*args, **kwargs)
    with pytest.raises(ValueError):
        getattr(mnn, f"Conv{dims}d")(*args, **kwargs)


def test_conv_error_messages():
    with pytest.raises(ValueError, match="^groups must be a positive integer$"):
        mnn.Conv2d(2, 2, 3, groups=-1)
    with pytest.raises(ValueError, match="^in_channels must be divisible by groups$"):
        mnn.Conv2d(3, 2, 3, groups=2)
    with pytest.raises(ValueError, match="^out_channels must be divisible by groups$"):
        mnn.Conv2d(2, 3, 3, groups=2)
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        mnn.Conv2d(2, 3, 3, padding="full")
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        mnn.Conv1d(2, 3, 3, padding="same", stride=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        mnn.Conv1d(2, 3, 3, padding_mode="zero")
    for dims in (1, 2, 3):
        with pytest.raises(ValueError, match=f'Only "zeros" padding mode is supported for '
                                              f"ConvTranspose{dims}d"):
            getattr(mnn, f"ConvTranspose{dims}d")(2, 2, 3, padding_mode="reflect")
    m = mnn.ConvTranspose2d(2, 2, 3)
    m.padding_mode = "circular"
    with pytest.raises(ValueError, match="Only `zeros` padding mode is supported for "
                                         "ConvTranspose2d"):
        m(mindtorch.randn(1, 2, 4, 4))


def test_conv_input_errors():
    m = mnn.Conv2d(3, 4, 3)
    with pytest.raises(RuntimeError):
        m(mindtorch.randn(1, 2, 5, 5))  # channel mismatch
    with pytest.raises(RuntimeError):
        m(mindtorch.randn(1, 3, 2, 2))  # input smaller than kernel
    with pytest.raises(RuntimeError):
        m(mindtorch.randn(2, 1, 3, 5, 5))  # wrong rank
    th = tnn.Conv2d(3, 4, 3, padding=3, padding_mode="reflect")
    mt = mnn.Conv2d(3, 4, 3, padding=3, padding_mode="reflect")
    with pytest.raises(RuntimeError):
        th(torch.randn(1, 3, 3, 3))  # reflection padding past the size
    with pytest.raises(RuntimeError):
        mt(mindtorch.randn(1, 3, 3, 3))


@pytest.mark.parametrize("name,args,kwargs", [
    ("Conv1d", (3, 6, 2), dict(padding=(1,), dilation=(2,))),
    ("Conv2d", (3, 6, (1, 2)), dict(padding="valid", groups=3)),
    ("Conv2d", (3, 6, 3), dict(padding=(0, 1), padding_mode="circular")),
    ("Conv3d", (2, 2, 1), dict(padding="same", bias=False)),
    ("ConvTranspose1d", (3, 6, 2), dict(output_padding=1, stride=2)),
    ("ConvTranspose2d", (3, 6, 2), dict(padding=(1, 0), dilation=2, groups=3)),
    ("ConvTranspose3d", (2, 4, 3), dict(bias=False)),
])
def test_conv_repr_and_attributes(name, args, kwargs):
    th, mt = getattr(tnn, name)(*args, **kwargs), getattr(mnn, name)(*args, **kwargs)
    assert_same_repr(mt, th)
    for attr in ["in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation",
                 "transposed", "output_padding", "groups", "padding_mode",
                 "_reversed_padding_repeated_twice"]:
        assert tuple(getattr(mt, attr)) == tuple(getattr(th, attr)) if attr.startswith("_") \
            else getattr(mt, attr) == getattr(th, attr), attr
    assert tuple(mt.weight.shape) == tuple(th.weight.shape)
    assert [n for n, _ in mt.named_parameters()] == [n for n, _ in th.named_parameters()]


@pytest.mark.parametrize("cls,args", [(mnn.Conv2d, (16, 64, 5)),
                                      (mnn.Conv1d, (12, 300, 3, 1, 0, 1, 4)),
                                      (mnn.ConvTranspose2d, (32, 48, 4))])
def test_conv_default_init_distribution(cls, args):
    mindtorch.manual_seed(0)
    m = cls(*args)
    # fan_in is weight.size(1) * prod(kernel): U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for both
    w = m.weight.detach()
    fan_in = w.shape[1] * math.prod(w.shape[2:])
    bound = 1 / math.sqrt(fan_in)
    assert 0.99 * bound < w.abs().max().item() <= bound
    assert abs(w.std().item() - bound / math.sqrt(3)) < 0.02 * bound
    assert abs(w.mean().item()) < 0.02 * bound
    b = m.bias.detach()
    assert 0.8 * bound < b.abs().max().item() <= bound


@pytest.mark.parametrize("name", ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
                                  "ConvTranspose2d", "ConvTranspose3d"])
def test_conv_factory_kwargs_and_meta(name):
    cls = getattr(mnn, name)
    m = cls(2, 4, 3, dtype=mindtorch.float64)
    assert m.weight.dtype is mindtorch.float64 and m.bias.dtype is mindtorch.float64
    with mindtorch.device("meta"):
        m = cls(2, 4, 3, padding=1)
    assert m.weight.device.type == "meta" and m.bias.device.type == "meta"
    dims = int(name[-2])
    out = m(mindtorch.empty(3, 2, *(5,) * dims, device="meta"))
    ref = getattr(tnn, name)(2, 4, 3, padding=1, device="meta")(
        torch.empty(3, 2, *(5,) * dims, device="meta"))
    assert out.device.type == "meta" and tuple(out.shape) == tuple(ref.shape)
    m = cls(2, 4, 3, device="meta")
    assert m.weight.device.type == "meta"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("dims,transposed", [(1, False), (2, False), (2, True)])
def test_conv_half_precision(dims, transposed, dtype):
    th, mt = _conv_pair(dims, dict(padding=1), dtype, transposed=transposed)
    check_module(th, mt, *inputs((2, 4, *SPATIAL[dims]), dtype=dtype), dtype=dtype)


def test_conv_reset_parameters_of_a_noncontiguous_weight():
    # drawn in contiguous order: a permuted-layout weight gets the values a contiguous one gets
    m = mnn.Conv2d(3, 4, 3)
    m.weight = mnn.Parameter(m.weight.detach().permute(0, 2, 3, 1).contiguous()
                             .permute(0, 3, 1, 2))
    stride = m.weight.stride()
    mindtorch.manual_seed(5)
    m.reset_parameters()
    ref = mnn.Conv2d(3, 4, 3)
    mindtorch.manual_seed(5)
    ref.reset_parameters()
    assert m.weight.stride() == stride
    assert mindtorch.equal(m.weight, ref.weight) and mindtorch.equal(m.bias, ref.bias)
