"""Reduction and scan loops compiled by numba for float32 (kernels/reduction.py), imported
through _jit.compiled() on first use from _jit.MIN_SIZE elements; compiled once, cached.

Every loop takes its input as a C-contiguous (outer, n, inner) array, reducing or scanning
axis 1: inner == 1 walks rows (a sum vectorized across one row, `reassoc`), inner > 1
walks columns (vectorized across inner).  Sums and products accumulate in float64 and
round once to float32, so they are never less accurate than PyTorch's float32 cascade (and
2-3x faster than NumPy's float32 pairwise sum, which is not vectorized); NaN and inf flow
through as in PyTorch."""
import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._compiled import _exp_shifted, _row_max, row_moments

_JIT = {"cache": True, "nogil": True, "error_model": "numpy", "fastmath": {"contract"}}
_ROWS = {**_JIT, "fastmath": {"contract", "reassoc"}}

# reduce_rows / reduce_cols(x, op, out): op 1: the square root of the sum of squares (the
# 2-norm), 2: the product (sums go in PyTorch's order: sum_rows below and _cascade.py)
NORM2, PROD = 1, 2


@numba.njit(inline="always")
def _row(r, op):
    if op == PROD:
        p = 1.0
        for j in range(r.size):
            p *= r[j]
        return p
    s = 0.0
    for j in range(r.size):
        v = np.float64(r[j])
        s += v * v
    return s


_F32_MAX = float(np.finfo(np.float32).max)


@numba.njit(inline="always")
def _finish(s, op):
    """The float64 result of a row, as the float32 loop of PyTorch ends: squares summed
    past float32's range are inf there (a sum of positives overflows iff its total does)."""
    if op == NORM2:
        return math.inf if s > _F32_MAX else math.sqrt(s)  # (NaN: sqrt(NaN))
    return s


@numba.njit(**_ROWS)
def reduce_rows(x, op, out):
    """out[i] = op over the row x[i] (x 2-D, out 1-D float32)."""
    for i in range(x.shape[0]):
        out[i] = _finish(_row(x[i], op), op)


@numba.njit(**_ROWS)
def reduce_cols(x, op, out):
    """out[o, k] = op over x[o, :, k] (x 3-D, out (outer, inner) float32)."""
    outer, n, inner = x.shape
    acc = np.empty(inner)
    for o in range(outer):
        acc[:] = 1.0 if op == PROD else 0.0
        for j in range(n):
            r = x[o, j]
            if op == PROD:
                for k in range(inner):
                    acc[k] *= r[k]
            else:
                for k in range(inner):
                    v = np.float64(r[k])
                    acc[k] += v * v
        for k in range(inner):
            out[o, k] = _finish(acc[k], op)


# sum_rows: PyTorch's float32 / float64 sum along rows, to the bit: the order of the NumPy
# model _cascade.inner_sum (explained there): vectors of 32 bytes, _ILP of them side by side,
# _LEVELS levels of groups.  A level's group sums go as SIMD steps (_vector_sums: numba
# leaves LLVM's SLP vectorizer off, and a loop over the lanes costs a view and the loop's
# checks per vector, ~4x PyTorch's time on rows of a few vectors).
_ILP, _LEVELS = 4, 4


def _vector_sums_codegen(fold):
    """The code of _vector_sums (fold) / _group_sums (not)."""
    def codegen(context, builder, sig, args):
        x, out = (context.make_array(sig.args[k])(context, builder, args[k]).data
                  for k in (0, len(args) - 1))
        if fold:  # (x, count, left, out): from the row's start
            count, left = args[1], args[2]
            start = ir.Constant(count.type, 0)
        else:  # (x, start, count, out)
            start, count = args[1], args[2]
        lanes = 4 if sig.args[0].dtype == types.float64 else 8
        vec = ir.VectorType(x.type.pointee, lanes)

        def at(i):  # the vector at element i of x
            return builder.load(builder.bitcast(builder.gep(x, [i]), vec.as_pointer()),
                                align=1)

        def const(i):
            return ir.Constant(start.type, i)
        # (stack slots, promoted to registers by LLVM)
        acc = [cgutils.alloca_once_value(builder, ir.Constant(vec, None)) for _ in range(_ILP)]
        with cgutils.for_range(builder, count) as loop:
            base = builder.add(start, builder.mul(loop.index, const(_ILP * lanes)))
            for q, slot in enumerate(acc):
                builder.store(builder.fadd(builder.load(slot),
                                           at(builder.add(base, const(q * lanes)))), slot)
        if fold:  # the vectors left over into the first partial sum, then the four folded
            after = builder.add(start, builder.mul(count, const(_ILP * lanes)))
            with cgutils.for_range(builder, left) as loop:
                v = at(builder.add(after, builder.mul(loop.index, const(lanes))))
                builder.store(builder.fadd(builder.load(acc[0]), v), acc[0])
            v = [builder.load(slot) for slot in acc]
            results = [builder.fadd(builder.fadd(builder.fadd(v[0], v[1]), v[2]), v[3])]
        else:
            results = [builder.load(slot) for slot in acc]
        for q, value in enumerate(results):
            builder.store(value, builder.bitcast(builder.gep(out, [const(q * lanes)]),
                                                 vec.as_pointer()), align=1)
        return context.get_dummy_value()
    return codegen


