"""nn pooling modules (max, average, power-average, adaptive, unpooling) against PyTorch."""
import pytest

import mindtorch
import mindtorch.nn as mnn
from layers_helpers import assert_same_repr, check_module, close, inputs, torch

tnn = torch.nn
SPATIAL = {1: (11,), 2: (9, 8), 3: (6, 7, 5)}

# (class name, constructor args, constructor kwargs)
CASES = [
    ("MaxPool{}d", (3,), {}),
    ("MaxPool{}d", (2,), dict(stride=1, padding=1, dilation=2)),
    ("MaxPool{}d", (3,), dict(stride=2, ceil_mode=True, return_indices=True)),
    ("MaxPool{}d", (2,), dict(padding=1, return_indices=True)),
    ("AvgPool{}d", (3,), {}),
    ("AvgPool{}d", (3,), dict(stride=2, padding=1, ceil_mode=True)),
    ("AvgPool{}d", (2,), dict(padding=1, count_include_pad=False)),
    ("LPPool{}d", (2, 3), {}),
    ("LPPool{}d", (1.5, 2), dict(stride=1, ceil_mode=True)),
    ("AdaptiveMaxPool{}d", (4,), {}),
    ("AdaptiveMaxPool{}d", (3,), dict(return_indices=True)),
    ("AdaptiveAvgPool{}d", (4,), {}),
    ("AdaptiveAvgPool{}d", (1,), {}),
]


def _pair(name, args, kwargs, dims):
    name = name.format(dims)
    return getattr(tnn, name)(*args, **kwargs), getattr(mnn, name)(*args, **kwargs)


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("name,args,kwargs", CASES)
def test_pooling_matches_torch(name, args, kwargs, dims):
    th, mt = _pair(name, args, kwargs, dims)
    assert_same_repr(mt, th)
    for dtype in ["float64", "float32"]:
        data = inputs((2, 3, *SPATIAL[dims]), dtype=dtype)
        if name.startswith("LP"):  # a fractional power of a negative sum is NaN
            data = [(m.detach().abs().requires_grad_(), t.detach().abs().requires_grad_())
                    for m, t in data]
        check_module(th, mt, *data, dtype=dtype)
    check_module(th, mt, *inputs((3, *SPATIAL[dims]), noncontiguous=dims > 1))


@pytest.mark.parametrize("name,args,kwargs", [
    ("AvgPool2d", ((2, 3),), dict(divisor_override=4)),
    ("AvgPool3d", (2,), dict(stride=(1, 2, 1), divisor_override=3, count_include_pad=False)),
    ("MaxPool2d", ((2, 3),), dict(stride=(1, 2), padding=(1, 0))),
    ("AdaptiveAvgPool2d", ((None, 3),), {}),
    ("AdaptiveMaxPool2d", ((5, None),), dict(return_indices=True)),
    ("AdaptiveAvgPool3d", ((2, None, 3),), {}),
    ("AdaptiveMaxPool3d", ((2, 3, 2),), {}),
    ("LPPool2d", (2, (2, 3)), dict(stride=(1, 2))),
])
def test_pooling_tuple_and_optional_sizes(name, args, kwargs):
    th, mt = getattr(tnn, name)(*args, **kwargs), getattr(mnn, name)(*args, **kwargs)
    assert_same_repr(mt, th)
    dims = int(name[-2])
    data = inputs((2, 3, *SPATIAL[dims]))
    if name.startswith("LP"):
        data = [(m.detach().abs().requires_grad_(), t.detach().abs().requires_grad_())
                for m, t in data]
    check_module(th, mt, *data)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_max_unpool_round_trip(dims):
    kwargs = dict(stride=2, padding=1)
    th_pool = getattr(tnn, f"MaxPool{dims}d")(3, return_indices=True, **kwargs)
    mt_pool = getattr(mnn, f"MaxPool{dims}d")(3, return_indices=True, **kwargs)
    th_un = getattr(tnn, f"MaxUnpool{dims}d")(3, **kwargs)
    mt_un = getattr(mnn, f"MaxUnpool{dims}d")(3, **kwargs)
    assert_same_repr(mt_un, th_un)
    assert mt_un.kernel_size == th_un.kernel_size and mt_un.stride == th_un.stride
    (x, tx), = inputs((2, 3, *SPATIAL[dims]))
    (out, idx), (tout, tidx) = mt_pool(x), th_pool(tx)
    close(idx, tidx, None)
    res, tres = mt_un(out, idx, output_size=x.shape), th_un(tout, tidx, output_size=tx.shape)
    close(res, tres, "float64")
    res.sum().backward()
    tres.sum().backward()
    close(x.grad, tx.grad, "float64")
    # the default output size (smaller here, the pool padded) is PyTorch's too
    mt_small = getattr(mnn, f"MaxUnpool{dims}d")(3, stride=2)
    th_small = getattr(tnn, f"MaxUnpool{dims}d")(3, stride=2)
    (y, ty), = inputs(tuple(tout.shape))
    small_idx = mindtorch.zeros(tuple(tout.shape), dtype=mindtorch.int64)
    close(mt_small(y, small_idx), th_small(ty, torch.zeros(tout.shape, dtype=torch.int64)),
          "float64")


