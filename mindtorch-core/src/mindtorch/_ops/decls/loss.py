"""Loss functions, in PyTorch's two layers.

- torch.nn.functional's functions (`nll_loss`, `mse_loss`, ...; `functional_<name>` where
  `torch.<name>` also exists): the legacy size_average/reduce arguments (mapped to a
  reduction with PyTorch's deprecation warning), reduction strings, broadcasting and the
  checks PyTorch makes in Python.  All are compositions.
- ATen's ops, with an int reduction (0 none, 1 mean, 2 sum): `torch.kl_div` & co. as
  PyTorch's Python bindings expose them (their reduction defaults to 0 there), and the
  hidden ops (`_nll_loss`, `_mse_loss`, ...) whose backward PyTorch names
  (NllLossBackward0, MseLossBackward0, ...): those decompose into mindtorch ops and carry
  their own formula; the rest are differentiable through their decompositions.

Every check is metadata-only except where PyTorch's CPU kernels look at values (class
targets out of bounds, BCE inputs outside [0, 1], negative variances): those run only on
devices that hold data.  The margin and embedding losses live in loss_margin.py; what the
loss modules share (reductions, checks, declare_tables) in loss_shared.py.
"""
import math

from ... import _dtype as D
from ... import _promotion
from ..._memory_format import restrided
from ..._strides import preserve_strides
from ...autograd._backward_ops import backward_op, renamed
from ..registry import OPS, derivative, overload
from ._helpers import has_data as _has_data
from .loss_shared import (  # (_reduce: also mindtorch_cpu's loss kernels' L._reduce)
    _EPSILON, _LEGACY, _broadcast, _class_view, _enum, _first_bad, _floating,
    _fresh_contiguous, _into, _legacy,
    _log_sigmoid, _mean_scale, _no_grad_for, _not_implemented, _reduce, _reduce_named,
    _reduction, _refused, _shape_of, _size_warning, _type_name, _warn, _xlogx, declare_tables,
)


# -- nll_loss and cross_entropy ------------------------------------------------------------

def _nll_checks(self, target, weight):
    """ATen's nll_loss / nll_loss2d checks (inputs of 1, 2 or 4 dims)."""
    ndim, target_ndim = len(self._shape), len(target._shape)  # (on every loss's path)
    n_classes = self._shape[0 if ndim == 1 else 1]
    if ndim == 4:
        if target_ndim != 3:
            raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but "
                               f"got targets of dimension: {target.ndim}")
        if weight is not None and weight.numel() != n_classes:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        if (self.shape[0], self.shape[2], self.shape[3]) != tuple(target.shape):
            raise RuntimeError(f"size mismatch (got input: {_shape_of(self.shape)} , target: "
                               f"{_shape_of(target.shape)}")
    elif target_ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dtype is not D.int64 and target.dtype is not D.uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_type_name(target.dtype)}")
    if ndim != 4 and weight is not None and (weight.ndim != 1 or
                                             weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} "
                           f"classes or no classes but got weight tensor of shape: "
                           f"{_shape_of(weight.shape)}")
    if not self.dtype.is_floating_point:
        frame = "nll_loss2d_forward_out_frame" if ndim == 4 else "nll_loss_out_frame"
        raise _not_implemented(frame, self.dtype)
    if weight is not None and weight.dtype is not self.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(self.dtype)} but found "
                           f"{_type_name(weight.dtype)}")
    return n_classes


def _nll_parts(target, weight, ignore_index, dtype, n_classes):
    """(valid, safe targets as int64 with ignored ones at 0, each target's weight with 0
    for ignored ones): what nll_loss's forward and backward share."""
    valid = target != ignore_index
    safe = target.long().masked_fill(valid.logical_not(), 0)
    if weight is None or not n_classes:
        w = valid.to(dtype)
    else:
        w = weight.take(safe).masked_fill(valid.logical_not(), 0)
    return valid, safe, w


