"""Samples of the ops declared before issue 4 (creation, pointwise, reductions, products,
joining, indexing, random); generic samples for pointwise ops (see samples_for)."""
import mindtorch

from ._complex import POINTWISE as _COMPLEX, complex_sample as _complex
from ._make import ix as _ix, t as _t


def unary_samples(op):
    shapes = [((3, 4), mindtorch.float32, False), ((3, 4), mindtorch.float64, True),
              ((), mindtorch.float32, False), ((0, 3), mindtorch.float32, False),
              ((5,), mindtorch.int64, False), ((2, 3), mindtorch.bool, False),
              ((4,), mindtorch.float16, False)]
    samples = [lambda d, s=s: ((_t(d, *s),), {}) for s in shapes]
    if op.name.removesuffix("_") in _COMPLEX:  # complex128, non-contiguous
        samples.append(_complex(samples[1]))
    return samples


def binary_samples(op):
    f32, i32, f64 = mindtorch.float32, mindtorch.int32, mindtorch.float64
    samples = [
        lambda d: ((_t(d, (3, 1)), _t(d, (1, 4))), {}),
        lambda d: ((_t(d, (3, 4), i32), 2.5), {}),
        lambda d: ((_t(d, (2, 3), i32), _t(d, (3,), mindtorch.int64)), {}),
        lambda d: ((_t(d, (3, 2), f64, True), _t(d, (), f32)), {}),
        lambda d: ((_t(d, (0, 3)), _t(d, (3,))), {}),
        lambda d: ((_t(d, (4,), mindtorch.bool), _t(d, (4,), mindtorch.uint8)), {}),
    ]
    if op.name.removesuffix("_") in _COMPLEX:  # complex64 broadcast; complex128 with a
        samples += [_complex(samples[0]), _complex(samples[3])]  # 0-dim complex64
    return samples


SAMPLES = {
    "clamp": [lambda d: ((_t(d, (3, 4)),), {"min": -0.5, "max": 0.5}),
              lambda d: ((_t(d, (3, 4), mindtorch.int32),), {"min": _t(d, (4,))})],
    "where": [lambda d: ((_t(d, (3, 1), mindtorch.bool), _t(d, (4,)), 1.0), {})],
    "round": [lambda d: ((_t(d, (3, 4)),), {"decimals": 2})],
    "gelu": [lambda d: ((_t(d, (3, 4)),), {"approximate": "tanh"})],
    "lerp": [lambda d: ((_t(d, (3, 4)), _t(d, (4,)), 0.3), {})],
    "arange": [lambda d: ((10,), {"device": d}), lambda d: ((1, 4, 0.5), {"device": d})],
    "linspace": [lambda d: ((0, 1, 7), {"device": d})],
    "eye": [lambda d: ((3, 5), {"device": d, "dtype": mindtorch.int32})],
    "copy_": [lambda d: ((_t(d, (3, 4)), _t(d, (4,), mindtorch.int64)), {})],
    "fill_": [lambda d: ((_t(d, (3, 4)), 2), {})],
    # random ops (values differ by device; shapes and dtypes must not)
    "uniform_": [lambda d: ((_t(d, (3, 4), transposed=True), -1.0, 2.0), {})],
    "normal_": [lambda d: ((_t(d, (3, 4), mindtorch.float64), 1.0, 2.0), {})],
    "random_": [lambda d: ((_t(d, (5,), mindtorch.int32), 0, 7), {})],
    "bernoulli_": [lambda d: ((_t(d, (3, 4)), 0.3), {}),
                   lambda d: ((_t(d, (3, 4), mindtorch.int64), _t(d, (4,)).abs().clamp(max=1)),
                              {})],
    "exponential_": [lambda d: ((_t(d, (3,)), 2.0), {})],
    "cauchy_": [lambda d: ((_t(d, (3,)), 0.0, 1.0), {})],
    "log_normal_": [lambda d: ((_t(d, (3,)), 1.0, 2.0), {})],
    "geometric_": [lambda d: ((_t(d, (3,), mindtorch.int64), 0.5), {})],
    "poisson": [lambda d: ((_t(d, (2, 3)).abs(),), {})],
    "_standard_gamma": [lambda d: ((_t(d, (2, 3)).abs() + 0.2,), {}),
                        lambda d: ((_t(d, (4,), mindtorch.float64).abs(),), {})],
    "_sample_dirichlet": [lambda d: ((_t(d, (2, 3)).abs() + 0.2,), {})],
    "binomial": [lambda d: ((_t(d, (2, 3)).abs().mul(8).round(),
                             _t(d, (3,)).sigmoid()), {})],
    "_standard_gamma_grad": [lambda d: ((_t(d, (2, 3)).abs() + 0.5,
                                         _t(d, (2, 3)).abs() + 0.1), {})],
    "_dirichlet_grad": [lambda d: ((_t(d, (2, 3)).sigmoid(), _t(d, (2, 3)).abs() + 0.5,
                                    _t(d, (2, 3)).abs() + 3.0), {})],
    "multinomial": [lambda d: ((_t(d, (2, 5)).abs(), 3), {}),
                    lambda d: ((_t(d, (5,), mindtorch.float64).abs(), 8, True), {})],
    "randperm": [lambda d: ((6,), {"device": d}),
                 lambda d: ((4,), {"device": d, "dtype": mindtorch.float32})],
    "normal": [lambda d: ((_t(d, (3, 1)), _t(d, (4,)).abs()), {}),
               lambda d: ((0.5, _t(d, (2,), mindtorch.float64).abs()), {})],
}


