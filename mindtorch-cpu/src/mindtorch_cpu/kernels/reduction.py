"""Reduction and scan kernels.  Shapes, dtypes and validity come from the shared rules
in mindtorch._ops.decls.reduction; these kernels only compute.

float16/bfloat16 accumulate in float32 (as torch does on CPU) and round once at the end.
"""

import functools
import itertools
import math
import sys

import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops.decls import reduction as R
from mindtorch._runtime import get_num_threads

from .._np import arr
from .._np import wrap as _wrap_strided
from . import _jit, _limited
from ._cascade import (VECTOR_BYTES, _in_order, _iteration_order, cascade_sum, inner_sum,
                       outer_sum, strided_sum)
from ._cpu_capability import vector_isa
from ._jit import compiled, loops


def wrap(a, dtype):
    """Results here are contiguous, as PyTorch allocates reduction, scan and softmax
    outputs (numpy's follow a permuted input's order)."""
    a = np.asarray(a)
    return _wrap_strided(a if a.flags.c_contiguous else a.copy(), dtype)

_SUM, _NORM2, _PROD = 0, 1, 2  # (_NORM2, _PROD: _reduce_loops' ops for reduce_rows / _cols)
_WIDE = {D.float16: np.float32, D.bfloat16: np.float32}


def _axis(self, dim):
    """numpy axis for a reduction over dim (None or (): all; a 0-dim tensor: all)."""
    if not self.ndim or dim is None or dim == ():
        return None
    return dim


def _acc(a, dtype):
    """a in the dtype that accumulates dtype's results (values first rounded to dtype, as
    PyTorch does for e.g. sum(float32 tensor, dtype=float16))."""
    acc = _WIDE.get(dtype, dtype.np)
    round_first = a.dtype != dtype.np and acc != dtype.np
    if a.dtype == acc and not round_first:
        return a
    if a.dtype.kind == "c" and np.dtype(acc).kind not in "cb":
        a = a.real  # complex -> real: silent in torch
    with np.errstate(all="ignore"):  # overflow to inf: silent in torch
        if round_first:
            a = a.astype(dtype.np)
        return a if a.dtype == acc else a.astype(acc)


def result(r, out, contiguous=False):
    """Wrap r, computed in a wider dtype, as dtype `out`.  16-bit floats overflow to inf
    silently, as in torch (numpy would warn about the cast).  contiguous: as this file's
    reductions and scans (other kernels keep r's layout)."""
    wrap_ = wrap if contiguous else _wrap_strided
    if out in _WIDE:
        with np.errstate(over="ignore"):
            return wrap_(np.asarray(r).astype(out.np), out)
    return wrap_(r, out)


def _block(self, dim, keepdim):
    """((outer, n, inner), result shape): the reduced dims (wrapped and distinct, as the
    bindings pass them; an int: one) of a C-contiguous tensor as one run of n elements,
    or None (dims apart)."""
    shape = self._shape
    if dim is None or dim == ():
        lo, hi = 0, len(shape)
    elif type(dim) is int:  # (prod's one dim)
        lo, hi = dim, dim + 1
    else:
        lo, hi = min(dim), max(dim) + 1
        if hi - lo != len(dim):
            return None
    kept = shape[:lo] + (1,) * (hi - lo) + shape[hi:] if keepdim else shape[:lo] + shape[hi:]
    return (math.prod(shape[:lo]), math.prod(shape[lo:hi]), math.prod(shape[hi:])), kept


def _loop(self, dim, keepdim, name, arguments):
    """kernels/_reduce_loops.py's <name>_rows (or <name>_cols, dims before the last kept)
    over a float32 self as one (outer, n, inner) block: loop(x, *arguments(n), out); None
    where it does not serve (fewer than _jit.MIN_SIZE elements, no numba, a layout that is
    not C-contiguous, reduced dims apart, no _cols loop)."""
    a = arr(self)
    jit = compiled("_reduce_loops", a.size) if a.flags.c_contiguous and a.ndim else None
    block = jit and _block(self, dim, keepdim)
    if not block:
        return None
    (outer, n, inner), shape = block
    if inner == 1:
        loop, x, out_shape = getattr(jit, name + "_rows"), a.reshape(outer, n), (outer,)
    else:
        loop, x, out_shape = getattr(jit, name + "_cols", None), a.reshape(outer, n, inner), \
            (outer, inner)
        if loop is None:
            return None
    r = np.empty(shape, np.float32)
    loop(x, *arguments(n), r.reshape(out_shape))
    return _wrap_strided(r, D.float32)


