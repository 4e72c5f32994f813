"""Data-dependent ops whose result shapes their arguments fix: nonzero_static (a fixed
number of rows, padded or cut) and histogramdd (PyTorch's three ops behind it: the bin
edges, the histogram over counted bins, the histogram over given edges).  They decompose
into index arithmetic with static shapes, so every backend runs them and `meta` infers
them wherever the edges do not come from the data."""
import math

from ... import _dtype as D
from ... import return_types
from .._argcheck import wrap_dim
from ..registry import OPS, define, derivative, nondifferentiable
from ._helpers import NOT_IMPLEMENTED_NODE, _type_name, no_derivative
from .factorization import _has_data


def _cpp(dtype):
    return D.CPP_NAMES.get(dtype.name, dtype.name)


def _ops():
    import mindtorch
    return mindtorch


# -- nonzero_static ---------------------------------------------------------------------

def _nonzero_static(self, size, fill_value=-1):
    """The first `size` rows of nonzero(self), then rows of fill_value: each nonzero
    element's coordinates are written to its rank among them, the ones past `size` into a
    spare last row that is dropped."""
    M = _ops()
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    nd, n = self.ndim, self.numel()
    out = M.full((size + 1, nd), fill_value, dtype=D.int64, device=self.device)
    if n and size and nd:
        mask = (self != 0).reshape(-1)
        rank = mask.long().cumsum(0) - 1
        rows = M.where(mask & (rank < size), rank, size)
        flat, coords = M.arange(n, device=self.device), []
        for extent in reversed(self._shape):  # row-major coordinates of each element
            coords.append(flat % extent)
            flat = flat.div(extent, rounding_mode="floor")
        out.index_copy_(0, rows, M.stack(coords[::-1], 1))
    return out[:size].clone()


define("nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor", out=True,
       decomposition=_nonzero_static)
nondifferentiable(OPS["nonzero_static"])


# -- histogramdd ------------------------------------------------------------------------

def _check_input(self, nbins, weight, kernel="histogramdd"):
    """kernel: whose dtype support applies (counted bins: float and double; given edges:
    every floating type; None: no data is read, as for edges over a given range)."""
    if self.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if kernel is not None and (self.dtype.kind != "f" or (
            kernel == "histogramdd" and self.dtype.itemsize < 4)):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(self.dtype)}\'')
    if nbins != self._shape[-1]:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    if weight is not None:
        if weight._shape != self._shape[:-1]:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have "
                               f"the same shape as the input tensor excluding its innermost "
                               f"dimension, but got input with shape {list(self._shape)} and "
                               f"weight with shape {list(weight._shape)}")
        if weight.dtype is not self.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor "
                               f"and weight tensor should have the same dtype, but got "
                               f"input({_cpp(self.dtype)}), and weight({_cpp(weight.dtype)})")


def _outer_edges(self, bins, given):
    """(leftmost, rightmost) edge per dim: `range`, else the data's extent (0 and 1 without
    data); a single value widened by half a unit each side."""
    d = self._shape[-1]
    if given is not None:
        if len(given) != 2 * d:
            raise RuntimeError(f"torch.histogramdd: for a {d}-dimensional histogram range "
                               f"should have {2 * d} elements, but got {len(given)}")
        bounds = [(float(given[2 * i]), float(given[2 * i + 1])) for i in range(d)]
    elif self.numel():
        lo, hi = self.reshape(-1, d).aminmax(dim=0)
        bounds = list(zip(lo.tolist(), hi.tolist()))
    else:
        bounds = [(0.0, 1.0)] * d
    out = []
    for i, (lo, hi) in enumerate(bounds):
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension {i}'s range [{_num(lo)}, "
                               f"{_num(hi)}] is not finite")
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{_num(lo)} max {_num(hi)} for dimension {i}")
        out.append((lo - 0.5, hi + 0.5) if lo == hi else (lo, hi))
    return out


def _num(x):
    return int(x) if math.isfinite(x) and float(x).is_integer() else x


