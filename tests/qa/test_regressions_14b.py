"""Regression tests for round qa14b (speed of training ops: cdist's p = 2 gradient as
PyTorch's matrix-product form, fused group norm, ...), each against torch."""
import mindtorch
import numpy as np
import pytest
from reference import assert_same, pair

torch = pytest.importorskip("torch")

_R = np.random.default_rng(14)


def _grads(lib_inputs, fn, grad):
    out = fn(*lib_inputs)
    out.backward(grad)
    return [out] + [t.grad for t in lib_inputs]


# -- cdist: p = 2 through the matrix-product form differentiates as PyTorch's
# _euclidean_dist_backward (two products), the direct form as _cdist_backward

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", [((40, 6), (30, 6)), ((3, 30, 4), (3, 28, 4)),
                                    ((2, 1, 27, 3), (3, 5, 3)), ((0, 4), (30, 4)),
                                    ((30, 4), (0, 4)), ((10, 3), (12, 3))])
@pytest.mark.parametrize("mode", [None, "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "duplicate rows"])
def test_cdist_p2_gradients(dtype, shapes, mode, layout):
    s1, s2 = shapes
    a, b = _R.standard_normal(s1), _R.standard_normal(s2)
    if layout == "duplicate rows" and s1[-2] and s2[-2]:
        b[..., 0, :] = a.reshape(-1, s1[-1])[0]  # a zero distance: subgradient 0
    (x1, t1), (x2, t2) = pair(a, dtype, True), pair(b, dtype, True)
    if layout == "transposed":
        x1, t1 = x1.mT.contiguous().mT, t1.mT.contiguous().mT
        x1.retain_grad()
        t1.retain_grad()
    kw = {} if mode is None else {"compute_mode": mode}
    g = _R.standard_normal(np.broadcast_shapes(s1[:-2], s2[:-2]) + (s1[-2], s2[-2]))
    gm, gt = pair(g, dtype)
    ours = _grads([x1, x2], lambda x, y: mindtorch.cdist(x, y, **kw), gm)
    theirs = _grads([t1, t2], lambda x, y: torch.cdist(x, y, **kw), gt)
    tol = {"float32": {"rtol": 1e-4, "atol": 1e-4}, "float64": {"rtol": 1e-9, "atol": 1e-9}}
    # (at a zero distance the matrix-product form's rounding leaves a tiny distance, its own
    # in each library, and gradients of size 1 / distance: only the direct form compared)
    if layout == "duplicate rows" and (mode == "use_mm_for_euclid_dist" or
                                       (mode is None and max(s1[-2], s2[-2]) > 25)):
        return
    assert_same(ours, theirs, **tol[dtype])


def test_cdist_p2_double_backward():
    (x1, t1), (x2, t2) = pair(_R.standard_normal((30, 3)), "float64", True), \
        pair(_R.standard_normal((26, 3)), "float64", True)
    res = []
    for lib, a, b in ((mindtorch, x1, x2), (torch, t1, t2)):
        d = lib.cdist(a, b)
        (ga,) = lib.autograd.grad(d.sum(), a, create_graph=True)
        res.append(lib.autograd.grad((ga * ga).sum(), (a, b)))
    assert_same(res[0], res[1], rtol=1e-8, atol=1e-8)


# -- group norm: cpu kernels for native_group_norm and _group_norm_backward (compiled loops
# from _jit.MIN_SIZE float32 elements, NumPy below), the decomposition's bits

def _group_norm_run(lib, x, g, group, w, b, layout, grad_layout, stats):
    def leaf(a, dtype):
        t = lib.tensor(a) if lib is mindtorch else torch.from_numpy(a.copy())
        return t.to(getattr(lib, dtype))
    dtype = str(x.dtype)
    xt = leaf(x, dtype)
    if layout == "channels_last":
        xt = xt.contiguous(memory_format=lib.channels_last)
    elif layout == "transposed":
        xt = xt.transpose(0, 1).contiguous().transpose(0, 1)
    xt.requires_grad_()
    params = [None if a is None else leaf(a, dtype).requires_grad_() for a in (w, b)]
    if stats:  # the mean and rstd outputs take part in the loss
        N, C = x.shape[:2]
        y, mean, rstd = lib.native_group_norm(xt.contiguous(), *params, N, C,
                                              int(np.prod(x.shape[2:])), group, 1e-5)
        loss = (y * leaf(g, dtype)).sum() + (mean * mean).sum() + rstd.sum()
        loss.backward()
        outs = [y, mean, rstd]
    else:
        y = lib.nn.functional.group_norm(xt, group, *params)
        gt = leaf(g, dtype)
        if grad_layout == "expanded":
            gt = gt.sum().reshape(()).expand(y.shape)
        y.backward(gt)
        outs = [y]
    return outs + [t.grad for t in [xt] + params if t is not None]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, group", [((4, 6, 5, 5), 3), ((2, 8, 6), 4), ((3, 4), 2),
                                          ((2, 6, 3, 2, 2), 1), ((0, 4, 3), 2),
                                          ((2, 4, 0), 2)])
