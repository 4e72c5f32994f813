"""Margin and embedding losses: hinge_embedding, margin_ranking, cosine_embedding,
triplet_margin, soft_margin, multilabel_soft_margin, multilabel_margin and multi_margin.

Split from loss.py, whose conventions they follow (the functional forms with the legacy
reduction arguments, the ATen forms with an int reduction, the hidden ops PyTorch names
backward nodes after) and whose shared helpers (loss_shared.py) they use.
"""
from ... import _dtype as D
from ...autograd._backward_ops import backward_op, renamed
from ..registry import OPS, define, derivative
from ._helpers import refuse_complex_autograd
from .loss_shared import (_EPSILON, _F_ONLY, _LEGACY, _enum, _first_bad, _floating,
                          _fresh_contiguous, _into, _log_sigmoid, _mean_scale, _no_grad_for,
                          _reduce, _reduce_named, _reduction, _refused, _shape_of, _type_name,
                          declare_tables)

_SINGLE_DOUBLE = (D.float32, D.float64)  # the margin losses' CPU kernels take no halves


# -- margin and embedding losses -----------------------------------------------------------

def _full_like_cast(self, value):
    """A Python number in a tensor of self's dtype and shape (ATen's `number - tensor`)."""
    import mindtorch as M
    if self.dtype.is_floating_point or self.dtype.is_complex:
        return value
    return M.full_like(self, value)  # (PyTorch's overflow check for NaN, inf, range)


def _hinge_embedding_loss(self, target, margin, reduction):
    import mindtorch as M
    zeros = M.zeros_like(self)
    margin_clamp = (_full_like_cast(self, margin) - self).clamp_min(0)
    loss = M.where(target != 1, margin_clamp, zeros) + M.where(target != -1, self, zeros)
    return _reduce(loss, reduction)


def _hinge_embedding_loss_functional(self, target, margin, size_average, reduce, reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    return OPS["hinge_embedding_loss"].call(self, target, margin, reduction)


def _margin_ranking_loss(input1, input2, target, margin, reduction):
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def _margin_ranking_loss_functional(input1, input2, target, margin, size_average, reduce,
                                    reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    if not input1.ndim == input2.ndim == target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {input1.size()}, input2: "
                           f"{input2.size()}, target: {target.size()} ")
    return OPS["margin_ranking_loss"].call(input1, input2, target, margin, reduction)


def _cosine_embedding_loss(input1, input2, target, margin, reduction):
    import mindtorch as M
    tdim = target.ndim
    if tdim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != tdim + 1 or input2.ndim != tdim + 1:
        raise RuntimeError(f"{tdim}D target tensor expects {tdim + 1}D input tensors, but "
                           f"found inputs with sizes {_shape_of(input1.shape)} and "
                           f"{_shape_of(input2.shape)}.")
    prod_sum = (input1 * input2).sum(tdim)
    mag1 = (input1 * input1).sum(tdim) + _EPSILON
    mag2 = (input2 * input2).sum(tdim) + _EPSILON
    cos = prod_sum / (mag1 * mag2).sqrt()
    zeros = M.zeros_like(cos)
    # both branches before target is compared (ATen's order: clamp refuses complex first)
    pos, neg = 1 - cos, (cos - margin).clamp_min(0)
    loss = M.where(target == 1, pos, zeros) + M.where(target == -1, neg, zeros)
    return _reduce(loss, reduction)


def _cosine_embedding_loss_functional(input1, input2, target, margin, size_average, reduce,
                                      reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    return OPS["cosine_embedding_loss"].call(input1, input2, target, margin, reduction)


def check_triplet_dims(anchor, positive, negative):
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {anchor.ndim}D, "
                           f"positive {positive.ndim}D, and negative {negative.ndim}D inputs")


def check_triplet_margin(margin):
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")


def _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction):
    import mindtorch as M
    check_triplet_dims(anchor, positive, negative)
    distance = OPS["pairwise_distance"].call
    d_pos = distance(anchor, positive, p, eps, False)
    d_neg = distance(anchor, negative, p, eps, False)
    if swap:
        d_neg = M.minimum(d_neg, distance(positive, negative, p, eps, False))
    return _reduce((margin + d_pos - d_neg).clamp_min(0), reduction)


