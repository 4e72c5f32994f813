"""Sorting, selection and order statistics (sort, topk, kthvalue, median, mode, quantile),
scans with indices (cummax, cummin, logcumsumexp), set ops (unique, isin), binning
(searchsorted, bucketize, histc, histogram, bincount) and NaN-aware / paired reductions
(nansum, nanmean, std_mean, var_mean, aminmax).

The validity rules below read metadata only; the CPU kernels and the meta device both
call them, so they raise the same errors.  Index choices on ties are torch's CPU ones:
sort is stable (torch's unstable sort may order ties otherwise), median(dim) takes the
((n - 1) // 2)-th element in (value, index) order, and kthvalue, mode and topk
(sorted=True) the index torch's selection / sorting algorithm leaves (the CPU kernels
replay it on rows with ties).  Ops whose result size depends on the data (unique,
unique_consecutive, bincount) carry the tag "dynamic_output_shape".
"""
from ... import _dtype as D
from ... import return_types
from ..._shapes import reduced_shape
from ..._warn_once import warn_once
from ...overrides import public_level
from ..registry import OPS, define, derivative, nondifferentiable, overload
from ._helpers import NOT_IMPLEMENTED_NODE, _type_name, has_data, no_derivative
from ._out_rules import _OUT_MESSAGES, exact_out
from ._prechecks import _arg, _checked_first

DYNAMIC = ("dynamic_output_shape",)


# -- rules shared by every backend (metadata only) --------------------------------------

def _not_implemented(kernel, dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(dtype)}\'')


def dim_size(self, dim):
    return self._shape[dim] if self.ndim else 1


def reduced(self, dim, keepdim):
    """Shape of a reduction over one dim (a 0-dim input stays 0-dim)."""
    return reduced_shape(self._shape, (dim,), keepdim) if self.ndim else ()


def _check_nonempty_dim(name, self, dim):
    if self.ndim and self._shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def check_sort(self):
    if self.dtype.is_complex:
        raise RuntimeError(" Sort does not support complex dtypes on CPU")  # PyTorch's space


def topk_shape(self, k, dim):
    if not 0 <= k <= dim_size(self, dim):  # (before the dtype, as PyTorch)
        raise RuntimeError("selected index k out of range")
    if self.dtype.is_complex:
        raise RuntimeError(" topk does not support complex dtypes on CPU")  # (sic)
    if self.dtype is D.bool:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    return self._shape[:dim] + (k,) + self._shape[dim + 1:] if self.ndim else ()


def kthvalue_shape(self, k, dim, keepdim):
    # PyTorch's order: the empty dim, k, then (past its 0-dim copy) the kernel's dtypes
    _check_nonempty_dim("kthvalue", self, dim)
    if not 0 < k <= dim_size(self, dim):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if self.ndim and (self.dtype is D.bool or self.dtype.is_complex):
        raise _not_implemented("kthvalue_cpu", self.dtype)
    return reduced(self, dim, keepdim)


def check_median(self):
    # (PyTorch returns an empty input's NaN before it looks at the dtype)
    if (self.dtype is D.bool or self.dtype.is_complex) and self.numel():
        raise _not_implemented("median_cpu", self.dtype)


def median_dim_shape(name, self, dim, keepdim):
    # (PyTorch's order: the empty dim, then dtypes; nanmedian's message says median too)
    _check_nonempty_dim("median", self, dim)
    if self.dtype is D.bool or self.dtype.is_complex:
        raise _not_implemented("median_out", self.dtype)
    return reduced(self, dim, keepdim)


def mode_shape(self, dim, keepdim):
    _check_nonempty_dim("mode", self, dim)
    # (PyTorch returns an empty or 0-dim input's result before it looks at the dtype)
    if self.dtype.is_complex and self.numel() and self.ndim:
        raise _not_implemented("mode_cpu", self.dtype)
    return reduced(self, dim, keepdim)


def check_cumulative(name, self):
    """cummax/cummin take every real dtype and bool; logcumsumexp floating and complex."""
    if name == "logcumsumexp":
        if self.dtype.kind not in "fc":
            raise _not_implemented("logcumsumexp_out_cpu", self.dtype)
    elif self.dtype.is_complex and self.ndim and self.numel():
        # PyTorch runs no kernel for a 0-dim (a copy) or empty input
        raise _not_implemented(f"{name}_cpu", self.dtype)


