"""Antialiased 2-D resampling (F.interpolate(antialias=True); ATen's _upsample_*2d_aa ops
and their backward ops).

Each output pixel is a normalised, filter-weighted average of the input pixels within the
filter's support, stretched by the scale when downsampling (PIL's resampling, which
PyTorch's kernels follow).  The weights depend on sizes only, so each spatial dim is a
(out, in) matrix built from Python numbers, and the op is `Wh @ x @ Ww^T`; the backward op
is the transposed map, and each one's derivative is the other (both are linear).  uint8
images take PyTorch's fixed-point path (PIL's rounding, one pass per dim).
"""
import math

from ... import _dtype as D
from ..._memory_format import dense_in, suggest
from ..registry import define, derivative
from ._helpers import _type_name
from .resample import _node


def _cubic(x, a=-0.5):  # Keys' cubic convolution with PIL's a
    x = abs(x)
    if x < 1.0:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    return (((x - 5) * x + 8) * x - 4) * a if x < 2.0 else 0.0


def _sinc(x):
    return 1.0 if x == 0.0 else math.sin(math.pi * x) / (math.pi * x)


# mode -> (interpolation size: the filter's support is half of it, the filter)
AA = {
    "bilinear": (2, lambda x: max(0.0, 1.0 - abs(x))),
    "bicubic": (4, _cubic),
    "lanczos": (6, lambda x: _sinc(x) * _sinc(x / 3) if -3.0 < x < 3.0 else 0.0),
}


def _scale(n_in, n_out, align_corners, scale):
    """PyTorch's area_pixel_compute_scale: input pixels per output pixel."""
    if align_corners:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else n_in / n_out


def _weights(mode, n_in, n_out, align_corners, scale):
    """The (n_out, n_in) resampling matrix of one dim, as nested lists."""
    size, fn = AA[mode]
    s = _scale(n_in, n_out, align_corners, scale)
    support = size / 2 * s if s >= 1.0 else size / 2
    inv = 1.0 / s if s >= 1.0 else 1.0
    rows = []
    for i in range(n_out):
        centre = s * (i + 0.5)
        lo = max(int(centre - support + 0.5), 0)  # (C++'s truncating casts)
        hi = min(int(centre + support + 0.5), n_in)
        w = [fn((j - centre + 0.5) * inv) for j in range(lo, hi)]
        total = sum(w)
        row = [0.0] * n_in
        for j, v in zip(range(lo, hi), w):
            row[j] = v / total if total else v
        rows.append(row)
    return rows


def _fixed_point(rows):
    """PyTorch's uint8 weights (PIL's): the most bits at which the largest weight still
    fits an int16, and the weights rounded to that many bits."""
    top = max((v for row in rows for v in row), default=0.0)
    bits = 0
    while bits < 22 and int(0.5 + top * (1 << (bits + 1))) < (1 << 15):
        bits += 1
    return bits, [[math.floor(0.5 + v * (1 << bits)) for v in row] for row in rows]


def _uint8(mode, self, output_size, align_corners, scales):
    """uint8 images as PyTorch's kernel resamples them: width then height, each pass in
    fixed point (integer weights, round half up, clamped to 0..255, stored as uint8); a
    dim whose size does not change is not resampled."""
    from ... import tensor
    x = self
    for dim, n_out, scale in ((3, output_size[1], scales[1]), (2, output_size[0], scales[0])):
        n_in = x._shape[dim]
        if n_in == n_out:
            continue
        bits, q = _fixed_point(_weights(mode, n_in, n_out, align_corners, scale))
        w = tensor(q, dtype=D.int64, device=x.device)
        acc = x.to(D.int64).matmul(w.transpose(0, 1)) if dim == 3 else w.matmul(x.to(D.int64))
        x = ((acc + (1 << bits >> 1)) >> bits).clamp(0, 255).to(D.uint8)
    return x if x is not self else self.clone()


