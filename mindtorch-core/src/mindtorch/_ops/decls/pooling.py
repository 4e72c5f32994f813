"""Pooling: max / average / adaptive / Lp pooling and max unpooling, 1d to 3d.

The kernels' ops follow ATen (`max_pool2d_with_indices`, `avg_pool2d`,
`_adaptive_avg_pool2d`, `adaptive_max_pool2d` -> (values, indices), `max_unpool2d`, and
their `*_backward` ops); 1d pooling is 2d pooling of `self.unsqueeze(-2)`, as PyTorch
does it (so its graph ends in SqueezeBackward1).  Where torch.nn.functional's function
differs from ATen's op of the same name (F.adaptive_max_pool2d returns values unless
return_indices=True, F.max_unpool2d takes kernel_size/stride/padding), the functional
form is its own composite op, `nn_<name>`, exposed in nn.functional under the name.

Indices are PyTorch's: the flat position of the maximum within its (unpadded) plane.
Besides the declarations this module holds the shape/validity rules every backend calls.
"""
from ..._dtype import scalar_type_name as _type_name
from ..._memory_format import strides as format_strides
from ..._memory_format import suggest
from ..._shapes import numel as _numel
from ...autograd.functional_helpers import zeros
from ...overrides import public_level
from ..registry import OPS, define, derivative, overload, route_overloads

NN = ("nn.functional",)
_WORDS = {1: "one int", 2: "two ints", 3: "three ints"}
_LETTERS = {1: ("W",), 2: ("H", "W"), 3: ("T", "H", "W")}


# -- rules shared by every backend (metadata only) --------------------------------------

def expand(value, n, message):
    """An int[] argument as n ints: one int (or a one-element list) stands for all."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(message)
    return value


def check_dtype(kernel, self, kinds, extra=()):
    """PyTorch's NotImplementedError for dtypes a kernel is not compiled for (kinds: numpy
    kind letters; extra: further dtype names accepted)."""
    dt = self.dtype
    if dt.kind not in kinds and str(dt).split(".")[-1] not in extra:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(dt)}\'')


def kernel_for_layout(name, self):
    """The name of PyTorch's pooling kernel for self: its channels-last kernel for a batch
    laid out so."""
    return name if suggest(self) == "contiguous_format" else f"{name}_channels_last"


def check_dim_range(name, self, lo, hi):
    if not lo <= self.ndim <= hi:
        raise RuntimeError(f"Expected {lo} to {hi} dimensions, but got {self.ndim}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {name})")


def check_1d(name, arg, value, allow_empty=False):
    """ATen's check1d: a 1d pooling argument holds one int."""
    if isinstance(value, int):
        return value
    value = tuple(value)
    if len(value) != 1 and not (allow_empty and not value):
        raise RuntimeError(f"{name}() argument '{arg}' should contain one int (got "
                           f"{len(value)})")
    return value[0] if value else None


