"""torch.functional: the tensor functions PyTorch writes in Python (`torch.functional.einsum`,
`from torch.functional import F`), here the same objects as mindtorch's own."""
from mindtorch import (  # noqa: F401
    atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_tensors,
    cartesian_prod, cdist, chain_matmul, einsum, istft, lu, meshgrid, norm, pca_lowrank, split,
    stft, svd_lowrank, tensordot, unique, unique_consecutive, unravel_index,
)

from .nn import functional as F  # noqa: F401

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes",
           "broadcast_tensors", "cartesian_prod", "cdist", "chain_matmul", "einsum", "istft",
           "lu", "meshgrid", "norm", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot",
           "unique", "unique_consecutive", "unravel_index"]
