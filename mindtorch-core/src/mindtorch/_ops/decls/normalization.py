"""Normalization ops: batch, instance, layer, group and RMS norm, local response norm,
normalize.

As in PyTorch, layer and group norm go through `native_layer_norm` / `native_group_norm`
(output, mean, rstd), which carry the backward formulas users see (NativeLayerNormBackward0,
NativeGroupNormBackward0); batch norm goes through two hidden ops, one per mode, both
recording NativeBatchNormBackward0 (split so that training's in-place update of the running
statistics does not touch a tensor the eval formula saves).  torch.<name> and
nn.functional.<name> differ in argument order or trailing arguments for batch, instance,
layer and group norm: the functional forms are ops of their own (`functional_<name>`, the
module's prefix dropped) decomposing into the torch.<name> op.  Every op decomposes into
mindtorch ops, so any device runs it; cpu adds fused native_layer_norm / native_group_norm
and their backward ops (_layer_norm_backward, _group_norm_backward: ops so that a backend can
fuse them).

The checks (normalization_checks.py) look at metadata only; kernels, meta rules and
decompositions share them.
"""
from ... import _dtype as D
from ..._memory_format import channels_last, channels_last_3d, dense_in, suggest
from ..._scalars import float32_value
from ..._shapes import numel as _numel
from ..._tensor import Tensor
from ...autograd._backward_ops import backward_op
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name
from .normalization_checks import (  # (also read as normalization.<name> by kernels, rules)
    _HALVES, _cast, _channels, batch_norm_plan, check_floating, compute_dtype, group_norm_plan,
    layer_norm_plan, stat_dtype,
)

NN = ("nn.functional",)


# -- layer norm --------------------------------------------------------------------------------

def _native_layer_norm(input, normalized_shape, weight, bias, eps):
    axis = layer_norm_plan(input, normalized_shape, weight, bias)
    dt = compute_dtype(input, weight, bias)
    x = _cast(input, dt)
    dims = tuple(range(axis, input.ndim))
    mean = _mean(x, dims)
    xc = x - mean
    rstd = ((xc * xc).mean(dims, keepdim=True) + eps).rsqrt()
    out = _affine(xc * rstd, _cast(weight, dt), _cast(bias, dt))
    sdt = stat_dtype(input, weight, bias)
    return out.to(input.dtype), mean.to(sdt), rstd.to(sdt)


def _mean(x, dims):
    """mean over dims (kept); 0 over no elements, as PyTorch's norms give (then rstd is nan)."""
    if x.numel() or not x.ndim:
        return x.mean(dims, keepdim=True)
    return x.sum(dims, keepdim=True)


def _affine(y, weight, bias):
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05,
                cudnn_enable=True):
    return OPS["native_layer_norm"].call(input, normalized_shape, weight, bias, eps)[0]


def _functional_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    return OPS["layer_norm"].call(input, normalized_shape, weight, bias, eps, True)


# -- group norm --------------------------------------------------------------------------------

def _native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    dt = group_norm_plan(input, weight, bias, N, C, HxW, group)
    x = _cast(input, dt).reshape(N, group, C // group * HxW)
    mean = _mean(x, (-1,))
    xc = x - mean
    rstd = ((xc * xc).mean(-1, keepdim=True) + eps).rsqrt()
    y = (xc * rstd).reshape(input._shape)
    nd = input.ndim
    out = _affine(y, None if weight is None else _channels(_cast(weight, dt), nd),
                  None if bias is None else _channels(_cast(bias, dt), nd))
    sdt = stat_dtype(input, weight, bias)
    return (_gn_laid_out(out.to(input.dtype), input), mean.reshape(N, group).to(sdt),
            rstd.reshape(N, group).to(sdt))


def _group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    if input.ndim < 2:  # PyTorch reads size(0) and size(1)
        if not input.ndim:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got "
                         "1)")
    N, C = input._shape[:2]
    HxW = _numel(input._shape[2:])
    # as PyTorch's group_norm, for native_group_norm's check (channels-last stays so)
    input = input.contiguous(memory_format=suggest(input))
    return OPS["native_group_norm"].call(input, weight, bias, N, C, HxW, num_groups, eps)[0]


