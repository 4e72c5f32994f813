"""Layer primitives: linear, bilinear, embedding, embedding_bag, one_hot, the dropout
variants, scaled_dot_product_attention, and the distances cosine_similarity,
pairwise_distance, pdist.

Every op decomposes into mindtorch ops (so any device runs it).  embedding and
embedding_bag carry backward formulas (PyTorch's EmbeddingBackward0 / EmbeddingBagBackward0:
padding rows get no gradient, scale_grad_by_freq divides by each row's count); the others
differentiate through their decompositions.  Where torch.<name> and nn.functional.<name>
take different arguments (embedding, embedding_bag, dropout, alpha_dropout,
feature_alpha_dropout), the functional form is an op of its own, `functional_<name>`
(the module's prefix dropped), decomposing into the torch.<name> op.

Checks that need index values (bounds, offsets) read them only on devices with data.
"""
import math

from ... import _dtype as D
from ..._shapes import broadcast_shapes
from ..registry import OPS, define, derivative
from ._helpers import _type_name, write_into

NN = ("nn.functional",)
_HALVES = (D.float16, D.bfloat16)


def _M():
    import mindtorch
    return mindtorch


def _has_data(t):
    from ...plugins._registry import DEVICES
    return DEVICES[t._device.type].has_data


def _any(mask):
    """Whether any element of a bool tensor is set (False on devices without data)."""
    return bool(mask.numel()) and _has_data(mask) and bool(OPS["any"].binding(mask).item())


def _c_name(dtype):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "float16": "c10::Half", "bfloat16": "c10::BFloat16", "bool": "bool"}.get(
        dtype.name, _type_name(dtype))


# -- linear, bilinear ------------------------------------------------------------------------

def _linear(input, weight, bias=None):
    """input @ weight.T + bias (addmm for a 2-d input, as PyTorch)."""
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if weight.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{weight.ndim}D")
    wt = weight.t()
    if input.ndim == 2 and bias is not None:
        if bias.dtype is not input.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                               f"{_type_name(bias.dtype)} and {_type_name(input.dtype)}")
        return OPS["addmm"].call(bias, input, wt, 1, 1)
    out = OPS["matmul"].call(input, wt)
    if bias is not None:
        if bias.dtype is not out.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                               f"{_type_name(bias.dtype)} and {_type_name(out.dtype)}")
        out = out + bias.expand(out._shape)  # (bias may not widen the result)
    return out


def _bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]."""
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                           f"{input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1._shape[i] != input2._shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match: got "
                               f"{input1._shape[i]} and {input2._shape[i]}")
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be 3-dimensional, got {weight.ndim}")
    if input1._shape[-1] != weight._shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got "
                           f"{input1._shape[-1]} but expected {weight._shape[1]}")
    if input2._shape[-1] != weight._shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got "
                           f"{input2._shape[-1]} but expected {weight._shape[2]}")
    if bias is not None and (not bias.ndim or bias._shape[0] != weight._shape[0]):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias._shape[0] if bias.ndim else 0} but expected "
                           f"{weight._shape[0]}")
    if not input1.dtype is input2.dtype is weight.dtype:
        raise RuntimeError(f"All tensors must have the same dtype, got input1: "
                           f"{_c_name(input1.dtype)}, input2: {_c_name(input2.dtype)}, "
                           f"weight: {_c_name(weight.dtype)}")
    x1 = input1.reshape(-1, input1._shape[-1])
    x2 = input2.reshape(-1, input2._shape[-1])
    o, i, j = weight._shape
    # (x1 W) as (b, o, j), then contracted with x2 over j
    t = x1.matmul(weight.permute(1, 0, 2).reshape(i, o * j)).reshape(-1, o, j)
    out = t.matmul(x2.unsqueeze(-1)).reshape(input1._shape[:-1] + (o,))
    return out if bias is None else out + bias


# -- embedding ---------------------------------------------------------------------------------

def _check_indices(name, arg, t):
    if t.dtype not in (D.int64, D.int32):
        kind = "CPUBoolType" if t.dtype is D.bool else \
            f"torch.{_type_name(t.dtype).replace('Bool', '')}Tensor"
        raise RuntimeError(f"Expected tensor for argument #{arg} '{name}' to have one of the "
                           f"following scalar types: Long, Int; but got {kind} instead (while "
                           f"checking arguments for embedding{'_bag' if arg != 1 else ''})")


def _embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices("indices", 1, indices)
    _no_sparse(sparse)
    rows = OPS["index_select"].call(weight, 0, indices.reshape(-1))
    return rows.reshape(indices._shape + (weight._shape[1],))


def _no_sparse(sparse):
    if sparse:
        raise NotImplementedError("sparse gradients (sparse=True) are not supported by "
                                  "mindtorch: use sparse=False")


def _embedding_renorm_(self, indices, max_norm, norm_type):
    """Rows of self that indices select, rescaled in place to a norm of at most max_norm
    (by max_norm / (norm + 1e-7), as PyTorch)."""
    if self.ndim != 2:
        raise RuntimeError(f"embedding_renorm_(): expected self to be 2-D, but got {self.ndim}"
                           f"-D")
    _check_indices("indices", 2, indices)
    idx = indices.reshape(-1)
    if not idx.numel():
        return self
    from ...autograd.grad_mode import no_grad
    with no_grad():
        rows = OPS["index_select"].call(self, 0, idx)
        norms = OPS["norm"].call(rows, norm_type, (1,), True, None)
        scale = _M().where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        # duplicates write the same row twice: the same values
        OPS["index_copy_"].call(self, 0, idx, (rows * scale).to(self.dtype))
    return self


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


def _embedding_grad(grad, weight_geometry, indices, padding_idx, scale_grad_by_freq):
    """Rows of the gradient summed into the rows they were read from; none to the padding
    row; divided by each row's count with scale_grad_by_freq."""
    M = _M()
    n, d = weight_geometry[0]
    idx = indices.reshape(-1).long()
    g = grad.reshape(idx.numel(), d)
    if padding_idx >= 0:
        g = M.where((idx != padding_idx).unsqueeze(1), g, 0)
    if scale_grad_by_freq:
        counts = _counts(idx, n, g.dtype)
        g = g / counts.index_select(0, idx).unsqueeze(1)
    return M.zeros((n, d), dtype=grad.dtype, device=grad.device).index_add(0, idx, g)


