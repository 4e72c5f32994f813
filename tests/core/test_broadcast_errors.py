"""Broadcasting errors blame the trailing-most mismatching dim with PyTorch's message."""
import pytest

import mindtorch
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