def _functional_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    size = [input._shape[0] * input._shape[1] // num_groups, num_groups] + \
        list(input._shape[2:])
    verify_batch_size(size)
    return OPS["group_norm"].call(input, num_groups, weight, bias, eps, True)


def verify_batch_size(size):
    """nn.functional's refusal of a single value per channel in training."""
    n = size[0]
    for s in size[2:]:
        n *= s
    if n == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {_size_repr(size)}")


def _size_repr(size):
    return f"torch.Size({list(size)})" if isinstance(size, tuple) else str(list(size))


# -- batch norm --------------------------------------------------------------------------------

def _batch_norm_training(input, weight, bias, eps):
    """(output, mean, invstd, unbiased variance) with the statistics of this batch (in the
    compute dtype)."""
    dt = compute_dtype(input, weight, bias)
    nd = input.ndim
    dims = (0,) + tuple(range(2, nd))
    x = _cast(input, dt)
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    n = input.numel() // input._shape[1] if input._shape[1] else 0
    sq = (xc * xc).sum(dims, keepdim=True)
    invstd = (sq / n + eps).rsqrt()
    out = _affine(xc * invstd, None if weight is None else _channels(_cast(weight, dt), nd),
                  None if bias is None else _channels(_cast(bias, dt), nd))
    unbiased = sq / (n - 1) if n > 1 else sq / 0.0
    return out.to(input.dtype), mean.reshape(-1), invstd.reshape(-1), unbiased.reshape(-1)


def _batch_norm_inference(input, weight, bias, running_mean, running_var, eps):
    dt = compute_dtype(input, weight, bias, running_mean, running_var)
    nd = input.ndim
    invstd = (_cast(running_var, dt).reshape(-1) + eps).rsqrt()
    scale = invstd if weight is None else invstd * _cast(weight, dt).reshape(-1)
    shift = -_cast(running_mean, dt).reshape(-1) * scale
    if bias is not None:
        shift = shift + _cast(bias, dt).reshape(-1)
    out = _cast(input, dt) * _channels(scale, nd) + _channels(shift, nd)
    return out.to(input.dtype)


def _native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                       eps):
    check_floating("batch_norm", input)  # ATen's native op dispatches on dtype before any check
    batch_norm_plan(input, weight, bias, running_mean, running_var, training)
    from ...autograd.grad_mode import no_grad, state
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if state.enabled and t is not None and t._requires_grad:
            raise RuntimeError(f"The function 'native_batch_norm' is not differentiable with "
                               f"respect to argument '{name}'. This input cannot have "
                               f"requires_grad True.")
    if training and not input.numel():  # (torch.batch_norm handles empty input itself)
        raise RuntimeError(f"input tensor must have at least one element, but got input_sizes "
                           f"= {list(input._shape)}")
    if training:
        if running_mean is not None or running_var is not None:
            from ...func import refuse_unbatched_running_stats
            refuse_unbatched_running_stats(running_mean, running_var)
        out, mean, invstd, var = OPS["_batch_norm_training"].call(input, weight, bias, eps)
        if running_mean is not None or running_var is not None:
            with no_grad():
                for running, batch in ((running_mean, mean), (running_var, var)):
                    if running is not None:
                        _running_update(running, batch, momentum, input,
                                        running is running_mean)
        sdt = stat_dtype(input, weight, bias, running_mean, running_var)
        return _bn_laid_out(out, input), mean.to(sdt), invstd.to(sdt)
    out = _bn_laid_out(OPS["_batch_norm_inference"].call(input, weight, bias, running_mean,
                                                         running_var, eps), input)
    empty = OPS["empty"].binding((0,), dtype=stat_dtype(input, weight, bias, running_mean,
                                                         running_var), device=input.device)
    return out, empty, empty.clone()


