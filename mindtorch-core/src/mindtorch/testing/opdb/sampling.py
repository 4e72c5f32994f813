"""Samples of the grid sampling ops (grid_sample, grid_sampler*, affine_grid*)."""
import mindtorch

from ._make import t

_f64 = mindtorch.float64

SAMPLES = {
    "grid_sample": [lambda d: ((t(d, (2, 3, 4, 5)), t(d, (2, 3, 2, 2)).tanh()),
                               {"align_corners": False}),
                    lambda d: ((t(d, (1, 2, 3, 4), _f64), t(d, (1, 2, 2, 2), _f64)),
                               {"mode": "nearest", "padding_mode": "reflection",
                                "align_corners": True})],
    "grid_sampler": [lambda d: ((t(d, (2, 3, 4, 5)), t(d, (2, 3, 2, 2)), 0, 1, False), {})],
    "grid_sampler_2d": [lambda d: ((t(d, (2, 3, 4, 5)), t(d, (2, 3, 2, 2)), 0, 2, True), {})],
    "grid_sampler_2d_backward": [lambda d: ((t(d, (2, 3, 3, 2)), t(d, (2, 3, 4, 5)),
                                             t(d, (2, 3, 2, 2)), 0, 0, False), {})],
    "grid_sampler_3d": [lambda d: ((t(d, (2, 3, 2, 4, 5)), t(d, (2, 3, 2, 2, 3)), 0, 2, True),
                                   {}),
                        lambda d: ((t(d, (1, 1, 2, 2, 2), _f64), t(d, (1, 1, 2, 2, 3), _f64), 1,
                                    0, False), {})],
    "grid_sampler_3d_backward": [lambda d: ((t(d, (2, 3, 2, 3, 2)), t(d, (2, 3, 2, 4, 5)),
                                             t(d, (2, 2, 3, 2, 3)), 0, 1, False), {})],
    "affine_grid_generator": [lambda d: ((t(d, (2, 2, 3)), (2, 3, 4, 5), False), {})],
    "affine_grid": [lambda d: ((t(d, (2, 3, 4)), (2, 1, 2, 3, 4)), {"align_corners": True})],
}
