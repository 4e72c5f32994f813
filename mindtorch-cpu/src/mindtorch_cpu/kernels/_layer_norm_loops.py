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


def _vector(dtype):
    """The 32-byte LLVM vector of a float32 / float64 array's items, its lane count."""
    double = dtype == types.float64
    width = 4 if double else 8
    return ir.VectorType(ir.DoubleType() if double else ir.FloatType(), width), width


def _fma(builder, vec):
    return builder.module.declare_intrinsic(
        f"llvm.fma.v{vec.count}f{64 if vec.element == ir.DoubleType() else 32}",
        fnty=ir.FunctionType(vec, [vec] * 3))


def _splat(builder, vec, value):
    """The vector of `value` in every lane."""
    out = ir.Constant(vec, ir.Undefined)
    for lane in range(vec.count):
        out = builder.insert_element(out, value, ir.Constant(ir.IntType(32), lane))
    return out


def _data(context, builder, ty, value):
    return context.make_array(ty)(context, builder, value).data


def _vector_at(builder, data, index, vec):
    """The vector pointer at data[index]."""
    return builder.bitcast(builder.gep(data, [index]), vec.as_pointer())


def _welford_chains(chains):
    """An intrinsic running `chains` lanes' Welford chains side by side in registers (LLVM
    leaves the scalar lane loops scalar; through memory each step would also wait on the
    store of the previous one): chain k's vectors x[at + k xstep + j L] (j < steps, L the
    32-byte vector's lanes) from 0: d = v - a; a = fma(d, rcp[j], a); b = fma(d, v - a, b);
    a, b stored at s1[o + k ostep], s2[o + k ostep]."""
    @intrinsic
    def welford(typingctx, x, at, xstep, steps, rcp, s1, s2, o, ostep):
        vec, width = _vector(x.dtype)
        i64 = ir.IntType(64)

        def codegen(context, builder, sig, args):
            at, xstep, steps, o, ostep = (context.cast(builder, args[k], sig.args[k], types.int64)
                                          for k in (1, 2, 3, 7, 8))
            xd, rd, d1, d2 = (_data(context, builder, sig.args[k], args[k]) for k in (0, 4, 5, 6))
            fma = _fma(builder, vec)
            zero = ir.Constant(vec, None)
            entry = builder.block
            loop = builder.append_basic_block("welford.loop")
            done = builder.append_basic_block("welford.done")
            builder.cbranch(builder.icmp_signed(">", steps, ir.Constant(i64, 0)), loop, done)
            builder.position_at_end(loop)
            j = builder.phi(i64)
            state = [(builder.phi(vec), builder.phi(vec)) for _ in range(chains)]
            r = _splat(builder, vec, builder.load(builder.gep(rd, [j])))
            base = builder.add(at, builder.mul(j, ir.Constant(i64, width)))
            stepped = []
            for k, (a, b) in enumerate(state):
                v = builder.load(_vector_at(builder, xd, builder.add(
                    base, builder.mul(xstep, ir.Constant(i64, k))), vec), align=4)
                d = builder.fsub(v, a)
                a2 = builder.call(fma, [d, r, a])
                stepped.append((a2, builder.call(fma, [d, builder.fsub(v, a2), b])))
            j2 = builder.add(j, ir.Constant(i64, 1))
            j.add_incoming(ir.Constant(i64, 0), entry)
            j.add_incoming(j2, loop)
            for (a, b), (a2, b2) in zip(state, stepped):
                for phi, value in ((a, a2), (b, b2)):
                    phi.add_incoming(zero, entry)
                    phi.add_incoming(value, loop)
            builder.cbranch(builder.icmp_signed("<", j2, steps), loop, done)
            builder.position_at_end(done)
            finals = []
            for pair in stepped:
                for value in pair:
                    finals.append(builder.phi(vec))
                    finals[-1].add_incoming(zero, entry)
                    finals[-1].add_incoming(value, loop)
            for k in range(chains):
                at_k = builder.add(o, builder.mul(ostep, ir.Constant(i64, k)))
                for data, final in ((d1, finals[2 * k]), (d2, finals[2 * k + 1])):
                    builder.store(final, _vector_at(builder, data, at_k, vec), align=4)
            return context.get_dummy_value()
        return types.void(x, at, xstep, steps, rcp, s1, s2, o, ostep), codegen
    return welford


