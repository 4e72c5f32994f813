"""Broadcasting errors blame the trailing-most mismatching dim with PyTorch's message."""
import mindtorch
import pytest
from reference import torch

CASES = [((2, 3), (3, 2)), ((2, 3, 4), (5, 3, 1)), ((4, 1, 3), (2, 5)), ((2, 3), (4,)),
         ((3, 1, 5), (2, 6, 5)), ((2, 3), (3, 3))]


@pytest.mark.parametrize("a,b", CASES, ids=str)
def test_binary_op_broadcast_message(a, b):
    with pytest.raises(RuntimeError) as theirs:
        torch.ones(a) + torch.ones(b)
    with pytest.raises(RuntimeError) as ours:
        mindtorch.ones(a) + mindtorch.ones(b)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(RuntimeError) as ours:
        mindtorch.ones(a).mul_(mindtorch.ones(b)) if len(a) >= len(b) else \
            mindtorch.ones(b).mul_(mindtorch.ones(a))
    assert "must match the size of tensor" in str(ours.value)


def test_broadcast_tensors_returns_inputs_of_the_broadcast_shape():
    """As PyTorch: no node for a tensor already of the shape (mse_loss's graph goes straight
    to its input: MseLossBackward0 -> SigmoidBackward0), ExpandBackward0 for the others."""
    for L in (mindtorch, torch):
        a = L.ones(2, requires_grad=True) * 2
        x, y = L.broadcast_tensors(a, L.ones(3, 2))
        assert type(x.grad_fn).__name__ == "ExpandBackward0" and tuple(y.shape) == (3, 2)
        x, y = L.broadcast_tensors(a, L.ones(2))
        assert x is a
        loss = L.nn.functional.mse_loss(a.sigmoid(), L.ones(2))
        assert [type(n[0]).__name__ for n in loss.grad_fn.next_functions] == \
            ["SigmoidBackward0", "NoneType"]


@pytest.mark.parametrize("shapes", [
    [(2, 3), (3, 2)], [(2, 3), (1, 3), (4, 3)], [(2,), (3,), (1,)], [(1, -1)], [(2,), 2, (3,)],
    [2, (3, 1)], [], [(0,), (1,)], [(0,), (5,)], [(2,), 2.0], [[2, 1], (1, 4)],
    [(4, 5), [3]],  # (the mismatching shape prints as given)
], ids=str)
def test_public_broadcast_shapes_as_torch(shapes):
    """torch.broadcast_shapes takes ints as 1-D shapes and raises its own messages."""
    try:
        expected = torch.broadcast_shapes(*shapes)
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        with pytest.raises(type(e)) as ours:
            mindtorch.broadcast_shapes(*shapes)
        assert str(ours.value) == str(e)
    else:
        assert tuple(mindtorch.broadcast_shapes(*shapes)) == tuple(expected)
