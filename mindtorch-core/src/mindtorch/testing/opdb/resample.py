"""Samples of the resample ops (padding, upsampling, shuffles)."""
import mindtorch

from ._make import t

_f16, _f64, _i64, _u8 = mindtorch.float16, mindtorch.float64, mindtorch.int64, mindtorch.uint8


def _nc(d, shape, dtype=mindtorch.float32):
    """A non-contiguous tensor of `shape` (its last two dims transposed in memory)."""
    return t(d, shape[:-2] + (shape[-1], shape[-2]), dtype).transpose(-1, -2)


def _pad(nd):
    s = (2, 3) + (3, 4, 5)[3 - nd:]
    p = (2, 1, 1, 2, 1, 0)[:2 * nd]
    return [
        lambda d: ((t(d, s), p), {}),
        lambda d: ((_nc(d, s[1:], _f64), p), {}),
        lambda d: ((t(d, (0,) + s[1:], _i64), p), {}),
        lambda d: ((t(d, s, _f16), tuple(-1 if i == 0 else 1 for i in range(2 * nd))), {}),
        lambda d: ((t(d, s), (5,) * (2 * nd)), {}),  # too large for reflection
    ]


def _pad_backward(name, nd):
    s = (2, 3) + (3, 4, 5)[3 - nd:]
    p = (2, 1, 1, 2, 1, 0)[:2 * nd]

    def sample(d, dtype=mindtorch.float32):
        from mindtorch._ops import OPS
        out = OPS[name].binding(t("cpu", s), p)
        return (t(d, tuple(out.shape), dtype), t(d, s, dtype), p), {}
    return [lambda d: sample(d), lambda d: sample(d, _f64)]


_SIZES = {1: ((2, 3, 5), [8]), 2: ((2, 3, 4, 5), [7, 3]), 3: ((1, 2, 3, 4, 5), [4, 2, 6])}


def _upsample(name, nd, ac):
    shape, size = _SIZES[nd]
    flag = (True,) if ac else ()
    none = (None,) * nd
    return [
        lambda d: ((t(d, shape), size) + flag + none, {}),
        lambda d: ((_nc(d, shape, _f64), size) + flag + (1.5,) * nd, {}),
        lambda d: ((t(d, (0,) + shape[1:], _f16), size) + flag + none, {}),
        lambda d: ((t(d, shape, _u8), size) + flag + none, {}),
        lambda d: ((t(d, shape), [0] * nd) + flag + none, {}),  # rejected
    ]


def _upsample_backward(name, nd, ac):
    shape, size = _SIZES[nd]
    flag = (False,) if ac else ()
    return [
        lambda d: ((t(d, shape[:2] + tuple(size)), size, shape) + flag + (None,) * nd, {}),
        lambda d: ((t(d, shape[:2] + tuple(size), _f64), size, shape) + flag + (0.7,) * nd, {}),
    ]


SAMPLES = {}
for _kind in ("reflection", "replication"):
    for _nd in (1, 2, 3):
        SAMPLES[f"{_kind}_pad{_nd}d"] = _pad(_nd)
        SAMPLES[f"{_kind}_pad{_nd}d_backward"] = _pad_backward(f"{_kind}_pad{_nd}d", _nd)


def _upsample_samples():
    from mindtorch._ops.decls.resample import UPSAMPLE
    for name, (nd, _, ac) in UPSAMPLE.items():
        SAMPLES[name] = _upsample(name, nd, ac)
        SAMPLES[name + "_backward"] = _upsample_backward(name, nd, ac)


_upsample_samples()
for _mode in ("bilinear", "bicubic", "lanczos"):  # antialiased: down- and upsampling
    SAMPLES[f"_upsample_{_mode}2d_aa"] = [
        lambda d: ((t(d, (2, 3, 9, 5)), [4, 7], False), {}),
        lambda d: ((_nc(d, (1, 2, 4, 6), _f64), [3, 3], False, 0.8, None), {}),
        lambda d: ((t(d, (1, 3, 7, 5), _u8), [3, 9], False), {}),
        lambda d: ((t(d, (1, 2, 4, 6), _f16), [3, 3], False), {})]  # refused
    SAMPLES[f"_upsample_{_mode}2d_aa_backward"] = [
        lambda d: ((t(d, (2, 3, 4, 7)), [4, 7], [2, 3, 9, 5], False), {}),
        lambda d: ((t(d, (1, 2, 3, 3), _f64), [3, 3], [1, 2, 4, 6], False, 0.8, None), {})]
SAMPLES.update({
    "pad": [lambda d: ((t(d, (2, 3, 4)), (1, 2)), {"mode": "reflect"}),
            lambda d: ((t(d, (2, 3, 4), _i64), (1, -1, 2, 0)), {"value": 3.0}),
            lambda d: ((_nc(d, (2, 3, 4)), (1, 2, 0, 1)), {"mode": "circular"}),
            lambda d: ((t(d, (1, 2, 3, 4)), (1,) * 6), {"mode": "replicate"})],
    "constant_pad_nd": [lambda d: ((t(d, (2, 3)), (1, 2, -1, 1), 2), {}),
                        lambda d: ((t(d, ()), ()), {})],
    "_pad_circular": [lambda d: ((t(d, (1, 2, 3, 4)), (1, 2, -1, 1)), {})],
    "interpolate": [lambda d: ((t(d, (1, 2, 3, 4)),), {"scale_factor": 1.5, "mode": "bilinear"}),
                    lambda d: ((t(d, (1, 2, 5)),), {"size": 3, "mode": "area"}),
                    lambda d: ((_nc(d, (1, 2, 3, 4)),), {"size": (5, 2)})],
    "upsample": [lambda d: ((t(d, (1, 2, 3, 4)), 5), {})],
    "upsample_nearest": [lambda d: ((t(d, (1, 2, 3, 4)),), {"scale_factor": 2})],
    "upsample_bilinear": [lambda d: ((t(d, (1, 2, 3, 4)), (4, 5)), {})],
    "pixel_shuffle": [lambda d: ((t(d, (2, 8, 3, 2)), 2), {}),
                      lambda d: ((t(d, (9, 2, 2), _i64), 3), {})],
    "pixel_unshuffle": [lambda d: ((t(d, (2, 2, 4, 6)), 2), {})],
    "channel_shuffle": [lambda d: ((t(d, (2, 6, 3)), 3), {})],
    "native_channel_shuffle": [lambda d: ((t(d, (2, 6, 3)), 2), {})],
})
