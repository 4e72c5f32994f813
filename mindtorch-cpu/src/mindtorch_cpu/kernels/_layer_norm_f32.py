"""float32 layer norm statistics and outputs as ATen's cpu kernel rounds them (NumPy path).

ATen's row moments (RowwiseMoments) are a cascaded Welford over SIMD lanes, all in float32:
- the row splits into V-lane vectors (V = vector bytes / 4) and chunks of 16 vectors; each
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
(Round qa19b measured these against torch 2.13: every mean / rstd / output bit of ~8000 rows,
N 1..17000.)"""
import numpy as np

from ._box_muller import fma32
from ._cpu_capability import vector_bytes

f32 = np.float32
CHUNK = 16  # vectors per Welford chunk
RECIPROCALS = (f32(1) / np.arange(1, CHUNK + 1, dtype=f32)).astype(f32)


def lanes():
    """float32 lanes of the vector loop the layer norm kernel runs (AVX2 and DEFAULT: 8)."""
    return (vector_bytes() or 32) // 4


def ceil_log2(m):
    """ATen's CeilLog2 as the stack depth (at least 1)."""
    return 1 if m <= 2 else int(m - 1).bit_length()


def _welford(blocks):
    """Each lane's Welford over the chunks' vectors: blocks (rows, chunks, k, V)."""
    shape = blocks.shape[:2] + blocks.shape[3:]
    m1, m2 = np.zeros(shape, f32), np.zeros(shape, f32)
    for j in range(blocks.shape[2]):
        x = blocks[:, :, j]
        d = x - m1
        m1 = fma32(d, RECIPROCALS[j], m1)
        m2 = fma32(d, x - m1, m2)
    return m1, m2


def _merge_vector(add, into):
    """ATen's vector merge of (k, m1, m2) `add` into `into`."""
    ka, a1, a2 = add
    k, m1, m2 = into
    total = k + ka
    c = f32(0) if total == 0 else f32(ka) / f32(total)
    d = a1 - m1
    return total, m1 + c * d, fma32(d, d * c * f32(k), m2 + a2)


def _chunk_moments(x, v):
    """Level 0 of the merged stack of chunk results: (count per lane, m1, m2) (rows, V)."""
    rows, n_total = x.shape
    n = n_total // v
    m = -(-n // CHUNK)
    depth = ceil_log2(m)
    zero = (0, np.zeros((rows, v), f32), np.zeros((rows, v), f32))
    stack = [zero] * depth
    full = n // CHUNK
    vectors = x[:, :n * v].reshape(rows, n, v)
    chunks = []
    if full:
        m1, m2 = _welford(vectors[:, :full * CHUNK].reshape(rows, full, CHUNK, v))
        chunks += [(CHUNK, m1[:, i], m2[:, i]) for i in range(full)]
    if n > full * CHUNK:
        m1, m2 = _welford(vectors[:, None, full * CHUNK:])
        chunks.append((n - full * CHUNK, m1[:, 0], m2[:, 0]))
    for i, chunk in enumerate(chunks):
        stack[0] = _merge_vector(chunk, stack[0])
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            stack[j] = _merge_vector(stack[j - 1], stack[j])
            stack[j - 1] = zero
            mask >>= 1
            j += 1
    for j in range(1, depth):
        stack[0] = _merge_vector(stack[j], stack[0])
    return n, stack[0][1], stack[0][2]


def row_moments(x):
    """(mean, biased variance) of the rows of the 2-D float32 x (N > 0 columns), float32."""
    rows, n_total = x.shape
    v = lanes()
    n, a1, a2 = _chunk_moments(x, v)
    k, m1, m2 = 0, np.zeros(rows, f32), np.zeros(rows, f32)
    for i in range(n * v, n_total):  # the tail: scalar Welford
        xi = x[:, i]
        d = xi - m1
        k += 1
        m1 = m1 + d / f32(k)
        m2 = m2 + d * (xi - m1)
    c_k = f32(n)
    for lane in range(v):  # the lanes merge into the tail's moments one by one
        total = k + n
        c = f32(0) if total == 0 else c_k / f32(total)
        d = a1[:, lane] - m1
        m1 = fma32(c, d, m1)
        m2 = m2 + fma32(d * d * c, f32(k), a2[:, lane])
        k = total
    return m1, m2 / f32(n_total)


def layer_norm(x, w, b, eps, y, mean, rstd):
    """The float32 forward into y (rows, N), mean and rstd (rows, 1); N > 0."""
    with np.errstate(all="ignore"):
        m, var = row_moments(x)
        r = f32(1) / np.sqrt(var + f32(eps))
        mean[:, 0], rstd[:, 0] = m, r
        np.subtract(x, mean, out=y)
        if w is None and b is not None:
            y[...] = fma32(y, rstd, b)
            return
        y *= rstd
        if w is not None and b is not None:
            y[...] = fma32(y, w, b)
        elif w is not None:
            y *= w
            y += f32(0)  # (the kernel adds its zero bias: -0 becomes +0)