def check_unique(self, dim):
    """unique/unique_consecutive over `dim`: no other dim may be empty."""
    if self.dtype.is_complex:
        raise _not_implemented("unique", self.dtype)
    if dim is not None and any(n == 0 for i, n in enumerate(self._shape) if i != dim):
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")


def searchsorted_plan(sorted_sequence, self, out_int32, right, side, sorter):
    """(result shape, result dtype, whether to search right, dtype compared in)."""
    from ... import _promotion
    from ..._tensor import Tensor
    b = sorted_sequence
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got "
                           "side of left while right was True")
    if not b.ndim:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    tensor = isinstance(self, Tensor)
    if not tensor and b.ndim != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({b.ndim}) and input value's dim(0) numel(1)")
    if tensor and b.ndim != 1 and (self.ndim != b.ndim or self._shape[:-1] != b._shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           f"the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(b._shape)} and input value tensor {list(self._shape)}")
    if sorter is not None:
        if sorter.dtype is not D.int64:
            raise RuntimeError(f"torch.searchsorted(): sorter must be a tensor of long dtype "
                               f"but got dtype {_type_name(sorter.dtype)}")
        if sorter._shape != b._shape:
            raise RuntimeError(f"torch.searchsorted(): boundary and sorter must have the same "
                               f"size, but got boundary tensor {list(b._shape)}and got sorter "
                               f"tensor {list(sorter._shape)}")
    if not tensor or self.numel():  # (PyTorch copies these to contiguous ones, once warned)
        for name, t in (("input value", self if tensor else None), ("boundary", b),
                        ("sorter", sorter)):
            if t is not None and not t.is_contiguous():
                warn_once(f"searchsorted {name}", f"torch.searchsorted(): {name} tensor is "
                          f"non-contiguous, this will lower the performance due to extra data "
                          f"copy when converting non-contiguous tensor to contiguous, please "
                          f"use contiguous {name} tensor if possible. This message will only "
                          f"appear once per program.")
    common = _promotion.result_type(b, self)
    # (PyTorch returns for no values before it dispatches on the dtype)
    if (common is D.bool or common.is_complex) and not (tensor and not self.numel()):
        raise _not_implemented("searchsorted_out_cpu", common)
    shape = self._shape if tensor else ()
    return shape, (D.int32 if out_int32 else D.int64), bool(right or side == "right"), common


def check_bucketize(boundaries):
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")


def histc_range(self, bins, min, max):
    """The checks torch makes before reading data; whether the range comes from the data."""
    if self.dtype.kind != "f":
        _histc_integer_range(self, min, max)
        raise _not_implemented("histogram_cpu", self.dtype)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    from_data = min == max and self.numel() > 0
    if not from_data:
        check_histc_range(min - 1 if min == max else min, max + 1 if min == max else max)
    return from_data


