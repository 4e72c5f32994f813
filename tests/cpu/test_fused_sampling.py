"""The cpu kernels that replaced slow compositions (equal, embedding_bag, grid_sample,
adaptive_max_pool2d, pdist, mode, small scans) against PyTorch: forward and backward, dtypes,
strided / empty inputs, ties, errors; the compiled paths and their NumPy fallbacks."""
import mindtorch
import numpy as np
import pytest
from jit_paths import paths
from reference import assert_same, pair, same_error, torch

RNG = np.random.default_rng(0)


def _same_bits(a, b):
    """The same bits (zeros' signs included), NaN where NaN (whatever its sign)."""
    a, b = a.numpy(), b.numpy()
    assert a.dtype == b.dtype and a.shape == b.shape
    nan = np.isnan(a)
    assert np.array_equal(nan, np.isnan(b))
    bits = f"u{a.dtype.itemsize}"
    assert np.array_equal(a[~nan].view(bits), b[~nan].view(bits))



@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "bfloat16",
                                   "complex64"])
def test_equal(dtype):
    m, t = pair(RNG.standard_normal((4, 6)) * 3, dtype)
    others = [lambda x: x.clone(), lambda x: x + 1, lambda x: x.t().contiguous().t(),
              lambda x: x[:2]]
    for other in others:
        assert mindtorch.equal(m, other(m)) is torch.equal(t, other(t))
    assert mindtorch.equal(m[:, ::2], m.clone()[:, ::2]) and torch.equal(t[:, ::2], t[:, ::2])
    assert mindtorch.equal(m[:, ::2], m[:, 1::2]) is torch.equal(t[:, ::2], t[:, 1::2])


def test_equal_edges():
    nan = float("nan")
    cases = [([1.0, nan], [1.0, nan]), ([0.0], [-0.0]), ([], []), (1.0, [1.0]), (2.0, 2.0)]
    for a, b in cases:
        assert mindtorch.equal(mindtorch.tensor(a), mindtorch.tensor(b)) is \
            torch.equal(torch.tensor(a), torch.tensor(b))
    # mixed dtypes compare after promotion
    assert mindtorch.equal(mindtorch.tensor([1, 2]), mindtorch.tensor([1.0, 2.0]))
    assert mindtorch.equal(mindtorch.tensor([True]), mindtorch.tensor([1]))
    assert not mindtorch.equal(mindtorch.tensor([1.5]), mindtorch.tensor([1]))
    same_error(lambda: mindtorch.equal(mindtorch.ones(2), 1),
               lambda: torch.equal(torch.ones(2), 1))


# -- embedding_bag -----------------------------------------------------------------------------

def _bag_case(lib, w, idx, off, **kw):
    F = lib.nn.functional
    wt = lib.tensor(w) if lib is mindtorch else torch.from_numpy(w.copy())
    wt.requires_grad_(True)
    psw = kw.pop("psw", None)
    if psw is not None:
        psw = (lib.tensor(psw) if lib is mindtorch else torch.from_numpy(psw.copy()))
        psw.requires_grad_(True)
    ii = lib.tensor(idx)
    oo = None if off is None else lib.tensor(off)
    out = F.embedding_bag(ii, wt, oo, per_sample_weights=psw, **kw)
    g = np.arange(out.numel(), dtype=w.dtype).reshape(tuple(out.shape)) % 5 - 2
    out.backward(lib.tensor(g) if lib is mindtorch else torch.from_numpy(g))
    return out, wt.grad, None if psw is None else psw.grad


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("extra", [{}, {"padding_idx": 3}, {"include_last_offset": True},
                                   {"padding_idx": -1, "include_last_offset": True}])
def test_embedding_bag(mode, dtype, extra):
    w = RNG.standard_normal((10, 5)).astype(dtype)
    w[2, 1] = w[4, 1]  # a tie inside a bag
    w[7, 0] = np.nan
    w[1, 3], w[9, 3] = -0.0, 0.0  # max keeps the first zero's sign
    idx = np.array([2, 4, 3, 7, 1, 1, 9, 3, 3, 0, 7, 5, 2])
    off = np.array([0, 2, 2, 5, 8, 13])  # empty bags, a padding-only bag
    for case in [(idx, off), (idx[:0], np.array([0, 0])), (idx.reshape(1, -1), None)]:
        kw = dict(mode=mode, **extra)
        if case[1] is None:
            kw.pop("include_last_offset", None)
        ours = _bag_case(mindtorch, w, *case, **kw)
        theirs = _bag_case(torch, w, *case, **kw)
        assert_same(ours[0], theirs[0], rtol=0, atol=0)
        assert_same(ours[1], theirs[1], rtol=1e-6, atol=1e-6)


