"""Samples of the activation functions (decls/activation.py)."""
import mindtorch

from ._make import t

_f32, _f64 = mindtorch.float32, mindtorch.float64


def _float(*extra, **kwargs):
    """Float32, transposed float64, 0-dim, empty and float16 inputs (extra: further
    positional arguments)."""
    cases = [((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False),
             ((0, 3), _f32, False), ((4,), mindtorch.float16, False)]
    return [lambda d, c=c: ((t(d, *c),) + extra, dict(kwargs)) for c in cases]


SAMPLES = {
    "gelu": _float() + [lambda d: ((t(d, (3, 4)),), {"approximate": "tanh"})],
    "elu": _float() + [lambda d: ((t(d, (3,)), 0.5, 2.0, 1.5), {})],
    "selu": _float(), "celu": _float(1.5),
    "leaky_relu": _float(0.2), "hardtanh": _float(-0.5, 0.5) + [
        lambda d: ((t(d, (5,), mindtorch.int32), -2, 2), {})],
    "hardsigmoid": _float(), "hardswish": _float(), "mish": _float(),
    "threshold": _float(0.1, 2.0) + [lambda d: ((t(d, (5,), mindtorch.int64), 1, 7), {})],
    # (grad, input, threshold): relu's backward with threshold 0
    "threshold_backward": [lambda d, c=c: ((t(d, *c), t(d, *c), th), {})
                           for c, th in ((((3, 4), _f32, False), 0), (((3, 4), _f64, True), 0.3),
                                         (((), _f32, False), 0), (((0, 3), _f32, False), 0),
                                         (((4,), mindtorch.float16, False), -0.5))],
    # (grad, input): gelu's and silu's backward ops
    "gelu_backward": [lambda d, c=c: ((t(d, *c), t(d, *c)), {})
                      for c in (((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False),
                                ((0, 3), _f32, False))] + [
        lambda d: ((t(d, (3, 4)), t(d, (3, 4))), {"approximate": "tanh"})],
    "silu_backward": [lambda d, c=c: ((t(d, *c), t(d, *c)), {})
                      for c in (((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False),
                                ((0, 3), _f32, False))],
    # (grad, input or result, negative_slope, self_is_result)
    "leaky_relu_backward": [lambda d, c=c, r=r: ((t(d, *c), t(d, *c), 0.2, r), {})
                            for c in (((3, 4), _f32, False), ((3, 4), _f64, True),
                                      ((), _f32, False), ((0, 3), _f32, False))
                            for r in (False, True)],
    "hardswish_backward": [lambda d, c=c: ((t(d, *c) * 4, t(d, *c) * 4), {})
                           for c in (((3, 4), _f32, False), ((3, 4), _f64, True),
                                     ((), _f32, False), ((0, 3), _f32, False))],
    "hardtanh_backward": [lambda d, c=c: ((t(d, *c), t(d, *c) * 2, -0.5, 1.0), {})
                          for c in (((3, 4), _f32, False), ((3, 4), _f64, True),
                                    ((), _f32, False), ((0, 3), _f32, False))],
    "rrelu": _float(0.1, 0.3),  # (eval: deterministic)
    # training draws the noise (written into `noise`): random, compared by shape and dtype
    "rrelu_with_noise": [
        lambda d, c=c, training=training: ((t(d, *c), t(d, *c).abs(), 0.1, 0.3, training), {})
        for training in (False, True)
        for c in (((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False),
                  ((0, 3), _f32, False), ((4,), mindtorch.float16, False),
                  ((2, 3), mindtorch.bfloat16, False))],
    "_rrelu_with_noise_functional": [
        lambda d, c=c, training=training: ((t(d, *c), t(d, *c).abs(), 0.1, 0.3, training), {})
        for training in (False, True) for c in (((3, 4), _f32, False), ((3, 4), _f64, True))],
    "softplus": _float(2.0, 1.0), "log_sigmoid": _float(), "hardshrink": _float(0.3),
    "softshrink": _float(0.3), "glu": [lambda d: ((t(d, (3, 4)),), {}),
                                       lambda d: ((t(d, (4, 3), _f64, True), 0), {})],
    "prelu": [lambda d: ((t(d, (2, 3, 4)), t(d, (3,))), {}),
              lambda d: ((t(d, (3, 4), _f64, True), t(d, (1,), _f64)), {}),
              lambda d: ((t(d, ()), t(d, ())), {})],
    "functional_relu6": _float(), "functional_softsign": _float(),
    "functional_tanhshrink": _float(),
    "functional_softmax": [lambda d: ((t(d, (3, 4)), 1), {}),
                           lambda d: ((t(d, (3, 4)), 0), {"dtype": _f64})],
    "functional_log_softmax": [lambda d: ((t(d, (3, 4), _f64, True), -1), {})],
    "functional_softmin": [lambda d: ((t(d, (2, 3)), 1), {})],
}


_CASES = (((3, 4), _f32, False), ((3, 4), _f64, True), ((), _f32, False), ((0, 3), _f32, False),
          ((4,), mindtorch.float16, False))  # float32, transposed float64, 0-dim, empty, float16


def _backward(*extra, scale=1):
    """(grad, input or result, *extra) of an activation's backward op (the input times
    `scale`)."""
    return [lambda d, c=c: ((t(d, *c), t(d, *c) * scale) + extra, {}) for c in _CASES]


# (grad, result): sigmoid's and tanh's backward ops
SAMPLES.update(sigmoid_backward=_backward(), tanh_backward=_backward())
SAMPLES["softplus_backward"] = _backward(1.0, 20.0, scale=8) + _backward(2.0, 1.0)[:2]
# (grad, alpha, scale, input_scale, is_result, input or result): ELU, SELU, an in-place CELU
SAMPLES["elu_backward"] = [
    lambda d, c=c, a=a: ((t(d, *c),) + a + (t(d, *c) * 3,), {}) for c in _CASES
    for a in ((1.0, 1.0, 1.0, False), (1.6732632423543772, 1.0507009873554805, 1, False),
              (0.5, 1.0, 2.0, True))]
# (grad, input, buffer = exp(-|x|): ATen's cpu kernel reads it, mindtorch's recomputes it)
SAMPLES["log_sigmoid_backward"] = [
    lambda d, c=c: (lambda g, x: ((g, x, x.abs().neg().exp()), {}))(t(d, *c), t(d, *c) * 4)
    for c in _CASES]
for _name in ("elu", "celu", "leaky_relu", "hardtanh", "hardsigmoid", "hardswish", "mish",
              "threshold", "relu", "silu", "selu", "rrelu"):
    SAMPLES[f"functional_{_name}"] = SAMPLES.get(_name, _float())[:2]
