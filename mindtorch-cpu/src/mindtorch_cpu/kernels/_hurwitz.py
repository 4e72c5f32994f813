"""PyTorch's Hurwitz zeta (Cephes' zeta: direct sum until a term is below machine epsilon
of the sum or a > 9, then Euler-Maclaurin), computed in double as its CPU kernel does, all
elements in step: each leaves the loops where PyTorch's scalar code returns."""
import numpy as np

_EPS = 1.11022302462515654042E-16
# Euler-Maclaurin's denominators: (2k)! / B_2k
_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18)


def zeta(x, q):
    """zeta(x, q) elementwise in float64 (NaN for x < 1, inf at x == 1 and at the poles
    q = 0, -1, ..., NaN for q < 0 with a non-integer x)."""
    x, q = (np.asarray(v, np.float64) for v in (x, q))
    shape = np.broadcast_shapes(x.shape, q.shape)
    x, q = (np.broadcast_to(v, shape).reshape(-1) for v in (x, q))
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        pole = (q <= 0) & (q == np.floor(q))
        past_one = ~(x <= 1)  # (NaN included: PyTorch's x < 1 test is false for it)
        out[x == 1] = np.inf
        out[past_one & pole] = np.inf
        todo = past_one & ~pole & ~((q <= 0) & (x != np.floor(x)))
        idx = np.flatnonzero(todo)
        _direct_sum(x[idx], q[idx], idx, out)
    return out.reshape(shape)


def _direct_sum(x, q, idx, out):
    """The terms (q + i)^-x until one is negligible (done) or a > 9 after 9 of them
    (then Euler-Maclaurin)."""
    s, a, b = np.power(q, -x), q.copy(), np.zeros_like(q)
    i = 0
    while idx.size:
        i += 1
        a += 1.0
        b = np.power(a, -x)
        s += b
        done = (-_EPS * s < b) & (b < _EPS * s)
        out[idx[done]] = s[done]
        go_on = ~done & ((i < 9) | (a <= 9.0))
        tail = ~done & ~go_on
        if tail.any():
            _euler_maclaurin(x[tail], s[tail], a[tail], b[tail], idx[tail], out)
        x, s, a, b, idx = x[go_on], s[go_on], a[go_on], b[go_on], idx[go_on]


def _euler_maclaurin(x, s, w, b, idx, out):
    s = s + b * w / (x - 1.0)
    s -= 0.5 * b
    a, k = np.ones_like(x), 0.0
    for coefficient in _A:
        a *= x + k
        b = b / w
        t = a * b / coefficient
        s = s + t
        done = np.abs(t / s) < _EPS
        out[idx[done]] = s[done]
        keep = ~done
        x, s, w, b, a, idx = x[keep], s[keep], w[keep], b[keep], a[keep], idx[keep]
        k += 1.0
        a *= x + k
        b = b / w
        k += 1.0
    out[idx] = s