_LOCKSTEP = 4  # Welford chains per SIMD loop (4 x 2 vector registers of state)
_welford_lockstep, _welford_one = _welford_chains(_LOCKSTEP), _welford_chains(1)


@intrinsic
def _merge_simd(typingctx, s1, s2, src, dst, c, kf):
    """ATen's vector merge of the 32-byte vector at src of (s1, s2) into the one at dst, as
    one SIMD step: with d = a1 - m1, m1' = m1 + c d (unfused), m2' = fma(d, d c kf, m2 + a2)
    (c = ka / (k + ka), kf = k: the counts' factors, the same for every row)."""
    vec, _ = _vector(s1.dtype)

    def codegen(context, builder, sig, args):
        d1, d2 = (_data(context, builder, sig.args[k], args[k]) for k in (0, 1))
        p1, q1, p2, q2 = (_vector_at(builder, data, args[at], vec)
                          for data in (d1, d2) for at in (2, 3))
        c, kf = (_splat(builder, vec, args[k]) for k in (4, 5))
        a1, m1, a2, m2 = (builder.load(p, align=4) for p in (p1, q1, p2, q2))
        d = builder.fsub(a1, m1)
        builder.store(builder.fadd(m1, builder.fmul(c, d)), q1, align=4)
        builder.store(builder.call(_fma(builder, vec), [
            d, builder.fmul(builder.fmul(d, c), kf), builder.fadd(m2, a2)]), q2, align=4)
        return context.get_dummy_value()
    return types.void(s1, s2, src, dst, c, kf), codegen


@intrinsic
def _fold_rows(typingctx, s1, s2, stride, folds, m1, m2):
    """The lane folds of _GROUP rows side by side (one vector lane per row), in registers:
    row r's lanes s1[r stride + lane], s2[...] (lane < the 32-byte vector's lanes) merge one
    by one into (m1[r], m2[r]): d = s - m1; m1 = fma(c, d, m1); m2 = m2 + fma(d d c, kf, s2)
    with (c, kf) = folds[lane]."""
    _, width = _vector(s1.dtype)
    rows = ir.VectorType(_vector(s1.dtype)[0].element, _GROUP)
    i64 = ir.IntType(64)

    def codegen(context, builder, sig, args):
        stride = context.cast(builder, args[2], sig.args[2], types.int64)
        d1, d2, fd, p1, p2 = (_data(context, builder, sig.args[k], args[k]) for k in (0, 1, 3, 4, 5))
        fma = _fma(builder, rows)
        a, b = (builder.load(_vector_at(builder, p, ir.Constant(i64, 0), rows), align=4)
                for p in (p1, p2))

        def column(data, lane):
            out = ir.Constant(rows, ir.Undefined)
            for r in range(_GROUP):
                at = builder.add(builder.mul(stride, ir.Constant(i64, r)), ir.Constant(i64, lane))
                out = builder.insert_element(out, builder.load(builder.gep(data, [at])),
                                             ir.Constant(ir.IntType(32), r))
            return out
        for lane in range(width):
            c, kf = (_splat(builder, rows, builder.load(builder.gep(fd, [ir.Constant(i64, 2 * lane + k)])))
                     for k in (0, 1))
            d = builder.fsub(column(d1, lane), a)
            a = builder.call(fma, [c, d, a])
            b = builder.fadd(b, builder.call(fma, [builder.fmul(builder.fmul(d, d), c), kf,
                                                  column(d2, lane)]))
        for p, value in ((p1, a), (p2, b)):
            builder.store(value, _vector_at(builder, p, ir.Constant(i64, 0), rows), align=4)
        return context.get_dummy_value()
    return types.void(s1, s2, stride, folds, m1, m2), codegen