# reductions, matrix products, joining
_f32, _i64, _b = mindtorch.float32, mindtorch.int64, mindtorch.bool
_REDUCE_SAMPLES = [
    lambda d: ((_t(d, (3, 4)),), {}),
    lambda d: ((_t(d, (3, 4), mindtorch.float64, True), 1, True), {}),
    lambda d: ((_t(d, (2, 3, 4)), (0, -1)), {}),
    lambda d: ((_t(d, (2, 0, 3)), 1), {}),
    lambda d: ((_t(d, ()), 0), {}),
    lambda d: ((_t(d, (3, 4), _i64), -1), {}),
    lambda d: ((_t(d, (5,), _b),), {}),
    lambda d: ((_t(d, (4,), mindtorch.float16), 0, False), {}),
]
_ONE_DIM_SAMPLES = [
    lambda d: ((_t(d, (3, 4), mindtorch.float64, True), 1, True), {}),
    lambda d: ((_t(d, (2, 3, 4), _i64), -1), {}),
    lambda d: ((_t(d, ()), 0), {}),
    lambda d: ((_t(d, (2, 0, 3)), 0), {}),
    lambda d: ((_t(d, (4,), mindtorch.float16), 0), {}),
]
for _name in ("sum", "mean", "all", "any", "var", "std", "amax", "amin", "logsumexp"):
    SAMPLES[_name] = _REDUCE_SAMPLES
for _name in ("prod", "argmax", "argmin", "_max_dim", "_min_dim", "cumsum", "cumprod"):
    SAMPLES[_name] = _ONE_DIM_SAMPLES
SAMPLES.update({
    "max": [lambda d: ((_t(d, (3, 4)),), {}), lambda d: ((_t(d, (), _i64),), {}),
            lambda d: ((_t(d, (3,), _b),), {})],
    "min": [lambda d: ((_t(d, (3, 4), transposed=True),), {})],
    "mm": [lambda d: ((_t(d, (3, 4)), _t(d, (4, 2), transposed=True)), {}),
           lambda d: ((_t(d, (3, 0), _i64), _t(d, (0, 2), _i64)), {})],
    "bmm": [lambda d: ((_t(d, (2, 3, 4)), _t(d, (2, 4, 5))), {})],
    "mv": [lambda d: ((_t(d, (3, 4), transposed=True), _t(d, (4,))), {})],
    "dot": [lambda d: ((_t(d, (4,), _i64), _t(d, (4,), _i64)), {})],
    "cat": [lambda d: (([_t(d, (2, 3)), _t(d, (1, 3), _i64)],), {}),
            lambda d: (([_t(d, (0,)), _t(d, (2, 3), transposed=True)], -1), {}),
            lambda d: (([_t(d, (2, 3), _b), _t(d, (2, 1), mindtorch.uint8)], 1), {})],
})