def _counts(idx, n, dtype):
    """How many times each of n rows occurs in idx."""
    M = _M()
    return M.zeros(n, dtype=dtype, device=idx.device).index_add(
        0, idx, M.ones(idx._shape, dtype=dtype, device=idx.device))


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


def embedding_bag_plan(weight, indices, offsets, mode, per_sample_weights,
                       include_last_offset, padding_idx):
    """PyTorch's embedding_bag checks; returns (number of bags, padding index or -1)."""
    if weight.dtype.kind != "f":
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the "
                           f"following scalar types: Half, BFloat16, Float, Double; but got "
                           f"torch.{_type_name(weight.dtype)}Tensor instead (while checking "
                           f"arguments for embedding_bag)")
    _check_indices("indices", 2, indices)
    _check_indices("offsets", 3, offsets)
    if indices.ndim != 1 or offsets.ndim != 1 or weight.ndim != 2:
        what = "input" if indices.ndim != 1 else "offsets" if offsets.ndim != 1 else "weight"
        raise RuntimeError(f"{what} has to be a {'2' if what == 'weight' else '1'}D Tensor")
    if mode not in (0, 1, 2):
        raise RuntimeError(f"embedding_bag: unknown mode {mode}")
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with "
                               "mode='sum'")
        if per_sample_weights._shape != indices._shape:
            raise RuntimeError(f"embedding_bag: Expected per_sample_weights to have the same "
                               f"shape as indices, got {list(per_sample_weights._shape)} and "
                               f"{list(indices._shape)}")
        if per_sample_weights.dtype is not weight.dtype:
            raise RuntimeError(f"embedding_bag: Expected per_sample_weights.dtype to be "
                               f"{_type_name(weight.dtype)}, got "
                               f"{_type_name(per_sample_weights.dtype)}")
    n = weight._shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif not -n <= padding_idx < n:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{n} "
                           f"through {n - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += n
    bags = offsets._shape[0] - (1 if include_last_offset else 0)
    if include_last_offset and bags < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if _has_data(offsets) and offsets.numel():
        first = offsets[0].item()
        if first != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                               f"mini-batch has to start from position 0. However, got {first}")
        last = offsets[-1].item()
        if last > indices.numel():
            raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                               f"{indices.numel()} but got offsets[-1] of {last}")
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
    _no_sparse(sparse)
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
        weight._stride[1] == 1
    offset2bag = M.empty((0,), dtype=D.int64, device=dev) if fast_sum else bag
    if mode == 0:
        size = offsets._shape[0] if include_last_offset and not weight._requires_grad else bags
        bag_size = M.zeros(size, dtype=D.int64, device=dev)
    else:
        bag_size = counts
    if mode != 2:
        max_indices = bag_size.clone()
    return out, offset2bag, bag_size, max_indices


