"""Reductions (sum, mean, max, var, ...) and scans (cumsum, cumprod).

Besides the declarations, this module holds the shape/dtype/validity rules of these ops
as plain functions on tensor metadata (no data is read).  Every backend calls them, so
the CPU kernels and the meta device raise the same errors and agree on result shapes
and dtypes.

Overloads.  torch.max/min take three forms: max(t) (full reduction, a tensor),
max(t, dim, keepdim) (a named tuple (values, indices)) and max(t, other) (maximum).
One schema cannot return both a tensor and a tuple, so each form is its own op --
`max` (full), `_max_dim` (hidden), `maximum` -- and the public mindtorch.max /
Tensor.max is a small wrapper choosing among them (see registry.overload).  var/std (a bool
second argument means `unbiased`) use the same device.  torch.norm is in `norm`; the
private helpers here that other families reuse (_var_forms, _var_grad, _amax_grad, ...)
stay importable from this module.
"""
import math
import re
import sys
import warnings

from ... import _dtype as D
from ... import return_types
from ..._shapes import reduced_shape
from ..._tensor import Tensor
from ...autograd.functional_helpers import restore_reduced_dims, unreduce
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import _type_name
from .product_grads import _cumprod_grad, _prod_grad, _reversed_cumsum

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


def logical_shape(self, dim, keepdim):
    """all/any: an explicit empty dim list reduces nothing (unlike sum's)."""
    if dim == () and self.ndim:
        return self._shape
    return out_shape(self, dim, keepdim)


def check_logsumexp(self, dim, keepdim):
    """torch's logsumexp(t, dim=()) resizes a 0-dim result to keepdim's shape and fails."""
    if dim == () and not keepdim and self.ndim and self.numel():
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"{[1] * self.ndim}")


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
    reduced = set(dims_of(self, dim)) if self.ndim else ()
    n = 1
    for d, size in enumerate(self._shape):  # PyTorch: input numel / max(output numel, 1)
        n *= size if d in reduced else (size > 0)
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


# -- conversions (used by the wrappers below and by `norm`) -----------------------------

def _real(x):
    """The real part of a complex tensor, as a fresh tensor."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dropping the imaginary part is the point
        return _cast(x, x.dtype.to_real())


def _cast(x, dtype):
    """x converted to dtype (a fresh tensor; works on every device with a copy_)."""
    return OPS["empty_like"].binding(x, dtype=dtype).copy_(x)


_INF = float("inf")


# -- public wrappers: PyTorch's overloads, checks made before dims are wrapped, out= ---------

_C_TYPES = D.CPP_NAMES


def _out_dtype_error(expected, got):
    return RuntimeError(f"Expected out tensor to have dtype {_C_TYPES[expected.name]}, but got "
                        f"{_C_TYPES[got.name]} instead")


def _dim_given(args, kwargs):
    return bool(args) or "dim" in kwargs or "axis" in kwargs


def _dim_value(args, kwargs):
    return args[0] if args else kwargs.get("dim", kwargs.get("axis"))


def _invalid(name, args, kwargs, extra=", but expected one of:"):
    """PyTorch's error when no overload takes the arguments (its first line: the
    overloads' signatures follow it there; it lists the keywords last to first)."""
    got = ", ".join(["Tensor"] + [type(a).__name__ for a in args] +
                    [f"{k}={type(v).__name__}" for k, v in reversed(kwargs.items())])
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}){extra}")


def _check_out(name, out):
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")


def _is_tensor(x):
    return isinstance(x, Tensor)


def _public(name, wrapper):
    """Make op `name`'s public function/method wrapper(op, binding, self, args, kwargs, out)."""
    op = OPS[name]

    def make(binding):
        def public(self, *args, out=None, **kwargs):
            return wrapper(op, binding, self, args, kwargs, out)
        public.__doc__ = op.text
        return public
    overload(op, make)


def _write(op, out, result):
    from ..dispatch import write_out
    return write_out(op, out, result)


