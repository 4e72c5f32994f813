"""autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp) against PyTorch."""
import numpy as np
import pytest
import torch

import mindtorch
from reference import assert_same

XS = np.array([0.3, -0.7, 1.2])
YS = np.array([0.5, 0.1, -0.4])


def _flat(r):
    return [t for row in r for t in (row if isinstance(row, tuple) else (row,))]


CASES = {
    "jacobian, two inputs and outputs": lambda F, x, y: _flat(F.jacobian(
        lambda a, b: ((a.sin() * b).sum(), a * b.exp()), (x, y))),
    "jacobian, one input": lambda F, x, y: [F.jacobian(lambda a: a.reshape(3, 1) * a, x)],
    "hessian": lambda F, x, y: _flat(F.hessian(
        lambda a, b: (a.pow(3) * b).sum() + (a * a).sum() * b.sum(), (x, y))),
    "hessian, one input": lambda F, x, y: [F.hessian(lambda a: (a.exp() * a).sum(), x)],
    "vjp": lambda F, x, y: list(F.vjp(lambda a: a.exp() * 2, x, y)),
    "jvp": lambda F, x, y: list(F.jvp(lambda a: a.exp() * a, x, y)),
    "hvp": lambda F, x, y: list(F.hvp(lambda a: (a ** 3).sum(), x, y)),
    "vhp, two inputs": lambda F, x, y: _flat(F.vhp(lambda a, b: (a ** 2 * b).sum(), (x, y),
                                                   (y, x))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_functional_matches_pytorch(name):
    results = []
    for m in (mindtorch, torch):
        x, y = m.tensor(XS, dtype=m.float64), m.tensor(YS, dtype=m.float64)
        results.append(CASES[name](m.autograd.functional, x, y))
    assert len(results[0]) == len(results[1])
    for a, b in zip(*results):
        assert_same(a, b)
        assert not a.requires_grad


def test_functional_errors():
    F = mindtorch.autograd.functional
    x = mindtorch.tensor(XS)
    with pytest.raises(RuntimeError, match="Output 0 of the user-provided function does not require gradients"):
        F.jacobian(lambda a: mindtorch.ones(2), x, strict=True)
    with pytest.raises(RuntimeError, match="single element"):
        F.vjp(lambda a: a * 2, x)
    with pytest.raises(TypeError, match="Tensor or a tuple of Tensors"):
        F.jacobian(lambda a: a, [1.0])
    assert F.jacobian(lambda a: mindtorch.ones(2, dtype=a.dtype), x).abs().sum().item() == 0
