"""The connectionist temporal classification loss: torch.ctc_loss (ATen's two overloads,
lengths as tensors or as int lists, an int reduction: PyTorch's binding defaults it to 0,
'none', as kl_div's) and
nn.functional.ctc_loss (a reduction string), after loss.py's conventions.

The loss decomposes into mindtorch ops around one op, `_ctc_nll` (-log p(target | input)):
its decomposition is the forward (alpha) recursion of Graves et al. in log space, one step
per time, vectorised over the batch and the positions of the extended label sequence
(blank, l1, blank, l2, ..., blank); its gradient op `_ctc_nll_backward` decomposes into
autograd through that recursion, so a backend may give either op a kernel (the cpu
backend's run the alpha and beta recursions).
PyTorch's backward is ATen's analytical formula, which is not the derivative of the loss
with respect to log_probs alone: it adds exp(log_probs) (so the gradient is the one with
respect to logits whose log_softmax log_probs is) and gives NaN where a loss is infinite.
Terms of value zero reproduce both (`_torch_gradient`).
"""
import math

from ... import _dtype as D
from ..registry import OPS, define, derivative, overload
from ._helpers import has_data as _has_data
from .loss_shared import _F_ONLY, _HIDDEN, _TORCH_ONLY, _enum, _floating

_ALLOCATE = "(while checking arguments for ctc_loss_allocate_outputs)"
_SIGNATURE = ("ctc_loss() received an invalid combination of arguments - got ({}), but "
              "expected one of:\n * (Tensor log_probs, Tensor targets, tuple of ints "
              "input_lengths, tuple of ints target_lengths, int blank = 0, int reduction = "
              "at::Reduction::Mean, bool zero_infinity = False)\n * (Tensor log_probs, "
              "Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, "
              "int reduction = at::Reduction::Mean, bool zero_infinity = False)\n")


# -- arguments -----------------------------------------------------------------------------

def _lengths(lengths, name, device):
    """(int64 tensor on device, its values as a list or None when the device holds no
    data): lengths given as a tensor (any shape, flattened, as ATen) or as ints."""
    import mindtorch as M
    if isinstance(lengths, M.Tensor):
        flat = _integral(lengths, name).reshape(-1).long()
        return flat.to(device), flat.tolist() if _has_data(flat) else None
    values = [int(v) for v in lengths]
    return M.tensor(values, dtype=D.int64, device=device), values


def _integral(lengths, name):
    if lengths.dtype.is_floating_point or lengths.dtype.is_complex or lengths.dtype is D.bool:
        raise RuntimeError(f"{name} must be integral")
    return lengths


def _check(log_probs, targets, lengths, il, tl, blank):
    """ATen's checks, in its order (on values only where the lengths are known)."""
    if not log_probs.numel():
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.ndim}-"
                           f"dimensional tensor for argument #1 'log_probs' {_ALLOCATE}")
    if targets.ndim not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional "
                           f"tensor for argument #2 'targets' {_ALLOCATE}")
    n, classes = log_probs.shape[1], log_probs.shape[2]
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    for name, t in zip(("input_lengths", "target_lengths"), lengths):
        if t.shape[0] != n:
            raise RuntimeError(f"{name} must be of size batch_size")
    if targets.ndim == 2:
        _size(targets, 0, n)
    if tl is not None:
        for v in tl:
            if v < 0:
                raise RuntimeError(f"Expected target_lengths to have value at least 0, but "
                                   f"got value {v} {_ALLOCATE}")
        if targets.ndim == 1:
            _size(targets, 0, sum(tl))
        elif targets.shape[1] < max(tl, default=0):
            raise RuntimeError(f"Expected tensor to have size at least {max(tl)} at "
                               f"dimension 1, but got size {targets.shape[1]} for "
                               f"argument #2 'targets' {_ALLOCATE}")
    for v in il or ():
        if v < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {v} {_ALLOCATE}")
        if v > log_probs.shape[0]:
            raise RuntimeError(f"Expected input_lengths to have value at most "
                               f"{log_probs.shape[0]}, but got value {v} {_ALLOCATE}")