@pytest.mark.parametrize("affine", ["weight, bias", "weight", "bias", "none"])
@pytest.mark.parametrize("compiled", [False, True])
def test_group_norm_forward_and_backward(dtype, shape, group, affine, compiled, monkeypatch):
    from mindtorch_cpu.kernels import _jit
    if compiled:  # (the compiled loops at any size)
        monkeypatch.setattr(_jit, "MIN_SIZE", 1)
    # (its own draws: the shared RNG's depend on the worker's test order, and groups of two
    # elements with a near-zero variance amplify float32 roundings past rtol)
    rng = np.random.default_rng(102)
    x, g = rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)
    C = shape[1]
    w = rng.standard_normal(C).astype(dtype) if "weight" in affine else None
    b = rng.standard_normal(C).astype(dtype) if "bias" in affine else None
    for layout, grad_layout, stats in (("contiguous", "contiguous", False),
                                       ("contiguous", "expanded", False),
                                       ("transposed", "contiguous", False),
                                       ("channels_last", "contiguous", False),
                                       ("contiguous", "contiguous", True)):
        if layout == "channels_last" and len(shape) != 4:
            continue
        ours = _group_norm_run(mindtorch, x, g, group, w, b, layout, grad_layout, stats)
        try:
            theirs = _group_norm_run(torch, x, g, group, w, b, layout, grad_layout, stats)
        except RuntimeError:  # (PyTorch's backward fails with a bias but no weight)
            if w is None and b is not None:
                continue
            raise
        assert_same(ours, theirs, rtol=1e-4 if dtype == "float32" else 1e-10,
                    atol=1e-4 if dtype == "float32" else 1e-10)
        if not stats:
            assert ours[0].stride() == theirs[0].stride()
            assert ours[1].stride() == theirs[1].stride()


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_group_norm_kernels_give_the_decompositions_bits(compiled, dtype, monkeypatch):
    import mindtorch._ops.decls.normalization as N
    from mindtorch._ops import OPS
    from mindtorch_cpu.kernels import _jit
    if compiled:
        monkeypatch.setattr(_jit, "MIN_SIZE", 1)
    mt = mindtorch
    for shape, group in (((4, 8, 7, 7), 4), ((3, 6, 10), 6), ((5, 4), 1)):
        x = mt.tensor(_R.standard_normal(shape) * 3).to(getattr(mt, dtype))
        x.view(-1)[0] = 0.0
        C, N_, HxW = shape[1], shape[0], x[0, 0].numel()
        w, b = (mt.tensor(_R.standard_normal(C)).to(x.dtype) for _ in range(2))
        for params in ((w, b), (None, None), (w, None), (None, b)):
            args = (x, *params, N_, C, HxW, group, 1e-5)
            for ours, reference in zip(OPS["native_group_norm"].call(*args),
                                       N._native_group_norm(*args)):
                assert ours.numpy().tobytes() == reference.numpy().tobytes()
            _, mean, rstd = N._native_group_norm(*args)
            g = mt.tensor(_R.standard_normal(shape)).to(x.dtype)
            gm, gr = (mt.tensor(_R.standard_normal((N_, group))).to(x.dtype) for _ in range(2))
            for extra in ((None, None), (gm, gr), (gm * 0, gr * 0)):
                for grad in (g, g.sum().expand(shape)):
                    args = (grad, x, mean, rstd, params[0], *extra, N_, C, HxW, group)
                    for ours, reference in zip(OPS["_group_norm_backward"].call(*args),
                                               N._group_norm_backward(*args)):
                        assert ours.numpy().tobytes() == reference.numpy().tobytes()


