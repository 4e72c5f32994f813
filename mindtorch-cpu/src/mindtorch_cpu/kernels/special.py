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
    with np.errstate(all="ignore"):
        return wrap(np.log(a / (1 - a)), out)


def _polygamma(n, self):
    S.check("polygamma", n, self)
    out = OPS["polygamma"].result_dtype(self)
    a = arr(self).astype(np.float32 if out.itemsize == 2 else out.np)
    from scipy import special
    with np.errstate(all="ignore"):
        r = special.psi(a) if n == 0 else special.polygamma(n, a)
    return wrap(np.asarray(r).astype(a.dtype), out)


UNARY = {
    "erfc": _special("erfc"), "erfinv": _special("erfinv"), "lgamma": _lgamma,
    "digamma": _special("psi"), "i0": _special("i0"), "sinc": np.sinc, "angle": _angle,
    "special_erfcx": _special("erfcx"), "special_i0e": _special("i0e"),
    "special_i1": _special("i1"), "special_i1e": _special("i1e"),
    "special_ndtri": _special("ndtri"), "special_log_ndtr": _special("log_ndtr"),
    "special_entr": _special("entr"),
}
BINARY = {
    "xlogy": _special("xlogy"), "special_xlog1py": _special("xlog1py"),
    "special_zeta": _zeta, "hypot": np.hypot, "copysign": np.copysign,
    "logaddexp": _logaddexp, "logaddexp2": np.logaddexp2, "heaviside": _heaviside,
    "nextafter": np.nextafter, "gcd": np.gcd, "lcm": _lcm,
}

KERNELS = {name: unary(fn, name) for name, fn in UNARY.items()}
KERNELS.update({name: checked_binary(fn, name) for name, fn in BINARY.items()})
KERNELS.update({"logit": _logit, "polygamma": _polygamma})
