"""Layer primitives: linear, bilinear, one_hot, the dropout variants,
scaled_dot_product_attention, and the distances cosine_similarity, pairwise_distance, pdist
(embedding and embedding_bag: layers_embedding.py).

Every op decomposes into mindtorch ops (so any device runs it); pdist carries its own
backward formula, the others differentiate through their decompositions.  Where
torch.<name> and nn.functional.<name> take different arguments (dropout, alpha_dropout,
feature_alpha_dropout), the functional form is an op of its own, `functional_<name>` (the
module's prefix dropped), decomposing into the torch.<name> op.
"""
import math

from ... import _dtype as D
from ..._promotion import can_cast as _can_cast
from ..._shapes import broadcast_shapes
from ..registry import OPS, define, derivative
from ._helpers import _type_name, write_into
from ._helpers import has_data as _has_data  # (imported from here by other decls)
from ._sdpa import _sdpa
from .random_checks import _num

NN = ("nn.functional",)
_HALVES = (D.float16, D.bfloat16)


def _M():
    import mindtorch
    return mindtorch


def _any(mask):
    """Whether any element of a bool tensor is set (False on devices without data)."""
    return bool(mask.numel()) and _has_data(mask) and bool(OPS["any"].binding(mask).item())


def _c_name(dtype):
    return D.CPP_NAMES.get(dtype.name, _type_name(dtype))


# -- linear, bilinear ------------------------------------------------------------------------

def _fusable(bias):
    """PyTorch's test for a bias an addmm can take: contiguous, 1-D once squeezed."""
    return bias.is_contiguous() and (bias.ndim == 1 or bias.squeeze().ndim == 1)


