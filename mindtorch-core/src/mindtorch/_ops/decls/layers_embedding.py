"""Embedding layers: embedding, embedding_renorm_, embedding_bag and their nn.functional
forms (`functional_<name>`: other arguments than torch.<name>, decomposing into it).

Every op decomposes into mindtorch ops (so any device runs it).  embedding and
embedding_bag carry backward formulas (PyTorch's EmbeddingBackward0 / EmbeddingBagBackward0:
padding rows get no gradient, scale_grad_by_freq divides by each row's count).  Checks that
need index values (bounds, offsets) read them only on devices with data.
"""
import math

from ... import _dtype as D
from ..._warn_once import _user_level
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name, refuse_complex_autograd
from .layers import _M, NN, _any, _has_data

# -- embedding ---------------------------------------------------------------------------------

def _check_indices(name, arg, t, op="embedding", dtype=None):
    dtype = dtype or t.dtype
    if dtype not in (D.int64, D.int32):
        from .conv import _type_string  # (Tensor::toString: CPUBoolType, torch.LongTensor)
        kind = _type_string(dtype)
        raise RuntimeError(f"Expected tensor for argument #{arg} '{name}' to have one of the "
                           f"following scalar types: Long, Int; but got {kind} instead (while "
                           f"checking arguments for {op})")


def _embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices("indices", 1, indices)
    rows = OPS["index_select"].call(weight, 0, indices.reshape(-1))
    return rows.reshape(indices._shape + (weight._shape[1],))


def _sparse_rows(idx, g, keep, n, d):
    """sparse=True's weight gradient (the forward is the same): a COO tensor of one row per
    lookup, the padding row's (keep False) left out, as PyTorch's."""
    from ...sparse._tensor import make_coo
    if keep is not None:
        idx, g = idx[keep], g[keep]
    return make_coo(idx.unsqueeze(0), g, (n, d), idx.numel() <= 1)


def _no_sparse_freq(scale_grad_by_freq):
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                           "gradients")


def _embedding_renorm_(self, indices, max_norm, norm_type):
    """Rows of self that indices select, rescaled in place to a norm of at most max_norm
    (by max_norm / (norm + 1e-7), as PyTorch)."""
    if self.ndim != 2:
        raise RuntimeError(f"embedding_renorm_(): expected self to be 2-D, but got {self.ndim}"
                           f"-D")
    _check_indices("indices", 2, indices, "embedding_renorm_")
    idx = indices.reshape(-1)
    if not idx.numel():
        return self
    if self.dtype.kind not in "fc" and _has_data(idx) and \
            -self._shape[0] <= idx.min().item() < self._shape[0]:
        # PyTorch takes the norm of the smallest index's row first: refused for this dtype
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_type_name(self.dtype)} instead.")
    idx = _renorm_rows(self, idx)
    from ...autograd.grad_mode import no_grad
    with no_grad():
        rows = OPS["index_select"].call(self, 0, idx)
        # PyTorch takes each norm as a double, scales by max_norm / (norm + 1e-7) in double
        # and multiplies the row in its opmath type (float32 for 16-bit floats)
        norms = OPS["norm"].call(rows, norm_type, (1,), True, None).to(D.float64)
        scale = _M().where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        wide = self.dtype in (D.float64, D.complex128)
        op = rows if wide or self.dtype.itemsize >= 4 else rows.to(D.float32)
        scale = scale.to(D.float64 if wide else D.float32)
        # duplicates write the same row twice: the same values
        OPS["index_copy_"].call(self, 0, idx, (op * scale).to(self.dtype))
    return self


def _renorm_rows(self, idx):
    """The rows idx selects, negative ones wrapped: PyTorch's kernel takes self[i] for each
    index in ascending order, so the smallest index out of range is reported."""
    M = _M()
    n = self._shape[0]
    where = f"out of range for tensor of size {list(self._shape)} at dimension 0"
    if _has_data(idx):
        lo = idx.min().item()
        bad = lo if lo < -n else None
        if bad is None and idx.max().item() >= n:
            bad = idx[idx >= n].min().item()
        if bad is not None:
            raise IndexError(f"select(): index {bad} {where}")
    elif not n:
        raise IndexError(f"select(): index {where}")
    return M.where(idx < 0, idx + n, idx).long()


