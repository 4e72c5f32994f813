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