# indexing
_SCATTER_INDEX = [[0, 3, 1], [2, 2, 0]]  # a repeated index: accumulating ops
_UNIQUE_INDEX = [[0, 3, 1], [2, 1, 0]]   # plain scatter: repeated writes have no gradient
SAMPLES.update({
    "index_select": [lambda d: ((_t(d, (3, 4), transposed=True), 1, _ix(d, [3, 0, 3])), {}),
                     lambda d: ((_t(d, ()), 0, _ix(d, 0)), {}),
                     lambda d: ((_t(d, (0, 2), _i64), 0, _ix(d, [], mindtorch.int32)), {})],
    "gather": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _SCATTER_INDEX)), {}),
               lambda d: ((_t(d, (), _b), 0, _ix(d, [0, 0])), {})],
    "scatter": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _UNIQUE_INDEX), _t(d, (2, 3))), {}),
                lambda d: ((_t(d, (3, 4), _i64, True), 1, _ix(d, _SCATTER_INDEX), 2.5),
                           {"reduce": "add"})],
    "scatter_": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _UNIQUE_INDEX), 1.0), {})],
    "scatter_add": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _SCATTER_INDEX), _t(d, (2, 3))), {})],
    "scatter_add_": [lambda d: ((_t(d, (3, 4)), 0, _ix(d, [[2, 0]]), _t(d, (1, 3))), {})],
    "scatter_reduce": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _SCATTER_INDEX), _t(d, (2, 3)),
                                   "mean"), {"include_self": False}),
                       lambda d: ((_t(d, (3, 4), _i64), 0, _ix(d, [[2, 0]]),
                                   _t(d, (1, 3), _i64), "amax"), {})],
    "scatter_reduce_": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _SCATTER_INDEX), _t(d, (2, 3)),
                                    "prod"), {})],
    "masked_fill": [lambda d: ((_t(d, (4,), _i64), _t(d, (3, 4), _b), 2.5), {}),
                    lambda d: ((_t(d, (3, 4)), _t(d, (4,), _b), _t(d, (), mindtorch.float64)),
                               {})],
    "masked_fill_": [lambda d: ((_t(d, (3, 4), transposed=True), _t(d, (4,), _b), 1), {})],
    "index": [lambda d: ((_t(d, (3, 4, 5)), [None, _ix(d, [[0, 1]]), _ix(d, [4])]), {}),
              lambda d: ((_t(d, (3, 4, 5), _i64), [_ix(d, [2, 0]), None, _ix(d, [1])]), {})],
    "index_put": [lambda d: ((_t(d, (3, 4)), [_ix(d, [2, 0])], _t(d, (4,))), {}),
                  lambda d: ((_t(d, (3, 4)), [_t(d, (3, 4), _b)], _t(d, (), _i64)), {})],
    "index_put_": [lambda d: ((_t(d, (3, 4)), [_ix(d, [1, 1]), _ix(d, [0, 3])], _t(d, (2,)),
                               True), {})],
    # data-dependent output shapes: the meta device must refuse (NotImplementedError)
    "nonzero": [lambda d: ((_t(d, (3, 4)),), {})],
    "masked_select": [lambda d: ((_t(d, (3, 4)), _t(d, (4,), _b)), {})],
})

