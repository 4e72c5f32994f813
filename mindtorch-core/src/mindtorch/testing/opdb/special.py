"""Samples of the special functions and the remaining pointwise math (decls/special.py)."""
import mindtorch
from mindtorch._ops.decls import special as S

from ._make import t

_f32, _f64, _i64 = mindtorch.float32, mindtorch.float64, mindtorch.int64


def _unary(*extra):
    """Float32, transposed float64, 0-dim, empty, integer and float16 inputs."""
    cases = [((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False),
             ((0, 3), _f32, False), ((5,), _i64, False), ((4,), mindtorch.float16, False)]
    return [lambda d, c=c: ((t(d, c[0], c[1], c[2]),) + extra, {}) for c in cases]


def _binary(ints=False):
    dt = mindtorch.int32 if ints else _f32
    return [lambda d: ((t(d, (3, 1), dt), t(d, (1, 4), dt)), {}),
            lambda d: ((t(d, (3, 2), _i64 if ints else _f64, True),
                        t(d, (2,), _i64 if ints else _f64)), {}),
            lambda d: ((t(d, (0, 3), dt), t(d, (3,), dt)), {}),
            lambda d: ((t(d, (), dt), t(d, (), dt)), {})]


SAMPLES = {name: _unary() for name in (
    "erfc", "erfinv", "lgamma", "digamma", "i0", "sinc", "angle", "asinh", "acosh", "atanh",
    "special_erfcx", "special_i0e", "special_i1", "special_i1e", "special_ndtri",
    "special_log_ndtr", "special_entr", "special_ndtr", "special_expit", "special_psi")}
SAMPLES.update({name: _binary() for name in (
    "xlogy", "special_xlog1py", "hypot", "copysign", "logaddexp", "logaddexp2", "heaviside",
    "nextafter", "ldexp", "float_power")})
SAMPLES.update({name: _binary(ints=True) for name in ("gcd", "lcm")})
SAMPLES.update({f"special_{name}": _unary()[:5] for name in S.BESSEL})
SAMPLES.update({f"special_{name}": [lambda d: ((t(d, (3, 1)), t(d, (4,), _i64).abs()), {}),
                                    lambda d: ((t(d, (2, 3), _f64, True), 3), {}),
                                    lambda d: ((0.5, t(d, (3,), _i64).abs()), {})]
                for name in S.POLYNOMIALS})
SAMPLES.update({name: [lambda d: ((t(d, (3, 1)).abs() + 0.5, t(d, (1, 4)).abs()), {}),
                       lambda d: ((t(d, (2, 3), _f64, True).abs(), t(d, (3,), _f64).abs()), {})]
                for name in ("igamma", "igammac")})
SAMPLES.update({
    "angle": _unary() + [lambda d: ((t(d, (2, 3), mindtorch.complex64),), {})],
    "sinc": _unary() + [lambda d: ((t(d, (2, 3), mindtorch.complex128),), {})],
    "xlogy": _binary() + [lambda d: ((2.0, t(d, (3,))), {}), lambda d: ((t(d, (3,)), 3), {})],
    "copysign": _binary() + [lambda d: ((t(d, (2, 3), _i64), -1.0), {})],
    "special_zeta": [lambda d: ((t(d, (3, 1)).abs() + 1.5, t(d, (1, 4)).abs()), {}),
                     lambda d: ((3.0, t(d, (2, 3), _f64, True).abs()), {})],
    "logaddexp": _binary() + [lambda d: ((t(d, (3,), mindtorch.complex64),
                                          t(d, (3,), mindtorch.complex64)), {})],
    "ldexp": [lambda d: ((t(d, (3, 4)), t(d, (4,), _i64)), {}),
              lambda d: ((t(d, (2, 3), mindtorch.float16, True), t(d, (3,), _i64)), {})],
    "float_power": _binary() + [lambda d: ((t(d, (3,), _i64), 2), {}),
                                lambda d: ((2.0, t(d, (3,))), {})],
    "logit": [lambda d: ((t(d, (3, 4)).sigmoid(),), {}),
              lambda d: ((t(d, (2, 3), _f64, True).sigmoid(), 0.1), {}),
              lambda d: ((t(d, (0,)),), {"eps": 0.2})],
    "polygamma": [lambda d: ((1, t(d, (3, 4)).abs() + 0.5), {}),
                  lambda d: ((0, t(d, (2, 3), _f64, True)), {}),
                  lambda d: ((3, t(d, (4,), _i64).abs() + 1), {})],
    "mvlgamma": [lambda d: ((t(d, (3, 4)).abs() + 2, 2), {}),
                 lambda d: ((t(d, (2, 3), _f64, True).abs() + 3, 4), {})],
    "isposinf": _unary(), "isneginf": _unary(), "isreal": _unary(),
    "special_round": [lambda d: ((t(d, (3, 4)),), {"decimals": 1})],
})
