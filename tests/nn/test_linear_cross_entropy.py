"""F.linear_cross_entropy, nn.LinearCrossEntropyLoss and nn.LinearCrossEntropyOptions
against PyTorch: losses and gradients (input, weight, bias) for class and probability
targets, per-class weights, ignore_index, label smoothing, every reduction, 1-d input and a
K-dim loss (out_features); options (validation, PyTorch's warning where its chunked path
does not apply); module repr, parameters and errors."""
import warnings

import numpy as np
import pytest

import mindtorch
import mindtorch.nn.functional as MF
from reference import to_torch, torch

F = torch.nn.functional
rng = np.random.default_rng(0)


def _leaf(*shape):
    m = mindtorch.tensor(rng.standard_normal(shape)).requires_grad_()
    return m, to_torch(m).requires_grad_()


def _compare(x_shape, w_shape, target, bias=False, weight=None, options_t=None,
             options_m=None, **kwargs):
    xm, xt = _leaf(*x_shape)
    wm, wt = _leaf(*w_shape)
    bm, bt = _leaf(*(w_shape[:-1])) if bias else (None, None)
    tm = target if not isinstance(target, torch.Tensor) else mindtorch.tensor(target.numpy())
    cw = None if weight is None else torch.tensor(weight, dtype=torch.float64)
    lt = F.linear_cross_entropy(xt, wt, target, linear_bias=bt, weight=cw, options=options_t,
                                **kwargs)
    lm = MF.linear_cross_entropy(xm, wm, tm, linear_bias=bm,
                                 weight=None if cw is None else mindtorch.tensor(cw.numpy()),
                                 options=options_m, **kwargs)
    np.testing.assert_allclose(lm.detach().numpy(), lt.detach().numpy(), rtol=1e-12,
                               atol=1e-12)
    go = np.asarray(rng.standard_normal(tuple(lt.shape)))
    lt.backward(torch.from_numpy(go))
    lm.backward(mindtorch.tensor(go))
    for m, t in ((xm, xt), (wm, wt), (bm, bt)):
        if m is not None:
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_class_targets(reduction):
    target = torch.tensor([0, 3, 1, 4, 2])
    _compare((5, 6), (5, 6), target, reduction=reduction)
    _compare((5, 6), (5, 6), target, bias=True, weight=[1.0, 0.5, 2.0, 1.5, 0.1],
             reduction=reduction, label_smoothing=0.2)
    _compare((5, 6), (5, 6), torch.tensor([0, -100, 1, 4, 2]), reduction=reduction)
    _compare((5, 6), (5, 6), target, ignore_index=3, reduction=reduction)
    _compare((6,), (5, 6), torch.tensor(2), bias=True, reduction=reduction)


def test_probability_targets_and_k_dim_loss():
    probs = torch.from_numpy(rng.random((4, 3))).softmax(1)
    _compare((4, 5), (3, 5), probs, bias=True, label_smoothing=0.1)
    _compare((4, 5), (3, 2, 5), torch.tensor([[0, 2], [1, 1], [2, 0], [0, 0]]), bias=True)
    _compare((4, 5), (3, 2, 2, 5), torch.randint(0, 3, (4, 2, 2)), reduction="none")


def test_options():
    opts = (torch.nn.LinearCrossEntropyOptions(batch_chunk_size=2),
            mindtorch.nn.LinearCrossEntropyOptions(batch_chunk_size=2))
    target = torch.tensor([0, 3, 1, 4, 2])
    _compare((5, 6), (5, 6), target, options_t=opts[0], options_m=opts[1])
    assert repr(opts[1]) == repr(opts[0])
    for kwargs in ({"label_smoothing": 0.1}, {"reduction": "none", "label_smoothing": 0.5}):
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            _compare((5, 6), (5, 6), target, options_t=opts[0], **kwargs)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            _compare((5, 6), (5, 6), target, options_m=opts[1], **kwargs)
        assert [str(w.message) for w in got] == \
            [str(w.message) for w in want]
    for kwargs in ({"acc_policy": "fast"}, {"chunking_method": "rows"},
                   {"chunking_method": "aspect_ratio:0"}, {"batch_chunk_size": 0},
                   {"acc_dtype": mindtorch.int32}):
        with pytest.raises(ValueError) as got:
            mindtorch.nn.LinearCrossEntropyOptions(**kwargs)
        tkw = {k: (torch.int32 if v is mindtorch.int32 else v) for k, v in kwargs.items()}
        with pytest.raises(ValueError) as want:
            torch.nn.LinearCrossEntropyOptions(**tkw)
        assert str(got.value) == str(want.value)


BAD = [
    ((2, 3, 4), (5, 4), [0, 1], {}),                    # 3-d input
    ((2, 4), (4,), [0, 1], {}),                         # 1-d weight
    ((2, 4), (5, 3), [0, 1], {}),                       # in_features differ
    ((4,), (5, 2, 4), 1, {}),                           # K-dim loss of unbatched input
    ((2, 4), (5, 4), [0, 1], {"linear_bias": (4,)}),
    ((2, 4), (5, 4), "probs", {"ignore_index": 1}),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_errors_like_torch(case):
    x_shape, w_shape, target, kwargs = BAD[case]
    x, w = torch.zeros(x_shape), torch.zeros(w_shape)
    t = torch.full((2, 5), 0.2) if target == "probs" else torch.tensor(target)
    kwargs = {k: torch.zeros(v) if k == "linear_bias" else v for k, v in kwargs.items()}
    with pytest.raises(RuntimeError) as want:
        F.linear_cross_entropy(x, w, t, **kwargs)
    m = {k: mindtorch.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v
         for k, v in kwargs.items()}
    with pytest.raises(RuntimeError) as got:
        MF.linear_cross_entropy(mindtorch.tensor(x.numpy()), mindtorch.tensor(w.numpy()),
                                mindtorch.tensor(t.numpy()), **m)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("kwargs", [{}, {"bias": True, "out_features": (2,), "reduction": "sum",
                                         "ignore_index": 1, "label_smoothing": 0.1}])
def test_module(kwargs):
    m = mindtorch.nn.LinearCrossEntropyLoss(6, 3, **kwargs).double()
    t = torch.nn.LinearCrossEntropyLoss(6, 3, **kwargs).double()
    assert repr(m) == repr(t)
    assert [(k, tuple(v.shape)) for k, v in m.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in t.state_dict().items()]
    t.load_state_dict({k: to_torch(v) for k, v in m.state_dict().items()})
    x = rng.standard_normal((4, 6))
    target = np.array([[0, 2], [1, 1], [2, 0], [0, 1]]) if kwargs else np.array([0, 2, 1, 1])
    lm = m(mindtorch.tensor(x), mindtorch.tensor(target))
    lt = t(torch.from_numpy(x), torch.from_numpy(target))
    np.testing.assert_allclose(lm.detach().numpy(), lt.detach().numpy(), rtol=1e-12)
    lm.sum().backward()
    lt.sum().backward()
    np.testing.assert_allclose(m.linear.weight.grad.numpy(), t.linear.weight.grad.numpy(),
                               rtol=1e-10, atol=1e-12)


def test_module_errors():
    for kwargs in ({"weight": torch.ones(4)}, {"label_smoothing": 1.5}):
        with pytest.raises(RuntimeError) as want:
            torch.nn.LinearCrossEntropyLoss(6, 3, **kwargs)
        mk = {k: mindtorch.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v
              for k, v in kwargs.items()}
        with pytest.raises(RuntimeError) as got:
            mindtorch.nn.LinearCrossEntropyLoss(6, 3, **mk)
        assert str(got.value) == str(want.value)
