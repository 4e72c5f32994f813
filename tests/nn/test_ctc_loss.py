"""F.ctc_loss, torch.ctc_loss and nn.CTCLoss against PyTorch: losses and gradients (PyTorch's
analytical ones, exp(log_probs) included, NaN for infinite losses) for padded and
concatenated targets, lengths as tensors, tuples and lists, every reduction, unbatched
input, zero_infinity, empty inputs/targets, the meta device and bad input."""
import numpy as np
import pytest

import mindtorch
import mindtorch.nn.functional as MF
from reference import to_torch, torch

F = torch.nn.functional


def _pair(array, dtype="float64", grad=True):
    m = mindtorch.tensor(array).to(getattr(mindtorch, dtype))
    t = to_torch(m)
    if grad:
        m.requires_grad_()
        t.requires_grad_()
    return m, t


def _m(v):
    return mindtorch.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v


def _compare(x, targets, il, tl, dtype="float64", fn="functional", tol=1e-10, **kwargs):
    """Loss and gradient (with random output gradients) equal PyTorch's."""
    m, t = _pair(x, dtype)
    call = {"functional": (MF.ctc_loss, F.ctc_loss),
            "torch": (mindtorch.ctc_loss, torch.ctc_loss)}[fn]
    expected = call[1](t, targets, il, tl, **kwargs)
    actual = call[0](m, _m(targets), _m(il), _m(tl), **kwargs)
    assert actual.dtype is getattr(mindtorch, dtype)
    assert tuple(actual.shape) == tuple(expected.shape)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=tol,
                               atol=tol)
    go = np.asarray(np.random.default_rng(0).standard_normal(tuple(expected.shape)) + 2)
    expected.backward(torch.from_numpy(go).to(expected.dtype))
    actual.backward(mindtorch.tensor(go).to(actual.dtype))
    np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol)
    return actual, m.grad


def _log_probs(*shape, seed=0, normalized=True):
    x = np.random.default_rng(seed).standard_normal(shape)
    if normalized:
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    return x


TARGETS = torch.tensor([[1, 1, 2, 3], [2, 3, 1, 0], [4, 4, 4, 0], [3, 0, 0, 0]])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("lengths", ["tensor", "tuple", "list", "int32"])
def test_padded_targets(reduction, lengths):
    il, tl = [8, 7, 8, 5], [4, 3, 3, 1]
    as_ = {"tensor": torch.tensor, "tuple": tuple, "list": list,
           "int32": lambda v: torch.tensor(v, dtype=torch.int32)}[lengths]
    _compare(_log_probs(8, 4, 5), TARGETS, as_(il), as_(tl), reduction=reduction)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_concatenated_targets(reduction):
    tl = [4, 3, 3, 1]
    flat = torch.cat([TARGETS[b, :n] for b, n in enumerate(tl)])
    _compare(_log_probs(8, 4, 5, seed=1), flat, torch.tensor([8, 6, 8, 2]), torch.tensor(tl),
             reduction=reduction)
    _compare(_log_probs(8, 4, 5, seed=1), flat.int(), (8, 6, 8, 2), tuple(tl),
             reduction=reduction)


@pytest.mark.parametrize("blank", [0, 2, 4])
def test_blank_and_unnormalized_inputs(blank):
    targets = torch.tensor([[1, 3, 3], [4, 1, 0]])
    targets = torch.where(targets == blank, (blank + 2) % 5, targets)
    _compare(_log_probs(6, 2, 5, seed=blank, normalized=False), targets, (6, 5), (3, 2),
             blank=blank, reduction="none")


def test_float32_and_noncontiguous():
    x = _log_probs(9, 4, 6, seed=2)
    targets = torch.tensor([[1, 2, 2], [5, 4, 3], [1, 0, 0], [2, 2, 2]])
    il, tl = torch.tensor([9, 9, 4, 9]), torch.tensor([3, 3, 1, 3])
    # (N, T, C) in memory, given as (T, N, C)
    m = mindtorch.tensor(x.transpose(1, 0, 2).copy()).transpose(0, 1).requires_grad_()
    t = torch.from_numpy(x.transpose(1, 0, 2).copy()).transpose(0, 1).requires_grad_()
    assert not m.is_contiguous()
    expected = F.ctc_loss(t, targets, il, tl, reduction="none")
    actual = MF.ctc_loss(m, _m(targets), _m(il), _m(tl), reduction="none")
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=1e-12)
    expected.sum().backward()
    actual.sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
    _compare(x, targets, il, tl, dtype="float32", tol=1e-5, reduction="sum")


def test_unbatched():
    x = _log_probs(7, 5, seed=3)
    for reduction in ("none", "mean", "sum"):
        loss, _ = _compare(x, torch.tensor([1, 2, 2]), torch.tensor(7), torch.tensor(3),
                           reduction=reduction)
        assert loss.ndim == 0
        _compare(x, torch.tensor([[1, 2, 2, 0]]), (6,), (3,), reduction=reduction)