def test_max_unpool_default_stride_and_errors():
    assert_same_repr(mnn.MaxUnpool2d((2, 3)), tnn.MaxUnpool2d((2, 3)))
    assert_same_repr(mnn.MaxUnpool1d(2, stride=1, padding=1),
                     tnn.MaxUnpool1d(2, stride=1, padding=1))
    m = mnn.MaxUnpool2d(2)
    x, idx = mindtorch.randn(1, 1, 2, 2), mindtorch.zeros(1, 1, 2, 2, dtype=mindtorch.int64)
    with pytest.raises(ValueError):
        m(x, idx, output_size=(9, 9))
    with pytest.raises(ValueError):
        tnn.MaxUnpool2d(2)(torch.randn(1, 1, 2, 2), torch.zeros(1, 1, 2, 2).long(),
                           output_size=(9, 9))


def test_pooling_attributes_as_given():
    # MaxPool/AvgPool2d/LPPool/Adaptive keep ints as ints; AvgPool1d stores tuples
    for name, args in [("MaxPool2d", (3,)), ("AvgPool2d", (3, 1)), ("AvgPool1d", (3,)),
                       ("AvgPool3d", ((1, 2, 3),)), ("LPPool1d", (2, 3)),
                       ("AdaptiveAvgPool2d", (5,)), ("MaxPool1d", (2, None, 1))]:
        th, mt = getattr(tnn, name)(*args), getattr(mnn, name)(*args)
        for attr in ["kernel_size", "stride", "padding", "dilation", "output_size",
                     "ceil_mode", "count_include_pad", "divisor_override", "return_indices",
                     "norm_type"]:
            assert getattr(mt, attr, "-") == getattr(th, attr, "-"), (name, attr)
        assert_same_repr(mt, th)


@pytest.mark.parametrize("name,args,shape", [
    ("MaxPool2d", (3,), (1, 2, 2)),        # output would be empty
    ("MaxPool2d", (2, 2, 2), (1, 3, 6, 6)),  # padding over half the kernel
    ("AvgPool1d", (2,), (2, 3, 4, 5)),     # wrong rank
    ("AdaptiveAvgPool2d", ((1, 2, 3),), (1, 4, 4)),
    ("AvgPool2d", (2, 1, 0, False, True, 0), (1, 1, 4, 4)),  # divisor 0
])
def test_pooling_input_errors(name, args, shape):
    th, mt = getattr(tnn, name)(*args), getattr(mnn, name)(*args)
    try:
        th(torch.randn(shape))
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        expected = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    else:
        pytest.fail("torch accepted it")
    with pytest.raises(expected):
        mt(mindtorch.randn(*shape))


def test_pooling_meta():
    with mindtorch.device("meta"):
        x = mindtorch.empty(2, 3, 9, 8)
        for m, tm in [(mnn.MaxPool2d(3, 2, ceil_mode=True), tnn.MaxPool2d(3, 2, ceil_mode=True)),
                      (mnn.AvgPool2d(2), tnn.AvgPool2d(2)),
                      (mnn.AdaptiveAvgPool2d((2, None)), tnn.AdaptiveAvgPool2d((2, None)))]:
            out = m(x)
            assert out.device.type == "meta"
            assert tuple(out.shape) == tuple(tm(torch.empty(2, 3, 9, 8, device="meta")).shape)
