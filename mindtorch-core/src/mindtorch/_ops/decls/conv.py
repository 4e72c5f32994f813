"""Convolutions: one primitive, `convolution` (as aten's), that conv1d/2d/3d and
conv_transpose1d/2d/3d decompose into; its backward op `convolution_backward` (a kernel
where a backend fuses it, else a decomposition into transposed convolutions, which is
what makes double backward work); im2col / col2im (nn.functional.unfold / fold).

The shape, dtype and error rules (`conv_plan`, `im2col_plan`, `col2im_plan`) are plain
functions of tensor metadata shared by every backend, in PyTorch's order of checks.
"""
from ... import _dtype as D
from ..._memory_format import conv_format, conv_weight_grad_strides, restrided
from ..._memory_format import strides as format_strides
from ..._promotion import _combine, can_cast, promote_types
from ..._warn_once import warn_once
from ...autograd._backward_ops import backward_op
from ...overrides import public_level
from ..registry import OPS, define, derivative, overload
from ._helpers import _type_name
from .linalg import _C_NAMES

# -- shared rules -------------------------------------------------------------------------

def _expand(value, name, dim):
    value = tuple(value)
    if len(value) == 1:
        return value * dim
    if len(value) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={list(value)}")
    return value


def _sizes(values):
    return " x ".join(str(v) for v in values)


_AXES = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}


def _per_axis(name, values):
    """`name_height: 1 name_width: 2`, as the slow kernels print parameters."""
    axes = _AXES.get(len(values)) or [str(i) for i in range(len(values))]
    return " ".join(f"{name}_{a}: {v}" for a, v in zip(axes, values))


def conv_params(weight, stride, padding, dilation, output_padding, groups):
    """stride, padding, dilation, output_padding expanded to the weight's spatial rank."""
    dim = weight.ndim - 2
    if dim <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    return (_expand(stride, "stride", dim), _expand(padding, "padding", dim),
            _expand(dilation, "dilation", dim), _expand(output_padding, "output_padding", dim))