def _histc_integer_range(self, low, high):
    """PyTorch's errors for a bool or integer input: its bin edges (a linspace in the
    input's dtype, none for bool) and a given range (widened by 1 each way when empty)
    converted to the dtype."""
    if self.dtype is D.bool:
        raise _not_implemented("linspace_cpu", self.dtype)
    if low == high and self.numel():
        return  # (the range would come from the data)
    if low == high:
        low, high = low - 1, high + 1
    bits = self.dtype.itemsize * 8
    lo, hi = (0, 2 ** bits - 1) if self.dtype is D.uint8 else \
        (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    if not (lo <= low <= hi and lo <= high <= hi):
        name = "int" if self.dtype is D.int32 else f"{self.dtype.name}_t"  # (c10's names)
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def check_histc_range(low, high, from_data=False):
    import math
    if not (math.isfinite(low) and math.isfinite(high)):
        # (PyTorch's min / max of data holding a NaN print as -nan)
        num = lambda x: "-nan" if from_data and math.isnan(x) else _num(x)  # noqa: E731
        raise RuntimeError(f"torch.histc: range of [{num(low)}, {num(high)}] is not finite")
    if low >= high:
        raise RuntimeError("torch.histc: max must be larger than min")


def _num(x):
    return int(x) if float(x).is_integer() else x


def histogram_plan(self, bins, range, weight):
    """(number of bins, explicit edges given) for torch.histogram."""
    from ..._tensor import Tensor
    edges = isinstance(bins, Tensor)
    if edges and bins.dtype is not self.dtype:  # (checked first, in C++ type names)
        raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have "
                           f"the same dtype, but got input with dtype "
                           f"{D.CPP_NAMES[self.dtype.name]} and bins for dimension 0 with "
                           f"dtype {D.CPP_NAMES[bins.dtype.name]}")
    if self.dtype.kind != "f":
        raise _not_implemented("histogram_cpu" if edges else "histogramdd", self.dtype)
    # (PyTorch flattens both: the input to (n, 1), the weight to (n,))
    if weight is not None and weight.numel() != self.numel():
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have "
                           f"the same shape as the input tensor excluding its innermost "
                           f"dimension, but got input with shape [{self.numel()}, 1] and "
                           f"weight with shape [{weight.numel()}]")
    if weight is not None and weight.dtype is not self.dtype:
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and "
                           f"weight tensor should have the same dtype, but got "
                           f"input({_type_name(self.dtype)}), and "
                           f"weight({_type_name(weight.dtype)})")
    if edges:
        if range is not None:
            raise TypeError("histogram(): range cannot be given together with bin edges")
        if bins.ndim != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {bins.ndim} dimensions in the bins tensor for dimension 0")
        if not bins.numel():
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               "but got 0 elements in the bins tensor for dimension 0")
        if bins.numel() == 1:
            raise RuntimeError("torch.histogram(): bins must be > 0, but got 0 for dimension 0")
        return bins.numel() - 1, True
    if type(bins) is not int:
        raise TypeError(f"histogram(): argument 'bins' must be int or Tensor, not "
                        f"{type(bins).__name__}")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")
    if range is not None:
        if len(range) != 2:
            raise RuntimeError(f"torch.histogramdd: for a 1-dimensional histogram range "
                               f"should have 2 elements, but got {len(range)}")
        if range[0] > range[1]:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{_num(range[0])} max {_num(range[1])} for dimension 0")
    return bins, False