def _bin_edges(self, bins, range=None, weight=None, density=False):
    _check_input(self, len(bins), weight, "histogramdd" if range is None else None)
    M = _ops()
    return tuple(M.linspace(lo, hi, b + 1, dtype=self.dtype, device=self.device)
                 for (lo, hi), b in zip(_outer_edges(self, bins, range), bins))


def _bin_positions(v, edges, linear):
    """Each value's bin along one dim and whether it lies within the edges.  linear: the
    equal-width bins found by division, then corrected against the neighbouring edges
    (PyTorch's local search, so rounding puts values where its kernel does); otherwise a
    binary search over the edges.  The last bin includes its right edge."""
    M = _ops()
    nb = edges.numel() - 1
    lo, hi = edges[0], edges[-1]
    inside = (v >= lo) & (v <= hi)
    if not linear:
        pos = M.searchsorted(edges, v.contiguous(), right=True) - 1
    else:
        guess = ((v - lo) * nb / (hi - lo)).nan_to_num(0).clamp(0, nb).long()
        first = (guess - 1).clamp(min=0)
        stop = (guess + 2).clamp(max=nb + 1)
        count = M.zeros_like(guess)
        for step in range(3):  # upper_bound over edges[first:stop]
            j = first + step
            count += (j < stop) & (edges.take(j.clamp(max=nb)) <= v)
        pos = first + count - 1
    return pos.clamp(0, max(nb - 1, 0)), inside


def _histogram_over(self, edges, weight, density, linear):
    M = _ops()
    d = self._shape[-1]
    x = self.reshape(-1, d)
    sizes = [e.numel() - 1 for e in edges]
    flat = M.zeros(x._shape[0], dtype=D.int64, device=self.device)
    valid = M.ones(x._shape[0], dtype=D.bool, device=self.device)
    for i, e in enumerate(edges):
        pos, inside = _bin_positions(x.select(1, i), e, linear)
        flat, valid = flat * sizes[i] + pos, valid & inside
    w = M.ones(x._shape[0], dtype=self.dtype, device=self.device) if weight is None \
        else weight.reshape(-1)
    hist = M.zeros(math.prod(sizes), dtype=self.dtype, device=self.device)
    hist.index_add_(0, M.where(valid, flat, 0), M.where(valid, w, 0))
    hist = hist.reshape(sizes)
    if density:
        hist = hist / hist.sum()
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = sizes[i]
            hist = hist / e.diff().reshape(shape)
    return hist


def _check_bins(sizes):
    for i, b in enumerate(sizes):
        if b <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b} for "
                               f"dimension {i}")


def _from_bin_cts(self, bins, range=None, weight=None, density=False):
    _check_input(self, len(bins), weight)
    _check_bins(bins)
    edges = _bin_edges(self, bins, range, weight)
    return _histogram_over(self, edges, weight, density, linear=True)


def _from_bin_tensors(self, bins, weight=None, density=False):
    _check_input(self, len(bins), weight, "histogram_cpu")
    for i, e in enumerate(bins):
        if e.dtype is not self.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype {_cpp(self.dtype)} "
                               f"and bins for dimension {i} with dtype {_cpp(e.dtype)}")
        if e.ndim != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {e.ndim} dimensions in the bins tensor for dimension {i}")
        if not e.numel():
            raise RuntimeError(f"torch.histogramdd: bins tensor should have at least 1 element, "
                               f"but got 0 elements in the bins tensor for dimension {i}")
    _check_bins([e.numel() - 1 for e in bins])
    return _histogram_over(self, bins, weight, density, linear=False)


_HIST_ARGS = "float[]? range=None, Tensor? weight=None, bool density=False"
define(f"_histogramdd_bin_edges(Tensor self, int[] bins, *, {_HIST_ARGS}) -> Tensor[]",
       decomposition=_bin_edges, function=False, method=False)
define(f"_histogramdd_from_bin_cts(Tensor self, int[] bins, *, {_HIST_ARGS}) -> Tensor",
       decomposition=_from_bin_cts, function=False, method=False)
