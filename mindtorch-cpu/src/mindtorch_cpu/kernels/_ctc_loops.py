"""ctc's alpha and beta recursions compiled by numba (kernels/ctc.py), imported through
_jit.compiled() on first use: one pass per batch element over time and label positions,
where NumPy makes ~15 calls per time step.  The arithmetic is ctc.py's (max of the three
predecessors, taken as 0 where all are -inf; the exps summed in order; log; + max;
+ emission), in the array's dtype; exp and log are libm's (NumPy's SIMD ones may differ
in the last bit)."""
import math

import numba
import numpy as np

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(inline="always")
def _lse3(a1, a2, a3, neg, zero):
    m = a1  # (NaN if any is: NumPy's max)
    if a2 > m or math.isnan(a2):
        m = a2
    if a3 > m or math.isnan(a3):
        m = a3
    if math.isnan(a1):
        m = a1
    if m == neg:
        return neg  # (log(0) + 0)
    # (exp(-inf - m) is 0: skipped)
    total = np.exp(a1 - m) if a1 != neg else zero
    if a2 != neg:
        total += np.exp(a2 - m)
    if a3 != neg:
        total += np.exp(a3 - m)
    return np.log(total) + m


@numba.njit(**_JIT)
def alphas(emit, skip, il, tl, out, neg, zero):
    """out[t, n] = alpha after step t (frozen from the input's length on), over the
    positions up to the last blank, 2 * tl[n] (-inf past it: nothing there reaches the
    loss, whose positions only feed higher ones)."""
    t_max, n_rows, width = emit.shape
    prev = np.empty(width, emit.dtype)
    cur = np.empty(width, emit.dtype)
    for n in range(n_rows):
        used = min(width, 2 * tl[n] + 1)
        prev[:] = neg
        prev[0] = zero
        cur[:] = neg
        for t in range(t_max):
            if t < il[n]:
                for s in range(min(used, 2) if t == 0 else used):  # (t = 0: two starts)
                    a2 = prev[s - 1] if s >= 1 else neg
                    a3 = prev[s - 2] if s >= 2 and skip[n, s] else neg
                    cur[s] = emit[t, n, s] + _lse3(prev[s], a2, a3, neg, zero)
                prev[:used] = cur[:used]
            out[t, n] = prev


@numba.njit(**_JIT)
def betas(emit, skip, il, tl, out, neg, zero):
    """out[t, n, s] = beta_t(s), the emission at t included (-inf from il on)."""
    _, n_rows, width = emit.shape
    nxt = np.empty(width, emit.dtype)
    for n in range(n_rows):
        out[:, n] = neg
        last = il[n] - 1
        if last < 0:
            continue
        nxt[:] = neg
        end = 2 * tl[n]
        nxt[end] = emit[last, n, end]
        if end > 0:
            nxt[end - 1] = emit[last, n, end - 1]
        out[last, n] = nxt
        for t in range(last - 1, -1, -1):
            for s in range(end + 1):  # (-inf past the last blank)
                b2 = out[t + 1, n, s + 1] if s + 1 < width else neg
                b3 = out[t + 1, n, s + 2] if s + 2 < width and skip[n, s + 2] else neg
                out[t, n, s] = emit[t, n, s] + _lse3(out[t + 1, n, s], b2, b3, neg, zero)
