"""Samples of the normalization ops (running statistics are fresh tensors per sample, so
in-place updates never leak between runs)."""
import mindtorch

from ._make import t

_f16, _bf16, _f64 = mindtorch.float16, mindtorch.bfloat16, mindtorch.float64


def _pos(d, shape, dtype=mindtorch.float32):
    return t(d, shape, dtype).abs() + 0.5


def _layer_norm_backward_args(d, shape, normalized, dtype, transposed, weight):
    """_layer_norm_backward's arguments, with the input's own statistics."""
    x = t(d, shape, dtype, transposed)
    dims = tuple(range(len(shape) - len(normalized), len(shape)))
    rstd = (x.var(dims, unbiased=False, keepdim=True) + 1e-5).rsqrt()
    w = t(d, normalized, dtype) if weight else None
    return (t(d, shape, dtype), x, x.mean(dims, keepdim=True), rstd, w, normalized), {}


def _group_norm_backward_args(d, shape, group, dtype, weight, channels_last=False):
    """_group_norm_backward's arguments, with the input's own statistics (N, group) (the
    gradient laid out as the input, as autograd gives it)."""
    x, g = t(d, shape, dtype), t(d, shape, dtype)
    if channels_last:
        x, g = (a.contiguous(memory_format=mindtorch.channels_last) for a in (x, g))
    N, C = shape[:2]
    x3 = x.reshape(N, group, -1)
    rstd = (x3.var(-1, unbiased=False) + 1e-5).rsqrt()
    w = t(d, (C,), dtype) if weight else None
    HxW = x.numel() // (N * C)
    return (g, x, x3.mean(-1), rstd, w, None, None, N, C, HxW, group), {}


def _batch_norm_backward_args(d, shape, dtype, weight, channels_last=False):
    """_batch_norm_backward's arguments, with the input's own statistics."""
    x = t(d, shape, dtype)
    if channels_last:
        x = x.contiguous(memory_format=mindtorch.channels_last)
    dims = (0,) + tuple(range(2, len(shape)))
    invstd = (x.var(dims, unbiased=False) + 1e-5).rsqrt()
    w = t(d, shape[1:2], dtype) if weight else None
    return (t(d, shape, dtype), x, x.mean(dims), invstd, w), {}