def _compiled_reduce(self, dim, keepdim, op):
    """A float32 2-norm / product by the reduce loops (op: NORM2 or PROD), or None (see
    _loop).  (Sums: _add_reduce, in PyTorch's order.)"""
    return _loop(self, dim, keepdim, "reduce", lambda n: (op,))


def row_sums(x):
    """The sums along the rows of x (2-D, rows C-contiguous) in PyTorch's order: by the
    compiled loop (_reduce_loops.sum_rows) for float32 / float64 from
    _jit.EARLY_MIN_SIZE elements (or any size once numba is loaded), else by NumPy
    (_cascade.inner_sum: a dozen steps per row of vectors)."""
    jit = _jit.early("_reduce_loops", x.size) if x.dtype in _COMPILED_SUMS else None
    if jit is None:
        return inner_sum(x)
    out = np.empty(x.shape[0], x.dtype)
    jit.sum_rows(np.ascontiguousarray(x), out, VECTOR_BYTES // x.dtype.itemsize)
    return out


def column_sums(x, whole):
    """The sums over axis 1 of x (outer, n, columns) in PyTorch's order (_cascade.outer_sum:
    the columns before `whole` by levels, the others interleaved) by the compiled loop
    (_reduce_loops.outer_sums) for float32 / float64 from MIN_SIZE elements or once numba
    is loaded, else None (NumPy's steps).  Not from EARLY_MIN_SIZE as row_sums: NumPy's
    steps cost a few passes here, and a linear layer's bias gradient is such a sum (a small
    training step would load numba, ~120 MiB, for it)."""
    jit = _jit.early("_reduce_loops", x.size, _jit.MIN_SIZE) if x.dtype in _COMPILED_SUMS \
        else None
    if jit is None:
        return None
    out = np.empty((x.shape[0], x.shape[2]), x.dtype)
    jit.outer_sums(np.ascontiguousarray(x), whole, out)
    return out


_COMPILED_SUMS = (np.dtype(np.float32), np.dtype(np.float64))


def _compiled_sums(size):
    """(row_sums, column_sums): the compiled loops cascade_sum may take for `size`
    elements; () below EARLY_MIN_SIZE before numba loads (see _jit.early)."""
    if size >= _jit.EARLY_MIN_SIZE or "numba" in sys.modules:
        return row_sums, column_sums
    return ()


_LEADING = {tuple(range(k)): k for k in range(1, 9)}  # sum's dim -> k, for dims 0..k-1
_PLAIN_SUMS = (D.float32, D.float64)
@functools.lru_cache(maxsize=256)  # (per shape: ~0.2 us of bookkeeping a call)
def _leading_block(shape, k, keepdim):
    """The (1, rows, columns) block of a sum of `shape` over dims 0 .. k - 1 and its result
    shape, or None below two rows or two columns (so no size-1 dim cascade_sum would drop
    changes its plan)."""
    n, inner = math.prod(shape[:k]), math.prod(shape[k:])
    return None if n < 2 or inner < 2 else (
        (1, n, inner), (1,) * k + shape[k:] if keepdim else shape[k:])


def _leading_sum(self, dim, keepdim, dtype):
    """sum's common call, a linear layer's bias gradient: a C-contiguous float32 / float64
    tensor over its leading dims (0 .. k - 1, k < ndim) in its own dtype, of a block
    _leading_block takes: straight to _cascade.outer_sum of its (1, rows, columns) block,
    as cascade_sum takes it, without the general path's bookkeeping (~3 us a call, about
    as much as the sums at (64, 256)).  None for any other call."""
    k = _LEADING.get(dim) if type(dim) is tuple else None
    shape = self._shape
    if k is None or k >= len(shape) or self.dtype not in _PLAIN_SUMS or (
            dtype is not None and dtype is not self.dtype):
        return None
    block = _leading_block(shape, k, keepdim)
    a = arr(self)
    if block is None or not a.flags.c_contiguous:
        return None
    loops = _compiled_sums(a.size)
    r = outer_sum(a.reshape(block[0]), loops[1] if loops else None)  # (C-contiguous)
    return _wrap_strided(r.reshape(block[1]), self.dtype)


def _fold(a):
    """The sum over axis 1 of a (outer, n, inner) array, pairwise: halves added until 8
    rows are left, then those."""
    while a.shape[1] > 8:
        h = a.shape[1] // 2
        b = np.add(a[:, :h], a[:, h:2 * h])
        if a.shape[1] % 2:
            b[:, -1] += a[:, -1]
        a = b
    return np.add.reduce(a, axis=1)


_SUM_WIDE = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}