def _bag_argmax(rows, out, bag, target, indices, counts, bags):
    """For each bag and column, the row of weight holding the maximum (its first occurrence,
    as PyTorch's kernel keeps); 0 for empty bags."""
    M = _M()
    n, d = rows._shape
    if not n:
        return M.zeros((bags, d), dtype=D.int64, device=rows.device)
    pos = M.arange(n, device=rows.device).unsqueeze(1).expand(n, d)
    best = out.index_select(0, bag.clamp(max=max(bags - 1, 0)))
    cand = M.where(rows == best, pos, n)
    first = M.full((bags + 1, d), n, dtype=D.int64, device=rows.device).scatter_reduce(
        0, target.unsqueeze(1).expand(n, d), cand, "amin", include_self=True)
    first = first.narrow(0, 0, bags)
    found = first < n
    return M.where(found, indices.long().index_select(0, first.clamp(max=n - 1).reshape(-1))
                   .reshape(bags, d), 0)


def _embedding_bag_grad(grad, weight, indices, offsets, scale_grad_by_freq, mode,
                        per_sample_weights, include_last_offset, padding_idx, results):
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
        return weight.new_zeros((n_rows, d)).to(grad.dtype), \
            None if per_sample_weights is None else grad.new_zeros(idx._shape)
    at = bag.clamp(max=bags - 1)
    g = M.where(keep.unsqueeze(1), grad.index_select(0, at), 0)
    if mode == 1:
        counts = M.zeros(bags, dtype=grad.dtype, device=grad.device).index_add(
            0, at, keep.to(grad.dtype))
        g = g / counts.clamp(min=1).index_select(0, at).unsqueeze(1)
    if per_sample_weights is not None:
        gp = (g * weight.index_select(0, idx)).sum(1)
        g = g * per_sample_weights.unsqueeze(1)
    if scale_grad_by_freq:
        g = g / _counts(idx, n_rows, g.dtype).index_select(0, idx).unsqueeze(1)
    gw = M.zeros((n_rows, d), dtype=grad.dtype, device=grad.device).index_add(0, idx, g)
    return gw, gp


def _functional_embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2,
                              scale_grad_by_freq=False, mode="mean", sparse=False,
                              per_sample_weights=None, include_last_offset=False,
                              padding_idx=None):
    if weight.dtype is D.int64 and input.dtype.kind == "f":  # the old argument order
        import warnings
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=3)
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


# -- one_hot -----------------------------------------------------------------------------------

def _one_hot(self, num_classes=-1):
    M = _M()
    if self.dtype is not D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = _has_data(self)
    if num_classes == -1:
        if not self.numel():
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        if not data:
            raise RuntimeError("Can not infer total number of classes from meta tensor.")
        num_classes = OPS["max"].call(self).item() + 1
    if self.numel() and data:
        if OPS["min"].call(self).item() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if OPS["max"].call(self).item() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = M.zeros(self._shape + (num_classes,), dtype=D.int64, device=self.device)
    return out.scatter_(-1, self.unsqueeze(-1), 1)


# -- dropout variants --------------------------------------------------------------------------
# PyTorch's _dropout_impl: noise drawn in the input's dtype (per element, or per channel for
# the feature forms: shape (N, C, 1, ...)), scaled by 1 / (1 - p); the alpha forms keep
# SELU's mean and variance with a * (x * noise + alpha * (noise - 1) + alpha * p)

_ALPHA = 1.7580993408473766


def _check_p(p):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {_num(p)}")


def _num(x):
    return int(x) if isinstance(x, float) and x.is_integer() else x