SAMPLES = {
    "native_layer_norm": [
        lambda d: ((t(d, (4, 3, 5)), (5,), t(d, (5,)), t(d, (5,)), 1e-5), {}),
        lambda d: ((t(d, (3, 5), _f64, transposed=True), (3, 5), None, None, 1e-3), {}),
        lambda d: ((t(d, (2, 4), _bf16), (4,), t(d, (4,)), None, 1e-5), {}),
        lambda d: ((t(d, (0, 4), _f16), (4,), None, t(d, (4,), _f16), 1e-5), {}),
        lambda d: ((t(d, (2, 0)), (0,), None, None, 1e-5), {}),
    ],
    # (grad, input, mean, rstd, weight, normalized_shape)
    "_layer_norm_backward": [
        lambda d: _layer_norm_backward_args(d, (4, 3, 5), (5,), mindtorch.float32, False, True),
        lambda d: _layer_norm_backward_args(d, (3, 5), (3, 5), _f64, True, False),
    ],
    "layer_norm": [lambda d: ((t(d, (2, 3, 4)), (3, 4)), {"eps": 1e-3})],
    "functional_layer_norm": [lambda d: ((t(d, (2, 3, 4)), (4,), t(d, (4,))), {})],
    "native_group_norm": [
        lambda d: ((t(d, (2, 6, 3)), t(d, (6,)), t(d, (6,)), 2, 6, 3, 3, 1e-5), {}),
        lambda d: ((t(d, (2, 4), _bf16), None, None, 2, 4, 1, 2, 1e-5), {}),
    ],
    # (grad, input, mean, rstd, weight, grad_mean, grad_rstd, N, C, HxW, group)
    "_group_norm_backward": [
        lambda d: _group_norm_backward_args(d, (2, 6, 3), 3, mindtorch.float32, True),
        lambda d: _group_norm_backward_args(d, (2, 4, 2, 2), 2, _f64, False),
        lambda d: _group_norm_backward_args(d, (2, 4, 3, 2), 4, mindtorch.float32, True, True),
    ],
    "group_norm": [lambda d: ((t(d, (2, 4, 2, 2), _f64), 2), {})],
    "functional_group_norm": [lambda d: ((t(d, (3, 4, 2)), 4, t(d, (4,))), {})],
    "native_batch_norm": [
        lambda d: ((t(d, (4, 3, 2)), t(d, (3,)), t(d, (3,)), t(d, (3,)), _pos(d, (3,)), True,
                    0.1, 1e-5), {}),
        lambda d: ((t(d, (4, 3)), None, None, t(d, (3,)), _pos(d, (3,)), False, 0.1, 1e-5),
                   {}),
        lambda d: ((t(d, (2, 3, 2), _f16), None, None, None, None, True, 0.1, 1e-5), {}),
    ],
    "_batch_norm_training": [lambda d: ((t(d, (4, 3, 2)), t(d, (3,)), None, 1e-5), {})],
    # (grad, input, mean, invstd, weight)
    "_batch_norm_backward": [
        lambda d: _batch_norm_backward_args(d, (4, 3, 2), mindtorch.float32, True),
        lambda d: _batch_norm_backward_args(d, (5, 2), _f64, False),
        lambda d: _batch_norm_backward_args(d, (2, 3, 2, 2), mindtorch.float32, True, True),
    ],
    "_batch_norm_inference": [lambda d: ((t(d, (4, 3)), None, t(d, (3,)), t(d, (3,)),
                                          _pos(d, (3,)), 1e-5), {})],
    # (grad, input, weight, running_mean, running_var, eps)
    "_batch_norm_inference_backward": [
        lambda d: ((t(d, (4, 3, 2)), t(d, (4, 3, 2)), t(d, (3,)), t(d, (3,)), _pos(d, (3,)),
                    1e-5), {}),
        lambda d: ((t(d, (5, 2), _f64), t(d, (5, 2), _f64), None, t(d, (2,), _f64),
                    _pos(d, (2,), _f64), 1e-3), {}),
        lambda d: ((t(d, (2, 3, 2, 2)), t(d, (2, 3, 2, 2)).contiguous(
            memory_format=mindtorch.channels_last), t(d, (3,)), t(d, (3,)), _pos(d, (3,)),
            1e-5), {})],
    "batch_norm": [lambda d: ((t(d, (4, 3, 2, 2)), None, None, t(d, (3,)), _pos(d, (3,)),
                               True, 0.1, 1e-5, False), {}),
                   lambda d: ((t(d, (0, 3)), None, None, None, None, True, 0.1, 1e-5, False),
                              {})],
    "functional_batch_norm": [lambda d: ((t(d, (4, 3), transposed=True), t(d, (3,)),
                                          _pos(d, (3,))), {"training": True})],
    "instance_norm": [lambda d: ((t(d, (2, 3, 4)), None, None, t(d, (3,)), _pos(d, (3,)), True,
                                  0.1, 1e-5, False), {})],
    "functional_instance_norm": [lambda d: ((t(d, (2, 3, 2, 2), _f64),), {})],
    "rms_norm": [lambda d: ((t(d, (3, 4)), (4,), t(d, (4,))), {}),
                 lambda d: ((t(d, (2, 3), _bf16), (2, 3)), {"eps": 1e-3})],
    "local_response_norm": [lambda d: ((t(d, (2, 5, 3)), 3), {}),
                            lambda d: ((t(d, (1, 4, 2, 2), mindtorch.int64), 2), {})],
    "normalize": [lambda d: ((t(d, (3, 4)),), {}),
                  lambda d: ((t(d, (2, 3, 4), _f16), 1.0, (0, 2)), {})],
}