def _dtyped(op, binding, self, args, kwargs, out):
    """sum/prod/mean/cumsum: with out=, the result is computed in out's dtype (an explicit
    dtype= must equal it); sum/prod have out= only in their dim forms, prod takes one int
    dim (never None); keepdim comes only with a dim; mean wants a floating or complex dtype
    (checked before the dims)."""
    name = op.name
    given = _dim_given(args, kwargs)
    # keepdim exists only in the dim overloads (sum(keepdim=True) is a TypeError)
    scan = name in ("cumsum", "cumprod")
    if not given and not scan and ("keepdim" in kwargs or "keepdims" in kwargs) or (
            name == "prod" and given and (_dim_value(args, kwargs) is None or
                                          isinstance(_dim_value(args, kwargs), (tuple, list)))):
        raise _invalid(name, args, kwargs)
    if name == "mean" and _is_tensor(self):
        mean_dtype(self, kwargs.get("dtype") if isinstance(kwargs.get("dtype"), D.dtype)
                   else None)
    if out is None:
        return binding(self, *args, **kwargs)
    if name in ("sum", "prod") and not given:
        raise _invalid(name, args, dict(kwargs, out=out))
    _check_out(name, out)
    if scan:  # (PyTorch's scans refuse an out= partly overlapping the input)
        from .creation import check_out_overlap
        check_out_overlap(out, (self,))
    dtype = kwargs.get("dtype")
    if dtype is None and (name != "mean" or given and out.dtype.kind in "fc"):
        kwargs = dict(kwargs, dtype=out.dtype)
    result = binding(self, *args, **kwargs)
    if dtype is not None and result.dtype is not out.dtype:
        raise _out_dtype_error(result.dtype, out.dtype)
    return _write(op, out, result)


def _values(op, binding, self, args, kwargs, out):
    """amax/amin: out= has the input's dtype (checked before the dims)."""
    if out is not None:
        _check_out(op.name, out)
        if _is_tensor(self) and out.dtype is not self.dtype:
            raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                               f"{_type_name(self.dtype)} for input's dtype and "
                               f"{_type_name(out.dtype)} for out's dtype.")
    return binding(self, *args, **kwargs, out=out)


def _arg(op, binding, self, args, kwargs, out):
    """argmax/argmin: complex and bool inputs are refused before the dims; out= is int64."""
    if _is_tensor(self):
        _check_complex(op.name, self)
        if self.dtype is D.bool:
            raise RuntimeError(f"{op.name}(): does not support bool input")
    if out is None:
        return binding(self, *args, **kwargs)
    _check_out(op.name, out)
    result = binding(self, *args, **kwargs)
    if out.dtype is not D.int64:
        raise _out_dtype_error(D.int64, out.dtype)
    return _write(op, out, result)


def _logical(op, binding, self, args, kwargs, out):
    """all/any: out= is bool or uint8 (checked before the dims), and decides the dtype the
    input is read in (a uint8 out= first casts the input to uint8: 0.3 counts as 0)."""
    if out is None:
        return binding(self, *args, **kwargs)
    _check_out(op.name, out)
    if out.dtype is not D.bool and out.dtype is not D.uint8:
        raise RuntimeError(f"{op.name} only supports bool tensor for result, got: "
                           f"{_type_name(out.dtype)}")
    if _is_tensor(self) and self.dtype is not out.dtype and out.dtype is D.uint8 and \
            self.ndim:
        from .._argcheck import wrap_dims
        dim = _dim_value(args, kwargs)
        n = 1
        if dim != ():
            for d in dims_of(self, wrap_dims((dim,) if isinstance(dim, int) else dim or (),
                                             self.ndim)):
                n *= self._shape[d]
        if dim == () or n != 1 or self.dtype.is_complex:
            # (a reduction over single real elements reads them as is)
            self = _cast(_real(self) if self.dtype.is_complex else self, D.uint8)
    result = binding(self, *args, **kwargs)
    if result.dtype is not out.dtype:
        result = _cast(result, out.dtype)
    return _write(op, out, result)


def _logsumexp(op, binding, self, args, kwargs, out):
    """logsumexp: out= is floating or complex (checked before the dims); a real out= of a
    complex input holds log(Re(sum(exp(x - m)))) + m, m the largest real part (torch sums
    straight into out, dropping the imaginary part)."""
    if out is None:
        return binding(self, *args, **kwargs)
    _check_out(op.name, out)
    if out.dtype.kind not in "fc":
        raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, "
                           f"but got: {_type_name(out.dtype)}")
    if not (_is_tensor(self) and self.dtype.is_complex and not out.dtype.is_complex):
        return binding(self, *args, **kwargs, out=out)
    import mindtorch as M
    result = binding(self, *args, **kwargs)  # (argument checks)
    if not self.numel():
        return _write(op, out, _real(result))
    dim = _dim_value(args, kwargs)
    keepdim = args[1] if len(args) > 1 else kwargs.get("keepdim", kwargs.get("keepdims", False))
    dims = dims_of(self, dim) if self.ndim else ()
    m = _real(self).amax(dims, keepdim=True)
    m = M.where(m.isfinite(), m, 0.0)
    r = _real((self - m).exp().sum(dims, keepdim=keepdim)).log()
    r = r + (m if keepdim else m.reshape(r.shape))
    return _write(op, out, r)