def _running_update(running, batch, momentum, input, is_mean):
    """running = momentum * batch + (1 - momentum) * running as ATen's CPU kernels compute
    it, written in place without a version bump (as ATen's kernels write it): in float32
    for 16-bit statistics (rounded once when stored), but bfloat16 statistics of a bfloat16
    input in bfloat16 arithmetic (momentum and 1 - momentum rounded, the products with
    bfloat16 operands and the mean's sum rounded)."""
    version = running._version_counter[0]
    if batch._shape != running._shape:
        batch = batch.reshape(running._shape)
    if running.dtype is batch.dtype is input.dtype is D.float32:
        # ATen's float32 steps: momentum and 1 - momentum in float32, the products and the
        # mean's sum rounded to float32; the variance's momentum * unbiased_var, and its
        # sum, in double (unbiased_var has a float32 input's accumulate type), rounded once
        # when stored (a 16-bit input's accumulate type is float32: the next branch)
        m = float32_value(momentum)
        running.mul_(float32_value(1 - m))
        if is_mean:
            running.add_(batch, alpha=m)
        else:  # (the exact product added and rounded once: addcmul_'s fused float32 step)
            running.addcmul_(batch, _momentum_tensor(m, running._device))
    elif running.dtype is batch.dtype and running.dtype not in _HALVES:
        # (two in-place passes, each product rounded in the dtype as in the formula)
        running.mul_(1 - momentum).add_(batch, alpha=momentum)
    else:
        running.copy_(_mixed_update(running, batch, momentum, input, is_mean))
    running._version_counter[0] = version


_MOMENTA = {}  # (momentum, device) -> its 0-dim float32 tensor, read only (a few kept)


def _momentum_tensor(m, device):
    """A 0-dim float32 tensor of m (a tensor from a number costs ~5 us; every training
    step of every batch norm needs one)."""
    t = _MOMENTA.get((m, device))
    if t is None:
        if len(_MOMENTA) > 16:  # (momentum=None: a new one every step)
            _MOMENTA.clear()
        from ... import _creation
        t = _MOMENTA[m, device] = _creation.tensor(m, dtype=D.float32, device=device)
    return t


def _mixed_update(running, batch, momentum, input, is_mean):
    if running.dtype not in _HALVES:
        return batch * momentum + running * (1 - momentum)
    if running.dtype is D.bfloat16 and input.dtype is D.bfloat16:
        import mindtorch as M
        m = M.tensor(momentum, dtype=D.bfloat16).item()
        kept = running * M.tensor(1 - m, dtype=D.bfloat16).item()
        return (batch.to(D.bfloat16) if is_mean else batch) * m + kept
    return batch * momentum + running.float() * (1 - momentum)


def _bn_laid_out(out, input):
    """PyTorch's batch norm result and input gradient: contiguous for a contiguous input
    (size-1 dims aside: an (N, C, 1, 1) channels-last one too), channels-last for a
    channels-last-contiguous one, else in the format its strides suggest; fresh strides."""
    if input.is_contiguous():
        fmt = "contiguous_format"
    else:
        cl = {4: channels_last, 5: channels_last_3d}.get(input.ndim)
        fmt = cl if cl and input.is_contiguous(memory_format=cl) else suggest(input)
    return dense_in(out, fmt)


def _gn_laid_out(out, input):
    """PyTorch's group norm result and input gradient: fresh in the format its input's
    strides suggest, size-1 dims' strides included."""
    return dense_in(out, suggest(input))


def _native_batch_norm_public(binding):
    """native_batch_norm(..., *, out=(output, save_mean, save_invstd)) as PyTorch's out
    kernel: a plain tuple; in evaluation it leaves save_mean and save_invstd untouched."""
    def native_batch_norm(*args, out=None, **kwargs):
        if out is None:
            return binding(*args, **kwargs)
        from ..dispatch import write_out
        from .sorting import _tuple_out
        _tuple_out("native_batch_norm", ["output", "save_mean", "save_invstd"], out, args,
                   kwargs)
        results = binding(*args, **kwargs)
        for o, r in zip(out, results):
            if o.dtype is not r.dtype:
                raise RuntimeError(f"expected scalar type {_type_name(r.dtype)} but found "
                                   f"{_type_name(o.dtype)}")
        training = args[5] if len(args) > 5 else kwargs["training"]
        written = out if training else out[:1]
        return tuple(write_out(OPS["native_batch_norm"], o, r) for o, r in
                     zip(written, results)) + tuple(out[len(written):])
    return native_batch_norm


def _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                cudnn_enabled):
    if not input.numel():  # PyTorch's batch_norm: an empty input skips the kernel and its
        out = input.clone()  # checks, only scaled by weight[0] and shifted by bias[0]
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    return OPS["native_batch_norm"].call(input, weight, bias, running_mean, running_var,
                                         training, momentum, eps)[0]


