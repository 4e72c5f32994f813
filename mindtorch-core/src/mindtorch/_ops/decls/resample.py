"""Resampling: padding (F.pad and ATen's constant / reflection / replication / circular
padding), upsampling (F.interpolate and ATen's upsample_* ops with their backward ops) and
pixel / channel shuffles.  Grid sampling and affine grids are in `sampling`.

F.pad and F.interpolate are composites that choose an ATen op as PyTorch's do, so graphs
show PyTorch's nodes (ConstantPadNdBackward0, ReflectionPad2DBackward0,
UpsampleBilinear2DBackward0, ...).  The upsample ops interpolate separably, one spatial dim
at a time (their kernels); their backward ops are the transposed maps, and each backward
op's own derivative is the forward op again (both are linear), so double backward works.
"""
import warnings

from ..._memory_format import suggest
from ..._warn_once import _user_level
from ...autograd.functional_helpers import zeros
from ..registry import OPS, define, derivative, route_overloads
from ._helpers import NOT_IMPLEMENTED_NODE, no_derivative
from .pooling import check_dtype

NN = ("nn.functional",)
_NO_METHOD = {"method": False}
_DIMS = {1: ("W",), 2: ("H", "W"), 3: ("D", "H", "W")}


# -- padding: rules shared by every backend ---------------------------------------------

def _pad_pairs(pad, ndim):
    """(dim, left, right) for each padded dim: the pad list starts at the last dim."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def constant_pad_shape(self, pad):
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > self.ndim:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions "
                           f"of the input. Pad length is {len(pad)}while the input has "
                           f"{self.ndim}dimensions.")
    shape = list(self._shape)
    for dim, lo, hi in _pad_pairs(pad, self.ndim):
        n = shape[dim] + lo + hi
        if n < 0:  # PyTorch narrows the negative pads away first, and that fails
            raise RuntimeError("narrow(): length must be non-negative.")
        shape[dim] = n
    return tuple(shape)


def pad_plan(kind, nd, self, padding):
    """Output shape of reflection_pad{nd}d / replication_pad{nd}d, with PyTorch's checks."""
    if len(padding) != 2 * nd:
        raise RuntimeError(f"padding size is expected to be {2 * nd}, but got: {len(padding)}")
    shape, ndim = self._shape, self.ndim
    batched = ndim == nd + 2
    if ndim not in (nd + 1, nd + 2) or 0 in shape[1 if batched else 0:]:
        raise RuntimeError(f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"{list(shape)}")
    out = list(shape)
    for k, (dim, lo, hi) in enumerate(_pad_pairs(padding, ndim)):
        if kind == "reflection" and not (lo < shape[dim] and hi < shape[dim]):
            raise RuntimeError(f"Argument #{4 + 2 * k}: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({lo}, {hi}) "
                               f"at dimension {dim} of input {list(shape)}")
        out[dim] = shape[dim] + lo + hi
    if max(out[ndim - nd:]) < 1:  # (PyTorch's check: some dim non-empty)
        letters = _DIMS[nd]
        raise RuntimeError(f"input ({', '.join(f'{c}: {n}' for c, n in zip(letters, shape[-nd:]))})"
                           f" is too small. Calculated output "
                           f"{' '.join(f'{c}: {n}' for c, n in zip(letters, out[-nd:]))}")
    if min(out[ndim - nd:]) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{min(out[ndim - nd:])}: {out}")
    check_dtype(f"{kind}_pad{nd}d", self, "fiuc")
    return tuple(out)