@numba.njit(inline="always", **_EXACT)
def _ln_welford(x, at, xstep, steps, rcp, s1, s2, o, ostep, chains, v, simd):
    """`chains` Welford chains of v lanes (see _welford_chains) from 0 into (s1, s2)."""
    if simd and chains == _LOCKSTEP:
        _welford_lockstep(x, at, xstep, steps, rcp, s1, s2, o, ostep)
        return
    for k in range(chains):
        if simd:
            _welford_one(x, at + k * xstep, 0, steps, rcp, s1, s2, o + k * ostep, 0)
            continue
        for lane in range(v):
            a = b = _as(rcp[0], 0)
            for j in range(steps):
                xv = x[at + k * xstep + j * v + lane]
                d = xv - a
                a = _fma_as(d, rcp[j], a)
                b = _fma_as(d, xv - a, b)
            s1[o + k * ostep + lane], s2[o + k * ostep + lane] = a, b


@numba.njit(inline="always", **_EXACT)
def _ln_merge(s1, s2, src, dst, c, kf, v, simd):
    """ATen's vector merge of the v lanes at src into those at dst (see _merge_simd)."""
    if simd:
        _merge_simd(s1, s2, src, dst, c, kf)
        return
    for lane in range(v):
        d = s1[src + lane] - s1[dst + lane]
        s1[dst + lane] = s1[dst + lane] + c * d
        s2[dst + lane] = _fma_as(d, d * c * kf, s2[dst + lane] + s2[src + lane])


@numba.njit(**_EXACT)
def _merge_schedule(n, depth, rcp):
    """ATen's binary-counter stack over the row's (n + 15) // 16 chunks of n vectors, as a
    list of vector merges (the same for every row): slots 0..depth-1 are the stack's levels,
    slots depth + i the chunks; per merge (source, destination, reset the source after),
    and its factors c = ka / (k + ka), kf = k in rcp's dtype."""
    z = _as(rcp[0], 0)
    m = (n + 15) // 16
    ops = np.zeros((2 * m + depth, 3), np.int64)
    factors = np.zeros((2 * m + depth, 2), rcp.dtype)
    k = np.zeros(depth, np.int64)
    count = 0
    for i in range(m + depth - 1):
        if i < m:  # chunk i into level 0, then the carries up the stack
            moves = [(depth + i, 0, min(16, n - 16 * i))]
            mask, j = i + 1, 1
            while j < depth and mask & 1 == 0:
                moves.append((j - 1, j, -1))
                mask >>= 1
                j += 1
        else:  # the levels above 0 into level 0, lowest first
            moves = [(i - m + 1, 0, -1)]
        for src, dst, ka in moves:
            reset = ka < 0 and dst > 0
            if ka < 0:
                ka = k[src]
            total = k[dst] + ka
            ops[count, 0], ops[count, 1], ops[count, 2] = src, dst, reset
            factors[count, 0] = z if total == 0 else _as(z, ka) / _as(z, total)
            factors[count, 1] = _as(z, k[dst])
            k[dst] = total
            if reset:
                k[src] = 0
            count += 1
    return ops[:count], factors[:count]


@numba.njit(**_EXACT)
def _fold_factors(n_total, v, rcp):
    """(c, kf) per lane of the lane folds (the same for every row): lane l's n vectors merge
    into the tail's count + l n moments, c = n / (count + (l + 1) n), kf = count + l n."""
    z = _as(rcp[0], 0)
    n = n_total // v
    folds = np.empty((v, 2), rcp.dtype)
    count = n_total - n * v
    for lane in range(v):
        total = count + n
        folds[lane, 0] = z if total == 0 else _as(z, n) / _as(z, total)
        folds[lane, 1] = _as(z, count)
        count = total
    return folds