define("_histogramdd_from_bin_tensors(Tensor self, Tensor[] bins, *, Tensor? weight=None, "
       "bool density=False) -> Tensor", decomposition=_from_bin_tensors, function=False,
       method=False)


for _name, _inputs in (("_histogramdd_bin_edges", ("self", "weight")),
                       ("_histogramdd_from_bin_cts", ("self", "weight")),
                       ("_histogramdd_from_bin_tensors", ("self", "bins", "weight"))):
    derivative(OPS[_name], **dict.fromkeys(_inputs, no_derivative(_name)),
               name=NOT_IMPLEMENTED_NODE)
_RESULT = return_types.make("histogramdd", ["hist", "bin_edges"])


def histogramdd(input, bins, range=None, weight=None, density=False):  # noqa: A002
    """torch.histogramdd(input, bins, range=None, weight=None, density=False) ->
    (hist, bin_edges): bins an int (each dim), a sequence of ints, or a sequence of 1-D
    edge tensors."""
    from ..._tensor import Tensor
    if type(bins) is int:
        if not isinstance(input, Tensor) or input.ndim < 2:
            raise RuntimeError("torch.histogramdd: input tensor should have at least 2 "
                               "dimensions")
        bins = [bins] * input._shape[-1]
    bins = list(bins)
    if bins and all(isinstance(b, Tensor) for b in bins):  # (range is then ignored)
        if isinstance(input, Tensor) and input.ndim >= 2 and len(bins) != input._shape[-1]:
            raise RuntimeError(f"torch.histogramdd: expected {input._shape[-1]} sequences of "
                               f"bin edges for a {input._shape[-1]}-dimensional histogram but "
                               f"got {len(bins)}")
        hist = OPS["_histogramdd_from_bin_tensors"].binding(input, bins, weight=weight,
                                                            density=density)
        return _RESULT(hist, tuple(bins))
    edges = OPS["_histogramdd_bin_edges"].binding(input, bins, range=range, weight=weight,
                                                  density=density)
    hist = OPS["_histogramdd_from_bin_cts"].binding(input, bins, range=range, weight=weight,
                                                    density=density)
    return _RESULT(hist, tuple(edges))


# -- segment_reduce ---------------------------------------------------------------------
# Segments along `axis` given by lengths or offsets (leading dims as data's before axis):
# one scatter_reduce of the data into a result with a row per segment plus a spare row
# for elements outside every segment.

_SEGMENT_REDUCTIONS = {"sum": "sum", "mean": "sum", "prod": "prod", "max": "amax",
                       "amax": "amax", "min": "amin", "amin": "amin"}
_EMPTY = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -math.inf, "amin": math.inf}


def _segments(data, lengths, offsets, axis):
    """(index, counts): each element's segment along axis, shaped like data (n, a spare
    row past the n segments, for elements before the first offset or from the last on),
    and the segments' lengths shaped like the result."""
    M = _ops()
    size = data._shape[axis]
    if lengths is not None:
        ends = lengths.long().cumsum(-1)
        offsets = M.cat([M.zeros_like(ends.narrow(-1, 0, 1)), ends], -1)
    offsets = offsets.long()
    n = offsets._shape[-1] - 1
    lead, rest = data._shape[:axis], data._shape[axis + 1:]
    pos = M.arange(size, device=data.device).expand(*lead, size).contiguous()
    seg = M.searchsorted(offsets.contiguous(), pos, right=True) - 1
    seg = M.where((seg >= 0) & (seg < n), seg, n)
    trailing = (1,) * len(rest)
    index = seg.reshape(*lead, size, *trailing).expand(data._shape)
    return index, offsets.diff(dim=-1).reshape(*lead, n, *trailing)


