"""16-bit (float16 / bfloat16) kernels rounding as PyTorch's CPU kernels: the same inputs give
the same bits (or, where stated, within a stated number of 16-bit steps)."""
import mindtorch
import numpy as np
import pytest
from mindtorch._ops.registry import OPS

from reference import to_torch

torch = pytest.importorskip("torch")

HALVES = ["float16", "bfloat16"]


def mt(t):
    """A mindtorch copy of torch tensor t (dtype and values)."""
    if t is None:
        return None
    if t.dtype == torch.bfloat16:
        return mindtorch.tensor(t.float().contiguous().numpy()).to(mindtorch.bfloat16)
    return mindtorch.tensor(t.contiguous().numpy())


def steps(m, t):
    """The largest distance in 16-bit steps (units in the last place) between the values."""
    a = to_torch(m)
    assert a.dtype == t.dtype and tuple(a.shape) == tuple(t.shape), (a.dtype, a.shape, t.shape)
    if not a.numel():
        return 0
    if t.dtype not in (torch.float16, torch.bfloat16):
        t, a = t.to(torch.float16 if m.dtype is mindtorch.float16 else torch.bfloat16), \
            a.to(torch.float16 if m.dtype is mindtorch.float16 else torch.bfloat16)
    ia = a.contiguous().view(torch.int16).numpy().astype(np.int64)
    it = t.contiguous().view(torch.int16).numpy().astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFF), ia)
    it = np.where(it < 0, -(it & 0x7FFF), it)
    return int(np.abs(ia - it).max())


def same_bits(m, t):
    a = to_torch(m)
    assert a.dtype == t.dtype and tuple(a.shape) == tuple(t.shape), (a.dtype, a.shape, t.shape)
    assert torch.equal(a.reshape(-1).float().isnan(), t.reshape(-1).float().isnan())
    bad = (a.reshape(-1) != t.reshape(-1)) & ~t.reshape(-1).isnan()
    assert not bad.any(), (a.reshape(-1)[bad][:5], t.reshape(-1)[bad][:5], int(bad.sum()))


# -- layer norm's backward -----------------------------------------------------------------

LN_CASES = [((7, 5), 1), ((6, 13), 1), ((9, 16), 1), ((4, 25), 1), ((300, 40), 1),
            ((3, 11, 64), 1), ((5, 3, 9, 7), 2), ((2, 100), 1)]


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape,k", LN_CASES)
@pytest.mark.parametrize("params", ["same", "float32", "none"])
def test_layer_norm_backward_bits(dtype, shape, k, params):
    """The gradients from PyTorch's saved statistics equal PyTorch's bit for bit: input,
    weight and bias (weights of the input's dtype, float32 weights, no weights)."""
    dt = getattr(torch, dtype)
    ns = shape[-k:]
    x = torch.randn(shape).to(dt)
    w = b = None
    if params != "none":
        w, b = torch.randn(ns), torch.randn(ns)
        if params == "same":
            w, b = w.to(dt), b.to(dt)
    _, mean, rstd = torch.native_layer_norm(x, ns, w, b, 1e-5)
    dy = torch.randn(shape).to(dt)
    ref = torch.ops.aten.native_layer_norm_backward(dy, x, ns, mean, rstd, w, b,
                                                    [True, w is not None, b is not None])
    got = OPS["_layer_norm_backward"].call(mt(dy), mt(x), mt(mean), mt(rstd), mt(w), ns)
    same_bits(got[0].to(mt(x).dtype), ref[0])
    if w is not None:
        same_bits(got[1].to(mt(w).dtype), ref[1])
        same_bits(got[2].to(mt(b).dtype), ref[2])