def conv_plan(input, weight, bias, stride, padding, dilation, transposed, output_padding,
              groups):
    """PyTorch's checks of `convolution`, in its order.  Returns (result shape, dtype,
    stride, padding, dilation, output_padding, empty): `empty` when the batch or the
    input channels are empty (no kernel runs; PyTorch then checks no dtypes either)."""
    stride, padding, dilation, output_padding = conv_params(
        weight, stride, padding, dilation, output_padding, groups)
    ws, xs = weight._shape, input._shape
    k = len(ws)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if input.ndim != k:
        raise RuntimeError(f"Expected {k}-dimensional input for {k}-dimensional weight "
                           f"{list(ws)}, but got {input.ndim}-dimensional input of size "
                           f"{list(xs)} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {list(ws)} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{list(ws)}] instead")
    spatial = xs[2:]
    kernel = ws[2:]
    if not transposed:
        if xs[1] != ws[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {list(ws)}, expected "
                               f"input{list(xs)} to have {ws[1] * groups} channels, but got "
                               f"{xs[1]} channels instead")
        if bias is not None and (bias.ndim != 1 or bias._shape[0] != ws[0]):
            raise RuntimeError(f"Given weight of size {list(ws)}, expected bias to be "
                               f"1-dimensional with {ws[0]} elements, but got bias of size "
                               f"{list(bias._shape)} instead")
        padded = [n + 2 * p for n, p in zip(spatial, padding)]
        extent = [d * (n - 1) + 1 for d, n in zip(dilation, kernel)]
        if any(p < e for p, e in zip(padded, extent)):
            raise RuntimeError(f"Calculated padded input size per channel: ({_sizes(padded)}). "
                               f"Kernel size: ({_sizes(extent)}). Kernel size can't be greater "
                               f"than actual input size")
        channels = ws[0]
        out = [(p - e) // s + 1 for p, e, s in zip(padded, extent, stride)]
    else:
        if xs[1] != ws[0]:
            raise RuntimeError(f"Given transposed=1, weight of size {list(ws)}, expected "
                               f"input{list(xs)} to have {ws[0]} channels, but got {xs[1]} "
                               f"channels instead")
        if bias is not None and (bias.ndim != 1 or bias._shape[0] != ws[1] * groups):
            raise RuntimeError(f"Given transposed=1, weight of size {list(ws)}, expected bias "
                               f"to be 1-dimensional with {ws[1] * groups} elements, but got "
                               f"bias of size {list(bias._shape)} instead")
        channels = ws[1] * groups
        out = [(n - 1) * s - 2 * p + d * (kk - 1) + op + 1 for n, s, p, d, kk, op in
               zip(spatial, stride, padding, dilation, kernel, output_padding)]
    empty = xs[0] == 0 or xs[1] == 0
    if empty:
        dtype = _empty_dtype(input, weight, bias, transposed)
        if xs[1] == 0 and not transposed:  # (PyTorch's empty path keeps no channels)
            channels = 0
        if any(n < 0 for n in out):
            bad = next(n for n in out if n < 0)
            raise RuntimeError(f"invalid shape dimension {bad} at index "
                               f"{2 + out.index(bad)} of shape {[xs[0], channels] + out}")
        return ((xs[0], channels) + tuple(out), dtype, stride, padding, dilation,
                output_padding, True)
    if 0 in xs:
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got "
                           f"input shape: {list(xs)}")
    if transposed:
        # (the 1d kernel is the 2d one: a height of output padding 0, stride 1, dilation 1)
        one = len(kernel) == 1
        op2, s2, d2 = ((v0,) * one + tuple(v) for v0, v in ((0, output_padding), (1, stride),
                                                             (1, dilation)))
        if 0 in dilation:
            raise RuntimeError(f"dilation should be greater than zero, but got "
                               f"{_per_axis('dilation', d2).replace(' dilation', ', dilation')}")
        if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
            raise RuntimeError(f"output padding must be smaller than either stride or "
                               f"dilation, but got {_per_axis('output_padding', op2)} "
                               f"{_per_axis('stride', s2)} {_per_axis('dilation', d2)}")
    # oneDNN (and the non-transposed kernels) get the dtypes checked first; PyTorch's slow
    # transposed kernels check their shapes, then dispatch on the dtype, then read the
    # weight (and, 3d, the bias) as the input's type; the 1d/2d one adds the bias in place
    # (any dtype that casts)
    mkldnn = onednn(input, weight, transposed, stride, dilation, groups, output_padding)
    # (the gradients laid out as the kernel's: the decomposition's convolutions of the
    # gradient lay theirs out by other operands)
    slow_transposed = transposed and not mkldnn
    if not transposed:  # (the bias first; the weight once the slow kernel dispatched)
        _same_types(input, input, bias)
    if mkldnn:
        _onednn_same_types(input, weight, bias if transposed else None)
    if not transposed and 0 in dilation:
        if mkldnn:
            raise RuntimeError("non-positive dilation is not supported")
        # (the slow dilated kernels' check, on the 2d view of a 1d convolution)
        shown = [1] * (len(kernel) == 1) + list(dilation)
        raise RuntimeError(f"dilation should be greater than zero, but got {shown}")
    _nonempty_kernel(ws, transposed)
    if transposed and any(n < 1 for n in out):
        # (oneDNN's deconvolution takes an empty dim, if not all of them, of its 2d view)
        if slow_transposed or all(n < 1 for n in ([1] + out if len(out) == 1 else out)):
            raise RuntimeError(f"Given input size per channel: ({_sizes(spatial)}). "
                               f"Calculated output size per channel: ({_sizes(out)}). Output "
                               f"size is too small")
        if any(n < 0 for n in out):
            raise RuntimeError("could not construct a memory descriptor using a format tag")
    if input.dtype.is_complex:  # (PyTorch's complex convolution checks the types first)
        for name, t in (("weight", weight), ("bias", bias)):
            if t is not None and t.dtype is not input.dtype:
                raise RuntimeError(f"Input type ({_type_string(input.dtype)}) and {name} type "
                                   f"({_type_string(t.dtype)}) should be the same")
    _supported(input.dtype, transposed, len(kernel), any(d != 1 for d in dilation))
    slow = [] if mkldnn else [weight] if not transposed else \
        [weight, bias if len(kernel) == 3 else None]
    for t in slow:
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input.dtype)} but found "
                               f"{_type_name(t.dtype)}")
        if bias is not None and len(kernel) <= 2:
            bt = promote_types(input.dtype, bias.dtype)
            if not can_cast(bt, input.dtype):
                raise RuntimeError(f"result type {_type_name(bt)} can't be cast to the "
                                   f"desired output type {_type_name(input.dtype)}")
    return ((xs[0], channels) + tuple(out), input.dtype, stride, padding, dilation,
            output_padding, False)