def _linear(input, weight, bias=None):
    """input @ weight.T + bias (addmm for a 2-d input, as PyTorch)."""
    ndim, wdim = len(input._shape), len(weight._shape)
    if ndim == 0 or wdim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{ndim}D and {wdim}D")
    if wdim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {wdim}D")
    wt = weight.t()
    if bias is not None and (ndim == 2 or input.is_contiguous() and _fusable(bias)):
        if ndim == 2:
            return OPS["addmm"].call(bias, input, wt, 1, 1)
        # PyTorch's fused path for other ranks: rows folded into one addmm, then viewed
        # back (a ViewBackward0 node)
        lead = input._shape[:-1]
        rows = 1
        for n in lead:
            rows *= n
        flat = OPS["addmm"].call(bias, input.reshape(rows, input._shape[-1]), wt, 1, 1)
        return flat.view(lead + (flat._shape[1],))
    out = OPS["matmul"].call(input, wt)
    if bias is None:
        return out
    # else matmul, then PyTorch's in-place add: bias broadcast and cast into the result
    shape = broadcast_shapes(out._shape, bias._shape)
    if tuple(shape) != out._shape:
        raise RuntimeError(f"output with shape {list(out._shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    total = out + bias
    if not _can_cast(total.dtype, out.dtype):
        raise RuntimeError(f"result type {_type_name(total.dtype)} can't be cast to the "
                           f"desired output type {_type_name(out.dtype)}")
    return total.to(out.dtype)


def _size(t, dim):
    """t.size(dim) with PyTorch's IndexError (sym_size in its C++ checks)."""
    if not t.ndim:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    from .._argcheck import wrap_dim
    return t._shape[wrap_dim(dim, t.ndim)]


def _bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]; PyTorch's checks in its
    order (dtypes first; sizes read with dim wrapping, so a short weight is an IndexError)."""
    names = [("input1", input1), ("input2", input2), ("weight", weight)] + \
        ([("bias", bias)] if bias is not None else [])
    if any(t.dtype is not input1.dtype for _, t in names):
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{n}: {_c_name(t.dtype)}" for n, t in names))
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                           f"{input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1._shape[i] != input2._shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {input1._shape[i]} and {input2._shape[i]}")
    for k, x in ((1, input1), (2, input2)):
        if _size(x, -1) != _size(weight, k):
            raise RuntimeError(f"bilinear(): input{k} size does not match weight size: got "
                               f"{_size(x, -1)} but expected {_size(weight, k)}")
    if bias is not None and _size(bias, 0) != _size(weight, 0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias._shape[0]} but expected {weight._shape[0]}")
    if weight.ndim != 3:  # (PyTorch's _trilinear)
        raise RuntimeError("number of dimensions must match")
    x1 = input1.reshape(-1, input1._shape[-1])
    x2 = input2.reshape(-1, input2._shape[-1])
    o, i, j = weight._shape
    # (x1 W) as (b, o, j), then contracted with x2 over j
    t = x1.matmul(weight.permute(1, 0, 2).reshape(i, o * j)).reshape(-1, o, j)
    out = t.matmul(x2.unsqueeze(-1)).reshape(input1._shape[:-1] + (o,))
    return out if bias is None else out + bias


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
    if self.numel() and data:
        low, high = (t.item() for t in OPS["aminmax"].call(self, None, False))  # one pass
        if num_classes == -1:
            num_classes = high + 1
        if low < 0:
            raise RuntimeError("Class values must be non-negative.")
        if high >= num_classes:
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


def _dropout_impl(input, p, train, feature, alpha):
    from .creation import _empty, _empty_like
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
    # (per element: noise laid out as the input, so draws follow its memory order)
    noise = _empty(shape, input.dtype, input.device) if feature else _empty_like(input)
    noise.bernoulli_(1 - p)
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
        if inplace and (p == 0 or not training or input.numel() == 0):
            return input  # ATen's <name>_ returns it untouched (no in-place check)
        return OPS[name + "_" if inplace else name].call(input, p, training)
    return fn


def _caller_level():
    """warnings.warn's stacklevel, for the function calling this, of the frame that called
    that function (PyTorch's stacklevel=2 in nn.functional), past mindtorch's generated
    bindings and its op and autograd machinery, whose depth varies."""
    import os
    import sys
    skip = tuple(os.sep + os.path.join("mindtorch", d) + os.sep for d in ("_ops", "autograd"))
    frame, level = sys._getframe(2), 2
    generated = ("<binding ", "<autograd ", "<call ", "<backward ", "<op ")
    while frame is not None and (frame.f_code.co_filename.startswith(generated) or
                                 any(d in frame.f_code.co_filename for d in skip)):
        frame, level = frame.f_back, level + 1
    return level


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
                          f"inputs).", stacklevel=_caller_level())
        if n == 2 and nd == 3:
            warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                          "channel-wise 1D dropout behavior is desired - input is interpreted "
                          "as shape (N, C, L), where C is the channel dim. This behavior will "
                          "change in a future release to interpret the input as one without a "
                          "batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                          "channel-wise dropout behavior, please switch to using dropout1d "
                          "instead.", stacklevel=_caller_level())
        unbatched = n != 2 and nd != n + 2
        op = OPS["feature_dropout_" if inplace else "feature_dropout"]
        if unbatched:
            x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
            r = op.call(x, p, training)
            return r.squeeze_(0) if inplace else r.squeeze(0)
        return op.call(input, p, training)
    return fn


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
    if not p >= 0:  # (nan too)
        raise RuntimeError("pdist only supports non-negative p values")
    n = self._shape[0]
    if self.dtype in _HALVES and n > 1 and self._shape[1]:  # (else PyTorch skips its kernel)
        raise NotImplementedError(f'"pdist" not implemented for \'{_type_name(self.dtype)}\'')
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
           modules=NN, method=False, wrap_dims=False, decomposition=_cosine_similarity)
    define("pairwise_distance(Tensor x1, Tensor x2, float p=2.0, float eps=1e-06, "
           "bool keepdim=False) -> Tensor", modules=NN, method=False,
           decomposition=_pairwise_distance)
    define("pdist(Tensor self, float p=2.0) -> Tensor", modules=NN, method=False,
           decomposition=_pdist)
    # (ATen's backward op: a backend may fuse it; the formula is its decomposition, which
    # also gives it the double backward PyTorch lacks: tests/autograd/test_layers_grad.py)
    define("_pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor",
           method=False, decomposition=_pdist_grad)


def _derivatives():
    derivative(OPS["pdist"], self=lambda grad, self, p, result:
               OPS["_pdist_backward"].call(grad, self, p, result))


_declare()
_derivatives()