def _triplet_margin_loss_functional(anchor, positive, negative, margin, p, eps, swap,
                                    size_average, reduce, reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    check_triplet_margin(margin)
    return OPS["triplet_margin_loss"].call(anchor, positive, negative, margin, p, eps, swap,
                                           reduction)


def _soft_margin_loss(self, target, reduction):
    """log(1 + exp(-target * input)), as PyTorch's neg(input).mul_(target): in -input's
    dtype (a bool target is promoted, a bool input refused), then into self's dtype."""
    neg = -self
    return _reduce(_into(self, _into(neg, neg * target).exp().log1p()), reduction)


def _soft_margin_grad(grad, self, target, reduction):
    """PyTorch's soft_margin_loss_backward: target * z * -norm / (1 + z) * grad with
    z = exp(-target * input), rounded as there (NaN where z overflows, as there)."""
    z = (target * self).neg().exp()
    norm = 1.0 / self.numel() if reduction == 1 and self.numel() else 1.0
    return _fresh_contiguous(target * z * -norm / (z + 1) * grad)


def _soft_margin_loss_functional(self, target, size_average, reduce, reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    _no_grad_for("soft_margin_loss", target=target)
    return OPS["_soft_margin_loss"].call(self, target, reduction)


def _multilabel_soft_margin_loss(self, target, weight, size_average, reduce, reduction):
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * _log_sigmoid(self) + (1 - target) * _log_sigmoid(-self))
    if weight is not None:
        loss = loss * weight
    class_dim = self.ndim - 1
    loss = loss.sum(class_dim) / self.size(class_dim)
    return _reduce_named(loss, reduction)


# -- multi-class margin losses -------------------------------------------------------------

def _margin_frames(self):
    """(rows, classes) of a (C) or (N, C) input (a 0-dim input is one row of one class)."""
    nd = self.ndim
    if not ((nd == 2 and self.shape[1]) or (nd == 1 and self.shape[0]) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {_shape_of(self.shape)}")
    if nd <= 1:
        return 1, (self.shape[0] if nd else 1)
    return self.shape[0], self.shape[1]


def _check_long(target):
    if target.dtype is not D.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target.dtype)}")


def _multilabel_parts(self, target):
    """Per row of x (N, C): z[n, j, i] = 1 - x[target j] + x[i], the mask of the (j, i)
    pairs counted (j a target class, i not one: a row's target classes are its entries
    before the first -1) and the targets' one-hot (N, J, C)."""
    import mindtorch as M
    n, c = _margin_frames(self)
    x = self.reshape(n, c)
    t = target.reshape(n, c)
    valid = (t == -1).cumsum(1) == 0
    safe = t.masked_fill(valid.logical_not(), 0)
    onehot = (safe.unsqueeze(2) == M.arange(c, device=self.device)).logical_and(
        valid.unsqueeze(2))
    z = 1 - x.gather(1, safe).unsqueeze(2) + x.unsqueeze(1)
    counted = valid.unsqueeze(2).logical_and(onehot.any(1).logical_not().unsqueeze(1))
    return z, counted, onehot


def _per_row(grad, reduction, n, c):
    """The output gradient of each row of a margin loss, as (N, 1), with the 1/C (and the
    mean's 1/N) of the loss."""
    per_row = grad.reshape(-1, 1) / c
    return per_row / n if reduction == 1 else per_row