def onednn(input, weight, transposed, stride, dilation, groups, output_padding):
    """Whether PyTorch's CPU convolution takes its oneDNN (mkldnn) backend: its
    use_mkldnn for float32 inputs (with one thread, as PyTorch is compared with), on the
    4-d views of 1d convolutions, and bfloat16 inputs where oneDNN supports bfloat16 (its
    mkldnn_bf16_device_check).  That backend checks the bias dtype."""
    if input.dtype is not D.float32 and input.dtype is not D.bfloat16:
        return False
    if transposed and any(op >= s for op, s in zip(output_padding, stride)):
        return False
    if input.dtype is D.bfloat16:
        return _onednn_bf16(input.device.type)
    xs, ws = tuple(input._shape), tuple(weight._shape)
    if len(xs) == 3:
        xs, ws = xs[:2] + (1,) + xs[2:], ws[:2] + (1,) + ws[2:]
    if not (any(s != 1 for s in stride) or any(d != 1 for d in dilation) or xs[0] >= 16 or
            ws[-1] != 1 or ws[-2] != 1):
        return False
    return groups > 1 or (ws[-1] > 3 and ws[-2] > 3) or xs[0] > 1 or \
        xs[0] * xs[1] * xs[2] * xs[3] > 20480


def _onednn_bf16(device_type):
    from ..._device_modules import device_module
    supported = getattr(device_module(device_type), "_is_mkldnn_bf16_supported", None)
    return supported is not None and supported()


def _empty_dtype(input, weight, bias, transposed):
    """The dtype of PyTorch's empty-input path: input * weight.view(-1)[0] (a 0-dim
    weight: its dtype only where of a higher category), input.view(-1) * weight.view(-1)
    without channels; then output.add_(bias[0]).  Not transposed, the bias is checked
    first."""
    if bias is not None and not transposed and bias.dtype is not input.dtype:
        _same_types(input, input, bias)
    if input._shape[1] == 0:
        dtype = promote_types(input.dtype, weight.dtype)
    else:
        if weight.numel() == 0:
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        dtype = _combine(input.dtype, weight.dtype)
    if bias is not None and not can_cast(_combine(dtype, bias.dtype), dtype):
        raise RuntimeError(f"result type {_type_name(_combine(dtype, bias.dtype))} can't be "
                           f"cast to the desired output type {_type_name(dtype)}")
    return dtype


def _nonempty_kernel(ws, transposed):
    """The kernels' own weight checks (after the dtype checks): no empty kernel dim; a
    transposed kernel also no empty output channels."""
    kernel = ws[2:]
    if transposed and len(kernel) == 3 and 0 in ws:
        raise RuntimeError(f"non-empty 5D (n_output_plane x n_input_plane x kernel_depth x "
                           f"kernel_height x kernel_width) tensor expected for weight, but "
                           f"got: {list(ws)}")
    if 0 in kernel:
        if len(kernel) == 3:
            raise RuntimeError(f"kernel size should be greater than zero, but got: "
                               f"{_sizes(kernel)} (TxHxW)")
        kh, kw = ((1,) + tuple(kernel))[-2:]
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: "
                           f"{kh} kernel_width: {kw}")
    if transposed and ws[1] == 0:
        shape = list(ws) if len(kernel) == 2 else [ws[0], ws[1], 1, ws[2]]
        raise RuntimeError(f"non-empty 2D or 4D weight tensor expected, but got: {shape}")


def _same_types(input, weight, bias):
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({_C_NAMES[input.dtype.name]}) and {name} type "
                               f"({_C_NAMES[t.dtype.name]}) should be the same")


_LEGACY_TENSOR_TYPES = {"Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"}


def _type_string(dtype):
    """PyTorch's Tensor::toString() on CPU: torch.FloatTensor, ..., else CPUBFloat16Type."""
    name = _type_name(dtype)
    return f"torch.{name}Tensor" if name in _LEGACY_TENSOR_TYPES else f"CPU{name}Type"


def _onednn_same_types(input, weight, bias):
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({_type_string(input.dtype)}) and {name} type "
                               f"({_type_string(t.dtype)}) should be the same or input should "
                               f"be a MKLDNN tensor and {name} is a dense tensor")


