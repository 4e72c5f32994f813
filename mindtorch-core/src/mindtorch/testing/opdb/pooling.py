"""Samples of the pooling ops."""
import mindtorch

from ._make import t

_f16, _f64, _i64 = mindtorch.float16, mindtorch.float64, mindtorch.int64


def _pooled(d, nd, shape, dtype=mindtorch.float32):
    """(values, indices) of a max pooling with kernel 2, made on the cpu."""
    v, i = getattr(mindtorch.nn.functional, f"max_pool{nd}d")(t("cpu", shape, dtype), 2,
                                                              return_indices=True)
    return v.to(d), i.to(d)


def _nc(d, shape, dtype=mindtorch.float32):
    """A non-contiguous tensor of `shape` (its last two dims transposed in memory)."""
    return t(d, shape[:-2] + (shape[-1], shape[-2]), dtype).transpose(-1, -2)


def _max(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]
    return [
        lambda d: ((t(d, s), 2), {}),
        lambda d: ((t(d, s, _f64), 3, 2, 1, 2, True), {}),
        lambda d: ((t(d, s[1:], _f16), 2, 1), {}),
        lambda d: ((t(d, (0,) + s[1:]), 2), {}),
        lambda d: ((t(d, s, _i64), (2,) * nd, (1,) * nd, 1), {}),
        lambda d: ((_nc(d, s), 2), {}),
        lambda d: ((t(d, s), 2), {"padding": 2}),  # rejected
    ]


def _avg(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]
    return [
        lambda d: ((t(d, s), 2), {}),
        lambda d: ((t(d, s, _f64), 3, 2, 1, True, False), {}),
        lambda d: ((_nc(d, s), 2, 1), {}),
        lambda d: ((t(d, s[1:]), 2, 1, 1), {"divisor_override": 3}),
        lambda d: ((t(d, (0,) + s[1:]), 2), {}),
        lambda d: ((t(d, s, _i64), 2), {}),
        lambda d: ((t(d, s, _f16), 2), {}),
    ]


def _avg_backward(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]

    def sample(d, args):
        x = t(d, s)
        out = getattr(mindtorch.nn.functional, f"avg_pool{nd}d")(t("cpu", s), *args)
        return (t(d, tuple(out.shape)), x, *args), {}
    return [lambda d: sample(d, ((2,) * nd, (2,) * nd, (0,) * nd, False, True, None)),
            lambda d: sample(d, ((3,) * nd, (2,) * nd, (1,) * nd, True, False, 2))]


def _adaptive(nd, name):
    s = (1, 2) + (5, 4, 6)[3 - nd:]
    return [
        lambda d: ((t(d, s), (3,) * nd), {}),
        lambda d: ((t(d, s[1:], _f64), (7,) * nd), {}),
        lambda d: ((t(d, (0,) + s[1:], _f16), (2,) * nd), {}),
        lambda d: ((_nc(d, s), (1,) * nd), {}),
        lambda d: ((t(d, s), (0,) * nd), {}),
        lambda d: ((t(d, s, _i64), (2,) * nd), {}),
    ]


def _adaptive_backward(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]
    return [lambda d: ((t(d, (1, 2) + (3,) * nd), t(d, s)), {}),
            lambda d: ((t(d, (2,) + (7,) * nd, _f64), t(d, s[1:], _f64)), {})]


def _unpool(nd):
    s = (1, 2) + (4, 4, 6)[3 - nd:]
    extra = ((2,) * 3, (0,) * 3) if nd == 3 else ()
    return [
        lambda d: (_pooled(d, nd, s) + (s[-nd:],) + extra, {}),
        lambda d: (_pooled(d, nd, s[1:], _f64) + (tuple(n + 1 for n in s[-nd:]),) + extra, {}),
    ]


def _max_backward(nd):
    """max_pool{nd}d_with_indices_backward: a gradient of the pooled shape and the indices
    of a forward made on the cpu."""
    s = (1, 2) + (5, 4, 6)[3 - nd:]

    def sample(d, args, dtype=mindtorch.float32):
        x = t("cpu", s, dtype)
        _, i = getattr(mindtorch.nn.functional, f"max_pool{nd}d")(x, *args, return_indices=True)
        return (t(d, tuple(i.shape), dtype), x.to(d), *args, i.to(d)), {}
    return [lambda d: sample(d, ((2,) * nd, (2,) * nd, (0,) * nd, (1,) * nd, False)),
            lambda d: sample(d, ((3,) * nd, (2,) * nd, (1,) * nd, (1,) * nd, True), _f64)]


def _adaptive_max_backward(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]

    def sample(d, size, dtype=mindtorch.float32):
        x = t("cpu", s, dtype)
        _, i = getattr(mindtorch.nn.functional, f"adaptive_max_pool{nd}d")(x, size, True)
        return (t(d, tuple(i.shape), dtype), x.to(d), i.to(d)), {}
    return [lambda d: sample(d, (3,) * nd), lambda d: sample(d, (2,) * nd, _f64)]


def _nn_unpool(nd):
    s = (1, 2) + (4, 4, 6)[3 - nd:]
    def pooled(d, shape, dtype=mindtorch.float32):
        if nd == 1:
            v, i = mindtorch.nn.functional.max_pool1d(t("cpu", shape, dtype), 2,
                                                      return_indices=True)
            return v.to(d), i.to(d)
        return _pooled(d, nd, shape, dtype)
    return [
        lambda d: (pooled(d, s) + (2,), {}),
        lambda d: (pooled(d, s[1:], _f64) + (2, 2, 0, tuple(n + 1 for n in s[-nd:])), {}),
    ]