def _constant_pad_nd(self, pad, value=0):
    """ATen's: crop for negative pads, then the input copied into a filled tensor."""
    shape = constant_pad_shape(self, pad)
    src = self
    for dim, lo, hi in _pad_pairs(pad, self.ndim):
        if lo < 0:
            src = src.narrow(dim, -lo, src.shape[dim] + lo)
        if hi < 0:
            src = src.narrow(dim, 0, src.shape[dim] + hi)
    if all(p <= 0 for p in pad):
        return src.clone()
    import mindtorch as M  # (a fresh tensor in the layout self suggests, as ATen's)
    out = M.empty(shape, dtype=self.dtype, device=self.device,
                  memory_format=suggest(self)).fill_(value)
    dst = out
    for dim, lo, hi in _pad_pairs(pad, self.ndim):
        dst = dst.narrow(dim, max(lo, 0), src.shape[dim])
    dst.copy_(src)
    return out


def _pad_circular(self, pad):
    """ATen's: the (cropped) input copied in, then each padded side copied from the
    opposite end of what was copied (graphs end in CopySlices, as PyTorch's)."""
    n = len(pad) // 2  # (an odd last value is ignored, as PyTorch's)
    if self.ndim - n not in (1, 2):
        raise RuntimeError(f"Invalid padding size, expected 1 or 2 non-padded dimensions, which "
                           f"would be equivalent to padding of length {(self.ndim - 1) * 2} or "
                           f"{(self.ndim - 2) * 2} respectively but got {len(pad)}")
    shape = list(self.shape)
    for dim, lo, hi in _pad_pairs(pad, self.ndim):
        size = shape[dim]
        if lo > size or hi > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        shape[dim] = size + lo + hi
        if shape[dim] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = self.new_empty(shape)
    dst, src = out, self
    for dim, lo, hi in _pad_pairs(pad, self.ndim):  # (C++ slices: ends wrap, then clamp)
        lead = (slice(None),) * dim
        dst = dst[lead + (slice(max(lo, 0), shape[dim] - max(hi, 0)),)]
        src = src[lead + (slice(max(-lo, 0), self.shape[dim] - max(-hi, 0)),)]
    dst.copy_(src)
    for dim, lo, hi in _pad_pairs(pad, self.ndim)[:n]:
        size = shape[dim]
        # (a side wider than what was kept: PyTorch leaves values uninitialized; skipped)
        if 0 < lo <= size - lo - max(hi, 0):
            out.narrow(dim, 0, lo).copy_(out.narrow(dim, size - lo - max(hi, 0), lo))
        if hi > 0:  # PyTorch's copy, element by element, may read what it wrote: periodic
            start, period = max(lo, 0), size - max(lo, 0) - hi
            for off in range(0, hi if period > 0 else 0, max(period, 1)):
                n = min(period, hi - off)
                out.narrow(dim, size - hi + off, n).copy_(out.narrow(dim, start + off, n))
    return out


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def _pad(self, pad, mode="constant", value=None):
    """F.pad: ATen's pad, choosing the op by mode and by how many dims are padded."""
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * self.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{self.ndim}")
    if mode == "constant":
        return OPS["constant_pad_nd"].call(self, pad, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    nd = len(pad) // 2
    if nd in (1, 2, 3) and self.ndim in (nd + 1, nd + 2):
        if mode == "circular":
            return OPS["_pad_circular"].call(self, pad)
        kind = "reflection" if mode == "reflect" else "replication"
        return OPS[f"{kind}_pad{nd}d"].call(self, pad)
    raise NotImplementedError(
        f"Padding size {len(pad)} is not supported for {self.ndim}D input tensor.\n"
        "Supported combinations for non-constant padding:\n"
        "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
        "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
        "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


# -- upsampling: rules shared by every backend ------------------------------------------

# op -> (spatial dims, interpolation, takes align_corners); the kernels key on the name
UPSAMPLE = {
    "upsample_nearest1d": (1, "nearest", False),
    "upsample_nearest2d": (2, "nearest", False),
    "upsample_nearest3d": (3, "nearest", False),
    "_upsample_nearest_exact1d": (1, "nearest-exact", False),
    "_upsample_nearest_exact2d": (2, "nearest-exact", False),
    "_upsample_nearest_exact3d": (3, "nearest-exact", False),
    "upsample_linear1d": (1, "linear", True),
    "upsample_bilinear2d": (2, "linear", True),
    "upsample_bicubic2d": (2, "cubic", True),
    "upsample_trilinear3d": (3, "linear", True),
}
_SCALES = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}
# interpolate's (mode, input rank) -> op
_INTERPOLATE = {("nearest", 3): "upsample_nearest1d", ("nearest", 4): "upsample_nearest2d",
                ("nearest", 5): "upsample_nearest3d",
                ("nearest-exact", 3): "_upsample_nearest_exact1d",
                ("nearest-exact", 4): "_upsample_nearest_exact2d",
                ("nearest-exact", 5): "_upsample_nearest_exact3d",
                ("linear", 3): "upsample_linear1d", ("bilinear", 4): "upsample_bilinear2d",
                ("bicubic", 4): "upsample_bicubic2d", ("trilinear", 5): "upsample_trilinear3d",
                ("area", 3): "adaptive_avg_pool1d", ("area", 4): "adaptive_avg_pool2d",
                ("area", 5): "adaptive_avg_pool3d"}
_RANKS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def upsample_sizes(name, input_size, output_size):
    """ATen's upsample common check: (input sizes, output sizes) of the spatial dims."""
    nd = UPSAMPLE[name][0]
    if len(output_size) != nd:
        raise RuntimeError(f"It is expected output_size equals to {nd}, but got size "
                           f"{len(output_size)}")
    if len(input_size) != nd + 2:
        raise RuntimeError(f"It is expected input_size equals to {nd + 2}, but got size "
                           f"{len(input_size)}")
    sizes = tuple(input_size[2:])
    if min(sizes) <= 0 or min(output_size) <= 0:
        letters = _DIMS[nd]
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input "
            f"({', '.join(f'{c}: {n}' for c, n in zip(letters, sizes))}) output "
            f"({', '.join(f'{c}: {n}' for c, n in zip(letters, output_size))})")
    return sizes, tuple(output_size)