def _supported(dtype, transposed, dim, dilated=False):
    """PyTorch's CPU kernels: no bool; transposed and dilated ones take no integers but
    int64."""
    if dilated and not transposed and dtype.kind in "ui" and dtype is not D.int64:
        raise NotImplementedError(f'"slow_conv_dilated<>" not implemented for '
                                  f'\'{_type_name(dtype)}\'')
    if dtype is D.bool or transposed and dtype.kind in "ui" and dtype is not D.int64:
        kernel = (f"slow_conv_transpose{max(dim, 2)}d_out_cpu" if transposed else
                  "compute_columns3d" if dim == 3 else "slow_conv2d_cpu")
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(dtype)}\'')


def _blocks_params(names, values):
    """im2col/col2im's size-2 arguments, an int standing for both."""
    out = []
    for name, v in zip(names, values):
        v = (v, v) if isinstance(v, int) else tuple(v)
        if len(v) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(v)}")
        out.append(v)
    return out


def _check_blocks(kernel, dilation, padding, stride, order):
    checks = {
        "kernel": (kernel, lambda v: v > 0, "kernel size should be greater than zero, but got "
                   f"kernel_height: {kernel[0]} kernel_width: {kernel[1]}"),
        "dilation": (dilation, lambda v: v > 0, "dilation should be greater than zero, but got "
                     f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}"),
        "padding": (padding, lambda v: v >= 0, "padding should be non-negative, but got "
                    f"pad_height: {padding[0]} pad_width: {padding[1]}"),
        "stride": (stride, lambda v: v > 0, "stride should be greater than zero, but got "
                   f"stride_height: {stride[0]} stride_width: {stride[1]}"),
    }
    for name in order:
        values, ok, message = checks[name]
        if not all(ok(v) for v in values):
            raise RuntimeError(message)


def _dim_error(t, d):
    if t.ndim == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    raise IndexError(f"Dimension out of range (expected to be in range of [{-t.ndim}, "
                     f"{t.ndim - 1}], but got {d})")


def im2col_plan(self, kernel_size, dilation, padding, stride):
    """(result shape, kernel, dilation, padding, stride, blocks) of im2col (F.unfold)."""
    kernel, dilation, padding, stride = _blocks_params(
        ("kernel_size", "dilation", "padding", "stride"),
        (kernel_size, dilation, padding, stride))
    _check_blocks(kernel, dilation, padding, stride, ("kernel", "dilation", "padding", "stride"))
    s = self._shape
    for d in (1, 2):
        if self.ndim <= d:
            _dim_error(self, d)
    valid = s[1] != 0 and s[2] != 0
    if not (self.ndim == 3 and s[0] and valid or self.ndim == 4 and valid and s[3]):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {list(s)}")
    h, w = s[-2:]
    blocks = [(n + 2 * p - (d * (k - 1) + 1)) // st + 1
              for n, p, d, k, st in zip((h, w), padding, dilation, kernel, stride)]
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=("
                           f"{padding[0]}, {padding[1]}), calculated shape of the array of "
                           f"sliding blocks as ({blocks[0]}, {blocks[1]}), but its components "
                           f"must be at least one.")
    c = s[-3]
    shape = (c * kernel[0] * kernel[1], blocks[0] * blocks[1])
    if self.ndim == 4:
        shape = (s[0],) + shape
    _no_integers("im2col_out_cpu", self)
    return shape, kernel, dilation, padding, stride, blocks