def output_size(size, k, pad, stride, dilation, ceil_mode):
    """ATen's pooling_output_shape (floor division; ceil mode keeps the last window's
    start inside the input or its left padding)."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > int(((k - 1) * dilation + 1) / 2):  # (C++ division: toward zero)
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={pad}, kernel_size={k} and dilation={dilation}")
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) \
        // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def pool_plan(name, self, nd, kernel_size, stride, padding, dilation=1, ceil_mode=False,
              lenient_rank=False, kernel_fits=False):
    """(kernel, stride, padding, dilation, output spatial sizes) of an nd max/avg pooling
    over the last nd dims of self (nd + 1 or nd + 2 dims: unbatched or batched), with
    PyTorch's checks.  lenient_rank: avg pooling reads the channel count first (an
    IndexError for too few dims, as PyTorch's); kernel_fits: the kernel may not exceed
    the unpadded input (avg_pool3d's check, whatever ceil_mode)."""
    what = _WORDS[nd]
    must = "must" if name == "avg_pool3d" else "must either"  # (avg_pool3d's wording)
    k = expand(kernel_size, nd, f"{name}: kernel_size {must} be a single int, or a "
                                f"tuple of {what}")
    s = k if stride is None or stride == () else \
        expand(stride, nd, f"{name}: stride {must} be omitted, a single int, or a tuple "
                           f"of {what}")
    p = expand(padding, nd, f"{name}: padding {must} be a single int, or a tuple of "
                            f"{what}")
    d = expand(dilation, nd, f"{name}: dilation must be either a single int, or a tuple of "
                             f"{what}")
    ndim = self.ndim
    if lenient_rank and ndim < nd + 1:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {-nd - 1})")
    shape = self._shape
    if ndim not in (nd + 1, nd + 2):
        if name == "avg_pool2d":  # (its one check covers the rank and the empty dims)
            raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim "
                               f"batch size for input, but got:{list(shape)}")
        raise RuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for "
                           f"input")
    sizes = shape[-nd:]
    out = tuple(output_size(sizes[i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(nd))
    letters = _LETTERS[nd]
    for label, v in (("kernel size", k), ("stride", s), ("dilation", d)):
        if min(v) <= 0:
            key = {"kernel size": "k", "stride": "d"}.get(label, label)
            got = " ".join(f"{key}{c}: {x}" for c, x in zip(letters, v))
            raise RuntimeError(f"{label} should be greater than zero, but got {got}")
    if 0 in shape[ndim - nd - 1 if ndim == nd + 2 else 0:]:
        raise RuntimeError(f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(shape)}")
    if kernel_fits and any(n < kk for n, kk in zip(sizes, k)):
        raise RuntimeError(f"input image ({' '.join(f'{c}: {n}' for c, n in zip(letters, sizes))}"
                           f") smaller than kernel size ("
                           f"{' '.join(f'k{c}: {n}' for c, n in zip(letters, k))})")
    if any(k[i] // 2 < p[i] for i in range(nd)):
        got = ", ".join([f"pad{c} = {x}" for c, x in zip(letters[::-1], p[::-1])] +
                        [f"k{c} = {x}" for c, x in zip(letters[::-1], k[::-1])])
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got {got}")
    if min(out) < 1:
        planes = shape[-nd - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (planes,) + sizes))}). "
                           f"Calculated output size: ({'x'.join(map(str, (planes,) + out))}). "
                           f"Output size is too small")
    return k, s, p, d, out


def max_pool_plan(nd, self, kernel_size, stride, padding, dilation, ceil_mode):
    """(kernel, stride, padding, dilation, output spatial sizes) of max_pool{nd}d."""
    check_dtype(kernel_for_layout(f"max_pool{nd}d", self), self, "fiu")
    return pool_plan(f"max_pool{nd}d", self, nd, kernel_size, stride, padding, dilation,
                     ceil_mode)


def avg_pool_plan(nd, self, kernel_size, stride, padding, ceil_mode, divisor_override):
    """(kernel, stride, padding, output spatial sizes) of avg_pool{nd}d (floating types
    and int64 only, as PyTorch's CPU kernels; no 16-bit floats in 3d)."""
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    k, s, p, _, out = pool_plan(f"avg_pool{nd}d", self, nd, kernel_size, stride, padding, 1,
                                ceil_mode, lenient_rank=nd == 2, kernel_fits=nd == 3)
    if nd == 2:
        check_dtype(kernel_for_layout("avg_pool2d", self), self, "f", ("int64",))
    else:
        check_dtype("avg_pool3d_out_frame", self, "", ("int64", "float32", "float64"))
    return k, s, p, out


def adaptive_plan(name, self, nd, output_size):
    """Output shape of an adaptive pooling (floating inputs only).  PyTorch requires
    non-empty spatial dims for average pooling, non-empty non-batch dims for max pooling."""
    if len(output_size) != nd:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {nd}"
                           if name.startswith("adaptive_max") else
                           f"{name}: output_size must be {nd}")
    if self.ndim not in (nd + 1, nd + 2):
        colon = ":" if name.startswith("adaptive_max") else ""  # (the kernels' wordings)
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got{colon} "
                           f"{list(self._shape)}")
    # non-empty dims: max pooling's and avg_pool3d's from dim 1, avg_pool2d's spatial ones
    start = 1 if name.startswith("adaptive_max") or nd == 3 else self.ndim - nd
    for i in range(start, self.ndim):
        if self._shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(self._shape)} with "
                               f"dimension {i} being empty")
    if min(output_size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(output_size)}"
                           f": {list(self._shape[:-nd] + tuple(output_size))}")
    shape = self._shape[:-nd] + tuple(output_size)
    # (PyTorch's 2d average pooling runs no kernel, so checks no dtype, for an empty output)
    if not (nd == 2 and name == "adaptive_avg_pool2d" and _numel(shape) == 0):
        check_dtype(kernel_for_layout(name, self) if nd == 2 else f"{name}_cpu", self, "f")
    return shape