def _nll_loss(self, target, weight, reduction, ignore_index):
    """-input[target] (times the target's weight) over inputs (C), (N, C) or (N, C, H, W);
    'mean' divides by the summed weights of the targets not ignored."""
    import mindtorch as M
    n_classes = _nll_checks(self, target, weight)
    v = _first_bad(target, (target != ignore_index).logical_and(
        (target < 0).logical_or(target >= n_classes)))
    if v is not None:
        raise IndexError(f"Target {v} is out of bounds.")
    valid, safe, w = _nll_parts(target, weight, ignore_index, self.dtype, n_classes)
    if not n_classes:  # only ignored targets can get here
        picked = self.new_zeros(target.shape)
    elif self.ndim == 1:
        picked = self.gather(0, safe.reshape(-1)).reshape(())
        valid, w = valid.reshape(()), w.reshape(())
    else:
        picked = self.gather(1, safe.unsqueeze(1)).squeeze(1)
    loss = M.where(valid, -picked * w, 0).to(self.dtype)
    if reduction == 0:
        return loss
    if reduction == 2:
        return loss.sum()
    return loss.sum() / w.sum()


def _nll_loss_grad(grad, self_geometry, target, weight, reduction, ignore_index):
    import mindtorch as M
    shape = self_geometry[0]
    n_classes = shape[0 if len(shape) == 1 else 1]
    zeros = grad.new_zeros(shape)
    if not n_classes:
        return zeros
    valid, safe, w = _nll_parts(target, weight, ignore_index, grad.dtype, n_classes)
    if len(shape) == 1:
        valid, w, safe = valid.reshape(()), w.reshape(()), safe.reshape(1)
    coef = -w * grad
    if reduction == 1:  # (ignored targets get 0, not 0 / 0 when all are ignored)
        coef = coef / w.sum()
    coef = M.where(valid, coef, 0).to(grad.dtype)
    if len(shape) == 1:
        return zeros.scatter(0, safe, coef.reshape(1))
    return zeros.scatter(1, safe.unsqueeze(1), coef.unsqueeze(1))


def _nll_loss_nd(self, target, weight, reduction, ignore_index):
    """ATen's nll_loss_nd: inputs of any rank; 3 or more than 4 dims go through the 4-dim
    form, as (N, C, 1, -1)."""
    shape, tshape = self._shape, target._shape  # (the hot path of every classifier's loss)
    ndim = len(shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    batch = tshape[0] if tshape else 0
    if ndim != 1 and shape[0] != batch:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({batch}).")
    if ndim == 1 and len(tshape) == 1 and batch != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{batch}")
    if weight is not None:
        _no_grad_for("nll_loss_forward", weight=weight)
    nll = OPS["_nll_loss"].call
    if ndim <= 2 or ndim == 4:
        return nll(self, target, weight, reduction, ignore_index)
    n, c = self.shape[:2]
    out_size = (n,) + tuple(self.shape[2:])
    if tuple(target.shape[1:]) != tuple(self.shape[2:]):
        raise RuntimeError(f"Expected target size {list(out_size)}, got "
                           f"{_shape_of(target.shape)}")
    x = self.reshape(n, c, 1, -1) if self.numel() else self.reshape(n, c, 0, 0)
    t = target.reshape(n, 1, -1) if target.numel() else target.reshape(n, 0, 0)
    out = nll(x, t, weight, reduction, ignore_index)
    return out if reduction != 0 else out.view(out_size)


def _nll_loss_functional(self, target, weight, size_average, ignore_index, reduce, reduction):
    reduction = _reduction(size_average, reduce, reduction)
    return _nll_loss_nd(self, target, weight, _enum(reduction), ignore_index)


def _cross_entropy(self, target, weight, size_average, ignore_index, reduce, reduction,
                   label_smoothing):
    """log_softmax over the class dim, then nll_loss (class targets, optionally smoothed)
    or the product with the target (class probabilities, when the shapes agree)."""
    reduction = _enum(_reduction(size_average, reduce, reduction))
    cdim = 0 if len(self._shape) == 1 else 1
    if self._shape == target._shape:
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class "
                               f"probabilities, got {_type_name(target.dtype)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probs(self, target, weight, reduction, label_smoothing, cdim)
    if label_smoothing > 0:
        _check_smoothing(label_smoothing)
        return _cross_entropy_smoothed(self, target, weight, reduction, ignore_index,
                                       label_smoothing, cdim)
    return _nll_loss_nd(self.log_softmax(cdim), target, weight, reduction, ignore_index)


def _counted_weights(weight, target, ignored):
    """The weights of the targets not ignored, as ATen gathers them (only those: their sum's
    order is the sum of that many; on meta, where a selection's size is unknown, all)."""
    if target.device.type == "meta":
        return weight.take(target.long().masked_fill(ignored, 0))
    return weight.take(target[ignored.logical_not()].long())


def _check_smoothing(label_smoothing):
    if label_smoothing > 1:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")


def _cross_entropy_probs(self, target, weight, reduction, label_smoothing, cdim):
    n_classes = self.size(cdim)
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{n_classes} classes or no classes but got weight tensor of "
                           f"shape: {_shape_of(weight.shape)}")
    logp = self.log_softmax(cdim)
    if label_smoothing > 0:
        _check_smoothing(label_smoothing)
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        prod = prod * _class_view(weight, logp.ndim, cdim)
    if reduction == 0:
        return -prod.sum(cdim)
    if reduction == 2:
        return -prod.sum()
    rows = self.numel() // n_classes if n_classes else 0
    return -prod.sum() / rows if rows else -prod.sum() * math.nan


