"""numba loops for the Gamma sampler over many elements (through _jit.compiled): the
arithmetic of _rejection.gamma, element by element (double, with float32 steps for float32
tensors; the C library's functions; no fastmath), on the 32-bit draws of a look-ahead
buffer.

A loop stops before an element whose draws would run past the buffer and reports how far
it got (elements done, draws used, the cached normal at that point), so the caller can
consume exactly those draws and continue with a fresh buffer."""
import math

import numpy as np
from numba import njit

_JIT = {"cache": True, "nogil": True}
f32 = np.float32
_MASK53 = (1 << 53) - 1
_SCALE53 = 2.0 ** -53
_TWO_PI = 2 * math.pi
_THIRD_F = f32(1) / f32(3)
_SQUEEZE_F = float(f32(0.0331))


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
def gamma(alphas, out, start, words, single, cache):
    """Samples for alphas[start:] into out until the draws run out: (next element,
    draws used); cache (the normal [value, valid]) is left as after that element."""
    state = np.zeros(2, np.int64)
    for i in range(start, alphas.size):
        done, kept_value, kept_valid = state[0], cache[0], cache[1]
        value = _gamma_one(alphas[i], single, words, state, cache)
        if state[1]:
            cache[0], cache[1] = kept_value, kept_valid
            return i, done
        out[i] = value
    return alphas.size, state[0]