def test_zero_infinity_and_impossible_alignments():
    # target 0 needs 4 steps (a repeat needs a blank between): 3 are too few; input 2 of
    # length 0 can only align the empty target; input 3 has no steps for its label
    targets = torch.tensor([[1, 1, 2], [2, 3, 0], [0, 0, 0], [4, 0, 0]])
    il, tl = torch.tensor([3, 5, 0, 0]), torch.tensor([3, 2, 0, 1])
    x = _log_probs(5, 4, 5, seed=4)
    loss, grad = _compare(x, targets, il, tl, reduction="none", zero_infinity=True)
    assert loss[0].item() == 0 and loss[3].item() == 0 and loss[2].item() == 0
    assert (grad[:, 0] == 0).all() and (grad[:, 3] == 0).all()
    for reduction in ("mean", "sum"):
        _compare(x, targets, il, tl, reduction=reduction, zero_infinity=True)
    # without zero_infinity: an infinite loss, NaN gradients within the input's length
    m, t = _pair(x)
    expected = F.ctc_loss(t, targets, il, tl, reduction="none")
    actual = MF.ctc_loss(m, _m(targets), _m(il), _m(tl), reduction="none")
    np.testing.assert_array_equal(actual.detach().numpy(), expected.detach().numpy())
    expected.sum().backward()
    actual.sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-10, atol=1e-10)
    assert np.isnan(m.grad.numpy()[:3, 0]).all() and not np.isnan(m.grad.numpy()[3:]).any()


def test_special_values_forward():
    """NaN, infinite and huge log-probabilities give PyTorch's losses: unreachable cells stay
    -inf at the first step even where their emission is NaN, and exp(log_probs) overflowing
    does not turn a finite loss into NaN."""
    x = _log_probs(3, 2, 3, seed=8)
    x[0, 1, 0] = np.nan  # the blank at t=0 of a target that cannot use it
    x[1, 1, 2] = -np.inf
    x[0, 0, 0] = 1e30
    x[2, 0, 1] = 70000.0
    targets, il, tl = torch.tensor([[1, 0], [2, 2]]), (3, 3), (1, 2)
    expected = F.ctc_loss(torch.from_numpy(x), targets, il, tl, reduction="none")
    actual = MF.ctc_loss(mindtorch.tensor(x), _m(targets), il, tl, reduction="none")
    assert np.isfinite(expected.numpy()).all()
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-12)


def test_torch_ctc_loss_int_reduction():
    x = _log_probs(6, 2, 4, seed=5)
    targets = torch.tensor([[1, 2], [3, 3]])
    _compare(x, targets, torch.tensor([6, 5]), torch.tensor([2, 2]), fn="torch")
    for args in ((), (0,), (0, 0), (1, 1), (2, 2), (0, 1, True)):  # the default is 'none'
        m, t = _pair(x, grad=False)
        expected = torch.ctc_loss(t, targets, (6, 5), (2, 2), *args)
        actual = mindtorch.ctc_loss(m, _m(targets), (6, 5), (2, 2), *args)
        np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-12)
    _compare(x, targets, (6, 5), (2, 1), fn="torch", reduction=2)


def test_lengths_as_column_tensors_and_empty_targets():
    x = _log_probs(4, 3, 3, seed=6)
    _compare(x, torch.zeros(3, 0, dtype=torch.long), torch.tensor([[4], [2], [0]]),
             torch.tensor([0, 0, 0]))
    _compare(x, torch.zeros(0, dtype=torch.long), (4, 2, 0), (0, 0, 0), reduction="none")
    _compare(x, torch.tensor([[1.0, 2.7], [2.0, 0.0], [1.0, 1.0]]), (4, 4, 4), (2, 1, 2),
             reduction="none")  # float targets are truncated, as PyTorch's


