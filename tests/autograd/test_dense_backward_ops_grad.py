"""The backward ops pdist's and embedding_bag's gradients go through ("_pdist_backward",
"_embedding_bag_dense_backward": decompositions into ops, with cpu kernels): their own
gradients, so pdist's and embedding_bag's second derivatives, checked numerically in
float64 (PyTorch has no double backward for pdist to compare with)."""
import mindtorch as M
import pytest
from mindtorch._ops import OPS
from mindtorch.autograd import gradcheck, gradgradcheck

F = M.nn.functional


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, float("inf")])
def test_pdist_backward_op(p):
    x = M.randn(5, 3, dtype=M.float64, requires_grad=True)
    g = M.randn(10, dtype=M.float64, requires_grad=True)
    assert gradcheck(lambda g, x: OPS["_pdist_backward"].call(g, x, p, M.pdist(x, p)), (g, x))
    assert gradgradcheck(lambda x: M.pdist(x, p), (x,))


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_dense_backward_op(mode):
    weight = M.randn(10, 4, dtype=M.float64, requires_grad=True)
    indices, offsets = M.tensor([1, 2, 4, 5, 4, 3, 2, 9]), M.tensor([0, 4, 6])
    assert gradgradcheck(lambda w: F.embedding_bag(indices, w, offsets, mode=mode), (weight,))
    if mode == "sum":  # per_sample_weights: the weight's gradient is linear in them too
        psw = M.randn(8, dtype=M.float64, requires_grad=True)
        assert gradgradcheck(lambda w, s: F.embedding_bag(indices, w, offsets, mode="sum",
                                                          per_sample_weights=s), (weight, psw))