def upsample_plan(name, self, output_size):
    """Output shape of an upsample op, with PyTorch's checks (uint8 is accepted by the
    nearest modes and by bilinear / bicubic 2d, as PyTorch's CPU kernels)."""
    nd, mode, _ = UPSAMPLE[name]
    upsample_sizes(name, self._shape, output_size)
    if self.numel() == 0 and 0 in self._shape[1:]:
        raise RuntimeError(f"Non-empty {nd + 2}D data tensor expected but got a tensor with sizes "
                           f"{list(self._shape)}")
    uint8 = mode.startswith("nearest") or nd == 2
    kind = mode.split("-")[0]
    # (PyTorch's 2d nearest and bilinear kernels dispatch other dtypes to the channels-last
    # kernel, which names itself)
    kernel = f"upsample_{'bi' * (kind == 'linear')}{kind}2d_channels_last" \
        if nd == 2 and kind != "cubic" else f"compute_indices_weights_{kind}"
    check_dtype(kernel, self, "f", ("uint8",) if uint8 else ())
    return self._shape[:2] + tuple(output_size)


def _expand_sizes(value, self, what):
    """interpolate's size / scale_factor: one number for every spatial dim, or a list of
    exactly one per dim (PyTorch's messages)."""
    nd = self.ndim - 2
    if not isinstance(value, (list, tuple)):
        return (value,) * nd
    if len(value) != nd:
        shape = list(self.shape[2:])
        if what == "size":
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {shape} and output size of {value}. Please "
                f"provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                f"(o1, o2, ...,oK) format.")
        raise ValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {shape} and scale_factor of shape {value}. Please "
            f"provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
            f"(s1, s2, ...,sK) format.")
    if what == "size" and not all(isinstance(v, int) or hasattr(v, "__index__") for v in value):
        raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                        f"Tuple[int, int, int], but got size with types "
                        f"{[type(v) for v in value]}")
    return tuple(value)


_INTERPOLATE_ARGS = ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor",
                     "antialias")