def _multilabel_margin_loss(self, target, reduction):
    """sum over target classes j and other classes i of max(0, 1 - x[j] + x[i]) / C."""
    import mindtorch as M
    n, c = _margin_frames(self)
    if self.ndim <= 1:
        ok = target.ndim <= 1 and target.numel() == c
    else:
        ok = target.ndim == 2 and tuple(target.shape) == (n, c)
    if not ok:
        raise RuntimeError(f"inconsistent target size: {_shape_of(target.shape)} for input of "
                           f"size: {_shape_of(self.shape)}")
    _floating("multilabel_margin_loss_forward_out_frame", self, dtypes=_SINGLE_DOUBLE)
    _check_long(target)
    if _first_bad(target, (target < -1).logical_or(target >= c)) is not None:
        raise RuntimeError("argument #2 'target' is out of range")
    z, counted, _ = _multilabel_parts(self, target)
    loss = M.where(counted, z.clamp_min(0), 0).sum((1, 2)) / c
    if self.ndim <= 1:
        loss = loss.reshape(())
    return _reduce(loss.to(self.dtype), reduction)


def _multilabel_margin_grad(grad, self, target, reduction):
    z, counted, onehot = _multilabel_parts(self, target)
    n, _, c = z.shape
    active = (z > 0).logical_and(counted).to(grad.dtype)          # (N, J, I)
    # +1 for each counted pair a class is the `i` of, -1 for each it is the target of
    g = active.sum(1) - (onehot.to(grad.dtype) * active.sum(2).unsqueeze(2)).sum(1)
    return (g * _per_row(grad, reduction, n, c)).reshape(self.shape)


def _multilabel_margin_loss_functional(self, target, size_average, reduce, reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    return OPS["_multilabel_margin_loss"].call(self, target, reduction)


def _multi_margin_parts(self, target, margin, weight):
    """Per row, the terms max(0, margin - x[y] + x[i]) (squared for p=2) for i != y, times
    weight[y]; also the mask of counted terms and the target's one-hot."""
    import mindtorch as M
    n, c = _margin_frames(self)
    x = self.reshape(n, c)
    t = target.reshape(n, 1)
    z = margin - x.gather(1, t) + x
    other = M.arange(c, device=self.device) != t
    active = (z > 0).logical_and(other)
    w = weight.take(t) if weight is not None else None
    return x, t, z, active, w


def _multi_margin_loss(self, target, p, margin, weight, reduction):
    import mindtorch as M
    n, c = _margin_frames(self)
    if target.ndim > 1 or target.numel() != n:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal "
                           f"to the number of input samples (batch size). Expected target "
                           f"size [{n}], but got {_shape_of(target.shape)}. Input has shape "
                           f"{_shape_of(self.shape)}.")
    if weight is not None and (weight.ndim > 1 or weight.numel() != c):
        raise RuntimeError(f"inconsistent weight size, expected {c} but got "
                           f"{_shape_of(weight.shape)}")
    if not self.numel():  # PyTorch returns before its kernel (unwritten: zeros here)
        shape = (n,) if reduction == 0 and target.ndim else ()
        return M.zeros(shape, dtype=self.dtype, device=self.device)
    # its kernel's dtype first, then the target's and weight's data types it reads
    _floating("multi_margin_loss_cpu_kernel", self, dtypes=_SINGLE_DOUBLE)
    _check_long(target)
    if weight is not None and weight.dtype is not self.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(weight.dtype)}")
    if _first_bad(target, (target < 0).logical_or(target >= c)) is not None:
        raise RuntimeError("target out of range")
    x, t, z, active, w = _multi_margin_parts(self, target, margin, weight)
    terms = M.where(active, z if p == 1 else z * z, 0)
    if w is not None:
        terms = terms * w
    loss = (terms.sum(1) / c).reshape(target.shape).to(self.dtype)
    return _reduce(loss, reduction)


def _multi_margin_grad(grad, self, target, p, margin, weight, reduction):
    x, t, z, active, w = _multi_margin_parts(self, target, margin, weight)
    n, c = x.shape
    g = active.to(grad.dtype) if p == 1 else 2 * z * active
    if w is not None:
        g = g * w
    g = g.scatter(1, t, -g.sum(1, keepdim=True))  # the target's own entry: minus the rest
    return (g * _per_row(grad, reduction, n, c)).reshape(self.shape)