@numba.njit(inline="always", **_EXACT)
def _ln_group_welford(x, r0, g, n_total, depth, v, simd, rcp, s1, s2):
    """Each lane's Welford over each chunk of rows r0..r0+g-1 of the flat x into the chunk
    slots, _LOCKSTEP chains at a time: the rows' same chunk (a full group), else a row's
    consecutive full chunks."""
    n = n_total // v
    m, full = (n + 15) // 16, n // 16
    stride = s1.shape[0] // _GROUP
    if g == _LOCKSTEP:
        for ch in range(m):
            _ln_welford(x, r0 * n_total + ch * 16 * v, n_total, min(16, n - 16 * ch), rcp,
                        s1, s2, (depth + ch) * v, stride, _LOCKSTEP, v, simd)
        return
    for row in range(g):
        ch = 0
        while ch < m:
            chains = _LOCKSTEP if ch + _LOCKSTEP <= full else 1
            _ln_welford(x, (r0 + row) * n_total + ch * 16 * v, 16 * v, min(16, n - 16 * ch),
                        rcp, s1, s2, row * stride + (depth + ch) * v, v, chains, v, simd)
            ch += chains


_GROUP = _LOCKSTEP  # rows whose moments interleave


@numba.njit(**_EXACT)
def _ln_group_moments(x, r0, g, n_total, v, simd, rcp, depth, ops, factors, folds, s1, s2,
                      m1, m2):
    """(mean, biased variance) of rows r0..r0+g-1 of the flat x into m1[:g], m2[:g], as
    ATen's RowwiseMoments (_layer_norm_exact describes the steps)."""
    n = n_total // v
    stride = s1.shape[0] // _GROUP
    z = _as(x[0], 0)
    for row in range(g):  # (the stack's levels start empty)
        for i in range(row * stride, row * stride + depth * v):
            s1[i] = z
            s2[i] = z
    _ln_group_welford(x, r0, g, n_total, depth, v, simd, rcp, s1, s2)
    for op in range(ops.shape[0]):  # (scalars and loops, no array views: their refcounts)
        src, dst, c, kf = ops[op, 0] * v, ops[op, 1] * v, factors[op, 0], factors[op, 1]
        for row in range(g):
            _ln_merge(s1, s2, row * stride + src, row * stride + dst, c, kf, v, simd)
            if ops[op, 2]:
                for lane in range(row * stride + src, row * stride + src + v):
                    s1[lane] = z
                    s2[lane] = z
    m1[:g] = z
    m2[:g] = z
    for i in range(n * v, n_total):  # the tail: scalar Welford
        kf = _as(z, i - n * v + 1)
        for row in range(g):
            xi = x[(r0 + row) * n_total + i]
            d = xi - m1[row]
            m1[row] = m1[row] + d / kf
            m2[row] = m2[row] + d * (xi - m1[row])
    if simd and g == _GROUP:
        _fold_rows(s1, s2, stride, folds, m1, m2)
    else:
        for lane in range(v):  # the lanes merge into the tail's moments one by one
            c, kf = folds[lane, 0], folds[lane, 1]
            for row in range(g):
                d = s1[row * stride + lane] - m1[row]
                m1[row] = _fma_as(c, d, m1[row])
                m2[row] = m2[row] + _fma_as(d * d * c, kf, s2[row * stride + lane])
    for row in range(g):
        m2[row] = m2[row] / _as(z, n_total)