def bincount_dtype(self, weights, minlength):
    if self.dtype.kind not in "ui" or self.dtype is D.bool:
        raise _not_implemented("bincount_cpu", self.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if self.ndim != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None or not self.numel():  # (PyTorch checks no weights for no input)
        return D.int64
    if weights.ndim != 1 or weights._shape[0] != self._shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    return D.float32 if weights.dtype is D.float32 else D.float64


def isin_plan(elements, test_elements):
    """(result shape, dtype both are compared in)."""
    from ... import _promotion
    from ..._tensor import Tensor
    for x in (elements, test_elements):
        dt = x.dtype if isinstance(x, Tensor) else D.bool if isinstance(x, bool) else \
            D.complex128 if isinstance(x, complex) else None
        if dt is not None and (dt is D.bool or dt.is_complex):
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{_type_name(dt)}")
    shape = elements._shape if isinstance(elements, Tensor) else ()
    common = _promotion.result_type(elements, test_elements)
    if isinstance(elements, Tensor) and isinstance(test_elements, Tensor):
        _check_isin_view(elements, test_elements, common)
    return shape, common


def _check_isin_view(elements, test, common):
    """PyTorch's brute-force isin (few test elements) views test_elements, converted to the
    common dtype (preserve_format), as 1-d: a layout that cannot be fails."""
    from ..._strides import preserve_strides
    from .views import view_strides
    n = elements.numel()
    if not n or test.numel() >= int(10.0 * n ** 0.145):
        return  # (nothing to do, or the sorting path)
    stride = test._stride if test.dtype is common else preserve_strides(test._shape,
                                                                         test._stride)
    if view_strides(test._shape, stride, (test.numel(),)) is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.")


# -- composite ops ----------------------------------------------------------------------

def _argsort(self, dim=-1, descending=False, stable=False):
    return OPS["sort"].call(self, dim, descending, stable)[1]


def _msort(self):
    return OPS["sort"].call(self, 0, False, None)[0]


def _bucketize(self, boundaries, out_int32=False, right=False):
    check_bucketize(boundaries)
    return OPS["searchsorted"].call(boundaries, self, out_int32, right, None, None)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_of(ignore_nan):
    def quantile(self, q, dim=None, keepdim=False, interpolation="linear"):
        """torch's quantile_impl: sort along the reduced dim, rank q among the (non-NaN)
        values, gather and interpolate; differentiable through sort/gather/lerp."""
        import mindtorch as M

        from ..._tensor import Tensor
        if not isinstance(q, Tensor):
            if not 0 <= q <= 1:
                raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
            q = M.full((), q, dtype=self.dtype, device=self.device)
        if interpolation not in _INTERPOLATIONS:
            raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, "
                               f"midpoint or nearest, but got {interpolation}")
        if not self.numel():
            raise RuntimeError("quantile() input tensor must be non-empty")
        if q.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if self.dtype not in (D.float32, D.float64):
            raise RuntimeError("quantile() input tensor must be either float or double dtype")
        if q.dtype is not self.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if has_data(q) and not bool(((q >= 0) & (q <= 1)).all()):
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
        if dim is None:
            rows = self.reshape(-1)
            shape = (1,) * self.ndim if keepdim else ()
        else:
            rows = self.movedim(dim, -1) if self.ndim else self.reshape(1)
            shape = reduced(self, dim, keepdim)
            if keepdim and self.ndim:  # the size-1 dim stays in place, as torch's view
                rows = rows.unsqueeze(dim)
        n = rows.shape[-1]
        if n > 2 ** 24:
            raise RuntimeError("quantile() input tensor is too large")
        ordered = rows.sort(-1)[0]
        nan = ordered.isnan()
        if ignore_nan:
            ranks = q * (nan.logical_not().sum(-1, keepdim=True) - 1)
            ranks = ranks.masked_fill(ranks < 0, 0)
        else:
            ranks = (q * (n - 1)).masked_fill(nan.any(-1, keepdim=True), n - 1)
        if interpolation in ("lower", "higher", "nearest"):
            ranks = {"lower": ranks.floor, "higher": ranks.ceil,
                     "nearest": ranks.round}[interpolation]()
        below = ranks.long()
        result = ordered.gather(-1, below)
        if interpolation in ("linear", "midpoint"):
            weights = M.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
            result = result.lerp(ordered.gather(-1, ranks.ceil().long()), weights)
        if q.ndim == 0:
            return result.squeeze(-1).reshape(shape)
        return result.movedim(-1, 0).reshape((q.shape[0],) + tuple(shape))
    return quantile


def _nansum(self, dim=None, keepdim=False, dtype=None):
    if self.dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    kept = OPS["where"].call(self.isnan(), 0, self) if self.dtype.kind in "fc" else self
    return OPS["sum"].call(kept, dim, keepdim, dtype)


def _check_nanmean_dtype(self):
    if self.dtype.kind not in "fc":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype "
                           f"but got {_type_name(self.dtype)}")


def _nanmean(self, dim=None, keepdim=False, dtype=None):
    _check_nanmean_dtype(self)
    if dtype is not None and dtype.kind not in "fc":
        raise RuntimeError(f"nanmean(): could not infer output dtype. Optional dtype must be "
                           f"either a floating point or complex dtype. Got: {_type_name(dtype)}")
    count = self.isnan().logical_not().sum(dim, keepdim)
    return _nansum(self, dim, keepdim, dtype) / count


def _paired(name):
    def both(self, dim=None, unbiased=None, keepdim=False, correction=None):
        import warnings
        from .reduction import var_correction, welford_mean
        # the degrees-of-freedom warning names std_mean / var_mean, not the op inside
        var_correction(f"{name}_mean", self, dim, unbiased, correction)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", rf"{name}\(\): degrees of freedom")
            spread = OPS[name].call(self, dim, unbiased, keepdim, correction)
        return spread, welford_mean(self, dim, keepdim)
    return both


