"""Ops PyTorch records without a derivative: their results require grad, the node is
torch::autograd::NotImplemented, and backward raises naming the op, as PyTorch's."""
import pytest

import mindtorch as mt

torch = pytest.importorskip("torch")


def _sym(L):
    return L.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], dtype=L.float64,
                    requires_grad=True)


CASES = {
    "linalg_ldl_factor": lambda L: L.linalg.ldl_factor(_sym(L))[0],
    "linalg_ldl_factor_ex": lambda L: L.linalg.ldl_factor_ex(_sym(L))[0],
    "linalg_ldl_solve": lambda L: L.linalg.ldl_solve(
        *L.linalg.ldl_factor(_sym(L).detach()),
        L.ones(3, 1, dtype=L.float64, requires_grad=True)),
    "floor_divide": lambda L: L.floor_divide(L.tensor([1.5, 2.5], requires_grad=True), 2),
    "heaviside": lambda L: L.heaviside(L.tensor([1.5, -2.5], requires_grad=True),
                                       L.tensor([0.5, 0.5])),
    "bincount": lambda L: L.bincount(L.tensor([0, 1, 1]),
                                     weights=L.tensor([1.0, 2.0, 3.0], requires_grad=True)),
    "histogram": lambda L: L.histogram(L.tensor([1.0, 2.0, 3.0], requires_grad=True),
                                       bins=2).hist,
}


@pytest.mark.parametrize("name", CASES)
def test_not_implemented_node(name):
    seen = []
    for lib in (torch, mt):
        out = CASES[name](lib)
        assert out.requires_grad
        with pytest.raises(RuntimeError) as e:
            out.sum().backward()
        seen.append((out.grad_fn.name(), str(e.value).split("\n")[0]))
    assert seen[1] == seen[0]
