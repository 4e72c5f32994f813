"""What the loss modules share (loss, loss_margin, loss_ctc, loss_linear): the legacy
size_average/reduce arguments and reductions (by name and ATen's int enum), dtype checks
with PyTorch's messages, in-place-shaped writes, argument refusals when recording, and
declare_tables, which declares a loss module's ops from its three tables."""
import warnings

from ... import _dtype as D
from ... import _promotion
from ..._memory_format import contiguous_format, dense_in
from ..registry import define
from ._helpers import has_data as _has_data
from .reduction import _caller_level

F = ("nn.functional",)
_HIDDEN = {"function": False, "method": False}
_F_ONLY = dict(modules=F, **_HIDDEN)
_TORCH_ONLY = {"method": False}  # torch.<name> (ATen form), not a Tensor method
_EPSILON = 9.999999960041972e-13  # PyTorch's loss epsilon (BCE's backward, cosine_embedding):
# ATen's float constant 1e-12, i.e. 1e-12 rounded to float32, also in float64 computations
_LEGACY = "bool? size_average=None, bool? reduce=None, str reduction='mean'"


# -- reductions ----------------------------------------------------------------------------

def _warn(message):
    warnings.warn(message, UserWarning, stacklevel=_caller_level())


def _enum(reduction):
    """torch.nn._reduction.get_enum."""
    if reduction == "elementwise_mean":
        _warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        return 1
    enum = {"none": 0, "mean": 1, "sum": 2}.get(reduction)
    if enum is None:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return enum


def _legacy(size_average, reduce):
    """torch.nn._reduction.legacy_get_string, with its deprecation warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    _warn(f"size_average and reduce args will be deprecated, please use "
          f"reduction='{reduction}' instead.")
    return reduction


def _reduction(size_average, reduce, reduction):
    """The reduction string a functional loss uses."""
    if size_average is not None or reduce is not None:
        return _legacy(size_average, reduce)
    return reduction


def _reduce(loss, reduction):
    """ATen's apply_loss_reduction (any other int leaves the loss unreduced)."""
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


def _reduce_named(loss, reduction, message="{} is not valid"):
    """The reductions the Python-level losses apply themselves, by name."""
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(message.format(reduction))


def _mean_scale(grad, reduction, n):
    """grad of a mean over n elements (a sum's grad is grad itself)."""
    return grad / n if reduction == 1 else grad


# -- shared pieces -------------------------------------------------------------------------

def _type_name(dtype):
    return D.scalar_type_name(dtype)


def _not_implemented(kernel, dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(dtype)}\'')


def _floating(kernel, *tensors, dtypes=None):
    """PyTorch's kernels dispatch on the (promoted) dtype of their operands."""
    dtype = _promotion.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    if not (dtype.is_floating_point if dtypes is None else dtype in dtypes):
        raise _not_implemented(kernel, dtype)


def _shape_of(shape):
    return list(shape)


def _into(dst, value):
    """value as an in-place write into a tensor shaped and typed like dst would leave it
    (PyTorch's losses compute some terms in place, which fixes their shapes and dtypes)."""
    from ..._shapes import broadcast_shapes
    shape = tuple(broadcast_shapes(dst.shape, value.shape))
    if shape != tuple(dst.shape):
        raise RuntimeError(f"output with shape {_shape_of(dst.shape)} doesn't match the "
                           f"broadcast shape {_shape_of(shape)}")
    if not _promotion.can_cast(value.dtype, dst.dtype):
        raise RuntimeError(f"result type {_type_name(value.dtype)} can't be cast to the "
                           f"desired output type {_type_name(dst.dtype)}")
    value = value if value.dtype is dst.dtype else value.to(dst.dtype)
    return value if tuple(value.shape) == shape else value.expand(shape)


def _log_sigmoid(x, kernel="log_sigmoid_cpu"):
    """log(sigmoid(x)) without overflow, differentiable everywhere with the right value at
    0 (each branch sees only inputs that keep exp() finite)."""
    import mindtorch as M
    _floating(kernel, x)
    neg = x.clamp(max=0)
    pos = x.clamp(min=0)
    return M.where(x < 0, neg - neg.exp().log1p(), -(-pos).exp().log1p())


def _xlogx(t):
    """xlogy(t, t): 0 where t == 0."""
    import mindtorch as M
    return M.where(t == 0, 0, t * t.log())


def _size_warning(self, target):
    if tuple(target.shape) != tuple(self.shape):
        _warn(f"Using a target size ({target.size()}) that is different to the input size "
              f"({self.size()}). This will likely lead to incorrect results due to "
              f"broadcasting. Please ensure they have the same size.")


def _broadcast(self, target):
    import mindtorch as M
    return M.broadcast_tensors(self, target)


def _no_grad_for(function, **tensors):
    """PyTorch refuses, when recording, tensors its loss kernels have no derivative for."""
    import mindtorch as M
    if not M.is_grad_enabled():
        return
    for name, t in tensors.items():
        if t is not None and t.requires_grad:
            raise RuntimeError(f"The function '{function}' is not differentiable with respect "
                               f"to argument '{name}'. This input cannot have requires_grad "
                               f"True.")


def _first_bad(values, bad):
    """The first value (row-major) where bad holds, or None; only on devices with data."""
    if not values.numel() or not _has_data(values) or not bad.any().item():
        return None
    return values[bad].reshape(-1)[0].item()


def _class_view(weight, ndim, cdim):
    """A per-class weight shaped to broadcast along an input's class dim."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[cdim] = weight.shape[0]
    return weight.view(shape)


def declare_tables(functional, aten, named):
    """Declares a loss module's ops from its three tables (loss_margin's too)."""
    for name, (args, fn) in functional.items():
        define(f"{name}(Tensor self, Tensor target, {args}) -> Tensor", decomposition=fn,
               **_F_ONLY)
    for name, (args, fn) in aten.items():
        define(f"{name}({args}) -> Tensor", decomposition=fn, **_TORCH_ONLY)
    for name, (args, fn) in named.items():
        define(f"{name}({args}) -> Tensor", decomposition=fn, **_HIDDEN)


def _refused(function, argument):
    """An input PyTorch's kernel has no derivative for: refused when recording (the
    functional losses also check first, _no_grad_for), and not an edge of the node."""
    def formula(grad):
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                           f"argument '{argument}'. This input cannot have requires_grad True.")
    formula.refuses_grad = True
    return formula


def _fresh_contiguous(grad):
    """A loss's input gradient as PyTorch's backward kernels write it: into a fresh
    contiguous tensor (zeros_like(input, contiguous_format)), whatever the layouts."""
    return dense_in(grad, contiguous_format)