def col2im_plan(self, output_size, kernel_size, dilation, padding, stride):
    """(result shape, output_size, kernel, dilation, padding, stride, blocks) of col2im."""
    size, kernel, dilation, padding, stride = _blocks_params(
        ("output_size", "kernel_size", "dilation", "padding", "stride"),
        (output_size, kernel_size, dilation, padding, stride))
    _check_blocks(kernel, dilation, padding, stride, ("kernel", "stride", "dilation", "padding"))
    s = self._shape
    if self.ndim in (2, 3):
        ok = s[0] != 0 and s[1] != 0 if self.ndim == 2 else s[1] != 0 and s[2] != 0
    else:
        ok = False
    if not ok:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: {list(s)}")
    planes, length = s[-2:]
    if planes % (kernel[0] * kernel[1]):  # (dims counted with a batch, even for unbatched)
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={planes} and "
                           f"kernel_size=({kernel[0]}, {kernel[1]}).")
    blocks = [(n + 2 * p - d * (k - 1) - 1) // st + 1
              for n, p, d, k, st in zip(size, padding, dilation, kernel, stride)]
    given = (f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, "
             f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
             f"{padding[1]}), stride=({stride[0]}, {stride[1]}), ")
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"{given}expected size of input's dimension 2 to match the "
                           f"calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size(2)={length}.")
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"{given}calculated shape of the array of sliding blocks as "
                           f"({blocks[0]}, {blocks[1]}), which is too small (non-positive)")
    if size[0] < 1 or size[1] < 1:
        raise RuntimeError(f"Expected output spatial size to be positive, but got: "
                           f"output_size=({size[0]}, {size[1]}).")
    shape = (planes // (kernel[0] * kernel[1]),) + size
    if self.ndim == 3:
        shape = (s[0],) + shape
    _no_integers("col2im_out_cpu", self)
    return shape, size, kernel, dilation, padding, stride, blocks


def _no_integers(kernel, t):
    if t.dtype.kind in "ui":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t.dtype)}\'')


# -- the public convolutions (decompositions into `convolution`) ---------------------------

def _batched(input, n, name):
    """input with a batch dim, and whether one was added (PyTorch's unbatched inputs)."""
    if input.ndim == n + 2:
        return input, False
    if input.ndim == n + 1:
        return input.unsqueeze(0), True
    raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, "
                       f"but got input of size: {list(input._shape)}")


def _conv_nd(n):
    name = f"conv{n}d"

    def conv(input, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), groups=1):
        x, unbatched = _batched(input, n, name)
        # (PyTorch's conv{n}d takes int[n]: one value is repeated before `convolution`
        # checks them against the weight's rank)
        stride, padding, dilation = (v * n if len(v) == 1 else v
                                     for v in (stride, padding, dilation))
        r = OPS["convolution"].call(x, weight, bias, stride, padding, dilation, False, (0,),
                                    groups)
        return r.squeeze(0) if unbatched else r
    conv.__name__ = name
    return conv


def _conv_transpose_nd(n):
    name = f"conv_transpose{n}d"

    def conv_transpose(input, weight, bias=None, stride=(1,), padding=(0,),
                       output_padding=(0,), groups=1, dilation=(1,)):
        x, unbatched = _batched(input, n, name)
        stride, padding, output_padding, dilation = (
            v * n if len(v) == 1 else v for v in (stride, padding, output_padding, dilation))
        r = OPS["convolution"].call(x, weight, bias, stride, padding, dilation, True,
                                    output_padding, groups)
        return r.squeeze(0) if unbatched else r
    conv_transpose.__name__ = name
    return conv_transpose