@pytest.mark.parametrize("dtype", HALVES)
def test_layer_norm_backward_non_contiguous(dtype):
    dt = getattr(torch, dtype)
    xb, dyb = torch.randn(40, 6, 3).to(dt), torch.randn(3, 40, 6).to(dt)
    x, dy = xb.transpose(0, 2), dyb.transpose(1, 2)  # (3, 6, 40), strided
    xm, dym = mt(xb).transpose(0, 2), mt(dyb).transpose(1, 2)
    assert not xm.is_contiguous() and not dym.is_contiguous()
    w, b = torch.randn(40).to(dt), torch.randn(40).to(dt)
    _, mean, rstd = torch.native_layer_norm(x, (40,), w, b, 1e-5)
    ref = torch.ops.aten.native_layer_norm_backward(dy, x, (40,), mean, rstd, w, b, [True] * 3)
    got = OPS["_layer_norm_backward"].call(dym, xm, mt(mean), mt(rstd), mt(w), (40,))
    for g, r in zip(got, ref):
        same_bits(g.to(xm.dtype), r)


@pytest.mark.parametrize("dtype", HALVES)
def test_layer_norm_autograd_within_a_step(dtype):
    """Through autograd (mindtorch's own forward statistics): at most one step apart."""
    dt = getattr(torch, dtype)
    x = torch.randn(8, 33, 64).to(dt).requires_grad_()
    w = torch.randn(64).to(dt).requires_grad_()
    b = torch.randn(64).to(dt).requires_grad_()
    dy = torch.randn(8, 33, 64).to(dt)
    torch.nn.functional.layer_norm(x, (64,), w, b).backward(dy)
    xm, wm, bm = (mt(t.detach()).requires_grad_() for t in (x, w, b))
    mindtorch.nn.functional.layer_norm(xm, (64,), wm, bm).backward(mt(dy))
    assert steps(xm.grad, x.grad) <= 1
    assert steps(wm.grad, w.grad) <= 1
    assert steps(bm.grad, b.grad) == 0


# -- batch norm in training ------------------------------------------------------------------

BN_SHAPES = [(8, 5, 7, 7), (4, 3, 16), (6, 4), (16, 7, 9, 9), (2, 3, 5, 9), (3, 6, 33)]


def _bn_pair(shape, dtype, params):
    dt = getattr(torch, dtype)
    c = shape[1]
    pdt = torch.float32 if params == "float32" else dt
    x = torch.randn(shape).to(dt)
    w = b = None
    if params != "none":
        w, b = torch.randn(c).to(pdt), torch.randn(c).to(pdt)
    rm, rv = torch.randn(c).to(pdt), (torch.rand(c) + 0.5).to(pdt)
    return x, w, b, rm, rv


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape", BN_SHAPES)
@pytest.mark.parametrize("params", ["same", "float32", "none"])
def test_batch_norm_training_bits(dtype, shape, params):
    """Output, running statistics, saved statistics and the three gradients equal
    PyTorch's bit for bit (parameters and running statistics of the input's dtype or
    float32, or none)."""
    x, w, b, rm, rv = _bn_pair(shape, dtype, params)
    xm, wm, bm, rmm, rvm = (mt(t) for t in (x, w, b, rm, rv))
    ref = torch.native_batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5)
    got = mindtorch.native_batch_norm(xm, wm, bm, rmm, rvm, True, 0.1, 1e-5)
    for g, r in zip(got, ref):
        same_bits(g, r)
    same_bits(rmm, rm)
    same_bits(rvm, rv)
    dy = torch.randn(shape).to(x.dtype)
    grads = torch.ops.aten.native_batch_norm_backward(dy, x, w, None, None, ref[1], ref[2],
                                                      True, 1e-5, [True, w is not None,
                                                                   w is not None])
    xm.requires_grad_()
    if w is not None:
        wm.requires_grad_()
        bm.requires_grad_()
    mindtorch.nn.functional.batch_norm(xm, None, None, wm, bm, True).backward(mt(dy))
    same_bits(xm.grad, grads[0])
    if w is not None:
        same_bits(wm.grad, grads[1])
        same_bits(bm.grad, grads[2])