@numba.njit(**_EXACT)
def layer_norm_rows_exact(x, w, b, has_w, has_b, eps, v, simd, rcp, y, mean, rstd):
    """float32 / float64 rows (C-contiguous) as ATen's kernel rounds them
    (_layer_norm_exact.layer_norm's steps); eps and rcp (1 / (1..16)) of x's dtype."""
    rows, n = x.shape
    depth = 1  # (ATen's CeilLog2 of the chunks, at least 1)
    while (1 << depth) < (n // v + 15) // 16:
        depth += 1
    ops, factors = _merge_schedule(n // v, depth, rcp)
    folds = _fold_factors(n, v, rcp)
    stride = (depth + (n // v + 15) // 16) * v
    s1, s2 = np.empty(_GROUP * stride, x.dtype), np.empty(_GROUP * stride, x.dtype)
    m1, m2 = np.empty(_GROUP, x.dtype), np.empty(_GROUP, x.dtype)
    xf = x.reshape(-1)
    for r0 in range(0, rows, _GROUP):
        g = min(_GROUP, rows - r0)
        _ln_group_moments(xf, r0, g, n, v, simd, rcp, depth, ops, factors, folds, s1, s2,
                          m1, m2)
        _ln_outputs(x, y, r0, g, w, b, has_w, has_b, eps, m1, m2, mean, rstd)


@numba.njit(**_EXACT)
def _ln_outputs(x, y, r0, g, w, b, has_w, has_b, eps, m1, m2, mean, rstd):
    """Rows r0..r0+g-1's mean, rstd and outputs with the kernel's fused steps, from their
    moments m1, m2 (2-D indices: row views' reference counting costs more than a short row,
    flat indices' sign checks stop LLVM's vectorizer; a call, not inlined: the arguments of
    an inlined function are reference counted per row too)."""
    n = x.shape[1]
    z = _as(eps, 0)
    for row in range(g):
        i, mc = r0 + row, m1[row]
        rc = _as(eps, 1) / np.sqrt(m2[row] + eps)
        mean[i], rstd[i] = mc, rc
        if has_w and has_b:
            for j in range(n):
                y[i, j] = _fma_as((x[i, j] - mc) * rc, w[j], b[j])
        elif has_b:
            for j in range(n):
                y[i, j] = _fma_as(x[i, j] - mc, rc, b[j])
        elif has_w:
            for j in range(n):
                y[i, j] = (x[i, j] - mc) * rc * w[j] + z
        else:
            for j in range(n):
                y[i, j] = (x[i, j] - mc) * rc


# The backward (float32 / float64), as ATen's kernel rounds it, per row: ds = sum(g x w), db = sum(g w)
# in its vector order (_ln_group_sums), then a = rstd, b = (db mean - ds) a^3 / n,
# c = -b mean - db a / n, gx = a g w + b x + c (fused where its build fuses); the weight's
# and bias' gradients accumulate row after row in a buffer per thread's chunk of rows:
# gw = fma(g, fma(a, x, -a mean), gw), gb = gb + g.


def _row_sums(rows):
    """An intrinsic summing, lane by lane, the products (g x) w and g w of the whole 32-byte
    vectors of `rows` rows of the flat g, x (from `start`, n apart; `full` elements each, a
    multiple of L > 0) as 2 x rows SIMD chains side by side in registers: chain (k, s) into
    acc[(2 k + s) L:][:L] = prod(vector 0) + prod(vector 1) + ..., products unfused from the
    sums, as the main loop of ATen's vec::map*_reduce_all (w: ones without a weight, exact
    products); in the same pass the rows, in order, into the weight's and bias' buffers
    buf[:n], buf[n:]: gw = fma(g, fma(a_k, x, off_k), gw), gb = gb + g ((a_k, off_k) =
    coef[2 k], coef[2 k + 1])."""
    @intrinsic
    def sums(typingctx, g, x, w, start, n, full, acc, coef, buf):
        vec, width = _vector(g.dtype)
        i64 = ir.IntType(64)

        def codegen(context, builder, sig, args):
            start, n, full = (context.cast(builder, args[k], sig.args[k], types.int64)
                              for k in (3, 4, 5))
            gd, xd, wd, ad, cd, bd = (_data(context, builder, sig.args[k], args[k])
                                      for k in (0, 1, 2, 6, 7, 8))
            step = ir.Constant(i64, width)
            fma = _fma(builder, vec)
            coef = [_splat(builder, vec, builder.load(builder.gep(cd, [ir.Constant(i64, k)])))
                    for k in range(2 * rows)]

            prefetch = builder.module.declare_intrinsic(
                "llvm.prefetch.p0i8", fnty=ir.FunctionType(ir.VoidType(), [
                    ir.IntType(8).as_pointer()] + [ir.IntType(32)] * 3))
            i32 = ir.IntType(32)

            def fetch_next(at):
                """The next group's rows (contiguous after these): rows x L elements of g
                and x per step, so that they come in while this group's chains run."""
                ahead = builder.add(builder.add(start, builder.mul(n, ir.Constant(i64, rows))),
                                    builder.mul(at, ir.Constant(i64, rows)))
                for d in (gd, xd):
                    for line in range(0, rows * width * 4, 64):
                        ptr = builder.gep(d, [builder.add(ahead, ir.Constant(i64, line // 4))])
                        builder.call(prefetch, [builder.bitcast(ptr, ir.IntType(8).as_pointer()),
                                                ir.Constant(i32, 0), ir.Constant(i32, 3),
                                                ir.Constant(i32, 1)])

            def products(at):
                fetch_next(at)
                wv = builder.load(_vector_at(builder, wd, at, vec), align=4)
                pw, pb = (_vector_at(builder, bd, a, vec) for a in (at, builder.add(at, n)))
                bw, bb = builder.load(pw, align=4), builder.load(pb, align=4)
                out = []
                for k in range(rows):
                    row_at = builder.add(builder.add(start, builder.mul(n, ir.Constant(i64, k))), at)
                    gv, xv = (builder.load(_vector_at(builder, d, row_at, vec), align=4)
                              for d in (gd, xd))
                    out += [builder.fmul(builder.fmul(gv, xv), wv), builder.fmul(gv, wv)]
                    bw = builder.call(fma, [gv, builder.call(fma, [coef[2 * k], xv,
                                                                   coef[2 * k + 1]]), bw])
                    bb = builder.fadd(bb, gv)
                builder.store(bw, pw, align=4)
                builder.store(bb, pb, align=4)
                return out
            entry = builder.block
            first = products(ir.Constant(i64, 0))
            loop = builder.append_basic_block("sums.loop")
            done = builder.append_basic_block("sums.done")
            builder.cbranch(builder.icmp_signed(">", full, step), loop, done)
            builder.position_at_end(loop)
            at = builder.phi(i64)
            totals = [builder.phi(vec) for _ in first]
            summed = [builder.fadd(t, q) for t, q in zip(totals, products(at))]
            nxt = builder.add(at, step)
            at.add_incoming(step, entry)
            at.add_incoming(nxt, loop)
            for t, f, q in zip(totals, first, summed):
                t.add_incoming(f, entry)
                t.add_incoming(q, loop)
            builder.cbranch(builder.icmp_signed("<", nxt, full), loop, done)
            builder.position_at_end(done)
            results = []
            for f, q in zip(first, summed):
                results.append(builder.phi(vec))
                results[-1].add_incoming(f, entry)
                results[-1].add_incoming(q, loop)
            for k, value in enumerate(results):
                builder.store(value, _vector_at(builder, ad, ir.Constant(i64, k * width), vec),
                              align=4)
            return context.get_dummy_value()
        return types.void(g, x, w, start, n, full, acc, coef, buf), codegen
    return sums


_SUM_ROWS = 4  # rows whose sums run side by side (8 chains hide an add's latency; the
#                 next group's rows are prefetched: 4 short streams defeat the hardware's)
_row_sums4, _row_sums1 = _row_sums(_SUM_ROWS), _row_sums(1)


@numba.njit(inline="always", **_EXACT)
def _ln_lanes_total(acc, o, v):
    """The lanes acc[o:o + v] added as vec_reduce_all does: 8 floats by halves (its shuffles),
    ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)); 4 doubles in order (no shuffle form)."""
    if v == 4:
        total = acc[o]
        for lane in range(o + 1, o + v):
            total = total + acc[lane]
        return total
    half = v // 2
    while half >= 1:
        for lane in range(half):
            acc[o + lane] = acc[o + lane] + acc[o + lane + half]
        half //= 2
    return acc[o]


@numba.njit(**_EXACT)
def _ln_group_sums(g, x, w, has_w, r0, k, n, v, simd, acc, coef, sums, chunk, ds, db):
    """ds[:k], db[:k] = sum((g x) w), sum(g w) of rows r0..r0+k-1 of the flat g, x as ATen's
    vec::map*_reduce_all adds them over v lanes: the whole vectors' lanes (_row_sums), the
    partial last vector's last product fused into its first lanes, the lanes by halves;
    rows shorter than v: the products in order (w: ones without a weight, exact products;
    a scalar lane loop where the lanes are not 32 bytes); and the rows into the weight's and
    bias' buffers sums[chunk] (2 n,) in order (coef: each row's rstd and -rstd mean)."""
    full = n - n % v if n >= v else 0
    buf = sums[chunk]
    if simd and full and k == _SUM_ROWS:
        _row_sums4(g, x, w, r0 * n, n, full, acc, coef, buf)
    for row in range(k):
        start, o = (r0 + row) * n, 2 * row * v
        if simd and full and k < _SUM_ROWS:
            _row_sums1(g, x, w, start, n, full, acc[o:], coef[2 * row:], buf)
        elif not simd and full:
            for lane in range(v):
                acc[o + lane] = g[start + lane] * x[start + lane] * w[lane]
                acc[o + v + lane] = g[start + lane] * w[lane]
            for at in range(v, full, v):
                for lane in range(v):
                    j = start + at + lane
                    acc[o + lane] += g[j] * x[j] * w[at + lane]
                    acc[o + v + lane] += g[j] * w[at + lane]
        a, off = coef[2 * row], coef[2 * row + 1]
        for c in range(full if simd else 0, n):  # (the buffers: what the SIMD pass left)
            j = start + c
            buf[c] = _fma_as(g[j], _fma_as(a, x[j], off), buf[c])
            buf[n + c] = buf[n + c] + g[j]
        if not full:
            ds[row], db[row] = g[start] * x[start] * w[0], g[start] * w[0]
            for j in range(1, n):
                ds[row] += g[start + j] * x[start + j] * w[j]
                db[row] += g[start + j] * w[j]
            continue
        for lane in range(n - full):  # (the partial vector: its last product fused)
            j, c = start + full + lane, full + lane
            acc[o + lane] = _fma_as(g[j] * x[j], w[c], acc[o + lane]) if has_w else \
                _fma_as(g[j], x[j], acc[o + lane])
            acc[o + v + lane] = _fma_as(g[j], w[c], acc[o + v + lane])
        ds[row], db[row] = _ln_lanes_total(acc, o, v), _ln_lanes_total(acc, o + v, v)


@numba.njit(**_EXACT)
def layer_norm_backward_rows_exact(g, x, mean, rstd, w, has_w, v, simd, chunk, gx, sums):
    """float32 / float64 rows (C-contiguous) as ATen's backward rounds them (see above); w (n,): ones
    when there is no weight; sums (-(-rows // chunk), 2 n) zeros: the weight's and bias'
    buffers per thread's chunk of `chunk` rows, added up by the caller in order."""
    rows, n = x.shape
    acc = np.empty(2 * _SUM_ROWS * v, x.dtype)
    coef = np.empty(2 * _SUM_ROWS, x.dtype)
    ds, db = np.empty(_SUM_ROWS, x.dtype), np.empty(_SUM_ROWS, x.dtype)
    scale = _as(x[0, 0], 1) / _as(x[0, 0], n)
    gf, xf = g.reshape(-1), x.reshape(-1)
    for c0 in range(0, rows, chunk):  # (groups of rows within a thread's chunk)
        for r0 in range(c0, min(rows, c0 + chunk), _SUM_ROWS):
            k = min(_SUM_ROWS, rows - r0, c0 + chunk - r0)
            for row in range(k):
                coef[2 * row], coef[2 * row + 1] = rstd[r0 + row], -rstd[r0 + row] * mean[r0 + row]
            _ln_group_sums(gf, xf, w, has_w, r0, k, n, v, simd, acc, coef, sums, c0 // chunk,
                           ds, db)
            _ln_input_grads(g, x, w, r0, k, rstd, mean, ds, db, scale, gx)


@numba.njit(**_EXACT)
def _ln_input_grads(g, x, w, r0, k, rstd, mean, ds, db, scale, gx):
    """Rows r0..r0+k-1's input gradients (a call, not inlined, 2-D indices: no row views,
    their reference counting)."""
    for row in range(k):
        i, a, m = r0 + row, rstd[r0 + row], mean[r0 + row]
        b = _fma_as(db[row], m, -ds[row]) * a * a * a * scale
        c = _fma_as(-b, m, -(db[row] * a * scale))
        for j in range(x.shape[1]):
            gx[i, j] = _fma_as(b, x[i, j], a * g[i, j] * w[j]) + c
