"""CPU kernels: activation ops (the others decompose into pointwise ops)."""
import math

import numpy as np
from mindtorch import _dtype as D
from mindtorch._memory_format import iter_laid_out
from mindtorch._ops import OPS
from mindtorch._ops.decls import activation as A
from mindtorch.backends import mkldnn

from .._np import arr, wrap
from . import _activation_tails, _gelu_minimax, _jit
from ._activation_numpy import NUMPY as _NUMPY
from ._box_muller import fma
from ._complex_abs import exact_square
from ._cpu_capability import onednn_avx512_core
from ._iter_layout import empty_strided, iter_strides, iter_wrap, wrap_strided
from ._jit import loops
from ._layout import dense_like
from ._select import keep_where
from ._vector_loop import scalar_loop_mask
from .pointwise import _erf

# PyTorch's cpu GELU takes erf in float32 from Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7):
# erf(u) = 1 - t (a1 + t (a2 + ... + t a5)) exp(-u^2), t = 1 / (1 + p u), for u >= 0.
_AS_P = 0.3275911
_AS_A = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)  # a5 .. a1
_BLOCK = 1 << 16  # elements per pass (measured best of 16K..128K)
_SIGN = np.int32(-1 << 31)  # float32's sign bit, as int32
# The constants as 0-d arrays: a ufunc call with one costs ~0.25 us less than with a scalar.
_C = {k: np.array(v, np.float32) for k, v in
      {"one": 1, "half": 0.5, "sqrt_half": np.sqrt(0.5), "p": _AS_P}.items()}
_A_HALF = [np.array(np.float32(c) / 2) for c in _AS_A]  # (exact halves)
_SIGN_0D = np.array(_SIGN)


def _gelu_f32(x, onednn=False):
    """gelu(x) of float32 x: compiled (numba: one pass, ~5x faster) for large x; `onednn`:
    as oneDNN's avx512_core kernel (_gelu_minimax.py), else with ATen's erf."""
    (xf,), out = dense_like(x)
    # (the minimax's NumPy steps, six table look-ups, cost ~15 ns an element: loops early)
    jit = _jit.early("_compiled", x.size) if onednn else loops(x.size)
    if jit is None:
        (_gelu_minimax.gelu_blocks if onednn else _gelu_f32_blocks)(xf, out.ravel(order="K"))
    else:
        (jit.gelu_minimax_f32 if onednn else jit.gelu_f32)(xf, out.ravel(order="K"))
    return out


def _onednn_gelu(self, a):
    """Whether PyTorch runs this GELU in oneDNN's avx512_core kernel: a contiguous float32 or
    bfloat16 tensor of 2 or more elements with oneDNN enabled (its use_mkldnn), oneDNN at
    avx512_core here (else oneDNN, or ATen's kernel, takes Abramowitz & Stegun's erf: the
    other path)."""
    return self.dtype in (D.float32, D.bfloat16) and a.size > 1 and a.flags.c_contiguous \
        and mkldnn.enabled and onednn_avx512_core()


def _gelu_f32_blocks(xf, of):
    """of = gelu(xf), 1-D float32, through that erf in NumPy (without numba), block by
    block in place in four scratch blocks (about 4x faster than scipy's float64 erf, and
    closer to PyTorch's results).  The polynomial carries a factor 1/2 (exact: a power of
    two), which folds gelu's 0.5 in; the sign of erf is set on its bits (copysign costs as
    much as five other passes)."""
    m = max(1, min(_BLOCK, xf.size))
    scratch = np.empty(m, np.float32), np.empty(m, np.float32), np.empty(m, np.int32)
    with np.errstate(all="ignore"):  # (inf and nan flow through as in PyTorch, silently)
        for i in range(0, xf.size, m):
            _gelu_block(xf[i:i + m], of[i:i + m], *scratch)