def _multi_margin_loss_functional(self, target, p, margin, weight, size_average, reduce,
                                  reduction):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    _no_grad_for("multi_margin_loss", weight=weight)
    return OPS["_multi_margin_loss"].call(self, target, p, margin, weight, reduction)


# -- declarations --------------------------------------------------------------------------

_PAIRS = "Tensor input1, Tensor input2, Tensor target"
_TRIPLETS = "Tensor anchor, Tensor positive, Tensor negative"

# the tables loss_shared.declare_tables reads (see loss.py's)
_FUNCTIONAL = {
    "functional_hinge_embedding_loss": (f"float margin=1.0, {_LEGACY}",
                                        _hinge_embedding_loss_functional),
    "soft_margin_loss": (_LEGACY, _soft_margin_loss_functional),
    "multilabel_soft_margin_loss": (f"Tensor? weight=None, {_LEGACY}",
                                    _multilabel_soft_margin_loss),
    "multilabel_margin_loss": (_LEGACY, _multilabel_margin_loss_functional),
    "multi_margin_loss": (f"Scalar p=1, float margin=1.0, Tensor? weight=None, {_LEGACY}",
                          _multi_margin_loss_functional),
}

# F-only too, with their own tensor arguments (not self, target)
_FUNCTIONAL_INPUTS = {
    "functional_margin_ranking_loss": (f"{_PAIRS}, float margin=0, {_LEGACY}",
                                       _margin_ranking_loss_functional),
    "functional_cosine_embedding_loss": (f"{_PAIRS}, float margin=0, {_LEGACY}",
                                         _cosine_embedding_loss_functional),
    "functional_triplet_margin_loss": (f"{_TRIPLETS}, Scalar margin=1.0, float p=2, "
                                       f"float eps=1e-06, bool swap=False, {_LEGACY}",
                                       _triplet_margin_loss_functional),
}

_ATEN = {
    "hinge_embedding_loss": ("Tensor self, Tensor target, float margin=1.0, int reduction=0",
                             _hinge_embedding_loss),
    "margin_ranking_loss": (f"{_PAIRS}, float margin=0.0, int reduction=0",
                            _margin_ranking_loss),
    "cosine_embedding_loss": (f"{_PAIRS}, float margin=0.0, int reduction=0",
                              _cosine_embedding_loss),
    "triplet_margin_loss": (f"{_TRIPLETS}, float margin=1.0, float p=2, float eps=1e-06, "
                            f"bool swap=False, int reduction=0", _triplet_margin_loss),
}

_NAMED = {
    "_soft_margin_loss": ("Tensor self, Tensor target, int reduction", _soft_margin_loss),
    "_multilabel_margin_loss": ("Tensor self, Tensor target, int reduction",
                                _multilabel_margin_loss),
    "_multi_margin_loss": ("Tensor self, Tensor target, Scalar p, Scalar margin, "
                           "Tensor? weight, int reduction", _multi_margin_loss),
}


def _declare():
    declare_tables(_FUNCTIONAL, _ATEN, _NAMED)
    for name, (args, fn) in _FUNCTIONAL_INPUTS.items():
        define(f"{name}({args}) -> Tensor", decomposition=fn, **_F_ONLY)


def _derivatives():
    refuse_complex_autograd("_soft_margin_loss")  # (PyTorch has no complex formula)
    derivative(OPS["_soft_margin_loss"], self=renamed(_soft_margin_grad),
               target=_refused("soft_margin_loss", "target"))
    # (PyTorch's backward ops of these have no derivative, so double backward raises there;
    # here it gives the formulas' derivative)
    derivative(OPS["_multilabel_margin_loss"], self=backward_op(_multilabel_margin_grad))
    derivative(OPS["_multi_margin_loss"], self=backward_op(_multi_margin_grad),
               weight=_refused("multi_margin_loss", "weight"))


_declare()
_derivatives()
