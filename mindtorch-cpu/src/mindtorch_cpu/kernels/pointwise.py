"""Pointwise kernels: numpy ufuncs, computed in the dtype PyTorch's promotion gives."""
import contextlib
import math

import numpy as np
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch import _float8 as float8
from mindtorch._dtype import _FP8
from mindtorch._ops import OPS
from mindtorch._ops.decls import pointwise_checks as P
from mindtorch._ops.decls.pointwise_checks import check_neg, check_sub
from mindtorch._scalars import checked_scalar

from .._np import _ndarray, arr, cast, wrap
from ._complex_abs import complex_abs, complex_sgn
from ._iter_layout import iter_result, iter_wrap
from ._jit import loops
from ._layout import dense_like
from ._limited import check_pointwise
from ._pow import elementwise_pow
from ._reduced_rsqrt import reduced_rsqrt
from ._select import select

# PyTorch's own words where its refusal is not the generic '"<op>_cpu" not implemented'
_COMPLEX_REFUSALS = {
    "floor": "floor is not supported for complex inputs",
    "ceil": "ceil is not supported for complex inputs",
    "trunc": "trunc is not supported for complex inputs",
    "sign": "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead.",
    "signbit": "signbit is not implemented for complex tensors.",
    "relu": "clamp is not supported for complex types",
}
_VML = {"floor", "ceil", "round", "trunc", "erf"}  # kernels PyTorch names <op>_vml_cpu
# PyTorch's cpu kernels named differently from their ops (in its dtype errors)
_STUBS = {"floor_divide": "div_floor", "bitwise_left_shift": "lshift",
          "bitwise_right_shift": "rshift"}


def not_implemented(name, dtype):
    if dtype.is_complex and name in _COMPLEX_REFUSALS:
        return NotImplementedError(_COMPLEX_REFUSALS[name])
    kernel = f"{name}_vml_cpu" if name in _VML else f"{_STUBS.get(name, name)}_cpu"
    return NotImplementedError(f'"{kernel}" not implemented for \'{D.scalar_type_name(dtype)}\'')


def _operand(x, dt):
    """numpy operand in compute dtype dt (Python scalars become dt scalars; float8 by c10's
    conversions)."""
    if isinstance(x, Tensor):
        a = arr(x)
        if a.dtype == dt.np:
            return a
        return a.astype(dt.np) if dt._limited != _FP8 else float8.cast(a, dt)
    if dt._limited == _FP8:
        return float8.cast(np.float64(x.real if isinstance(x, complex) else x), dt)[()]
    with np.errstate(all="ignore"):
        return cast(x, dt.np)[()]


def _float8_operand(x, dt):
    """A float8 op's operand as float32 values of float8 dtype dt (numbers converted by
    c10's rules: e4m3fn saturates, e8m0fnu takes |x|): float8 math is float32 math rounded
    once to dt, where ml_dtypes' own float8 ufuncs would round by its rules."""
    a = arr(x) if isinstance(x, Tensor) else np.float64(x)
    if a.dtype != dt.np:
        a = float8.cast(a, dt)
    return a.astype(np.float32)


def _compute_dtype(op, operands):
    return op.result_dtype(*operands)


def unary(fn, name, *, allow=None):
    """Kernel applying fn to one tensor computed in the op's result dtype.  allow: dtype
    kinds accepted (others raise PyTorch's 'not implemented for' error)."""
    op = OPS[name]
    # (np.errstate costs ~1 us: skipped for functions that raise no floating-point flags)
    errstate = _no_errstate if name in EXACT else np.errstate

    def kernel(self):
        dt = self.dtype
        if dt._limited:
            check_pointwise(name, dt)
        if allow is not None and dt.kind not in allow:
            raise not_implemented(name, dt)
        out = op.result_dtype(self) if op.promotion != "default" else dt
        a = arr(self)
        if out.kind in "fc" and a.dtype != out.np and dt.kind not in "fc":
            a = a.astype(out.np)
        if dt in _REDUCED or out in _REDUCED:  # 16-bit floats compute in float32, rounding
            # once (as PyTorch; also ints promoted to a 16-bit default dtype)
            with errstate(all="ignore"):
                r = fn(a.astype(np.float32))
            r = r.astype(out.np) if r.dtype == np.float32 else r
        else:
            with errstate(all="ignore"):
                r = fn(a)
        if r.ndim > 1 and not a.flags.c_contiguous:
            return iter_wrap(r, out, a)
        return wrap(r, out)
    kernel.__name__ = name
    return kernel


