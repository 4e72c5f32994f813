"""Factories with computed contents, copies and fills."""
import contextlib
import warnings

import numpy as np
from mindtorch import Tensor
from mindtorch import _dtype as D
from mindtorch import _float8 as float8
from mindtorch._creation import _contiguous
from mindtorch._ops.decls import creation as C
from mindtorch._ops.decls.pointwise_checks import check_int_scalars
from mindtorch._scalars import checked_float8_fill, checked_scalar

from .._np import arr, cast, wrap
from ._box_muller import fma64
from ._pow import c_pow


def arange(start, end=None, step=1, dtype=None, device=None):
    if dtype is not None:  # torch refuses the dtype before looking at the range
        C.check_range_dtype("arange_cpu", dtype, "uif")
    start, step, n, dtype = C.arange_plan(start, end, step, dtype)
    if dtype is D.int64 and abs(start) < 2 ** 62 and abs(start + n * step) < 2 ** 62:
        return wrap(np.arange(start, start + n * step, step, dtype=np.int64), dtype)  # exact
    if dtype.kind in "ui":  # int64 arithmetic, wrapping into narrower types
        idx = np.arange(n, dtype=np.int64)
        with np.errstate(over="ignore"):
            return wrap((np.int64(start) + idx * np.int64(step)).astype(dtype.np), dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return wrap(_float_range(start, step, n, dtype.np), dtype)


def _fma(a, b, c, acc):
    """a * b + c rounded once to acc (b: integers): float32's in float64, exact for
    b < 2**29; float64's in x86's long double, exact for b < 2**11 (else one more rounding)."""
    if acc is np.float32:
        return (np.float64(a) * b + np.float64(c)).astype(np.float32)
    return (np.longdouble(a) * b + np.longdouble(c)).astype(np.float64)


def _float_range(start, step, n, out):
    """PyTorch's cpu arange values, bit for bit (one thread): each element is
    fma(step, i, start) in the accumulation type (float32 for half/bfloat16, else double),
    except in the vectorized blocks (2 AVX2 vectors at a time) where it is
    fma(step, i % V, base) from the vector's base fma(step, i - i % V, start) rounded to
    the result type."""
    isz = np.dtype(out).itemsize
    acc = np.float32 if isz == 2 else np.float64
    lanes = {8: 4, 4: 8, 2: 16}[isz]
    start, step = acc(start), acc(step)
    nvec = n // (2 * lanes) * (2 * lanes)
    r = np.empty(n, acc)
    r[nvec:] = _fma(step, np.arange(nvec, n), start, acc)
    if nvec:
        base = _fma(step, np.arange(0, nvec, lanes), start, acc).astype(out).astype(acc)
        r[:nvec] = _fma(step, np.arange(lanes), base[:, None], acc).reshape(-1)
    return r.astype(out)


# linspace's arithmetic type per result dtype (PyTorch's step_t: double for integers,
# the dtype itself otherwise; numpy float16/bfloat16 arithmetic rounds each operation
# to the type as c10::Half/BFloat16 do)
def _step_type(dtype):
    return np.dtype(np.float64) if dtype.kind in "ui" else dtype.np


@contextlib.contextmanager
def _complex_quiet(dtype, *bounds):
    """Silences NumPy's ComplexWarning where a complex bound is cast to a real dtype, and
    only there: entering catch_warnings resets Python's once-per-location registry, so
    every linspace (affine_grid's) made the user's default-filtered warnings repeat."""
    if dtype.kind == "c" or not any(isinstance(b, complex) for b in bounds):
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def linspace(start, end, steps, dtype=None, device=None):
    start, end, dtype = C.linspace_plan(start, end, steps, dtype)
    if steps > 1:  # (no or one step is a plain fill, for every dtype)
        C.check_range_dtype("linspace_cpu", dtype, "uifc")
    st = _step_type(dtype)
    if steps == 0:
        return wrap(np.empty(0, dtype.np), dtype)
    if dtype.kind in "ui":  # start and end are first converted (truncated) to the dtype
        start = int(start.real if isinstance(start, complex) else start)
    if steps == 1:
        with _complex_quiet(dtype, start):
            return wrap(np.full(1, start).astype(dtype.np), dtype)
    if dtype.kind in "ui":
        end = int(end.real if isinstance(end, complex) else end)
    if dtype.kind == "c":  # c10::complex's operators with a real step: part by part
        real = dtype.to_real()
        re, im = (arr(linspace(f(start), f(end), steps, real))
                  for f in (lambda v: complex(v).real, lambda v: complex(v).imag))
        return wrap((re + 1j * im.astype(dtype.np)).astype(dtype.np), dtype)
    with _complex_quiet(dtype, start, end), np.errstate(all="ignore"):
        s, e = cast(start, dtype.np).astype(st), cast(end, dtype.np).astype(st)
        step = (e - s) / np.asarray(steps - 1).astype(st)
        # the first half counts up from start, the second down from end (PyTorch's
        # symmetric formula, exact at both ends)
        half = steps // 2
        lo = np.arange(half)
        hi = np.arange(steps - half - 1, -1, -1)
        fused = _FUSED.get(st)
        if st == np.float64:  # (exactly rounded: a long double product is not, past 2**11)
            out = np.concatenate([fma64(step, lo, s), fma64(-step, hi, e)])
        elif fused is not None:
            # start + step * i with one rounding, as the fused multiply-add torch's
            # compiled kernel uses (then truncated for integer dtypes)
            s, e, step = (np.asarray(v).astype(fused) for v in (s, e, step))
            out = np.concatenate([s + step * lo, e - step * hi]).astype(st)
        else:
            out = np.concatenate([s + step * lo.astype(st), e - step * hi.astype(st)])
        return wrap(out.astype(dtype.np), dtype)


# a type holding float32 products with ints below 2**29 exactly (float64 uses fma64)
_FUSED = {np.dtype(np.float32): np.float64}


def eye(n, m=None, dtype=None, device=None):
    shape, dtype = C.eye_plan(n, m, dtype)
    return wrap(np.eye(*shape, dtype=dtype.np), dtype)


_SAFE = {}  # (source numpy dtype, destination numpy dtype) -> the cast never warns


def copy_(self, src, non_blocking=False):
    C.check_copy(self, src)
    if self is src:
        return self
    dst = arr(self)
    s = arr(src) if isinstance(src, Tensor) else _scalar_array(src)
    key = (s.dtype, dst.dtype)
    safe = _SAFE.get(key)
    if safe is None:
        safe = _SAFE[key] = bool(np.can_cast(s.dtype, dst.dtype, "safe")) and (
            s.dtype == dst.dtype or self.dtype._limited != D._FP8)
    if safe:
        np.copyto(dst, s, casting="unsafe")
        return self
    # narrowing: nan/inf into integers and overflow are silent in torch, and complex -> real
    # drops the imaginary part (check_copy warned already; not catch_warnings, which
    # re-arms every warning already shown once)
    if self.dtype._limited == D._FP8:
        float8.copy_into(dst, s, self.dtype)
        return self
    if s.dtype.kind == "c" and dst.dtype.kind not in "cb":
        s = s.real
    with np.errstate(all="ignore"):
        np.copyto(dst, cast(s, dst.dtype), casting="unsafe")
    return self


def _scalar_array(value):
    """A Python number as PyTorch wraps it into a tensor (int64 / float64 / complex128)."""
    return np.asarray(value, dtype=np.int64 if type(value) is int else None)


def fill_(self, value):
    if isinstance(value, Tensor):
        C.check_fill_value(self, value)
        value = arr(value)[()]
    else:
        check_int_scalars(value, promote=False)
        # torch fills one float16/bfloat16/float8 element through a double, without the overflow
        # check (inf; a complex value fails converting to double)
        if self.numel() == 1 and (self.dtype in (D.float16, D.bfloat16)
                                  or self.dtype._limited == D._FP8):
            if isinstance(value, complex):
                checked_scalar(value, D.float64)
        elif self.dtype._limited == D._FP8:
            checked_float8_fill(value, self.dtype)
        else:
            checked_scalar(value, self.dtype)
        if isinstance(value, int) and self.dtype.kind == "u":
            # negative ints wrap into unsigned types, as in c10 (uint64 holds up to 2**64)
            value = np.int64(value) if value < 2 ** 63 else np.uint64(value)
    dst = arr(self)
    value = np.asarray(value)
    if value.dtype.kind == "c" and dst.dtype.kind in "uif":
        value = value.real  # checked above: the imaginary part is 0 (bool takes it all)
    if self.dtype._limited == D._FP8:
        dst[...] = float8.cast(value, self.dtype)
        return self
    with np.errstate(all="ignore"):  # nan/inf/overflow casts behave as c10's (cheaper than
        dst[...] = cast(value, dst.dtype)  # catching warnings)
    return self


def _fill_value(value, dtype):
    return float8.cast(value, dtype) if dtype._limited == D._FP8 else value


def _filled_like(value):
    """zeros_like / ones_like in one allocation (the decomposition is empty_like + fill_:
    two ops, on every backward's implicit gradient)."""
    def kernel(self, dtype=None, device=None, memory_format=None):
        dtype = dtype or self.dtype
        shape = self._shape
        if memory_format == "contiguous_format" or (self._stride == _contiguous(shape) and (
                memory_format is None or memory_format == "preserve_format")):
            return wrap(np.full(shape, _fill_value(value, dtype), dtype.np), dtype)
        out = C._empty_like(self, dtype, device, memory_format)  # the input's layout
        arr(out)[...] = _fill_value(value, dtype)
        return out
    return kernel


def _filled(value):
    """zeros / ones in one allocation (the decomposition is empty + fill_: two ops)."""
    def kernel(size, dtype=None, device=None):
        out = C._empty(size, dtype, device)  # (the size checks and the allocator's errors)
        arr(out).fill(_fill_value(value, out.dtype))
        return out
    return kernel


def _logspace_powers(base, exponents):
    """base ** each double exponent by C's pow, as PyTorch's logspace loop computes them."""
    return wrap(c_pow(base, arr(exponents)), D.float64)


KERNELS = {"_logspace_powers": _logspace_powers, "arange": arange, "linspace": linspace,
           "eye": eye, "copy_": copy_, "fill_": fill_, "zeros_like": _filled_like(0),
           "ones_like": _filled_like(1), "zeros": _filled(0), "ones": _filled(1)}