def _size(targets, dim, size):
    if targets.shape[dim] != size:
        raise RuntimeError(f"Expected tensor to have size {size} at dimension {dim}, but got "
                           f"size {targets.shape[dim]} for argument #2 'targets' {_ALLOCATE}")


# -- the recursion -------------------------------------------------------------------------

def _labels(targets, tl, tl_values, blank, device):
    """(N, S) targets, positions past each target's length set to blank; S is the longest
    target (an upper bound where the lengths are unknown)."""
    import mindtorch as M
    n = tl.shape[0]
    if targets.ndim == 2:
        s = targets.shape[1] if tl_values is None else max(tl_values, default=0)
        labels = targets[:, :s].long().to(device)
    else:  # concatenated: target b starts after the lengths of those before it
        s = targets.shape[0] if tl_values is None else max(tl_values, default=0)
        start = tl.cumsum(0) - tl
        index = start.unsqueeze(1) + M.arange(s, device=device)
        flat = targets.long().to(device)
        labels = flat.take(index.clamp(max=max(flat.numel() - 1, 0))) if flat.numel() else \
            M.zeros((n, s), dtype=D.int64, device=device)
    inside = M.arange(s, device=device) < tl.unsqueeze(1)
    return M.where(inside, labels, blank)


def _extended(labels, blank):
    """blank, l1, blank, l2, ..., blank: (N, 2S + 1)."""
    import mindtorch as M
    n, s = labels.shape
    ext = M.full((n, 2 * s + 1), blank, dtype=D.int64, device=labels.device)
    ext[:, 1::2] = labels
    return ext


def _logsumexp(x, dim):
    """logsumexp that is -inf with a zero gradient where every term is -inf (the reference
    point is detached: the result does not depend on it)."""
    import mindtorch as M
    m = x.detach().amax(dim)
    m = M.where(m == -math.inf, 0, m)
    s = (x - m.unsqueeze(dim)).exp().sum(dim)
    positive = s > 0
    return M.where(positive, M.where(positive, s, 1).log(), -math.inf) + m


def _negative_log_likelihood(lp, ext, il, tl):
    """-log p(target | input) per batch element, lp (T, N, C)."""
    import mindtorch as M
    t_max, n = lp.shape[0], lp.shape[1]
    width = ext.shape[1]
    emit = lp.gather(2, ext.unsqueeze(0).expand(t_max, n, width))  # (T, N, 2S + 1)
    # a position may follow the one two before it (skipping a blank) where their labels
    # differ (ATen's rule, which also lets a target equal to blank skip)
    skip = M.cat([M.zeros((n, 2), dtype=D.bool, device=lp.device), ext[:, 2:] != ext[:, :-2]],
                 1)[:, :width]
    pad = lp.new_full((n, 2), -math.inf)
    # alpha before the first step: the empty prefix, at position 0
    alpha = M.cat([lp.new_zeros((n, 1)), lp.new_full((n, width - 1), -math.inf)], 1)
    for t in range(t_max):
        padded = M.cat([pad, alpha], 1)
        before = M.where(skip, padded[:, :width], -math.inf)
        step = emit[t] + _logsumexp(M.stack([alpha, padded[:, 1:width + 1], before]), 0)
        if t == 0:  # only the first two positions start (-inf elsewhere even for a NaN emit)
            step = M.where(M.arange(width, device=lp.device) < 2, step, -math.inf)
        alpha = M.where((il > t).unsqueeze(1), step, alpha)  # frozen after the input ends
    end = 2 * tl.unsqueeze(1)
    last = alpha.gather(1, end)
    previous = M.where(end > 0, alpha.gather(1, (end - 1).clamp(min=0)), -math.inf)
    return -_logsumexp(M.cat([last, previous], 1), 1)