def _no_errstate(**_):
    return _NOTHING_TO_SILENCE


_NOTHING_TO_SILENCE = contextlib.nullcontext()


_REDUCED = (D.float16, D.bfloat16)


def _one_element(x):
    return not isinstance(x, Tensor) or x.numel() == 1


def binary(fn, name, *, allow=None, quiet=True, promotion=None, scalar_opmath=False,
           stub=None):
    """Kernel for fn(self, other) with PyTorch promotion (the op's kind unless
    `promotion` is given).  quiet: silence numpy's floating-point warnings (costs ~1us,
    so skipped for add/mul/comparisons, whose only warnings are overflow to inf).
    scalar_opmath: like PyTorch's mul/div, a one-element `other` of a float16/bfloat16
    result is used with its original value in float32 (not first rounded to the dtype).
    stub: the kernel PyTorch's dtype error names, when not the op's."""
    op = OPS[name]
    kind = promotion or op.promotion
    always_bool, default = kind == "always_bool", kind in (None, "default")
    from mindtorch._ops.promotion_kinds import promoted
    from mindtorch._promotion import result_type

    def kernel(self, other):
        dt = self.dtype if isinstance(self, Tensor) else None  # (nn.Parameter too)
        # (operands sharing their strides tuple - wrap's per shape for contiguous results -
        # are laid out alike: the second needs no layout test of its own)
        alike = False
        if dt is not None and isinstance(other, Tensor) and other.dtype is dt:
            a, b = arr(self), arr(other)
            alike = self._stride is other._stride
        elif dt is not None and (type(other) is float or type(other) is int
                                 and _INT_MIN <= other < _INT_END) \
                and dt.kind == "f" and dt._rank > 1:  # (float32/64: not the 8/16-bit floats)
            a, b = arr(self), other  # numpy's weak Python scalars promote like PyTorch here
        elif dt is None and isinstance(other, Tensor) and (type(self) is float or type(self) is int
                                                       and _INT_MIN <= self < _INT_END) \
                and other.dtype.kind == "f" and other.dtype._rank > 1:
            dt = other.dtype
            a, b = self, arr(other)
        else:
            check_int_scalars(self, other)
            dt = result_type(self, other)
            if dt._limited:  # (before numpy casts what ml_dtypes may refuse to)
                check_pointwise(stub or name, dt, (self, other))
            a, b = _operand(self, dt), _operand(other, dt)
        if dt._limited:
            check_pointwise(stub or name, dt, (self, other))
        if allow is not None and dt.kind not in allow:
            raise not_implemented(stub or name, dt)
        out = D.bool if always_bool else dt if default else promoted(kind, dt)
        if dt._limited == _FP8:
            a, b = _float8_operand(self, dt), _float8_operand(other, dt)
        elif out is not dt and not always_bool:
            # from the original values: a scalar must not pass through dt (-3 as uint8)
            a, b = _operand(self, out), _operand(other, out)
        if scalar_opmath and out in _REDUCED and _one_element(other):
            with np.errstate(all="ignore"):
                r = fn(np.asarray(a).astype(np.float32), _operand(other, D.float32))
                return wrap(np.asarray(r).astype(out.np), out)
        try:
            if not quiet:
                r = fn(a, b)
            else:
                with np.errstate(all="ignore"):
                    r = fn(a, b)
        except ValueError:
            _broadcast_check(self, other)
            raise
        if r.ndim > 1 and (type(a) is _ndarray and not a.flags.c_contiguous or not alike and
                           type(b) is _ndarray and not b.flags.c_contiguous):
            return iter_wrap(r, out, a, b)
        return wrap(r, out)
    kernel.__name__ = name
    return kernel


_INT_MIN, _INT_END = P.INT_MIN, P.INT_END
check_int_scalars = P.check_int_scalars


def _c_contiguous(x):
    """Whether x is a number or a C-contiguous array (as NumPy lays out its results)."""
    return type(x) is not _ndarray or x.flags.c_contiguous


def _broadcast_check(*operands):
    """PyTorch's RuntimeError for operands whose shapes do not broadcast (numpy raises
    ValueError)."""
    from mindtorch._shapes import broadcast_shapes
    broadcast_shapes(*(x._shape for x in operands if isinstance(x, Tensor)))