def _matrices(mode, like, input_hw, output_size, align_corners, scales_h, scales_w):
    """The resampling matrices of height and width; None for a dim whose size does not
    change (PyTorch skips that pass, whatever its scale)."""
    from ... import tensor
    return [None if n_in == n_out else
            tensor(_weights(mode, n_in, n_out, align_corners, s), dtype=like.dtype,
                   device=like.device)
            for n_in, n_out, s in zip(input_hw, output_size, (scales_h, scales_w))]


def _plan(name, self, output_size):
    if len(output_size) != 2:
        raise RuntimeError(f"It is expected output_size equals to 2, but got size "
                           f"{len(output_size)}")
    if self.ndim != 4:
        raise RuntimeError(f"It is expected input_size equals to 4, but got size {self.ndim}")
    if min(self._shape[2:]) <= 0 or min(output_size) <= 0:
        h, w = self._shape[2:]
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"(H: {h}, W: {w}) output (H: {output_size[0]}, W: {output_size[1]})")
    if self.dtype not in (D.float32, D.float64, D.uint8):
        raise NotImplementedError(f'"compute_index_ranges_weights" not implemented for '
                                  f"'{_type_name(self.dtype)}'")


def _forward(mode):
    def upsample_aa(self, output_size, align_corners, scales_h=None, scales_w=None):
        _plan(f"_upsample_{mode}2d_aa", self, output_size)
        if self.dtype is D.uint8:
            return _laid_out_as(_uint8(mode, self, output_size, align_corners,
                                       (scales_h, scales_w)), self)
        wh, ww = _matrices(mode, self, self._shape[2:], output_size, align_corners,
                           scales_h, scales_w)
        x = self if wh is None else wh.matmul(self)
        x = x if ww is None else x.matmul(ww.transpose(0, 1))
        return _laid_out_as(self.clone() if x is self else x, self)
    return upsample_aa


def _laid_out_as(result, x):
    """result channels-last when x's strides suggest it, as PyTorch's kernels keep it."""
    fmt = suggest(x)
    return result if fmt == "contiguous_format" else dense_in(result, fmt)


def _backward(mode):
    def upsample_aa_backward(grad_output, output_size, input_size, align_corners,
                             scales_h=None, scales_w=None):
        wh, ww = _matrices(mode, grad_output, input_size[2:], output_size, align_corners,
                           scales_h, scales_w)
        g = grad_output if wh is None else wh.transpose(0, 1).matmul(grad_output)
        g = g if ww is None else g.matmul(ww)
        g = grad_output.clone() if g is grad_output else g
        # (PyTorch's bilinear gradient follows grad_output's layout; bicubic's is contiguous)
        return _laid_out_as(g, grad_output) if mode == "bilinear" else g
    return upsample_aa_backward


def _declare():
    scales = "float? scales_h=None, float? scales_w=None"
    for mode in AA:
        name = f"_upsample_{mode}2d_aa"
        fwd = define(f"{name}(Tensor self, int[] output_size, bool align_corners, {scales}) "
                     f"-> Tensor", decomposition=_forward(mode), function=False, method=False)
        bwd = define(f"{name}_backward(Tensor grad_output, int[] output_size, int[] input_size, "
                     f"bool align_corners, {scales}) -> Tensor",
                     decomposition=_backward(mode), function=False, method=False)
        _formulas(name, fwd, bwd)


def _formulas(name, fwd, bwd):
    def back(grad, self_geometry, output_size, align_corners, scales_h, scales_w):
        return bwd.call(grad, output_size, tuple(self_geometry[0]), align_corners, scales_h,
                        scales_w)

    def again(grad, output_size, align_corners, scales_h, scales_w):
        return fwd.call(grad, output_size, align_corners, scales_h, scales_w)
    derivative(fwd, name=_node(name), self=back)
    derivative(bwd, name=_node(name + "_backward"), grad_output=again)


_declare()
