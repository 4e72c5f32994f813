"""Regressions found by the autograd QA programs (tests/integration/programs_qa_autograd.py),
each compared with PyTorch: error types and messages, and values where there are some."""
import pytest
import torch

import mindtorch
from reference import assert_same

M = mindtorch
LIBS = [M, torch]


def outcome(f):
    """What f() gives: ('ok', value) or (error class name, message)."""
    try:
        return "ok", f()
    except Exception as e:  # the class and the message are what is compared
        return type(e).__name__, str(e)


def same_outcome(program):
    ours, theirs = outcome(lambda: program(M)), outcome(lambda: program(torch))
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
    return ours, theirs


@pytest.mark.parametrize("bad", ["size", "dtype", "int"])
def test_tensor_hook_result_checked(bad):
    def program(m):
        x = m.ones(3, requires_grad=True)

        def my_hook(g):
            return {"size": g[:1], "dtype": g.double(), "int": 3}[bad]
        x.register_hook(my_hook)
        (x * 2).sum().backward()
    same_outcome(program)


def test_non_leaf_hook_result_checked():
    def program(m):
        x = m.ones(3, requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g.sum())
        y.sum().backward()
    same_outcome(program)


def test_data_has_its_own_version_counter():
    for m in LIBS:
        x = m.ones(3, requires_grad=True)
        with m.no_grad():
            x.mul_(2)
        d = x.data
        d.add_(1)
        assert (x._version, d._version) == (1, 1)
        assert x.tolist() == [3.0, 3.0, 3.0]


def test_data_setter_needs_a_tensor():
    same_outcome(lambda m: setattr(m.ones(2, requires_grad=True), "data", [1, 2]))


def test_requires_grad_setter_message():
    same_outcome(lambda m: setattr(m.arange(2), "requires_grad", True))
    same_outcome(lambda m: m.arange(2).requires_grad_())


def test_materialize_grads_with_allow_unused_false_runs_nothing():
    for m in LIBS:
        a = m.ones(2, requires_grad=True)
        y = (a * a).sum()
        with pytest.raises(ValueError, match="Expected allow_unused to be True"):
            m.autograd.grad(y, a, allow_unused=False, materialize_grads=True)
        assert m.autograd.grad(y, a)[0].tolist() == [2.0, 2.0]  # the graph is still there


def test_grad_is_grads_batched():
    def program(m):
        x = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        w = m.arange(6.0, dtype=m.float64).reshape(2, 3).requires_grad_()
        u = m.ones(1, dtype=m.float64, requires_grad=True)
        out = (w @ x.sin()) * 2
        gw, gx, gu = m.autograd.grad(out, (w, x, u), m.eye(2, dtype=m.float64) * 3,
                                     is_grads_batched=True, allow_unused=True)
        assert gu is None
        return gw, gx
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)


def test_grad_is_grads_batched_shape_mismatch():
    def program(m):
        x = m.ones(3, requires_grad=True)
        m.autograd.grad(x * 2, x, m.ones(2, 4), is_grads_batched=True)
    same_outcome(program)