def _segment_reduce(data, reduce, lengths=None, indices=None, offsets=None, axis=0,
                    unsafe=False, initial=None):
    M = _ops()
    if reduce not in _SEGMENT_REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    bounds = lengths if lengths is not None else offsets
    for t, kernel in ((bounds, "_segment_reduce_lengths_cpu_kernel1"),
                      (data, "_segment_reduce_cpu")):
        wrong = t.dtype not in (D.int32, D.int64) if t is bounds else t.dtype.kind != "f"
        if wrong:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{_type_name(t.dtype)}'")
    axis = wrap_dim(axis, data.ndim)
    if bounds.ndim - 1 != axis:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                           f"lengths but got {axis}.")
    checkable = _has_data(bounds)  # (a device without data, meta, infers the shape only)
    if checkable and lengths is not None and not unsafe:
        if bool((lengths < 0).any()):
            raise RuntimeError("lengths contains negative value!")
        if bool((lengths.sum(-1) != data._shape[axis]).any()):
            raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis "
                               "to sum to data.size(lengths.dim()-1) when !unsafe.")
    index, counts = _segments(data, lengths, offsets, axis)
    if checkable and bool((counts < 0).any()):
        raise RuntimeError("Expected segment_length >= 0 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    how = _SEGMENT_REDUCTIONS[reduce]
    start = initial if initial is not None and how in ("sum", "prod") else _EMPTY[how]
    shape = list(data._shape)
    shape[axis] = counts._shape[axis] + 1  # (the spare row)
    out = M.full(shape, start, dtype=data.dtype, device=data.device)
    out = out.scatter_reduce(axis, index, data, how, include_self=True).narrow(
        axis, 0, shape[axis] - 1)
    if initial is not None and how in ("amax", "amin"):
        # the initial value bounds each segment (ties with it are the data's: see backward)
        keep = (out >= initial if how == "amax" else out <= initial) | out.isnan()
        out = M.where(keep, out, initial)
    if reduce == "mean":
        if initial is not None:  # (the initial value joined each segment's sum)
            out = M.where(counts > 0, out / counts, initial)
        else:
            out = out / counts
    return out


def _segment_reduce_grad(grad, data, result, reduce, lengths=None, offsets=None, axis=0,
                         initial=None):
    """PyTorch's segment_reduce backward: sum passes the gradient on, mean divides it by
    the length; max / min give it to the elements equal to the result (a positive one
    shared among ties, as its kernel does); prod gives result / x, or the product of the
    others where x is 0 or NaN."""
    M = _ops()
    axis = wrap_dim(axis, data.ndim)
    index, counts = _segments(data, lengths, offsets, axis)

    def per_element(t, spare):  # a result-shaped tensor read at each element's segment
        t = t.expand(grad._shape)
        return M.cat([t, M.full_like(t.narrow(axis, 0, 1), spare)], axis).gather(axis, index)

    def per_segment_sum(x):
        shape = list(grad._shape)
        shape[axis] += 1
        total = M.zeros(shape, dtype=data.dtype, device=data.device)
        return total.scatter_add(axis, index, x.to(data.dtype)).gather(axis, index)
    g = per_element(grad, 0)
    how = _SEGMENT_REDUCTIONS[reduce]
    if reduce == "sum":
        return g
    if reduce == "mean":
        return g / per_element(counts.to(data.dtype), 1)
    out = per_element(result, 0)  # (elements in no segment get a zero gradient)
    if how in ("amax", "amin"):
        hit = (data == out) | data.isnan()
        ties = per_segment_sum(hit)
        g = M.where(hit, g, 0)
        return M.where(hit & (ties >= 2) & (g > 0), g / ties, g)
    special = (data == 0) | data.isnan()  # their share: the product of the others
    shape = list(grad._shape)
    shape[axis] += 1
    plain = M.full(shape, 1.0 if initial is None else initial, dtype=data.dtype,
                   device=data.device).scatter_reduce(axis, index, M.where(special, 1, data),
                                                      "prod", include_self=True)
    plain = plain.gather(axis, index)
    other_nan = per_segment_sum(data.isnan()) - data.isnan().to(data.dtype) > 0
    others = M.where(per_segment_sum(special) >= 2, M.where(other_nan, math.nan, 0.0), plain)
    return M.where(special, g * others, g * out / data)


define("segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, "
       "Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor",
       decomposition=_segment_reduce, method=False)
derivative(OPS["segment_reduce"], data=_segment_reduce_grad)