def _special(name):
    """scipy.special function, imported on first use (scipy costs ~150 ms to import)."""
    def call(*args):
        from scipy import special
        return getattr(special, name)(*args)
    return call


_erf = _special("erf")


def _reciprocal(a):
    # complex: a division as PyTorch's (np.reciprocal gives 1/(2+0j) = 0.5-0j and
    # 1/0 = nan+nanj where PyTorch gives 0.5+0j and inf+nanj)
    return np.divide(1, a) if a.dtype.kind == "c" else np.reciprocal(a)


def _rsqrt(a):
    return _reciprocal(np.sqrt(a))


def _rsqrt_kernel(generic):
    """rsqrt: float16 / bfloat16 as PyTorch's vector and scalar loops round it."""
    def kernel(self):
        if self.dtype not in _REDUCED:
            return generic(self)
        a = arr(self)
        r = reduced_rsqrt(a, avx512_kernel=False)
        if r.ndim > 1 and not a.flags.c_contiguous:
            return iter_wrap(r, self.dtype, a)
        return wrap(r, self.dtype)
    kernel.__name__ = "rsqrt"
    return kernel


def _sigmoid(a):
    """1 / (1 + exp(-a)), in one buffer (the temporaries of the plain expression cost
    as much as its arithmetic on layer-sized tensors)."""
    r = np.negative(a)
    if type(r) is not np.ndarray:  # (0-dim: a numpy scalar)
        return 1 / (1 + np.exp(r))
    np.exp(r, out=r)
    r += 1
    return np.reciprocal(r, out=r)


def _scaled(fn, self, other, alpha):
    """fn(self, other * alpha), scaling in the result dtype as PyTorch does (a uint8
    operand must not wrap before promotion to int16), after PyTorch's alpha checks."""
    from mindtorch._promotion import result_type
    check_int_scalars(self, other, alpha)
    dt = result_type(self, other)
    if isinstance(alpha, bool) and dt is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and dt.kind in "uib":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex) and dt.kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex "
                           "number.")
    checked_scalar(alpha, dt)  # alpha is converted to the result dtype (checked)
    a, b = _operand(self, dt), _operand(other, dt)
    try:
        with np.errstate(all="ignore"):
            al = np.asarray(alpha).astype(dt.np)
            if dt.kind == "f" and dt.itemsize == 2:
                return iter_result(_half_scaled(fn, a, b, al), dt, a, b)
            # (float32 / float64: the product and the sum round separately, where PyTorch's
            # kernel fuses them: a last-bit difference on some elements.  Exact needs a
            # wider type, 2-4x the time, or numba's loops, whose ~120 MiB an SGD loop over
            # a large layer would then load: kernels/_jit.py)
            return iter_result(fn(a, np.multiply(b, al)), dt, a, b)
    except ValueError:
        _broadcast_check(self, other)
        raise


# ATen's vectorized_loop takes 2 vectors per step (32 16-bit floats with AVX2); the elements
# left over at the end of each row go through its scalar loop
_PAIR16 = 32


def _half_scaled(fn, a, b, al):
    """fn(a, al * b) of float16 / bfloat16 as ATen's add kernel: on its vectorized loop one
    fused multiply-add in float32 (the product of 16-bit numbers is exact there, so NumPy's
    float32 sum rounds once as fmadd), rounded to 16 bits; its scalar loop (each row's tail,
    or every element when the loop is not vectorized) rounds the product and the sum to 16
    bits separately."""
    dt = np.result_type(a, b)
    coeff = al if fn is np.add else -al  # (a - al * b: the kernel adds -alpha * b)
    sa, sb = np.shape(a), np.shape(b)
    shape = sa if sa == sb else np.broadcast_shapes(sa, sb)
    wide = np.float32
    r = np.array(a if sa == shape else np.broadcast_to(a, shape), wide, order="C")
    r += np.multiply(np.asarray(b, wide), wide(coeff))
    r = r.astype(dt)
    inner = _vector_row(shape, a, b)
    tail = inner % _PAIR16 if inner else (shape[-1] if shape else 1)
    if tail:
        rows = r.reshape(-1, inner or shape[-1])
        cut = (slice(None), slice(rows.shape[1] - tail, None))
        ta, tb = (np.broadcast_to(x, shape).reshape(rows.shape)[cut] for x in (a, b))
        rows[cut] = fn(ta, np.multiply(tb, al))
    return r


