"""torch.nn.grad (conv{1,2,3}d_input / _weight) against PyTorch: values for strides,
padding, dilation and groups, and differentiability when a given tensor requires grad."""
import mindtorch
import numpy as np
import pytest
import torch

CASES = [  # (nd, input shape, weight shape, conv keywords)
    (1, (2, 4, 9), (6, 2, 3), {"stride": 2, "padding": 1, "groups": 2}),
    (2, (1, 2, 7, 6), (3, 2, 3, 2), {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2)}),
    (2, (2, 3, 5, 5), (3, 1, 3, 3), {"groups": 3}),
    (3, (1, 2, 4, 5, 4), (2, 2, 2, 3, 2), {"stride": 2, "padding": 1}),
]


@pytest.mark.parametrize("nd,xs,ws,kw", CASES)
def test_conv_input_and_weight_gradients_as_torch(nd, xs, ws, kw):
    rng = np.random.default_rng(nd)
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    go_shape = tuple(getattr(torch.nn.functional, f"conv{nd}d")(
        torch.from_numpy(x), torch.from_numpy(w), None, **kw).shape)
    go = rng.standard_normal(go_shape)
    outs = []
    for L in (mindtorch, torch):
        def t(a, rg=False, L=L):
            return L.tensor(a, requires_grad=rg)
        gx = getattr(L.nn.grad, f"conv{nd}d_input")(xs, t(w), t(go), **kw)
        gw = getattr(L.nn.grad, f"conv{nd}d_weight")(t(x), ws, t(go), **kw)
        gor = t(go, True)
        gx2 = getattr(L.nn.grad, f"conv{nd}d_input")(list(xs), t(w), gor, **kw)
        gx2.pow(2).sum().backward()
        outs.append([gx.numpy(), gw.numpy(), gx.requires_grad, gx2.requires_grad,
                     gor.grad.numpy()])
    for o, e in zip(*outs):
        np.testing.assert_allclose(o, e, rtol=1e-10, atol=1e-12)