def _cross_entropy_smoothed(self, target, weight, reduction, ignore_index, label_smoothing,
                            cdim):
    logp = self.log_softmax(cdim)
    nll = _nll_loss_nd(logp, target, weight, reduction, ignore_index)
    n_classes = logp.shape[cdim]
    if weight is not None:
        smooth = -(logp * _class_view(weight, logp.ndim, cdim)).sum(cdim)
    else:
        smooth = -logp.sum(cdim)
    ignored = target == ignore_index
    smooth = smooth.masked_fill(ignored, 0)
    if reduction == 1:
        if weight is not None:
            smooth = smooth.sum() / _counted_weights(weight, target, ignored).sum()
        else:
            smooth = smooth.sum() / ignored.logical_not().sum()
    elif reduction == 2:
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / n_classes)


# -- pointwise regression losses -----------------------------------------------------------

def _diff(self, target):
    """self - target in their common dtype, as PyTorch's loss kernels subtract (so a bool
    operand is promoted rather than refused)."""
    dt = _promotion.result_type(self, target)
    return self.to(dt) - target.to(dt)


def _mse_loss(self, target, reduction):
    _floating("mse_cpu", self, target)
    diff = _diff(self, target)
    return _reduce(diff * diff, reduction)


def _like_input(result, input):
    """A result PyTorch's kernel writes into empty_like(input) (laid out as input)."""
    return restrided(result, preserve_strides(input._shape, input._stride))


def _mse_grad(grad, self, target, reduction):
    # PyTorch's kernel: norm * diff * grad, norm = 2 / n (mean) or 2 in the inputs' dtype
    diff = _diff(self, target)
    norm = 2 / diff.numel() if reduction == 1 and diff.numel() else 2.0
    return _fresh_contiguous(diff * diff.new_full((), norm) * grad)


def _smooth_l1_loss(self, target, reduction, beta):
    import mindtorch as M
    if not beta >= 0:  # (NaN refused too, as ATen's TORCH_CHECK(beta >= 0))
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _floating("smooth_l1_cpu", self, target)
    d = _diff(self, target).abs()
    return _reduce(M.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def _smooth_l1_grad(grad, self, target, reduction, beta):
    import mindtorch as M
    diff = _diff(self, target)
    slope = M.where(diff.abs() < beta, diff / beta, diff.sign())
    return _fresh_contiguous(_mean_scale(slope * grad, reduction, diff.numel()))


def _huber_loss(self, target, reduction, delta):
    """PyTorch writes the loss into a tensor of self's dtype."""
    import mindtorch as M
    if not delta > 0:  # (NaN refused too)
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _floating("huber_cpu", self, target)
    common = _promotion.result_type(self, target)
    if not _promotion.can_cast(common, self.dtype):  # (PyTorch writes into self's dtype)
        raise RuntimeError(f"result type {_type_name(common)} can't be cast to the desired "
                           f"output type {_type_name(self.dtype)}")
    d = _diff(self, target).abs()
    loss = _into(self, M.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)))
    return _reduce(loss, reduction)