def _vector_row(shape, *operands):
    """Elements per row of ATen's vectorized loop for a result of `shape` (C-contiguous):
    its trailing dims that TensorIterator coalesces, or 0 when the loop is not vectorized
    (an operand is neither contiguous nor one element along the row; other layouts,
    whose dims TensorIterator reorders, are counted as not vectorized)."""
    if not shape:
        return 1
    if all(np.size(x) == 1 or (np.shape(x) == shape and x.flags.c_contiguous)
           for x in operands):
        return math.prod(shape)
    views = []
    for x in operands:
        x = np.asarray(x)
        if x.size > 1 and not x.flags.c_contiguous:
            return 0
        views.append(np.broadcast_to(x, shape))
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    if not dims:
        return 1
    last = dims[-1]
    strides = [v.strides[last] for v in views]
    if sum(s == 0 for s in strides) > 1 or any(s not in (0, v.itemsize)
                                               for s, v in zip(strides, views)):
        return 0
    inner, prev = shape[last], last
    for d in reversed(dims[:-1]):
        if not all(v.strides[d] == v.strides[prev] * shape[prev] for v in views):
            break
        inner, prev = inner * shape[d], d
    return inner


def _add(self, other, alpha=1):
    if alpha == 1 and type(alpha) is not bool:
        r = _plain_add(self, other)
        if not r.dtype.is_complex:
            return r
        # complex: PyTorch always computes self + alpha * other (1 * (inf+0j) is inf+nanj)
    return _scaled(np.add, self, other, alpha)


def _sub(self, other, alpha=1):
    check_sub(self, other, alpha)
    if alpha == 1:
        r = _plain_sub(self, other)
        if not r.dtype.is_complex:
            return r
    return _scaled(np.subtract, self, other, alpha)


def _rsub(self, other, alpha=1):
    return _sub(other, self, alpha)


def _div(self, other, rounding_mode=None):
    check_int_scalars(self, other)
    if rounding_mode is None:
        return _true_div(self, other)
    if rounding_mode == "trunc":
        return _trunc_div(self, other)
    if rounding_mode == "floor":
        return _floor_div(self, other)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                       f"found '{rounding_mode}'")


def _int_zero_check(a, b):
    """Integer division by zero raises (when some result element divides by it: every
    element of b is used unless the result is empty)."""
    b = np.asarray(b)
    if np.issubdtype(b.dtype, np.integer) and np.any(b == 0) and \
            np.broadcast(np.asarray(a), b).size:
        raise RuntimeError("ZeroDivisionError")


def _trunc(a, b):
    if np.issubdtype(a.dtype, np.integer) if hasattr(a, "dtype") else False:
        _int_zero_check(a, b)
        q = np.floor_divide(a, b)
        r = np.remainder(a, b)
        return q + ((r != 0) & ((a < 0) != (b < 0)))
    return np.trunc(np.true_divide(a, b))


def _floor(a, b):
    if hasattr(a, "dtype") and np.issubdtype(a.dtype, np.integer):
        _int_zero_check(a, b)
    dt = np.result_type(a, b)
    if dt == _BF16 or dt == np.float16:
        return _reduced_floor_divide(np.asarray(a, dt), np.asarray(b, dt), dt)
    return np.floor_divide(a, b)


def _reduced_floor_divide(a, b, dt):
    """PyTorch's div_floor_floating in float16/bfloat16 arithmetic: every step is rounded
    to the dtype (numpy's floor_divide rounds once)."""
    def r(x):
        return np.asarray(x, np.float32).astype(dt).astype(np.float32)
    a, b = a.astype(np.float32), b.astype(np.float32)
    mod = r(np.fmod(a, b))
    div = r(r(a - mod) / b)
    div = np.where((mod != 0) & ((b < 0) != (mod < 0)), r(div - 1), div)
    floor = np.floor(div)
    floor = np.where(r(div - floor) > 0.5, r(floor + 1), floor)
    out = np.where(div != 0, floor, np.copysign(np.float32(0), r(a / b)))
    return np.where(b == 0, r(a / b), out).astype(dt)


def _remainder(a, b):
    if hasattr(a, "dtype") and np.issubdtype(a.dtype, np.integer):
        _int_zero_check(a, b)
        return np.remainder(a, b)
    # PyTorch's rule, fmod moved to b's sign: a zero result keeps a's sign (numpy's is b's)
    m = np.fmod(a, b)
    return np.where((m != 0) & ((np.asarray(b) < 0) != (m < 0)), m + b, m)


