"""Fused LSTM / GRU cells (mindtorch/_ops/decls/rnn.py): one step's pointwise math in
NumPy with the order of operations of the ops they replace, so results equal the op-by-op
ones: 16-bit floats compute in float32 and round after each step (`r` below), as each of
PyTorch's ops does.  The forward kernels keep the activations in the workspace they
return: the backward kernels then need no exp or tanh, which cost most of a step."""
import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._ops.dispatch import _decomposition

from .._np import arr, wrap

_HALVES = (D.float16, D.bfloat16)
_FLOATS = _HALVES + (D.float32, D.float64)


def _operands(*ts):
    """(dtype, rounding, arrays of ts (None stays None) in the compute dtype): rounding(x)
    rounds x to the dtype (in place) for 16-bit floats, else is x."""
    dt = next(t.dtype for t in ts if t is not None)
    if dt in _HALVES:
        ct = np.float32

        def rounding(x):
            x[...] = x.astype(dt.np)
            return x
    else:
        ct, rounding = dt.np, _same
    return dt, rounding, [None if t is None else arr(t).astype(ct, copy=False) for t in ts]


def _same(x):
    return x


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


def _general(name, widths, state):
    """Kernel decorator: the fused loop for 2-d arguments (B, widths[k] * H) of one
    floating dtype, H the width of argument `state` (the modules' case); else the op's
    decomposition (broadcasting, promotion, PyTorch's errors)."""
    def wrap_kernel(fast):
        op = OPS[name]

        def kernel(*args):
            b, h = args[state]._shape if len(args[state]._shape) == 2 else (None, None)
            dt = args[state].dtype
            if b is not None and dt in _FLOATS and all(
                    a is None or a._shape == (b, k * h) and a.dtype is dt
                    for a, k in zip(args, widths)):
                return fast(*args)
            return _decomposition(op)(*args)
        kernel.__name__ = name
        return kernel
    return wrap_kernel


@_general("_lstm_cell", (4, 1), state=1)
def _lstm_cell(gates, cx):
    dt, r, (a, c) = _operands(gates, cx)
    work = np.empty((a.shape[0], a.shape[1] // 4 * 5), a.dtype)
    i, f, g, o, tc = _chunks(work, 5)
    # the sigmoids over all the gates at once (one call on contiguous data is ~25%
    # cheaper than three on column blocks, even counting the cell gate's wasted part)
    s_i, s_f, _, s_o = _chunks(_sigmoid(a, np.empty_like(a)), 4)
    i[...], f[...], o[...] = s_i, s_f, s_o
    np.tanh(_chunks(a, 4)[2], out=g)
    r(work)
    cy = r(f * c)
    cy += r(i * g)
    r(cy)
    r(np.tanh(cy, out=tc))
    return wrap(o * tc, dt), wrap(cy, dt), wrap(work, dt)


@_general("_lstm_cell_backward", (1, 1, 1, 5), state=2)
def _lstm_cell_backward(grad_hy, grad_cy, cx, workspace):
    dt, r, (c, w, ghy, gcy) = _operands(cx, workspace, grad_hy, grad_cy)
    i, f, g, o, tc = _chunks(w, 5)
    dc = np.zeros_like(c) if gcy is None else gcy.copy()
    out = np.empty((c.shape[0], 4 * c.shape[1]), c.dtype)
    di, df, dg, do = _chunks(out, 4)
    if ghy is None:
        do[...] = 0
    else:
        r(np.multiply(ghy, tc, out=do))
        dc += r(r(ghy * o) * r(1 - r(tc * tc)))
        r(dc)
    np.multiply(r(r(dc * g) * i), r(1 - i), out=di)
    np.multiply(r(r(dc * c) * f), r(1 - f), out=df)
    np.multiply(r(dc * i), r(1 - r(g * g)), out=dg)
    np.multiply(r(do * o), r(1 - o), out=do)
    return wrap(out, dt), wrap(dc * f, dt)


@_general("_gru_cell", (3, 3, 1), state=2)
def _gru_cell(input_gates, hidden_gates, hx):
    dt, r, (gi, gh, h) = _operands(input_gates, hidden_gates, hx)
    i_r, i_z, i_n = _chunks(gi, 3)
    h_r, h_z, h_n = _chunks(gh, 3)
    work = np.empty((gi.shape[0], gi.shape[1] // 3 * 4), gi.dtype)
    rg, z, n, hn = _chunks(work, 4)
    r(_sigmoid(r(i_r + h_r), rg))
    r(_sigmoid(r(i_z + h_z), z))
    r(np.multiply(rg, h_n, out=n))
    n += i_n
    r(np.tanh(r(n), out=n))
    hn[...] = h_n
    hy = r(h - n)
    hy *= z
    r(hy)
    hy += n
    return wrap(hy, dt), wrap(work, dt)


@_general("_gru_cell_backward", (1, 1, 4), state=1)
def _gru_cell_backward(grad, hx, workspace):
    dt, r, (g, h, w) = _operands(grad, hx, workspace)
    rg, z, n, h_n = _chunks(w, 4)
    d_gi = np.empty((g.shape[0], 3 * g.shape[1]), g.dtype)
    dr, dz, dn = _chunks(d_gi, 3)
    np.multiply(r(g * r(1 - z)), r(1 - r(n * n)), out=dn)
    r(dn)
    np.multiply(r(r(dn * h_n) * rg), r(1 - rg), out=dr)
    np.multiply(r(r(g * r(h - n)) * z), r(1 - z), out=dz)
    d_gh = r(d_gi.copy())
    d_gh[:, 2 * g.shape[1]:] *= rg
    return wrap(d_gi, dt), wrap(d_gh, dt), wrap(g * z, dt)


KERNELS = {"_lstm_cell": _lstm_cell, "_lstm_cell_backward": _lstm_cell_backward,
           "_gru_cell": _gru_cell, "_gru_cell_backward": _gru_cell_backward}