def adaptive_windows(size, out):
    """Each output position's window [start, end) of an adaptive pooling: PyTorch's
    floor(i * size / out) and ceil((i + 1) * size / out)."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def max_unpool_plan(nd, self, indices, output_size, stride=None, padding=None):
    """Output shape of max_unpool{nd}d, with PyTorch's checks in its order (2d: the
    output_size length before the rank; 3d: the rank, then output_size, stride, padding)."""
    name = "max_unpooling2d_forward_out_cpu" if nd == 2 else "max_unpooling3d_forward_out_cpu"
    if indices.dtype.kind != "i" or indices.dtype.itemsize != 8:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{_type_name(indices.dtype)}")
    axes = ", ".join(("depth", "height", "width")[3 - nd:])
    word = _WORDS[nd].split()[0]

    def check_length(arg, value):
        if value is not None and len(value) != nd:
            raise RuntimeError(f"There should be exactly {word} elements ({axes}) in {arg}, "
                               f"but got{'' if nd == 2 else ':'} {len(value)} elements.")
    if nd == 2:
        check_length("output_size", output_size)
    if self.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"Input to max_unpooling{nd}d should be a {nd + 1}d or {nd + 2}d "
                           f"Tensor, but got a tensor with {self.ndim} dimensions.")
    if nd == 3:
        for arg, value in (("output_size", output_size), ("stride", stride),
                           ("padding", padding)):
            check_length(arg, value)
    if self._shape != indices._shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(self._shape)}) but got indices tensor with shape: "
                           f"{list(indices._shape)}")
    for i in range(1, self.ndim):
        if self._shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(self._shape)} with dimension {i} "
                               f"being empty.")
    if stride is not None and min(stride) <= 0:
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(stride)}")
    if min(output_size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(output_size)}"
                           f": {list(self._shape[:-nd] + tuple(output_size))}")
    shape = self._shape[:-nd] + tuple(output_size)
    if _numel(shape):  # (PyTorch runs no kernel, so checks no dtype, for an empty output)
        check_dtype(f"max_unpool{nd}d", self, "f")
    return shape


# -- decompositions ----------------------------------------------------------------------

def _values(name):
    """The values-only pooling: the with-indices op's first output (recording the
    with-indices op's node, MaxPool2DWithIndicesBackward0, as PyTorch's does)."""
    def values(self, *args):
        return OPS[name].call(self, *args)[0]
    return values


def _max_pool1d_with_indices(self, kernel_size, stride=None, padding=0, dilation=1,
                             ceil_mode=False):
    return _pool1d("max_pool1d", self, kernel_size, stride, padding, dilation, ceil_mode,
                   "max_pool2d_with_indices")


def _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode):
    """ATen's max_pool1d checks, ahead of either of its kernels."""
    n, shape = self.ndim, self._shape
    if not (n == 2 and 0 not in shape or n == 3 and 0 not in shape[1:]):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(shape)}")
    args = {}
    for arg, value, none in (("kernel_size", kernel_size, "an int, list of ints or"),
                             ("stride", stride, "None, an int, list of ints, or"),
                             ("padding", padding, "an int, list of ints, or"),
                             ("dilation", dilation, "an int, list of ints or")):
        value = () if value is None else (value,) if isinstance(value, int) else tuple(value)
        if len(value) != 1 and not (arg == "stride" and not value):
            raise RuntimeError(f"max_pool1d() {arg} must be {none} tuple of ints of size 1 but "
                               f"got size {len(value)}")
        args[arg] = value[0] if value else args["kernel_size"]
    k, s, p, d = args.values()
    for arg, value in (("kernel_size", k), ("stride", s)):
        if value <= 0:
            raise RuntimeError(f"max_pool1d() {arg} must be greater than zero, but got {value}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    ow = output_size(shape[-1], k, p, s, d, ceil_mode)
    if ow <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {ow}")


def _max_pool1d(self, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode)
    if self.requires_grad:  # PyTorch's branch: the indices are needed for backward
        return _max_pool1d_with_indices(self, kernel_size, stride, padding, dilation,
                                        ceil_mode)[0]
    check_dtype("max_pool1d_impl", self, "f")
    # (PyTorch's max_pool1d_impl writes a new contiguous tensor, whatever self's layout)
    return _pool1d("max_pool1d", self, kernel_size, stride, padding, dilation, ceil_mode,
                   "max_pool2d").contiguous()


def _pool1d(name, self, kernel_size, stride, padding, dilation, ceil_mode, op2d,
            count_include_pad=None):
    """1d pooling as 2d pooling of self.unsqueeze(-2) (ATen's composite)."""
    check_dim_range(name, self, 2, 3)
    k = check_1d(name, "kernel_size", kernel_size)
    s = check_1d(name, "stride", () if stride is None else stride, allow_empty=True)
    p = check_1d(name, "padding", padding)
    args = [(1, k), (1, k if s is None else s), (0, p)]
    if count_include_pad is None:
        args += [(1, check_1d(name, "dilation", dilation)), ceil_mode]
    else:
        args += [ceil_mode, count_include_pad, None]
    result = OPS[op2d].call(self.unsqueeze(-2), *args)
    if isinstance(result, tuple):
        return tuple(r.squeeze(-2) for r in result)
    return result.squeeze(-2)


def _avg_pool1d(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                count_include_pad=True):
    return _pool1d("avg_pool1d", self, kernel_size, stride, padding, 1, ceil_mode,
                   "avg_pool2d", count_include_pad)


def _max_pool_backward(nd):
    """Gradient of a max pooling: grad_output added at each window's argmax (scatter_add
    into the flattened planes), so its own derivative is a gather."""
    def backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                 indices):
        k = expand(kernel_size, nd, "")
        s = k if stride is None or stride == () else expand(stride, nd, "")
        outside = _wholly_padded(self._shape[-nd:], k, s, expand(padding, nd, ""),
                                 expand(dilation, nd, ""))
        return _scatter_max(grad_output, self._shape, indices, nd, outside)
    return backward


