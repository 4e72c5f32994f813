"""float32 / float64 linear and cubic upsampling loops compiled by numba
(kernels/_upsample_fma.py's and _ordered_scatter.py's sums, in the same order: the same
bits without NumPy's temporaries).  Each fused multiply-add rounds once: float32's through
float64 (its product exact there), float64's by _grid_loops' error-free fma (`exact`).
Loaded through _jit.compiled."""
import numba
import numpy as np

from ._grid_loops import _fma as _exact_fma

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}


@numba.njit(inline="always")
def _fma(a, w, c, exact):
    """a * w + c rounded once: float64 operands (exact) or float32 ones (a float32 value)."""
    if exact:
        return _exact_fma(np.float64(a), np.float64(w), np.float64(c))
    return np.float64(np.float32(np.float64(a) * np.float64(w) + np.float64(c)))


@numba.njit(**_JIT)
def taps_pass(x, index, weight, out):
    """One dim of the generic kernel: x (outer, n_in, inner) -> out (outer, n_out, inner),
    out[:, j] = fma(..., fma(x[:, index[0, j]], weight[0, j], x[:, index[1, j]] *
    weight[1, j]))."""
    taps = index.shape[0]
    exact = out.itemsize == 8
    for o in range(x.shape[0]):
        for j in range(index.shape[1]):
            for k in range(x.shape[2]):
                acc = _fma(x[o, index[0, j], k], weight[0, j],
                           x[o, index[1, j], k] * weight[1, j], exact)
                for m in range(2, taps):
                    acc = _fma(x[o, index[m, j], k], weight[m, j], acc, exact)
                out[o, j, k] = acc


@numba.njit(**_JIT)
def corners_2d(x, h0, hw0, h1, hw1, c0, cw0, c1, cw1, vector, out):
    """The channels-last kernel in 2d: x (N, C, H, W) -> out (N, C, OH, OW); the first
    `vector` channels summed as its vector loop, the others as its scalar loop."""
    oh, ow = h0.size, c0.size
    exact = out.itemsize == 8
    w = np.empty((4, oh, ow), out.dtype)
    for i in range(oh):
        for j in range(ow):
            w[0, i, j] = hw0[i] * cw0[j]
            w[1, i, j] = hw0[i] * cw1[j]
            w[2, i, j] = hw1[i] * cw0[j]
            w[3, i, j] = hw1[i] * cw1[j]
    for n in range(x.shape[0]):
        for ch in range(x.shape[1]):
            plane = x[n, ch]
            for i in range(oh):
                for j in range(ow):
                    t00 = plane[h0[i], c0[j]]
                    t01 = plane[h0[i], c1[j]]
                    t10 = plane[h1[i], c0[j]]
                    t11 = plane[h1[i], c1[j]]
                    if ch < vector:
                        acc = _fma(t11, w[3, i, j], t10 * w[2, i, j], exact)
                        acc = _fma(t01, w[1, i, j], acc, exact)
                        out[n, ch, i, j] = _fma(t00, w[0, i, j], acc, exact)
                    else:
                        acc = _fma(t00, w[0, i, j], t01 * w[1, i, j], exact)
                        acc = _fma(t10, w[2, i, j], acc, exact)
                        out[n, ch, i, j] = _fma(t11, w[3, i, j], acc, exact)


@numba.njit(**_JIT)
def scatter_fma(go, targets, weights, grad):
    """grad[p, targets[o, k]] = fma(go[p, o], weights[o, k], grad[p, targets[o, k]]) for
    each plane p, output point o in order and corner k in order."""
    exact = grad.itemsize == 8
    for p in range(go.shape[0]):
        for o in range(go.shape[1]):
            v = go[p, o]
            for k in range(targets.shape[1]):
                t = targets[o, k]
                if t >= 0:
                    grad[p, t] = _fma(v, weights[o, k], grad[p, t], exact)


@numba.njit(**_JIT)
def scatter_add(go, targets, grad):
    """grad[p, targets[o, k]] += go[p, o] for each plane p, point o and k in order (targets
    -1 skipped)."""
    for p in range(go.shape[0]):
        for o in range(go.shape[1]):
            v = go[p, o]
            for k in range(targets.shape[1]):
                t = targets[o, k]
                if t >= 0:
                    grad[p, t] += v