@intrinsic
def _group_sums(typingctx, x, start, count, out):
    """out[:4L] = the sums over j < count of the 4 vectors x[start + 4Lj:][:4L] (L lanes of
    32 bytes), each lane's added one after another from 0: one level's groups."""
    if x.layout != "C":  # (the vectors are read as contiguous memory)
        return None
    return types.void(x, start, count, out), _vector_sums_codegen(False)


@intrinsic
def _vector_sums(typingctx, x, count, left, out):
    """out[:L] = ATen's row_sum vector of a row of count groups of 4 vectors and `left`
    vectors after them (no level carried): the 4 partial sums of the groups, the vectors
    left over added to the first, then the four added in order."""
    if x.layout != "C":
        return None
    return types.void(x, count, left, out), _vector_sums_codegen(True)


@numba.njit(inline="always")
def _carry(up, acc, width):
    for k in range(width):
        up[k] += acc[k]
        acc[k] = 0


@numba.njit(inline="always")
def _carry_up(acc, up1, up2, up3, width, done, step, power):
    """After `done` groups or rows, a multiple of `step`: level 0 carried into level 1, and
    each higher level into the next where `done` closes its group (ATen's levels)."""
    _carry(up1, acc, width)
    if done & ((step - 1) << power):
        return
    _carry(up2, up1, width)
    if done & ((step - 1) << (2 * power)):
        return
    _carry(up3, up2, width)


