"""torch.optim.SparseAdam: Adam whose moments and parameter change only at the entries of
each (sparse COO) gradient; a dense gradient is refused, as PyTorch does."""
import math

from .._layout import LayoutKey
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
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        # dense, real parameters only (sparse ones refused first, as PyTorch)
        for which, wrong, why in (
                ("Sparse", lambda p: p.is_sparse, "requires dense parameter tensors"),
                ("Complex", lambda p: p.is_complex(), "does not support complex parameters")):
            where = [[i, j] for i, group in enumerate(self.param_groups)
                     for j, p in enumerate(group["params"]) if wrong(p)]
            if where:
                raise ValueError(f"{which} params at indices {where}: SparseAdam {why}")

    _takes_sparse = True

    def _init_state(self, group, p, state):
        import mindtorch as M
        state["step"] = 0  # (a Python int in PyTorch's SparseAdam)
        state["exp_avg"] = M.zeros_like(p)
        state["exp_avg_sq"] = M.zeros_like(p)

    def _update_one(self, group, p, grad, state):
        if type(grad._device) is not LayoutKey:
            raise RuntimeError("SparseAdam does not support dense gradients, please consider "
                               "Adam instead")
        from ..sparse import sparse_coo_tensor
        state["step"] += 1
        grad = (-grad if group["maximize"] else grad).coalesce()  # (unique entries)
        indices, values = grad._indices(), grad._values()
        if values.numel() == 0:
            return

        def entries(v):
            return sparse_coo_tensor(indices, v, grad.shape, check_invariants=False)
        beta1, beta2 = group["betas"]
        # each moment moves toward the new value at grad's entries: m += (1 - b)(new - m)
        m_old = state["exp_avg"].sparse_mask(grad)._values()
        m_step = values.sub(m_old).mul_(1 - beta1)
        state["exp_avg"].add_(entries(m_step))
        v_old = state["exp_avg_sq"].sparse_mask(grad)._values()
        v_step = values.pow(2).sub_(v_old).mul_(1 - beta2)
        state["exp_avg_sq"].add_(entries(v_step))
        m_new, v_new = m_step.add_(m_old), v_step.add_(v_old)
        denom = v_new.sqrt_().add_(group["eps"])
        step = state["step"]
        step_size = group["lr"] * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        p.add_(entries(-step_size * m_new.div_(denom)))