def _short_rows(ufunc, a, self, dim, keepdim):
    """ufunc.reduce over the last dims of a C-contiguous `a` whose rows are short (n <= 32)
    and many, as the rows of a transposed copy (elementwise over the columns, vectorized),
    or None: NumPy reduces short rows one at a time (~80 ns each: (4096, 16) max(1) ~370
    us, ~70 this way)."""
    if not dim or not a.flags.c_contiguous:
        return None
    block = _block(self, dim, keepdim)
    if not block or block[0][2] != 1 or not 1 < block[0][1] <= 32 or (
            block[0][0] < 8 * block[0][1]):
        return None
    (outer, n, _), shape = block
    return ufunc.reduce(np.ascontiguousarray(a.reshape(outer, n).T), axis=0).reshape(shape)


def _add_reduce(a, self, dim, keepdim, cascade=False):
    """np.add.reduce of `a` (self's data in its accumulating dtype) over dim.  cascade=True
    (sum, mean): a C-contiguous float `a` in PyTorch's order (_cascade.cascade_sum).
    Otherwise NumPy adds the rows of a reduction that leaves the memory's innermost axis one
    after another (an error growing with n, where PyTorch's cascade grows with log n): they
    are summed in double for single precision, else pairwise (_fold, C-contiguous)."""
    if cascade and a.dtype.kind in "fc" and a.size:
        axes = tuple(range(a.ndim)) if not dim or not self.ndim else (
            (dim,) if type(dim) is int else tuple(sorted(dim)))
        loops = _compiled_sums(a.size)
        if a.flags.c_contiguous:
            r = cascade_sum(a, axes, *loops)
        else:  # (the order of the tensor's own layout, not the converted copy's)
            source = arr(self)
            r = strided_sum(a, axes, [s // source.itemsize for s in source.strides], *loops)
        return np.expand_dims(r, axes) if keepdim else r
    if dim and a.dtype.kind in "fc":
        contiguous = a.flags.c_contiguous
        inner = a.ndim - 1 if contiguous else min(
            range(a.ndim), key=lambda i: abs(a.strides[i]) if a.shape[i] > 1 else math.inf)
        if inner in dim and a.strides[inner]:  # (stride 0, expanded: no run in memory)
            return np.add.reduce(a, axis=_axis(self, dim), keepdims=keepdim)
        if _count(self, dim) > 8:
            wide = _SUM_WIDE.get(a.dtype)
            if wide is not None:
                return np.add.reduce(a, axis=dim, dtype=wide, keepdims=keepdim).astype(a.dtype)
            block = contiguous and _block(self, dim, keepdim)
            if block:
                return _fold(a.reshape(block[0])).reshape(block[1])
    return np.add.reduce(a, axis=_axis(self, dim), keepdims=keepdim)


def _reducer(ufunc, op):
    """sum/prod: cast to the result dtype, accumulate (float32 for 16-bit floats).
    (Like add/mul, overflow to inf is left to numpy's default warning: errstate would
    cost more than the reduction of a small tensor.)"""
    reduce = ufunc.reduce

    def kernel(self, dim=None, keepdim=False, dtype=None):
        if op == _SUM:
            r = _leading_sum(self, dim, keepdim, dtype)
            if r is not None:
                return r
        out = R.sum_dtype(self, dtype)
        if out._limited and op == _SUM and out in _limited.F:
            raise _limited.refuse("sum_cpu", out)  # (PyTorch's sum kernel lacks float8)
        if op == _PROD and out is self.dtype and out in _HALF_FLOATS and self.numel():
            return result(_half_prod(arr(self), _axis(self, dim), keepdim), out, True)
        if op == _PROD and out is D.float32 and self.dtype is D.float32 and \
                self.numel() >= _jit.MIN_SIZE:
            r = _compiled_reduce(self, dim, keepdim, op)
            if r is not None:
                return r
        a = _acc(arr(self), out)
        if op == _SUM:
            return result(_add_reduce(a, self, dim, keepdim, True), out, True)
        return result(reduce(a, axis=_axis(self, dim), keepdims=keepdim), out, True)
    return kernel


_HALF_FLOATS = (D.float16, D.bfloat16)
_VEC = 16  # 16-bit elements per AVX2 vector


def _half_prod(a, axis, keepdim):
    """A 16-bit product as ATen's CPU reduction computes it, every multiplication rounded
    to 16 bits: along a dim laid out contiguously (or over all elements, in memory order)
    rows of 64 or more go by 4 vectors of 16 lanes, the vectors then multiplied in
    pairs, the lanes in order, then the rest; other rows and dims in order."""
    if axis is None:
        rows, shape = a.ravel(order="K")[None], ()
        inner = True
    else:
        inner = a.shape[axis] <= 1 or a.strides[axis] == a.itemsize
        moved = np.moveaxis(a, axis, -1)
        rows, shape = moved.reshape(-1, a.shape[axis]), moved.shape[:-1]
    n = rows.shape[1]
    full = n // (4 * _VEC) * 4 * _VEC if inner else 0
    acc = np.ones(rows.shape[0], a.dtype)
    if full:
        blocks = rows[:, :full].reshape(rows.shape[0], -1, 4, _VEC)
        vec = blocks[:, 0]
        for i in range(1, blocks.shape[1]):
            vec = vec * blocks[:, i]
        vec = (vec[:, 0] * vec[:, 1]) * (vec[:, 2] * vec[:, 3])
        acc = vec[:, 0]
        for j in range(1, _VEC):
            acc = acc * vec[:, j]
    for k in range(full, n):
        acc = acc * rows[:, k]
    r = acc.reshape(shape)
    return np.expand_dims(r, axis if axis is not None else tuple(range(a.ndim))) \
        if keepdim else r


def _count(self, dim):
    n = 1
    for d in R.dims_of(self, dim) if self.ndim else ():
        n *= self._shape[d]
    return n


def mean(self, dim=None, keepdim=False, dtype=None):
    out = R.mean_dtype(self, dtype)
    a = arr(self)
    # a 16-bit result is computed in float32 from the input (not first rounded to it)
    if out in _WIDE:
        a = a if a.dtype == np.float32 else a.astype(np.float32)
    else:
        a = _acc(a, out)
    s = _add_reduce(a, self, dim, keepdim, True)
    n = _count(self, dim)
    if n == 0:
        with np.errstate(all="ignore"):  # the mean of nothing is nan
            return result(s / n, out, True)
    return result(s / n, out, True)


_NORM_DTYPES = frozenset((D.float32, D.float64, D.float16, D.bfloat16))


def norm(self, p=2, dim=None, keepdim=False, dtype=None):
    """The 2-norm of a real floating tensor in one kernel (the decomposition's abs, square,
    sum and sqrt ops: ~3x its time); other norms and dtype=: the decomposition."""
    if p in (1, 2) and dtype is None and self.dtype in _NORM_DTYPES and self.numel() and (
            p == 1 or _count(self, dim) > 1):
        r = _plain_norm(self, dim, keepdim, p == 2)
        if r is not None:
            return r
    if p != 2 or dtype is not None or self.dtype not in _NORM_DTYPES:
        from mindtorch._ops.dispatch import _decomposition
        from mindtorch._ops.registry import OPS
        return _decomposition(OPS["norm"])(self, p, dim, keepdim, dtype)
    if self.dtype is D.float32 and self.numel() >= _jit.MIN_SIZE:
        r = _compiled_reduce(self, dim, keepdim, _NORM2)
        if r is not None:
            return r
    a = arr(self)
    if a.dtype != np.float64 and a.dtype != np.float32:
        a = a.astype(np.float32)  # (16-bit: as float32)
    # (the decomposition's roundings: squares and their sum (as the sum kernel's) in the
    # dtype, past float32's range inf; for small tensors PyTorch's sums, often to the bit;
    # one element per norm is its magnitude, as PyTorch's, with no square to overflow)
    if _count(self, dim) == 1:
        return result(_add_reduce(np.abs(a), self, dim, keepdim), self.dtype, True)
    s = _add_reduce(np.multiply(a, a), self, dim, keepdim)
    return result(np.sqrt(s), self.dtype, True)


_LANE_NORMS = (np.dtype(np.float32), np.dtype(np.float64))  # (and bfloat16: not modelled)


def _plain_norm(self, dim, keepdim, square):
    """PyTorch's 1-norm (square: 2-norm) of a real floating tensor where ATen's norm kernel
    is a plain reduction: |x| (x * x) added one element after another from 0 in
    TensorIterator's order (not the sum's cascade), in float32 for 16-bit floats; None for
    a 2-norm along one run contiguous in memory of float32 / float64 / bfloat16, which
    ATen sums in vector lanes (this kernel's other paths)."""
    a = arr(self)
    axes = set(R.dims_of(self, dim)) if self.ndim else set()
    strides = [s // a.itemsize for s in a.strides]
    dims = [d for d in range(a.ndim) if a.shape[d] != 1]
    inner_first = _iteration_order(a.shape, strides, axes, dims)
    reduced = [d for d in inner_first if d in axes]
    if square and (a.dtype in _LANE_NORMS or self.dtype is D.bfloat16) and reduced and \
            strides[reduced[0]] == 1 and all(  # (the reduced axes coalesce into one run)
                strides[d] == strides[e] * a.shape[e] for e, d in itertools.pairwise(reduced)):
        return None
    kept = [d for d in range(a.ndim) if d not in axes]
    order = kept + [d for d in axes if a.shape[d] == 1] + reduced[::-1]
    x = (a if a.dtype in _COMPILED_SUMS else a.astype(np.float32)).transpose(order)
    rows = x.reshape(math.prod(a.shape[d] for d in kept), -1)
    jit = _jit.early("_reduce_loops", a.size) if rows.flags.c_contiguous and (
        rows.shape[1] > 1) else None
    if jit is not None:  # (the reduced axes innermost in memory: rows, compiled)
        r = np.empty(rows.shape[0], rows.dtype)
        jit.plain_rows(rows, square, r)
    else:
        r = _in_order(np.multiply(rows, rows) if square else np.abs(rows), 1)
    shape = [a.shape[d] for d in kept]
    r = r.reshape(shape) + r.dtype.type(0)
    if square:
        r = np.sqrt(r)
    if keepdim:
        r = r.reshape([1 if d in axes else n for d, n in enumerate(a.shape)])
    return result(r, self.dtype, True)


def _extremum(name, ufunc):
    reduce = ufunc.reduce

    def kernel(self):
        R.check_extremum(name, self, None)
        return wrap(reduce(arr(self), axis=None), self.dtype)
    return kernel


def _amax_like(name, ufunc):
    reduce = ufunc.reduce

    def kernel(self, dim=(), keepdim=False):
        R.check_extremum(name, self, dim)
        a = arr(self)
        r = _short_rows(ufunc, a, self, dim, keepdim) if a.ndim > 1 else None
        if r is None:
            r = reduce(a, axis=_axis(self, dim), keepdims=keepdim)
        return wrap(r, self.dtype)
    return kernel


def _arg(name, fn):
    """argmax/argmin over one dim (None: the flattened tensor); first index on ties,
    NaN counts as the extreme value (numpy's rule, also torch's)."""
    def kernel(self, dim=None, keepdim=False):
        R.check_extremum(name, self, dim)
        a = arr(self)
        if self.dtype is D.bfloat16:
            a = a.astype(np.float32)
        if dim is None or not self.ndim:
            i = fn(a.reshape(-1))
            shape = R.out_shape(self, None, keepdim)
            return wrap(np.full(shape, i, np.int64), D.int64)
        return wrap(fn(a, axis=dim, keepdims=keepdim), D.int64)
    return kernel


def _with_indices(name, ufunc, argfn):
    values, indices = _amax_like(name, ufunc), _arg(name, argfn)

    def kernel(self, dim, keepdim=False):
        v, i = values(self, (dim,), keepdim), indices(self, dim, keepdim)
        if self.dtype.is_floating_point and self.ndim:  # a zero's sign: the element at i
            zero = arr(v) == 0
            if zero.any():
                at = arr(i) if keepdim else np.expand_dims(arr(i), dim)
                picked = np.take_along_axis(arr(self), at, dim)
                np.copyto(arr(v), picked if keepdim else np.squeeze(picked, dim), where=zero)
        return v, i
    return kernel


def _logical(fn):
    def kernel(self, dim=None, keepdim=False):
        a = arr(self)
        a = a.copy() if a.dtype == np.bool_ else a != 0
        if dim == () and self.ndim:  # an explicit empty dim list reduces nothing
            return wrap(a, R.any_all_dtype(self))
        r = fn(a, axis=_axis(self, dim), keepdims=keepdim)
        return wrap(r, R.any_all_dtype(self))
    return kernel


def _compiled_var(self, dim, keepdim, correction, root):
    """A float32 var / std (root) by the var loops, or None (see _loop)."""
    return _loop(self, dim, keepdim, "var", lambda n: (float(max(0, n - correction)), root))


def _var(name):
    def kernel(self, dim=None, unbiased=None, keepdim=False, correction=None):
        correction, out = R.var_correction(name, self, dim, unbiased, correction)
        if out is D.float32 and self.dtype is D.float32 and self.numel() >= _jit.MIN_SIZE:
            r = _compiled_var(self, dim, keepdim, correction, name == "std")
            if r is not None:
                return r
        axis = _axis(self, dim)
        with np.errstate(all="ignore"):
            # torch accumulates every floating dtype in double (Welford)
            a = arr(self).astype(np.complex128 if self.dtype.is_complex else np.float64)
            n = _count(self, dim)
            dev = a - np.add.reduce(a, axis=axis, keepdims=True) / n
            if a.dtype.kind == "c":
                # torch: the variances of the real and imaginary parts, each rounded to
                # the real dtype, added there
                parts = [np.add.reduce(d * d, axis=axis, keepdims=keepdim) / max(0, n - correction)
                         for d in (dev.real, dev.imag)]
                r = np.asarray(parts[0]).astype(out.np) + np.asarray(parts[1]).astype(out.np)
            else:
                r = np.add.reduce(dev * dev, axis=axis, keepdims=keepdim) / max(0, n - correction)
            r = np.sqrt(r) if name == "std" else r
            return wrap(np.asarray(r).astype(out.np), out)
    return kernel


def logsumexp(self, dim, keepdim=False):
    R.check_logsumexp(self, dim, keepdim)
    out = R.logsumexp_dtype(self)
    if out is D.float32 and self.dtype is D.float32 and self.numel() >= _jit.MIN_SIZE:
        r = _loop(self, dim, keepdim, "logsumexp", lambda n: ())  # (over the last dims)
        if r is not None:
            return r
    axis = _axis(self, dim)
    a = _acc(arr(self), out)
    with np.errstate(all="ignore"):
        if a.size == 0:
            r = np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdim))
            return result(r, out, True)
        # shift by the (real) max; an infinite max shifts by 0 so inf - inf never appears
        m = np.max(a.real, axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)
        r = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
        if not keepdim:
            r = r.reshape(R.out_shape(self, dim, False))
        return result(r, out, True)


_SCAN_WIDE = {np.float32: np.float64, np.complex64: np.complex128}
# NumPy's float scans (a float64 accumulate, ~4 ns an element) cost ~4x a reduction's
# pass: the compiled scans serve from a quarter of _jit.MIN_SIZE elements
_SCAN_WEIGHT = 4


def _compiled_scan(self, dim, prod):
    """A float32 cumsum / cumprod of a C-contiguous tensor by kernels/_reduce_loops.py
    (PyTorch's roundings), or None (another layout, or no numba)."""
    a = arr(self)
    if not a.flags.c_contiguous:
        return None
    # (the loops give the NumPy path's bits, so they serve any size once loaded)
    jit = compiled("_reduce_loops", _SCAN_WEIGHT * a.size) or _jit.loaded("_reduce_loops")
    if not jit:
        return None
    shape = self._shape
    outer, n, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])
    r = np.empty(shape, np.float32)
    if inner == 1:
        jit.scan_rows(a.reshape(outer, n), prod, r.reshape(outer, n))
    else:
        jit.scan_cols(a.reshape(outer, n, inner), prod, r.reshape(outer, n, inner))
    return _wrap_strided(r, D.float32)


