"""Gradients of the compat ops (decompositions): gradcheck, and torch's gradients where
torch's are right."""
import mindtorch
import numpy as np
import torch
from mindtorch.autograd import gradcheck, gradgradcheck


def _m(*shape, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return mindtorch.tensor(a).requires_grad_(), torch.tensor(a).requires_grad_()


def test_conv_tbc_grad():
    (mx, tx), (mw, tw), (mb, tb) = _m(6, 2, 3), _m(3, 3, 4, seed=1), _m(4, seed=2)
    assert gradcheck(lambda x, w, b: mindtorch.conv_tbc(x, w, b, 1), (mx, mw, mb))
    assert gradgradcheck(lambda x, w, b: mindtorch.conv_tbc(x, w, b), (mx, mw, mb))
    mindtorch.conv_tbc(mx, mw, mb, 2).pow(2).sum().backward()
    torch.conv_tbc(tx, tw, tb, 2).pow(2).sum().backward()
    for m, t in ((mx, tx), (mw, tw), (mb, tb)):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-10)


def test_as_strided_scatter_grad():
    (mx, _), (ms, ts) = _m(4, 4), _m(2, 2, seed=1)
    assert gradcheck(lambda x, s: mindtorch.as_strided_scatter(x, s, (2, 2), (1, 2), 1),
                     (mx, ms))
    # (torch's gradient for self fails torch's own gradcheck; src's agrees)
    tx = torch.tensor(mx.detach().numpy(), requires_grad=True)
    torch.as_strided_scatter(tx, ts, (2, 2), (4, 1), 5).sum().backward()
    mindtorch.as_strided_scatter(mx, ms, (2, 2), (4, 1), 5).sum().backward()
    np.testing.assert_allclose(ms.grad.numpy(), ts.grad.numpy())


def test_slice_inverse_grad():
    mx, tx = _m(12)
    ms = mx.detach()[0:6:2]
    assert gradcheck(lambda x: mindtorch.slice_inverse(x, ms), (mx,))
    mindtorch.slice_inverse(mx, ms).mul(3).sum().backward()
    assert mx.grad.tolist() == [3.0, 0.0] * 3 + [0.0] * 6  # (as_strided's: torch's backward
    try:                                               # fails on this very call)
        torch.slice_inverse(tx, tx.detach()[0:6:2]).mul(3).sum().backward()
    except RuntimeError as e:
        assert "SliceInverseBackward0 returned an invalid gradient" in str(e)


def test_weight_norm_ops_grad():
    """norm_except_dim, _weight_norm (fused dims and the others) and
    _weight_norm_interface: gradcheck, and torch's gradients."""
    (mv, tv), (mg, tg) = _m(4, 3, 2), _m(4, 1, 1, seed=1)
    assert gradcheck(lambda v: mindtorch.norm_except_dim(v, 2, 1), (mv,))
    assert gradcheck(lambda v, g: mindtorch._weight_norm(v, g, 0), (mv, mg))
    assert gradgradcheck(lambda v, g: mindtorch._weight_norm(v, g, 0), (mv, mg))
    assert gradcheck(lambda v, g: mindtorch._weight_norm_interface(v, g, 0)[0], (mv, mg))
    (mh, th) = _m(1, 3, 1, seed=2)
    for dim, (m_g, t_g) in ((0, (mg, tg)), (1, (mh, th))):
        for x in (mv, tv, m_g, t_g):
            x.grad = None
        w = _m(4, 3, 2, seed=3)
        (mindtorch._weight_norm(mv, m_g, dim) * w[0]).sum().backward()
        (torch._weight_norm(tv, t_g, dim) * w[1]).sum().backward()
        for m, t in ((mv, tv), (m_g, t_g)):
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
