"""Autocast's op policies and state (torch.autocast; the public side is mindtorch.amp).

While a region is on, the binding of each op listed here calls `run`, which casts the op's
floating tensor arguments on the autocast device as PyTorch's autocast does, then calls
the op with autocast off (so its decomposition is not cast again).  The casts are ops, so
autograd records them (ToCopyBackward0) and gradients come back in the inputs' dtypes.
Other ops' bindings carry no autocast code at all."""
from _thread import _local as _thread_local


class _State(_thread_local):
    on = False   # some device type has autocast on (what the bindings test)
    dtypes = {}  # device type -> autocast dtype, for the device types that have it on
    fast = {}    # device type -> autocast dtype set (by a region, on or off), else default
    cache = True  # is_autocast_cache_enabled
    nesting = 0  # autocast_increment_nesting's count


state = _State()

# PyTorch's CPU autocast policy (aten's autocast_mode.cpp), by op name: "lower" runs the op
# in the autocast dtype, "fp32" in float32, "promote" in the widest floating dtype of its
# inputs (PyTorch's autocast prioritize: float32 over the autocast dtype, any other
# lower-precision dtype an error), "keep" as given with autocast off.  Tensors of other
# devices, float64 and non-floating tensors are never cast.  Besides PyTorch's names the
# table lists mindtorch's entry ops that reach the same computation without going through
# the listed op's binding (decompositions call kernels directly): they are marked "# entry".
_POLICY_TABLE = {
    "lower": (
        "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm",
        "addbmm", "linear", "matmul", "conv_tbc", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "prelu", "scaled_dot_product_attention"),
    "fp32": (
        "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "quantile",
        "nanquantile", "stft", "cdist", "trace", "view_as_complex", "cholesky",
        "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr",
        "pinverse", "max_pool3d", "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d",
        "reflection_pad1d", "reflection_pad2d", "replication_pad1d", "replication_pad2d",
        "replication_pad3d", "mse_loss", "cosine_embedding_loss", "nll_loss", "nll_loss2d",
        "hinge_embedding_loss", "poisson_nll_loss", "smooth_l1_loss", "cross_entropy_loss",
        "cross_entropy", "l1_loss", "huber_loss", "margin_ranking_loss", "soft_margin_loss",
        "triplet_margin_loss", "multi_margin_loss", "ctc_loss", "kl_div",
        "multilabel_margin_loss", "binary_cross_entropy_with_logits", "fft_fft", "fft_ifft",
        "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn", "fft_rfft", "fft_irfft",
        "fft_rfft2", "fft_irfft2", "fft_rfftn", "fft_irfftn", "fft_hfft", "fft_ihfft",
        "linalg_cond", "linalg_matrix_rank", "linalg_solve", "linalg_cholesky",
        "linalg_svdvals", "linalg_eigvals", "linalg_eigvalsh", "linalg_inv",
        "linalg_householder_product", "linalg_tensorinv", "linalg_tensorsolve", "geqrf",
        "qr", "svd", "triangular_solve", "fractional_max_pool2d", "fractional_max_pool3d",
        "adaptive_max_pool3d", "linalg_qr", "linalg_cholesky_ex", "linalg_svd", "linalg_eig",
        "linalg_eigh", "linalg_lstsq", "linalg_inv_ex",
        "grid_sample", "_ctc_loss_intlist"),  # entry: F.grid_sample, ctc_loss(int lists)
    "promote": (
        "cat", "stack", "index_copy",
        # entry: cat's aliases and the stacking functions, which PyTorch builds on cat
        "concat", "concatenate", "hstack", "vstack", "dstack", "column_stack", "row_stack"),
    # ops PyTorch's autocast passes through whole (their own kernels, not decompositions
    # into the ops above)
    "keep": ("bilinear",),
}
POLICY = {name: kind for kind, names in _POLICY_TABLE.items() for name in names}
_NN = "functional_"  # nn.functional ops are declared with this prefix


def policy(name):
    """The autocast policy of an op name, or None."""
    return POLICY.get(name.removeprefix(_NN))


def run(op, args):
    """op(*args) under autocast: its eligible tensors cast, the op itself run with
    autocast off."""
    device = next((a._device.type for a in _tensors(args)), None)
    dtype = state.dtypes.get(device)
    prev_on, prev = state.on, state.dtypes
    state.on, state.dtypes = False, {}
    try:
        kind = policy(op.name)
        if dtype is not None and kind != "keep":
            to = _target(kind, dtype, [t for t in _tensors(args) if _eligible(t, device)])
            args = [_cast(a, device, to) for a in args]
        return op.call(*args)
    finally:
        state.on, state.dtypes = prev_on, prev


def _eligible(t, device):
    """Autocast casts floating tensors of its device, float64 excepted."""
    return t._device.type == device and t.dtype.is_floating_point and t.dtype.name != "float64"


def _target(kind, dtype, tensors):
    """The dtype an op of policy `kind` runs in, given its eligible tensors."""
    from ._dtype import float32
    if kind == "lower":
        return dtype
    if kind == "fp32":
        return float32
    to = dtype  # promote: PyTorch's prioritize, in argument order
    for t in tensors:
        if to is float32 or t.dtype is float32:
            to = float32
        elif t.dtype is not dtype:
            raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return to


def _cast(a, device, to):
    from ._tensor import Tensor
    if isinstance(a, Tensor):
        return a.to(to) if _eligible(a, device) and a.dtype is not to else a
    if isinstance(a, (list, tuple)) and any(isinstance(t, Tensor) for t in a):
        return type(a)(_cast(t, device, to) for t in a)
    return a


def lower_dtype(t):
    """The dtype autocast runs a lower-precision op of tensor t in, or None (autocast off
    for t's device, or t not cast): for decompositions whose PyTorch kernel calls such an
    op internally."""
    if not state.on:
        return None
    dtype = state.dtypes.get(t._device.type)
    return dtype if dtype is not None and _eligible(t, t._device.type) else None


def cast_eligible(value, device, to):
    """value (a tensor or nested lists / tuples of them, None allowed) with the tensors
    autocast casts on `device` cast to `to`: what a listed op's autocast wrapper does."""
    from ._tensor import Tensor
    if isinstance(value, Tensor):
        return _cast(value, device, to)
    if isinstance(value, (list, tuple)):
        return type(value)(cast_eligible(v, device, to) for v in value)
    return value


class off:
    """Autocast suspended: an op's out= variant, which PyTorch's autocast does not cast."""

    def __enter__(self):
        self._prev = state.on, state.dtypes
        state.on, state.dtypes = False, {}

    def __exit__(self, *exc):
        state.on, state.dtypes = self._prev


def _tensors(args):
    from ._tensor import Tensor
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, Tensor))
