"""F.fractional_max_pool2d/3d (+ _with_indices) and nn.FractionalMaxPool2d/3d against
PyTorch: with the same _random_samples, values, indices and input gradients are equal
exactly (every float dtype, batched and unbatched, output_size or output_ratio, NaN and
tied windows, non-contiguous input); samples drawn when not given; module constructor
checks, repr and buffer; errors with PyTorch's class and message."""
import numpy as np
import pytest

import mindtorch
import mindtorch.nn.functional as MF
from reference import to_torch, torch

F = torch.nn.functional
FLOATS = ["float64", "float32", "float16", "bfloat16"]


def _inputs(shape, n, dtype, seed=0, nan=False, ties=False):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if ties:
        x = np.round(x)
    if nan:
        x.flat[0] = x.flat[5] = x.flat[6] = np.nan
    batch = 1 if len(shape) == n + 1 else shape[0]
    s = rng.random((batch, shape[-n - 1], n))
    m = mindtorch.tensor(x).to(getattr(mindtorch, dtype))
    ms = mindtorch.tensor(s).to(m.dtype)
    return m, ms


def _exact(a, b):
    np.testing.assert_array_equal(a.detach().float().numpy(),
                                  b.detach().float().numpy())


def _compare(n, shape, kernel, output_size=None, output_ratio=None, dtype="float64", seed=0,
             transposed=False, **kw):
    m, ms = _inputs(shape, n, dtype, seed, **kw)
    if transposed:  # the same values, stored with the last two dims swapped
        m = m.transpose(-1, -2).contiguous().transpose(-1, -2)
        assert not m.is_contiguous()
    t, ts = to_torch(m).requires_grad_(), to_torch(ms)
    m.requires_grad_()
    fm = getattr(MF, f"fractional_max_pool{n}d")
    ft = getattr(F, f"fractional_max_pool{n}d")
    ym, im = fm(m, kernel, output_size, output_ratio, True, _random_samples=ms)
    yt, it = ft(t, kernel, output_size, output_ratio, True, _random_samples=ts)
    assert ym.dtype is m.dtype and im.dtype is mindtorch.int64
    _exact(ym, yt)
    np.testing.assert_array_equal(im.numpy(), it.numpy())
    go = np.random.default_rng(seed + 1).standard_normal(tuple(yt.shape))
    ym.backward(mindtorch.tensor(go).to(ym.dtype))
    yt.backward(torch.from_numpy(go).to(yt.dtype))
    _exact(m.grad, t.grad)


@pytest.mark.parametrize("dtype", FLOATS)
def test_2d_like_torch(dtype):
    _compare(2, (2, 3, 9, 11), 2, 4, dtype=dtype)
    _compare(2, (2, 3, 9, 11), (2, 3), (5, 4), dtype=dtype, seed=1)
    _compare(2, (3, 25, 20), 3, None, (0.5, 0.7), dtype=dtype, seed=2)  # unbatched


@pytest.mark.parametrize("dtype", FLOATS)
def test_3d_like_torch(dtype):
    _compare(3, (2, 2, 7, 6, 9), (2, 3, 2), (4, 3, 5), dtype=dtype)
    _compare(3, (2, 7, 6, 9), 2, None, (0.5, 0.6, 0.7), dtype=dtype, seed=1)


def test_nan_ties_noncontiguous_and_edge_sizes():
    _compare(2, (2, 3, 8, 8), 3, 5, nan=True)
    _compare(2, (2, 3, 8, 8), 3, 5, ties=True)  # overlapping windows: the first maximum
    _compare(3, (1, 2, 6, 6, 6), 2, 4, ties=True, nan=True)
    _compare(2, (2, 3, 8, 7), 2, (3, 4), transposed=True)
    _compare(2, (2, 3, 8, 8), 2, 1)
    _compare(2, (2, 3, 8, 8), 2, (1, 7))
    _compare(2, (2, 3, 8, 8), 2, 0)
    _compare(2, (0, 3, 8, 8), 2, 3)
    _compare(2, (1, 1, 8, 8), 1, 8)  # kernel 1, full size: the identity
    m, ms = _inputs((2, 3, 8, 8), 2, "float64")  # more samples than batch elements
    ms = mindtorch.cat([ms, ms])
    got = MF.fractional_max_pool2d(m, 2, 3, _random_samples=ms)
    want = F.fractional_max_pool2d(to_torch(m), 2, 3, _random_samples=to_torch(ms))
    _exact(got, want)


