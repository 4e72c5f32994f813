"""Fused LSTM / GRU cells (mindtorch/_ops/decls/rnn.py): one step's pointwise math in
NumPy, in the compute dtype (float32 for 16-bit floats), with the same order of operations
as the ops they replace, so float32 and float64 results equal the op-by-op ones.  The
forward kernels keep the activations in the workspace they return: the backward kernels
then need no exp or tanh, which cost most of a step."""
import numpy as np
from mindtorch import _dtype as D

from .._np import arr, wrap

_COMPUTE = {D.float16: np.float32, D.bfloat16: np.float32}


def _operands(*ts):
    """The arrays of ts (None stays None) in the compute dtype of the first tensor."""
    dt = next(t.dtype for t in ts if t is not None)
    for t in ts:
        if t is not None and t.dtype is not dt:
            raise RuntimeError(f"expected scalar type {dt.torch_name} but found "
                               f"{t.dtype.torch_name}")
    ct = _COMPUTE.get(dt, dt.np)
    return dt, [None if t is None else arr(t).astype(ct, copy=False) for t in ts]


def _sigmoid(a, out):
    """1 / (1 + exp(-a)) as the sigmoid kernel computes it, into out.  (Not
    np.negative(a, out=out): numpy 2.4's float32 negative reads a strided (n, 1) column
    into a strided output as if it were contiguous.)"""
    np.exp(-a, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def _chunks(a, n):
    """a's n column blocks, as views (numpy's split costs ~10 us a call)."""
    h = a.shape[1] // n
    return [a[:, k * h:(k + 1) * h] for k in range(n)]


def _lstm_cell(gates, cx):
    dt, (a, c) = _operands(gates, cx)
    work = np.empty((a.shape[0], a.shape[1] // 4 * 5), a.dtype)
    i, f, g, o, tc = _chunks(work, 5)
    ai, af, ag, ao = _chunks(a, 4)
    _sigmoid(ai, i)
    _sigmoid(af, f)
    np.tanh(ag, out=g)
    _sigmoid(ao, o)
    cy = f * c
    cy += i * g
    np.tanh(cy, out=tc)
    return wrap(o * tc, dt), wrap(cy, dt), wrap(work, dt)


def _lstm_cell_backward(grad_hy, grad_cy, cx, workspace):
    dt, (c, w, ghy, gcy) = _operands(cx, workspace, grad_hy, grad_cy)
    i, f, g, o, tc = _chunks(w, 5)
    dc = np.zeros_like(c) if gcy is None else gcy.copy()
    out = np.empty((c.shape[0], 4 * c.shape[1]), c.dtype)
    di, df, dg, do = _chunks(out, 4)
    if ghy is None:
        do[...] = 0
    else:
        np.multiply(ghy, tc, out=do)
        dc += ghy * o * (1 - tc * tc)
    np.multiply(dc * g * i, 1 - i, out=di)
    np.multiply(dc * c * f, 1 - f, out=df)
    np.multiply(dc * i, 1 - g * g, out=dg)
    np.multiply(do * o, 1 - o, out=do)
    return wrap(out, dt), wrap(dc * f, dt)


def _gru_cell(input_gates, hidden_gates, hx):
    dt, (gi, gh, h) = _operands(input_gates, hidden_gates, hx)
    i_r, i_z, i_n = _chunks(gi, 3)
    h_r, h_z, h_n = _chunks(gh, 3)
    work = np.empty((gi.shape[0], gi.shape[1] // 3 * 4), gi.dtype)
    r, z, n, hn = _chunks(work, 4)
    _sigmoid(i_r + h_r, r)
    _sigmoid(i_z + h_z, z)
    np.multiply(r, h_n, out=n)
    n += i_n
    np.tanh(n, out=n)
    hn[...] = h_n
    hy = h - n
    hy *= z
    hy += n
    return wrap(hy, dt), wrap(work, dt)


def _gru_cell_backward(grad, hx, workspace):
    dt, (g, h, w) = _operands(grad, hx, workspace)
    r, z, n, h_n = _chunks(w, 4)
    d_gi = np.empty((g.shape[0], 3 * g.shape[1]), g.dtype)
    dr, dz, dn = _chunks(d_gi, 3)
    np.multiply(g * (1 - z), 1 - n * n, out=dn)
    np.multiply(dn * h_n * r, 1 - r, out=dr)
    np.multiply(g * (h - n) * z, 1 - z, out=dz)
    d_gh = d_gi.copy()
    d_gh[:, 2 * g.shape[1]:] *= r
    return wrap(d_gi, dt), wrap(d_gh, dt), wrap(g * z, dt)


KERNELS = {"_lstm_cell": _lstm_cell, "_lstm_cell_backward": _lstm_cell_backward,
           "_gru_cell": _gru_cell, "_gru_cell_backward": _gru_cell_backward}