# -- adaptive_avg_pool2d: window sums by a compiled loop from _jit.MIN_SIZE elements (the
# NumPy path's bits: in window order from zero, then / height / width)

@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("shape, size", [((2, 3, 28, 28), 5), ((2, 3, 10, 13), (4, 6)),
                                         ((2, 3, 5, 5), (7, 9)), ((3, 17, 19), 4),
                                         ((2, 4, 6, 6), (None, 4))])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "sliced"])
def test_adaptive_avg_pool2d_window_loop(dtype, shape, size, layout, monkeypatch):
    from mindtorch_cpu.kernels import _jit
    a = _R.standard_normal(shape)
    a.flat[::13] = np.nan
    a.flat[1::17] = -0.0
    results = []
    for min_size in (1 << 60, 1):  # the NumPy path, then the compiled loop
        monkeypatch.setattr(_jit, "MIN_SIZE", min_size)
        x, t = pair(a, dtype, True)
        if layout == "channels_last" and len(shape) == 4:
            x, t = (v.detach().contiguous(memory_format=L.channels_last).requires_grad_()
                    for v, L in ((x, mindtorch), (t, torch)))
        elif layout == "sliced":
            x, t = x[..., ::2, :], t[..., ::2, :]
        y, yt = (L.nn.functional.adaptive_avg_pool2d(v, size) for v, L in ((x, mindtorch),
                                                                            (t, torch)))
        assert_same(y, yt, check_stride=True)
        results.append(y.detach().float().numpy().tobytes())
    assert results[0] == results[1]


# -- embedding_bag: short bags' sums (the backward's, per weight row) added round by round
# over the bags still that long, not as a block padded with zero rows: PyTorch's sums

@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("rows", [10000, 6])  # (mostly distinct indices; many repeats)
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_bag_short_bag_sums(mode, rows, weighted):
    if weighted and mode == "mean":
        pytest.skip("per_sample_weights take mode='sum'")
    w = _R.standard_normal((rows, 32))
    idx, psw = _R.integers(0, rows, (48, 20)), _R.standard_normal((48, 20))
    g = _R.standard_normal((48, 32))
    results = []
    for lib in (mindtorch, torch):
        wt = (lib.tensor(w) if lib is mindtorch else torch.from_numpy(w)).float()
        wt.requires_grad_()
        T = lib.tensor if lib is mindtorch else torch.from_numpy
        kw = {"per_sample_weights": T(psw).float()} if weighted else {}
        y = lib.nn.functional.embedding_bag(T(idx), wt, mode=mode, **kw)
        y.backward(T(g).float())
        results.append([y.detach().numpy().tobytes(), wt.grad.numpy().tobytes()])
    assert results[0] == results[1]


# -- mse_loss: a cpu kernel for the mean / sum of contiguous same-dtype operands (NumPy's
# sub and mul, then the reduction kernel: the decomposition's bits)

@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shapes", [((64, 100), (64, 100)), ((5,), (5,)), ((), ()),
                                    ((0, 3), (0, 3)), ((4, 6), (6,))])
@pytest.mark.parametrize("transposed", [False, True])
def test_mse_loss_kernel(dtype, reduction, shapes, transposed):
    import warnings

    import mindtorch._ops.decls.loss as L
    a, b = _R.standard_normal(shapes[0]), _R.standard_normal(shapes[1])
    (x, xt), (y, yt) = pair(a, dtype, True), pair(b, dtype)
    if transposed and x.ndim == 2:
        x, xt = x.mT.contiguous().mT, xt.mT.contiguous().mT
        x.retain_grad()
        xt.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (broadcasting shapes warn in both)
        ours = mindtorch.nn.functional.mse_loss(x, y, reduction=reduction)
        theirs = torch.nn.functional.mse_loss(xt, yt, reduction=reduction)
    assert_same(ours, theirs)
    ours.sum().backward()
    theirs.sum().backward()
    assert_same(x.grad, xt.grad)
    code = {"none": 0, "mean": 1, "sum": 2}[reduction]
    with mindtorch.no_grad():
        reference = L._mse_loss(x, y.expand(x.shape), code)
        kernel = mindtorch._ops.OPS["_mse_loss"].call(x, y.expand(x.shape), code)
    assert kernel.float().numpy().tobytes() == reference.float().numpy().tobytes()