def _aminmax(self, dim=None, keepdim=False):
    if dim is None and not self.numel():
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if dim is not None and self.ndim and self._shape[dim] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {dim} to have non-zero size.")
    if self.dtype.is_complex:
        raise _not_implemented("aminmax_cpu", self.dtype)
    dims = () if dim is None else (dim,)  # () reduces every dim (all size 1 with keepdim)
    return self.amin(dims, keepdim), self.amax(dims, keepdim)


# -- public wrappers: PyTorch's overloads -----------------------------------------------

_VALUES_INDICES = ["values", "indices"]


def _tuple_out(name, fields, out, args, kwargs):
    """Checks of an out= tuple, made before computing (as torch's argument parser and
    autograd do); returns its named tuple class (torch's `<name>_out`)."""
    from ..._tensor import Tensor
    from ...autograd.grad_mode import state
    if not isinstance(out, (tuple, list)) or len(out) != len(fields) or \
            not all(isinstance(o, Tensor) for o in out):
        raise TypeError(f"{name}(): argument 'out' must be tuple of {len(fields)} Tensors")
    if state.enabled and any(isinstance(a, Tensor) and a.requires_grad
                             for a in (*args, *kwargs.values())):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires grad.")
    refuse_out_overlap(name, out, args, kwargs)
    ret = _OUT_TYPES.get(name)
    if ret is None:
        ret = _OUT_TYPES[name] = return_types.make(f"{name}_out", fields)
    return ret


_OUT_TYPES = {}

# how many of an out= tuple's first tensors PyTorch refuses when they partly overlap an
# input (the indices of sort / kthvalue and cummax / cummin / histogram are not checked)
_OVERLAP_CHECKED = {"max": 2, "min": 2, "mode": 2, "median": 2, "nanmedian": 2, "aminmax": 2,
                    "topk": 2, "frexp": 2, "kthvalue": 1, "sort": 1}


def refuse_out_overlap(name, out, args, kwargs):
    from ..._tensor import Tensor
    from .creation import check_out_overlap
    n = _OVERLAP_CHECKED.get(name, 0)
    if n:
        inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        for o in out[:n]:
            check_out_overlap(o, inputs)


def _write_tuple(op, ret, out, results):
    from ..dispatch import write_out
    from .reduction import _out_dtype_error
    for o, r in zip(out, results):
        if o.dtype is not r.dtype:
            raise _out_dtype_error(r.dtype, o.dtype)
    return ret(*(write_out(op, o, r) for o, r in zip(out, results)))


def _with_out(op, fields, route=None):
    """op's public function with torch's out=(tensors...) for its several results."""
    def make(binding):
        def public(*args, out=None, **kwargs):
            if route is not None:
                args, kwargs = route(args, kwargs)
            if out is None:
                return binding(*args, **kwargs)
            ret = _tuple_out(op.name, fields, out, args, kwargs)
            return _write_tuple(op, ret, out, binding(*args, **kwargs))
        return public
    overload(op, make)


def _bucketize_public(binding):
    """bucketize has out= only in its tensor overload, as in PyTorch."""
    def bucketize(self, boundaries, *, out=None, **kwargs):
        from ..._tensor import Tensor
        if out is not None and not isinstance(self, Tensor):
            raise TypeError(f"bucketize() received an invalid combination of arguments - got "
                            f"({type(self).__name__}, {type(boundaries).__name__}, out=Tensor)")
        if isinstance(out, Tensor):  # (searchsorted's rule: out= of the flag's dtype only)
            want = D.int32 if kwargs.get("out_int32") else D.int64
            if out.dtype is not want:
                raise RuntimeError(_OUT_MESSAGES["searchsorted"](
                    _type_name(out.dtype), _type_name(want), ()))
        return binding(self, boundaries, out=out, **kwargs)
    return bucketize


