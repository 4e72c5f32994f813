"""Reductions (sum, mean, max, var, ...) and scans (cumsum).

Besides the declarations, this module holds the shape/dtype/validity rules of these ops
as plain functions on tensor metadata (no data is read).  Every backend calls them, so
the CPU kernels and the meta device raise the same errors and agree on result shapes
and dtypes.

Overloads.  torch.max/min take three forms: max(t) (full reduction, a tensor),
max(t, dim, keepdim) (a named tuple (values, indices)) and max(t, other) (maximum).
One schema cannot return both a tensor and a tuple, so each form is its own op --
`max` (full), `_max_dim` (hidden), `maximum` -- and the public mindtorch.max /
Tensor.max is a small wrapper choosing among them (see registry.overload).  var/std (a bool
second argument means `unbiased`) and norm (p may be a string) use the same device.
"""
import re
import sys
import warnings

from ... import _dtype as D
from ... import return_types
from ..._shapes import reduced_shape
from ..registry import OPS, define, overload
from ._helpers import _type_name

REDUCTION = ("reduction",)
_ALL = ("int[]? dim=None", "bool keepdim=False")


# -- rules shared by every backend (metadata only) --------------------------------------

def dims_of(self, dim):
    """The (wrapped) dims a reduction over `dim` covers: every dim for None or ()."""
    if dim is None or dim == ():
        return tuple(range(self.ndim))
    return (dim,) if isinstance(dim, int) else tuple(dim)


def out_shape(self, dim, keepdim):
    return reduced_shape(self._shape, dims_of(self, dim) if self.ndim else (), keepdim)


def sum_dtype(self, dtype):
    """sum/prod/cumsum: the requested dtype, else integers and bool widen to int64."""
    if dtype is not None:
        return dtype
    return D.int64 if self.dtype.kind in "uib" else self.dtype


def mean_dtype(self, dtype):
    dt = dtype or self.dtype
    if dt.kind not in "fc":
        which = "Optional dtype" if dtype is not None else "Input dtype"
        raise RuntimeError(f"mean(): could not infer output dtype. {which} must be either a "
                           f"floating point or complex dtype. Got: {_type_name(dt)}")
    return dt


def any_all_dtype(self):
    # uint8 keeps its dtype (a legacy of byte masks); everything else gives bool
    return D.uint8 if self.dtype is D.uint8 else D.bool


# (exception class, message) for complex / bool inputs the min/max family rejects
_COMPLEX = {
    "max": (NotImplementedError, '"max_all" not implemented for \'{}\''),
    "min": (NotImplementedError, '"min_all" not implemented for \'{}\''),
    "amax": (NotImplementedError, '"max_values_cpu" not implemented for \'{}\''),
    "amin": (NotImplementedError, '"min_values_cpu" not implemented for \'{}\''),
    "_max_dim": (RuntimeError, "max(): does not support complex input"),
    "_min_dim": (RuntimeError, "min(): does not support complex input"),
    "argmax": (RuntimeError, "argmax(): does not support complex input"),
    "argmin": (RuntimeError, "argmin(): does not support complex input"),
}
_PUBLIC = {"_max_dim": "max", "_min_dim": "min"}


_ARG = frozenset({"argmax", "argmin"})
_VALUES = frozenset({"amax", "amin"})


def check_extremum(name, self, dim):
    """Validity of max/min/amax/amin/argmax/argmin over `dim` (None: every dim): no
    reduction over an empty dim (there is no identity), no complex input, no bool for
    arg*.  The order of the checks is torch's (it decides which error an input gets)."""
    arg = name in _ARG
    if arg:
        _check_complex(name, self)
        if self.dtype is D.bool:
            raise RuntimeError(f"{name}(): does not support bool input")
    shape = self._shape
    if shape and 0 in shape:
        public = _PUBLIC.get(name, name)
        if dim is None or dim == ():
            if arg:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                                 f"input.numel() == 0.")
            raise RuntimeError(f"{public}(): Expected reduction dim to be specified for "
                               f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                               f"argument.")
        for d in dims_of(self, dim):
            if shape[d] == 0:
                raise IndexError(f"{public}(): Expected reduction dim {d} to have non-zero "
                                 f"size.")
        if name in _VALUES:
            return  # amax/amin of an empty result never reach the kernel rejecting complex
    if not arg:
        _check_complex(name, self)