def _functional_batch_norm(input, running_mean, running_var, weight=None, bias=None,
                           training=False, momentum=0.1, eps=1e-05):
    if training:
        verify_batch_size(tuple(input._shape))
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return OPS["batch_norm"].call(input, weight, bias, running_mean, running_var, training,
                                  momentum, eps, True)


# -- instance norm: batch norm over a (1, N * C, *) view, as PyTorch computes it ---------------

def _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                   eps, cudnn_enabled):
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    if input.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[-{max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got 1)")
    b, c = input._shape[:2]

    # PyTorch accepts running statistics of another dtype than the parameters' (or, without
    # parameters, one the kernel does not take) when running_mean's differs: both then
    # take that dtype; else they are checked as given
    params = [p for p in (weight, bias) if p is not None]
    sdt = None
    if running_mean is not None:
        if params:
            sdt = None if running_mean.dtype is params[0].dtype else params[0].dtype
        elif running_mean.dtype is not input.dtype and not (
                input.dtype in _HALVES and running_mean.dtype is D.float32):
            sdt = input.dtype

    def repeat(t, dtype=None):
        return None if t is None else _cast(t.repeat(b), dtype or t.dtype)
    rm, rv = repeat(running_mean, sdt), repeat(running_var, sdt)
    x = input.contiguous().view((1, b * c) + input._shape[2:])
    out = OPS["batch_norm"].call(x, repeat(weight), repeat(bias), rm, rv, use_input_stats,
                                 momentum, eps, cudnn_enabled)
    if use_input_stats and (running_mean is not None or running_var is not None):
        from ...autograd.grad_mode import no_grad
        with no_grad():  # each instance updated its copy: the running stats get their mean
            for running, copies in ((running_mean, rm), (running_var, rv)):
                if running is not None:
                    running.copy_(copies.view(b, c).mean(0))
    return out.view(input._shape)


def _functional_instance_norm(input, running_mean=None, running_var=None, weight=None,
                              bias=None, use_input_stats=True, momentum=0.1, eps=1e-05):
    if use_input_stats:
        n = 1
        for s in input._shape[2:]:
            n *= s
        if n == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {_size_repr(tuple(input._shape))}")
    return OPS["instance_norm"].call(input, weight, bias, running_mean, running_var,
                                     use_input_stats, momentum, eps, True)


# -- composites --------------------------------------------------------------------------------

def _rms_norm(input, normalized_shape, weight=None, eps=None):
    """PyTorch's composite: x * rsqrt(mean(x^2) + eps), computed in float32 for 16-bit
    inputs; eps None is the compute dtype's machine epsilon.  Checks in PyTorch's order."""
    shape = tuple(normalized_shape)
    k = len(shape)
    if not k:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if weight is not None and weight._shape != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(weight._shape)} and normalized_shape = "
                           f"{list(shape)}")
    if input.ndim < k:
        raise ValueError(f"Input tensor must have at least {k} dimensions, but got "
                         f"{input.ndim}")
    if input._shape[input.ndim - k:] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size"
                           f"{list(input._shape)}")
    if input.dtype.kind not in "fc":
        check_floating("rms_norm", input)
    dt = D.float32 if input.dtype in _HALVES else input.dtype
    if eps is None:
        eps = D.finfo(dt).eps
    x = _cast(input, dt)
    dims = tuple(range(input.ndim - 1, input.ndim - k - 1, -1))
    y = x * (x.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    if weight is not None:  # (in the compute dtype, rounded once, as PyTorch 2.13's kernel)
        y = y * weight
    return y.to(input.dtype)


def _local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of squares over a window of `size` channels) ** beta, the
    window zero-padded size // 2 before and (size - 1) // 2 after each channel."""
    import mindtorch as M
    nd = input.ndim
    if nd < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {nd} dimensions)")
    if size <= 0:  # (avg_pool2d's message for 3-d input, else avg_pool3d's)
        got = f"kH: {size} kW: 1" if nd == 3 else f"kT: {size} kH: 1 kW: 1"
        raise RuntimeError(f"kernel size should be greater than zero, but got {got}")
    if input.numel() == 0:
        return input
    # the dtypes of the avg_pool kernel PyTorch averages with (2-d for 3-d input, else 3-d)
    kernel = "avg_pool2d" if nd == 3 else "avg_pool3d_out_frame"
    if input.dtype not in (D.float32, D.float64, D.int64) + (_HALVES if nd == 3 else ()):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_type_name(input.dtype)}'")
    sq = input * input
    C = input._shape[1]
    before, after = size // 2, (size - 1) // 2
    zeros = (sq.new_zeros((sq._shape[0], n) + sq._shape[2:]) for n in (before, after))
    padded = M.cat([next(zeros), sq, next(zeros)], 1)
    total = padded.narrow(1, 0, C)
    for i in range(1, size):
        total = total + padded.narrow(1, i, C)
    # PyTorch averages with avg_pool, whose integer kernels truncate
    mean = total / size if total.dtype.kind in "fc" else total.div(size, rounding_mode="trunc")
    div = (mean * alpha + k).pow(beta)
    return input / div


