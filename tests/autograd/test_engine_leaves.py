"""The engine's handling of leaves against PyTorch's: which gradient becomes a leaf's .grad
(stolen, or copied when the engine does not own it), in what order leaf hooks run when
one node feeds several leaves, and the same with the ready queue's shortcut for a
hook-free leaf's only gradient (each case also on a retained graph and with
create_graph)."""
import pytest
from reference import torch

import mindtorch


def _leaf_facts(L, retain, create):
    facts = []
    x = L.tensor([1., 2.], requires_grad=True)
    y = L.tensor([3., 4.], requires_grad=True)
    loss = (x + y).sum()  # AddBackward0 hands one gradient to both leaves
    loss.backward(retain_graph=retain, create_graph=create)
    facts.append(("aliased", x.grad is y.grad, x.grad.data_ptr() == y.grad.data_ptr()))
    with L.no_grad():
        x.grad.add_(1)
    facts.append(("independent", y.grad.tolist()))
    seed = L.ones(2)
    a = L.tensor([1., 2.], requires_grad=True)
    (a * 1).backward(seed, create_graph=create)  # mul's gradient is fresh: may be kept
    b = L.tensor([1., 2.], requires_grad=True)
    b.backward(seed, create_graph=create)  # the caller's tensor: copied
    facts.append(("seed", a.grad is seed, b.grad is seed, b.grad.data_ptr() == seed.data_ptr()))
    w = L.tensor([2., 3.], requires_grad=True)
    (w * w).sum().backward(create_graph=create)  # two gradients summed into one leaf
    facts.append(("summed", w.grad.tolist()))
    order = []
    p, q = L.tensor([1.], requires_grad=True), L.tensor([2.], requires_grad=True)
    p.register_post_accumulate_grad_hook(lambda t: order.append("p"))
    q.register_post_accumulate_grad_hook(lambda t: order.append("q"))
    r, s = L.tensor([1.], requires_grad=True), L.tensor([2.], requires_grad=True)
    r.register_hook(lambda g: order.append("r"))
    (p * q + r * s).sum().backward(create_graph=create)
    facts.append(("hook order", list(order), s.grad.tolist()))
    return facts


@pytest.mark.parametrize("retain,create", [(False, False), (True, False), (True, True)])
def test_leaf_gradients_as_pytorchs(retain, create):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (create_graph's reference-cycle warning)
        assert _leaf_facts(mindtorch, retain, create) == _leaf_facts(torch, retain, create)


def test_method_forms_refuse_input_keyword_as_pytorchs():
    x = mindtorch.ones(2)
    with pytest.raises(TypeError):
        x.add_(input=x)
    with pytest.raises(TypeError):
        torch.ones(2).add_(input=torch.ones(2))
    assert x.add_(x, alpha=2).tolist() == [3.0, 3.0]