def test_module():
    m, t = mindtorch.nn.CTCLoss(blank=1, zero_infinity=True), torch.nn.CTCLoss(blank=1,
                                                                              zero_infinity=True)
    assert repr(m) == repr(t) == "CTCLoss()"
    assert m.blank == 1 and m.zero_infinity is True and m.reduction == "mean"
    assert type(m).__constants__ == type(t).__constants__
    assert isinstance(m, mindtorch.nn.modules.loss._Loss)
    xm, xt = _pair(_log_probs(5, 2, 4, seed=7))
    targets, il, tl = torch.tensor([[2, 3], [3, 0]]), torch.tensor([5, 1]), torch.tensor([2, 2])
    lt = t(xt, targets, il, tl)
    lm = m(xm, _m(targets), _m(il), _m(tl))
    np.testing.assert_allclose(lm.detach().numpy(), lt.detach().numpy(), rtol=1e-12)
    lt.backward()
    lm.backward()
    np.testing.assert_allclose(xm.grad.numpy(), xt.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert mindtorch.nn.CTCLoss(reduction="sum")(xm, _m(targets), (5, 2), (2, 1)).ndim == 0


def test_meta_device():
    x = mindtorch.empty(6, 3, 5, device="meta", requires_grad=True)
    targets = mindtorch.ones(3, 4, dtype=mindtorch.long, device="meta")
    loss = MF.ctc_loss(x, targets, (6, 5, 4), (4, 2, 1), reduction="none")
    assert loss.device.type == "meta" and tuple(loss.shape) == (3,)
    lengths = mindtorch.full((3,), 2, dtype=mindtorch.long, device="meta")
    loss = MF.ctc_loss(x, targets, lengths, lengths)
    assert loss.device.type == "meta" and loss.shape == ()
    loss.backward()
    assert x.grad.shape == x.shape and x.grad.device.type == "meta"
    flat = mindtorch.ones(7, dtype=mindtorch.long, device="meta")
    assert MF.ctc_loss(x, flat, lengths, lengths, reduction="sum").shape == ()
    # lengths on the host for log_probs on another device (as PyTorch allows for cuda)
    host = mindtorch.tensor([6, 5, 4]), mindtorch.tensor([4, 2, 1], dtype=mindtorch.int32)
    assert MF.ctc_loss(x, targets, *host, reduction="none").shape == (3,)
    with pytest.raises(RuntimeError, match="target_lengths must be integral"):
        MF.ctc_loss(x, targets, host[0], host[1].float())
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 6"):
        mindtorch.ctc_loss(x, targets, host[0] + 1, host[1])


_X = torch.randn(5, 2, 4).log_softmax(2)
_T = torch.tensor([[1, 2, 3], [2, 2, 0]])
BAD = [
    ((_X, _T, (5, 5), (3, 4)), {}),                        # target longer than its row
    ((_X, _T, (6, 5), (3, 2)), {}),                        # input longer than T
    ((_X, _T, (-1, 5), (3, 2)), {}),
    ((_X, _T, (5, 5), (-1, 2)), {}),
    ((_X, _T, (5, 5), (3, 2)), {"blank": 4}),
    ((_X, _T, (5, 5), (3, 2)), {"blank": -1}),
    ((_X, _T, (5,), (3, 2)), {}),
    ((_X, _T, (5, 5), (3, 2, 1)), {}),
    ((_X, _T[:1], (5, 5), (3, 2)), {}),
    ((_X, _T[:, None], (5, 5), (3, 2)), {}),
    ((_X, _T.reshape(-1), (5, 5), (3, 2)), {}),            # 6 != 3 + 2
    ((_X[0], _T, (5, 5), (3, 2)), {}),                     # (N, C): unbatched, N steps
    ((_X[None], _T, (5, 5), (3, 2)), {}),
    ((_X[:0], _T, (0, 0), (3, 2)), {}),
    ((_X.half(), _T, (5, 5), (3, 2)), {}),
    ((_X.int(), _T, (5, 5), (3, 2)), {}),
    ((_X, _T, torch.tensor([5.0, 5.0]), torch.tensor([3, 2])), {}),
    ((_X, _T, torch.tensor([5, 5]), torch.tensor([True, True])), {}),
    ((_X, _T, torch.tensor([5, 5]), (3, 2)), {}),
    ((_X, _T, (5, 5), (3, 2)), {"reduction": "average"}),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_bad_input_like_torch(case):
    args, kwargs = BAD[case]
    with pytest.raises(Exception) as expected:
        F.ctc_loss(*args, **kwargs)
    with pytest.raises(type(expected.value)) as actual:
        MF.ctc_loss(*[_m(a) for a in args], **kwargs)
    if not isinstance(expected.value, TypeError):
        assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_grad_fn_names_as_pytorch(reduction, zero_infinity):
    # reduction='none' gives PyTorch's CtcLossBackward0 node, which mean and sum lead to
    # (zero_infinity: through a where)
    def names(lib):
        lp = lib.tensor(np.random.default_rng(0).normal(size=(5, 2, 4))).log_softmax(2)
        loss = lib.nn.functional.ctc_loss(lp.requires_grad_(), lib.tensor([[1, 2], [3, 3]]),
                                          lib.tensor([5, 4]), lib.tensor([2, 1]),
                                          reduction=reduction, zero_infinity=zero_infinity)
        out, node = [], loss.grad_fn
        while node is not None and len(out) < 4:  # down to the loss' own node
            out.append(node.name())
            node = node.next_functions[0][0] if node.name() != "CtcLossBackward0" else None
        return out
    assert names(mindtorch) == names(torch)