@pytest.mark.parametrize("kernel", [(0, 2), (2, 0), (2, -1)])
def test_empty_windows_like_torch(kernel):
    """A kernel size <= 0: ATen's -inf, indexed at the window's start."""
    m, ms = _inputs((1, 2, 5, 4), 2, "float32")
    got = MF.fractional_max_pool2d(m, kernel, (4, 3), _random_samples=ms, return_indices=True)
    want = F.fractional_max_pool2d(to_torch(m), kernel, (4, 3), _random_samples=to_torch(ms),
                                   return_indices=True)
    _exact(got[0], want[0])
    np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())


def test_integer_input_with_an_empty_output():
    x = mindtorch.ones(1, 2, 5, 4, dtype=mindtorch.int32)
    s = mindtorch.ones(1, 2, 2, dtype=mindtorch.int32)
    v, i = MF.fractional_max_pool2d(x, 2, 0, _random_samples=s, return_indices=True)
    assert v.shape == (1, 2, 0, 0) and v.dtype is mindtorch.int32 and i.dtype is mindtorch.int64
    with pytest.raises(NotImplementedError, match="fractional_max_pool2d_out_frame"):
        MF.fractional_max_pool2d(x, 2, 2, _random_samples=s)


def test_with_indices_forms_and_keywords():
    m, ms = _inputs((2, 3, 7, 6), 2, "float32")
    t, ts = to_torch(m), to_torch(ms)
    for fm, ft in ((MF.fractional_max_pool2d_with_indices, F.fractional_max_pool2d_with_indices),
                   (MF.fractional_max_pool2d, F.fractional_max_pool2d)):
        got = fm(m, 2, 3, None, False, ms)
        want = ft(t, 2, 3, None, False, ts)
        assert isinstance(got, tuple) == isinstance(want, tuple)
    got = MF.fractional_max_pool2d(input=m, kernel_size=2, output_size=3, return_indices=True,
                                   _random_samples=ms)
    want = F.fractional_max_pool2d(input=t, kernel_size=2, output_size=3, return_indices=True,
                                   _random_samples=ts)
    _exact(got[0], want[0])
    np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())
    m5, ms5 = _inputs((1, 2, 5, 6, 7), 3, "float64")
    got = MF.fractional_max_pool3d_with_indices(m5, 2, 3, _random_samples=ms5)
    want = F.fractional_max_pool3d_with_indices(to_torch(m5), 2, 3,
                                                _random_samples=to_torch(ms5))
    _exact(got[0], want[0])


def test_samples_drawn_when_not_given():
    x = mindtorch.randn(2, 3, 10, 10)
    mindtorch.manual_seed(3)
    a, ia = MF.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5), return_indices=True)
    mindtorch.manual_seed(3)
    b = MF.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5))
    assert a.shape == (2, 3, 5, 5) and (a == b).all()
    flat = x.reshape(2, 3, 100)
    assert (flat.gather(2, ia.reshape(2, 3, 25)).reshape(a.shape) == a).all()
    y = MF.fractional_max_pool3d(mindtorch.randn(3, 6, 6, 6), 2, output_size=(2, 3, 4))
    assert y.shape == (3, 2, 3, 4)