def _renorm(weight, indices, max_norm, norm_type):
    """nn.functional's renormalisation: in place, outside autograd (PyTorch's
    _no_grad_embedding_renorm_)."""
    from ...autograd.grad_mode import no_grad
    with no_grad():
        OPS["embedding_renorm_"].call(weight, indices, max_norm, norm_type)


def _functional_embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
                          scale_grad_by_freq=False, sparse=False):
    n = weight._shape[0] if weight.ndim else 0
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= n or padding_idx < 0 and padding_idx < -n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx += n
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        _renorm(weight, input, max_norm, norm_type)
    return OPS["embedding"].call(weight, input, padding_idx, scale_grad_by_freq, sparse)


def _embedding_grad(grad, weight_geometry, indices, padding_idx, scale_grad_by_freq, sparse):
    """Rows of the gradient summed into the rows they were read from; none to the padding
    row; divided by each row's count with scale_grad_by_freq."""
    M = _M()
    n, d = weight_geometry[0]
    idx = indices.reshape(-1).long()
    g = grad.reshape(idx.numel(), d)
    if sparse:
        _no_sparse_freq(scale_grad_by_freq)
        return _sparse_rows(idx, g, idx != padding_idx if padding_idx >= 0 else None, n, d)
    if padding_idx >= 0:
        g = M.where((idx != padding_idx).unsqueeze(1), g, 0)
    if scale_grad_by_freq:
        counts = _counts(idx, n, g.dtype)
        g = g / counts.index_select(0, idx).unsqueeze(1)
    out = M.zeros((n, d), dtype=grad.dtype, device=grad.device)
    if g.dtype in (M.float16, M.bfloat16):  # (PyTorch adds row after row, rounding each sum)
        return out.index_put_((idx,), g, accumulate=True)
    return out.index_add(0, idx, g)


def _counts(idx, n, dtype):
    """How many times each of n rows occurs in idx."""
    M = _M()
    return M.zeros(n, dtype=dtype, device=idx.device).index_add(
        0, idx, M.ones(idx._shape, dtype=dtype, device=idx.device))


def _bag_freq_divisor(idx, n, dtype):
    """Per index, what embedding_bag's scale_grad_by_freq divides its gradient by: on cpu
    PyTorch's kernel reads the count of the g-th smallest index (sorted, repeats kept) for
    the g-th distinct index, not the index's own count (it differs once an index repeats)."""
    M = _M()
    distinct, group = M.unique(idx, sorted=True, return_inverse=True)
    counts = _counts(idx, n, dtype)
    by_group = counts.index_select(0, M.sort(idx)[0].narrow(0, 0, distinct.numel()))
    return by_group.index_select(0, group)


# -- embedding_bag -----------------------------------------------------------------------------

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _offset2bag(offsets, n, bags):
    """The bag of each of n indices: one count per bag's offset, accumulated (PyTorch's
    make_offset2bag: with include_last_offset, indices past the last offset join the last
    bag)."""
    M = _M()
    offsets = offsets.narrow(0, 0, bags)
    marks = M.zeros(n + 1, dtype=D.int64, device=offsets.device).index_add(
        0, offsets.long(), M.ones(offsets._shape, dtype=D.int64, device=offsets.device))
    return (marks.cumsum(0) - 1).narrow(0, 0, n).clamp(min=0)  # (no bags: all in bag 0)


def _index_dtype(indices, offsets):
    from ..._promotion import promote_types
    return promote_types(offsets.dtype, indices.dtype)