def _nll_backward(grad, log_probs, ext, input_lengths, target_lengths, nll):
    """_ctc_nll's gradient with respect to log_probs: autograd through its decomposition
    (0 where the loss is infinite). Recording (grad mode on: a backward with
    create_graph), the gradient is a graph too, so second derivatives exist (ATen has
    none)."""
    import mindtorch as M
    create_graph = M.is_grad_enabled()
    with M.enable_grad():
        lp = log_probs if log_probs.requires_grad else log_probs.detach().requires_grad_()
        out = _negative_log_likelihood(lp, ext, input_lengths, target_lengths)
        return M.autograd.grad(out, lp, grad, create_graph=create_graph)[0]


def _torch_gradient(nll, lp, il, zero_infinity):
    """nll with PyTorch's gradient: exp(lp) added for times within each input's length;
    NaN there for infinite losses (zero_infinity: those are 0, with a zero gradient)."""
    import mindtorch as M

    from ...autograd._record import forward
    infinite = nll.detach() == math.inf
    if not nll.requires_grad and not forward.on:  # (the added terms are 0: no gradient)
        return M.where(infinite, 0, nll) if zero_infinity else nll
    inside = (M.arange(lp.shape[0], device=lp.device).unsqueeze(1) < il).unsqueeze(2)
    scale = inside.to(lp.dtype)
    if not zero_infinity:
        scale = M.where(inside.logical_and(infinite.unsqueeze(1)), math.nan, scale)
    if forward.on:  # (tangents: the terms as ops)
        e = lp.exp()
        # 0 with the gradient exp(lp) (where exp overflows: 0 with a NaN gradient, not
        # inf - inf); NaN in the rows of infinite losses, which the where does not choose
        zero = (M.where(e.detach().isfinite(), e - e.detach(), 0) * scale).sum((0, 2))
        loss = M.where(infinite, nll, nll + zero)
    else:  # (the same gradient from one node)
        loss = _named_node().apply(nll, lp, scale, infinite)
    # (zero_infinity: PyTorch's where after its node, whose gradient there is 0)
    return M.where(infinite, 0, loss) if zero_infinity else loss


_NODE = []


def _named_node():
    """PyTorch's CtcLossBackward0 (the loss' grad_fn with reduction='none' and
    zero_infinity=False, the node a mean, sum or where leads to): nll + 0 (finite rows),
    whose gradient adds g * scale * exp(lp) for log_probs (as the derivative of
    where(isfinite(e), e - e.detach(), 0) * scale would: NaN where exp overflows or scale
    is NaN, in the rows of infinite losses)."""
    if not _NODE:
        from ...autograd.function import Function

        class CtcLoss(Function):
            @staticmethod
            def forward(ctx, nll, lp, scale, infinite):
                import mindtorch as M
                ctx.save_for_backward(lp, scale, infinite)
                return M.where(infinite, nll, nll + 0.0)

            @staticmethod
            def backward(ctx, grad):
                import mindtorch as M
                lp, scale, infinite = ctx.saved_tensors
                e = lp.exp()
                g = M.where(infinite, 0, grad).reshape(1, -1, 1) * scale
                return grad, M.where(e.isfinite(), g, 0) * e, None, None
        CtcLoss._backward_cls.__name__ = CtcLoss._backward_cls.__qualname__ = \
            "CtcLossBackward0"
        _NODE.append(CtcLoss)
    return _NODE[0]


