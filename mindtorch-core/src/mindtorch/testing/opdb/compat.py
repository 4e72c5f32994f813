"""Samples of the compat ops (conv_tbc, as_strided_scatter, slice_inverse, hash_tensor,
norm_except_dim, _weight_norm, _weight_norm_interface)."""
import mindtorch

from ._make import t

_f64, _i64 = mindtorch.float64, mindtorch.int64

SAMPLES = {
    "conv_tbc": [lambda d: ((t(d, (5, 2, 3)), t(d, (3, 3, 4)), t(d, (4,))), {}),
                 lambda d: ((t(d, (6, 1, 2), _f64, True), t(d, (2, 2, 3), _f64),
                             t(d, (3,), _f64), 1), {})],
    "as_strided_scatter": [
        lambda d: ((t(d, (4, 4)), t(d, (2, 2)), (2, 2), (1, 2), 1), {}),
        lambda d: ((t(d, (3, 5), _f64, True), t(d, (3,), _f64), (3,), (5,)), {})],
    "slice_inverse": [lambda d: ((t(d, (6,)), t(d, (3,)), 0, 0, 6, 2), {})],
    "hash_tensor": [lambda d: ((t(d, (3, 4)),), {}), lambda d: ((t(d, (2, 3), _i64), 1), {}),
                    lambda d: ((t(d, (2, 3, 4), _f64), (0, 2)), {"keepdim": True}),
                    lambda d: ((t(d, (5,), mindtorch.bool),), {})],
    "norm_except_dim": [lambda d: ((t(d, (4, 3, 2)),), {}),
                        lambda d: ((t(d, (4, 3, 2), _f64), 1, 1), {}),
                        lambda d: ((t(d, (4, 3), transposed=True), 3, -1), {}),
                        lambda d: ((t(d, (5,)), 2, 0), {})],
    "_weight_norm": [lambda d: ((t(d, (4, 3, 2)), t(d, (4, 1, 1))), {}),
                     lambda d: ((t(d, (4, 3, 2), _f64), t(d, (1, 3, 1), _f64), 1), {}),
                     lambda d: ((t(d, (4, 3), mindtorch.bfloat16),
                                 t(d, (1, 3), mindtorch.bfloat16), 1), {})],
    "_weight_norm_interface": [lambda d: ((t(d, (4, 3, 2)), t(d, (4,))), {}),
                               lambda d: ((t(d, (4, 3), mindtorch.float16),
                                           t(d, (1, 3), mindtorch.float16), 1), {})],
}