def _dropout_impl(input, p, train, feature, alpha):
    from .creation import _empty
    _check_p(p)
    if p == 0 or not train or not input.numel():
        return input
    if p == 1:
        return input * OPS["zeros"].binding((), dtype=input.dtype, device=input.device)
    if feature and input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = input._shape[:2] + (1,) * (input.ndim - 2) if feature else input._shape
    if input.dtype.kind == "c":
        raise NotImplementedError(f"\"bernoulli_scalar_cpu_\" not implemented for "
                                  f"'{_type_name(input.dtype)}'")
    if input.dtype.kind != "f":
        name = "Bool" if input.dtype is D.bool and not alpha else "Long" if alpha else \
            _type_name(input.dtype)
        raise RuntimeError(f"result type Float can't be cast to the desired output type {name}")
    noise = _empty(shape, input.dtype, input.device).bernoulli_(1 - p)
    if not alpha:
        return input * (noise / (1 - p))
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = (noise - 1) * (_ALPHA * a) + _ALPHA * a * p
    return input * (noise * a) + b


def _dropout_op(feature, alpha):
    def fn(input, p, train):
        return _dropout_impl(input, p, train, feature, alpha)
    return fn


def _inplace(name):
    def fn(input, p, train):
        return write_into(input, OPS[name], (p, train))
    return fn


def _check_functional_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _functional(name):
    """nn.functional's form of torch.<name>(input, p, train): p checked with ValueError,
    inplace= choosing <name>_."""
    def fn(input, p=0.5, training=True, inplace=False):
        _check_functional_p(p)
        return OPS[name + "_" if inplace else name].call(input, p, training)
    return fn


def _dropout_nd(n):
    """dropout1d/2d/3d: channel-wise (feature) dropout; 1d and 3d add a batch dim to
    unbatched input (2d keeps PyTorch's historical reading of 3-d input as batched)."""
    def fn(input, p=0.5, training=True, inplace=False):
        import warnings
        _check_functional_p(p)
        nd = input.ndim
        if n == 1 and nd not in (2, 3):
            raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {nd}D "
                               f"input. Note that dropout1d exists to provide channel-wise "
                               f"dropout on inputs with 1 spatial dimension, a channel "
                               f"dimension, and an optional batch dimension (i.e. 2D or 3D "
                               f"inputs).")
        if n > 1 and nd not in (n + 1, n + 2):
            warnings.warn(f"dropout{n}d: Received a {nd}-D input to dropout{n}d, which is "
                          f"deprecated and will result in an error in a future release. To "
                          f"retain the behavior and silence this warning, please use dropout "
                          f"instead. Note that dropout{n}d exists to provide channel-wise "
                          f"dropout on inputs with {n} spatial dimensions, a channel dimension, "
                          f"and an optional batch dimension (i.e. {n + 1}D or {n + 2}D "
                          f"inputs).", stacklevel=3)
        if n == 2 and nd == 3:
            warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                          "channel-wise 1D dropout behavior is desired - input is interpreted "
                          "as shape (N, C, L), where C is the channel dim. This behavior will "
                          "change in a future release to interpret the input as one without a "
                          "batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                          "channel-wise dropout behavior, please switch to using dropout1d "
                          "instead.", stacklevel=3)
        unbatched = n != 2 and nd != n + 2
        op = OPS["feature_dropout_" if inplace else "feature_dropout"]
        if unbatched:
            x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
            r = op.call(x, p, training)
            return r.squeeze_(0) if inplace else r.squeeze(0)
        return op.call(input, p, training)
    return fn


# -- scaled dot product attention --------------------------------------------------------------