def _ctc(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    """ATen's ctc_loss for lengths as tensors or int lists."""
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    il, il_values = _lengths(input_lengths, "input_lengths", lp.device)
    tl, tl_values = _lengths(target_lengths, "target_lengths", lp.device)
    _floating("ctc_loss_cpu", lp, dtypes=(D.float32, D.float64))
    _check(lp, targets, (il, tl), il_values, tl_values, blank)
    ext = _extended(_labels(targets, tl, tl_values, blank, lp.device), blank)
    nll = OPS["_ctc_nll"].call(lp, ext, il, tl)
    loss = _torch_gradient(nll, lp, il, zero_infinity)
    if reduction == 1:
        return (loss / tl.clamp(min=1).to(loss.dtype)).mean()
    if reduction == 2:
        return loss.sum()
    return loss if batched else loss.squeeze(0)


# -- declarations --------------------------------------------------------------------------

_ARGS = "Tensor log_probs, Tensor targets, {0} input_lengths, {0} target_lengths, int blank=0"


def _route(binding, int_lists, reduction_of):
    """The public function: lengths as tensors go to the op, as sequences of ints to the
    int-list op; a mix is PyTorch's TypeError."""
    import mindtorch as M

    def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
                 reduction=0, zero_infinity=False, _all_given=False):
        lengths = (input_lengths, target_lengths)
        tensors = [isinstance(v, M.Tensor) for v in lengths]
        if all(tensors) and isinstance(log_probs, M.Tensor) and \
                any(t.device != log_probs.device and _has_data(t) for t in lengths):
            # lengths held on the host for log_probs elsewhere (as PyTorch allows): their
            # values, checked as the tensor op checks them
            input_lengths, target_lengths = (
                tuple(_integral(t, name).reshape(-1).tolist())
                for t, name in zip(lengths, ("input_lengths", "target_lengths")))
            tensors = [False, False]
        if all(tensors):
            return binding(log_probs, targets, input_lengths, target_lengths, blank,
                           reduction, zero_infinity)
        if any(tensors):
            given = (log_probs, targets, input_lengths, target_lengths) + (
                (blank, reduction_of(reduction), zero_infinity) if _all_given else ())
            got = ", ".join(type(v).__name__ if not isinstance(v, M.Tensor) else "Tensor"
                            for v in given)
            raise TypeError(_SIGNATURE.format(got))
        return OPS[int_lists].binding(log_probs, targets, tuple(input_lengths),
                                      tuple(target_lengths), blank, reduction_of(reduction),
                                      zero_infinity)
    return ctc_loss


def _route_functional(binding):
    fn = _route(binding, "_ctc_loss_intlist", _enum)

    def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
                 reduction="mean", zero_infinity=False):
        return fn(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                  zero_infinity, _all_given=True)  # (PyTorch's F passes all of them on)
    return ctc_loss


def _declare():
    tail = "int reduction=0, bool zero_infinity=False"  # (0 at torch.ctc_loss, as kl_div's)
    define(f"ctc_loss({_ARGS.format('Tensor')}, {tail}) -> Tensor", decomposition=_ctc,
           **_TORCH_ONLY)
    define(f"_ctc_loss_intlist({_ARGS.format('int[]')}, {tail}) -> Tensor",
           decomposition=_ctc, **_HIDDEN)
    define(f"functional_ctc_loss({_ARGS.format('Tensor')}, str reduction='mean', "
           f"bool zero_infinity=False) -> Tensor",
           decomposition=lambda lp, tg, il, tl, blank, reduction, zero_infinity:
           _ctc(lp, tg, il, tl, blank, _enum(reduction), zero_infinity), **_F_ONLY)
    overload(OPS["ctc_loss"], lambda b: _route(b, "_ctc_loss_intlist", lambda r: r))
    # -log p per batch element: lp (T, N, C), ext (N, 2S + 1) the extended labels, lengths
    define("_ctc_nll(Tensor log_probs, Tensor ext, Tensor input_lengths, "
           "Tensor target_lengths) -> Tensor", decomposition=_negative_log_likelihood, **_HIDDEN)
    define("_ctc_nll_backward(Tensor grad, Tensor log_probs, Tensor ext, Tensor input_lengths, "
           "Tensor target_lengths, Tensor nll) -> Tensor", decomposition=_nll_backward,
           **_HIDDEN)
    derivative(OPS["_ctc_nll"], log_probs=lambda grad, log_probs, ext, input_lengths,
               target_lengths, result: OPS["_ctc_nll_backward"].call(
                   grad, log_probs, ext, input_lengths, target_lengths, result))
    overload(OPS["functional_ctc_loss"], _route_functional)


_declare()
