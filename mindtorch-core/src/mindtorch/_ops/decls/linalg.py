"""Matrix products: mm, bmm, mv, dot (kernels) and matmul, addmm (decompositions).

The products' shape/dtype rules live here as plain functions of tensor metadata, used by
every backend's kernels (CPU, meta) so that all devices raise the same errors, in
torch's order, and agree on result shapes.  Products need equal dtypes (no promotion).
"""
from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..dispatch import write_out
from ..registry import OPS, define, overload
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


def bmm_plan(self, mat2):
    """(result shape, result dtype, whether there is a product to compute) of bmm.  The
    result takes mat2's dtype; PyTorch only checks the dtypes (bool first, then equality)
    when the result is non-empty and the contraction is too (else: empty or zeros)."""
    for name, t in (("batch1", self), ("batch2", mat2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    b, n, k = self._shape
    if mat2._shape[:2] != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{mat2._shape[0]}, {mat2._shape[1]}].")
    shape = (b, n, mat2._shape[2])
    if 0 in shape or k == 0:
        return shape, mat2.dtype, False
    if self.dtype is D.bool:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(mat2.dtype)}")
    return shape, mat2.dtype, True


def bmm_shape(self, mat2):
    return bmm_plan(self, mat2)[0]


def mv_shape(self, vec):
    if self.ndim == 0:  # PyTorch reads self.size(0) first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
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


def _vdot(self, other):
    dot_shape(self, other)  # dot's errors, before conjugating
    return OPS["dot"].call(self.conj() if self.dtype.is_complex else self, other)


def _outer(self, vec2):
    for name, t in (("self", self), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return OPS["mul"].call(self.reshape(-1, 1), vec2)


def _inner(self, other):
    if self.ndim == 0 or other.ndim == 0:
        return OPS["mul"].call(self, other)
    if self._shape[-1] != other._shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(self._shape)} and {list(other._shape)}")
    if self.dtype is not other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if self.ndim == 1 and other.ndim == 1:
        return OPS["dot"].call(self, other)
    k = self._shape[-1]
    r = OPS["mm"].call(self.reshape(-1, k), other.reshape(-1, k).t())
    return r.reshape(self._shape[:-1] + other._shape[:-1])


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


# -- out=: products want an out tensor of exactly their result's dtype ----------------------

def _c_name(dtype):
    return _C_NAMES[dtype.name]


def _out_message(kind, result, out, args):
    if kind == "dot":
        return (f"result dtype {_type_name(out.dtype)} does not match input dtype "
                f"{_type_name(result.dtype)}")
    if kind == "addmv":
        return (f"addmv input tensors must have the same dtype, but got "
                f"{_type_name(out.dtype)}, {_type_name(args[0].dtype)}, and "
                f"{_type_name(args[1].dtype)}")
    if kind == "tensordot":
        return (f"tensordot: Expected the output tensor to have dtype "
                f"{_type_name(result.dtype)}, but got an output tensor with dtype "
                f"{_type_name(out.dtype)}")
    return (f"Expected out tensor to have dtype {_c_name(result.dtype)}, but got "
            f"{_c_name(out.dtype)} instead")


def _matmul_out_kind(args):
    """The product matmul runs (whose out= message PyTorch shows) for these ranks."""
    d1, d2 = (getattr(a, "ndim", 0) for a in args[:2])
    return "dot" if d1 == d2 == 1 else "addmv" if d2 == 1 and d1 >= 2 else "mm"


def _strict_out(op, kind):
    def make(generated):
        def product(*args, out=None, **kwargs):
            if out is None:
                return generated(*args, **kwargs)
            r = generated(*args, **kwargs)
            k = _matmul_out_kind(args) if kind == "matmul" else kind
            # (inner with a 0-dim side is a mul: out= casts as for pointwise ops)
            strict = kind != "tensordot" or all(getattr(a, "ndim", 0) for a in args[:2])
            if strict and r.dtype is not out.dtype:
                raise RuntimeError(_out_message(k, r, out, args))
            return write_out(op, out, r)
        return product
    overload(op, make)


def _declare():
    for name, args in (("mm", "Tensor self, Tensor mat2"), ("bmm", "Tensor self, Tensor mat2"),
                       ("mv", "Tensor self, Tensor vec"), ("dot", "Tensor self, Tensor tensor")):
        define(f"{name}({args}) -> Tensor", tags=("linalg",), out=True)
    define("matmul(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_matmul)
    define("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
           "-> Tensor", tags=("linalg",), out=True, decomposition=_addmm)
    define("vdot(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_vdot)
    define("inner(Tensor self, Tensor other) -> Tensor", tags=("linalg",), out=True,
           decomposition=_inner)
    for name in ("outer", "ger"):
        define(f"{name}(Tensor self, Tensor vec2) -> Tensor", tags=("linalg",), out=True,
               decomposition=_outer)
    for name, kind in (("mm", "mm"), ("bmm", "mm"), ("addmm", "mm"), ("matmul", "matmul"),
                       ("mv", "addmv"), ("dot", "dot"), ("vdot", "dot"),
                       ("inner", "tensordot")):
        _strict_out(OPS[name], kind)


_declare()
