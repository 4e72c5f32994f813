"""Layer norm's forward as ATen's cpu kernel rounds it (kernels/normalization.py; the
NumPy replica, with the derivation, is _layer_norm_exact.py): per row the cascaded Welford
moments over 32-byte lanes (one SIMD step per vector) and the fused output steps, float32
and float64.  Compiled by numba, imported through _jit.early() on first use; cached."""
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._compiled import _JIT

_EXACT = {**_JIT, "fastmath": False}  # (every rounding as written: no contraction)


@intrinsic
def _fma_as(typingctx, a, b, c):
    """a * b + c rounded once in a's type (float32 or float64)."""
    return a(a, b, c), lambda ctx, builder, sig, args: builder.fma(*args)


@intrinsic
def _as(typingctx, like, value):
    """value converted to like's type (numba's int-float promotion would widen float32)."""
    def codegen(context, builder, sig, args):
        return context.cast(builder, args[1], sig.args[1], sig.args[0])
    return like(like, value), codegen


@numba.njit(inline="always", **_EXACT)
def _ln_merge_vector(ka, a1, a2, k, s1, s2, j):
    """ATen's vector merge of (ka, a1, a2) into stack level j (see _layer_norm_exact)."""
    z = _as(a1[0], 0)
    total = k[j] + ka
    c = z if total == 0 else _as(z, ka) / _as(z, total)
    kf = _as(z, k[j])
    for lane in range(a1.shape[0]):
        d = a1[lane] - s1[j, lane]
        s1[j, lane] = s1[j, lane] + c * d
        s2[j, lane] = _fma_as(d, d * c * kf, s2[j, lane] + a2[lane])
    k[j] = total


@intrinsic
def _welford_simd(typingctx, x, i, r, c1, c2, o):
    """One Welford step of a 32-byte vector's lanes (8 floats or 4 doubles) as one SIMD step
    (LLVM leaves the scalar loop scalar): with v = x[i:i + L], a = c1[o:o + L], d = v - a:
    c1[o:o + L] = a' = fma(d, r, a), c2[o:o + L] = fma(d, v - a', c2[o:o + L])."""
    double = x.dtype == types.float64
    width = 4 if double else 8
    vec = ir.VectorType(ir.DoubleType() if double else ir.FloatType(), width)

    def codegen(context, builder, sig, args):
        fma = builder.module.declare_intrinsic(
            f"llvm.fma.v{width}f{64 if double else 32}", fnty=ir.FunctionType(vec, [vec] * 3))
        xp, p1, p2 = (builder.bitcast(builder.gep(
            context.make_array(sig.args[k])(context, builder, args[k]).data, [args[at]]),
            vec.as_pointer()) for k, at in ((0, 1), (3, 5), (4, 5)))
        rv = ir.Constant(vec, ir.Undefined)
        for lane in range(width):
            rv = builder.insert_element(rv, args[2], ir.Constant(ir.IntType(32), lane))
        v, a, b = (builder.load(p, align=4) for p in (xp, p1, p2))
        d = builder.fsub(v, a)
        a = builder.call(fma, [d, rv, a])
        b = builder.call(fma, [d, builder.fsub(v, a), b])
        builder.store(a, p1, align=4)
        builder.store(b, p2, align=4)
        return context.get_dummy_value()
    return types.void(x, i, r, c1, c2, o), codegen


