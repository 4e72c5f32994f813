"""PyTorch functions outside the main families that programs still call, each a
decomposition into other ops (so every backend runs them, autograd goes through the
sub-ops): conv_tbc (time-batch-channel convolution, fairseq's), as_strided_scatter and
slice_inverse (functionalization's scatter into / inverse of a view), hash_tensor (xor of
the elements' 64-bit patterns)."""
from ... import _dtype as D
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


_declare()