def _check_per_sample_weights(weight, indices, per_sample_weights):
    """PyTorch's cpu checks (checkSameType, then TORCH_CHECKs of dim and numel)."""
    if per_sample_weights.dtype is not weight.dtype:
        from .conv import _type_string
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as "
                           f"tensor for argument #1 'per_sample_weights'; but type "
                           f"{_type_string(weight.dtype)} does not equal "
                           f"{_type_string(per_sample_weights.dtype)} (while checking arguments "
                           f"for embedding_bag)")
    for what, ok in (("dim() == 1", per_sample_weights.ndim == 1),
                     ("numel() == indices.numel()",
                      per_sample_weights.numel() == indices.numel())):
        if not ok:
            raise RuntimeError(f"Expected per_sample_weights.value().{what} to be true, but got "
                               f"false.  (Could this error message be improved?  If so, please "
                               f"report an enhancement request to PyTorch.)")


def embedding_bag_plan(weight, indices, offsets, mode, per_sample_weights,
                       include_last_offset, padding_idx, values=True):
    """PyTorch's embedding_bag checks; returns (number of bags, padding index or -1).
    indices and offsets are promoted to one dtype first (PyTorch's
    promoteIndicesAndOffsets), which must be int64 or int32.  values=False: the checks of
    index values are left to the caller (a kernel reading them at once)."""
    _check_indices("indices", 1, None, "embedding_bag", _index_dtype(indices, offsets))
    if weight.dtype.kind != "f":
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the "
                           f"following scalar types: Half, BFloat16, Float, Double; but got "
                           f"torch.{_type_name(weight.dtype)}Tensor instead (while checking "
                           f"arguments for embedding_bag)")
    if indices.ndim != 1 or offsets.ndim != 1 or weight.ndim != 2:
        what = "input" if indices.ndim != 1 else "offsets" if offsets.ndim != 1 else "weight"
        raise RuntimeError(f"{what} has to be a {'2' if what == 'weight' else '1'}D Tensor")
    if mode not in (0, 1, 2):
        raise RuntimeError(f"embedding_bag: unknown mode {mode}")
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with "
                               "mode='sum'")
        _check_per_sample_weights(weight, indices, per_sample_weights)
    n = weight._shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif not -n <= padding_idx < n:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{n} "
                           f"through {n - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += n
    bags = offsets._shape[0] - (1 if include_last_offset else 0)
    if include_last_offset and bags < 0:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if not values:
        return bags, padding_idx
    if _has_data(offsets) and offsets.numel():
        first = offsets[0].item()
        if first != 0:
            kind = _type_name(_index_dtype(indices, offsets))
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                               f"mini-batch has to start from position 0. However, got {first}"
                               f"\n[ torch.{kind}Tensor{{}} ]")
        last = offsets[-1].item()
        if last > indices.numel():
            raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                               f"{indices.numel()} but got offsets[-1] of {last}")
        fast = mode == 0 and padding_idx < 0 and weight.dtype is not D.float64 and \
            weight._stride[1] == 1 and (per_sample_weights is None or
                                        per_sample_weights._stride[0] == 1)
        if not fast and (_any(offsets < 0) or _any(offsets > indices.numel())):
            # off PyTorch's fast sum path, make_offset2bag's index_add_ meets them first
            raise IndexError("index out of range in self")
        if _any(offsets[1:] < offsets[:-1]):
            raise RuntimeError("embedding_bag: offsets have to be non-decreasing")
    bad = (indices < 0) | (indices >= n)
    if _any(bad):
        pos = OPS["argmax"].call(bad.to(D.uint8), None, False).item()
        raise RuntimeError(f"Index {pos} of input takes value {indices[pos].item()} which is "
                           f"not in the valid range [0, {n})")
    return bags, padding_idx


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                   per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """(output, offset2bag, bag_size, max_indices), the last three as PyTorch's cpu kernel
    fills them (offset2bag empty on its fast sum path; bag_size zeros for sum;
    max_indices bag_size again unless mode is max)."""
    M = _M()
    bags, pad = embedding_bag_plan(weight, indices, offsets, mode, per_sample_weights,
                                   include_last_offset, padding_idx)
    n, d = indices.numel(), weight._shape[1]
    dev = weight.device
    bag = _offset2bag(offsets, n, bags)
    # padding entries go to an extra bag, dropped at the end
    keep = indices != pad
    target = M.where(keep, bag, bags) if pad >= 0 else bag
    rows = OPS["index_select"].call(weight, 0, indices.long())
    counts = M.zeros(bags + 1, dtype=D.int64, device=dev).index_add(0, target, keep.long())
    counts = counts.narrow(0, 0, bags)
    if mode == 2:
        # PyTorch's loop keeps a bag's first row, then takes a later one where it is
        # greater: a NaN counts only as the first (non-padding) row of its bag
        pos = M.arange(n, device=dev)
        first = M.full((bags + 1,), n, dtype=D.int64, device=dev).scatter_reduce(
            0, target, pos, "amin", include_self=True)
        later = (first.index_select(0, target) != pos).unsqueeze(1)
        rows = M.where(rows.isnan() & later, -math.inf, rows)
        out = M.zeros((bags + 1, d), dtype=weight.dtype, device=dev).scatter_reduce(
            0, target.unsqueeze(1).expand(n, d), rows, "amax", include_self=False)
        out = out.narrow(0, 0, bags)
        max_indices = _bag_argmax(rows, out, bag, target, indices, counts, bags)
    else:
        if per_sample_weights is not None:
            rows = rows * per_sample_weights.unsqueeze(1)
        out = M.zeros((bags + 1, d), dtype=weight.dtype, device=dev).index_add(0, target, rows)
        out = out.narrow(0, 0, bags)
        if mode == 1:
            out = out / counts.clamp(min=1).unsqueeze(1).to(weight.dtype)
    # (PyTorch's fast sum path also drops indices past include_last_offset's last offset,
    # unlike its other paths: not reproduced)
    fast_sum = mode == 0 and pad < 0 and weight.dtype is not D.float64 and \
        weight._stride[1] == 1 and (per_sample_weights is None or
                                    per_sample_weights._stride[0] == 1)
    offset2bag = M.empty((0,), dtype=D.int64, device=dev) if fast_sum else bag
    if mode == 0:
        size = offsets._shape[0] if include_last_offset and not weight._requires_grad else bags
        bag_size = M.zeros(size, dtype=D.int64, device=dev)
    else:
        bag_size = counts
    if mode != 2:
        max_indices = bag_size.clone()
    # PyTorch promotes indices and offsets to one index dtype (int64 unless both are int32)
    idt = _index_dtype(indices, offsets)
    return out, offset2bag.to(idt), bag_size.to(idt), max_indices.to(idt)