def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
          enable_gqa=False):
    """PyTorch's math reference: softmax(q k^T * scale + mask) v, rows masked everywhere
    giving 0 (its safe softmax); q and k each scaled by sqrt(scale) before the product."""
    M = _M()
    for t in (query, key, value):
        if t.ndim < 2:
            raise RuntimeError(f"Expected query, key, and value to all be  at least 2 "
                               f"dimensional, but got query.dim: {query.ndim} key.dim: "
                               f"{key.ndim} and value.dim: {value.ndim} instead.")
    if not query.dtype is key.dtype is value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c_name(query.dtype)} key.dtype: "
                           f"{_c_name(key.dtype)} and value.dtype: {_c_name(value.dtype)} "
                           f"instead.")
    if query.dtype.kind != "f":
        raise RuntimeError(f"expected scalar type Float but found {_type_name(query.dtype)}")
    if attn_mask is not None and attn_mask.dtype not in (D.bool, D.float32, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {_c_name(attn_mask.dtype)} and  "
                           f"query.dtype: {_c_name(query.dtype)} instead.")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    L, S = query._shape[-2], key._shape[-2]
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3:
        hq, hk, hv = query._shape[-3], key._shape[-3], value._shape[-3]
        if hq % hk or hq % hv:
            raise RuntimeError("Number of heads in key and value must divide the number of "
                               "heads in query")
        key = key.repeat_interleave(hq // hk, -3)
        value = value.repeat_interleave(hq // hv, -3)
    dt = D.float32 if query.dtype in _HALVES else query.dtype
    factor = math.sqrt(abs(scale) if scale is not None else 1 / math.sqrt(query._shape[-1]))
    q = query.to(dt) * (-factor if scale is not None and scale < 0 else factor)
    attn = q.matmul(key.to(dt).transpose(-2, -1) * factor)
    if is_causal:
        attn_mask = M.ones((L, S), dtype=D.bool, device=query.device).tril()
    if attn_mask is not None:
        if attn_mask.dtype is D.bool:
            attn = attn.masked_fill(attn_mask.logical_not(), -math.inf)
        else:
            attn = attn + attn_mask.to(dt)
    if S:  # (no keys: the empty product below gives zeros)
        masked = (attn == -math.inf).all(-1, keepdim=True)
        attn = M.where(masked, 0, attn.softmax(-1))
    if dropout_p > 0.0:
        attn = OPS["dropout"].call(attn, dropout_p, True)
    return attn.matmul(value.to(dt)).to(query.dtype)


# -- distances ---------------------------------------------------------------------------------

def _cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """PyTorch's: each input divided by its norm clamped to eps (the clamp taken without
    gradient, as PyTorch's in-place clamp under no_grad), then summed products over dim."""
    from ..._promotion import result_type
    from ...autograd.grad_mode import no_grad
    common = result_type(x1, x2)
    if common.kind != "f":
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_type_name(common)}")
    x1 = x1 if x1.dtype.kind in "fc" else x1.to(common)
    x2 = x2 if x2.dtype.kind in "fc" else x2.to(common)
    shape = broadcast_shapes(x1._shape, x2._shape)
    x1, x2 = x1.expand(shape), x2.expand(shape)
    from .._argcheck import wrap_dim
    dim = wrap_dim(dim, len(shape))
    n1 = OPS["norm"].call(x1, 2, (dim,), True, None).clone()
    n2 = OPS["norm"].call(x2, 2, (dim,), True, None).clone()
    with no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last dim of the broadcast shape."""
    dim = max(x1.ndim, x2.ndim) - 1
    return OPS["norm"].call(x1 - x2 + eps, p, (dim,), keepdim, None)


def check_pdist(self, p):
    if self.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {self.ndim}D")
    if self.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if self.dtype in _HALVES:
        raise NotImplementedError(f'"pdist" not implemented for \'{_type_name(self.dtype)}\'')
    n = self._shape[0]
    return (n * (n - 1) // 2,)


def _pdist(self, p=2.0):
    """The p-norm distances between the rows of a 2-d input, pairs (i < j) in row order."""
    check_pdist(self, p)
    i, j = pair_indices(self._shape[0], self.device)
    diff = self.index_select(0, i) - self.index_select(0, j)
    return OPS["norm"].call(diff, p, (1,), False, None)


def _pdist_grad(grad, self, p, result):
    """PyTorch's pdist backward: per pair, d||diff||_p / d diff (0 where the distance is 0,
    and for p < 1 where a difference is 0; for p = inf only at the maximal differences),
    added to row i and taken from row j."""
    M = _M()
    n, d = self.shape
    if p == 0 or not n or not d:
        return M.zeros_like(self)
    i, j = pair_indices(n, self.device)
    diff = self.index_select(0, i) - self.index_select(0, j)
    dist = result.unsqueeze(1)
    g = grad.unsqueeze(1)
    if p == 1:
        gd = diff.sign() * g
    elif p == math.inf:
        gd = diff.sign() * (diff.abs() == dist) * g
    elif p == 2:
        gd = M.where(dist == 0, 0, diff * g / dist)
    else:
        a = diff.abs()
        gd = diff.sign() * a.pow(p - 1) * g / dist.pow(p - 1)
        gd = M.where((dist == 0) | ((a == 0) & (p < 1)), 0, gd)
    return M.zeros_like(self).index_add(0, i, gd).index_add(0, j, -gd)


def pair_indices(n, device):
    """(i, j) of the n (n - 1) / 2 pairs i < j in row-major order, computed pointwise (so
    every device makes them, meta too): row i holds the pairs from P(i) = i (2n - i - 1) / 2;
    i from the quadratic's root, corrected by one step either way for rounding."""
    M = _M()
    m = n * (n - 1) // 2
    k = M.arange(m, dtype=D.int64, device=device)
    b = 2 * n - 1

    def first(i):
        return i * (b - i) // 2
    i = ((b - (b * b - 8 * k).double().sqrt()) / 2).floor().long()
    i = M.where(first(i + 1) <= k, i + 1, i)
    i = M.where(first(i) > k, i - 1, i)
    return i, k - first(i) + i + 1


