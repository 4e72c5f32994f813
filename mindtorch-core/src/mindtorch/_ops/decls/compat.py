"""PyTorch functions outside the main families that programs still call, each a
decomposition into other ops (so every backend runs them, autograd goes through the
sub-ops): conv_tbc (time-batch-channel convolution, fairseq's), as_strided_scatter and
slice_inverse (functionalization's scatter into / inverse of a view), hash_tensor (xor of
the elements' 64-bit patterns), and weight normalisation's norm_except_dim / _weight_norm /
_weight_norm_interface (what nn.utils' weight_norm computes with)."""
from ... import _dtype as D
from .._argcheck import wrap_dim
from ..registry import OPS, define, nondifferentiable


def _M():
    import mindtorch
    return mindtorch


def _conv_tbc(self, weight, bias, pad):
    if self.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if bias.ndim != 1 or bias._shape[0] != weight._shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output "
                           "channels).")
    if self._shape[2] != weight._shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    # PyTorch's kernel views each kernel tap's time range x batch as one dim: the same
    # layouts are refused, with view's error
    ilen, batch, channels = self._shape
    width = weight._shape[0]
    olen = ilen - width + 1 + 2 * pad
    for k in range(width):
        t = min(ilen + pad - k, olen) - max(0, pad - k)
        if t > 0:
            self.narrow(0, max(0, k - pad), t).view(t * batch, channels)
    x = self.permute(1, 2, 0)  # (batch, channels, time): conv1d's layout
    if pad < 0:  # (conv1d takes no negative padding: drop those time steps instead)
        x, pad = x[..., -pad:x._shape[-1] + pad], 0
    out = _M().nn.functional.conv1d(x, weight.permute(2, 1, 0), bias, 1, pad)
    return out.permute(2, 0, 1).contiguous()


def _as_strided_scatter(self, src, size, stride, storage_offset):
    if self.requires_grad and not self.is_contiguous():  # (PyTorch's internal assert)
        raise RuntimeError("as_strided_scatter is currently only supported for contiguous "
                           "inputs")
    out = OPS["clone"].call(self, None)
    target = out.as_strided(size, stride, storage_offset)
    if target._shape != src._shape:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size "
                           f"= {list(src._shape)}, slice size = {list(target._shape)}")
    target.copy_(src)
    out._version_counter[0] = 0
    return out


def _slice_inverse(self, src, dim, start, end, step):
    # (what functionalization replays: self's storage seen with src's geometry)
    return self.as_strided(src._shape, src._stride, src._offset)


def _hash_tensor(self, dim, keepdim, mode):
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    if self.dtype.is_complex:
        raise NotImplementedError(f"\"xor_sum_cpu\" not implemented for "
                                  f"'{D.scalar_type_name(self.dtype)}'")
    ndim = self.ndim
    dims = tuple(range(ndim)) if dim is None or dim == () else dim
    if dim is None or dim == ():
        if self.numel() == 0:
            raise RuntimeError("hash_tensor: Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
    else:
        for d in dims:
            if ndim and self._shape[d] == 0:
                raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero "
                                 f"size.")
    # the elements' 64-bit patterns (floats as float64, integers as int64, bool as 0/1)
    wide = self.to(D.float64 if self.dtype.is_floating_point else D.int64)
    bits = wide.view(D.int64) if wide.dtype is D.float64 else wide
    rest = [d for d in range(ndim) if d not in dims]
    kept = [self._shape[d] for d in rest]
    n = 1
    for d in dims:
        n *= self._shape[d]
    x = bits.permute(*rest, *dims).reshape(*kept, n) if ndim else bits.reshape(1)
    while x._shape[-1] > 1:  # pairwise xor: log2(n) ops on any backend
        n = x._shape[-1]
        half = n // 2
        folded = x[..., :half] ^ x[..., half:2 * half]
        x = _M().cat((folded, x[..., 2 * half:]), -1) if n % 2 else folded
    out = x.reshape(kept)
    if keepdim:
        out = out.reshape([1 if d in dims else self._shape[d] for d in range(ndim)])
    return out.view(D.uint64)