def _route_interpolate(args, kwargs):
    """interpolate's size and scale_factor as one value per spatial dim."""
    args = list(args)
    self = args[0] if args else kwargs.get("input")
    ndim = getattr(self, "ndim", 0)
    for i, name in enumerate(_INTERPOLATE_ARGS[:2], 1):
        given = len(args) > i and args[i] is not None
        value = args[i] if given else kwargs.get(name)
        # below 3-D only a list is checked (its length mismatches: PyTorch's ValueError)
        if value is None or (ndim < 3 and not isinstance(value, (list, tuple))):
            continue
        if given:
            args[i] = _expand_sizes(value, self, name)
        else:
            kwargs[name] = _expand_sizes(value, self, name)
    return tuple(args), kwargs


def _interpolate(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None, antialias=False):
    """F.interpolate (PyTorch's Python function, op for op)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    nd = self.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    scales = scale_factor
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if size is None and recompute_scale_factor:  # Python's sym_int(size * scale)
        size = tuple(int(self.shape[i + 2] * s) for i, s in enumerate(scale_factor))
        scales = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and self.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    if mode == "lanczos" and self.ndim == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    name = f"_upsample_{mode}2d_aa" if antialias else _INTERPOLATE.get((mode, self.ndim))
    if name is None:
        need = _RANKS.get(mode)
        if need is not None and self.ndim in (3, 4, 5):
            raise NotImplementedError(f"Got {self.ndim}D input, but {mode} mode needs {need}D "
                                      f"input")
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {self.ndim}D) for the "
            f"modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    if size is None:  # C++'s checked int64 conversion of size * scale (a double)
        size = []
        for i, s in enumerate(scale_factor):
            v = self.shape[i + 2] * s
            if not -2.0 ** 63 <= v < 2.0 ** 63:  # (also NaN)
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            size.append(int(v))
    elif not all(-2 ** 63 <= n < 2 ** 63 for n in size):
        raise TypeError(f"{name}(): argument 'output_size' failed to unpack the object at pos 1 "
                        f"with error \"Overflow when unpacking long\"")
    if mode == "area":
        return OPS[name].call(self, tuple(size))
    extra = (align_corners,) if antialias or UPSAMPLE[name][2] else ()
    per_dim = tuple(scales) if scales is not None else (None,) * nd
    return OPS[name].call(self, tuple(size), *extra, *per_dim)


def _deprecated(name, default_mode="nearest", default_align_corners=None):
    """F.upsample, F.upsample_nearest, F.upsample_bilinear: interpolate with a warning."""
    def upsample(self, size=None, scale_factor=None, mode=default_mode,
                 align_corners=default_align_corners):
        warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                      f"instead.", stacklevel=_user_level())
        return _interpolate(self, size, scale_factor, mode, align_corners)
    return upsample


# -- shuffles ----------------------------------------------------------------------------

def _fresh(result, self):
    """result, copied if it shares self's memory (the shuffles return new tensors), in
    channels_last when a 4-D self suggests it (as PyTorch's shuffles keep that layout,
    with fresh channels-last strides on size-1 dims too)."""
    if result.ndim == 4 and suggest(self) == "channels_last":
        import mindtorch as M
        return result.clone(memory_format=M.channels_last)
    if result._storage is self._storage:  # (a view: contiguous strides, size-1 dims too)
        import mindtorch as M
        return result.clone(memory_format=M.contiguous_format)
    return result


def _pixel_shuffle(self, upscale_factor):
    r = upscale_factor
    if self.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {self.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = self.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible "
                           f"by the square of upscale_factor, but input.size(-3)={c} is not "
                           f"divisible by {r * r}")
    n = len(lead)
    x = self.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    x = x.permute(tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2)).contiguous()
    return _fresh(x.reshape(tuple(lead) + (c // (r * r), h * r, w * r)), self)


def _pixel_unshuffle(self, downscale_factor):
    r = downscale_factor
    if self.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got "
                           f"input with {self.ndim} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = self.shape
    for dim, name, n in ((-2, "height", h), (-1, "width", w)):
        if n % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={n} is not divisible by "
                               f"{r}")
    if self.numel() == 0:  # PyTorch's shortcut: an empty input is returned as it is
        return self.clone()
    k = len(lead)
    x = self.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    x = x.permute(tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3)).contiguous()
    return _fresh(x.reshape(tuple(lead) + (c * r * r, h // r, w // r)), self)


def _channel_shuffle(self, groups):
    if self.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(self.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    n, c, *rest = self.shape
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and "
                           f"{groups} groups.")
    x = self.reshape((n, groups, c // groups) + tuple(rest)).transpose(1, 2).contiguous()
    return _fresh(x.reshape(tuple(self.shape)), self)


# -- declarations ------------------------------------------------------------------------

def _node(name):
    """PyTorch's node name of an upsample / pad op: upsample_bilinear2d ->
    UpsampleBilinear2DBackward0."""
    words = name.strip("_").split("_")
    return "".join(w[:-1].capitalize() + "D" if w[-1:] == "d" and w[-2:-1].isdigit() else
                   w.capitalize() for w in words) + "Backward0"


def _declare():
    define("pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor",
           decomposition=_pad, modules=NN, function=False, **_NO_METHOD)
    define("constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor",
           decomposition=_constant_pad_nd, **_NO_METHOD)
    define("_pad_circular(Tensor self, int[] pad) -> Tensor", decomposition=_pad_circular,
           function=False, **_NO_METHOD)
    for kind in ("reflection", "replication"):
        for nd in (1, 2, 3):
            define(f"{kind}_pad{nd}d(Tensor self, int[] padding) -> Tensor", function=False,
                   **_NO_METHOD)
            define(f"{kind}_pad{nd}d_backward(Tensor grad_output, Tensor self, int[] padding) "
                   f"-> Tensor", function=False, **_NO_METHOD)
    for name, (nd, _, ac) in UPSAMPLE.items():
        extra = ", bool align_corners" if ac else ""
        scales = "".join(f", float? {s}=None" for s in _SCALES[nd])
        define(f"{name}(Tensor self, int[] output_size{extra}{scales}) -> Tensor",
               function=False, **_NO_METHOD)
        define(f"{name}_backward(Tensor grad_output, int[] output_size, int[] input_size{extra}"
               f"{scales}) -> Tensor", function=False, **_NO_METHOD)
    interp = "float[]? scale_factor=None, str mode=\"nearest\", bool? align_corners=None"
    route_overloads(define(f"interpolate(Tensor self, int[]? size=None, {interp}, "
                           f"bool? recompute_scale_factor=None, bool antialias=False) -> Tensor",
                           decomposition=_interpolate, modules=NN, function=False,
                           **_NO_METHOD), _route_interpolate)
    route_overloads(define(f"upsample(Tensor self, int[]? size=None, {interp}) -> Tensor",
                           decomposition=_deprecated("upsample"), modules=NN, function=False,
                           **_NO_METHOD), _route_interpolate)
    for name, mode, ac in (("upsample_nearest", "nearest", None),
                           ("upsample_bilinear", "bilinear", True)):
        route_overloads(define(f"{name}(Tensor self, int[]? size=None, float[]? scale_factor=None)"
                               f" -> Tensor", decomposition=_deprecated(name, mode, ac),
                               modules=NN, function=False, **_NO_METHOD), _route_interpolate)
    define("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor",
           decomposition=_pixel_shuffle, modules=NN, **_NO_METHOD)
    define("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor",
           decomposition=_pixel_unshuffle, modules=NN, **_NO_METHOD)
    define("channel_shuffle(Tensor self, int groups) -> Tensor", decomposition=_channel_shuffle,
           modules=NN, **_NO_METHOD)
    define("native_channel_shuffle(Tensor self, int groups) -> Tensor",
           decomposition=lambda self, groups: OPS["channel_shuffle"].call(self, groups),
           modules=NN, **_NO_METHOD)


# -- backward formulas -------------------------------------------------------------------

def _upsample_formulas(name, nd, ac):
    """The op's formula (its backward op) and the backward op's (the op again: both are
    linear).  A formula's parameters are schema names, so each signature has its pair."""
    fwd, bwd = OPS[name], OPS[name + "_backward"]

    def back(grad, geometry, output_size, *rest):
        return bwd.call(grad, output_size, tuple(geometry[0]), *rest)

    if nd == 1 and not ac:
        pair = (lambda grad, self_geometry, output_size, scales:
                back(grad, self_geometry, output_size, scales),
                lambda grad, output_size, scales: fwd.call(grad, output_size, scales))
    elif nd == 1:
        pair = (lambda grad, self_geometry, output_size, align_corners, scales:
                back(grad, self_geometry, output_size, align_corners, scales),
                lambda grad, output_size, align_corners, scales:
                fwd.call(grad, output_size, align_corners, scales))
    elif nd == 2 and not ac:
        pair = (lambda grad, self_geometry, output_size, scales_h, scales_w:
                back(grad, self_geometry, output_size, scales_h, scales_w),
                lambda grad, output_size, scales_h, scales_w:
                fwd.call(grad, output_size, scales_h, scales_w))
    elif nd == 2:
        pair = (lambda grad, self_geometry, output_size, align_corners, scales_h, scales_w:
                back(grad, self_geometry, output_size, align_corners, scales_h, scales_w),
                lambda grad, output_size, align_corners, scales_h, scales_w:
                fwd.call(grad, output_size, align_corners, scales_h, scales_w))
    elif not ac:
        pair = (lambda grad, self_geometry, output_size, scales_d, scales_h, scales_w:
                back(grad, self_geometry, output_size, scales_d, scales_h, scales_w),
                lambda grad, output_size, scales_d, scales_h, scales_w:
                fwd.call(grad, output_size, scales_d, scales_h, scales_w))
    else:
        pair = (lambda grad, self_geometry, output_size, align_corners, scales_d, scales_h,
                scales_w: back(grad, self_geometry, output_size, align_corners, scales_d,
                               scales_h, scales_w),
                lambda grad, output_size, align_corners, scales_d, scales_h, scales_w:
                fwd.call(grad, output_size, align_corners, scales_d, scales_h, scales_w))
    derivative(fwd, name=_node(name), self=pair[0])
    derivative(bwd, name=_node(name + "_backward"), grad_output=pair[1])


