"""float32 / float64 layer norm statistics and outputs as ATen's cpu kernel rounds them
(NumPy path).

ATen's row moments (RowwiseMoments) are a cascaded Welford over SIMD lanes, all in the
input's dtype:
- the row splits into V-lane vectors (V = vector bytes / item size) and chunks of 16 vectors; each
  lane runs Welford over its chunk (d = x - m1; m1 = fma(d, 1/(j+1), m1);
  m2 = fma(d, x - m1, m2)), then the chunk merges into a binary-counter stack of partial
  results (vector merge of (ka, a1, a2) into (k, m1, m2): c = ka / (k + ka); d = a1 - m1;
  m1 = m1 + c d unfused; m2 = fma(d, d c k, m2 + a2)), the stack's levels then merge into
  level 0 in order;
- the N mod V tail elements run a scalar Welford (m1 += d / k; m2 += d (x - m1), unfused)
  and the V lanes merge into it one by one (scalar merge: m1 = fma(c, d, m1);
  m2 = m2 + fma(d d c, k, a2));
- var = m2 / N, rstd = 1 / sqrt(var + eps).
The outputs: (x - mean) rstd, times the weight, plus the bias, with the kernel's fused steps
(bias without weight: fma(x - mean, rstd, b); both: fma((x - mean) rstd, w, b)).
(Round qa19b measured these against torch 2.13: every mean / rstd / output bit of ~8000
float32 rows, N 1..17000 (but ~1 rstd in 1000 rows 1 ulp off, rows with a 6-7 element
tail: a merge step's rounding not pinned down); float64 means / rstds of 400 rows.)"""
import functools

import numpy as np

from ._box_muller import fma32, fma64
from ._cpu_capability import vector_bytes

CHUNK = 16  # vectors per Welford chunk
FMA = {np.float32: fma32, np.float64: fma64}  # a * b + c rounded once in the dtype


@functools.cache
def reciprocals(t):
    """1 / (1..16) rounded in the dtype t (the Welford steps' factors; cached, read-only)."""
    out = (t(1) / np.arange(1, CHUNK + 1, dtype=t)).astype(t)
    out.flags.writeable = False
    return out


def lanes(t=np.float32):
    """Lanes of dtype t of the layer norm kernel's vector loop (AVX2 and DEFAULT: 32 bytes)."""
    return (vector_bytes() or 32) // np.dtype(t).itemsize


def ceil_log2(m):
    """ATen's CeilLog2 as the stack depth (at least 1)."""
    return 1 if m <= 2 else int(m - 1).bit_length()


def _welford(blocks):
    """Each lane's Welford over the chunks' vectors: blocks (rows, chunks, k, V)."""
    shape = blocks.shape[:2] + blocks.shape[3:]
    t = blocks.dtype.type
    fma, rcp = FMA[t], reciprocals(t)
    m1, m2 = np.zeros(shape, t), np.zeros(shape, t)
    for j in range(blocks.shape[2]):
        x = blocks[:, :, j]
        d = x - m1
        m1 = fma(d, rcp[j], m1)
        m2 = fma(d, x - m1, m2)
    return m1, m2


def _merge_vector(add, into):
    """ATen's vector merge of (counts, m1, m2) `add` into `into`: counts (nodes,), m1, m2
    (rows, nodes, V), nodes merged side by side."""
    ka, a1, a2 = add
    k, m1, m2 = into
    t = m1.dtype.type
    total = k + ka
    with np.errstate(all="ignore"):
        c = np.where(total == 0, t(0), ka.astype(t) / total.astype(t))[:, None]
    d = a1 - m1
    return total, m1 + c * d, FMA[t](d, d * c * k.astype(t)[:, None], m2 + a2)


def _pairs(level):
    """A level's complete (left, right) pairs merged (right into left) side by side."""
    k, m1, m2 = level
    end = len(k) - len(k) % 2
    return _merge_vector((k[1:end:2], m1[:, 1:end:2], m2[:, 1:end:2]),
                         (k[0:end:2], m1[:, 0:end:2], m2[:, 0:end:2]))


