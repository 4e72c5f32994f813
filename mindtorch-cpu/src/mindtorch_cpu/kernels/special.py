"""Special function kernels (SciPy's, imported on first use) and the remaining pointwise
math, computed in float32 for float16/bfloat16 results as PyTorch does."""
import numpy as np
from mindtorch import _dtype as D
from mindtorch._ops import OPS
from mindtorch._ops.decls import special as S

from .._np import arr, wrap
from .pointwise import _special, binary

_HALVES = (np.dtype(np.float16), np.dtype(D.bfloat16.np))


def _f32(fn):
    """fn on 16-bit floats widened to float32 (SciPy and some numpy loops lack them)."""
    def call(*xs):
        return fn(*(x.astype(np.float32) if getattr(x, "dtype", None) in _HALVES else x
                    for x in xs))
    return call


def unary(fn, name):
    op = OPS[name]

    def kernel(self):
        S.check(name, self)
        out = op.result_dtype(self) if name != "angle" else S.angle_dtype(self.dtype)
        a = arr(self)
        compute = np.float32 if out.itemsize == 2 and out.kind == "f" else out.np
        if a.dtype != compute and a.dtype.kind != "c":  # (angle: complex in, real out)
            a = a.astype(compute)
        with np.errstate(all="ignore"):
            return wrap(fn(a), out)
    kernel.__name__ = name
    return kernel


def checked_binary(fn, name):
    plain = binary(_f32(fn), name)

    def kernel(self, other):
        S.check(name, self, other)
        return plain(self, other)
    kernel.__name__ = name
    return kernel


def _lgamma(a):
    return np.where(a == -np.inf, np.inf, _special("gammaln")(a))  # PyTorch: +inf there


def _angle(a):
    if a.dtype.kind == "c":
        return np.angle(a)
    return np.where(np.isnan(a), a, np.where(a < 0, np.pi, 0).astype(a.dtype))


def _logaddexp(a, b):
    if np.iscomplexobj(a) or np.iscomplexobj(b):
        a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
        hi = np.where(a.real >= b.real, a, b)
        lo = np.where(a.real >= b.real, b, a)
        return hi + np.log1p(np.exp(lo - hi))
    return np.logaddexp(a, b)


def _heaviside(a, b):
    # PyTorch: values where x == 0, else x > 0 (NaN gives 0)
    return np.where(a == 0, b, a > 0).astype(np.result_type(a, b))


def _igamma(upper):
    """PyTorch's regularized incomplete gamma functions, edge cases in its order."""
    def fn(a, x):
        a, x = np.broadcast_arrays(a, x)
        r = _special("gammaincc" if upper else "gammainc")(a, x)
        lo, hi = (1, 0) if upper else (0, 1)  # (its values at x = 0 and x = inf)
        conds = [(x < 0) | (a < 0), a == 0, x == 0, np.isinf(a), np.isinf(x)]
        vals = [np.nan, np.where(x > 0, hi, np.nan), lo, np.where(np.isinf(x), np.nan, lo), hi]
        return np.select(conds, vals, r).astype(r.dtype)
    return fn


def _zeta(x, q):
    # PyTorch: nan for q = +inf, unless x == 1 (SciPy: 0)
    return np.where(np.isposinf(q) & (x != 1), np.nan, _special("zeta")(x, q))