def _normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(||input||_p over dim, eps)."""
    _check_norm_dtype(input)
    denom = OPS["norm"].call(input, p, dim, True, None).clamp_min(eps).expand_as(input)
    return input / denom


def _check_norm_dtype(input):
    if input.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_type_name(input.dtype)}")


def _normalize_public(binding):
    """normalize's function: linalg.vector_norm checks the dtype before it wraps dim (the
    binding wraps dims first)."""
    def normalize(input=None, *args, **kwargs):
        if isinstance(input, Tensor):
            _check_norm_dtype(input)
        return binding(input, *args, **kwargs)
    return normalize


# -- backward formulas -------------------------------------------------------------------------

def _input_grad(grad, xhat, rstd, weight, dims):
    """Gradient of the input of y = xhat * w + b, xhat = (x - mean) * rstd with the
    statistics over `dims` (w broadcast against x)."""
    g = grad if weight is None else grad * weight
    return rstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def _sum_over(t, dims, shape):
    """t summed over dims (none: t itself; sum(()) would reduce every dim), as `shape`."""
    return (t.sum(dims) if dims else t).reshape(shape)


def _compute(*ts):
    """ts in their compute dtype (float32 for 16-bit floats)."""
    return [None if t is None else t.float() if t.dtype in _HALVES else t for t in ts]


def _statistics(x, dims, eps, saved_mean, saved_rstd):
    """mean and rstd over dims (kept): the saved ones, or recomputed (differentiably) when
    the formula itself is being differentiated, since they depend on x."""
    import mindtorch as M
    if not M.is_grad_enabled():
        return _compute(saved_mean, saved_rstd)
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    return mean, ((xc * xc).mean(dims, keepdim=True) + eps).rsqrt()


def _layer_norm_backward(grad, input, mean, rstd, weight, normalized_shape):
    """The gradients of layer norm from its saved statistics: the input's, and the sums
    over the batch dims of grad * xhat and of grad (the weight's and bias' gradients), in
    the compute dtype; an op so that a backend can fuse it."""
    k = len(normalized_shape)
    nd = input.ndim
    dims, batch = tuple(range(nd - k, nd)), tuple(range(nd - k))
    grad, x, w, mean, rstd = _compute(grad, input, weight, mean, rstd)
    xhat = (x - mean) * rstd
    shape = tuple(normalized_shape)
    return (_input_grad(grad, xhat, rstd, w, dims), _sum_over(grad * xhat, batch, shape),
            _sum_over(grad, batch, shape))


def _layer_norm_grad(grad, input, normalized_shape, weight, bias_geometry, eps, results):
    import mindtorch as M
    if not M.is_grad_enabled():  # (create_graph: the statistics differentiated, below)
        gx, gw, gb = OPS["_layer_norm_backward"].call(grad, input, results[1], results[2],
                                                      weight, normalized_shape)
        return gx, None if weight is None else gw, None if bias_geometry is None else gb
    k = len(normalized_shape)
    nd = input.ndim
    dims, batch = tuple(range(nd - k, nd)), tuple(range(nd - k))
    grad, x, w = _compute(grad, input, weight)
    mean, rstd = _statistics(x, dims, eps, results[1], results[2])
    xhat = (x - mean) * rstd
    gw = None if w is None else _sum_over(grad * xhat, batch, w.shape)
    gb = None if bias_geometry is None else _sum_over(grad, batch, bias_geometry[0])
    return _input_grad(grad, xhat, rstd, w, dims), gw, gb


def _group_norm_grads(grad, x3, mean, rstd, w, grad_mean, grad_rstd, N, C, HxW, group,
                      sums=(True, True)):
    """Group norm's gradients in the compute dtype from x3, the input as (N, group,
    C / group * HxW), and the statistics (N, group, 1): the input's (as x3), with the terms
    of the mean and rstd outputs' gradients when given (PyTorch's are differentiable
    outputs: d mean / dx = 1 / n, d rstd / dx = -rstd^3 (x - mean) / n over each group),
    and per channel the sums of grad * xhat and of grad (the weight's and bias' gradients;
    None where `sums` says)."""
    cg = C // group
    xhat = (x3 - mean) * rstd
    # the weight acts per channel: seen from (N, group, C / group * HxW), repeated HxW times
    wv = None if w is None else \
        w.reshape(group, cg, 1).expand(group, cg, HxW).reshape(group, cg * HxW)
    gx = _input_grad(grad.reshape(x3.shape), xhat, rstd, wv, (-1,))
    n = cg * HxW
    if n and (grad_mean is not None or grad_rstd is not None):
        gmean, grstd = _compute(grad_mean, grad_rstd)
        gmean = 0 if gmean is None else gmean.reshape(N, group, 1)
        grstd = 0 if grstd is None else grstd.reshape(N, group, 1)
        gx = gx + (gmean - grstd * rstd * rstd * rstd * (x3 - mean)) / n
    g3 = grad.reshape(N, C, HxW)
    gw = (g3 * xhat.reshape(g3.shape)).sum((0, 2)) if sums[0] else None
    if gw is not None and not HxW and N:  # (PyTorch's per channel sum of (ds - db mean) rstd:
        # NaN from the rstd of empty groups)
        gw = gw + (rstd * 0).expand(N, group, cg).reshape(N, C).sum(0)
    return gx, gw, g3.sum((0, 2)) if sums[1] else None


def _group_norm_backward(grad, input, mean, rstd, weight, grad_mean, grad_rstd, N, C, HxW,
                         group):
    """_group_norm_grads from the saved statistics (N, group), the input's gradient laid
    out as the input; an op so that a backend can fuse it."""
    grad, x, w, mean, rstd = _compute(grad, input, weight, mean, rstd)
    gx, gw, gb = _group_norm_grads(grad, x.reshape(N, group, C // group * HxW),
                                   mean.reshape(N, group, 1), rstd.reshape(N, group, 1), w,
                                   grad_mean, grad_rstd, N, C, HxW, group)
    return _gn_laid_out(gx.reshape(input.shape), input), gw, gb


def _group_norm_grad(grads, input, weight, bias_geometry, N, C, HxW, group, eps, results):
    import mindtorch as M
    if not M.is_grad_enabled():  # (create_graph: the statistics differentiated, below)
        gx, gw, gb = OPS["_group_norm_backward"].call(
            grads[0], input, results[1], results[2], weight, grads[1], grads[2], N, C, HxW,
            group)
    else:
        grad, x, w = _compute(grads[0], input, weight)
        x3 = x.reshape(N, group, C // group * HxW)
        mean, rstd = _statistics(x3, (-1,), eps, None, None)
        gx, gw, gb = _group_norm_grads(grad, x3, mean, rstd, w, grads[1], grads[2], N, C,
                                       HxW, group, (w is not None, bias_geometry is not None))
        gx = _gn_laid_out(gx.reshape(input.shape), input)
    return (gx, None if weight is None else gw.reshape(weight.shape),
            None if bias_geometry is None else gb.reshape(bias_geometry[0]))


def _batch_norm_backward(grad, input, mean, invstd, weight):
    """The gradients of batch norm in training from its saved statistics: the input's, and
    per channel the sums of grad * xhat and of grad (the weight's and bias' gradients), in
    the compute dtype; an op so that a backend can fuse it."""
    nd = input.ndim
    dims = (0,) + tuple(range(2, nd))
    grad, x, w, mean, invstd = _compute(grad, input, weight, mean, invstd)
    rstd = _channels(invstd, nd)
    xhat = (x - _channels(mean, nd)) * rstd
    gx = _input_grad(grad, xhat, rstd, None if w is None else _channels(w, nd), dims)
    return gx, (grad * xhat).sum(dims), grad.sum(dims)


def _batch_norm_training_grad(grad, input, weight, bias_geometry, eps, results):
    import mindtorch as M
    if not M.is_grad_enabled():  # (create_graph: the statistics differentiated, below)
        gx, gw, gb = OPS["_batch_norm_backward"].call(grad, input, results[1], results[2],
                                                      weight)
        return (_bn_laid_out(gx, input), None if weight is None else gw.reshape(weight.shape),
                None if bias_geometry is None else gb.reshape(bias_geometry[0]))
    nd = input.ndim
    dims = (0,) + tuple(range(2, nd))
    grad, x, w = _compute(grad, input, weight)
    mean, rstd = _statistics(x, dims, eps, _channels(results[1], nd), _channels(results[2], nd))
    xhat = (x - mean) * rstd
    gx = _input_grad(grad, xhat, rstd, None if w is None else _channels(w, nd), dims)
    gw = None if w is None else (grad * xhat).sum(dims).reshape(weight.shape)
    gb = None if bias_geometry is None else grad.sum(dims).reshape(bias_geometry[0])
    return _bn_laid_out(gx, input), gw, gb


def _batch_norm_inference_backward(grad, input, weight, running_mean, running_var, eps):
    """The gradients of batch norm in evaluation mode (the running statistics are
    constants), in PyTorch's steps: the input's grad * invstd * weight, and per channel
    sum(grad * (x - mean)) * invstd and sum(grad), invstd = 1 / sqrt(var + eps) in float64,
    rounded; an op so that a backend can fuse it."""
    nd = input.ndim
    dims = (0,) + tuple(range(2, nd))
    g, x, w, rm, rv = _compute(grad, input, weight, running_mean, running_var)
    invstd = (rv.reshape(-1).double() + eps).rsqrt().to(rv.dtype)
    gx = g * _channels(invstd, nd)
    gx = gx if w is None else gx * _channels(w, nd)
    gw = (g * (x - _channels(rm, nd))).sum(dims) * invstd
    return gx.to(input.dtype), gw.to(running_mean.dtype), g.sum(dims).to(running_mean.dtype)


def _batch_norm_inference_grad(grad, input, weight, bias_geometry, running_mean, running_var,
                               eps):
    gx, gw, gb = OPS["_batch_norm_inference_backward"].call(grad, input, weight, running_mean,
                                                            running_var, eps)
    return (gx, None if weight is None else gw.reshape(weight.shape),
            None if bias_geometry is None else gb.reshape(bias_geometry[0]))


# -- declarations ------------------------------------------------------------------------------

_NATIVE_OUT = "-> (Tensor, Tensor, Tensor)"


def _declare():
    define(f"native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, "
           f"Tensor? bias, float eps) {_NATIVE_OUT}", method=False,
           decomposition=_native_layer_norm)
    define("_layer_norm_backward(Tensor grad, Tensor input, Tensor mean, Tensor rstd, "
           "Tensor? weight, int[] normalized_shape) -> (Tensor, Tensor, Tensor)",
           function=False, method=False, decomposition=_layer_norm_backward)
    define("layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
           "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
           method=False, decomposition=_layer_norm)
    define("functional_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
           "Tensor? bias=None, float eps=1e-05) -> Tensor", modules=NN, function=False,
           method=False, decomposition=_functional_layer_norm)

    define(f"native_group_norm(Tensor input, Tensor? weight, Tensor? bias, int N, int C, "
           f"int HxW, int group, float eps) {_NATIVE_OUT}", method=False,
           decomposition=_native_group_norm)
    define("_group_norm_backward(Tensor grad, Tensor input, Tensor mean, Tensor rstd, "
           "Tensor? weight, Tensor? grad_mean, Tensor? grad_rstd, int N, int C, int HxW, "
           "int group) -> (Tensor, Tensor, Tensor)", function=False, method=False,
           decomposition=_group_norm_backward)
    define("group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
           "float eps=1e-05, bool cudnn_enabled=True) -> Tensor", method=False,
           decomposition=_group_norm)
    define("functional_group_norm(Tensor input, int num_groups, Tensor? weight=None, "
           "Tensor? bias=None, float eps=1e-05) -> Tensor", modules=NN, function=False,
           method=False, decomposition=_functional_group_norm)

    bn = "Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, " \
         "Tensor? running_var"
    define("_batch_norm_training(Tensor input, Tensor? weight, Tensor? bias, float eps) "
           "-> (Tensor, Tensor, Tensor, Tensor)", function=False, method=False,
           decomposition=_batch_norm_training)
    define("_batch_norm_backward(Tensor grad, Tensor input, Tensor mean, Tensor invstd, "
           "Tensor? weight) -> (Tensor, Tensor, Tensor)", function=False, method=False,
           decomposition=_batch_norm_backward)
    define("_batch_norm_inference(Tensor input, Tensor? weight, Tensor? bias, "
           "Tensor running_mean, Tensor running_var, float eps) -> Tensor", function=False,
           method=False, decomposition=_batch_norm_inference)
    define("_batch_norm_inference_backward(Tensor grad, Tensor input, Tensor? weight, "
           "Tensor running_mean, Tensor running_var, float eps) -> (Tensor, Tensor, Tensor)",
           function=False, method=False, decomposition=_batch_norm_inference_backward)
    overload(define(f"native_batch_norm({bn}, bool training, float momentum, float eps) "
                    f"{_NATIVE_OUT}", method=False, decomposition=_native_batch_norm),
             _native_batch_norm_public)
    define(f"batch_norm({bn}, bool training, float momentum, float eps, bool cudnn_enabled) "
           f"-> Tensor", method=False, decomposition=_batch_norm)
    define("functional_batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, "
           "Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, "
           "float eps=1e-05) -> Tensor", modules=NN, function=False, method=False,
           decomposition=_functional_batch_norm)
    define(f"instance_norm({bn}, bool use_input_stats, float momentum, float eps, "
           f"bool cudnn_enabled) -> Tensor", method=False, decomposition=_instance_norm)
    define("functional_instance_norm(Tensor input, Tensor? running_mean=None, "
           "Tensor? running_var=None, Tensor? weight=None, Tensor? bias=None, "
           "bool use_input_stats=True, float momentum=0.1, float eps=1e-05) -> Tensor",
           modules=NN, function=False, method=False, decomposition=_functional_instance_norm)

    define("rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
           "float? eps=None) -> Tensor", modules=NN, method=False, decomposition=_rms_norm)
    define("local_response_norm(Tensor input, int size, float alpha=0.0001, float beta=0.75, "
           "float k=1.0) -> Tensor", modules=NN, function=False, method=False,
           decomposition=_local_response_norm)
    overload(define("normalize(Tensor input, float p=2.0, int[]? dim=1, float eps=1e-12) -> "
                    "Tensor", modules=NN, function=False, method=False, out=True,
                    decomposition=_normalize), _normalize_public)


def _norm_backward(formula):
    """PyTorch's native_batch_norm_backward takes input and weight, not bias
    (native_layer_norm_backward takes all three)."""
    return backward_op(formula, inputs=("input", "weight"), zeros=False)


def _derivatives():
    derivative(OPS["native_layer_norm"],
               {"input, weight, bias": backward_op(_layer_norm_grad, zeros=False)},
               nondifferentiable_outputs=(1, 2))
    # (the mean and rstd of group norm are differentiable outputs in PyTorch)
    # (PyTorch's formula under create_graph is a composite whose weight gradient requires
    # grad with the weight, and whose bias gradient is grad's sum)
    derivative(OPS["native_group_norm"], {"input, weight, bias": backward_op(
        _group_norm_grad, inputs=("weight",), zeros=False, outputs=("input", "weight"))})
    derivative(OPS["_batch_norm_training"],
               {"input, weight, bias": _norm_backward(_batch_norm_training_grad)},
               name="NativeBatchNormBackward0", nondifferentiable_outputs=(1, 2, 3))
    derivative(OPS["_batch_norm_inference"],
               {"input, weight, bias": _norm_backward(_batch_norm_inference_grad)},
               name="NativeBatchNormBackward0")


_declare()
_derivatives()