def _lp(nd):
    s = (1, 2) + (5, 4, 6)[3 - nd:]
    return [lambda d: ((t(d, s), 2, 2), {}),
            lambda d: ((t(d, s[1:], _f64), 1.5, (3,) * nd, 1), {}),
            lambda d: ((t(d, s), float("inf"), 2), {"ceil_mode": True})]


SAMPLES = {}
for _nd in (2, 3):
    SAMPLES.update({
        f"max_pool{_nd}d_with_indices": _max(_nd),
        f"max_pool{_nd}d": _max(_nd),
        f"avg_pool{_nd}d": _avg(_nd),
        f"avg_pool{_nd}d_backward": _avg_backward(_nd),
        f"_adaptive_avg_pool{_nd}d": _adaptive(_nd, "avg"),
        f"adaptive_avg_pool{_nd}d": _adaptive(_nd, "avg"),
        f"_adaptive_avg_pool{_nd}d_backward": _adaptive_backward(_nd),
        f"adaptive_max_pool{_nd}d": _adaptive(_nd, "max"),
        f"max_unpool{_nd}d": _unpool(_nd),
        f"max_pool{_nd}d_with_indices_backward": _max_backward(_nd),
        f"adaptive_max_pool{_nd}d_backward": _adaptive_max_backward(_nd),
        f"adaptive_max_pool{_nd}d_with_indices": _adaptive(_nd, "max"),
    })
for _nd in (1, 2, 3):
    SAMPLES[f"lp_pool{_nd}d"] = _lp(_nd)
    SAMPLES[f"nn_max_unpool{_nd}d"] = _nn_unpool(_nd)
SAMPLES.update({
    "max_pool1d": _max(1),
    "max_pool1d_with_indices": _max(1),
    "avg_pool1d": [lambda d: ((t(d, (2, 3, 7)), 3, 2, 1), {}),
                   lambda d: ((t(d, (3, 7), _f64), 2), {"ceil_mode": True})],
    "adaptive_avg_pool1d": [lambda d: ((t(d, (2, 3, 7)), 3), {}),
                            lambda d: ((t(d, (3, 4), _f64), 9), {})],
    "adaptive_max_pool1d": [lambda d: ((t(d, (2, 3, 7)), 3), {})],
    "nn_adaptive_max_pool1d": [lambda d: ((t(d, (2, 3, 7)), 3), {"return_indices": True})],
    "nn_adaptive_max_pool2d": [lambda d: ((t(d, (2, 3, 7, 5)), (3, None)), {})],
    "adaptive_max_pool1d_with_indices": [lambda d: ((t(d, (2, 3, 7)), 3), {}),
                                         lambda d: ((t(d, (3, 4), _f64), 9), {})],
    "nn_adaptive_max_pool3d": [lambda d: ((t(d, (2, 3, 7, 5, 4)), (3, None, 2)), {}),
                               lambda d: ((t(d, (3, 4, 5, 6), _f64), 2), {})],
})
SAMPLES["nn_max_unpool2d"].append(
    lambda d: (_pooled(d, 2, (1, 2, 5, 4)) + (2,), {"output_size": (5, 4)}))
SAMPLES["lp_pool2d"].append(lambda d: ((t(d, (2, 4, 6), _f64), 1.5, (2, 3), 1), {}))


def _u(d, shape, dtype=mindtorch.float32):
    """Fractional pooling's samples: values in (0, 1)."""
    return t(d, shape, dtype).sigmoid()


SAMPLES.update({  # (fixed samples: the pooling windows are PyTorch's)
    "fractional_max_pool2d": [lambda d: ((t(d, (1, 2, 5, 4)), (2, 2), (3, 3), _u(d, (1, 2, 2))),
                                         {})],
    "fractional_max_pool3d": [
        lambda d: ((t(d, (1, 4, 3, 5)), (2, 1, 2), (2, 2, 3), _u(d, (1, 1, 3))), {})],
    "functional_fractional_max_pool2d": [
        lambda d: ((t(d, (1, 2, 5, 4)), 2), {"output_size": 3,
                                             "_random_samples": _u(d, (1, 2, 2))}),
        lambda d: ((_nc(d, (2, 7, 6), _f64), (2, 3)),
                   {"output_ratio": (0.5, 0.5), "return_indices": True,
                    "_random_samples": _u(d, (1, 2, 2), _f64)}),
        lambda d: ((t(d, (2, 3, 6, 6), _f16), 3), {"output_size": (2, 3),
                                                   "_random_samples": _u(d, (2, 3, 2), _f16)}),
    ],
    "functional_fractional_max_pool2d_with_indices": [
        lambda d: ((t(d, (1, 2, 5, 4)), 2, 3, None, False, _u(d, (1, 2, 2))), {})],
    "functional_fractional_max_pool3d": [
        lambda d: ((t(d, (1, 1, 4, 3, 5)), 2), {"output_size": (2, 1, 3),
                                                "_random_samples": _u(d, (1, 1, 3))}),
        lambda d: ((t(d, (2, 5, 4, 4), _f64), (2, 1, 2)),
                   {"output_ratio": 0.5, "_random_samples": _u(d, (1, 2, 3), _f64)}),
    ],
    "functional_fractional_max_pool3d_with_indices": [
        lambda d: ((t(d, (1, 4, 3, 4)), (2, 1, 2)), {"output_size": 2,
                                                     "_random_samples": _u(d, (1, 1, 3))})],
})