@numba.njit(inline="always", **_EXACT)
def _ln_welford(x, start, chunks, steps, v, simd, rcp, c1, c2):
    """Each lane's Welford over `steps` vectors of each of `chunks` chunks of x from start,
    into c1, c2 (flat, v per chunk) (all chunks at once: each lane's chain waits on its
    previous step's latency, the other chunks' lanes fill it)."""
    c1[start // 16:start // 16 + chunks * v] = 0
    c2[start // 16:start // 16 + chunks * v] = 0
    for j in range(steps):
        r = rcp[j]
        for ch in range(chunks):
            at, o = start + (ch * 16 + j) * v, start // 16 + ch * v
            if simd:
                _welford_simd(x, at, r, c1, c2, o)
                continue
            for lane in range(v):
                xv = x[at + lane]
                d = xv - c1[o + lane]
                a = _fma_as(d, r, c1[o + lane])
                c1[o + lane] = a
                c2[o + lane] = _fma_as(d, xv - a, c2[o + lane])


@numba.njit(**_EXACT)
def _ln_row_moments(x, v, simd, rcp, k, s1, s2, c1, c2):
    """(mean, biased variance) of the row x as ATen's RowwiseMoments over v lanes (simd: v
    fill 32 bytes, one SIMD step per vector; rcp: 1 / (1..16) in x's dtype)
    (_layer_norm_exact describes the steps); k, s1, s2 (64, v), c1, c2 (chunks * v): scratch."""
    total_n = x.shape[0]
    n = total_n // v
    m = (n + 15) // 16
    depth = 1  # (ATen's CeilLog2, at least 1)
    while (1 << depth) < m:
        depth += 1
    z = _as(x[0], 0)
    k[:depth] = 0
    s1[:depth] = 0
    s2[:depth] = 0
    full = n // 16
    _ln_welford(x, 0, full, 16, v, simd, rcp, c1, c2)
    if m > full:
        _ln_welford(x, full * 16 * v, 1, n - full * 16, v, simd, rcp, c1, c2)
    for i in range(m):
        _ln_merge_vector(min(16, n - 16 * i), c1[i * v:(i + 1) * v], c2[i * v:(i + 1) * v],
                         k, s1, s2, 0)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            _ln_merge_vector(k[j - 1], s1[j - 1], s2[j - 1], k, s1, s2, j)
            k[j - 1] = 0
            s1[j - 1, :] = 0
            s2[j - 1, :] = 0
            mask >>= 1
            j += 1
    for j in range(1, depth):
        _ln_merge_vector(k[j], s1[j], s2[j], k, s1, s2, 0)
    count, m1, m2 = 0, z, z
    for i in range(n * v, total_n):  # the tail: scalar Welford
        d = x[i] - m1
        count += 1
        m1 = m1 + d / _as(z, count)
        m2 = m2 + d * (x[i] - m1)
    for lane in range(v):  # the lanes merge into the tail's moments one by one
        total = count + n
        c = z if total == 0 else _as(z, n) / _as(z, total)
        d = s1[0, lane] - m1
        m1 = _fma_as(c, d, m1)
        m2 = m2 + _fma_as(d * d * c, _as(z, count), s2[0, lane])
        count = total
    return m1, m2 / _as(z, total_n)


@numba.njit(**_EXACT)
def layer_norm_rows_exact(x, w, b, has_w, has_b, eps, v, simd, rcp, y, mean, rstd):
    """float32 / float64 rows as ATen's kernel rounds them (_layer_norm_exact.layer_norm's
    steps); eps and rcp (1 / (1..16)) of x's dtype."""
    rows, n = x.shape
    k = np.zeros(64, np.int64)
    s1, s2 = np.zeros((64, v), x.dtype), np.zeros((64, v), x.dtype)
    chunks = (n // v + 15) // 16
    c1, c2 = np.zeros(chunks * v, x.dtype), np.zeros(chunks * v, x.dtype)
    for i in range(rows):
        xr, yr = x[i], y[i]
        mc, var = _ln_row_moments(xr, v, simd, rcp, k, s1, s2, c1, c2)
        rc = _as(eps, 1) / np.sqrt(var + eps)
        mean[i], rstd[i] = mc, rc
        if has_w and has_b:
            for j in range(n):
                yr[j] = _fma_as((xr[j] - mc) * rc, w[j], b[j])
        elif has_b:
            for j in range(n):
                yr[j] = _fma_as(xr[j] - mc, rc, b[j])
        elif has_w:
            for j in range(n):
                yr[j] = (xr[j] - mc) * rc * w[j] + _as(eps, 0)
        else:
            for j in range(n):
                yr[j] = (xr[j] - mc) * rc
