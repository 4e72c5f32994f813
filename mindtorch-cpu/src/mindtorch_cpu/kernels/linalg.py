"""Matrix product kernels (np.matmul).  Shapes, dtypes and errors come from the shared
rules in mindtorch._ops.decls.linalg.

16-bit floats multiply in float32 and round once; integers multiply in int64 and wrap
back to their width (the same residues as torch's narrow accumulation).
"""
import numpy as np

from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._ops.decls import linalg as L

from .._np import arr, wrap
from ._limited import U as _UNSIGNED
from ._limited import refuse
from .reduction import KERNELS as _REDUCTIONS
from .reduction import result

_COMPUTE = {D.float16: np.float32, D.bfloat16: np.float32, D.uint8: np.int64,
            D.int8: np.int64, D.int16: np.int64, D.int32: np.int64}
_PLAIN = (D.float32, D.float64)  # computed as they are, one rounding per step as BLAS's


# PyTorch's addmm kernel (mm's, addmm's) lacks these barebones dtypes (kernels/_limited.py)
_NO_ADDMM = _UNSIGNED | {D.float8_e8m0fnu}


def _refuse_addmm(dt):
    if dt._limited and dt in _NO_ADDMM:
        raise refuse("addmm_impl_cpu_", dt)


def _product(shape_rule, refused=None):
    """A matmul kernel (mm, bmm) checking shapes by shape_rule; refused: its dtype check."""
    def kernel(self, other):
        shape_rule(self, other)
        dt = self.dtype
        if refused is not None:
            refused(dt)
        a, b = arr(self), arr(other)
        compute = _COMPUTE.get(dt)
        if compute is not None:
            a, b = a.astype(compute), b.astype(compute)
        # (no np.errstate, ~2 us: the filter in kernels/__init__.py silences the warnings)
        return result(np.matmul(a, b), dt)
    return kernel


def bmm(self, mat2):
    shape, dt, compute = L.bmm_plan(self, mat2)
    if not compute:  # an empty result, or an empty contraction: zeros
        return wrap(np.zeros(shape, dt.np), dt)
    return _bmm(self, mat2)


_bmm = _product(L.bmm_shape)


def addmm(self, mat1, mat2, beta=1, alpha=1):
    """Fused: one rounding of beta * self + alpha * mat1 @ mat2 in the compute dtype (a
    term with a zero coefficient is skipped)."""
    dt, s = mat2.dtype, self._shape
    m1, m2 = mat1._shape, mat2._shape
    if type(beta) is type(alpha) is int and beta == alpha == 1 and dt in _PLAIN \
            and self.dtype is dt and mat1.dtype is dt and len(m1) == len(m2) == 2 \
            and m1[1] == m2[0] and len(s) <= 2 and s[-1:] == m2[1:] \
            and (len(s) == 1 or s[0] == m1[0]):  # (a linear layer: nothing left to check)
        r = np.matmul(arr(mat1), arr(mat2))
        r += arr(self)
        return wrap(r, dt)
    beta, alpha = L.addmm_coefficients(self, mat1, mat2, beta, alpha)
    shape = L.mm_shape(mat1, mat2)
    _refuse_addmm(dt)
    L.check_bool_addmm(mat2.dtype, beta)
    if s != shape and (len(s) > 2 or any(a != 1 and a != b for a, b in zip(s[::-1], shape[::-1]))):
        self.expand(shape)  # torch's error when self does not broadcast to the result
    compute = _COMPUTE.get(dt, dt.np)
    if alpha == 0:  # (the product is skipped, NaNs and all, as PyTorch does)
        r = np.zeros(shape, compute)
    else:
        r = np.matmul(arr(mat1).astype(compute, copy=False),
                      arr(mat2).astype(compute, copy=False))
    if alpha not in (0, 1):
        r *= alpha
    if beta != 0:  # (in place, self broadcast: no temporary of the result's size)
        b = arr(self).astype(compute, copy=False)
        r += b if beta == 1 else b * beta
    return result(r, dt)


_sum = _REDUCTIONS["sum"]