@numba.njit(**_JIT)
def sum_rows(x, out, vector):
    """out[i] = the sum of x[i] in PyTorch's order (x 2-D C-contiguous float32 or float64;
    vector: its elements per 32 bytes).  Rows shorter than a vector: four interleaved
    partial sums (ATen's scalar row_sum); longer: groups of _ILP vectors summed by levels
    (multi_row_sum), the vectors left over added to the first of the four partial
    vectors, the others added to it, then from 0 the elements after the last vector and
    the vector's lanes."""
    rows, n = x.shape
    width = _ILP * vector
    vectors = n // vector
    groups = vectors // _ILP
    power = max(4, (1 if groups <= 2 else math.ceil(math.log2(groups))) // _LEVELS)
    step = 1 << power
    levels = np.zeros((_LEVELS, width), x.dtype)
    acc = levels[0]  # (the row's vector of lanes, when summed)
    zero = levels[0, 0]
    for i in range(rows):
        if n < vector:  # (indexing x: a row view's reference counting costs more here)
            p0 = p1 = p2 = p3 = zero
            if n >= _ILP:
                p0 += x[i, 0]
                p1 += x[i, 1]
                p2 += x[i, 2]
                p3 += x[i, 3]
            for k in range(n // _ILP * _ILP, n):
                p0 += x[i, k]
            out[i] = ((p0 + p1) + p2) + p3 + zero
            continue
        r = x[i]
        if groups < step:  # (one level: the whole vector part in one step)
            _vector_sums(r, groups, vectors - groups * _ILP, acc)
        else:
            _levels_vector(r, levels, groups, vectors, vector, step, power)
        s = zero
        for k in range(vectors * vector, n):
            s += r[k]
        for k in range(vector):
            s += acc[k]
        out[i] = s + zero


@numba.njit(inline="always")
def _levels_vector(r, levels, groups, vectors, vector, step, power):
    """levels[0, :vector] = row_sum's vector of the row r of `groups` groups of 4 vectors,
    `step` or more: their sums by levels, carried up, then the levels added."""
    width = _ILP * vector
    acc, up1, up2, up3 = levels[0], levels[1], levels[2], levels[3]
    levels[1:] = 0
    done = 0
    while done + step <= groups:
        _group_sums(r, done * width, step, acc)
        done += step
        _carry_up(acc, up1, up2, up3, width, done, step, power)
    _group_sums(r, done * width, groups - done, acc)
    for k in range(width):
        acc[k] = ((acc[k] + up1[k]) + up2[k]) + up3[k]
    for v in range(groups * _ILP, vectors):
        block = r[v * vector: v * vector + vector]
        for k in range(vector):
            acc[k] += block[k]
    for k in range(vector):
        acc[k] = ((acc[k] + acc[vector + k]) + acc[2 * vector + k]) + acc[3 * vector + k]


# outer_sums: PyTorch's float32 / float64 sum over axis 1 of (outer, n, columns), to the
# bit: the order of _cascade.outer_sum / _interleaved (explained there), each column's
# levels as ATen's multi_row_sum, vectorized across the columns.
@numba.njit(inline="always")
def _level_power(size):
    return max(4, (1 if size <= 2 else math.ceil(math.log2(size))) // _LEVELS)


@numba.njit(inline="always")
def _column_levels(m, width, levels):
    """levels[0, :width] = the sums over the rows of m[:, :width] (m C-contiguous), column
    by column in ATen's levels (groups of `step` rows one after another, carried up)."""
    size = m.shape[0]
    power = _level_power(size)
    step = 1 << power
    acc, up1, up2, up3 = levels[0, :width], levels[1, :width], levels[2, :width], \
        levels[3, :width]
    levels[:, :width] = 0
    done = 0
    while done + step <= size:
        for j in range(done, done + step):
            row = m[j]
            for k in range(width):
                acc[k] += row[k]
        done += step
        _carry_up(acc, up1, up2, up3, width, done, step, power)
    for j in range(done, size):
        row = m[j]
        for k in range(width):
            acc[k] += row[k]
    if size >= step:
        for k in range(width):
            acc[k] = ((acc[k] + up1[k]) + up2[k]) + up3[k]


@numba.njit(**_JIT)
def outer_sums(x, whole, out):
    """out[o, c] = the sum of x[o, :, c] in PyTorch's order (x (outer, n, columns)
    C-contiguous float32 / float64, n >= 1): the columns before `whole` by levels over the
    rows; the others each as four interleaved partial sums (rows i = 0..3 mod 4) by levels,
    the rows left over added to the first, then the other three (ATen's row_sum)."""
    outer, n, columns = x.shape
    rest = columns - whole
    quarter = n // 4
    levels = np.zeros((_LEVELS, max(whole, 4 * rest)), x.dtype)
    buf = np.empty((n, rest), x.dtype)  # (the columns after `whole`, contiguous)
    for o in range(outer):
        if whole:
            _column_levels(x[o], whole, levels)
            for c in range(whole):
                out[o, c] = levels[0, c]
        if not rest:
            continue
        if whole:
            for j in range(n):
                for c in range(rest):
                    buf[j, c] = x[o, j, whole + c]
            cols = buf
        else:
            cols = x[o]
        _column_levels(cols[:4 * quarter].reshape(quarter, 4 * rest), 4 * rest, levels)
        for c in range(rest):
            s = levels[0, c]
            for j in range(4 * quarter, n):
                s += cols[j, c]
            out[o, whole + c] = ((s + levels[0, rest + c]) + levels[0, 2 * rest + c]) + \
                levels[0, 3 * rest + c]


# plain_rows: ATen's norm kernel's plain reduction (|x| or x * x added one after another
# from 0, no fused multiply-add: its bits), 8 rows side by side (independent chains)
_PLAIN = {"cache": True, "nogil": True, "error_model": "numpy"}
_SIDE = 8


@numba.njit(inline="always")
def _term(v, square):
    return v * v if square else abs(v)


@numba.njit(**_PLAIN)
def plain_rows(x, square, out):
    """out[i] = the sum over j of |x[i, j]| (square: x[i, j] * x[i, j]) in order from 0, in
    x's dtype (x 2-D C-contiguous float32 / float64)."""
    rows, n = x.shape
    acc = np.zeros(_SIDE, x.dtype)
    i = 0
    while i + _SIDE <= rows:
        acc[:] = 0
        for j in range(n):
            for r in range(_SIDE):
                acc[r] += _term(x[i + r, j], square)
        out[i:i + _SIDE] = acc
        i += _SIDE
    for r in range(i, rows):
        acc[0] = 0  # (an array element: a local would widen to float64)
        for j in range(n):
            acc[0] += _term(x[r, j], square)
        out[r] = acc[0]


# cumsum / cumprod: PyTorch's scans of float32 accumulate in float64, each partial result
# rounded to float32 (so these give its results to the bit).  _GROUP rows scanned side by
# side: independent additions, where one row's wait each for the one before.
_GROUP = 8


@numba.njit(inline="always")
def _step(acc, v, prod):
    return acc * v if prod else acc + v


@numba.njit(**_JIT)
def scan_rows(x, prod, out):
    """out[i, j] = the sum (product) of x[i, :j + 1] (x, out 2-D)."""
    m, n = x.shape
    acc = np.empty(_GROUP)
    start = 1.0 if prod else 0.0
    i = 0
    while i + _GROUP <= m:
        acc[:] = start
        for j in range(n):
            for r in range(_GROUP):
                acc[r] = _step(acc[r], np.float64(x[i + r, j]), prod)
                out[i + r, j] = acc[r]
        i += _GROUP
    for row in range(i, m):
        s = start
        for j in range(n):
            s = _step(s, np.float64(x[row, j]), prod)
            out[row, j] = s


@numba.njit(**_JIT)
def scan_cols(x, prod, out):
    """out[o, j, k] = the sum (product) of x[o, :j + 1, k] (x, out 3-D)."""
    outer, n, inner = x.shape
    acc = np.empty(inner)
    for o in range(outer):
        acc[:] = 1.0 if prod else 0.0
        for j in range(n):
            for k in range(inner):
                acc[k] = _step(acc[k], np.float64(x[o, j, k]), prod)
                out[o, j, k] = acc[k]


@numba.njit(**_ROWS)
def logsumexp_rows(x, out):
    """out[i] = log(sum(exp(x[i]))) = m + log(sum(exp(x[i] - m))), m the row's max (x 2-D,
    n > 0 columns): float32 exp and sum (as log_softmax's, its terms <= 1).  A row whose max is
    not finite (inf, or all -inf; a NaN) sums exp(x) itself."""
    for i in range(x.shape[0]):
        r = x[i]
        m = _row_max(r)
        if math.isfinite(m):
            s = np.float32(0)
            for j in range(r.size):
                s += _exp_shifted(m - r[j])
            out[i] = math.log(s) + m
        else:
            t = 0.0
            for j in range(r.size):
                t += math.exp(np.float64(r[j]))
            out[i] = math.log(t)


# var / std: two passes in float64 (the mean, then the squared deviations from it), as
# accurate as PyTorch's float64 Welford; divisor: n - correction (0: inf or NaN)
@numba.njit(**_ROWS)
def var_rows(x, divisor, root, out):
    """out[i] = the variance (root: its square root) of the row x[i] (x 2-D)."""
    for i in range(x.shape[0]):
        v = row_moments(x[i])[1] / divisor
        out[i] = math.sqrt(v) if root else v


@numba.njit(**_ROWS)
def var_cols(x, divisor, root, out):
    """out[o, k] = the variance (root: its square root) of x[o, :, k] (x 3-D)."""
    outer, n, inner = x.shape
    mean = np.empty(inner)
    acc = np.empty(inner)
    for o in range(outer):
        mean[:] = 0.0
        acc[:] = 0.0
        for j in range(n):
            for k in range(inner):
                mean[k] += x[o, j, k]
        for k in range(inner):
            mean[k] /= n
        for j in range(n):
            for k in range(inner):
                d = x[o, j, k] - mean[k]
                acc[k] += d * d
        for k in range(inner):
            v = acc[k] / divisor
            out[o, k] = math.sqrt(v) if root else v


@numba.njit(inline="always")
def _before(v, w, largest):
    """v ranks before w among the k largest (smallest) values: NaN is the largest."""
    if largest:
        return v > w or (math.isnan(v) and not math.isnan(w))
    return v < w or (math.isnan(w) and not math.isnan(v))


@numba.njit(**_JIT)
def topk_rows(x, k, largest, out, tied):
    """out[i] = the positions of the k largest (smallest) values of the row x[i] (x 2-D,
    0 < k <= n), best first, equal values in index order: one pass keeping the k best in
    order, each later value compared with the k-th first.  tied[i]: whether equal values
    make PyTorch's choice or order its algorithm's (two equal among the k, or the k-th's
    value also outside them; NaN equal to NaN)."""
    values = np.empty(k, x.dtype)
    for i in range(x.shape[0]):
        r, best = x[i], out[i]
        for j in range(k):  # (the first k, then each later value in its place)
            _insert(values, best, j, r[j], j, largest)
        last = values[k - 1]
        for j in range(k, r.size):
            v = r[j]
            if largest:
                if not v > last and (not math.isnan(v) or math.isnan(last)):
                    continue
            elif not v < last and (not math.isnan(last) or math.isnan(v)):
                continue
            _insert(values, best, k - 1, v, j, largest)
            last = values[k - 1]
        tie = False
        for j in range(1, k):
            tie |= values[j] == values[j - 1] or (math.isnan(values[j]) and
                                                  math.isnan(values[j - 1]))
        inside = 0
        for j in range(k):
            inside += values[j] == last or (math.isnan(values[j]) and math.isnan(last))
        equal = 0
        if not math.isnan(last):
            for j in range(r.size):
                equal += r[j] == last
        else:
            for j in range(r.size):
                equal += math.isnan(r[j])
        tied[i] = tie or equal > inside


@numba.njit(inline="always")
def _insert(values, best, q, v, j, largest):
    """Put value v (position j) at its place among values[:q + 1] (the last one dropped)."""
    while q > 0 and _before(v, values[q - 1], largest):
        values[q] = values[q - 1]
        best[q] = best[q - 1]
        q -= 1
    values[q] = v
    best[q] = j
