"""ctc_loss's two kernel ops (core: decls/loss_ctc.py): `_ctc_nll`, the alpha recursion in
log space, and `_ctc_nll_backward`, alpha and beta recursions and the gradient
-grad * sum over the positions s showing class c of exp(alpha_t(s) + beta_t(s) + nll - lp).
One NumPy step per time over the batch and the extended label positions; each step rounds
as core's decomposition (max, the three exps summed in order, log, + max, + emission)."""
import numpy as np

from .._np import arr, wrap
from ._jit import compiled

_NEG = -np.inf
# (NumPy makes ~16 calls per time step over (N, W): the compiled loops pay for numba's
# one-time load from far fewer elements than an elementwise op)
_CALLS_PER_STEP = 16


def _emissions(lp, ext):
    """lp[t, n, ext[n, s]]: (T, N, W), with gather's error for a label out of range."""
    classes = lp.shape[2]
    if ext.size and (ext.min() < 0 or ext.max() >= classes):
        v = int(ext[(ext < 0) | (ext >= classes)].flat[0])
        raise RuntimeError(f"index {v} is out of bounds for dimension 2 with size {classes}")
    return lp[:, np.arange(lp.shape[1])[:, None], ext]


class _Recursion:
    """One time step of the alpha (or, mirrored, beta) recursion in log space:
    log(exp(a1) + exp(a2) + exp(a3)) + emission, where a1, a2, a3 are the previous step at
    s, s - 1 and s - 2 (the last where the labels allow the skip), rounded as the
    decomposition's _logsumexp (its max taken as 0 where all three are -inf: here as the
    lowest float, which gives the same -inf).  `padded` holds the previous step with two
    -inf columns before it."""

    def __init__(self, n, width, skip, dtype):
        self.width = width
        self.padded = np.full((n, width + 2), _NEG, dtype)
        self.work = np.empty((3, n, width), dtype)
        self.noskip = ~skip
        self.lowest = np.finfo(dtype).min
        self.m = np.empty((n, width), dtype)

    def step(self, emit, out):
        p, w, work, m = self.padded, self.width, self.work, self.m
        work[0] = p[:, 2:]
        work[1] = p[:, 1:w + 1]
        work[2] = p[:, :w]
        np.copyto(work[2], _NEG, where=self.noskip)  # (a NaN there too, as the where)
        np.maximum(work.max(0, out=m), self.lowest, out=m)
        work -= m
        np.exp(work, out=work)
        np.log(work.sum(0, out=out), out=out)
        out += m
        out += emit  # (emit + lse: the same sum)


def _alphas(emit, skip, il):
    """alpha after each step t (T, N, W), frozen once t reaches the input's length."""
    t_max, n, width = emit.shape
    r = _Recursion(n, width, skip, emit.dtype)
    alpha = r.padded[:, 2:]
    alpha[:, 0] = 0
    out = np.empty_like(emit)
    all_live = int(il.min()) if il.size else 0
    for t in range(t_max):
        r.step(emit[t], out[t])
        if t == 0:  # only the first two positions start
            out[0, :, 2:] = _NEG
        if t >= all_live:  # (some inputs have ended: they keep their alpha)
            done = il <= t
            out[t][done] = alpha[done]
        alpha[...] = out[t]
    return out


def _betas(emit, skip, il, tl):
    """beta_t(s): log-probability of the rest of the labels from position s at time t, the
    emission at t included (-inf from the input's length on): the alpha recursion over the
    time- and position-reversed labels."""
    _, n, width = emit.shape
    back = np.zeros_like(skip)  # s may jump to s + 2 where ext[s + 2] != ext[s]
    back[:, 2:] = skip[:, 2:][:, ::-1]
    r = _Recursion(n, width, back, emit.dtype)
    beta = r.padded[:, 2:]  # (positions reversed)
    out = np.full_like(emit, _NEG)
    rows = np.arange(n)
    ends = width - 1 - np.stack([2 * tl, np.maximum(2 * tl - 1, 0)], 1)  # (reversed)
    emit_r = emit[:, :, ::-1]
    last = int(il.max()) if il.size else 0
    for t in range(last - 1, -1, -1):
        step = out[t]
        r.step(emit_r[t], step)
        step[il <= t + 1] = _NEG  # (rows that start here or later)
        start = rows[il == t + 1]
        if start.size:  # the last step: the last label or the blank after it
            e = ends[start]
            step[start[:, None], e] = emit_r[t][start[:, None], e]
            one = start[tl[start] == 0]  # (no label: the blank only)
            step[one, :width - 1] = _NEG
        beta[...] = step
    return out[:, :, ::-1]