def _addmm_backward(grad, mat1, mat2, beta, alpha, self_shape, mat1_transposed,
                    mat2_transposed, output_mask):
    """addmm's gradients in one call for a real float linear layer (grad 2-D and not empty,
    beta = alpha = 1, self the result's shape or a bias): the products the formulas take,
    as the same BLAS calls on the same layouts (so the same bits); anything else the
    decomposition."""
    dt, shape = grad.dtype, grad._shape
    want_self, want_mat1, want_mat2 = output_mask
    if dt not in _PLAIN or len(shape) != 2 or type(beta) is bool or beta != 1 or \
            type(alpha) is bool or alpha != 1 or (want_mat1 and mat2.dtype is not dt) or (
            want_mat2 and mat1.dtype is not dt) or (want_self and tuple(self_shape) not in (
            shape, shape[1:])) or _empty(shape, mat1, mat2):  # (empty: the views' strides)
        from mindtorch._ops.dispatch import _decomposition
        return _decomposition(OPS["_addmm_backward"])(
            grad, mat1, mat2, beta, alpha, self_shape, mat1_transposed, mat2_transposed,
            output_mask)
    g = arr(grad)
    gs = g1 = g2 = None
    if want_self:  # (the bias' gradient: sum's kernel, as sum_to calls it)
        gs = grad if len(self_shape) == 2 else _sum(grad, (0,), False, None)
    if want_mat1:  # grad @ mat2^T, or (mat2 @ grad^T)^T for a column-major mat1
        m2 = arr(mat2)
        g1 = wrap(np.matmul(m2, g.T).T if mat1_transposed else np.matmul(g, m2.T), dt)
    if want_mat2:  # mat1^T @ grad, or (grad^T @ mat1)^T for a column-major mat2
        m1 = arr(mat1)
        g2 = wrap(np.matmul(g.T, m1).T if mat2_transposed else np.matmul(m1.T, g), dt)
    return gs, g1, g2


def linear(input, weight, bias=None):
    """Off the autograd path (the binding records the decomposition): a float linear layer
    as the decomposition's own NumPy calls (addmm for a 2-d input, or a contiguous one's
    rows folded, with a contiguous 1-d bias; mm for a 2-d input without one), without its
    weight.t() view and addmm dispatch; anything else the decomposition."""
    dt, s, w = input.dtype, input._shape, weight._shape
    if dt in _PLAIN and weight.dtype is dt and len(w) == 2 and s and s[-1] == w[1] and \
            0 not in s and (len(s) == 2 if bias is None else bias.dtype is dt and
                            bias._shape == w[:1] and (len(s) == 2 or input.is_contiguous()
                                                      and bias.is_contiguous())):
        x = arr(input)
        r = np.matmul(x if len(s) == 2 else x.reshape(-1, s[-1]), arr(weight).T)
        if bias is not None:
            r += arr(bias)
        return wrap(r if len(s) == 2 else r.reshape(s[:-1] + w[:1]), dt)
    from mindtorch._ops.dispatch import _decomposition
    return _decomposition(OPS["linear"])(input, weight, bias)


def _empty(shape, *tensors):
    for t in tensors:  # (a loop: a generator costs more than the tests, on every backward)
        if t is not None and 0 in t._shape:
            return True
    return 0 in shape


def _triangle(lower):
    """tril / triu in one np.tril / np.triu (the decomposition builds an index mask and
    selects: several ops)."""
    fn = np.tril if lower else np.triu

    def kernel(self, diagonal=0):
        L.check_tri(self, lower)
        # (contiguous as PyTorch's: numpy's select follows a permuted input's layout)
        return wrap(np.ascontiguousarray(fn(arr(self), diagonal)), self.dtype)
    return kernel


KERNELS = {
    "tril": _triangle(True),
    "triu": _triangle(False),
    "addmm": addmm,
    "_addmm_backward": _addmm_backward,
    "linear": linear,
    "mm": _product(L.mm_shape, _refuse_addmm),
    "bmm": bmm,
    "mv": _product(L.mv_shape),
    "dot": _product(L.dot_shape),
}
