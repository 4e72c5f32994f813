"""Autograd of the histogram ops: PyTorch records them (results require grad, a
torch::autograd::NotImplemented node) but their backward raises, naming the op."""
import pytest

import mindtorch
from reference import torch


def test_histograms_record_a_node_whose_backward_raises_as_torch():
    def run(T, weighted, call):
        x = T.rand(5, 2, requires_grad=not weighted)
        w = T.rand(5, requires_grad=weighted)
        out = call(T, x, w)
        hist = out[0]
        names = [hist.grad_fn.name()] + [e.requires_grad for e in out[1]]
        try:
            hist.sum().backward()
        except RuntimeError as e:
            names.append(str(e))
        return names
    calls = [lambda T, x, w: T.histogramdd(x, bins=2, weight=w),
             lambda T, x, w: T.histogram(x[:, 0], 3, weight=w),
             lambda T, x, w: T.histogramdd(x, bins=[T.tensor([0., .5, 1.])] * 2, weight=w)]
    for call in calls:
        for weighted in (False, True):
            assert run(mindtorch, weighted, call) == run(torch, weighted, call)


@pytest.mark.parametrize("name", ["_histogramdd_bin_edges", "_histogramdd_from_bin_cts",
                                  "_histogramdd_from_bin_tensors"])
def test_each_histogramdd_op_raises_its_own_message(name):
    messages = []
    for T in (mindtorch, torch):
        x = T.rand(4, 2, requires_grad=True)
        bins = [T.tensor([0., .5, 1.])] * 2 if name.endswith("tensors") else [2, 2]
        op = getattr(mindtorch.ops, name).binding if T is mindtorch else \
            getattr(torch.ops.aten, name)
        out = op(x, bins)
        first = out[0] if isinstance(out, (list, tuple)) else out
        with pytest.raises(RuntimeError) as e:
            first.sum().backward()
        messages.append(str(e.value))
    assert messages[0] == messages[1] == f"derivative for aten::{name} is not implemented"