# pointwise ops outside the generic unary/binary forms
_nan = float("nan")
_inf = float("inf")
SAMPLES.update({
    "addcmul": [lambda d: ((_t(d, (3, 1)), _t(d, (4,)), _t(d, (3, 4))), {"value": 0.5}),
                lambda d: ((_t(d, (3,), _i64), _t(d, (3,), _i64), _t(d, (3,), _i64)), {})],
    "addcdiv": [lambda d: ((_t(d, (3, 4)), _t(d, (4,)), _t(d, (3, 4)) + 5), {"value": 2}),
                lambda d: ((_t(d, (3,), mindtorch.float64, False), _t(d, ()), _t(d, (3,))), {})],
    "deg2rad": [lambda d: ((_t(d, (3, 4)),), {}), lambda d: ((_t(d, (3,), _i64),), {})],
    "rad2deg": [lambda d: ((_t(d, (3, 4), mindtorch.float64, True),), {})],
    "positive": [lambda d: ((_t(d, (3, 4)),), {}), lambda d: ((_t(d, (2,), _b),), {})],
    "nan_to_num": [lambda d: ((_ix(d, [_nan, _inf, -_inf, 1.5], _f32),), {}),
                   lambda d: ((_ix(d, [_nan, _inf, -_inf], mindtorch.float64),),
                              {"nan": 1.0, "posinf": 2.0, "neginf": -2.0}),
                   lambda d: ((_t(d, (3,), _i64),), {})],
    "clip": [lambda d: ((_t(d, (3, 4)),), {"min": -0.5, "max": 0.5}),
             lambda d: ((_t(d, (3, 4)), _t(d, (4,))), {})],
    "clamp_": [lambda d: ((_t(d, (3, 4)),), {"min": -0.5}),
               lambda d: ((_t(d, (3, 4), _i64), _t(d, (4,), _i64), 3), {})],
    "clip_": [lambda d: ((_t(d, (3, 4), transposed=True),), {"max": 0.1})],
    "lerp_": [lambda d: ((_t(d, (3, 4)), _t(d, (4,)), 0.3), {}),
              lambda d: ((_t(d, (3, 4)), _t(d, (3, 4)), _t(d, (3, 4))), {})],
    "isclose": [lambda d: ((_t(d, (3, 4)), _t(d, (4,))), {"atol": 1.0}),
                lambda d: ((_ix(d, [_nan, 1.0], _f32), _ix(d, [_nan, 1.0 + 1e-6], _f32)),
                           {"equal_nan": True}),
                lambda d: ((_t(d, (3,), _i64), _t(d, (3,), _i64)), {})],
    "allclose": [lambda d: ((_t(d, (3, 4)), _t(d, (3, 4))), {}),
                 lambda d: ((_ix(d, [1.0, 2.0], _f32), _ix(d, [1.0, 2.0 + 1e-6], _f32)), {})],
    "equal": [lambda d: ((_t(d, (3, 4)), _t(d, (3, 4))), {}),
              lambda d: ((_ix(d, [1, 2]), _ix(d, [1, 2])), {}),
              lambda d: ((_ix(d, [1, 2]), _ix(d, [1, 2, 3])), {})],
    "count_nonzero": [lambda d: ((_t(d, (3, 4), _b),), {}),
                      lambda d: ((_t(d, (3, 4), _i64), (0,)), {}),
                      lambda d: ((_t(d, (2, 3, 4)), (0, 2)), {})],
    "norm": [lambda d: ((_t(d, (3, 4)),), {}), lambda d: ((_t(d, (3, 4)), 1, (1,), True), {}),
             lambda d: ((_t(d, (3, 4), mindtorch.float64, True), float("inf")), {}),
             lambda d: ((_t(d, (2, 3)), 2, (0, 1)), {})],
    "softmax": [lambda d: ((_t(d, (3, 4)), 1), {}),
                lambda d: ((_t(d, (3, 4)), 0), {"dtype": mindtorch.float64}),
                lambda d: ((_t(d, ()), 0), {}), lambda d: ((_t(d, (0, 3)), 1), {})],
    "log_softmax": [lambda d: ((_t(d, (3, 4), transposed=True), -1), {}),
                    lambda d: ((_t(d, (4,), mindtorch.float16), 0), {})],
    # (grad, output, dim, input dtype)
    **{name: [lambda d, log=log: ((_t(d, (3, 4)), _t(d, (3, 4)).log_softmax(1) if log
                                   else _t(d, (3, 4)).softmax(1), 1, mindtorch.float32), {}),
              lambda d, log=log: ((_t(d, (2, 3, 4), mindtorch.float64, True),
                                   _t(d, (2, 3, 4), mindtorch.float64).softmax(0), 0,
                                   mindtorch.float64), {}),
              lambda d: ((_t(d, ()), _t(d, ()), 0, mindtorch.float32), {}),
              lambda d: ((_t(d, (4,), mindtorch.float16), _t(d, (4,), mindtorch.float16)
                          .softmax(0), 0, mindtorch.float16), {})]
       for name, log in (("_softmax_backward_data", False),
                         ("_log_softmax_backward_data", True))},
    "diff": [lambda d: ((_t(d, (3, 4)),), {}), lambda d: ((_t(d, (3, 4)), 2, 0), {}),
             lambda d: ((_t(d, (4,), _i64), 1, -1, _ix(d, [1, 2]), _ix(d, [7])), {})],
    # random (values differ by device; shapes and dtypes must not)
    "rand": [lambda d: ((2, 3), {"device": d}),
             lambda d: (((3,),), {"device": d, "dtype": mindtorch.float64})],
    "randn": [lambda d: (((2, 3),), {"device": d})],
    "randint": [lambda d: ((0, 5, (3, 2)), {"device": d}),
                lambda d: ((-3, 3, (4,)), {"device": d, "dtype": mindtorch.int8})],
    "rand_like": [lambda d: ((_t(d, (3, 4), transposed=True),), {})],
    "randn_like": [lambda d: ((_t(d, (3,)),), {"dtype": mindtorch.float64})],
    "randint_like": [lambda d: ((_t(d, (3, 4)), 0, 4), {})],
    "bernoulli": [lambda d: ((_t(d, (3, 4)).abs().clamp(max=1),), {}),
                  lambda d: ((_t(d, (3,)), 0.5), {})],
    "normal_float_float": [lambda d: ((0.0, 1.0, (3, 2)), {"device": d})],
    "dropout": [lambda d: ((_t(d, (3, 4)), 0.5, True), {}),
                lambda d: ((_t(d, (3, 4)), 0.5, False), {})],
    "native_dropout": [lambda d: ((_t(d, (3, 4)), 0.3, True), {})],
})

