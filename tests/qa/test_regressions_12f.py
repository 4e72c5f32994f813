"""Regression tests for QA round 12f (nn.utils: prune, fusion, stateless, rnn packing, lazy
modules, init), each against torch."""
import importlib

import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _w(L, *shape, seed=0):
    return L.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _linear(L, i=6, o=5):
    m = L.nn.Linear(i, o)
    with L.no_grad():
        m.weight.copy_(_w(L, o, i))
        m.bias.copy_(_w(L, o, seed=1))
    return m


def _prune(L):
    return importlib.import_module(L.__name__ + ".nn.utils.prune")


@pytest.mark.parametrize("case", ["importance_module", "importance_tensor", "custom_mask"])
def test_prune_shape_refusals_say_both_shapes(case):
    """PyTorch raises AssertionError naming both shapes (not a bare `assert`, which -O drops)."""
    def program(L):
        m, P = _linear(L), _prune(L)
        if case == "importance_module":
            P.l1_unstructured(m, "weight", amount=0.5, importance_scores=_w(L, 5, 5))
        elif case == "importance_tensor":
            P.L1Unstructured(0.5).prune(_w(L, 5, 6), importance_scores=_w(L, 5, 5))
        else:
            P.custom_from_mask(m, "weight", L.ones(3, 3))
    ours, _ = same_errors(program)
    assert ours[0] == "AssertionError"


def _net(L):
    class Net(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = _linear(L, 3, 3)
            self.register_buffer("buf", L.ones(3))

        def forward(self, x):
            return self.a(x) + self.buf
    return Net()


@pytest.mark.parametrize("values", [
    {"a.training": "tensor"},          # attribute that is not a tensor
    {"a": "tensor"},                   # a submodule's name
    {"a.weight.x": "tensor"},          # a path through a parameter
    {"": "tensor"},                    # empty name
    {"a.weight": 3},                   # value that is not a tensor
    {"q.weight": "tensor"},            # no such submodule
    {"a.bias": None},
    {"a.newthing": "tensor"},
])
def test_functional_call_refuses_as_pytorchs_member_accessor(values):
    def program(L):
        m = _net(L)
        given = {k: L.ones(3) if v == "tensor" else v for k, v in values.items()}
        out = L.func.functional_call(m, given, (_w(L, 2, 3),))
        return out.detach().numpy().tolist(), hasattr(m.a, "newthing"), m.a.bias is None
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert ours[1][1:] == theirs[1][1:]
        np.testing.assert_allclose(ours[1][0], theirs[1][0], rtol=1e-6)
