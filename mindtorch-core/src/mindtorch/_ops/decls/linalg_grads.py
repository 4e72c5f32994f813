"""Backward formulas of the matrix products (linalg.py declares them): products, and the
composites whose PyTorch node users see (AddmmBackward0 ...); the other composites
(matmul, inner, outer, tensordot, kron, einsum, ...) differentiate through the products
they decompose into.  `_h` is the conjugate transpose of the last two dims.  addmm's
`_addmm_backward` is also the decomposition of its op, which a backend can fuse."""
from ..._layout import LayoutKey
from ..._shapes import broadcast_shapes
from ...autograd.functional_helpers import scaled, sum_to
from ..registry import OPS


def _h(t):
    # (the op's binding directly: Tensor.mT looks the op up on every call)
    return OPS["mH" if t.dtype.is_complex else "mT"].binding(t)


def _as(t, like):
    return t if t.dtype is like.dtype else t.to(like.dtype)


def _cross_dim(self, other, dim):
    if dim is not None:
        return dim
    return next(d for d, n in enumerate(broadcast_shapes(self.shape, other.shape)) if n == 3)


def _addbmm_grad(which):
    def grad_fn(grad, batch1, batch2, alpha):
        g = grad.unsqueeze(0).expand(batch1.shape[0], *grad.shape)
        if which == 1:
            return scaled(g.bmm(_h(batch2)), alpha)
        return scaled(_h(batch1).bmm(g), alpha)
    return grad_fn


def _trace_grad(grad, self_geometry):
    import mindtorch as M
    n, m = self_geometry[0]
    return M.eye(n, m, dtype=grad.dtype, device=grad.device) * grad


def _col_major(geometry):
    """Whether a matrix is laid out as the transpose of a contiguous one (W.t() in linear)."""
    (rows, cols), (s0, s1), _ = geometry
    return s0 == 1 and s1 == rows


def _mat1_grad(grad, mat2, transposed):
    """grad @ mat2^H, computed transposed when mat1 is column-major (transposed), so that
    the gradient has mat1's layout (as PyTorch's mm_mat1_backward; a linear's weight gets a
    contiguous .grad, not a transposed one that every later pointwise op would walk across)."""
    if transposed:
        return _h(mat2.mm(_h(grad)))
    return grad.mm(_h(mat2))


def _mat2_grad(grad, mat1, transposed):
    """mat1^H @ grad, in mat2's layout (PyTorch's mm_mat2_backward)."""
    if transposed:
        return _h(_h(grad).mm(mat1))
    return _h(mat1).mm(grad)


def _addmm_backward(grad, mat1, mat2, beta, alpha, self_shape, mat1_transposed,
                    mat2_transposed, output_mask):
    """addmm's three gradients (self's, mat1's, mat2's; those output_mask wants), as its
    formulas give them: an op so that a backend can compute them in one call (the node of
    every linear layer).  mat1 / mat2 may be None where no wanted gradient needs them."""
    want_self, want_mat1, want_mat2 = output_mask
    return (sum_to(scaled(grad, beta), self_shape) if want_self else None,
            scaled(_mat1_grad(grad, mat2, mat1_transposed), alpha) if want_mat1 else None,
            scaled(_mat2_grad(grad, mat1, mat2_transposed), alpha) if want_mat2 else None)


def _addmm_fused(grad, mat1, mat2, beta, alpha, self_geometry, mat1_geometry, mat2_geometry,
                 grad_input_mask):
    # (a value the wanted gradients do not need was not saved: None, or 1 for a coefficient;
    # sparse operands take the formulas, which their layout's kernels serve)
    sparse = type(grad._device) is LayoutKey or mat1 is not None and type(
        mat1._device) is LayoutKey or mat2 is not None and type(mat2._device) is LayoutKey
    return (_addmm_backward if sparse else OPS["_addmm_backward"].call)(
        grad, mat1, mat2, 1 if beta is None else beta, 1 if alpha is None else alpha,
        self_geometry and self_geometry[0],
        mat1_geometry is not None and _col_major(mat1_geometry),
        mat2_geometry is not None and _col_major(mat2_geometry), grad_input_mask)


_GRADS = {
    "mm": {"self": lambda grad, mat2, self_geometry:
           _mat1_grad(grad, mat2, _col_major(self_geometry)),
           "mat2": lambda grad, self, mat2_geometry:
           _mat2_grad(grad, self, _col_major(mat2_geometry))},
    "bmm": {"self": lambda grad, mat2: grad.bmm(_h(mat2)),
            "mat2": lambda grad, self: _h(self).bmm(grad)},
    "mv": {"self": lambda grad, vec: grad.unsqueeze(-1) * vec.conj(),
           "vec": lambda grad, self: _h(self).mv(grad)},
    "dot": {"self": lambda grad, tensor: grad * tensor.conj(),
            "tensor": lambda grad, self: grad * self.conj()},
    "vdot": {"self": lambda grad, other: grad.conj() * other,
             "other": lambda grad, self: grad * self},
    # (a broadcast bias summed here, not by the engine's generic shape check: cheaper)
    "addmm": {"self": lambda grad, beta, self_geometry: sum_to(scaled(grad, beta),
                                                               self_geometry[0]),
              "mat1": lambda grad, mat2, alpha, mat1_geometry:
              scaled(_mat1_grad(grad, mat2, _col_major(mat1_geometry)), alpha),
              "mat2": lambda grad, mat1, alpha, mat2_geometry:
              scaled(_mat2_grad(grad, mat1, _col_major(mat2_geometry)), alpha),
              "fused": ("self, mat1, mat2", _addmm_fused)},
    "addmv": {"self": lambda grad, beta: scaled(grad, beta),
              "mat": lambda grad, vec, alpha: scaled(grad.unsqueeze(-1) * vec.conj(), alpha),
              "vec": lambda grad, mat, alpha: scaled(_h(mat).mv(grad), alpha)},
    # addr promotes its operands: the products are taken in the result's dtype
    "addr": {"self": lambda grad, beta: scaled(grad, beta),
             "vec1": lambda grad, vec2, alpha: scaled(grad.mv(_as(vec2, grad).conj()), alpha),
             "vec2": lambda grad, vec1, alpha: scaled(grad.mT.mv(_as(vec1, grad).conj()), alpha)},
    "baddbmm": {"self": lambda grad, beta: scaled(grad, beta),
                "batch1": lambda grad, batch2, alpha: scaled(grad.bmm(_h(batch2)), alpha),
                "batch2": lambda grad, batch1, alpha: scaled(_h(batch1).bmm(grad), alpha)},
    "addbmm": {"self": lambda grad, beta: scaled(grad, beta),
               "batch1": _addbmm_grad(1), "batch2": _addbmm_grad(2)},
    "tril": {"self": lambda grad, diagonal: grad.tril(diagonal)},
    "triu": {"self": lambda grad, diagonal: grad.triu(diagonal)},
    "diag_embed": {"self": lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2)},
    "trace": {"self": _trace_grad},
    "cross": {"self": lambda grad, self, other, dim: OPS["cross"].call(
                  other.conj(), grad, _cross_dim(self, other, dim)),
              "other": lambda grad, self, other, dim: OPS["cross"].call(
                  grad, self.conj(), _cross_dim(self, other, dim)),
              "name": "LinalgCrossBackward0"},
}