def _var_forms(op, binding, self, args, kwargs, out):
    """var/std's three overloads: (input, dim, unbiased=True, keepdim=False, *, out),
    (input, dim=None, *, correction=None, keepdim=False, out) and (input, unbiased=True);
    floating or complex input (checked before the dims)."""
    name = op.name
    kw = {("dim" if k == "axis" else "keepdim" if k == "keepdims" else k): v
          for k, v in kwargs.items()}
    if len(args) == 1 and type(args[0]) is bool and "dim" not in kw:  # var(t, unbiased)
        if kw or out is not None:
            raise _invalid(name, args, kwargs)
        kw, args = {"unbiased": args[0]}, ()
    else:
        names = ("dim", "unbiased", "keepdim")
        if len(args) > 3 or any(n in kw for n in names[:len(args)]):
            raise _invalid(name, args, kwargs)
        kw.update(zip(names, args))
        args = ()
        if "unbiased" in kw and ("dim" not in kw and (len(kw) > 1 or out is not None)
                                 or "correction" in kw):
            raise _invalid(name, args, kwargs)
    if _is_tensor(self) and self.dtype.kind not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if out is not None and _is_tensor(self) and self.numel():
        # torch computes in out's dtype: one result element goes to a float/double-only
        # kernel (unless out is 16-bit), several to one without complex support
        result = binding(self, kw.get("dim"), kw.get("unbiased"), kw.get("keepdim", False),
                         correction=kw.get("correction"))
        reduced = (D.float16, D.bfloat16)
        if result.numel() <= 1 and out.dtype not in reduced:
            if self.dtype in reduced:
                raise RuntimeError(f"std_var_all: Unsupported dtype {_type_name(self.dtype)}")
        elif out.dtype.is_complex and not self.dtype.is_complex:
            raise NotImplementedError(f'"std_cpu" not implemented for '
                                      f"'{_type_name(out.dtype)}'")
        if out.dtype.kind == "f" and self.dtype.kind == "f" and out.dtype is not self.dtype:
            self = _cast(self, out.dtype)  # the input is read in out's dtype
    return binding(self, kw.pop("dim", None), kw.pop("unbiased", None),
                   kw.pop("keepdim", False), **kw, out=out)


_EXTREMUM_SIGNATURES = (
    ", but expected one of:\n * (Tensor input, *, Tensor out = None)\n"
    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)\n")


def _extremum(name, binary_name):
    full_op, dim_op = OPS[name], OPS[f"_{name}_dim"]
    ret = return_types.make(name, ["values", "indices"])
    unset = object()

    def make(full):
        binary_op = OPS[binary_name]

        def extremum(self, dim=unset, keepdim=unset, *, other=None, out=None):
            if _is_tensor(dim):
                dim, other = unset, dim
            if other is not None:  # max(a, b) is maximum(a, b)
                if dim is not unset or keepdim is not unset:
                    raise TypeError(f"{name}(): 'other' cannot be combined with dim/keepdim")
                return binary_op.binding(self, other, out=out)
            if dim is unset or dim is None:
                if dim is None or keepdim is not unset:
                    given = {"dim": dim, "keepdim": keepdim}
                    raise _invalid(name, (), {k: v for k, v in given.items() if v is not unset},
                                   _EXTREMUM_SIGNATURES)
                if out is not None and _is_tensor(self) and _is_tensor(out) and \
                        not self.dtype.is_complex:
                    if self.numel() == 0:
                        return _empty_extremum_out(name, self, out)
                    result = full(self)
                    if out.dtype is not result.dtype:  # written as a checked Scalar
                        from ..._scalars import checked_scalar
                        checked_scalar(result.item(), out.dtype)
                    return _write(full_op, out, result)
                return full(self, out=out)
            if out is not None and not isinstance(out, (tuple, list)):
                raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                                f"{type(out).__name__}")
            if out is not None:
                from .sorting import refuse_out_overlap
                refuse_out_overlap(name, out, (self,), {})
            r = ret(*dim_op.binding(self, dim, False if keepdim is unset else keepdim))
            if out is not None:
                values, indices = out
                if values.dtype is not r.values.dtype:
                    raise _out_dtype_error(r.values.dtype, values.dtype)
                if indices.dtype is not D.int64:
                    raise _out_dtype_error(D.int64, indices.dtype)
                _write(full_op, values, r.values)
                _write(full_op, indices, r.indices)
                return ret(values, indices)
            return r
        extremum.__doc__ = (f"{name}(input) -> Tensor\n{name}(input, dim, keepdim=False) -> "
                            f"(Tensor values, Tensor indices)\n{name}(input, other) -> Tensor "
                            f"({binary_name})")
        return extremum
    overload(full_op, make)