def _gelu_block(xb, r, a_, t_, s_):
    """r = gelu(xb), with the first xb.size elements of the scratch arrays."""
    n, c = xb.size, _C
    a, t, s = a_[:n], t_[:n], s_[:n]
    xi, ai, ri = xb.view(np.int32), a.view(np.int32), r.view(np.int32)
    np.bitwise_and(xi, _SIGN_0D, out=s)
    np.bitwise_xor(xi, s, out=ai)  # |x|
    np.multiply(a, c["sqrt_half"], out=a)  # |u|, u = x / sqrt(2)
    np.multiply(a, c["p"], out=t)
    np.add(t, c["one"], out=t)
    np.divide(c["one"], t, out=t)
    np.multiply(t, _A_HALF[0], out=r)
    for k in _A_HALF[1:]:
        np.add(r, k, out=r)
        np.multiply(r, t, out=r)
    np.square(a, out=a)
    np.divide(r, np.exp(a, out=a), out=r)  # (times exp(-u^2), with one pass less)
    np.subtract(c["half"], r, out=r)  # erf(|u|) / 2
    np.bitwise_xor(ri, s, out=ri)  # erf(u) / 2
    np.add(r, c["half"], out=r)
    np.multiply(r, xb, out=r)


_GELU_BETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # (PyTorch's kBeta and kKappa)
_GELU_KAPPA = 0.044715
_SLEEF_TANH_ONE = {np.float32: 8.664339742, np.float64: 18.714973875}  # (|x| past: +-1)
_WIDER = {np.float32: np.float64, np.float64: np.longdouble}  # (x87's 64-bit mantissa)


def _one_minus_square(v):
    """1 - v^2 rounded once (PyTorch's FMA) for |v| <= 1, where 1 - v^2 cancels: float32
    through double; float64 with v^2's rounding error (Dekker's product: long double's
    would not hold it) taken off the exact 1 - round(v^2)."""
    if v.dtype == np.float32:
        return (1 - np.square(v, dtype=np.float64)).astype(np.float32)
    square, error = exact_square(v)
    return (1 - square) - error


def _gelu_tanh_inner(x):
    """(x^2, tanh(beta (x + kappa x^3))) as PyTorch's GELU loops compute them."""
    t = x.dtype.type
    square = x * x
    return square, fma(t(_GELU_KAPPA), x * square, x) * t(_GELU_BETA)


def _sleef_tanh(v, a):
    """tanh(v) correctly rounded (SLEEF's, in PyTorch's vector loop, is but for an ulp here
    and there) and +-1 past SLEEF's cut-off in the elements the vector loop computes (the
    scalar loop's std::tanh has none); `a` is the input whose layout the loop walked."""
    t = v.dtype.type
    tanh = np.asarray(np.tanh(v.astype(_WIDER[t])).astype(t))
    one = np.abs(v) > _SLEEF_TANH_ONE[t]
    if one.any():  # (rare for activations: |x| > ~5.05 for GELU's inner)
        one &= ~scalar_loop_mask(a, avx512_kernel=True)
        np.copyto(tanh, np.sign(v), where=one)
    return tanh


def _gelu_tanh(x, a):
    """0.5 x (1 + tanh(beta (x + kappa x^3))) of x (a's values, float32 for 16-bit a) as
    PyTorch's loop computes it: the cube as two products, the inner sum an FMA."""
    t = x.dtype.type
    with np.errstate(over="ignore", invalid="ignore"):
        tanh = _sleef_tanh(_gelu_tanh_inner(x)[1], a)
        return (t(0.5) * x) * (t(1) + tanh)


def _gelu_tanh_backward(g, x, a):
    """gelu(approximate='tanh')'s derivative times g, in PyTorch's order: 0.5 (1 + tanh)
    + (0.5 x (1 - tanh^2)) beta (1 + 3 kappa x^2), both inner terms FMAs."""
    t = x.dtype.type
    one = np.ones_like(x)
    with np.errstate(over="ignore", invalid="ignore"):
        square, inner = _gelu_tanh_inner(x)
        tanh = _sleef_tanh(inner, a)
        slope = _one_minus_square(tanh)
        slope *= t(0.5) * x
        slope *= t(_GELU_BETA) * fma(t(3) * t(_GELU_KAPPA), square, one)
        return g * (t(0.5) * (t(1) + tanh) + slope)


