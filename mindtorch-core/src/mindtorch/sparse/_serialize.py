"""Pickling sparse tensors as PyTorch does: `torch._utils._rebuild_sparse_tensor(layout,
data)`, data being (indices, values, size, is_coalesced) for COO and (crow_indices,
col_indices, values, size) for CSR, so checkpoints move both ways."""
from .._layout import sparse_coo, sparse_csr


def sparse_parts(s):
    """(layout, data) of PyTorch's record of s."""
    if s.is_sparse:
        return s.layout, (s._idx, s._vals, tuple(s._shape), s._coalesced)
    return s.layout, (s._crow, s._idx, s._vals, tuple(s._shape))


def rebuild_sparse_tensor(layout, data):
    from . import sparse_coo_tensor, sparse_csr_tensor
    name = str(layout).rpartition(".")[2]
    if name == sparse_coo.rpartition(".")[2]:
        indices, values, size = data[:3]
        coalesced = data[3] if len(data) > 3 else None
        return sparse_coo_tensor(indices, values, size, is_coalesced=coalesced,
                                 check_invariants=False)
    if name == sparse_csr.rpartition(".")[2]:
        return sparse_csr_tensor(*data, check_invariants=False)
    raise RuntimeError(f"mindtorch.load: sparse layout {name} is not supported")


def reduce_sparse(s):
    if s._requires_grad and s._grad_fn is not None:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                           "the deepcopy protocol at the moment.  If you were attempting to "
                           "deepcopy a module, this may be because of a torch.nn.utils."
                           "weight_norm usage, see https://github.com/pytorch/pytorch/pull/"
                           "103001")
    if s.__dict__.get("_is_param"):  # (a sparse nn.Parameter: PyTorch's parameter record)
        from collections import OrderedDict

        from ..nn.parameter import _rebuild_parameter
        return _rebuild_parameter, (s.detach(), s._requires_grad, OrderedDict())
    layout, data = sparse_parts(s)
    return rebuild_sparse_tensor, (str.__str__(layout), data)