def _empty_extremum_out(name, self, out):
    """torch.max/min(empty, out=t) writes the reduction's identity instead of refusing."""
    from ... import _promotion
    if not _promotion.can_cast(self.dtype, out.dtype):
        raise RuntimeError("Expected canCast(typeMetaToScalarType(self.dtype()), "
                           "typeMetaToScalarType(out.dtype())) to be true, but got false.")
    dt = self.dtype
    if dt is D.bool:
        value = name == "min"
    elif dt.kind in "ui":
        info = D.iinfo(dt)
        value = info.max if name == "min" else info.min
    else:
        value = _INF if name == "min" else -_INF
    if out.dtype.kind in "ui":  # written as a checked Scalar
        from ..._scalars import checked_scalar
        checked_scalar(value, out.dtype)
    out.resize_(())
    return out.copy_(OPS["full"].binding((), value, dtype=dt, device=self._device))


PUBLIC = {"sum": _dtyped, "prod": _dtyped, "mean": _dtyped, "cumsum": _dtyped,
          "cumprod": _dtyped,
          "amax": _values, "amin": _values, "argmax": _arg, "argmin": _arg,
          "all": _logical, "any": _logical, "logsumexp": _logsumexp,
          "var": _var_forms, "std": _var_forms}


def _softmax_input(name, self, dim, dtype):
    """self in the requested dtype, refused where PyTorch has no kernel (a kernel of its
    own for the last dim); an empty input runs no kernel."""
    x = self if dtype is None else self.to(dtype)
    if not x.dtype.is_floating_point and x.numel():
        kernel = "lastdim_kernel_impl" if dim == max(x.ndim - 1, 0) else "kernel_impl"
        raise NotImplementedError(f'"{name}_{kernel}" not implemented for '
                                  f"'{_type_name(x.dtype)}'")
    return x


def _softmax(self, dim, dtype=None):
    """exp(x - max) / sum: shifting by the max keeps exp finite."""
    x = _softmax_input("softmax", self, dim, dtype)
    if 0 in x.shape:  # (no max to shift by)
        return x.clone()
    w = x.float() if x.dtype in _HALVES else x  # PyTorch accumulates halves in float
    e = (w - w.amax(dim, keepdim=True)).exp()
    return (e / e.sum(dim, keepdim=True)).to(x.dtype)


def _log_softmax(self, dim, dtype=None):
    x = _softmax_input("log_softmax", self, dim, dtype)
    if 0 in x.shape:  # (no max to shift by)
        return x.clone()
    w = x.float() if x.dtype in _HALVES else x
    shifted = w - w.amax(dim, keepdim=True)
    return (shifted - shifted.exp().sum(dim, keepdim=True).log()).to(x.dtype)


_HALVES = (D.float16, D.bfloat16)


def softmax_backward_dtype(name, grad, output, dim, input_dtype):
    """The result dtype of PyTorch's cpu softmax backward ops, grad's, after their checks:
    output of grad's dtype, no half-to-float case (input_dtype is read for nothing else),
    floating types only."""
    for t in (output, input_dtype):
        dt = getattr(t, "dtype", t)
        if dt is not grad.dtype and (t is output or (grad.dtype, dt) == (D.float32, D.float16)):
            raise RuntimeError(f"expected scalar type {_type_name(grad.dtype)} but found "
                               f"{_type_name(dt)}")
    if not grad.dtype.is_floating_point:
        kernel = "lastdim_kernel_impl" if dim == max(grad.ndim - 1, 0) else "kernel_impl"
        raise NotImplementedError(f'"{name}_{kernel}" not implemented for '
                                  f"'{_type_name(grad.dtype)}'")
    return grad.dtype