@pytest.mark.parametrize("dtype", HALVES)
def test_batch_norm_training_modules(dtype):
    """nn.BatchNorm2d of the dtype over two steps: outputs, running stats and gradients."""
    dt = getattr(torch, dtype)
    ref = torch.nn.BatchNorm2d(6).to(dt)
    mod = mindtorch.nn.BatchNorm2d(6).to(getattr(mindtorch, dtype))
    for _ in range(2):
        x = torch.randn(4, 6, 5, 5).to(dt).requires_grad_()
        xm = mt(x.detach()).requires_grad_()
        y, ym = ref(x), mod(xm)
        same_bits(ym, y)
        dy = torch.randn(y.shape).to(dt)
        y.backward(dy)
        ym.backward(mt(dy))
        same_bits(xm.grad, x.grad)
    same_bits(mod.running_mean, ref.running_mean)
    same_bits(mod.running_var, ref.running_var)
    same_bits(mod.weight.grad, ref.weight.grad)
    same_bits(mod.bias.grad, ref.bias.grad)


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape", [(8, 6, 5, 5), (4, 20, 3, 7), (2, 3, 4, 4, 3)])
@pytest.mark.parametrize("params", ["same", "float32"])
def test_batch_norm_training_channels_last_bits(dtype, shape, params):
    """A channels-last input (ATen's channels-last kernels: each channel's values in
    order): output, running statistics and gradients bit for bit."""
    x, w, b, rm, rv = _bn_pair(shape, dtype, params)
    fmt = torch.channels_last if len(shape) == 4 else torch.channels_last_3d
    mfmt = mindtorch.channels_last if len(shape) == 4 else mindtorch.channels_last_3d
    x = x.contiguous(memory_format=fmt).requires_grad_()
    xm = mt(x.detach()).contiguous(memory_format=mfmt).requires_grad_()
    wm, bm, rmm, rvm = (mt(t) for t in (w, b, rm, rv))
    y = torch.nn.functional.batch_norm(x, rm, rv, w, b, True)
    ym = mindtorch.nn.functional.batch_norm(xm, rmm, rvm, wm, bm, True)
    same_bits(ym, y)
    assert ym.stride() == y.stride()
    same_bits(rmm, rm)
    same_bits(rvm, rv)
    dy = torch.randn(shape).to(x.dtype).contiguous(memory_format=fmt)
    y.backward(dy)
    ym.backward(mt(dy).contiguous(memory_format=mfmt))
    same_bits(xm.grad, x.grad)


@pytest.mark.parametrize("dtype", HALVES)
def test_batch_norm_training_permuted_input_within_steps(dtype):
    """Other layouts (here a permuted batch) take ATen's strided kernel: not modelled; the
    decomposition stays within a few steps of it (measured: up to 2 for the running
    statistics; the output, where values cancel, further)."""
    dt = getattr(torch, dtype)
    base = torch.randn(6, 8, 5, 5).to(dt)
    x, xm = base.transpose(0, 1), mt(base).transpose(0, 1)
    rm, rv = torch.zeros(6).to(dt), torch.ones(6).to(dt)
    rmm, rvm = mt(rm), mt(rv)
    y = torch.nn.functional.batch_norm(x, rm, rv, None, None, True)
    ym = mindtorch.nn.functional.batch_norm(xm, rmm, rvm, None, None, True)
    assert steps(rmm, rm) <= 2 and steps(rvm, rv) <= 2
    torch.testing.assert_close(to_torch(ym).float(), y.float(), rtol=0.02, atol=0.02)


# -- nll_loss's sums -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("rows", [1, 17, 256, 257, 3000, 4097])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignored", [False, True])
def test_nll_loss_reductions_bits(dtype, rows, weighted, ignored):
    """mean and sum over many rows (ATen's 16-bit cascade of partial sums) and their
    gradients, bit for bit; with class weights and ignored targets."""
    dt = getattr(torch, dtype)
    x = (torch.randn(rows, 10) * 3).to(dt).requires_grad_()
    t = torch.randint(0, 10, (rows,))
    if ignored:
        t[::7] = -100
    w = (torch.rand(10) + 0.5).to(dt) if weighted else None
    xm = mt(x.detach()).requires_grad_()
    tm, wm = mindtorch.tensor(t.numpy()), mt(w)
    for reduction in ("mean", "sum"):
        x.grad, xm.grad = None, None
        ref = torch.nn.functional.nll_loss(x, t, w, reduction=reduction)
        got = mindtorch.nn.functional.nll_loss(xm, tm, wm, reduction=reduction)
        same_bits(got, ref)
        g = torch.randn(()).to(dt)
        ref.backward(g)
        got.backward(mt(g))
        same_bits(xm.grad, x.grad)


