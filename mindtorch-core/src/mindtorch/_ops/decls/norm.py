"""torch.norm / Tensor.norm: the vector p-norm op `norm` (a reduction; also behind
linalg.vector_norm, dist, cdist and the norms in `linalg_norms`), written with mindtorch ops,
with its checks, its public overloads (p may be a string: "fro", or a matrix norm's order)
and its backward formula (torch's norm_backward).
"""
from ... import _dtype as D
from ...autograd.functional_helpers import sgn as _sgn, unreduce
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name
from .reduction import REDUCTION, _cast, _dims, _is_tensor, dims_of

_INF = float("inf")


def check_norm(self, dtype):
    """vector_norm's checks on the input dtype and dtype= (made before the dims)."""
    if self.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(self.dtype)}")
    check_norm_dtype(self.dtype, dtype, "linalg.vector_norm")


def check_norm_dtype(input_dtype, dtype, name):
    """A norm's dtype= against its input's dtype (PyTorch's check_linalg_norm_dtype)."""
    from ... import _promotion
    if dtype is None:
        return
    if dtype.kind not in "fc":
        raise RuntimeError(f"{name}: dtype should be floating point or complex, but got "
                           f"{_type_name(dtype)}")
    if dtype.is_complex != input_dtype.is_complex:
        kind = "complex" if input_dtype.is_complex else "real"
        raise RuntimeError(f"{name}: dtype should be {kind} for {kind} inputs, but got "
                           f"{_type_name(dtype)}")
    if _promotion.promote_types(input_dtype, dtype) is not dtype:
        raise RuntimeError(f"{name}: the dtype of the input ({_type_name(input_dtype)}) should "
                           f"be convertible without narrowing to the specified dtype "
                           f"({_type_name(dtype)})")


def _norm(self, p=2, dim=None, keepdim=False, dtype=None):
    """torch.norm with a numeric p: the vector p-norm over dim (every dim if None)."""
    check_norm(self, dtype)
    x = self
    if dtype is not None:
        x = _cast(x, dtype)
    out = x.dtype.to_real()
    if out in (D.float16, D.bfloat16):  # accumulate in float32, as torch does
        x = _cast(x, D.float32 if not x.dtype.is_complex else D.complex64)
    ax = x.abs()
    if p < 0 or p == _INF:  # no identity: an empty reduction is an error
        shown = int(p) if float(p).is_integer() else p  # (PyTorch prints -1.0 as -1)
        if (dim is None or dim == ()) and self.numel() == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on an empty "
                               f"tensor because the operation does not have an identity")
        for d in dims_of(self, dim) if self.ndim else ():
            if self._shape[d] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {shown} norm on the "
                                   f"dimension {d}because this dimension is empty and the "
                                   f"operation does not have an identity")
    n = 1
    for d in dims_of(self, dim) if self.ndim else ():
        n *= self._shape[d]
    if p in (_INF, -_INF):
        r = (ax.amax if p > 0 else ax.amin)(dim or (), keepdim)
    elif n == 1 and p != 0:  # one element per result: torch takes its abs as is
        r = ax.sum(dim, keepdim)
    elif p == 0:
        r = (ax != 0).sum(dim, keepdim, dtype=ax.dtype)
    elif p == 1:
        r = ax.sum(dim, keepdim)
    elif p == 2:
        r = (ax * ax).sum(dim, keepdim).sqrt()
    else:
        r = (ax ** p).sum(dim, keepdim) ** (1.0 / p)
    return r if r.dtype is out else _cast(r, out)


def _norm_public(binding):
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None, out=None):
        if out is not None:
            from ..dispatch import write_out
            return write_out(OPS["norm"], out, norm(self, p, dim, keepdim, dtype))
        if _is_tensor(self) and (dtype is None or isinstance(dtype, D.dtype)):
            check_norm(self, dtype)  # before the dims
        if p is None:  # torch.norm's p=None: the vector 2-norm over any number of dims
            p = 2
        if isinstance(p, str):
            if p == "fro":
                if dim is not None and not isinstance(dim, int) and len(dim) > 2:
                    raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                                       f"{' '.join(map(str, dim))}")
                p = 2
            else:  # as torch.norm: matrix_norm over the given dims (every dim if None)
                dims = range(self.ndim) if dim is None else [dim] if isinstance(dim, int) \
                    else dim
                return OPS["linalg_matrix_norm"].binding(self, p, list(dims), keepdim,
                                                         dtype=dtype)
        return binding(self, p, dim, keepdim, dtype=dtype)
    norm.__doc__ = "norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None) -> Tensor"
    return norm


def _norm_grad(grad, self, p, dim, keepdim, result):
    """torch's norm_backward (the gradient at a zero norm is 0 for p >= 1)."""
    p = 2.0 if p is None else float(p)
    if p == 0:
        return None
    shape = tuple(self.shape)
    if not keepdim and shape:
        grad, result = unreduce(grad, shape, dim, keepdim), unreduce(result, shape, dim, keepdim)
    if p == 1:
        return _sgn(self) * grad
    if p == 2:
        # (in place, as ATen: an out-of-place masked_fill would lay a channels-last
        # quotient out contiguous)
        return grad * (self / result).masked_fill_(result == 0, 0)
    if p in (_INF, -_INF):
        a = self.abs()
        mask = (a == result).logical_or(a.isnan())
        count = mask.sum(_dims(shape, dim) if shape else (), keepdim=True)
        return _sgn(self) * (grad / count * mask)
    if p < 1:
        scaled = _sgn(self) * self.abs().pow(p - 1).masked_fill_(self == 0, 0)
        return scaled * grad * result.pow(1 - p)
    scale = (grad / result.pow(p - 1)).masked_fill_(result == 0, 0)
    if p < 2:
        return _sgn(self) * self.abs().pow(p - 1) * scale
    return self * self.abs().pow(p - 2) * scale


def _declare():
    define("norm(Tensor self, Scalar? p=2, int[]? dim=None, bool keepdim=False, *, "
           "ScalarType? dtype=None) -> Tensor", tags=REDUCTION, decomposition=_norm)
    overload(OPS["norm"], _norm_public)
    derivative(OPS["norm"], self=_norm_grad, name="LinalgVectorNormBackward0")


_declare()
