"""numba loops for the Gamma, Binomial and Poisson samplers over many elements (through
_jit.compiled): the arithmetic of _rejection's samplers, element by element (double, with
float32 steps for float32 tensors; the C library's functions; no fastmath), on the 32-bit
draws of a look-ahead buffer.

A loop stops before an element whose draws would run past the buffer and reports how far
it got (elements done, draws used, the cached normal at that point), so the caller can
consume exactly those draws and continue with a fresh buffer."""
import math

import numpy as np
from numba import njit

_JIT = {"cache": True, "nogil": True, "error_model": "numpy"}  # (x / 0 as in C)
f32 = np.float32
_MASK53 = (1 << 53) - 1
_SCALE53 = 2.0 ** -53
_TWO_PI = 2 * math.pi
_THIRD_F = f32(1) / f32(3)
_SQUEEZE_F = float(f32(0.0331))
_TAIL = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287])


@njit(**_JIT)
def _uniform(words, state):
    """The next double uniform; state = [position, exhausted flag]."""
    p = state[0]
    if p + 2 > words.size:
        state[1] = 1
        return 0.0
    state[0] = p + 2
    return float(((words[p] << np.uint64(32)) | words[p + 1]) & np.uint64(_MASK53)) * _SCALE53


@njit(**_JIT)
def _normal(words, state, cache):
    """The cached normal (cache = [value, valid]), else a Box-Muller pair."""
    if cache[1] != 0:
        cache[1] = 0
        return cache[0]
    u1 = _uniform(words, state)
    u2 = _uniform(words, state)
    if state[1]:
        return 0.0
    radius = math.sqrt(-2.0 * math.log1p(-u2))
    theta = _TWO_PI * u1
    cache[0] = radius * math.sin(theta)
    cache[1] = 1
    return radius * math.cos(theta)


@njit(**_JIT)
def _log(x):
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


@njit(**_JIT)
def _gamma_one(alpha, single, words, state, cache):
    scale = 1.0
    if alpha < 1:
        if alpha == 0:
            return 0.0
        if single:
            inv = float(f32(1) / f32(alpha))
        else:
            inv = 1.0 / alpha if alpha != 0 else math.inf
        u = _uniform(words, state)
        if state[1]:
            return 0.0
        scale *= math.pow(1 - u, inv)
        alpha = float(f32(alpha) + f32(1)) if single else alpha + 1.0
    d = float(f32(alpha) - _THIRD_F) if single else alpha - float(_THIRD_F)
    root = math.sqrt(9.0 * d) if 9.0 * d >= 0 else math.nan
    c = 1.0 / root if root != 0 else math.inf
    while True:
        while True:
            x = _normal(words, state, cache)
            if state[1]:
                return 0.0
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1 - _uniform(words, state)
        if state[1]:
            return 0.0
        xx = x * x
        if u < 1.0 - _SQUEEZE_F * xx * xx or _log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


@njit(**_JIT)
def gamma(start, words, alphas, out, single, cache):
    """Samples for alphas[start:] into out until the draws (words) run out: (next
    element, draws used); cache (the normal [value, valid]) is left as after that one."""
    state = np.zeros(2, np.int64)
    for i in range(start, alphas.size):
        done, kept_value, kept_valid = state[0], cache[0], cache[1]
        value = _gamma_one(alphas[i], single, words, state, cache)
        if state[1]:
            cache[0], cache[1] = kept_value, kept_valid
            return i, done
        out[i] = value
    return alphas.size, state[0]


@njit(**_JIT)
def _int64(x):
    """C's (int64_t)x on x86: NaN and values out of range give INT64_MIN."""
    if -9.223372036854775808e18 <= x < 9.223372036854775808e18:
        return np.int64(x)
    return np.int64(-9223372036854775807 - 1)