def _check_complex(name, self):
    if self.dtype.is_complex:
        cls, msg = _COMPLEX[name]
        raise cls(msg.format(_type_name(self.dtype)))


def var_correction(name, self, dim, unbiased, correction):
    """(correction, result dtype) of var/std; warns like torch when the degrees of
    freedom are <= 0."""
    if self.dtype.kind not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}(): cannot specify both 'unbiased' and 'correction'")
    if correction is None:
        correction = 0 if unbiased is False else 1
    n = 1
    for d in dims_of(self, dim) if self.ndim else ():
        n *= self._shape[d]
    if n - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      f"less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=_caller_level())
    return correction, self.dtype.to_real()


def _caller_level():
    """stacklevel of the first frame outside mindtorch and its backends (bindings,
    wrappers and kernels sit between a warning and the user's call)."""
    frame, level = sys._getframe(2), 2
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith("<") or _INTERNAL.search(name)):
            break
        frame, level = frame.f_back, level + 1
    return level


_INTERNAL = re.compile(r"[/\\]mindtorch(_\w+)?[/\\]")


def logsumexp_dtype(self):
    return D.get_default_dtype() if self.dtype.kind in "uib" else self.dtype


# -- composite ops ----------------------------------------------------------------------

def _cast(x, dtype):
    """x converted to dtype (a fresh tensor; works on every device with a copy_)."""
    return OPS["empty_like"].binding(x, dtype=dtype).copy_(x)


_INF = float("inf")


def _norm(self, p=2, dim=None, keepdim=False, dtype=None):
    """torch.norm with a numeric p: the vector p-norm over dim (every dim if None)."""
    from ... import _promotion
    if self.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(self.dtype)}")
    x = self
    if dtype is not None:
        if _promotion.promote_types(self.dtype, dtype) is not dtype:
            raise RuntimeError(f"linalg.vector_norm: the dtype of the input "
                               f"({_type_name(self.dtype)}) should be convertible without "
                               f"narrowing to the specified dtype ({_type_name(dtype)})")
        x = _cast(x, dtype)
    out = x.dtype.to_real()
    if out in (D.float16, D.bfloat16):  # accumulate in float32, as torch does
        x = _cast(x, D.float32 if not x.dtype.is_complex else D.complex64)
    ax = x.abs()
    if p in (_INF, -_INF):
        if dim is None and self.numel() == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {p} norm on an empty "
                               f"tensor because the operation does not have an identity")
        for d in dims_of(self, dim) if self.ndim else ():
            if self._shape[d] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p} norm on the "
                                   f"dimension {d}because this dimension is empty and the "
                                   f"operation does not have an identity")
        r = (ax.amax if p > 0 else ax.amin)(dim or (), keepdim)
    elif p == 0:
        r = (ax != 0).sum(dim, keepdim, dtype=ax.dtype)
    elif p == 1:
        r = ax.sum(dim, keepdim)
    elif p == 2:
        r = (ax * ax).sum(dim, keepdim).sqrt()
    else:
        r = (ax ** p).sum(dim, keepdim) ** (1.0 / p)
    return r if r.dtype is out else _cast(r, out)


# -- public wrappers for the overloaded forms ---------------------------------------------