def _same_padding(n, input, weight, stride, dilation, groups):
    """padding='same' as PyTorch computes it: (input, symmetric padding), the input padded
    by one more zero on the far side of a dim whose total padding is odd."""
    from ..._tensor import Tensor
    if not isinstance(weight, Tensor) or not isinstance(input, Tensor):
        return input, 0  # the binding reports the bad argument
    dim = weight.ndim - 2
    if dim <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if input.ndim != weight.ndim:
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-"
                           f"dimensional weight{list(weight._shape)}, but got {input.ndim}-"
                           f"dimensional input of size {list(input._shape)} instead")
    stride = (stride,) if isinstance(stride, int) else tuple(stride)
    dilation = (dilation,) if isinstance(dilation, int) else tuple(dilation)
    for arg, values in (("stride", stride), ("dilation", dilation)):
        if len(values) not in (1, dim):
            raise RuntimeError(f"{arg} cannot broadcast to {dim} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation = dilation * dim if len(dilation) == 1 else dilation
    total = [d * (k - 1) for d, k in zip(dilation, weight._shape[2:])]
    left = [t // 2 for t in total]
    extra = [t - 2 * lo for t, lo in zip(total, left)]  # 0 or 1 (negative dilation: -1)
    if any(e > 0 for e in extra):
        warn_once("conv same", "Using padding='same' with even kernel lengths and odd "
                  "dilation may require a zero-padded copy of the input be created")
        shape = input._shape[:2] + tuple(s + max(e, 0) for s, e in
                                         zip(input._shape[2:], extra))
        padded = OPS["zeros"].binding(shape, dtype=input.dtype, device=input._device)
        padded[(slice(None), slice(None)) + tuple(slice(0, s) for s in input._shape[2:])] = \
            input
        input = padded
    return input, tuple(left)


def _conv_public(n):
    """conv{n}d also takes padding='valid' / 'same' (PyTorch's conv{n}d.padding overload)."""
    name = f"conv{n}d"

    def make(binding):
        def conv(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
            if isinstance(padding, str):
                from ..._tensor import Tensor
                if isinstance(input, Tensor) and input.ndim not in (n + 1, n + 2):
                    _batched(input, n, name)  # the rank error comes first
                if padding == "valid":
                    padding = 0
                elif padding == "same":
                    unbatched = isinstance(input, Tensor) and input.ndim == n + 1
                    x = input.unsqueeze(0) if unbatched else input
                    x, padding = _same_padding(n, x, weight, stride, dilation, groups)
                    input = x.squeeze(0) if unbatched else x
                else:
                    raise RuntimeError(f"Invalid padding string: '{padding}'")
            return binding(input, weight, bias, stride, padding, dilation, groups)
        return conv
    return make


# -- convolution_backward's decomposition (transposed convolutions of the gradient) -------

def _narrow_to(t, shape):
    """t narrowed to `shape` in its spatial dims (a convolution of the gradient may cover a
    little more than the input or weight did)."""
    for i, n in enumerate(shape[2:], 2):
        if t._shape[i] > n:
            t = t.narrow(i, 0, n)
    return t


def _weight_grad(input, grad, weight_shape, stride, padding, dilation, groups):
    """Weight gradient of a (not transposed) convolution of `input` giving `grad`: a
    convolution of the input's channels, over the batch, by the gradient (stride and
    dilation swap roles), groups kept apart by folding them into the batch."""
    n, c = input._shape[:2]
    g = groups
    if input.numel() == 0 or grad.numel() == 0:  # nothing flows (no convolution to run)
        return OPS["zeros"].binding(weight_shape, dtype=grad.dtype, device=grad._device)
    spatial_in = input._shape[2:]
    # input: (C/g, g*N, *S): one "batch" row per input channel of a group
    rest = tuple(range(3, 3 + len(spatial_in)))
    x = input.reshape((n, g, c // g) + spatial_in).permute((2, 1, 0) + rest)
    x = x.reshape((c // g, g * n) + spatial_in)
    w = grad.transpose(0, 1)  # "weight": (Cout, N, *O), output channels in group order
    r = OPS["convolution"].call(x, w, None, dilation, padding, stride, False, (0,), g)
    return _narrow_to(r.transpose(0, 1), weight_shape)


def _input_grad_strides(input, weight, onednn):
    fmt = conv_format(input, weight, onednn)
    return format_strides(input._shape, fmt or "contiguous_format")


def _convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    stride, padding, dilation, output_padding = conv_params(
        weight, stride, padding, dilation, output_padding, groups)
    conv = OPS["convolution"].call
    mask = tuple(output_mask) + (False,) * (3 - len(output_mask))
    mkldnn = onednn(input, weight, transposed, stride, dilation, groups, output_padding)
    # (the gradients laid out as the kernel's: the decomposition's convolutions of the
    # gradient lay theirs out by other operands)
    gi = gw = gb = None
    if mask[0]:
        if not transposed:
            extra = [n - ((o - 1) * s - 2 * p + d * (k - 1) + 1) for n, o, s, p, d, k in
                     zip(input._shape[2:], grad_output._shape[2:], stride, padding, dilation,
                         weight._shape[2:])]
            gi = conv(grad_output, weight, None, stride, padding, dilation, True, extra, groups)
        else:
            gi = _narrow_to(conv(grad_output, weight, None, stride, padding, dilation, False,
                                 (0,), groups), input._shape)
        gi = restrided(gi, _input_grad_strides(input, weight, mkldnn))
    if mask[1]:
        if not transposed:
            gw = _weight_grad(input, grad_output, weight._shape, stride, padding, dilation,
                              groups)
        else:  # the roles of input and gradient swap
            gw = _weight_grad(grad_output, input, weight._shape, stride, padding, dilation,
                              groups)
        gw = restrided(gw, conv_weight_grad_strides(input, weight, mkldnn))
    if mask[2]:
        gb = grad_output.sum([0] + list(range(2, grad_output.ndim)))
    return gi, gw, gb


# -- declarations -------------------------------------------------------------------------

_CONV_ARGS = ("Tensor input, Tensor weight, Tensor? bias=None, int[] stride=1, "
              "int[] padding=0, int[] dilation=1, int groups=1")
_CONV_T_ARGS = ("Tensor input, Tensor weight, Tensor? bias=None, int[] stride=1, "
                "int[] padding=0, int[] output_padding=0, int groups=1, int[] dilation=1")
_FUNCTIONAL = ("nn.functional",)


def _declare():
    define("convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, "
           "int[] padding, int[] dilation, bool transposed, int[] output_padding, "
           "int groups) -> Tensor", tags=("conv",), method=False)
    define("convolution_backward(Tensor grad_output, Tensor input, Tensor weight, "
           "int[]? bias_sizes, int[] stride, int[] padding, int[] dilation, bool transposed, "
           "int[] output_padding, int groups, bool[] output_mask) -> (Tensor, Tensor, Tensor)",
           tags=("conv",), function=False, method=False,
           decomposition=_convolution_backward)
    for n in (1, 2, 3):
        conv = define(f"conv{n}d({_CONV_ARGS}) -> Tensor", tags=("conv",), method=False,
                      modules=_FUNCTIONAL, decomposition=_conv_nd(n))
        overload(conv, public_level(conv, _conv_public(n)))
        define(f"conv_transpose{n}d({_CONV_T_ARGS}) -> Tensor", tags=("conv",), method=False,
               modules=_FUNCTIONAL, decomposition=_conv_transpose_nd(n))
    # torch.unfold / Tensor.unfold are another op (a view): these are F.unfold / F.fold
    define("im2col(Tensor self, int|int[] kernel_size, int|int[] dilation=1, "
           "int|int[] padding=0, int|int[] stride=1) -> Tensor", tags=("conv",),
           function=False, method=False, modules=_FUNCTIONAL, public_name="unfold")
    define("col2im(Tensor self, int|int[] output_size, int|int[] kernel_size, "
           "int|int[] dilation=1, int|int[] padding=0, int|int[] stride=1) -> Tensor",
           tags=("conv",), function=False, method=False, modules=_FUNCTIONAL,
           public_name="fold")


# -- backward formulas --------------------------------------------------------------------
# One formula per input, so that only the gradients wanted are computed (a first layer's
# input usually needs none); each asks convolution_backward for its own output.  Complex
# convolutions take the other operand conjugated (PyTorch's convention for gradients).

def _cj(t):
    return t.conj() if t.dtype.is_complex else t


def _input_grad(grad, input, weight, stride, padding, dilation, transposed, output_padding,
                groups):
    return OPS["convolution_backward"].call(grad, input, _cj(weight), None, stride, padding,
                                            dilation, transposed, output_padding, groups,
                                            (True, False, False))[0]


def _weight_grad_formula(grad, input, weight, stride, padding, dilation, transposed,
                         output_padding, groups):
    return OPS["convolution_backward"].call(grad, _cj(input), weight, None, stride, padding,
                                            dilation, transposed, output_padding, groups,
                                            (False, True, False))[1]


def _bias_grad(grad):
    return grad.sum([0] + list(range(2, grad.ndim)))


def _im2col_grad(grad, self_geometry, kernel_size, dilation, padding, stride):
    size = self_geometry[0][-2:]
    return OPS["col2im"].call(grad, size, kernel_size, dilation, padding, stride)


def _col2im_grad(grad, kernel_size, dilation, padding, stride):
    return OPS["im2col"].call(grad, kernel_size, dilation, padding, stride)


def _derivatives():
    # (PyTorch's convolution_backward takes input and weight: under create_graph both
    # gradients require grad when either does, the other getting no gradient back)
    input_grad, weight_grad, bias_grad = (
        backward_op(f, inputs=("input", "weight"), zeros=False)
        for f in (_input_grad, _weight_grad_formula, _bias_grad))
    derivative(OPS["convolution"], input=input_grad, weight=weight_grad, bias=bias_grad)
    derivative(OPS["im2col"], self=_im2col_grad, name="Im2ColBackward0")
    derivative(OPS["col2im"], self=_col2im_grad, name="Col2ImBackward0")


_declare()
_derivatives()