def test_modules():
    tnn = torch.nn
    for n, cls in ((2, "FractionalMaxPool2d"), (3, "FractionalMaxPool3d")):
        shape = (2, 3) + (9,) * n
        m, ms = _inputs(shape, n, "float64")
        mod = getattr(mindtorch.nn, cls)(2, output_ratio=0.5, return_indices=True,
                                         _random_samples=ms)
        ref = getattr(tnn, cls)(2, output_ratio=0.5, return_indices=True,
                                _random_samples=to_torch(ms))
        assert repr(mod) == repr(ref) == f"{cls}()"
        assert mod.kernel_size == ref.kernel_size and mod.output_ratio == ref.output_ratio
        assert mod.output_size is None and list(mod.state_dict()) == ["_random_samples"]
        got, want = mod(m), ref(to_torch(m))
        _exact(got[0], want[0])
        np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())
        plain = getattr(mindtorch.nn, cls)((2,) * n, output_size=3)
        assert plain.output_size == (3,) * n and list(plain.state_dict()) == []
        assert plain(m).shape == (2, 3) + (3,) * n
        for kwargs in ({}, {"output_size": 3, "output_ratio": 0.5}, {"output_ratio": 1.0},
                       {"output_ratio": (0.5,) * (n - 1) + (0,)}, {"output_ratio": -0.5}):
            with pytest.raises(ValueError) as want:
                getattr(tnn, cls)(2, **kwargs)
            with pytest.raises(ValueError) as got:
                getattr(mindtorch.nn, cls)(2, **kwargs)
            assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="kernel_size must be greater than 0, but got 0"):
        mindtorch.nn.FractionalMaxPool3d(0, output_size=2)


def _s(*shape, dtype=torch.float32):
    return torch.rand(*shape, dtype=dtype)


BAD = [
    (2, (2, 3, 7, 6), (2,), {"output_ratio": 0.5}),              # a number: TypeError (len)
    (2, (2, 3, 7, 6), (2,), {"output_ratio": (0.5, 0.5, 0.5)}),
    (2, (2, 3, 7, 6), (2,), {}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 6}),                  # pool too large
    (2, (2, 3, 7, 6), ((2, 3),), {"output_size": (2, 5)}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(2, 3, 2).double()}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(1, 3, 2)}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(2, 2, 2)}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(2, 3, 3)}),
    (2, (2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(6, 2)}),
    (2, (7, 6), (2,), {"output_size": 3}),
    (2, (2, 3, 0, 6), (2,), {"output_size": 3}),
    (2, (2, 3, 7, 6), ((2, 2, 2),), {"output_size": 3}),
    (2, (2, 3, 7, 6), (2,), {"output_size": (3, 3, 3)}),
    (2, (1, 2, 3, 7, 6), (2,), {"output_size": 3, "_random_samples": _s(1, 2, 2)}),
    (3, (2, 3, 5, 6, 7), (2,), {"output_size": (4, 3, 3)}),       # 4 + 2 - 1 not < 5
    (3, (2, 3, 5, 6, 7), (2,), {"output_size": (3, 5, 6)}),
    (3, (2, 3, 5, 6, 7), (2,), {"output_size": (3, 4, 6)}),
    (3, (5, 6, 7), (2,), {"output_size": 2}),
    (3, (2, 3, 5, 6, 7), ((2, 2),), {"output_size": 2}),
    (3, (2, 3, 5, 6, 7), (2,), {"output_size": (2, 2)}),
    (3, (2, 3, 5, 6, 7), (2,), {}),
    (2, (1, 2, 5, 4), ((2,),), {"output_size": 3}),               # a 1-tuple is not an int
    (2, (1, 2, 5, 4), (2,), {"output_size": (3,)}),
    (2, (1, 2, 5, 4), (2,), {"output_ratio": (0.5,)}),            # IndexError
    (3, (1, 2, 5, 4, 6), (2,), {"output_ratio": (0.5,)}),
    (2, (1, 2, 5, 4), (2,), {"output_size": 2, "_random_samples": _s(1, 2, 2).to(
        torch.complex64)}),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_errors_like_torch(case):
    n, shape, args, kwargs = BAD[case]
    x = torch.randn(*shape)
    with pytest.raises(Exception) as want:
        getattr(F, f"fractional_max_pool{n}d")(x, *args, **kwargs)
    kwargs = {k: mindtorch.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v
              for k, v in kwargs.items()}
    with pytest.raises(type(want.value)) as got:
        getattr(MF, f"fractional_max_pool{n}d")(mindtorch.tensor(x.numpy()), *args, **kwargs)
    assert str(got.value) == str(want.value)


def test_meta_device():
    x = mindtorch.empty(2, 3, 9, 8, device="meta", requires_grad=True)
    y, i = MF.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5), return_indices=True)
    assert y.device.type == "meta" and y.shape == (2, 3, 4, 4) and i.dtype is mindtorch.int64
    y.sum().backward()
    assert x.grad.shape == x.shape and x.grad.device.type == "meta"
