"""Samples of the conv ops: convolution (the primitive), its backward, the public
conv{1,2,3}d / conv_transpose{1,2,3}d, im2col / col2im (F.unfold / F.fold)."""
import mindtorch

from ._make import t

_f32, _f64, _f16, _bf16 = mindtorch.float32, mindtorch.float64, mindtorch.float16, \
    mindtorch.bfloat16
_i64, _c64 = mindtorch.int64, mindtorch.complex64


def _nc(d, shape, dtype=_f32):
    """A non-contiguous tensor of `shape` (its last two dims transposed)."""
    return t(d, shape[:-2] + shape[:-3:-1], dtype).transpose(-1, -2)


SAMPLES = {
    # input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    "convolution": [
        lambda d: ((t(d, (2, 4, 5, 6)), t(d, (6, 2, 3, 2)), t(d, (6,)), (2, 1), (1, 0),
                    (1, 2), False, (0,), 2), {}),
        lambda d: ((_nc(d, (1, 3, 6, 5), _f64), t(d, (3, 2, 2, 3), _f64), None, (2,), (1,),
                    (1,), True, (1, 0), 1), {}),
        lambda d: ((t(d, (2, 2, 7)), t(d, (3, 2, 3)), None, (1,), (0,), (2,), False, (0,),
                    1), {}),
        lambda d: ((t(d, (1, 2, 3, 4, 4)), t(d, (2, 1, 2, 2, 3)), t(d, (2,)), (1,), (1,),
                    (1,), False, (0,), 2), {}),
        lambda d: ((t(d, (2, 3, 4, 4), _i64), t(d, (2, 3, 2, 2), _i64), None, (1,), (0,),
                    (1,), False, (0,), 1), {}),
        lambda d: ((t(d, (0, 3, 4, 4)), t(d, (2, 3, 2, 2)), t(d, (2,)), (1,), (0,), (1,),
                    False, (0,), 1), {}),
        lambda d: ((t(d, (1, 2, 4, 4), _f16), t(d, (2, 2, 3, 3), _f16), None, (1,), (1,),
                    (1,), False, (0,), 1), {}),
    ],
    # grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
    # output_padding, groups, output_mask
    "convolution_backward": [
        lambda d: ((t(d, (2, 4, 3, 5)), t(d, (2, 4, 5, 6)), t(d, (4, 2, 3, 2)), (4,), (2, 1),
                    (1, 0), (1, 1), False, (0,), 2, (True, True, True)), {}),
        lambda d: ((t(d, (1, 2, 8), _f64), t(d, (1, 3, 4), _f64), t(d, (3, 2, 2), _f64), None,
                    (2,), (0,), (1,), True, (0,), 1, (True, True, False)), {}),
    ],
    "conv1d": [
        lambda d: ((t(d, (2, 4, 7)), t(d, (6, 2, 3)), t(d, (6,))),
                   {"stride": 2, "padding": 1, "groups": 2}),
        lambda d: ((t(d, (3, 6), _f64), t(d, (2, 3, 2), _f64)), {"padding": "same"}),
        lambda d: ((t(d, (0, 2, 5)), t(d, (2, 2, 2))), {}),
    ],
    "conv2d": [
        lambda d: ((t(d, (1, 2, 3, 3)), t(d, (2, 2, 2, 2)), t(d, (2,))), {"padding": 1}),
        lambda d: ((t(d, (2, 4, 5, 6)), t(d, (6, 2, 3, 2)), t(d, (6,))),
                   {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2), "groups": 2}),
        lambda d: ((_nc(d, (2, 3, 6, 5), _f64), t(d, (2, 3, 3, 3), _f64)), {"padding": "same"}),
        lambda d: ((t(d, (3, 5, 5)), t(d, (2, 3, 2, 2))), {"padding": "valid"}),
        lambda d: ((t(d, (1, 2, 4, 4), _bf16), t(d, (3, 2, 3, 3), _bf16)), {"padding": 1}),
        lambda d: ((t(d, (1, 2, 4, 4), _c64), t(d, (3, 2, 3, 3), _c64)), {}),
        lambda d: ((t(d, (2, 2, 4, 4), _i64), t(d, (3, 2, 3, 3), _i64)), {}),
        lambda d: ((t(d, (2, 4, 5, 6)), t(d, (6, 3, 3, 3))), {}),  # a channel mismatch
    ],
    "conv3d": [
        lambda d: ((t(d, (1, 1, 2, 3, 3)), t(d, (2, 1, 2, 2, 2)), t(d, (2,))), {"stride": 2}),
        lambda d: ((t(d, (1, 2, 3, 4, 4)), t(d, (2, 1, 2, 2, 3)), t(d, (2,))),
                   {"padding": 1, "groups": 2}),
        lambda d: ((t(d, (2, 3, 4, 4), _f64), t(d, (2, 2, 2, 2, 2), _f64)), {"stride": 2}),
    ],
    "conv_transpose1d": [
        lambda d: ((t(d, (2, 4, 5)), t(d, (4, 3, 3)), t(d, (6,))),
                   {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2}),
        lambda d: ((t(d, (2, 5), _f64), t(d, (2, 3, 2), _f64)), {"dilation": 2}),
    ],
    "conv_transpose2d": [
        lambda d: ((t(d, (2, 4, 3, 4)), t(d, (4, 3, 3, 2)), t(d, (6,))),
                   {"stride": (2, 3), "padding": (1, 0), "output_padding": (1, 2), "groups": 2,
                    "dilation": (1, 2)}),
        lambda d: ((_nc(d, (1, 2, 4, 3), _f64), t(d, (2, 3, 2, 2), _f64)), {}),
        lambda d: ((t(d, (2, 3, 3), _i64), t(d, (2, 3, 2, 2), _i64)), {}),
    ],
    "conv_transpose3d": [
        lambda d: ((t(d, (1, 2, 2, 3, 3)), t(d, (2, 2, 2, 2, 1)), t(d, (2,))), {"stride": 2}),
    ],
    "im2col": [
        lambda d: ((t(d, (2, 3, 5, 6)), (2, 3)),
                   {"dilation": (1, 2), "padding": 1, "stride": (2, 1)}),
        lambda d: ((_nc(d, (3, 4, 5), _f64), 2), {}),
        lambda d: ((t(d, (0, 2, 4, 4)), 3), {"padding": 1}),
        lambda d: ((t(d, (1, 2, 4, 4), _bf16), 2), {"stride": 2}),
    ],
    "col2im": [
        lambda d: ((t(d, (2, 18, 12)), (5, 6), (2, 3)),
                   {"dilation": (1, 2), "padding": 1, "stride": (2, 1)}),
        lambda d: ((_nc(d, (12, 12), _f64), (4, 5), 2), {}),
        lambda d: ((t(d, (0, 8, 25)), 4, 2), {"padding": 1}),
    ],
}