def _with_dim_form(name):
    """median/nanmedian: (input) -> Tensor, (input, dim, keepdim=False, *, out=None) ->
    (values, indices)."""
    full_op, dim_op = OPS[name], OPS[f"_{name}_dim"]
    unset = object()

    def make(full):  # (on first use, as bindings are)
        ret = return_types.make(name, _VALUES_INDICES)

        def public(self, dim=unset, keepdim=unset, *, out=None):
            if dim is unset:
                if keepdim is not unset or out is not None:
                    raise TypeError(f"{name}() missing 1 required positional argument: 'dim'")
                return full(self)
            keepdim = False if keepdim is unset else keepdim
            if out is None:
                return ret(*dim_op.binding(self, dim, keepdim))
            out_ret = _tuple_out(name, _VALUES_INDICES, out, (self,), {})
            return _write_tuple(dim_op, out_ret, out, dim_op.binding(self, dim, keepdim))
        public.__doc__ = (f"{name}(input) -> Tensor\n{name}(input, dim, keepdim=False, *, "
                          f"out=None) -> (Tensor values, Tensor indices)")
        return public
    overload(full_op, make)


def _unique_public(op, consecutive):
    """unique/unique_consecutive: the op returns (values, inverse, counts); the function
    returns values alone or a tuple with the requested extras, as torch.unique does."""
    def make(binding):
        def public(self, *args, **kwargs):
            if consecutive:
                names = ("return_inverse", "return_counts", "dim")
            else:
                names = ("sorted", "return_inverse", "return_counts", "dim")
            kw = dict(zip(names, args), **kwargs)
            dim = kw.get("dim")
            from ..._tensor import Tensor
            if dim is not None and isinstance(self, Tensor) and not self.ndim:
                raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
            values, inverse, counts = binding(self, **kw)
            extras = [t for t, want in ((inverse, kw.get("return_inverse")),
                                        (counts, kw.get("return_counts"))) if want]
            return (values, *extras) if extras else values
        return public
    overload(op, public_level(op, make))


def _routed(binding, route):
    """route_overloads' wrapper: a call in one of PyTorch's forms mapped onto the binding."""
    def public(*args, **kwargs):
        args, kwargs = route(args, kwargs)
        return binding(*args, **kwargs)
    return public


def _stable_keyword_only(op):
    """sort/argsort: with stable=, torch's only overload takes dim and descending by
    keyword."""
    def route(args, kwargs):
        if len(args) > 1 and "stable" in kwargs:
            from .reduction import _invalid
            raise _invalid(op.name, args[1:], kwargs)  # (dim, descending: keywords only)
        return args, kwargs
    return route


def _paired_public(op):
    """std_mean/var_mean take var's overloads: (input, dim, unbiased, keepdim),
    (input, dim=None, *, correction, keepdim) and (input, unbiased)."""
    from . import reduction as R

    def make(binding):
        def drop_out(*args, out=None, **kwargs):
            return binding(*args, **kwargs)

        def public(self, *args, **kwargs):
            from ..._tensor import Tensor
            if isinstance(self, Tensor) and self.dtype.kind not in "fc":
                raise RuntimeError(f"{op.name} only support floating point and complex dtypes")
            return R._var_forms(op, drop_out, self, args, kwargs, None)
        return public
    overload(op, make)


