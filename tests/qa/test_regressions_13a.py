"""Regression tests for QA round 13a (torch.optim, lr_scheduler, swa_utils), each against
torch."""
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def test_sparse_adam_refuses_sparse_parameters_first():
    # (PyTorch checks for sparse parameters before complex ones, with their indices)
    def program(L):
        dense = L.ones(2, requires_grad=True)
        sparse = L.ones(3).to_sparse().requires_grad_()
        cplx = L.ones(2, dtype=L.complex64, requires_grad=True)
        return L.optim.SparseAdam([{"params": [dense]}, {"params": [cplx, sparse]}])
    same_outcome(program)