def test_embedding_bag_per_sample_weights_and_aux_outputs():
    w = RNG.standard_normal((8, 4)).astype(np.float32)
    idx = np.array([1, 0, 7, 7, 3, 2])
    psw = RNG.standard_normal(6).astype(np.float32)
    for extra in [{}, {"padding_idx": 7}]:
        ours = _bag_case(mindtorch, w, idx, np.array([0, 3, 3]), mode="sum", psw=psw, **extra)
        theirs = _bag_case(torch, w, idx, np.array([0, 3, 3]), mode="sum", psw=psw, **extra)
        for o, t in zip(ours, theirs):
            assert_same(o, t, rtol=1e-6, atol=1e-6)
    for mode in range(3):  # offset2bag, bag_size, max_indices as PyTorch's kernel fills them
        for weight in (w, w[:, ::2], w.astype(np.float64)):
            args = [weight, idx, np.array([0, 2, 2, 5])]
            m = mindtorch.embedding_bag(*[mindtorch.tensor(np.ascontiguousarray(a)) for a in args],
                                        False, mode)
            mw = mindtorch.tensor(np.ascontiguousarray(weight))[:, :] if weight.ndim else None
            t = torch.embedding_bag(*[torch.from_numpy(np.ascontiguousarray(a)) for a in args],
                                    False, mode)
            assert_same(m, t, rtol=0, atol=0)
            del mw


def test_embedding_bag_noncontiguous_and_int32():
    w = RNG.standard_normal((9, 6)).astype(np.float32)
    mw, tw = pair(w)
    idx = np.array([8, 1, 1, 4, 0, 2], dtype=np.int32)
    for mode in ("sum", "mean", "max"):
        m = mindtorch.nn.functional.embedding_bag(
            mindtorch.tensor(idx), mw[:, ::2], mindtorch.tensor(np.array([0, 3], np.int32)),
            mode=mode)
        t = torch.nn.functional.embedding_bag(
            torch.from_numpy(idx), tw[:, ::2], torch.tensor([0, 3], dtype=torch.int32),
            mode=mode)
        assert_same(m, t, rtol=0, atol=0)


@pytest.mark.parametrize("idx, off", [([1, 2, 9], [0, 1]), ([1, 2, -1], [0, 1]),
                                      ([1, 2, 3], [1, 2]), ([1, 2, 3], [0, 4])])
@pytest.mark.parametrize("mode", ["sum", "max"])
def test_embedding_bag_bad_values(idx, off, mode):  # (decreasing offsets: PyTorch reads past)
    def run(lib):
        w = lib.ones(5, 2)
        return lib.nn.functional.embedding_bag(lib.tensor(idx), w, lib.tensor(off), mode=mode)
    same_error(lambda: run(mindtorch), lambda: run(torch))


@pytest.mark.parametrize("lengths", [[300, 1, 0, 2], [1] * 40 + [90], [3, 5, 0, 4]])
def test_embedding_bag_sum_order_any_lengths(lengths):
    """Bags summed one row after another (PyTorch's float32 roundings), whichever path."""
    w = RNG.standard_normal((50, 7)).astype(np.float32)
    idx = RNG.integers(0, 50, sum(lengths))
    off = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    psw = RNG.standard_normal(len(idx)).astype(np.float32)
    for kw in [{"mode": "sum"}, {"mode": "mean"}, {"mode": "sum", "psw": psw},
               {"mode": "sum", "padding_idx": int(idx[0])}]:
        ours, theirs = _bag_case(mindtorch, w, idx, off, **kw), _bag_case(torch, w, idx, off, **kw)
        assert_same(ours[0], theirs[0], rtol=0, atol=0)
        for o, t in zip(ours[1:], theirs[1:]):
            assert_same(o, t, rtol=1e-5, atol=1e-5)


# -- grid_sample -------------------------------------------------------------------------------

