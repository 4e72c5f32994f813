"""Gradients of the ctc_loss ops ("ctc_loss", "functional_ctc_loss", "_ctc_loss_intlist")
against PyTorch's (its analytical backward, which is not the finite-difference derivative
with respect to log_probs: gradcheck is off), on meta, and second derivatives of
mindtorch's own (PyTorch has none)."""
import numpy as np
import pytest

import mindtorch
from gradutil import check_gradgrad, check_grads, const, randn
from mindtorch._ops import OPS


def idx(values):
    return const(np.asarray(values, dtype=np.int64))


TARGETS = idx([[1, 2, 2], [3, 3, 0]])
IL, TL = idx([5, 4]), idx([3, 2])  # (the second target repeats a label)

CASES = [
    ("ctc_loss", lambda m, x, t, il, tl: m.ctc_loss(x.log_softmax(2), t, il, tl)),
    ("ctc_loss_reduced", lambda m, x, t, il, tl: m.ctc_loss(x, t, il, tl, 0, 1)),
    ("functional_ctc_loss", lambda m, x, t, il, tl: m.nn.functional.ctc_loss(
        x.log_softmax(2), t, il, tl, reduction="sum")),
    ("functional_ctc_loss_zero_infinity", lambda m, x, t, il, tl: m.nn.functional.ctc_loss(
        x, t, il * 0 + 2, tl, blank=4, zero_infinity=True)),  # the first cannot align
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_grads_like_torch(name, fn):
    check_grads(fn, randn(5, 2, 5), TARGETS, IL, TL, gradcheck=False)


def test_int_list_op_like_torch():
    import torch
    x = randn(5, 2, 5)
    xm = mindtorch.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    targets = [[1, 2, 2], [3, 1, 0]]
    lm = OPS["_ctc_loss_intlist"].call(xm, mindtorch.tensor(targets), (5, 4), (3, 2), 0, 2,
                                      False)
    lt = torch.ctc_loss(xt, torch.tensor(targets), (5, 4), (3, 2), 0, 2, False)
    lm.backward()
    lt.backward()
    np.testing.assert_allclose(lm.item(), lt.item(), rtol=1e-12)
    np.testing.assert_allclose(xm.grad.numpy(), xt.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_second_derivatives_run():
    check_gradgrad(lambda m, x, t, il, tl: m.nn.functional.ctc_loss(x.log_softmax(2), t, il,
                                                                    tl), randn(5, 2, 4),
                   TARGETS, IL, TL)