_BAG_ARGS = ("scale_grad_by_freq", "mode", "sparse", "per_sample_weights",
             "include_last_offset")


def _embedding_bag_public(binding):
    """torch.embedding_bag's two overloads: padding_idx exists only in the one whose
    arguments have no defaults, so padding_idx= needs every argument before it."""
    def embedding_bag(*args, **kwargs):
        if "padding_idx" in kwargs and any(name not in kwargs
                                           for name in _BAG_ARGS[max(len(args) - 3, 0):]):
            raise TypeError("embedding_bag() got an unexpected keyword argument "
                            "'padding_idx'")
        return binding(*args, **kwargs)
    return embedding_bag


def _bag_argmax(rows, out, bag, target, indices, counts, bags):
    """For each bag and column, the row of weight holding the maximum (its first occurrence,
    as PyTorch's kernel keeps); 0 for empty bags."""
    M = _M()
    n, d = rows._shape
    if not n:
        return M.zeros((bags, d), dtype=D.int64, device=rows.device)
    pos = M.arange(n, device=rows.device).unsqueeze(1).expand(n, d)
    best = out.index_select(0, bag.clamp(max=max(bags - 1, 0)))
    cand = M.where((rows == best) | rows.isnan() & best.isnan(), pos, n)
    first = M.full((bags + 1, d), n, dtype=D.int64, device=rows.device).scatter_reduce(
        0, target.unsqueeze(1).expand(n, d), cand, "amin", include_self=True)
    first = first.narrow(0, 0, bags)
    found = first < n
    return M.where(found, indices.long().index_select(0, first.clamp(max=n - 1).reshape(-1))
                   .reshape(bags, d), 0)