def _gelu(self, approximate="none"):
    A.check_gelu(self, approximate)
    a = arr(self)
    ca = a.astype(np.float32) if a.dtype.itemsize < 4 else a
    if approximate == "tanh":
        r = _gelu_tanh(ca, a)
    elif ca.dtype == np.float32:
        r = _gelu_f32(ca, _onednn_gelu(self, a))
    else:
        r = 0.5 * ca * (1 + _erf(ca / np.sqrt(2)))
    if r.ndim > 1 and not a.flags.c_contiguous:
        return iter_wrap(r, self.dtype, a)
    return wrap(r, self.dtype)


def _compiled_float32(loop, tensors, *scalars, order=None):
    """The compiled loop `loop` over float32 tensors of one shape, of _jit.MIN_SIZE elements
    or more, else its NumPy steps (_NUMPY) over float32 or float64 ones (then the scalars in
    the dtype; the result laid out as TensorIterator lays it out), or None (the caller's other
    path: the decomposition).  order: the tensors' positions in ATen's TensorIterator, which
    lays out the result (default: as given)."""
    first = tensors[0]
    if not all(t.dtype is first.dtype and t._shape == first._shape for t in tensors):
        return None
    dtype = arr(first).dtype.type
    jit = loops(first.numel()) if dtype is np.float32 else None
    fn = getattr(jit, loop) if jit is not None else \
        _NUMPY.get(loop) if dtype in (np.float32, np.float64) else None
    if fn is None:
        return None
    arrays = [arr(t) for t in tensors]
    dense = all(a.flags.c_contiguous for a in arrays)
    if dense:  # (the common case: no layout to choose)
        flat, out = [a.ravel() for a in arrays], np.empty_like(arrays[0])
    else:  # the result laid out as TensorIterator lays it out, the operands copied so
        strides = iter_strides(first._shape, *(arrays if order is None else
                                                [arrays[i] for i in order]))
        out = empty_strided(first._shape, arrays[0].dtype, strides)
        flat = [_laid_out(a, strides).ravel(order="K") for a in arrays]
    scalars = [dtype(s) for s in scalars]
    fn(*flat, *scalars, out.ravel(order="K"))
    if dense:  # (the elements ATen's scalar code computes, where it differs)
        _activation_tails.apply(loop, flat, scalars, out.ravel())
        return wrap(out, first.dtype)
    return wrap_strided(out, first.dtype, strides)


def _laid_out(a, strides):
    """a, or a copy of it, with these strides (elements)."""
    if a.strides == tuple([s * a.itemsize for s in strides]):
        return a
    out = empty_strided(a.shape, a.dtype, strides)
    out[...] = a
    return out


def _decomposed(name, *args):
    from mindtorch._ops.dispatch import _decomposition
    return _decomposition(OPS[name])(*args)


def _fused(name, tensors, numbers, serves):
    """The kernel of op `name`: the compiled loop `<name>_f32` over its first `tensors`
    arguments and the `numbers` after them (where _compiled_float32 takes them and
    serves(*arguments) holds), else the op's decomposition."""
    loop = name + "_f32"
    order = _ITER_ORDER.get(name)

    def kernel(*args):
        r = None
        if serves is None or serves(*args):
            r = _compiled_float32(loop, args[:tensors], *args[tensors:tensors + numbers],
                                  order=order)
        if r is None:  # (laid out as ATen's TensorIterator over the tensors, as the loop's)
            operands = args[:tensors] if order is None else [args[i] for i in order]
            return iter_laid_out(_decomposed(name, *args), *operands)
        return r
    kernel.__name__ = name
    return kernel


def _float_serves(self, *scalars):
    """Whether a loop serves self (float32 or float64) with these Scalar arguments, after
    the decomposition's range checks of them."""
    if self.dtype not in (D.float32, D.float64) or not _numbers(*scalars):
        return False
    A._float_args(self, *scalars)
    return True


def _numbers(*values):
    return all(type(v) in (int, float) for v in values)


# ATen kernels whose TensorIterator takes the tensors in another order (self first)
_ITER_ORDER = {"leaky_relu_backward": (1, 0)}

