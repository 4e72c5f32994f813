"""Matrix products: mm, bmm, mv, dot (kernels) and matmul, addmm (decompositions).

The products' shape/dtype rules live here as plain functions of tensor metadata, used by
every backend's kernels (CPU, meta) so that all devices raise the same errors, in
torch's order, and agree on result shapes.  Products need equal dtypes (no promotion).
"""
from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..registry import OPS, define
from ._helpers import _type_name

# C++ scalar type names, as torch's "expected m1 and m2 to have the same dtype" prints
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
            "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>"}


def _no_bool(kernel_name, *tensors):
    # torch has no boolean products; it only notices when there is something to compute
    if tensors[0].dtype is D.bool and all(t.numel() for t in tensors):
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'Bool\'')


def mm_shape(self, mat2):
    if self.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if self._shape[1] != mat2._shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({self._shape[0]}x"
                           f"{self._shape[1]} and {mat2._shape[0]}x{mat2._shape[1]})")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_C_NAMES[self.dtype.name]} != {_C_NAMES[mat2.dtype.name]}")
    _no_bool("addmm_impl_cpu_", self, mat2)
    return (self._shape[0], mat2._shape[1])


def bmm_shape(self, mat2):
    for name, t in (("batch1", self), ("batch2", mat2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    b, n, k = self._shape
    if mat2._shape[:2] != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{mat2._shape[0]}, {mat2._shape[1]}].")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(mat2.dtype)}")
    _no_bool("bmm", self, mat2)
    return (b, n, mat2._shape[2])


def mv_shape(self, vec):
    if self.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
    n, m = self._shape
    if m != vec._shape[0]:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{m}), vec "
                           f"({vec._shape[0]})")
    if self.dtype is not vec.dtype:
        v, s = _type_name(vec.dtype), _type_name(self.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {s}, "
                           f"and {v}")
    _no_bool("addmv_impl_cpu", self, vec)
    return (n,)


def dot_shape(self, other):
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D "
                           f"tensors")
    if self.dtype is not other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_type_name(self.dtype)} and {_type_name(other.dtype)}")
    if self._shape != other._shape:
        a, b = self._shape[0], other._shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a}] and src [{b}] to "
                           f"have the same number of elements, but got {a} and {b} elements "
                           f"respectively")
    if self.dtype is D.bool:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    return ()


# -- decompositions ---------------------------------------------------------------------

def _matmul(self, other):
    """torch.matmul's dispatch on ranks: dot, mv, mm; a >2-D left side with a 1-/2-D right
    side folds its batch into rows; everything else broadcasts batch dims into a bmm."""
    d1, d2 = self.ndim, other.ndim
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{d1}D and {d2}D")
    mm = OPS["mm"].binding
    if d1 == 1 and d2 == 1:
        return OPS["dot"].binding(self, other)
    if d1 == 2 and d2 == 1:
        return OPS["mv"].binding(self, other)
    if d1 == 1 and d2 == 2:
        return mm(self.unsqueeze(0), other).squeeze(0)
    if d1 == 2 and d2 == 2:
        return mm(self, other)
    if d1 >= 3 and d2 <= 2:
        lead = self._shape[:-1]
        rows = 1
        for s in lead:
            rows *= s
        folded = self.reshape(rows, self._shape[-1])
        if d2 == 1:
            return OPS["mv"].binding(folded, other).view(lead)
        return mm(folded, other).view(lead + (other._shape[-1],))
    # batched: 1-D sides become a row (left) or a column (right), dropped at the end
    left = self.unsqueeze(0) if d1 == 1 else self
    right = other.unsqueeze(-1) if d2 == 1 else other
    n, k = left._shape[-2:]
    k2, p = right._shape[-2:]
    batch = broadcast_shapes(left._shape[:-2], right._shape[:-2])
    count = 1
    for s in batch:
        count *= s
    out = OPS["bmm"].binding(left.expand(batch + (n, k)).reshape(count, n, k),
                             right.expand(batch + (k2, p)).reshape(count, k2, p))
    return out.view(batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ()))


def addmm_coefficients(self, mat1, mat2, beta, alpha):
    """addmm's checks before the product's own; returns (beta, alpha) as the result dtype
    takes them (integer results truncate them, as torch does)."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_type_name(self.dtype)} and {_type_name(mat2.dtype)}")
    kind = mat2.dtype.kind
    if kind != "c" and (isinstance(alpha, complex) or isinstance(beta, complex)):
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[mat2.dtype.name]} "
                           f"without overflow")
    if kind in "uib":
        return int(beta), int(alpha)
    return beta, alpha


def _addmm(self, mat1, mat2, beta=1, alpha=1):
    """beta * self + alpha * (mat1 @ mat2); beta == 0 ignores self (even its NaNs).
    Backends may fuse it (the CPU kernel rounds 16-bit floats once)."""
    beta, alpha = addmm_coefficients(self, mat1, mat2, beta, alpha)
    product = OPS["mm"].binding(mat1, mat2)
    base = self.expand(product._shape)
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return product + (base if beta == 1 else base * beta)


def _declare():
    for name, args in (("mm", "Tensor self, Tensor mat2"), ("bmm", "Tensor self, Tensor mat2"),
                       ("mv", "Tensor self, Tensor vec"), ("dot", "Tensor self, Tensor tensor")):
        define(f"{name}({args}) -> Tensor", tags=("linalg",), out=True)
    define("matmul(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_matmul)
    define("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
           "-> Tensor", tags=("linalg",), out=True, decomposition=_addmm)


_declare()