def _last(level, count):
    """The level's nodes from `count` on (the node left unpaired)."""
    k, m1, m2 = level
    return k[count:], m1[:, count:], m2[:, count:]


def _chunk_moments(x, v):
    """The chunks' lanes merged as ATen's binary-counter stack does: complete pairs of
    equal subtrees (right into left) level by level, the top level's nodes in order, then
    the levels' unpaired nodes into level 0 (lowest first); (count per lane, m1, m2)."""
    rows, n_total = x.shape
    n = n_total // v
    m = -(-n // CHUNK)
    depth = ceil_log2(m)
    full = n // CHUNK
    vectors = x[:, :n * v].reshape(rows, n, v)
    counts, m1s, m2s = [], [], []
    if full:
        m1, m2 = _welford(vectors[:, :full * CHUNK].reshape(rows, full, CHUNK, v))
        counts += [CHUNK] * full
        m1s.append(m1)
        m2s.append(m2)
    if n > full * CHUNK:
        m1, m2 = _welford(vectors[:, None, full * CHUNK:])
        counts.append(n - full * CHUNK)
        m1s.append(m1)
        m2s.append(m2)
    if not counts:
        return 0, np.zeros((rows, v), x.dtype), np.zeros((rows, v), x.dtype)
    level = (np.array(counts, np.int64), np.concatenate(m1s, 1), np.concatenate(m2s, 1))
    unpaired = []
    for _ in range(depth - 1):
        nodes = len(level[0])
        unpaired.append(_last(level, nodes - nodes % 2) if nodes % 2 else None)
        level = _pairs(level) if nodes > 1 else _last(level, nodes)
    top = _last(level, 0)
    if len(top[0]) > 1:  # (two nodes at the top level: the second into the first)
        top = _pairs(top)
    acc = unpaired[0] if unpaired and unpaired[0] is not None else None
    for node in unpaired[1:] + [top]:
        if node is not None:
            acc = node if acc is None else _merge_vector(node, acc)
    if acc is None:
        acc = top
    return n, acc[1][:, 0], acc[2][:, 0]


def row_moments(x):
    """(mean, biased variance) of the rows of the 2-D float32 or float64 x (N > 0 columns)."""
    rows, n_total = x.shape
    t = x.dtype.type
    fma, v = FMA[t], lanes(t)
    n, a1, a2 = _chunk_moments(x, v)
    k, m1, m2 = 0, np.zeros(rows, t), np.zeros(rows, t)
    for i in range(n * v, n_total):  # the tail: scalar Welford
        xi = x[:, i]
        d = xi - m1
        k += 1
        m1 = m1 + d / t(k)
        m2 = m2 + d * (xi - m1)
    c_k = t(n)
    for lane in range(v):  # the lanes merge into the tail's moments one by one
        total = k + n
        c = t(0) if total == 0 else c_k / t(total)
        d = a1[:, lane] - m1
        m1 = fma(c, d, m1)
        m2 = m2 + fma(d * d * c, t(k), a2[:, lane])
        k = total
    return m1, m2 / t(n_total)


def layer_norm(x, w, b, eps, y, mean, rstd):
    """The forward into y (rows, N), mean and rstd (rows, 1), of x's dtype; N > 0."""
    t = x.dtype.type
    fma = FMA[t]
    with np.errstate(all="ignore"):
        m, var = row_moments(x)
        r = t(1) / np.sqrt(var + t(eps))
        mean[:, 0], rstd[:, 0] = m, r
        np.subtract(x, mean, out=y)
        if w is None and b is not None:
            y[...] = fma(y, rstd, b)
            return
        y *= rstd
        if w is not None and b is not None:
            y[...] = fma(y, w, b)
        elif w is not None:
            y *= w
            y += t(0)  # (the kernel adds its zero bias: -0 becomes +0)