def _declare():
    sort = define("sort(Tensor self, int dim=-1, bool descending=False, *, bool? stable=None)"
                  " -> (Tensor values, Tensor indices)")
    _with_out(sort, _VALUES_INDICES, _stable_keyword_only(sort))
    argsort = define("argsort(Tensor self, int dim=-1, bool descending=False, *, "
                     "bool stable=False) -> Tensor", decomposition=_argsort)
    route = _stable_keyword_only(argsort)
    overload(argsort, public_level(argsort, lambda binding: _routed(binding, route)))
    define("msort(Tensor self) -> Tensor", decomposition=_msort, out=True)
    _with_out(define("topk(Tensor self, int k, int dim=-1, bool largest=True, "
                     "bool sorted=True) -> (Tensor values, Tensor indices)"), _VALUES_INDICES)
    _with_out(define("kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> "
                     "(Tensor values, Tensor indices)"), _VALUES_INDICES)
    for name in ("median", "nanmedian"):
        define(f"{name}(Tensor self) -> Tensor")
        define(f"_{name}_dim(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)",
               function=False, method=False)
        _with_dim_form(name)
    _with_out(define("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, "
                     "Tensor indices)"), _VALUES_INDICES)
    for name in ("cummax", "cummin"):
        _with_out(define(f"{name}(Tensor self, int dim) -> (Tensor values, Tensor indices)"),
                  _VALUES_INDICES)
    define("logcumsumexp(Tensor self, int dim) -> Tensor", out=True)
    for name, ignore_nan in (("quantile", False), ("nanquantile", True)):
        define(f"{name}(Tensor self, Tensor|Scalar q, int? dim=None, bool keepdim=False, *, "
               f"str interpolation='linear') -> Tensor", decomposition=_quantile_of(ignore_nan),
               out=True)
    _unique_public(define("unique(Tensor self, bool sorted=True, bool return_inverse=False, "
                          "bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)",
                          tags=DYNAMIC), consecutive=False)
    _unique_public(define("unique_consecutive(Tensor self, bool return_inverse=False, "
                          "bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)",
                          tags=DYNAMIC), consecutive=True)
    define("searchsorted(Tensor sorted_sequence, Tensor|Scalar self, *, bool out_int32=False, "
           "bool right=False, str? side=None, Tensor? sorter=None) -> Tensor", method=False,
           out=True)
    overload(define("bucketize(Tensor|Scalar self, Tensor boundaries, *, bool out_int32=False, "
                    "bool right=False) -> Tensor", method=False, out=True,
                    decomposition=_bucketize), _bucketize_public)
    define("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor", out=True)
    _with_out(define("histogram(Tensor self, Tensor|Scalar bins=100, *, float[]? range=None, "
                     "Tensor? weight=None, bool density=False) -> (Tensor hist, "
                     "Tensor bin_edges)"), ["hist", "bin_edges"])
    define("bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor",
           tags=DYNAMIC)
    define("isin(Tensor|Scalar elements, Tensor|Scalar test_elements, *, "
           "bool assume_unique=False, bool invert=False) -> Tensor", method=False, out=True)
    for name in ("std", "var"):
        _paired_public(define(
            f"{name}_mean(Tensor self, int[]? dim=None, bool? unbiased=None, bool keepdim=False,"
            f" *, Scalar? correction=None) -> (Tensor, Tensor)", decomposition=_paired(name),
            method=False))
    define("nansum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)"
           " -> Tensor", decomposition=_nansum, out=True)
    define("nanmean(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)"
           " -> Tensor", decomposition=_nanmean, out=True)
    _with_out(define("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> "
                     "(Tensor min, Tensor max)", decomposition=_aminmax), ["min", "max"])


# -- backward formulas (PyTorch's, written with mindtorch ops) ----------------------------

def _picked_grad(grad, shape, dim, index, keepdim=True):
    """The input's gradient for an op whose outputs are elements picked along dim (sort,
    topk, kthvalue, median/mode over a dim): grad written where index points."""
    if not shape:
        return grad
    if not keepdim:
        grad, index = grad.unsqueeze(dim), index.unsqueeze(dim)
    return grad.new_zeros(shape).scatter(dim, index, grad)


def _sort_grad(grad, self_geometry, dim, results):
    return _picked_grad(grad, self_geometry[0], dim, results[1])


def _reduce_pick_grad(grad, self_geometry, dim, keepdim, results):
    return _picked_grad(grad, self_geometry[0], dim, results[1], keepdim)


def _cumulative_grad(grad, self_geometry, dim, results):
    """cummax/cummin: each output's gradient to the element it copied (repeats add)."""
    shape = self_geometry[0]
    if not shape:
        return grad
    return grad.new_zeros(shape).scatter_add(dim, results[1], grad)


def _reverse_logcumsumexp(x, dim):
    return x.flip([dim]).logcumsumexp(dim).flip([dim])


def _logcumsumexp_grad(grad, self, result, dim):
    """sum over i >= j of grad_i * exp(x_j - y_i), in log space (torch's formula): the
    positive and negative parts of grad separately, so nothing overflows."""
    if not self.ndim or not self.numel():
        return grad
    if grad.dtype.is_complex:
        return (_reverse_logcumsumexp(grad.conj().log() - result, dim) + self).exp().conj()
    import mindtorch as M
    lowest = D.finfo(grad.dtype).min
    log_abs = grad.abs().log()
    parts = [(_reverse_logcumsumexp(M.where(keep, log_abs, lowest) - result, dim) + self).exp()
             for keep in (grad > 0, grad < 0)]
    return parts[0] - parts[1]