# -- declarations ------------------------------------------------------------------------------

_DROPOUT = {  # torch.<name>(input, p, train): (feature, alpha)
    "alpha_dropout": (False, True), "feature_dropout": (True, False),
    "feature_alpha_dropout": (True, True),
}


def _declare():
    define("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", modules=NN,
           function=False, method=False, decomposition=_linear)
    define("bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor",
           modules=NN, method=False, decomposition=_bilinear)

    define("embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
           "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", method=False,
           decomposition=_embedding)
    define("embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, "
           "float norm_type) -> Tensor(a!)", method=False, decomposition=_embedding_renorm_)
    define("functional_embedding(Tensor input, Tensor weight, int? padding_idx=None, "
           "float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, "
           "bool sparse=False) -> Tensor", modules=NN, function=False, method=False,
           decomposition=_functional_embedding)
    define("embedding_bag(Tensor weight, Tensor indices, Tensor offsets, "
           "bool scale_grad_by_freq=False, int mode=0, bool sparse=False, "
           "Tensor? per_sample_weights=None, bool include_last_offset=False, "
           "int? padding_idx=None) -> (Tensor, Tensor, Tensor, Tensor)", method=False,
           decomposition=_embedding_bag)
    define("functional_embedding_bag(Tensor input, Tensor weight, Tensor? offsets=None, "
           "float? max_norm=None, float norm_type=2, bool scale_grad_by_freq=False, "
           "str mode='mean', bool sparse=False, Tensor? per_sample_weights=None, "
           "bool include_last_offset=False, int? padding_idx=None) -> Tensor", modules=NN,
           function=False, method=False, decomposition=_functional_embedding_bag)
    define("one_hot(Tensor self, int num_classes=-1) -> Tensor", modules=NN, function=False,
           method=False, decomposition=_one_hot)

    for name, (feature, alpha) in _DROPOUT.items():
        define(f"{name}(Tensor input, float p, bool train) -> Tensor", method=False,
               tags=("random",), decomposition=_dropout_op(feature, alpha))
    for name in ("dropout",) + tuple(_DROPOUT):
        define(f"{name}_(Tensor(a!) input, float p, bool train) -> Tensor(a!)", method=False,
               tags=("random", "inplace"), decomposition=_inplace(name))
    for name, default in (("dropout", True), ("alpha_dropout", False),
                          ("feature_alpha_dropout", False)):
        define(f"functional_{name}(Tensor input, float p=0.5, bool training={default}, "
               f"bool inplace=False) -> Tensor", modules=NN, function=False, method=False,
               tags=("random",), decomposition=_functional(name))
    for n in (1, 2, 3):
        define(f"dropout{n}d(Tensor input, float p=0.5, bool training=True, "
               f"bool inplace=False) -> Tensor", modules=NN, function=False, method=False,
               tags=("random",), decomposition=_dropout_nd(n))

    define("scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, "
           "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, "
           "float? scale=None, bool enable_gqa=False) -> Tensor", modules=NN, function=False,
           method=False, decomposition=_sdpa)
    define("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
           modules=NN, method=False, decomposition=_cosine_similarity)
    define("pairwise_distance(Tensor x1, Tensor x2, float p=2.0, float eps=1e-06, "
           "bool keepdim=False) -> Tensor", modules=NN, method=False,
           decomposition=_pairwise_distance)
    define("pdist(Tensor self, float p=2.0) -> Tensor", modules=NN, method=False,
           decomposition=_pdist)


def _renorm_not_differentiable(grad):
    raise NotImplementedError("the derivative for 'embedding_renorm' is not implemented.")


def _derivatives():
    derivative(OPS["embedding"], weight=_embedding_grad)
    derivative(OPS["embedding_bag"], {"weight, per_sample_weights": _embedding_bag_grad},
               nondifferentiable_outputs=(1, 2, 3))
    derivative(OPS["embedding_renorm_"], self=_renorm_not_differentiable)
    derivative(OPS["pdist"], self=_pdist_grad)


_declare()
_derivatives()
