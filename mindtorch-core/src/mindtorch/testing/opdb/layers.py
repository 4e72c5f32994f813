"""Samples of the layers ops (random ops: only shapes and dtypes can agree across devices)."""
import mindtorch

from ._make import ix, t

_f16, _bf16, _f64, _i32 = mindtorch.float16, mindtorch.bfloat16, mindtorch.float64, \
    mindtorch.int32

SAMPLES = {
    "linear": [lambda d: ((t(d, (2, 3, 4)), t(d, (5, 4)), t(d, (5,))), {}),
               lambda d: ((t(d, (3, 4), transposed=True), t(d, (5, 4))), {}),
               lambda d: ((t(d, (4,), mindtorch.int64), t(d, (5, 4), mindtorch.int64)), {}),
               lambda d: ((t(d, (0, 4), _bf16), t(d, (2, 4), _bf16), t(d, (2,), _bf16)), {})],
    "bilinear": [lambda d: ((t(d, (2, 3)), t(d, (2, 4)), t(d, (5, 3, 4)), t(d, (5,))), {}),
                 lambda d: ((t(d, (3,), _f64), t(d, (4,), _f64), t(d, (2, 3, 4), _f64)), {})],
    "embedding": [lambda d: ((t(d, (6, 3)), ix(d, [[0, 5], [2, 2]])), {}),
                  lambda d: ((t(d, (6, 3), _f16), ix(d, 4, _i32), 4), {})],
    "functional_embedding": [lambda d: ((ix(d, [1, 0, 1]), t(d, (4, 2))), {"padding_idx": 0})],
    "embedding_renorm_": [lambda d: ((t(d, (5, 3)), ix(d, [0, 3]), 1.0, 2.0), {})],
    "embedding_bag": [
        lambda d: ((t(d, (6, 3)), ix(d, [0, 2, 5, 1]), ix(d, [0, 2])), {}),
        lambda d: ((t(d, (6, 3), _f64), ix(d, [0, 2, 5, 1]), ix(d, [0, 0, 3]), False, 1,
                    False, None, False), {"padding_idx": 2}),
        lambda d: ((t(d, (6, 3)), ix(d, [0, 2, 5, 1], _i32), ix(d, [0, 1, 4], _i32), False, 2,
                    False, None, True), {}),
        lambda d: ((t(d, (6, 3)), ix(d, [0, 2, 5]), ix(d, [0]), False, 0, False,
                    t(d, (3,))), {}),
    ],
    "functional_embedding_bag": [lambda d: ((ix(d, [[0, 2], [5, 1]]), t(d, (6, 3))),
                                            {"mode": "max"})],
    "one_hot": [lambda d: ((ix(d, [[0, 3], [1, 2]]), 5), {})],
    "dropout_": [lambda d: ((t(d, (3, 4)), 0.5, True), {})],
    "alpha_dropout": [lambda d: ((t(d, (3, 4)), 0.3, True), {})],
    "alpha_dropout_": [lambda d: ((t(d, (3, 4)), 0.3, False), {})],
    "feature_dropout": [lambda d: ((t(d, (2, 3, 4), _f64), 0.5, True), {})],
    "feature_dropout_": [lambda d: ((t(d, (2, 3, 4)), 0.5, True), {})],
    "feature_alpha_dropout": [lambda d: ((t(d, (2, 3, 4)), 0.5, True), {})],
    "feature_alpha_dropout_": [lambda d: ((t(d, (2, 3)), 1.0, True), {})],
    "functional_dropout": [lambda d: ((t(d, (3, 4)),), {}),
                           lambda d: ((t(d, (3, 4), _f16), 0.2, False), {})],
    "functional_alpha_dropout": [lambda d: ((t(d, (3, 4)), 0.5, True), {})],
    "functional_feature_alpha_dropout": [lambda d: ((t(d, (2, 3, 4)), 0.5, True), {})],
    "dropout1d": [lambda d: ((t(d, (2, 3, 4)),), {})],
    "dropout2d": [lambda d: ((t(d, (2, 3, 4, 4)),), {})],
    "dropout3d": [lambda d: ((t(d, (2, 3, 2, 2, 2)),), {})],
    "scaled_dot_product_attention": [
        lambda d: ((t(d, (2, 3, 4, 5)), t(d, (2, 3, 6, 5)), t(d, (2, 3, 6, 7))), {}),
        lambda d: ((t(d, (3, 4, 5), _f64), t(d, (3, 4, 5), _f64), t(d, (3, 4, 2), _f64)),
                   {"is_causal": True}),
        lambda d: ((t(d, (4, 5)), t(d, (6, 5)), t(d, (6, 3)), t(d, (4, 6), mindtorch.bool)),
                   {"scale": 0.5}),
    ],
    "cosine_similarity": [lambda d: ((t(d, (3, 4)), t(d, (4,))), {}),
                          lambda d: ((t(d, (2, 3), _f64, transposed=True), t(d, (2, 3))),
                                     {"dim": 0})],
    "pairwise_distance": [lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {}),
                          lambda d: ((t(d, (3, 4), mindtorch.int64), t(d, (4,)), 1.0, 1e-3, True),
                                     {})],
    "pdist": [lambda d: ((t(d, (5, 3)),), {}),
              lambda d: ((t(d, (4, 3), _f64, transposed=True), 1.0), {}),
              lambda d: ((t(d, (1, 3)), 3.0), {}),
              lambda d: ((t(d, (3, 0)), float("inf")), {}),
              lambda d: ((t(d, (4, 2)), 0.0), {})],
}