def _evenly_grad(grad, self, result):
    from .reduction import _evenly_grad as evenly
    return evenly(grad, self, result)


def _nansum_grad(grad, self, dim, keepdim):
    from ...autograd.functional_helpers import unreduce
    return unreduce(grad, tuple(self.shape), dim, keepdim) * self.isnan().logical_not()


def _paired_grad(name):
    def grad_fn(grads, self, results, dim, unbiased, keepdim, correction):
        from . import reduction as R
        spread = (R._std_grad(grads[0], self, results[0], dim, unbiased, keepdim, correction)
                  if name == "std" else
                  R._var_grad(grads[0], self, dim, unbiased, keepdim, correction))
        geometry = (tuple(self.shape), None, None)
        return spread + R._mean_grad(grads[1], geometry, dim, keepdim)
    return grad_fn


def _aminmax_grad(grads, self, results, dim, keepdim):
    from .reduction import _amax_grad
    dims = () if dim is None else dim
    return (_amax_grad(grads[0], self, results[0], dims, keepdim) +
            _amax_grad(grads[1], self, results[1], dims, keepdim))


def _not_implemented_grad(message, cls=NotImplementedError):
    def grad_fn(grad):
        raise cls(message)
    return grad_fn


def _unique_grad(grad, dim):
    name = "_unique2" if dim is None else "unique_dim"  # (PyTorch's two ops)
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


_GRADS = {
    "sort": {"self": _sort_grad, "name": lambda self, dim, descending, stable:
             f"SortBackward{int(stable is not None)}"},
    "topk": {"self": _sort_grad},
    "kthvalue": {"self": _reduce_pick_grad},
    "_median_dim": {"self": _reduce_pick_grad, "name": "MedianBackward1"},
    "_nanmedian_dim": {"self": _reduce_pick_grad, "name": "NanmedianBackward1"},
    "mode": {"self": _reduce_pick_grad},
    "median": {"self": _evenly_grad},
    "nanmedian": {"self": _evenly_grad},
    "cummax": {"self": _cumulative_grad},
    "cummin": {"self": _cumulative_grad},
    "logcumsumexp": {"self": _logcumsumexp_grad},
    "nansum": {"self": _nansum_grad},
    "std_mean": {"self": _paired_grad("std")},
    "var_mean": {"self": _paired_grad("var")},
    "aminmax": {"self": _aminmax_grad},
    # torch records these, and fails only when backward reaches them
    "unique": {"self": _unique_grad,
               "name": lambda self, sorted, return_inverse, return_counts, dim:
               "Unique2Backward0" if dim is None else "UniqueDimBackward0"},
    "unique_consecutive": {"self": _not_implemented_grad(
        "the derivative for 'unique_consecutive' is not implemented.")},
    "bincount": {"weights": no_derivative("bincount"), "name": NOT_IMPLEMENTED_NODE},
    "histogram": {"self": no_derivative("histogram"), "weight": no_derivative("histogram"),
                  "name": NOT_IMPLEMENTED_NODE},
}


def _derivatives():
    for op_name, formulas in _GRADS.items():
        formulas = dict(formulas)
        derivative(OPS[op_name], name=formulas.pop("name", None), **formulas)
    nondifferentiable(*(OPS[n] for n in ("argsort", "searchsorted", "bucketize", "histc",
                                          "isin")))
    for name, kind in (("msort", None), ("isin", None), ("histc", "histc"),
                       ("searchsorted", "searchsorted")):
        exact_out(OPS[name], kind, overlap=True)  # (out= only of the result's dtype)


_declare()
_derivatives()


def _check_nanmean_first(args, kwargs):
    """nanmean checks the dtype before it wraps dim."""
    self = _arg(args, kwargs, 0, "self")
    if hasattr(self, "_shape"):
        _check_nanmean_dtype(self)


_checked_first("nanmean", _check_nanmean_first)