def _pad_formulas(name):
    op, backward = OPS[name], OPS[name + "_backward"]
    derivative(op, name=_node(name),
               self=lambda grad, self, padding: backward.call(grad, self, padding))
    derivative(backward, name=_node(name + "_backward"),
               grad_output=lambda grad, padding: op.call(grad, padding),
               self=lambda grad: zeros(grad))


def _derivatives():
    derivative(OPS["constant_pad_nd"],
               self=lambda grad, pad: OPS["constant_pad_nd"].call(grad, [-p for p in pad], 0))
    for kind in ("reflection", "replication"):
        for nd in (1, 2, 3):
            _pad_formulas(f"{kind}_pad{nd}d")
    for name, (nd, _, ac) in UPSAMPLE.items():
        _upsample_formulas(name, nd, ac)
    derivative(OPS["pixel_shuffle"],
               self=lambda grad, upscale_factor: OPS["pixel_unshuffle"].call(grad, upscale_factor))
    derivative(OPS["pixel_unshuffle"],
               self=lambda grad, downscale_factor: OPS["pixel_shuffle"].call(grad,
                                                                            downscale_factor))
    derivative(OPS["channel_shuffle"],
               self=lambda grad, groups: OPS["channel_shuffle"].call(grad,
                                                                    grad.shape[1] // groups))
    derivative(OPS["native_channel_shuffle"], self=no_derivative("native_channel_shuffle"),
               name=NOT_IMPLEMENTED_NODE)


_declare()
_derivatives()