def _scan(name, fn, identity):
    """cumsum/cumprod: in the sum dtype (integers and bool widen to int64).  PyTorch's
    accumulator starts at the identity, so the first element is 0 + x (-0.0 becomes 0.0) or
    1 * x (a complex product: 1 * infj is nan+infj); a 0-dim input is copied."""
    def scan(self, dim, dtype=None):
        out = R.sum_dtype(self, dtype)
        if out is D.bool and self.ndim and self.numel():  # (0-dim and empty: a plain copy)
            raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
        if out is D.float32 and self.dtype is D.float32 and self.ndim and self.numel():
            r = _compiled_scan(self, dim, name == "cumprod")
            if r is not None:
                return r
        a = _acc(arr(self), out)
        if not self.ndim:
            return result(a.copy(), out, True)
        if a.dtype.kind in "fc" and a.shape[dim]:
            # PyTorch's cpu scans accumulate float in double (acc_type), each partial
            # result rounded to the dtype (partial sums past float's range stay finite)
            # (half types: already in float, their acc_type)
            a = a.astype(_SCAN_WIDE.get(out.np.type, a.dtype))
            first = (slice(None),) * dim + (slice(0, 1),)
            with np.errstate(invalid="ignore"):
                a[first] = identity(a[first], np.ones((), a.dtype))
        with np.errstate(all="ignore"):  # partial results past the dtype's range: inf
            return result(fn(a, axis=dim), out, True)
    return scan


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _softmax_rows(shifted, log):
    """softmax / log_softmax over the last axis of x - max(x) (a fresh array),
    in place: the row sums as one matrix-vector product (BLAS; numpy's add.reduce over short
    rows costs 3x as much), and softmax as exp * (1 / sum), as PyTorch's cpu kernel does."""
    n = shifted.shape[-1]
    # (x - max(x) keeps a non-contiguous x's layout: reshape copies it, so the result is
    # the rows, not `shifted`)
    rows = shifted.reshape(-1, n)
    e = np.exp(rows) if log else np.exp(rows, out=rows)
    total = e @ np.ones(n, e.dtype)
    if log:
        rows -= np.log(total, out=total)[:, None]
    else:
        rows *= np.divide(1, total, out=total)[:, None]
    return rows.reshape(shifted.shape)