def _recursions(emit, skip, il, tl, betas=False):
    """alphas (past each target's last blank: whatever the path computes), and betas when
    asked: the compiled loops where they serve (no numba, or a small problem: the NumPy
    steps above)."""
    jit = compiled("_ctc_loops", emit.size * _CALLS_PER_STEP)
    if jit is None:
        return _alphas(emit, skip, il), _betas(emit, skip, il, tl) if betas else None
    neg, zero = emit.dtype.type(_NEG), emit.dtype.type(0)
    il, tl = il.astype(np.int64), tl.astype(np.int64)
    alphas = np.empty_like(emit)
    jit.alphas(emit, skip, il, tl, alphas, neg, zero)
    if not betas:
        return alphas, None
    out = np.empty_like(emit)
    jit.betas(emit, skip, il, tl, out, neg, zero)
    return alphas, out


def _prepare(log_probs, ext, input_lengths, target_lengths):
    lp, e = arr(log_probs), arr(ext)
    il, tl = arr(input_lengths), arr(target_lengths)
    emit = _emissions(lp, e)
    skip = np.zeros(e.shape, bool)  # position s may follow s - 2 where their labels differ
    skip[:, 2:] = e[:, 2:] != e[:, :-2]
    return lp, e, il, tl, emit, skip


def _nll(alphas, il, tl):
    """-log p from the alphas at each input's end (-(-inf) for an empty input: alpha there
    is the start, position 0)."""
    n = alphas.shape[1]
    rows = np.arange(n)
    last = alphas[-1]
    end = 2 * tl
    pair = np.stack([last[rows, end], np.where(end > 0, last[rows, np.maximum(end - 1, 0)],
                                               _NEG)])
    m = pair.max(0)
    m[m == _NEG] = 0
    with np.errstate(divide="ignore"):
        return -(np.log(np.exp(pair - m).sum(0)) + m)


def _ctc_nll(log_probs, ext, input_lengths, target_lengths):
    lp, _, il, tl, emit, skip = _prepare(log_probs, ext, input_lengths, target_lengths)
    with np.errstate(invalid="ignore", over="ignore"):
        nll = _nll(_recursions(emit, skip, il, tl)[0], il, tl)
    return wrap(nll.astype(lp.dtype, copy=False), log_probs.dtype)


def _ctc_nll_backward(grad, log_probs, ext, input_lengths, target_lengths, nll):
    lp, e, il, tl, emit, skip = _prepare(log_probs, ext, input_lengths, target_lengths)
    t_max, n, classes = lp.shape
    g, loss = arr(grad), arr(nll)
    with np.errstate(invalid="ignore", over="ignore"):
        alphas, betas = _recursions(emit, skip, il, tl, betas=True)
        both = alphas + betas
        # d nll / d lp[t, n, ext[n, s]] = -sum_s exp(alpha + beta + nll - lp): paths through
        # (t, s) over all paths; none where a path cannot pass, or the loss is infinite
        q = np.exp(both + loss[:, None] - emit)
        q[(both == _NEG) | ~np.isfinite(loss)[:, None]] = 0
        q *= -np.broadcast_to(g, (n,))[:, None]
    out = np.zeros((t_max * n * classes,), lp.dtype)
    pos = (np.arange(t_max * n).reshape(t_max, n, 1) * classes + e).reshape(-1)
    np.add.at(out, pos, q.reshape(-1))
    return wrap(out.reshape(lp.shape), log_probs.dtype)


KERNELS = {"_ctc_nll": _ctc_nll, "_ctc_nll_backward": _ctc_nll_backward}
