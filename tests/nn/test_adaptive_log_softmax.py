"""nn.AdaptiveLogSoftmaxWithLoss against PyTorch's with the same weights: output, loss and
gradients (input and every parameter), batched and unbatched, log_prob, predict, repr,
state_dict keys, default initialisation bounds, constructor and input errors."""
import math

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from reference import to_torch, torch


def _pair(in_features=12, n_classes=20, cutoffs=(4, 9, 15), dtype="float64", **kwargs):
    m = nn.AdaptiveLogSoftmaxWithLoss(in_features, n_classes, list(cutoffs), **kwargs)
    t = torch.nn.AdaptiveLogSoftmaxWithLoss(in_features, n_classes, list(cutoffs), **kwargs)
    m.to(getattr(mindtorch, dtype))
    t.to(getattr(torch, dtype))
    t.load_state_dict({k: to_torch(v) for k, v in m.state_dict().items()})
    return m, t


def _close(a, b, tol):
    np.testing.assert_allclose(a.detach().float().numpy() if hasattr(a, "detach") else a,
                               b.detach().float().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,tol", [("float64", 1e-12), ("float32", 1e-5)])
@pytest.mark.parametrize("head_bias", [False, True])
def test_forward_backward(dtype, tol, head_bias):
    m, t = _pair(dtype=dtype, head_bias=head_bias, div_value=2.0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((9, 12))
    target = np.array([0, 3, 4, 8, 9, 14, 15, 19, 2])
    xm = mindtorch.tensor(x).to(getattr(mindtorch, dtype)).requires_grad_()
    xt = to_torch(xm.detach()).requires_grad_()
    om, lm = m(xm, mindtorch.tensor(target))
    ot, lt = t(xt, torch.from_numpy(target))
    assert type(m(xm, mindtorch.tensor(target))).__name__ == "_ASMoutput"
    _close(om, ot, tol)
    _close(lm, lt, tol)
    assert om.shape == ot.shape and lm.shape == lt.shape == ()
    (lm + om[::2].sum()).backward()
    (lt + ot[::2].sum()).backward()
    _close(xm.grad, xt.grad, tol)
    tparams = dict(t.named_parameters())
    for name, p in m.named_parameters():
        _close(p.grad, tparams[name].grad, tol)
    _close(m.log_prob(xm), t.log_prob(xt), tol)
    np.testing.assert_array_equal(m.predict(xm).numpy(), t.predict(xt).numpy())


def test_unbatched_single_cluster_and_predict_paths():
    m, t = _pair(8, 10, (6,), div_value=4.0)
    x = mindtorch.randn(8, dtype=mindtorch.float64)
    for target in (2, 7):
        om, lm = m(x, mindtorch.tensor(target))
        ot, lt = t(to_torch(x), torch.tensor(target))
        assert om.shape == ot.shape == ()
        _close(om, ot, 1e-12)
        _close(lm, lt, 1e-12)
    xs = mindtorch.randn(30, 8, dtype=mindtorch.float64) * 3
    with torch.no_grad():  # every row outside the shortlist, then a mix
        t.head.weight[:6] -= 10
    m.head.weight.data.copy_(mindtorch.tensor(t.head.weight.detach().numpy()))
    np.testing.assert_array_equal(m.predict(xs).numpy(), t.predict(to_torch(xs)).numpy())
    with torch.no_grad():
        t.head.weight[:6] += 10
    m.head.weight.data.copy_(mindtorch.tensor(t.head.weight.detach().numpy()))
    np.testing.assert_array_equal(m.predict(xs).numpy(), t.predict(to_torch(xs)).numpy())


def test_structure_and_initialisation():
    m = nn.AdaptiveLogSoftmaxWithLoss(64, 1000, [100, 400])
    t = torch.nn.AdaptiveLogSoftmaxWithLoss(64, 1000, [100, 400])
    assert repr(m) == repr(t)
    assert list(m.state_dict()) == list(t.state_dict())
    assert (m.cutoffs, m.shortlist_size, m.n_clusters, m.head_size) == \
        (t.cutoffs, t.shortlist_size, t.n_clusters, t.head_size)
    bound = 1 / math.sqrt(64)
    w = m.head.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    m.reset_parameters()
    assert np.abs(m.tail[1][1].weight.detach().numpy()).max() <= 1 / math.sqrt(4)


@pytest.mark.parametrize("cutoffs", [[], [5, 3], [0, 4], [4, 20], [4, 4], [2.5]])
def test_constructor_errors(cutoffs):
    with pytest.raises(ValueError) as want:
        torch.nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs)
    with pytest.raises(ValueError) as got:
        nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs)
    assert str(got.value) == str(want.value)


def test_input_errors():
    m, t = _pair(8, 10, (6,))
    cases = [((4, 8), [1, 2, 3]), ((3, 2, 8), [1, 2, 3]), ((8,), [[1]]), ((3, 8), 1),
             ((3, 8), [1, 10, 2]), ((3, 8), [1, -1, 2])]
    for shape, target in cases:
        x = np.zeros(shape)
        with pytest.raises(RuntimeError) as want:
            t(torch.from_numpy(x), torch.tensor(target))
        with pytest.raises(RuntimeError) as got:
            m(mindtorch.tensor(x), mindtorch.tensor(target))
        assert str(got.value) == str(want.value)