@pytest.mark.parametrize("dtype", HALVES)
def test_cross_entropy_bits(dtype):
    dt = getattr(torch, dtype)
    x = torch.randn(500, 7).to(dt)
    t = torch.randint(0, 7, (500,))
    same_bits(mindtorch.nn.functional.cross_entropy(mt(x), mindtorch.tensor(t.numpy())),
              torch.nn.functional.cross_entropy(x, t))


# -- prod --------------------------------------------------------------------------------------

PROD_CASES = [((16, 100), -1), ((100,), None), ((3, 200), 1), ((200, 3), 0), ((7, 64), -1),
              ((5, 63), 1), ((2, 3, 70), None), ((70, 4), None), ((4, 130), 1), ((3, 4, 5), 1)]


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape,dim", PROD_CASES)
@pytest.mark.parametrize("keepdim", [False, True])
def test_prod_bits(dtype, shape, dim, keepdim):
    """prod (ATen's order: 4 vectors of 16 lanes along a contiguous dim of 64 or more,
    every product rounded) and its gradient grad * (result / input), bit for bit."""
    if dim is None and keepdim:
        pytest.skip("prod() has no keepdim")
    dt = getattr(torch, dtype)
    x = (torch.rand(shape) * 0.6 + 0.7).to(dt).requires_grad_()
    xm = mt(x.detach()).requires_grad_()
    r = x.prod() if dim is None else x.prod(dim, keepdim=keepdim)
    m = xm.prod() if dim is None else xm.prod(dim, keepdim=keepdim)
    same_bits(m, r)
    g = torch.randn(r.shape).to(dt)
    r.backward(g)
    m.backward(mt(g))
    same_bits(xm.grad, x.grad)


@pytest.mark.parametrize("dtype", HALVES)
def test_prod_layouts_and_zeros(dtype):
    dt = getattr(torch, dtype)
    base = (torch.rand(100, 8) * 0.6 + 0.7).to(dt)
    x, xm = base.t(), mt(base).t()  # (the reduced dim strided: rows in order)
    same_bits(xm.prod(1), x.prod(1))
    same_bits(xm.prod(), x.prod())
    same_bits(xm.prod(0, keepdim=True), x.prod(0, keepdim=True))
    z = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 1.5]]).to(dt).requires_grad_()
    zm = mt(z.detach()).requires_grad_()
    z.prod(1).sum().backward()
    zm.prod(1).sum().backward()
    same_bits(zm.grad, z.grad)


# -- softmax along an inner dim ------------------------------------------------------------

@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape,dim", [((16, 100), 0), ((4, 5, 33), 1), ((40, 3, 3), 0),
                                       ((8, 17, 20), 1), ((30, 64), 0), ((3, 50, 7, 5), 1)])