def _lcm(a, b):
    # PyTorch's |a / gcd * b| (what overflows, overflows as in PyTorch)
    g = np.gcd(a, b)
    return np.abs(np.where(g == 0, 0, a // np.where(g == 0, 1, g) * b)).astype(g.dtype)


def _logit(self, eps=None):
    S.check("logit", self)
    out = OPS["logit"].result_dtype(self)
    a = arr(self).astype(np.float32 if out.itemsize == 2 else out.np)
    if eps is not None and eps >= 0:
        a = np.clip(a, eps, 1 - eps)
    # 16-bit floats: every step rounded to the dtype, as PyTorch's kernel computes them
    r = (lambda v: v.astype(out.np).astype(np.float32)) if out.itemsize == 2 else \
        (lambda v: v)
    with np.errstate(all="ignore"):
        a = r(a)
        return wrap(np.log(r(a / r(1 - a))), out)


def _polygamma(n, self):
    S.check("polygamma", n, self)
    out = OPS["polygamma"].result_dtype(self)
    a = arr(self).astype(np.float32 if out.itemsize == 2 else out.np)
    from scipy import special
    with np.errstate(all="ignore"):
        r = special.psi(a) if n == 0 else _trigamma(a) if n == 1 else special.polygamma(n, a)
        return wrap(np.asarray(r).astype(a.dtype), out)


def _trigamma(x):
    """PyTorch's calc_trigamma (reflection below 0.5, six recurrence steps, asymptotic
    series), in x's dtype: at the poles (non-positive integers) sin(pi x) does not round to
    0, so PyTorch's values there are large finite numbers, not inf."""
    t = x.dtype.type
    pi = t(np.pi)
    neg = x < t(0.5)
    with np.errstate(all="ignore"):
        s = np.sin(pi * x)
        result = np.where(neg, -(pi * pi) / (s * s), t(0)).astype(x.dtype)
        x = np.where(neg, t(1) - x, x)
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        result = result + (t(1) + t(1) / (t(2) * x) + ixx * (
            t(1 / 6) - ixx * (t(1 / 30) - ixx * t(1 / 42)))) / x
        return np.where(neg, -result, result)


def _airy_ai(a):
    return _special("airy")(a)[0]


def _spherical_j0(a):
    from scipy import special
    return special.spherical_jn(0, a)


# -- torch.special's orthogonal polynomials: PyTorch's special cases, then the recurrence --

def _recurrence(x, n, p0, p1, step, out=None):
    """P_n(x) per element, from P_0, P_1 and P_(k+1) = step(k, x, P_k, P_(k-1)), where out
    (a closed form, or nan) does not already give it; 0 for n < 0."""
    x, n = np.broadcast_arrays(x, n)
    result = np.where(n == 0, p0, p1).astype(x.dtype) if out is None else out
    todo = (n >= 2) & (np.isnan(result) if out is not None else True)
    if todo.any():
        prev, cur = np.broadcast_to(p0, x.shape).astype(x.dtype), np.broadcast_to(p1, x.shape)
        for k in range(1, int(n[todo].max())):
            prev, cur = cur, step(k, x, cur, prev)
            result = np.where(todo & (n == k + 1), cur, result)
    if out is not None:
        result = np.where((n == 0), p0, np.where(n == 1, np.broadcast_to(p1, x.shape), result))
    return np.where(n < 0, 0, result)


def _chebyshev(kind):
    first = {"t": lambda x: x, "u": lambda x: 2 * x, "v": lambda x: 2 * x - 1,
             "w": lambda x: 2 * x + 1}[kind]

    def poly(x, n):
        x, n = np.broadcast_arrays(x, n)
        even, t = n % 2 == 0, np.arccos(np.clip(x, -1, 1))
        n_ = n
        n = n.astype(x.dtype)  # (in the arithmetic below: x's precision, as PyTorch)
        # |x| == 1, and PyTorch's closed forms inside (-1, 1) for large n
        with np.errstate(all="ignore"):
            if kind == "t":
                edge = np.where((x > 0) | even, 1.0, -1.0)
                inner = np.cos(n * t)
                big = n > 6
            elif kind == "u":
                edge = np.where((x > 0) | even, n + 1.0, -(n + 1.0))
                inner = np.where(np.sin(t) != 0, np.sin((n + 1) * t) / np.sin(t),
                                 (n + 1) * np.cos((n + 1) * t) / x)
                big = n > 8
            elif kind == "v":
                odd_edge = np.where(even, 2 * n + 1.0, -(2 * n + 1.0))
                edge = np.where(x > 0, 1.0, odd_edge)
                inner = np.where(np.sin(t / 2) != 1, np.cos((n + 0.5) * t) / np.cos(t / 2),
                                 odd_edge)
                big = n > 8
            else:
                edge = np.where(x > 0, 2 * n + 1.0, np.where(even, 1.0, -1.0))
                inner = np.where(np.cos(t / 2) != 1, np.sin((n + 0.5) * t) / np.sin(t / 2),
                                 edge)
                big = n > 8
        out = np.where(np.abs(x) == 1, edge, np.where(big & (np.abs(x) < 1), inner, np.nan))
        return _recurrence(x, n_, 1.0, first(x), lambda k, x, c, p: 2 * x * c - p,
                           out.astype(x.dtype))
    return poly


def _shifted(poly):
    return lambda x, n: poly(2 * x - 1, n)


def _legendre(x, n):
    x, n = np.broadcast_arrays(x, n)
    edge = np.where((x > 0) | (n == 0) | (n % 2 == 0), 1.0, -1.0)
    out = np.where(np.abs(x) == 1, edge, np.nan)
    return _recurrence(x, n, 1.0, x,
                       lambda k, x, c, p: ((2 * k + 1) * x * c - k * p) / (k + 1), out)


def _laguerre(x, n):
    x, n = np.broadcast_arrays(x, n)
    out = np.where(x == 0, 1.0, np.nan)
    return _recurrence(x, n, 1.0, 1 - x,
                       lambda k, x, c, p: ((2 * k + 1 - x) * c - k * p) / (k + 1), out)


_POLYNOMIALS = {
    **{f"chebyshev_polynomial_{k}": _chebyshev(k) for k in "tuvw"},
    **{f"shifted_chebyshev_polynomial_{k}": _shifted(_chebyshev(k)) for k in "tuvw"},
    "hermite_polynomial_h": lambda x, n: _recurrence(
        x, n, 1.0, 2 * x, lambda k, x, c, p: 2 * x * c - 2 * k * p),
    "hermite_polynomial_he": lambda x, n: _recurrence(
        x, n, 1.0, x, lambda k, x, c, p: x * c - k * p),
    "laguerre_polynomial_l": _laguerre, "legendre_polynomial_p": _legendre,
}


def _polynomial(fn):
    """fn(x, n) in x's dtype (n truncated to an integer, as PyTorch converts it)."""
    def call(x, n):
        x, n = np.asarray(x), np.asarray(n)
        if x.dtype.kind != "f":  # a Python number x: n's floating dtype
            x = x.astype(n.dtype if n.dtype.kind == "f" else np.float32)
        with np.errstate(all="ignore"):
            n = np.asarray(n, dtype=np.float64)
            n = np.where(np.isfinite(n), n, -1).astype(np.int64)
            return fn(x, n).astype(x.dtype)
    return call


UNARY = {
    "erfc": _special("erfc"), "erfinv": _special("erfinv"), "lgamma": _lgamma,
    "digamma": _special("psi"), "i0": _special("i0"), "sinc": np.sinc, "angle": _angle,
    "special_erfcx": _special("erfcx"), "special_i0e": _special("i0e"),
    "special_i1": _special("i1"), "special_i1e": _special("i1e"),
    "special_ndtri": _special("ndtri"), "special_log_ndtr": _special("log_ndtr"),
    "special_entr": _special("entr"),
    "special_airy_ai": _airy_ai, "special_bessel_j0": _special("j0"),
    "special_bessel_j1": _special("j1"), "special_bessel_y0": _special("y0"),
    "special_bessel_y1": _special("y1"), "special_modified_bessel_i0": _special("i0"),
    "special_modified_bessel_i1": _special("i1"), "special_modified_bessel_k0": _special("k0"),
    "special_modified_bessel_k1": _special("k1"),
    "special_scaled_modified_bessel_k0": _special("k0e"),
    "special_scaled_modified_bessel_k1": _special("k1e"),
    "special_spherical_bessel_j0": _spherical_j0,
}
BINARY = {
    "xlogy": _special("xlogy"), "special_xlog1py": _special("xlog1py"),
    "special_zeta": _zeta, "hypot": np.hypot, "copysign": np.copysign,
    "logaddexp": _logaddexp, "logaddexp2": np.logaddexp2, "heaviside": _heaviside,
    "nextafter": np.nextafter, "gcd": np.gcd, "lcm": _lcm,
    "igamma": _igamma(False), "igammac": _igamma(True),
    **{f"special_{name}": _polynomial(fn) for name, fn in _POLYNOMIALS.items()},
}

KERNELS = {name: unary(fn, name) for name, fn in UNARY.items()}
KERNELS.update({name: checked_binary(fn, name) for name, fn in BINARY.items()})
KERNELS.update({"logit": _logit, "polygamma": _polygamma})
