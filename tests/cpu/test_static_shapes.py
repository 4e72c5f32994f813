"""nonzero_static and histogramdd against PyTorch: values, dtypes, layouts, padding and
cutting, bins on the edges, weights, density, given edges, and errors."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_outcome, torch

RNG = np.random.default_rng(0)


def _pair(a):
    return mindtorch.from_numpy(a.copy()), torch.from_numpy(a.copy())


@pytest.mark.parametrize("size", [0, 1, 3, 12])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex64])
def test_nonzero_static_pads_and_cuts_as_torch(size, dtype):
    a = (RNG.integers(0, 3, (3, 4)) * (RNG.random((3, 4)) > 0.4)).astype(dtype)
    m, t = _pair(a)
    for fill in (-1, 7):
        assert_same(mindtorch.nonzero_static(m, size=size, fill_value=fill),
                    torch.nonzero_static(t, size=size, fill_value=fill))
    assert_same(m.t().nonzero_static(size=size), t.t().nonzero_static(size=size))


@pytest.mark.parametrize("call", [
    lambda T: T.nonzero_static(T.tensor(5), size=2),
    lambda T: T.nonzero_static(T.tensor(0.), size=2),
    lambda T: T.nonzero_static(T.zeros(2, 0, 3), size=2),
    lambda T: T.nonzero_static(T.tensor([float("nan"), 0., -0., 1.]), size=3),
    lambda T: T.nonzero_static(T.tensor([1, 0]).expand(2, 2), size=5),
    lambda T: T.nonzero_static(T.tensor([1, 0]), size=-1),
    lambda T: T.nonzero_static(T.tensor([1, 0]), size=2, out=T.empty(0, dtype=T.int64)),
])
def test_nonzero_static_edges_and_errors(call):
    same_outcome(lambda T: call(T).tolist())


def test_nonzero_static_argument_errors_and_grad():
    for kwargs in ({"size": 2, "fill_value": 1.5}, {"size": 2.0}):
        for T in (mindtorch, torch):
            with pytest.raises(TypeError):
                T.nonzero_static(T.tensor([1, 0]), **kwargs)
    x = mindtorch.arange(3., requires_grad=True)
    assert not mindtorch.nonzero_static(x, size=3).requires_grad
    m = mindtorch.nonzero_static(mindtorch.empty(3, 4, device="meta"), size=5)
    assert m.device.type == "meta" and m.shape == (5, 2) and m.dtype is mindtorch.int64


def _points(n, d, dtype, grid=False):
    a = RNG.integers(0, 4, (n, d)) / 2 if grid else RNG.standard_normal((n, d))
    return a.astype(dtype)


def _same_hist(rm, rt):
    assert type(rm).__name__ == "histogramdd" and rm._fields == ("hist", "bin_edges")
    assert_same(rm.hist, rt.hist)
    assert isinstance(rm.bin_edges, tuple) and len(rm.bin_edges) == len(rt.bin_edges)
    assert_same(list(rm.bin_edges), list(rt.bin_edges))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("grid", [False, True], ids=["normal", "on-edges"])
@pytest.mark.parametrize("kwargs", [
    {"bins": 4}, {"bins": [3, 5, 2]}, {"bins": [3, 5, 2], "density": True},
    {"bins": (2, 7, 3), "range": [-1., 1., -2., 0.5, 0., 3.]},
    {"bins": [1, 1, 1], "weighted": True}, {"bins": 6, "weighted": True, "density": True},
])
def test_histogramdd_counted_bins(dtype, grid, kwargs):
    kwargs = dict(kwargs)
    x = _points(60, 3, dtype, grid)
    m, t = _pair(x)
    if kwargs.pop("weighted", False):
        wm, wt = _pair(RNG.random(60).astype(dtype))
        kwargs_m, kwargs_t = dict(kwargs, weight=wm), dict(kwargs, weight=wt)
    else:
        kwargs_m = kwargs_t = kwargs
    _same_hist(mindtorch.histogramdd(m, **kwargs_m), torch.histogramdd(t, **kwargs_t))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("density", [False, True])
def test_histogramdd_given_edges(dtype, density):
    x = _points(40, 2, dtype, grid=True)
    edges = [np.array([-0.5, 0., 1., 1.5], dtype), np.array([0.5, 1., 3.], dtype)]
    m, t = _pair(x)
    w = RNG.random(40).astype(dtype)
    rm = mindtorch.histogramdd(m, [mindtorch.from_numpy(e) for e in edges],
                               weight=mindtorch.from_numpy(w), density=density)
    rt = torch.histogramdd(t, [torch.from_numpy(e) for e in edges], weight=torch.from_numpy(w),
                           density=density)
    _same_hist(rm, rt)


def test_histogramdd_shapes_and_positional_arguments():
    m, t = _pair(_points(12, 2, np.float32).reshape(3, 4, 2))  # leading dims are points
    _same_hist(mindtorch.histogramdd(m, [2, 3], None, None, True),
               torch.histogramdd(t, [2, 3], None, None, True))
    _same_hist(mindtorch.histogramdd(m[:, ::2], 3), torch.histogramdd(t[:, ::2], 3))
    _same_hist(mindtorch.histogramdd(mindtorch.empty(0, 2), bins=2),
               torch.histogramdd(torch.empty(0, 2), bins=2))
    x = np.array([[1., 2.], [1., 2.]], np.float32)  # a single value per dim: widened by 0.5
    _same_hist(mindtorch.histogramdd(mindtorch.from_numpy(x), 3),
               torch.histogramdd(torch.from_numpy(x), 3))
    x = np.array([[np.nan, 1.], [0.5, np.inf], [0.2, 0.3]], np.float64)  # outside: not counted
    _same_hist(mindtorch.histogramdd(mindtorch.from_numpy(x), 2, range=[0., 1., 0., 1.]),
               torch.histogramdd(torch.from_numpy(x), 2, range=[0., 1., 0., 1.]))


@pytest.mark.parametrize("call", [
    lambda T: T.histogramdd(T.tensor([1., 2., 1.]), bins=4),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[2, 3, 4]),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.float64), bins=2, range=[0., 1.]),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.int64), bins=2),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.float16), bins=2),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.bfloat16), bins=[T.ones(2, dtype=T.bfloat16)] * 2),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.float16), bins=[T.ones(2, dtype=T.float16)] * 2),
    lambda T: T.histogramdd(T.ones(3, 2, dtype=T.int32), bins=[T.ones(2, dtype=T.int32)] * 2),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[2, 0]),
    lambda T: T.histogramdd(T.ones(3, 2), bins=2, range=[1., 0., 0., 1.]),
    lambda T: T.histogramdd(T.ones(3, 2), bins=2, weight=T.ones(2)),
    lambda T: T.histogramdd(T.ones(3, 2), bins=2, weight=T.ones(3, dtype=T.float64)),
    lambda T: T.histogramdd(T.tensor([[float("nan"), 1.]]), bins=2),
    lambda T: T.histogramdd(T.tensor([[float("inf"), 1.]]), bins=2),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[T.tensor([0., 1.])]),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[T.tensor([0., 1.]), T.tensor([0, 1])]),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[T.tensor([0., 1.]), T.ones(2, 2)]),
    lambda T: T.histogramdd(T.ones(3, 2), bins=[T.tensor([0., 1.]), T.ones(0)]),
    lambda T: T.histogramdd(T.ones(3, 1), [T.tensor([0., 1.])], range=[5., 6.]),  # ignored
])
def test_histogramdd_errors(call):
    same_outcome(lambda T: call(T).hist.tolist())