def _embedding_bag_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                        per_sample_weights, include_last_offset, padding_idx, results,
                        sparse=False):
    M = _M()
    n_rows, d = weight.shape
    idx = indices.reshape(-1).long()
    n = idx.numel()
    bags = grad.shape[0]
    pad = -1 if padding_idx is None else padding_idx % n_rows
    bag = _offset2bag(offsets, n, bags)
    keep = idx != pad
    gw = gp = None
    if mode == 2:
        max_indices = results[3]
        nonempty = (results[2] > 0).unsqueeze(1)
        flat = (max_indices * d + M.arange(d, device=grad.device)).reshape(-1)
        gw = M.zeros(n_rows * d, dtype=grad.dtype, device=grad.device).index_add(
            0, flat, M.where(nonempty, grad, 0).reshape(-1)).reshape(n_rows, d)
        return gw, None
    if not n or not bags:
        if sparse:
            return _sparse_rows(idx, grad.new_zeros((0, d)), None, n_rows, d), None
        return weight.new_zeros((n_rows, d)).to(grad.dtype), \
            None if per_sample_weights is None else grad.new_zeros(idx._shape)
    at = bag.clamp(max=bags - 1)
    g = M.where(keep.unsqueeze(1), grad.index_select(0, at), 0)
    if mode == 1:
        counts = M.zeros(bags, dtype=grad.dtype, device=grad.device).index_add(
            0, at, keep.to(grad.dtype))
        size = counts.clamp(min=1).index_select(0, at).unsqueeze(1)
        g = g * (1 / size) if sparse else g / size  # (PyTorch's sparse formula: reciprocal)
    if per_sample_weights is not None:
        gp = (g * weight.index_select(0, idx)).sum(1)
        g = g * per_sample_weights.unsqueeze(1)
    if sparse:
        return _sparse_rows(idx, g, keep if pad >= 0 else None, n_rows, d), gp
    if scale_grad_by_freq:
        g = g / _bag_freq_divisor(idx, n_rows, g.dtype).unsqueeze(1)
    gw = M.zeros((n_rows, d), dtype=grad.dtype, device=grad.device).index_add(0, idx, g)
    return gw, gp


def _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices,
                                  num_weights, scale_grad_by_freq, mode,
                                  per_sample_weights=None, padding_idx=-1):
    """ATen's dense weight gradient of embedding_bag from the forward's bag of each index
    (offset2bag, in full), bag sizes and max indices: _embedding_bag_grad's dense case."""
    M = _M()
    d = grad.shape[1]
    if mode == 2:
        flat = (maximum_indices * d + M.arange(d, device=grad.device)).reshape(-1)
        return M.zeros(num_weights * d, dtype=grad.dtype, device=grad.device).index_add(
            0, flat, M.where((bag_size > 0).unsqueeze(1), grad, 0).reshape(-1)).reshape(
            num_weights, d)
    idx, bags = indices.reshape(-1).long(), grad.shape[0]
    if not idx.numel() or not bags:
        return M.zeros((num_weights, d), dtype=grad.dtype, device=grad.device)
    at = offset2bag.long().clamp(max=bags - 1)
    g = M.where((idx != padding_idx).unsqueeze(1), grad.index_select(0, at), 0)
    if mode == 1:
        g = g / bag_size.to(grad.dtype).clamp(min=1).index_select(0, at).unsqueeze(1)
    if per_sample_weights is not None:
        g = g * per_sample_weights.unsqueeze(1)
    if scale_grad_by_freq:
        g = g / _bag_freq_divisor(idx, num_weights, g.dtype).unsqueeze(1)
    return M.zeros((num_weights, d), dtype=grad.dtype, device=grad.device).index_add(0, idx, g)