def _softmax_backward(formula, name):
    """The decomposition of a softmax backward op: its checks, then the formula."""
    kernel = name.strip("_").replace("_data", "")

    def backward(grad, output, dim, input_dtype):
        dt = softmax_backward_dtype(kernel, grad, output, dim, input_dtype)
        return formula(_up(grad), _up(output), dim).to(dt)
    return backward


def _up(x):
    """16-bit floats computed in float32 (PyTorch's softmax backward kernels)."""
    return x.float() if x.dtype in _HALVES else x


def welford_mean(self, dim, keepdim):
    """The mean std_mean/var_mean return: PyTorch accumulates it with Welford's update
    (mean += (x - mean) / n, in index order), so an infinity followed by any other element
    makes it NaN where sum / n would be infinite."""
    import mindtorch as M
    if self.dtype.is_complex:  # each part on its own (its own infinities)
        parts = (welford_mean(p, dim, keepdim) for p in (self.real, self.imag))
        return M.complex(*parts)
    mean = OPS["mean"].call(self, dim, keepdim, None)
    if self.numel() == 0:
        return mean
    dims = dims_of(self, dim) if self.ndim else ()
    last = None  # True at the last element of each reduced slice
    for d in dims:
        n = self._shape[d]
        at_end = (M.arange(n, device=self.device) == n - 1).reshape(
            (n,) + (1,) * (self.ndim - 1 - d))
        last = at_end if last is None else last & at_end
    if last is None:
        return mean
    early = (self.isinf() & ~last).any(dims, keepdim=keepdim)
    return M.where(early, math.nan, mean)


def _declare():
    for name, fn in (("softmax", _softmax), ("log_softmax", _log_softmax)):
        define(f"{name}(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
               decomposition=fn)
    # their backward as ops a backend can fuse (ATen's), differentiable through these
    for name, fn in (("_softmax_backward_data", _softmax_grad),
                     ("_log_softmax_backward_data", _log_softmax_grad)):
        define(f"{name}(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype)"
               f" -> Tensor", decomposition=_softmax_backward(fn, name), function=False,
               method=False)
    define("count_nonzero(Tensor self, int[]? dim=None) -> Tensor",
           decomposition=lambda self, dim=None: (self != 0).sum(dim))
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
        define(f"a{name}(Tensor self, int[]? dim=[], bool keepdim=False) -> Tensor",
               tags=REDUCTION, out=True)  # dim=None also means every dim
        define(f"arg{name}(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
               tags=REDUCTION, out=True)
    for name in ("all", "any"):
        define(f"{name}(Tensor self, {dim_all}) -> Tensor", tags=REDUCTION, out=True)
    for name in ("var", "std"):
        define(f"{name}(Tensor self, int[]? dim=None, bool? unbiased=None, bool keepdim=False,"
               f" *, Scalar? correction=None) -> Tensor", tags=REDUCTION, out=True)
    define("logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor", tags=REDUCTION,
           out=True)
    for name in ("cumsum", "cumprod"):
        define(f"{name}(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
               promotion="int_to_long", out=True)

    _extremum("max", "maximum")
    _extremum("min", "minimum")
    for name, wrapper in PUBLIC.items():
        _public(name, wrapper)


# -- backward formulas (see registry.derivative): PyTorch's, written with mindtorch ops ----
# Reductions broadcast their gradient back over the reduced dims (`unreduce`); every formula
# is data-independent (masks instead of branches on values), so it runs on any device.

def _dims(shape, dim):
    return tuple(range(len(shape))) if dim is None or dim == () else \
        ((dim,) if isinstance(dim, int) else tuple(dim))


def _count(shape, dim):
    n = 1
    for d in _dims(shape, dim) if shape else ():
        n *= shape[d]
    return n


def _sum_grad(grad, self_geometry, dim, keepdim):
    return unreduce(grad, self_geometry[0], dim, keepdim)


def _mean_grad(grad, self_geometry, dim, keepdim):
    shape = self_geometry[0]  # (divided once expanded, as PyTorch: a fresh dense gradient)
    return unreduce(grad, shape, dim, keepdim) / _count(shape, dim)