def _huber_grad(grad, self, target, reduction, delta):
    """diff clamped to [-delta, delta], written so that its own derivative is PyTorch's
    double backward (1 where |diff| < delta strictly; clamp's would include the ends)."""
    import mindtorch as M
    diff = _diff(self, target)
    slope = M.where(diff.abs() < delta, diff, delta * diff.sign())
    return _fresh_contiguous(_mean_scale(slope * grad, reduction, diff.numel()))


def _check_weight(self, weight):
    """PyTorch checks the weight's size before it computes the unweighted loss."""
    if weight is not None and tuple(weight.shape) != tuple(self.shape):
        raise ValueError("Weights and input must have the same size.")


def _weighted(loss, self, weight, reduction, mean):
    """The weighted forms of mse/l1/huber_loss, which PyTorch composes in Python."""
    loss = loss * weight
    if reduction == "mean":
        return loss.sum() / weight.sum() if mean == "weights" else loss.mean()
    return _reduce_named(loss, reduction, "Invalid reduction mode: {}. Expected one of "
                                          "'none', 'mean', 'sum'.")


def _mse_loss_functional(self, target, size_average, reduce, reduction, weight):
    _size_warning(self, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, y = _broadcast(self, target)
    _check_weight(self, weight)
    if weight is not None:
        return _weighted((x - y).pow(2), self, weight, reduction, "weights")
    return OPS["_mse_loss"].call(x, y, _enum(reduction))


def _l1(x, y, reduction):
    return _reduce((x - y).abs(), _enum(reduction))


def _l1_loss_functional(self, target, size_average, reduce, reduction, weight):
    _size_warning(self, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, y = _broadcast(self, target)
    _check_weight(self, weight)
    if weight is not None:
        return _weighted((x - y).abs(), self, weight, reduction, "weights")
    return _l1(x, y, reduction)


def _smooth_l1_loss_functional(self, target, size_average, reduce, reduction, beta):
    _size_warning(self, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, y = _broadcast(self, target)
    if beta == 0:  # PyTorch's l1_loss then
        return _l1(x, y, reduction)
    return OPS["_smooth_l1_loss"].call(x, y, _enum(reduction), beta)


def _huber_loss_functional(self, target, reduction, delta, weight):
    _size_warning(self, target)
    x, y = _broadcast(self, target)
    _check_weight(self, weight)
    if weight is None:
        return OPS["_huber_loss"].call(x, y, _enum(reduction), delta)
    return _weighted(OPS["_huber_loss"].call(x, y, 0, delta), self, weight, reduction, "mean")


# -- binary cross entropy ------------------------------------------------------------------

def _binary_cross_entropy(self, target, weight, reduction):
    """-(t log x + (1 - t) log(1 - x)), each log clamped at -100 as PyTorch's."""
    if target.dtype is not self.dtype:  # (checked before the dtype's support, as PyTorch)
        raise RuntimeError(f"Found dtype {_type_name(target.dtype)} but expected "
                           f"{_type_name(self.dtype)}")
    _floating("binary_cross_entropy", self)
    _check_unit_interval(self, target)
    log_x = self.log().clamp(min=-100)
    log_1mx = (-self).log1p().clamp(min=-100)  # (PyTorch's log1p(-x): no rounding of 1 - x)
    loss = _into(self, (target - 1) * log_1mx - target * log_x)
    if weight is not None:
        loss = _into(loss, loss * weight)
    return _reduce(_like_input(loss, self), reduction)


def _check_unit_interval(self, target):
    """PyTorch's kernel checks input, then target, element by element (NaN refused): the
    first element outside [0, 1] of either names its tensor."""
    if not self.numel() or not _has_data(self):
        return
    x, t = _broadcast(self, target)
    bad_x = ((x >= 0).logical_and(x <= 1)).logical_not().reshape(-1)
    bad_t = ((t >= 0).logical_and(t <= 1)).logical_not().reshape(-1)
    either = bad_x.logical_or(bad_t)
    if either.any().item():
        first = either.to(D.uint8).argmax().item()
        name = "input" if bad_x[first].item() else "target"
        raise RuntimeError(f"all elements of {name} should be between 0 and 1")


def _bce_self_grad(grad, self, target, weight, reduction):
    g = grad * (self - target) / ((1 - self) * self).clamp(min=_EPSILON)
    if weight is not None:
        g = g * weight
    return _like_input(_mean_scale(g, reduction, self.numel()), self)


def _bce_target_grad(grad, self, target, weight, reduction):
    g = ((-self).log1p() - self.log()) * grad  # -logit(self)
    if weight is not None:
        g = g * weight
    return _mean_scale(g, reduction, self.numel())


def _binary_cross_entropy_functional(self, target, weight, size_average, reduce, reduction):
    import mindtorch as M  # (its broadcast_shapes: PyTorch's message)
    reduction = _enum(_reduction(size_average, reduce, reduction))
    if tuple(target.shape) != tuple(self.shape):
        raise ValueError(f"Using a target size ({target.size()}) that is different to the "
                         f"input size ({self.size()}) is deprecated. Please ensure they have "
                         f"the same size.")
    if weight is not None:
        weight = weight.expand(M.broadcast_shapes(target.shape, weight.shape))
    _no_grad_for("binary_cross_entropy", weight=weight)
    return OPS["_binary_cross_entropy"].call(self, target, weight, reduction)


def _bce_with_logits(self, target, weight, pos_weight, reduction):
    """(1 - t) x - log(sigmoid(x)) (its log term scaled by 1 + (pos_weight - 1) t), as
    PyTorch computes it: in place into (1 - target), so the loss has target's dtype."""
    log_sig = _log_sigmoid(self)
    if pos_weight is not None:
        log_sig = _into(log_sig, log_sig * ((pos_weight - 1) * target + 1))
    # (PyTorch subtracts target from a tensor of ones: a bool target fails as two bools)
    one_minus = (target.new_ones(()) if target.dtype is D.bool else 1) - target
    loss = _into(one_minus, one_minus * self)
    loss = _into(loss, loss - log_sig)
    if weight is not None:
        loss = _into(loss, loss * weight)
    return _reduce(loss, reduction)


def _bce_logits_self_grad(grad, self, target, weight, pos_weight, reduction):
    if pos_weight is not None:
        t = pos_weight * target
        g = (t + 1 - target) * self.sigmoid() - t
    else:
        g = self.sigmoid() - target
    g = g * grad
    if weight is not None:
        g = g * weight
    return _mean_scale(g, reduction, self.numel())


def _bce_logits_target_grad(grad, self, target, weight, pos_weight, reduction):
    if pos_weight is not None:
        g = _log_sigmoid(-self) - _log_sigmoid(self) * pos_weight
    else:
        g = -self
    g = g * grad
    if weight is not None:
        g = g * weight
    return _mean_scale(g, reduction, self.numel())


def _bce_with_logits_functional(self, target, weight, size_average, reduce, reduction,
                                pos_weight):
    reduction = _enum(_reduction(size_average, reduce, reduction))
    if tuple(target.shape) != tuple(self.shape):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({self.size()})")
    _no_grad_for("binary_cross_entropy_with_logits", weight=weight, pos_weight=pos_weight)
    return OPS["binary_cross_entropy_with_logits"].call(self, target, weight, pos_weight,
                                                        reduction)


# -- distribution losses -------------------------------------------------------------------

def _kl_div(self, target, reduction, log_target):
    if self.dtype.is_complex or target.dtype.is_complex:
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not (self.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - self)
    else:
        loss = _xlogx(target) - target * self
    return _reduce(loss, reduction)


_KL_MEAN = ("reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.")


def _kl_div_functional(self, target, size_average, reduce, reduction, log_target):
    if size_average is not None or reduce is not None:
        enum = _enum(_legacy(size_average, reduce))
    else:
        if reduction == "mean":
            _warn(_KL_MEAN)
        enum = 2 if reduction == "batchmean" else _enum(reduction)
    loss = OPS["kl_div"].call(self, target, enum, log_target)
    if reduction == "batchmean" and self.ndim:
        loss = loss / self.shape[0]
    return loss


def _poisson_nll_loss(self, target, log_input, full, eps, reduction):
    if log_input:
        loss = self.exp() - target * self
    else:
        loss = self - target * (self + eps).log()
    if full:  # Stirling's approximation of log(target!), for targets above 1, added in
        # place (PyTorch's `loss +=`: the loss keeps its dtype)
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = _into(loss, loss + stirling.masked_fill(target <= 1, 0))
    return _reduce(loss, reduction)


def _poisson_nll_loss_functional(self, target, log_input, full, size_average, eps, reduce,
                                 reduction):
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return OPS["poisson_nll_loss"].call(self, target, log_input, full, eps, _enum(reduction))


def _gaussian_nll_loss(self, target, var, full, eps, reduction):
    import mindtorch as M
    if not isinstance(var, M.Tensor):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * M.ones_like(self)
    elif _first_bad(var, var < 0) is not None:
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(self.shape):
        if tuple(self.shape[:-1]) == tuple(var.shape):  # one variance per row
            var = var.unsqueeze(-1)
        elif not (self.ndim == var.ndim and
                  sum(v for s, v in zip(self.shape, var.shape) if s != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with M.no_grad():  # clamped for stability; the gradient passes as if it were not
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (self - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce_named(loss, reduction)


# -- declarations --------------------------------------------------------------------------

# name: (arguments after `Tensor self, Tensor target`, decomposition), all F-only
_FUNCTIONAL = {
    "cross_entropy": ("Tensor? weight=None, bool? size_average=None, int ignore_index=-100, "
                      "bool? reduce=None, str reduction='mean', float label_smoothing=0.0",
                      _cross_entropy),
    "nll_loss": ("Tensor? weight=None, bool? size_average=None, int ignore_index=-100, "
                 "bool? reduce=None, str reduction='mean'", _nll_loss_functional),
    "mse_loss": (f"{_LEGACY}, Tensor? weight=None", _mse_loss_functional),
    "l1_loss": (f"{_LEGACY}, Tensor? weight=None", _l1_loss_functional),
    "smooth_l1_loss": (f"{_LEGACY}, float beta=1.0", _smooth_l1_loss_functional),
    "huber_loss": ("str reduction='mean', float delta=1.0, Tensor? weight=None",
                   _huber_loss_functional),
    "binary_cross_entropy": (f"Tensor? weight=None, {_LEGACY}",
                             _binary_cross_entropy_functional),
    "functional_binary_cross_entropy_with_logits": (f"Tensor? weight=None, {_LEGACY}, "
                                                    f"Tensor? pos_weight=None",
                                                    _bce_with_logits_functional),
    "functional_kl_div": (f"{_LEGACY}, bool log_target=False", _kl_div_functional),
    "functional_poisson_nll_loss": ("bool log_input=True, bool full=False, "
                                    "bool? size_average=None, float eps=1e-08, "
                                    "bool? reduce=None, str reduction='mean'",
                                    _poisson_nll_loss_functional),
    "gaussian_nll_loss": ("Tensor|Scalar var, bool full=False, float eps=1e-06, "
                          "str reduction='mean'", _gaussian_nll_loss),
}

# ATen's ops as torch.<name> exposes them: int reduction, defaulting to 0 ('none') there
_ATEN = {
    "binary_cross_entropy_with_logits": ("Tensor self, Tensor target, Tensor? weight=None, "
                                         "Tensor? pos_weight=None, int reduction=0",
                                         _bce_with_logits),
    "kl_div": ("Tensor self, Tensor target, int reduction=0, *, bool log_target=False",
               _kl_div),
    "poisson_nll_loss": ("Tensor self, Tensor target, bool log_input, bool full, float eps, "
                         "int reduction", _poisson_nll_loss),
}

# hidden ops with PyTorch's named backward nodes
_NAMED = {
    "_nll_loss": ("Tensor self, Tensor target, Tensor? weight, int reduction, "
                  "int ignore_index", _nll_loss),
    # _nll_loss's backward as one op, so a backend can fuse it (ATen's nll_loss_backward)
    "_nll_loss_backward": ("Tensor grad, Tensor target, Tensor? weight, int[] self_size, "
                           "int reduction, int ignore_index",
                           lambda grad, target, weight, size, reduction, ignore_index:
                           _nll_loss_grad(grad, (tuple(size),), target, weight, reduction,
                                          ignore_index)),
    "_mse_loss": ("Tensor self, Tensor target, int reduction", _mse_loss),
    "_smooth_l1_loss": ("Tensor self, Tensor target, int reduction, float beta",
                        _smooth_l1_loss),
    "_huber_loss": ("Tensor self, Tensor target, int reduction, float delta", _huber_loss),
    "_binary_cross_entropy": ("Tensor self, Tensor target, Tensor? weight, int reduction",
                              _binary_cross_entropy),
}


def _derivatives():
    derivative(OPS["_nll_loss"],
               self=backward_op(lambda grad, self_geometry, target, weight, reduction,
                                ignore_index: OPS["_nll_loss_backward"].call(
                                    grad, target, weight, self_geometry[0], reduction,
                                    ignore_index)),
               weight=_refused("nll_loss_forward", "weight"),
               name=lambda self, target, weight, reduction, ignore_index:
               "NllLoss2DBackward0" if len(self._shape) == 4 else "NllLossBackward0")
    # (renamed: under create_graph PyTorch's gradients show MseLossBackwardBackward0, ...)
    derivative(OPS["_mse_loss"], self=renamed(_mse_grad),
               target=renamed(lambda grad, self, target, reduction:
                              -_mse_grad(grad, self, target, reduction)))
    derivative(OPS["_smooth_l1_loss"], self=renamed(_smooth_l1_grad),
               target=renamed(lambda grad, self, target, reduction, beta:
                              -_smooth_l1_grad(grad, self, target, reduction, beta)))
    derivative(OPS["_huber_loss"], self=renamed(_huber_grad),
               target=renamed(lambda grad, self, target, reduction, delta:
                              -_huber_grad(grad, self, target, reduction, delta)))
    derivative(OPS["_binary_cross_entropy"], self=renamed(_bce_self_grad),
               target=_bce_target_grad,
               weight=_refused("binary_cross_entropy", "weight"))
    name = "binary_cross_entropy_with_logits"
    derivative(OPS[name], self=_bce_logits_self_grad, target=_bce_logits_target_grad,
               weight=_refused(name, "weight"), pos_weight=_refused(name, "pos_weight"))


def _bce_logits_public(binding):
    """torch.binary_cross_entropy_with_logits refuses, when recording, a weight or
    pos_weight requiring grad (PyTorch's check at the call, not at backward)."""
    def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None,
                                         *args, **kwargs):
        _no_grad_for("binary_cross_entropy_with_logits", weight=weight,
                     pos_weight=pos_weight)
        return binding(self, target, weight, pos_weight, *args, **kwargs)
    return binary_cross_entropy_with_logits


declare_tables(_FUNCTIONAL, _ATEN, _NAMED)
overload(OPS["binary_cross_entropy_with_logits"], _bce_logits_public)
_derivatives()