def _wholly_padded(sizes, k, s, p, d):
    """Whether a window lies wholly in the padding (only one starting before the input
    can): its index points outside the plane, and its gradient reaches no input."""
    return any(not any(0 <= b + j * dd < n for j in range(kk))
               for n, kk, ss, pp, dd in zip(sizes, k, s, p, d) for b in range(-pp, 0, ss))


def _scatter_max(grad, shape, indices, nd, outside=False):
    lead = tuple(shape[:-nd])
    plane, out = _numel(shape[-nd:]), _numel(grad.shape[len(lead):])
    flat = grad.new_zeros(lead + (plane,))
    indices, grad = indices.reshape(lead + (out,)), grad.reshape(lead + (out,))
    if outside:
        keep = (indices >= 0) & (indices < plane)
        indices, grad = indices.clamp(0, max(plane - 1, 0)), grad.where(keep, 0)
    return flat.scatter_add(-1, indices, grad).reshape(shape)


def _gather_max(grad, indices, nd):
    """The values at `indices` (flat per plane) of grad: the max unpooling's gradient."""
    lead = tuple(indices.shape[:-nd])
    return grad.reshape(lead + (_numel(grad.shape[-nd:]),)).gather(
        -1, indices.reshape(lead + (_numel(indices.shape[-nd:]),))).reshape(indices.shape)


def _adaptive_avg(nd):
    def pool(self, output_size):
        name = f"adaptive_avg_pool{nd}d"
        if len(output_size) != nd:
            raise RuntimeError(f"{name}: output_size must be {nd}")
        if min(output_size) < 0:
            raise RuntimeError(f"{name}: elements of output_size must be greater than or equal "
                               f"to 0 but received {{{', '.join(map(str, output_size))}}}")
        if all(n == 1 for n in output_size):  # PyTorch's shortcut (MeanBackward1)
            out = self.mean(tuple(range(-nd, 0)), keepdim=True)
            fmt = suggest(self)
            if fmt != "contiguous_format":  # (its layout, as PyTorch)
                out.as_strided_(out._shape, format_strides(out._shape, fmt))
            return out
        return OPS[f"_adaptive_avg_pool{nd}d"].call(self, output_size)
    return pool


