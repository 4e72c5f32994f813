"""Samples of the sorting ops: sort/topk/kthvalue/median/mode, scans with indices,
quantiles, unique, binning, set membership and the NaN-aware / paired reductions."""
import mindtorch

from ._make import ix, t

_f16, _bf16, _f64 = mindtorch.float16, mindtorch.bfloat16, mindtorch.float64
_i32, _i64, _u8, _b = mindtorch.int32, mindtorch.int64, mindtorch.uint8, mindtorch.bool


def _ties(d, dtype=mindtorch.float32):
    """Few distinct values, so ties matter."""
    return t(d, (3, 5), _i64).remainder(3).to(dtype)


# (args) of ops reducing or scanning along one dim: (tensor, dim[, ...])
_ALONG_DIM = [
    lambda d: ((t(d, (3, 4)), 1), {}),
    lambda d: ((t(d, (4, 3), _f64, transposed=True), 0), {}),
    lambda d: ((t(d, (2, 3, 4), _i32), -1), {}),
    lambda d: ((t(d, ()), 0), {}),
    lambda d: ((t(d, (5,), _f16), 0), {}),
    lambda d: ((t(d, (2, 5), _bf16), 1), {}),
    lambda d: ((_ties(d), 1), {}),
]
_EMPTY_KEPT = [lambda d: ((t(d, (0, 3)), 1), {})]  # reducing a non-empty dim of an empty tensor