def _fmod(a, b):
    if hasattr(a, "dtype") and np.issubdtype(a.dtype, np.integer):
        _int_zero_check(a, b)
    return np.fmod(a, b)


def _pow_kernel(self, exponent):
    check_int_scalars(self, exponent)
    base_int = self.dtype.kind in "uib" if isinstance(self, Tensor) else isinstance(self, int)
    if base_int and type(exponent) is int and exponent < 0:  # checked before any cast
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if isinstance(self, Tensor) and type(exponent) in (int, float) and \
            (self.dtype.kind in "ui" or self.dtype in (D.float16, D.bfloat16)):
        from mindtorch._promotion import result_type
        dt = result_type(self, exponent)
        if dt.kind in "ui" or dt in (D.float16, D.bfloat16):
            # the exponent is converted (with c10's overflow check) to the result dtype
            checked_scalar(exponent, dt)
    # bool ** bool works only as tensor ** Python bool in PyTorch
    if isinstance(exponent, Tensor) and exponent.dtype is D.bool and \
            (self.dtype is D.bool if isinstance(self, Tensor) else type(self) is bool):
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    return _pow_binary(self, exponent)


_INT = "uib"
_INT_ONLY = "ui"
_plain_add = binary(np.add, "add", quiet=False)
_plain_sub = binary(np.subtract, "sub", quiet=False)
_true_div = binary(np.true_divide, "div", scalar_opmath=True)
# rounding divisions keep integer dtypes (the default promotion, not int_to_float)
# (a one-element divisor of a float16/bfloat16 result divides with its own value, in float32)
_trunc_div = binary(_trunc, "div", allow="uif", promotion="default", scalar_opmath=True,
                    stub="div_trunc")
_floor_div = binary(_floor, "div", allow="uif", promotion="default", stub="div_floor")
_pow_binary = binary(elementwise_pow, "pow")


def _neg(self):
    check_neg(self)
    a = arr(self)
    if a.ndim > 1 and not a.flags.c_contiguous:
        return iter_wrap(np.negative(a), self.dtype, a)
    return wrap(np.negative(a), self.dtype)


_INF = float("inf")
try:  # the clip ufunc itself: np.clip's Python wrapper costs ~6 us a call
    from numpy._core.umath import clip as _clip_ufunc  # NumPy 2
except ImportError:  # pragma: no cover
    from numpy.core.umath import clip as _clip_ufunc  # NumPy 1


def _clip(a, low, high):
    """float a clamped to number bounds (None: unbounded) as c10 clamps: a NaN of a kept
    bit for bit, -0 kept.  np.clip with both bounds does exactly that, and is several
    times faster than np.maximum / np.minimum (or np.clip with a bound None)."""
    bounds = [np.asarray(-_INF if low is None else low),
              np.asarray(_INF if high is None else high)]
    with np.errstate(all="ignore"):  # (a complex 0-dim bound: its real part, as _operand)
        return _clip_ufunc(a, *(cast(b.real, a.dtype)[()] for b in bounds))


def _clamp(self, min=None, max=None):
    min, max, dt, numbers = P.clamp_plan(self, min, max)  # checks number bounds too
    a = arr(self)
    if a.dtype != dt.np:
        a = a.astype(dt.np)
    if numbers and dt.kind == "f":
        if all(b == b for b in (min, max) if b is not None):  # noqa: PLR0124 (NaN test)
            r = _clip(a, min, max)
        else:
            r = np.full_like(a, np.nan)  # (a NaN bound: ATen's kernel fills +NaN)
        if r.ndim > 1 and not a.flags.c_contiguous:
            return iter_wrap(r, dt, a)
        return wrap(r, dt)
    operands = [a]  # (TensorIterator's: self, then the bounds given)
    with np.errstate(invalid="ignore"):
        keep = np.isnan(a) if dt.kind == "f" else None  # a nan stays nan
        for bound, fn in ((min, np.maximum), (max, np.minimum)):
            if bound is not None:
                b = _operand(bound, dt)
                operands.append(b)
                a = fn(a, b) if keep is None else np.where(keep, a, fn(a, b))
    return iter_result(np.array(a, copy=True) if a is arr(self) else a, dt, *operands)