def _adaptive_avg_pool1d(self, output_size):
    check_dim_range("adaptive_avg_pool1d", self, 2, 3)
    o = check_1d("adaptive_avg_pool1d", "output_size", output_size)
    return OPS["adaptive_avg_pool2d"].call(self.unsqueeze(-2), (1, o)).squeeze(-2)


def _adaptive_max_pool1d(self, output_size):
    check_dim_range("adaptive_max_pool1d", self, 2, 3)
    o = check_1d("adaptive_max_pool1d", "output_size", output_size)
    if o < 0:
        raise RuntimeError(f"adaptive_max_pool1d: elements of output_size must be greater than "
                           f"or equal to 0 but received {o}")
    v, i = OPS["adaptive_max_pool2d"].call(self.unsqueeze(-2), (1, o))
    return v.squeeze(-2), i.squeeze(-2)


def _with_default(output_size, self, nd):
    """F's output sizes: one int stands for every dim, None keeps the input's size."""
    if isinstance(output_size, int) or output_size is None:
        output_size = (output_size,) * nd
        if output_size[0] is not None:
            return output_size
    output_size = tuple(output_size)
    if nd == 1 or not hasattr(self, "_shape"):  # (not a tensor: left to the op's checks)
        return output_size
    if nd > 1 and len(self._shape) <= len(output_size):  # F's _list_with_default
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    n = len(output_size)
    return tuple(self.shape[i - n] if v is None else v for i, v in enumerate(output_size))


def _route_output_size(nd, drop_return_indices=False):
    """F's adaptive poolings: output_size through _with_default (and, for the
    with-indices forms, return_indices accepted and ignored)."""
    def route(args, kwargs):
        args = list(args)
        if drop_return_indices:
            kwargs.pop("return_indices", None)
            del args[2:3]
        self = args[0] if args else kwargs.get("input", kwargs.get("self"))
        if len(args) > 1:
            args[1] = _with_default(args[1], self, nd)
        elif "output_size" in kwargs:
            kwargs["output_size"] = _with_default(kwargs["output_size"], self, nd)
        return tuple(args), kwargs
    return route


def _int_output_size(nd):
    def route(args, kwargs):
        if len(args) > 1 and isinstance(args[1], int):
            args = (args[0], (args[1],) * nd) + tuple(args[2:])
        elif isinstance(kwargs.get("output_size"), int):
            kwargs["output_size"] = (kwargs["output_size"],) * nd
        return args, kwargs
    return route


def _switch_indices(values_name, with_indices_name, position, route=None):
    """F's return_indices: the with-indices op when true, else the values op."""
    def make(binding):
        def public(*args, **kwargs):
            return_indices = kwargs.pop("return_indices", False)
            if len(args) > position:
                return_indices = args[position]
                args = args[:position] + args[position + 1:]
            if return_indices:  # (routed by its own binding)
                return OPS[with_indices_name].binding(*args, **kwargs)
            if route is not None:
                args, kwargs = route(args, kwargs)
            return binding(*args, **kwargs)
        return public
    return overload(OPS[values_name], public_level(OPS[values_name], make))


def _drop_return_indices(position):
    """The with-indices forms of F accept (and ignore) return_indices."""
    def route(args, kwargs):
        kwargs.pop("return_indices", None)
        return args[:position] + args[position + 1:], kwargs
    return route


