"""PyTorch's element-by-element rejection samplers (Poisson, Gamma, Binomial), drawing
from the generator in the same order and computing in the same precisions, so a seed
gives PyTorch's values.

PyTorch's CPU kernels for these live outside its vectorised (FMA-contracted) sources:
plain double arithmetic with the C library's functions (Python's math module), with the
parameter itself kept in the tensor's dtype where PyTorch keeps it (float32 steps are
rounded through numpy.float32).  C semantics (NaN / inf instead of exceptions) come from
the small guards below.
"""
import functools
import math

import numpy as np

from . import _libm

_MASK53 = (1 << 53) - 1
_TWO63 = 1 << 63
_TWO_PI = 2 * math.pi
f32 = np.float32
_THIRD_F = float(f32(1) / f32(3))  # PyTorch writes 1.0f / 3.0f
_SQUEEZE_F = float(f32(0.0331))
# log-factorial Stirling remainders for k = 0..9 (then a series)
_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


# -- C semantics for math functions -----------------------------------------------------

def _log(x):
    return math.log(x) if x > 0 else -math.inf if x == 0 else math.nan


def _sqrt(x):
    return math.sqrt(x) if x >= 0 else math.nan


def _div(a, b):
    if b:
        return a / b
    if math.isnan(a) or a == 0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _pow(x, y):
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):  # (0 ** negative, negative ** fraction)
        return math.inf if x == 0 else math.nan


def _floor(x):
    return math.floor(x) if math.isfinite(x) else x


def _int64(x):
    """C's (int64_t)x on x86: NaN and values out of range give INT64_MIN."""
    return int(x) if -_TWO63 <= x < _TWO63 else -_TWO63


def _ceil(x):
    return math.ceil(x) if math.isfinite(x) else x


# -- the generator's scalar draws --------------------------------------------------------

_CHUNK = 1 << 16  # draws looked ahead at most at once (a list of Python ints)


class Stream:
    """The engine's draws taken one at a time, as PyTorch's scalar samplers take them,
    from a look-ahead buffer (one NumPy call for many draws); close() consumes from the
    engine exactly the draws used and leaves it the cached normal."""

    def __init__(self, engine, expected=64):
        self.engine = engine
        self.words = engine.lookahead(min(max(expected, 64), _CHUNK)).tolist()
        self.used = 0
        self.cached = engine.normal

    def close(self):
        self.engine.skip(self.used)
        self.engine.normal = self.cached

    def uniform(self):
        """uniform_real_distribution<double>(0, 1): 53 bits of a 64-bit draw."""
        i = self.used
        if i + 2 > len(self.words):
            self.engine.skip(i)
            self.words, i = self.engine.lookahead(_CHUNK).tolist(), 0
        self.used = i + 2
        return ((self.words[i] << 32 | self.words[i + 1]) & _MASK53) * 2.0 ** -53

    def normal(self):
        """normal_distribution<double>(0, 1): the cached value, else a Box-Muller pair
        whose second value is cached."""
        if self.cached is not None:
            v, self.cached = self.cached, None
            return v
        u1, u2 = self.uniform(), self.uniform()
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = _TWO_PI * u1
        self.cached = radius * math.sin(theta)
        return radius * math.cos(theta)


# -- samplers ----------------------------------------------------------------------------

def poisson(s, lam):
    """sample_poisson: transformed rejection (Hoermann) from rate 10, else the product of
    uniforms."""
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = s.uniform() - 0.5
            v = s.uniform()
            us = 0.5 - abs(u)
            if us == 0:  # (a uniform of exactly 0: C computes k = -inf and rejects it)
                continue
            # (PyTorch's compiled test and bound use the floor itself; the int64 it
            # returns is INT64_MIN past the int64 range)
            k = _floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return _int64(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (_log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1.0)):
                return _int64(k)
    if lam == 0:
        return 0
    x, prod, limit = 0, 1.0, math.exp(-lam)
    while True:
        prod *= s.uniform()
        if prod <= limit:
            return x
        x += 1