def _where(condition, self, other):
    check_int_scalars(self, other)
    dt = P.where_plan(condition, self, other)
    c, a, b = arr(condition), _operand(self, dt), _operand(other, dt)
    r = select(c, a, b)
    if r.ndim > 1 and not (c.flags.c_contiguous and _c_contiguous(a) and _c_contiguous(b)):
        return iter_wrap(r, dt, c, a, b)
    return wrap(r, dt)


def _lerp(self, end, weight):
    dt = P.lerp_plan(self, end, weight)
    if type(weight) in (int, float) and dt in (D.float32, D.float64) and \
            self._shape == end._shape and self.is_contiguous() and end.is_contiguous():
        from .inplace import _lerp as lerp_  # its fast path on a copy (the same arithmetic)
        out = arr(self).copy()
        lerp_(out, arr(end), dt.np.type(weight))
        return wrap(out, dt)
    ct = P.opmath(dt)  # 16-bit floats compute in float32, rounding once
    s, e = _operand(self, ct), _operand(end, ct)
    w = _operand(weight, ct)
    with np.errstate(all="ignore"):
        d = e - s
        small = np.abs(w) < 0.5
        # torch: fmadd(small ? w : w - 1, end - self, small ? self : end), the product
        # unrounded (a wider type holds it exactly)
        coeff, base = np.where(small, w, w - 1), np.where(small, s, e)
        if ct is D.float32 or ct is D.float64:
            from .inplace import fma
            r = fma(coeff, d, base)
        else:
            r = coeff * d + base
    r = np.asarray(r).astype(dt.np)
    if r.ndim > 1 and not (_c_contiguous(s) and _c_contiguous(e) and _c_contiguous(w)):
        # (np.where / fma lay it out as C; a number weight is no TensorIterator operand)
        return iter_wrap(r, dt, s, e, *((w,) if isinstance(weight, Tensor) else ()))
    return wrap(r, dt)


# wider types for a fused multiply-add's NumPy path: float64 holds a product of two
# float32 values exactly; x86's long double (64-bit mantissa) holds 64 of a float64
# product's 106 bits, which is closer than float64's two roundings but not exact
_FMA = {np.dtype(np.float32): np.float64}
if np.finfo(np.longdouble).nmant >= 63:
    _FMA[np.dtype(np.float64)] = np.longdouble


def _round(self, decimals=None):
    """round(t) (integers copied) or round(t, decimals=d), PyTorch's second overload,
    which refuses integers even for d == 0."""
    refused = self.dtype is D.bool or self.dtype.is_complex
    if refused or self.dtype.kind in "ui" and decimals is not None:
        # (decimals=0 is the plain round's kernel in PyTorch)
        raise NotImplementedError(f'"round{"_cpu" if decimals else "_vml_cpu"}" not '
                                  f"implemented for '{D.scalar_type_name(self.dtype)}'")
    if self.dtype.kind in "ui":
        return wrap(arr(self).copy(), self.dtype)
    a = x = arr(self)
    if a.dtype.itemsize < 4:  # PyTorch scales reduced-precision values in float32
        a = a.astype(np.float32)
    with np.errstate(all="ignore"):
        return iter_result(np.round(a, decimals or 0), self.dtype, x)


def _relu(a):
    if a.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    if a.dtype.kind != "f":
        return np.maximum(a, 0)
    bounds = _RELU_BOUNDS.get(a.dtype)
    if bounds is None:  # (typed once: converting the bounds costs as much as a small relu)
        bounds = _RELU_BOUNDS[a.dtype] = (a.dtype.type(0), a.dtype.type(_INF))
    return _clip_ufunc(a, *bounds)  # (np.clip's semantics: see _clip)


_RELU_BOUNDS = {}


def _identity_for_ints(fn):
    return lambda a: a.copy() if a.dtype.kind in "uib" else fn(a)


def _sign(a):
    if a.dtype == np.bool_:
        return a.copy()
    if a.dtype.kind in "ui":
        return np.sign(a)
    return np.where(np.isnan(a), np.zeros((), a.dtype), np.sign(a))  # sign(nan) is 0


def _abs(a):
    return complex_abs(a) if a.dtype.kind == "c" else np.abs(a)


def _sgn(a):
    """sign, or x / |x| (0 at 0) for complex numbers (kernels/_complex_abs.py)."""
    return _sign(a) if a.dtype.kind != "c" else complex_sgn(a)


_BF16 = D.bfloat16.np