@njit(**_JIT)
def _poisson_one(lam, words, state):
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _uniform(words, state) - 0.5
            v = _uniform(words, state)
            if state[1]:
                return 0.0
            us = 0.5 - abs(u)
            if us == 0:
                continue
            k = np.floor((2 * a / us + b) * u + lam + 0.43)  # (a double: see _rejection)
            if us >= 0.07 and v <= vr:
                return _int64(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (_log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1.0)):
                return _int64(k)
    if lam == 0:
        return 0.0
    x, prod, limit = 0.0, 1.0, math.exp(-lam)
    while True:
        prod *= _uniform(words, state)
        if state[1]:
            return 0.0
        if prod <= limit:
            return x
        x += 1


@njit(**_JIT)
def _r(x, single):
    """x rounded to the tensor's dtype (float32 or double)."""
    return float(f32(x)) if single else x


@njit(**_JIT)
def _floor(x):
    """C's floor: a double (math.floor's int64 overflows past 2**63: counts of 1e30)."""
    return np.floor(x)


@njit(**_JIT)
def _stirling_tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


@njit(**_JIT)
def _inversion(count, prob, single, words, state):
    logprob = float(np.log1p(f32(-prob))) if single else math.log1p(-prob)
    total, hits = 0.0, 0.0
    while True:
        u = _uniform(words, state)
        if state[1]:
            return 0.0
        q = _log(u) / logprob if logprob != 0 else (math.nan if u == 1 else math.inf)
        total += np.ceil(q)
        if total > count:
            return hits
        hits += 1


@njit(**_JIT)
def _btrs(count, prob, single, words, state):
    if single:
        cf, pf = f32(count), f32(prob)
        stddev = float(np.sqrt(f32(f32(cf * pf) * f32(f32(1) - pf))))
        c = float(f32(cf * pf)) + 0.5
        r = float(f32(pf / f32(f32(1) - pf)))
        m = _floor(float(f32(f32(count + 1) * pf)))
    else:
        stddev = math.sqrt(count * prob * (1 - prob))
        c = count * prob + 0.5
        r = prob / (1 - prob)
        m = _floor((count + 1) * prob)
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * stddev
    while True:
        u = _uniform(words, state) - 0.5
        v = _uniform(words, state)
        if state[1]:
            return 0.0
        us = 0.5 - abs(u)
        if us == 0:
            continue
        k = _r(_floor((2 * a / us + b) * u + c), single)
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = _log(v * alpha / (a / (us * us) + b))
        rest = _r(_r(count - k, single) + 1, single)
        bound = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1)))
                 + _r(count + 1, single) * _log((count - m + 1) / rest)
                 + (k + 0.5) * _log(r * rest / _r(k + 1, single))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(_r(count - k, single)))
        if v <= bound:
            return k


@njit(**_JIT)
def _binomial_one(count, prob, single, words, state):
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return count
    if prob <= 0.5:
        if _r(count * prob, single) >= 10:
            return _btrs(count, prob, single, words, state)
        return _inversion(count, prob, single, words, state)
    if prob > 0.5:
        q = _r(1.0 - prob, single)
        if _r(count * q, single) >= 10:
            return _r(count - _btrs(count, q, single, words, state), single)
        return _r(count - _inversion(count, q, single, words, state), single)
    return math.nan


@njit(**_JIT)
def binomial(start, words, counts, probs, out, single):
    """As gamma, for binomial(counts, probs)."""
    state = np.zeros(2, np.int64)
    for i in range(start, counts.size):
        done = state[0]
        value = _binomial_one(counts[i], probs[i], single, words, state)
        if state[1]:
            return i, done
        out[i] = value
    return counts.size, state[0]


@njit(**_JIT)
def poisson(start, words, rates, out):
    """As gamma, for poisson(rates)."""
    state = np.zeros(2, np.int64)
    for i in range(start, rates.size):
        done = state[0]
        value = _poisson_one(rates[i], words, state)
        if state[1]:
            return i, done
        out[i] = value
    return rates.size, state[0]