def gamma(s, alpha, single):
    """sample_gamma: Marsaglia and Tsang's method, alpha < 1 boosted to alpha + 1 and the
    result scaled by U ** (1 / alpha).  `single`: alpha is a float32 (its boost and d are
    float32 arithmetic); the draws and the rest are double.  Returns a double."""
    scale = 1.0
    if alpha < 1:
        if alpha == 0:
            return 0.0
        inv = float(f32(1) / f32(alpha)) if single else _div(1.0, alpha)
        scale *= _pow(1 - s.uniform(), inv)
        alpha = float(f32(alpha) + f32(1)) if single else alpha + 1.0
    d = float(f32(alpha) - f32(_THIRD_F)) if single else alpha - _THIRD_F
    c = _div(1.0, _sqrt(9.0 * d))
    while True:
        while True:
            x = s.normal()
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1 - s.uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE_F * xx * xx or _log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


def _stirling_tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


class _Single:
    """float32 arithmetic for the count / prob steps PyTorch does in the tensor's dtype:
    t makes a float32, calling rounds to one."""
    t = f32

    def __call__(self, x):
        return float(f32(x))


class _Double:
    t = float

    def __call__(self, x):
        return x


_SINGLE, _DOUBLE = _Single(), _Double()


def _inversion(s, count, prob, rnd):
    """Geometric waiting times until they pass count."""
    logprob = rnd(float(_libm.call("log1p", rnd.t(-prob))))
    total, hits = 0.0, 0
    while True:
        u = s.uniform()
        if u > 0 and logprob < 0:
            total += math.ceil(math.log(u) / logprob)
        else:
            total += _ceil(_div(_log(u), logprob))
        if total > count:
            return float(hits)
        hits += 1


@functools.lru_cache(maxsize=1024)  # (samples of one distribution share parameters)
def _btrs_constants(count, prob, rnd):
    t = rnd.t
    stddev = rnd(np.sqrt(t(t(t(count) * t(prob)) * t(1 - t(prob)))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = rnd(t(count) * t(prob)) + 0.5
    v_r = 0.92 - 4.2 / b
    r = rnd(t(prob) / t(1 - t(prob)))
    alpha = (2.83 + 5.1 / b) * stddev
    m = _floor(rnd(t(count + 1) * t(prob)))
    return a, b, c, v_r, r, alpha, m


def _btrs(s, count, prob, rnd):
    """Hoermann's transformed rejection with squeeze (BTRS), as PyTorch writes it."""
    a, b, c, v_r, r, alpha, m = _btrs_constants(count, prob, rnd)
    while True:
        u = s.uniform() - 0.5
        v = s.uniform()
        us = 0.5 - abs(u)
        if us == 0:  # (a uniform of exactly 0: C computes k = -inf and rejects it)
            continue
        k = rnd(_floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = _log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1)))
                 + rnd(count + 1) * _log((count - m + 1) / rnd(rnd(count - k) + 1))
                 + (k + 0.5) * _log(r * rnd(rnd(count - k) + 1) / rnd(k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(rnd(count - k)))
        if v <= bound:
            return k


def binomial(s, count, prob, single):
    """sample_binomial: inversion when count * min(p, 1 - p) < 10, else BTRS; p > 1/2
    counts the failures."""
    rnd = _SINGLE if single else _DOUBLE
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return count
    if prob <= 0.5:
        draw = _btrs if rnd(rnd.t(count) * rnd.t(prob)) >= 10 else _inversion
        return draw(s, count, prob, rnd)
    if prob > 0.5:
        q = rnd(1.0 - prob)
        draw = _btrs if rnd(rnd.t(count) * rnd.t(q)) >= 10 else _inversion
        return rnd(count - draw(s, count, q, rnd))
    return math.nan