def _ntuple(value, n):
    """torch.nn.modules.utils._ntuple: a sequence as it is, a number repeated n times."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _nn_max_unpool(nd):
    def unpool(self, indices, kernel_size, stride=None, padding=0, output_size=None):
        k = _ntuple(kernel_size, nd)
        s = k if stride is None else _ntuple(stride, nd)
        p = _ntuple(padding, nd)
        size = unpool_output_size(self, k, s, p, output_size)
        if nd == 1:
            return OPS["max_unpool2d"].call(self.unsqueeze(-1), indices.unsqueeze(-1),
                                            tuple(size) + (1,)).squeeze(-1)
        if nd == 2:
            out = OPS["max_unpool2d"].call(self, indices, tuple(size))
            if suggest(self) == "channels_last":  # (ATen's kernel keeps the layout)
                out = out.contiguous(memory_format=suggest(self))
            return out
        return OPS["max_unpool3d"].call(self, indices, tuple(size), s, p)
    return unpool


def unpool_output_size(self, kernel, stride, padding, output_size):
    """F._unpool_output_size: the default, or a requested size within a stride of it (its
    IndexErrors where stride or padding are shorter than the kernel)."""
    nd = len(kernel)

    def at(seq, i):
        if not -len(seq) <= i < len(seq):
            raise IndexError("tuple index out of range")
        return seq[i]
    default = [(at(self.shape, d - nd) - 1) * at(stride, d) + kernel[d] - 2 * at(padding, d)
               for d in range(nd)]
    if output_size is None:
        return default
    if len(output_size) == nd + 2:  # (kept as given: the message prints it)
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(nd):
        lo, hi = default[d] - stride[d], default[d] + stride[d]
        if not lo < output_size[d] < hi:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f'{lo} and {hi})')
    return list(output_size)


def _lp_pool(nd):
    def lp_pool(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        import mindtorch as M
        if nd == 1:  # (a sequence fails in avg_pool1d, or multiplying by it)
            count = kernel_size
        else:  # F unpacks _pair / _triple(kernel_size) first (its ValueError)
            ks = _ntuple(kernel_size, nd)
            if len(ks) < nd:
                raise ValueError(f"not enough values to unpack (expected {nd}, got {len(ks)})")
            if len(ks) > nd:
                raise ValueError(f"too many values to unpack (expected {nd})")
            count = 1
            for n in ks:
                count *= n
        pool = OPS[f"max_pool{nd}d"].call
        if norm_type == float("inf"):
            return pool(self.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -pool(-self.abs(), kernel_size, stride, 0, 1, ceil_mode)
        avg = OPS[f"avg_pool{nd}d"].call
        extra = (True,) if nd == 1 else (True, None)
        out = avg(self.pow(norm_type), kernel_size, stride, 0, ceil_mode, *extra)
        if nd == 1 and not isinstance(kernel_size, int):  # F's out.mul(kernel_size)
            raise TypeError(f"mul(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(kernel_size).__name__}")
        return (M.sign(out) * M.relu(M.abs(out))).mul(count).pow(1.0 / norm_type)
    return lp_pool


# -- declarations ------------------------------------------------------------------------

_MAX_ARGS = ("Tensor self, int[] kernel_size, int[]? stride=None, int[] padding=0, "
             "int[] dilation=1, bool ceil_mode=False")
_AVG_ARGS = ("Tensor self, int[] kernel_size, int[]? stride=None, int[] padding=0, "
             "bool ceil_mode=False, bool count_include_pad=True")
_NO_METHOD = {"method": False}


def _declare():
    define(f"max_pool1d_with_indices({_MAX_ARGS}) -> (Tensor, Tensor)",
           decomposition=_max_pool1d_with_indices, modules=NN, **_NO_METHOD)
    define(f"max_pool1d({_MAX_ARGS}) -> Tensor", decomposition=_max_pool1d, modules=NN,
           **_NO_METHOD)
    define(f"avg_pool1d({_AVG_ARGS}) -> Tensor", decomposition=_avg_pool1d, modules=NN,
           **_NO_METHOD)
    for nd in (2, 3):
        name = f"max_pool{nd}d_with_indices"
        define(f"{name}({_MAX_ARGS}) -> (Tensor, Tensor)", modules=NN, function=False,
               **_NO_METHOD)
        define(f"{name}_backward(Tensor grad_output, Tensor self, int[] kernel_size, "
               f"int[] stride, int[] padding, int[] dilation, bool ceil_mode, Tensor indices)"
               f" -> Tensor", decomposition=_max_pool_backward(nd), function=False,
               **_NO_METHOD)
        # a values-only kernel where backends have one; recording goes through the
        # with-indices op (the decomposition), as PyTorch's max_pool2d does
        define(f"max_pool{nd}d({_MAX_ARGS}) -> Tensor", decomposition=_values(name),
               modules=NN, **_NO_METHOD)
        define(f"avg_pool{nd}d({_AVG_ARGS}, int? divisor_override=None) -> Tensor",
               modules=NN, function=False, **_NO_METHOD)
        define(f"avg_pool{nd}d_backward(Tensor grad_output, Tensor self, int[] kernel_size, "
               f"int[] stride, int[] padding, bool ceil_mode, bool count_include_pad, "
               f"int? divisor_override) -> Tensor", function=False, **_NO_METHOD)
        define(f"_adaptive_avg_pool{nd}d(Tensor self, int[] output_size) -> Tensor",
               **_NO_METHOD)
        define(f"_adaptive_avg_pool{nd}d_backward(Tensor grad_output, Tensor self) -> Tensor",
               function=False, **_NO_METHOD)
        define(f"adaptive_avg_pool{nd}d(Tensor self, int[] output_size) -> Tensor",
               decomposition=_adaptive_avg(nd), modules=NN, function=False, **_NO_METHOD)
        define(f"adaptive_max_pool{nd}d(Tensor self, int[] output_size) -> (Tensor, Tensor)",
               function=False, **_NO_METHOD)
        define(f"adaptive_max_pool{nd}d_backward(Tensor grad_output, Tensor self, "
               f"Tensor indices) -> Tensor", function=False, **_NO_METHOD,
               decomposition=lambda grad_output, self, indices, nd=nd:
               _scatter_max(grad_output, self._shape, indices, nd))
    define("adaptive_avg_pool1d(Tensor self, int[] output_size) -> Tensor",
           decomposition=_adaptive_avg_pool1d, modules=NN, **_NO_METHOD)
    define("adaptive_max_pool1d(Tensor self, int[] output_size) -> (Tensor, Tensor)",
           decomposition=_adaptive_max_pool1d, **_NO_METHOD)
    for nd in (1, 2, 3):
        aten = f"adaptive_max_pool{nd}d"
        define(f"{aten}_with_indices(Tensor self, int[] output_size) -> (Tensor, Tensor)",
               decomposition=lambda self, output_size, aten=aten:
               OPS[aten].call(self, output_size), modules=NN, function=False, **_NO_METHOD)
        define(f"nn_{aten}(Tensor self, int[] output_size) -> Tensor",
               decomposition=lambda self, output_size, aten=aten:
               OPS[aten].call(self, output_size)[0], modules=NN, public_name=aten,
               function=False, **_NO_METHOD)
        # (int|int[]: F tells an int, repeated, from a sequence, taken as it is)
        define(f"nn_max_unpool{nd}d(Tensor self, Tensor indices, int|int[] kernel_size, "
               f"int|int[]? stride=None, int|int[] padding=0, int[]? output_size=None) -> "
               f"Tensor",
               decomposition=_nn_max_unpool(nd), modules=NN, public_name=f"max_unpool{nd}d",
               function=False, **_NO_METHOD)
        define(f"lp_pool{nd}d(Tensor self, Scalar norm_type, int|int[] kernel_size, "
               f"int[]? stride=None, bool ceil_mode=False) -> Tensor",
               decomposition=_lp_pool(nd), modules=NN, function=False, **_NO_METHOD)
    define("max_unpool2d(Tensor self, Tensor indices, int[] output_size) -> Tensor",
           function=False, **_NO_METHOD)
    define("max_unpool3d(Tensor self, Tensor indices, int[] output_size, int[] stride, "
           "int[] padding) -> Tensor", function=False, **_NO_METHOD)

    # F's return_indices (positional after ceil_mode) picks the with-indices form
    for nd in (1, 2, 3):
        _switch_indices(f"max_pool{nd}d", f"max_pool{nd}d_with_indices", 6)
        route_overloads(OPS[f"max_pool{nd}d_with_indices"], _drop_return_indices(6))
        _switch_indices(f"nn_adaptive_max_pool{nd}d", f"adaptive_max_pool{nd}d_with_indices", 2,
                        _route_output_size(nd))
        route_overloads(OPS[f"adaptive_max_pool{nd}d_with_indices"],
                        _route_output_size(nd, drop_return_indices=True))
        if nd > 1:
            route_overloads(OPS[f"adaptive_avg_pool{nd}d"], _route_output_size(nd))
            # ATen's SymInt[nd] output_size: an int stands for every dim
            for aten in (f"_adaptive_avg_pool{nd}d", f"adaptive_max_pool{nd}d"):
                route_overloads(OPS[aten], _int_output_size(nd))


# -- backward formulas (PyTorch's; the backward ops are ops, so they run on any device) ----

def _max_pool_grad(nd):
    backward = OPS[f"max_pool{nd}d_with_indices_backward"]

    def grad_self(grad, self, kernel_size, stride, padding, dilation, ceil_mode, results):
        return backward.call(grad, self, kernel_size, () if stride is None else stride, padding,
                             dilation, ceil_mode, results[1])
    return grad_self


def _avg_pool_grad(nd):
    backward = OPS[f"avg_pool{nd}d_backward"]

    def grad_self(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                  divisor_override):
        return backward.call(grad, self, kernel_size, () if stride is None else stride, padding,
                             ceil_mode, count_include_pad, divisor_override)
    return grad_self


def _avg_pool_gradgrad(nd):
    pool = OPS[f"avg_pool{nd}d"]

    def grad_grad_output(grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override):
        return pool.call(grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override)
    return grad_grad_output


def _adaptive_avg_grad(nd):
    backward = OPS[f"_adaptive_avg_pool{nd}d_backward"]
    return lambda grad, self: backward.call(grad, self)


def _adaptive_avg_gradgrad(nd):
    pool = OPS[f"_adaptive_avg_pool{nd}d"]
    return lambda grad, grad_output_geometry: pool.call(grad,
                                                        tuple(grad_output_geometry[0][-nd:]))


def _adaptive_max_grad(nd):
    backward = OPS[f"adaptive_max_pool{nd}d_backward"]
    return lambda grad, self, results: backward.call(grad, self, results[1])


def _unpool_grad(nd):
    return lambda grad, indices: _gather_max(grad, indices, nd)


def _derivatives():
    for nd in (2, 3):
        D = f"{nd}D"
        derivative(OPS[f"max_pool{nd}d_with_indices"], name=f"MaxPool{D}WithIndicesBackward0",
                   nondifferentiable_outputs=(1,), self=_max_pool_grad(nd))
        derivative(OPS[f"avg_pool{nd}d"], name=f"AvgPool{D}Backward0", self=_avg_pool_grad(nd))
        derivative(OPS[f"avg_pool{nd}d_backward"], name=f"AvgPool{D}BackwardBackward0",
                   grad_output=_avg_pool_gradgrad(nd), self=lambda grad: zeros(grad))
        derivative(OPS[f"_adaptive_avg_pool{nd}d"], name=f"AdaptiveAvgPool{D}Backward0",
                   self=_adaptive_avg_grad(nd))
        derivative(OPS[f"_adaptive_avg_pool{nd}d_backward"],
                   name=f"AdaptiveAvgPool{D}BackwardBackward0",
                   grad_output=_adaptive_avg_gradgrad(nd), self=lambda grad: zeros(grad))
        derivative(OPS[f"adaptive_max_pool{nd}d"], name=f"AdaptiveMaxPool{D}Backward0",
                   nondifferentiable_outputs=(1,), self=_adaptive_max_grad(nd))
        # the max pools' backwards: a gather of grad_output, flat in self (zeros, as PyTorch)
        derivative(OPS[f"max_pool{nd}d_with_indices_backward"],
                   name=f"MaxPool{D}WithIndicesBackwardBackward0",
                   grad_output=_unpool_grad(nd), self=lambda grad: zeros(grad))
        derivative(OPS[f"adaptive_max_pool{nd}d_backward"],
                   name=f"AdaptiveMaxPool{D}BackwardBackward0",
                   grad_output=_unpool_grad(nd), self=lambda grad: zeros(grad))
        derivative(OPS[f"max_unpool{nd}d"], name=f"MaxUnpool{D}Backward0",
                   self=_unpool_grad(nd))


_declare()
_derivatives()