def test_softmax_inner_dim(dtype, shape, dim):
    """softmax over a dim that is not the last: ATen's kernel divides float32 exps by their
    float32 sum, except in each thread's piece's tail (past its last whole vector of 16
    positions, 32 with AVX-512), where the exp is first stored in the 16-bit dtype.  Bit for bit but for rare last-bit differences (float16's
    kernel rounds more steps; tiny values can differ by 2 steps): within a step of the
    result's scale."""
    dt = getattr(torch, dtype)
    x = (torch.randn(shape) * 3).to(dt).requires_grad_()
    xm = mt(x.detach()).requires_grad_()
    r, m = torch.softmax(x, dim), mindtorch.softmax(xm, dim)
    g = torch.randn(shape).to(dt)
    r.backward(g)
    m.backward(mt(g))
    _within_steps(m, r, 1)
    _within_steps(xm.grad, x.grad, 1)
    assert (to_torch(m) != r).float().mean() < 0.01  # (nearly all equal)


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("shape,dim", [((16, 100), 0), ((60, 40), 0), ((3, 50, 7, 5), 1)])
def test_softmax_inner_dim_split_among_threads(dtype, shape, dim):
    """With 2 threads ATen splits the (outer, inner) positions in halves: each half has its
    own vectors and tail (here the pieces end inside a row)."""
    dt = getattr(torch, dtype)
    x = (torch.randn(shape) * 3).to(dt)
    saved = torch.get_num_threads(), mindtorch.get_num_threads()
    try:
        torch.set_num_threads(2)
        mindtorch.set_num_threads(2)
        r, m = torch.softmax(x, dim), mindtorch.softmax(mt(x), dim)
    finally:
        torch.set_num_threads(saved[0])
        mindtorch.set_num_threads(saved[1])
    assert (to_torch(m) != r).float().mean() < 0.002  # (exp's last bit, rarely)


# -- not modelled: how far they stay -------------------------------------------------------

def _within_steps(m, t, k):
    """|difference| <= k steps of the largest value (16-bit epsilon times max |t|): these
    kernels' GEMM / attention blocking is not modelled, so bits differ, by a few steps of
    the result's scale."""
    a, b = to_torch(m).float(), t.float()
    eps = torch.finfo(t.dtype).eps
    assert (a - b).abs().max() <= k * eps * b.abs().max(), (
        float((a - b).abs().max() / b.abs().max() / eps))


@pytest.mark.parametrize("dtype", HALVES)
@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_recurrent_gradients_within_steps(dtype, kind):
    """Outputs within a step of PyTorch's (mostly equal); gradients (measured: up to
    ~2.2 steps of their scale) within 4."""
    dt = getattr(torch, dtype)
    ref = getattr(torch.nn, kind)(8, 16, batch_first=True).to(dt)
    mod = getattr(mindtorch.nn, kind)(8, 16, batch_first=True).to(getattr(mindtorch, dtype))
    with mindtorch.no_grad():
        for p, q in zip(ref.parameters(), mod.parameters()):
            q.copy_(mt(p.detach()))
    x = torch.randn(3, 5, 8).to(dt).requires_grad_()
    xm = mt(x.detach()).requires_grad_()
    y, ym = ref(x)[0], mod(xm)[0]
    assert steps(ym, y) <= 1
    g = torch.randn(y.shape).to(dt)
    y.backward(g)
    ym.backward(mt(g))
    _within_steps(xm.grad, x.grad, 4)
    for p, q in zip(ref.parameters(), mod.parameters()):
        _within_steps(q.grad, p.grad, 4)


@pytest.mark.parametrize("dtype", HALVES)
def test_conv2d_and_attention_within_steps(dtype):
    """conv2d's output within a step of PyTorch's (mostly equal); its gradients (measured
    ~1 step of their scale) and scaled_dot_product_attention (~0.3 step) within 2."""
    dt = getattr(torch, dtype)
    x = torch.randn(2, 3, 9, 9).to(dt).requires_grad_()
    w = torch.randn(4, 3, 3, 3).to(dt).requires_grad_()
    xm, wm = mt(x.detach()).requires_grad_(), mt(w.detach()).requires_grad_()
    y = torch.nn.functional.conv2d(x, w, padding=1)
    ym = mindtorch.nn.functional.conv2d(xm, wm, padding=1)
    _within_steps(ym, y, 1)
    g = torch.randn(y.shape).to(dt)
    y.backward(g)
    ym.backward(mt(g))
    _within_steps(xm.grad, x.grad, 2)
    _within_steps(wm.grad, w.grad, 2)
    q, k, v = (torch.randn(2, 3, n, 16).to(dt) for n in (10, 12, 12))
    _within_steps(mindtorch.nn.functional.scaled_dot_product_attention(mt(q), mt(k), mt(v)),
                  torch.nn.functional.scaled_dot_product_attention(q, k, v), 2)