SAMPLES = {
    "sort": _ALONG_DIM + [
        lambda d: ((t(d, (3, 4), _u8),), {"descending": True}),
        lambda d: ((t(d, (6,), _b),), {"stable": True}),
        lambda d: ((_ties(d, _i64),), {"dim": 0, "descending": True, "stable": True}),
        lambda d: ((t(d, (0, 3)),), {}),
    ],
    "argsort": [lambda d: ((t(d, (3, 4)), 0, True), {}),
                lambda d: ((t(d, (3, 4), _i32),), {"dim": 0, "stable": True}),
                lambda d: ((_ties(d),), {"stable": True})],
    "msort": [lambda d: ((t(d, (3, 4), transposed=True),), {}),
              lambda d: ((t(d, (), _i64),), {})],
    "topk": [
        lambda d: ((t(d, (3, 5)), 2), {}),
        lambda d: ((t(d, (5, 3), _f64, transposed=True), 3, 0, False), {}),
        lambda d: ((ix(d, [3, -1, 7, 0, 5], _i32), 3), {}),  # (distinct: torch's order of
        lambda d: ((t(d, (4,)), 4), {"sorted": False}),       # ties is its algorithm's)
        lambda d: ((t(d, ()), 1), {}),
        lambda d: ((t(d, (2, 0)), 0), {}),
        lambda d: ((t(d, (2, 6), _f16), 1), {"largest": False}),
    ],
    "kthvalue": [
        lambda d: ((t(d, (3, 5)), 2), {}),
        lambda d: ((t(d, (5, 3), _f64, transposed=True), 5, 0, True), {}),
        lambda d: ((t(d, ()), 1), {}),
        lambda d: ((_ties(d, _i64), 3), {}),
        lambda d: ((t(d, (4,), _bf16), 1), {}),
        lambda d: ((t(d, (0, 3)), 1, 1), {}),
    ],
    "median": [lambda d: ((t(d, (3, 5)),), {}), lambda d: ((t(d, (4,), _i64),), {}),
               lambda d: ((t(d, ()),), {}), lambda d: ((t(d, (2, 3), _f16),), {})],
    "nanmedian": [lambda d: ((t(d, (3, 5), _f64, transposed=True),), {}),
                  lambda d: ((t(d, (6,), _i32),), {})],
    "_median_dim": _ALONG_DIM + _EMPTY_KEPT + [lambda d: ((t(d, (3, 4)), 0, True), {})],
    "_nanmedian_dim": _ALONG_DIM + [lambda d: ((t(d, (3, 4)), 1, True), {})],
    "mode": _ALONG_DIM + _EMPTY_KEPT + [lambda d: ((t(d, (7,), _b),), {}),
                                        lambda d: ((t(d, (3, 4), _u8), 0, True), {})],
    "cummax": _ALONG_DIM + [lambda d: ((t(d, (5,), _b), 0), {}),
                            lambda d: ((t(d, (0, 2)), 0), {})],
    "cummin": _ALONG_DIM + [lambda d: ((t(d, (2, 0)), 1), {})],
    "logcumsumexp": [
        lambda d: ((t(d, (3, 4)), 1), {}),
        lambda d: ((t(d, (4, 3), _f64, transposed=True), 0), {}),
        lambda d: ((t(d, ()), 0), {}),
        lambda d: ((t(d, (5,), _bf16), 0), {}),
        lambda d: ((t(d, (2, 3), mindtorch.complex64), 1), {}),
        lambda d: ((t(d, (0, 3)), 0), {}),
    ],
    "quantile": [
        lambda d: ((t(d, (3, 5)), 0.3), {}),
        lambda d: ((t(d, (5, 3), _f64, transposed=True), ix(d, [0.0, 0.5, 1.0], _f64), 0),
                   {"keepdim": True}),
        lambda d: ((t(d, (2, 3, 4)), ix(d, 0.25, mindtorch.float32), 1),
                   {"interpolation": "midpoint"}),
        lambda d: ((t(d, (6,)), ix(d, [0.1, 0.9], mindtorch.float32)),
                   {"interpolation": "nearest"}),
        lambda d: ((t(d, ()), 0.5, 0), {"interpolation": "lower"}),
        lambda d: ((t(d, (3, 4)), 1.0, None, True), {"interpolation": "higher"}),
    ],
    "nanquantile": [lambda d: ((t(d, (3, 5)), 0.7, 1), {}),
                    lambda d: ((t(d, (4,), _f64), ix(d, [0.2, 0.4], _f64)),
                               {"interpolation": "lower"})],
    # data-dependent result sizes: the meta device refuses them
    "unique": [lambda d: ((_ties(d),), {"return_inverse": True, "return_counts": True}),
               lambda d: ((t(d, (4, 3), _i64, transposed=True),), {"dim": 1})],
    "unique_consecutive": [lambda d: ((_ties(d, _i32),), {"return_counts": True}),
                           lambda d: ((_ties(d),), {"dim": 0, "return_inverse": True})],
    "bincount": [lambda d: ((t(d, (6,), _i64).abs(),), {}),
                 lambda d: ((t(d, (4,), _u8), t(d, (4,))), {"minlength": 7})],
    "searchsorted": [
        lambda d: ((ix(d, [1, 3, 5, 7]), t(d, (3, 2), _i64)), {}),
        lambda d: ((ix(d, [[0.0, 1.0, 2.0], [-1.0, 0.0, 1.0]], mindtorch.float32),
                    t(d, (2, 4))), {"right": True, "out_int32": True}),
        lambda d: ((ix(d, [5, 1, 3]), 2), {"sorter": ix(d, [1, 2, 0]), "side": "right"}),
        lambda d: ((ix(d, [1.0, 2.0], _f64), t(d, (0,), _f16)), {}),
    ],
    "bucketize": [lambda d: ((t(d, (3, 4)), ix(d, [-1.0, 0.0, 1.0], mindtorch.float32)), {}),
                  lambda d: ((3, ix(d, [1, 3, 5])), {"right": True})],
    "histc": [lambda d: ((t(d, (3, 4)),), {"bins": 5}),
              lambda d: ((t(d, (10,), _f64), 4, -1, 1), {}),
              lambda d: ((t(d, (0,)),), {"bins": 3}),
              lambda d: ((t(d, (6,), _f16), 3), {})],
    "histogram": [lambda d: ((t(d, (3, 4)), 5), {}),
                  lambda d: ((t(d, (8,), _f64), 4), {"range": (-1.0, 1.0),
                                                     "weight": t(d, (8,), _f64),
                                                     "density": True}),
                  lambda d: ((t(d, (6,)), ix(d, [-1.0, 0.0, 0.5, 2.0], mindtorch.float32)),
                             {})],
    "isin": [lambda d: ((t(d, (3, 4), _i64), ix(d, [0, 2, 5])), {}),
             lambda d: ((t(d, (4,)), t(d, (2, 2), _f64)), {"invert": True}),
             lambda d: ((t(d, (3,), _u8), 3), {}),
             lambda d: ((2, t(d, (5,), _i32)), {})],
    "std_mean": [lambda d: ((t(d, (3, 4)),), {}),
                 lambda d: ((t(d, (3, 4), _f64, transposed=True), 1, True, True), {})],
    "var_mean": [lambda d: ((t(d, (3, 4)),), {"dim": (0, 1), "correction": 0}),
                 lambda d: ((t(d, (2, 3), mindtorch.complex64), 0), {})],
    "nansum": [lambda d: ((t(d, (3, 4)).log(),), {}),
               lambda d: ((t(d, (3, 4), _i64), 1, True), {}),
               lambda d: ((t(d, (4, 3), transposed=True).log(), 0), {"dtype": _f64})],
    "nanmean": [lambda d: ((t(d, (3, 4)).log(), 1), {}),
                lambda d: ((t(d, (2, 3), _f16),), {})],
    "aminmax": [lambda d: ((t(d, (3, 4)),), {}),
                lambda d: ((t(d, (3, 4), _i64, transposed=True),), {"dim": 0, "keepdim": True}),
                lambda d: ((t(d, (4,), _b),), {})],
}
