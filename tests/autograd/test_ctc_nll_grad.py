"""ctc_loss's kernel ops "_ctc_nll" and "_ctc_nll_backward" (decls/loss_ctc.py): the cpu
kernels (the alpha / beta recursions in NumPy) against the decompositions they replace
(the forward bit for bit in float64, to an ulp or two in float32; the gradient to
rounding), finite differences, and meta."""
import mindtorch as M
import numpy as np
import pytest
from mindtorch._ops import OPS
from mindtorch._ops.decls import loss_ctc as LC

RNG = np.random.default_rng(3)


def _case(t, n, c, s, blank=0, dtype=np.float64, short=True):
    lp = M.tensor(RNG.standard_normal((t, n, c)).astype(dtype)).log_softmax(2)
    targets = RNG.integers(0, c - 1, (n, max(s, 1)))
    targets = M.tensor(np.where(targets >= blank, targets + 1, targets))  # (no blank)
    il = M.tensor(RNG.integers(0 if short else t, t + 1, n))
    tl = M.tensor(RNG.integers(0, s + 1, n))
    ext = LC._extended(LC._labels(targets, tl, tl.tolist(), blank, lp.device), blank)
    return lp, ext, il, tl


CASES = [(6, 3, 4, 2, 0), (9, 4, 5, 3, 2), (1, 2, 3, 1, 1), (7, 5, 3, 3, 0), (4, 1, 2, 0, 1)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("t,n,c,s,blank", CASES)
def test_kernels_match_the_decompositions(t, n, c, s, blank, dtype):
    lp, ext, il, tl = _case(t, n, c, s, blank, dtype)
    nll = OPS["_ctc_nll"].call(lp, ext, il, tl)
    reference = LC._negative_log_likelihood(lp, ext, il, tl).numpy()
    if dtype == np.float64:
        np.testing.assert_array_equal(nll.numpy(), reference)
    else:  # (the kernel's logf is libm's, mindtorch's float32 log the correctly rounded one)
        np.testing.assert_array_max_ulp(nll.numpy(), reference, maxulp=2)
    grad = M.tensor(RNG.standard_normal(n).astype(dtype))
    got = OPS["_ctc_nll_backward"].call(grad, lp, ext, il, tl, nll)
    with M.no_grad():
        want = LC._nll_backward(grad, lp, ext, il, tl, nll)
    tol = 1e-12 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=tol, atol=tol)
    assert got.dtype == lp.dtype and got.shape == lp.shape


def test_infinite_loss_has_a_zero_gradient():
    lp = M.tensor(RNG.standard_normal((2, 1, 3))).log_softmax(2)
    ext = M.tensor([[0, 1, 0, 2, 0]])
    il, tl = M.tensor([1]), M.tensor([2])  # one step cannot emit two labels
    nll = OPS["_ctc_nll"].call(lp, ext, il, tl)
    assert nll.item() == float("inf")
    g = OPS["_ctc_nll_backward"].call(M.ones(1, dtype=lp.dtype), lp, ext, il, tl, nll)
    assert (g == 0).all()


def test_gradcheck_through_the_kernels():
    lp, ext, il, tl = _case(5, 2, 4, 2, short=False)
    x = lp.detach().requires_grad_()
    assert M.autograd.gradcheck(lambda x: OPS["_ctc_nll"].call(x, ext, il, tl), (x,))
    nll = OPS["_ctc_nll"].call(x, ext, il, tl)
    assert type(nll.grad_fn).__name__.startswith("CtcNll")


def test_meta_shapes():
    lp, ext, il, tl = _case(5, 2, 4, 2)
    meta = [a.to("meta") for a in (lp, ext, il, tl)]
    x = meta[0].requires_grad_()
    nll = OPS["_ctc_nll"].call(x, *meta[1:])
    assert nll.shape == (2,) and nll.device.type == "meta"
    (g,) = M.autograd.grad(nll.sum(), x)
    assert g.shape == lp.shape and g.device.type == "meta"


def test_label_out_of_range_raises_as_gather():
    lp = M.tensor(RNG.standard_normal((3, 1, 3))).log_softmax(2)
    with pytest.raises(RuntimeError, match="out of bounds"):
        OPS["_ctc_nll"].call(lp, M.tensor([[0, 5, 0]]), M.tensor([3]), M.tensor([1]))


def _big_case(dtype):
    # (T * N * W * _CALLS_PER_STEP past _jit.MIN_SIZE: the compiled loops serve)
    return _case(40, 8, 6, 8, 0, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_loops_match_the_numpy_steps(dtype, monkeypatch):
    pytest.importorskip("numba")
    from mindtorch_cpu.kernels import _jit, ctc
    lp, ext, il, tl = _big_case(dtype)
    assert ctc.compiled("_ctc_loops", 40 * 8 * 17 * ctc._CALLS_PER_STEP) is not None
    grad = M.tensor(RNG.standard_normal(8).astype(dtype))
    nll = OPS["_ctc_nll"].call(lp, ext, il, tl)
    g = OPS["_ctc_nll_backward"].call(grad, lp, ext, il, tl, nll)
    monkeypatch.setitem(_jit._modules, "_ctc_loops", False)  # (as without numba)
    nll_np = OPS["_ctc_nll"].call(lp, ext, il, tl)
    g_np = OPS["_ctc_nll_backward"].call(grad, lp, ext, il, tl, nll_np)
    reference = LC._negative_log_likelihood(lp, ext, il, tl).numpy()
    if dtype == np.float64:
        np.testing.assert_array_equal(nll_np.numpy(), reference)
    else:  # (libm's logf against the correctly rounded one, as in the test above)
        np.testing.assert_array_max_ulp(nll_np.numpy(), reference, maxulp=2)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(nll.numpy(), nll_np.numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(g.numpy(), g_np.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("compiled", [True, False])
def test_ctc_loss_like_torch_both_paths(compiled, monkeypatch):
    torch = pytest.importorskip("torch")
    from mindtorch_cpu.kernels import _jit
    if not compiled:
        monkeypatch.setitem(_jit._modules, "_ctc_loops", False)
    else:
        pytest.importorskip("numba")
    x = RNG.standard_normal((40, 8, 6))
    targets = RNG.integers(1, 6, (8, 8))
    il, tl = RNG.integers(20, 41, 8), RNG.integers(0, 9, 8)
    xm = M.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    lm = M.nn.functional.ctc_loss(xm.log_softmax(2), M.tensor(targets), M.tensor(il),
                                  M.tensor(tl), reduction="sum")
    lt = torch.nn.functional.ctc_loss(xt.log_softmax(2), torch.tensor(targets),
                                      torch.tensor(il), torch.tensor(tl), reduction="sum")
    lm.backward()
    lt.backward()
    np.testing.assert_allclose(lm.item(), lt.item(), rtol=1e-12)
    np.testing.assert_allclose(xm.grad.numpy(), xt.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_cpu_runs_the_kernels():
    # (a guard against falling back to the decompositions: ~80x slower than PyTorch)
    from mindtorch_cpu.kernels import ctc
    for name in ("_ctc_nll", "_ctc_nll_backward"):
        assert OPS[name].resolve("cpu") is ctc.KERNELS[name]
