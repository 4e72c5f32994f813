"""Running an op's samples on a device: what a check found (Result), a missing kernel
(NoKernel), building a sample (seeded with its index, so the same sample built on two
devices holds the same values), calling the op quietly, describing its arguments, and
what the device offers (data, float64)."""
import contextlib
import re
import warnings

import mindtorch
from mindtorch import Tensor

_NO_KERNEL = re.compile(r"Could not run '([^']+)' on the '([^']+)' device")


class NoKernel(Exception):
    """The device has no kernel for an op the sample needs."""

    def __init__(self, op):
        super().__init__(op)
        self.op = op


class Result:
    """What one check found over an op's samples."""

    def __init__(self):
        self.ran = 0
        self.failures = []        # (sample index, message)
        self.no_kernel = set()    # ops the device lacked
        self.skipped = []         # (sample index, reason)

    def fail(self, i, msg):
        self.failures.append((i, msg))

    def verdict(self):
        """('pass' | 'fail' | 'skip', reason)."""
        if self.failures:
            return "fail", "\n\n".join(f"sample {i}: {m}" for i, m in self.failures)
        if self.no_kernel:  # partial runs are not passes: the device lacks part of the op
            ran = f"; {self.ran} samples checked" if self.ran else ""
            return "skip", "no kernel (" + ", ".join(sorted(self.no_kernel)) + ")" + ran
        if not self.ran:
            reasons = sorted({r for _, r in self.skipped}) or ["no applicable sample"]
            return "skip", "; ".join(reasons)
        return "pass", ""


def _no_kernel(e):
    m = _NO_KERNEL.match(str(e))
    return NoKernel(m.group(1)) if m else None


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def call(fn, args, kwargs):
    """fn(*args, **kwargs), a missing kernel raised as NoKernel."""
    try:
        with _quiet():
            return fn(*args, **kwargs)
    except NotImplementedError as e:
        nk = _no_kernel(e)
        if nk is not None:
            raise nk from e
        raise


def build(sample, i, device):
    mindtorch.manual_seed(i)
    try:
        with _quiet():
            args, kwargs = sample(device)
    except NotImplementedError as e:
        nk = _no_kernel(e)
        if nk is not None:
            raise nk from e
        raise
    return list(args), dict(kwargs)


def describe(args, kwargs):
    """A short account of a sample's arguments, for failure messages."""
    def one(x):
        if isinstance(x, Tensor):
            layout = "" if x.is_contiguous() else f", stride={x.stride()}"
            return f"Tensor({list(x.shape)}, {str(x.dtype).removeprefix('torch.')}{layout})"
        if isinstance(x, (list, tuple)):
            inner = ", ".join(one(v) for v in x)
            return f"[{inner}]" if isinstance(x, list) else f"({inner})"
        return repr(x)
    return ", ".join([one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()])


def base_error(e):
    """The builtin exception class an error is (torch raises subclasses of its own)."""
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def tensors(x):
    if isinstance(x, Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from tensors(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from tensors(v)


def _map(x, fn):
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_map(v, fn) for v in x)
    if isinstance(x, tuple):  # named tuples (return types): plain tuples
        return tuple(_map(v, fn) for v in x)
    if isinstance(x, dict):
        return {k: _map(v, fn) for k, v in x.items()}
    return fn(x)


def _metadata(x):
    """Shapes and dtypes of a result's tensors, for outputs whose values are random."""
    return _map(x, lambda v: (tuple(v.shape), v.dtype) if isinstance(v, Tensor) else type(v))


def has_data(device):
    from mindtorch.plugins._registry import DEVICES
    spec = DEVICES.get(mindtorch.device(device).type)
    return spec is not None and spec.has_data


_FLOAT64 = {}


def has_float64(device):
    if device not in _FLOAT64:
        try:
            with _quiet():
                mindtorch.tensor([1.0], dtype=mindtorch.float64).to(device)
            _FLOAT64[device] = True
        except Exception:
            _FLOAT64[device] = False
    return _FLOAT64[device]


def _tolerance(info, actual):
    t = next(tensors(actual), None)
    tol = info.tolerance(t.dtype) if t is not None else None
    return {"rtol": tol[0], "atol": tol[1]} if tol else {}