def _floating(a):
    """a as a numpy floating/complex array, or None for integers and bool (numpy sees
    bfloat16 as kind 'V': it is read as float32)."""
    if a.dtype.kind in "fc":
        return a
    return a.astype(np.float32) if a.dtype == _BF16 else None


def _signbit(a):
    f = _floating(a)
    return np.signbit(f) if f is not None else (a < 0)


def _isinf(a):
    f = _floating(a)
    return np.isinf(f) if f is not None else np.zeros(a.shape, bool)


def _isnan(a):
    f = _floating(a)
    return np.isnan(f) if f is not None else np.zeros(a.shape, bool)


def _isfinite(a):
    f = _floating(a)
    return np.isfinite(f) if f is not None else np.ones(a.shape, bool)


_FLOAT = "fc"
def _compiled_f32(name, fallback):
    """fn(a): kernels/_compiled.py's float32 loop `name` for float32 arrays of
    _jit.MIN_SIZE elements or more (correctly rounded; ~10x NumPy's float32 log1p / expm1,
    scalar libm loops), else fallback(a)."""
    def fn(a):
        jit = loops(a.size) if a.dtype == np.float32 else None
        if jit is None:
            return fallback(a)
        (flat,), out = dense_like(a)
        getattr(jit, name)(flat, out.ravel(order="K"))
        return out
    return fn


def _float32_through_float64(fn):
    """fn computing float32 in double, rounded once: PyTorch's float32 log10 / log2 / log1p /
    expm1 (SLEEF's 1-ulp functions) are the correctly rounded value on all but ~0.02% of
    inputs, NumPy's float32 loops are not (np.log10 differs from PyTorch on 47% of float32
    inputs with NumPy's AVX-512 code, 9% without: log10(1e-6) was -6.0000005; its float32
    log1p / expm1 are 2 ulps off on AVX-512)."""
    def through_double(a):
        if a.dtype != np.float32:
            return fn(a)
        return fn(a, dtype=np.float64).astype(np.float32)
    return through_double


_real_log1p = _float32_through_float64(np.log1p)


def _log1p(a):
    """np.log1p, but for complex a PyTorch's formula: NumPy's complex log1p is log(1 + z),
    whose real part loses |z| below the precision of 1 (log1p(1e-10+1e-10j) in complex64:
    0 for 1e-10).  log|1 + z| = log1p(x (2 + x) + y^2) / 2 for |z| < 0.5, else log|1 + z|;
    the argument is atan2(y, 1 + x)."""
    if a.dtype.kind != "c":
        return _real_log1p(a)
    x, y = a.real, a.imag
    with np.errstate(all="ignore"):
        r = x * (2 + x) + y * y
        small = np.abs(a) < 0.5
        re = np.where(small, np.where(r == 0, x, 0.5 * np.log1p(r)),
                      np.log(np.hypot(x + 1, y)))
        out = np.empty_like(a)
        out.real, out.imag = re, np.arctan2(y, x + 1)
    out[np.isnan(x) | np.isnan(y)] = complex("nan+nanj")  # (as PyTorch: nan+infj too)
    return out


log1p = _compiled_f32("log1p_f32", _log1p)
expm1 = _compiled_f32("expm1_f32", _float32_through_float64(np.expm1))
# (bit-identical to PyTorch's sigmoid, whose exp is SLEEF's)
sigmoid = _compiled_f32("sigmoid_f32", _sigmoid)


log10 = _float32_through_float64(np.log10)
log2 = _float32_through_float64(np.log2)
# PyTorch's float32 tanh, sinh, cosh, atanh agree with the correctly rounded ones on
# ~99.9% of inputs, its acos, atan, log, tan on 82-93% (NumPy's float32 loops: 60-97%, as
# low as 61% for cosh); their double loops cost about PyTorch's time (NumPy's float64 sin
# and cos would cost 40x its float32 ones: they stay)
tanh, sinh, cosh, atanh, acos, atan, log, tan = map(_float32_through_float64, (
    np.tanh, np.sinh, np.cosh, np.arctanh, np.arccos, np.arctan, np.log, np.tan))
# (exp too: ~99%, where NumPy's float32 exp agrees on ~60%, SLEEF's expf on ~91%)
exp = _float32_through_float64(np.exp)