def _grid_inputs(dtype, n=2, c=3, h=5, w=6, oh=4, ow=7):
    x = RNG.standard_normal((n, c, h, w)).astype(dtype)
    g = (RNG.random((n, oh, ow, 2)) * 2.6 - 1.3).astype(dtype)
    g[0, 0, 0] = [-1, 1]  # on the corners and edges
    g[0, 0, 1] = [1, -1]
    g[0, 1, 0] = [0.0, 1.0]
    return x, g


def _grid_run(lib, x, g, transform=None, **kw):
    xt, gt = pair(x, str(x.dtype), requires_grad=True) if lib is mindtorch else \
        (torch.from_numpy(x.copy()).requires_grad_(), torch.from_numpy(g.copy()).requires_grad_())
    if lib is mindtorch:
        gt = mindtorch.tensor(g).requires_grad_()
    xs, gs = (xt, gt) if transform is None else transform(xt, gt)
    out = lib.nn.functional.grid_sample(xs, gs, **kw)
    seed = np.cos(np.arange(out.numel())).astype(x.dtype).reshape(tuple(out.shape))
    out.backward(lib.tensor(seed) if lib is mindtorch else torch.from_numpy(seed))
    return out, xt.grad, gt.grad


@pytest.fixture(params=["compiled", "numpy"])
def grid_path(request, monkeypatch):
    """grid sampling's compiled loops (forward, bilinear / nearest backward; any size) or
    its NumPy steps."""
    from mindtorch_cpu.kernels import _jit
    from mindtorch_cpu.kernels import sampling as kernels
    if request.param == "numpy":
        monkeypatch.setitem(_jit._modules, "_grid_loops", False)
    else:  # (for grid sampling only: other ops' loops would change the decomposition's sums)
        loops = _jit.compiled("_grid_loops", _jit.MIN_SIZE)
        assert loops is not None
        monkeypatch.setattr(kernels, "compiled", lambda name, size: loops)
    return request.param


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grid_sample(grid_path, mode, padding_mode, align_corners, dtype):
    x, g = _grid_inputs(dtype)
    kw = {"mode": mode, "padding_mode": padding_mode, "align_corners": align_corners}
    ours, theirs = _grid_run(mindtorch, x, g, **kw), _grid_run(torch, x, g, **kw)
    tol = 1e-5 if dtype == np.float32 else 1e-10
    assert_same(ours[0], theirs[0], rtol=tol, atol=tol)
    assert_same(ours[1], theirs[1], rtol=tol, atol=tol)
    assert_same(ours[2], theirs[2], rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("padding_mode", [0, 1, 2])
def test_grid_sampler_kernel_has_the_decomposition_bits(grid_path, mode, padding_mode):
    """The NumPy kernel runs the decomposition's steps: the same bits, forward and the
    grid's gradient; but for the bilinear forward's sum, which PyTorch's AVX2 / AVX-512
    builds make of fused multiply-adds (the kernel's bits are then PyTorch's)."""
    from mindtorch._ops.decls import sampling as decl
    from mindtorch_cpu.kernels._grid_numpy import fused_sums
    x, g = _grid_inputs(np.float32, oh=9, ow=5)
    g[1, 2, 3] = [np.nan, 0.5]
    g[1, 2, 4] = [np.inf, -7.0]
    g[0, 3, 3] = [-np.inf, 1e30]
    xs, gs = mindtorch.tensor(x), mindtorch.tensor(g)
    gout = mindtorch.tensor(np.sin(np.arange(2 * 3 * 9 * 5)).astype(np.float32).reshape(2, 3, 9, 5))
    for ac in (False, True):
        args = (mode, padding_mode, ac)
        kernel = mindtorch.grid_sampler_2d(xs, gs, *args)
        expected = decl._grid_sampler_nd(xs, gs, *args)
        if mode == 0 and fused_sums():
            expected = torch.grid_sampler_2d(torch.from_numpy(x), torch.from_numpy(g), *args)
        _same_bits(kernel, expected)
        op = mindtorch._ops.registry.OPS["grid_sampler_2d_backward"]
        (gi, gg), (di, dg) = op.call(gout, xs, gs, *args), \
            decl._grid_sampler_nd_backward(gout, xs, gs, *args)
        _same_bits(gg, dg)
        # (grad_input's sums in float64, rounded once: not the scatter_add's steps)
        np.testing.assert_allclose(gi.numpy(), di.numpy(), rtol=1e-6, atol=1e-6)


def test_grid_sample_strided_empty_half_and_errors():
    x, g = _grid_inputs(np.float32)
    kw = {"mode": "bilinear", "padding_mode": "border", "align_corners": False}

    def strided(xs, gs):
        return xs.transpose(2, 3), gs[:, ::2]
    ours, theirs = _grid_run(mindtorch, x, g, strided, **kw), _grid_run(torch, x, g, strided, **kw)
    for o, t in zip(ours, theirs):
        assert_same(o, t, rtol=1e-5, atol=1e-5)
    for shape in [(0, 3, 4, 4), (2, 0, 4, 4)]:
        xe, ge = np.zeros(shape, np.float32), np.zeros((shape[0], 2, 3, 2), np.float32)
        ours, theirs = _grid_run(mindtorch, xe, ge, **kw), _grid_run(torch, xe, ge, **kw)
        for o, t in zip(ours, theirs):
            assert_same(o, t)
    m = mindtorch.nn.functional.grid_sample(mindtorch.tensor(x).half(), mindtorch.tensor(g).half(),
                                            align_corners=True)
    t = torch.nn.functional.grid_sample(torch.from_numpy(x).half(), torch.from_numpy(g).half(),
                                        align_corners=True)
    assert_same(m, t, rtol=2e-3, atol=2e-3)
    same_error(lambda: mindtorch.nn.functional.grid_sample(mindtorch.ones(1, 1, 2, 2),
                                                           mindtorch.ones(1, 2, 2, 2).double(), align_corners=False),
               lambda: torch.nn.functional.grid_sample(torch.ones(1, 1, 2, 2),
                                                       torch.ones(1, 2, 2, 2).double(), align_corners=False))
    same_error(lambda: mindtorch.nn.functional.grid_sample(mindtorch.ones(2, 1, 2, 2),
                                                           mindtorch.ones(1, 2, 2, 2), align_corners=False),
               lambda: torch.nn.functional.grid_sample(torch.ones(2, 1, 2, 2),
                                                       torch.ones(1, 2, 2, 2), align_corners=False))
    meta = mindtorch.nn.functional.grid_sample(mindtorch.ones(2, 3, 4, 4, device="meta"),
                                               mindtorch.ones(2, 5, 6, 2, device="meta"),
                                               align_corners=False)
    assert meta.shape == (2, 3, 5, 6)


# -- adaptive_max_pool -------------------------------------------------------------------------

@pytest.mark.parametrize("shape, out", [((2, 3, 8, 12), (4, 3)), ((2, 3, 8, 12), 2),
                                        ((3, 8, 12), (8, 6)), ((2, 3, 7, 9), (3, 4)),
                                        ((1, 2, 4, 6, 8), (2, 3, 4))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adaptive_max_pool(shape, out, dtype):
    x = RNG.integers(-3, 3, shape).astype(np.float64)  # ties
    x.reshape(-1)[::7] = np.nan  # several NaN in a window: PyTorch keeps the last
    x.reshape(-1)[3::11] = -np.inf
    pool = "adaptive_max_pool3d" if len(shape) == 5 else "adaptive_max_pool2d"
    for strided in (False, True):
        m, t = pair(x, dtype, requires_grad=True)
        mi, ti = (m.transpose(-1, -2), t.transpose(-1, -2)) if strided else (m, t)
        mo, to = (getattr(lib.nn.functional, pool)(v, out, return_indices=True)
                  for lib, v in ((mindtorch, mi), (torch, ti)))
        assert_same(mo, to, rtol=0, atol=0)
        seed = np.sin(np.arange(to[0].numel())).reshape(tuple(to[0].shape))
        mo[0].backward(mindtorch.tensor(seed).to(mo[0].dtype))
        to[0].backward(torch.from_numpy(seed).to(to[0].dtype))
        assert_same(m.grad, t.grad, rtol=0, atol=0)


# -- pdist -------------------------------------------------------------------------------------

distance_path = paths("_distance_loops")  # pdist's loops, or its NumPy path


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, float("inf"), 3.0, 0.5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pdist(distance_path, p, dtype):
    x = RNG.standard_normal((9, 5))
    x[3] = x[5]  # a zero distance
    x[1, 2] = x[7, 2]  # a zero difference
    for strided in (False, True):
        m, t = pair(x, dtype, requires_grad=True)
        mi, ti = (m.t().contiguous().t(), t.t().contiguous().t()) if strided else (m, t)
        mo, to = mindtorch.pdist(mi, p), torch.pdist(ti, p)
        tol = 1e-5 if dtype == "float32" else 1e-12
        assert_same(mo, to, rtol=tol, atol=tol)
        seed = np.cos(np.arange(to.numel()))
        mo.backward(mindtorch.tensor(seed).to(mo.dtype))
        to.backward(torch.from_numpy(seed).to(to.dtype))
        assert_same(m.grad, t.grad, rtol=tol * 10, atol=tol * 10)


def test_pdist_edges(distance_path):
    assert_same(mindtorch.pdist(mindtorch.zeros(0, 3)), torch.pdist(torch.zeros(0, 3)))
    for shape in [(1, 3), (4, 0)]:  # (PyTorch's backward of 0 rows crashes)
        m, t = pair(np.zeros(shape), requires_grad=True)
        assert_same(mindtorch.pdist(m), torch.pdist(t))
        mindtorch.pdist(m).sum().backward()
        torch.pdist(t).sum().backward()
        assert_same(m.grad, t.grad)
    m, t = pair(np.array([[0.0, np.nan], [1.0, 2.0], [3.0, 1.0]]))
    for p in (2.0, float("inf"), 0.0):
        assert_same(mindtorch.pdist(m, p), torch.pdist(t, p))
    # the double backward runs _pdist_backward's decomposition (PyTorch has none: its
    # value is checked numerically in tests/autograd/test_layers_grad.py)
    m, t = pair(RNG.standard_normal((5, 3)), "float64", requires_grad=True)
    (gm,) = mindtorch.autograd.grad(mindtorch.pdist(m).pow(2).sum(), m, create_graph=True)
    (gt,) = torch.autograd.grad(torch.pdist(t).pow(2).sum(), t, create_graph=True)
    assert_same(gm, gt)
    assert gm.grad_fn is not None
    meta = mindtorch.ones(4, 3, device="meta", requires_grad=True)
    mindtorch.pdist(meta).sum().backward()
    assert meta.grad.shape == (4, 3)
    same_error(lambda: mindtorch.pdist(mindtorch.ones(2, 2, 2)), lambda: torch.pdist(torch.ones(2, 2, 2)))
    same_error(lambda: mindtorch.pdist(mindtorch.ones(2, 2), -1), lambda: torch.pdist(torch.ones(2, 2), -1))


# -- mode --------------------------------------------------------------------------------------

sort_path = paths("_sort_loops")  # mode's std::sort replay compiled, or in Python


@pytest.mark.parametrize("shape", [(20, 70), (6, 17), (5, 16), (2, 150), (2, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int16", "bool"])
def test_mode_ties(sort_path, shape, dtype):
    """The index PyTorch's mode returns among tied values (the last of the mode's run after
    libstdc++'s std::sort), NaN as a value of its own."""
    x = RNG.integers(0, 5, shape).astype(np.float64)
    if dtype.startswith("float"):
        x.reshape(-1)[::9] = np.nan
    m, t = pair(x, dtype)
    for dim in range(2):
        for keepdim in (False, True):
            assert_same(m.mode(dim, keepdim), t.mode(dim, keepdim), rtol=0, atol=0)
    assert_same(m.t().mode(1), t.t().mode(1), rtol=0, atol=0)


# -- small float32 scans -----------------------------------------------------------------------

@pytest.mark.parametrize("loops", [True, False])
@pytest.mark.parametrize("shape", [(64, 512), (16, 256), (3, 5, 7)])
def test_small_scans_bits(monkeypatch, loops, shape):
    """cumsum / cumprod of float32 below the loops' size: the compiled scans once loaded,
    else NumPy's float64 accumulation; PyTorch's bits either way."""
    from mindtorch_cpu.kernels import _jit
    if not loops:
        monkeypatch.setitem(_jit._modules, "_reduce_loops", False)
    else:
        assert _jit.compiled("_reduce_loops", _jit.MIN_SIZE) is not None
    x = RNG.standard_normal(shape) * 1.1
    x.reshape(-1)[::13] = -0.0
    m, t = pair(x)
    for dim in range(len(shape)):
        for name in ("cumsum", "cumprod"):
            assert_same(getattr(m, name)(dim), getattr(t, name)(dim), rtol=0, atol=0)
            assert_same(getattr(m.transpose(0, -1), name)(dim),
                        getattr(t.transpose(0, -1), name)(dim), rtol=0, atol=0)


# -- cdist -------------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes", [((4, 30, 5), (4, 27, 5)), ((30, 3), (2, 7, 3)),
                                    ((2, 1, 26, 4), (3, 8, 4)), ((5, 3), (4, 3))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
def test_cdist_euclid(shapes, dtype, mode):
    (m1, t1), (m2, t2) = (pair(RNG.standard_normal(s), dtype, requires_grad=True) for s in shapes)
    mo, to = mindtorch.cdist(m1, m2, compute_mode=mode), torch.cdist(t1, t2, compute_mode=mode)
    tol = 1e-4 if dtype == "float32" else 1e-10
    assert_same(mo, to, rtol=tol, atol=tol)
    mo.sum().backward()
    to.sum().backward()
    assert_same(m1.grad, t1.grad, rtol=tol, atol=tol)
    assert_same(m2.grad, t2.grad, rtol=tol, atol=tol)


def test_cdist_errors_and_edges():
    for a, b, kw in [((3, 4), (5, 3), {}), ((30, 4), (5, 4), {"p": -1.0}),
                     ((30, 4), (5, 4), {"compute_mode": "bad"}), ((4,), (5, 4), {}),
                     ((2,), (3,), {}), ((2,), (3,), {"p": 0.0})]:  # (1-D: the rank error)
        same_error(lambda a=a, b=b, kw=kw: mindtorch.cdist(mindtorch.ones(a), mindtorch.ones(b), **kw),
                   lambda a=a, b=b, kw=kw: torch.cdist(torch.ones(a), torch.ones(b), **kw))
    same_error(lambda: mindtorch.cdist(mindtorch.ones(30, 2), mindtorch.ones(3, 2).double()),
               lambda: torch.cdist(torch.ones(30, 2), torch.ones(3, 2).double()))
    assert_same(mindtorch.cdist(mindtorch.ones(0, 3), mindtorch.ones(30, 3)),
                torch.cdist(torch.ones(0, 3), torch.ones(30, 3)))
    assert mindtorch.cdist(mindtorch.ones(30, 3, device="meta"),
                           mindtorch.ones(4, 3, device="meta")).shape == (30, 4)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("extra", [{}, {"scale_grad_by_freq": True}, {"padding_idx": 2},
                                   {"scale_grad_by_freq": True, "padding_idx": 0},
                                   {"include_last_offset": True}])
def test_embedding_bag_weight_grad(mode, extra):
    """_embedding_bag_dense_backward's kernel: repeated rows summed in index order."""
    if mode == "max" and extra.get("scale_grad_by_freq"):
        return  # (refused: tests/nn)
    from mindtorch._ops.decls import layers_embedding as decl
    w = RNG.standard_normal((12, 6)).astype(np.float32)
    idx = np.array([3, 0, 3, 2, 7, 3, 11, 2, 2, 5, 0, 3, 9])
    # (with include_last_offset, the last offset at the end: PyTorch drops the indices past
    # it from sums but counts them in means: not reproduced)
    off = np.array([0, 4, 4, 9] + ([13] if extra.get("include_last_offset") else []))
    ours, theirs = _bag_case(mindtorch, w, idx, off, mode=mode, **extra), \
        _bag_case(torch, w, idx, off, mode=mode, **extra)
    assert_same(ours[0], theirs[0], rtol=0, atol=0)
    # the kernel against the former formula (the decomposition's steps)
    args = [extra.get("scale_grad_by_freq", False), ["sum", "mean", "max"].index(mode)]
    tail = [None, extra.get("include_last_offset", False), extra.get("padding_idx")]
    mw, mi, mo = mindtorch.tensor(w), mindtorch.tensor(idx), mindtorch.tensor(off)
    results = mindtorch.embedding_bag(mw, mi, mo, *args, False, *tail)
    grad = mindtorch.tensor(np.arange(results[0].numel(), dtype=np.float32).reshape(
        tuple(results[0].shape)) % 5 - 2)
    former = decl._embedding_bag_grad(grad, mw, mi, mo, *args, *tail, results)[0]
    np.testing.assert_allclose(ours[1].numpy(), former.numpy(), rtol=1e-6, atol=1e-6)
    # (PyTorch's scale_grad_by_freq differs from both: not reproduced)
    if not extra.get("scale_grad_by_freq"):
        assert_same(ours[1], theirs[1], rtol=1e-6, atol=1e-6)
