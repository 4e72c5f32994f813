"""Normalization ops' checks and plans, shared by every device: the cpu kernels, the meta
rules and the decompositions of decls/normalization.py look at metadata only through these."""
from ... import _dtype as D
from ._helpers import _type_name

_HALVES = (D.float16, D.bfloat16)


def check_floating(kernel, t):
    if t.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t.dtype)}\'')


def compute_dtype(input, *params, kernel=None):
    """The dtype a norm computes in (float32 for 16-bit inputs), after PyTorch's CPU
    mixed-dtype rule: when the first given parameter's dtype is not input's, every
    parameter must be float32 and input a 16-bit float; otherwise (after the kernel's
    dtype dispatch, `kernel`'s floating check) every parameter has input's dtype."""
    given = [p for p in params if p is not None]
    if given and given[0].dtype is not input.dtype:
        if any(p.dtype is not D.float32 for p in given):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of "
                               "Float")
        if input.dtype not in _HALVES:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return D.float32
    if kernel is not None:
        check_floating(kernel, input)
    for p in given:
        if p.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input.dtype)} but found "
                               f"{_type_name(p.dtype)}")
    return D.float32 if input.dtype in _HALVES else input.dtype


def layer_norm_plan(input, normalized_shape, weight, bias):
    """PyTorch's layer_norm checks; returns the number of leading (batch) dims."""
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                           f"containing at least one element, but got normalized_shape = "
                           f"{list(shape)}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p._shape != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(p._shape)} and normalized_shape = "
                               f"{list(shape)}")
    k = len(shape)
    if input.ndim < k or input._shape[input.ndim - k:] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(input._shape)}")
    compute_dtype(input, weight, bias, kernel="LayerNormKernelImpl")
    return input.ndim - k


# the layouts native_group_norm takes: contiguous, channels-last for 4-d and 5-d inputs
# (dims from outermost to innermost; () is the default order)
_LAYOUTS = {4: ((), (0, 2, 3, 1)), 5: ((), (0, 2, 3, 4, 1))}


def _dense_in(t, order):
    """Whether t is contiguous with its dims laid out in `order` (PyTorch's is_contiguous:
    size-1 dims' strides do not count, empty tensors are contiguous)."""
    shape, stride = t._shape, t.stride()
    if 0 in shape:
        return True
    expected = 1
    for d in reversed(order or range(len(shape))):
        if shape[d] != 1:
            if stride[d] != expected:
                return False
            expected *= shape[d]
    return True


def group_norm_plan(input, weight, bias, N, C, HxW, group):
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    if group <= 0 or C % group:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input._shape)} and "
                           f"num_groups={group}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and (p.ndim != 1 or p.numel() != C):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {list(p._shape)} "
                               f"and input of shape {list(input._shape)}")
    if not any(_dense_in(input, order) for order in _LAYOUTS.get(input.ndim, ((),))):
        raise RuntimeError("Expected X.is_contiguous(memory_format) to be true, but got false.")
    # PyTorch's kernel checks the dtypes before the size (inside its dtype dispatch)
    dt = compute_dtype(input, weight, bias, kernel="GroupNormKernelImpl")
    if N * C * HxW != input.numel() or input._shape[:2] != (N, C):
        raise RuntimeError(f"Expected input of {N} x {C} x {HxW} elements, but got input of "
                           f"shape {list(input._shape)}")
    return dt


def batch_norm_plan(input, weight, bias, running_mean, running_var, training, dtypes=True):
    """PyTorch's batch_norm checks (the dtypes' too unless told); returns the compute
    dtype."""
    if input.ndim < 2:  # PyTorch fails reading size(1)
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[-{max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got 1)")
    # ATen's order: each running stat's size (or its absence in eval mode), then the
    # weight's and bias's sizes, then the running stats' pairing
    C = input._shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        if t is not None and t.numel() != C:
            raise RuntimeError(f"{name} should contain {C} elements not {t.numel()}")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither "
                         "be None")
    if not dtypes:
        return None
    check_floating("batch_norm", input)
    return compute_dtype(input, weight, bias, running_mean, running_var)


def stat_dtype(input, *params):
    """dtype of the saved statistics (mean, rstd): float32 when 16-bit input meets float32
    parameters (PyTorch's mixed kernels keep them so), else input's."""
    mixed = input.dtype in _HALVES and any(p is not None and p.dtype is D.float32
                                           for p in params)
    return D.float32 if mixed else input.dtype


def _channels(t, ndim):
    """A per-channel vector t shaped to broadcast against a (N, C, *) input."""
    return t.reshape((-1,) + (1,) * (ndim - 2))


def _cast(t, dtype):
    return t if t is None or t.dtype is dtype else t.to(dtype)
