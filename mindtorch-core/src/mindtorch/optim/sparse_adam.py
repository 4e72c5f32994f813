"""torch.optim.SparseAdam. mindtorch has no sparse tensors, so every gradient is dense and
step() refuses it as PyTorch does (construction and its checks are PyTorch's)."""
from .._tensor import Tensor
from .optimizer import Optimizer, _check, _check_betas

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    _complex_as_real = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        _check(0.0 < lr, f"Invalid learning rate: {lr}")
        _check(0.0 < eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    def _update_one(self, group, p, grad, state):
        raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam "
                           "instead")
