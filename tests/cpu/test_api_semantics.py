"""Tensor API semantics as PyTorch users probe them (QA round 7a regressions): each case is
an expression run with mindtorch and with torch, giving the same value (as a list) or the
same error class and message."""
import pytest

from reference import same_outcome


def _value(r):
    if hasattr(r, "tolist"):
        return str(r.dtype), tuple(r.shape), r.tolist()
    return r


CASES = [
    # error messages in PyTorch's words (and its order of the broadcast sizes)
    "T.zeros(3, 5).scatter_add(0, T.zeros(1, 1), T.zeros(3, 5))",
    "T.zeros(3, 5).scatter(0, T.zeros(1, 1), 1.0)",
    "T.zeros(3, 5).masked_select(T.ones(2, dtype=T.bool))",
    "T.zeros(2, 5).masked_select(T.ones(3, 1, dtype=T.bool))",
    "T.zeros(3, 5).masked_fill(T.ones(2, dtype=T.bool), 1)",
    "T.zeros(3, 5).masked_fill_(T.ones(2, dtype=T.bool), 1)",
    "T.zeros(3).masked_scatter(T.ones(3, dtype=T.bool), T.ones(3, dtype=T.long))",
]


@pytest.mark.parametrize("text", CASES)
def test_same_outcome(text):
    same_outcome(lambda T: _value(eval(text, {"T": T})))