def _var_grad(grad, self, dim, unbiased, keepdim, correction):
    """torch's var_backward, including its dof <= 0 conventions (inf, and NaN where an
    element equals the mean of a full reduction)."""
    import mindtorch as M
    c = correction if correction is not None else (0 if unbiased is False else 1)
    if dim is None or self.ndim == 0:
        dof = self.numel() - c
        if dof <= 0:
            return grad * M.where(self == self.mean(), float("nan"), float("inf"))
        return (2.0 / dof) * grad * (self - self.mean())
    dof = _count(tuple(self.shape), dim) if dim != () else 1  # torch counts dim=() as 1
    scale = 2.0 / (dof - c) if dof != c else float("inf")
    grad = restore_reduced_dims(grad, self.ndim, dim, keepdim)
    return scale * grad * (self - self.mean(dim, keepdim=True))


def _std_grad(grad, self, result, dim, unbiased, keepdim, correction):
    grad_var = (grad / (result * 2)).masked_fill(result == 0, 0)
    return _var_grad(grad_var, self, dim, unbiased, keepdim, correction)


def _logsumexp_grad(grad, self, result, dim, keepdim):
    shape = tuple(self.shape)
    back = unreduce(result, shape, dim, keepdim)
    return unreduce(grad, shape, dim, keepdim) * (self - back).exp().conj()


def _amax_grad(grad, self, result, dim, keepdim):
    """Split evenly among the elements equal to the result (a NaN matches nothing)."""
    shape = tuple(self.shape)
    mask = self == unreduce(result, shape, dim, keepdim)
    count = mask.sum(_dims(shape, dim) if shape else (), keepdim=True)
    return restore_reduced_dims(grad, len(shape), dim, keepdim) / count * mask


def _evenly_grad(grad, self, result):
    """max()/min(): split evenly among the ties; a NaN result goes to the NaNs."""
    mask = (self == result).logical_or(self.isnan().logical_and(result.isnan()))
    # (PyTorch's CPU path: written into zeros, so the others get +0.0, not grad's sign)
    return grad.new_zeros(self.shape).masked_fill_(mask, grad / mask.sum())


def _select_grad(grad, self_geometry, dim, keepdim, results):
    """max(dim)/min(dim): all of it to the index returned."""
    shape = self_geometry[0]
    if not shape:
        return grad
    index = results[1]
    if not keepdim:
        grad, index = grad.unsqueeze(dim), index.unsqueeze(dim)
    return grad.new_zeros(shape).scatter(dim, index, grad)


def _cumsum_grad(grad, dim):
    return grad if grad.ndim == 0 else _reversed_cumsum(grad, dim)


def _softmax_grad(grad, result, dim):
    return (grad - (grad * result).sum(dim, keepdim=True)) * result


def _log_softmax_grad(grad, result, dim):
    return grad - result.exp() * grad.sum(dim, keepdim=True)


_GRADS = {
    # (PyTorch numbers the forms with a dim 1)
    "sum": {"self": _sum_grad, "name": lambda self, dim, keepdim, dtype:
            f"SumBackward{int(dim is not None)}"},
    "mean": {"self": _mean_grad, "name": lambda self, dim, keepdim, dtype:
             f"MeanBackward{int(dim is not None)}"},
    "prod": {"self": _prod_grad, "name": lambda self, dim, keepdim, dtype:
             f"ProdBackward{int(dim is not None)}"},
    "var": {"self": _var_grad},
    "std": {"self": _std_grad},
    "logsumexp": {"self": _logsumexp_grad},
    "amax": {"self": _amax_grad},
    "amin": {"self": _amax_grad},
    "max": {"self": _evenly_grad, "name": "MaxBackward1"},
    "min": {"self": _evenly_grad, "name": "MinBackward1"},
    "_max_dim": {"self": _select_grad, "name": "MaxBackward0"},
    "_min_dim": {"self": _select_grad, "name": "MinBackward0"},
    "cumsum": {"self": _cumsum_grad},
    "cumprod": {"self": _cumprod_grad},
    "softmax": {"self": lambda grad, result, dim: OPS["_softmax_backward_data"].call(
        grad, result, dim, result.dtype)},
    "log_softmax": {"self": lambda grad, result, dim: OPS["_log_softmax_backward_data"].call(
        grad, result, dim, result.dtype)},
}


def _derivatives():
    for op_name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[op_name], name=formulas.pop("name", None), **formulas)
    nondifferentiable(*(OPS[n] for n in ("all", "any", "argmax", "argmin")))


_declare()
_derivatives()