def _extremum(name, binary_name):
    full_op, dim_op = OPS[name], OPS[f"_{name}_dim"]
    ret = return_types.make(name, ["values", "indices"])

    def make(full):
        from ..._tensor import Tensor
        binary_op = OPS[binary_name]

        def extremum(self, dim=None, keepdim=False, *, other=None, out=None):
            if isinstance(dim, Tensor):
                dim, other = None, dim
            if other is not None:  # max(a, b) is maximum(a, b)
                if dim is not None or keepdim:
                    raise TypeError(f"{name}(): 'other' cannot be combined with dim/keepdim")
                return binary_op.binding(self, other, out=out)
            if dim is None:
                if keepdim:
                    raise TypeError(f"{name}(): keepdim=True needs a dim")
                return full(self, out=out)
            r = ret(*dim_op.binding(self, dim, keepdim))
            if out is not None:
                from ..dispatch import write_out
                values, indices = out
                write_out(full_op, values, r.values)
                write_out(full_op, indices, r.indices)
                return ret(values, indices)
            return r
        extremum.__doc__ = (f"{name}(input) -> Tensor\n{name}(input, dim, keepdim=False) -> "
                            f"(Tensor values, Tensor indices)\n{name}(input, other) -> Tensor "
                            f"({binary_name})")
        return extremum
    overload(full_op, make)


def _var_like(name):
    def make(binding):
        def var_like(self, dim=None, unbiased=None, keepdim=False, *, correction=None,
                     out=None):
            if type(dim) is bool and unbiased is None:  # var(t, True): legacy `unbiased`
                dim, unbiased = None, dim
            return binding(self, dim, unbiased, keepdim, correction=correction, out=out)
        var_like.__doc__ = OPS[name].schema.text
        return var_like
    overload(OPS[name], make)


def _norm_public(binding):
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        if isinstance(p, str):
            if p == "fro":
                if dim is not None and not isinstance(dim, int) and len(dim) > 2:
                    raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                                       f"{' '.join(map(str, dim))}")
                p = 2
            elif p == "nuc":
                raise NotImplementedError("norm(p='nuc') needs a singular value decomposition, "
                                          "which mindtorch does not provide yet")
            else:
                raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        return binding(self, p, dim, keepdim, dtype=dtype)
    norm.__doc__ = "norm(input, p='fro', dim=None, keepdim=False, dtype=None) -> Tensor"
    return norm


def _declare():
    dim_all = ", ".join(_ALL)
    for name in ("sum", "mean"):
        define(f"{name}(Tensor self, {dim_all}, *, ScalarType? dtype=None) -> Tensor",
               tags=REDUCTION, promotion="int_to_long" if name == "sum" else "default",
               out=True)
    define("prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None)"
           " -> Tensor", tags=REDUCTION, promotion="int_to_long", out=True)
    for name in ("max", "min"):
        define(f"{name}(Tensor self) -> Tensor", tags=REDUCTION, out=True)
        define(f"_{name}_dim(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)",
               tags=REDUCTION, function=False, method=False)
        define(f"a{name}(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor",
               tags=REDUCTION, out=True)
        define(f"arg{name}(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
               tags=REDUCTION, out=True)
    for name in ("all", "any"):
        define(f"{name}(Tensor self, {dim_all}) -> Tensor", tags=REDUCTION, out=True)
    for name in ("var", "std"):
        define(f"{name}(Tensor self, int[]? dim=None, bool? unbiased=None, bool keepdim=False,"
               f" *, Scalar? correction=None) -> Tensor", tags=REDUCTION, out=True)
    define("norm(Tensor self, Scalar? p=2, int[]? dim=None, bool keepdim=False, *, "
           "ScalarType? dtype=None) -> Tensor", tags=REDUCTION, decomposition=_norm)
    define("logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor", tags=REDUCTION,
           out=True)
    define("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
           promotion="int_to_long", out=True)

    _extremum("max", "maximum")
    _extremum("min", "minimum")
    _var_like("var")
    _var_like("std")
    overload(OPS["norm"], _norm_public)


_declare()