# op: (tensor arguments, number arguments after them, when the loop serves (None: always))
_FUSED = {
    "gelu_backward": (2, 0, lambda grad, self, approximate: approximate == "none"),
    "silu": (1, 0, None),
    "silu_backward": (2, 0, None),
    "leaky_relu": (1, 1, _float_serves),
    "softplus": (1, 2, _float_serves),
    "log_sigmoid": (1, 0, None),
    "leaky_relu_backward": (2, 1, lambda grad, self, slope, is_result:  # (else its error)
                            not (is_result and slope < 0)),
    "hardswish": (1, 0, None),
    "hardswish_backward": (2, 0, None),
    "hardtanh_backward": (2, 2, lambda grad, self, low, high: _numbers(low, high)),
    "sigmoid_backward": (2, 0, None),
    "tanh_backward": (2, 0, None),
    "softplus_backward": (2, 2, lambda grad, self, beta, threshold: _numbers(beta, threshold)),
    "log_sigmoid_backward": (2, 0, None),  # (the buffer computed again, as the decomposition)
}
KERNELS = {"gelu": _gelu, **{name: _fused(name, *spec) for name, spec in _FUSED.items()}}


def _gelu_backward(grad, self, approximate="none"):
    """The tanh approximation's gradient in PyTorch's order (float32 for 16-bit inputs,
    rounded once); the exact one through the compiled loop or the decomposition."""
    if approximate == "tanh" and grad.dtype is self.dtype and grad._shape == self._shape \
            and self.dtype.is_floating_point:
        a, g = arr(self), arr(grad)
        up = (lambda v: v.astype(np.float32)) if a.dtype.itemsize < 4 else (lambda v: v)
        r = _gelu_tanh_backward(up(g), up(a), a)
        if r.ndim > 1 and not (g.flags.c_contiguous and a.flags.c_contiguous):
            return iter_wrap(r, self.dtype, g, a)  # (ATen's TensorIterator: grad first)
        return wrap(r, self.dtype)
    return _gelu_backward_loop(grad, self, approximate)


_gelu_backward_loop, KERNELS["gelu_backward"] = KERNELS["gelu_backward"], _gelu_backward


def _contiguous_result(kernel):
    """kernel with a contiguous result, whatever the input's layout (PyTorch's log_sigmoid
    allocates its output so)."""
    def contiguous(*args):
        r = kernel(*args)
        return r if r.is_contiguous() else wrap(np.ascontiguousarray(arr(r)), r.dtype)
    contiguous.__name__ = kernel.__name__
    return contiguous


KERNELS["log_sigmoid"] = _contiguous_result(KERNELS["log_sigmoid"])


def _negcoef(x, alpha, scale):
    """ELU's alpha * scale as ATen's kernels take it (float32 for float32 x)."""
    return alpha * scale if x.dtype is D.float64 else float(np.float32(alpha) * np.float32(scale))


def _elu_backward(grad, alpha, scale, input_scale, is_result, x):
    """The loop (from the input, or the in-place variant's result) where it serves, else the
    decomposition."""
    r = None
    if _numbers(alpha, scale, input_scale) and not (is_result and alpha < 0):
        loop = "elu_result_backward_f32" if is_result else "elu_backward_f32"
        r = _compiled_float32(loop, (grad, x), _negcoef(x, alpha, scale), scale, input_scale)
    if r is None:
        return _decomposed("elu_backward", grad, alpha, scale, input_scale, is_result, x)
    return r


def _elu(self, alpha=1, scale=1, input_scale=1):
    r = None
    if _float_serves(self, alpha, scale, input_scale):
        r = _compiled_float32("elu_f32", (self,), _negcoef(self, alpha, scale), scale,
                              input_scale)
    return _decomposed("elu", self, alpha, scale, input_scale) if r is None else r


KERNELS.update(elu_backward=_elu_backward, elu=_elu)


def _threshold_backward(grad, self, threshold):
    """grad where not self <= threshold (a NaN self keeps it), else +0: the grad's bits
    under a mask (kernels/_select.py), fewer and cheaper passes than np.where or a
    product."""
    g = arr(grad)
    drop = np.less_equal(arr(self), threshold)
    if g.ndim and g.dtype.kind == "f" and g.dtype.itemsize in (2, 4, 8) and \
            drop.shape == g.shape:  # (the mask negated in place: a pass over bytes)
        return wrap(keep_where(np.logical_not(drop, out=drop), g), grad.dtype)
    return wrap(np.where(drop, g.dtype.type(0), g), grad.dtype)


KERNELS["threshold_backward"] = _threshold_backward