UNARY = {
    # name: (numpy function, dtype kinds allowed or None for all)
    "abs": (_abs, "uifc"), "exp": (exp, None), "log": (log, None),
    "log1p": (log1p, None), "expm1": (expm1, None), "sqrt": (np.sqrt, None),
    "sin": (np.sin, None), "cos": (np.cos, None), "tan": (tan, None),
    "tanh": (tanh, None), "sinh": (sinh, None), "cosh": (cosh, None),
    "asin": (np.arcsin, None), "acos": (acos, None), "atan": (atan, None),
    "log2": (log2, None), "log10": (log10, None), "asinh": (np.arcsinh, None),
    "acosh": (np.arccosh, None), "atanh": (atanh, None), "sgn": (_sgn, None),
    "sigmoid": (sigmoid, None), "erf": (_erf, "uibf"),
    "reciprocal": (_reciprocal, None), "rsqrt": (_rsqrt, None), "relu": (_relu, "uibf"),
    "floor": (_identity_for_ints(np.floor), "uif"), "ceil": (_identity_for_ints(np.ceil), "uif"),
    "trunc": (_identity_for_ints(np.trunc), "uif"), "sign": (_sign, "uibf"),
    "logical_not": (np.logical_not, None), "bitwise_not": (np.invert, _INT),
    "isnan": (_isnan, None), "isinf": (_isinf, None), "isfinite": (_isfinite, None),
    "signbit": (_signbit, "uibf"), "conj_physical": (np.conj, None),
}

# unary functions that cannot overflow, divide by zero or meet an invalid operation
EXACT = {"relu", "abs", "floor", "ceil", "trunc", "sign", "logical_not", "bitwise_not",
         "isnan", "isinf", "isfinite", "signbit", "conj_physical"}
LOUD = {"mul", "eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "logical_and",
        "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"}
BINARY = {
    "mul": (np.multiply, None),
    "floor_divide": (_floor, "uif"), "remainder": (_remainder, "uif"),
    "fmod": (_fmod, "uif"), "maximum": (np.maximum, "uibf"), "minimum": (np.minimum, "uibf"),
    "fmax": (np.fmax, "uibf"), "fmin": (np.fmin, "uibf"), "atan2": (np.arctan2, "uibf"),
    "eq": (np.equal, None), "ne": (np.not_equal, None), "lt": (np.less, "uibf"),
    "le": (np.less_equal, "uibf"), "gt": (np.greater, "uibf"), "ge": (np.greater_equal, "uibf"),
    "logical_and": (np.logical_and, None), "logical_or": (np.logical_or, None),
    "logical_xor": (np.logical_xor, None),
    "bitwise_and": (np.bitwise_and, _INT), "bitwise_or": (np.bitwise_or, _INT),
    "bitwise_xor": (np.bitwise_xor, _INT),
    "bitwise_left_shift": (np.left_shift, _INT_ONLY),
    "bitwise_right_shift": (np.right_shift, _INT_ONLY),
}


def _nan_to_num(self, nan=None, posinf=None, neginf=None):
    """The decomposition's replacements in one np.nan_to_num pass (float32/float64 and
    their complex types; other dtypes take the decomposition)."""
    if self.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        from mindtorch._ops.dispatch import _decomposition
        return _decomposition(OPS["nan_to_num"])(self, nan, posinf, neginf)
    info = np.finfo(self.dtype.np)

    def fit(v, default):  # as C++ converts a double: beyond the dtype's range is infinite
        v = default if v is None else v
        return v if not abs(v) > info.max else math.copysign(math.inf, v)
    a = arr(self)
    with np.errstate(over="ignore"):
        return iter_result(np.nan_to_num(a, nan=fit(nan, 0.0), posinf=fit(posinf, info.max),
                                         neginf=fit(neginf, info.min)), self.dtype, a)


KERNELS = {name: unary(fn, name, allow=allow) for name, (fn, allow) in UNARY.items()}
KERNELS["rsqrt"] = _rsqrt_kernel(KERNELS["rsqrt"])
KERNELS.update({name: binary(fn, name, allow=allow, quiet=name not in LOUD,
                             scalar_opmath=name == "mul")
                for name, (fn, allow) in BINARY.items()})
KERNELS.update({
    "add": _add, "sub": _sub, "rsub": _rsub, "div": _div, "neg": _neg, "clamp": _clamp,
    "where": _where, "round": _round, "pow": _pow_kernel, "lerp": _lerp,
    "nan_to_num": _nan_to_num,
})