def _max_along(a, axis):
    """max over `axis`, kept: NumPy's reduction along short last-dim rows costs ~40 ns a row
    (30 us for 1024 rows of 3), a reduction across the rows of their transposed copy ~1 ns
    an element.  (The same maxima; only a row whose maximum is a zero of both signs may get
    the other zero, which leaves softmax's results unchanged: exp(+-0) = 1, and such a row
    sums to 2 or more, so x - max - log(sum) is a nonzero number.)"""
    n = a.shape[axis]
    if axis != a.ndim - 1 or n >= 64 or a.size < 16 * n:
        return np.maximum.reduce(a, axis=axis, keepdims=True)
    columns = a.reshape(-1, n).T.copy()
    return np.maximum.reduce(columns, axis=0).reshape(a.shape[:-1] + (1,))


def _softmax_vector_positions(outer_shape, inner_shape):
    """Where ATen's 16-bit softmax along an inner dim keeps exp in float32: the kernel
    splits the (outer, inner) positions evenly among the threads (at::parallel_for, grain
    1); each thread walks its range one outer row's segment at a time, in vectors of 16
    (AVX2) or 32 (AVX-512) 16-bit lanes, then a scalar tail.  A bool array, broadcastable
    over the softmax dim."""
    outer, inner = math.prod(outer_shape), math.prod(inner_shape)
    width = 32 if vector_isa(avx512_kernel=True) == "AVX512" else 16
    total = outer * inner
    chunk = -(-total // min(get_num_threads(), total))
    p = np.arange(total)
    start = np.maximum(p // chunk * chunk, p // inner * inner)
    end = np.minimum(start // chunk * chunk + chunk, (start // inner + 1) * inner)
    vector = p - start < (end - start) // width * width
    return vector.reshape(outer_shape + (1,) + inner_shape)


def _softmax_like(name, log):
    """softmax / log_softmax in one kernel: the decomposition's steps (shift by the max,
    exp, sum; 16-bit floats in float32), without its intermediate tensors."""
    def kernel(self, dim, dtype=None):
        x = R._softmax_input(name, self, dim, dtype)
        a = arr(x)
        if 0 in a.shape:
            return wrap(a.copy(), x.dtype)
        if x.dtype in _WIDE:
            a = a.astype(np.float32)
        axis = dim if a.ndim else 0
        a = a if a.ndim else a.reshape(1)  # (numpy's 0-dim results are scalars)
        if log and x.dtype in _WIDE and axis == a.ndim - 1:
            # ATen's last-dim kernel keeps the sum of exps and its log in the 16-bit dtype
            lo = x.dtype.np
            shifted = np.subtract(a, _max_along(a, axis))
            total = np.add.reduce(np.exp(shifted), axis=axis, keepdims=True)
            log_total = np.log(total.astype(lo).astype(np.float32)).astype(lo)
            r = np.subtract(shifted, log_total.astype(np.float32), out=shifted)
            return wrap(r.reshape(x._shape).astype(lo), x.dtype)
        # (one compiled pass per row: ~2.5x faster; PyTorch's bits for softmax and
        # log_softmax, so it serves from _jit.EARLY_MIN_SIZE elements, or any size once
        # numba is loaded)
        jit = _jit.early("_compiled", a.size) \
            if axis == a.ndim - 1 and a.dtype == np.float32 else None
        if jit is not None:
            rows = np.ascontiguousarray(a).reshape(-1, a.shape[-1])
            out = np.empty(rows.shape, np.float32)
            (jit.log_softmax_rows_f32 if log else jit.softmax_rows_f32)(rows, out)
            return wrap(out.reshape(x._shape).astype(x.dtype.np, copy=False), x.dtype)
        shifted = np.subtract(a, _max_along(a, axis))
        if axis == a.ndim - 1 and a.ndim > 1 and shifted.dtype in _BLAS_FLOATS:
            return wrap(_softmax_rows(shifted, log).reshape(x._shape).astype(
                x.dtype.np, copy=False), x.dtype)
        e = np.exp(shifted)
        total = np.add.reduce(e, axis=axis, keepdims=True)
        if log:
            r = np.subtract(shifted, np.log(total, out=total), out=shifted)
        else:
            if x.dtype in _WIDE and axis < a.ndim - 1:
                # ATen's 16-bit kernel along an inner dim: positions in a tail (past the
                # last whole vector of its piece) store exp rounded to 16 bits, then divide
                vector = _softmax_vector_positions(a.shape[:axis], a.shape[axis + 1:])
                e = np.where(vector, e, e.astype(x.dtype.np).astype(np.float32))
            r = np.divide(e, total, out=e)
        r = r.reshape(x._shape)
        return wrap(r if r.dtype == x.dtype.np else r.astype(x.dtype.np), x.dtype)
    return kernel


def _softmax_backward_like(log):
    """The softmax formulas as one kernel: (grad - sum(grad * y)) * y, and for
    log_softmax grad - exp(y) * sum(grad); 16-bit floats computed in float32."""
    name = "log_softmax_backward" if log else "softmax_backward"

    def kernel(grad_output, output, dim, input_dtype):
        dt = R.softmax_backward_dtype(name, grad_output, output, dim, input_dtype)
        g, y = arr(grad_output), arr(output)
        if grad_output.dtype in _WIDE:
            g = g.astype(np.float32)
        if output.dtype in _WIDE:
            y = y.astype(np.float32)
        axis = dim if y.ndim else 0
        if not y.ndim:  # (numpy's 0-dim results are scalars)
            g, y = g.reshape(1), y.reshape(1)

        # (the size first: a small call skips the dtype tests; log_softmax's loop: float32,
        # and outputs <= 0 as log_softmax's are, for the loop's exp: that pass over y only
        # once the size asks for the loops)
        jit = None
        if y.size >= _jit.MIN_SIZE and axis == y.ndim - 1 and g.dtype == y.dtype and (
                y.dtype == np.float32 if log else y.dtype in _BLAS_FLOATS):
            jit = loops(y.size)
        if jit is not None and log and not np.maximum.reduce(y, axis=None) <= 0:
            jit = None
        if jit is not None:  # (one compiled pass per row: ~3x faster)
            rows = (np.ascontiguousarray(a).reshape(-1, y.shape[-1]) for a in (g, y))
            r = np.empty(g.shape, g.dtype)
            fn = jit.log_softmax_backward_rows_f32 if log else jit.softmax_backward_rows
            fn(*rows, r.reshape(-1, y.shape[-1]))
            return wrap(r.reshape(output._shape).astype(dt.np, copy=False), dt)

        if log:
            r = np.exp(y)
            out = r if r.dtype == g.dtype else None
            r = np.multiply(r, np.add.reduce(g, axis=axis, keepdims=True), out=out)
            r = np.subtract(g, r, out=out)
        else:
            r = np.multiply(g, y)
            r = np.subtract(g, np.add.reduce(r, axis=axis, keepdims=True),
                            out=r if r.dtype == g.dtype else None)
            r = np.multiply(r, y, out=r if r.dtype == y.dtype else None)
        r = r.reshape(output._shape)
        return wrap(r if r.dtype == dt.np else r.astype(dt.np), dt)
    return kernel


def equal(self, other):
    """torch.equal in one comparison of same-dtype data (its per-call cost is the job);
    mixed dtypes compare through the eq kernel's promotion."""
    if self._shape != other._shape:
        return wrap(np.False_, D.bool)
    if self.dtype is other.dtype:
        return wrap(np.bool_((arr(self) == arr(other)).all()), D.bool)
    from .pointwise import KERNELS as POINTWISE
    return wrap(np.bool_(arr(POINTWISE["eq"](self, other)).all()), D.bool)


KERNELS = {
    "equal": equal,
    "softmax": _softmax_like("softmax", False),
    "log_softmax": _softmax_like("log_softmax", True),
    "_softmax_backward_data": _softmax_backward_like(False),
    "_log_softmax_backward_data": _softmax_backward_like(True),
    "sum": _reducer(np.add, _SUM),
    "prod": _reducer(np.multiply, _PROD),
    "mean": mean,
    "norm": norm,
    "max": _extremum("max", np.maximum),
    "min": _extremum("min", np.minimum),
    "amax": _amax_like("amax", np.maximum),
    "amin": _amax_like("amin", np.minimum),
    "argmax": _arg("argmax", np.argmax),
    "argmin": _arg("argmin", np.argmin),
    "_max_dim": _with_indices("_max_dim", np.maximum, np.argmax),
    "_min_dim": _with_indices("_min_dim", np.minimum, np.argmin),
    "all": _logical(np.all),
    "any": _logical(np.any),
    "var": _var("var"),
    "std": _var("std"),
    "logsumexp": logsumexp,
    "cumsum": _scan("cumsum", np.cumsum, lambda x, one: x + (one - one)),
    "cumprod": _scan("cumprod", np.cumprod, np.multiply),
}
