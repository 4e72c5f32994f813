"""Samples of the numerics ops."""
import mindtorch

from ._make import ix, t

_f64, _i64 = mindtorch.float64, mindtorch.int64

SAMPLES = {
    "frexp": [lambda d: ((t(d, (3, 4)),), {}), lambda d: ((t(d, (2, 3), _f64, True),), {}),
              lambda d: ((t(d, ()),), {}), lambda d: ((t(d, (0, 2), mindtorch.float16),), {})],
    "complex": [lambda d: ((t(d, (3, 1)), t(d, (4,))), {}),
                lambda d: ((t(d, (2, 3), _f64, True), t(d, (), _f64)), {})],
    "polar": [lambda d: ((t(d, (3,)).abs(), t(d, (2, 1))), {})],
    "cov": [lambda d: ((t(d, (3, 5)),), {}), lambda d: ((t(d, (4,), _f64),), {"correction": 0}),
            lambda d: ((t(d, (2, 4)),), {"fweights": ix(d, [1, 2, 1, 3]),
                                         "aweights": t(d, (4,)).abs()})],
    "corrcoef": [lambda d: ((t(d, (3, 5), _f64, True),), {})],
    "trapezoid": [lambda d: ((t(d, (3, 4)),), {}), lambda d: ((t(d, (3, 4)), t(d, (4,))), {}),
                  lambda d: ((t(d, (3, 4), _i64),), {"dx": 0.5, "dim": 0})],
    "cumulative_trapezoid": [lambda d: ((t(d, (3, 4), transposed=True),), {"dim": 0}),
                             lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {})],
    "trapz": [lambda d: ((t(d, (5,)),), {})],
    "renorm": [lambda d: ((t(d, (3, 4)), 2, 0, 1.0), {}),
               lambda d: ((t(d, (2, 3, 2), _f64), 1, 1, 0.5), {})],
    "renorm_": [lambda d: ((t(d, (3, 4)), 2, 1, 1.0), {})],
    "vander": [lambda d: ((t(d, (4,)),), {}), lambda d: ((ix(d, [1, 2, 3]), 5, True), {})],
    "fill_diagonal_": [lambda d: ((t(d, (3, 4)), 2.0), {}),
                       lambda d: ((t(d, (7, 3)), 1, True), {})],
    "cumsum_": [lambda d: ((t(d, (3, 4)), 1), {})],
    "cumprod_": [lambda d: ((t(d, (3, 4), _f64), 0), {})],
    "logspace": [lambda d: ((0, 2, 5), {"device": d}),
                 lambda d: ((-1, 1, 4), {"base": 2.0, "device": d, "dtype": _f64})],
    "tril_indices": [lambda d: ((3, 4, 1), {"device": d})],
    "triu_indices": [lambda d: ((4, 3, -1), {"device": d})],
}