# indexing (scatters with unique indices where a repeated write would be ambiguous)
_INDEX = [2, 0]
SAMPLES.update({
    "index_add": [lambda d: ((_t(d, (3, 4)), 0, _ix(d, [2, 0, 2]), _t(d, (3, 4))), {}),
                  lambda d: ((_t(d, (3, 4), _i64), 1, _ix(d, [3]), _t(d, (3, 1), _i64)),
                             {"alpha": 2})],
    "index_add_": [lambda d: ((_t(d, (3, 4), transposed=True), 1, _ix(d, _INDEX),
                               _t(d, (3, 2))), {})],
    "index_copy": [lambda d: ((_t(d, (3, 4)), 0, _ix(d, _INDEX), _t(d, (2, 4))), {}),
                   lambda d: ((_t(d, (3, 4), _i64), 1, _ix(d, [1]), _t(d, (3, 1), _i64)), {})],
    "index_copy_": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _INDEX), _t(d, (3, 2))), {})],
    "index_fill": [lambda d: ((_t(d, (3, 4)), 1, _ix(d, _INDEX), 2.5), {}),
                   lambda d: ((_t(d, (3, 4), _i64), 0, _ix(d, [1]), _ix(d, 7)), {})],
    "index_fill_": [lambda d: ((_t(d, (3, 4), transposed=True), 0, _ix(d, _INDEX), -1), {})],
    "index_reduce": [lambda d: ((_t(d, (3, 4)), 0, _ix(d, [2, 0, 2]), _t(d, (3, 4)), "prod"),
                                {}),
                     lambda d: ((_t(d, (3, 4)), 1, _ix(d, [1, 1]), _t(d, (3, 2)), "mean"),
                                {"include_self": False}),
                     lambda d: ((_t(d, (3, 4), _i64), 0, _ix(d, [0, 0]), _t(d, (2, 4), _i64),
                                 "amax"), {})],
    "index_reduce_": [lambda d: ((_t(d, (3, 4)), 0, _ix(d, _INDEX), _t(d, (2, 4)), "amin"),
                                 {})],
    "masked_scatter": [lambda d: ((_t(d, (3, 4)), _t(d, (4,), _b), _t(d, (3, 4))), {})],
    "masked_scatter_": [lambda d: ((_t(d, (3, 4)), _t(d, (3, 4), _b), _t(d, (12,))), {})],
    "put": [lambda d: ((_t(d, (3, 4)), _ix(d, [0, 11, -2]), _t(d, (3,))), {}),
            lambda d: ((_t(d, (3, 4)), _ix(d, [1, 1]), _t(d, (2,))), {"accumulate": True})],
    "put_": [lambda d: ((_t(d, (3, 4)), _ix(d, [[0, 5]]), _t(d, (1, 2))), {})],
    "take": [lambda d: ((_t(d, (3, 4), transposed=True), _ix(d, [[0, 11], [-1, 3]])), {}),
             lambda d: ((_t(d, ()), _ix(d, [0, 0])), {})],
    "take_along_dim": [lambda d: ((_t(d, (3, 4)), _ix(d, [[0], [3], [1]]), 1), {}),
                       lambda d: ((_t(d, (3, 4)), _ix(d, [5, 0])), {})],
    "argwhere": [lambda d: ((_t(d, (3, 4)),), {})],
})