def _embedding_bag_weight_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                               sparse, per_sample_weights, include_last_offset, padding_idx,
                               results):
    if sparse:  # (per_sample_weights' gradient stays dense)
        _no_sparse_freq(scale_grad_by_freq)
    else:  # (the forward's offset2bag is empty on PyTorch's fast sum path: made again)
        n_rows, n = weight.shape[0], indices.numel()
        offset2bag = results[1] if results[1].numel() == n or mode == 2 else \
            _offset2bag(offsets, n, grad.shape[0])
        return OPS["_embedding_bag_dense_backward"].call(
            grad, indices, offset2bag, results[2], results[3], n_rows, scale_grad_by_freq,
            mode, per_sample_weights, -1 if padding_idx is None else padding_idx % n_rows)
    return _embedding_bag_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                               per_sample_weights, include_last_offset, padding_idx, results,
                               sparse)[0]


def _embedding_bag_psw_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                            per_sample_weights, include_last_offset, padding_idx, results):
    return _embedding_bag_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                               per_sample_weights, include_last_offset, padding_idx, results)[1]


def _functional_embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                              scale_grad_by_freq=False, mode="mean", sparse=False,
                              per_sample_weights=None, include_last_offset=False,
                              padding_idx=None):
    if weight.dtype is D.int64 and input.dtype.kind == "f":  # the old argument order
        import warnings
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=_user_level())
        weight, input = input, weight
    if per_sample_weights is not None and input._shape != per_sample_weights._shape:
        raise ValueError(f"embedding_bag: If per_sample_weights "
                         f"(torch.Size({list(per_sample_weights._shape)})) is not None, then "
                         f"it must have the same shape as the input "
                         f"(torch.Size({list(input._shape)}))")
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.ndim}")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated "
                             f"is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets)}")
        offsets = OPS["arange"].binding(0, input.numel(), input._shape[1], dtype=input.dtype,
                                        device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _renorm(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    return OPS["embedding_bag"].call(weight, input, offsets, scale_grad_by_freq, _MODES[mode],
                                     sparse, per_sample_weights, include_last_offset,
                                     padding_idx)[0]


# -- declarations ------------------------------------------------------------------------------

def _declare():
    define("embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
           "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", method=False,
           decomposition=_embedding)
    define("embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, "
           "float norm_type) -> Tensor(a!)", method=False, decomposition=_embedding_renorm_)
    define("functional_embedding(Tensor input, Tensor weight, int? padding_idx=None, "
           "float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, "
           "bool sparse=False) -> Tensor", modules=NN, function=False, method=False,
           decomposition=_functional_embedding)
    overload(define("embedding_bag(Tensor weight, Tensor indices, Tensor offsets, "
           "bool scale_grad_by_freq=False, int mode=0, bool sparse=False, "
           "Tensor? per_sample_weights=None, bool include_last_offset=False, "
           "int? padding_idx=None) -> (Tensor, Tensor, Tensor, Tensor)", method=False,
           decomposition=_embedding_bag), _embedding_bag_public)
    define("_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, "
           "Tensor bag_size, Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, "
           "int mode, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
           method=False, decomposition=_embedding_bag_dense_backward)
    define("functional_embedding_bag(Tensor input, Tensor weight, Tensor? offsets=None, "
           "float? max_norm=None, float norm_type=2, bool scale_grad_by_freq=False, "
           "str mode='mean', bool sparse=False, Tensor? per_sample_weights=None, "
           "bool include_last_offset=False, int? padding_idx=None) -> Tensor", modules=NN,
           function=False, method=False, decomposition=_functional_embedding_bag)


def _renorm_not_differentiable(grad):
    raise NotImplementedError("the derivative for 'embedding_renorm' is not implemented.")


def _derivatives():
    refuse_complex_autograd("embedding")  # (PyTorch has no complex formula)
    derivative(OPS["embedding"], weight=_embedding_grad)
    derivative(OPS["embedding_bag"], weight=_embedding_bag_weight_grad,
               per_sample_weights=_embedding_bag_psw_grad, nondifferentiable_outputs=(1, 2, 3))
    derivative(OPS["embedding_renorm_"], self=_renorm_not_differentiable)


_declare()
_derivatives()
