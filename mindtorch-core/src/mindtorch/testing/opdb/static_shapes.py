"""Samples of nonzero_static and histogramdd's ops (decls/static_shapes.py)."""
import mindtorch

from ._make import ix, t

f32, f64, i64 = mindtorch.float32, mindtorch.float64, mindtorch.int64


def _edges(d, *rows, dtype=f32):
    return [mindtorch.tensor(r, dtype=dtype, device=d) for r in rows]


SAMPLES = {
    "nonzero_static": [lambda d: ((t(d, (3, 4)),), {"size": 5}),
                       lambda d: ((t(d, (2, 3), i64, True),), {"size": 2, "fill_value": 9}),
                       lambda d: ((t(d, (4,)) > 0,), {"size": 6}),
                       lambda d: ((t(d, ()),), {"size": 2})],
    "_histogramdd_bin_edges": [lambda d: ((t(d, (6, 2)), [3, 2]), {}),
                               lambda d: ((t(d, (4, 3), f64), [2, 2, 1]),
                                          {"range": [-1., 1., 0., 2., -3., 3.]})],
    "_histogramdd_from_bin_cts": [
        lambda d: ((t(d, (6, 2)), [3, 2]), {}),
        lambda d: ((t(d, (2, 4, 2), f64), [2, 3]), {"weight": t(d, (2, 4), f64),
                                                     "density": True}),
        lambda d: ((t(d, (5, 3)), [2, 2, 4]), {"range": [-1., 1., 0., 2., -3., 3.]})],
    "_histogramdd_from_bin_tensors": [
        lambda d: ((t(d, (6, 2)), _edges(d, [-2., 0., 1.], [-1., 0., 0.5, 3.])), {}),
        lambda d: ((t(d, (5, 2), f64), _edges(d, [-3., 3.], [-1., 1.], dtype=f64)),
                   {"weight": t(d, (5,), f64), "density": True})],
    "segment_reduce": [
        lambda d: ((t(d, (7,)), "sum"), {"lengths": ix(d, [2, 0, 4, 1])}),
        lambda d: ((t(d, (2, 5, 3), f64), "mean"), {"lengths": ix(d, [[1, 4], [3, 2]]),
                                                     "axis": 1, "initial": 0.5}),
        lambda d: ((t(d, (6, 2), transposed=True), "max"), {"offsets": ix(d, [0, 2, 2, 6])}),
        lambda d: ((t(d, (5,), f64), "prod"), {"lengths": ix(d, [3, 2]), "unsafe": True}),
        lambda d: ((t(d, (5,)), "amin"), {"offsets": ix(d, [1, 3, 4]), "initial": 0.})],
}
