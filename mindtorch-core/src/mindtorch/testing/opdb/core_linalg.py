"""Samples of the core products and matrix ops (einsum, matmul family, triangles,
diagonals)."""
import mindtorch

from ._make import t

f32, f64, i64 = mindtorch.float32, mindtorch.float64, mindtorch.int64


def _ts(*specs, **kwargs):
    """A sample of tensors, each (shape,) or (shape, dtype) or (shape, dtype, transposed)."""
    return lambda d: (tuple(t(d, *s) for s in specs), dict(kwargs))


_ADD_PRODUCTS = {
    # op: (self shape, first factor, second factor)
    "addmm": ((3, 1), (3, 4), (4, 2)), "addmv": ((3,), (3, 4), (4,)),
    "addr": ((3, 1), (3,), (4,)), "baddbmm": ((2, 3, 1), (2, 3, 4), (2, 4, 5)),
    "addbmm": ((3, 5), (2, 3, 4), (2, 4, 5)),
}
SAMPLES = {}
for _name, (_s, _a, _b) in _ADD_PRODUCTS.items():
    SAMPLES[_name] = [_ts((_s,), (_a,), (_b,)),
                      _ts((_s, f64), (_a, f64, len(_a) == 2), (_b, f64), beta=0.5, alpha=2),
                      _ts((_s, i64), (_a, i64), (_b, i64), beta=2)]
    # in place: self must already have the result's shape
    _full = {"addmm": (3, 2), "addmv": (3,), "addr": (3, 4), "baddbmm": (2, 3, 5),
             "addbmm": (3, 5)}[_name]
    SAMPLES[_name + "_"] = [_ts((_full,), (_a,), (_b,), alpha=0.5),
                            _ts((_s,), (_a,), (_b,))]  # broadcast self: refused

SAMPLES.update({
    # (grad, mat1, mat2, beta, alpha, self_shape, mat1_transposed, mat2_transposed, mask):
    # a linear layer's (mat2 = W.t()), a column-major mat1, coefficients, one gradient
    "_addmm_backward": [
        lambda d: ((t(d, (3, 2)), t(d, (3, 4)), t(d, (4, 2), f32, True), 1, 1, (2,), False,
                    True, (True, True, True)), {}),
        lambda d: ((t(d, (3, 2), f64), t(d, (3, 4), f64, True), t(d, (4, 2), f64), 0.5, 2,
                    (3, 1), True, False, (True, True, True)), {}),
        lambda d: ((t(d, (3, 2)), t(d, (3, 4)), None, 1, 1, None, False, True,
                    (False, False, True)), {})],
    "matmul": [_ts(((3, 4),), ((4, 2), f32, True)), _ts(((4,),), ((4,),)),
               _ts(((4,),), ((2, 4, 3),)), _ts(((2, 3, 4),), ((4,),)),
               _ts(((2, 1, 3, 4),), ((5, 4, 2),)), _ts(((3, 4), i64), ((4,), i64)),
               _ts(((3, 4),), ((3, 4),))],
    "chain_matmul": [_ts(((2, 3),), ((3, 4),), ((4, 2),))],
    "inner": [_ts(((3, 4),), ((2, 4),)), _ts(((4,),), ((4,),)), _ts(((),), ((2, 3),))],
    "outer": [_ts(((3,),), ((4,), i64))], "ger": [_ts(((3,),), ((4,),))],
    "vdot": [_ts(((4,), mindtorch.complex64), ((4,), mindtorch.complex64)),
             _ts(((4,),), ((4,),))],
    "kron": [_ts(((2, 3),), ((2, 2),)), _ts(((2,), i64), ((3, 2), i64))],
    "tensordot": [lambda d: ((t(d, (2, 3, 4)), t(d, (3, 4, 5))), {"dims": 2}),
                  lambda d: ((t(d, (2, 3)), t(d, (4, 3))), {"dims": ([1], [1])}),
                  lambda d: ((t(d, (2, 3)), t(d, (3, 4))), {"dims": 0})],
    "einsum": [lambda d: (("ij,jk->ik", [t(d, (2, 3)), t(d, (3, 4))]), {}),
               lambda d: (("bij->bji", [t(d, (2, 3, 4), f32)]), {}),
               lambda d: (("ii", [t(d, (3, 3))]), {}),
               lambda d: (("i,j", t(d, (3,)), t(d, (2,))), {}),
               lambda d: (("...ij,...jk", [t(d, (2, 3, 4)), t(d, (4, 2))]), {})],
    "matrix_power": [lambda d: ((t(d, (3, 3)), 3), {}),
                     lambda d: ((t(d, (2, 3, 3), f64), 0), {}),
                     lambda d: ((t(d, (3, 3), i64), 2), {})],
    "cross": [_ts(((4, 3),), ((4, 3),)), lambda d: ((t(d, (3, 2)), t(d, (3, 2))), {"dim": 0}),
              _ts(((2, 3), i64), ((1, 3), i64))],
    "trace": [_ts(((3, 4),)), _ts(((3, 3), i64))],
    "diag": [_ts(((3,),)), lambda d: ((t(d, (3, 4)), 1), {}), lambda d: ((t(d, (4,)), -2), {})],
    "diag_embed": [_ts(((2, 3),)), lambda d: ((t(d, (3,)), 1), {}),
                   lambda d: ((t(d, (2, 3)), -1, 0, 2), {})],
    "diagflat": [_ts(((2, 2),)), lambda d: ((t(d, (3,)), 1), {})],
    "tril": [_ts(((3, 4),)), lambda d: ((t(d, (2, 3, 4), i64), -1), {}),
             lambda d: ((t(d, (4, 3), f32, True), 1), {})],
    "triu": [_ts(((3, 4),)), lambda d: ((t(d, (3, 4)), 2), {})],
    "tril_": [lambda d: ((t(d, (3, 4), f32, True), 1), {})],
    "triu_": [lambda d: ((t(d, (3, 4)), -1), {})],
})