def _norm_except_dim(v, pow, dim):
    """||v|| over every dim but `dim` (kept, the others of size 1); dim -1: the whole norm."""
    if not (v.dtype.is_floating_point or v.dtype.is_complex):  # (at::norm's refusal)
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {D.scalar_type_name(v.dtype)} instead.")
    if dim == -1:
        return v.norm(pow)
    dim = wrap_dim(dim, v.ndim)
    if v.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if v.ndim == 1:  # (each element its own row)
        return v.unsqueeze(1).norm(pow, 1)
    return v.norm(pow, tuple(d for d in range(v.ndim) if d != dim), keepdim=True)


def _weight_norm(v, g, dim):
    if dim in (0, v.ndim - 1):  # (PyTorch's fused kernel)
        return OPS["_weight_norm_interface"].call(v, g, dim)[0]
    return v * (g / OPS["norm_except_dim"].call(v, 2, dim))


_FUSED_DIM_ASSERT = (
    'dim == 0 || dim == v.dim() - 1 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/'
    'ATen/native/cpu/WeightNormKernel.cpp":408, please report a bug to PyTorch. fused kernels '
    "can only be applied for first or last dim")


def _weight_norm_interface(v, g, dim):
    """(v * g / ||v||, ||v||) over the first or last dim, as PyTorch's fused kernel: in
    float for float16 / bfloat16 (rounded once), the norms kept in that type, g's shape."""
    if dim not in (0, v.ndim - 1):
        raise RuntimeError(_FUSED_DIM_ASSERT)
    if not v.dtype.is_floating_point:
        raise NotImplementedError(f"\"weight_norm_kernel\" not implemented for "
                                  f"'{D.scalar_type_name(v.dtype)}'")
    if g.dtype is not v.dtype:
        raise RuntimeError(f"expected scalar type {D.scalar_type_name(v.dtype)} but found "
                           f"{D.scalar_type_name(g.dtype)}")
    if g.numel() != v._shape[dim]:  # (PyTorch's kernel reads past g's end: undefined)
        raise RuntimeError(f"_weight_norm_interface: g has {g.numel()} elements, expected "
                           f"{v._shape[dim]} (one per slice of v along dim {dim})")
    acc = D.float32 if v.dtype.itemsize == 2 else v.dtype
    vf = v.to(acc)
    squares = vf * vf
    if v.ndim > 1:
        kept = 0 if dim == 0 else v.ndim - 1
        squares = squares.sum(tuple(d for d in range(v.ndim) if d != kept), keepdim=True)
    norms = squares.sqrt()
    w = vf * (g.to(acc).reshape(norms.shape) / norms)
    return w.to(v.dtype), norms.reshape(g.shape)


def _declare():
    define("conv_tbc(Tensor self, Tensor weight, Tensor bias, int pad=0) -> Tensor",
           decomposition=_conv_tbc, method=False, modules=("nn.functional",))
    define("as_strided_scatter(Tensor self, Tensor src, int[] size, int[] stride, "
           "int? storage_offset=None) -> Tensor", decomposition=_as_strided_scatter)
    define("slice_inverse(Tensor(a) self, Tensor src, int dim=0, int? start=None, "
           "int? end=None, int step=1) -> Tensor(a)", decomposition=_slice_inverse,
           method=False, wrap_dims=False)  # (PyTorch never reads dim: no range check)
    define("hash_tensor(Tensor self, int[]? dim=[], *, bool keepdim=False, int mode=0) "
           "-> Tensor", decomposition=_hash_tensor, wrap_dims=True, method=False)
    nondifferentiable(OPS["hash_tensor"])
    define("norm_except_dim(Tensor v, int pow=2, int dim=0) -> Tensor",
           decomposition=_norm_except_dim, method=False, wrap_dims=False)
    define("_weight_norm(Tensor v, Tensor g, int dim=0) -> Tensor", decomposition=_weight_norm,
           method=False, wrap_dims=False)
    define("_weight_norm_interface(Tensor v, Tensor g, int dim=0) -> (Tensor, Tensor)",
           decomposition=_weight_norm_interface, method=False, wrap_dims=False)


_declare()
